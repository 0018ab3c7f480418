/*
 * filter.c - Go-style benchmark selection (see filter.h).
 */
#include "harness/filter.h"

#include "engines/libc_regex.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/*
 * Go's splitRegexp: the end of the part that starts at s, which is at a
 * '/' or '|' outside brackets and parentheses, or at the end.
 */
static size_t part_end(const char *s)
{
	int cs = 0, cp = 0;
	size_t i = 0;

	for (; s[i] != '\0'; i++) {
		switch (s[i]) {
		case '[':
			cs++;
			break;
		case ']':
			if (--cs < 0) /* an unmatched ']' is a literal */
				cs = 0;
			break;
		case '(':
			cp += cs == 0;
			break;
		case ')':
			cp -= cs == 0;
			break;
		case '\\':
			if (s[i + 1] != '\0')
				i++;
			break;
		case '/':
		case '|':
			if (cs == 0 && cp == 0)
				return i;
			break;
		}
	}
	return i;
}

/* Compile part p (len bytes) as level a->n of a.  0, or -1 with err. */
static int add_part(struct bench_filter *f, struct filter_alt *a,
		    const char *p, size_t len, char *err, size_t errsize)
{
	char *re;
	int code;

	if (a->n == FILTER_MAX_PARTS) {
		snprintf(err, errsize, "--bench: more than %d levels",
			 FILTER_MAX_PARTS);
		return -1;
	}
	a->any[a->n] = len == 0;
	if (len == 0) {
		a->n++;
		return 0;
	}
	re = strndup(p, len);
	if (re == NULL)
		return -1;
	code = f->api->comp(&a->re[a->n], re, REG_EXTENDED | REG_NOSUB);
	if (code != 0) {
		char msg[128];
		f->api->error(code, &a->re[a->n], msg, sizeof(msg));
		snprintf(err, errsize, "--bench: bad regex '%s': %s", re, msg);
	} else {
		a->n++;
	}
	free(re);
	return code == 0 ? 0 : -1;
}

int filter_init(struct bench_filter *f, const char *pattern, char *err,
		size_t errsize)
{
	memset(f, 0, sizeof(*f));
	if (pattern == NULL || pattern[0] == '\0')
		return 0;
	f->api = libc_regex();
	if (f->api == NULL) {
		snprintf(err, errsize, "--bench: no POSIX regex in this libc");
		return -1;
	}
	f->nalt = 1;
	for (const char *p = pattern;; p++) {
		size_t len = part_end(p);
		if (add_part(f, &f->alt[f->nalt - 1], p, len, err, errsize)) {
			filter_release(f);
			return -1;
		}
		p += len;
		if (*p == '\0')
			break;
		if (*p == '|' && f->nalt == FILTER_MAX_ALTS) {
			snprintf(err, errsize, "--bench: more than %d "
				 "alternatives", FILTER_MAX_ALTS);
			filter_release(f);
			return -1;
		}
		if (*p == '|')
			f->nalt++;
	}
	return 0;
}

void filter_release(struct bench_filter *f)
{
	for (size_t k = 0; k < f->nalt; k++)
		for (size_t i = 0; i < f->alt[k].n; i++)
			if (!f->alt[k].any[i])
				f->api->free(&f->alt[k].re[i]);
	f->nalt = 0;
}

/* 1 when alternative a selects "Benchmark" + name. */
static int alt_match(const struct bench_filter *f, const struct filter_alt *a,
		     const char *name)
{
	char level[512];
	const char *p = name;

	for (size_t i = 0; i < a->n; i++) {
		size_t len = strcspn(p, "/");
		size_t off = 0;

		if (i == 0)
			off = (size_t)snprintf(level, sizeof(level), "Benchmark");
		if (len >= sizeof(level) - off)
			len = sizeof(level) - off - 1;
		memcpy(level + off, p, len);
		level[off + len] = '\0';
		if (!a->any[i] && f->api->exec(&a->re[i], level, 0, NULL, 0) != 0)
			return 0;
		p += strcspn(p, "/");
		if (*p == '/')
			p++;
		else if (i + 1 < a->n)
			return 0; /* pattern deeper than the name */
	}
	return 1;
}

int filter_match(const struct bench_filter *f, const char *name)
{
	if (f->nalt == 0)
		return 1;
	for (size_t k = 0; k < f->nalt; k++)
		if (alt_match(f, &f->alt[k], name))
			return 1;
	return 0;
}

int filter_select(struct bench_filter *f, const char *name)
{
	int m = filter_match(f, name);

	if (f->asked++ == 0)
		snprintf(f->example, sizeof(f->example), "%s", name);
	f->chosen += m;
	return m;
}

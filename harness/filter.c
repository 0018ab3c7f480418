/*
 * filter.c - Go-style benchmark selection (see filter.h).
 */
#include "harness/filter.h"

#include "engines/libc_regex.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int filter_init(struct bench_filter *f, const char *pattern, char *err,
		size_t errsize)
{
	char *copy, *part, *save = NULL;
	int rc = 0;

	f->n = 0;
	if (pattern == NULL || pattern[0] == '\0')
		return 0;
	f->api = libc_regex();
	if (f->api == NULL) {
		snprintf(err, errsize, "--bench: no POSIX regex in this libc");
		return -1;
	}
	copy = strdup(pattern);
	if (copy == NULL)
		return -1;
	for (part = strtok_r(copy, "/", &save); part != NULL;
	     part = strtok_r(NULL, "/", &save)) {
		int code;
		if (f->n == FILTER_MAX_PARTS) {
			snprintf(err, errsize, "--bench: more than %d levels",
				 FILTER_MAX_PARTS);
			rc = -1;
			break;
		}
		code = f->api->comp(&f->re[f->n], part, REG_EXTENDED | REG_NOSUB);
		if (code != 0) {
			char msg[128];
			f->api->error(code, &f->re[f->n], msg, sizeof(msg));
			snprintf(err, errsize, "--bench: bad regex '%s': %s",
				 part, msg);
			rc = -1;
			break;
		}
		f->n++;
	}
	free(copy);
	if (rc != 0)
		filter_release(f);
	return rc;
}

void filter_release(struct bench_filter *f)
{
	for (size_t i = 0; i < f->n; i++)
		f->api->free(&f->re[i]);
	f->n = 0;
}

int filter_match(const struct bench_filter *f, const char *name)
{
	char level[512];
	const char *p = name;

	for (size_t i = 0; i < f->n; i++) {
		size_t len = strcspn(p, "/");
		size_t off = 0;

		if (i == 0)
			off = (size_t)snprintf(level, sizeof(level), "Benchmark");
		if (len >= sizeof(level) - off)
			len = sizeof(level) - off - 1;
		memcpy(level + off, p, len);
		level[off + len] = '\0';
		if (f->api->exec(&f->re[i], level, 0, NULL, 0) != 0)
			return 0;
		p += strcspn(p, "/");
		if (*p == '/')
			p++;
		else if (i + 1 < f->n)
			return 0; /* pattern deeper than the name */
	}
	return 1;
}

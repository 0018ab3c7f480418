/*
 * layout_decl.c - parsing a suite's layout lines (see layout_decl.h).
 */
#include "report/layout_decl.h"

#include "harness/bench.h"
#include "harness/parse.h"
#include "report/view.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Copy s[0..n) into a word; -1 when it does not fit. */
static int word(char *dst, const char *s, size_t n)
{
	if (n >= LDECL_WORD)
		return -1;
	memcpy(dst, s, n);
	dst[n] = '\0';
	return 0;
}

static int parse_list(const char *v, struct ldecl_list *l)
{
	l->n = 0;
	while (*v != '\0') {
		size_t n = strcspn(v, ",");
		if (n == 0 || l->n == LDECL_MAX || word(l->s[l->n++], v, n))
			return -1;
		v += n + (v[n] == ',');
	}
	return 0;
}

/* "ns/op", "linerate:line-Mpps" or "cores:line-Mpps/Mpps". */
static int parse_metric(const char *v, size_t n, struct ldecl_metric *m)
{
	const char *colon = memchr(v, ':', n), *slash;

	memset(m, 0, sizeof(*m));
	if (colon == NULL)
		return word(m->name, v, n) || word(m->a, v, n);
	slash = memchr(colon + 1, '/', n - (size_t)(colon + 1 - v));
	if (slash == NULL) /* NAME:UNIT, a unit under another heading */
		return word(m->name, v, (size_t)(colon - v)) ||
		       word(m->a, colon + 1, n - (size_t)(colon + 1 - v));
	if (word(m->name, v, (size_t)(colon - v)) ||
	    word(m->a, colon + 1, (size_t)(slash - colon - 1)))
		return -1;
	return word(m->b, slash + 1, n - (size_t)(slash + 1 - v));
}

static int parse_metrics(const char *v, struct ldecl_metric *m, size_t *nm)
{
	*nm = 0;
	while (*v != '\0') {
		size_t n = strcspn(v, ",");
		if (n == 0 || *nm == LDECL_MAX || parse_metric(v, n, &m[(*nm)++]))
			return -1;
		v += n + (v[n] == ',');
	}
	return 0;
}

int ldecl_bytes(const char *s, double *bytes)
{
	static const struct { const char *suffix; double scale; } units[] = {
		{"GiB", 1073741824.0}, {"MiB", 1048576.0}, {"KiB", 1024.0},
		{"B", 1}, {"", 1},
	};
	char num[LDECL_WORD], err[128];
	size_t n = strspn(s, "0123456789.");

	for (size_t i = 0; i < sizeof(units) / sizeof(units[0]); i++) {
		if (strcmp(s + n, units[i].suffix) != 0 || n >= sizeof(num))
			continue;
		memcpy(num, s, n);
		num[n] = '\0';
		if (parse_real(num, 1e-9, 1e18, bytes, err, sizeof(err)) != 0)
			return -1;
		*bytes *= units[i].scale;
		return 0;
	}
	return -1;
}

/* "KEY:VALUE" into two words. */
static int parse_pair(const char *v, char *k, char *val)
{
	const char *colon = strchr(v, ':');

	if (colon == NULL || word(k, v, (size_t)(colon - v)))
		return -1;
	return word(val, colon + 1, strlen(colon + 1));
}

/* "KEY:V1|V2|..." into key and the values, in order; -1 unless one
 * value at least. */
static int parse_key_values(const char *v, char *key, struct ldecl_list *l)
{
	char values[LDECL_MAX * LDECL_WORD];
	const char *colon = strchr(v, ':');
	size_t n;

	if (colon == NULL || word(key, v, (size_t)(colon - v)))
		return -1;
	n = strlen(colon + 1);
	if (n >= sizeof(values) || strchr(colon + 1, ',') != NULL)
		return -1;
	memcpy(values, colon + 1, n + 1);
	for (char *p = values; *p != '\0'; p++)
		*p = *p == '|' ? ',' : *p;
	return parse_list(values, l) != 0 || l->n == 0 ? -1 : 0;
}

/* cost=KEY:V1|V2|...: the values in order of preference, the first the
 * cost's name. */
static int parse_cost(const char *v, struct ldecl *d)
{
	if (parse_key_values(v, d->cost_key, &d->costs) != 0)
		return -1;
	memcpy(d->cost_value, d->costs.s[0], LDECL_WORD);
	return 0;
}

static int parse_budget_heap(const char *v, struct ldecl *d)
{
	char bytes[LDECL_WORD];

	return parse_pair(v, d->heap, bytes) || ldecl_bytes(bytes, &d->heap_bytes);
}

static int parse_flag(const char *v, int *flag)
{
	*flag = strcmp(v, "1") == 0;
	return *flag || strcmp(v, "0") == 0 ? 0 : -1;
}

static int parse_rows(const char *v, struct ldecl *d)
{
	char buf[LDECL_MAX * LDECL_WORD];
	size_t n = strlen(v);

	if (n >= sizeof(buf))
		return -1;
	memcpy(buf, v, n + 1);
	d->rows_desc = n > 5 && strcmp(buf + n - 5, ":desc") == 0;
	if (d->rows_desc)
		buf[n - 5] = '\0';
	return parse_list(buf, &d->rows);
}

static int parse_text(const char *v, char *dst, size_t size)
{
	if (strlen(v) >= size)
		return -1;
	memcpy(dst, v, strlen(v) + 1);
	return 0;
}

/* top=N: 1 to 1000 rows. */
static int parse_top(const char *v, struct ldecl *d)
{
	char *end;
	unsigned long n = strtoul(v, &end, 10);

	if (*v == '\0' || *end != '\0' || n == 0 || n > 1000)
		return -1;
	d->top = n;
	return 0;
}

/* flag=NAME:BOUND */
static int parse_flag_over(const char *v, struct ldecl *d)
{
	char bound[LDECL_WORD], *end;

	if (parse_pair(v, d->flag, bound) != 0)
		return -1;
	d->flag_over = strtod(bound, &end);
	return *end == '\0' && end != bound ? 0 : -1;
}

/* The words of a recommendation in lines and of who is no contender
 * (verdict); -1: unknown key. */
static int apply_lines(struct ldecl *d, const char *k, const char *v)
{
	if (strcmp(k, "apart") == 0) return parse_list(v, &d->apart);
	if (strcmp(k, "hold") == 0) return parse_metrics(v, d->hold, &d->nhold);
	if (strcmp(k, "baseline") == 0)
		return parse_pair(v, d->base_key, d->base_value);
	if (strcmp(k, "floor") == 0)
		return parse_pair(v, d->floor_key, d->floor_value);
	if (strcmp(k, "baseline-label") == 0)
		return parse_text(v, d->base_label, sizeof(d->base_label));
	if (strcmp(k, "floor-label") == 0)
		return parse_text(v, d->floor_label, sizeof(d->floor_label));
	if (strcmp(k, "op") == 0) return parse_text(v, d->op, LDECL_WORD);
	if (strcmp(k, "except") == 0)
		return parse_key_values(v, d->except_key, &d->excepts);
	if (strcmp(k, "except-label") == 0)
		return parse_text(v, d->except_label, sizeof(d->except_label));
	if (strcmp(k, "where") == 0) return parse_text(v, d->where, LDECL_WORD);
	return -1;
}

/* One key=value word into d; -1 when the key is unknown or v bad. */
static int apply(struct ldecl *d, const char *k, const char *v)
{
	if (strcmp(k, "split") == 0) return parse_list(v, &d->split);
	if (strcmp(k, "rows") == 0) return parse_rows(v, d);
	if (strcmp(k, "by") == 0) return parse_list(v, &d->by);
	if (strcmp(k, "who") == 0) return parse_list(v, &d->who);
	if (strcmp(k, "only") == 0) return parse_list(v, &d->only);
	if (strcmp(k, "about") == 0) return parse_list(v, &d->about);
	if (strcmp(k, "cols") == 0) return parse_text(v, d->col, LDECL_WORD);
	if (strcmp(k, "shared") == 0) return parse_text(v, d->shared, LDECL_WORD);
	if (strcmp(k, "size") == 0) return parse_text(v, d->size, LDECL_WORD);
	if (strcmp(k, "keyunit") == 0)
		return parse_text(v, d->keyunit, LDECL_WORD);
	if (strcmp(k, "line") == 0) return parse_text(v, d->line, LDECL_WORD);
	if (strcmp(k, "complete") == 0)
		return parse_text(v, d->complete, LDECL_WORD);
	if (strcmp(k, "title") == 0) return parse_text(v, d->title, 256);
	if (strcmp(k, "question") == 0) return parse_text(v, d->question, 256);
	if (strcmp(k, "metrics") == 0 || strcmp(k, "metric") == 0)
		return parse_metrics(v, d->metric, &d->nmetric);
	if (strcmp(k, "lead") == 0) return parse_metrics(v, d->lead, &d->nlead);
	if (strcmp(k, "show") == 0) return parse_metrics(v, d->show, &d->nshow);
	if (strcmp(k, "best") == 0) return parse_flag(v, &d->best);
	if (strcmp(k, "overall") == 0) return parse_flag(v, &d->overall);
	if (strcmp(k, "cost") == 0) return parse_cost(v, d);
	if (strcmp(k, "budget") == 0) return bench_parse_duration(v, &d->budget_ns);
	if (strcmp(k, "heap") == 0) return parse_budget_heap(v, d);
	if (strcmp(k, "top") == 0) return parse_top(v, d);
	if (strcmp(k, "flag") == 0) return parse_flag_over(v, d);
	if (strcmp(k, "as") == 0) return parse_pair(v, d->as_from, d->as_to);
	return apply_lines(d, k, v);
}

static const struct { const char *name; enum ldecl_kind kind; } kinds[] = {
	{"table", LDECL_TABLE}, {"growth", LDECL_GROWTH},
	{"verdict", LDECL_VERDICT}, {"costliest", LDECL_COSTLIEST},
};

/* The next word of *p ("k=v" or "k='v w'") into buf; 0 at the end. */
static int next_word(const char **p, char *buf, size_t size, int *bad)
{
	const char *s = *p + strspn(*p, " "), *q = s;
	size_t n = 0;

	while (*q != '\0' && *q != ' ' && n + 1 < size) {
		if (*q == '\'') {
			const char *end = strchr(q + 1, '\'');
			if (end == NULL || n + (size_t)(end - q) >= size)
				return *bad = 1, 0;
			memcpy(buf + n, q + 1, (size_t)(end - q - 1));
			n += (size_t)(end - q - 1);
			q = end + 1;
			continue;
		}
		buf[n++] = *q++;
	}
	buf[n] = '\0';
	*p = q;
	return n > 0 || q != s;
}

int ldecl_parse(const char *line, struct ldecl *d, char *err, size_t size)
{
	char w[512];
	const char *p = line;
	int bad = 0, known = 0;

	memset(d, 0, sizeof(*d));
	if (!next_word(&p, w, sizeof(w), &bad))
		return snprintf(err, size, "empty layout line"), -1;
	for (size_t i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++)
		if (strcmp(w, kinds[i].name) == 0) {
			d->kind = kinds[i].kind;
			known = 1;
		}
	if (!known)
		return snprintf(err, size, "layout line \"%.80s\": unknown "
				"kind \"%.40s\"", line, w), -1;
	while (next_word(&p, w, sizeof(w), &bad)) {
		char *eq = strchr(w, '=');
		if (eq != NULL)
			*eq = '\0';
		if (eq == NULL || apply(d, w, eq + 1) != 0)
			return snprintf(err, size, "layout line \"%.80s\": "
					"bad word \"%.60s\"", line, w), -1;
	}
	if (bad)
		return snprintf(err, size, "layout line \"%.80s\": unclosed "
				"quote", line), -1;
	return 0;
}

void ldecl_key_name(const char *key, char *buf, size_t size)
{
	size_t n = strlen(key);

	n -= n > 0 && key[n - 1] == '?';
	snprintf(buf, size, "%.*s", (int)n, key);
}

int ldecl_key(const struct result *r, const char *key, char *buf,
	      size_t size)
{
	char name[LDECL_WORD];
	size_t n = strlen(key);

	ldecl_key_name(key, name, sizeof(name));
	if (result_key(r, name, buf, size))
		return 1;
	buf[0] = '\0';
	return n > 0 && key[n - 1] == '?';
}

double ldecl_value(const struct result *r, const struct ldecl_metric *m)
{
	double a = view_median(r, m->a);

	if (m->b[0] == '\0')
		return a;
	return a / view_median(r, m->b);
}

enum metric_better ldecl_better(const struct results *res, const char *suite,
				const struct ldecl_metric *m)
{
	return m->b[0] ? BETTER_LOWER : view_better(res, suite, m->a);
}

#define SEP '\x1f' /* between the values of a tuple */

int ldecl_tuple_of(const struct result *r, const struct ldecl_list *l,
		   char *buf, size_t size)
{
	char v[512];
	size_t used = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < l->n; i++) {
		int w;
		if (!ldecl_key(r, l->s[i], v, sizeof(v)))
			return 0;
		w = snprintf(buf + used, size - used, "%s%s", i ? "\x1f" : "",
			     v);
		if (w < 0 || (size_t)w >= size - used)
			return 0;
		used += (size_t)w;
	}
	return 1;
}

void ldecl_tuple_part(const char *tuple, size_t i, char *buf, size_t size)
{
	size_t n;

	for (; i > 0 && tuple != NULL; i--) {
		tuple = strchr(tuple, SEP);
		tuple = tuple ? tuple + 1 : NULL;
	}
	n = tuple ? strcspn(tuple, "\x1f") : 0;
	snprintf(buf, size, "%.*s", (int)n, tuple ? tuple : "");
}


/*
 * view.c - grouping and ranking shared by the writers (see view.h).
 */
#define _GNU_SOURCE
#include "report/view.h"

#include "report/compare_stats.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

int strlist_add(struct strlist *l, const char *s, size_t len)
{
	char **grown, *copy;

	for (size_t i = 0; i < l->n; i++)
		if (strlen(l->s[i]) == len && memcmp(l->s[i], s, len) == 0)
			return 0;
	copy = strndup(s, len);
	if (copy == NULL)
		return -1;
	grown = realloc(l->s, (l->n + 1) * sizeof(*grown));
	if (grown == NULL) {
		free(copy);
		return -1;
	}
	l->s = grown;
	l->s[l->n++] = copy;
	return 0;
}

long strlist_find(const struct strlist *l, const char *s)
{
	for (size_t i = 0; i < l->n; i++)
		if (strcmp(l->s[i], s) == 0)
			return (long)i;
	return -1;
}

void strlist_release(struct strlist *l)
{
	for (size_t i = 0; i < l->n; i++)
		free(l->s[i]);
	free(l->s);
	l->s = NULL;
	l->n = 0;
}

/* s as a number, or 0 with *ok cleared when it is not one. */
static double as_number(const char *s, int *ok)
{
	char *end;
	double v = strtod(s, &end);

	if (end == s || *end != '\0' || !isfinite(v))
		*ok = 0;
	return v;
}

static int cmp_num_asc(const void *a, const void *b)
{
	int ok = 1;
	double x = as_number(*(char *const *)a, &ok);
	double y = as_number(*(char *const *)b, &ok);

	return (x > y) - (x < y);
}

static int cmp_num_desc(const void *a, const void *b)
{
	return cmp_num_asc(b, a);
}

void strlist_sort_numeric(struct strlist *l, int descending)
{
	int ok = 1;

	for (size_t i = 0; i < l->n; i++)
		as_number(l->s[i], &ok);
	if (ok && l->n > 1)
		qsort(l->s, l->n, sizeof(*l->s),
		      descending ? cmp_num_desc : cmp_num_asc);
}

static int in_suite(const struct result *r, const char *suite)
{
	return suite == NULL || strcmp(r->suite, suite) == 0;
}

int view_suites(const struct results *res, struct strlist *out)
{
	for (size_t i = 0; i < res->n; i++)
		if (strlist_add(out, res->r[i].suite,
				strlen(res->r[i].suite)) != 0)
			return -1;
	return 0;
}

/* Calls fn for each key=value level of name; stops when fn returns != 0. */
static int each_key(const char *name,
		    int (*fn)(const char *k, size_t klen, const char *v,
			      size_t vlen, void *ctx),
		    void *ctx)
{
	const char *p = strchr(name, '/');

	while (p != NULL) {
		const char *lvl = p + 1, *end = strchr(lvl, '/');
		size_t n = end ? (size_t)(end - lvl) : strlen(lvl);
		const char *eq = memchr(lvl, '=', n);
		if (eq != NULL) {
			int rc = fn(lvl, (size_t)(eq - lvl), eq + 1,
				    n - (size_t)(eq - lvl) - 1, ctx);
			if (rc != 0)
				return rc;
		}
		p = end;
	}
	return 0;
}

static int add_key(const char *k, size_t klen, const char *v, size_t vlen,
		   void *ctx)
{
	(void)v, (void)vlen;
	return strlist_add(ctx, k, klen);
}

int view_keys(const struct results *res, const char *suite,
	      struct strlist *out)
{
	for (size_t i = 0; i < res->n; i++)
		if (in_suite(&res->r[i], suite) &&
		    each_key(res->r[i].name, add_key, out) != 0)
			return -1;
	return 0;
}

int view_key_values(const struct results *res, const char *suite,
		    const char *key, struct strlist *out)
{
	char buf[512];

	for (size_t i = 0; i < res->n; i++)
		if (in_suite(&res->r[i], suite) &&
		    result_key(&res->r[i], key, buf, sizeof(buf)) &&
		    strlist_add(out, buf, strlen(buf)) != 0)
			return -1;
	return 0;
}

int view_units(const struct results *res, const char *suite,
	       struct strlist *out)
{
	for (size_t i = 0; i < res->n; i++) {
		if (!in_suite(&res->r[i], suite))
			continue;
		for (size_t k = 0; k < res->r[i].nm; k++)
			if (strlist_add(out, res->r[i].m[k].unit,
					strlen(res->r[i].m[k].unit)) != 0)
				return -1;
	}
	return 0;
}

double view_median(const struct result *r, const char *unit)
{
	const struct metric *m = result_metric(r, unit);

	return m ? stats_median(m->v, m->n) : NAN;
}

enum metric_better view_better(const struct results *res, const char *suite,
			       const char *unit)
{
	for (size_t i = 0; i < res->n; i++) {
		const struct metric *m = result_metric(&res->r[i], unit);
		if (in_suite(&res->r[i], suite) && m != NULL)
			return m->better;
	}
	return BETTER_LOWER;
}

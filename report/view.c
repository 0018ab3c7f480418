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
	if (ok)
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

int view_match(const struct result *r, const char *const *keys,
	       const char *const *values, size_t n)
{
	char buf[512];

	for (size_t i = 0; i < n; i++) {
		int has = result_key(r, keys[i], buf, sizeof(buf));
		if (values[i] == NULL ? has
				      : !has || strcmp(buf, values[i]) != 0)
			return 0;
	}
	return 1;
}

void view_name_without(const struct result *r, const char *key, char *buf,
		       size_t size)
{
	size_t klen = strlen(key), used = 0;
	const char *p = r->name;

	if (size == 0)
		return;
	while (*p != '\0') {
		size_t n = strcspn(p, "/");
		int drop = p != r->name && strncmp(p, key, klen) == 0 &&
			   p[klen] == '=';
		if (!drop) {
			int w = snprintf(buf + used, size - used, "%s%.*s",
					 used ? "/" : "", (int)n, p);
			if (w < 0 || (size_t)w >= size - used)
				break;
			used += (size_t)w;
		}
		p += n;
		if (*p == '/')
			p++;
	}
	buf[used < size ? used : size - 1] = '\0';
}

enum view_layout view_layout_of(const struct strlist *keys)
{
	int engine = strlist_find(keys, "engine") >= 0;

	if (engine && strlist_find(keys, "phase") >= 0 &&
	    strlist_find(keys, "strategy") >= 0)
		return LAYOUT_FQDN;
	if (engine && strlist_find(keys, "scenario") >= 0 &&
	    strlist_find(keys, "size") >= 0)
		return LAYOUT_PAYLOAD;
	return LAYOUT_GENERIC;
}

/* A unit that is the line rate itself ("linerate-Mpps"). */
static int is_line_rate_unit(const char *u)
{
	size_t n = strlen(u);

	return u[0] != '%' && strcasestr(u, "line") != NULL && n >= 3 &&
	       strcasecmp(u + n - 3, "pps") == 0;
}

int view_has_line_rate(const struct strlist *units)
{
	for (size_t i = 0; i < units->n; i++)
		if (is_line_rate_unit(units->s[i]))
			return 1;
	return strlist_find(units, "%linerate") >= 0 &&
	       strlist_find(units, "Mpps") >= 0;
}

double view_line_rate(const struct result *r)
{
	const struct metric *mpps = result_metric(r, "Mpps");
	const struct metric *pct = result_metric(r, "%linerate");

	for (size_t i = 0; i < r->nm; i++)
		if (is_line_rate_unit(r->m[i].unit))
			return view_median(r, r->m[i].unit);
	/* the line rate is fixed per size: any sample with both gives it */
	for (size_t i = 0; mpps && pct && i < mpps->n && i < pct->n; i++)
		if (mpps->v[i] > 0 && pct->v[i] > 0)
			return 100 * mpps->v[i] / pct->v[i];
	return NAN;
}

/* Per engine: the log-ratios summed so far. */
struct rank_acc {
	double sum;
	size_t count;
};

/* Ratios to the best of one group (results idx[0..n)) into acc. */
static void rank_group(const struct results *res, const size_t *idx,
		       size_t n, const struct strlist *engines,
		       struct rank_acc *acc)
{
	char eng[256];
	double best = INFINITY;

	for (size_t i = 0; i < n; i++) {
		double t = view_median(&res->r[idx[i]], VIEW_TIME_UNIT);
		if (t > 0 && t < best)
			best = t;
	}
	for (size_t i = 0; i < n; i++) {
		double t = view_median(&res->r[idx[i]], VIEW_TIME_UNIT);
		long e;
		if (!(t > 0) || !isfinite(best))
			continue;
		result_key(&res->r[idx[i]], "engine", eng, sizeof(eng));
		e = strlist_find(engines, eng);
		acc[e].sum += log(t / best);
		acc[e].count++;
	}
}

static int cmp_rank(const void *a, const void *b)
{
	const struct rank_row *x = a, *y = b;

	if (x->geomean != y->geomean)
		return x->geomean < y->geomean ? -1 : 1;
	return (x->count < y->count) - (x->count > y->count);
}

/* Is r a timed, ok result of the suite with key=value (when key)? */
static int rankable(const struct result *r, const char *suite,
		    const char *key, const char *value)
{
	char buf[512];

	if (!in_suite(r, suite) || r->status != RESULT_OK ||
	    !result_key(r, "engine", buf, sizeof(buf)) ||
	    !(view_median(r, VIEW_TIME_UNIT) > 0))
		return 0;
	if (key == NULL)
		return 1;
	return result_key(r, key, buf, sizeof(buf)) && strcmp(buf, value) == 0;
}

/*
 * Collect groups and engines, then accumulate every group's ratios.
 * gid[i] is the group of result i, or -1 when it does not count.
 */
static int rank_collect(const struct results *res, const char *suite,
			const char *key, const char *value,
			struct strlist *engines, struct rank_acc **accp,
			size_t *ngroups)
{
	struct strlist groups = {0};
	long *gid = malloc((res->n + 1) * sizeof(*gid));
	size_t *idx = malloc((res->n + 1) * sizeof(*idx));
	char buf[1024];
	int rc = -1;

	if (gid == NULL || idx == NULL)
		goto out;
	for (size_t i = 0; i < res->n; i++) {
		gid[i] = -1;
		if (!rankable(&res->r[i], suite, key, value))
			continue;
		view_name_without(&res->r[i], "engine", buf, sizeof(buf));
		if (strlist_add(&groups, buf, strlen(buf)) != 0)
			goto out;
		gid[i] = strlist_find(&groups, buf);
		result_key(&res->r[i], "engine", buf, sizeof(buf));
		if (strlist_add(engines, buf, strlen(buf)) != 0)
			goto out;
	}
	*accp = calloc(engines->n + 1, sizeof(**accp));
	if (*accp == NULL)
		goto out;
	*ngroups = 0;
	for (size_t g = 0; g < groups.n; g++) {
		size_t n = 0;
		for (size_t i = 0; i < res->n; i++)
			if (gid[i] == (long)g)
				idx[n++] = i;
		if (n < 2)
			continue; /* one engine alone says nothing */
		rank_group(res, idx, n, engines, *accp);
		(*ngroups)++;
	}
	rc = 0;
out:
	strlist_release(&groups);
	free(gid);
	free(idx);
	return rc;
}

int view_rank(const struct results *res, const char *suite, const char *key,
	      const char *value, struct ranking *out)
{
	struct strlist engines = {0};
	struct rank_acc *acc = NULL;
	int rc = -1;

	memset(out, 0, sizeof(*out));
	if (rank_collect(res, suite, key, value, &engines, &acc,
			 &out->groups) != 0)
		goto out;
	out->rows = calloc(engines.n + 1, sizeof(*out->rows));
	if (out->rows == NULL)
		goto out;
	for (size_t e = 0; e < engines.n; e++) {
		if (acc[e].count == 0)
			continue;
		out->rows[out->n].engine = engines.s[e];
		engines.s[e] = NULL;
		out->rows[out->n].geomean = exp(acc[e].sum / (double)acc[e].count);
		out->rows[out->n++].count = acc[e].count;
	}
	qsort(out->rows, out->n, sizeof(*out->rows), cmp_rank);
	rc = 0;
out:
	for (size_t e = 0; e < engines.n; e++)
		free(engines.s[e]);
	free(engines.s);
	free(acc);
	return rc;
}

void ranking_release(struct ranking *rk)
{
	for (size_t i = 0; i < rk->n; i++)
		free(rk->rows[i].engine);
	free(rk->rows);
	memset(rk, 0, sizeof(*rk));
}

const struct rank_row *ranking_find(const struct ranking *rk,
				    const char *engine)
{
	for (size_t i = 0; i < rk->n; i++)
		if (strcmp(rk->rows[i].engine, engine) == 0)
			return &rk->rows[i];
	return NULL;
}

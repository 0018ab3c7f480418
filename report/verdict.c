/*
 * verdict.c - the answer first (see verdict.h).
 */
#include "report/verdict.h"

#include "report/compare_stats.h"
#include "report/gofmt.h"
#include "report/rtable.h"
#include "report/view.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A paragraph being written. */
struct sbuf {
	char s[8192];
	size_t n;
};

__attribute__((format(printf, 2, 3)))
static void sb_printf(struct sbuf *b, const char *fmt, ...)
{
	va_list ap;
	int w;

	if (b->n + 1 >= sizeof(b->s))
		return;
	va_start(ap, fmt);
	w = vsnprintf(b->s + b->n, sizeof(b->s) - b->n, fmt, ap);
	va_end(ap);
	if (w > 0)
		b->n = b->n + (size_t)w < sizeof(b->s) ? b->n + (size_t)w
						       : sizeof(b->s) - 1;
}

/* Groups x contenders: the result of each, and its rankable value. */
struct vgrid {
	const struct results *res;
	const char *suite;
	const struct ldecl *d;
	struct strlist groups, who;
	const struct result **r; /* groups.n x who.n; NULL: not run */
	double *v;               /* NAN: not rankable (failed, partial...) */
	enum metric_better better;
	size_t partial;          /* results left out for `complete` */
	size_t excepted;         /* results left out for `except` */
	struct strlist floors;   /* groups with a result of no contender */
	struct strlist floored;  /* of those, the ones contenders ran in */
	size_t nfloored;         /* contenders' results left out there */
};

static size_t at(const struct vgrid *g, size_t gi, size_t ci)
{
	return gi * g->who.n + ci;
}

/* A contender's tuple as "strategy / engine". */
static void who_name(const char *t, char *buf, size_t size)
{
	size_t used = 0;

	for (; *t != '\0' && used + 4 < size; t++) {
		if (*t == '\x1f') {
			memcpy(buf + used, " / ", 3);
			used += 3;
		} else {
			buf[used++] = *t;
		}
	}
	buf[used] = '\0';
}

/* The first by value is one of `only` (when given). */
static int group_wanted(const struct ldecl *d, const struct result *r)
{
	char v[512];

	if (d->only.n == 0)
		return 1;
	if (!ldecl_key(r, d->by.s[0], v, sizeof(v)))
		return 0;
	for (size_t i = 0; i < d->only.n; i++)
		if (strcmp(v, d->only.s[i]) == 0)
			return 1;
	return 0;
}

/* Is r no contender here (its `except` key holds one of the values)? */
static int excepted(const struct ldecl *d, const struct result *r)
{
	char v[512];

	if (d->except_key[0] == '\0' ||
	    !ldecl_key(r, d->except_key, v, sizeof(v)))
		return 0;
	for (size_t i = 0; i < d->excepts.n; i++)
		if (strcmp(v, d->excepts.s[i]) == 0)
			return 1;
	return 0;
}

/* A result counts when ok, verified and timed. */
static double rankable(const struct ldecl *d, const struct result *r)
{
	if (r->status != RESULT_OK || r->unverified || r->nsamples == 0)
		return NAN;
	return ldecl_value(r, &d->metric[0]);
}

/*
 * The floor groups: those holding a result of the suite without the who
 * keys (payload's base: the loop over packets with no engine).  Such a
 * group measures no pattern, so it is no contest: an engine's own row
 * there (xdp's program that only returns its action) is no win; the
 * verdict leaves these groups out (their rows stay in the tables).
 * 0, or -1 out of memory.
 */
static int grid_floors(struct vgrid *g)
{
	char t[1024], w[1024];

	for (size_t i = 0; i < g->res->n; i++) {
		const struct result *r = &g->res->r[i];
		if (strcmp(r->suite, g->suite) != 0 || !group_wanted(g->d, r) ||
		    excepted(g->d, r) ||
		    !ldecl_tuple_of(r, &g->d->by, t, sizeof(t)) ||
		    ldecl_tuple_of(r, &g->d->who, w, sizeof(w)))
			continue;
		if (strlist_add(&g->floors, t, strlen(t)) != 0)
			return -1;
	}
	return 0;
}

static int grid_axes(struct vgrid *g)
{
	char t[1024];

	if (grid_floors(g) != 0)
		return -1;
	for (size_t i = 0; i < g->res->n; i++) {
		const struct result *r = &g->res->r[i];
		/* a result without the by keys is another table's (a rule
		   alone: the costliest table) */
		if (strcmp(r->suite, g->suite) != 0 || !group_wanted(g->d, r) ||
		    !ldecl_tuple_of(r, &g->d->by, t, sizeof(t)))
			continue;
		if (excepted(g->d, r)) {
			g->excepted++;
			continue;
		}
		if (strlist_find(&g->floors, t) >= 0) {
			char w[1024];
			if (!ldecl_tuple_of(r, &g->d->who, w, sizeof(w)) ||
			    isnan(rankable(g->d, r)))
				continue;
			g->nfloored++;
			if (strlist_add(&g->floored, t, strlen(t)) != 0)
				return -1;
			continue;
		}
		if (strlist_add(&g->groups, t, strlen(t)) != 0)
			return -1;
		if (!ldecl_tuple_of(r, &g->d->who, t, sizeof(t)))
			continue;
		if (strlist_add(&g->who, t, strlen(t)) != 0)
			return -1;
	}
	return 0;
}

/* Leave out results below their group's maximum of `complete`. */
static void grid_complete(struct vgrid *g)
{
	const struct ldecl *d = g->d;

	for (size_t gi = 0; d->complete[0] && gi < g->groups.n; gi++) {
		double max = -INFINITY;
		for (size_t ci = 0; ci < g->who.n; ci++)
			if (g->r[at(g, gi, ci)] != NULL &&
			    !isnan(g->v[at(g, gi, ci)]))
				max = fmax(max, view_median(g->r[at(g, gi, ci)],
							    d->complete));
		for (size_t ci = 0; ci < g->who.n; ci++) {
			const struct result *r = g->r[at(g, gi, ci)];
			if (r == NULL || isnan(g->v[at(g, gi, ci)]) ||
			    !(view_median(r, d->complete) < max))
				continue;
			g->v[at(g, gi, ci)] = NAN;
			g->partial++;
		}
	}
}

static int grid_build(struct vgrid *g)
{
	char t[1024];

	if (grid_axes(g) != 0)
		return -1;
	g->r = calloc(g->groups.n * g->who.n + 1, sizeof(*g->r));
	g->v = calloc(g->groups.n * g->who.n + 1, sizeof(*g->v));
	if (g->r == NULL || g->v == NULL)
		return -1;
	for (size_t i = 0; i < g->groups.n * g->who.n; i++)
		g->v[i] = NAN;
	for (size_t i = 0; i < g->res->n; i++) {
		const struct result *r = &g->res->r[i];
		long gi, ci;
		if (strcmp(r->suite, g->suite) != 0 || !group_wanted(g->d, r) ||
		    excepted(g->d, r) ||
		    !ldecl_tuple_of(r, &g->d->by, t, sizeof(t)))
			continue;
		gi = strlist_find(&g->groups, t);
		if (!ldecl_tuple_of(r, &g->d->who, t, sizeof(t)))
			continue;
		ci = strlist_find(&g->who, t);
		if (gi < 0 || ci < 0 || g->r[at(g, (size_t)gi, (size_t)ci)])
			continue;
		g->r[at(g, (size_t)gi, (size_t)ci)] = r;
		g->v[at(g, (size_t)gi, (size_t)ci)] = rankable(g->d, r);
	}
	g->better = ldecl_better(g->res, g->suite, &g->d->metric[0]);
	grid_complete(g);
	return 0;
}

static void grid_release(struct vgrid *g)
{
	strlist_release(&g->groups);
	strlist_release(&g->who);
	strlist_release(&g->floors);
	strlist_release(&g->floored);
	free(g->r);
	free(g->v);
}

static int better_than(const struct vgrid *g, double a, double b)
{
	return g->better == BETTER_HIGHER ? a > b : a < b;
}

/* The best and second contender of group gi (-1 when none). */
static void group_best(const struct vgrid *g, size_t gi, long *best,
		       long *second)
{
	*best = *second = -1;
	for (size_t ci = 0; ci < g->who.n; ci++) {
		double v = g->v[at(g, gi, ci)];
		if (isnan(v))
			continue;
		if (*best < 0 || better_than(g, v, g->v[at(g, gi, *best)])) {
			*second = *best;
			*best = (long)ci;
		} else if (*second < 0 ||
			   better_than(g, v, g->v[at(g, gi, *second)])) {
			*second = (long)ci;
		}
	}
}

/* How many times better a is than b (>= 1). */
static double ratio(const struct vgrid *g, double a, double b)
{
	return g->better == BETTER_HIGHER ? a / b : b / a;
}

/*
 * The contender's result with the cost key set to value and the group's
 * other by keys, or NULL.
 */
static const struct result *companion_of(const struct vgrid *g, size_t gi,
					 size_t ci, const char *value)
{
	const struct ldecl *d = g->d;
	char t[1024], v[512], want[512];

	for (size_t i = 0; i < g->res->n; i++) {
		const struct result *r = &g->res->r[i];
		int ok = strcmp(r->suite, g->suite) == 0 &&
			 r->status == RESULT_OK &&
			 ldecl_tuple_of(r, &d->who, t, sizeof(t)) &&
			 strcmp(t, g->who.s[ci]) == 0 &&
			 result_key(r, d->cost_key, v, sizeof(v)) &&
			 strcmp(v, value) == 0;
		for (size_t k = 0; ok && k < d->by.n; k++) {
			if (strcmp(d->by.s[k], d->cost_key) == 0)
				continue;
			ldecl_tuple_part(g->groups.s[gi], k, want, sizeof(want));
			ok = ldecl_key(r, d->by.s[k], v, sizeof(v)) &&
			     strcmp(v, want) == 0;
		}
		if (ok)
			return r;
	}
	return NULL;
}

/*
 * The contender's cost for group gi (its compile, for a match phase): its
 * result of the first cost value it has, so a matcher without a compile
 * row is not left out when its build is a combined-compile; or NULL.
 */
static const struct result *companion(const struct vgrid *g, size_t gi,
				      size_t ci)
{
	const struct result *r = NULL;

	for (size_t i = 0; r == NULL && i < g->d->costs.n; i++)
		r = companion_of(g, gi, ci, g->d->costs.s[i]);
	return r;
}

/* --- the table of groups ------------------------------------------- */

/* Column layout of the verdict table. */
struct vcols {
	size_t nby, who, metric, cores, onecore, show, cost, heap, next, ahead;
	size_t n;
	int has_line, has_cost, has_heap;
};

static void vcols_of(const struct ldecl *d, struct vcols *c)
{
	size_t i = 0;

	memset(c, 0, sizeof(*c));
	c->nby = d->by.n;
	i = d->by.n;
	c->who = i++;
	c->metric = i++;
	c->has_line = d->line[0] != '\0';
	if (c->has_line) {
		c->cores = i++;
		c->onecore = i++;
	}
	c->show = i;
	i += d->nshow;
	c->has_cost = d->cost_key[0] != '\0';
	c->has_heap = c->has_cost && d->heap[0] != '\0';
	if (c->has_cost)
		c->cost = i++;
	if (c->has_heap)
		c->heap = i++;
	c->next = i++;
	c->ahead = i++;
	c->n = i;
}

/* prefix and the keys joined by " / " into buf. */
static void join_keys(const struct ldecl_list *l, const char *prefix,
		      char *buf, size_t size)
{
	int used = snprintf(buf, size, "%s", prefix);

	for (size_t k = 0; k < l->n && used >= 0 && (size_t)used < size; k++) {
		char name[LDECL_WORD];
		ldecl_key_name(l->s[k], name, sizeof(name));
		used += snprintf(buf + used, size - (size_t)used, "%s%s",
				 k ? " / " : "", name);
	}
}

static int vtable_head(struct rtable *t, const struct ldecl *d,
		       const struct vcols *c)
{
	char buf[160];
	int rc = 0;

	for (size_t k = 0; k < d->by.n; k++) {
		ldecl_key_name(d->by.s[k], buf, sizeof(buf));
		rc |= rtable_col(t, k, buf, 0);
	}
	join_keys(&d->who, "best ", buf, sizeof(buf));
	rc |= rtable_col(t, c->who, buf, 0);
	rc |= rtable_col(t, c->metric, d->metric[0].name, 1);
	if (c->has_line) {
		rc |= rtable_col(t, c->cores, "cores to line rate", 1);
		rc |= rtable_col(t, c->onecore, "line rate on 1 core", 0);
	}
	for (size_t s = 0; s < d->nshow; s++)
		rc |= rtable_col(t, c->show + s, d->show[s].name, 1);
	if (c->has_cost) {
		snprintf(buf, sizeof(buf), "%s %s", d->cost_value,
			 d->metric[0].name);
		rc |= rtable_col(t, c->cost, buf, 1);
	}
	if (c->has_heap) {
		snprintf(buf, sizeof(buf), "%s %s", d->cost_value, d->heap);
		rc |= rtable_col(t, c->heap, buf, 1);
	}
	rc |= rtable_col(t, c->next, "runner-up", 0);
	rc |= rtable_col(t, c->ahead, "ahead by", 1);
	return rc;
}

/* Is r's spread above the unstable threshold? */
static int unstable(const struct result *r, const char *unit)
{
	const struct metric *m = result_metric(r, unit);

	return m != NULL && m->n >= 2 &&
	       stats_spread_pct(m->v, m->n) > STATS_UNSTABLE_PCT;
}

/* A shown metric of the winner w; an exact count (fqdn's `allowed`: how
 * many of the user's queries the policy allows) as a whole number. */
static int show_cell(struct rtable *t, long row, size_t col,
		     const struct result *w, const struct ldecl_metric *m)
{
	const struct metric *mm = m->b[0] ? NULL : result_metric(w, m->a);
	double v = ldecl_value(w, m);
	char buf[64];

	if (mm == NULL || mm->better != BETTER_EXACT || isnan(v) ||
	    v != floor(v) || fabs(v) >= 1e15)
		return rtable_num(t, row, col, v, m->name);
	snprintf(buf, sizeof(buf), "%.0f", v);
	rtable_cell(t, (size_t)row, col)->v = v;
	return rtable_text(t, row, col, buf);
}

static int vrow(struct rtable *t, const struct vgrid *g, const struct vcols *c,
		size_t gi, long best, long second, size_t *no_line)
{
	const struct ldecl *d = g->d;
	const struct result *w = g->r[at(g, gi, (size_t)best)], *k;
	double v = g->v[at(g, gi, (size_t)best)];
	char buf[512], part[512];
	long row = rtable_row(t);
	int rc = 0;

	if (row < 0)
		return -1;
	for (size_t b = 0; b < d->by.n; b++) {
		ldecl_tuple_part(g->groups.s[gi], b, part, sizeof(part));
		rc |= rtable_text(t, row, b, part);
		rtable_cell(t, (size_t)row, b)->v = strtod(part, NULL);
	}
	who_name(g->who.s[best], buf, sizeof(buf));
	if (unstable(w, d->metric[0].a))
		strncat(buf, " (unstable)", sizeof(buf) - strlen(buf) - 1);
	rc |= rtable_text(t, row, c->who, buf);
	rtable_cell(t, (size_t)row, c->who)->strong = 1;
	rc |= rtable_num(t, row, c->metric, v, d->metric[0].name);
	if (c->has_line) {
		double line = view_median(w, d->line);
		rc |= rtable_num(t, row, c->cores, line / v, "cores");
		rc |= rtable_text(t, row, c->onecore, v >= line ? "yes" : "no");
		*no_line += !(v >= line);
	}
	for (size_t s = 0; s < d->nshow; s++)
		rc |= show_cell(t, row, c->show + s, w, &d->show[s]);
	k = c->has_cost ? companion(g, gi, (size_t)best) : NULL;
	if (k != NULL)
		rc |= rtable_num(t, row, c->cost,
				 view_median(k, d->metric[0].a), d->metric[0].a);
	if (k != NULL && c->has_heap)
		rc |= rtable_num(t, row, c->heap, view_median(k, d->heap),
				 d->heap);
	if (second >= 0) {
		double r2 = ratio(g, v, g->v[at(g, gi, (size_t)second)]);
		who_name(g->who.s[second], buf, sizeof(buf));
		rc |= rtable_text(t, row, c->next, buf);
		snprintf(buf, sizeof(buf), "x%.2f", r2);
		rc |= rtable_text(t, row, c->ahead, buf);
		rtable_cell(t, (size_t)row, c->ahead)->v = r2;
	}
	return rc;
}

/* --- overall: geometric means over complete coverage ---------------- */

/* Groups in which contender ci has a rankable value. */
static size_t coverage(const struct vgrid *g, size_t ci)
{
	size_t n = 0;

	for (size_t gi = 0; gi < g->groups.n; gi++)
		n += !isnan(g->v[at(g, gi, ci)]);
	return n;
}

/* The geomean over every group of ci's value relative to the group's
 * best (1 = best everywhere); NAN unless ci covers every group. */
static double score(const struct vgrid *g, size_t ci)
{
	double sum = 0;

	if (coverage(g, ci) != g->groups.n || g->groups.n == 0)
		return NAN;
	for (size_t gi = 0; gi < g->groups.n; gi++) {
		long best, second;
		group_best(g, gi, &best, &second);
		sum += log(ratio(g, g->v[at(g, gi, (size_t)best)],
				 g->v[at(g, gi, ci)]));
	}
	return exp(sum / (double)g->groups.n);
}

/* Contenders that are not ranked for want of coverage, into b. */
static void coverage_note(struct sbuf *b, const struct vgrid *g)
{
	char name[512];
	size_t shown = 0, missing = 0;

	for (size_t ci = 0; ci < g->who.n; ci++)
		missing += coverage(g, ci) != g->groups.n;
	if (missing == 0)
		return;
	sb_printf(b, " Not ranked overall, as they did not complete every "
		  "group (coverage):");
	for (size_t ci = 0; ci < g->who.n; ci++) {
		size_t n = coverage(g, ci);
		if (n == g->groups.n)
			continue;
		if (shown++ == 12) {
			sb_printf(b, " and %zu more", missing - 12);
			break;
		}
		who_name(g->who.s[ci], name, sizeof(name));
		sb_printf(b, "%s %s %zu of %zu", shown > 1 ? "," : "", name, n,
			  g->groups.n);
	}
	sb_printf(b, ".");
}

struct ranked {
	size_t ci;
	double score;
};

static int cmp_ranked(const void *a, const void *b)
{
	const struct ranked *x = a, *y = b;

	return (x->score > y->score) - (x->score < y->score);
}

/* Ranked contenders (full coverage), best first; *n of them. */
static struct ranked *rank_all(const struct vgrid *g, size_t *n)
{
	struct ranked *r = calloc(g->who.n + 1, sizeof(*r));

	*n = 0;
	for (size_t ci = 0; r != NULL && ci < g->who.n; ci++) {
		double s = score(g, ci);
		if (!isnan(s))
			r[(*n)++] = (struct ranked){ci, s};
	}
	if (r != NULL)
		qsort(r, *n, sizeof(*r), cmp_ranked);
	return r;
}

static int overall_table(const struct vgrid *g, struct rtables *out)
{
	const struct ldecl *d = g->d;
	size_t n;
	struct ranked *rk = rank_all(g, &n);
	struct rtable *t;
	char caption[512], name[512], num[32];
	int rc = -1;

	if (rk == NULL)
		return -1;
	rc = 0;
	if (n < 2)
		goto out;
	rc = -1;
	snprintf(caption, sizeof(caption), "Geometric mean over the %zu "
		 "groups of each %s's %s relative to the group's best (1.00: "
		 "best in every group); only contenders that completed every "
		 "group are ranked.", g->groups.n, d->who.s[0],
		 d->metric[0].name);
	t = rtable_new(out, RTABLE_VERDICT, "overall ranking", caption, 3);
	if (t == NULL || rtable_col(t, 0, d->who.s[0], 0) != 0 ||
	    rtable_col(t, 1, "geomean", 1) != 0 ||
	    rtable_col(t, 2, "groups", 1) != 0 ||
	    rtable_meta(t, 1, NULL, "x best", BETTER_LOWER) != 0)
		goto out;
	for (size_t i = 0; i < n; i++) {
		long row = rtable_row(t);
		if (row < 0)
			goto out;
		who_name(g->who.s[rk[i].ci], name, sizeof(name));
		snprintf(num, sizeof(num), "%.2f", rk[i].score);
		if (rtable_text(t, row, 0, name) || rtable_text(t, row, 1, num))
			goto out;
		rtable_cell(t, (size_t)row, 1)->v = rk[i].score;
		rtable_cell(t, (size_t)row, 0)->strong = i == 0;
		snprintf(num, sizeof(num), "%zu", g->groups.n);
		if (rtable_text(t, row, 2, num) != 0)
			goto out;
		rtable_cell(t, (size_t)row, 2)->v = (double)g->groups.n;
	}
	rc = 0;
out:
	free(rk);
	return rc;
}

/* --- the recommendation under budgets ------------------------------ */

/* Does ci keep within the budgets in every group?  *why when not. */
static int within(const struct vgrid *g, size_t ci, double budget,
		  double heap, const char **why)
{
	for (size_t gi = 0; gi < g->groups.n; gi++) {
		const struct result *k = companion(g, gi, ci);
		if (k == NULL)
			return *why = "without a verified result of that phase, "
				      "so its budget cannot be checked", 0;
		if (budget > 0 && !(view_median(k, g->d->metric[0].a) <= budget))
			return *why = "over the compile budget", 0;
		if (heap > 0 && !(view_median(k, g->d->heap) <= heap))
			return *why = "over the memory budget", 0;
	}
	return 1;
}

/* The budgets: the reader's, else the declared ones (0: none). */
static void budgets_of(const struct ldecl *d, const struct report_opts *opts,
		       double *budget, double *heap)
{
	*budget = opts && opts->budget_ns > 0 ? opts->budget_ns : d->budget_ns;
	*heap = opts && opts->heap_bytes > 0 ? opts->heap_bytes : d->heap_bytes;
}

/* " Recommendation (budgets: ...; set them with ...)" */
static void budgets_head(struct sbuf *b, const struct ldecl *d, double budget,
			 double heap)
{
	char bt[32];

	snprintf(bt, sizeof(bt), "%.4g", budget / 1e6);
	sb_printf(b, " Recommendation (budgets: %s within %s ms",
		  d->cost_value, budget > 0 ? bt : "any");
	if (heap > 0)
		sb_printf(b, ", %s %s at most %.4g MiB", d->cost_value, d->heap,
			  heap / 1048576);
	sb_printf(b, "; set them with --compile-budget and --heap-budget)");
}

static void recommend(struct sbuf *b, const struct vgrid *g,
		      const struct report_opts *opts)
{
	const struct ldecl *d = g->d;
	double budget, heap;
	size_t n, fit = 0;
	struct ranked *rk;
	char name[512];
	const char *why = NULL;
	long pick = -1;

	budgets_of(d, opts, &budget, &heap);
	if (!d->cost_key[0] || (budget <= 0 && heap <= 0))
		return;
	rk = rank_all(g, &n);
	if (rk == NULL)
		return;
	for (size_t i = 0; i < n; i++)
		if (within(g, rk[i].ci, budget, heap, &why)) {
			fit++;
			if (pick < 0)
				pick = (long)i;
		}
	budgets_head(b, d, budget, heap);
	sb_printf(b, ": ");
	if (pick < 0) {
		sb_printf(b, "none of the %zu combinations that completed every "
			  "group keeps within them.", n);
	} else {
		who_name(g->who.s[rk[pick].ci], name, sizeof(name));
		sb_printf(b, "%s, %.2fx the best %s over the %zu groups "
			  "(geometric mean; %zu of %zu combinations that "
			  "completed every group keep within the budgets; "
			  "the %s cost is shown, never averaged in).",
			  name, rk[pick].score, d->metric[0].name, g->groups.n,
			  fit, n, d->cost_value);
	}
	if (n > 0 && pick != 0) {
		who_name(g->who.s[rk[0].ci], name, sizeof(name));
		within(g, rk[0].ci, budget, heap, &why);
		sb_printf(b, " The fastest over the groups, %s (%.2fx), is left "
			  "out: %s.",
			  name, rk[0].score, why ? why : "excluded");
	}
	free(rk);
}

/* --- the recommendation in lines: baseline, best, floor ------------ */

/*
 * With `baseline` or `floor` declared (fqdn: engine go, strategy trie)
 * the answer is said in the reader's terms: per world (a value of the
 * `apart` keys: the policy alone, N endpoints each holding it) the best
 * contender that is the baseline, the best of all but the floor, and
 * what the floor saves against both, each with its numbers and units.
 * The fqdn words (Go, Cilium, trie) are the declaration's, so the code
 * names no suite.
 */

/* What a contender costs over a world's groups. */
struct fig {
	long ci;                 /* -1: none */
	double geo;              /* the metric's geometric mean */
	double cost, heap;       /* its cost rows': the largest of the groups */
	int cost_range, heap_range; /* ... which differ between groups */
	double hold[LDECL_MAX];  /* its own results': the largest; NAN */
};

enum want { WANT_BASE, WANT_ANY, WANT_FLOOR };

/* Digits for three significant ones at most (Go's way: 45.2, 553). */
static int digits(double v)
{
	v = fabs(v);
	return v >= 99.95 ? 0 : v >= 9.995 ? 1 : 2;
}

/* v of unit, scaled into buf: "553 us", "75.8 KiB", "12.3 Mpps". */
static void amount(double v, const char *unit, char *buf, size_t size)
{
	static const char *const ns[] = {"ns", "us", "ms", "s"};
	static const char *const by[] = {"B", "KiB", "MiB", "GiB", "TiB"};
	const char *const *u = NULL;
	size_t nu = 0, i = 0;
	double step = 1000;

	if (strncmp(unit, "ns", 2) == 0) {
		u = ns;
		nu = 4;
	} else if (unit[0] == 'B' && strchr("(/", unit[1]) != NULL) {
		u = by; /* B(heap), B/op, ...; "" too (strchr finds the NUL) */
		nu = 5;
		step = 1024;
	}
	if (u == NULL) {
		snprintf(buf, size, "%.*f %s", digits(v), v, unit);
		return;
	}
	while (i + 1 < nu && fabs(v) >= step * 0.9995) {
		v /= step;
		i++;
	}
	snprintf(buf, size, "%.*f %s", digits(v), v, u[i]);
}

/* The ranked metric per op, "45.2 ns/query" (op: the declared word). */
static void per_op(const struct ldecl *d, double v, char *buf, size_t size)
{
	const char *slash = strchr(d->metric[0].a, '/');
	const char *op = d->op[0] ? d->op : slash ? slash + 1 : "";
	size_t n;

	amount(v, d->metric[0].a, buf, size);
	n = strlen(buf);
	if (slash == NULL || strncmp(d->metric[0].a, "ns", 2) != 0 ||
	    n + 1 + strlen(op) >= size)
		return; /* a unit not of time per op is said as it is */
	buf[n] = '/';
	memcpy(buf + n + 1, op, strlen(op) + 1);
}

/* The heap metric's name as said of what a build holds: B(heap)/op of
 * a compile is the heap the compiled matcher keeps, "B(heap)". */
static void heap_name(const struct ldecl *d, char *buf, size_t size)
{
	size_t n = strlen(d->heap);

	if (n > 3 && strcmp(d->heap + n - 3, "/op") == 0)
		n -= 3;
	snprintf(buf, size, "%.*s", (int)n, d->heap);
}

/* Is ci's value of who key `key` `value`?  0 when key is no who key. */
static int who_is(const struct vgrid *g, size_t ci, const char *key,
		  const char *value)
{
	char name[LDECL_WORD], part[512];

	for (size_t k = 0; key[0] && k < g->d->who.n; k++) {
		ldecl_key_name(g->d->who.s[k], name, sizeof(name));
		if (strcmp(name, key) != 0)
			continue;
		ldecl_tuple_part(g->who.s[ci], k, part, sizeof(part));
		return strcmp(part, value) == 0;
	}
	return 0;
}

static int wanted(const struct vgrid *g, size_t ci, enum want w)
{
	const struct ldecl *d = g->d;
	int is_floor = who_is(g, ci, d->floor_key, d->floor_value);

	if (w == WANT_FLOOR)
		return is_floor;
	if (w == WANT_BASE)
		return !is_floor && who_is(g, ci, d->base_key, d->base_value);
	return !is_floor;
}

/* Has some contender of kind w a ranked value in some group? */
static int present(const struct vgrid *g, enum want w)
{
	for (size_t ci = 0; ci < g->who.n; ci++)
		if (wanted(g, ci, w) && coverage(g, ci) > 0)
			return 1;
	return 0;
}

/* Has a contender ranked here a cost row in any group (a world of
 * endpoints has none: its build is measured by its own rows)? */
static int costed(const struct vgrid *g)
{
	for (size_t gi = 0; gi < g->groups.n; gi++)
		for (size_t ci = 0; ci < g->who.n; ci++)
			if (!isnan(g->v[at(g, gi, ci)]) &&
			    companion(g, gi, ci) != NULL)
				return 1;
	return 0;
}

static void fig_of(const struct vgrid *g, size_t ci, struct fig *f)
{
	const struct ldecl *d = g->d;
	double sum = 0, lo_cost = INFINITY, lo_heap = INFINITY;

	f->ci = (long)ci;
	f->cost = f->heap = NAN;
	for (size_t h = 0; h < LDECL_MAX; h++)
		f->hold[h] = NAN;
	for (size_t gi = 0; gi < g->groups.n; gi++) {
		const struct result *k = companion(g, gi, ci);
		sum += log(g->v[at(g, gi, ci)]);
		if (k != NULL) {
			double c = view_median(k, d->metric[0].a);
			double m = d->heap[0] ? view_median(k, d->heap) : NAN;
			f->cost = fmax(f->cost, c);
			f->heap = fmax(f->heap, m);
			lo_cost = fmin(lo_cost, c);
			lo_heap = fmin(lo_heap, m);
		}
		for (size_t h = 0; h < d->nhold; h++)
			f->hold[h] = fmax(f->hold[h],
					  ldecl_value(g->r[at(g, gi, ci)],
						      &d->hold[h]));
	}
	f->geo = exp(sum / (double)g->groups.n);
	f->cost_range = lo_cost < f->cost;
	f->heap_range = lo_heap < f->heap;
}

/* "map+multi / re2, 45.2 ns/query, compile 553 us, B(heap) 75.8 KiB" */
static void fig_text(struct sbuf *b, const struct vgrid *g,
		     const struct fig *f)
{
	const struct ldecl *d = g->d;
	char name[512], num[64];

	who_name(g->who.s[f->ci], name, sizeof(name));
	per_op(d, f->geo, num, sizeof(num));
	sb_printf(b, "%s, %s", name, num);
	if (!isnan(f->cost)) {
		amount(f->cost, d->metric[0].a, num, sizeof(num));
		sb_printf(b, ", %s %s%s", d->cost_value,
			  f->cost_range ? "up to " : "", num);
	}
	if (!isnan(f->heap)) {
		heap_name(d, name, sizeof(name));
		amount(f->heap, d->heap, num, sizeof(num));
		sb_printf(b, ", %s %s%s", name, f->heap_range ? "up to " : "",
			  num);
	}
	for (size_t h = 0; h < d->nhold; h++) {
		if (isnan(f->hold[h]))
			continue;
		amount(f->hold[h], d->hold[h].a, num, sizeof(num));
		sb_printf(b, ", %s %s", d->hold[h].name, num);
	}
}

/* " 29.9 ns/query less (2.95x)": the floor's f against the other's o,
 * after ", " unless first. */
static void saving(struct sbuf *b, int *first, const char *what, double f,
		   double o, const char *unit, const struct ldecl *d, int rate)
{
	char num[64];
	double hi = fmax(f, o), lo = fmin(f, o);

	if (isnan(f) || isnan(o))
		return;
	sb_printf(b, "%s%s%s", *first ? " " : ", ", what, what[0] ? " " : "");
	*first = 0;
	if (!(hi > lo * 1.005)) {
		sb_printf(b, "the same");
		return;
	}
	if (rate)
		per_op(d, hi - lo, num, sizeof(num));
	else
		amount(hi - lo, unit, num, sizeof(num));
	sb_printf(b, "%s %s", num, f < o ? "less" : "more");
	if (lo > 0)
		sb_printf(b, " (%.*fx)", digits(hi / lo), hi / lo);
}

/* "; against X: 29.9 ns/query less (2.95x), compile 548 us less (112x)" */
static void savings(struct sbuf *b, const struct vgrid *g,
		    const struct fig *f, const struct fig *o)
{
	const struct ldecl *d = g->d;
	char name[512];
	int first = 1;

	who_name(g->who.s[o->ci], name, sizeof(name));
	sb_printf(b, "; against %s:", name);
	saving(b, &first, "", f->geo, o->geo, d->metric[0].a, d, 1);
	saving(b, &first, d->cost_value, f->cost, o->cost, d->metric[0].a, d,
	       0);
	heap_name(d, name, sizeof(name));
	saving(b, &first, name, f->heap, o->heap, d->heap, d, 0);
	for (size_t h = 0; h < d->nhold; h++)
		saving(b, &first, d->hold[h].name, f->hold[h], o->hold[h],
		       d->hold[h].a, d, 0);
}

/* The best ranked contender of kind w within the budgets (f->ci -1:
 * none); *fastest the best of kind w regardless, *why why it is out. */
static void pick_of(const struct vgrid *g, const struct ranked *rk,
		    size_t n, enum want w, const double lim[2],
		    struct fig *f, long *fastest, const char **why)
{
	const char *out = NULL;

	f->ci = *fastest = -1;
	*why = NULL;
	for (size_t i = 0; i < n && f->ci < 0; i++) {
		if (!wanted(g, rk[i].ci, w))
			continue;
		if (*fastest < 0)
			*fastest = (long)rk[i].ci;
		if (w == WANT_FLOOR || (lim[0] <= 0 && lim[1] <= 0) ||
		    within(g, rk[i].ci, lim[0], lim[1],
			   *fastest == (long)rk[i].ci ? why : &out))
			fig_of(g, rk[i].ci, f);
	}
}

/* " Best on engine go (label): X, 45.2 ns/query, ...", or why none. */
static void best_line(struct sbuf *b, const struct vgrid *g,
		      const char *head, const struct fig *f, long fastest,
		      const char *why, int brief)
{
	char name[512], num[64];

	sb_printf(b, " %s: ", head);
	if (f->ci >= 0 && brief) {
		who_name(g->who.s[f->ci], name, sizeof(name));
		per_op(g->d, f->geo, num, sizeof(num));
		sb_printf(b, "%s (%s)", name, num);
	} else if (f->ci >= 0) {
		fig_text(b, g, f);
	} else {
		sb_printf(b, "none %s", fastest < 0 ? "completed every group"
						   : "within the budgets");
	}
	if (fastest >= 0 && fastest != f->ci && !brief) {
		who_name(g->who.s[fastest], name, sizeof(name));
		sb_printf(b, " (the fastest, %s, is left out: %s)", name,
			  why ? why : "excluded");
	}
	sb_printf(b, ".");
}

/* The floor's line: its figures and what it saves against the others. */
static void floor_line(struct sbuf *b, const struct vgrid *g,
		       const char *head, const struct fig *fl,
		       const struct fig *base, const struct fig *any, int brief)
{
	if (fl->ci < 0) {
		sb_printf(b, " %s: it did not complete every group.", head);
		return;
	}
	best_line(b, g, head, fl, fl->ci, NULL, brief);
	if (brief)
		return;
	b->n--; /* the line's '.' */
	if (base->ci >= 0)
		savings(b, g, fl, base);
	if (any->ci >= 0 && any->ci != base->ci)
		savings(b, g, fl, any);
	sb_printf(b, ".");
}

/* "Best on engine go (label)" into buf. */
static void line_head(char *buf, size_t size, const char *lead,
		      const char *key, const char *value, const char *label)
{
	int n = snprintf(buf, size, "%s %s%s%s", lead, key, value[0] ? " " : "",
			 value);

	if (n > 0 && (size_t)n < size && label[0])
		snprintf(buf + n, size - (size_t)n, " (%s)", label);
}

/* The lines of one world g (label: its apart keys, "" for the first). */
static void world_lines(struct sbuf *b, const struct vgrid *g,
			const char *label, const double budgets[2], int brief)
{
	const struct ldecl *d = g->d;
	double lim[2] = {budgets[0], budgets[1]};
	char head[512];
	struct fig base = {.ci = -1}, any, fl;
	long fastest;
	const char *why;
	size_t n;
	struct ranked *rk = rank_all(g, &n);

	if (rk == NULL)
		return;
	if (!costed(g))
		lim[0] = lim[1] = 0;
	if (label[0])
		sb_printf(b, " With %s (%zu groups%s):", label, g->groups.n,
			  lim[0] <= 0 && lim[1] <= 0 && !brief
				  ? "; no budget applies, as none has a cost row"
				  : "");
	if (d->base_key[0] && present(g, WANT_BASE)) {
		pick_of(g, rk, n, WANT_BASE, lim, &base, &fastest, &why);
		line_head(head, sizeof(head), "Best on", d->base_key,
			  d->base_value, brief ? "" : d->base_label);
		best_line(b, g, head, &base, fastest, why, brief);
	}
	pick_of(g, rk, n, WANT_ANY, lim, &any, &fastest, &why);
	line_head(head, sizeof(head), "Best on any",
		  d->base_key[0] ? d->base_key : d->who.s[0], "", "");
	if (any.ci >= 0 && any.ci == base.ci)
		sb_printf(b, " %s: the same.", head);
	else
		best_line(b, g, head, &any, fastest, why, brief);
	if (d->floor_key[0] && present(g, WANT_FLOOR)) {
		pick_of(g, rk, n, WANT_FLOOR, lim, &fl, &fastest, &why);
		line_head(head, sizeof(head), "The floor,", d->floor_key,
			  d->floor_value, brief ? "" : d->floor_label);
		floor_line(b, g, head, &fl, &base, &any, brief);
	}
	free(rk);
}

/* Index in d->by of each apart key into idx (one no result has was
 * dropped from by: then it splits nothing); how many. */
static size_t apart_keys(const struct ldecl *d, size_t *idx)
{
	char a[LDECL_WORD], k[LDECL_WORD];
	size_t n = 0;

	for (size_t i = 0; i < d->apart.n; i++)
		for (size_t j = 0; j < d->by.n; j++) {
			ldecl_key_name(d->apart.s[i], a, sizeof(a));
			ldecl_key_name(d->by.s[j], k, sizeof(k));
			if (strcmp(a, k) == 0 && n < LDECL_MAX)
				idx[n++] = j;
		}
	return n;
}

/* Group gi's world as "key=value, ..." (keys with a value only). */
static void world_of(const struct vgrid *g, const size_t *idx, size_t n,
		     size_t gi, char *buf, size_t size)
{
	char part[512], name[LDECL_WORD];
	size_t used = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < n && used < size; i++) {
		ldecl_tuple_part(g->groups.s[gi], idx[i], part, sizeof(part));
		ldecl_key_name(g->d->by.s[idx[i]], name, sizeof(name));
		if (part[0] != '\0')
			used += (size_t)snprintf(buf + used, size - used,
						 "%s%s=%s", used ? ", " : "",
						 name, part);
	}
}

/* s: g's groups of world w, every contender. 0, or -1 out of memory. */
static int grid_world(const struct vgrid *g, const size_t *idx, size_t n,
		      const char *w, struct vgrid *s)
{
	char buf[512];
	size_t k = 0;

	*s = (struct vgrid){.res = g->res, .suite = g->suite, .d = g->d,
			    .better = g->better};
	for (size_t gi = 0; gi < g->groups.n; gi++) {
		world_of(g, idx, n, gi, buf, sizeof(buf));
		if (strcmp(buf, w) == 0 &&
		    strlist_add(&s->groups, g->groups.s[gi],
				strlen(g->groups.s[gi])) != 0)
			return -1;
	}
	for (size_t ci = 0; ci < g->who.n; ci++)
		if (strlist_add(&s->who, g->who.s[ci], strlen(g->who.s[ci])))
			return -1;
	s->r = calloc(s->groups.n * s->who.n + 1, sizeof(*s->r));
	s->v = calloc(s->groups.n * s->who.n + 1, sizeof(*s->v));
	if (s->r == NULL || s->v == NULL)
		return -1;
	for (size_t gi = 0; gi < g->groups.n; gi++) {
		world_of(g, idx, n, gi, buf, sizeof(buf));
		if (strcmp(buf, w) != 0)
			continue;
		memcpy(s->r + k * s->who.n, g->r + at(g, gi, 0),
		       g->who.n * sizeof(*s->r));
		memcpy(s->v + k * s->who.n, g->v + at(g, gi, 0),
		       g->who.n * sizeof(*s->v));
		k++;
	}
	return 0;
}

/* The head: the budgets, what the ranked metric is over (the by keys
 * but the apart ones), which row is the cost when there are several. */
static void lines_head(struct sbuf *b, const struct ldecl *d,
		       const size_t *idx, size_t n, const double budgets[2])
{
	char unit[64], keys[256];
	size_t used = 0;

	budgets_head(b, d, budgets[0], budgets[1]);
	keys[0] = '\0';
	for (size_t k = 0; k < d->by.n && used < sizeof(keys); k++) {
		char name[LDECL_WORD];
		int apart = 0;
		for (size_t i = 0; i < n; i++)
			apart |= idx[i] == k;
		ldecl_key_name(d->by.s[k], name, sizeof(name));
		if (!apart)
			used += (size_t)snprintf(keys + used,
						 sizeof(keys) - used, "%s%s",
						 used ? " / " : "", name);
	}
	per_op(d, 1, unit, sizeof(unit));
	sb_printf(b, ": %s is the geometric mean over the %s groups",
		  strchr(unit, ' ') ? strchr(unit, ' ') + 1 : unit, keys);
	for (size_t i = 1; i < d->costs.n; i++)
		sb_printf(b, "; one without a %s row counts its %s as %s",
			  d->costs.s[i - 1], d->costs.s[i], d->cost_value);
	sb_printf(b, ".");
}

/* The recommendation in lines, a world after another (brief: the
 * summary's few words). */
static void recommend_lines(struct sbuf *b, const struct vgrid *g,
			    const struct report_opts *opts, int brief)
{
	size_t idx[LDECL_MAX], n = apart_keys(g->d, idx);
	struct strlist worlds = {0};
	double budgets[2];
	char w[512];

	budgets_of(g->d, opts, &budgets[0], &budgets[1]);
	for (size_t gi = 0; gi < g->groups.n; gi++) {
		world_of(g, idx, n, gi, w, sizeof(w));
		if (strlist_add(&worlds, w, strlen(w)) != 0)
			goto out;
	}
	if (brief)
		sb_printf(b, " Recommendation:");
	else
		lines_head(b, g->d, idx, n, budgets);
	for (size_t i = 0; i < worlds.n; i++) {
		struct vgrid s;
		if (grid_world(g, idx, n, worlds.s[i], &s) == 0)
			world_lines(b, &s, worlds.s[i], budgets, brief);
		grid_release(&s);
	}
out:
	strlist_release(&worlds);
}

/* --- how far to trust it -------------------------------------------- */

/* What speaks against a suite's answer. */
struct doubts {
	size_t unst, failed, unver, unsup, ok, minn, partial;
	const char *busy;
	int interrupted;
};

static void doubts_of(const struct results *res, const char *suite,
		      const struct ldecl *d, size_t partial, struct doubts *w)
{
	memset(w, 0, sizeof(*w));
	w->busy = results_config_get(res, "busy");
	w->interrupted = res->interrupted;
	w->partial = partial;
	for (size_t i = 0; i < res->n; i++) {
		const struct result *r = &res->r[i];
		if (strcmp(r->suite, suite) != 0)
			continue;
		switch (r->status) {
		case RESULT_OK:
			w->ok++;
			w->unst += unstable(r, d->metric[0].a);
			w->unver += r->unverified;
			if (w->minn == 0 || r->nsamples < w->minn)
				w->minn = r->nsamples;
			break;
		case RESULT_UNVERIFIED: w->unver++; break;
		case RESULT_UNSUPPORTED: w->unsup++; break;
		default: w->failed++;
		}
	}
}

/* The doubts in full (brief 0), or as a few words for the summary. */
static void trust(struct sbuf *b, const struct doubts *w,
		  const struct ldecl *d, int brief)
{
	size_t at = b->n;

	sb_printf(b, brief ? " Caution:" : " Trust:");
	if (w->interrupted)
		sb_printf(b, brief ? " interrupted run;" : " the run was "
			  "interrupted, results are partial;");
	if (w->busy != NULL)
		sb_printf(b, brief ? " loaded machine;" : " the machine was "
			  "loaded (%s);", w->busy);
	if (w->minn < 3)
		sb_printf(b, brief ? " %zu sample(s) each;" : " %zu sample(s) "
			  "per benchmark, so no spread is known ("
			  STATS_COUNT_ADVICE ");", w->minn);
	if (w->unst > 0)
		sb_printf(b, brief ? " %zu unstable;" : " %zu of %zu timed "
			  "benchmarks unstable (spread above %.0f%%);", w->unst,
			  w->ok, STATS_UNSTABLE_PCT);
	if (w->failed > 0)
		sb_printf(b, brief ? " %zu failed;" : " %zu failed (mismatch, "
			  "error or timeout): see \"not measured\";", w->failed);
	if (w->unver > 0)
		sb_printf(b, brief ? " %zu unverified;" : " %zu unverified, "
			  "never ranked;", w->unver);
	if (w->partial > 0)
		sb_printf(b, brief ? " %zu partial;" : " %zu partial (less %s "
			  "than their group) not ranked;", w->partial,
			  d->complete);
	if (w->unsup > 0 && !brief)
		sb_printf(b, " %zu not supported (by their engine or, in "
			  "fqdn, by their strategy: each named under \"not "
			  "measured\");", w->unsup);
	if (b->s[b->n - 1] != ':')
		b->s[b->n - 1] = '.';
	else if (brief)
		b->s[b->n = at] = '\0';
	else
		sb_printf(b, " nothing against it: every timed answer was "
			  "verified, every row stable.");
}

/* --- putting it together -------------------------------------------- */

static void about(struct sbuf *b, const struct results *res,
		  const struct ldecl *d)
{
	for (size_t i = 0; i < d->about.n; i++) {
		const char *v = results_config_get(res, d->about.s[i]);
		if (v != NULL)
			sb_printf(b, " %s: %s.", d->about.s[i], v);
	}
}

/* Who is left out by `except`, when the results hold such a row: the
 * declared label, or the key and its values. */
static void except_note(struct sbuf *b, const struct vgrid *g)
{
	const struct ldecl *d = g->d;

	if (g->excepted == 0)
		return;
	sb_printf(b, " Left out of the ranking (their rows stay in the "
		  "tables): ");
	if (d->except_label[0]) {
		sb_printf(b, "%s.", d->except_label);
		return;
	}
	sb_printf(b, "%s", d->except_key);
	for (size_t i = 0; i < d->excepts.n; i++)
		sb_printf(b, "%s%s", i ? ", " : " ", d->excepts.s[i]);
	sb_printf(b, ".");
}

static void no_line_note(struct sbuf *b, const struct rtable *t,
			 const struct vcols *c, size_t no_line)
{
	size_t shown = 0;

	if (!c->has_line)
		return;
	if (no_line == 0) {
		sb_printf(b, " Every group reaches line rate on one core.");
		return;
	}
	if (no_line == t->nrows) {
		sb_printf(b, " In none of the %zu groups does a contender reach "
			  "line rate on one core.", t->nrows);
		return;
	}
	sb_printf(b, " No contender reaches line rate on one core in %zu of "
		  "%zu groups:", no_line, t->nrows);
	for (size_t r = 0; r < t->nrows && shown < 24; r++) {
		if (strcmp(rtable_cell(t, r, c->onecore)->text, "no") != 0)
			continue;
		sb_printf(b, "%s", shown++ ? "," : "");
		for (size_t k = 0; k < c->nby; k++)
			sb_printf(b, " %s", rtable_cell(t, r, k)->text);
	}
	sb_printf(b, "%s.", shown < no_line ? ", ..." : "");
}

/* " Not ranked: base 64, base 1500: groups with a floor row ..." when
 * contenders ran in floor groups (grid_floors), else nothing. */
static void floor_note(struct sbuf *b, const struct vgrid *g)
{
	char who[256], part[512];

	if (g->nfloored == 0)
		return;
	join_keys(&g->d->who, "", who, sizeof(who));
	sb_printf(b, " Not ranked:");
	for (size_t i = 0; i < g->floored.n && i < 24; i++) {
		sb_printf(b, "%s", i ? "," : "");
		for (size_t k = 0; k < g->d->by.n; k++) {
			ldecl_tuple_part(g->floored.s[i], k, part,
					 sizeof(part));
			if (part[0] != '\0')
				sb_printf(b, " %s", part);
		}
	}
	sb_printf(b, "%s: %s with a floor row (no %s, no pattern matched), "
		  "so the %zu %s row%s there %s no win%s; %s in the tables.",
		  g->floored.n > 24 ? ", ..." : "",
		  g->floored.n == 1 ? "a group" : "groups", who, g->nfloored,
		  who, g->nfloored == 1 ? "" : "s",
		  g->nfloored == 1 ? "is" : "are",
		  g->nfloored == 1 ? "" : "s",
		  g->nfloored == 1 ? "it is" : "they are");
}

/* "Best: X in 7 of 10 groups, Y in 3." (most wins first). */
static void wins_note(struct sbuf *b, const struct vgrid *g)
{
	size_t *wins = calloc(g->who.n + 1, sizeof(*wins)), groups = 0;
	char name[512];
	long best, second;

	if (wins == NULL)
		return;
	for (size_t gi = 0; gi < g->groups.n; gi++) {
		group_best(g, gi, &best, &second);
		if (best >= 0) {
			wins[best]++;
			groups++;
		}
	}
	for (size_t shown = 0; shown < 6; shown++) {
		size_t top = 0;
		for (size_t ci = 1; ci < g->who.n; ci++)
			if (wins[ci] > wins[top])
				top = ci;
		if (g->who.n == 0 || wins[top] == 0)
			break;
		who_name(g->who.s[top], name, sizeof(name));
		if (shown == 0)
			sb_printf(b, " Best: %s in %zu of %zu groups", name,
				  wins[top], groups);
		else
			sb_printf(b, ", %s in %zu", name, wins[top]);
		wins[top] = 0;
	}
	sb_printf(b, ".");
	free(wins);
}

/* "Overall: X 1.24x the best, then Y 3.51x, ..." over full coverage. */
static void overall_note(struct sbuf *b, const struct vgrid *g)
{
	size_t n;
	struct ranked *rk = rank_all(g, &n);
	char name[512];

	if (rk == NULL)
		return;
	for (size_t i = 0; i < n && i < 4; i++) {
		who_name(g->who.s[rk[i].ci], name, sizeof(name));
		if (i == 0)
			sb_printf(b, " Overall (geometric mean over the %zu "
				  "groups, only contenders that completed all "
				  "of them): %s %.2fx the best", g->groups.n,
				  name, rk[i].score);
		else
			sb_printf(b, "%s %s %.2fx", i == 1 ? ", then" : ",",
				  name, rk[i].score);
	}
	if (n > 0)
		sb_printf(b, ".");
	free(rk);
}

static int groups_table(const struct vgrid *g, const struct report_opts *opts,
			struct rtables *out)
{
	const struct ldecl *d = g->d;
	struct vcols c;
	static struct sbuf b, sh; /* 16 KiB: off the stack */
	struct doubts w;
	struct rtable *t;
	size_t no_line = 0;
	long best, second;

	b.n = sh.n = 0;
	b.s[0] = sh.s[0] = '\0';
	vcols_of(d, &c);
	t = rtable_new(out, RTABLE_VERDICT, "verdict", "", c.n);
	if (t == NULL || vtable_head(t, d, &c) != 0 ||
	    rtable_meta(t, d->by.n, NULL, d->metric[0].name, g->better) != 0)
		return -1;
	for (size_t gi = 0; gi < g->groups.n; gi++) {
		group_best(g, gi, &best, &second);
		if (best >= 0 && vrow(t, g, &c, gi, best, second, &no_line))
			return -1;
	}
	sb_printf(&b, "%s", d->question);
	about(&b, g->res, d);
	if (t->nrows == 0) {
		sb_printf(&b, " No verified result to rank.");
		sb_printf(&sh, " No verified result to rank.");
	} else {
		char who[256], by[256];
		join_keys(&d->who, "", who, sizeof(who));
		join_keys(&d->by, "", by, sizeof(by));
		sb_printf(&b, " Per %s, the best verified %s by %s (%s is "
			  "better), the runner-up and by how much.", by, who,
			  d->metric[0].name,
			  g->better == BETTER_HIGHER ? "higher" : "lower");
	}
	except_note(&b, g);
	floor_note(&b, g);
	if (t->nrows > 0) {
		wins_note(&b, g);
		wins_note(&sh, g);
		no_line_note(&b, t, &c, no_line);
		no_line_note(&sh, t, &c, no_line);
		if (d->base_key[0] || d->floor_key[0]) {
			recommend_lines(&b, g, opts, 0);
			recommend_lines(&sh, g, opts, 1);
		} else {
			recommend(&b, g, opts);
			recommend(&sh, g, opts);
		}
	}
	if (d->overall && t->nrows > 0) {
		overall_note(&b, g);
		overall_note(&sh, g);
		coverage_note(&b, g);
	}
	doubts_of(g->res, g->suite, d, g->partial, &w);
	trust(&b, &w, d, 0);
	trust(&sh, &w, d, 1);
	free(t->caption);
	t->caption = strdup(b.s);
	t->summary = strdup(sh.n > 0 ? sh.s + 1 : sh.s);
	return t->caption && t->summary ? 0 : -1;
}

/* --- where the contenders ran (where=KEY) -------------------------- */

#define PLACES 4
#define PLACE_USER "user space"

/* The places of a verdict's contenders, PLACE_USER last. */
struct places {
	const char *name[PLACES];
	size_t n;
	const char **of; /* per contender */
};

/*
 * Where contender ci ran: the results' "<engine>-runs-in" for the
 * engine its `where` key names (up to the first ',': its options), else
 * PLACE_USER.  The text lives as long as the results.
 */
static const char *place_of(const struct vgrid *g, size_t ci)
{
	char name[LDECL_WORD], v[512], key[600];
	const char *p;

	for (size_t k = 0; k < g->d->who.n; k++) {
		ldecl_key_name(g->d->who.s[k], name, sizeof(name));
		if (strcmp(name, g->d->where) != 0)
			continue;
		ldecl_tuple_part(g->who.s[ci], k, v, sizeof(v));
		v[strcspn(v, ",")] = '\0';
		snprintf(key, sizeof(key), "%s-runs-in", v);
		p = results_config_get(g->res, key);
		return p != NULL && p[0] != '\0' ? p : PLACE_USER;
	}
	return PLACE_USER;
}

/* Each contender's place into pl, and the places (PLACE_USER last) of
 * the contenders with a rankable (verified) row.  0, or -1 out of
 * memory. */
static int places_of(const struct vgrid *g, struct places *pl)
{
	int user = 0;

	pl->n = 0;
	pl->of = calloc(g->who.n + 1, sizeof(*pl->of));
	if (pl->of == NULL)
		return -1;
	for (size_t ci = 0; ci < g->who.n; ci++) {
		size_t k = 0;
		pl->of[ci] = place_of(g, ci);
		if (coverage(g, ci) == 0)
			continue; /* no verified row: it ran nowhere */
		if (strcmp(pl->of[ci], PLACE_USER) == 0) {
			user = 1;
			continue;
		}
		while (k < pl->n && strcmp(pl->name[k], pl->of[ci]) != 0)
			k++;
		if (k == pl->n && pl->n < PLACES - 1)
			pl->name[pl->n++] = pl->of[ci];
	}
	if (user)
		pl->name[pl->n++] = PLACE_USER;
	return 0;
}

/* The best contender of group gi that ran at place p, or -1. */
static long place_best(const struct vgrid *g, const struct places *pl,
		       size_t gi, const char *p)
{
	long best = -1;

	for (size_t ci = 0; ci < g->who.n; ci++) {
		double v = g->v[at(g, gi, ci)];
		if (isnan(v) || strcmp(pl->of[ci], p) != 0)
			continue;
		if (best < 0 || better_than(g, v, g->v[at(g, gi, best)]))
			best = (long)ci;
	}
	return best;
}

/* Columns a place takes: best, metric, and with a line cores, 1 core. */
static size_t place_cols(const struct ldecl *d)
{
	return d->line[0] != '\0' ? 4 : 2;
}

static int place_head(struct rtable *t, const struct ldecl *d,
		      const struct places *pl)
{
	size_t c = d->by.n, w = place_cols(d);
	char buf[160];
	int rc = 0;

	for (size_t k = 0; k < d->by.n; k++) {
		ldecl_key_name(d->by.s[k], buf, sizeof(buf));
		rc |= rtable_col(t, k, buf, 0);
	}
	for (size_t p = 0; p < pl->n; p++, c += w) {
		snprintf(buf, sizeof(buf), "best in %s", pl->name[p]);
		rc |= rtable_col(t, c, buf, 0);
		rc |= rtable_col(t, c + 1, d->metric[0].name, 1);
		if (w == 4) {
			rc |= rtable_col(t, c + 2, "cores", 1);
			rc |= rtable_col(t, c + 3, "1 core", 0);
		}
	}
	return rc | rtable_col(t, c, "ahead", 0);
}
/* Counts for the paragraph: per place, groups it has a contender in,
 * reaches line rate on one core in, and is ahead in (of the `contested`
 * groups, where two places or more have one). */
struct place_tally {
	size_t groups[PLACES], one_core[PLACES], ahead[PLACES];
	size_t contested;
};

/* Place p's cells of row `row` for group gi: its best ci. */
static int place_cells(struct rtable *t, const struct vgrid *g, long row,
		       size_t c, size_t gi, long ci, int *one)
{
	const struct ldecl *d = g->d;
	double v = g->v[at(g, gi, (size_t)ci)], line;
	char name[512];
	int rc;

	who_name(g->who.s[ci], name, sizeof(name));
	rc = rtable_text(t, row, c, name);
	rc |= rtable_num(t, row, c + 1, v, d->metric[0].name);
	*one = 0;
	if (place_cols(d) < 4)
		return rc;
	line = view_median(g->r[at(g, gi, (size_t)ci)], d->line);
	*one = v >= line;
	rc |= rtable_num(t, row, c + 2, line / v, "cores");
	return rc | rtable_text(t, row, c + 3, *one ? "yes" : "no");
}

/* The row of group gi (none when no place has a contender there). */
static int place_row(struct rtable *t, const struct vgrid *g,
		     const struct places *pl, size_t gi,
		     struct place_tally *n)
{
	long best[PLACES], lead = -1, row;
	size_t c = g->d->by.n, w = place_cols(g->d), second = 0;
	char part[512], buf[160];
	int rc = 0, one;

	for (size_t p = 0; p < pl->n; p++) {
		best[p] = place_best(g, pl, gi, pl->name[p]);
		if (best[p] >= 0 && (lead < 0 ||
		    better_than(g, g->v[at(g, gi, best[p])],
				g->v[at(g, gi, best[lead])])))
			lead = (long)p;
	}
	if (lead < 0)
		return 0;
	row = rtable_row(t);
	if (row < 0)
		return -1;
	for (size_t b = 0; b < g->d->by.n; b++) {
		ldecl_tuple_part(g->groups.s[gi], b, part, sizeof(part));
		rc |= rtable_text(t, row, b, part);
		rtable_cell(t, (size_t)row, b)->v = strtod(part, NULL);
	}
	for (size_t p = 0; p < pl->n; p++, c += w) {
		if (best[p] < 0)
			continue;
		rc |= place_cells(t, g, row, c, gi, best[p], &one);
		n->groups[p]++;
		n->one_core[p] += (size_t)one;
		if ((long)p != lead && (second == 0 ||
		    better_than(g, g->v[at(g, gi, best[p])], g->v[second - 1])))
			second = at(g, gi, best[p]) + 1;
	}
	if (second == 0)
		return rc; /* one place ran: no one is ahead */
	n->ahead[lead]++;
	n->contested++;
	rtable_cell(t, (size_t)row, g->d->by.n + (size_t)lead * w)->strong = 1;
	snprintf(buf, sizeof(buf), "%s x%.2f", pl->name[lead],
		 ratio(g, g->v[at(g, gi, best[lead])], g->v[second - 1]));
	return rc | rtable_text(t, row, c, buf);
}

/* The paragraph: what a place is, then each place's counts. */
static void place_caption(struct sbuf *b, const struct vgrid *g,
			  const struct places *pl,
			  const struct place_tally *n, size_t rows)
{
	const struct ldecl *d = g->d;
	char by[256];

	join_keys(&d->by, "", by, sizeof(by));
	sb_printf(b, "Where each %s ran, as the results record it "
		  "(ENGINE-runs-in: %s; none recorded: %s). Per %s, the "
		  "best verified %s of each place by %s%s, and which place "
		  "is ahead by how much.", d->where, pl->name[0], PLACE_USER,
		  by, d->where,
		  d->metric[0].name, place_cols(d) == 4 ? ", the cores line "
		  "rate takes and whether one core reaches it" : "");
	if (g->nfloored > 0)
		sb_printf(b, " Groups with a floor row (no %s, no pattern "
			  "matched) are left out, as in the verdict.", d->where);
	for (size_t p = 0; p < pl->n; p++) {
		sb_printf(b, "%s %s: ahead in %zu of the %zu groups %s ran",
			  p ? ";" : "", pl->name[p], n->ahead[p], n->contested,
			  pl->n == 2 ? "both places" : "two places or more");
		if (place_cols(d) == 4)
			sb_printf(b, ", line rate on one core in %zu of the "
				  "%zu it ran in", n->one_core[p],
				  n->groups[p]);
	}
	sb_printf(b, "%s.", rows > n->contested ? " (in the other groups "
		  "one place ran)" : "");
	if (strcmp(pl->name[0], "kernel") == 0 &&
	    strcmp(pl->name[pl->n - 1], PLACE_USER) == 0)
		sb_printf(b, " The user space figures are the matching alone: "
			  "they leave out getting the packets to user space "
			  "(AF_XDP, DPDK or a socket's copy); the kernel "
			  "figures include running the XDP program on each "
			  "packet, not the driver's nor the NIC's work.");
}

/* The table of places, when the contenders ran in two or more. */
static int places_table(const struct vgrid *g, struct rtables *out)
{
	static struct sbuf b; /* 8 KiB: off the stack */
	struct places pl;
	struct place_tally n;
	struct rtable *t;
	int rc = -1;

	if (places_of(g, &pl) != 0)
		return -1;
	if (pl.n < 2) {
		free(pl.of);
		return 0;
	}
	memset(&n, 0, sizeof(n));
	b.n = 0;
	b.s[0] = '\0';
	t = rtable_new(out, RTABLE_VERDICT, "where they ran", "",
		       g->d->by.n + pl.n * place_cols(g->d) + 1);
	if (t == NULL || place_head(t, g->d, &pl) != 0 ||
	    rtable_meta(t, g->d->by.n, NULL, g->d->metric[0].name,
			g->better) != 0)
		goto out;
	for (size_t gi = 0; gi < g->groups.n; gi++)
		if (place_row(t, g, &pl, gi, &n) != 0)
			goto out;
	place_caption(&b, g, &pl, &n, t->nrows);
	free(t->caption);
	t->caption = strdup(b.s);
	rc = t->caption != NULL ? 0 : -1;
out:
	free(pl.of);
	return rc;
}

/* 1 when some result of the suite has the key (its '?' left out). */
static int key_used(const struct results *res, const char *suite,
		    const char *key)
{
	char name[LDECL_WORD], v[512];

	ldecl_key_name(key, name, sizeof(name));
	for (size_t i = 0; i < res->n; i++)
		if (strcmp(res->r[i].suite, suite) == 0 &&
		    result_key(&res->r[i], name, v, sizeof(v)))
			return 1;
	return 0;
}

/* d without the optional by keys no result has (no empty column). */
static void drop_unused(const struct results *res, const char *suite,
			struct ldecl *d)
{
	size_t k = 0;

	for (size_t i = 0; i < d->by.n; i++) {
		size_t n = strlen(d->by.s[i]);
		if (n > 0 && d->by.s[i][n - 1] == '?' &&
		    !key_used(res, suite, d->by.s[i]))
			continue;
		memmove(d->by.s[k++], d->by.s[i], sizeof(d->by.s[i]));
	}
	d->by.n = k;
}

/* 1 when some result of the suite has metric m. */
static int metric_used(const struct results *res, const char *suite,
		       const struct ldecl_metric *m)
{
	for (size_t i = 0; i < res->n; i++)
		if (strcmp(res->r[i].suite, suite) == 0 &&
		    result_metric(&res->r[i], m->a) != NULL)
			return 1;
	return 0;
}

/* d without the show metrics no result has (no empty column: fqdn's
 * `allowed` exists only with --queries). */
static void drop_unshown(const struct results *res, const char *suite,
			 struct ldecl *d)
{
	size_t k = 0;

	for (size_t i = 0; i < d->nshow; i++)
		if (metric_used(res, suite, &d->show[i]))
			d->show[k++] = d->show[i];
	d->nshow = k;
}

int verdict_build(const struct results *res, const char *suite,
		  const struct ldecl *decl, const struct report_opts *opts,
		  struct rtables *out)
{
	struct ldecl dd = *decl, *d = &dd;
	struct vgrid g = {.res = res, .suite = suite, .d = d};
	int rc = -1;

	drop_unused(res, suite, d);
	drop_unshown(res, suite, d);
	if (d->nmetric == 0 || d->by.n == 0 || d->who.n == 0)
		return 0;
	if (grid_build(&g) != 0 || groups_table(&g, opts, out) != 0 ||
	    (d->where[0] && places_table(&g, out) != 0))
		goto out;
	rc = d->overall ? overall_table(&g, out) : 0;
out:
	grid_release(&g);
	return rc;
}

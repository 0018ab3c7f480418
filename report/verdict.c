/*
 * verdict.c - the answer first (see verdict.h).
 */
#include "report/verdict.h"

#include "report/compare_stats.h"
#include "report/gofmt.h"
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

static int grid_axes(struct vgrid *g)
{
	char t[1024];

	for (size_t i = 0; i < g->res->n; i++) {
		const struct result *r = &g->res->r[i];
		/* a result without the by keys is another table's (a rule
		   alone: the costliest table) */
		if (strcmp(r->suite, g->suite) != 0 || !group_wanted(g->d, r) ||
		    !layout_tuple_of(r, &g->d->by, t, sizeof(t)))
			continue;
		if (strlist_add(&g->groups, t, strlen(t)) != 0)
			return -1;
		if (!layout_tuple_of(r, &g->d->who, t, sizeof(t)))
			continue;
		if (strlist_add(&g->who, t, strlen(t)) != 0)
			return -1;
	}
	return 0;
}

/* A result counts when ok, verified and timed. */
static double rankable(const struct ldecl *d, const struct result *r)
{
	if (r->status != RESULT_OK || r->unverified || r->nsamples == 0)
		return NAN;
	return ldecl_value(r, &d->metric[0]);
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
		    !layout_tuple_of(r, &g->d->by, t, sizeof(t)))
			continue;
		gi = strlist_find(&g->groups, t);
		if (!layout_tuple_of(r, &g->d->who, t, sizeof(t)))
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
 * The contender's result with the cost key set to the cost value and the
 * group's other by keys (compile, for a match phase), or NULL.
 */
static const struct result *companion(const struct vgrid *g, size_t gi,
				      size_t ci)
{
	const struct ldecl *d = g->d;
	char t[1024], v[512], want[512];

	for (size_t i = 0; d->cost_key[0] && i < g->res->n; i++) {
		const struct result *r = &g->res->r[i];
		int ok = strcmp(r->suite, g->suite) == 0 &&
			 r->status == RESULT_OK &&
			 layout_tuple_of(r, &d->who, t, sizeof(t)) &&
			 strcmp(t, g->who.s[ci]) == 0 &&
			 result_key(r, d->cost_key, v, sizeof(v)) &&
			 strcmp(v, d->cost_value) == 0;
		for (size_t k = 0; ok && k < d->by.n; k++) {
			if (strcmp(d->by.s[k], d->cost_key) == 0)
				continue;
			layout_tuple_part(g->groups.s[gi], k, want, sizeof(want));
			ok = ldecl_key(r, d->by.s[k], v, sizeof(v)) &&
			     strcmp(v, want) == 0;
		}
		if (ok)
			return r;
	}
	return NULL;
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
		layout_tuple_part(g->groups.s[gi], b, part, sizeof(part));
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
		rc |= rtable_num(t, row, c->show + s, ldecl_value(w, &d->show[s]),
				 d->show[s].name);
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

static void recommend(struct sbuf *b, const struct vgrid *g,
		      const struct report_opts *opts)
{
	const struct ldecl *d = g->d;
	double budget = opts && opts->budget_ns > 0 ? opts->budget_ns
						    : d->budget_ns;
	double heap = opts && opts->heap_bytes > 0 ? opts->heap_bytes
						   : d->heap_bytes;
	size_t n, fit = 0;
	struct ranked *rk;
	char name[512], bt[32];
	const char *why = NULL;
	long pick = -1;

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
	snprintf(bt, sizeof(bt), "%.4g", budget / 1e6);
	sb_printf(b, " Recommendation (budgets: %s within %s ms",
		  d->cost_value, budget > 0 ? bt : "any");
	if (heap > 0)
		sb_printf(b, ", %s %s at most %.4g MiB", d->cost_value, d->heap,
			  heap / 1048576);
	sb_printf(b, "; set them with --compile-budget and --heap-budget): ");
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
			  "per benchmark, so no spread is known (--count=5 or "
			  "more);", w->minn);
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
		sb_printf(b, " %zu not supported by their engine;", w->unsup);
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
	if (t->nrows > 0) {
		wins_note(&b, g);
		wins_note(&sh, g);
		no_line_note(&b, t, &c, no_line);
		no_line_note(&sh, t, &c, no_line);
		recommend(&b, g, opts);
		recommend(&sh, g, opts);
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

int verdict_build(const struct results *res, const char *suite,
		  const struct ldecl *decl, const struct report_opts *opts,
		  struct rtables *out)
{
	struct ldecl dd = *decl, *d = &dd;
	struct vgrid g = {.res = res, .suite = suite, .d = d};
	int rc = -1;

	drop_unused(res, suite, d);
	if (d->nmetric == 0 || d->by.n == 0 || d->who.n == 0)
		return 0;
	if (grid_build(&g) != 0 || groups_table(&g, opts, out) != 0)
		goto out;
	rc = d->overall ? overall_table(&g, out) : 0;
out:
	grid_release(&g);
	return rc;
}

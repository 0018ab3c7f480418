/*
 * layout.c - the report's tables (see layout.h).
 */
#include "report/layout.h"

#include "report/gofmt.h"
#include "report/view.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct rcell *rtable_cell(const struct rtable *t, size_t r, size_t c)
{
	return &t->cells[r * t->ncols + c];
}

static void rtable_release(struct rtable *t)
{
	for (size_t i = 0; i < t->nrows * t->ncols; i++)
		free(t->cells[i].text);
	for (size_t i = 0; i < t->ncols; i++)
		free(t->cols[i]);
	free(t->cells);
	free(t->cols);
	free(t->numeric);
	free(t->title);
	free(t->caption);
}

void rtables_release(struct rtables *ts)
{
	for (size_t i = 0; i < ts->n; i++)
		rtable_release(&ts->t[i]);
	free(ts->t);
	ts->t = NULL;
	ts->n = 0;
}

/* A new empty table with ncols unnamed columns, or NULL. */
struct rtable *rtable_new(struct rtables *ts, enum rtable_kind kind,
			  const char *title, const char *caption, size_t ncols)
{
	struct rtable *grown = realloc(ts->t, (ts->n + 1) * sizeof(*grown));
	struct rtable *t;

	if (grown == NULL)
		return NULL;
	ts->t = grown;
	t = &ts->t[ts->n];
	memset(t, 0, sizeof(*t));
	t->kind = kind;
	t->title = strdup(title);
	t->caption = strdup(caption);
	t->cols = calloc(ncols + 1, sizeof(*t->cols));
	t->numeric = calloc(ncols + 1, sizeof(*t->numeric));
	t->ncols = ncols;
	ts->n++; /* counted now, so a failure below is still released */
	if (t->title == NULL || t->caption == NULL || t->cols == NULL ||
	    t->numeric == NULL)
		return NULL;
	return t;
}

int rtable_col(struct rtable *t, size_t c, const char *name, int numeric)
{
	t->cols[c] = strdup(name);
	t->numeric[c] = numeric;
	return t->cols[c] ? 0 : -1;
}

/* Append an empty row; its index, or -1. */
long rtable_row(struct rtable *t)
{
	struct rcell *grown = realloc(t->cells, (t->nrows + 1) * t->ncols *
							sizeof(*grown));

	if (grown == NULL)
		return -1;
	t->cells = grown;
	for (size_t c = 0; c < t->ncols; c++)
		t->cells[t->nrows * t->ncols + c] = (struct rcell){NULL, NAN, 0};
	return (long)t->nrows++;
}

int rtable_text(struct rtable *t, long r, size_t c, const char *text)
{
	struct rcell *cell = rtable_cell(t, (size_t)r, c);

	free(cell->text);
	cell->text = text ? strdup(text) : NULL;
	return text == NULL || cell->text != NULL ? 0 : -1;
}

/* A number in Go's precision for its unit; empty when NAN. */
static int cell_num(struct rtable *t, long r, size_t c, double v,
		    const char *unit)
{
	char buf[64];

	if (isnan(v))
		return 0;
	gofmt_number(v, unit, buf, sizeof(buf));
	rtable_cell(t, (size_t)r, c)->v = v;
	return rtable_text(t, r, c, buf);
}

/* Mark the best number of column c (lowest or highest), unless all tie. */
static void best_in_column(struct rtable *t, size_t c, enum metric_better b)
{
	long best = -1;
	int differ = 0;

	if (b == BETTER_EXACT)
		return;
	for (size_t r = 0; r < t->nrows; r++) {
		double v = rtable_cell(t, r, c)->v;
		double bv = best < 0 ? NAN : rtable_cell(t, (size_t)best, c)->v;
		if (isnan(v))
			continue;
		differ |= best >= 0 && v != bv;
		if (best < 0 || (b == BETTER_LOWER ? v < bv : v > bv))
			best = (long)r;
	}
	if (best >= 0 && differ)
		rtable_cell(t, (size_t)best, c)->strong = 1;
}

/* --- ranking ------------------------------------------------------ */

static int ranking_row(struct rtable *t, const struct results *res,
		       const struct rank_row *row,
		       const struct ranking *by_phase, size_t nphases)
{
	char buf[256];
	long r = rtable_row(t);
	int rc;

	if (r < 0)
		return -1;
	snprintf(buf, sizeof(buf), "%s-version", row->engine);
	rc = rtable_text(t, r, 0, row->engine);
	rc |= rtable_text(t, r, 1, results_config_get(res, buf));
	snprintf(buf, sizeof(buf), "%.2f", row->geomean);
	rc |= rtable_text(t, r, 2, buf);
	rtable_cell(t, (size_t)r, 2)->v = row->geomean;
	snprintf(buf, sizeof(buf), "%zu", row->count);
	rc |= rtable_text(t, r, 3, buf);
	rtable_cell(t, (size_t)r, 3)->v = (double)row->count;
	for (size_t p = 0; p < nphases; p++) {
		const struct rank_row *pr = ranking_find(&by_phase[p],
							 row->engine);
		if (pr == NULL)
			continue;
		snprintf(buf, sizeof(buf), "%.2f", pr->geomean);
		rc |= rtable_text(t, r, 4 + p, buf);
		rtable_cell(t, (size_t)r, 4 + p)->v = pr->geomean;
	}
	return rc;
}

static int ranking_table(const struct results *res, const char *suite,
			 struct rtables *out)
{
	struct ranking all = {0}, *by_phase = NULL;
	struct strlist phases = {0};
	struct rtable *t;
	char caption[512];
	int rc = -1;

	if (view_rank(res, suite, NULL, NULL, &all) != 0 ||
	    view_key_values(res, suite, "phase", &phases) != 0)
		goto out;
	if (all.n < 2) {
		rc = 0; /* nothing to rank */
		goto out;
	}
	by_phase = calloc(phases.n + 1, sizeof(*by_phase));
	if (by_phase == NULL)
		goto out;
	for (size_t p = 0; p < phases.n; p++)
		if (view_rank(res, suite, "phase", phases.s[p],
			      &by_phase[p]) != 0)
			goto out;
	snprintf(caption, sizeof(caption),
		 "Geometric mean over %zu benchmark groups (a benchmark name "
		 "without its engine, run by two or more engines) of each "
		 "engine's median " VIEW_TIME_UNIT " divided by the fastest "
		 "engine's: 1.00 is fastest everywhere.%s",
		 all.groups, phases.n ? " One column per phase." : "");
	t = rtable_new(out, RTABLE_RANKING, "engine ranking", caption,
		      4 + phases.n);
	if (t == NULL || rtable_col(t, 0, "engine", 0) != 0 ||
	    rtable_col(t, 1, "version", 0) != 0 ||
	    rtable_col(t, 2, "geomean", 1) != 0 ||
	    rtable_col(t, 3, "groups", 1) != 0)
		goto out;
	for (size_t p = 0; p < phases.n; p++)
		if (rtable_col(t, 4 + p, phases.s[p], 1) != 0)
			goto out;
	for (size_t i = 0; i < all.n; i++)
		if (ranking_row(t, res, &all.rows[i], by_phase, phases.n) != 0)
			goto out;
	for (size_t c = 2; c < t->ncols; c++)
		if (c != 3)
			best_in_column(t, c, BETTER_LOWER);
	rc = 0;
out:
	for (size_t p = 0; by_phase != NULL && p < phases.n; p++)
		ranking_release(&by_phase[p]);
	free(by_phase);
	strlist_release(&phases);
	ranking_release(&all);
	return rc;
}

/* --- tables with a row per benchmark (FQDN, generic) --------------- */

/* "k=v, k=v" of r over keys (those r has), into buf. */
static void signature(const struct result *r, const struct strlist *keys,
		      char *buf, size_t size)
{
	char v[512];
	size_t used = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < keys->n && used < size; i++) {
		int w;
		if (!result_key(r, keys->s[i], v, sizeof(v)))
			continue;
		w = snprintf(buf + used, size - used, "%s%s=%s",
			     used ? ", " : "", keys->s[i], v);
		if (w < 0)
			break;
		used += (size_t)w;
	}
}

/*
 * The distinct split signatures of a suite's results, in order; only
 * results with an engine key when need_engine.  0 or -1.
 */
static int suite_signatures(const struct results *res, const char *suite,
			    const struct strlist *split, int need_engine,
			    struct strlist *sigs)
{
	char buf[1024];

	for (size_t i = 0; i < res->n; i++) {
		if (strcmp(res->r[i].suite, suite) != 0 ||
		    (need_engine &&
		     !result_key(&res->r[i], "engine", buf, sizeof(buf))))
			continue;
		signature(&res->r[i], split, buf, sizeof(buf));
		if (strlist_add(sigs, buf, strlen(buf)) != 0)
			return -1;
	}
	return 0;
}

/* Move `key` to the front of keys when present (tables split by phase
 * first, then by any extra key such as domains). */
static void lead_key(struct strlist *keys, const char *key)
{
	long i = strlist_find(keys, key);

	for (; i > 0; i--) {
		char *t = keys->s[i];
		keys->s[i] = keys->s[i - 1];
		keys->s[i - 1] = t;
	}
}

/* Signatures with the leading split key first, in order; those without
 * it (verification rows that have no phase) after them. */
static void lead_signatures_first(struct strlist *sigs,
				  const struct strlist *split)
{
	char prefix[128];
	size_t n = 0;

	if (split->n == 0)
		return;
	snprintf(prefix, sizeof(prefix), "%s=", split->s[0]);
	for (size_t i = 0; i < sigs->n; i++) {
		char *t = sigs->s[i];
		if (strncmp(t, prefix, strlen(prefix)) != 0)
			continue;
		memmove(&sigs->s[n + 1], &sigs->s[n], (i - n) * sizeof(*sigs->s));
		sigs->s[n++] = t;
	}
}

struct rows_spec {
	const struct results *res;
	const char *suite;
	struct strlist split, rows, units;
	enum rtable_kind kind;
	int name_col; /* a first column with the whole name (see below) */
};

/*
 * 1 when some name of the suite is not made of key=value levels after
 * its first ("Decode/small", "Foo": go test's names): the keys cannot
 * tell its rows apart, so the table shows the names.
 */
static int names_without_keys(const struct results *res, const char *suite)
{
	for (size_t i = 0; i < res->n; i++) {
		const char *p = strchr(res->r[i].name, '/');
		if (strcmp(res->r[i].suite, suite) != 0)
			continue;
		if (p == NULL)
			return 1;
		for (; p != NULL; p = strchr(p + 1, '/')) {
			size_t len = strcspn(p + 1, "/");
			if (memchr(p + 1, '=', len) == NULL)
				return 1;
		}
	}
	return 0;
}

static int any_failed(const struct rows_spec *sp, const char *sig)
{
	char buf[1024];

	for (size_t i = 0; i < sp->res->n; i++) {
		const struct result *r = &sp->res->r[i];
		if (strcmp(r->suite, sp->suite) != 0)
			continue;
		signature(r, &sp->split, buf, sizeof(buf));
		if (strcmp(buf, sig) == 0 && r->status != RESULT_OK)
			return 1;
	}
	return 0;
}

static int bench_row(struct rtable *t, const struct rows_spec *sp,
		     const struct result *r, int with_status)
{
	char v[512];
	long row = rtable_row(t);
	size_t c = 0;
	int rc = 0;

	if (row < 0)
		return -1;
	if (sp->name_col)
		rc |= rtable_text(t, row, c++, r->name);
	for (size_t k = 0; k < sp->rows.n; k++, c++)
		if (result_key(r, sp->rows.s[k], v, sizeof(v)))
			rc |= rtable_text(t, row, c, v);
	for (size_t u = 0; u < sp->units.n; u++, c++)
		if (r->status == RESULT_OK)
			rc |= cell_num(t, row, c,
				       view_median(r, sp->units.s[u]),
				       sp->units.s[u]);
	if (with_status)
		rc |= rtable_text(t, row, c, result_status_name(r->status));
	return rc;
}

/* One table for the results whose split signature is sig. */
static int rows_table_for(const struct rows_spec *sp, const char *sig,
			  struct rtables *out)
{
	int with_status = any_failed(sp, sig);
	char caption[256], buf[1024];
	struct rtable *t;
	size_t c = 0;

	snprintf(caption, sizeof(caption), "Median of the samples%s.",
		 sp->kind == RTABLE_FQDN ? "; the best of each column in bold"
					 : "");
	t = rtable_new(out, sp->kind, sig[0] ? sig : "all benchmarks", caption,
		      (size_t)sp->name_col + sp->rows.n + sp->units.n +
			      (size_t)with_status);
	if (t == NULL)
		return -1;
	if (sp->name_col && rtable_col(t, c++, "name", 0) != 0)
		return -1;
	for (size_t k = 0; k < sp->rows.n; k++)
		if (rtable_col(t, c++, sp->rows.s[k], 0) != 0)
			return -1;
	for (size_t u = 0; u < sp->units.n; u++)
		if (rtable_col(t, c++, sp->units.s[u], 1) != 0)
			return -1;
	if (with_status && rtable_col(t, c, "status", 0) != 0)
		return -1;
	for (size_t i = 0; i < sp->res->n; i++) {
		const struct result *r = &sp->res->r[i];
		if (strcmp(r->suite, sp->suite) != 0)
			continue;
		signature(r, &sp->split, buf, sizeof(buf));
		if (strcmp(buf, sig) == 0 &&
		    bench_row(t, sp, r, with_status) != 0)
			return -1;
	}
	/* one phase's strategies and engines compete; a generic table
	   mixes different cases, so no best there */
	for (size_t u = 0; sp->kind == RTABLE_FQDN && u < sp->units.n; u++)
		best_in_column(t, sp->rows.n + u,
			       view_better(sp->res, sp->suite, sp->units.s[u]));
	return 0;
}

/*
 * Tables split by the keys not in row_keys (row_keys NULL: every key is
 * a row key, one table).
 */
static int rows_tables(const struct results *res, const char *suite,
		       const char *const *row_keys, size_t nrow,
		       enum rtable_kind kind, struct rtables *out)
{
	struct rows_spec sp = {.res = res, .suite = suite, .kind = kind,
			       .name_col = names_without_keys(res, suite)};
	struct strlist keys = {0}, sigs = {0};
	int rc = -1;

	if (view_keys(res, suite, &keys) != 0 ||
	    view_units(res, suite, &sp.units) != 0)
		goto out;
	for (size_t k = 0; k < keys.n; k++) {
		int is_row = row_keys == NULL;
		for (size_t j = 0; j < nrow; j++)
			is_row |= strcmp(keys.s[k], row_keys[j]) == 0;
		if (strlist_add(is_row ? &sp.rows : &sp.split, keys.s[k],
				strlen(keys.s[k])) != 0)
			goto out;
	}
	lead_key(&sp.split, "phase");
	if (suite_signatures(res, suite, &sp.split, 0, &sigs) != 0)
		goto out;
	lead_signatures_first(&sigs, &sp.split);
	for (size_t s = 0; s < sigs.n; s++)
		if (rows_table_for(&sp, sigs.s[s], out) != 0)
			goto out;
	rc = 0;
out:
	strlist_release(&keys);
	strlist_release(&sigs);
	strlist_release(&sp.split);
	strlist_release(&sp.rows);
	strlist_release(&sp.units);
	return rc;
}

/* --- payload: size x scenario per engine --------------------------- */

struct payload_spec {
	const struct results *res;
	const char *suite;
	struct strlist split, sizes, scenarios, units;
	const char *metric;    /* Mpps, or ns/op without it */
	int line_rate;         /* the results give the line rate */
};

/* The result of the suite with signature sig, size and scenario. */
static const struct result *payload_find(const struct payload_spec *sp,
					 const char *sig, const char *size,
					 const char *scen)
{
	const char *keys[] = {"size", "scenario", "engine"};
	const char *vals[] = {size, scen, NULL};
	char buf[1024];

	for (size_t i = 0; i < sp->res->n; i++) {
		const struct result *r = &sp->res->r[i];
		if (strcmp(r->suite, sp->suite) != 0 ||
		    !view_match(r, keys, vals, 2))
			continue;
		signature(r, &sp->split, buf, sizeof(buf));
		if (strcmp(buf, sig) == 0)
			return r;
	}
	/* a scenario without an engine (base) belongs to every table */
	for (size_t i = 0; i < sp->res->n; i++)
		if (strcmp(sp->res->r[i].suite, sp->suite) == 0 &&
		    view_match(&sp->res->r[i], keys, vals, 3))
			return &sp->res->r[i];
	return NULL;
}

/* The line rate at a size: the metric of any result of that size. */
static double payload_line_rate(const struct payload_spec *sp,
				const char *size)
{
	const char *keys[] = {"size"};
	const char *vals[] = {size};

	for (size_t i = 0; i < sp->res->n; i++) {
		const struct result *r = &sp->res->r[i];
		double v;
		if (strcmp(r->suite, sp->suite) != 0 ||
		    !view_match(r, keys, vals, 1))
			continue;
		v = view_line_rate(r);
		if (!isnan(v))
			return v;
	}
	return NAN;
}

static int payload_row(struct rtable *t, const struct payload_spec *sp,
		       const char *sig, const char *size)
{
	long row = rtable_row(t);
	size_t c = 0;
	int rc;

	if (row < 0)
		return -1;
	rc = rtable_text(t, row, c, size);
	rtable_cell(t, (size_t)row, c++)->v = strtod(size, NULL);
	if (sp->line_rate)
		rc |= cell_num(t, row, c++, payload_line_rate(sp, size), "Mpps");
	for (size_t s = 0; s < sp->scenarios.n; s++, c++) {
		const struct result *r = payload_find(sp, sig, size,
						      sp->scenarios.s[s]);
		if (r == NULL)
			continue;
		if (r->status != RESULT_OK)
			rc |= rtable_text(t, row, c,
					result_status_name(r->status));
		else
			rc |= cell_num(t, row, c, view_median(r, sp->metric),
				       sp->metric);
	}
	return rc;
}

static int payload_table(const struct payload_spec *sp, const char *sig,
			 enum rtable_kind kind, struct rtables *out)
{
	char caption[256], title[512];
	struct rtable *t;
	size_t c = 0;

	if (kind == RTABLE_PAYLOAD_CORES)
		snprintf(caption, sizeof(caption), "Cores needed to reach the "
			 "line rate (line rate / Mpps per core), median; one "
			 "row per packet size (bytes).");
	else
		snprintf(caption, sizeof(caption), "Median %s per core, one "
			 "row per packet size (bytes)%s.", sp->metric,
			 sp->line_rate ? "; linerate: what the link carries"
				       : "");
	snprintf(title, sizeof(title), "%s%s", sig,
		 kind == RTABLE_PAYLOAD_CORES ? ": cores to line rate" : "");
	t = rtable_new(out, kind, title, caption,
		       1 + (size_t)sp->line_rate + sp->scenarios.n);
	if (t == NULL || rtable_col(t, c++, "size", 1) != 0)
		return -1;
	if (sp->line_rate && rtable_col(t, c++, "linerate", 1) != 0)
		return -1;
	for (size_t s = 0; s < sp->scenarios.n; s++)
		if (rtable_col(t, c++, sp->scenarios.s[s], 1) != 0)
			return -1;
	for (size_t z = 0; z < sp->sizes.n; z++)
		if (payload_row(t, sp, sig, sp->sizes.s[z]) != 0)
			return -1;
	return 0;
}

/* Per signature: the throughput table, then cores when reported. */
static int payload_sig_tables(struct payload_spec *sp, const char *sig,
			      struct rtables *out)
{
	const char *metric = sp->metric;
	int line_rate = sp->line_rate, rc;

	if (payload_table(sp, sig, RTABLE_PAYLOAD, out) != 0)
		return -1;
	if (strlist_find(&sp->units, "cores") < 0)
		return 0;
	sp->metric = "cores";
	sp->line_rate = 0;
	rc = payload_table(sp, sig, RTABLE_PAYLOAD_CORES, out);
	sp->metric = metric;
	sp->line_rate = line_rate;
	return rc;
}

static int payload_tables(const struct results *res, const char *suite,
			  struct rtables *out)
{
	struct payload_spec sp = {.res = res, .suite = suite};
	struct strlist keys = {0}, sigs = {0};
	int rc = -1;

	if (view_keys(res, suite, &keys) != 0 ||
	    view_units(res, suite, &sp.units) != 0 ||
	    view_key_values(res, suite, "size", &sp.sizes) != 0 ||
	    view_key_values(res, suite, "scenario", &sp.scenarios) != 0)
		goto out;
	strlist_sort_numeric(&sp.sizes, 1);
	sp.metric = strlist_find(&sp.units, "Mpps") >= 0 ? "Mpps"
							  : VIEW_TIME_UNIT;
	sp.line_rate = view_has_line_rate(&sp.units);
	for (size_t k = 0; k < keys.n; k++)
		if (strcmp(keys.s[k], "size") != 0 &&
		    strcmp(keys.s[k], "scenario") != 0 &&
		    strlist_add(&sp.split, keys.s[k], strlen(keys.s[k])) != 0)
			goto out;
	if (suite_signatures(res, suite, &sp.split, 1, &sigs) != 0)
		goto out;
	for (size_t s = 0; s < sigs.n; s++)
		if (payload_sig_tables(&sp, sigs.s[s], out) != 0)
			goto out;
	rc = 0;
out:
	strlist_release(&keys);
	strlist_release(&sigs);
	strlist_release(&sp.split);
	strlist_release(&sp.sizes);
	strlist_release(&sp.scenarios);
	strlist_release(&sp.units);
	return rc;
}

/* --- generic: engines side by side (rebar's cmp) -------------------- */

static const struct result *find_in_group(const struct results *res,
					  const char *suite, const char *group,
					  const char *engine)
{
	char buf[1024], eng[256];

	for (size_t i = 0; i < res->n; i++) {
		const struct result *r = &res->r[i];
		if (strcmp(r->suite, suite) != 0 ||
		    !result_key(r, "engine", eng, sizeof(eng)) ||
		    strcmp(eng, engine) != 0)
			continue;
		view_name_without(r, "engine", buf, sizeof(buf));
		if (strcmp(buf, group) == 0)
			return r;
	}
	return NULL;
}

static int compare_row(struct rtable *t, const struct results *res,
		       const char *suite, const char *group,
		       const struct strlist *engines)
{
	long row = rtable_row(t);
	double best = INFINITY;
	char buf[96], num[64];
	int rc;

	if (row < 0)
		return -1;
	rc = rtable_text(t, row, 0, group);
	for (size_t e = 0; e < engines->n; e++) {
		const struct result *r = find_in_group(res, suite, group,
						       engines->s[e]);
		double v = r && r->status == RESULT_OK
				   ? view_median(r, VIEW_TIME_UNIT)
				   : NAN;
		rtable_cell(t, (size_t)row, 1 + e)->v = v;
		if (v > 0 && v < best)
			best = v;
		if (r != NULL && r->status != RESULT_OK)
			rc |= rtable_text(t, row, 1 + e,
					result_status_name(r->status));
	}
	for (size_t e = 0; e < engines->n; e++) {
		struct rcell *cell = rtable_cell(t, (size_t)row, 1 + e);
		if (isnan(cell->v))
			continue;
		gofmt_number(cell->v, VIEW_TIME_UNIT, num, sizeof(num));
		snprintf(buf, sizeof(buf), "%s (%.2fx)", num, cell->v / best);
		cell->strong = cell->v == best;
		rc |= rtable_text(t, row, 1 + e, buf);
	}
	return rc;
}

static int compare_table(const struct results *res, const char *suite,
			 struct rtables *out)
{
	struct strlist engines = {0}, groups = {0};
	struct rtable *t;
	char buf[1024];
	int rc = -1;

	if (view_key_values(res, suite, "engine", &engines) != 0)
		goto out;
	if (engines.n < 2) {
		rc = 0;
		goto out;
	}
	for (size_t i = 0; i < res->n; i++) {
		if (strcmp(res->r[i].suite, suite) != 0 ||
		    !result_key(&res->r[i], "engine", buf, sizeof(buf)))
			continue;
		view_name_without(&res->r[i], "engine", buf, sizeof(buf));
		if (strlist_add(&groups, buf, strlen(buf)) != 0)
			goto out;
	}
	t = rtable_new(out, RTABLE_COMPARE, "engines compared",
		      "Median " VIEW_TIME_UNIT " per engine; in parentheses "
		      "the ratio to the fastest engine of the row (in bold).",
		      1 + engines.n);
	if (t == NULL || rtable_col(t, 0, "benchmark", 0) != 0)
		goto out;
	for (size_t e = 0; e < engines.n; e++)
		if (rtable_col(t, 1 + e, engines.s[e], 1) != 0)
			goto out;
	for (size_t g = 0; g < groups.n; g++)
		if (compare_row(t, res, suite, groups.s[g], &engines) != 0)
			goto out;
	rc = 0;
out:
	strlist_release(&engines);
	strlist_release(&groups);
	return rc;
}

int report_suite_tables(const struct results *res, const char *suite,
			struct rtables *out)
{
	static const char *const fqdn_rows[] = {"strategy", "engine"};
	struct strlist keys = {0};
	int rc = -1;

	if (view_keys(res, suite, &keys) != 0 ||
	    ranking_table(res, suite, out) != 0)
		goto out;
	switch (view_layout_of(&keys)) {
	case LAYOUT_FQDN:
		rc = rows_tables(res, suite, fqdn_rows, 2, RTABLE_FQDN, out);
		break;
	case LAYOUT_PAYLOAD:
		rc = payload_tables(res, suite, out);
		break;
	case LAYOUT_GENERIC:
		rc = rows_tables(res, suite, NULL, 0, RTABLE_GENERIC, out);
		if (rc == 0)
			rc = compare_table(res, suite, out);
		break;
	}
out:
	strlist_release(&keys);
	return rc;
}

int report_failure_table(const struct results *res, struct rtables *out)
{
	struct rtable *t = NULL;

	for (size_t i = 0; i < res->n; i++) {
		const struct result *r = &res->r[i];
		long row;
		if (r->status == RESULT_OK)
			continue;
		if (t == NULL) {
			t = rtable_new(out, RTABLE_FAILURES, "not measured",
				      "Benchmarks that got no time: their "
				      "answers disagreed (mismatch), they "
				      "failed, timed out, or the engine lacks "
				      "what the case needs.", 3);
			if (t == NULL || rtable_col(t, 0, "benchmark", 0) != 0 ||
			    rtable_col(t, 1, "status", 0) != 0 ||
			    rtable_col(t, 2, "message", 0) != 0)
				return -1;
		}
		row = rtable_row(t);
		if (row < 0 || rtable_text(t, row, 0, r->name) != 0 ||
		    rtable_text(t, row, 1, result_status_name(r->status)) != 0 ||
		    rtable_text(t, row, 2, r->message) != 0)
			return -1;
	}
	return 0;
}

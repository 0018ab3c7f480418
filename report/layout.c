/*
 * layout.c - the dispatcher of a suite's tables (see layout.h): each
 * layout line the results carry to its kind's builder (verdict.c,
 * layout_table.c, layout_growth.c, costliest.c), and the table of what
 * was not measured.
 */
#include "report/layout.h"

#include "harness/bench.h"
#include "report/costliest.h"
#include "report/layout_decl.h"
#include "report/layout_growth.h"
#include "report/layout_table.h"
#include "report/verdict.h"
#include "report/view.h"

#include <stdio.h>
#include <string.h>

/* The layout of a suite without a declaration: a row per benchmark, a
 * column per metric. */
static int default_decl(const struct results *res, const char *suite,
			struct ldecl *d)
{
	struct strlist units = {0};

	memset(d, 0, sizeof(*d));
	d->kind = LDECL_TABLE;
	if (view_units(res, suite, &units) != 0)
		return -1;
	for (size_t u = 0; u < units.n && d->nmetric < LDECL_MAX; u++) {
		struct ldecl_metric *m = &d->metric[d->nmetric++];
		snprintf(m->name, LDECL_WORD, "%s", units.s[u]);
		snprintf(m->a, LDECL_WORD, "%s", units.s[u]);
	}
	strlist_release(&units);
	return 0;
}

static int one_decl(const struct results *res, const char *suite,
		    const struct ldecl *d, const struct report_opts *opts,
		    struct rtables *out)
{
	switch (d->kind) {
	case LDECL_VERDICT: return verdict_build(res, suite, d, opts, out);
	case LDECL_GROWTH: return layout_growth_build(res, suite, d, out);
	case LDECL_TABLE: return layout_table_build(res, suite, d, out);
	case LDECL_COSTLIEST: return costliest_tables(res, suite, d, out);
	}
	return 0;
}

/*
 * The budgets the reader set, else those the results record (the run's
 * --compile-budget, --heap-budget) into eff.  0, or -1 when a recorded
 * one does not parse (err names it).
 */
static int budgets_of(const struct results *res, const struct report_opts *opts,
		      struct report_opts *eff, char *err, size_t errsize)
{
	const char *cb = results_config_get(res, REPORT_CONFIG_COMPILE_BUDGET);
	const char *hb = results_config_get(res, REPORT_CONFIG_HEAP_BUDGET);

	*eff = opts != NULL ? *opts : (struct report_opts){0};
	if (eff->budget_ns <= 0 && cb != NULL &&
	    bench_parse_duration(cb, &eff->budget_ns) != 0) {
		snprintf(err, errsize, "configuration %s: '%.64s' is not a "
			 "duration such as 50ms", REPORT_CONFIG_COMPILE_BUDGET, cb);
		return -1;
	}
	if (eff->heap_bytes <= 0 && hb != NULL &&
	    ldecl_bytes(hb, &eff->heap_bytes) != 0) {
		snprintf(err, errsize, "configuration %s: '%.64s' is not a "
			 "size such as 16MiB", REPORT_CONFIG_HEAP_BUDGET, hb);
		return -1;
	}
	return 0;
}

int report_suite_tables(const struct results *res, const char *suite,
			const struct report_opts *opts, struct rtables *out,
			char *err, size_t errsize)
{
	struct report_opts eff;
	struct ldecl d;

	err[0] = '\0';
	if (budgets_of(res, opts, &eff, err, errsize) != 0)
		return -1;
	opts = &eff;
	if (!results_layout_has(res, suite))
		return default_decl(res, suite, &d) ||
		       layout_table_build(res, suite, &d, out) ? -1 : 0;
	/* verdicts first, then the tables in the declared order */
	for (int pass = 0; pass < 2; pass++)
		for (size_t i = 0; i < res->nlayout; i++) {
			if (strcmp(res->layout[i].suite, suite) != 0)
				continue;
			if (ldecl_parse(res->layout[i].line, &d, err,
					errsize) != 0)
				return -1;
			if ((d.kind == LDECL_VERDICT) != (pass == 0))
				continue;
			if (one_decl(res, suite, &d, opts, out) != 0)
				return -1;
		}
	return 0;
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

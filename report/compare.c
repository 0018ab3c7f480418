/*
 * compare.c - old against new, benchstat-style (see compare.h).
 *
 * compare_results() computes every row; the writers turn the rows into
 * one table per metric (report/layout.h) and print it as aligned text or
 * Markdown, followed by the geomean, the one-sided benchmarks, status
 * changes and the verdict.
 */
#include "report/compare.h"

#include "report/gofmt.h"
#include "report/md.h"
#include "report/view.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

void compare_opts_init(struct compare_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->alpha = 0.05;
	o->confidence = 0.95;
	o->threshold = 0.05;
	o->old_name = "old";
	o->new_name = "new";
}

enum compare_mode compare_mode_of(const char *unit, enum metric_better b)
{
	if (b == BETTER_EXACT)
		return COMPARE_EXACT;
	/* counted by callgrind (--measure=instructions): deterministic */
	if (metric_unit_exact(unit))
		return COMPARE_DETERMINISTIC;
	return COMPARE_STAT;
}

static int failed_status(enum result_status st)
{
	return st == RESULT_MISMATCH || st == RESULT_ERROR ||
	       st == RESULT_TIMEOUT;
}

/* new/old - 1, with 0 -> x an infinite change. */
static double relative_change(double old, double new)
{
	if (old == new)
		return 0;
	if (old == 0)
		return new > 0 ? INFINITY : -INFINITY;
	return new / old - 1;
}

static int worse_beyond(const struct compare_row *row, double thr)
{
	if (row->mode == COMPARE_EXACT)
		return fabs(row->change) > thr;
	if (row->better == BETTER_HIGHER)
		return row->change < -thr;
	return row->change > thr;
}

/* Change, significance and verdict of a row whose sides both have values. */
static int judge(struct compare_row *row, const struct compare_opts *o,
		 const struct metric *mo, const struct metric *mn)
{
	row->change = relative_change(row->so.median, row->sn.median);
	if (row->mode == COMPARE_STAT) {
		if (row->so.n >= 4 && row->sn.n >= 4 &&
		    stats_utest(mo->v, mo->n, mn->v, mn->n, &row->p) != 0)
			return -1;
		row->significant = !isnan(row->p) && row->p < o->alpha;
	} else {
		row->significant = row->change != 0;
	}
	if (!row->significant)
		return 0;
	if (row->mode != COMPARE_EXACT && !worse_beyond(row, 0))
		row->improvement = 1;
	else if (o->gate && worse_beyond(row, o->threshold))
		row->regression = 1;
	return 0;
}

static int add_row(struct comparison *cmp, const struct result *ro,
		   const struct result *rn, const char *unit)
{
	const struct metric *mo = result_metric(ro, unit);
	const struct metric *mn = result_metric(rn, unit);
	struct compare_row *row, *grown;

	grown = realloc(cmp->rows, (cmp->nrows + 1) * sizeof(*grown));
	if (grown == NULL)
		return -1;
	cmp->rows = grown;
	row = &cmp->rows[cmp->nrows++];
	memset(row, 0, sizeof(*row));
	row->old = ro;
	row->new = rn;
	row->unit = unit;
	row->better = mo ? mo->better : mn->better;
	row->mode = compare_mode_of(unit, row->better);
	row->change = row->p = NAN;
	if ((mo && stats_summarize(mo->v, mo->n, cmp->opts.confidence,
				   &row->so) != 0) ||
	    (mn && stats_summarize(mn->v, mn->n, cmp->opts.confidence,
				   &row->sn) != 0))
		return -1;
	if (row->so.n == 0 || row->sn.n == 0)
		return 0;
	if (judge(row, &cmp->opts, mo, mn) != 0)
		return -1;
	cmp->regressions += (size_t)row->regression;
	cmp->improvements += (size_t)row->improvement;
	cmp->worse += (size_t)(row->significant && !row->improvement);
	return 0;
}

/* Rows for every metric of a benchmark on both sides. */
static int add_pair(struct comparison *cmp, const struct result *ro,
		    const struct result *rn)
{
	if (cmp->opts.gate && !failed_status(ro->status) &&
	    failed_status(rn->status))
		cmp->status_regressions++;
	for (size_t k = 0; k < ro->nm; k++)
		if (add_row(cmp, ro, rn, ro->m[k].unit) != 0)
			return -1;
	for (size_t k = 0; k < rn->nm; k++)
		if (result_metric(ro, rn->m[k].unit) == NULL &&
		    add_row(cmp, ro, rn, rn->m[k].unit) != 0)
			return -1;
	return 0;
}

int compare_results(const struct results *old, const struct results *new,
		    const struct compare_opts *o, struct comparison *cmp)
{
	memset(cmp, 0, sizeof(*cmp));
	cmp->opts = *o;
	cmp->old = old;
	cmp->new = new;
	for (size_t i = 0; i < old->n; i++) {
		const struct result *rn = results_find(new, old->r[i].name);
		size_t before = cmp->regressions;
		if (rn != NULL && add_pair(cmp, &old->r[i], rn) != 0)
			return -1;
		cmp->regressed += cmp->regressions > before;
	}
	return 0;
}

void comparison_release(struct comparison *cmp)
{
	free(cmp->rows);
	memset(cmp, 0, sizeof(*cmp));
}

int compare_failed(const struct comparison *cmp)
{
	return cmp->opts.gate &&
	       (cmp->regressions > 0 || cmp->status_regressions > 0);
}

/* --- cells -------------------------------------------------------- */

/* "568.7 ± 2%", "568.7 ± ∞", "811" (exact), or the status. */
static void summary_text(const struct stats_summary *s,
			 const struct result *r, const struct compare_row *row,
			 char *buf, size_t size)
{
	char num[64];

	if (s->n == 0) {
		snprintf(buf, size, "%s", r->status == RESULT_OK
						  ? "-"
						  : result_status_name(r->status));
		return;
	}
	gofmt_number(s->median, row->unit, num, sizeof(num));
	if (row->mode != COMPARE_STAT || s->min == s->max)
		snprintf(buf, size, "%s", num);
	else if (isinf(s->lo) || isinf(s->hi))
		snprintf(buf, size, "%s ± ∞", num);
	else if (s->median == 0)
		snprintf(buf, size, "%s ± 0%%", num);
	else
		snprintf(buf, size, "%s ± %.0f%%", num,
			 100 * fmax(s->hi / s->median - 1,
				    1 - s->lo / s->median));
}

static void change_text(const struct compare_row *row, char *buf,
			size_t size)
{
	if (isnan(row->change))
		snprintf(buf, size, " ");
	else if (!row->significant)
		snprintf(buf, size, "~");
	else if (isinf(row->change))
		snprintf(buf, size, "%s∞%%", row->change > 0 ? "+" : "-");
	else
		snprintf(buf, size, "%+.2f%%", 100 * row->change);
}

static void p_text(const struct compare_row *row, char *buf, size_t size)
{
	if (row->so.n == 0 || row->sn.n == 0)
		snprintf(buf, size, " ");
	else if (row->mode == COMPARE_EXACT)
		snprintf(buf, size, "exact n=%zu+%zu", row->so.n, row->sn.n);
	else if (row->mode == COMPARE_DETERMINISTIC)
		snprintf(buf, size, "counted n=%zu+%zu", row->so.n, row->sn.n);
	else if (isnan(row->p))
		snprintf(buf, size, "n=%zu+%zu (need >= 4 samples)", row->so.n,
			 row->sn.n);
	else
		snprintf(buf, size, "p=%.3f n=%zu+%zu", row->p, row->so.n,
			 row->sn.n);
}

/* --- tables ------------------------------------------------------- */

static void caption_of(const struct compare_row *row,
		       const struct compare_opts *o, char *buf, size_t size)
{
	if (row->mode == COMPARE_EXACT)
		snprintf(buf, size, "exact: the median of each side; any "
			 "change matters, no p-value");
	else if (row->mode == COMPARE_DETERMINISTIC)
		snprintf(buf, size, "counted, lower is better: the median of "
			 "each side; deterministic, so no p-value");
	else
		snprintf(buf, size, "%s is better: median ± %.0f%% confidence "
			 "interval; the change only when significant "
			 "(p < %.2f), else ~",
			 row->better == BETTER_HIGHER ? "higher" : "lower",
			 100 * o->confidence, o->alpha);
}

static int row_cells(struct rtable *t, const struct compare_row *row)
{
	char buf[128];
	long r = rtable_row(t);
	int rc;

	if (r < 0)
		return -1;
	rc = rtable_text(t, r, 0, row->old->name);
	summary_text(&row->so, row->old, row, buf, sizeof(buf));
	rc |= rtable_text(t, r, 1, buf);
	summary_text(&row->sn, row->new, row, buf, sizeof(buf));
	rc |= rtable_text(t, r, 2, buf);
	change_text(row, buf, sizeof(buf));
	rc |= rtable_text(t, r, 3, buf);
	rtable_cell(t, (size_t)r, 3)->v = row->change;
	rtable_cell(t, (size_t)r, 3)->strong = row->regression;
	p_text(row, buf, sizeof(buf));
	rc |= rtable_text(t, r, 4, buf);
	return rc;
}

/* The geomean row of a unit's table, when two or more rows count. */
static int geomean_row(struct rtable *t, const struct comparison *cmp,
		       const char *unit)
{
	double *o = malloc((cmp->nrows + 1) * sizeof(*o));
	double *n = malloc((cmp->nrows + 1) * sizeof(*n));
	size_t m = 0, used_o = 0, used_n = 0;
	char buf[64];
	int rc = -1;

	if (o == NULL || n == NULL)
		goto out;
	for (size_t i = 0; i < cmp->nrows; i++) {
		const struct compare_row *row = &cmp->rows[i];
		if (strcmp(row->unit, unit) != 0 || row->so.n == 0 ||
		    row->sn.n == 0 || !(row->so.median > 0) ||
		    !(row->sn.median > 0))
			continue;
		o[m] = row->so.median;
		n[m++] = row->sn.median;
	}
	rc = 0;
	if (m >= 2) {
		double go = stats_geomean(o, m, &used_o);
		double gn = stats_geomean(n, m, &used_n);
		long r = rtable_row(t);
		if (r < 0) {
			rc = -1;
			goto out;
		}
		rc |= rtable_text(t, r, 0, "geomean");
		gofmt_number(go, unit, buf, sizeof(buf));
		rc |= rtable_text(t, r, 1, buf);
		gofmt_number(gn, unit, buf, sizeof(buf));
		rc |= rtable_text(t, r, 2, buf);
		snprintf(buf, sizeof(buf), "%+.2f%%", 100 * (gn / go - 1));
		rc |= rtable_text(t, r, 3, buf);
		rtable_cell(t, (size_t)r, 3)->v = gn / go - 1;
	}
out:
	free(o);
	free(n);
	return rc;
}

static int unit_table(const struct comparison *cmp, const char *unit,
		      struct rtables *out)
{
	char caption[256];
	struct rtable *t = NULL;

	for (size_t i = 0; i < cmp->nrows; i++) {
		const struct compare_row *row = &cmp->rows[i];
		if (strcmp(row->unit, unit) != 0)
			continue;
		if (t == NULL) {
			caption_of(row, &cmp->opts, caption, sizeof(caption));
			t = rtable_new(out, RTABLE_CHANGES, unit, caption, 5);
			if (t == NULL || rtable_col(t, 0, "benchmark", 0) ||
			    rtable_col(t, 1, cmp->opts.old_name, 1) ||
			    rtable_col(t, 2, cmp->opts.new_name, 1) ||
			    rtable_col(t, 3, "change", 1) ||
			    rtable_col(t, 4, "p", 0))
				return -1;
		}
		if (row_cells(t, row) != 0)
			return -1;
	}
	return t == NULL ? 0 : geomean_row(t, cmp, unit);
}

static int build_tables(const struct comparison *cmp, struct rtables *out)
{
	struct strlist units = {0};
	int rc = 0;

	for (size_t i = 0; i < cmp->nrows && rc == 0; i++)
		rc = strlist_add(&units, cmp->rows[i].unit,
				 strlen(cmp->rows[i].unit));
	for (size_t u = 0; u < units.n && rc == 0; u++)
		rc = unit_table(cmp, units.s[u], out);
	strlist_release(&units);
	return rc;
}

/* --- text --------------------------------------------------------- */

/* Display width of UTF-8 text: the bytes that start a character. */
static size_t text_width(const char *s)
{
	size_t w = 0;

	for (; s != NULL && *s; s++)
		w += ((unsigned char)*s & 0xc0) != 0x80;
	return w;
}

static void pad(FILE *out, const char *s, size_t width)
{
	fputs(s ? s : "", out);
	for (size_t w = text_width(s); w < width; w++)
		fputc(' ', out);
}

static void text_table(FILE *out, const struct rtable *t)
{
	size_t width[8] = {0};

	for (size_t c = 0; c < t->ncols && c < 8; c++) {
		width[c] = text_width(t->cols[c]);
		for (size_t r = 0; r < t->nrows; r++)
			if (text_width(rtable_cell(t, r, c)->text) > width[c])
				width[c] = text_width(rtable_cell(t, r, c)->text);
	}
	fprintf(out, "%s (%s)\n", t->title, t->caption);
	for (size_t c = 0; c < t->ncols && c < 8; c++) {
		pad(out, t->cols[c], c + 1 < t->ncols ? width[c] + 2 : 0);
	}
	fputc('\n', out);
	for (size_t r = 0; r < t->nrows; r++) {
		for (size_t c = 0; c < t->ncols && c < 8; c++) {
			const struct rcell *cell = rtable_cell(t, r, c);
			pad(out, cell->text, c + 1 < t->ncols ? width[c] + 2 : 0);
		}
		fputc('\n', out);
	}
	fputc('\n', out);
}

/* Benchmarks in a but not in b. */
static size_t count_only(const struct results *a, const struct results *b)
{
	size_t n = 0;

	for (size_t i = 0; i < a->n; i++)
		n += results_find(b, a->r[i].name) == NULL;
	return n;
}

/* The one-sided benchmarks and status changes, as lists. */
static void write_lists(FILE *out, const struct comparison *cmp, int md)
{
	const char *item = md ? "- " : "  ";
	const struct results *side[2] = {cmp->old, cmp->new};
	const char *label[2] = {cmp->opts.old_name, cmp->opts.new_name};

	for (int s = 0; s < 2; s++) {
		const struct results *a = side[s], *b = side[1 - s];
		if (count_only(a, b) == 0)
			continue;
		fprintf(out, "%sOnly in ", md ? "**" : "");
		md ? md_text(out, label[s]) : (void)fputs(label[s], out);
		fprintf(out, " (%zu)%s:\n%s", count_only(a, b),
			md ? "**" : "", md ? "\n" : "");
		for (size_t i = 0; i < a->n; i++) {
			if (results_find(b, a->r[i].name) != NULL)
				continue;
			fputs(item, out);
			md ? md_text(out, a->r[i].name)
			   : (void)fputs(a->r[i].name, out);
			fputc('\n', out);
		}
		fputc('\n', out);
	}
	for (size_t i = 0; i < cmp->old->n; i++) {
		const struct result *ro = &cmp->old->r[i];
		const struct result *rn = results_find(cmp->new, ro->name);
		if (rn == NULL || rn->status == ro->status)
			continue;
		fprintf(out, "%sstatus changed: ", item);
		md ? md_text(out, ro->name) : (void)fputs(ro->name, out);
		fprintf(out, ": %s -> %s", result_status_name(ro->status),
			result_status_name(rn->status));
		if (rn->message != NULL) {
			fputs(" (", out);
			md ? md_text(out, rn->message)
			   : (void)fputs(rn->message, out);
			fputc(')', out);
		}
		fputs("\n", out);
	}
}

static const char *plural(size_t n, const char *one, const char *many)
{
	return n == 1 ? one : many;
}

/* The regressed rows, one per line. */
static void list_regressions(FILE *out, const struct comparison *cmp, int md)
{
	char buf[64];

	for (size_t i = 0; i < cmp->nrows; i++) {
		const struct compare_row *row = &cmp->rows[i];
		if (!row->regression)
			continue;
		change_text(row, buf, sizeof(buf));
		fputs(md ? "- " : "  ", out);
		md ? md_text(out, row->old->name)
		   : (void)fputs(row->old->name, out);
		fprintf(out, " %s: %s\n", row->unit, buf);
	}
}

static void verdict(FILE *out, const struct comparison *cmp, int md)
{
	const char *b = md ? "**" : "";

	if (!cmp->opts.gate) {
		fprintf(out, "%zu significant %s, %zu significant %s for the "
			"worse (or of exact metrics); no --threshold, so no "
			"verdict.\n", cmp->improvements,
			plural(cmp->improvements, "improvement", "improvements"),
			cmp->worse, plural(cmp->worse, "change", "changes"));
		return;
	}
	if (!compare_failed(cmp)) {
		fprintf(out, "%sok: no regression beyond %.1f%%%s (%zu "
			"significant %s)\n", b, 100 * cmp->opts.threshold, b,
			cmp->improvements,
			plural(cmp->improvements, "improvement", "improvements"));
		return;
	}
	fprintf(out, "%sFAIL: %zu %s regressed beyond %.1f%% (%zu %s), %zu "
		"%s newly failing%s\n", b, cmp->regressed,
		plural(cmp->regressed, "benchmark", "benchmarks"),
		100 * cmp->opts.threshold, cmp->regressions,
		plural(cmp->regressions, "metric", "metrics"),
		cmp->status_regressions,
		plural(cmp->status_regressions, "benchmark", "benchmarks"), b);
	if (md)
		fputc('\n', out);
	list_regressions(out, cmp, md);
}

/* Configuration lines (not the per-run context) that differ. */
static void config_diff(FILE *out, const struct comparison *cmp, int md)
{
	const struct results *side[2] = {cmp->old, cmp->new};

	for (int s = 0; s < 2; s++) {
		const struct results *a = side[s], *b = side[1 - s];
		for (size_t i = 0; i < a->ncfg; i++) {
			const char *k = a->cfg[i].key;
			const char *va = a->cfg[i].value;
			const char *vb = results_config_get(b, k);
			if (a->cfg[i].meta || (vb != NULL && s == 1) ||
			    (vb != NULL && strcmp(va, vb) == 0))
				continue;
			fputs(md ? "- config " : "config ", out);
			md ? md_text(out, k) : (void)fputs(k, out);
			fputs(": ", out);
			md ? md_text(out, s ? "(none)" : va)
			   : (void)fputs(s ? "(none)" : va, out);
			fputs(" -> ", out);
			md ? md_text(out, s ? va : vb ? vb : "(none)")
			   : (void)fputs(s ? va : vb ? vb : "(none)", out);
			fputc('\n', out);
		}
	}
}

int compare_write_text(FILE *out, const struct comparison *cmp)
{
	struct rtables ts = {0};
	int rc = build_tables(cmp, &ts);

	config_diff(out, cmp, 0);
	for (size_t i = 0; i < ts.n && rc == 0; i++)
		text_table(out, &ts.t[i]);
	if (rc == 0) {
		write_lists(out, cmp, 0);
		verdict(out, cmp, 0);
	}
	rtables_release(&ts);
	return rc != 0 || ferror(out) ? -1 : 0;
}

int compare_write_md(FILE *out, const struct comparison *cmp)
{
	struct rtables ts = {0};
	int rc = build_tables(cmp, &ts);

	fputs("## rxbench compare: ", out);
	md_text(out, cmp->opts.old_name);
	fputs(" → ", out);
	md_text(out, cmp->opts.new_name);
	fputs("\n\n", out);
	if (rc == 0) {
		verdict(out, cmp, 1);
		fputc('\n', out);
		config_diff(out, cmp, 1);
		fputc('\n', out);
	}
	for (size_t i = 0; i < ts.n && rc == 0; i++)
		md_table(out, &ts.t[i], 3);
	if (rc == 0)
		write_lists(out, cmp, 1);
	rtables_release(&ts);
	return rc != 0 || ferror(out) ? -1 : 0;
}

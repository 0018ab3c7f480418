/*
 * compare_html.c - `rxbench report A.json B.json ... --format=html` (and
 * compare's): the comparison of several runs as one offline page in the
 * look of report/html.h.  First a summary that answers "what changed
 * against the first run" per column (geomean per metric, how many
 * benchmarks got significantly better or worse, what is missing or was
 * measured on other inputs, what cannot be tested for lack of samples);
 * a table of contents; the columns' run contexts (several machines keep
 * theirs); then per metric a chart of each column's geomean, a chart of
 * the benchmarks that changed most with a bar (a colour) per column, and
 * the table text and Markdown print.  Everything is drawn from
 * compare_tables(), so the page and the text always agree.
 */
#include "report/compare.h"

#include "report/html.h"
#include "report/svg.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* The benchmarks a per-benchmark chart shows at most: the most changed. */
#define CHART_MAX_LINES 16

/* The column of column c's median in a unit table (compare.c's layout:
 * benchmark, the first column's median, then median/change/p per run). */
static size_t median_col(size_t c)
{
	return c == 0 ? 1 : 2 + 3 * (c - 1);
}

/* The row of t labelled "geomean", or -1. */
static long geomean_row_of(const struct rtable *t)
{
	for (size_t r = 0; r < t->nrows; r++) {
		const char *s = rtable_cell(t, r, 0)->text;
		if (s != NULL && strcmp(s, "geomean") == 0)
			return (long)r;
	}
	return -1;
}

/* A column's short name for bar labels: the file name without ".json". */
static void short_label(const char *label, char *buf, size_t size)
{
	const char *slash = strrchr(label, '/');
	size_t n;

	snprintf(buf, size, "%s", slash && slash[1] ? slash + 1 : label);
	n = strlen(buf);
	if (n > 5 && strcmp(buf + n - 5, ".json") == 0)
		buf[n - 5] = '\0';
}

/* The last max bytes of s (on a UTF-8 boundary), "..." before when cut. */
static void tail_label(const char *s, size_t max, char *buf, size_t size)
{
	size_t n = strlen(s);
	const char *p = s;

	if (n > max) {
		p = s + n - max;
		while (((unsigned char)*p & 0xc0) == 0x80)
			p++;
	}
	snprintf(buf, size, "%s%s", p != s ? "..." : "", p);
}

/* --- the summary --------------------------------------------------- */

/* Per column: what its cells did against the first column's. */
struct col_counts {
	size_t pairs, better, worse, untested, inputs, lacks, extra;
};

/*
 * Pairs (benchmark x metric) on the same inputs, and the benchmarks
 * measured on other inputs (never a change).  0, or -1 out of memory.
 */
static int col_count(const struct comparison *cmp, size_t c,
		     struct col_counts *k)
{
	size_t nc = cmp->ncols;
	unsigned char *other = calloc(cmp->nlines + 1, 1);

	memset(k, 0, sizeof(*k));
	if (other == NULL)
		return -1;
	for (size_t i = 0; i < cmp->nrows; i++) {
		const struct compare_row *row = &cmp->rows[i];
		if (row->col != c || row->so.n == 0 || row->sn.n == 0)
			continue;
		if (row->input_key != NULL) {
			k->inputs += !other[row->line];
			other[row->line] = 1;
			continue;
		}
		k->pairs++;
		k->untested += row->mode == COMPARE_STAT && isnan(row->p);
		k->better += row->improvement;
		k->worse += row->significant && !row->improvement;
	}
	free(other);
	for (size_t l = 0; l < cmp->nlines; l++) {
		int first = cmp->cell[l * nc] != NULL;
		int here = cmp->cell[l * nc + c] != NULL;
		k->lacks += first && !here;
		k->extra += !first && here;
	}
	return 0;
}

/* "ns/op geomean -2.10%, MB/s geomean +2.14%" for column c. */
static void geomeans_text(FILE *out, const struct rtables *ts, size_t c)
{
	size_t shown = 0;

	for (size_t i = 0; i < ts->n && shown < 4; i++) {
		const struct rtable *t = &ts->t[i];
		long g = geomean_row_of(t);
		const char *ch;
		if (g < 0 || median_col(c) + 1 >= t->ncols)
			continue;
		ch = rtable_cell(t, (size_t)g, median_col(c) + 1)->text;
		if (ch == NULL)
			continue;
		fputs(shown++ ? ", " : " ", out);
		xml_text(out, t->title);
		fputs(" geomean ", out);
		xml_text(out, ch);
	}
	fputs(shown ? ";" : "", out);
}

static const char *s_if(size_t n)
{
	return n == 1 ? "" : "s";
}

/* The answer for column c against the first, one paragraph.  0 or -1. */
static int col_answer(FILE *out, const struct comparison *cmp,
		      const struct rtables *ts, size_t c)
{
	struct col_counts k;

	if (col_count(cmp, c, &k) != 0)
		return -1;
	fputs("<p class=\"answer\"><b>", out);
	xml_text(out, cmp->cols[c].label);
	fputs("</b> against <b>", out);
	xml_text(out, cmp->cols[0].label);
	fputs("</b>:", out);
	geomeans_text(out, ts, c);
	fprintf(out, " %zu significantly better and %zu significantly worse "
		"of %zu benchmark &times; metric pairs on the same inputs "
		"(Mann-Whitney U, p &lt; %.2f; exact and counted metrics: any "
		"change)", k.better, k.worse, k.pairs, cmp->opts.alpha);
	if (k.untested)
		fprintf(out, "; %zu pair%s not tested: fewer than 4 samples a "
			"side (run with --count=4 or more)", k.untested,
			s_if(k.untested));
	if (k.inputs)
		fprintf(out, "; %zu benchmark%s measured on other inputs "
			"(listed below): never counted as a change, but in the "
			"geomeans above",
			k.inputs, s_if(k.inputs));
	if (k.lacks)
		fprintf(out, "; %zu benchmark%s of the first column missing",
			k.lacks, s_if(k.lacks));
	if (k.extra)
		fprintf(out, "; %zu benchmark%s only here", k.extra,
			s_if(k.extra));
	fputs(".</p>\n", out);
	return 0;
}

/* What a text writer prints, as escaped preformatted text (or nothing). */
static void pre_of(FILE *out, const struct comparison *cmp, const char *cls,
		   void (*write)(FILE *, const struct comparison *))
{
	char *s = NULL;
	size_t n = 0;
	FILE *f = open_memstream(&s, &n);

	if (f == NULL)
		return;
	write(f, cmp);
	fclose(f);
	if (s != NULL && s[strspn(s, " \n")] != '\0') {
		fprintf(out, "<pre class=\"%s\" style=\"white-space:pre-wrap\">", cls);
		xml_text(out, s);
		fputs("</pre>\n", out);
	}
	free(s);
}

static int summary(FILE *out, const struct comparison *cmp,
		   const struct rtables *ts)
{
	fputs("<section class=\"verdict\" id=\"verdict\"><h2>What changed "
	      "against the first column</h2>\n", out);
	for (size_t c = 1; c < cmp->ncols; c++)
		if (col_answer(out, cmp, ts, c) != 0)
			return -1;
	if (cmp->ncols < 2)
		fputs("<p class=\"answer\">One column only: nothing to compare "
		      "it with (give several runs, or --col KEY).</p>\n", out);
	if (!cmp->opts.report)
		pre_of(out, cmp, "verdict", compare_write_verdict);
	fputs("</section>\n", out);
	return 0;
}

/* --- charts -------------------------------------------------------- */

/* t's geomean row: a bar per column, coloured by it. */
static int geomean_chart(FILE *out, struct svg_colors *pal,
			 const struct comparison *cmp, const struct rtable *t)
{
	long g = geomean_row_of(t);
	struct svg_bar *bars;
	double *v;
	char title[256];

	if (g < 0)
		return 0;
	bars = calloc(cmp->ncols, sizeof(*bars));
	v = calloc(cmp->ncols, sizeof(*v));
	if (bars == NULL || v == NULL) {
		free(bars);
		free(v);
		return -1;
	}
	for (size_t c = 0; c < cmp->ncols; c++) {
		v[c] = rtable_cell(t, (size_t)g, median_col(c))->v;
		bars[c] = (struct svg_bar){cmp->cols[c].label, v[c],
					   cmp->cols[c].label};
	}
	snprintf(title, sizeof(title), "%s: geometric mean per column over "
		 "the benchmarks every column has", t->title);
	svg_bar_chart(out, pal, title, t->title, bars, cmp->ncols,
		      html_wants_log(v, cmp->ncols));
	free(bars);
	free(v);
	return 0;
}

/* How much row r changed in any column: max |log(new/first)|, or -1. */
static double row_change(const struct rtable *t, size_t r, size_t ncols)
{
	double m0 = rtable_cell(t, r, median_col(0))->v, best = -1;

	for (size_t c = 1; c < ncols && m0 > 0; c++) {
		double m = rtable_cell(t, r, median_col(c))->v;
		if (m > 0)
			best = fmax(best, fabs(log(m / m0)));
	}
	return best;
}

/* Which rows the per-benchmark chart shows: the most changed, in the
 * table's order; *n in, the number chosen out. */
static void pick_rows(const struct rtable *t, size_t ncols, unsigned char *pick,
		      size_t *n)
{
	size_t chosen = 0;
	long g = geomean_row_of(t);

	for (size_t k = 0; k < CHART_MAX_LINES; k++) {
		long best = -1;
		double bv = -INFINITY;
		for (size_t r = 0; r < t->nrows; r++) {
			double v = row_change(t, r, ncols);
			if (!pick[r] && (long)r != g && v > bv) {
				bv = v;
				best = (long)r;
			}
		}
		if (best < 0)
			break;
		pick[best] = 1;
		chosen++;
	}
	*n = chosen;
}

/* The most changed benchmarks of t: a bar per column, one colour each. */
static int lines_chart(FILE *out, struct svg_colors *pal,
		       const struct comparison *cmp, const struct rtable *t)
{
	size_t nc = cmp->ncols, n = 0, k = 0, rows = t->nrows;
	unsigned char *pick = calloc(rows + 1, 1);
	struct svg_bar *bars = calloc(rows * nc + 1, sizeof(*bars));
	char (*labels)[128] = calloc(rows * nc + 1, sizeof(*labels));
	double *v = calloc(rows * nc + 1, sizeof(*v));
	char title[256], col[64], name[96];
	int rc = pick && bars && labels && v ? 0 : -1;

	if (rc == 0)
		pick_rows(t, nc, pick, &n);
	for (size_t r = 0; rc == 0 && r < rows; r++) {
		if (!pick[r])
			continue;
		tail_label(rtable_cell(t, r, 0)->text, 30, name, sizeof(name));
		for (size_t c = 0; c < nc; c++, k++) {
			short_label(cmp->cols[c].label, col, sizeof(col));
			snprintf(labels[k], sizeof(labels[k]), "%.12s: %s", col,
				 name);
			v[k] = rtable_cell(t, r, median_col(c))->v;
			bars[k] = (struct svg_bar){labels[k], v[k],
						   cmp->cols[c].label};
		}
	}
	if (rc == 0 && n > 0) {
		size_t all = t->nrows - (geomean_row_of(t) >= 0);
		if (n < all)
			snprintf(title, sizeof(title), "%s: the %zu benchmarks "
				 "that changed most (of %zu), a bar per column",
				 t->title, n, all);
		else
			snprintf(title, sizeof(title), "%s per benchmark, a bar "
				 "per column", t->title);
		svg_bar_chart(out, pal, title, t->title, bars, k,
			      html_wants_log(v, k));
	}
	free(pick);
	free(bars);
	free(labels);
	free(v);
	return rc;
}

/* --- the page ------------------------------------------------------ */

static void toc(FILE *out, const struct rtables *ts)
{
	fputs("<nav class=\"toc\"><b>Contents</b><ul>\n<li><a href=\"#verdict"
	      "\">What changed</a></li>\n<li><a href=\"#columns\">Columns"
	      "</a></li>\n", out);
	for (size_t i = 0; i < ts->n; i++) {
		fprintf(out, "<li><a href=\"#u%zu\">", i);
		xml_text(out, ts->t[i].title);
		fputs("</a></li>\n", out);
	}
	fputs("<li><a href=\"#config\">Run configurations</a></li></ul></nav>\n",
	      out);
}

/* Each run's configuration, collapsed. */
static void configs(FILE *out, const struct comparison *cmp)
{
	fputs("<details id=\"config\"><summary>Run configurations</summary>\n",
	      out);
	for (size_t f = 0; f < cmp->nin; f++) {
		fputs("<h3>", out);
		xml_text(out, cmp->in[f].label);
		fputs("</h3>\n", out);
		html_config_table(out, cmp->in[f].res);
	}
	fputs("</details>\n", out);
}

/* A table that scrolls sideways rather than the page (a column per run
 * makes a unit's table wide). */
static void wide_table(FILE *out, const struct rtable *t, size_t id)
{
	fputs("<div style=\"overflow-x:auto\">\n", out);
	html_write_table(out, t, id);
	fputs("</div>\n", out);
}

static int unit_section(FILE *out, struct svg_colors *pal,
			const struct comparison *cmp, const struct rtable *t,
			size_t i)
{
	fprintf(out, "<section class=\"suite\" id=\"u%zu\"><h2>", i);
	xml_text(out, t->title);
	fputs("</h2>\n", out);
	if (geomean_chart(out, pal, cmp, t) != 0 ||
	    lines_chart(out, pal, cmp, t) != 0)
		return -1;
	wide_table(out, t, i);
	fputs("</section>\n", out);
	return 0;
}

int compare_write_html(FILE *out, const struct comparison *cmp)
{
	struct rtables ts = {0}, ctx = {0};
	struct svg_colors *pal = calloc(1, sizeof(*pal));
	int rc = pal == NULL || compare_tables(cmp, &ts) != 0 ||
		 compare_context_table(cmp, &ctx) != 0 ? -1 : 0;

	if (rc != 0)
		goto out;
	/* a column keeps its colour on the whole page */
	for (size_t c = 0; c < cmp->ncols; c++)
		svg_color(pal, cmp->cols[c].label);
	html_page_open(out, cmp->opts.report ? "rxbench report of several runs"
					     : "rxbench compare");
	if (summary(out, cmp, &ts) != 0) {
		rc = -1;
		goto out;
	}
	toc(out, &ts);
	fputs("<section id=\"columns\">\n", out);
	wide_table(out, &ctx.t[0], 9000);
	pre_of(out, cmp, "notes", compare_write_notes);
	fputs("</section>\n", out);
	for (size_t i = 0; i < ts.n && rc == 0; i++)
		rc = unit_section(out, pal, cmp, &ts.t[i], i);
	if (rc == 0) {
		configs(out, cmp);
		html_page_close(out);
	}
	rc = rc != 0 || ferror(out) ? -1 : 0;
out:
	rtables_release(&ts);
	rtables_release(&ctx);
	free(pal);
	return rc;
}

/*
 * compare_html.c - `rxbench compare A.json B.json ... --format=html` (and
 * report's of several runs): the comparison as one offline page in the
 * look of report/html.h.  First what changed against the first column,
 * per column, in benchmarks (compare_write_summary: how many faster,
 * slower, unchanged and untested, by the metric each is judged by, and
 * what to run when samples are too few); a table of contents; the
 * columns' run contexts (several machines keep theirs); then per metric
 * the changes themselves: each benchmark's change as a percentage, a dot
 * with its confidence interval as a whisker around a line at 0 (the
 * most changed benchmarks, and the geomean), and the table text and
 * Markdown print, collapsed.  A metric derived from another's timing,
 * or one nothing changed in, is a sentence instead of a chart.  The
 * page of two make bench runs stays under ten screens.
 */
#include "report/compare.h"

#include "report/html.h"
#include "report/svg.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* The benchmarks a change chart shows at most: the most changed. */
#define CHART_MAX_LINES 16

/* The change chart's geometry (svg.c's charts are as wide). */
#define CW 1000
#define LABEL_W 380
#define RIGHT_W 140
#define TOP 56

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

/* Is unit the metric some benchmark is judged by? */
static int unit_is_primary(const struct comparison *cmp, const char *unit)
{
	for (size_t i = 0; i < cmp->nrows; i++)
		if (cmp->rows[i].primary && strcmp(cmp->rows[i].unit, unit) == 0)
			return 1;
	return 0;
}

/* Are all of unit's pairs derived from another metric's measurement? */
static int unit_is_derived(const struct comparison *cmp, const char *unit)
{
	size_t n = 0;

	for (size_t i = 0; i < cmp->nrows; i++) {
		if (strcmp(cmp->rows[i].unit, unit) != 0)
			continue;
		if (!cmp->rows[i].derived)
			return 0;
		n++;
	}
	return n > 0;
}

/* --- the summary --------------------------------------------------- */

/* "; geomean ns/op -2.10%, Mpps +2.14%" of the primary metrics. */
static void geomeans_text(FILE *out, const struct comparison *cmp,
			  const struct rtables *ts, size_t c)
{
	size_t shown = 0;

	for (size_t i = 0; i < ts->n; i++) {
		const struct rtable *t = &ts->t[i];
		long g = geomean_row_of(t);
		const char *ch;
		if (g < 0 || median_col(c) + 1 >= t->ncols ||
		    !unit_is_primary(cmp, t->title))
			continue;
		ch = rtable_cell(t, (size_t)g, median_col(c) + 1)->text;
		if (ch == NULL)
			continue;
		fputs(shown++ ? ", " : " Geomean: ", out);
		xml_text(out, t->title);
		fputs(" ", out);
		xml_text(out, ch);
	}
	fputs(shown ? "." : "", out);
}

/* What a writer prints into a string (malloc'd; NULL out of memory). */
static char *text_of(const struct comparison *cmp, size_t c,
		     void (*write)(FILE *, const struct comparison *, size_t))
{
	char *s = NULL;
	size_t n = 0;
	FILE *f = open_memstream(&s, &n);

	if (f == NULL)
		return NULL;
	write(f, cmp, c);
	fclose(f);
	return s;
}

static void summary_of(FILE *out, const struct comparison *cmp, size_t c)
{
	compare_write_summary(out, cmp, c, "");
}

/* s escaped, its line breaks as <br> (none after the last line). */
static void lines_html(FILE *out, const char *s)
{
	while (*s != '\0') {
		size_t n = strcspn(s, "\n");
		char *line = strndup(s, n);
		xml_text(out, line ? line : "");
		free(line);
		s += n;
		if (*s == '\n' && *++s != '\0')
			fputs("<br>\n", out);
	}
}

/*
 * The answer for column c against the first, one paragraph: its
 * labels in bold, then compare's summary and the primaries' geomeans.
 * 0 or -1 (out of memory).
 */
static int col_answer(FILE *out, const struct comparison *cmp,
		      const struct rtables *ts, size_t c)
{
	char *s = text_of(cmp, c, summary_of);
	const char *rest = s;
	size_t n1 = strlen(cmp->cols[c].label), n0 = strlen(cmp->cols[0].label);

	if (s == NULL)
		return -1;
	if (s[0] == '\0') { /* a column compared with nothing */
		free(s);
		return 0;
	}
	/* the summary opens "C against A, by ...": C and A in bold */
	if (strncmp(s, cmp->cols[c].label, n1) == 0 &&
	    strncmp(s + n1, " against ", 9) == 0 &&
	    strncmp(s + n1 + 9, cmp->cols[0].label, n0) == 0)
		rest = s + n1 + 9 + n0;
	fputs("<p class=\"answer\"><b>", out);
	xml_text(out, cmp->cols[c].label);
	fputs("</b> against <b>", out);
	xml_text(out, cmp->cols[0].label);
	fputs("</b>", out);
	lines_html(out, rest);
	geomeans_text(out, cmp, ts, c);
	fputs("</p>\n", out);
	free(s);
	return 0;
}

/* What a text writer prints, as escaped preformatted text (or nothing). */
static void pre_of(FILE *out, const struct comparison *cmp, const char *cls,
		   void (*write)(FILE *, const struct comparison *))
{
	char *s = NULL;
	size_t n = 0, lines = 0;
	FILE *f = open_memstream(&s, &n);

	if (f == NULL)
		return;
	write(f, cmp);
	fclose(f);
	for (size_t i = 0; s != NULL && s[i]; i++)
		lines += s[i] == '\n';
	if (s != NULL && s[strspn(s, " \n")] != '\0') {
		/* a long list (benchmarks one run lacks) folds */
		if (lines > 12)
			fprintf(out, "<details class=\"more\"><summary>%zu "
				"lines of notes</summary>\n", lines);
		fprintf(out, "<pre class=\"%s\" style=\"white-space:pre-wrap\">", cls);
		xml_text(out, s);
		fputs("</pre>\n", out);
		fputs(lines > 12 ? "</details>\n" : "", out);
	}
	free(s);
}

static void advice_of(FILE *out, const struct comparison *cmp, size_t c)
{
	(void)c;
	compare_write_advice(out, cmp, "");
}

static int summary(FILE *out, const struct comparison *cmp,
		   const struct rtables *ts)
{
	char *advice;

	fputs("<section class=\"verdict\" id=\"verdict\"><h2>What changed "
	      "against the first column</h2>\n", out);
	for (size_t c = 1; c < cmp->ncols; c++)
		if (col_answer(out, cmp, ts, c) != 0)
			return -1;
	if (cmp->ncols < 2)
		fputs("<p class=\"answer\">One column only: nothing to compare "
		      "it with (give several runs, or --col KEY).</p>\n", out);
	advice = text_of(cmp, 0, advice_of);
	if (advice != NULL && advice[0] != '\0') {
		fputs("<p>", out);
		lines_html(out, advice);
		fputs("</p>\n", out);
	}
	free(advice);
	if (!cmp->opts.report)
		pre_of(out, cmp, "verdict", compare_write_verdict);
	fputs("</section>\n", out);
	return 0;
}

/* --- the change chart ---------------------------------------------- */

/* A unit's pairs by line and column: idx[l * ncols + c] = row + 1. */
static size_t *unit_rows(const struct comparison *cmp, const char *unit)
{
	size_t *idx = calloc(cmp->nlines * cmp->ncols + 1, sizeof(*idx));

	for (size_t i = 0; idx != NULL && i < cmp->nrows; i++) {
		const struct compare_row *row = &cmp->rows[i];
		if (strcmp(row->unit, unit) == 0)
			idx[row->line * cmp->ncols + row->col] = i + 1;
	}
	return idx;
}

/* A row's change is drawable: both sides measured, a finite change. */
static int drawn(const struct compare_row *row)
{
	return row != NULL && isfinite(row->change);
}

/*
 * How much line l changed, for picking the lines to draw: a
 * significant change first, then the largest |log(new/old)|; -1 when
 * no column has a change to draw.
 */
static double line_score(const struct comparison *cmp, const size_t *idx,
			 size_t l)
{
	double best = -1;

	for (size_t c = 1; c < cmp->ncols; c++) {
		const size_t k = idx[l * cmp->ncols + c];
		const struct compare_row *row = k ? &cmp->rows[k - 1] : NULL;
		if (!drawn(row) || row->change <= -1)
			continue;
		if (row->change == 0 && !(isfinite(row->change_lo) &&
					  isfinite(row->change_hi) &&
					  row->change_lo != row->change_hi))
			continue; /* nothing to see: equal, no interval */
		best = fmax(best, fabs(log1p(row->change)) +
				  (row->significant ? 1e3 : 0));
	}
	return best;
}

/* The first column's change of line l (its order in the chart). */
static double line_change(const struct comparison *cmp, const size_t *idx,
			  size_t l)
{
	for (size_t c = 1; c < cmp->ncols; c++) {
		const size_t k = idx[l * cmp->ncols + c];
		if (k && drawn(&cmp->rows[k - 1]))
			return cmp->rows[k - 1].change;
	}
	return 0;
}

/*
 * Pick up to CHART_MAX_LINES lines of the unit (pick[l] = 1), the most
 * changed, and write them into order[] by their change, the fastest
 * first.  How many were picked (none when no median moved); *all: how
 * many had a change to draw.
 */
static size_t pick_lines(const struct comparison *cmp, const size_t *idx,
			 unsigned char *pick, size_t *order, size_t *all)
{
	size_t n = 0;

	int moved = 0;

	*all = 0;
	for (size_t l = 0; l < cmp->nlines; l++) {
		*all += line_score(cmp, idx, l) >= 0;
		moved |= line_score(cmp, idx, l) > 0;
	}
	while (moved && n < CHART_MAX_LINES) {
		long best = -1;
		double bv = -1;
		for (size_t l = 0; l < cmp->nlines; l++) {
			double v = pick[l] ? -1 : line_score(cmp, idx, l);
			if (v > bv) {
				bv = v;
				best = (long)l;
			}
		}
		if (best < 0)
			break;
		pick[best] = 1;
		order[n++] = (size_t)best;
	}
	for (size_t i = 1; i < n; i++) /* insertion sort by change */
		for (size_t j = i; j > 0 && line_change(cmp, idx, order[j]) <
					    line_change(cmp, idx, order[j - 1]);
		     j--) {
			size_t t = order[j];
			order[j] = order[j - 1];
			order[j - 1] = t;
		}
	return n;
}

/*
 * The axis is of log(new/old), so that halving and doubling are as far
 * from 0, and a change of 50x (B/op from almost nothing) does not flatten
 * the others; its half range is the log of a round ratio.
 */
static double nice_ratio_log(double l)
{
	static const double ratio[] = {1.02, 1.05, 1.1, 1.2, 1.5, 2, 3, 5, 10,
				       100, 1e3, 1e4, 1e5, 1e6};
	size_t i = 0;

	while (i + 1 < sizeof(ratio) / sizeof(ratio[0]) && log(ratio[i]) < l)
		i++;
	return log(ratio[i]);
}

/* log(1 + v): a change on the axis (-inf for -100%). */
static double lg(double v)
{
	return v > -1 ? log1p(v) : -INFINITY;
}

/*
 * The axis' half range: the largest change drawn, its intervals too
 * unless one is over four times that (then it is cut, with an arrow);
 * at least 2%.
 */
static double axis_range(const struct comparison *cmp, const size_t *idx,
			 const size_t *order, size_t n, double geo)
{
	double m = isfinite(lg(geo)) ? fabs(lg(geo)) : 0, r;

	for (size_t i = 0; i < n; i++)
		for (size_t c = 1; c < cmp->ncols; c++) {
			size_t k = idx[order[i] * cmp->ncols + c];
			if (k && drawn(&cmp->rows[k - 1]) &&
			    isfinite(lg(cmp->rows[k - 1].change)))
				m = fmax(m, fabs(lg(cmp->rows[k - 1].change)));
		}
	m = fmax(m, log(1.02));
	r = m;
	for (size_t i = 0; i < n; i++)
		for (size_t c = 1; c < cmp->ncols; c++) {
			size_t k = idx[order[i] * cmp->ncols + c];
			const struct compare_row *row = k ? &cmp->rows[k - 1] : NULL;
			if (!drawn(row))
				continue;
			if (isfinite(lg(row->change_lo)))
				r = fmax(r, fmin(fabs(lg(row->change_lo)), 4 * m));
			if (isfinite(lg(row->change_hi)))
				r = fmax(r, fmin(fabs(lg(row->change_hi)), 4 * m));
		}
	return nice_ratio_log(r);
}

/* The x of a change on an axis of half range r, clipped to the plot. */
static double x_of(double v, double r)
{
	const double w = CW - LABEL_W - RIGHT_W;
	double l = fmax(-r, fmin(r, lg(v)));

	return LABEL_W + (l + r) / (2 * r) * w;
}

/* Is change v beyond an axis of half range r (its mark cut)? */
static int beyond(double v, double r)
{
	return !(fabs(lg(v)) <= r);
}

/* "+3.2%", or "×12" and "÷12" from ten times on. */
static void pct(double v, char *buf, size_t size)
{
	double x = v + 1 > 1 ? v + 1 : 1 / (v + 1);

	if (isinf(v) && v > 0)
		snprintf(buf, size, "+∞%%");
	else if (x >= 10 && v + 1 > 0)
		snprintf(buf, size, x >= 100 ? "%s%.0f" : "%s%.3g",
			 v > 0 ? "×" : "÷", x);
	else
		snprintf(buf, size, "%+.1f%%", 100 * v);
}

/* A tick's label: the change at log-ratio l, as round as it reads. */
static void tick(double l, char *buf, size_t size)
{
	double v = expm1(l);

	if (v + 1 >= 10 || v + 1 <= 0.1)
		pct(v, buf, size);
	else
		snprintf(buf, size, fabs(v) >= 0.1 ? "%+.0f%%" : "%+.1f%%",
			 100 * v);
}

static void axis(FILE *out, double r, int y0, int y1)
{
	char lab[32];

	for (int i = -2; i <= 2; i++) {
		double x = LABEL_W + (i + 2) / 4.0 * (CW - LABEL_W - RIGHT_W);
		tick(r * i / 2, lab, sizeof(lab));
		fprintf(out, "<line class=\"%s\" x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" "
			"y2=\"%d\" stroke=\"%s\"%s/><text class=\"tick\" "
			"x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">%s</text>\n",
			i ? "grid" : "zero", x, y0, x, y1, i ? "#e4e4e4" : "#333",
			i ? "" : " stroke-width=\"1.5\"", x, y0 - 6,
			i ? lab : "0");
	}
}

/* The words beside a change: better or worse, ~, or why not tested. */
static void verdict_word(const struct compare_row *row, char *buf,
			 size_t size)
{
	if (row->mode == COMPARE_STAT && isnan(row->p))
		snprintf(buf, size, "n=%zu+%zu too few", row->so.n, row->sn.n);
	else if (!row->significant)
		snprintf(buf, size, "~");
	else if (row->mode == COMPARE_EXACT)
		snprintf(buf, size, "changed");
	else
		snprintf(buf, size, "%s", row->improvement ? "better" : "worse");
}

/* A whisker from lo to hi (a cut end gets an arrow), then the dot. */
static void dot(FILE *out, const struct compare_row *row, const char *name,
		const char *col, const char *color, double r, double y)
{
	double lo = row->change_lo, hi = row->change_hi;
	double x = x_of(row->change, r);
	char a[32], b[32], c[32], word[64];

	if (isfinite(lo) && isfinite(hi) && lo != hi) {
		fprintf(out, "<line class=\"ci\" x1=\"%.1f\" y1=\"%.1f\" "
			"x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\" "
			"stroke-width=\"2\"/>", x_of(lo, r), y, x_of(hi, r), y,
			color);
		for (int s = -1; s <= 1; s += 2) {
			double e = s < 0 ? lo : hi, xe = x_of(e, r);
			if (beyond(e, r))
				fprintf(out, "<path d=\"M%.1f,%.1f l%d,-4 v8 z\" "
					"fill=\"%s\"/>", xe + s * 2, y, -s * 6,
					color);
		}
	}
	pct(row->change, a, sizeof(a));
	pct(lo, b, sizeof(b));
	pct(hi, c, sizeof(c));
	verdict_word(row, word, sizeof(word));
	fprintf(out, "<circle class=\"pt\" cx=\"%.1f\" cy=\"%.1f\" r=\"4.5\" "
		"fill=\"%s\" stroke=\"%s\" stroke-width=\"1.5\" data-v=\"%g\">"
		"<title>", x, y, row->significant ? color : "#fff", color,
		row->change);
	xml_text(out, name);
	fputs(" in ", out);
	xml_text(out, col);
	fprintf(out, ": %s", a);
	if (isfinite(lo) && isfinite(hi))
		fprintf(out, ", 95%% interval [%s, %s]", b, c);
	else if (row->mode == COMPARE_STAT)
		fputs(", no interval (too few samples)", out);
	if (!isnan(row->p))
		fprintf(out, ", p=%.3f", row->p);
	fprintf(out, " (%s)</title></circle>", word);
	fprintf(out, "<text x=\"%d\" y=\"%.1f\">%s %s</text>\n",
		CW - RIGHT_W + 8, y + 4, a, word);
}

/* The geomean line: its change against the first column, a square. */
static void geomean_mark(FILE *out, const struct comparison *cmp,
			 const struct rtable *t, struct svg_colors *pal,
			 double r, int y)
{
	long g = geomean_row_of(t);
	char a[32];

	if (g < 0)
		return;
	fprintf(out, "<text x=\"%d\" y=\"%d\" text-anchor=\"end\" "
		"font-weight=\"600\">geomean</text>\n", LABEL_W - 8, y + 4);
	for (size_t c = 1; c < cmp->ncols; c++) {
		double v = rtable_cell(t, (size_t)g, median_col(c) + 1)->v;
		double yc = y + 12.0 * (double)(c - 1);
		if (!isfinite(v))
			continue;
		pct(v, a, sizeof(a));
		fprintf(out, "<rect class=\"geo\" x=\"%.1f\" y=\"%.1f\" "
			"width=\"9\" height=\"9\" fill=\"%s\"><title>geomean "
			"in ", x_of(v, r) - 4.5, yc - 4.5,
			svg_color(pal, cmp->cols[c].label));
		xml_text(out, cmp->cols[c].label);
		fprintf(out, ": %s</title></rect><text x=\"%d\" y=\"%.1f\">%s"
			"</text>\n", a, CW - RIGHT_W + 8, yc + 4, a);
	}
}

/* A legend of the columns, when there are several to tell apart. */
static int legend(FILE *out, const struct comparison *cmp,
		  struct svg_colors *pal, int y)
{
	int x = LABEL_W;

	if (cmp->ncols <= 2)
		return 0;
	for (size_t c = 1; c < cmp->ncols; c++) {
		char name[40];
		tail_label(cmp->cols[c].label, 24, name, sizeof(name));
		fprintf(out, "<circle cx=\"%d\" cy=\"%d\" r=\"4.5\" fill=\"%s\"/>"
			"<text x=\"%d\" y=\"%d\">", x, y - 4,
			svg_color(pal, cmp->cols[c].label), x + 8, y);
		xml_text(out, name);
		fputs("</text>\n", out);
		x += 40 + 7 * (int)strlen(name);
	}
	return 18;
}

/*
 * Unit t's most changed benchmarks: per line a dot per column at its
 * change against the first, its confidence interval a whisker, and a
 * line at 0; the geomean first.  0, 1 when there was nothing to draw,
 * -1 out of memory.
 */
static int change_chart(FILE *out, struct svg_colors *pal,
			const struct comparison *cmp, const struct rtable *t)
{
	size_t nc = cmp->ncols, n, all, *order = NULL;
	size_t *idx = unit_rows(cmp, t->title);
	unsigned char *pick = calloc(cmp->nlines + 1, 1);
	long g = geomean_row_of(t);
	double geo = g >= 0 && nc > 1 ? rtable_cell(t, (size_t)g, 3)->v : NAN;
	int step = 6 + 12 * (int)(nc - 1), y, h, lg = nc > 2 ? 18 : 0;
	double r;
	char title[512], name[96], alpha[48];

	order = calloc(CHART_MAX_LINES, sizeof(*order));
	if (idx == NULL || pick == NULL || order == NULL) {
		n = (size_t)-1;
		goto out;
	}
	n = pick_lines(cmp, idx, pick, order, &all);
	if (n == 0)
		goto out;
	r = axis_range(cmp, idx, order, n, geo);
	h = TOP + lg + step * (int)(n + (g >= 0)) + 10;
	if (n < all)
		snprintf(title, sizeof(title), "%s: the %zu most changed of %zu "
			 "benchmarks, against %s", t->title, n, all,
			 cmp->cols[0].label);
	else
		snprintf(title, sizeof(title), "%s: %zu %s, against %s",
			 t->title, n, n == 1 ? "benchmark" : "benchmarks",
			 cmp->cols[0].label);
	fprintf(out, "<figure class=\"chart\"><svg class=\"changes\" "
		"xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 %d %d\" "
		"width=\"%d\" height=\"%d\" role=\"img\" aria-label=\"", CW, h,
		CW, h);
	xml_text(out, title);
	fputs("\"><text class=\"title\" x=\"8\" y=\"16\">", out);
	xml_text(out, title);
	compare_digits_text(cmp->opts.alpha, 2, alpha, sizeof(alpha));
	fprintf(out, "</text><text class=\"tick\" x=\"8\" y=\"30\">the "
		"change of the medians, its whisker the change's %.0f%% "
		"interval; filled: significant (p &lt; %s), hollow: not, or "
		"too few samples to tell</text>\n", 100 * cmp->opts.confidence,
		alpha);
	legend(out, cmp, pal, TOP - 4);
	axis(out, r, TOP + lg, h - 6);
	y = TOP + lg + step / 2;
	if (g >= 0) {
		geomean_mark(out, cmp, t, pal, r, y - 6 * (int)(nc - 2));
		y += step;
	}
	for (size_t i = 0; i < n; i++, y += step) {
		size_t l = order[i];
		double yc = y - 6.0 * (double)(nc - 2);
		tail_label(cmp->lines[l], 58, name, sizeof(name));
		fprintf(out, "<text x=\"%d\" y=\"%.1f\" text-anchor=\"end\">",
			LABEL_W - 8, yc + 4);
		xml_text(out, name);
		fputs("<title>", out);
		xml_text(out, cmp->lines[l]);
		fputs("</title></text>\n", out);
		for (size_t c = 1; c < nc; c++, yc += 12) {
			size_t k = idx[l * nc + c];
			if (k && drawn(&cmp->rows[k - 1]))
				dot(out, &cmp->rows[k - 1], cmp->lines[l],
				    cmp->cols[c].label,
				    svg_color(pal, cmp->cols[c].label), r, yc);
		}
	}
	fputs("</svg></figure>\n", out);
out:
	free(idx);
	free(pick);
	free(order);
	return n == (size_t)-1 ? -1 : n == 0;
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

/* The rows of t but the geomean: its benchmarks. */
static size_t benchmarks_of(const struct rtable *t)
{
	return t->nrows - (geomean_row_of(t) >= 0);
}

/*
 * A unit's section: the change chart, or the sentence that says why
 * there is none (derived from another metric's timing, or nothing
 * changed); then its table, collapsed.
 */
static int unit_section(FILE *out, struct svg_colors *pal,
			const struct comparison *cmp, const struct rtable *t,
			size_t i)
{
	int rc = 0;

	fprintf(out, "<section class=\"suite\" id=\"u%zu\"><h2>", i);
	xml_text(out, t->title);
	fputs("</h2>\n", out);
	if (unit_is_derived(cmp, t->title))
		fputs("<p>From the same measurement as the metric each of "
		      "these benchmarks is judged by, so not drawn nor "
		      "counted again: its changes are that metric's.</p>\n",
		      out);
	else if (cmp->ncols > 1)
		rc = change_chart(out, pal, cmp, t);
	if (rc == 1)
		fprintf(out, "<p>No median changed, in any of its %zu "
			"benchmarks.</p>\n", benchmarks_of(t));
	if (rc < 0)
		return -1;
	fprintf(out, "<details class=\"more\"><summary>the table: %zu "
		"benchmarks, each column's median</summary>\n",
		benchmarks_of(t));
	wide_table(out, t, i);
	fputs("</details>\n</section>\n", out);
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

/*
 * text.c - the report's tables as text (see text.h).
 */
#include "report/text.h"

#include "report/gofmt.h"
#include "report/layout.h"
#include "report/rtable.h"
#include "report/summary.h"
#include "report/view.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define TEXT_WRAP 100

/* Columns on screen: UTF-8 continuation bytes take none. */
static size_t width_of(const char *s)
{
	size_t w = 0;

	for (; s != NULL && *s; s++)
		w += ((unsigned char)*s & 0xC0) != 0x80;
	return w;
}

/* s wrapped at TEXT_WRAP columns on spaces. */
static void wrapped(FILE *out, const char *s)
{
	while (*s != '\0') {
		size_t n = strlen(s), cut = n;
		if (n > TEXT_WRAP) {
			cut = TEXT_WRAP;
			while (cut > 0 && s[cut] != ' ')
				cut--;
			if (cut == 0)
				cut = strcspn(s, " ");
		}
		fprintf(out, "%.*s\n", (int)cut, s);
		s += cut;
		s += strspn(s, " ");
	}
}

static void cell_out(FILE *out, const char *s, size_t width, int right)
{
	size_t w = width_of(s);

	fputs("| ", out);
	for (size_t i = w; right && i < width; i++)
		fputc(' ', out);
	fputs(s ? s : "", out);
	for (size_t i = w; !right && i < width; i++)
		fputc(' ', out);
	fputc(' ', out);
}

/* A boxed table: its title, its caption wrapped, then aligned pipe
 * rows, numbers right-aligned. */
static void boxed_table(FILE *out, const struct rtable *t,
			const size_t *width)
{
	fprintf(out, "\n%s\n", t->title);
	wrapped(out, t->caption);
	fputc('\n', out);
	for (size_t c = 0; c < t->ncols; c++)
		cell_out(out, t->cols[c], width[c], t->numeric[c]);
	fputs("|\n", out);
	for (size_t c = 0; c < t->ncols; c++) {
		fputc('|', out);
		for (size_t k = 0; k < width[c] + 2; k++)
			fputc('-', out);
	}
	fputs("|\n", out);
	for (size_t r = 0; r < t->nrows; r++) {
		for (size_t c = 0; c < t->ncols; c++)
			cell_out(out, rtable_cell(t, r, c)->text, width[c],
				 t->numeric[c]);
		fputs("|\n", out);
	}
}

/* s, then spaces up to width columns. */
static void padded(FILE *out, const char *s, size_t width)
{
	fputs(s ? s : "", out);
	for (size_t w = width_of(s); w < width; w++)
		fputc(' ', out);
}

/* Row r of a plain table (-1: the column names): cells left-aligned
 * two spaces apart, the last one unpadded. */
static void plain_row(FILE *out, const struct rtable *t, long r,
		      const size_t *width)
{
	for (size_t c = 0; c < t->ncols; c++) {
		const char *s = r < 0 ? t->cols[c]
				      : rtable_cell(t, (size_t)r, c)->text;
		padded(out, s, c + 1 < t->ncols ? width[c] + 2 : 0);
	}
	fputc('\n', out);
}

/* A plain table, benchstat's look (rxbench compare): "title (caption)",
 * the head and rows left-aligned, a blank line after. */
static void plain_table(FILE *out, const struct rtable *t,
			const size_t *width)
{
	fprintf(out, "%s (%s)\n", t->title, t->caption);
	for (long r = -1; r < (long)t->nrows; r++)
		plain_row(out, t, r, width);
	fputc('\n', out);
}

void text_table(FILE *out, const struct rtable *t)
{
	size_t *width = calloc(t->ncols + 1, sizeof(*width));

	if (width == NULL)
		return;
	for (size_t c = 0; c < t->ncols; c++) {
		width[c] = width_of(t->cols[c]);
		for (size_t r = 0; r < t->nrows; r++)
			if (width_of(rtable_cell(t, r, c)->text) > width[c])
				width[c] = width_of(rtable_cell(t, r, c)->text);
	}
	if (t->kind == RTABLE_CHANGES)
		plain_table(out, t, width);
	else
		boxed_table(out, t, width);
	free(width);
}

/* Some result of the suite has more than one sample. */
static int repeated(const struct results *res, const char *suite)
{
	for (size_t i = 0; i < res->n; i++)
		if (strcmp(res->r[i].suite, suite) == 0 &&
		    res->r[i].nsamples > 1)
			return 1;
	return 0;
}

/* Every sample of r timed one op. */
static int one_op(const struct result *r)
{
	for (size_t s = 0; s < r->nsamples; s++)
		if (r->iters[s] != 1)
			return 0;
	return r->nsamples > 0;
}

/*
 * Benchmarks whose every sample timed one op while others of the suite
 * timed more: they are slower than a sample's budget, so each sample
 * is a single, less precise, measurement.
 */
static void one_op_note(FILE *out, const struct results *res,
			const char *suite)
{
	size_t n = 0, more = 0;
	char num[32];

	for (size_t i = 0; i < res->n; i++) {
		const struct result *r = &res->r[i];
		if (strcmp(r->suite, suite) != 0 || r->status != RESULT_OK)
			continue;
		n += one_op(r);
		more += !one_op(r) && r->nsamples > 0;
	}
	if (n == 0 || more == 0)
		return;
	fprintf(out, "\nOver budget: %zu benchmark(s) need more than a "
		"sample's time for one op, so each sample timed a single op "
		"(less precise):\n", n);
	for (size_t i = 0; i < res->n; i++) {
		const struct result *r = &res->r[i];
		const char *unit = summary_unit(r);
		if (strcmp(r->suite, suite) != 0 || r->status != RESULT_OK ||
		    !one_op(r) || unit == NULL)
			continue;
		gofmt_number(view_median(r, unit), unit, num, sizeof(num));
		fprintf(out, "  %s %s %s\n", r->name, num, unit);
	}
}

int text_write_suite(FILE *out, const struct results *res, const char *suite,
		     const struct report_opts *opts)
{
	struct rtables ts = {0};
	char err[256];
	int rc = report_suite_tables(res, suite, opts, &ts, err, sizeof(err));

	if (rc != 0)
		fprintf(stderr, "rxbench: suite %s: %s\n", suite,
			err[0] ? err : "out of memory");
	fprintf(out, "\nReport of suite %s (rxbench report --format=text "
		"prints it again from the results file)\n", suite);
	for (size_t i = 0; i < ts.n; i++)
		text_table(out, &ts.t[i]);
	rtables_release(&ts);
	if (repeated(res, suite)) {
		fputc('\n', out);
		summary_write_stats(out, res, suite);
	}
	one_op_note(out, res, suite);
	fprintf(out, "\nEnd of the report of suite %s\n", suite);
	fflush(out);
	return rc;
}

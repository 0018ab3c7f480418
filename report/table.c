/*
 * table.c - the payload suite's per-engine Markdown tables (see table.h).
 */
#include "report/table.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define TABLE_MAX_COLS 8
#define CELL 24

double table_median(const struct result *r, const char *unit)
{
	const struct metric *m = result_metric(r, unit);
	double v[64], t;
	size_t n = 0;

	if (m == NULL)
		return NAN;
	for (size_t i = 0; i < m->n && n < 64; i++)
		if (isfinite(m->v[i]))
			v[n++] = m->v[i];
	if (n == 0)
		return NAN;
	for (size_t i = 1; i < n; i++) /* insertion sort: n is --count */
		for (size_t j = i; j > 0 && v[j - 1] > v[j]; j--) {
			t = v[j];
			v[j] = v[j - 1];
			v[j - 1] = t;
		}
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* One decimal as in the seed's tables; two significant digits below 1. */
static void number(double v, char *buf, size_t size)
{
	if (v >= 1000)
		snprintf(buf, size, "%.0f", v);
	else if (v >= 1 || v == 0)
		snprintf(buf, size, "%.1f", v);
	else
		snprintf(buf, size, "%.2g", v);
}

/* The result behind one cell, or NULL when it was not run. */
static const struct result *cell_result(const struct results *res,
					const struct table_spec *s,
					const struct table_column *c,
					const char *size)
{
	char name[256];

	if (c->per_engine)
		snprintf(name, sizeof(name), "%s/scenario=%s/size=%s/engine=%s",
			 s->prefix, c->scenario, size, s->engine);
	else
		snprintf(name, sizeof(name), "%s/scenario=%s/size=%s", s->prefix,
			 c->scenario, size);
	return results_find(res, name);
}

/* Text of one cell: Mpps (cores = 0) or the cores for `linerate` (1). */
static void cell_text(const struct result *r, int cores, double linerate,
		      int mark, char *buf, size_t size)
{
	double mpps;

	if (r == NULL) {
		snprintf(buf, size, "-");
		return;
	}
	switch (r->status) {
	case RESULT_OK: break;
	case RESULT_MISMATCH: snprintf(buf, size, "MISMATCH"); return;
	case RESULT_UNSUPPORTED: snprintf(buf, size, "n/a"); return;
	default: snprintf(buf, size, "%s", result_status_name(r->status)); return;
	}
	mpps = table_median(r, "Mpps");
	if (!isfinite(mpps) || mpps <= 0) {
		snprintf(buf, size, "-");
		return;
	}
	number(cores ? linerate / mpps : mpps, buf, size - 1);
	if (mark) {
		size_t l = strlen(buf); /* number() left room for one byte */
		buf[l] = '*';
		buf[l + 1] = '\0';
	}
}

static void print_row(FILE *out, char cells[][CELL], size_t n,
		      const size_t *width)
{
	for (size_t i = 0; i < n; i++)
		fprintf(out, "| %*s ", (int)width[i], cells[i]);
	fprintf(out, "|\n");
}

static void print_rule(FILE *out, size_t n, const size_t *width)
{
	for (size_t i = 0; i < n; i++) {
		fputs("|", out);
		for (size_t k = 0; k < width[i] + 2; k++)
			fputc('-', out);
	}
	fprintf(out, "|\n");
}

/* Fill row `row` (0 = header) of one table. */
static void fill_row(const struct results *res, const struct table_spec *s,
		     int cores, size_t row, char cells[][CELL])
{
	size_t k = 0;

	if (row == 0) {
		snprintf(cells[k++], CELL, "pkt size");
		snprintf(cells[k++], CELL, "linerate");
		for (size_t c = 0; c < s->ncols; c++)
			snprintf(cells[k++], CELL, "%s", s->cols[c].title);
		return;
	}
	row--;
	snprintf(cells[k++], CELL, "%s", s->sizes[row]);
	number(s->linerate[row], cells[k++], CELL);
	for (size_t c = 0; c < s->ncols; c++) {
		const struct table_column *col = &s->cols[c];
		int mark = s->mark_col != NULL &&
			   strcmp(s->mark_col, col->scenario) == 0;
		cell_text(cell_result(res, s, col, s->sizes[row]), cores,
			  s->linerate[row], mark, cells[k++], CELL);
	}
}

static void write_table(FILE *out, const struct results *res,
			const struct table_spec *s, int cores)
{
	char cells[TABLE_MAX_COLS + 2][CELL];
	size_t width[TABLE_MAX_COLS + 2] = {0}, n = s->ncols + 2;

	for (size_t row = 0; row <= s->nrows; row++) {
		fill_row(res, s, cores, row, cells);
		for (size_t i = 0; i < n; i++)
			if (strlen(cells[i]) > width[i])
				width[i] = strlen(cells[i]);
	}
	for (size_t row = 0; row <= s->nrows; row++) {
		fill_row(res, s, cores, row, cells);
		print_row(out, cells, n, width);
		if (row == 0)
			print_rule(out, n, width);
	}
}

void table_write_payload(FILE *out, const struct results *res,
			 const struct table_spec *spec)
{
	if (spec->ncols > TABLE_MAX_COLS)
		return;
	fprintf(out, "\n%s\n\nMpps per core:\n\n", spec->title);
	write_table(out, res, spec, 0);
	fprintf(out, "\ncores to reach line rate:\n\n");
	write_table(out, res, spec, 1);
	if (spec->footnote != NULL)
		fprintf(out, "\n%s\n", spec->footnote);
}

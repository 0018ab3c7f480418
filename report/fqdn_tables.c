/*
 * fqdn_tables.c - the FQDN suite's seed-layout and scaling tables (see
 * fqdn_tables.h).
 */
#include "report/fqdn_tables.h"

#include "harness/complexity.h"

#include "report/gofmt.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define KEY_MAX 64
#define MAX_SIZES 16

/* One timed benchmark, reduced to medians. */
struct row {
	char phase[KEY_MAX], strategy[KEY_MAX], engine[KEY_MAX];
	double domains;
	double ns, bop, allocs, heap; /* NAN when not measured */
};

static int dbl_cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* Median of a metric's samples, NAN when absent. */
static double median(const struct result *r, const char *unit)
{
	const struct metric *m = result_metric(r, unit);
	double *v, med = NAN;
	size_t n = 0;

	if (m == NULL || m->n == 0)
		return NAN;
	v = malloc(m->n * sizeof(*v));
	if (v == NULL)
		return NAN;
	for (size_t i = 0; i < m->n; i++)
		if (!isnan(m->v[i]))
			v[n++] = m->v[i];
	if (n > 0) {
		qsort(v, n, sizeof(*v), dbl_cmp);
		med = n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
	}
	free(v);
	return med;
}

/* The row of r; 0, or -1 when r is not an ok FQDN benchmark. */
static int row_fill(struct row *w, const struct result *r)
{
	char dom[32];

	if (r->status != RESULT_OK || r->nsamples == 0 ||
	    !result_key(r, "phase", w->phase, sizeof(w->phase)) ||
	    !result_key(r, "strategy", w->strategy, sizeof(w->strategy)) ||
	    !result_key(r, "engine", w->engine, sizeof(w->engine)))
		return -1;
	if (result_key(r, "domains", dom, sizeof(dom)))
		w->domains = strtod(dom, NULL);
	else
		w->domains = median(r, "domains");
	w->ns = median(r, "ns/op");
	w->bop = median(r, "B/op");
	w->allocs = median(r, "allocs/op");
	w->heap = median(r, "B(heap)/op");
	return 0;
}

/* The rows of suite's results, in run order.  *n rows; NULL when none. */
static struct row *rows_collect(const struct results *res, const char *suite,
				size_t *n)
{
	struct row *rows = calloc(res->n ? res->n : 1, sizeof(*rows));

	*n = 0;
	for (size_t i = 0; rows != NULL && i < res->n; i++)
		if (strcmp(res->r[i].suite, suite) == 0 &&
		    row_fill(&rows[*n], &res->r[i]) == 0)
			(*n)++;
	if (*n == 0) {
		free(rows);
		return NULL;
	}
	return rows;
}

/* x as a whole number, or "-" when not measured. */
static void fmt_int(double x, char *buf, size_t size)
{
	if (isnan(x))
		snprintf(buf, size, "-");
	else
		snprintf(buf, size, "%.0f", x);
}

static void seed_header(FILE *out, const char *phase)
{
	fprintf(out, "\nFQDN %s (medians; seed 000 layout)\n", phase);
	fprintf(out, "%-20s %-12s %14s %12s %10s %12s %8s\n", "strategy",
		"engine", "ns/op", "B/op", "allocs/op", "B(heap)/op",
		"domains");
}

static void seed_row(FILE *out, const struct row *w)
{
	char ns[32], b[32], a[32], h[32], d[32];

	gofmt_number(w->ns, "ns/op", ns, sizeof(ns));
	fmt_int(w->bop, b, sizeof(b));
	fmt_int(w->allocs, a, sizeof(a));
	fmt_int(w->heap, h, sizeof(h));
	fmt_int(w->domains, d, sizeof(d));
	fprintf(out, "%-20s %-12s %14s %12s %10s %12s %8s\n", w->strategy,
		w->engine, ns, b, a, h, d);
}

/* Per phase, in the order phases first appear, a row per benchmark. */
static void seed_tables(FILE *out, const struct row *rows, size_t n)
{
	unsigned char *done = calloc(n, 1);

	for (size_t i = 0; done != NULL && i < n; i++) {
		if (done[i])
			continue;
		seed_header(out, rows[i].phase);
		for (size_t j = i; j < n; j++) {
			if (done[j] || strcmp(rows[j].phase, rows[i].phase) != 0)
				continue;
			seed_row(out, &rows[j]);
			done[j] = 1;
		}
	}
	free(done);
}

/* The distinct sizes of the run, ascending. */
static size_t sizes_of(const struct row *rows, size_t n, double *sizes)
{
	size_t ns = 0;

	for (size_t i = 0; i < n; i++) {
		size_t j = 0;
		while (j < ns && sizes[j] != rows[i].domains)
			j++;
		if (j == ns && ns < MAX_SIZES && !isnan(rows[i].domains))
			sizes[ns++] = rows[i].domains;
	}
	qsort(sizes, ns, sizeof(*sizes), dbl_cmp);
	return ns;
}

static int same_series(const struct row *a, const struct row *b)
{
	return strcmp(a->phase, b->phase) == 0 &&
	       strcmp(a->strategy, b->strategy) == 0 &&
	       strcmp(a->engine, b->engine) == 0;
}

static void scaling_header(FILE *out, const double *sizes, size_t ns)
{
	char col[32];

	fprintf(out, "\nFQDN scaling: median ns/op per policy size, growth "
		"between sizes, k of a least-squares fit ns/op ~ N^k, and the\n"
		"best least-squares fit of O(1), O(log N), O(N), O(N log N), "
		"O(N^2), O(N^3) (3 sizes or more)\n");
	fprintf(out, "%-17s %-18s %-11s", "phase", "strategy", "engine");
	for (size_t i = 0; i < ns; i++) {
		snprintf(col, sizeof(col), "N=%.0f", sizes[i]);
		fprintf(out, " %12s", col);
	}
	for (size_t i = 0; i + 1 < ns; i++) {
		snprintf(col, sizeof(col), "%.0f->%.0f", sizes[i], sizes[i + 1]);
		fprintf(out, " %11s", col);
	}
	fprintf(out, " %7s %10s\n", "fit", "best fit");
}

/* The row of series s at each size (NULL where it was not timed). */
static void series_points(const struct row *rows, size_t n, size_t s,
			  const double *sizes, size_t ns, const struct row **at)
{
	for (size_t k = 0; k < ns; k++) {
		at[k] = NULL;
		for (size_t j = s; j < n; j++)
			if (same_series(&rows[j], &rows[s]) &&
			    rows[j].domains == sizes[k])
				at[k] = &rows[j];
	}
}

/* One scaling line: times, consecutive ratios, the fitted exponent. */
static void scaling_row(FILE *out, const struct row *label,
			const struct row *const *at, const double *sizes,
			size_t ns)
{
	double x[MAX_SIZES], y[MAX_SIZES], k;
	struct complexity_fit fit;
	char cell[32];
	size_t np = 0;

	fprintf(out, "%-17s %-18s %-11s", label->phase, label->strategy,
		label->engine);
	for (size_t i = 0; i < ns; i++) {
		if (at[i] != NULL && at[i]->ns > 0) {
			x[np] = sizes[i];
			y[np++] = at[i]->ns;
		}
		gofmt_number(at[i] ? at[i]->ns : NAN, "ns/op", cell, sizeof(cell));
		fprintf(out, " %12s", at[i] ? cell : "-");
	}
	for (size_t i = 0; i + 1 < ns; i++) {
		if (at[i] && at[i + 1] && at[i]->ns > 0)
			snprintf(cell, sizeof(cell), "x%.2f",
				 at[i + 1]->ns / at[i]->ns);
		else
			snprintf(cell, sizeof(cell), "-");
		fprintf(out, " %11s", cell);
	}
	if (complexity_exponent(x, y, np, &k) == 0)
		snprintf(cell, sizeof(cell), "N^%.2f", k);
	else
		snprintf(cell, sizeof(cell), "-");
	fprintf(out, " %7s", cell);
	fprintf(out, " %10s\n", complexity_fit_best(x, y, np, &fit) == 0
					 ? complexity_name(fit.model)
					 : "-");
}

static void scaling_table(FILE *out, const struct row *rows, size_t n)
{
	double sizes[MAX_SIZES];
	const struct row *at[MAX_SIZES];
	size_t ns = sizes_of(rows, n, sizes);
	unsigned char *done;

	if (ns < 2)
		return;
	done = calloc(n, 1);
	if (done == NULL)
		return;
	scaling_header(out, sizes, ns);
	for (size_t i = 0; i < n; i++) {
		if (done[i])
			continue;
		for (size_t j = i; j < n; j++)
			done[j] |= same_series(&rows[j], &rows[i]);
		series_points(rows, n, i, sizes, ns, at);
		scaling_row(out, &rows[i], at, sizes, ns);
	}
	free(done);
}

/* Benchmarks slower than the budget of one sample: one op per sample. */
static void budget_note(FILE *out, const struct row *rows, size_t n,
			double budget_ns)
{
	char ns[32], b[32];
	size_t over = 0;

	for (size_t i = 0; i < n; i++)
		over += rows[i].ns > budget_ns;
	if (budget_ns <= 0 || over == 0)
		return;
	snprintf(b, sizeof(b), "%g ms", budget_ns / 1e6);
	fprintf(out, "\nFQDN over budget: %zu benchmark(s) need more than the "
		"%s of one sample for a single op; each sample timed one op "
		"(less precise):\n", over, b);
	for (size_t i = 0; i < n; i++) {
		if (!(rows[i].ns > budget_ns))
			continue;
		gofmt_number(rows[i].ns, "ns/op", ns, sizeof(ns));
		fprintf(out, "  %-17s %-18s %-11s %14s ns/op  domains %.0f\n",
			rows[i].phase, rows[i].strategy, rows[i].engine, ns,
			rows[i].domains);
	}
}

void fqdn_tables_write(FILE *out, const struct results *res, const char *suite,
		       double benchtime_ns)
{
	size_t n;
	struct row *rows = rows_collect(res, suite, &n);

	if (rows == NULL)
		return;
	seed_tables(out, rows, n);
	scaling_table(out, rows, n);
	budget_note(out, rows, n, benchtime_ns);
	fputc('\n', out);
	free(rows);
}

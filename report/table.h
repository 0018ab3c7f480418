/*
 * table.h - the payload suite's per-engine tables (the layout of the XDP
 * + Hyperscan seed): rows are packet sizes, columns the line rate and each
 * scenario's Mpps per core, then the cores one needs to reach line rate.
 *
 * A writer: it reads finished results (the median of each benchmark's
 * Mpps samples) and prints; the line rates come from the suite.  Results
 * are found by name: "<prefix>/scenario=S/size=Z" for scenarios without
 * an engine, "<prefix>/scenario=S/size=Z/engine=E" for the others.
 */
#ifndef RXB_TABLE_H
#define RXB_TABLE_H

#include <stdio.h>

#include "harness/results.h"

struct table_column {
	const char *scenario; /* name level value, e.g. "full-scan" */
	const char *title;    /* heading, e.g. "full payload scan" */
	int per_engine;       /* 0: the result has no engine level (base) */
};

struct table_spec {
	const char *prefix;    /* "Payload" */
	const char *engine;    /* whose table */
	const char *title;     /* line above the table */
	const char *const *sizes; /* row labels in display order */
	const double *linerate;   /* Mpps per row */
	size_t nrows;
	const struct table_column *cols;
	size_t ncols;
	const char *mark_col;  /* scenario whose cells get a '*' ... */
	const char *footnote;  /* ... explained by this line; NULL for none */
};

/*
 * Print the Mpps table and the cores table of spec->engine from res.
 * A cell is the median Mpps, "MISMATCH", "error", "n/a" (unsupported) or
 * "-" when that benchmark was not run.
 */
void table_write_payload(FILE *out, const struct results *res,
			 const struct table_spec *spec);

/* The median of the finite values of metric `unit` of r; NAN when none. */
double table_median(const struct result *r, const char *unit);

#endif

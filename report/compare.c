/*
 * compare.c - old against new, benchstat-style (see compare.h).
 *
 * compare_results() computes every row; the writers turn the rows into
 * one table per metric (report/rtable.h, a geomean row last), which
 * report/text.c and report/md.c render, with the lines around them (the
 * context, configuration changes, the one-sided benchmarks, status
 * changes and the verdict) written as plain text or Markdown (struct
 * prose).
 */
#include "report/compare.h"

#include "report/gofmt.h"
#include "report/layout_decl.h"
#include "report/md.h"
#include "report/rtable.h"
#include "report/text.h"
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

/* A unit in a list of n. */
static int unit_in(const char *unit, const char *const *list, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (strcmp(unit, list[i]) == 0)
			return 1;
	return 0;
}

/*
 * Sizes a benchmark records from what it built (a suite's bench_metric
 * extras: the compiled set, its scratch and stream state, the memory of
 * N endpoints), not from a run: the same on every sample, so a change
 * is real and needs no test.
 */
static int unit_constant(const char *unit)
{
	static const char *const fixed[] = {
		"B/db", "B/scratch", "B/stream", "B/10k-flows", "B(heap)",
		"B(heap)/endpoint", "nocache-B(heap)",
		"nocache-B(heap)/endpoint",
	};

	return unit_in(unit, fixed, sizeof(fixed) / sizeof(fixed[0]));
}

/*
 * Units a sample derives from its one timing (harness/bench.c's ns/op
 * and MB/s, payload's and its threads' derive; the xdp engine's
 * kernel-ns/op, the kernel's mean of the runs its ns/op timed, and
 * slope-timed, which of the two its ns/op is): one measurement.
 */
static int unit_timed(const char *unit)
{
	static const char *const timed[] = {
		"ns/op", "MB/s", "Mpps", "Gbps", "%linerate", "cores",
		"agg-Mpps", "agg-Gbps", "thread-Mpps", "thread-Mpps-min",
		"thread-Mpps-max", "1thread-Mpps", "efficiency",
		"threads-line", "threads-line-computed", "kernel-ns/op",
		"slope-timed",
	};

	return unit_in(unit, timed, sizeof(timed) / sizeof(timed[0]));
}

/* Are a and b (a != b) two figures of one measurement? */
static int same_measurement(const char *a, const char *b)
{
	return (unit_timed(a) && unit_timed(b)) ||
	       (metric_unit_exact(a) && metric_unit_exact(b));
}

enum compare_mode compare_mode_of(const char *unit, enum metric_better b)
{
	if (b == BETTER_EXACT)
		return COMPARE_EXACT;
	/* counted by callgrind (--measure=instructions), or a size fixed
	   by what was built: deterministic */
	if (metric_unit_exact(unit) || unit_constant(unit))
		return COMPARE_DETERMINISTIC;
	return COMPARE_STAT;
}

/*
 * The unit benchmark r of run in is judged by: its suite's verdict
 * metric (the layout the results carry) when r has it, else ns/op, else
 * instr/op (--measure=instructions); NULL when it has none of them.
 */
static const char *primary_unit(const struct compare_input *in,
				const struct result *r)
{
	static const char *const fallback[] = {"ns/op", "instr/op"};
	const struct results *res = in->res;
	const struct metric *m = NULL;

	for (size_t i = 0; m == NULL && i < res->nlayout; i++) {
		struct ldecl d;
		char err[160];
		if (strcmp(res->layout[i].suite, r->suite) != 0 ||
		    strncmp(res->layout[i].line, "verdict ", 8) != 0 ||
		    ldecl_parse(res->layout[i].line, &d, err, sizeof(err)) != 0)
			continue;
		if (d.nmetric > 0 && d.metric[0].b[0] == '\0')
			m = result_metric(r, d.metric[0].a);
	}
	for (size_t i = 0; m == NULL && i < 2; i++)
		m = result_metric(r, fallback[i]);
	return m ? m->unit : NULL;
}

static int failed_status(enum result_status st)
{
	return st == RESULT_MISMATCH || st == RESULT_ERROR ||
	       st == RESULT_TIMEOUT;
}

/*
 * new/old - 1; NAN when old is 0 or less and new another value: a base
 * of no size has no ratio (benchstat prints "?", never an infinite or a
 * sign-flipped percentage; a self-timed op may read 0 ns/op).
 */
static double relative_change(double old, double new)
{
	if (old == new)
		return 0;
	if (!(old > 0))
		return NAN;
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

/*
 * Change, its interval, significance and verdict of a row whose sides
 * both have values.  A derived row is judged (its change shows) but
 * never counts as better, worse or a regression: its primary does.
 */
static int judge(struct compare_row *row, const struct compare_opts *o,
		 const struct metric *mo, const struct metric *mn)
{
	row->change = relative_change(row->so.median, row->sn.median);
	row->change_lo = row->change_hi = row->change;
	if (row->mode == COMPARE_STAT) {
		if (row->so.n >= STATS_UTEST_MIN_N &&
		    row->sn.n >= STATS_UTEST_MIN_N &&
		    stats_utest(mo->v, mo->n, mn->v, mn->n, &row->p) != 0)
			return -1;
		if (stats_change_ci(mo->v, mo->n, mn->v, mn->n, o->confidence,
				    &row->change_lo, &row->change_hi) != 0)
			return -1;
		row->significant = !isnan(row->p) && row->p < o->alpha;
	} else {
		row->significant = row->change != 0;
	}
	if (isnan(row->change)) { /* no ratio: neither better nor worse */
		row->change_lo = row->change_hi = NAN;
		row->significant = 0;
	}
	if (!row->significant || row->derived)
		return 0;
	if (row->mode != COMPARE_EXACT && !worse_beyond(row, 0))
		row->improvement = 1;
	else if (o->gate && worse_beyond(row, o->threshold))
		row->regression = 1;
	return 0;
}

/* --- columns and rows -------------------------------------------- */

/*
 * The value of `key` for result r of run in: a name key, "file", a
 * configuration or context key ("version": rxbench-version).  1 found.
 */
static int key_value(const struct compare_input *in, const struct result *r,
		     const char *key, char *buf, size_t size)
{
	const char *v;

	if (strcmp(key, "file") == 0) {
		snprintf(buf, size, "%s", in->label);
		return 1;
	}
	if (result_key(r, key, buf, size))
		return 1;
	v = results_config_get(in->res, key);
	if (v == NULL && strcmp(key, "version") == 0)
		v = results_config_get(in->res, "rxbench-version");
	if (v == NULL)
		return 0;
	snprintf(buf, size, "%s", v);
	return 1;
}

/*
 * r's column label: its run's label, or the value of opts.col.  0 when
 * r has no value of that key ("KEY=-"), or "none" (fqdn's engine=none:
 * a phase or matcher that runs no engine); else 1.
 */
static int col_label(const struct comparison *cmp,
		     const struct compare_input *in, const struct result *r,
		     char *buf, size_t size)
{
	if (cmp->opts.col == NULL) {
		snprintf(buf, size, "%s", in->label);
		return 1;
	}
	if (!key_value(in, r, cmp->opts.col, buf, size)) {
		snprintf(buf, size, "%s=-", cmp->opts.col);
		return 0;
	}
	return strcmp(buf, "none") != 0;
}

/* The name without its level `key=...` (when key is one of its keys). */
static void name_without(const char *name, const char *key, char *buf,
			 size_t size)
{
	size_t klen = key ? strlen(key) : 0;
	const char *p = strchr(name, '/');

	snprintf(buf, size, "%.*s", p ? (int)(p - name) : (int)strlen(name),
		 name);
	while (p != NULL) {
		const char *end = strchr(p + 1, '/');
		int n = end ? (int)(end - p) : (int)strlen(p);
		size_t at = strlen(buf);
		if (!(klen && strncmp(p + 1, key, klen) == 0 &&
		      p[1 + klen] == '='))
			snprintf(buf + at, size - at, "%.*s", n, p);
		p = end;
	}
}

/* r's row label: the --row keys' values, or the name without --col. */
static void row_label(const struct comparison *cmp,
		      const struct compare_input *in, const struct result *r,
		      char *buf, size_t size)
{
	const char *keys = cmp->opts.row;
	size_t at = 0;

	if (keys == NULL) {
		name_without(r->name, cmp->opts.col, buf, size);
		return;
	}
	buf[0] = '\0';
	while (*keys != '\0' && at + 1 < size) {
		size_t n = strcspn(keys, ",");
		char key[64], v[256];
		snprintf(key, sizeof(key), "%.*s", (int)n, keys);
		if (!key_value(in, r, key, v, sizeof(v)))
			snprintf(v, sizeof(v), "-");
		at += (size_t)snprintf(buf + at, size - at, "%s%s=%s",
				       at ? "/" : "", key, v);
		keys += n + (keys[n] == ',');
	}
}

/*
 * Is every cell of line l in a keyless column (payload's base under
 * --col engine)?  Such a line is compared with nothing.
 */
static int line_keyless(const struct comparison *cmp, size_t l)
{
	int any = 0;

	if (cmp->ncols == 0 || cmp->cols[0].keyless)
		return 0; /* no column has the key: they are compared */
	for (size_t c = 0; c < cmp->ncols; c++) {
		if (cmp->cell[l * cmp->ncols + c] == NULL)
			continue;
		if (!cmp->cols[c].keyless)
			return 0;
		any = 1;
	}
	return any;
}

/*
 * Is column c one of keyless results compared with nothing (payload's
 * base under --col engine), rather than a run that lacks the key?
 */
static int col_apart(const struct comparison *cmp, size_t c)
{
	if (!cmp->cols[c].keyless || c == 0)
		return 0;
	for (size_t l = 0; l < cmp->nlines; l++)
		if (cmp->cell[l * cmp->ncols] != NULL &&
		    cmp->cell[l * cmp->ncols + c] != NULL)
			return 0;
	return 1;
}

/* Index of s in a list of n strings, or n. */
static size_t find_str(char *const *list, size_t n, const char *s)
{
	size_t i = 0;

	while (i < n && strcmp(list[i], s) != 0)
		i++;
	return i;
}

static int add_col(struct comparison *cmp, const char *label, size_t in,
		   int keyed)
{
	struct compare_col *grown;

	grown = realloc(cmp->cols, (cmp->ncols + 1) * sizeof(*grown));
	if (grown == NULL)
		return -1;
	cmp->cols = grown;
	cmp->cols[cmp->ncols].label = strdup(label);
	cmp->cols[cmp->ncols].input = in;
	cmp->cols[cmp->ncols].keyless = !keyed;
	return cmp->cols[cmp->ncols++].label == NULL ? -1 : 0;
}

/*
 * The keyless columns after the others, each side in first-seen order:
 * the first column, every change's reference, is one with an engine.
 */
static int keyless_last(struct comparison *cmp)
{
	struct compare_col *v = malloc((cmp->ncols + 1) * sizeof(*v));
	size_t n = 0;

	if (v == NULL)
		return -1;
	for (int pass = 0; pass < 2; pass++)
		for (size_t c = 0; c < cmp->ncols; c++)
			if (cmp->cols[c].keyless == pass)
				v[n++] = cmp->cols[c];
	memcpy(cmp->cols, v, cmp->ncols * sizeof(*v));
	free(v);
	return 0;
}

static int add_line(struct comparison *cmp, const char *label)
{
	char **grown = realloc(cmp->lines, (cmp->nlines + 1) * sizeof(*grown));

	if (grown == NULL)
		return -1;
	cmp->lines = grown;
	cmp->lines[cmp->nlines] = strdup(label);
	return cmp->lines[cmp->nlines++] == NULL ? -1 : 0;
}

/* The columns and row labels of every result, in first-seen order. */
static int place_labels(struct comparison *cmp)
{
	char buf[1024];

	for (size_t f = 0; cmp->opts.col == NULL && f < cmp->nin; f++)
		if (add_col(cmp, cmp->in[f].label, f, 1) != 0)
			return -1; /* a column per run */
	for (size_t f = 0; f < cmp->nin; f++) {
		const struct results *res = cmp->in[f].res;
		for (size_t i = 0; i < res->n; i++) {
			char *const *labels;
			int keyed = col_label(cmp, &cmp->in[f], &res->r[i], buf,
					      sizeof(buf));
			for (size_t c = 0; cmp->opts.col && c <= cmp->ncols;
			     c++) {
				if (c == cmp->ncols) {
					if (add_col(cmp, buf, f, keyed) != 0)
						return -1;
					break;
				}
				if (strcmp(cmp->cols[c].label, buf) == 0)
					break;
			}
			row_label(cmp, &cmp->in[f], &res->r[i], buf, sizeof(buf));
			labels = cmp->lines;
			if (find_str(labels, cmp->nlines, buf) == cmp->nlines &&
			    add_line(cmp, buf) != 0)
				return -1;
		}
	}
	return keyless_last(cmp);
}

/* Whether word is an element of list (words joined by ','). */
static int list_has(const char *list, const char *word)
{
	size_t n = strlen(word);

	for (const char *p = list; *p != '\0'; p += strcspn(p, ",")) {
		p += *p == ',';
		if (strncmp(p, word, n) == 0 && (p[n] == ',' || p[n] == '\0'))
			return 1;
	}
	return 0;
}

/*
 * Append to buf (a list joined by ',') each key of name's levels
 * ("Scan/engine=re2/pattern=x": engine, pattern) not in it already nor
 * equal to skip (may be NULL).
 */
static void name_keys_add(const char *name, const char *skip, char *buf,
			  size_t size)
{
	for (const char *p = strchr(name, '/'); p != NULL;
	     p = strchr(p, '/')) {
		size_t n = strcspn(++p, "=/"), at = strlen(buf);
		char key[64];

		if (p[n] != '=' || n >= sizeof(key))
			continue;
		snprintf(key, sizeof(key), "%.*s", (int)n, p);
		if ((skip != NULL && strcmp(key, skip) == 0) ||
		    list_has(buf, key))
			continue;
		snprintf(buf + at, size - at, "%s%s", at ? "," : "", key);
	}
}

/*
 * The advice when results a (of run fa) and b (of run fb) fall in one
 * cell: the --row keys that tell them apart, every key of their names
 * but --col's, and file when they come from two runs.
 */
static void row_advice(const struct comparison *cmp, const struct result *a,
		       size_t fa, const struct result *b, size_t fb,
		       char *buf, size_t size)
{
	buf[0] = '\0';
	name_keys_add(a->name, cmp->opts.col, buf, size);
	name_keys_add(b->name, cmp->opts.col, buf, size);
	if (fa != fb && (cmp->opts.col == NULL ||
			 strcmp(cmp->opts.col, "file") != 0))
		snprintf(buf + strlen(buf), size - strlen(buf), "%sfile",
			 buf[0] ? "," : "");
}

/*
 * The refusal when r (of run f) falls in cell at, which holds another,
 * into cmp->err: both benchmarks, each with its run (the one there may
 * have another name: --row pattern puts Scan/engine=re2/pattern=foo and
 * Scan/engine=pcre2/pattern=foo of one run in one cell), and the --row
 * keys that tell them apart.
 */
static void cell_clash(struct comparison *cmp, size_t at,
		       const struct result *r, size_t f, const char *row,
		       const char *col)
{
	const struct result *there = cmp->cell[at];
	int same = strcmp(there->name, r->name) == 0;
	char keys[256];

	row_advice(cmp, there, cmp->cell_in[at], r, f, keys, sizeof(keys));
	snprintf(cmp->err, sizeof(cmp->err), "%.200s: two benchmarks in "
		 "column %.80s (%.120s in %.80s, and %.120s%sin %.80s); tell "
		 "them apart with --row %.200s", row, col, there->name,
		 cmp->in[cmp->cell_in[at]].label, same ? "" : r->name,
		 same ? "" : " ", cmp->in[f].label, keys);
}

/* Fill the grid of cells; -2 when two benchmarks fall in one cell. */
static int place_cells(struct comparison *cmp)
{
	char c_buf[1024], r_buf[1024];
	size_t cells = cmp->nlines * cmp->ncols;

	cmp->cell = calloc(cells + 1, sizeof(*cmp->cell));
	cmp->cell_in = calloc(cells + 1, sizeof(*cmp->cell_in));
	if (cmp->cell == NULL || cmp->cell_in == NULL)
		return -1;
	for (size_t f = 0; f < cmp->nin; f++) {
		const struct results *res = cmp->in[f].res;
		for (size_t i = 0; i < res->n; i++) {
			const struct result *r = &res->r[i];
			size_t c, l, at;
			col_label(cmp, &cmp->in[f], r, c_buf, sizeof(c_buf));
			row_label(cmp, &cmp->in[f], r, r_buf, sizeof(r_buf));
			for (c = cmp->opts.col ? 0 : f;
			     strcmp(cmp->cols[c].label, c_buf) != 0;)
				c++;
			l = find_str(cmp->lines, cmp->nlines, r_buf);
			at = l * cmp->ncols + c;
			if (cmp->cell[at] != NULL) {
				cell_clash(cmp, at, r, f, r_buf, c_buf);
				return -2;
			}
			cmp->cell[at] = r;
			cmp->cell_in[at] = f;
		}
	}
	return 0;
}

/* --- inputs ------------------------------------------------------- */

/*
 * Does input x of a differ from b's?  A key whose KEY-sha256 both record
 * and agree on is the same data under another path; engine options are
 * only compared between the same benchmark (--col engine compares
 * engines, each with its own options).
 */
static int input_differs(const struct result *a, const struct result *b,
			 const struct result_input *x)
{
	const struct result_input *y = result_inputs_get(&b->in, x->key);
	const struct result_input *ha, *hb;
	char hkey[160];

	if (y == NULL)
		return 0; /* recorded on one side only: an older file */
	if (y->len == x->len && memcmp(y->value, x->value, x->len) == 0)
		return 0;
	if (strncmp(x->key, "engine-option.", 14) == 0 &&
	    strcmp(a->name, b->name) != 0)
		return 0;
	snprintf(hkey, sizeof(hkey), "%s-sha256", x->key);
	ha = result_inputs_get(&a->in, hkey);
	hb = result_inputs_get(&b->in, hkey);
	return !(ha && hb && ha->len == hb->len &&
		 memcmp(ha->value, hb->value, ha->len) == 0);
}

/* The first input of a that differs from b's, or NULL. */
static const struct result_input *inputs_differ(const struct result *a,
						const struct result *b)
{
	for (size_t i = 0; i < a->in.n; i++)
		if (input_differs(a, b, &a->in.v[i]))
			return &a->in.v[i];
	return NULL;
}

/* An input's bytes for a message: printable ASCII, else \xHH; cut. */
static void quote_bytes(const char *s, size_t len, char *buf, size_t size)
{
	size_t j = 0;

	for (size_t i = 0; i < len && j + 8 < size; i++) {
		unsigned char c = (unsigned char)s[i];
		if (c >= 0x20 && c < 0x7f && c != '"' && c != '\\')
			buf[j++] = (char)c;
		else
			j += (size_t)snprintf(buf + j, size - j, "\\x%02x", c);
	}
	snprintf(buf + j, size - j, "%s", j + 8 >= size ? "..." : "");
}

/*
 * The first input of line l's cell c that differs from the line's
 * reference (*from: its column): the first cell that records inputs, so
 * that a first column from an older file that recorded none does not let
 * two newer runs of different inputs through.  NULL when none differs.
 */
static const struct result_input *line_inputs_differ(
	const struct comparison *cmp, size_t l, size_t c, size_t *from)
{
	const struct result *const *row = cmp->cell + l * cmp->ncols;
	size_t k = 0;

	while (k < cmp->ncols && (row[k] == NULL || row[k]->in.n == 0))
		k++;
	if (k >= cmp->ncols || k == c)
		return NULL;
	*from = k;
	return inputs_differ(row[k], row[c]);
}

/* The refusal of cell c whose input x differs from cell k's.  -2. */
static int refuse_inputs(struct comparison *cmp, size_t l, size_t k,
			 size_t c, const struct result_input *x)
{
	size_t a = l * cmp->ncols + k, b = l * cmp->ncols + c;
	const struct result_input *y =
		result_inputs_get(&cmp->cell[b]->in, x->key);
	char va[80], vb[80];

	quote_bytes(x->value, x->len, va, sizeof(va));
	quote_bytes(y->value, y->len, vb, sizeof(vb));
	snprintf(cmp->err, sizeof(cmp->err), "%.200s: input %.60s differs: "
		 "\"%s\" in %.80s, \"%s\" in %.80s (--show-changed-inputs "
		 "compares them anyway)", cmp->cell[b]->name, x->key, va,
		 cmp->in[cmp->cell_in[a]].label, vb,
		 cmp->in[cmp->cell_in[b]].label);
	return -2;
}

/* --- pairs -------------------------------------------------------- */

static int add_row(struct comparison *cmp, size_t l, size_t c,
		   const char *unit, const char *input_key, const char *primary)
{
	const struct result *ro = cmp->cell[l * cmp->ncols];
	const struct result *rn = cmp->cell[l * cmp->ncols + c];
	const struct metric *mo = result_metric(ro, unit);
	const struct metric *mn = result_metric(rn, unit);
	struct compare_row *row, *grown;

	grown = realloc(cmp->rows, (cmp->nrows + 1) * sizeof(*grown));
	if (grown == NULL)
		return -1;
	cmp->rows = grown;
	row = &cmp->rows[cmp->nrows++];
	memset(row, 0, sizeof(*row));
	*row = (struct compare_row){.old = ro, .new = rn, .line = l, .col = c,
				    .unit = unit, .input_key = input_key,
				    .input_from = cmp->input_from};
	row->better = mo ? mo->better : mn->better;
	row->mode = compare_mode_of(unit, row->better);
	row->change = row->change_lo = row->change_hi = row->p = NAN;
	row->primary = primary != NULL && strcmp(unit, primary) == 0;
	row->derived = primary != NULL && !row->primary &&
		       same_measurement(unit, primary);
	if ((mo && stats_summarize(mo->v, mo->n, cmp->opts.confidence,
				   &row->so) != 0) ||
	    (mn && stats_summarize(mn->v, mn->n, cmp->opts.confidence,
				   &row->sn) != 0))
		return -1;
	if (row->so.n == 0 || row->sn.n == 0)
		return 0;
	if (judge(row, &cmp->opts, mo, mn) != 0)
		return -1;
	if (input_key != NULL)
		row->regression = 0; /* not the same measurement */
	cmp->regressions += (size_t)row->regression;
	cmp->improvements += (size_t)row->improvement;
	cmp->worse += (size_t)(row->significant && !row->improvement &&
			       !row->derived);
	return 0;
}

/* Rows for every metric of line l, column c against the first column. */
static int add_pair(struct comparison *cmp, size_t l, size_t c)
{
	const struct result *ro = cmp->cell[l * cmp->ncols];
	const struct result *rn = cmp->cell[l * cmp->ncols + c];
	const char *primary = primary_unit(&cmp->in[cmp->cell_in[l * cmp->ncols]],
					   ro);
	size_t from = 0;
	const struct result_input *x = line_inputs_differ(cmp, l, c, &from);

	if (x != NULL && !cmp->opts.show_changed_inputs)
		return refuse_inputs(cmp, l, from, c, x);
	cmp->input_changes += x != NULL;
	cmp->input_from = x ? cmp->cell[l * cmp->ncols + from] : NULL;
	if (cmp->opts.gate && x == NULL && !failed_status(ro->status) &&
	    failed_status(rn->status))
		cmp->status_regressions++;
	if (primary == NULL)
		primary = primary_unit(&cmp->in[cmp->cell_in[l * cmp->ncols + c]],
				       rn);
	for (size_t k = 0; k < ro->nm; k++)
		if (add_row(cmp, l, c, ro->m[k].unit, x ? x->key : NULL,
			    primary) != 0)
			return -1;
	for (size_t k = 0; k < rn->nm; k++)
		if (result_metric(ro, rn->m[k].unit) == NULL &&
		    add_row(cmp, l, c, rn->m[k].unit, x ? x->key : NULL,
			    primary) != 0)
			return -1;
	return 0;
}

/* Every pair: each line's cells against its first column's. */
static int add_pairs(struct comparison *cmp)
{
	for (size_t l = 0; l < cmp->nlines; l++) {
		size_t before = cmp->regressions;
		if (cmp->cell[l * cmp->ncols] == NULL)
			continue;
		for (size_t c = 1; c < cmp->ncols; c++) {
			int rc = cmp->cell[l * cmp->ncols + c] == NULL
					 ? 0
					 : add_pair(cmp, l, c);
			if (rc != 0)
				return rc;
		}
		cmp->regressed += cmp->regressions > before;
	}
	return 0;
}

/* Whether a result of some run has a value of key (key_value). */
static int key_known(const struct comparison *cmp, const char *key)
{
	char v[256];

	for (size_t f = 0; f < cmp->nin; f++)
		for (size_t i = 0; i < cmp->in[f].res->n; i++)
			if (key_value(&cmp->in[f], &cmp->in[f].res->r[i], key, v,
				      sizeof(v)))
				return 1;
	return 0;
}

/*
 * -2 with a one-line reason in cmp->err when --col's key, or one of
 * --row's, is a key no result of any run has (a typo, --col engines,
 * made one column of every result and compared nothing), naming the
 * keys its names have; else 0.
 */
static int check_key(struct comparison *cmp, const char *opt,
		     const char *key, size_t len)
{
	char k[64], names[256] = "";

	snprintf(k, sizeof(k), "%.*s", (int)len, key);
	if (len < sizeof(k) && key_known(cmp, k))
		return 0;
	for (size_t f = 0; f < cmp->nin; f++)
		for (size_t i = 0; i < cmp->in[f].res->n; i++)
			name_keys_add(cmp->in[f].res->r[i].name, NULL, names,
				      sizeof(names));
	snprintf(cmp->err, sizeof(cmp->err), "%s %s: no benchmark or run "
		 "has that key (the names' keys: %s; a run's: file, host, cpu, "
		 "kernel, version and its other config keys)", opt, k,
		 names[0] ? names : "none");
	return -2;
}

/* -2 with the reason in cmp->err: an empty key in opt's value v. */
static int empty_key(struct comparison *cmp, const char *opt, const char *v)
{
	snprintf(cmp->err, sizeof(cmp->err), "%s '%.200s': an empty key (keys "
		 "are joined by ',': --row engine,pattern)", opt, v);
	return -2;
}

/* check_key() of --col's key and of each of --row's (none empty). */
static int check_keys(struct comparison *cmp)
{
	const char *col = cmp->opts.col, *row = cmp->opts.row;
	size_t n;

	if (col != NULL && *col == '\0')
		return empty_key(cmp, "--col", col);
	if (col != NULL && check_key(cmp, "--col", col, strlen(col)) != 0)
		return -2;
	for (const char *k = row; k != NULL; k = k[n] ? k + n + 1 : NULL) {
		n = strcspn(k, ",");
		if (n == 0)
			return empty_key(cmp, "--row", row);
		if (check_key(cmp, "--row", k, n) != 0)
			return -2;
	}
	return 0;
}

/*
 * -2 with a one-line reason in cmp->err when --col put every benchmark
 * with the key in one column (one run's --col file or host, or its one
 * engine): nothing to compare, where it printed the columns' header and
 * exited 0; else 0.
 */
static int check_cols(struct comparison *cmp)
{
	size_t keyed = 0;

	for (size_t c = 0; c < cmp->ncols; c++)
		keyed += !cmp->cols[c].keyless;
	if (cmp->opts.col == NULL || keyed != 1)
		return 0;
	snprintf(cmp->err, sizeof(cmp->err), "--col %.64s: every benchmark "
		 "falls in one column, %.200s: nothing to compare it with "
		 "(name another run, or a key with several values)",
		 cmp->opts.col, cmp->cols[0].label);
	return -2;
}

int compare_runs(const struct compare_input *in, size_t n,
		 const struct compare_opts *o, struct comparison *cmp)
{
	int rc;

	memset(cmp, 0, sizeof(*cmp));
	cmp->opts = *o;
	cmp->in = in;
	cmp->nin = n;
	rc = check_keys(cmp);
	if (rc == 0)
		rc = place_labels(cmp);
	if (rc == 0)
		rc = check_cols(cmp);
	if (rc == 0)
		rc = place_cells(cmp);
	if (rc == 0)
		rc = add_pairs(cmp);
	return rc;
}

int compare_results(const struct results *old, const struct results *new,
		    const struct compare_opts *o, struct comparison *cmp)
{
	struct compare_input pair[2] = {{o->old_name, old}, {o->new_name, new}};
	int rc = compare_runs(pair, 2, o, cmp);

	/* the labels and results outlive cmp; the array must too */
	cmp->pair[0] = pair[0];
	cmp->pair[1] = pair[1];
	cmp->in = cmp->pair;
	return rc;
}

void comparison_release(struct comparison *cmp)
{
	for (size_t i = 0; i < cmp->ncols; i++)
		free(cmp->cols[i].label);
	for (size_t i = 0; i < cmp->nlines; i++)
		free(cmp->lines[i]);
	free(cmp->cols);
	free(cmp->lines);
	free(cmp->cell);
	free(cmp->cell_in);
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
	if (isnan(row->change)) /* "?": both sides, a base of 0 or less */
		snprintf(buf, size, row->so.n && row->sn.n ? "?" : " ");
	else if (!row->significant)
		snprintf(buf, size, "~");
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
		snprintf(buf, size, "%s n=%zu+%zu",
			 unit_constant(row->unit) ? "constant" : "counted",
			 row->so.n, row->sn.n);
	else if (isnan(row->p))
		snprintf(buf, size, "n=%zu+%zu too few", row->so.n, row->sn.n);
	else
		snprintf(buf, size, "p=%.3f n=%zu+%zu", row->p, row->so.n,
			 row->sn.n);
}

/* --- tables ------------------------------------------------------- */

/* Append to a unit's caption which of its rows are derived (not counted). */
static void derived_note(const struct comparison *cmp, const char *unit,
			 char *buf, size_t size)
{
	size_t all = 0, derived = 0, at = strlen(buf);

	for (size_t i = 0; i < cmp->nrows; i++) {
		if (strcmp(cmp->rows[i].unit, unit) != 0)
			continue;
		all++;
		derived += (size_t)cmp->rows[i].derived;
	}
	if (derived == all && all > 0)
		snprintf(buf + at, size - at, "; from the measurement of the "
			 "metric each benchmark is judged by: shown, not "
			 "counted again");
	else if (derived > 0)
		snprintf(buf + at, size - at, "; %zu of %zu changes from the "
			 "measurement of another metric their benchmark is "
			 "judged by: shown, not counted again", derived, all);
}

/* "0.0%" for --threshold=0.004, "p < 0.00" for --alpha=0.001 and
 * "p < 0.01" for 0.005 hid what a change is held to. */
void compare_digits_text(double v, int min, char *buf, size_t size)
{
	if (v == 0)
		v = 0; /* -0 */
	for (int d = min; d <= 9; d++) {
		snprintf(buf, size, "%.*f", d, v);
		if (fabs(strtod(buf, NULL) - v) <= 1e-9 * fabs(v))
			return;
	}
	snprintf(buf, size, "%g", v);
}

static void caption_of(const struct compare_row *first,
		       const struct comparison *cmp, char *buf, size_t size)
{
	const struct compare_opts *o = &cmp->opts;
	const char *base = cmp->ncols > 2 ? "; changes against the first column"
					  : "";
	char alpha[48];
	enum compare_mode mode = first->mode;
	enum metric_better better = first->better;

	compare_digits_text(o->alpha, 2, alpha, sizeof(alpha));
	if (mode == COMPARE_EXACT)
		snprintf(buf, size, "exact: the median of each side; any "
			 "change matters, no p-value%s", base);
	else if (mode == COMPARE_DETERMINISTIC && unit_constant(first->unit))
		snprintf(buf, size, "constant by construction (what was "
			 "built), lower is better: the median of each side; "
			 "no p-value%s", base);
	else if (mode == COMPARE_DETERMINISTIC)
		snprintf(buf, size, "counted, lower is better: the median of "
			 "each side; deterministic, so no p-value%s", base);
	else
		snprintf(buf, size, "%s is better: median ± %.0f%% confidence "
			 "interval; the change only when significant "
			 "(p < %s), else ~%s",
			 better == BETTER_HIGHER ? "higher" : "lower",
			 100 * o->confidence, alpha, base);
	derived_note(cmp, first->unit, buf, size);
}

/* A lone cell's summary (no pair behind it): row 0 of a fake pair. */
static int lone_summary(const struct comparison *cmp, const struct result *r,
			const char *unit, char *buf, size_t size)
{
	const struct metric *m = r ? result_metric(r, unit) : NULL;
	struct compare_row row = {.unit = unit};

	if (r == NULL) {
		snprintf(buf, size, "-");
		return 0;
	}
	if (m != NULL) {
		row.better = m->better;
		row.mode = compare_mode_of(unit, m->better);
		if (stats_summarize(m->v, m->n, cmp->opts.confidence,
				    &row.so) != 0)
			return -1;
	}
	summary_text(&row.so, r, &row, buf, size);
	return 0;
}

/* The median of line l, column c's metric unit, or NAN. */
static double cell_median(const struct comparison *cmp, size_t l, size_t c,
			  const char *unit)
{
	const struct result *r = cmp->cell[l * cmp->ncols + c];
	const struct metric *m = r ? result_metric(r, unit) : NULL;
	struct stats_summary s;

	if (m == NULL || stats_summarize(m->v, m->n, 0.95, &s) != 0 || s.n == 0)
		return NAN;
	return s.median;
}

/* The cells of line l in a unit's table; idx[c]: its pair row + 1. */
static int line_cells(struct rtable *t, const struct comparison *cmp,
		      size_t l, const char *unit, const size_t *idx)
{
	char buf[160];
	long r = rtable_row(t);
	int rc;

	if (r < 0)
		return -1;
	rc = rtable_text(t, r, 0, cmp->lines[l]);
	for (size_t c = 0; c < cmp->ncols && rc == 0; c++) {
		const struct compare_row *row = idx[c] ? &cmp->rows[idx[c] - 1]
						       : NULL;
		size_t at = c == 0 ? 1 : 2 + 3 * (c - 1);
		if (row != NULL && c > 0)
			summary_text(&row->sn, row->new, row, buf, sizeof(buf));
		else if (c == 0 && row == NULL) {
			for (size_t k = 1; k < cmp->ncols && row == NULL; k++)
				row = idx[k] ? &cmp->rows[idx[k] - 1] : NULL;
			if (row != NULL)
				summary_text(&row->so, row->old, row, buf,
					     sizeof(buf));
			else if (lone_summary(cmp, cmp->cell[l * cmp->ncols],
					      unit, buf, sizeof(buf)) != 0)
				return -1;
			row = NULL;
		} else if (lone_summary(cmp, cmp->cell[l * cmp->ncols + c],
					unit, buf, sizeof(buf)) != 0) {
			return -1;
		}
		rc |= rtable_text(t, r, at, buf);
		rtable_cell(t, (size_t)r, at)->v = cell_median(cmp, l, c, unit);
		if (c == 0 || row == NULL)
			continue;
		change_text(row, buf, sizeof(buf));
		if (row->input_key != NULL)
			snprintf(buf + strlen(buf), sizeof(buf) - strlen(buf),
				 " (inputs differ)");
		rc |= rtable_text(t, r, at + 1, buf);
		rtable_cell(t, (size_t)r, at + 1)->v = row->change;
		rtable_cell(t, (size_t)r, at + 1)->strong = row->regression;
		p_text(row, buf, sizeof(buf));
		rc |= rtable_text(t, r, at + 2, buf);
	}
	return rc;
}

/*
 * The geomean row of a unit's table over the lines shown with a positive
 * median in every column, when two or more such lines are.
 */
static int geomean_row(struct rtable *t, const struct comparison *cmp,
		       const char *unit, const unsigned char *shown)
{
	size_t nc = cmp->ncols, m = 0;
	double *v = malloc((cmp->nlines * nc + 1) * sizeof(*v)), base = 1;
	char buf[64];
	long r;
	int rc = 0;

	if (v == NULL)
		return -1;
	for (size_t l = 0; l < cmp->nlines; l++) {
		size_t c = 0;
		for (; shown[l] && c < nc; c++) {
			v[m * nc + c] = cell_median(cmp, l, c, unit);
			if (!(v[m * nc + c] > 0))
				break;
		}
		m += shown[l] && c == nc;
	}
	if (m < 2)
		goto out;
	r = rtable_row(t);
	rc = r < 0 ? -1 : rtable_text(t, r, 0, "geomean");
	for (size_t c = 0; c < nc && rc == 0; c++) {
		double *col = malloc(m * sizeof(*col)), g;
		if (col == NULL) {
			rc = -1;
			break;
		}
		for (size_t i = 0; i < m; i++)
			col[i] = v[i * nc + c];
		g = stats_geomean(col, m, NULL);
		free(col);
		base = c == 0 ? g : base;
		gofmt_number(g, unit, buf, sizeof(buf));
		rc |= rtable_text(t, r, c == 0 ? 1 : 2 + 3 * (c - 1), buf);
		rtable_cell(t, (size_t)r, c == 0 ? 1 : 2 + 3 * (c - 1))->v = g;
		if (c == 0)
			continue;
		snprintf(buf, sizeof(buf), "%+.2f%%", 100 * (g / base - 1));
		rc |= rtable_text(t, r, 3 + 3 * (c - 1), buf);
		rtable_cell(t, (size_t)r, 3 + 3 * (c - 1))->v = g / base - 1;
	}
out:
	free(v);
	return rc;
}

/* A unit's table: its columns named. */
static struct rtable *unit_table_new(const struct comparison *cmp,
				     const struct compare_row *first,
				     struct rtables *out)
{
	char caption[512];
	size_t n = 2 + 3 * (cmp->ncols - 1);
	struct rtable *t;
	int rc;

	caption_of(first, cmp, caption, sizeof(caption));
	t = rtable_new(out, RTABLE_CHANGES, first->unit, caption, n);
	if (t == NULL)
		return NULL;
	rc = rtable_col(t, 0, "benchmark", 0) |
	     rtable_col(t, 1, cmp->cols[0].label, 1);
	for (size_t c = 1; c < cmp->ncols; c++)
		rc |= rtable_col(t, 2 + 3 * (c - 1), cmp->cols[c].label, 1) |
		      rtable_col(t, 3 + 3 * (c - 1), "change", 1) |
		      rtable_col(t, 4 + 3 * (c - 1), "p", 0);
	return rc == 0 ? t : NULL;
}

static int unit_table(const struct comparison *cmp, const char *unit,
		      struct rtables *out)
{
	size_t nc = cmp->ncols;
	size_t *idx = calloc(cmp->nlines * nc + 1, sizeof(*idx));
	unsigned char *shown = calloc(cmp->nlines + 1, 1);
	const struct compare_row *first = NULL;
	struct rtable *t;
	int rc = -1;

	if (idx == NULL || shown == NULL)
		goto out;
	for (size_t i = 0; i < cmp->nrows; i++) {
		const struct compare_row *row = &cmp->rows[i];
		if (strcmp(row->unit, unit) != 0)
			continue;
		first = first ? first : row;
		idx[row->line * nc + row->col] = i + 1;
		shown[row->line] = 1;
	}
	rc = 0;
	if (first == NULL)
		goto out;
	t = unit_table_new(cmp, first, out);
	rc = t == NULL ? -1 : 0;
	for (size_t l = 0; l < cmp->nlines && rc == 0; l++)
		if (shown[l])
			rc = line_cells(t, cmp, l, unit, idx + l * nc);
	if (rc == 0)
		rc = geomean_row(t, cmp, unit, shown);
out:
	free(idx);
	free(shown);
	return rc;
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

/* --- prose ------------------------------------------------------- */

/*
 * How the lines around the tables are written: plain text (the
 * terminal's, and the HTML page's <pre>) or Markdown.  put writes a
 * string from the results (Markdown escapes it); item leads a line
 * listed under a heading, lead a line of its own (a summary, a config
 * change); strong brackets a heading or the verdict; gap follows a
 * heading and ends a list (Markdown needs a blank line there).
 */
struct prose {
	void (*put)(FILE *out, const char *s);
	const char *item, *lead, *strong, *gap;
};

static void put_plain(FILE *out, const char *s)
{
	fputs(s, out);
}

static const struct prose prose_text = {put_plain, "  ", "", "", ""};
static const struct prose prose_md = {md_text, "- ", "- ", "**", "\n"};

/* Lines with a cell in a column with a key but none in column c. */
static size_t count_missing(const struct comparison *cmp, size_t c)
{
	size_t n = 0;

	for (size_t l = 0; l < cmp->nlines; l++)
		n += cmp->cell[l * cmp->ncols + c] == NULL &&
		     !line_keyless(cmp, l);
	return n;
}

/*
 * The lines only keyless columns have (payload's base under --col
 * engine: the harness with no engine), once rather than under every
 * column that lacks them.
 */
static void list_keyless(FILE *out, const struct comparison *cmp,
			 const struct prose *how)
{
	size_t n = 0;

	for (size_t l = 0; l < cmp->nlines; l++)
		n += (size_t)line_keyless(cmp, l);
	if (n == 0)
		return;
	fprintf(out, "%sWithout %s (compared with nothing) (%zu)%s:\n%s",
		how->strong, cmp->opts.col, n, how->strong,
		how->gap);
	for (size_t l = 0; l < cmp->nlines; l++) {
		if (!line_keyless(cmp, l))
			continue;
		fputs(how->item, out);
		how->put(out, cmp->lines[l]);
		fputc('\n', out);
	}
	fputc('\n', out);
}

/*
 * The lines a column lacks ("Only in B" with two columns: what A lacks),
 * status changes against the first column, and pairs with other inputs.
 */
static void write_lists(FILE *out, const struct comparison *cmp,
			const struct prose *how)
{
	const char *item = how->item, *b = how->strong;
	size_t nc = cmp->ncols;

	for (size_t k = 0; k < nc; k++) {
		/* two columns: what the second lacks is "Only in" the first */
		size_t c = nc == 2 ? 1 - k : k, n = count_missing(cmp, c);
		if (n == 0 || col_apart(cmp, c))
			continue;
		fprintf(out, "%s%s ", b, nc == 2 ? "Only in" : "Not in");
		how->put(out, cmp->cols[nc == 2 ? 1 - c : c].label);
		fprintf(out, " (%zu)%s:\n%s", n, b, how->gap);
		for (size_t l = 0; l < cmp->nlines; l++) {
			if (cmp->cell[l * nc + c] != NULL ||
			    line_keyless(cmp, l))
				continue;
			fputs(item, out);
			how->put(out, cmp->lines[l]);
			fputc('\n', out);
		}
		fputc('\n', out);
	}
	list_keyless(out, cmp, how);
	for (size_t l = 0; l < cmp->nlines; l++) {
		const struct result *ro = cmp->cell[l * nc];
		for (size_t c = 1; ro != NULL && c < nc; c++) {
			const struct result *rn = cmp->cell[l * nc + c];
			if (rn == NULL || rn->status == ro->status)
				continue;
			fprintf(out, "%sstatus changed: ", item);
			how->put(out, cmp->lines[l]);
			fprintf(out, ": %s -> %s", result_status_name(ro->status),
				result_status_name(rn->status));
			if (nc > 2) {
				fputs(" in ", out);
				how->put(out, cmp->cols[c].label);
			}
			if (rn->message != NULL) {
				fputs(" (", out);
				how->put(out, rn->message);
				fputc(')', out);
			}
			fputs("\n", out);
		}
	}
}

/* Does any benchmark of res record its inputs? */
static int records_inputs(const struct results *res)
{
	for (size_t i = 0; i < res->n; i++)
		if (res->r[i].in.n > 0)
			return 1;
	return 0;
}

/*
 * The runs that record no inputs (older files, Go text): paired by name
 * alone; then the pairs compared although an input differs
 * (--show-changed-inputs).
 */
static void list_input_changes(FILE *out, const struct comparison *cmp,
			       const struct prose *how)
{
	const struct compare_row *last = NULL;
	char va[80], vb[80];

	for (size_t f = 0; f < cmp->nin; f++) {
		if (records_inputs(cmp->in[f].res))
			continue;
		fputs("note: ", out);
		how->put(out, cmp->in[f].label);
		fputs(" records no inputs (Go text, or results before format "
		      "version 2): its benchmarks are paired by name alone\n\n",
		      out);
	}
	if (cmp->input_changes == 0)
		return;
	fprintf(out, "%s%zu %s compared although an input differs (never a "
		"regression):%s\n%s", how->strong, cmp->input_changes,
		cmp->input_changes == 1 ? "pair" : "pairs", how->strong,
		how->gap);
	for (size_t i = 0; i < cmp->nrows; i++) {
		const struct compare_row *row = &cmp->rows[i];
		const struct result_input *x, *y;
		if (row->input_key == NULL ||
		    (last && last->old == row->old && last->new == row->new))
			continue;
		last = row;
		x = result_inputs_get(&row->input_from->in, row->input_key);
		y = result_inputs_get(&row->new->in, row->input_key);
		quote_bytes(x->value, x->len, va, sizeof(va));
		quote_bytes(y->value, y->len, vb, sizeof(vb));
		fputs(how->item, out);
		how->put(out, cmp->lines[row->line]);
		fprintf(out, " in ");
		how->put(out, cmp->cols[row->col].label);
		fprintf(out, ": %s \"%s\" -> \"%s\"\n", row->input_key, va, vb);
	}
	fputc('\n', out);
}

static const char *plural(size_t n, const char *one, const char *many)
{
	return n == 1 ? one : many;
}

/* The regressed rows, one per line. */
static void list_regressions(FILE *out, const struct comparison *cmp,
			     const struct prose *how)
{
	char buf[64];

	for (size_t i = 0; i < cmp->nrows; i++) {
		const struct compare_row *row = &cmp->rows[i];
		if (!row->regression)
			continue;
		change_text(row, buf, sizeof(buf));
		fputs(how->item, out);
		how->put(out, cmp->lines[row->line]);
		if (cmp->ncols > 2) {
			fputs(" in ", out);
			how->put(out, cmp->cols[row->col].label);
		}
		fprintf(out, " %s: %s\n", row->unit, buf);
	}
}

/* --- the summary: benchmarks, each judged once ------------------- */

void compare_tally(const struct comparison *cmp, size_t c,
		   struct compare_tally *t)
{
	size_t nc = cmp->ncols, judged = 0;

	memset(t, 0, sizeof(*t));
	t->timed = 1;
	for (size_t l = 0; l < cmp->nlines; l++) {
		int first = cmp->cell[l * nc] != NULL;
		int here = cmp->cell[l * nc + c] != NULL;
		t->lacks += first && !here;
		t->extra += !first && here && !line_keyless(cmp, l);
		t->both += first && here;
	}
	for (size_t i = 0; i < cmp->nrows; i++) {
		const struct compare_row *row = &cmp->rows[i];
		size_t n = row->so.n < row->sn.n ? row->so.n : row->sn.n;
		if (row->col != c || !row->primary || n == 0)
			continue;
		judged++;
		t->timed &= unit_timed(row->unit);
		if (row->input_key != NULL) {
			t->inputs++;
		} else if (isnan(row->change)) {
			t->noratio++;
		} else if (row->mode == COMPARE_STAT && isnan(row->p)) {
			t->nmin = t->untested == 0 || n < t->nmin ? n : t->nmin;
			t->nmax = n > t->nmax ? n : t->nmax;
			t->untested++;
		} else {
			t->better += (size_t)row->improvement;
			t->worse += (size_t)(row->significant && !row->improvement);
			t->same += (size_t)!row->significant;
		}
	}
	t->unjudged = t->both - judged;
}

/*
 * "ns/op (scan, fqdn) and Mpps (payload)": the primary units of column
 * c, each with the suites it is so in.  0, or -1 out of memory.
 */
static int write_primaries(FILE *out, const struct comparison *cmp,
			   size_t c, const struct prose *how)
{
	struct strlist units = {0}, pairs = {0};
	char pair[256];
	int rc = 0;

	for (size_t i = 0; i < cmp->nrows && rc == 0; i++) {
		const struct compare_row *row = &cmp->rows[i];
		if (row->col != c || !row->primary)
			continue;
		snprintf(pair, sizeof(pair), "%s\t%s", row->unit, row->old->suite);
		rc = strlist_add(&units, row->unit, strlen(row->unit)) |
		     strlist_add(&pairs, pair, strlen(pair));
	}
	for (size_t u = 0; u < units.n; u++) {
		size_t len = strlen(units.s[u]), k = 0;
		fputs(u == 0 ? "" : u + 1 < units.n ? ", " : " and ", out);
		how->put(out, units.s[u]);
		for (size_t i = 0; i < pairs.n; i++) {
			if (strncmp(pairs.s[i], units.s[u], len) != 0 ||
			    pairs.s[i][len] != '\t')
				continue;
			fputs(k++ ? ", " : " (", out);
			how->put(out, pairs.s[i] + len + 1);
		}
		fputs(k ? ")" : "", out);
	}
	strlist_release(&units);
	strlist_release(&pairs);
	return rc;
}

/* ", 3 WORD" when n > 0 (the first item without its comma). */
static void count_item(FILE *out, size_t n, const char *word, int *first)
{
	if (n == 0)
		return;
	fprintf(out, "%s%zu %s", *first ? " " : ", ", n, word);
	*first = 0;
}

/* The line counting column c's benchmarks by the metric judged. */
static void summary_counts(FILE *out, const struct comparison *cmp, size_t c,
			   const struct compare_tally *t,
			   const struct prose *how)
{
	int first = 1;

	how->put(out, cmp->cols[c].label);
	fputs(" against ", out);
	how->put(out, cmp->cols[0].label);
	fputs(", by ", out);
	if (t->both == t->unjudged)
		fputs("no metric (none measured on both sides)", out);
	write_primaries(out, cmp, c, how);
	fprintf(out, ": of %zu %s in both,", t->both,
		plural(t->both, "benchmark", "benchmarks"));
	count_item(out, t->better, t->timed ? "faster" : "better", &first);
	count_item(out, t->worse, t->timed ? "slower" : "worse", &first);
	count_item(out, t->same, "unchanged", &first);
	count_item(out, t->untested, "untested", &first);
	count_item(out, t->noratio, "with no ratio (a base of 0 or less)",
		   &first);
	count_item(out, t->inputs, "on other inputs (never a change)", &first);
	count_item(out, t->unjudged, "failed or unsupported on a side", &first);
	if (first)
		fputs(" none compared", out);
	if (t->lacks > 0) {
		fprintf(out, "; %zu only in ", t->lacks);
		how->put(out, cmp->cols[0].label);
	}
	if (t->extra > 0) {
		fprintf(out, "; %zu only in ", t->extra);
		how->put(out, cmp->cols[c].label);
	}
	fputs(".\n", out);
}

/*
 * The one line on what to run when benchmarks were too few to test, over
 * every column: how many samples they had, and STATS_COUNT_ADVICE.
 */
static void summary_advice(FILE *out, const struct comparison *cmp,
			   const struct prose *how)
{
	size_t untested = 0, nmin = 0, nmax = 0;

	for (size_t c = 1; c < cmp->ncols; c++) {
		struct compare_tally t;
		compare_tally(cmp, c, &t);
		if (t.untested == 0)
			continue;
		nmin = untested == 0 || t.nmin < nmin ? t.nmin : nmin;
		nmax = t.nmax > nmax ? t.nmax : nmax;
		untested += t.untested;
	}
	if (untested == 0)
		return;
	fprintf(out, "%suntested: %zu", how->lead, nmin);
	if (nmax > nmin)
		fprintf(out, " to %zu", nmax);
	fprintf(out, " %s a side is too few for the U test; run with "
		STATS_COUNT_ADVICE " (make bench does).\n",
		plural(nmax, "sample", "samples"));
}

/*
 * What "± ∞" in a cell means, once, when a cell shows it: a median's
 * interval needs more samples than the U test (6 against 4 at 95%), so
 * the advised --count leaves it open, as benchstat's footnote says.
 */
static void summary_ci_note(FILE *out, const struct comparison *cmp,
			    const struct prose *how)
{
	size_t nmax = 0;
	int open = 0;

	for (size_t i = 0; i < cmp->nrows; i++) {
		const struct compare_row *row = &cmp->rows[i];
		const struct stats_summary *side[2] = {&row->so, &row->sn};
		for (int k = 0; k < 2 && row->mode == COMPARE_STAT; k++) {
			const struct stats_summary *st = side[k];
			if (st->n == 0 || st->min == st->max ||
			    !(isinf(st->lo) || isinf(st->hi)))
				continue;
			open = 1;
			nmax = st->n > nmax ? st->n : nmax;
		}
	}
	if (open)
		fprintf(out, "%s± ∞: a median's %.0f%% confidence interval "
			"needs %zu samples or more (these have %zu at most); "
			"the change and p need %d.\n", how->lead,
			100 * cmp->opts.confidence,
			stats_ci_min_samples(cmp->opts.confidence), nmax,
			STATS_UTEST_MIN_N);
}

/*
 * Column c's counted metrics other than the primaries that changed
 * ("other metrics, measured apart: allocs/op 2 worse, 1 better;
 * matches 1 changed"), one line when there is any.
 */
static void summary_others(FILE *out, const struct comparison *cmp, size_t c,
			   const struct prose *how)
{
	struct strlist changed = {0};

	for (size_t i = 0; i < cmp->nrows; i++) {
		const struct compare_row *row = &cmp->rows[i];
		if (row->col == c && !row->primary && !row->derived &&
		    row->input_key == NULL && row->significant &&
		    strlist_add(&changed, row->unit, strlen(row->unit)) != 0)
			break;
	}
	for (size_t k = 0; k < changed.n; k++) {
		size_t better = 0, worse = 0;
		int exact = 0;
		for (size_t i = 0; i < cmp->nrows; i++) {
			const struct compare_row *row = &cmp->rows[i];
			if (row->col != c || row->primary || row->derived ||
			    row->input_key || !row->significant ||
			    strcmp(row->unit, changed.s[k]) != 0)
				continue;
			better += (size_t)row->improvement;
			worse += (size_t)!row->improvement;
			exact = row->mode == COMPARE_EXACT;
		}
		fputs(k ? "; " : how->lead, out);
		fputs(k ? "" : "other metrics, measured apart: ", out);
		how->put(out, changed.s[k]);
		if (worse)
			fprintf(out, " %zu %s", worse, exact ? "changed" : "worse");
		if (better)
			fprintf(out, "%s %zu better", worse ? "," : "", better);
	}
	if (changed.n > 0)
		fputs(".\n", out);
	strlist_release(&changed);
}

/*
 * The derived metrics of every column, once, by suite: "MB/s (scan);
 * ns/op, Gbps, %linerate and cores (payload): ...".
 */
static void summary_derived(FILE *out, const struct comparison *cmp,
			    const struct prose *how)
{
	struct strlist suites = {0}, units = {0};
	char pair[256];

	for (size_t i = 0; i < cmp->nrows; i++) {
		const struct compare_row *row = &cmp->rows[i];
		snprintf(pair, sizeof(pair), "%s\t%s", row->old->suite, row->unit);
		if (row->derived &&
		    (strlist_add(&suites, row->old->suite,
				 strlen(row->old->suite)) != 0 ||
		     strlist_add(&units, pair, strlen(pair)) != 0))
			break;
	}
	for (size_t k = 0; k < suites.n; k++) {
		size_t len = strlen(suites.s[k]), n = 0, m = 0;
		for (size_t i = 0; i < units.n; i++)
			n += strncmp(units.s[i], suites.s[k], len) == 0 &&
			     units.s[i][len] == '\t';
		fputs(k ? "; " : how->lead, out);
		for (size_t i = 0; i < units.n; i++) {
			if (strncmp(units.s[i], suites.s[k], len) != 0 ||
			    units.s[i][len] != '\t')
				continue;
			fputs(m == 0 ? "" : m + 1 == n ? " and " : ", ", out);
			m++;
			how->put(out, units.s[i] + len + 1);
		}
		fputs(" (", out);
		how->put(out, suites.s[k]);
		fputs(")", out);
	}
	if (suites.n > 0)
		fputs(": from the same measurement as the metric each benchmark "
		      "is judged by; shown, not counted again.\n", out);
	strlist_release(&suites);
	strlist_release(&units);
}

/* Column c against the first: its counts, then its other metrics. */
static void summary(FILE *out, const struct comparison *cmp, size_t c,
		    const struct prose *how)
{
	struct compare_tally t;

	if (col_apart(cmp, c))
		return; /* compared with nothing: listed apart */
	compare_tally(cmp, c, &t);
	fputs(how->lead, out);
	summary_counts(out, cmp, c, &t, how);
	summary_others(out, cmp, c, how);
}

void compare_write_summary(FILE *out, const struct comparison *cmp,
			   size_t c, const char *lead)
{
	struct prose how = prose_text;

	how.lead = lead;
	summary(out, cmp, c, &how);
}

void compare_write_advice(FILE *out, const struct comparison *cmp,
			  const char *lead)
{
	struct prose how = prose_text;

	how.lead = lead;
	summary_advice(out, cmp, &how);
	summary_derived(out, cmp, &how);
}

/*
 * A run timed on a loaded machine (its context's "busy", which run
 * records when the load average exceeded half the CPUs) is named once:
 * between two such runs of one build, changes of 8 to 35% passed the U
 * test at 4 to 6 samples, so its wall-time verdicts are the load's as
 * much as the change's.  Instruction counts are not affected.
 */
static void summary_load(FILE *out, const struct comparison *cmp,
			 const struct prose *how)
{
	for (size_t i = 0; i < cmp->nin; i++) {
		const char *busy = results_config_get(cmp->in[i].res, "busy");
		const char *m = results_config_get(cmp->in[i].res, "measure");
		if (busy == NULL || (m != NULL && strncmp(m, "instructions", 12) == 0))
			continue;
		fprintf(out, "%sloaded: %s was timed with %s; its changes may be "
			"that work's (--measure=instructions counts exactly)\n",
			how->lead, cmp->in[i].label, busy);
	}
}

/* --threshold's verdict: ok, or FAIL and the regressions. */
static void gate(FILE *out, const struct comparison *cmp,
		 const struct prose *how)
{
	const char *b = how->strong;
	char t[48];

	if (!cmp->opts.gate) {
		fputs("no --threshold, so no verdict.\n", out);
		return;
	}
	compare_digits_text(100 * cmp->opts.threshold, 1, t, sizeof(t));
	if (!compare_failed(cmp)) {
		fprintf(out, "%sok: no regression beyond %s%%%s\n", b, t, b);
		return;
	}
	fprintf(out, "%sFAIL: %zu %s regressed beyond %s%% (%zu %s), %zu "
		"%s newly failing%s\n", b, cmp->regressed,
		plural(cmp->regressed, "benchmark", "benchmarks"),
		t, cmp->regressions,
		plural(cmp->regressions, "metric", "metrics"),
		cmp->status_regressions,
		plural(cmp->status_regressions, "benchmark", "benchmarks"), b);
	fputs(how->gap, out);
	list_regressions(out, cmp, how);
}

/*
 * Each column's summary against the first, the advice and the derived
 * metrics once, then the gate's verdict.
 */
static void verdict(FILE *out, const struct comparison *cmp,
		    const struct prose *how)
{
	for (size_t c = 1; c < cmp->ncols; c++)
		summary(out, cmp, c, how);
	summary_advice(out, cmp, how);
	summary_ci_note(out, cmp, how);
	summary_derived(out, cmp, how);
	summary_load(out, cmp, how);
	if (cmp->ncols > 1)
		fputs(how->gap, out);
	gate(out, cmp, how);
}

/*
 * Whether a configuration line shows when it differs: every one but
 * the per-run context, where the measure (time, wall, instructions)
 * still shows: runs measured differently are not the same measurement.
 */
static int config_shown(const struct config_pair *c)
{
	return !c->meta || strcmp(c->key, "measure") == 0;
}

/* Configuration lines (config_shown) of run f unlike run 0's. */
static void config_diff_run(FILE *out, const struct comparison *cmp,
			    size_t f, const struct prose *how)
{
	const struct results *side[2] = {cmp->in[0].res, cmp->in[f].res};

	for (int s = 0; s < 2; s++) {
		const struct results *a = side[s], *b = side[1 - s];
		for (size_t i = 0; i < a->ncfg; i++) {
			const char *k = a->cfg[i].key;
			const char *va = a->cfg[i].value;
			const char *vb = results_config_get(b, k);
			if (!config_shown(&a->cfg[i]) || (vb != NULL && s == 1) ||
			    (vb != NULL && strcmp(va, vb) == 0))
				continue;
			fprintf(out, "%sconfig ", how->lead);
			how->put(out, k);
			fputs(": ", out);
			how->put(out, s ? "(none)" : va);
			fputs(" -> ", out);
			how->put(out, s ? va : vb ? vb : "(none)");
			if (cmp->nin > 2) {
				fputs(" (", out);
				how->put(out, cmp->in[f].label);
				fputc(')', out);
			}
			fputc('\n', out);
		}
	}
}

static void config_diff(FILE *out, const struct comparison *cmp,
			const struct prose *how)
{
	for (size_t f = 1; f < cmp->nin; f++)
		config_diff_run(out, cmp, f, how);
}

/* Does any context key shown in the legend differ between the runs? */
static int contexts_differ(const struct comparison *cmp)
{
	static const char *const keys[] = {"host", "cpu", "kernel"};

	for (size_t f = 1; f < cmp->nin; f++)
		for (size_t k = 0; k < 3; k++) {
			const char *a = results_config_get(cmp->in[0].res, keys[k]);
			const char *b = results_config_get(cmp->in[f].res, keys[k]);
			if ((a == NULL) != (b == NULL) ||
			    (a && strcmp(a, b) != 0))
				return 1;
		}
	return 0;
}

/* The engine versions of the engines that column c holds, appended. */
static void engine_versions(FILE *out, const struct comparison *cmp,
			    size_t c, const struct prose *how)
{
	struct strlist seen = {0};
	char e[128], key[160];

	for (size_t l = 0; l < cmp->nlines; l++) {
		const struct result *r = cmp->cell[l * cmp->ncols + c];
		const char *v;
		if (r == NULL || !result_key(r, "engine", e, sizeof(e)) ||
		    strlist_find(&seen, e) >= 0 || seen.n >= 8 ||
		    strlist_add(&seen, e, strlen(e)) != 0)
			continue;
		snprintf(key, sizeof(key), "%s-version", e);
		v = results_config_get(cmp->in[cmp->cols[c].input].res, key);
		if (v == NULL)
			continue;
		fprintf(out, ", %s ", e);
		how->put(out, v);
	}
	strlist_release(&seen);
}

/*
 * Each column's run context (host, CPU, kernel, versions), when the
 * columns are not two runs of one machine: results of several machines
 * keep theirs.
 */
static void legend(FILE *out, const struct comparison *cmp,
		   const struct prose *how)
{
	static const char *const keys[] = {"host", "cpu", "kernel",
					   "rxbench-version"};

	if (cmp->ncols <= 2 && cmp->opts.col == NULL && !contexts_differ(cmp))
		return;
	fprintf(out, "%scolumns%s (changes against the first):\n%s",
		how->strong, how->strong, how->gap);
	for (size_t c = 0; c < cmp->ncols; c++) {
		const struct compare_input *in = &cmp->in[cmp->cols[c].input];
		fputs(how->item, out);
		how->put(out, cmp->cols[c].label);
		fputs(":", out);
		if (strcmp(cmp->cols[c].label, in->label) != 0) {
			fputs(" ", out);
			how->put(out, in->label);
			fputs(",", out);
		}
		for (size_t k = 0; k < 4; k++) {
			const char *v = results_config_get(in->res, keys[k]);
			if (v == NULL)
				continue;
			fprintf(out, "%s%s=", k ? ", " : " ", keys[k]);
			how->put(out, v);
		}
		engine_versions(out, cmp, c, how);
		fputc('\n', out);
	}
	fputc('\n', out);
}

int compare_write_text(FILE *out, const struct comparison *cmp)
{
	struct rtables ts = {0};
	int rc = build_tables(cmp, &ts);

	legend(out, cmp, &prose_text);
	config_diff(out, cmp, &prose_text);
	for (size_t i = 0; i < ts.n && rc == 0; i++)
		text_table(out, &ts.t[i]);
	if (rc == 0) {
		write_lists(out, cmp, &prose_text);
		list_input_changes(out, cmp, &prose_text);
		if (!cmp->opts.report)
			verdict(out, cmp, &prose_text);
	}
	rtables_release(&ts);
	return rc != 0 || ferror(out) ? -1 : 0;
}

int compare_write_md(FILE *out, const struct comparison *cmp)
{
	struct rtables ts = {0};
	int rc = build_tables(cmp, &ts);

	fprintf(out, "## rxbench %s: ", cmp->opts.report ? "report" : "compare");
	for (size_t c = 0; c < cmp->ncols; c++) {
		fputs(c ? " → " : "", out);
		md_text(out, cmp->cols[c].label);
	}
	fputs("\n\n", out);
	if (rc == 0) {
		if (!cmp->opts.report) {
			verdict(out, cmp, &prose_md);
			fputc('\n', out);
		}
		legend(out, cmp, &prose_md);
		config_diff(out, cmp, &prose_md);
		fputc('\n', out);
	}
	for (size_t i = 0; i < ts.n && rc == 0; i++)
		md_table(out, &ts.t[i], 3);
	if (rc == 0) {
		write_lists(out, cmp, &prose_md);
		list_input_changes(out, cmp, &prose_md);
	}
	rtables_release(&ts);
	return rc != 0 || ferror(out) ? -1 : 0;
}

/* --- for other writers (report/compare_html.c) --------------------- */

int compare_tables(const struct comparison *cmp, struct rtables *out)
{
	return build_tables(cmp, out);
}

/* What engine_versions() writes for column c, as a string (malloc'd). */
static char *engines_text(const struct comparison *cmp, size_t c)
{
	char *s = NULL;
	size_t n = 0;
	FILE *f = open_memstream(&s, &n);

	if (f == NULL)
		return NULL;
	engine_versions(f, cmp, c, &prose_text);
	fclose(f);
	return s;
}

int compare_context_table(const struct comparison *cmp, struct rtables *out)
{
	static const char *const keys[] = {"host", "cpu", "kernel",
					   "rxbench-version"};
	struct rtable *t = rtable_new(out, RTABLE_CHANGES, "columns",
				      "Each column's run: the file it came "
				      "from and the machine's context, as the "
				      "results record them", 7);
	int rc = t == NULL ? -1 : 0;

	rc = rc || rtable_col(t, 0, "column", 0) || rtable_col(t, 1, "file", 0);
	for (size_t k = 0; rc == 0 && k < 4; k++)
		rc = rtable_col(t, 2 + k, keys[k], 0);
	rc = rc || rtable_col(t, 6, "engines", 0);
	for (size_t c = 0; rc == 0 && c < cmp->ncols; c++) {
		const struct compare_input *in = &cmp->in[cmp->cols[c].input];
		long r = rtable_row(t);
		char *e = engines_text(cmp, c);
		rc = r < 0 || e == NULL ||
		     rtable_text(t, r, 0, cmp->cols[c].label) != 0 ||
		     rtable_text(t, r, 1, in->label) != 0 ||
		     rtable_text(t, r, 6, e[0] ? e + 2 : "") != 0; /* ", " */
		for (size_t k = 0; rc == 0 && k < 4; k++)
			rc = rtable_text(t, r, 2 + k,
					 results_config_get(in->res, keys[k]));
		free(e);
	}
	return rc ? -1 : 0;
}

void compare_write_notes(FILE *out, const struct comparison *cmp)
{
	config_diff(out, cmp, &prose_text);
	write_lists(out, cmp, &prose_text);
	list_input_changes(out, cmp, &prose_text);
}

void compare_write_verdict(FILE *out, const struct comparison *cmp)
{
	gate(out, cmp, &prose_text);
}

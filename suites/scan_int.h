/*
 * scan_int.h - the scan suite's insides, shared by its two files: scan.c
 * (options, inputs, the count and grep models, the suite's table) and
 * scan_set.c (the set model, --model set).  Nothing else includes it.
 */
#ifndef RXB_SCAN_INT_H
#define RXB_SCAN_INT_H

#include <stddef.h>

#include "corpora/file.h"
#include "suites/case.h"
#include "suites/reference.h"
#include "suites/strset.h"

enum scan_model { MODEL_COUNT, MODEL_GREP, MODEL_SET };

struct scan_pattern {
	char *name;
	char *re;
	size_t len;
	unsigned flags; /* enum engine_flag */
	unsigned needs; /* enum engine_cap */
	int user;       /* from the command line: --flags applies */
	long line;      /* its line in --patterns-file; 0: --pattern */
	const char *file; /* that --patterns-file (argv's); NULL: --pattern */
	long expect_first; /* built-in corpus: leftmost-first count, or -1 */
	long expect_lines; /* built-in corpus: matching lines, or -1 */
	struct ref_regex *ref; /* the reference; NULL when out of its reach */
	int ref_rc;            /* ref_compile()'s status */
	char ref_why[160];     /* why there is no reference */
};

/* What the command line chose (suites/options.h fills it). */
struct scan_config {
	const char **patterns; /* --pattern, in order (argv's strings) */
	size_t npatterns, cap;
	const char **paths; /* --patterns-file, each, in order (argv's) */
	size_t npaths, pathcap;
	const char *corpus_path;   /* --corpus */
	enum scan_model model;     /* --model */
	unsigned flags;            /* --flags: every user pattern */
};

struct scan_set; /* scan_set.c's */

/* One run: what prepare() builds; the benchmarks point into it. */
struct scan_run {
	const struct scan_config *cfg;
	enum scan_model model; /* cfg's, for short */
	struct scan_pattern *pats;
	size_t npats, cap;
	struct corpus corpus;
	struct line *lines;
	long nlines;
	struct case_table table; /* pattern x engine; the set: one per engine */
	struct strset names;     /* of user patterns */
	struct engine_span *rin; /* scan_inputs(): the corpus, or lines */
	size_t nrin;
	struct scan_set *set;    /* --model set: the set's state */
};

/*
 * What a benchmark name holds of s[0..len) (a pattern, a file's name), as
 * one level's value, into out[0..size): see scan.c.  Never fails; cut to
 * what fits.
 */
void scan_name_part(const char *s, size_t len, char *out, size_t size);

/* flags (enum engine_flag) as --flags letters ("" for none) into buf,
 * of at least 8 bytes. */
void scan_flags_text(unsigned flags, char *buf);

/* Up to 60 bytes of p's pattern for a message (see scan.c). */
void scan_pattern_shown(const struct scan_pattern *p, char *buf, size_t size);

/* " (offset N)" when offset >= 0, else "": into buf, which it returns. */
const char *scan_offset_text(long offset, char *buf, size_t size);

/*
 * The inputs of r's model as spans, in r->rin[0..r->nrin), made on the
 * first call: the corpus (count), or its lines (grep, set).  NULL out
 * of memory.
 */
const struct engine_span *scan_inputs(struct scan_run *r);

/*
 * Whether engine e can do op as r's model times it (every input of
 * scan_inputs() in one op), before anything compiles: 1 with a one-line
 * reason naming e and what it lacks in why (engine_work_refused(): "xdp
 * has no count: ..."), 0 when it can (or out of memory: the case then
 * fails where it runs).
 */
int scan_work_gate(struct scan_run *r, const struct engine *e,
		   enum engine_op op, char *why, size_t size);

/*
 * --model set (scan_set.c): the set of r's patterns, one case per engine
 * of ctx, in r->table, whose ops it sets to the set's (sized to the set).
 * 0, or -1 out of memory.  scan_set_free() frees r->set (NULL is fine).
 */
int scan_set_add_cases(struct scan_run *r, struct suite_ctx *ctx);
void scan_set_free(struct scan_set *s);

#endif

/*
 * results.h - what a run measured: the lossless model every writer reads.
 *
 * A run has configuration pairs (goos, cpu, engine versions, ...) and a
 * list of results.  A result is one benchmark: its name without the
 * "Benchmark" prefix ("Scan/engine=pcre2/pattern=twain", key=value
 * levels), its suite, a status, and samples: sample i has iters[i]
 * iterations and value i of every metric.  Strings are owned by the
 * results and freed by results_release().
 */
#ifndef RXB_RESULTS_H
#define RXB_RESULTS_H

#include <stddef.h>
#include <stdint.h>

enum result_status {
	RESULT_OK,
	RESULT_MISMATCH,    /* answers disagree: no time is reported */
	RESULT_ERROR,       /* compile error, crash, match limit, bad input */
	RESULT_UNSUPPORTED, /* the engine lacks a capability the case needs */
	RESULT_TIMEOUT,
	RESULT_UNVERIFIED, /* no reference could check the answer: no time */
};

enum metric_better {
	BETTER_LOWER,  /* ns/op, B/op */
	BETTER_HIGHER, /* MB/s, Mpps */
	BETTER_EXACT,  /* informational (domains, matches): any change matters */
};

struct metric {
	char *unit;
	enum metric_better better;
	double *v; /* v[i] belongs to sample i; NAN when missing */
	size_t n;
};

/*
 * What a benchmark was run on, as key -> exact bytes: "pattern" (its
 * text), "flags", "corpus", "corpus-size", "corpus-sha256", "seed",
 * "engine-option.NAME", ...  compare refuses to pair a benchmark whose
 * inputs differ (report/compare.h).  value holds len bytes and a NUL.
 */
struct result_input {
	char *key;
	char *value;
	size_t len;
};

struct result_inputs {
	struct result_input *v;
	size_t n;
};

struct result {
	char *name;  /* "Suite/key=value/..." without the "Benchmark" prefix */
	char *suite;
	enum result_status status;
	char *message; /* NULL when ok */
	/*
	 * What the answer was compared with before it was timed, one line
	 * ("reference: leftmost-first count 1730"); NULL when not recorded
	 * (a failure row, or a file from before verification was recorded).
	 */
	char *verified;
	int unverified; /* timed without verification (--allow-unverified) */
	uint64_t *iters;
	size_t nsamples;
	struct metric *m;
	size_t nm;
	struct result_inputs in; /* in the order given; a key once */
};

struct config_pair {
	char *key;
	char *value;
	int meta; /* 1: context for the JSON file only (date, host, command
		     line), kept out of the Go text so benchstat does not split
		     tables on values that change every run */
};

/*
 * One line of a suite's layout declaration (report/layout_decl.h): how
 * the report lays out its tables and verdict.  The results carry it so a
 * report needs nothing but the results file.
 */
struct layout_line {
	char *suite;
	char *line;
};

struct results {
	struct config_pair *cfg;
	size_t ncfg;
	struct layout_line *layout; /* in the order declared */
	size_t nlayout;
	struct result *r;
	size_t n;
	int interrupted; /* the run stopped early (signal) */
	char **argv;     /* the command line as given, to repeat the run */
	size_t argc;
	/* private to results.c: capacity of r, and a hash index of the
	   names (slot = 1 + index into r, 0 empty) so results_add and
	   results_find stay O(1) with 100,000s of results */
	size_t cap;
	size_t *slot;
	size_t nslot;
};

void results_init(struct results *res);
void results_release(struct results *res);

/* Set (or replace) a configuration pair.  0, or -1 when out of memory. */
int results_config_set(struct results *res, const char *key,
		       const char *value);

/* Same, for a pair that only the JSON file records (see config_pair). */
int results_meta_set(struct results *res, const char *key, const char *value);

/* Record the command line (copied).  0, or -1 when out of memory. */
int results_set_argv(struct results *res, int argc, char *const *argv);

/*
 * Append a layout line of `suite` (copied).  0, or -1 out of memory.
 * results_layout_has: 1 when the suite has a line already.
 */
int results_layout_add(struct results *res, const char *suite,
		       const char *line);
int results_layout_has(const struct results *res, const char *suite);

/* The value of a configuration key, or NULL. */
const char *results_config_get(const struct results *res, const char *key);

/*
 * The result named `name`, created (status ok, no samples) when absent.
 * The pointer stays valid until the next results_add/results_release.
 * NULL when out of memory.
 */
struct result *results_add(struct results *res, const char *suite,
			   const char *name);

/*
 * Remove the newest result (the harness's, for a benchmark a signal
 * stopped before its first sample).  Nothing when there is none.
 */
void results_pop(struct results *res);

/* The result named `name`, or NULL. */
struct result *results_find(const struct results *res, const char *name);

/* Free what a result owns (for a result made outside a results list). */
void result_release(struct result *r);

/* Free and clear everything of r but its name and suite: a fresh row. */
void result_reset(struct result *r);

/* Start a new sample of `iters` iterations.  Returns its index, or -1. */
long result_sample_begin(struct result *r, uint64_t iters);

/*
 * Record `value` of metric `unit` for the newest sample; a value that is
 * infinite or NaN is recorded as missing (NAN), which every writer
 * leaves out.  0, or -1 when out of memory or no sample was begun.
 */
int result_metric_add(struct result *r, const char *unit,
		      enum metric_better better, double value);

/* The metric with this unit, or NULL. */
const struct metric *result_metric(const struct result *r, const char *unit);

/*
 * 1 when a unit is a deterministic count (callgrind's instr/op,
 * est-cycles/op, ...): any change beyond a threshold is real, no
 * significance test is needed (benchstat's assume=exact).
 */
int metric_unit_exact(const char *unit);

/*
 * 1 when a unit measures time, as Go's benchunit classes it: "ns/op",
 * "sec/op", "ms/query" (a time over a count), or a time alone.  A
 * reader refuses a negative value of one: a clock reads 0 or more.
 */
int metric_unit_time(const char *unit);

/* Set a non-ok status with a printf-style message (kept, not printed). */
void result_set_status(struct result *r, enum result_status st,
		       const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* "ok", "mismatch", "error", "unsupported", "timeout", "unverified". */
const char *result_status_name(enum result_status st);

/* Parse a status name; -1 when unknown. */
int result_status_parse(const char *name);

/*
 * The row status of a failure's status (enum engine_status,
 * engines/status.h): unsupported for ENGINE_ERR_UNSUPPORTED, timeout for
 * STATUS_TIMEOUT, ok for 0, error for every other.
 */
enum result_status result_status_of(int status);

/*
 * Copy the value of name key `key` ("engine" in ".../engine=re2/...")
 * into buf.  Returns 1 when found, 0 when not.
 */
int result_key(const struct result *r, const char *key, char *buf,
	       size_t size);

/*
 * Record what r's answer was verified against (`unverified` 0), or why it
 * could not be (`unverified` 1: a timed row --allow-unverified let
 * through).  0, or -1 out of memory.
 */
int result_set_verified(struct result *r, const char *text, int unverified);

/*
 * Set input `key` to len bytes of value (copied; a key given again is
 * replaced).  0, or -1 when out of memory.
 */
int result_inputs_add(struct result_inputs *in, const char *key,
		      const void *value, size_t len);

/* Add every input of src to dst (dst's of the same key replaced). */
int result_inputs_merge(struct result_inputs *dst,
			const struct result_inputs *src);

/* The input named key, or NULL. */
const struct result_input *result_inputs_get(const struct result_inputs *in,
					     const char *key);

void result_inputs_release(struct result_inputs *in);

/* A printf-style input into in (truncated at 511 bytes).  0 or -1. */
int result_inputs_addf(struct result_inputs *in, const char *key,
		       const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* A printf-style input of r: result_input_addf(r, "seed", "%u", s). */
int result_input_addf(struct result *r, const char *key, const char *fmt,
		      ...) __attribute__((format(printf, 3, 4)));

/* True when any result has a status other than ok, unsupported and
 * unverified (those say what was not measured, not that something broke). */
int results_failed(const struct results *res);

#endif

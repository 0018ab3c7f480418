/*
 * bench.h - the measured loop, with Go testing.B semantics.
 *
 * A suite describes each benchmark as a struct bench (data plus an op
 * callback) and adds it to a plan; harness_run() times every benchmark of
 * the plan, `count` times, interleaved (A B C A B C), and records samples
 * in a struct results.  The op runs its own loop of n iterations, so the
 * harness adds one indirect call per sample, not per op.
 *
 * Per sample: n grows like Go's (1, then predicted from the last run, at
 * most 100x, +20%) until one run lasts --benchtime, or n is fixed
 * (--benchtime=1000x).  CLOCK_MONOTONIC brackets the whole loop.  Then a
 * separate short run with allocation counting gives B/op and allocs/op,
 * and retain/release give B(heap)/op.
 */
#ifndef RXB_BENCH_H
#define RXB_BENCH_H

#include <stddef.h>
#include <stdint.h>

#include "harness/results.h"

#define BENCH_MAX_EXTRA 6

struct bench_metric {
	const char *unit;
	enum metric_better better;
	double value;
};

struct bench {
	char *name;        /* "Suite/key=v/..." without "Benchmark"; owned */
	const char *suite; /* static string */

	/* Run the op n times. 0, or a negative engine_status to abort. */
	int (*run)(void *arg, uint64_t n);

	/*
	 * Optional, for B(heap)/op: do one op and keep what it built
	 * (a compiled regex, a map) until release().  0 or negative.
	 */
	int (*retain)(void *arg);
	void (*release)(void *arg);

	/*
	 * Optional: metrics derived from the time of a sample (Mpps, Gbps);
	 * call result_metric_add() on r for the current sample.
	 */
	void (*derive)(void *arg, double ns_per_op, struct result *r);

	void *arg;
	double bytes_per_op; /* > 0: report MB/s (Go's b.SetBytes) */
	struct bench_metric extra[BENCH_MAX_EXTRA]; /* fixed metrics, e.g. domains */
	size_t nextra;
};

struct bench_opts {
	double benchtime_ns;  /* target duration of one sample */
	uint64_t fixed_n;     /* > 0: exactly this many iterations */
	int count;            /* samples per benchmark (interleaved) */
	int no_alloc;         /* skip the allocation-counting run */
};

/* Parse --benchtime: "1s", "500ms", "2.5s", "100us", or "1000x". 0 or -1. */
int bench_parse_benchtime(const char *s, struct bench_opts *o);

/* A list of benchmarks a suite wants timed. */
struct plan {
	struct bench *b;
	size_t n;
};

/* Append a copy of *b (its name is taken over). 0, or -1 out of memory. */
int plan_add(struct plan *p, const struct bench *b);
void plan_release(struct plan *p);

/* Called after every sample so a writer can stream the line. */
typedef void (*bench_sample_fn)(void *ctx, const struct result *r,
				size_t sample);

/*
 * Time every benchmark of the plan into res.  A benchmark whose op fails
 * gets an error result and is not run again; the others go on.
 * Returns the number of benchmarks that failed.
 */
int harness_run(const struct plan *p, const struct bench_opts *o,
		struct results *res, bench_sample_fn on_sample, void *ctx);

/*
 * Measure one sample of b into r (a new sample).  0, or the op's
 * negative status.  Exposed for tests.
 */
int bench_measure(const struct bench *b, const struct bench_opts *o,
		  struct result *r);

/* Go's rule for the next n: the n to try after `last` took `ns` ns. */
uint64_t bench_predict_n(uint64_t last, uint64_t ns, double goal_ns);

/*
 * Make `s` usable as one level of a benchmark name: spaces, '/', '=' and
 * control or non-ASCII bytes become '_', at most `size`-1 bytes.
 */
void bench_name_part(const char *s, size_t len, char *out, size_t size);

#endif

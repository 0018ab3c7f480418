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
 * (--benchtime=1000x).  CLOCK_MONOTONIC brackets the whole loop (with
 * the process's CPU time around it, to see a preempted run: see
 * BENCH_PREEMPT_NS), and the bracket's own cost (a timed run of 0 ops,
 * BENCH_FLOOR_RUNS) is taken off; a short sample of fixed n is a slope
 * over runs of n and 2n ops instead (BENCH_SHORT_NS), so few ops measure
 * what many do.  Before that, in the same
 * process, a warm-up (bench_opts.warmup_ns, bench.pass_n).  Then a
 * separate short run with allocation counting gives B/op and allocs/op,
 * and retain/release give B(heap)/op (and B/op and allocs/op too when
 * that short run would be a single op: the retained op is counted).
 *
 * Options beyond Go's (see bench_opts): each sample may run in a forked
 * child with a time limit (harness/isolate.h; the sample comes back in
 * the wire form of harness/sample.h), and --measure=instructions counts
 * instructions and cache events under callgrind instead of reading the
 * clock (harness/callgrind.h).  Suites compile and verify before
 * harness_run(), so a measuring child shares the compiled patterns and
 * inputs copy-on-write; what it changes (a query cursor) is lost with it.
 *
 * Statuses are enum engine_status (engines/status.h): an op's own, or
 * the STATUS_* of what isolation or callgrind found.
 */
#ifndef RXB_BENCH_H
#define RXB_BENCH_H

#include <stddef.h>
#include <stdint.h>

#include "harness/isolate.h"
#include "harness/results.h"

#define BENCH_MAX_EXTRA 8

struct bench_metric {
	const char *unit;
	enum metric_better better;
	double value;
};

#define BENCH_SELF_EXTRA 2

/* A sample a self-timed op measured itself (bench.self_time). */
struct bench_self {
	uint64_t n;           /* iterations of the timed run */
	double ns_per_op;
	double bytes_per_op;  /* B/op, < 0 when the op's runtime cannot tell */
	double allocs_per_op; /* allocs/op, likewise */
	double floor_ns_per_op; /* the same loop doing nothing; < 0: none */
	double heap_per_op;   /* B(heap)/op: what one op keeps; < 0: unknown */
	char why[256];        /* on a failure, why ("" when it cannot tell) */
	/* the op's own figures beside ns/op, each a metric (unit NULL:
	   none; the kernel's mean of xdp's runs) */
	struct bench_metric extra[BENCH_SELF_EXTRA];
};

struct bench_opts;
struct bench_threads;

struct bench {
	char *name;        /* "Suite/key=v/..." without "Benchmark"; owned */
	const char *suite; /* static string */

	/* Run the op n times. 0, or a negative enum engine_status to abort. */
	int (*run)(void *arg, uint64_t n);

	/*
	 * Optional, for B(heap)/op: do one op and keep what it built
	 * (a compiled regex, a map) until release().  0 or negative.  It
	 * allocates what one op of run() does (only the frees differ), so
	 * where the allocation run would be one op, the retained op is
	 * counted for B/op and allocs/op too.
	 */
	int (*retain)(void *arg);
	void (*release)(void *arg);

	/*
	 * Optional: metrics derived from the time of a sample (Mpps, Gbps);
	 * call result_metric_add() on r for the current sample.  Called
	 * only when ns_per_op > 0: a sample of 0 ns/op has no rate.
	 */
	void (*derive)(void *arg, double ns_per_op, struct result *r);

	void *arg;

	/*
	 * Optional: an op that times itself (an out-of-process runner,
	 * engines/runner.h): one sample with o's benchtime, fixed n and
	 * warm-up rules, measured by self_time(self_arg, ...) instead of
	 * the harness's clock around run(), which is then never called.
	 * The harness adds MB/s, derive() and the fixed metrics as for any
	 * op, the floor as "floor-ns/op".  0, or a negative enum
	 * engine_status with the op's reason in s->why, which the row's
	 * message says (bench_status_text).
	 */
	int (*self_time)(void *self_arg, const struct bench_opts *o,
			 struct bench_self *s);
	void *self_arg;
	/*
	 * Optional: the op on several pinned threads at once, each over its
	 * own share (harness/threads.h), measured by bench_threads_measure()
	 * instead of timing run(), which is then never called.  Not owned.
	 */
	const struct bench_threads *threads;
	/*
	 * What the op's answer was verified against (suites/case.h), copied
	 * into the result; owned, may be NULL.  unverified: timed although
	 * nothing could verify it (--allow-unverified); every output marks it.
	 */
	char *verified;
	int unverified;
	/*
	 * A remark for the row's message, kept even when the row is ok (an
	 * engine's note: "re2: DFA out of memory ..."); owned, may be NULL.
	 */
	char *note;
	double bytes_per_op; /* > 0: report MB/s (Go's b.SetBytes) */
	/*
	 * Ops that go once over the op's whole input set (every query,
	 * every packet: an op that takes the next item each time); 0 or
	 * 1: one op is the whole input.  The warm-up runs at least this.
	 */
	uint64_t pass_n;
	struct bench_metric extra[BENCH_MAX_EXTRA]; /* fixed metrics, e.g. domains */
	size_t nextra;
	struct result_inputs in; /* copied into the result; owned */
};

/* What one sample measures (--measure=). */
enum bench_mode {
	BENCH_TIME,         /* the clock, less preemption: ns/op (default) */
	BENCH_INSTRUCTIONS, /* callgrind: instr/op, est-cycles/op, ... */
	BENCH_WALL,         /* the wall clock, as go test: ns/op */
};

/*
 * Runs of 0 ops a sample times, after its warm-up, to learn the fixed
 * cost of a timed run (clock reads, the call), which it subtracts.
 */
#define BENCH_FLOOR_RUNS 16

/*
 * A sample of fixed n whose run is expected to last less than
 * BENCH_SHORT_NS is short: it runs its n ops once untimed (the lead-in),
 * then BENCH_SHORT_RUNS pairs of runs of n and of 2n ops, one after
 * another, and its ns/op is the median 2n run less the median n run, over
 * n (criterion's slope over iteration counts; rebar's median of many
 * short samples).  The first run after the warm-up and the floor paid a
 * one-off 400 to 1,300 ns that the runs after it did not (a 10-op payload
 * run of 64-byte packets on re2 takes 900 ns here), a 10-op run is one
 * reading of a clock that jitters by tens of ns, and a run of some ops
 * costs more beyond its ops than a run of none: --benchtime=10x reported
 * 1.2 to 2x what 1000x did.  The runs go on through the input set, so a
 * sample of 10x times 490 items.
 */
#define BENCH_SHORT_NS 100000
#define BENCH_SHORT_RUNS 16

/*
 * The least difference between a short sample's 2n and n runs it takes
 * as a time: reading the clock costs 20 to 30 ns here, in steps of about
 * 10 ns, so a difference of a few ns is noise (one payload base op of
 * 1.5 ns at --benchtime=1x read as 0 ns/op).  Below it the pairs run
 * again with twice as many ops, until it is reached or a run would no
 * longer be short; the sample keeps its n.
 */
#define BENCH_SHORT_RESOLVE_NS 200

/*
 * A timed run whose wall time exceeds the process's CPU time by more
 * than BENCH_PREEMPT_NS was preempted: from BENCH_CPU_MIN_NS of CPU
 * time on its CPU time counts, a shorter one is timed again, at most
 * BENCH_PREEMPT_TRIES times in all (harness/bench.c, bench_time).  Only
 * runs expected to last BENCH_WATCH_NS or more are watched so.
 */
#define BENCH_PREEMPT_NS 50000
#define BENCH_WATCH_NS 100000 /* runs expected shorter are not watched */
#define BENCH_CPU_MIN_NS 1000000
#define BENCH_PREEMPT_TRIES 4

/* Iterations of one instruction-count sample when --benchtime=Nx is not given. */
#define BENCH_INSTR_DEFAULT_N 10

/*
 * A zeroed struct is a valid in-process time measurement with no limit
 * (what unit tests use); the command line turns isolation on.
 */
struct bench_opts {
	double benchtime_ns;  /* target duration of one sample */
	uint64_t fixed_n;     /* > 0: exactly this many iterations */
	int count;            /* samples per benchmark (interleaved) */
	int no_alloc;         /* skip the allocation-counting run */
	enum bench_mode measure;
	int isolate;          /* 1: each sample (and verification) in a child */
	double timeout_ns;    /* with isolate: kill a sample or answer after
				 this; 0: none */
	double warmup_ns;     /* before each sample's timed runs, in the same
				 process: ops for at least this long, and at
				 least one pass (bench.pass_n); 0: one pass */
};

/*
 * The allocation run after a sample's timed run counts B/op and
 * allocs/op over at most this much work (and at most the sample's n).
 */
#define BENCH_ALLOC_MS 10

/* The warm-up before each sample when --warmup is not given. */
#define BENCH_WARMUP_DEFAULT_MS 20
#define BENCH_WARMUP_DEFAULT_NS (BENCH_WARMUP_DEFAULT_MS * 1e6)

/* o's isolation and time limit, as harness/isolate.h takes them. */
struct isolate_limits bench_limits(const struct bench_opts *o);

/*
 * The status of an isolated item's verdict: what it returned when it
 * answered, else STATUS_CRASHED (its child died), STATUS_TIMEOUT,
 * STATUS_SKIPPED, STATUS_SYSTEM (no child) or STATUS_INTERRUPTED (not
 * reached).
 */
int bench_verdict_status(const struct isolate_verdict *v);

/* Parse --benchtime: "1s", "500ms", "2.5s", "100us", or "1000x". 0 or -1. */
int bench_parse_benchtime(const char *s, struct bench_opts *o);

/*
 * Parse a duration as Go's time.ParseDuration spells it ("60s", "500ms",
 * "2.5s", "100us", "10ns", "2m", "1m30s", "1h") into *ns, between 1 ns
 * and one hour.  0, or -1 (junk, negative, zero, out of range).
 */
int bench_parse_duration(const char *s, double *ns);

/* A list of benchmarks a suite wants timed. */
struct plan {
	struct bench *b;
	size_t n;
	size_t cap; /* of b: grows by doubling (100,000s of benchmarks) */
};

/* Append a copy of *b (its name and verified text are taken over).
 * 0, or -1 out of memory. */
int plan_add(struct plan *p, const struct bench *b);
void plan_release(struct plan *p);

/* Called after every sample so a writer can stream the line. */
typedef void (*bench_sample_fn)(void *ctx, const struct result *r,
				size_t sample);

/*
 * Time every benchmark of the plan into res.  A benchmark whose op fails
 * gets an error result and is not run again; the others go on.  With
 * o->isolate each sample is measured in a forked child (isolate_run(),
 * one item): a crash of the measuring child is an error row naming the
 * signal, a child that exits without its sample an error row and a
 * sample slower than o->timeout_ns a timeout row; samples measured before
 * stay in res.  After SIGINT or SIGTERM (interrupt.h) it
 * returns at the next sample boundary; with o->isolate it kills the
 * measuring child at once and drops that unfinished sample.
 * Returns the number of benchmarks that failed.
 */
int harness_run(const struct plan *p, const struct bench_opts *o,
		struct results *res, bench_sample_fn on_sample, void *ctx);

/*
 * Measure one sample of b into r (a new sample), in this process: time
 * (after the warm-up, o->warmup_ns), or instruction counts when
 * o->measure says so (counted after one warming pass).  0, or the op's negative
 * status.  Exposed for tests.
 */
int bench_measure(const struct bench *b, const struct bench_opts *o,
		  struct result *r);

/*
 * The one-line reason for a negative bench_measure() status, e.g.
 * "match limit while timing", or callgrind's own for STATUS_CALLGRIND.
 */
void bench_status_text(int rc, char *buf, size_t size);

/*
 * Whether a sample of fixed n is short (BENCH_SHORT_NS); per: the
 * warm-up's ns per op.  A growing n is not: its last run follows the
 * runs that grew it, and lasts the benchtime.
 */
int bench_is_short(const struct bench_opts *o, double per);

/* The most times one run gives bench_slope_measure (a round of 256
 * threads: the round's and each thread's own). */
#define BENCH_SLOPE_MAX_V 257

/*
 * What a short sample times: time() runs n ops once and writes nv times
 * (1 .. BENCH_SLOPE_MAX_V) into ns[0..nv): ns[0] the run's, the others
 * whatever else the caller follows (a threaded round: each thread's own
 * clock).  It returns 0 or the op's negative status.
 */
struct bench_slope {
	int (*time)(void *ctx, uint64_t n, uint64_t *ns);
	void *ctx;
	size_t nv;
	uint64_t resolve_ns; /* the least difference of ns[0] taken as a
				time (BENCH_SHORT_RESOLVE_NS) */
};

/*
 * A short sample's times, one run and a single thread or a team of
 * threads alike: one run of n ops untimed (the lead-in), then
 * BENCH_SHORT_RUNS pairs of runs of n and of 2n ops.  ns[j]: what the n
 * ops more cost in time j, the median of the 2n runs less that of the n
 * runs (criterion's slope over iteration counts, from two counts): the
 * fixed cost of a run cancels (the clock reads; a round's wake-up skew
 * between its threads), where the floor, a run of 0 ops, leaves out what
 * a run of some ops pays beyond it (10-op fqdn runs here: 2 to 5 ns per
 * op).  When the n ops cost less than s->resolve_ns in ns[0]
 * (one op of 1.5 ns at --benchtime=1x: a difference of 0 or 10 ns, so 0
 * ns/op and an infinite Mpps), the pairs are run again of k times as
 * many ops, k doubling, until they do or a run would no longer be short
 * (per: the warm-up's ns per op); ns[j] is then their difference over k.
 * 0, the op's negative status, or ENGINE_ERR_NOMEM.
 */
int bench_slope_measure(const struct bench_slope *s, uint64_t n, double per,
			double *ns);

/* The median of v[0..n), n > 0 (v is sorted in place): a floor's. */
uint64_t bench_median_u64(uint64_t *v, size_t n);

/* The ops of one pass over b's input set (b->pass_n, at least 1). */
uint64_t bench_pass_n(const struct bench *b);

/* Go's rule for the next n: the n to try after `last` took `ns` ns. */
uint64_t bench_predict_n(uint64_t last, uint64_t ns, double goal_ns);

/*
 * Make `s` usable as one level of a benchmark name: spaces, '/', '=' and
 * control or non-ASCII bytes become '_', at most `size`-1 bytes, and a
 * '-' before the digits that end it too (benchstat reads a name ending
 * in "-3" as GOMAXPROCS 3: "GPL-2" and "GPL-3" would collide).
 */
void bench_name_part(const char *s, size_t len, char *out, size_t size);

#endif

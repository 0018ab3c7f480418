/*
 * threads.h - one sample of an op on several threads at once, each
 * pinned to its own CPU, under one clock (the threaded form of
 * harness/bench.h's measured loop; --threads in the payload suite).
 *
 * A suite gives a struct bench a struct bench_threads: n threads, each
 * with its own matching state over one shared compiled set
 * (engine.thread_new) and its own share of the inputs.  In the process
 * that measures (a sample's forked child, so threads never outlive it),
 * bench_threads_measure():
 *
 *   1. starts n threads, thread t pinned to CPU cpu[t], each making its
 *      state (begin) on its CPU;
 *   2. warms them up together: passes over their shares for
 *      bench_opts.warmup_ns, at least one;
 *   3. times runs of k ops per thread, all released by one barrier, one
 *      wall clock from the first thread's start to the last one's end
 *      (each thread reads the clock around its own work, so the wake-up
 *      is not timed), and each thread's own, k grown like bench.c's n
 *      until a run lasts the benchtime (or --benchtime=Nx ops per
 *      thread; a short one, bench.h BENCH_SHORT_NS, the slope over
 *      rounds of k and 2k ops, as one thread's, so the skew of the
 *      threads' starts cancels).  As bench.c corrects a preempted run by the CPU time, a
 *      thread preempted by another process counts its own CPU time
 *      (CLOCK_THREAD_CPUTIME_ID), and such a round the slowest thread's
 *      time, unless the thread blocked (a voluntary context switch: a
 *      lock in the engine is a cost of threads, kept); --measure=wall:
 *      the wall clock only;
 *   4. times thread 0 alone on its share, the same k, the others parked
 *      on the barrier: the one-thread reference of the scaling, in the
 *      same process, on the same share and CPU;
 *   5. has every thread answer once more over exactly one pass of its
 *      share (check) and compares each answer with want[t], the
 *      verified answer for that share: a thread that differs makes the
 *      sample STATUS_MISMATCH, never a number.
 *
 * No allocation counting (B/op is the one-thread row's) and no
 * instruction counts (callgrind runs one thread at a time): with
 * --measure=instructions the sample is ENGINE_ERR_UNSUPPORTED.
 * --measure=time and --measure=wall both read the wall clock here.
 */
#ifndef RXB_THREADS_H
#define RXB_THREADS_H

#include <stddef.h>
#include <stdint.h>

#include "harness/bench.h"

/* The most threads a sample runs (the CPUs a machine may have). */
#define BENCH_MAX_THREADS 256

/* What a threaded sample measured, for bench_threads.derive. */
struct bench_thread_times {
	size_t n;             /* threads */
	double ns_per_op;     /* wall clock / (n x ops per thread): aggregate */
	double solo_ns_per_op; /* thread 0 alone, per op */
	const double *thread_ns_per_op; /* thread t's own clock, per op */
};

struct bench_threads {
	size_t n;        /* threads, 2 .. BENCH_MAX_THREADS */
	const int *cpu;  /* thread t runs pinned to CPU cpu[t] (distinct) */
	void *arg;
	/* In thread t, first: its own state.  0, or a negative status. */
	int (*begin)(void *arg, size_t t);
	/* Thread t's op, `ops` times over its share.  0 or negative. */
	int (*run)(void *arg, size_t t, uint64_t ops);
	/* Thread t's answer over one pass of its share into *got.  0 or
	 * negative. */
	int (*check)(void *arg, size_t t, uint64_t *got);
	/* In thread t, last: free its state (also after a failure). */
	void (*end)(void *arg, size_t t);
	const uint64_t *want;   /* the verified answer for thread t's share */
	const uint64_t *pass;   /* ops of one pass over thread t's share */
	const char *answer;     /* what check counts, for a mismatch:
				   "matching packets" */
	/* The sample's metrics from its times (replaces bench.derive). */
	void (*derive)(void *arg, const struct bench_thread_times *tt,
		       struct result *r);
};

/*
 * Measure one threaded sample of b (b->threads) into r (a new sample):
 * ns/op (aggregate), MB/s when b->bytes_per_op, the derived and the
 * fixed metrics.  0; a negative status (the op's, or ENGINE_ERR_NOMEM /
 * STATUS_SYSTEM when threads could not start); or STATUS_MISMATCH, whose
 * one-line reason (the thread, its answer and the verified one) is
 * bench_threads_error()'s.
 */
int bench_threads_measure(const struct bench *b, const struct bench_opts *o,
			  struct result *r);

/* Why the last bench_threads_measure() failed, in words; "" if it did not. */
const char *bench_threads_error(void);

/*
 * The CPUs this process may run on (sched_getaffinity), ascending, into
 * cpu[0..max).  Returns how many, or -1 when the mask cannot be read.
 */
int bench_cpus(int *cpu, size_t max);

#endif

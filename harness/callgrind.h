/*
 * callgrind.h - --measure=instructions: instruction and cache-event counts
 * of the measured loop under valgrind's callgrind, instead of the clock.
 *
 * rxbench re-executes itself (callgrind_reexec) as
 *   valgrind -q --tool=callgrind --cache-sim=yes --instr-atstart=no
 *            --I1=32768,8,64 --D1=32768,8,64 --LL=8388608,16,64
 *            --callgrind-out-file=DIR/cg.%p  rxbench ARGS...
 * with RXB_CALLGRIND_DIR=DIR in its environment.  Instrumentation is off
 * while inputs are built, patterns compiled and answers verified.  For a
 * sample, callgrind_measure() starts it, runs one op to warm the simulated
 * caches, zeroes the counters, runs the n measured ops, stops it and dumps
 * (client requests of valgrind/callgrind.h), then reads its own dump back.
 * The cache geometry is fixed so counts do not depend on the host's caches
 * (and valgrind does not warn about odd ones).
 *
 * Per op: instr/op (Ir), L1-hits/op, LL-hits/op, RAM-hits/op, rw/op
 * (Ir+Dr+Dw) and est-cycles/op = L1 + 5 LL + 35 RAM, iai-callgrind's
 * estimate.  They repeat for a build and input, so compare treats them as
 * exact (metric_unit_exact in results.h).
 *
 * Build option: RXB_HAVE_CALLGRIND_H (CMake found valgrind/callgrind.h).
 * Without it callgrind_built() is 0 and the mode is refused.
 */
#ifndef RXB_CALLGRIND_H
#define RXB_CALLGRIND_H

#include <stdint.h>
#include <stdio.h>

#include "harness/bench.h"

/* The events of a callgrind file made with --cache-sim=yes. */
struct callgrind_events {
	uint64_t ir, dr, dw;         /* instructions, data reads, data writes */
	uint64_t i1mr, d1mr, d1mw;   /* L1 misses */
	uint64_t ilmr, dlmr, dlmw;   /* last-level misses */
};

/* What the events cost, derived as iai-callgrind does. */
struct callgrind_cost {
	double instr;      /* Ir */
	double l1_hits;    /* (Ir+Dr+Dw) - (I1mr+D1mr+D1mw) */
	double ll_hits;    /* (I1mr+D1mr+D1mw) - (ILmr+DLmr+DLmw) */
	double ram_hits;   /* ILmr+DLmr+DLmw */
	double rw;         /* Ir+Dr+Dw */
	double est_cycles; /* L1 + 5 LL + 35 RAM */
};

/*
 * Read a callgrind output file: the `events:` header names the columns of
 * the `totals:` line (or `summary:` when there is none).  `trigger` gets
 * the "desc: Trigger:" text ("Client Request: NAME").  0, or -1 with a
 * message naming the line in err (no totals, a missing cache event, junk).
 */
int callgrind_parse(FILE *f, const char *path, struct callgrind_events *ev,
		    char *trigger, size_t tsize, char *err, size_t esize);

/* Same, opening path.  -1 with err filled when it cannot be read. */
int callgrind_parse_file(const char *path, struct callgrind_events *ev,
			 char *trigger, size_t tsize, char *err, size_t esize);

/* Totals to costs (not per op). */
void callgrind_cost(const struct callgrind_events *ev,
		    struct callgrind_cost *c);

/* 1 when built with valgrind/callgrind.h. */
int callgrind_built(void);

/* 1 when this process is callgrind_reexec()'s child under valgrind. */
int callgrind_active(void);

/*
 * Run argv (argv[0] is the subcommand, e.g. "run") again under callgrind
 * as above, wait and clean up.  Returns the child's exit status (128+sig
 * when killed), or -1 with a one-line reason in err when it could not
 * start (valgrind missing, no temporary directory).
 */
int callgrind_reexec(int argc, char **argv, char *err, size_t esize);

/*
 * Count n ops of b as above and add the six per-op metrics to r's newest
 * sample.  0, the op's negative status, or STATUS_CALLGRIND (see
 * callgrind_error()).
 */
int callgrind_measure(const struct bench *b, uint64_t n, struct result *r);

/* Why the last callgrind_measure() returned STATUS_CALLGRIND. */
const char *callgrind_error(void);

/* The valgrind options the re-execution uses, for the results' context. */
void callgrind_describe(char *buf, size_t size);

#endif

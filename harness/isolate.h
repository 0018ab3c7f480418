/*
 * isolate.h - one sample per forked child, with a time limit; CPU pinning.
 *
 * Suites compile and verify before harness_run(), so a child forked for a
 * sample shares the compiled patterns and inputs copy-on-write.  The child
 * measures one sample with bench_measure(), sends it back over a pipe
 * (isolate_encode) and exits; the parent waits until the deadline.  A
 * child killed by a signal, one that exits without a sample, and one
 * that misses the deadline (then killed with SIGKILL) become rows, and the
 * run goes on.  What a child changes in memory is lost with it, so state
 * an op keeps between samples (a query cursor) starts afresh each sample.
 *
 * isolate_answers() does the same for a suite's verification: the answers
 * are computed in a child, each within the time limit.
 *
 * Without fork (--no-fork) there is no isolation and no time limit.
 */
#ifndef RXB_ISOLATE_H
#define RXB_ISOLATE_H

#include <stddef.h>

#include "harness/bench.h"

/* isolate_measure() failures, below every enum engine_status. */
enum isolate_status {
	ISOLATE_CRASHED = -64, /* killed by a signal, or no sample came back */
	ISOLATE_TIMEOUT = -65, /* no sample before o->timeout_ns */
	ISOLATE_SYSTEM = -66,  /* pipe or fork failed */
	ISOLATE_INTERRUPTED = -67, /* SIGINT/SIGTERM (interrupt.h): child killed */
};

/*
 * Measure one sample of b into r in a forked child.  0; a negative
 * enum engine_status the op returned; or an enum isolate_status.  On any
 * failure `why` (size bytes) holds the one-line reason, e.g.
 * "crashed: signal 11 (Segmentation fault) while timing".
 */
int isolate_measure(const struct bench *b, const struct bench_opts *o,
		    struct result *r, char *why, size_t size);

/*
 * Answers that verification needs, computed in a forked child with a time
 * limit per answer, so that a pattern an engine takes minutes over (glibc's
 * regexec has no match limit) or a crash costs one row, not the run.
 *
 * answer(arg, i, out) computes item i: 0 with out[0..nout-1] filled, or a
 * negative enum engine_status.  Items run in order in one child, each
 * answer sent back as it is found; when one takes longer than
 * o->timeout_ns the child is killed, status[i] is ISOLATE_TIMEOUT and a
 * new child goes on from i + 1.  A child that dies in item i makes
 * status[i] ISOLATE_CRASHED with the signal number in out[i * nout].  The
 * parent's memory is not changed by answer() (it runs in the child): only
 * out and status come back.  nout is at most ISOLATE_MAX_OUT.
 *
 * Without isolation (o->isolate == 0) the items run in this process.
 * Returns 0; ISOLATE_INTERRUPTED when a signal stopped it (interrupt.h:
 * the items from the one running are left unset); ISOLATE_SYSTEM when
 * pipe or fork failed (the items are then computed in this process).
 */
#define ISOLATE_MAX_OUT 4
typedef int (*isolate_answer_fn)(void *arg, size_t i, long *out);
int isolate_answers(size_t n, size_t nout, isolate_answer_fn answer,
		    void *arg, const struct bench_opts *o, long *out,
		    int *status);

/* One-line text for an isolate_answers() failure of item i ("crashed: ..."). */
void isolate_answer_text(int status, const long *out,
			 const struct bench_opts *o, char *buf, size_t size);

/*
 * The wire form of sample `sample` of r and the op's status rc: a magic,
 * rc, the failure text `why` when rc < 0 (may be NULL), the iterations,
 * then each metric's better, unit and value (host byte order: the reader
 * is the parent on the same machine).  Returns the bytes written, or 0
 * when buf is too small.
 */
size_t isolate_encode(const struct result *r, size_t sample, int rc,
		      const char *why, unsigned char *buf, size_t size);

/*
 * Read an encoded sample: *rc gets the op's status and `why` its failure
 * text; when rc is 0 the sample is appended to r.  0, or -1 when buf is
 * malformed or memory ran out (r may then hold a partial sample).
 */
int isolate_decode(const unsigned char *buf, size_t len, struct result *r,
		   int *rc, char *why, size_t size);

/*
 * Pin this process (and the children it forks) to CPU `cpu`.  0, or -1
 * with a one-line reason in err (not a CPU this process may use).
 */
int isolate_pin_cpu(int cpu, char *err, size_t size);

#endif

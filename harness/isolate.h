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

/*
 * Measure one sample of b into r in a forked child.  0; a negative
 * enum engine_status the op returned, or a STATUS_* of isolation.  On any
 * failure `why` (size bytes) holds the one-line reason, e.g.
 * "crashed: signal 11 (Segmentation fault) while timing".
 */
int isolate_measure(const struct bench *b, const struct bench_opts *o,
		    struct result *r, char *why, size_t size);

/*
 * Answers that verification needs, computed in a forked child with a time
 * limit per answer, so that a pattern an engine takes minutes over (glibc's
 * regexec has no match limit) or a crash costs one row, not the run.
 */
struct isolate_items {
	size_t n;    /* items */
	size_t size; /* bytes of one answer (> 0) */
	/* Item i: 0 with `size` bytes at out, or a negative enum engine_status. */
	int (*answer)(void *arg, size_t i, void *out);
	/*
	 * Optional: after item i failed, the next item worth computing
	 * (> i; the ones between are STATUS_SKIPPED), e.g. the next
	 * engine's first item.  NULL: i + 1.
	 */
	size_t (*after_failure)(void *arg, size_t i);
	void *arg;
};

/* What became of one item. */
struct isolate_verdict {
	int status; /* 0, answer()'s status, or STATUS_TIMEOUT / _CRASHED / _SKIPPED */
	int sig;    /* STATUS_CRASHED: the signal, 0 when the child just exited */
};

/*
 * Compute every item of it in order in one child, each answer sent back as
 * it is found (into out + i * it->size, with v[i]).  An item that takes
 * longer than o->timeout_ns is STATUS_TIMEOUT and one the child dies in
 * STATUS_CRASHED: the child is killed, and a new one goes on after it
 * (after_failure).  answer() changes nothing in the parent: only out and v
 * come back.  Without isolation (o->isolate == 0) the items run in this
 * process.  Returns 0; STATUS_INTERRUPTED when a signal stopped it
 * (interrupt.h: the items from the one running are left unset);
 * STATUS_SYSTEM when pipe or fork failed (the items then run here).
 */
int isolate_answers(const struct isolate_items *it, const struct bench_opts *o,
		    void *out, struct isolate_verdict *v);

/*
 * One-line text of a failed verdict: "crashed: signal 11 (...) while
 * verifying", "no answer within 60s while verifying: ...", or for
 * answer()'s own status the engine's name for it ("match limit").
 */
void isolate_verdict_text(const struct isolate_verdict *v,
			  const struct bench_opts *o, char *buf, size_t size);

/*
 * Pin this process (and the children it forks) to CPU `cpu`.  0, or -1
 * with a one-line reason in err (not a CPU this process may use).
 */
int isolate_pin_cpu(int cpu, char *err, size_t size);

#endif

/*
 * isolate.h - run work in a forked child, each item within a deadline;
 * CPU pinning.
 *
 * isolate_run() computes the items of a job (struct isolate_items) in
 * order in a forked child, which sends each item's answer back over a
 * pipe as soon as it has it.  The parent gives every answer timeout_ns
 * from the one before.  A child that misses the deadline is killed
 * (SIGKILL), and one killed by a signal or that exits without the answer
 * costs that item alone: a new child goes on after it.  SIGINT and
 * SIGTERM (interrupt.h) stop the run, and the child at once.  A child
 * shares the parent's memory copy-on-write and changes nothing in it:
 * only the answers come back, so state an item keeps (a query cursor)
 * starts afresh in each child.
 *
 * This knows nothing of what the items are: the harness measures one
 * sample per child (harness/bench.c), the suites compute the answers
 * verification needs (suites/case.h).  Each says what a child does
 * first (child_init), names its items and activity in the failure text,
 * and turns a verdict into a status of its own.  Its messages name the
 * command line's --timeout and --no-fork.
 *
 * Without isolation (--no-fork) the items run in this process, with no
 * deadline.
 */
#ifndef RXB_ISOLATE_H
#define RXB_ISOLATE_H

#include <stddef.h>
#include <stdint.h>

/* How items run.  Zeroed: in this process, without a deadline. */
struct isolate_limits {
	int isolate;         /* 1: in forked children; 0: in this process */
	uint64_t timeout_ns; /* with isolate: each answer's deadline; 0: none */
};

/* The work: n items, each answered by answer() into `size` bytes. */
struct isolate_items {
	size_t n;    /* items */
	size_t size; /* bytes of one answer */
	/*
	 * Item i: 0 with `size` bytes at out, or a negative status of the
	 * caller's: a failure, after which after_failure() says what comes
	 * next.  What it wrote at out comes back either way.
	 */
	int (*answer)(void *arg, size_t i, void *out);
	/*
	 * Optional: after item i failed (or its child did), the next item
	 * worth computing (> i; the ones between are ISOLATE_SKIPPED), e.g.
	 * the next engine's first item.  NULL: i + 1.
	 */
	size_t (*after_failure)(void *arg, size_t i);
	void *arg;
};

/* How an item ended. */
enum isolate_end {
	ISOLATE_UNSET = 0, /* not reached: the run stopped before it */
	ISOLATE_ANSWERED,  /* answer() returned `status` */
	ISOLATE_KILLED,    /* its child died of signal `sig` */
	ISOLATE_EXITED,    /* its child exited (status `code`) without the answer */
	ISOLATE_LATE,      /* no answer within timeout_ns: its child was killed */
	ISOLATE_SKIPPED,   /* passed over after an earlier failure */
	ISOLATE_NO_CHILD,  /* pipe or fork failed (errno `code`) when it was next */
};

/* What became of one item. */
struct isolate_verdict {
	/*
	 * ISOLATE_ANSWERED: what answer() returned.  Otherwise 0, for the
	 * caller to put its own status for `end` there.
	 */
	int status;
	enum isolate_end end;
	int sig;  /* ISOLATE_KILLED: the signal */
	int code; /* ISOLATE_EXITED: the exit status; ISOLATE_NO_CHILD: errno */
};

/*
 * Compute every item of it in order (see above), answer i into
 * out + i * it->size and its verdict into v[i] (all n are set).  With
 * lim->isolate, each child first calls child_init(it->arg) when it is
 * not NULL (a phase to set); without, this is isolate_run_here().
 * Returns 0 when every item has its verdict; 1 when SIGINT or SIGTERM
 * stopped it (the items from the one running on are ISOLATE_UNSET); -1
 * when pipe or fork failed: that item is ISOLATE_NO_CHILD, the ones
 * after ISOLATE_UNSET, and isolate_run_here() may take them on.
 */
int isolate_run(const struct isolate_items *it,
		const struct isolate_limits *lim,
		void (*child_init)(void *arg), void *out,
		struct isolate_verdict *v);

/*
 * The items of it without a verdict yet (from the first ISOLATE_UNSET or
 * ISOLATE_NO_CHILD on), in this process: no isolation, no deadline, no
 * child_init.  0, or 1 when SIGINT or SIGTERM stopped it (looked at
 * before each item).
 */
int isolate_run_here(const struct isolate_items *it, void *out,
		     struct isolate_verdict *v);

/*
 * One-line text of a verdict other than ISOLATE_ANSWERED (whose status
 * is the caller's to name), an item called `item` ("answer", "sample")
 * and the work `activity` ("verifying", "timing"): "crashed: signal 11
 * (Segmentation fault) while verifying", "no answer within 60s while
 * verifying: the child was killed (see --timeout)".
 */
void isolate_verdict_text(const struct isolate_verdict *v,
			  const struct isolate_limits *lim, const char *item,
			  const char *activity, char *buf, size_t size);

/*
 * Pin this process (and the children it forks) to CPU `cpu`.  0, or -1
 * with a one-line reason in err (not a CPU this process may use).
 */
int isolate_pin_cpu(int cpu, char *err, size_t size);

#endif

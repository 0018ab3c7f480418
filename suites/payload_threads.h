/*
 * payload_threads.h - --threads for the payload suite: a case's op on N
 * pinned threads, each over its share of the packets with its own
 * matching state (suites/payload_threads.c).  A scenario that runs on
 * threads says how in a struct payload_thread_ops (struct scenario's
 * .threads); the core adds and fills the threaded benchmarks.
 */
#ifndef RXB_PAYLOAD_THREADS_H
#define RXB_PAYLOAD_THREADS_H

#include "suites/payload.h"

struct pslot;

/*
 * How a scenario runs on threads (--threads), each thread over its own
 * share of the packets with its own matching state (engine.thread_new).
 */
struct payload_thread_ops {
	/* Slot s's state from its case's handle (s->pc->h).  0 or <0. */
	int (*begin)(struct pslot *s);
	void (*end)(struct pslot *s);
	/* n ops over the slot's packets, cycling.  0 or <0. */
	int (*run)(struct pslot *s, uint64_t n);
	/* The answer over one pass of the slot's packets.  0 or <0. */
	int (*check)(struct pslot *s, uint64_t *got);
	/* The same from verified answer `answer` of case c, packets [lo, hi). */
	uint64_t (*want)(const struct scen_size *ss, const struct case_item *c,
			 const void *answer, size_t lo, size_t hi);
	const char *answer; /* what check counts: "matching packets" */
};

/* One thread of a threaded case: its packets [lo, hi) and its state. */
struct pslot {
	struct pcase *pc;
	size_t lo, hi;
	size_t next;     /* packet its next run starts at */
	void *st;        /* its matching state (payload_thread_ops.begin) */
	uint64_t sink;
};

/* A case's benchmark on n threads (payload_threads.c). */
struct pthreads {
	struct pcase *pc;
	size_t n;
	struct bench_threads bt;
	struct pslot *slot;   /* n */
	uint64_t *want, *pass; /* per thread */
};

/*
 * Give case c of ss (engine c->e) a benchmark per thread count of the
 * run after its one-thread one (case_add_bench), or, where c->e or the
 * scenario cannot run on threads, an unsupported row saying why.  pt
 * holds the counts' state (one per count).  0, or -1 out of memory.
 */
int payload_threads_add(struct scen_size *ss, struct suite_ctx *ctx,
			struct pcase *pc, struct pthreads *pt);

/*
 * In case_ops.bench, after payload_bench_fill(), for a threaded
 * benchmark (its case_add_bench arg, pt; NULL for the one-thread one):
 * make b the op on pt->n threads, each checked against case c's verified
 * answer over its share.  0, or -1 out of memory.
 */
int payload_threads_fill(struct pthreads *pt, const struct case_item *c,
			 const void *answer, struct bench *b);
void payload_threads_release(struct pthreads *pt);



#endif

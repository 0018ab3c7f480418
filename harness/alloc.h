/*
 * alloc.h - allocation accounting for B/op, allocs/op and B(heap)/op.
 *
 * The rxbench executable (and the test runner) interpose malloc and
 * friends, forwarding to glibc's __libc_* functions; C++ operator new
 * lands here too.  Counting is off except between alloc_count_begin() and
 * alloc_count_end(), so the timed runs pay one predictable branch per call.
 *
 * Build option: RXB_NO_ALLOC_HOOKS (set for sanitizer builds, whose
 * runtimes own malloc) compiles the hooks out; alloc_hooks_available()
 * then returns 0 and the allocation metrics are not reported.
 */
#ifndef RXB_ALLOC_H
#define RXB_ALLOC_H

#include <stdint.h>

struct alloc_stats {
	uint64_t allocs; /* calls that returned memory */
	uint64_t bytes;  /* bytes requested by those calls */
	int64_t live;    /* usable bytes allocated minus usable bytes freed */
};

/* 1 when the hooks are compiled in. */
int alloc_hooks_available(void);

/* Zero the counters and start counting. Not nestable. */
void alloc_count_begin(void);

/* Stop counting; returns what was counted since alloc_count_begin(). */
struct alloc_stats alloc_count_end(void);

#endif

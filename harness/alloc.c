/*
 * alloc.c - malloc interposition for allocation accounting (see alloc.h).
 *
 * Every entry point of glibc's allocator that user code can reach is
 * defined here and forwards to the __libc_* twin, so no allocation escapes
 * the count (posix_memalign and aligned_alloc go through __libc_memalign).
 * Live bytes use malloc_usable_size(), which is glibc's own and not hooked.
 */
#include "harness/alloc.h"

#ifndef RXB_NO_ALLOC_HOOKS

#include <errno.h>
#include <malloc.h>
#include <stddef.h>

extern void *__libc_malloc(size_t);
extern void *__libc_calloc(size_t, size_t);
extern void *__libc_realloc(void *, size_t);
extern void __libc_free(void *);
extern void *__libc_memalign(size_t, size_t);
extern void *__libc_valloc(size_t);
extern void *__libc_pvalloc(size_t);

static struct {
	volatile int on;
	uint64_t allocs;
	uint64_t bytes;
	int64_t live;
} acct;

static void note_alloc(void *p, size_t requested)
{
	if (!acct.on || p == NULL)
		return;
	__atomic_fetch_add(&acct.allocs, 1, __ATOMIC_RELAXED);
	__atomic_fetch_add(&acct.bytes, requested, __ATOMIC_RELAXED);
	__atomic_fetch_add(&acct.live, (int64_t)malloc_usable_size(p),
			   __ATOMIC_RELAXED);
}

static void note_free(void *p)
{
	if (!acct.on || p == NULL)
		return;
	__atomic_fetch_sub(&acct.live, (int64_t)malloc_usable_size(p),
			   __ATOMIC_RELAXED);
}

void *malloc(size_t size)
{
	void *p = __libc_malloc(size);
	note_alloc(p, size);
	return p;
}

void free(void *p)
{
	note_free(p);
	__libc_free(p);
}

void *calloc(size_t n, size_t size)
{
	void *p = __libc_calloc(n, size);
	note_alloc(p, n * size); /* __libc_calloc rejected an overflow */
	return p;
}

/* A realloc counts as one allocation of the new size (Go counts the same). */
void *realloc(void *old, size_t size)
{
	void *p;

	note_free(old);
	p = __libc_realloc(old, size);
	if (p == NULL && size != 0 && old != NULL) {
		/* old is still live: undo the note_free */
		if (acct.on)
			__atomic_fetch_add(&acct.live,
					   (int64_t)malloc_usable_size(old),
					   __ATOMIC_RELAXED);
		return NULL;
	}
	note_alloc(p, size);
	return p;
}

void *reallocarray(void *old, size_t n, size_t size)
{
	size_t total;

	if (__builtin_mul_overflow(n, size, &total)) {
		errno = ENOMEM;
		return NULL;
	}
	return realloc(old, total);
}

void *memalign(size_t align, size_t size)
{
	void *p = __libc_memalign(align, size);
	note_alloc(p, size);
	return p;
}

void *aligned_alloc(size_t align, size_t size)
{
	return memalign(align, size);
}

int posix_memalign(void **out, size_t align, size_t size)
{
	void *p;

	if (align < sizeof(void *) || (align & (align - 1)) != 0)
		return EINVAL;
	p = memalign(align, size);
	if (p == NULL)
		return ENOMEM;
	*out = p;
	return 0;
}

void *valloc(size_t size)
{
	void *p = __libc_valloc(size);
	note_alloc(p, size);
	return p;
}

void *pvalloc(size_t size)
{
	void *p = __libc_pvalloc(size);
	note_alloc(p, size);
	return p;
}

int alloc_hooks_available(void)
{
	return 1;
}

void alloc_count_begin(void)
{
	acct.allocs = 0;
	acct.bytes = 0;
	acct.live = 0;
	__atomic_store_n(&acct.on, 1, __ATOMIC_SEQ_CST);
}

struct alloc_stats alloc_count_end(void)
{
	struct alloc_stats s;

	__atomic_store_n(&acct.on, 0, __ATOMIC_SEQ_CST);
	s.allocs = acct.allocs;
	s.bytes = acct.bytes;
	s.live = acct.live;
	return s;
}

#else /* RXB_NO_ALLOC_HOOKS */

int alloc_hooks_available(void)
{
	return 0;
}

void alloc_count_begin(void)
{
}

struct alloc_stats alloc_count_end(void)
{
	struct alloc_stats s = {0, 0, 0};
	return s;
}

#endif

/*
 * clock.h - the clocks the harness reads, in ns.
 *
 * clock_ns() is the wall clock (CLOCK_MONOTONIC), the one go test
 * reads: ~25 ns through the vDSO, steady to a few ns.  clock_cpu_ns()
 * is the CPU time of this process (all its threads), a system call of
 * ~300 ns that jitters by microseconds on these VMs; the harness uses it
 * only to see that a run was preempted (harness/bench.c, bench_time).
 * clock_thread_ns() is the calling thread's CPU time, in the kernel too
 * and not while it sleeps or waits for a CPU: what an engine timing a
 * system call of its own reads around it (engines/xdp.c: the kernel's
 * loop without the synchronize_rcu() a test run sleeps in).
 */
#ifndef RXB_CLOCK_H
#define RXB_CLOCK_H

#include <stdint.h>
#include <time.h>

static inline uint64_t clock_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static inline uint64_t clock_cpu_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static inline uint64_t clock_thread_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

#endif

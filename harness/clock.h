/*
 * clock.h - the one clock the harness reads (CLOCK_MONOTONIC, ns).
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

#endif

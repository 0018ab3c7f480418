/*
 * rng.h - the deterministic generator every corpus uses (splitmix64), so
 * a --seed reproduces the same inputs on every machine and libc.
 */
#ifndef RXB_RNG_H
#define RXB_RNG_H

#include <stdint.h>

struct rng {
	uint64_t s;
};

static inline void rng_init(struct rng *r, uint64_t seed)
{
	r->s = seed;
}

static inline uint64_t rng_next(struct rng *r)
{
	uint64_t z = (r->s += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

/* Uniform in [0, n); n > 0.  The bias is below 2^-32 for n < 2^32. */
static inline uint64_t rng_below(struct rng *r, uint64_t n)
{
	return rng_next(r) % n;
}

#endif

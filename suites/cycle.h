/*
 * cycle.h - the one loop that cycles a timed op over a suite's inputs.
 *
 * A benchmark's run(arg, n) (harness/bench.h) does n ops, each on the
 * next input of [lo, hi) (packets, flows, queries, lines), wrapping to lo
 * after hi - 1, and goes on where its previous call stopped.  Every
 * suite's loop is this one.
 *
 * The op is a static function passed by name: cycle_run is always
 * inlined into its caller, and GCC and Clang then call the op directly
 * (and inline it), so the timed loop holds no indirect call the op
 * itself does not make.  The loop runs in chunks up to the wrap, so the
 * hot loop tests one bound.
 */
#ifndef RXB_CYCLE_H
#define RXB_CYCLE_H

#include <stddef.h>
#include <stdint.h>

/*
 * One op on input i: what it counts (>= 0, summed into *sink: matches,
 * hits) or a negative enum engine_status, which stops the loop.
 */
typedef long (*cycle_op)(void *arg, size_t i);

/*
 * n ops of op(arg, i) over [lo, hi) (lo < hi), from *next (lo <= *next <
 * hi), which is left at the input after the last op.  The counts are
 * added to *sink (NULL: dropped).  Returns 0, or the first negative
 * status an op returned (*next and *sink are then left as they were).
 */
static inline __attribute__((always_inline)) int
cycle_run(size_t lo, size_t hi, size_t *next, uint64_t n, cycle_op op,
	  void *arg, uint64_t *sink)
{
	size_t i = *next;
	uint64_t sum = 0;

	while (n > 0) {
		size_t end = i + (n < hi - i ? (size_t)n : hi - i);

		n -= end - i;
		for (; i < end; i++) {
			long rc = op(arg, i);

			if (rc < 0)
				return (int)rc;
			sum += (uint64_t)rc;
		}
		i = i == hi ? lo : i;
	}
	*next = i;
	if (sink != NULL)
		*sink += sum;
	return 0;
}

#endif

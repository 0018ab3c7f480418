/*
 * fqdn_runner.h - the fqdn suite's wire to a runner (engines/runner.h):
 * the rewrite its work flags ask for, and its endpoints world ('P', 'Q'
 * and 'X'), on the runner's generic message API.
 *
 * == 'W' flags (bits 1 and 2 are fqdn's) ==
 *
 * Bit 1 (fqdn): each op first rewrites its input as the fqdn suite does
 * (suites/fqdn_strategies.h, fqdn_rewrite: lower case as Go's
 * strings.ToLower as far as a verdict can tell, that is ASCII letters,
 * U+0130 to 'i' and U+212A to 'k'; then a trailing dot unless the input
 * ends with one), and bit 2 (reverse, only with bit 1) then reverses its
 * bytes: the proxy's work, in the op as the C engines' ops do it.  names
 * are then the map of the fqdn suite's map+ strategies, looked up first
 * as Cilium does, with the rewritten input.  Other flag bits are an
 * error.
 *
 * == The endpoints requests ==
 *
 *   request                           reply
 *   'P' endpoints u32 id, u32 flags,  'P' u64 heap, u64 nocache heap,
 *       u32 n, u32 nsel, u32 ngen,        u64 units held, or 'E'
 *       u32 nunits, nunits x unit,
 *       n x ngen x nsel x u32 unit
 *   'Q' endpoint answers u32 id,      'A' as answers (ids empty)
 *       u8 flags, u32 n,
 *       n x (u32 ep, bytes input)
 *   'X' endpoints work u32 id, u8 op, 'K', or 'E'
 *       u8 flags, u32 n,
 *       n x (u32 ep, bytes input)
 *
 * endpoints: Cilium's DNS proxy holding n endpoints of nsel L7
 * selectors each (the fqdn suite's --endpoints, suites/fqdn_ep.h), kept
 * under `id` (freed by 'F').  A unit is one selector's rules as the
 * strategy generated them: u32 nre, nre x (u32 prefix, bytes rest),
 * u32 nnames, u8 with_ref, nnames x bytes name.  Unit 0 is the
 * reference, given whole (prefixes 0, with_ref 0); in any other, regex i
 * is the first `prefix` bytes of the reference's regex i then `rest`,
 * and its names are the reference's (when with_ref) then its own: an
 * endpoint's rules are the base policy's and a few of its own, so the
 * description is small and the runner rebuilds every text exactly.
 * Selector k of endpoint ep in generation g holds unit
 * unit[(ep * ngen + g) * nsel + k].  The runner builds generation 0 of
 * every endpoint as Cilium does: per selector the unit's regexes
 * compiled alone (and its names in a hash map), through a cache keyed by
 * the texts (the pattern, then the names) and counted by reference, so
 * selectors with the same rules share one.  heap is what the world
 * holds (Go: HeapAlloc after runtime.GC(), before and after); nocache
 * heap what it would hold had every selector compiled its own: each
 * unit's heap (measured by groups of units held by as many selectors)
 * counted once per selector holding it.  A compile error is 'E' 1.
 * answers: each query's verdict on its endpoint, CheckAllowed: the
 * endpoint's selectors in order until one allows (its names, then its
 * regexes in order).  work: op 5 is that verdict on the next (ep, input);
 * op 6 a policy-update of endpoint ep (inputs empty): its selectors to
 * the units of its other generation (ngen 2), new units first (a cache
 * hit, or compiled), then the old ones released.  A runner without
 * endpoints answers 'P' with 'E' unsupported (2).  flags are work's bits
 * 1 and 2 (others are an error): each query is rewritten first, in the
 * answers and in the timed op, as the C engines' endpoint ops do.
 */
#ifndef RXB_FQDN_RUNNER_H
#define RXB_FQDN_RUNNER_H

#include <stddef.h>
#include <stdint.h>

#include "engines/engine.h"
#include "engines/runner.h"
#include "suites/fqdn_strategies.h"

/* What a work's op does to its input first (struct engine_work's
 * rewrite, 'W' flags bits 1 and 2: this suite's). */
enum fqdn_runner_rewrite {
	FQDN_RUNNER_REWRITE_NONE = 0,
	FQDN_RUNNER_REWRITE_FQDN = 1u << 1,    /* lower case, a trailing dot */
	FQDN_RUNNER_REWRITE_REVERSE = 1u << 2, /* then reversed (with _FQDN) */
};

/* How a runner's op rewrites a query of strategy s (enum
 * fqdn_runner_rewrite): as fqdn_rewrite() does. */
unsigned fqdn_runner_rewrite(const struct fqdn_strategy *s);

/* The ops of an endpoints work ('X'). */
enum fqdn_runner_ep_op {
	FQDN_RUNNER_EP_MATCH = 5,  /* a query on its endpoint */
	FQDN_RUNNER_EP_UPDATE = 6, /* a policy-update */
};

/*
 * An endpoints world's description: n endpoints x ngen generations x nsel
 * selectors (fqdn_runner_desc_new: NULL out of memory).  Add its units in
 * order (the first is the reference the others are coded against:
 * fqdn_runner_desc_unit, 0 or -1 out of memory), assign every selector
 * its unit, then fqdn_runner_ep_build sends it ('P') to the runner of
 * handle any (a set of it), every regex compiled with flags: *world the
 * world (a handle as a set's: runner_free, runner_unload; every process
 * that uses it builds it again in its own runner), *mem what it holds
 * there.  0, or a negative enum engine_status with err filled (the
 * runner's message); *world is then NULL.
 */
struct fqdn_runner_unit {
	const struct engine_span *re;
	size_t nre;
	const struct engine_span *names;
	size_t nnames;
};

struct fqdn_runner_mem {
	int64_t heap;         /* the world, with the cache */
	int64_t heap_nocache; /* had every selector its own units */
	uint64_t units;       /* units held */
};

struct fqdn_runner_desc;

struct fqdn_runner_desc *fqdn_runner_desc_new(size_t n, size_t ngen,
					      size_t nsel);
int fqdn_runner_desc_unit(struct fqdn_runner_desc *d,
			  const struct fqdn_runner_unit *u);
void fqdn_runner_desc_assign(struct fqdn_runner_desc *d, size_t ep,
			     size_t gen, size_t sel, uint32_t unit);
void fqdn_runner_desc_free(struct fqdn_runner_desc *d);
int fqdn_runner_ep_build(const struct fqdn_runner_desc *d, void *any,
			 unsigned flags, void **world,
			 struct fqdn_runner_mem *mem,
			 struct engine_error *err);

/* Each query in[i]'s verdict (0 or 1) on endpoint eps[i], in one
 * request ('Q'), each rewritten first as `rewrite` (enum
 * fqdn_runner_rewrite) says.  0, or a negative enum engine_status. */
int fqdn_runner_ep_answers(void *world, unsigned rewrite, const uint32_t *eps,
			   const struct engine_span *in, size_t n,
			   unsigned char *out);

/*
 * The job of an endpoints work ('X') on world (runner_add_request(): the
 * request copied, not the bytes; freed with world): op
 * FQDN_RUNNER_EP_MATCH asks in[i] of endpoint eps[i], cycling;
 * FQDN_RUNNER_EP_UPDATE updates eps[i] (in[i] empty); a match rewrites
 * its query first as `rewrite` says.  NULL out of memory.
 */
void *fqdn_runner_ep_add_work(void *world, enum fqdn_runner_ep_op op,
			      unsigned rewrite, const uint32_t *eps,
			      const struct engine_span *in, size_t n);

#endif

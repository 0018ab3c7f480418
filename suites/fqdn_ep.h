/*
 * fqdn_ep.h - many endpoints, as Cilium's DNS proxy holds them: the
 * `endpoints` dimension of the FQDN suite (--endpoints=N).
 *
 * The shape is that of Cilium's Benchmark_perEPAllow_setPortRulesForID
 * (pkg/fqdn/dnsproxy/proxy_test.go): every endpoint has the same base
 * rules (the size's policy) on FQDN_EP_SELECTORS L7 selectors of one
 * port, each selector holding the endpoint's whole rule list; endpoint i
 * adds a matchName "custom-for-this-one<i>.domain.tld" and a matchPattern
 * "custom2-for-this-one*<i>.domain.tld" unless i is a multiple of 10
 * (those are identical), and a matchPattern "*" when i + 1 is a multiple
 * of 20.
 *
 * One L7 selector's rules compile to a unit: the strategy's generate
 * (cilium-l7's GeneratePattern regex, map+cilium-l7's name set and
 * regex, the trie) and the engine's compile.  Units are shared through
 * a cache keyed by the rules' text and counted by reference, as Cilium's
 * regex cache shares a regexp by its pattern text: two selectors (or
 * endpoints) with the same rules hold one unit.  A query on an endpoint
 * asks its selectors in order until one allows (CheckAllowed).
 *
 * Memory: what the world holds is measured with the allocation hooks
 * (harness/alloc.h) while it is built: every unit's live bytes (its
 * regex text, name set, trie and the engine's compiled handle) and the
 * world's own tables.  Without a cache each selector would hold its own
 * unit: the same total with every unit counted once per selector using
 * it (a compile of the same text keeps the same bytes).  Memory an
 * engine maps itself (PCRE2's JIT code) and what it builds lazily while
 * matching (RE2's DFA states) is not in it.
 *
 * On a runner engine (engines/runner.h: Go's regexp) the world lives in
 * the runner, which builds it as Cilium does and measures it with its
 * own runtime ('P'): rxbench generates every distinct unit of both
 * generations here and sends them (coded against the base's), with the
 * unit of every selector; the verdicts and the timed ops are the
 * runner's (fqdn_ep_runner_answers, fqdn_runner_ep_add_work(): the
 * requests are suites/fqdn_runner.h's).
 */
#ifndef RXB_FQDN_EP_H
#define RXB_FQDN_EP_H

#include <stddef.h>
#include <stdint.h>

#include "corpora/fqdn_policy.h"
#include "engines/engine.h"
#include "engines/runner.h"
#include "suites/fqdn_strategies.h"

/* L7 selectors per endpoint, each with the endpoint's rules (Cilium's 2). */
#define FQDN_EP_SELECTORS 2

struct fqdn_ep_unit;

struct fqdn_ep_world {
	const struct fqdn_strategy *s;
	const struct engine *e; /* NULL: the trie */
	const struct fqdn_policy *base;
	size_t n;               /* endpoints */
	size_t round;           /* n rounded up to a multiple of 20 */
	unsigned char *gen;     /* per endpoint: its rules' generation, 0/1 */
	struct fqdn_ep_unit **sel; /* n * FQDN_EP_SELECTORS */
	struct fqdn_ep_unit **bucket; /* the cache, chained */
	size_t mask;
	size_t nunits;          /* distinct units held */
	/* measured while built (-1: no allocation hooks in this build) */
	int64_t heap;           /* the world with the cache, bytes */
	int64_t heap_nocache;   /* ... had every selector its own unit */
	void *runner;           /* on a runner: the world's handle there */
};

/*
 * Endpoint `id`'s rules: base's selectors (borrowed, not copied) and the
 * extras above, into *p, whose texts for the extras live in ex
 * (FQDN_EP_EXTRA bytes).  Release with fqdn_ep_policy_release().  0, or
 * -1 out of memory.
 */
#define FQDN_EP_EXTRA 128
int fqdn_ep_policy(const struct fqdn_policy *base, size_t id,
		   struct fqdn_policy *p, char *ex);
void fqdn_ep_policy_release(struct fqdn_policy *p);

/*
 * Build n endpoints of base's rules under strategy s on engine e (NULL
 * for the trie) into w, sharing units through the cache, and measure
 * them.  0, or a negative engine status with err filled (a compile
 * failure: err->pattern the unit's regex), or STATUS_INTERRUPTED when a
 * SIGINT or SIGTERM came between two endpoints (10,000 endpoints on
 * Hyperscan compile for minutes).  Free with fqdn_ep_free() (also after
 * a failure).
 */
int fqdn_ep_build(struct fqdn_ep_world *w, const struct fqdn_strategy *s,
		  const struct engine *e, const struct fqdn_policy *base,
		  size_t n, struct engine_error *err);
void fqdn_ep_free(struct fqdn_ep_world *w);

/*
 * Endpoint ep's verdict on query q (CheckAllowed: its selectors in order
 * until one allows): 1 allowed, 0 denied, or a negative engine status.
 * buf holds len + 2 bytes.  Never allocates.
 */
int fqdn_ep_decide(const struct fqdn_ep_world *w, size_t ep, const char *q,
		   size_t len, char *buf);

/*
 * On a runner world: query q[i] (as it came; the runner rewrites it as
 * `rewrite`, enum fqdn_runner_rewrite, says) on endpoint ep[i], for every
 * i < n, in one request; out[i] its verdict.  0, or a negative engine
 * status.
 */
int fqdn_ep_runner_answers(const struct fqdn_ep_world *w, unsigned rewrite,
			   const uint32_t *ep,
			   const struct engine_span *q, size_t n,
			   unsigned char *out);

/*
 * Replace endpoint ep's rules by its other generation (the rules of
 * endpoint ep + round: the same class, so an identical endpoint stays
 * identical), as setPortRulesForID does: the new units first, from the
 * cache when an identical rule set is held, else compiled; then the old
 * ones released.  Its verdicts change only on its custom names.  0, or a
 * negative engine status (ep keeps its rules).
 */
int fqdn_ep_update(struct fqdn_ep_world *w, size_t ep);

/* --- the endpoint cases (fqdn_ep_case.c) --- */

struct fqdn_size;
struct suite_ctx;

/*
 * The endpoint cases of size z, one table per endpoint count (counts[i],
 * i < ncounts; none: nothing), each query asked of an endpoint drawn
 * from seed, on the strategies `strategies` names (bit i for
 * fqdn_strategies[i]) that have endpoints, through the pipeline.  0,
 * STATUS_INTERRUPTED or -1.  Release with fqdn_eps_release_all() (also
 * after a failure).
 */
int fqdn_eps_plan_all(struct suite_ctx *ctx, struct fqdn_size *z,
		      const size_t *counts, size_t ncounts, uint64_t seed,
		      uint32_t strategies);
void fqdn_eps_release_all(struct fqdn_size *z);

#endif

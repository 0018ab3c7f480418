/*
 * fqdn_size.h - one policy size of the FQDN suite: its inputs, the
 * benchmark phases and what the strategy cases (fqdn.c) and the endpoint
 * cases (fqdn_ep_case.c) both read of it.
 */
#ifndef RXB_FQDN_SIZE_H
#define RXB_FQDN_SIZE_H

#include <stddef.h>
#include <stdint.h>

#include "corpora/fqdn_policy.h"
#include "engines/runner.h"
#include "suites/case.h"
#include "suites/fqdn_strategies.h"
#include "suites/fqdn_verify.h"

enum fqdn_phase {
	PH_GENERATE,
	PH_COMPILE,
	PH_COMBINED,
	PH_MATCH_FIRST, /* the query sets follow, in enum fqdn_qset order */
	PH_QUERIES = PH_MATCH_FIRST + FQDN_Q_COUNT,
	PH_UPDATE, /* --endpoints: replace one endpoint's rules */
	PH_COUNT,
};

#define FQDN_NSETS (FQDN_Q_COUNT + 1) /* the generated sets, then --queries */

struct fqdn_case;
struct fqdn_eps;

/* One policy size: its inputs, its cases and the table verifying them. */
struct fqdn_size {
	size_t domains;
	int named; /* several sizes: benchmark names carry /domains=N */
	/* the DNS proxy's selectors (a CNP's rules.dns: every strategy but
	   the name manager's), and the name manager's (toFQDNs: cilium-l3
	   and map+cilium-l3, FQDN_S_L3); a list or a generator puts each
	   selector in both */
	struct fqdn_policy policy;
	struct fqdn_policy policy_l3;
	int from_file; /* --policy whose sets differ (a CNP, not a list) */
	struct fqdn_queries q[FQDN_NSETS];
	struct fqdn_set sets[FQDN_NSETS]; /* q, named: what an answer covers */
	size_t off[FQDN_NSETS];   /* where set k starts in an answer */
	uint32_t strategies;      /* the ones that run (fqdn_config) */
	struct fqdn_built *built; /* one per strategy (zero when it does not
				     run) */
	signed char *valid;       /* per strategy: 1 valid syntax, 0 not,
				     -1 not known yet (compile_failure) */
	struct fqdn_case *cases;  /* strategy by strategy, engine none first */
	size_t ncases, maxcases;
	/* per case, shared with the verifying children: the query being
	   asked (fqdn_answer), to say where a failed answer stopped */
	size_t *at;
	struct case_ops ops;      /* fqdn_ops, with this size's answer_size */
	struct case_table table;
	struct fqdn_eps *eps;     /* one per --endpoints count */
	size_t neps;
	int lean;                 /* leave out the slow pairs (fqdn_slow) */
};

/* "generate", "compile", ..., a query set's name, "policy-update". */
const char *fqdn_phase_name(enum fqdn_phase ph);

/* Queries of set k (all sets: FQDN_NSETS) that answer a allows. */
size_t fqdn_answer_allowed(const struct fqdn_size *z, const unsigned char *a,
			   size_t k);

/* case_ops' describe and explain of a size's answers (arg: the size). */
void fqdn_size_describe(void *arg, const struct case_item *c,
			const void *answer, char *buf, size_t size);
void fqdn_size_explain(void *arg, const struct case_item *c, const void *got,
		       const void *want, char *buf, size_t size);

/*
 * Every query of z's sets as it is, in set order, into *rin (the
 * runner's op rewrites it); nothing when *rin is there.  0, or -1 out of
 * memory.
 */
int fqdn_queries_all(const struct fqdn_size *z, struct engine_span **rin);

/*
 * Whether the suite can time engine e: 0, or ENGINE_ERR_UNSUPPORTED with
 * why filled when e times itself (engine_self_timed) but takes no suite
 * requests (CAP_REQUESTS): the proxy's op (its rewrite, its name map,
 * then the regex, or an endpoint's look-up) is timed where the engine
 * times, so only an engine that runs the suite's own code there (a
 * runner: go/fqdn.go ...) can time it.
 */
int fqdn_engine_timeable(const struct engine *e, char *why, size_t size);

/* The longest query of z's sets. */
size_t fqdn_size_maxq(const struct fqdn_size *z);

#endif

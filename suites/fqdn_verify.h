/*
 * fqdn_verify.h - checking a strategy on an engine against the reference
 * verdicts, before any timing (the FQDN suite's verification step, kept
 * apart so tests can feed it a deliberately wrong strategy), and the
 * messages of what it found.
 */
#ifndef RXB_FQDN_VERIFY_H
#define RXB_FQDN_VERIFY_H

#include <stddef.h>

#include "corpora/fqdn_policy.h"
#include "suites/fqdn_strategies.h"

/* A query set and the reference's verdict on each of its queries. */
struct fqdn_qset_ref {
	const char *name; /* "match-name", ..., "queries" */
	const struct fqdn_queries *q;
	const unsigned char *expect;
};

/* What verification found. */
struct fqdn_verdict {
	size_t total;      /* queries asked */
	size_t wrong;      /* verdicts that differ from the reference */
	size_t allowed;    /* queries the strategy allowed */
	int status;        /* 0, or the engine's negative status (stops) */
	const char *query; /* the first wrong (or failing) query, NULL: none */
	size_t qlen;       /* its length (it may hold NUL) */
	size_t index;      /* its index in its set */
	const char *set;   /* its set */
	int got, want;     /* the first wrong verdict and the reference's */
};

/*
 * Ask strategy s (built b; h its regex compiled on e, or NULL) every query
 * of the n sets, comparing with their expect[].  buf holds the longest
 * query + 2 bytes.  Fills *v; returns 0 when every verdict agrees, -1
 * otherwise (wrong verdicts, or an engine error in v->status).
 */
int fqdn_verify(const struct fqdn_strategy *s, const struct fqdn_built *b,
		const struct engine *e, void *h, const struct fqdn_qset_ref *sets,
		size_t n, char *buf, struct fqdn_verdict *v);

/*
 * The one-line text of a failed verification (v from fqdn_verify, one
 * whose v->query is set) of strategy on engine at `domains` selectors:
 * "strategy S, engine E, N domains: query 'Q' (set): allowed, the
 * reference says denied; W of T queries differ", or, for an engine
 * error, "E: strategy S: query 'Q' (set): <status>".  Q is the whole
 * query, its control bytes (NUL, CR, LF, ESC...) as \xNN.
 */
void fqdn_verdict_text(const struct fqdn_verdict *v, const char *strategy,
		       const char *engine, size_t domains, char *buf,
		       size_t size);

#endif

/*
 * fqdn_verify.h - what the FQDN suite verifies, as data: a strategy's
 * verdict on every query of a case's query sets (its answer), the
 * reference's (the expected answer), and the messages that quote a query
 * where they differ.  The suite feeds them to the one pipeline
 * (suites/case.h); kept apart so tests can feed them a deliberately wrong
 * strategy.
 *
 * An answer is one byte per query, the sets' queries in order: 1 allowed,
 * 0 denied.  Query i of an answer is the i-th of the sets' queries.
 */
#ifndef RXB_FQDN_VERIFY_H
#define RXB_FQDN_VERIFY_H

#include <stddef.h>

#include "corpora/fqdn_policy.h"
#include "suites/fqdn_ref.h"
#include "suites/fqdn_strategies.h"

/* A query set as messages name it: "match-name", ..., "queries". */
struct fqdn_set {
	const char *name;
	const struct fqdn_queries *q;
};

/* Queries in sets[0..n), the length of an answer. */
size_t fqdn_total(const struct fqdn_set *sets, size_t n);

/*
 * The verdicts of strategy s (built b; h its regex compiled on e, or
 * NULL) on every query of sets[0..n) into out (fqdn_total() bytes).  buf
 * holds the longest query + 2 bytes.  *at (when at is not NULL) holds the
 * query being asked, so that memory shared with a verifying child says
 * where it stopped.  0, or the engine's negative status (it stops there).
 */
int fqdn_answer(const struct fqdn_strategy *s, const struct fqdn_built *b,
		const struct engine *e, void *h, const struct fqdn_set *sets,
		size_t n, char *buf, unsigned char *out, size_t *at);

/* The reference's verdicts on the same queries into out.  0, or -1 out
 * of memory. */
int fqdn_expect(const struct fqdn_ref *r, const struct fqdn_set *sets,
		size_t n, unsigned char *out);

/* Queries whose verdicts differ between got and want (total bytes each). */
size_t fqdn_differ(const unsigned char *got, const unsigned char *want,
		   size_t total);

/*
 * Where answer got differs from want: "query 'Q' (set): allowed, the
 * reference says denied; W of T queries differ".  Q is the whole query,
 * its control bytes (NUL, CR, LF, ESC...) as \xNN.
 */
void fqdn_explain(const struct fqdn_set *sets, size_t n,
		  const unsigned char *got, const unsigned char *want,
		  char *buf, size_t size);

/* Query `at` of an answer: "query 'Q' (set)", Q escaped as above. */
void fqdn_query_text(const struct fqdn_set *sets, size_t n, size_t at,
		     char *buf, size_t size);

#endif

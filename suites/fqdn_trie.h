/*
 * fqdn_trie.h - a purpose-built FQDN matcher with no regex engine: the
 * `trie` strategy, the reference point for what a regex engine costs.
 *
 * matchNames (and matchPatterns without a star) go to a set of whole
 * names.  A matchPattern whose stars all sit in its first j labels (every
 * 1.11 pattern, every 1.19 one without a leading "**.") is a head (those
 * j labels) and an exact suffix (the rest), kept in group j of a set of
 * suffixes: a query hashes its own suffix after its j-th dot once per
 * group and checks the heads found there, label by label, '*' matching
 * [-a-zA-Z0-9_]* inside the label.  A matchPattern "*" sets a flag that
 * allows every valid name (1.11's match-all; under 1.19 a stars-only
 * pattern allows every name); "*." is an ordinary one-label pattern,
 * which allows ".".  1.19's leading "**." (one label or more) goes to a
 * label trie walked right to left, top-level domain first.  Empty labels
 * count ("." is one empty label, "a..b." has three).
  */
#ifndef RXB_FQDN_TRIE_H
#define RXB_FQDN_TRIE_H

#include <stddef.h>

#include "corpora/fqdn_policy.h"

struct fqdn_trie;

/* Build the trie of p.  NULL out of memory.  Free with fqdn_trie_free(). */
struct fqdn_trie *fqdn_trie_build(const struct fqdn_policy *p);
void fqdn_trie_free(struct fqdn_trie *t);

/*
 * 1 when the policy allows q, else 0.  q is lower case and ends with a
 * dot (fqdn_rewrite() of the trie strategy).  Never allocates.
 */
int fqdn_trie_match(const struct fqdn_trie *t, const char *q, size_t len);

#endif

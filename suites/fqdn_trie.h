/*
 * fqdn_trie.h - a purpose-built FQDN matcher with no regex engine: the
 * `trie` strategy, the reference point for what a regex engine costs.
 *
 * matchNames go to a hash set of whole names.  matchPatterns are split
 * into labels and inserted from the top-level domain down: a plain label
 * is an edge in one hash table keyed by (parent node, label); a label with
 * '*' is a wildcard edge in the parent's list, tried with a glob where '*'
 * matches [-a-zA-Z0-9_]* inside the label.  A query is looked up whole,
 * then walks its labels right to left, empty ones too (the name "." is
 * one empty label, "a..b." has three); it matches when its last label
 * ends on a node where a pattern ended.  A matchPattern "*" sets a flag
 * that allows every valid name (Cilium's match-all); "*." is an ordinary
 * one-label pattern, which allows ".".
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

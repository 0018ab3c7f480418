/*
 * fqdn_forms.h - the two matchPattern forms Cilium 1.19 reads apart from
 * a label pattern (pkg/fqdn/matchpattern: isDNSWildcard and
 * escapeRegexpCharacters), shared by the strategies and the trie.  The
 * reference (fqdn_ref.c) decides them with code of its own, so a slip
 * here shows as a mismatch.
 */
#ifndef RXB_FQDN_FORMS_H
#define RXB_FQDN_FORMS_H

#include <stddef.h>

#include "corpora/fqdn_policy.h"

/* How many stars s[0..len) starts with. */
static inline size_t fqdn_leading_stars(const char *s, size_t len)
{
	size_t i = 0;

	while (i < len && s[i] == '*')
		i++;
	return i;
}

/*
 * 1 when s[0..len) is a DNS wildcard: stars only, with or without one
 * final dot ("*", "***", "*.", "**.").  1.19's proxy allows every name
 * with one (GeneratePattern's match-all).
 */
static inline int fqdn_dns_wildcard(const char *s, size_t len)
{
	if (len > 0 && s[len - 1] == '.')
		len--;
	return len > 0 && fqdn_leading_stars(s, len) == len;
}

/* 1 when selector s is a matchPattern that is a DNS wildcard. */
static inline int fqdn_sel_dns_wildcard(const struct fqdn_selector *s)
{
	return s->kind == FQDN_MATCH_PATTERN &&
	       fqdn_dns_wildcard(s->text, s->len);
}

/*
 * The length of s's subdomain wildcard prefix, two stars or more and a
 * dot ("**.", "****."), when more follows it; else 0.  1.19 reads that
 * prefix as one or more whole labels of [-a-zA-Z0-9_].
 */
static inline size_t fqdn_subdomain_prefix(const char *s, size_t len)
{
	size_t k = fqdn_leading_stars(s, len);

	return k >= 2 && k + 1 < len && s[k] == '.' ? k + 1 : 0;
}

#endif

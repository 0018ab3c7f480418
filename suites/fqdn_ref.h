/*
 * fqdn_ref.h - the reference verdict of the FQDN suite: does a policy
 * allow a query name, by Cilium v1.11's rules?
 *
 * What Cilium v1.11 does (pkg/fqdn/dnsproxy/proxy.go, pkg/fqdn/matchpattern):
 *   - the query: name = strings.ToLower(dns.Fqdn(name)) in CheckAllowed,
 *     then regexp.MatchString against the rules' regex;
 *   - a matchName N: ToRegexp(strings.ToLower(dns.Fqdn(N))), so exactly
 *     that name ('.' is [.]);
 *   - a matchPattern P: ToRegexp(Sanitize(P)); Sanitize adds the final
 *     dot unless P is exactly "*"; ToRegexp lower-cases, turns '*' into
 *     [-a-zA-Z0-9_]* and '.' into [.], anchored ^...$; the matchPattern
 *     "*" alone is the match-all (^([-a-zA-Z0-9_]+[.])+$)|(^[.]$).
 * So "*." is ^[-a-zA-Z0-9_]*[.]$, which allows "." and every one-label
 * name; only "*" itself is the match-all.
 *
 * The same rules label by label, with no regex: '*' never matches a dot,
 * so the dots of a name line up with the dots of the selector.  Both end
 * in a dot (dns.Fqdn); cut that one off and split on every dot, keeping
 * empty labels ("." is one empty label, "a..b." is a, "", b).  A selector
 * matches a name with as many labels, each label matching: '*' takes any
 * run (possibly empty) of [-a-zA-Z0-9_], every other character itself.
 * The match-all allows "." and names whose labels are all non-empty runs
 * of [-a-zA-Z0-9_].
 *
 * Case, as Go's strings.ToLower: the query is decoded as Go decodes
 * UTF-8 (a byte that starts no valid sequence is U+FFFD) and each rune
 * gets Unicode's simple lowercase mapping.  Selectors are ASCII (the
 * loader refuses anything else, as Cilium's CRD validation does:
 * ^([-a-zA-Z0-9_*]+[.]?)+$), and only three kinds of rune lower to ASCII:
 * ASCII itself, U+0130 (LATIN CAPITAL LETTER I WITH DOT ABOVE -> 'i') and
 * U+212A (KELVIN SIGN -> 'k').  Every other non-ASCII rune stays
 * non-ASCII, and no selector matches a name holding one.  So "\u212Aube.io"
 * is allowed by the matchName "kube.io", as in Cilium.
 *
 * Bytes are exact: a query holding NUL, CR or a blank is matched as is
 * (and denied: no selector has those characters).  dns.Fqdn adds the
 * final dot unless IsFqdn says the name has one: in both versions'
 * DNS library IsFqdn counts the bytes from the last rune that is not a
 * backslash to the dot, meaning to count escapes; a name ending in a
 * two- or four-byte rune and a dot (U+0130 then '.') is taken as not
 * qualified and gets a second dot, so it matches no selector but a
 * match-all (fqdn_ref.c: is_fqdn).
 *
 * Cilium v1.19 (policy->cilium, --cilium=1.19) reads matchPatterns
 * otherwise (matchpattern.ToUnAnchoredRegexp, GeneratePattern):
 *   - a pattern of stars only, with or without one final dot ("*", "**",
 *     "*.", "***."), is a DNS wildcard (isDNSWildcard), the proxy's
 *     match-all: it allows every name, whatever its bytes;
 *   - two or more leading stars and a dot ("**.a.com", "****.a.com")
 *     stand for one or more labels, each a non-empty run of
 *     [-a-zA-Z0-9_]; so "**.a.com" allows "x.a.com." and "x.y.a.com."
 *     but not "a.com.";
 *   - any other run of stars is one '*' (which the label matcher below
 *     cannot tell from a single star anyway): "***a.com" is "*a.com".
 *
 * No regex engine, and no code shared with the strategies it checks.
 */
#ifndef RXB_FQDN_REF_H
#define RXB_FQDN_REF_H

#include <stddef.h>

#include "corpora/fqdn_policy.h"

/* One selector, lower-cased and cut into labels once (owned). */
struct fqdn_ref_sel {
	int match_all;  /* REF_ALL_VALID: "*" in 1.11; REF_ALL_NAMES: stars
			   only in 1.19; else 0 */
	int subdomains; /* 1.19's leading "**.", "***.", ...: cut off, and
			   low holds the rest, which needs one label or
			   more before it */
	char *low;     /* the selector lower-cased with its final dot */
	size_t nlabels;
	size_t *off, *len; /* label i is low[off[i]..off[i] + len[i]) */
};

struct fqdn_ref {
	struct fqdn_ref_sel *sel;
	size_t n;
};

enum { REF_ALL_VALID = 1, REF_ALL_NAMES = 2 };

/* Lower-case and cut every selector of p, read with p->cilium's rules.
 * 0, or -1 out of memory. */
int fqdn_ref_init(struct fqdn_ref *r, const struct fqdn_policy *p);
/*
 * The same for Cilium's name manager (its toFQDNs selectors, each
 * ToAnchoredRegexp): in 1.19 a DNS wildcard allows valid names and the
 * root only (ToAnchoredRegexp's match-all), where the proxy allows every
 * name; the rest reads as the proxy reads it.
 */
int fqdn_ref_init_name_manager(struct fqdn_ref *r,
			       const struct fqdn_policy *p);
void fqdn_ref_release(struct fqdn_ref *r);

/*
 * 1 when the policy allows the query name q[0..len) (any bytes), 0 when
 * it denies it, -1 out of memory.
 */
int fqdn_ref_allows(const struct fqdn_ref *r, const char *q, size_t len);

#endif

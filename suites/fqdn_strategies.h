/*
 * fqdn_strategies.h - how a DNS proxy turns a policy's selectors into
 * something it can match query names against.
 *
 * The first seven are the seed's (Go benchmark of Cilium's DNS proxy,
 * seed 000), byte for byte: each produces a name set (a hash set; empty
 * for the strategies without a map) and one regex string.  Two go beyond:
 *   map+multi  the name set plus one anchored expression per matchPattern,
 *              for an engine's native multi-pattern set (RE2::Set,
 *              Hyperscan database);
 *   trie       no regex at all: reversed labels in a trie (fqdn_trie.h).
 * And Cilium's own shapes, one regex per selector, each compiled alone:
 *   cilium-l7  the DNS proxy: per L7 selector (policy->l7_selectors of
 *              them, the policy's rules split evenly in order) one regex
 *              as GeneratePattern builds it in 1.19 (`^(?:p1|p2|...)$` of
 *              ToUnAnchoredRegexp pieces; a stars-only pattern makes the
 *              whole selector "(?:)"), or as 1.11's setPortRulesForID
 *              did (`(^p1$)|(^p2$)|...` of ToRegexp); a query tries the
 *              selectors in order until one matches (CheckAllowed ranges
 *              over a Go map, so Cilium's order is unspecified: the
 *              verdict does not depend on it, the time of a hit does);
 *   cilium-l3  the name manager: one anchored regex per matchName and
 *              matchPattern (ToAnchoredRegexp in 1.19, ToRegexp in
 *              1.11), every one tried on every name, collecting each
 *              that matches (deriveLabelsForName); allowed when any did.
 *   map+cilium-l7, map+cilium-l3  the same with the matchNames in the
 *              name set and only the matchPatterns as regexes.
 * What a strategy hands an engine is data (patterns, name set and the
 * fqdn_op that says how they are asked), so that any engine, in process
 * or not, can run it the same way.
 *
 * Cilium 1.19 (policy->cilium): the seven seed strategies and map+multi
 * build their regexes with 1.11's ToRegexp, so a policy using what 1.19
 * reads otherwise (a leading "**.", a stars-only matchPattern, whose
 * match-all allows every name in 1.19) is `unsupported` for them
 * (fqdn_built.unsupported says why); so is cilium-l3 with a stars-only
 * pattern (ToAnchoredRegexp's match-all allows valid names only, the
 * proxy's every name).
 *
 * A query is rewritten the way each strategy expects (lower case, a
 * trailing dot, reversed for the reverse strategies: Cilium lowercases the
 * name before matching, so no regex is compiled caseless), then looked up
 * in the name set, then matched by the regex.  The lower case is Go's
 * strings.ToLower as far as a verdict can tell: ASCII letters, U+0130 ->
 * 'i' and U+212A -> 'k' (the only non-ASCII runes Go lowers to ASCII);
 * other non-ASCII bytes are left as they are, and no selector (ASCII by
 * fqdn_selector_check) matches them, as none matches what Go makes of
 * them.  So no engine is asked to fold case, and engines that fold only
 * ASCII cannot differ from Go on non-ASCII names.
 *
 * A query's bytes are otherwise exact.  It cannot hold LF (a query file
 * ends a query there), so engines whose `$` also matches before a final
 * newline (CAP_PERL_DOLLAR) answer as Go's `$` does, even on the reversed
 * queries of the reverse strategies.
 *
 * Where the seed's strings cannot work, and only there, the strategies
 * differ from it (the golden test pins the rest):
 *   - a matchPattern "*" (Cilium's match-all) embeds ToRegexp's anchored
 *     form `(^(...)+$)|(^[.]$)` after a prefix or before a suffix in
 *     reverse, reverse+sort, map+optimized and map+reverse+sort, where it
 *     can never match; those strategies get FQDN_MATCH_ALL_INNER instead;
 *   - a map strategy with no matchPattern gets no regex (Go compiles "",
 *     which matches every name);
 *   - map+reverse+sort lowercases its names like the other map strategies.
 */
#ifndef RXB_FQDN_STRATEGIES_H
#define RXB_FQDN_STRATEGIES_H

#include <stddef.h>

#include "corpora/fqdn_policy.h"
#include "engines/engine.h"
#include "suites/strset.h"

struct fqdn_trie;

/* Cilium's character class of a '*' (allowedDNSCharsREGroup). */
#define FQDN_DNS_CLASS "[-a-zA-Z0-9_]"

/* Cilium's match-all regex, as ToRegexp("*") returns it. */
#define FQDN_MATCH_ALL_RE \
	"(^(" FQDN_DNS_CLASS "+[.])+$)|(^[.]$)"

/* Match-all for a frame that strips one dot: labels joined by dots, or "". */
#define FQDN_MATCH_ALL_INNER \
	"(?:" FQDN_DNS_CLASS "+(?:[.]" FQDN_DNS_CLASS "+)*)?"

enum fqdn_strategy_flag {
	FQDN_S_MAP = 1u << 0,     /* matchNames go to the name set */
	FQDN_S_REVERSE = 1u << 1, /* queries are reversed before matching */
	FQDN_S_MULTI = 1u << 2,   /* one expression per pattern: a native set */
	FQDN_S_TRIE = 1u << 3,    /* no regex engine */
	FQDN_S_EXTRA = 1u << 4,   /* not in the default run (--strategies) */
	FQDN_S_L3 = 1u << 5,      /* the name manager's: a CNP's toFQDNs
				     selectors, not its rules.dns */
};

/* Cilium 1.19's leading "**.": one label or more (ToUnAnchoredRegexp). */
#define FQDN_SUBDOMAINS_RE \
	"(" FQDN_DNS_CLASS "+([.]" FQDN_DNS_CLASS "+){0,})[.]"

/* GeneratePattern's match-all (MatchAllAnchoredPattern). */
#define FQDN_MATCH_EVERY_RE "(?:)"

/* How the regexes of a strategy are asked, after the name set missed. */
enum fqdn_regex_op {
	FQDN_OP_ONE,   /* nre 0 or 1: the one regex */
	FQDN_OP_SET,   /* the nre regexes as one set (a native set) */
	FQDN_OP_FIRST, /* each compiled alone, in order, until one matches */
	FQDN_OP_ALL,   /* each compiled alone, all of them, every match kept */
};

/* What a strategy generates from a policy. */
struct fqdn_built {
	struct strset names; /* keys as the rewritten query spells them */
	char **re;           /* 1 regex, or several (see enum fqdn_regex_op) */
	size_t *relen;
	size_t nre;          /* 0: no regex to compile */
	struct fqdn_trie *trie;
	/* non-NULL: the strategy cannot express the policy's semantics
	   (static text saying why); nothing else is built */
	const char *unsupported;
};

struct fqdn_strategy {
	const char *name;
	unsigned flags; /* enum fqdn_strategy_flag */
	/* Fill b from p.  0, or -1 out of memory (b is then released). */
	int (*generate)(const struct fqdn_strategy *s,
			const struct fqdn_policy *p, struct fqdn_built *b);
	const void *spec; /* how the seven seed strategies build their regex */
	enum fqdn_regex_op op;
};

extern const struct fqdn_strategy fqdn_strategies[];
extern const size_t fqdn_nstrategies;

/* The strategy called name, or NULL. */
const struct fqdn_strategy *fqdn_strategy_find(const char *name);

/* Same as s->generate(s, p, b). */
int fqdn_generate(const struct fqdn_strategy *s, const struct fqdn_policy *p,
		  struct fqdn_built *b);
void fqdn_built_release(struct fqdn_built *b);

/*
 * The query as strategy s matches it: lower case (Go's, see above), a
 * trailing dot added unless the DNS library's IsFqdn takes q as
 * qualified (dns.Fqdn; a name ending in a two- or four-byte rune and a
 * dot gets a second one, see fqdn_ref.h), reversed
 * for FQDN_S_REVERSE.  buf holds len + 2 bytes; the result is
 * NUL-terminated.  Returns its length.
 */
size_t fqdn_rewrite(const struct fqdn_strategy *s, const char *q, size_t len,
		    char *buf);

/* 1 when the rewritten query is in the name set. */
static inline int fqdn_built_has_name(const struct fqdn_built *b,
				      const char *q, size_t len)
{
	return b->names.n > 0 && strset_find(&b->names, q, len, NULL);
}

/*
 * Compile b's regexes on e as s->op says into *h (NULL when b has none):
 * one handle for FQDN_OP_ONE and _SET (the engine's), a handle per regex
 * for _FIRST and _ALL (held in one of this module's) but on a runner,
 * whose one set of them asks each alone in order (engines/runner.h:
 * is_match is _FIRST's loop, match_ids _ALL's).  0, or a negative
 * engine status with err filled (err->pattern the regex that failed).
 * Free with fqdn_regex_free().
 */
int fqdn_regex_compile(const struct fqdn_strategy *s, const struct fqdn_built *b,
		 const struct engine *e, void **h, struct engine_error *err);
void fqdn_regex_free(const struct fqdn_strategy *s, const struct engine *e,
			void *h);

/*
 * The DNS proxy's verdict on query q under strategy s: rewrite q into buf
 * (len + 2 bytes), look it up in the name set, then match it with h
 * (fqdn_regex_compile() of b on e; NULL when b has no regex), or walk the trie.
 * 1 allowed, 0 denied, or a negative engine status.  Never allocates.
 */
int fqdn_decide(const struct fqdn_strategy *s, const struct fqdn_built *b,
		const struct engine *e, void *h, const char *q, size_t len,
		char *buf);

/*
 * The name set as Go's fmt prints a map[string]string of empty values,
 * keys sorted: "map[cilium.io.: uged.al.:]".  Returns the length it
 * needs (snprintf-like), -1 out of memory.
 */
long fqdn_built_format_map(const struct fqdn_built *b, char *buf, size_t size);

#endif

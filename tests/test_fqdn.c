/*
 * test_fqdn.c - the FQDN strategies: the seed's regex strings and maps
 * byte for byte (golden), the reference matcher on hand cases, every
 * strategy on PCRE2 and the trie against the reference, and verification
 * catching a deliberately wrong strategy (its text naming the first query
 * that differs, or the query an engine failed on).
 */
#define _GNU_SOURCE
#include <criterion/criterion.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "golden.h"

#include "corpora/fqdn_policy.h"
#include "corpora/rng.h"
#include "harness/complexity.h"
#include "report/text.h"
#include "suites/suite.h"

extern const struct suite suite_fqdn;
#include "harness/alloc.h"
#include "suites/fqdn_ep.h"
#include "suites/fqdn_ref.h"
#include "suites/fqdn_size.h"
#include "suites/fqdn_strategies.h"
#include "suites/fqdn_verify.h"
#include "suites/strset.h"

/* "p:" marks a matchPattern, anything else is a matchName. */
static void policy_of(struct fqdn_policy *p, const char *const *sel, size_t n)
{
	fqdn_policy_init(p);
	for (size_t i = 0; i < n; i++) {
		int pat = strncmp(sel[i], "p:", 2) == 0;
		const char *s = pat ? sel[i] + 2 : sel[i];
		cr_assert_eq(fqdn_policy_add(p, pat ? FQDN_MATCH_PATTERN
						    : FQDN_MATCH_NAME,
					     s, strlen(s), 0),
			     0);
	}
}

/* The seed's four selectors, in its order. */
static const char *const seed_sel[] = {"uged.al", "cilium.io", "p:wil*dc.ard",
				       "p:*.s3.io"};

/* The seed's output, copied from seed 000 ("Regexes:"). */
static const struct {
	const char *strategy, *regex, *map;
} golden[] = {
	{"baseline",
	 "(^uged[.]al[.]$)|(^cilium[.]io[.]$)|(^wil[-a-zA-Z0-9_]*dc[.]ard[.]$)|"
	 "(^[-a-zA-Z0-9_]*[.]s3[.]io[.]$)",
	 "map[]"},
	{"baseline-optimized",
	 "^(?:[-a-zA-Z0-9_]*[.]s3[.]io[.]|cilium[.]io[.]|uged[.]al[.]|"
	 "wil[-a-zA-Z0-9_]*dc[.]ard[.])$",
	 "map[]"},
	{"reverse",
	 "^[.](?:la[.]degu|oi[.]muilic|dra[.]cd[-a-zA-Z0-9_]*liw|"
	 "oi[.]3s[.][-a-zA-Z0-9_]*)$",
	 "map[]"},
	{"reverse+sort",
	 "^[.](?:dra[.]cd[-a-zA-Z0-9_]*liw|la[.]degu|oi[.]3s[.][-a-zA-Z0-9_]*|"
	 "oi[.]muilic)$",
	 "map[]"},
	{"map+baseline",
	 "(^wil[-a-zA-Z0-9_]*dc[.]ard[.]$)|(^[-a-zA-Z0-9_]*[.]s3[.]io[.]$)",
	 "map[cilium.io.: uged.al.:]"},
	{"map+optimized",
	 "^(?:wil[-a-zA-Z0-9_]*dc[.]ard|[-a-zA-Z0-9_]*[.]s3[.]io)[.]$",
	 "map[cilium.io.: uged.al.:]"},
	{"map+reverse+sort",
	 "^[.](?:dra[.]cd[-a-zA-Z0-9_]*liw|oi[.]3s[.][-a-zA-Z0-9_]*)$",
	 "map[.la.degu: .oi.muilic:]"},
};

Test(fqdn_golden, seed_strings_byte_for_byte)
{
	struct fqdn_policy p;

	policy_of(&p, seed_sel, 4);
	for (size_t i = 0; i < sizeof(golden) / sizeof(golden[0]); i++) {
		const struct fqdn_strategy *s =
			fqdn_strategy_find(golden[i].strategy);
		struct fqdn_built b;
		char map[256];

		cr_assert_not_null(s, "%s", golden[i].strategy);
		cr_assert_eq(fqdn_generate(s, &p, &b), 0);
		cr_assert_eq(b.nre, 1);
		cr_expect_str_eq(b.re[0], golden[i].regex, "%s", s->name);
		cr_expect_eq(b.relen[0], strlen(golden[i].regex));
		cr_assert_geq(fqdn_built_format_map(&b, map, sizeof(map)), 0);
		cr_expect_str_eq(map, golden[i].map, "%s", s->name);
		fqdn_built_release(&b);
	}
	fqdn_policy_release(&p);
}

Test(fqdn_golden, map_multi_is_one_anchored_regex_per_pattern)
{
	struct fqdn_policy p;
	struct fqdn_built b;
	char map[256];

	policy_of(&p, seed_sel, 4);
	cr_assert_eq(fqdn_generate(fqdn_strategy_find("map+multi"), &p, &b), 0);
	cr_assert_eq(b.nre, 2);
	cr_expect_str_eq(b.re[0], "^wil[-a-zA-Z0-9_]*dc[.]ard[.]$");
	cr_expect_str_eq(b.re[1], "^[-a-zA-Z0-9_]*[.]s3[.]io[.]$");
	fqdn_built_format_map(&b, map, sizeof(map));
	cr_expect_str_eq(map, "map[cilium.io.: uged.al.:]");
	fqdn_built_release(&b);
	fqdn_policy_release(&p);
}

Test(fqdn_golden, no_pattern_means_no_regex_for_map_strategies)
{
	static const char *const names[] = {"a.com", "b.org"};
	struct fqdn_policy p;
	struct fqdn_built b;

	policy_of(&p, names, 2);
	cr_assert_eq(fqdn_generate(fqdn_strategy_find("map+baseline"), &p, &b), 0);
	cr_expect_eq(b.nre, 0); /* Go would compile "", which matches all */
	cr_expect_eq(b.names.n, 2);
	fqdn_built_release(&b);
	fqdn_policy_release(&p);
}

Test(fqdn_rewrite, lower_case_dot_and_reversal)
{
	char buf[64];

	cr_expect_eq(fqdn_rewrite(fqdn_strategy_find("baseline"), "WWW.Ex.com",
				  10, buf), 11);
	cr_expect_str_eq(buf, "www.ex.com.");
	fqdn_rewrite(fqdn_strategy_find("reverse"), "uged.al.", 8, buf);
	cr_expect_str_eq(buf, ".la.degu");
	fqdn_rewrite(fqdn_strategy_find("reverse"), "", 0, buf);
	cr_expect_str_eq(buf, ".");
}

/* Go's strings.ToLower as far as a verdict goes; other bytes kept. */
Test(fqdn_rewrite, go_lower_case_of_non_ascii)
{
	const struct fqdn_strategy *s = fqdn_strategy_find("baseline");
	char buf[64];

	/* U+212A KELVIN SIGN and U+0130 (I with dot above) lower to ASCII */
	cr_expect_eq(fqdn_rewrite(s, "\xe2\x84\xaaUBE.\xc4\xb0O", 10, buf), 8);
	cr_expect_str_eq(buf, "kube.io.");
	/* U+00C4 lowers to U+00E4 in Go: still no selector's; kept as is */
	fqdn_rewrite(s, "B\xc3\x84" "D", 4, buf);
	cr_expect_str_eq(buf, "b\xc3\x84" "d.");
	/* a cut Kelvin sign is no rune: bytes kept */
	fqdn_rewrite(s, "\xe2\x84", 2, buf);
	cr_expect_str_eq(buf, "\xe2\x84.");
	/* NUL, CR and blanks are bytes of the name */
	cr_expect_eq(fqdn_rewrite(s, " A\0B\r", 5, buf), 6);
	cr_expect_eq(memcmp(buf, " a\0b\r.", 6), 0);
}

/*
 * Cilium's own verdicts, one selector at a time: each row says what the
 * regex Cilium builds (ToRegexp(Sanitize(p)) or the matchName's, see
 * fqdn_ref.h) answers on strings.ToLower(dns.Fqdn(q)).  `all`: the row
 * also runs on every engine (no NUL: TRE's `$` stops at a NUL byte).
 */
static const struct edge {
	const char *sel; /* "p:" marks a matchPattern */
	const char *q;
	size_t qlen;     /* 0: strlen(q) */
	int want, all;
} edges[] = {
	/* "*.": ^[-a-zA-Z0-9_]*[.]$ */
	{"p:*.", ".", 0, 1, 1},
	{"p:*.", "", 0, 1, 1},      /* dns.Fqdn("") is "." */
	{"p:*.", "a", 0, 1, 1},
	{"p:*.", "A_b-9.", 0, 1, 1},
	{"p:*.", "a.b", 0, 0, 1},
	{"p:*.", "..", 0, 0, 1},
	{"p:*.", "a..", 0, 0, 1},
	{"p:*.", " a", 0, 0, 1},    /* no trimming */
	{"p:*.", "a\r", 0, 0, 1},
	{"p:*.", "a\0", 2, 0, 0},
	/* "*": (^([-a-zA-Z0-9_]+[.])+$)|(^[.]$) */
	{"p:*", ".", 0, 1, 1},
	{"p:*", "", 0, 1, 1},
	{"p:*", "a.b", 0, 1, 1},
	{"p:*", "-.-.", 0, 1, 1},
	{"p:*", "..", 0, 0, 1},
	{"p:*", ".a", 0, 0, 1},
	{"p:*", "a..b", 0, 0, 1},
	{"p:*", "a$b", 0, 0, 1},
	{"p:*", "a b.", 0, 0, 1},
	/* "*.*": ^[-a-zA-Z0-9_]*[.][-a-zA-Z0-9_]*[.]$ */
	{"p:*.*", "..", 0, 1, 1},
	{"p:*.*", "a..", 0, 1, 1},
	{"p:*.*", ".b", 0, 1, 1},
	{"p:*.*", "a.b.", 0, 1, 1},
	{"p:*.*", ".", 0, 0, 1},
	{"p:*.*", "a.", 0, 0, 1},
	{"p:*.*", "a.b.c", 0, 0, 1},
	/* "**": two stars are one label's worth */
	{"p:**", ".", 0, 1, 1},
	{"p:**", "ab", 0, 1, 1},
	{"p:**", "a.b", 0, 0, 1},
	/* "*.com" and "*a*" */
	{"p:*.com", ".com", 0, 1, 1},
	{"p:*.com", "a.COM.", 0, 1, 1},
	{"p:*.com", "com", 0, 0, 1},
	{"p:*.com", "a.b.com", 0, 0, 1},
	{"p:*a*", "a", 0, 1, 1},
	{"p:*a*", "bab", 0, 1, 1},
	{"p:*a*", "bbb", 0, 0, 1},
	/* a trailing dot on the selector changes nothing */
	{"p:x*.com.", "x.com", 0, 1, 1},
	{"a.com.", "a.com", 0, 1, 1},
	/* matchName: ^a[.]com[.]$ */
	{"a.com", "a.com", 0, 1, 1},
	{"a.com", "A.Com.", 0, 1, 1},
	{"a.com", "a.com..", 0, 0, 1},
	{"a.com", ".a.com", 0, 0, 1},
	{"a.com", " a.com", 0, 0, 1},
	{"a.com", "a.com\r", 0, 0, 1},
	{"a.com", "a\0.com", 7, 0, 0},
	/* Go's ToLower: U+212A -> 'k', U+0130 -> 'i'; others stay non-ASCII */
	{"kube.io", "\xe2\x84\xaaUBE.IO", 0, 1, 1},
	{"kube.io", "\xe2\x84\xaaube.io", 0, 1, 1},
	{"io.com", "\xc4\xb0o.com", 0, 1, 1},
	{"io.com", "\xc4\xb1o.com", 0, 0, 1}, /* dotless i stays itself */
	{"p:*.io", "\xe2\x84\xaa.io", 0, 1, 1},
	{"p:*.io", "\xc3\xa4.io", 0, 0, 1},  /* a-umlaut is not [-a-zA-Z0-9_] */
	{"p:*.io", "\xc3\x84.io", 0, 0, 1},
	{"p:*.io", "\xe2\x84.io", 0, 0, 1},  /* a cut Kelvin sign: U+FFFD */
	{"p:*.io", "\xc1\xab.io", 0, 0, 1},  /* overlong 'k': U+FFFD x2 */
	{"p:*", "\xe2\x84\xaa.", 0, 1, 1},
	{"p:*", "\xc4\xb0\xc4\xb0.a", 0, 1, 1},
	{"p:*", "\xc3\xa4", 0, 0, 1},
};

#define NEDGES (sizeof(edges) / sizeof(edges[0]))

static size_t edge_len(const struct edge *e)
{
	return e->qlen ? e->qlen : strlen(e->q);
}

Test(fqdn_ref, cilium_edge_cases)
{
	for (size_t i = 0; i < NEDGES; i++) {
		struct fqdn_policy p;
		struct fqdn_ref r;

		policy_of(&p, &edges[i].sel, 1);
		cr_assert_eq(fqdn_ref_init(&r, &p), 0);
		cr_expect_eq(fqdn_ref_allows(&r, edges[i].q, edge_len(&edges[i])),
			     edges[i].want, "row %zu: %s on '%s'", i, edges[i].sel,
			     edges[i].q);
		fqdn_ref_release(&r);
		fqdn_policy_release(&p);
	}
}

/* Compile b on e (0), or say why not (-1: unsupported or too big). */
static int edge_compile(const struct fqdn_strategy *s,
			const struct fqdn_built *b, const struct engine *e,
			void **h)
{
	struct engine_error err;

	*h = NULL;
	if (b->nre == 0)
		return 0;
	if ((s->flags & FQDN_S_MULTI) && !engine_set_native(e))
		return -1;
	cr_assert_eq(fqdn_regex_compile(s, b, e, h, &err), 0, "%s on %s: %s",
		     s->name, e->name, err.msg);
	return 0;
}

/*
 * Whether the fqdn suite runs engine e: not a test-only engine, and one
 * it can time (fqdn_engine_timeable: xdp, which times itself and takes no
 * suite requests, is one unsupported row per case there, never asked a
 * query, so its answers here would test nothing the suite uses and cost
 * a verified BPF program a compile).
 */
static int fqdn_runs(const struct engine *e)
{
	char why[256];

	return !(e->caps & CAP_TEST_ONLY) &&
	       fqdn_engine_timeable(e, why, sizeof(why)) == 0;
}

/* Row i under strategy s on engine e (NULL: the trie, or no regex). */
static void edge_on(const struct edge *ed, const struct fqdn_strategy *s,
		    const struct engine *e)
{
	struct fqdn_policy p;
	struct fqdn_built b;
	char buf[64];
	void *h;

	policy_of(&p, &ed->sel, 1);
	cr_assert_eq(fqdn_generate(s, &p, &b), 0);
	if (e == NULL || edge_compile(s, &b, e, &h) == 0) {
		cr_expect_eq(fqdn_decide(s, &b, e, e ? h : NULL, ed->q,
					 edge_len(ed), buf),
			     ed->want, "%s on %s: %s on '%s'", s->name,
			     e ? e->name : "none", ed->sel, ed->q);
		if (e != NULL)
			fqdn_regex_free(s, e, h);
	}
	fqdn_built_release(&b);
	fqdn_policy_release(&p);
}

/* Every strategy on every engine (and the trie) gives Cilium's verdicts. */
Test(fqdn_strategies, cilium_edge_cases_on_every_engine)
{
	for (size_t i = 0; i < NEDGES; i++)
		for (size_t k = 0; k < fqdn_nstrategies; k++) {
			const struct fqdn_strategy *s = &fqdn_strategies[k];
			if (s->flags & FQDN_S_TRIE) {
				edge_on(&edges[i], s, NULL);
				continue;
			}
			for (size_t j = 0; j < engine_count; j++)
				if (fqdn_runs(engine_table[j]) &&
				    (edges[i].all ||
				     strcmp(engine_table[j]->name, "pcre2") == 0))
					edge_on(&edges[i], s, engine_table[j]);
		}
}

/* Hand cases of Cilium v1.11 semantics: policy, query, verdict. */
static const char *const hand_policy[] = {
	"uged.al",     "Cilium.IO.", "p:wil*dc.ard", "p:*.s3.io",
	"p:*.*.x.net", "p:a*b*c.org", "p:pre*.com",  "p:*",
};

static const struct {
	const char *q;
	int without_all; /* verdict without the match-all "*" */
} hand[] = {
	{"uged.al.", 1},
	{"uged.al", 1},          /* the trailing dot is implied */
	{"UGED.AL.", 1},         /* case-insensitive */
	{"cilium.io.", 1},       /* the selector's case and dot do not matter */
	{"www.uged.al.", 0},     /* a matchName is exact */
	{"wil-card-dc.ard.", 1},
	{"wildcard.ard.", 0},    /* does not end in "dc" */
	{"wildc.ard.", 1},       /* '*' may match nothing */
	{"wilc.ard.", 0},        /* "wil" and "dc" may not overlap */
	{"wil-dc.ard.", 1},
	{"wil.x.dc.ard.", 0},    /* '*' stays inside one label */
	{"bucket.s3.io.", 1},
	{".s3.io.", 1},          /* '*' may match nothing */
	{"a.b.s3.io.", 0},
	{"s3.io.", 0},
	{"a.b.x.net.", 1},       /* *.*. is exactly two labels */
	{"a.x.net.", 0},
	{"a.b.c.x.net.", 0},
	{"abc.org.", 1},
	{"a1b2c.org.", 1},
	{"ab.org.", 0},
	{"a_b-c.org.", 1},
	{"prefix.com.", 1},
	{"pre.com.", 1},
	{"pre$x.com.", 0},       /* '*' matches DNS characters only */
	{"xpre.com.", 0},
	{"other.example.", 0},
	{".", 0},                /* the root, allowed by match-all only */
	{"", 0},
	{"a..b.", 0},
	{"bad$char.com.", 0},
};

/* Verdicts of "*": every valid name (non-empty labels) and the root. */
static int match_all_allows(const char *q)
{
	size_t len = strlen(q);

	if (len > 0 && q[len - 1] == '.')
		len--;
	if (len == 0)
		return 1;
	if (q[0] == '.' || strstr(q, "..") != NULL)
		return 0;
	return strcspn(q, "$ ") == strlen(q);
}

static void ref_of(struct fqdn_ref *r, struct fqdn_policy *p, size_t n)
{
	policy_of(p, hand_policy, n);
	cr_assert_eq(fqdn_ref_init(r, p), 0);
}

Test(fqdn_ref, hand_cases_without_match_all)
{
	struct fqdn_policy p;
	struct fqdn_ref r;

	ref_of(&r, &p, 7);
	for (size_t i = 0; i < sizeof(hand) / sizeof(hand[0]); i++)
		cr_expect_eq(fqdn_ref_allows(&r, hand[i].q, strlen(hand[i].q)),
			     hand[i].without_all, "%s", hand[i].q);
	fqdn_ref_release(&r);
	fqdn_policy_release(&p);
}

Test(fqdn_ref, match_all_allows_every_valid_name)
{
	struct fqdn_policy p;
	struct fqdn_ref r;

	ref_of(&r, &p, 8);
	for (size_t i = 0; i < sizeof(hand) / sizeof(hand[0]); i++) {
		const char *q = hand[i].q;
		cr_expect_eq(fqdn_ref_allows(&r, q, strlen(q)),
			     hand[i].without_all || match_all_allows(q), "%s", q);
	}
	fqdn_ref_release(&r);
	fqdn_policy_release(&p);
}

/* The hand cases as a query set with the reference's verdicts. */
struct hand_sets {
	struct fqdn_queries q;
	unsigned char expect[64];
	struct fqdn_set set;
};

static void hand_sets_init(struct hand_sets *h, size_t npolicy,
			   struct fqdn_policy *p)
{
	struct fqdn_ref r;

	ref_of(&r, p, npolicy);
	fqdn_queries_init(&h->q);
	for (size_t i = 0; i < sizeof(hand) / sizeof(hand[0]); i++)
		cr_assert_eq(fqdn_queries_add(&h->q, hand[i].q,
					      strlen(hand[i].q)),
			     0);
	h->set = (struct fqdn_set){"hand", &h->q};
	cr_assert_eq(fqdn_expect(&r, &h->set, 1, h->expect), 0);
	fqdn_ref_release(&r);
}

/* Every strategy on pcre2 (or none) agrees with the reference. */
static void all_strategies_agree(size_t npolicy)
{
	const struct engine *e = engine_find("pcre2");
	struct hand_sets h;
	struct fqdn_policy p;
	char buf[64], why[512];

	cr_assert_not_null(e);
	hand_sets_init(&h, npolicy, &p);
	cr_assert_eq(fqdn_total(&h.set, 1), sizeof(hand) / sizeof(hand[0]));
	for (size_t i = 0; i < fqdn_nstrategies; i++) {
		const struct fqdn_strategy *s = &fqdn_strategies[i];
		struct fqdn_built b;
		struct engine_error err;
		unsigned char got[64];
		void *hd = NULL;

		cr_assert_eq(fqdn_generate(s, &p, &b), 0);
		/* PCRE2 has no native set; a loop over patterns is exact */
		cr_assert_eq(fqdn_regex_compile(s, &b, e, &hd, &err), 0, "%s: %s",
			     s->name, err.msg);
		cr_assert_eq(fqdn_answer(s, &b, e, hd, &h.set, 1, buf, got, NULL), 0);
		fqdn_explain(&h.set, 1, got, h.expect, why, sizeof(why));
		cr_expect_eq(fqdn_differ(got, h.expect, h.q.n), 0, "%s: %s",
			     s->name, why);
		fqdn_regex_free(s, e, hd);
		fqdn_built_release(&b);
	}
	fqdn_queries_release(&h.q);
	fqdn_policy_release(&p);
}

Test(fqdn_strategies, agree_with_reference)
{
	all_strategies_agree(7);
}

/* The seed's strings would never match "*" in four strategies; ours do. */
Test(fqdn_strategies, agree_with_reference_with_match_all)
{
	all_strategies_agree(8);
}

/* A strategy that forgets the last selector. */
static int forgetful_generate(const struct fqdn_strategy *s,
			      const struct fqdn_policy *p,
			      struct fqdn_built *b)
{
	struct fqdn_policy less = *p;
	const struct fqdn_strategy *real = fqdn_strategy_find("reverse+sort");

	(void)s;
	less.n--;
	return real->generate(real, &less, b);
}

/*
 * Strategy s on engine `engine` over the hand cases (policy of npolicy
 * selectors): how many verdicts differ from the reference's, and where
 * (fqdn_explain) into why.
 */
static size_t verify_hand(const struct fqdn_strategy *s, const char *engine,
			  size_t npolicy, char *why, size_t size)
{
	const struct engine *e = engine_find(engine);
	struct hand_sets h;
	struct fqdn_policy p;
	struct fqdn_built b;
	struct engine_error err;
	struct engine_pattern pat;
	unsigned char got[64];
	void *hd;
	char buf[64];
	size_t wrong;

	cr_assert_not_null(e);
	hand_sets_init(&h, npolicy, &p);
	cr_assert_eq(fqdn_generate(s, &p, &b), 0);
	cr_assert_eq(b.nre, 1);
	pat = (struct engine_pattern){b.re[0], b.relen[0]};
	cr_assert_eq(e->compile(&pat, 1, 0, &hd, &err), 0);
	cr_assert_eq(fqdn_answer(s, &b, e, hd, &h.set, 1, buf, got, NULL), 0);
	wrong = fqdn_differ(got, h.expect, h.q.n);
	fqdn_explain(&h.set, 1, got, h.expect, why, size);
	e->free(hd);
	fqdn_built_release(&b);
	fqdn_queries_release(&h.q);
	fqdn_policy_release(&p);
	return wrong;
}

Test(fqdn_verify, catches_a_wrong_strategy)
{
	struct fqdn_strategy wrong = *fqdn_strategy_find("reverse+sort");
	char why[512], tail[64];

	wrong.generate = forgetful_generate;
	/* the last of the 7 selectors is "pre*.com" */
	cr_expect_eq(verify_hand(&wrong, "pcre2-jit", 7, why, sizeof(why)), 2,
		     "prefix.com. and pre.com.");
	snprintf(tail, sizeof(tail), "; 2 of %zu queries differ",
		 sizeof(hand) / sizeof(hand[0]));
	cr_expect(strstr(why, "query 'prefix.com.' (hand): denied, the "
			  "reference says allowed") == why, "%s", why);
	cr_expect(strstr(why, tail) != NULL, "%s", why);
}

Test(fqdn_verify, reports_an_engine_that_matches_nothing)
{
	char why[512];

	cr_expect_gt(verify_hand(fqdn_strategy_find("baseline"), "noop", 7, why,
				 sizeof(why)),
		     10);
	cr_expect(strstr(why, "query 'uged.al.' (hand): denied") == why, "%s",
		  why);
}

/* PCRE2, failing on any name holding "ard". */
static int ard_fails_is_match(void *h, const char *data, size_t len)
{
	if (memmem(data, len, "ard", 3) != NULL)
		return ENGINE_ERR_LIMIT;
	return engine_find("pcre2")->is_match(h, data, len);
}

/* An engine error stops the answer at its query (*at), which the text names. */
Test(fqdn_verify, an_engine_error_stops_at_its_query)
{
	const struct fqdn_strategy *s = fqdn_strategy_find("baseline");
	struct engine failing = *engine_find("pcre2");
	struct hand_sets h;
	struct fqdn_policy p;
	struct fqdn_built b;
	struct engine_error err;
	struct engine_pattern pat;
	unsigned char got[64];
	char buf[64], why[512];
	size_t at = 99;
	void *hd;

	failing.is_match = ard_fails_is_match;
	hand_sets_init(&h, 7, &p);
	cr_assert_eq(fqdn_generate(s, &p, &b), 0);
	pat = (struct engine_pattern){b.re[0], b.relen[0]};
	cr_assert_eq(failing.compile(&pat, 1, 0, &hd, &err), 0);
	cr_expect_eq(fqdn_answer(s, &b, &failing, hd, &h.set, 1, buf, got,
				 &at),
		     ENGINE_ERR_LIMIT);
	fqdn_query_text(&h.set, 1, at, why, sizeof(why));
	cr_expect(strstr(why, "query '") == why && strstr(why, "ard") != NULL &&
		  strstr(why, "' (hand)") != NULL, "%s", why);
	failing.free(hd);
	fqdn_built_release(&b);
	fqdn_queries_release(&h.q);
	fqdn_policy_release(&p);
}

Test(strset, add_find_grow)
{
	struct strset s;
	char key[32];
	uint32_t v;

	cr_assert_eq(strset_init(&s, 1), 0);
	for (uint32_t i = 0; i < 5000; i++) {
		int n = snprintf(key, sizeof(key), "name-%u.example.", i);
		cr_assert_eq(strset_add(&s, key, (size_t)n, i), (long)i);
	}
	cr_expect_eq(strset_add(&s, "name-7.example.", 15, 99), 7);
	cr_expect_eq(s.n, 5000);
	for (uint32_t i = 0; i < 5000; i++) {
		int n = snprintf(key, sizeof(key), "name-%u.example.", i);
		cr_assert(strset_find(&s, key, (size_t)n, &v));
		cr_assert_eq(v, i);
	}
	cr_expect_not(strset_find(&s, "name-5000.example.", 18, NULL));
	cr_expect_not(strset_find(&s, "name-1.example", 14, NULL));
	cr_expect(strset_find(&s, "name-1.example.", 15, NULL));
	strset_release(&s);
}

/*
 * The seed's baseline at 500 generated selectors (a 34 KB regex with 500
 * groups) on every engine that compiles it: each verdict is the
 * reference's.  TRE once overflowed its stack here.
 */
Test(fqdn_engines, baseline_of_500_selectors_on_every_engine)
{
	static char *tlds[] = {"com", "no", "co.uk", "io"};
	const struct fqdn_strategy *s = fqdn_strategy_find("baseline");
	struct fqdn_policy p;
	struct fqdn_ref r;
	struct fqdn_queries q[FQDN_Q_COUNT];
	struct fqdn_set sets[FQDN_Q_COUNT];
	unsigned char *want, *got;
	struct fqdn_built b;
	char buf[FQDN_NAME_MAX + 64], why[1024];
	size_t total;

	fqdn_policy_init(&p);
	cr_assert_eq(fqdn_policy_generate(&p, 500, 1, tlds, 4), 0);
	cr_assert_eq(fqdn_ref_init(&r, &p), 0);
	for (int k = 0; k < FQDN_Q_COUNT; k++) {
		fqdn_queries_init(&q[k]);
		cr_assert_eq(fqdn_queries_generate(&q[k], &p, k, 1), 0);
		cr_assert_lt(q[k].maxlen + 2, sizeof(buf));
		sets[k] = (struct fqdn_set){fqdn_qset_name(k), &q[k]};
	}
	total = fqdn_total(sets, FQDN_Q_COUNT);
	cr_assert_eq(total, 2000);
	want = malloc(total);
	got = malloc(total);
	cr_assert_eq(fqdn_expect(&r, sets, FQDN_Q_COUNT, want), 0);
	cr_assert_eq(fqdn_generate(s, &p, &b), 0);
	for (size_t i = 0; i < engine_count; i++) {
		const struct engine *e = engine_table[i];
		struct engine_pattern pat = {b.re[0], b.relen[0]};
		struct engine_error err;
		void *h;

		if (!fqdn_runs(e) ||
		    e->compile(&pat, 1, 0, &h, &err) != 0)
			continue; /* Hyperscan: 16,000-byte pattern limit */
		cr_expect_eq(fqdn_answer(s, &b, e, h, sets, FQDN_Q_COUNT, buf,
					 got, NULL),
			     0, "%s", e->name);
		fqdn_explain(sets, FQDN_Q_COUNT, got, want, why, sizeof(why));
		cr_expect_eq(fqdn_differ(got, want, total), 0, "%s: %s",
			     e->name, why);
		e->free(h);
	}
	fqdn_built_release(&b);
	for (int k = 0; k < FQDN_Q_COUNT; k++)
		fqdn_queries_release(&q[k]);
	free(want);
	free(got);
	fqdn_ref_release(&r);
	fqdn_policy_release(&p);
}

/* One benchmark of a made-up scaling run: a sample of each metric. */
static void made_up(struct results *res, const char *phase,
		    const char *strategy, const char *engine, int domains,
		    double ns, double heap)
{
	char name[256];
	struct result *r;

	snprintf(name, sizeof(name), "FQDN/phase=%s/strategy=%s/engine=%s/"
		 "domains=%d", phase, strategy, engine, domains);
	r = results_add(res, "fqdn", name);
	for (int s = 0; s < 3; s++) {
		result_sample_begin(r, 1000);
		/* samples ns*0.9, ns, ns*1.5: the median is ns */
		result_metric_add(r, "ns/op", BETTER_LOWER,
				  ns * (s == 0 ? 0.9 : s == 1 ? 1.0 : 1.5));
		result_metric_add(r, "domains", BETTER_EXACT, domains);
		if (heap > 0)
			result_metric_add(r, "B(heap)/op", BETTER_LOWER, heap);
		result_metric_add(r, "B/op", BETTER_LOWER, heap > 0 ? 4096 : 0);
		result_metric_add(r, "allocs/op", BETTER_LOWER, heap > 0 ? 12 : 0);
	}
}

Test(fqdn_tables, golden_verdict_tables_and_growth)
{
	struct results res;
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	struct result *bad;

	results_init(&res);
	/* ns/op ~ N^2 for compile, N^0 for the map lookup */
	made_up(&res, "compile", "baseline", "re2", 100, 1e6, 65536);
	made_up(&res, "match-name", "map+reverse+sort", "pcre2-jit", 100,
		54.5, 0);
	made_up(&res, "compile", "baseline", "re2", 1000, 1e8, 655360);
	made_up(&res, "match-name", "map+reverse+sort", "pcre2-jit", 1000,
		54.5, 0);
	made_up(&res, "compile", "baseline", "tre", 100, 3e8, 1 << 22);
	made_up(&res, "compile", "map+reverse+sort", "pcre2-jit", 100, 2e5,
		8192);
	made_up(&res, "compile", "map+reverse+sort", "pcre2-jit", 1000, 2e6,
		81920);
	bad = results_add(&res, "fqdn", "FQDN/strategy=baseline/engine=noop");
	result_set_status(bad, RESULT_MISMATCH, "skipped by the tables");
	cr_assert_eq(suite_layout_fill(&suite_fqdn, &res), 0);
	cr_assert_eq(text_write_suite(f, &res, "fqdn", NULL), 0);
	fclose(f);
	check_golden("golden/fqdn_tables.txt", buf);
	/* the recommendation is within the budgets, compile never averaged */
	cr_expect(strstr(buf, "Recommendation") != NULL, "%s", buf);
	cr_expect(strstr(buf, "Best on any engine: map+reverse+sort / "
			      "pcre2-jit, 54.5 ns/query") != NULL, "%s", buf);
	free(buf);
	results_release(&res);
}

Test(fqdn_tables, fit_exponent_of_seed_001)
{
	double x[] = {100, 1000, 10000}, y[] = {3, 300, 30000}, k = 0;
	double x1[] = {1000, 3000}, y1[] = {2.7, 31.7};

	cr_assert_eq(complexity_exponent(x, y, 3, &k), 0);
	cr_expect_float_eq(k, 2.0, 1e-9);
	/* seed 001: iptables, 1,000 -> 3,000 rules, 2.7 s -> 31.7 s */
	cr_assert_eq(complexity_exponent(x1, y1, 2, &k), 0);
	cr_expect_float_eq(k, 2.24, 0.01);
	cr_expect_eq(complexity_exponent(x, y, 1, &k), -1);
}

/* --- Cilium's per-selector shapes and 1.19 --- */

/* The regexes strategy `name` builds from p, one string, '\n' between. */
static void regexes_of(const char *name, const struct fqdn_policy *p,
		       char *out, size_t size, char *map, size_t msize)
{
	struct fqdn_built b;
	size_t at = 0;

	cr_assert_eq(fqdn_generate(fqdn_strategy_find(name), p, &b), 0);
	out[0] = '\0';
	for (size_t i = 0; i < b.nre; i++)
		at += (size_t)snprintf(out + at, size - at, "%s%s", i ? "\n" : "",
				       b.re[i]);
	cr_assert_geq(fqdn_built_format_map(&b, map, msize), 0);
	fqdn_built_release(&b);
}

#define RE_CLASS "[-a-zA-Z0-9_]"

Test(fqdn_cilium, per_selector_regexes_as_cilium_builds_them)
{
	static const struct {
		const char *strategy;
		enum fqdn_cilium v;
		size_t l7;
		const char *re, *map;
	} rows[] = {
		{"cilium-l7", FQDN_CILIUM_1_19, 1,
		 "^(?:uged[.]al[.]|cilium[.]io[.]|wil" RE_CLASS "*dc[.]ard[.]|"
		 RE_CLASS "*[.]s3[.]io[.])$", "map[]"},
		{"cilium-l7", FQDN_CILIUM_1_19, 2,
		 "^(?:uged[.]al[.]|cilium[.]io[.])$\n"
		 "^(?:wil" RE_CLASS "*dc[.]ard[.]|" RE_CLASS "*[.]s3[.]io[.])$",
		 "map[]"},
		{"cilium-l7", FQDN_CILIUM_1_11, 1,
		 "(^uged[.]al[.]$)|(^cilium[.]io[.]$)|(^wil" RE_CLASS
		 "*dc[.]ard[.]$)|(^" RE_CLASS "*[.]s3[.]io[.]$)", "map[]"},
		{"map+cilium-l7", FQDN_CILIUM_1_19, 2,
		 "^(?:wil" RE_CLASS "*dc[.]ard[.]|" RE_CLASS "*[.]s3[.]io[.])$",
		 "map[cilium.io.: uged.al.:]"},
		{"cilium-l3", FQDN_CILIUM_1_19, 1,
		 "^uged[.]al[.]$\n^cilium[.]io[.]$\n^wil" RE_CLASS
		 "*dc[.]ard[.]$\n^" RE_CLASS "*[.]s3[.]io[.]$", "map[]"},
		{"map+cilium-l3", FQDN_CILIUM_1_11, 1,
		 "^wil" RE_CLASS "*dc[.]ard[.]$\n^" RE_CLASS "*[.]s3[.]io[.]$",
		 "map[cilium.io.: uged.al.:]"},
	};
	char re[1024], map[256];

	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		struct fqdn_policy p;
		policy_of(&p, seed_sel, 4);
		p.cilium = rows[i].v;
		p.l7_selectors = rows[i].l7;
		regexes_of(rows[i].strategy, &p, re, sizeof(re), map,
			   sizeof(map));
		cr_expect_str_eq(re, rows[i].re, "row %zu (%s)", i,
				 rows[i].strategy);
		cr_expect_str_eq(map, rows[i].map, "row %zu", i);
		fqdn_policy_release(&p);
	}
}

Test(fqdn_cilium, v119_pieces_subdomains_collapse_and_match_all)
{
	static const char *const sel[] = {"p:**.Svc.cluster.local", "p:a***b.io",
					  "p:x.**.com", "n.io"};
	static const char *const with_all[] = {"n.io", "p:**", "p:*.a.io"};
	struct fqdn_policy p;
	char re[1024], map[64];

	policy_of(&p, sel, 4);
	p.cilium = FQDN_CILIUM_1_19;
	regexes_of("cilium-l7", &p, re, sizeof(re), map, sizeof(map));
	cr_expect_str_eq(re, "^(?:" FQDN_SUBDOMAINS_RE "svc[.]cluster[.]local[.]|"
			     "a" RE_CLASS "*b[.]io[.]|x[.]" RE_CLASS "*[.]com[.]|"
			     "n[.]io[.])$");
	regexes_of("cilium-l3", &p, re, sizeof(re), map, sizeof(map));
	cr_expect_str_eq(re, "^" FQDN_SUBDOMAINS_RE "svc[.]cluster[.]local[.]$\n"
			     "^a" RE_CLASS "*b[.]io[.]$\n^x[.]" RE_CLASS
			     "*[.]com[.]$\n^n[.]io[.]$");
	fqdn_policy_release(&p);
	/* a stars-only pattern makes the whole selector GeneratePattern's
	   match-all; the map keeps the names */
	policy_of(&p, with_all, 3);
	p.cilium = FQDN_CILIUM_1_19;
	regexes_of("cilium-l7", &p, re, sizeof(re), map, sizeof(map));
	cr_expect_str_eq(re, "(?:)");
	regexes_of("map+cilium-l7", &p, re, sizeof(re), map, sizeof(map));
	cr_expect_str_eq(re, "(?:)");
	cr_expect_str_eq(map, "map[n.io.:]");
	fqdn_policy_release(&p);
}

/* Selector, query, verdict under Cilium 1.19 and under 1.11. */
static const struct {
	const char *sel, *q;
	int v119, v111;
} edges119[] = {
	{"p:**.a.com", "x.a.com", 1, 1},
	{"p:**.a.com", "x.y.a.com", 1, 0}, /* one label or more */
	{"p:**.a.com", "X.Y.A.COM.", 1, 0},
	{"p:**.a.com", "a.com", 0, 0},
	{"p:**.a.com", ".a.com", 0, 1},    /* 1.11: '**' may be empty */
	{"p:**.a.com", "x..a.com", 0, 0},
	{"p:**.a.com", "x$.a.com", 0, 0},
	{"p:**.a.com", "x.y.b.com", 0, 0},
	{"p:**.", "a.b.", 1, 0},           /* "**." alone: a DNS wildcard */
	{"p:**.", "a", 1, 1},
	{"p:**.", ".", 1, 1},
	{"p:**.", "a b.", 1, 0},
	{"p:*.", "a.b", 1, 0},             /* "*." too (isDNSWildcard) */
	{"p:*.", "a", 1, 1},
	{"p:*.", "a..", 1, 0},
	{"p:***.", "\r\x01.", 1, 0},
	{"p:**", "a.b.c", 1, 0},           /* stars only: 1.19's match-all */
	{"p:**", "a..b", 1, 0},
	{"p:***", "a b.", 1, 0},
	{"p:*", "a..b", 1, 0},             /* "(?:)" allows every name */
	{"p:*", "", 1, 1},
	{"p:*", "a.b", 1, 1},
	{"p:***.a.com", "x.a.com", 1, 1},  /* two stars or more and a dot */
	{"p:***.a.com", "x.y.a.com", 1, 0},
	{"p:****.a.com", "x.y.z.a.com", 1, 0},
	{"p:****.a.com", "a.com", 0, 0},
	{"p:***a.com", "xa.com", 1, 1},    /* no dot after: stars collapse */
	{"p:***a.com", "x.a.com", 0, 0},
	/* dns.Fqdn: a last rune of two or four bytes before the dot reads as
	   an escape, so the name gets a second dot (U+0130, U+10348); one of
	   three bytes (U+212A) does not */
	{"i", "\xc4\xb0.", 0, 0},
	{"i", "\xc4\xb0", 1, 1},
	{"k", "\xe2\x84\xaa.", 1, 1},
	{"p:*", "\xc4\xb0.", 1, 0},
	{"p:x*", "x\xf0\x90\x8d\x88.", 0, 0},
	{"p:*.", "\xf0\x90\x8d\x88.", 1, 0},
	{"p:a**b.com", "ab.com", 1, 1},
	{"p:a**b.com", "a-x-b.com", 1, 1},
	{"p:x.**.com", "x.y.com", 1, 1},   /* "**" elsewhere is '*' */
	{"p:x.**.com", "x.y.z.com", 0, 0},
	{"p:**.*.com", "a.b.c.com", 1, 0},
	{"p:**.*.com", "b.com", 0, 0},
	{"a.com", "a.com", 1, 1},
};

#define NEDGES119 (sizeof(edges119) / sizeof(edges119[0]))

Test(fqdn_cilium, reference_reads_each_version)
{
	for (size_t i = 0; i < NEDGES119; i++)
		for (int v = 0; v < 2; v++) {
			struct fqdn_policy p;
			struct fqdn_ref r;
			policy_of(&p, &edges119[i].sel, 1);
			p.cilium = v ? FQDN_CILIUM_1_19 : FQDN_CILIUM_1_11;
			cr_assert_eq(fqdn_ref_init(&r, &p), 0);
			cr_expect_eq(fqdn_ref_allows(&r, edges119[i].q,
						     strlen(edges119[i].q)),
				     v ? edges119[i].v119 : edges119[i].v111,
				     "%s: %s on '%s'", fqdn_cilium_name(p.cilium),
				     edges119[i].sel, edges119[i].q);
			fqdn_ref_release(&r);
			fqdn_policy_release(&p);
		}
}

/*
 * The name manager's reading (fqdn_ref_init_name_manager): under 1.19 a
 * DNS wildcard is ToAnchoredRegexp's match-all, valid names and the root
 * ((^([-a-zA-Z0-9_]+[.])+$)|(^[.]$)), where the proxy allows every name;
 * other selectors read as the proxy reads them.  Worked by hand.
 */
Test(fqdn_cilium, name_manager_reads_a_dns_wildcard_as_valid_names)
{
	static const struct {
		const char *sel, *q;
		int v;
	} rows[] = {
		{"p:*", "a.b", 1},   {"p:*", "", 1},     {"p:*", ".", 1},
		{"p:*", "a..b", 0},  {"p:*", "a b.", 0}, {"p:**.", "x.", 1},
		{"p:**.", "x$.", 0}, {"p:*.", "A.B-C_", 1},
		{"p:***.", "\xc4\xb0.", 0}, /* "i..": an empty label */
		{"p:**.a.com", "x.y.a.com", 1}, {"p:**.a.com", "a.com", 0},
		{"p:*.a.com", "x.a.com", 1},
	};

	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		struct fqdn_policy p;
		struct fqdn_ref r;
		policy_of(&p, &rows[i].sel, 1);
		p.cilium = FQDN_CILIUM_1_19;
		cr_assert_eq(fqdn_ref_init_name_manager(&r, &p), 0);
		cr_expect_eq(fqdn_ref_allows(&r, rows[i].q, strlen(rows[i].q)),
			     rows[i].v, "%s on '%s'", rows[i].sel, rows[i].q);
		fqdn_ref_release(&r);
		fqdn_policy_release(&p);
	}
}

/* Which strategies cannot express selector sel under 1.19. */
static int expect_unsupported(const struct fqdn_strategy *s, const char *sel)
{
	size_t k, n;
	int stars, sub;

	if (strncmp(sel, "p:", 2) != 0)
		return 0; /* a matchName */
	k = strspn(sel + 2, "*");
	n = strlen(sel + 2);
	stars = k == n || (k + 1 == n && sel[2 + k] == '.');
	sub = !stars && k >= 2 && sel[2 + k] == '.';

	if ((s->flags & (FQDN_S_TRIE | FQDN_S_L3)) ||
	    strstr(s->name, "cilium-l7"))
		return 0;
	return stars || sub;
}

/*
 * The name manager's verdict on row i (policy p): the proxy's, but a DNS
 * wildcard allows valid names and the root only (ToAnchoredRegexp).
 */
static int name_manager_says(const struct fqdn_policy *p, size_t i)
{
	struct fqdn_ref r;
	int v;

	cr_assert_eq(fqdn_ref_init_name_manager(&r, p), 0);
	v = fqdn_ref_allows(&r, edges119[i].q, strlen(edges119[i].q));
	fqdn_ref_release(&r);
	return v;
}

/* Row i under 1.19 with strategy s on e: the verdict, or unsupported. */
static void edge119_on(size_t i, const struct fqdn_strategy *s,
		       const struct engine *e)
{
	struct fqdn_policy p;
	struct fqdn_built b;
	struct engine_error err;
	char buf[64];
	void *h = NULL;

	policy_of(&p, &edges119[i].sel, 1);
	p.cilium = FQDN_CILIUM_1_19;
	cr_assert_eq(fqdn_generate(s, &p, &b), 0);
	cr_expect_eq(b.unsupported != NULL, expect_unsupported(s, edges119[i].sel),
		     "%s on %s", s->name, edges119[i].sel);
	if (b.unsupported == NULL &&
	    !((s->flags & FQDN_S_MULTI) && !engine_set_native(e))) {
		if (!(s->flags & FQDN_S_TRIE))
			cr_assert_eq(fqdn_regex_compile(s, &b, e, &h, &err), 0,
				     "%s on %s: %s", s->name, e->name, err.msg);
		cr_expect_eq(fqdn_decide(s, &b, e, h, edges119[i].q,
					 strlen(edges119[i].q), buf),
			     (s->flags & FQDN_S_L3) ? name_manager_says(&p, i)
						    : edges119[i].v119,
			     "%s on %s: %s on '%s'", s->name,
			     e->name, edges119[i].sel, edges119[i].q);
		if (!(s->flags & FQDN_S_TRIE))
			fqdn_regex_free(s, e, h);
	}
	fqdn_built_release(&b);
	fqdn_policy_release(&p);
}

/* Every strategy on every engine gives 1.19's verdict, or is unsupported. */
Test(fqdn_cilium, v119_on_every_strategy_and_engine)
{
	for (size_t i = 0; i < NEDGES119; i++)
		for (size_t k = 0; k < fqdn_nstrategies; k++)
			for (size_t j = 0; j < engine_count; j++)
				if (fqdn_runs(engine_table[j]))
					edge119_on(i, &fqdn_strategies[k],
						   engine_table[j]);
}

/*
 * Endpoints in Cilium's shape share what they can: of 40, the four whose
 * number is a multiple of 10 are identical (one unit for all their
 * selectors), every other one is its own unit shared by its two
 * selectors; so 37 units, and without the cache each selector's own.  A
 * query on an endpoint is its own policy's verdict, and replacing an
 * endpoint's rules keeps them (its custom names aside).
 */
/* Endpoint ep's verdict on the NUL-terminated query q. */
static int ep_allows(const struct fqdn_ep_world *w, size_t ep, const char *q)
{
	char buf[FQDN_NAME_MAX + 2];

	return fqdn_ep_decide(w, ep, q, strlen(q), buf);
}

static void check_endpoints(const struct fqdn_strategy *s,
			    const struct engine *e)
{
	struct fqdn_policy p;
	struct fqdn_ep_world w;
	struct engine_error err = {0, -1, -1, ""};
	fqdn_policy_init(&p);
	cr_assert_eq(fqdn_policy_generate_cilium(&p, 42), 0);
	cr_assert_eq(fqdn_ep_build(&w, s, e, &p, 40, &err), 0, "%s", err.msg);
	cr_expect_eq(w.nunits, 37);
	if (alloc_hooks_available()) {
		cr_expect_gt(w.heap, 0);
		cr_expect_gt(w.heap_nocache, w.heap + 36 * (w.heap / 40));
	}
	/* a matchName of the base: every endpoint; a custom one: its own */
	cr_expect_eq(ep_allows(&w, 3, "0very.long.domain.containing.a.lot."
				    "of.chars"), 1);
	cr_expect_eq(ep_allows(&w, 3, "custom-for-this-one3.domain.tld"), 1);
	cr_expect_eq(ep_allows(&w, 4, "custom-for-this-one3.domain.tld"), 0);
	/* endpoint 19 has '*': every valid name */
	cr_expect_eq(ep_allows(&w, 19, "anything.example"), 1);
	cr_expect_eq(ep_allows(&w, 18, "anything.example"), 0);
	/* 3's rules replaced by 43's (a compile), 10's by 50's (identical:
	   the cache's), and back */
	cr_assert_eq(fqdn_ep_update(&w, 3), 0);
	cr_assert_eq(fqdn_ep_update(&w, 10), 0);
	cr_expect_eq(w.nunits, 37);
	cr_expect_eq(ep_allows(&w, 3, "custom-for-this-one43.domain.tld"), 1);
	cr_expect_eq(ep_allows(&w, 3, "custom-for-this-one3.domain.tld"), 0);
	cr_assert_eq(fqdn_ep_update(&w, 3), 0);
	cr_expect_eq(ep_allows(&w, 3, "custom-for-this-one3.domain.tld"), 1);
	fqdn_ep_free(&w);
	fqdn_policy_release(&p);
}

Test(fqdn_endpoints, shared_units_verdicts_and_updates)
{
	check_endpoints(fqdn_strategy_find("trie"), NULL);
	check_endpoints(fqdn_strategy_find("cilium-l7"), engine_find("pcre2"));
	check_endpoints(fqdn_strategy_find("map+cilium-l7"),
			engine_find("pcre2"));
}

/*
 * The trie's fast paths against the reference, at random: policies of a
 * few selectors in the shapes the trie keeps apart (names, one or more
 * star labels, a star inside a label or in the last one, 1.19's "**.",
 * "*" alone, selectors in upper case or with a final dot) over a small
 * alphabet, so that labels, suffixes and top-level labels repeat; and
 * queries made from them (stars filled with 0 to 70 class characters:
 * labels past 63), then changed (case, final dot, another, empty or
 * extra label, a byte changed or dropped, a byte no star matches, names
 * under 8 and 16 bytes, where the trie reads words byte by byte).  Both
 * semantics.
 */
static const char *const trie_shape[] = {
	"N.L.T",  "*.L.T",   "*.*.L.T", "*N.L.T", "N*.L.T", "N*N.T",
	"*.T",    "L.*",     "N.L*",    "**.L.T", "**.T",   "*",
	"**",     "*.L*N.T", "N.T.",    "N.L.T",  "*.N*.L.T", "N.D.T",
	"N.D.L.T", "*.D.T",  "*N.D.T", "D*.L.T", "*D.T", "D*N.T",
};

/* A label of 1 to 4 letters from "ab", "T" a top-level one, "D" a long
 * one (keys past 16 bytes), "*" kept. */
static void trie_fill_shape(const char *shape, struct rng *r, char *out)
{
	static const char *const tld[] = {"io", "com", "co", "x", "example"};
	size_t n = 0;

	for (const char *c = shape; *c; c++) {
		if (*c == 'D') {
			memcpy(out + n, "long-domain-of-bytes", 20);
			n += 20;
		} else if (*c == 'T') {
			const char *t = tld[rng_below(r, 5)];
			memcpy(out + n, t, strlen(t));
			n += strlen(t);
		} else if (*c == 'N' || *c == 'L') {
			for (uint64_t k = 1 + rng_below(r, 4); k > 0; k--)
				out[n++] = (char)("abAB"[rng_below(r, *c == 'N'
								   ? 4 : 2)]);
		} else {
			out[n++] = *c;
		}
	}
	out[n] = '\0';
}

/* A query from selector s: stars filled, then one change at random. */
static size_t trie_query(const char *s, struct rng *r, char *q)
{
	static const char cls[] = "ab-_9Z";
	size_t n = 0;

	for (const char *c = s; *c; c++) {
		if (*c != '*') {
			q[n++] = *c;
			continue;
		}
		for (uint64_t k = rng_below(r, 4) ? rng_below(r, 5)
						  : rng_below(r, 71);
		     k > 0; k--)
			q[n++] = cls[rng_below(r, sizeof(cls) - 1)];
		if (rng_below(r, 6) == 0) /* a star over two labels */
			q[n++] = '.';
	}
	switch (rng_below(r, 11)) {
	case 7: if (n > 0) q[rng_below(r, n)] = "abAB"[rng_below(r, 4)]; break;
	case 8: if (n > 0) { size_t i = rng_below(r, n);
			memmove(q + i, q + i + 1, n - i - 1); n--; }
		break;
	case 0: q[n++] = '.'; break;                   /* qualified */
	case 1: memmove(q + 2, q, n); memcpy(q, "a.", 2); n += 2; break;
	case 2: memmove(q + 1, q, n); q[0] = '.'; n++; break; /* empty */
	case 3: q[n++] = '.'; q[n++] = '.'; break;
	case 4: if (n > 0) q[rng_below(r, n)] = "$ .*"[rng_below(r, 4)]; break;
	case 5: memcpy(q + n, ".io", 3); n += 3; break;  /* another tld */
	case 6: for (size_t i = 0; i < n; i++)
			q[i] = (char)(q[i] >= 'a' && q[i] <= 'z' ? q[i] - 32 : q[i]);
		break;
	default: break;
	}
	q[n] = '\0';
	return n;
}

Test(fqdn_trie, fast_paths_agree_with_reference)
{
	const struct fqdn_strategy *s = fqdn_strategy_find("trie");
	struct rng r;
	char sel[8][64], q[256], buf[258];
	size_t checked = 0, allowed = 0;

	rng_init(&r, 15);
	for (int round = 0; round < 1500; round++) {
		struct fqdn_policy p;
		struct fqdn_built b;
		struct fqdn_ref ref;
		size_t nsel = 1 + rng_below(&r, 8);

		fqdn_policy_init(&p);
		p.cilium = round % 2 ? FQDN_CILIUM_1_19 : FQDN_CILIUM_1_11;
		for (size_t i = 0; i < nsel; i++) {
			size_t k = rng_below(&r, sizeof(trie_shape) /
						     sizeof(trie_shape[0]));
			/* "*" and "**" allow (nearly) all: rarely */
			if (trie_shape[k][0] == '*' && strlen(trie_shape[k]) <= 2 &&
			    rng_below(&r, 4) != 0)
				k = 0;
			trie_fill_shape(trie_shape[k], &r, sel[i]);
			cr_assert_eq(fqdn_policy_add(&p, strchr(sel[i], '*')
							     ? FQDN_MATCH_PATTERN
							     : FQDN_MATCH_NAME,
						     sel[i], strlen(sel[i]), 0),
				     0);
		}
		cr_assert_eq(fqdn_ref_init(&ref, &p), 0);
		cr_assert_eq(fqdn_generate(s, &p, &b), 0);
		for (int k = 0; k < 24; k++) {
			size_t n = trie_query(sel[rng_below(&r, nsel)], &r, q);
			int want = fqdn_ref_allows(&ref, q, n);
			cr_assert_eq(fqdn_decide(s, &b, NULL, NULL, q, n, buf), want,
				     "%s: '%s' on %s%s%s%s%s%s%s%s", 
				     fqdn_cilium_name(p.cilium), q, sel[0],
				     nsel > 1 ? " " : "", nsel > 1 ? sel[1] : "",
				     nsel > 2 ? " " : "", nsel > 2 ? sel[2] : "",
				     nsel > 3 ? " " : "", nsel > 3 ? sel[3] : "",
				     nsel > 4 ? " ..." : "");
			checked++;
			allowed += (size_t)want;
		}
		fqdn_built_release(&b);
		fqdn_ref_release(&ref);
		fqdn_policy_release(&p);
	}
	/* both verdicts well represented */
	cr_expect_gt(allowed, checked / 5, "%zu of %zu", allowed, checked);
	cr_expect_lt(allowed, checked * 4 / 5, "%zu of %zu", allowed, checked);
}

/* The trie's edges by hand: verdicts Cilium's regexes give. */
Test(fqdn_trie, edges_by_hand)
{
	static const struct {
		int v119;
		const char *sel, *q;
		int want;
	} rows[] = {
		{0, "p:*", "A.b.", 1},             /* "*" alone: valid names */
		{0, "p:*", "a..b", 0},
		{1, "p:*", "a..b", 1},             /* 1.19: every name */
		{1, "p:**.svc.local", "a.b.svc.local", 1}, /* one label or more */
		{1, "p:**.svc.local", "svc.local", 0},
		{1, "p:**.svc.local", ".svc.local", 0},
		{0, "p:**.svc.local", "a.b.svc.local", 0}, /* 1.11: one label */
		{0, "p:**.svc.local", "a.svc.local", 1},
		{0, "Api.Example.COM.", "api.example.com", 1}, /* upper, dot */
		{0, "api.example.com", "API.EXAMPLE.COM.", 1},
		{0, "p:*.example.com",
		 "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"
		 ".example.com", 1},               /* a label past 63 */
		{0, "p:*.example.com", ".example.com", 1}, /* an empty label */
		{0, "p:*.example.com", "a..example.com", 0},
		{0, "p:x*y.io", "xy.io", 1},
		{0, "p:x*y.io", "xay.io.io", 0},
		{0, "p:a*.io", "ab.com", 0},       /* another last label */
		{0, "p:*.io", "a.io.x", 0},
		{0, "p:io.*", "io.anything", 1},   /* a star in the last label */
	};

	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		const struct fqdn_strategy *s = fqdn_strategy_find("trie");
		const char *sel = rows[i].sel;
		struct fqdn_policy p;
		struct fqdn_built b;
		struct fqdn_ref ref;
		char buf[256];

		policy_of(&p, &sel, 1);
		p.cilium = rows[i].v119 ? FQDN_CILIUM_1_19 : FQDN_CILIUM_1_11;
		cr_assert_eq(fqdn_ref_init(&ref, &p), 0);
		cr_expect_eq(fqdn_ref_allows(&ref, rows[i].q, strlen(rows[i].q)),
			     rows[i].want, "row %zu: the reference", i);
		fqdn_ref_release(&ref);
		cr_assert_eq(fqdn_generate(s, &p, &b), 0);
		cr_expect_eq(fqdn_decide(s, &b, NULL, NULL, rows[i].q,
					 strlen(rows[i].q), buf),
			     rows[i].want, "row %zu: %s on '%s'", i, sel,
			     rows[i].q);
		fqdn_built_release(&b);
		fqdn_policy_release(&p);
	}
}

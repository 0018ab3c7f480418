/*
 * test_xdp.c - the XDP programs (bpf/xdp_payload.bpf.c) and their DFA
 * compiler (engines/xdp_dfa.c), issue 25.
 *
 * The DFA's answers (any match; the set of pattern ids that match
 * anywhere) equal the reference's, pattern by pattern, on random bytes
 * with the edge bytes (NUL, CR, LF, 0x80-0xff), for the payload suite's
 * patterns, the built-in rules, random patterns and each assertion (\b
 * \B, ^ $ in both modes, \A \z \Z, on word/non-word borders, at the
 * very start and end); what a DFA cannot do is refused with a reason
 * naming the pattern.  Where bpf() works, every
 * program loads through the verifier and answers as the reference does
 * on the payload suite's packets of 64 to 1500 bytes; where it is
 * refused (xdp_probe()), those tests are skipped with the reason.
 */
#define _GNU_SOURCE
#include <criterion/criterion.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "corpora/packets.h"
#include "corpora/rng.h"
#include "corpora/rules.h"
#include "engines/engine.h"
#include "engines/xdp_dfa.h"
#include "engines/xdp_frame.h"
#include "test_xdp_common.h"

#ifdef RXB_HAVE_XDP
#include "engines/xdp_load.h"
#include "engines/xdp_probe.h"
#include <linux/bpf.h>
#endif

#define MAX_SET 8
#define DATA_MAX 40

static const size_t sizes[] = {64, 128, 256, 512, 1000, 1500};

/* Random bytes, mostly from a small alphabet with the edge bytes. */
static size_t random_data(struct rng *r, char *buf, size_t max)
{
	static const char alpha[] = "abAB \n\r\t\0\x80\xff\xc3.:/%";
	size_t n = rng_below(r, max + 1);

	for (size_t i = 0; i < n; i++)
		buf[i] = rng_below(r, 8) == 0
				 ? (char)rng_below(r, 256)
				 : alpha[rng_below(r, sizeof(alpha) - 1)];
	return n;
}

/* Data with tokens of the built-in rules' attacks among edge bytes. */
static size_t attack_data(struct rng *r, char *buf, size_t max)
{
	static const char *const tok[] = {
		"union select ", "UNION/**/ALL select ", "' or 1=1", "${jndi:",
		"${j${::-n}di:", "../", "%2e%2e%2f", "<script>", "onload =",
		"GET /a%00 ", "TRACE ", "user-agent: sqlmap", "/etc/passwd",
		";cat /x", "}", "\n", "\r\n", "wp-config.php", "javascript:",
	};
	size_t n = 0;

	while (n + 24 < max && rng_below(r, 6) != 0) {
		const char *t = tok[rng_below(r, sizeof(tok) / sizeof(tok[0]))];
		if (rng_below(r, 2)) {
			memcpy(buf + n, t, strlen(t));
			n += strlen(t);
		} else {
			n += random_data(r, buf + n, 6);
		}
	}
	return n;
}

/* The DFA of p[0..n) against the reference on one input: ids and any. */
static void check_one(const struct xdp_dfa *d, const struct xt_refs *x,
		      const char *data, size_t len, const char *what)
{
	__u64 want[XDP_RXB_ID_WORDS], got[XDP_RXB_ID_WORDS];
	int any = xt_ref_ids(x, data, len, want);
	int hit = xdp_dfa_scan(d, data, len, 1, got);

	cr_assert_eq(hit, any, "%s: %zu bytes: any %d, reference %d", what,
		     len, hit, any);
	cr_assert(memcmp(got, want, sizeof(want)) == 0,
		  "%s: %zu bytes \"%.*s\": ids %llx, reference %llx", what,
		  len, (int)len, data, (unsigned long long)got[0],
		  (unsigned long long)want[0]);
	cr_assert_eq(xdp_dfa_scan(d, data, len, 0, got), any);
}

/* Build p[0..n) with DFAs of at most max_states states and check it on
   `rounds` random inputs of gen. */
static void check_set_capped(const struct xdp_dfa_pattern *p, size_t n,
			     uint32_t max_states, struct rng *r, int rounds,
			     size_t (*gen)(struct rng *, char *, size_t),
			     size_t max)
{
	struct xdp_dfa d;
	struct xt_refs x;
	char why[256], *buf = malloc(max + 1);

	cr_assert_not_null(buf);
	cr_assert_eq(xt_refs_init(&x, p, n, why, sizeof(why)), 0, "%s", why);
	cr_assert_eq(xdp_dfa_build(&d, p, n, max_states, why, sizeof(why)), 0,
		     "%s: %s", p[0].re, why);
	for (int i = 0; i < rounds; i++) {
		size_t len = gen(r, buf, max);
		check_one(&d, &x, buf, len, p[0].re);
	}
	xdp_dfa_release(&d);
	xt_refs_release(&x);
	free(buf);
}

static void check_set(const struct xdp_dfa_pattern *p, size_t n,
		      struct rng *r, int rounds,
		      size_t (*gen)(struct rng *, char *, size_t),
		      size_t max)
{
	check_set_capped(p, n, XDP_DFA_DEFAULT_MAX_STATES, r, rounds, gen,
			 max);
}

Test(xdp_dfa, payload_patterns)
{
	static const struct xdp_dfa_pattern p[] = {
		{"private", 7, ENGINE_DOTALL, 0},
		{"pri.*ate", 8, ENGINE_DOTALL | ENGINE_SINGLEMATCH, 1},
	};
	struct rng r;

	rng_init(&r, 1);
	check_set(&p[0], 1, &r, 2000, random_data, DATA_MAX);
	check_set(&p[1], 1, &r, 2000, random_data, DATA_MAX);
	check_set(p, 2, &r, 2000, random_data, DATA_MAX);
}

/* The built-in rules as one set: edge bytes, attack tokens, packets. */
Test(xdp_dfa, builtin_rules)
{
	static struct xdp_dfa_pattern p[RULE_BUILTIN_COUNT];
	struct ruleset rs;
	struct rng r;

	ruleset_init(&rs);
	cr_assert_eq(rules_builtin(&rs), 0);
	cr_assert_eq(xt_patterns(&rs, p, RULE_BUILTIN_COUNT), RULE_BUILTIN_COUNT);
	rng_init(&r, 2);
	check_set(p, RULE_BUILTIN_COUNT, &r, 1500, random_data, DATA_MAX);
	check_set(p, RULE_BUILTIN_COUNT, &r, 3000, attack_data, 400);
	for (size_t k = 0; k < RULE_BUILTIN_COUNT; k++)
		check_set(&p[k], 1, &r, 300, attack_data, 200);
	rules_release(&rs);
}

/* The built-in rules in rs, their patterns in p, their DFA in d. */
static void builtin_dfa(struct ruleset *rs, struct xdp_dfa_pattern *p,
			struct xdp_dfa *d)
{
	char why[256];

	ruleset_init(rs);
	cr_assert_eq(rules_builtin(rs), 0);
	cr_assert_eq(xt_patterns(rs, p, RULE_BUILTIN_COUNT), RULE_BUILTIN_COUNT);
	cr_assert_eq(xdp_dfa_build(d, p, RULE_BUILTIN_COUNT,
				   XDP_DFA_DEFAULT_MAX_STATES, why, sizeof(why)),
		     0, "%s", why);
}

/* The HTTP packets' marks (what was planted) are the DFA's id sets. */
Test(xdp_dfa, builtin_rules_on_packets)
{
	static struct xdp_dfa_pattern p[RULE_BUILTIN_COUNT];
	struct ruleset rs;
	struct xdp_dfa d;

	builtin_dfa(&rs, p, &d);
	for (size_t s = 0; s < sizeof(sizes) / sizeof(sizes[0]); s++) {
		struct packets_spec ps = {sizes[s], 200, 0.3, 7};
		struct packets pk;
		cr_assert_eq(packets_generate(&pk, PACKETS_HTTP, &ps), 0);
		for (size_t i = 0; i < pk.n; i++) {
			__u64 ids[XDP_RXB_ID_WORDS];
			xdp_dfa_scan(&d, pk.pkt[i].p, pk.pkt[i].len, 1, ids);
			cr_assert_eq(ids[0], pk.mark[i], "%zu B packet %zu",
				     sizes[s], i);
		}
		packets_release(&pk);
	}
	printf("xdp_dfa: the %d built-in rules: %u states in %u DFAs\n",
	       RULE_BUILTIN_COUNT, d.nstates, d.ngroups);
	xdp_dfa_release(&d);
	rules_release(&rs);
}

/* A random pattern in the DFA's reach into buf. */
static void random_pattern(struct rng *r, char *buf, size_t size,
			   unsigned *flags)
{
	static const char *const atom[] = {
		"a", "b", "\\n", "\\x00", "\\xff", "\\r", ".", "[ab]", "[^a]",
		"[a\\x80-\\xff]", "(?:a|b\\n)", "(?:|a)", "A", "\\s", "(ab|b)",
		"\\x80", "\\b", "\\B", "^", "$", "(?:\\b|\\n)", "(?:$|a)",
		"\\Z", "(?m:^)", "(?m:$)", "\\z",
	};
	static const char *const quant[] = {"", "", "", "*", "+", "?", "{1,2}",
					    "*?", "{0,3}", "{2}"};
	static const unsigned fl[] = {0, ENGINE_DOTALL, ENGINE_CASELESS,
				      ENGINE_ANCHORED, ENGINE_DOTALL |
				      ENGINE_CASELESS, ENGINE_MULTILINE};
	size_t n = 1 + rng_below(r, 5), len = 0;

	buf[0] = '\0';
	if (rng_below(r, 5) == 0)
		len += (size_t)snprintf(buf + len, size - len, "^");
	for (size_t i = 0; i < n; i++) {
		size_t k = rng_below(r, 26), q = rng_below(r, 10);
		/* an assertion (16..) takes no quantifier, but in a group */
		len += (size_t)snprintf(buf + len, size - len, "%s%s%s%s",
					k >= 16 && q >= 3 ? "(?:" : "", atom[k],
					k >= 16 && q >= 3 ? ")" : "", quant[q]);
		if (rng_below(r, 8) == 0)
			len += (size_t)snprintf(buf + len, size - len, "|");
	}
	if (rng_below(r, 5) == 0)
		snprintf(buf + len, size - len, "%s",
			 (const char *[]){"$", "\\z", "\\Z"}[rng_below(r, 3)]);
	*flags = fl[rng_below(r, 6)];
}

/* Random patterns, alone and in sets of up to MAX_SET. */
Test(xdp_dfa, random_patterns)
{
	static char re[MAX_SET][128];
	struct xdp_dfa_pattern p[MAX_SET];
	struct rng r;

	rng_init(&r, 3);
	for (int round = 0; round < 400; round++) {
		size_t n = 1 + rng_below(&r, round % 2 ? MAX_SET : 1);
		for (size_t k = 0; k < n; k++) {
			unsigned fl;
			random_pattern(&r, re[k], sizeof(re[k]), &fl);
			p[k] = (struct xdp_dfa_pattern){re[k], strlen(re[k]), fl,
							(uint32_t)(k * 37 % 256)};
		}
		check_set(p, n, &r, 300, random_data, 24);
	}
}

/* What a DFA cannot express: refused, with the pattern named. */
Test(xdp_dfa, refusals)
{
	static const struct {
		const char *re;
		unsigned flags;
		const char *why;
	} c[] = {
		{"(a)\\1", 0, "backreference"},
		{"a(?=b)", 0, "lookaround"},
		{"abc", ENGINE_UTF8, "UTF-8 mode"},
	};
	struct xdp_dfa d;
	char why[256];

	for (size_t i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		struct xdp_dfa_pattern p[2] = {
			{"ok", 2, 0, 0},
			{c[i].re, strlen(c[i].re), c[i].flags, 1},
		};
		cr_expect_eq(xdp_dfa_build(&d, p, 2, 4096, why, sizeof(why)), -1,
			     "%s", c[i].re);
		cr_expect(strstr(why, "pattern 1") != NULL &&
			  strstr(why, c[i].why) != NULL, "%s: %s", c[i].re, why);
		xdp_dfa_release(&d);
	}
}

/* (a|b)*a(a|b){N} needs 2^(N+1) states: {12} is over the 4096 the
   kernel's table holds (named), {11} fills it. */
Test(xdp_dfa, state_cap)
{
	struct xdp_dfa_pattern p = {"(a|b)*a(a|b){12}", 16, 0, 0};
	struct xdp_dfa d;
	char why[256];

	cr_assert_eq(xdp_dfa_build(&d, &p, 1, 4096, why, sizeof(why)), -1);
	cr_expect(strstr(why, "pattern 0") && strstr(why, "more than 4096 states") &&
		  strstr(why, "xdp.max_states"), "%s", why);
	xdp_dfa_release(&d);
	cr_assert_eq(xdp_dfa_build(&d, &p, 1, 4097, why, sizeof(why)), -1);
	cr_expect(strstr(why, "xdp.max_states=4097: 1 to 4096"), "%s", why);
	p.re = "(a|b)*a(a|b){11}";
	cr_assert_eq(xdp_dfa_build(&d, &p, 1, 4096, why, sizeof(why)), 0, "%s",
		     why);
	cr_expect_eq(d.nstates, 4096u);
	xdp_dfa_release(&d);
	cr_assert_eq(xdp_dfa_build(&d, &p, 1, 4095, why, sizeof(why)), -1);
	xdp_dfa_release(&d);
}

/* Words, '\n' runs and edge bytes: borders everywhere, the first and
   last byte included. */
static size_t border_data(struct rng *r, char *buf, size_t max)
{
	static const char *const tok[] = {
		"foo", "bar", "_9", "\n", "\n\n", "\r\n", " ", "\xff", "x",
		"foo\n", "-", "a", "",
	};
	size_t n = 0;

	while (n + 6 < max && rng_below(r, 8) != 0) {
		const char *t = tok[rng_below(r, sizeof(tok) / sizeof(tok[0]))];
		size_t k = t[0] == '\0' ? 1 : strlen(t); /* "": a NUL */
		memcpy(buf + n, t, k);
		n += k;
	}
	return n;
}

#define ML ENGINE_MULTILINE

/* Each assertion, alone and combined (assert_set: ids 0..). */
static const struct {
	const char *re;
	unsigned flags;
} assert_res[] = {
	{"\\bfoo\\b", 0},  {"foo\\B", 0},
	{"\\Bar", 0},  {"\\b", 0},
	{"\\B", 0},  {"^foo", ML},
	{"foo$", ML},  {"^$", ML},
	{"^\\n", ML},  {"$\\n^", ML},
	{"foo$", 0},  {"\\n$", 0},
	{"o$\\n", 0},  {"foo\\Z", 0},
	{"o\\z", 0},  {"\\Afoo", 0},
	{"^\\b", 0},  {"\\b$", 0},
	{"(?:\\bx|a\\B)+-", 0},  {"bar\\b\\s*$", ML},
	{"\\x00\\b", 0},  {"\\xff\\B", 0},
	{"^[^\\n]*r$", ML},  {"\\bfoo\\b", ENGINE_ANCHORED},
	{"$", 0},  {"^", ML},
};
#define NASSERT (sizeof(assert_res) / sizeof(assert_res[0]))

static void assert_set(struct xdp_dfa_pattern p[NASSERT])
{
	for (size_t k = 0; k < NASSERT; k++)
		p[k] = (struct xdp_dfa_pattern){assert_res[k].re,
			strlen(assert_res[k].re), assert_res[k].flags,
			(uint32_t)k};
}

/* p[0..n) on hand-picked inputs: matches at the very start and end. */
static void check_fixed(const struct xdp_dfa_pattern *p, size_t n)
{
	static const char *const in[] = {
		"", "\n", "foo", "foo\n", "\nfoo", "foo\n\n", " foo ", "foox",
		"\n\n", "bar \n", "x-", "a-", "o\n",
	};
	struct xdp_dfa d;
	struct xt_refs x;
	char why[256];

	cr_assert_eq(xt_refs_init(&x, p, n, why, sizeof(why)), 0, "%s", why);
	cr_assert_eq(xdp_dfa_build(&d, p, n, XDP_DFA_DEFAULT_MAX_STATES, why,
				   sizeof(why)), 0, "%s: %s", p[0].re, why);
	for (size_t i = 0; i < sizeof(in) / sizeof(in[0]); i++)
		check_one(&d, &x, in[i], strlen(in[i]), p[0].re);
	check_one(&d, &x, "\xff" "foo\0", 5, p[0].re);
	xdp_dfa_release(&d);
	xt_refs_release(&x);
}

Test(xdp_dfa, assertions)
{
	struct xdp_dfa_pattern p[NASSERT];
	struct rng r;

	assert_set(p);
	rng_init(&r, 6);
	for (size_t k = 0; k < NASSERT; k++) {
		check_fixed(&p[k], 1);
		check_set(&p[k], 1, &r, 1500, border_data, 40);
		check_set(&p[k], 1, &r, 500, random_data, 24);
	}
	check_fixed(p, NASSERT);
	check_set(p, NASSERT, &r, 4000, border_data, 60);
	check_set(p, NASSERT, &r, 2000, random_data, DATA_MAX);
}

#ifdef RXB_HAVE_XDP

/* Skip (never fail) when bpf() is refused here. */
static void need_bpf(void)
{
	char why[256];

	if (xdp_probe(why, sizeof(why)) != 0)
		cr_skip_test("xdp: %s", why);
}

static struct xdp_prog *open_prog(const struct xdp_spec *spec)
{
	struct xdp_prog *p = NULL;
	char why[512];

	cr_assert_eq(xdp_prog_open(spec, &p, why, sizeof(why)), 0, "%s: %s",
		     xdp_prog_name(spec->kind), why);
	return p;
}

static void run(struct xdp_prog *p, const unsigned char *f, size_t n,
		struct xdp_answer *a)
{
	char why[256];

	cr_assert_eq(xdp_prog_run(p, f, n, 1, a, why, sizeof(why)), 0, "%s",
		     why);
}

/* Every program through the verifier, with each action. */
Test(xdp_prog, all_load)
{
	struct ruleset rs;
	struct xdp_dfa_pattern p[RULE_BUILTIN_COUNT];
	struct xdp_dfa d;
	static const unsigned acts[] = {XDP_DROP, XDP_TX, XDP_PASS};

	need_bpf();
	builtin_dfa(&rs, p, &d);
	for (int all = 0; all < 2; all++)
		for (size_t i = 0; i < 3; i++) {
			struct xdp_spec s[] = {
				{XDP_PROG_BASE, acts[i], NULL, 0, NULL, 0},
				{XDP_PROG_LITERAL, acts[i], "private", 7, NULL, 0},
				{XDP_PROG_DFA, acts[i], NULL, 0, &d, all},
			};
			for (size_t k = 0; k < 3; k++)
				xdp_prog_free(open_prog(&s[k]));
		}
	xdp_dfa_release(&d);
	rules_release(&rs);
}

/* base: the payload found behind every header layout, the action. */
Test(xdp_prog, base_layouts)
{
	static const struct xdp_frame_spec lay[] = {
		{0, 0, 0, 0, 0}, {0, 1, 0, 0, 0}, {1, 0, 0, 0, 0},
		{1, 1, 0, 0, 0}, {0, 0, 1, 0, 0}, {1, 1, 2, 0, 0},
		{0, 0, 0, 3, 5}, {0, 1, 2, 10, 0}, {1, 0, 1, 0, 10},
	};
	static const unsigned acts[] = {XDP_DROP, XDP_TX, XDP_PASS};
	unsigned char f[2048], pay[1500];

	need_bpf();
	memset(pay, 'x', sizeof(pay));
	for (size_t i = 0; i < 3; i++) {
		struct xdp_spec s = {XDP_PROG_BASE, acts[i], NULL, 0, NULL, 0};
		struct xdp_prog *p = open_prog(&s);
		for (size_t l = 0; l < sizeof(lay) / sizeof(lay[0]); l++)
			for (size_t z = 0; z < 6; z++) {
				struct xdp_answer a;
				size_t n = xdp_frame_build(f, sizeof(f), &lay[l],
							   pay, sizes[z]);
				run(p, f, n, &a);
				cr_expect_eq(a.status, XDP_RXB_PAYLOAD);
				cr_expect_eq(a.off, xdp_frame_headers(&lay[l]));
				cr_expect_eq(a.len, sizes[z]);
				cr_expect_eq(a.action, acts[i]);
			}
		xdp_prog_free(p);
	}
}

/* A frame of 64 payload bytes, changed by `edit`, and what it must give. */
static void expect_pass(struct xdp_prog *p, void (*edit)(unsigned char *,
							  size_t *),
			const struct xdp_frame_spec *lay, unsigned status)
{
	unsigned char f[256], pay[64];
	struct xdp_answer a;
	size_t n;

	memset(pay, 'y', sizeof(pay));
	n = xdp_frame_build(f, sizeof(f), lay, pay, sizeof(pay));
	edit(f, &n);
	run(p, f, n, &a);
	cr_expect_eq(a.action, XDP_PASS);
	cr_expect_eq(a.status, status);
}

static void cut_ip(unsigned char *f, size_t *n) { (void)f; *n = 14 + 10; }
static void long_ip(unsigned char *f, size_t *n) { (void)n; f[16] = 0x7f; }
static void short_ihl(unsigned char *f, size_t *n) { (void)n; f[14] = 0x44; }
static void short_doff(unsigned char *f, size_t *n) { (void)n; f[46] = 0x40; }
static void arp(unsigned char *f, size_t *n) { (void)n; f[12] = 8, f[13] = 6; }
static void frag(unsigned char *f, size_t *n) { (void)n; f[20] = 0, f[21] = 9; }
static void icmp(unsigned char *f, size_t *n) { (void)n; f[23] = 1; }
static void v6_ext(unsigned char *f, size_t *n) { (void)n; f[20] = 0; }
static void v6_long(unsigned char *f, size_t *n) { (void)n; f[18] = 0x7f; }
static void cut_tcp(unsigned char *f, size_t *n) { (void)f; *n = 14 + 20 + 8; }

/* Short, lying or foreign frames: XDP_PASS, with what the parser saw
   (the IPv4 checksum is not checked, as the kernel's stack would). */
Test(xdp_prog, malformed_pass)
{
	static const struct xdp_frame_spec v4 = {0}, v6 = {1, 0, 0, 0, 0};
	struct xdp_spec s = {XDP_PROG_BASE, XDP_DROP, NULL, 0, NULL, 0};
	struct xdp_prog *p;

	need_bpf();
	p = open_prog(&s);
	expect_pass(p, cut_ip, &v4, XDP_RXB_MALFORMED);
	expect_pass(p, long_ip, &v4, XDP_RXB_MALFORMED);
	expect_pass(p, short_ihl, &v4, XDP_RXB_MALFORMED);
	expect_pass(p, short_doff, &v4, XDP_RXB_MALFORMED);
	expect_pass(p, cut_tcp, &v4, XDP_RXB_MALFORMED);
	expect_pass(p, arp, &v4, XDP_RXB_OTHER);
	expect_pass(p, frag, &v4, XDP_RXB_OTHER);
	expect_pass(p, icmp, &v4, XDP_RXB_OTHER);
	expect_pass(p, v6_ext, &v6, XDP_RXB_OTHER);
	expect_pass(p, v6_long, &v6, XDP_RXB_MALFORMED);
	xdp_prog_free(p);
}

/* Each packet of each size through p: hit and ids as the reference. */
static void check_packets(struct xdp_prog *p, enum packets_kind kind,
			  const struct xt_refs *x, int all, double rate)
{
	static const struct xdp_frame_spec lay = {0};
	unsigned char f[2048];

	for (size_t s = 0; s < sizeof(sizes) / sizeof(sizes[0]); s++) {
		struct packets_spec ps = {sizes[s], 100, rate, 11};
		struct packets pk;
		cr_assert_eq(packets_generate(&pk, kind, &ps), 0);
		for (size_t i = 0; i < pk.n; i++) {
			struct xdp_answer a;
			__u64 want[XDP_RXB_ID_WORDS];
			int hit = xt_ref_ids(x, pk.pkt[i].p, pk.pkt[i].len, want);
			size_t n = xdp_frame_build(f, sizeof(f), &lay, pk.pkt[i].p,
						   pk.pkt[i].len);
			run(p, f, n, &a);
			cr_assert_eq(a.hit, hit, "%zu B packet %zu", sizes[s], i);
			cr_assert_eq(a.action, hit ? XDP_DROP : XDP_PASS);
			if (all)
				cr_assert(memcmp(a.ids, want, sizeof(want)) == 0,
					  "%zu B packet %zu: ids %llx, want %llx",
					  sizes[s], i,
					  (unsigned long long)a.ids[0],
					  (unsigned long long)want[0]);
		}
		packets_release(&pk);
	}
}

Test(xdp_prog, literal_answers)
{
	struct xdp_dfa_pattern pat = {"private", 7, ENGINE_DOTALL, 0};
	struct xdp_spec s = {XDP_PROG_LITERAL, XDP_DROP, "private", 7, NULL, 0};
	struct xt_refs x;
	struct xdp_prog *p;
	char why[256];

	need_bpf();
	p = open_prog(&s);
	cr_assert_eq(xt_refs_init(&x, &pat, 1, why, sizeof(why)), 0);
	check_packets(p, PACKETS_LITERAL, &x, 0, 0.3);
	check_packets(p, PACKETS_FULLSCAN, &x, 0, 0.3);
	xt_refs_release(&x);
	xdp_prog_free(p);
}

/* The needle at every offset of a short payload, and past its end. */
Test(xdp_prog, literal_edges)
{
	static const struct xdp_frame_spec lay = {0};
	struct xdp_spec s = {XDP_PROG_LITERAL, XDP_TX, "pr\0\xff" "e", 5, NULL, 0};
	unsigned char f[512], pay[200];
	struct xdp_prog *p;

	need_bpf();
	p = open_prog(&s);
	for (size_t len = 1; len <= 140; len++)
		for (size_t at = 0; at < len; at++) {
			struct xdp_answer a;
			size_t cut = len - at < 5 ? len - at : 5;
			memset(pay, 'p', sizeof(pay));
			memcpy(pay + at, "pr\0\xff" "e", cut);
			run(p, f, xdp_frame_build(f, sizeof(f), &lay, pay, len),
			    &a);
			cr_assert_eq(a.hit, cut == 5, "len %zu at %zu", len, at);
			cr_assert_eq(a.action, cut == 5 ? XDP_TX : XDP_PASS);
		}
	xdp_prog_free(p);
}

/* The longest frame test_run takes (engines/xdp.c). */
#define LIT_FRAME_MAX 3520u

/* The literal program p on pay[0..len) behind lay: memmem's answer (the
   literal scenario's reference) and the action that goes with it; the
   same with the needle after the IP datagram (Ethernet padding, not
   payload) where the frame has room. */
static void lit_expect(struct xdp_prog *p, const struct xdp_frame_spec *lay,
		       const char *pay, size_t len, const char *nd, size_t nl,
		       size_t at)
{
	static unsigned char f[LIT_FRAME_MAX];
	struct xdp_answer a;
	int want = memmem(pay, len, nd, nl) != NULL;
	size_t n = xdp_frame_build(f, sizeof(f), lay, pay, len);

	cr_assert_gt(n, 0, "a frame for %zu bytes", len);
	for (int pad = 0; pad < 2; pad++) {
		if (pad) {
			if (n + nl > sizeof(f))
				break;
			memcpy(f + n, nd, nl);
			n += nl;
		}
		run(p, f, n, &a);
		cr_assert_eq(a.hit, want, "needle of %zu bytes planted at %zu "
			     "of %zu, %zu bytes of headers, padding %d: hit "
			     "%u, memmem %d", nl, at, len,
			     xdp_frame_headers(lay), pad, a.hit, want);
		cr_assert_eq(a.action, want ? XDP_DROP : XDP_PASS);
	}
}

/* len filler bytes drawn from the needle's own and the edge bytes, with
   no whole needle left: every step of the search has near misses. */
static void lit_filler(struct rng *r, char *buf, size_t len, const char *nd,
		       size_t nl)
{
	static const char edge[] = "\r\n\0\xff ";
	char *hit;

	for (size_t i = 0; i < len; i++)
		buf[i] = rng_below(r, 4) ? nd[rng_below(r, nl)]
					 : edge[rng_below(r, sizeof(edge) - 1)];
	while ((hit = memmem(buf, len, nd, nl)) != NULL)
		hit[nl - 1] = (char)(nd[nl - 1] + 1);
}

/* Where to plant a needle of nl bytes in len: the ends, across the
   search's word and step boundaries (8, 32, 64 and the step moved back
   to end at the last offset), as many as fit in at[]; SIZE_MAX: none. */
static size_t lit_spots(size_t len, size_t nl, size_t *at, size_t max)
{
	size_t last = len - nl, n = 0;
	static const size_t edges[] = {8, 32, 64, 128};

	at[n++] = SIZE_MAX;
	at[n++] = 0;
	at[n++] = last;
	for (size_t e = 0; e < 4; e++) {
		size_t b[] = {edges[e], last >= edges[e] ? last - edges[e] : 0};
		for (size_t k = 0; k < 2; k++)
			for (size_t d = 1; d < nl + 2 && d <= b[k]; d += 1 + nl / 3)
				if (b[k] - d <= last && n < max)
					at[n++] = b[k] - d;
	}
	return n;
}

/*
 * The literal program against memmem on its edges: a needle of 1, 2, 5,
 * 7 and 64 bytes with CR, NUL and 0xff in them, payloads from shorter
 * than the needle to 3466 bytes, the needle at offset 0, at the very end,
 * across the words and steps the search is cut into, cut short at the
 * end, one byte off, or absent; behind headers of 54, 70 and 138 bytes;
 * and the needle again in the frame's padding (lit_expect).
 */
Test(xdp_prog, literal_vs_memmem)
{
#define ND(s) {s, sizeof(s) - 1}
	static const struct {
		const char *s;
		size_t n;
	} nd[] = {
		ND("\r"), ND("\0\xff"), ND("a\r\0\xff" "b"), ND("private"),
		ND("\xff" "0123456789abcdefghijklmnopqrstuvwxyz"
		   "ABCDEFGHIJKLMNOPQRSTUVW\r\n\0\xff"),
	};
#undef ND
	static const struct xdp_frame_spec lay[] = {
		{0, 0, 0, 0, 0}, {1, 1, 2, 0, 0}, {0, 0, 1, 10, 10},
	};
	static const size_t extra[] = {0, 1, 6, 7, 8, 15, 31, 32, 63, 64, 65,
				       137, 200, 1500, 3466};
	static char pay[3466];
	struct rng r;

	need_bpf();
	rng_init(&r, 25);
	for (size_t k = 0; k < sizeof(nd) / sizeof(nd[0]); k++) {
		struct xdp_spec s = {XDP_PROG_LITERAL, XDP_DROP, nd[k].s,
				     nd[k].n, NULL, 0};
		struct xdp_prog *p = open_prog(&s);
		size_t nl = nd[k].n;
		cr_assert(k < 4 || nl == XDP_RXB_MAX_NEEDLE);
		for (size_t e = 0; e < sizeof(extra) / sizeof(extra[0]); e++) {
			size_t len = extra[e] > 1000 ? extra[e]
						     : nl - 1 + extra[e];
			size_t at[40], nat = 0;
			if (len >= nl)
				nat = lit_spots(len, nl, at, 40);
			for (size_t l = 0; l < sizeof(lay) / sizeof(lay[0]); l++) {
				if (xdp_frame_headers(&lay[l]) + len > LIT_FRAME_MAX)
					continue;
				lit_filler(&r, pay, len, nd[k].s, nl);
				lit_expect(p, &lay[l], pay, len, nd[k].s, nl, 0);
				for (size_t i = 0; i < nat; i++) {
					lit_filler(&r, pay, len, nd[k].s, nl);
					if (at[i] == SIZE_MAX) {
						lit_expect(p, &lay[l], pay, len,
							   nd[k].s, nl, at[i]);
						continue;
					}
					memcpy(pay + at[i], nd[k].s, nl);
					lit_expect(p, &lay[l], pay, len, nd[k].s,
						   nl, at[i]);
					/* a near miss: one byte off */
					pay[at[i] + rng_below(&r, nl)] ^= 0x20;
					lit_expect(p, &lay[l], pay, len, nd[k].s,
						   nl, at[i]);
				}
				/* all but the needle's last byte, at the end */
				lit_filler(&r, pay, len, nd[k].s, nl);
				if (len >= nl - 1)
					memcpy(pay + len - (nl - 1), nd[k].s,
					       nl - 1);
				lit_expect(p, &lay[l], pay, len, nd[k].s, nl,
					   len);
			}
		}
		xdp_prog_free(p);
	}
}

/* The DFA program on the built-in rules and on the payload patterns. */
Test(xdp_prog, dfa_answers)
{
	static struct xdp_dfa_pattern p[RULE_BUILTIN_COUNT];
	struct xdp_dfa_pattern fs = {"pri.*ate", 8, ENGINE_DOTALL, 0};
	struct ruleset rs;
	struct xdp_dfa d, dfs;
	struct xt_refs x, xfs;
	char why[256];

	need_bpf();
	builtin_dfa(&rs, p, &d);
	cr_assert_eq(xdp_dfa_build(&dfs, &fs, 1, 4096, why, sizeof(why)), 0);
	cr_assert_eq(xt_refs_init(&x, p, RULE_BUILTIN_COUNT, why, sizeof(why)), 0);
	cr_assert_eq(xt_refs_init(&xfs, &fs, 1, why, sizeof(why)), 0);
	for (int all = 0; all < 2; all++) {
		struct xdp_spec s = {XDP_PROG_DFA, XDP_DROP, NULL, 0, &d, all};
		struct xdp_spec sf = {XDP_PROG_DFA, XDP_DROP, NULL, 0, &dfs, all};
		struct xdp_prog *pr = open_prog(&s), *pf = open_prog(&sf);
		check_packets(pr, PACKETS_HTTP, &x, all, 0.3);
		check_packets(pf, PACKETS_FULLSCAN, &xfs, all, 0.3);
		xdp_prog_free(pr);
		xdp_prog_free(pf);
	}
	xt_refs_release(&x);
	xt_refs_release(&xfs);
	xdp_dfa_release(&d);
	xdp_dfa_release(&dfs);
	rules_release(&rs);
}

/* $, \z and a final '\n' in the kernel's walk, on short payloads. */
Test(xdp_prog, dfa_end_anchors)
{
	static const struct xdp_dfa_pattern p[] = {
		{"ab$", 3, 0, 0}, {"b\\z", 3, 0, 1}, {"^a", 2, 0, 2},
		{"x*", 2, 0, 3}, {"\\n\\Z", 4, 0, 4},
	};
	static const struct xdp_frame_spec lay = {0};
	struct xdp_dfa d;
	struct xt_refs x;
	struct rng r;
	unsigned char f[256];
	char why[256], buf[80];

	need_bpf();
	cr_assert_eq(xdp_dfa_build(&d, p, 5, 4096, why, sizeof(why)), 0, "%s",
		     why);
	cr_assert_eq(xt_refs_init(&x, p, 5, why, sizeof(why)), 0);
	rng_init(&r, 5);
	struct xdp_spec s = {XDP_PROG_DFA, XDP_DROP, NULL, 0, &d, 1};
	struct xdp_prog *pr = open_prog(&s);
	for (int i = 0; i < 3000; i++) {
		static const char al[] = "ab\nx";
		size_t len = 1 + rng_below(&r, 70);
		struct xdp_answer a;
		__u64 want[XDP_RXB_ID_WORDS];
		for (size_t k = 0; k < len; k++)
			buf[k] = al[rng_below(&r, 4)];
		xt_ref_ids(&x, buf, len, want);
		run(pr, f, xdp_frame_build(f, sizeof(f), &lay, buf, len), &a);
		cr_assert(memcmp(a.ids, want, sizeof(want)) == 0,
			  "\"%.*s\": %llx, want %llx", (int)len, buf,
			  (unsigned long long)a.ids[0],
			  (unsigned long long)want[0]);
	}
	xdp_prog_free(pr);
	xt_refs_release(&x);
	xdp_dfa_release(&d);
}

/* data through the DFA program pr: the hit and (all) the ids as the
   reference's. */
static void check_kernel(struct xdp_prog *pr, const struct xt_refs *x,
			 const char *data, size_t len, int all)
{
	static const struct xdp_frame_spec lay = {0};
	unsigned char f[512];
	struct xdp_answer a;
	__u64 want[XDP_RXB_ID_WORDS];
	int hit = xt_ref_ids(x, data, len, want);

	run(pr, f, xdp_frame_build(f, sizeof(f), &lay, data, len), &a);
	cr_assert_eq(a.hit, hit, "\"%.*s\": hit %u, reference %d", (int)len,
		     data, a.hit, hit);
	if (all)
		cr_assert(memcmp(a.ids, want, sizeof(want)) == 0,
			  "\"%.*s\": %llx, want %llx", (int)len, data,
			  (unsigned long long)a.ids[0],
			  (unsigned long long)want[0]);
}

/* p[0..n)'s DFA of at most max_states states a group in the kernel on
   `rounds` payloads of gen (up to 300 bytes: across the walk's blocks),
   first match or every id.  Its groups. */
static uint32_t check_kernel_capped(const struct xdp_dfa_pattern *p,
				    size_t n, uint32_t max_states,
				    struct rng *r, int rounds, int all,
				    size_t (*gen)(struct rng *, char *, size_t))
{
	struct xdp_dfa d;
	struct xt_refs x;
	char why[256], buf[300];
	struct xdp_spec s = {XDP_PROG_DFA, XDP_DROP, NULL, 0, &d, all};
	struct xdp_prog *pr;
	uint32_t groups;

	cr_assert_eq(xdp_dfa_build(&d, p, n, max_states, why, sizeof(why)), 0,
		     "%s", why);
	cr_assert_eq(xt_refs_init(&x, p, n, why, sizeof(why)), 0);
	pr = open_prog(&s);
	for (int i = 0; i < rounds; i++) {
		size_t len = gen(r, buf, i % 4 ? 40 : sizeof(buf));
		check_kernel(pr, &x, buf, len, all);
	}
	check_kernel(pr, &x, "foo", 3, all);
	check_kernel(pr, &x, "\n", 1, all);
	groups = d.ngroups;
	xdp_prog_free(pr);
	xt_refs_release(&x);
	xdp_dfa_release(&d);
	return groups;
}

static void check_kernel_set(const struct xdp_dfa_pattern *p, size_t n,
			     struct rng *r, int rounds, int all)
{
	check_kernel_capped(p, n, 4096, r, rounds, all, border_data);
}

/* \b \B, ^ $ in both modes, \A \z \Z in the kernel's walk and its
   end-of-payload step: the set (every id, and the first match), and
   each alone. */
Test(xdp_prog, dfa_assertions)
{
	struct xdp_dfa_pattern p[NASSERT];
	struct rng r;

	need_bpf();
	assert_set(p);
	rng_init(&r, 7);
	check_kernel_set(p, NASSERT, &r, 2000, 1);
	check_kernel_set(p, NASSERT, &r, 500, 0);
	for (size_t k = 0; k < NASSERT; k++)
		check_kernel_set(&p[k], 1, &r, 300, 0);
}

/* The "every rule" program on the maps of the "any" one
   (xdp_prog_open_sharing()), which is freed first: answers as the
   reference. */
static void check_kernel_shared(const struct xdp_dfa_pattern *p, size_t n,
				uint32_t max_states, struct rng *r)
{
	struct xdp_dfa d;
	struct xt_refs x;
	struct xdp_prog *any, *all = NULL;
	char why[256], buf[300];

	cr_assert_eq(xdp_dfa_build(&d, p, n, max_states, why, sizeof(why)), 0,
		     "%s", why);
	cr_assert_eq(xt_refs_init(&x, p, n, why, sizeof(why)), 0);
	struct xdp_spec s = {XDP_PROG_DFA, XDP_DROP, NULL, 0, &d, 0};
	any = open_prog(&s);
	s.dfa_all = 1;
	cr_assert_eq(xdp_prog_open_sharing(&s, any, &all, why, sizeof(why)), 0,
		     "%s", why);
	xdp_prog_free(any);
	for (int i = 0; i < 300; i++)
		check_kernel(all, &x, buf, attack_data(r, buf, sizeof(buf)), 1);
	xdp_prog_free(all);
	xt_refs_release(&x);
	xdp_dfa_release(&d);
}

/*
 * A set split into more DFAs than a pass walks side by side: the
 * built-in rules and the assertions under a low state cap, so that they
 * take more than XDP_RXB_DFA_LANES groups and the last pass is partly
 * idle.  In user space and in the kernel, every id and first match.
 */
Test(xdp_prog, dfa_many_groups)
{
	static struct xdp_dfa_pattern p[RULE_BUILTIN_COUNT + NASSERT];
	struct ruleset rs;
	struct rng r;
	struct xdp_dfa d;
	char why[256];
	uint32_t g;

	need_bpf();
	ruleset_init(&rs);
	cr_assert_eq(rules_builtin(&rs), 0);
	cr_assert_eq(xt_patterns(&rs, p, RULE_BUILTIN_COUNT), RULE_BUILTIN_COUNT);
	assert_set(p + RULE_BUILTIN_COUNT);
	for (size_t k = 0; k < NASSERT; k++)
		p[RULE_BUILTIN_COUNT + k].id = (uint32_t)(RULE_BUILTIN_COUNT + k);
	rng_init(&r, 8);
	cr_assert_eq(xdp_dfa_build(&d, p, RULE_BUILTIN_COUNT + NASSERT, 200,
				   why, sizeof(why)), 0, "%s", why);
	g = d.ngroups;
	xdp_dfa_release(&d);
	cr_assert(g > XDP_RXB_DFA_LANES && g % XDP_RXB_DFA_LANES != 0,
		  "%u groups", g);
	check_set_capped(p, RULE_BUILTIN_COUNT + NASSERT, 200, &r, 3000,
			 attack_data, 300);
	check_set_capped(p, RULE_BUILTIN_COUNT + NASSERT, 200, &r, 2000,
			 border_data, 80);
	for (int all = 0; all < 2; all++) {
		check_kernel_capped(p, RULE_BUILTIN_COUNT + NASSERT, 200, &r,
				    600, all, attack_data);
		check_kernel_capped(p, RULE_BUILTIN_COUNT + NASSERT, 200, &r,
				    600, all, border_data);
	}
	printf("xdp_prog: the built-in rules and %zu assertions within 200 "
	       "states a DFA: %u DFAs\n", NASSERT, g);
	check_kernel_shared(p, RULE_BUILTIN_COUNT + NASSERT, 200, &r);
	rules_release(&rs);
}

#endif /* RXB_HAVE_XDP */

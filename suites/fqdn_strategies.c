/*
 * fqdn_strategies.c - the FQDN strategies as data (see fqdn_strategies.h).
 *
 * Each seed strategy is a regex_spec: a rule for matchNames, a rule for
 * matchPatterns, whether the pieces are sorted (Go's sort.Strings: byte
 * order) and the frame around the pieces joined with '|'.  A rule says
 * how a selector's text becomes a piece: add or strip the trailing dot,
 * reverse it, then Cilium's ToRegexp body ('*' -> [-a-zA-Z0-9_]*, '.' ->
 * [.], lower case), optionally anchored ^...$ and grouped (...).
 */
#define _GNU_SOURCE
#include "suites/fqdn_strategies.h"

#include "suites/fqdn_forms.h"
#include "suites/fqdn_trie.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifdef __SSE2__
#include <emmintrin.h>
#endif

enum dot_rule { DOT_ADD, DOT_STRIP };

struct piece_rule {
	enum dot_rule dot;
	int reverse;
	int to_set;            /* into the name set, not the regex */
	int anchor;            /* ^...$ (Cilium's ToRegexp) */
	int group;             /* (...) around it */
	const char *match_all; /* what the matchPattern "*" becomes */
};

struct regex_spec {
	const struct piece_rule *name, *pattern;
	int sort;
	const char *prefix, *suffix;
	int each; /* one regex per piece (map+multi), no frame */
};

/* matchName rules */
static const struct piece_rule name_grouped = {DOT_ADD, 0, 0, 1, 1, NULL};
static const struct piece_rule name_plain = {DOT_ADD, 0, 0, 0, 0, NULL};
static const struct piece_rule name_reversed = {DOT_STRIP, 1, 0, 0, 0, NULL};
static const struct piece_rule name_set = {DOT_ADD, 0, 1, 0, 0, NULL};
static const struct piece_rule name_set_reversed = {DOT_ADD, 1, 1, 0, 0, NULL};
static const struct piece_rule name_anchored = {DOT_ADD, 0, 0, 1, 0, NULL};

/* matchPattern rules */
static const struct piece_rule pat_grouped = {DOT_ADD, 0, 0, 1, 1,
					      "(" FQDN_MATCH_ALL_RE ")"};
static const struct piece_rule pat_plain = {DOT_ADD, 0, 0, 0, 0,
					    FQDN_MATCH_ALL_RE};
static const struct piece_rule pat_reversed = {DOT_STRIP, 1, 0, 0, 0,
					       FQDN_MATCH_ALL_INNER};
static const struct piece_rule pat_nodot = {DOT_STRIP, 0, 0, 0, 0,
					    FQDN_MATCH_ALL_INNER};
static const struct piece_rule pat_anchored = {DOT_ADD, 0, 0, 1, 0,
					       FQDN_MATCH_ALL_RE};

static const struct regex_spec spec_baseline = {
	&name_grouped, &pat_grouped, 0, "", "", 0};
static const struct regex_spec spec_baseline_opt = {
	&name_plain, &pat_plain, 1, "^(?:", ")$", 0};
static const struct regex_spec spec_reverse = {
	&name_reversed, &pat_reversed, 0, "^[.](?:", ")$", 0};
static const struct regex_spec spec_reverse_sort = {
	&name_reversed, &pat_reversed, 1, "^[.](?:", ")$", 0};
static const struct regex_spec spec_map_baseline = {
	&name_set, &pat_grouped, 0, "", "", 0};
static const struct regex_spec spec_map_opt = {
	&name_set, &pat_nodot, 0, "^(?:", ")[.]$", 0};
static const struct regex_spec spec_map_reverse_sort = {
	&name_set_reversed, &pat_reversed, 1, "^[.](?:", ")$", 0};
static const struct regex_spec spec_map_multi = {
	&name_set, &pat_anchored, 0, "", "", 1};

/* A growing string. */
struct sbuf {
	char *p;
	size_t n, cap;
	int oom;
};

static void sb_put(struct sbuf *b, const char *s, size_t len)
{
	if (b->oom)
		return;
	if (b->n + len + 1 > b->cap) {
		size_t cap = b->cap ? b->cap : 64;
		char *p;
		while (cap < b->n + len + 1)
			cap *= 2;
		p = realloc(b->p, cap);
		if (p == NULL) {
			b->oom = 1;
			return;
		}
		b->p = p;
		b->cap = cap;
	}
	memcpy(b->p + b->n, s, len);
	b->n += len;
	b->p[b->n] = '\0';
}

static void sb_str(struct sbuf *b, const char *s)
{
	sb_put(b, s, strlen(s));
}

static char ascii_lower(char c)
{
	return c >= 'A' && c <= 'Z' ? (char)(c - 'A' + 'a') : c;
}

/* The selector text after the dot rule and reversal, lower case. */
static void sb_name(struct sbuf *b, const char *s, size_t len,
		    const struct piece_rule *r)
{
	int dotted = len > 0 && s[len - 1] == '.';
	size_t start = b->n;

	if (r->dot == DOT_STRIP && dotted)
		len--;
	for (size_t i = 0; i < len; i++) {
		char c = ascii_lower(s[i]);
		sb_put(b, &c, 1);
	}
	if (r->dot == DOT_ADD && !dotted)
		sb_put(b, ".", 1);
	if (r->reverse && !b->oom)
		for (size_t i = start, j = b->n; i + 1 < j; i++, j--) {
			char t = b->p[i];
			b->p[i] = b->p[j - 1];
			b->p[j - 1] = t;
		}
}

/* Cilium's ToRegexp body of an already lower-cased name. */
static void sb_regex(struct sbuf *b, const char *s, size_t len)
{
	for (size_t i = 0; i < len; i++) {
		if (s[i] == '*')
			sb_str(b, FQDN_DNS_CLASS "*");
		else if (s[i] == '.')
			sb_str(b, "[.]");
		else
			sb_put(b, &s[i], 1);
	}
}

/* A list of regex pieces. */
struct piece {
	char *s;
	size_t len;
};

struct pieces {
	struct piece *p;
	size_t n;
};

/* Take b's string as the next piece. */
static int pieces_add(struct pieces *ps, struct sbuf *b)
{
	if (b->oom)
		return -1;
	ps->p[ps->n++] = (struct piece){b->p, b->n};
	memset(b, 0, sizeof(*b));
	return 0;
}

static void pieces_free(struct pieces *ps)
{
	for (size_t i = 0; i < ps->n; i++)
		free(ps->p[i].s);
	free(ps->p);
}

/* One selector by rule r: a key of the name set or a regex piece. */
static int apply_rule(const struct piece_rule *r, const struct fqdn_selector *s,
		      struct fqdn_built *b, struct pieces *ps)
{
	struct sbuf name = {0}, re = {0};
	int rc = 0;

	if (r->match_all != NULL && s->len == 1 && s->text[0] == '*') {
		sb_str(&re, r->match_all);
		return pieces_add(ps, &re);
	}
	sb_name(&name, s->text, s->len, r);
	if (name.oom)
		return -1;
	if (r->to_set) {
		rc = strset_add(&b->names, name.p, name.n, 0) < 0 ? -1 : 0;
		free(name.p);
		return rc;
	}
	sb_str(&re, r->group ? (r->anchor ? "(^" : "(") : (r->anchor ? "^" : ""));
	sb_regex(&re, name.p, name.n);
	sb_str(&re, r->group ? (r->anchor ? "$)" : ")") : (r->anchor ? "$" : ""));
	free(name.p);
	return pieces_add(ps, &re);
}

static int piece_cmp(const void *a, const void *b)
{
	const struct piece *x = a, *y = b;

	return strcmp(x->s, y->s);
}

/* Hand the pieces over to b as its regexes (map+multi). */
static int pieces_give(struct pieces *ps, struct fqdn_built *b)
{
	b->re = malloc((ps->n + 1) * sizeof(*b->re));
	b->relen = malloc((ps->n + 1) * sizeof(*b->relen));
	if (b->re == NULL || b->relen == NULL)
		return -1;
	for (size_t i = 0; i < ps->n; i++) {
		b->re[i] = ps->p[i].s;
		b->relen[i] = ps->p[i].len;
	}
	b->nre = ps->n;
	ps->n = 0;
	return 0;
}

/* prefix + pieces joined by '|' + suffix, as the one regex of b. */
static int join_pieces(const struct regex_spec *sp, struct pieces *ps,
		       struct fqdn_built *b)
{
	struct sbuf re = {0};

	sb_str(&re, sp->prefix);
	for (size_t i = 0; i < ps->n; i++) {
		if (i > 0)
			sb_put(&re, "|", 1);
		sb_put(&re, ps->p[i].s, ps->p[i].len);
	}
	sb_str(&re, sp->suffix);
	b->re = malloc(sizeof(*b->re));
	b->relen = malloc(sizeof(*b->relen));
	if (re.oom || b->re == NULL || b->relen == NULL) {
		free(re.p);
		return -1;
	}
	b->re[0] = re.p;
	b->relen[0] = re.n;
	b->nre = 1;
	return 0;
}

/* The seed strategies and map+multi: a name set and regex pieces. */
static int generate_regex(const struct fqdn_strategy *st,
			  const struct fqdn_policy *p, struct fqdn_built *b)
{
	const struct regex_spec *sp = st->spec;
	struct pieces ps = {0};
	int rc = 0;

	if ((st->flags & FQDN_S_MAP) && strset_init(&b->names, p->nnames) != 0)
		return -1;
	ps.p = malloc((p->n + 1) * sizeof(*ps.p));
	if (ps.p == NULL)
		rc = -1;
	for (size_t i = 0; i < p->n && rc == 0; i++) {
		const struct fqdn_selector *s = &p->sel[i];
		rc = apply_rule(s->kind == FQDN_MATCH_NAME ? sp->name
							   : sp->pattern,
				s, b, &ps);
	}
	if (rc == 0 && sp->sort)
		qsort(ps.p, ps.n, sizeof(*ps.p), piece_cmp);
	if (rc == 0 && sp->each)
		rc = pieces_give(&ps, b);
	else if (rc == 0 && ps.n > 0)
		rc = join_pieces(sp, &ps, b);
	pieces_free(&ps);
	return rc;
}

static int generate_trie(const struct fqdn_strategy *st,
			 const struct fqdn_policy *p, struct fqdn_built *b)
{
	(void)st;
	b->trie = fqdn_trie_build(p);
	return b->trie == NULL ? -1 : 0;
}

/* --- Cilium's per-selector shapes --- */

/* The length of s's 1.19 subdomain wildcard prefix ("**.", "***."), or 0. */
static size_t subdomain_wild(const struct fqdn_selector *s)
{
	return s->kind == FQDN_MATCH_PATTERN
		       ? fqdn_subdomain_prefix(s->text, s->len)
		       : 0;
}

/*
 * Why a strategy built with 1.11's ToRegexp cannot express p as 1.19's
 * proxy reads it (NULL: it can), naming what runs it.  The name
 * manager's strategies read 1.19 themselves (l3_regex).
 */
static const char *v119_gap(const struct fqdn_policy *p)
{
	if (p->cilium != FQDN_CILIUM_1_19)
		return NULL;
	for (size_t i = 0; i < p->n; i++) {
		if (fqdn_sel_dns_wildcard(&p->sel[i]))
			return "Cilium 1.19: a stars-only matchPattern ('*', "
			       "'**.') allows every name; this strategy's "
			       "regex is 1.11's ToRegexp (cilium-l7, "
			       "map+cilium-l7 and trie run it; --cilium=1.11 "
			       "reads it as 1.11 did)";
		if (subdomain_wild(&p->sel[i]))
			return "Cilium 1.19: a leading '**.' matches one label or "
			       "more; this strategy's regex is 1.11's ToRegexp "
			       "(cilium-l7, map+cilium-l7 and trie run it; "
			       "--cilium=1.11 reads it as 1.11 did)";
	}
	return NULL;
}

/*
 * 1.19's ToUnAnchoredRegexp of a selector, lower case and fully qualified
 * (Sanitize): a leading "**." ("***.", ...) is FQDN_SUBDOMAINS_RE, a
 * run of stars one class star, '.' is [.].  DNS wildcards ("*", "**.")
 * are the caller's.
 */
static void sb_regex_119(struct sbuf *b, const struct fqdn_selector *s)
{
	struct sbuf low = {0};
	size_t i = 0;

	sb_name(&low, s->text, s->len, &name_plain); /* lower case, final dot */
	if (low.oom) {
		b->oom = 1;
		return;
	}
	if (subdomain_wild(s) > 0) {
		sb_str(b, FQDN_SUBDOMAINS_RE);
		i = subdomain_wild(s);
	}
	for (; i < low.n; i++) {
		if (low.p[i] == '*' && i > 0 && low.p[i - 1] == '*')
			continue;
		sb_regex(b, &low.p[i], 1);
	}
	free(low.p);
}

/* A matchName into the name set (a map strategy): lower case, final dot. */
static int name_to_set(const struct fqdn_selector *s, struct fqdn_built *b)
{
	struct pieces none = {0};

	return apply_rule(&name_set, s, b, &none);
}

/* One more regex of b's list (ps, handed over at the end). */
static int push_regex(struct pieces *ps, struct sbuf *re)
{
	if (re->oom) {
		free(re->p);
		return -1;
	}
	return pieces_add(ps, re);
}

/*
 * The regex of L7 selector p->sel[from..to) into *re (re->n stays 0 when
 * it has none: a map strategy's selector of matchNames only).  1.19:
 * GeneratePattern; 1.11: setPortRulesForID's join of grouped ToRegexp.
 */
static int l7_regex(const struct fqdn_policy *p, size_t from, size_t to,
		    int map, struct fqdn_built *b, struct sbuf *re)
{
	int v119 = p->cilium == FQDN_CILIUM_1_19, every = 0;
	size_t npieces = 0;

	for (size_t i = from; i < to; i++) {
		const struct fqdn_selector *s = &p->sel[i];
		struct pieces one = {0};
		struct piece slot;
		if (map && s->kind == FQDN_MATCH_NAME) {
			if (name_to_set(s, b) != 0)
				return -1;
			continue;
		}
		if (v119 && fqdn_sel_dns_wildcard(s)) {
			every = 1; /* the whole selector allows every name */
			continue;
		}
		sb_str(re, npieces++ == 0 ? (v119 ? "^(?:" : "") : "|");
		if (v119) {
			sb_regex_119(re, s);
			continue;
		}
		one.p = &slot;
		if (apply_rule(s->kind == FQDN_MATCH_NAME ? &name_grouped
							  : &pat_grouped,
			       s, b, &one) != 0)
			return -1;
		sb_put(re, slot.s, slot.len);
		free(slot.s);
	}
	if (npieces > 0 && v119)
		sb_str(re, ")$");
	if (every && !re->oom) {
		re->n = 0;
		sb_str(re, FQDN_MATCH_EVERY_RE);
	}
	return re->oom ? -1 : 0;
}

/* How many L7 selectors p's rules are split across (at least 1, at most n). */
static size_t l7_count(const struct fqdn_policy *p)
{
	size_t k = p->l7_selectors ? p->l7_selectors : 1;

	return k > p->n ? (p->n ? p->n : 1) : k;
}

/* cilium-l7 and map+cilium-l7: one regex per L7 selector, in order. */
static int generate_l7(const struct fqdn_strategy *st,
		       const struct fqdn_policy *p, struct fqdn_built *b)
{
	int map = (st->flags & FQDN_S_MAP) != 0;
	size_t k = l7_count(p);
	struct pieces ps = {0};
	int rc = 0;

	if (map && strset_init(&b->names, p->nnames) != 0)
		return -1;
	ps.p = malloc(k * sizeof(*ps.p));
	if (ps.p == NULL)
		return -1;
	for (size_t g = 0; g < k && rc == 0; g++) {
		struct sbuf re = {0};
		rc = l7_regex(p, g * p->n / k, (g + 1) * p->n / k, map, b, &re);
		if (rc == 0 && re.n > 0)
			rc = push_regex(&ps, &re);
		else
			free(re.p);
	}
	if (rc == 0)
		rc = pieces_give(&ps, b);
	pieces_free(&ps);
	return rc;
}

/*
 * The name manager's anchored regex of one selector into ps
 * (ToAnchoredRegexp): in 1.19 a DNS wildcard ("*", "**.") is its
 * match-all, valid names and the root, as 1.11's "*" is.
 */
static int l3_regex(const struct fqdn_policy *p, const struct fqdn_selector *s,
		    struct fqdn_built *b, struct pieces *ps)
{
	struct sbuf re = {0};

	if (p->cilium != FQDN_CILIUM_1_19 || (s->len == 1 && s->text[0] == '*'))
		return apply_rule(s->kind == FQDN_MATCH_NAME ? &name_anchored
							     : &pat_anchored,
				  s, b, ps);
	if (fqdn_sel_dns_wildcard(s)) {
		sb_str(&re, FQDN_MATCH_ALL_RE);
		return push_regex(ps, &re);
	}
	sb_str(&re, "^");
	sb_regex_119(&re, s);
	sb_str(&re, "$");
	return push_regex(ps, &re);
}

/* cilium-l3 and map+cilium-l3: one anchored regex per selector. */
static int generate_l3(const struct fqdn_strategy *st,
		       const struct fqdn_policy *p, struct fqdn_built *b)
{
	int map = (st->flags & FQDN_S_MAP) != 0;
	struct pieces ps = {0};
	int rc = 0;

	if (map && strset_init(&b->names, p->nnames) != 0)
		return -1;
	ps.p = malloc((p->n + 1) * sizeof(*ps.p));
	if (ps.p == NULL)
		return -1;
	for (size_t i = 0; i < p->n && rc == 0; i++) {
		const struct fqdn_selector *s = &p->sel[i];
		rc = map && s->kind == FQDN_MATCH_NAME ? name_to_set(s, b)
						       : l3_regex(p, s, b, &ps);
	}
	if (rc == 0)
		rc = pieces_give(&ps, b);
	pieces_free(&ps);
	return rc;
}

/* Any strategy: unsupported when it cannot express p's semantics. */
static int generate_checked(const struct fqdn_strategy *st,
			    const struct fqdn_policy *p, struct fqdn_built *b)
{
	int l3 = st->generate == generate_l3;

	if (!(st->flags & FQDN_S_TRIE) && st->generate != generate_l7 && !l3)
		b->unsupported = v119_gap(p);
	return b->unsupported ? 0 : st->generate(st, p, b);
}

const struct fqdn_strategy fqdn_strategies[] = {
	{"baseline", 0, generate_regex, &spec_baseline, FQDN_OP_ONE},
	{"baseline-optimized", 0, generate_regex, &spec_baseline_opt,
	 FQDN_OP_ONE},
	{"reverse", FQDN_S_REVERSE, generate_regex, &spec_reverse, FQDN_OP_ONE},
	{"reverse+sort", FQDN_S_REVERSE, generate_regex, &spec_reverse_sort,
	 FQDN_OP_ONE},
	{"map+baseline", FQDN_S_MAP, generate_regex, &spec_map_baseline,
	 FQDN_OP_ONE},
	{"map+optimized", FQDN_S_MAP, generate_regex, &spec_map_opt,
	 FQDN_OP_ONE},
	{"map+reverse+sort", FQDN_S_MAP | FQDN_S_REVERSE, generate_regex,
	 &spec_map_reverse_sort, FQDN_OP_ONE},
	{"map+multi", FQDN_S_MAP | FQDN_S_MULTI, generate_regex,
	 &spec_map_multi, FQDN_OP_SET},
	{"trie", FQDN_S_TRIE, generate_trie, NULL, FQDN_OP_ONE},
	{"cilium-l7", 0, generate_l7, NULL, FQDN_OP_FIRST},
	{"map+cilium-l7", FQDN_S_MAP, generate_l7, NULL,
	 FQDN_OP_FIRST},
	{"cilium-l3", FQDN_S_EXTRA | FQDN_S_L3, generate_l3, NULL, FQDN_OP_ALL},
	{"map+cilium-l3", FQDN_S_EXTRA | FQDN_S_MAP | FQDN_S_L3, generate_l3,
	 NULL, FQDN_OP_ALL},
};

const size_t fqdn_nstrategies =
	sizeof(fqdn_strategies) / sizeof(fqdn_strategies[0]);

const struct fqdn_strategy *fqdn_strategy_find(const char *name)
{
	for (size_t i = 0; i < fqdn_nstrategies; i++)
		if (strcmp(fqdn_strategies[i].name, name) == 0)
			return &fqdn_strategies[i];
	return NULL;
}

int fqdn_generate(const struct fqdn_strategy *s, const struct fqdn_policy *p,
		  struct fqdn_built *b)
{
	int rc;

	memset(b, 0, sizeof(*b));
	rc = generate_checked(s, p, b);
	if (rc != 0)
		fqdn_built_release(b);
	return rc;
}

void fqdn_built_release(struct fqdn_built *b)
{
	for (size_t i = 0; i < b->nre; i++)
		free(b->re[i]);
	free(b->re);
	free(b->relen);
	strset_release(&b->names);
	fqdn_trie_free(b->trie);
	memset(b, 0, sizeof(*b));
}

/*
 * Go's strings.ToLower up to the verdict, for a query with a non-ASCII
 * byte: ASCII letters, and the two non-ASCII runes that lower to ASCII
 * (U+0130 -> 'i', U+212A -> 'k').  Every other byte is kept: Go would
 * lower it to some non-ASCII rune or U+FFFD, and no selector matches
 * either.  Their UTF-8 forms (C4 B0, E2 84 AA) are found by bytes: C4
 * and E2 are lead bytes, never inside another sequence, so Go decodes
 * them wherever they stand.
 */
static size_t lower_non_ascii(const char *q, size_t len, char *buf)
{
	const unsigned char *s = (const unsigned char *)q;
	size_t n = 0;

	for (size_t i = 0; i < len; i++) {
		if (s[i] == 0xc4 && i + 1 < len && s[i + 1] == 0xb0) {
			buf[n++] = 'i';
			i += 1;
		} else if (s[i] == 0xe2 && i + 2 < len && s[i + 1] == 0x84 &&
			   s[i + 2] == 0xaa) {
			buf[n++] = 'k';
			i += 2;
		} else {
			buf[n++] = ascii_lower(q[i]);
		}
	}
	return n;
}

/*
 * Eight bytes w with every ASCII 'A'-'Z' lowered, the others kept: a byte
 * is upper case when its low seven bits plus 0x3f carry into bit 7 ('A'
 * and above) and plus 0x25 do not ('Z' and below), and its own bit 7 is
 * clear; bit 5 is then set (SWAR, no branch per byte).
 */
static inline uint64_t lower8(uint64_t w)
{
	const uint64_t high = 0x8080808080808080ull;
	uint64_t low7 = w & ~high;
	uint64_t ge_a = low7 + 0x3f3f3f3f3f3f3f3full;
	uint64_t gt_z = low7 + 0x2525252525252525ull;

	return w | (((ge_a ^ gt_z) & ~w & high) >> 2);
}

#ifdef __SSE2__
/* Sixteen bytes with 'A'-'Z' lowered: a signed compare leaves bytes of
 * 0x80 and above (negative) alone. */
static inline __m128i lower16(__m128i v)
{
	__m128i up = _mm_and_si128(_mm_cmpgt_epi8(v, _mm_set1_epi8('A' - 1)),
				   _mm_cmplt_epi8(v, _mm_set1_epi8('Z' + 1)));

	return _mm_or_si128(v, _mm_and_si128(up, _mm_set1_epi8(0x20)));
}

/* lower_go() of a query of 16 bytes or more, sixteen at a time, the last
 * sixteen again (lowering twice changes nothing). */
static size_t lower_go16(const char *q, size_t len, char *buf)
{
	int high = 0;
	size_t i = 0;
	__m128i v;

	for (; i + 16 <= len; i += 16) {
		v = _mm_loadu_si128((const __m128i *)(const void *)(q + i));
		high |= _mm_movemask_epi8(v);
		_mm_storeu_si128((__m128i *)(void *)(buf + i), lower16(v));
	}
	if (i < len) {
		v = _mm_loadu_si128((const __m128i *)(const void *)(q + len - 16));
		high |= _mm_movemask_epi8(v);
		_mm_storeu_si128((__m128i *)(void *)(buf + len - 16), lower16(v));
	}
	return high ? lower_non_ascii(q, len, buf) : len;
}
#endif

/* The query lower-cased as Go would (see above) into buf; its length. */
static size_t lower_go(const char *q, size_t len, char *buf)
{
	uint64_t any = 0, w;
	size_t i = 0;

#ifdef __SSE2__
	if (len >= 16)
		return lower_go16(q, len, buf);
#endif

	/* one pass, as Go's ToLower scans for non-ASCII bytes too, eight
	   bytes at a time; the rare non-ASCII name goes again */
	for (; i + 8 <= len; i += 8) {
		memcpy(&w, q + i, 8);
		any |= w;
		w = lower8(w);
		memcpy(buf + i, &w, 8);
	}
	if (len >= 8 && i < len) { /* the last 0-7 bytes: the last eight
				       again (lowering twice changes nothing) */
		memcpy(&w, q + len - 8, 8);
		any |= w;
		w = lower8(w);
		memcpy(buf + len - 8, &w, 8);
		i = len;
	}
	for (; i < len; i++) {
		buf[i] = ascii_lower(q[i]);
		any |= (unsigned char)q[i];
	}
	return any & 0x8080808080808080ull ? lower_non_ascii(q, len, buf) : len;
}

/*
 * The width of the rune s[0..n) starts with, as Go's utf8.DecodeRune reads
 * it: the shortest form only, no surrogates, at most U+10FFFF; 1 for a
 * byte that starts no valid sequence.  n > 0.
 */
static size_t go_rune_width(const unsigned char *s, size_t n)
{
	unsigned char c = s[0], lo = 0x80, hi = 0xbf;
	size_t w = c >= 0xc2 && c <= 0xdf   ? 2
		   : c >= 0xe0 && c <= 0xef ? 3
		   : c >= 0xf0 && c <= 0xf4 ? 4
					    : 1;

	if (w == 1 || n < w)
		return 1;
	if (c == 0xe0)
		lo = 0xa0;
	else if (c == 0xed)
		hi = 0x9f;
	else if (c == 0xf0)
		lo = 0x90;
	else if (c == 0xf4)
		hi = 0x8f;
	if (s[1] < lo || s[1] > hi)
		return 1;
	for (size_t i = 2; i < w; i++)
		if (s[i] < 0x80 || s[i] > 0xbf)
			return 1;
	return w;
}

/*
 * dns.IsFqdn as the proxy's DNS library decides it (fqdn_ref.h): q ends
 * with '.', and the bytes from the start of the last rune before it that
 * is not a backslash, to the dot, are an odd count.  A name ending in a
 * two- or four-byte rune and a dot is not qualified.  The usual name
 * (an ASCII byte other than '\' before the dot) is decided at once.
 */
static int dns_is_fqdn(const char *q, size_t len)
{
	const unsigned char *s = (const unsigned char *)q;
	size_t end, w = 1;
	long start, lim;

	if (len == 0 || s[len - 1] != '.')
		return 0;
	if (len == 1 || (s[len - 2] < 0x80 && s[len - 2] != '\\'))
		return 1;
	end = len - 1;
	while (end > 0 && s[end - 1] == '\\')
		end--;
	if (end > 0 && s[end - 1] >= 0x80) { /* utf8.DecodeLastRuneInString */
		lim = end >= 4 ? (long)end - 4 : 0;
		for (start = (long)end - 2; start >= lim; start--)
			if ((s[start] & 0xc0) != 0x80)
				break;
		if (start < 0)
			start = 0;
		w = go_rune_width(s + start, end - (size_t)start);
		if ((size_t)start + w != end)
			w = 1;
	}
	return (len - 1 - end + w) % 2 != 0;
}

size_t fqdn_rewrite(const struct fqdn_strategy *s, const char *q, size_t len,
		    char *buf)
{
	size_t n = lower_go(q, len, buf);

	if (!dns_is_fqdn(q, len))
		buf[n++] = '.';
	buf[n] = '\0';
	if (s->flags & FQDN_S_REVERSE)
		for (size_t i = 0, j = n; i + 1 < j; i++, j--) {
			char t = buf[i];
			buf[i] = buf[j - 1];
			buf[j - 1] = t;
		}
	return n;
}

/* The handles of FQDN_OP_FIRST and _ALL: one regex each. */
struct fqdn_each {
	size_t n;
	void **h;
	unsigned char *hit; /* _ALL: which matched the last query */
};

static void each_free(const struct engine *e, struct fqdn_each *x)
{
	for (size_t i = 0; i < x->n; i++)
		e->free(x->h[i]);
	free(x->h);
	free(x->hit);
	free(x);
}

/* Every regex of b alone on e into one fqdn_each. */
static int each_compile(const struct fqdn_built *b, const struct engine *e,
			void **out, struct engine_error *err)
{
	struct fqdn_each *x = calloc(1, sizeof(*x));
	int rc = 0;

	if (x == NULL || (x->h = calloc(b->nre, sizeof(*x->h))) == NULL ||
	    (x->hit = calloc(b->nre, 1)) == NULL) {
		if (x != NULL)
			each_free(e, x);
		return ENGINE_ERR_NOMEM;
	}
	for (; x->n < b->nre && rc == 0; x->n++) {
		struct engine_pattern pat = {b->re[x->n], b->relen[x->n]};
		rc = e->compile(&pat, 1, 0, &x->h[x->n], err);
		if (rc != 0)
			err->pattern = (long)x->n;
	}
	if (rc != 0) {
		x->n--; /* the one that failed has no handle */
		each_free(e, x);
		return rc;
	}
	*out = x;
	return 0;
}

/*
 * FQDN_OP_FIRST and _ALL: a handle per regex, unless the engine's set is
 * those regexes compiled each alone already, asked in order
 * (CAP_SET_IN_ORDER: is_match stops at the first that matches, match_ids
 * asks them all), when it is one handle.
 */
static int each_alone(const struct fqdn_strategy *s, const struct engine *e)
{
	return (s->op == FQDN_OP_FIRST || s->op == FQDN_OP_ALL) &&
	       !(e->caps & CAP_SET_IN_ORDER);
}

int fqdn_regex_compile(const struct fqdn_strategy *s, const struct fqdn_built *b,
		 const struct engine *e, void **h, struct engine_error *err)
{
	struct engine_pattern one, *pats = &one;
	int rc;

	*h = NULL;
	if (b->nre == 0)
		return 0;
	if (each_alone(s, e))
		return each_compile(b, e, h, err);
	if (b->nre > 1) {
		pats = malloc(b->nre * sizeof(*pats));
		if (pats == NULL)
			return ENGINE_ERR_NOMEM;
	}
	for (size_t i = 0; i < b->nre; i++)
		pats[i] = (struct engine_pattern){b->re[i], b->relen[i]};
	rc = e->compile(pats, b->nre, 0, h, err);
	if (pats != &one)
		free(pats);
	return rc;
}

void fqdn_regex_free(const struct fqdn_strategy *s, const struct engine *e,
			void *h)
{
	if (h == NULL)
		return;
	if (each_alone(s, e))
		each_free(e, h);
	else
		e->free(h);
}

/* _FIRST: 1 at the first regex that matches; _ALL: every one asked. */
static int each_match(enum fqdn_regex_op op, const struct engine *e,
		      struct fqdn_each *x, const char *q, size_t n)
{
	int any = 0;

	for (size_t i = 0; i < x->n; i++) {
		int v = e->is_match(x->h[i], q, n);
		if (v < 0)
			return v;
		if (v && op == FQDN_OP_FIRST)
			return 1;
		x->hit[i] = (unsigned char)v;
		any |= v;
	}
	return any;
}

int fqdn_decide(const struct fqdn_strategy *s, const struct fqdn_built *b,
		const struct engine *e, void *h, const char *q, size_t len,
		char *buf)
{
	size_t n = fqdn_rewrite(s, q, len, buf);

	if (s->flags & FQDN_S_TRIE)
		return fqdn_trie_match(b->trie, buf, n);
	if (fqdn_built_has_name(b, buf, n))
		return 1;
	if (h == NULL)
		return 0;
	if (each_alone(s, e))
		return each_match(s->op, e, h, buf, n);
	return e->is_match(h, buf, n);
}

static int key_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

long fqdn_built_format_map(const struct fqdn_built *b, char *buf, size_t size)
{
	struct sbuf out = {0};
	char **keys = malloc((b->names.n + 1) * sizeof(*keys));
	size_t nk = 0;
	long need = -1;

	for (size_t i = 0; keys != NULL && i < b->names.n; i++) {
		size_t len;
		const char *k = strset_key(&b->names, i, &len);
		keys[nk] = strndup(k, len);
		if (keys[nk] == NULL)
			goto out;
		nk++;
	}
	if (keys == NULL)
		goto out;
	qsort(keys, nk, sizeof(*keys), key_cmp);
	sb_str(&out, "map[");
	for (size_t i = 0; i < nk; i++) {
		sb_str(&out, i ? " " : "");
		sb_str(&out, keys[i]);
		sb_str(&out, ":");
	}
	sb_str(&out, "]");
	if (!out.oom) {
		need = (long)out.n;
		if (size > 0)
			snprintf(buf, size, "%s", out.p);
	}
out:
	for (size_t i = 0; i < nk; i++)
		free(keys[i]);
	free(keys);
	free(out.p);
	return need;
}

_Static_assert(sizeof(fqdn_strategies) / sizeof(fqdn_strategies[0]) <= 32,
	       "--strategies keeps a bit per strategy (suites/fqdn.c)");

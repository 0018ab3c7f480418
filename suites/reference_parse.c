/*
 * reference_parse.c - the reference matcher's parser (see reference.h for
 * the syntax in reach, reference_int.h for the tree it builds).
 *
 * Recursive descent over the pattern bytes, one function per construct,
 * following PCRE2 10.42's reading of each (checked with pcre2test): a
 * quantifier applies to the last item even across (?#...) and \E, but not
 * after an option setting or an assertion; `{` is a literal unless a
 * whole {n}, {n,} or {n,m} follows ({,m} too is literal in 10.42); an
 * option setting lasts to the end of its group, later alternatives
 * included.  Options are resolved here: a caseless letter becomes a set
 * of both cases, `.` a set with or without '\n', `^` and `$` the
 * assertion their mode means.
 *
 * Anything PCRE2 accepts that the reference does not implement is
 * REF_OUT_OF_REACH; what PCRE2 rejects is REF_INVALID.  Every message
 * names the byte offset it is about and quotes pattern bytes escaped.
 *
 * Build: always (part of the reference matcher).
 */
#include "suites/reference.h"
#include "suites/reference_int.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define REF_MAX_NEST 220     /* PCRE2 10.42 refuses a 221st nested group */
#define REF_MAX_REPEAT 1000  /* {n,m} above this is out of reach */
#define PCRE2_MAX_REPEAT 65535
#define REF_MAX_NAME 32      /* PCRE2's group name limit */

/* Inline options, (?i) (?s) (?m) (?U) (?J); ENGINE_* flags seed them. */
enum ref_opt {
	OPT_I = 1u << 0,
	OPT_S = 1u << 1,
	OPT_M = 1u << 2,
	OPT_U = 1u << 3,
	OPT_J = 1u << 4,
};

/* What the last item of a sequence lets a quantifier do. */
enum item_state {
	ITEM_NONE,       /* nothing to repeat (start, option setting) */
	ITEM_REPEATABLE, /* a character, a set or a group */
	ITEM_ASSERT,     /* ^ $ \b ...: PCRE2 refuses to repeat these */
	ITEM_QUANTIFIED, /* a quantifier may not follow a quantifier */
};

/* A set being built: ranges in any order until cset_normalize(). */
struct cset {
	struct ref_range *r;
	size_t n, cap;
};

struct name {
	size_t off, len;
};

struct parser {
	const unsigned char *re;
	size_t len;
	size_t pos;
	int utf8;
	unsigned opts;   /* enum ref_opt in force */
	int depth;       /* groups open */
	int in_quote;    /* inside \Q...\E */
	struct ref_ast *ast;
	unsigned needs;  /* enum engine_cap */
	unsigned features;
	struct name *names;
	size_t nnames, namecap;
	struct cset lit;   /* class members case folding applies to */
	struct cset plain; /* class members it does not (\d, [:alpha:]) */
	int cls_negated;   /* the class so far has \D \S \W or [:^name:] */
	int cls_posix_after; /* and then a POSIX class: see class_compose() */
	int seen_S, seen_hv; /* \S, and \h or \v, outside classes */
	char *why;
	size_t size;
};

/* A list under construction (a sequence's items or a group's branches),
   linked by `next`, and what a quantifier may do to its last item. */
struct seq {
	uint32_t first, last;
	uint32_t count;
	enum item_state state;
};

/* What an escape means (\d is a class, \b an assertion, ...). */
enum esc_kind {
	ESC_CHAR,
	ESC_CLASS,  /* letter in cp: d w s h v N, upper case negated */
	ESC_ASSERT, /* enum ref_assert in cp */
	ESC_QUOTE,  /* \Q */
	ESC_ENDQUOTE,
};

struct esc {
	enum esc_kind kind;
	uint32_t cp;
};

static int parse_alt(struct parser *p, uint32_t *out);
static int brace_quantifier(const struct parser *p, long *min, long *max,
			    size_t *end);

/* Formats "<what> at offset N" into why; returns status. */
static int fail(struct parser *p, int status, size_t at, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static int fail(struct parser *p, int status, size_t at, const char *fmt, ...)
{
	char what[160];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	if (p->size > 0)
		snprintf(p->why, p->size, "%s at offset %zu", what, at);
	return status;
}

static int nomem(struct parser *p)
{
	return fail(p, REF_NOMEM, p->pos, "out of memory");
}

/* Byte c as printable text for a message: "y" or "\x01". */
static const char *quote_byte(unsigned char c, char buf[8])
{
	if (c > 0x20 && c < 0x7f)
		snprintf(buf, 8, "%c", c);
	else
		snprintf(buf, 8, "\\x%02x", c);
	return buf;
}

static int peek(const struct parser *p, size_t ahead)
{
	return p->pos + ahead < p->len ? p->re[p->pos + ahead] : -1;
}

static int is_digit(int c)
{
	return c >= '0' && c <= '9';
}

static int is_alnum(int c)
{
	return is_digit(c) || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

static int hex_value(int c)
{
	if (is_digit(c))
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/*
 * Length of the valid UTF-8 sequence at s (avail > 0 bytes) and its code
 * point, or 0: overlong forms, surrogates and values above U+10FFFF are
 * invalid, as PCRE2 and engine_utf8_len() have it.
 */
static size_t utf8_decode(const unsigned char *s, size_t avail, uint32_t *cp)
{
	static const uint32_t min[5] = {0, 0, 0x80, 0x800, 0x10000};
	size_t n = s[0] < 0x80 ? 1 : s[0] < 0xc2 ? 0 : s[0] < 0xe0 ? 2 :
	       s[0] < 0xf0 ? 3 : s[0] < 0xf5 ? 4 : 0;
	uint32_t v;

	if (n == 0 || n > avail)
		return 0;
	v = n == 1 ? s[0] : s[0] & (0x7fu >> n);
	for (size_t i = 1; i < n; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		v = v << 6 | (s[i] & 0x3fu);
	}
	if (v < min[n] || v > REF_MAX_CP || (v >= 0xd800 && v <= 0xdfff))
		return 0;
	*cp = v;
	return n;
}

/* The character at pos (a byte, or a UTF-8 sequence checked up front). */
static uint32_t take_char(struct parser *p)
{
	uint32_t cp = p->re[p->pos];

	if (p->utf8 && cp >= 0x80) {
		p->pos += utf8_decode(p->re + p->pos, p->len - p->pos, &cp);
		return cp;
	}
	p->pos++;
	return cp;
}

/* ---- sets ---- */

static int cset_add(struct parser *p, struct cset *s, uint32_t lo,
		    uint32_t hi)
{
	if (s->n == s->cap) {
		size_t cap = s->cap ? s->cap * 2 : 16;
		struct ref_range *r = realloc(s->r, cap * sizeof(*r));
		if (r == NULL)
			return nomem(p);
		s->r = r;
		s->cap = cap;
	}
	s->r[s->n++] = (struct ref_range){lo, hi};
	return 0;
}

static int range_cmp(const void *a, const void *b)
{
	const struct ref_range *x = a, *y = b;

	return x->lo < y->lo ? -1 : x->lo > y->lo;
}

/* Sorts and merges overlapping or adjacent ranges. */
static void cset_normalize(struct cset *s)
{
	size_t out = 0;

	if (s->n == 0)
		return;
	qsort(s->r, s->n, sizeof(*s->r), range_cmp);
	for (size_t i = 1; i < s->n; i++) {
		if (s->r[i].lo <= s->r[out].hi + 1) {
			if (s->r[i].hi > s->r[out].hi)
				s->r[out].hi = s->r[i].hi;
		} else {
			s->r[++out] = s->r[i];
		}
	}
	s->n = out + 1;
}

/* Complement of a normalized set within [0, top]; in place. */
static int cset_negate(struct parser *p, struct cset *s, uint32_t top)
{
	struct cset t = {0};
	uint32_t next = 0;
	int rc = 0;

	for (size_t i = 0; i < s->n && rc == 0; i++) {
		if (s->r[i].lo > next)
			rc = cset_add(p, &t, next, s->r[i].lo - 1);
		next = s->r[i].hi + 1;
	}
	if (rc == 0 && next <= top && (s->n == 0 || s->r[s->n - 1].hi < top))
		rc = cset_add(p, &t, next, top);
	if (rc != 0) {
		free(t.r);
		return rc;
	}
	free(s->r);
	*s = t;
	return 0;
}

static int cset_has(const struct cset *s, uint32_t c)
{
	for (size_t i = 0; i < s->n; i++)
		if (s->r[i].lo <= c && c <= s->r[i].hi)
			return 1;
	return 0;
}

/* The part of [lo,hi] inside [a,b], moved by delta, added to s. */
static int add_shifted(struct parser *p, struct cset *s, uint32_t lo,
		       uint32_t hi, uint32_t a, uint32_t b, int delta)
{
	if (hi < a || lo > b)
		return 0;
	lo = lo < a ? a : lo;
	hi = hi > b ? b : hi;
	return cset_add(p, s, (uint32_t)((int)lo + delta),
			(uint32_t)((int)hi + delta));
}

/*
 * Caseless closure of s, as PCRE2 has it without UCP: ASCII letters take
 * their other case; in UTF-8 mode k and s also take U+212A KELVIN SIGN
 * and U+017F LATIN SMALL LETTER LONG S, the only non-ASCII characters
 * Unicode folds together with ASCII letters.
 */
static int cset_fold(struct parser *p, struct cset *s)
{
	size_t n = s->n;
	int k = cset_has(s, 'k') || cset_has(s, 'K');
	int ls = cset_has(s, 's') || cset_has(s, 'S');
	int rc = 0;

	for (size_t i = 0; i < n && rc == 0; i++) {
		uint32_t lo = s->r[i].lo, hi = s->r[i].hi;
		rc = add_shifted(p, s, lo, hi, 'a', 'z', 'A' - 'a');
		if (rc == 0)
			rc = add_shifted(p, s, lo, hi, 'A', 'Z', 'a' - 'A');
	}
	if (rc == 0 && p->utf8 && k)
		rc = cset_add(p, s, 0x212a, 0x212a);
	if (rc == 0 && p->utf8 && ls)
		rc = cset_add(p, s, 0x17f, 0x17f);
	return rc;
}

/* Ranges given as "lo hi lo hi ..." byte pairs into s. */
static int add_pairs(struct parser *p, struct cset *s, const char *pairs,
		     size_t n)
{
	int rc = 0;

	for (size_t i = 0; i + 1 < n && rc == 0; i += 2)
		rc = cset_add(p, s, (unsigned char)pairs[i],
			      (unsigned char)pairs[i + 1]);
	return rc;
}

/* \h and \v beyond ASCII (UTF-8 mode), as PCRE2's tables list them. */
static int add_unicode_space(struct parser *p, struct cset *s, int vertical)
{
	static const uint32_t h[][2] = {
		{0x1680, 0x1680}, {0x180e, 0x180e}, {0x2000, 0x200a},
		{0x202f, 0x202f}, {0x205f, 0x205f}, {0x3000, 0x3000},
	};
	int rc = 0;

	if (vertical)
		return cset_add(p, s, 0x2028, 0x2029);
	for (size_t i = 0; i < sizeof(h) / sizeof(h[0]) && rc == 0; i++)
		rc = cset_add(p, s, h[i][0], h[i][1]);
	return rc;
}

static uint32_t universe(const struct parser *p)
{
	return p->utf8 ? REF_MAX_CP : 0xff;
}

/*
 * The class escape `letter` (d w s h v N; upper case: the complement)
 * added to s.  \s has \v (VT) since PCRE2 8.34; \h and \v are PCRE2's
 * horizontal and vertical space, not the characters Python reads.
 */
static int add_class_escape(struct parser *p, struct cset *s, int letter)
{
	struct cset t = {0};
	int rc;

	switch (letter | 0x20) {
	case 'd': rc = add_pairs(p, &t, "09", 2); break;
	case 'w': rc = add_pairs(p, &t, "09AZaz__", 8); break;
	case 's': rc = add_pairs(p, &t, "\t\r  ", 4); break;
	case 'h': rc = add_pairs(p, &t, "\t\t  \xa0\xa0", 6); break;
	case 'v': rc = add_pairs(p, &t, "\n\r\x85\x85", 4); break;
	default: rc = add_pairs(p, &t, "\n\n", 2); break; /* N: [^\n] */
	}
	if (rc == 0 && p->utf8 && (letter | 0x20) == 'h')
		rc = add_unicode_space(p, &t, 0);
	if (rc == 0 && p->utf8 && (letter | 0x20) == 'v')
		rc = add_unicode_space(p, &t, 1);
	cset_normalize(&t);
	if (rc == 0 && (letter < 'a' || letter == 'N'))
		rc = cset_negate(p, &t, universe(p));
	for (size_t i = 0; i < t.n && rc == 0; i++)
		rc = cset_add(p, s, t.r[i].lo, t.r[i].hi);
	free(t.r);
	p->needs |= CAP_PERL_CLASSES;
	return rc;
}

/* ---- the tree ---- */

static int new_node(struct parser *p, enum ref_kind kind, uint32_t *out)
{
	struct ref_ast *a = p->ast;

	if (a->n == a->cap) {
		size_t cap = a->cap ? a->cap * 2 : 64;
		struct ref_node *n = realloc(a->nodes, cap * sizeof(*n));
		if (n == NULL)
			return nomem(p);
		a->nodes = n;
		a->cap = cap;
	}
	a->nodes[a->n] = (struct ref_node){.kind = (unsigned char)kind,
					   .first = REF_NONE,
					   .kid = REF_NONE,
					   .next = REF_NONE};
	*out = (uint32_t)a->n++;
	return 0;
}

/* A set node holding s (normalized), its ranges copied into the tree. */
static int set_node(struct parser *p, const struct cset *s, uint32_t *out)
{
	struct ref_ast *a = p->ast;
	int rc;

	if (a->nranges + s->n > a->rcap) {
		size_t cap = (a->rcap ? a->rcap * 2 : 64) + s->n;
		struct ref_range *r = realloc(a->ranges, cap * sizeof(*r));
		if (r == NULL)
			return nomem(p);
		a->ranges = r;
		a->rcap = cap;
	}
	rc = new_node(p, RK_SET, out);
	if (rc != 0)
		return rc;
	if (s->n > 0)
		memcpy(a->ranges + a->nranges, s->r, s->n * sizeof(*s->r));
	a->nodes[*out].first = (uint32_t)a->nranges;
	a->nodes[*out].count = (uint32_t)s->n;
	a->nranges += s->n;
	return 0;
}

static int assert_node(struct parser *p, enum ref_assert kind, uint32_t *out)
{
	int rc = new_node(p, RK_ASSERT, out);

	if (rc == 0)
		p->ast->nodes[*out].assert = (unsigned char)kind;
	if (kind == RA_WORDB || kind == RA_NWORDB)
		p->needs |= CAP_WORD_BOUNDARY;
	if (kind == RA_EOSNL)
		p->features |= REF_USES_DOLLAR;
	return rc;
}

/* Appends node to a list (a sequence's items or a group's branches). */
static void list_append(struct parser *p, struct seq *s, uint32_t node)
{
	if (s->count == 0)
		s->first = node;
	else
		p->ast->nodes[s->last].next = node;
	s->last = node;
	s->count++;
}

/* The list as one node: EMPTY, its only member, or a CAT/ALT. */
static int list_node(struct parser *p, const struct seq *s,
		     enum ref_kind kind, uint32_t *out)
{
	int rc;

	if (s->count == 1) {
		*out = s->first;
		return 0;
	}
	rc = new_node(p, s->count == 0 ? RK_EMPTY : kind, out);
	if (rc == 0 && s->count > 0) {
		p->ast->nodes[*out].first = s->first;
		p->ast->nodes[*out].count = s->count;
	}
	return rc;
}

/* ---- characters ---- */

/*
 * A literal character as a set: itself, both cases when caseless.
 * Caseless non-ASCII in UTF-8 mode needs Unicode case folding, where
 * engines disagree: out of reach.
 */
static int char_node(struct parser *p, uint32_t cp, size_t at, uint32_t *out)
{
	struct cset s = {0};
	int rc;

	if ((p->opts & OPT_I) && p->utf8 && cp >= 0x80)
		return fail(p, REF_OUT_OF_REACH, at,
			    "caseless non-ASCII character U+%04X in UTF-8 "
			    "mode (Unicode case folding)",
			    (unsigned)cp);
	rc = cset_add(p, &s, cp, cp);
	if (rc == 0 && (p->opts & OPT_I))
		rc = cset_fold(p, &s);
	cset_normalize(&s);
	if (rc == 0)
		rc = set_node(p, &s, out);
	free(s.r);
	return rc;
}

static int class_escape_node(struct parser *p, int letter, uint32_t *out)
{
	struct cset s = {0};
	int rc = add_class_escape(p, &s, letter);

	cset_normalize(&s);
	if (rc == 0)
		rc = set_node(p, &s, out);
	free(s.r);
	return rc;
}

static int dot_node(struct parser *p, uint32_t *out)
{
	struct cset s = {0};
	int rc = (p->opts & OPT_S) ? cset_add(p, &s, 0, universe(p)) :
				     cset_add(p, &s, '\n', '\n');

	if (rc == 0 && !(p->opts & OPT_S))
		rc = cset_negate(p, &s, universe(p));
	if (rc == 0)
		rc = set_node(p, &s, out);
	free(s.r);
	return rc;
}

/* ---- escapes ---- */

/* Code point limit check shared by \x{..}, \o{..} and octal escapes. */
static int check_cp(struct parser *p, uint32_t v, size_t at)
{
	if (v > universe(p))
		return fail(p, REF_INVALID, at,
			    "character code point value in \\x{} or \\o{} "
			    "is too large");
	if (p->utf8 && v >= 0xd800 && v <= 0xdfff)
		return fail(p, REF_INVALID, at,
			    "disallowed Unicode code point (>= 0xd800 && "
			    "<= 0xdfff)");
	return 0;
}

/* Digits of base 8 or 16 up to '}' after "\x{" or "\o{" (pos at '{'). */
static int braced_number(struct parser *p, int base, size_t at, uint32_t *cp)
{
	uint32_t v = 0;
	int digits = 0;

	p->pos++;
	for (;;) {
		int c = peek(p, 0);
		int d = base == 16 ? hex_value(c) : (c >= '0' && c <= '7') ?
								c - '0' : -1;
		if (c == '}')
			break;
		if (d < 0)
			return fail(p, REF_INVALID, p->pos,
				    base == 16 ?
					    "non-hex character in \\x{} "
					    "(closing brace missing?)" :
					    "non-octal character in \\o{} "
					    "(closing brace missing?)");
		v = v > REF_MAX_CP ? v : v * (uint32_t)base + (uint32_t)d;
		digits++;
		p->pos++;
	}
	if (digits == 0)
		return fail(p, REF_INVALID, p->pos,
			    "digits missing in \\x{} or \\o{}");
	p->pos++;
	*cp = v;
	return check_cp(p, v, at);
}

/* \x: \xHH (0 to 2 digits; none is NUL, as in PCRE2) or \x{H..}. */
static int hex_escape(struct parser *p, size_t at, uint32_t *cp)
{
	uint32_t v = 0;

	if (peek(p, 0) == '{')
		return braced_number(p, 16, at, cp);
	for (int i = 0; i < 2 && hex_value(peek(p, 0)) >= 0; i++)
		v = v * 16 + (uint32_t)hex_value(p->re[p->pos++]);
	*cp = v;
	return 0;
}

/* Up to `max` octal digits at pos after a first digit `v`. */
static int octal_escape(struct parser *p, uint32_t v, int max, size_t at,
			uint32_t *cp)
{
	for (int i = 0; i < max && peek(p, 0) >= '0' && peek(p, 0) <= '7'; i++)
		v = v * 8 + (uint32_t)(p->re[p->pos++] - '0');
	if (!p->utf8 && v > 0xff)
		return fail(p, REF_INVALID, at,
			    "octal value is greater than \\377 in 8-bit "
			    "non-UTF mode");
	*cp = v;
	return 0;
}

/* \cX: a printable ASCII X, upper-cased, with bit 6 flipped. */
static int control_escape(struct parser *p, size_t at, uint32_t *cp)
{
	int c = peek(p, 0);

	if (c < 0)
		return fail(p, REF_INVALID, at, "\\c at end of pattern");
	if (c < 0x20 || c > 0x7e)
		return fail(p, REF_INVALID, p->pos,
			    "\\c must be followed by a printable ASCII "
			    "character");
	p->pos++;
	if (c >= 'a' && c <= 'z')
		c -= 'a' - 'A';
	*cp = (uint32_t)c ^ 0x40;
	return 0;
}

/* Escapes that are the same in and out of a class. */
static int escape_char(struct parser *p, int c, size_t at, struct esc *e)
{
	static const char simple[] = "a\007e\033f\014n\nr\rt\t";
	const char *hit = strchr(simple, c);

	e->kind = ESC_CHAR;
	if (hit != NULL && (hit - simple) % 2 == 0) {
		e->cp = (unsigned char)hit[1];
		return 0;
	}
	switch (c) {
	case 'x': return hex_escape(p, at, &e->cp);
	case 'o':
		if (peek(p, 0) != '{')
			return fail(p, REF_INVALID, at,
				    "missing opening brace after \\o");
		return braced_number(p, 8, at, &e->cp);
	case '0': return octal_escape(p, 0, 2, at, &e->cp);
	case 'c': return control_escape(p, at, &e->cp);
	default: return 1; /* not one of these */
	}
}

/* Letters PCRE2 gives no meaning, or refuses on purpose. */
static int escape_unknown(struct parser *p, int c, size_t at)
{
	char b[8];

	if (strchr("FLlUuN", c) != NULL)
		return fail(p, REF_INVALID, at,
			    "PCRE2 does not support \\F, \\L, \\l, \\N{name}, "
			    "\\U, or \\u");
	return fail(p, REF_INVALID, at, "unrecognized character follows \\ "
		    "(\\%s)", quote_byte((unsigned char)c, b));
}

/* Escapes the reference leaves to other verification. */
static int escape_out_of_reach(struct parser *p, int c, size_t at)
{
	static const struct {
		char c;
		const char *what;
	} names[] = {
		{'g', "backreference or subroutine \\g"},
		{'k', "named backreference \\k"},
		{'p', "Unicode property \\p"}, {'P', "Unicode property \\P"},
		{'X', "extended grapheme \\X"}, {'R', "newline sequence \\R"},
		{'C', "single code unit \\C"}, {'K', "match start reset \\K"},
		{'G', "start-of-search anchor \\G"},
	};

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (names[i].c == c)
			return fail(p, REF_OUT_OF_REACH, at, "%s",
				    names[i].what);
	return 1;
}

/* \N{U+..} is out of reach, \N{3} is \N repeated, \N{name} an error. */
static int named_char(struct parser *p, size_t at, struct esc *e)
{
	long min, max;
	size_t end;

	if (peek(p, 1) == 'U' && peek(p, 2) == '+')
		return fail(p, REF_OUT_OF_REACH, at, "\\N{U+...}");
	if (!brace_quantifier(p, &min, &max, &end))
		return escape_unknown(p, 'N', at);
	e->kind = ESC_CLASS;
	e->cp = 'N';
	return 0;
}

/* After '\' outside a class (pos past the escaped character). */
static int escape_outside(struct parser *p, int c, size_t at, struct esc *e)
{
	static const char asserts[] = "AbBzZ";
	static const unsigned char kinds[] = {RA_BOS, RA_WORDB, RA_NWORDB,
					      RA_EOS, RA_EOSNL};
	const char *a = strchr(asserts, c);

	if (c >= '1' && c <= '9')
		return fail(p, REF_OUT_OF_REACH, at,
			    "backreference (or octal escape) \\%c", c);
	if (a != NULL) {
		e->kind = ESC_ASSERT;
		e->cp = kinds[a - asserts];
		return 0;
	}
	if (c == 'N' && peek(p, 0) == '{')
		return named_char(p, at, e);
	if (c == 'N') {
		e->kind = ESC_CLASS;
		e->cp = 'N';
		return 0;
	}
	return 1;
}

/* After '\' inside a class. */
static int escape_in_class(struct parser *p, int c, size_t at, struct esc *e)
{
	e->kind = ESC_CHAR;
	if (c == 'b') {
		e->cp = 0x08;
		return 0;
	}
	if (c >= '1' && c <= '7')
		return octal_escape(p, (uint32_t)(c - '0'), 2, at, &e->cp);
	if (c == '8' || c == '9') {
		e->cp = (uint32_t)c;
		return 0;
	}
	if (c == 'N')
		return fail(p, REF_INVALID, at, "\\N is not supported in a "
			    "class");
	if (strchr("BAzZGKRX", c) != NULL)
		return fail(p, REF_INVALID, at,
			    "escape sequence is invalid in character class");
	return 1;
}

/*
 * The escape at pos ('\'); `in_class` picks the class reading of \b and
 * digits.  Fills e, or returns a negative status with why set.
 */
static int parse_escape(struct parser *p, int in_class, struct esc *e)
{
	size_t at = p->pos;
	int c, rc;

	p->pos++;
	if (p->pos >= p->len)
		return fail(p, REF_INVALID, at, "\\ at end of pattern");
	c = p->re[p->pos];
	if (!is_alnum(c)) {
		e->kind = ESC_CHAR;
		e->cp = take_char(p);
		return 0;
	}
	p->pos++;
	rc = in_class ? escape_in_class(p, c, at, e) :
			escape_outside(p, c, at, e);
	if (rc <= 0)
		return rc;
	rc = escape_char(p, c, at, e);
	if (rc <= 0)
		return rc;
	if (strchr("dDwWsShHvV", c) != NULL) {
		e->kind = ESC_CLASS;
		e->cp = (uint32_t)c;
		return 0;
	}
	if (c == 'Q' || c == 'E') {
		e->kind = c == 'Q' ? ESC_QUOTE : ESC_ENDQUOTE;
		return 0;
	}
	rc = escape_out_of_reach(p, c, at);
	return rc <= 0 ? rc : escape_unknown(p, c, at);
}

/* ---- classes ---- */

/* PCRE2's check for [:name:] (term ':'), [.x.] or [=x=] at pos ('['). */
static int posix_syntax(const struct parser *p, size_t *end)
{
	int term = peek(p, 1);

	for (size_t i = p->pos + 2; i < p->len; i++) {
		int c = p->re[i];
		int next = i + 1 < p->len ? p->re[i + 1] : -1;
		if (c == '\\' && (next == ']' || next == '\\'))
			i++;
		else if ((c == '[' && next == term) || c == ']')
			return 0;
		else if (c == term && next == ']') {
			*end = i;
			return 1;
		}
	}
	return 0;
}

/* A POSIX class name (ASCII, PCRE2's default tables) into s. */
static int posix_class(struct parser *p, const unsigned char *name, size_t n,
		       struct cset *s)
{
	static const struct {
		const char *name;
		const char *pairs;
	} classes[] = {
		{"alpha", "AZaz"}, {"digit", "09"}, {"alnum", "09AZaz"},
		{"upper", "AZ"}, {"lower", "az"}, {"xdigit", "09AFaf"},
		{"space", "\t\r  "}, {"blank", "\t\t  "},
		{"punct", "!/:@[`{~"}, {"cntrl", "\x01\x1f\x7f\x7f"},
		{"print", " ~"}, {"graph", "!~"}, {"word", "09AZaz__"},
		{"ascii", "\x01\x7f"},
	};

	for (size_t i = 0; i < sizeof(classes) / sizeof(classes[0]); i++) {
		const char *pairs = classes[i].pairs;
		int rc;
		if (strlen(classes[i].name) != n ||
		    memcmp(classes[i].name, name, n) != 0)
			continue;
		rc = add_pairs(p, s, pairs, strlen(pairs));
		/* the tables start at 1: NUL is a control and ASCII */
		if (rc == 0 && (strcmp(classes[i].name, "cntrl") == 0 ||
				strcmp(classes[i].name, "ascii") == 0))
			rc = cset_add(p, s, 0, 0);
		/* caseless [:upper:] and [:lower:] take both cases (ASCII) */
		if (rc == 0 && (p->opts & OPT_I) &&
		    (strcmp(classes[i].name, "upper") == 0 ||
		     strcmp(classes[i].name, "lower") == 0))
			rc = add_pairs(p, s, "AZaz", 4);
		return rc;
	}
	return 1;
}

/* [:name:] or [:^name:] at pos, its members into p->plain. */
static int parse_posix(struct parser *p, size_t end)
{
	struct cset t = {0};
	size_t at = p->pos;
	size_t name = p->pos + 2;
	int neg = p->re[name] == '^';
	int rc;

	if (p->re[p->pos + 1] != ':')
		return fail(p, REF_INVALID, at,
			    "POSIX collating elements are not supported");
	name += (size_t)neg;
	rc = posix_class(p, p->re + name, end - name, &t);
	if (rc > 0)
		rc = fail(p, REF_INVALID, at, "unknown POSIX class name");
	cset_normalize(&t);
	if (rc == 0 && neg)
		rc = cset_negate(p, &t, universe(p));
	for (size_t i = 0; i < t.n && rc == 0; i++)
		rc = cset_add(p, &p->plain, t.r[i].lo, t.r[i].hi);
	free(t.r);
	p->cls_posix_after = !neg && p->cls_negated;
	p->cls_negated |= neg;
	p->pos = end + 2;
	return rc;
}

/* A class member that is one character: its code point in *cp. */
enum member {
	MEMBER_CHAR,
	MEMBER_CLASS, /* \d, [:alpha:]: cannot end a range */
	MEMBER_NONE,  /* \Q, \E: nothing */
};

/* One member at pos (not ']'), classes into p->plain. */
static int class_member(struct parser *p, enum member *m, uint32_t *cp)
{
	struct esc e;
	size_t end;
	int rc;

	int next = peek(p, 1);

	*m = MEMBER_CHAR;
	if (p->re[p->pos] == '[' && (next == ':' || next == '.' ||
				     next == '=') && posix_syntax(p, &end)) {
		*m = MEMBER_CLASS;
		return parse_posix(p, end);
	}
	if (p->re[p->pos] != '\\') {
		*cp = take_char(p);
		return 0;
	}
	rc = parse_escape(p, 1, &e);
	if (rc != 0)
		return rc;
	switch (e.kind) {
	case ESC_CHAR:
		*cp = e.cp;
		if (e.cp == 0)
			p->needs |= CAP_NUL_PATTERN;
		return 0;
	case ESC_CLASS:
		*m = MEMBER_CLASS;
		if (strchr("DSW", (int)e.cp) != NULL) {
			p->cls_negated = 1;
			p->cls_posix_after = 0;
		}
		return add_class_escape(p, &p->plain, (int)e.cp);
	case ESC_QUOTE:
		/* PCRE2's ranges with quoted ends are subtle ([\Qa\E-c]) */
		return fail(p, REF_OUT_OF_REACH, p->pos - 2,
			    "\\Q...\\E inside a class");
	case ESC_ENDQUOTE: /* alone: nothing, ']' after it is still first */
	case ESC_ASSERT:   /* escape_in_class() refuses these */
		break;
	}
	*m = MEMBER_NONE;
	return 0;
}

/* The end of a range after '-' at pos; lo is its start. */
static int class_range(struct parser *p, uint32_t lo, size_t at)
{
	enum member m;
	uint32_t hi = 0;
	int rc;

	p->pos++; /* '-' */
	if (p->re[p->pos] == '\\' && (peek(p, 1) == 'Q' || peek(p, 1) == 'E'))
		return fail(p, REF_OUT_OF_REACH, p->pos,
			    "\\Q or \\E inside a class range");
	rc = class_member(p, &m, &hi);
	if (rc != 0)
		return rc;
	if (m != MEMBER_CHAR)
		return fail(p, REF_INVALID, at,
			    "invalid range in character class");
	if (hi < lo)
		return fail(p, REF_INVALID, p->pos - 1,
			    "range out of order in character class");
	return cset_add(p, &p->lit, lo, hi);
}

/* One step of a class: a member or a range (or \E, nothing). */
static int class_item(struct parser *p, int *first)
{
	enum member m = MEMBER_CHAR;
	uint32_t cp = 0;
	size_t at = p->pos;
	int rc;

	rc = class_member(p, &m, &cp);
	if (rc != 0 || m == MEMBER_NONE)
		return rc;
	*first = 0;
	if (peek(p, 0) == '-' && peek(p, 1) >= 0 && peek(p, 1) != ']') {
		if (m == MEMBER_CLASS)
			return fail(p, REF_INVALID, p->pos,
				    "invalid range in character class");
		return class_range(p, cp, at);
	}
	if (m == MEMBER_CLASS)
		return 0;
	return cset_add(p, &p->lit, cp, cp);
}

/* The finished members as one set: folded, merged, maybe negated. */
static int class_compose(struct parser *p, int neg, size_t at, uint32_t *out)
{
	int rc = 0;

	/*
	 * PCRE2 10.42 (8-bit, UTF-8, no UCP) decides whether characters
	 * above U+00FF are in a class from the last of \D \S \W and the
	 * POSIX classes in it, so [\W[:blank:]] misses U+1F600 that
	 * [[:blank:]\W] matches.  Other engines take the union.
	 */
	if (p->utf8 && p->cls_posix_after)
		return fail(p, REF_OUT_OF_REACH, at,
			    "class with a POSIX class after \\D, \\S, \\W or "
			    "[:^name:] in UTF-8 mode (PCRE2 10.42 drops "
			    "characters above U+00FF there)");

	if ((p->opts & OPT_I) && p->utf8) {
		for (size_t i = 0; i < p->lit.n; i++)
			if (p->lit.r[i].hi >= 0x80)
				return fail(p, REF_OUT_OF_REACH, at,
					    "caseless class with non-ASCII "
					    "characters in UTF-8 mode (Unicode "
					    "case folding)");
	}
	if (p->opts & OPT_I)
		rc = cset_fold(p, &p->lit);
	for (size_t i = 0; i < p->plain.n && rc == 0; i++)
		rc = cset_add(p, &p->lit, p->plain.r[i].lo, p->plain.r[i].hi);
	cset_normalize(&p->lit);
	if (rc == 0 && neg)
		rc = cset_negate(p, &p->lit, universe(p));
	if (rc == 0)
		rc = set_node(p, &p->lit, out);
	return rc;
}

/* [...] at pos.  ']' first (after '^') is a member, as in PCRE2. */
static int parse_class(struct parser *p, uint32_t *out)
{
	size_t at = p->pos;
	int first = 1;
	int neg;
	int rc = 0;

	p->pos++;
	neg = peek(p, 0) == '^';
	p->pos += (size_t)neg;
	p->lit.n = 0;
	p->plain.n = 0;
	p->cls_negated = 0;
	p->cls_posix_after = 0;
	while (rc == 0) {
		if (p->pos >= p->len)
			return fail(p, REF_INVALID, p->pos,
				    "missing terminating ] for character "
				    "class");
		if (p->re[p->pos] == ']' && !first)
			break;
		rc = class_item(p, &first);
	}
	if (rc != 0)
		return rc;
	p->pos++;
	return class_compose(p, neg, at, out);
}

/* ---- groups ---- */

/* A group name ([A-Za-z_][A-Za-z0-9_]*) ending with `term`, at pos. */
static int parse_name(struct parser *p, int term)
{
	size_t start = p->pos;

	if (peek(p, 0) == term || peek(p, 0) < 0)
		return fail(p, REF_INVALID, p->pos, "subpattern name expected");
	if (is_digit(peek(p, 0)))
		return fail(p, REF_INVALID, p->pos,
			    "subpattern name must start with a non-digit");
	while (is_alnum(peek(p, 0)) || peek(p, 0) == '_')
		p->pos++;
	if (p->pos - start > REF_MAX_NAME)
		return fail(p, REF_INVALID, p->pos,
			    "subpattern name is too long (maximum 32 code "
			    "units)");
	if (peek(p, 0) != term)
		return fail(p, REF_INVALID, p->pos,
			    "syntax error in subpattern name (missing "
			    "terminator?)");
	p->pos++;
	return 0;
}

/* Records the name before pos-1; duplicates are an error without (?J). */
static int add_name(struct parser *p, size_t start)
{
	size_t len = p->pos - 1 - start;

	for (size_t i = 0; i < p->nnames && !(p->opts & OPT_J); i++)
		if (p->names[i].len == len &&
		    memcmp(p->re + p->names[i].off, p->re + start, len) == 0)
			return fail(p, REF_INVALID, p->pos,
				    "two named subpatterns have the same "
				    "name (PCRE2_DUPNAMES not set)");
	if (p->nnames == p->namecap) {
		size_t cap = p->namecap ? p->namecap * 2 : 8;
		struct name *n = realloc(p->names, cap * sizeof(*n));
		if (n == NULL)
			return nomem(p);
		p->names = n;
		p->namecap = cap;
	}
	p->names[p->nnames++] = (struct name){start, len};
	return 0;
}

/* (?<name>  (?'name'  (?P<name> : pos at the opening '<' or '\''. */
static int named_group(struct parser *p)
{
	int term = p->re[p->pos] == '<' ? '>' : '\'';
	size_t start = ++p->pos;
	int rc = parse_name(p, term);

	return rc != 0 ? rc : add_name(p, start);
}

/* The option letters after "(?" up to ')' or ':'; *set is the result. */
static int parse_options(struct parser *p, unsigned *set)
{
	unsigned opts = p->opts;
	int neg = 0;

	if (peek(p, 0) == '^') {
		opts &= ~(unsigned)(OPT_I | OPT_M | OPT_S);
		p->pos++;
		neg = -1;
	}
	for (;;) {
		int c = peek(p, 0);
		unsigned bit = c == 'i' ? OPT_I : c == 's' ? OPT_S :
			       c == 'm' ? OPT_M : c == 'U' ? OPT_U :
			       c == 'J' ? OPT_J : 0;
		if (c < 0)
			return fail(p, REF_INVALID, p->len,
				    "missing closing parenthesis");
		if (c == ')' || c == ':')
			break;
		if (c == '-' && neg != 0)
			return fail(p, REF_INVALID, p->pos,
				    "invalid hyphen in option setting");
		if (c == 'x' && neg <= 0)
			return fail(p, REF_OUT_OF_REACH, p->pos,
				    "extended mode (?x)");
		if (bit == 0 && c != '-' && c != 'n' && c != 'x')
			return fail(p, REF_INVALID, p->pos,
				    "unrecognized character after (? or (?-");
		if (c == '-')
			neg = 1;
		else if (neg == 1)
			opts &= ~bit;
		else
			opts |= bit;
		p->pos++;
	}
	*set = opts;
	p->needs |= CAP_INLINE_FLAGS;
	return 0;
}

/* Group openings the reference leaves to other verification. */
static int group_out_of_reach(struct parser *p, size_t at)
{
	int c = peek(p, 0), d = peek(p, 1);

	if (c == '>')
		return fail(p, REF_OUT_OF_REACH, at, "atomic group (?>");
	if (c == '=' || c == '!' || c == '*' ||
	    (c == '<' && (d == '=' || d == '!')))
		return fail(p, REF_OUT_OF_REACH, at, "lookaround assertion");
	if (c == 'R' || c == '&' || is_digit(c) ||
	    ((c == '+' || c == '-') && is_digit(d)) ||
	    (c == 'P' && (d == '>' || d == '=')))
		return fail(p, REF_OUT_OF_REACH, at,
			    "recursion, subroutine call or backreference");
	if (c == '(')
		return fail(p, REF_OUT_OF_REACH, at, "conditional group");
	if (c == 'C')
		return fail(p, REF_OUT_OF_REACH, at, "callout");
	return 1;
}

/* (?#...): skipped; a quantifier after it applies to what came before. */
static int skip_comment(struct parser *p, size_t at)
{
	const unsigned char *end = memchr(p->re + p->pos, ')',
					  p->len - p->pos);

	if (end == NULL)
		return fail(p, REF_INVALID, at, "missing ) after (?# comment");
	p->pos = (size_t)(end - p->re) + 1;
	return 0;
}

/*
 * What follows "(?" (pos after '?'): *body is 1 when a group body
 * follows (options in *opts), 0 for a comment or an option setting
 * (*setting 1), which then is in p->opts.
 */
static int group_head(struct parser *p, size_t at, int *body, int *setting,
		      unsigned *opts)
{
	int c = peek(p, 0);
	int rc = group_out_of_reach(p, at);

	*body = 1;
	*setting = 0;
	*opts = p->opts;
	if (rc <= 0)
		return rc;
	if (c == ':' || c == '|') {
		p->pos++;
		p->needs |= CAP_NONCAPTURE;
		return 0;
	}
	if (c == '#') {
		*body = 0;
		return skip_comment(p, at);
	}
	if (c == '<' || c == '\'')
		return named_group(p);
	if (c == 'P' && peek(p, 1) == '<') {
		p->pos++;
		return named_group(p);
	}
	if (c == 'P')
		return fail(p, REF_INVALID, p->pos,
			    "unrecognized character after (?P");
	rc = parse_options(p, opts);
	if (rc != 0)
		return rc;
	if (p->re[p->pos++] == ':') {
		p->needs |= CAP_NONCAPTURE;
		return 0;
	}
	*body = 0;
	*setting = 1;
	p->opts = *opts;
	return 0;
}

/* The body of a group up to its ')', under opts. */
static int group_body(struct parser *p, unsigned opts, uint32_t *out)
{
	unsigned saved = p->opts;
	int rc;

	p->opts = opts;
	rc = parse_alt(p, out);
	p->opts = saved;
	if (rc != 0)
		return rc;
	if (p->pos >= p->len)
		return fail(p, REF_INVALID, p->len,
			    "missing closing parenthesis");
	p->pos++;
	return 0;
}

/*
 * A group at pos ('('): its body in *out with *state ITEM_REPEATABLE, or
 * no node (*out REF_NONE) for a comment (state unchanged) or an option
 * setting (ITEM_NONE).
 */
static int parse_group(struct parser *p, uint32_t *out,
		       enum item_state *state)
{
	size_t at = p->pos;
	unsigned opts = p->opts;
	int body = 1, setting = 0;
	int rc = 0;

	*out = REF_NONE;
	if (peek(p, 1) == '*' && (is_alnum(peek(p, 2)) || peek(p, 2) == ':'))
		return fail(p, REF_OUT_OF_REACH, at,
			    "backtracking verb or option (*...)");
	if (++p->depth > REF_MAX_NEST)
		return fail(p, REF_INVALID, at,
			    "parentheses are too deeply nested");
	p->pos++;
	if (peek(p, 0) == '?') {
		p->pos++;
		rc = group_head(p, at, &body, &setting, &opts);
	}
	if (rc == 0 && body) {
		rc = group_body(p, opts, out);
		*state = ITEM_REPEATABLE;
	} else if (rc == 0 && setting) {
		*state = ITEM_NONE;
	}
	p->depth--;
	return rc;
}

/* ---- quantifiers ---- */

/* Reads digits at pos into *v (capped above PCRE2's limit). */
static int read_count(const struct parser *p, size_t *pos, long *v)
{
	size_t start = *pos;

	*v = 0;
	while (*pos < p->len && is_digit(p->re[*pos])) {
		if (*v <= PCRE2_MAX_REPEAT)
			*v = *v * 10 + (p->re[*pos] - '0');
		(*pos)++;
	}
	return *pos > start;
}

/* Is there a whole {n} {n,} or {n,m} at pos?  Sets min, max and *end. */
static int brace_quantifier(const struct parser *p, long *min, long *max,
			    size_t *end)
{
	size_t i = p->pos + 1;

	if (!read_count(p, &i, min))
		return 0;
	*max = *min;
	if (i < p->len && p->re[i] == ',') {
		i++;
		*max = -1;
		if (i < p->len && is_digit(p->re[i]))
			read_count(p, &i, max);
	}
	if (i >= p->len || p->re[i] != '}')
		return 0;
	*end = i + 1;
	return 1;
}

static int is_quantifier(const struct parser *p)
{
	long min, max;
	size_t end;
	int c = p->re[p->pos];

	return c == '*' || c == '+' || c == '?' ||
	       (c == '{' && brace_quantifier(p, &min, &max, &end));
}

/* The quantifier at pos as min, max (-1: none), its last byte in *at. */
static int read_quantifier(struct parser *p, long *min, long *max, size_t *at)
{
	size_t end = p->pos + 1;
	int c = p->re[p->pos];

	*min = c == '+';
	*max = c == '?' ? 1 : -1;
	if (c == '{') {
		brace_quantifier(p, min, max, &end);
		p->needs |= CAP_COUNTED_REP;
	}
	*at = end - 1;
	p->pos = end;
	if (*min > PCRE2_MAX_REPEAT || *max > PCRE2_MAX_REPEAT)
		return fail(p, REF_INVALID, *at,
			    "number too big in {} quantifier");
	if (*max >= 0 && *min > *max)
		return fail(p, REF_INVALID, *at,
			    "numbers out of order in {} quantifier");
	return 0;
}

/* Wraps the last item of s in a repeat: the node becomes the repeat. */
static int apply_quantifier(struct parser *p, struct seq *s)
{
	long min, max;
	size_t at;
	int lazy, rc = read_quantifier(p, &min, &max, &at);
	uint32_t kid = REF_NONE;
	struct ref_node *n;

	if (rc != 0)
		return rc;
	if (s->state != ITEM_REPEATABLE)
		return fail(p, REF_INVALID, at,
			    "quantifier does not follow a repeatable item");
	if (peek(p, 0) == '+')
		return fail(p, REF_OUT_OF_REACH, p->pos,
			    "possessive quantifier");
	lazy = peek(p, 0) == '?';
	p->pos += (size_t)lazy;
	lazy ^= (p->opts & OPT_U) != 0;
	if (min > REF_MAX_REPEAT || max > REF_MAX_REPEAT)
		return fail(p, REF_OUT_OF_REACH, at,
			    "counted repetition above {%d}", REF_MAX_REPEAT);
	/* PCRE2 10.42's start-of-match analysis reads a group {0} skips:
	   it compiles (?:a|^){0}c as anchored, (?:a|.*){0}c as ^-only */
	if (max == 0 && p->ast->nodes[s->last].kind == RK_ALT)
		return fail(p, REF_OUT_OF_REACH, at,
			    "alternation repeated {0} (PCRE2 10.42 reads the "
			    "skipped group when it optimizes)");
	if (lazy && min != max)
		p->needs |= CAP_LAZY;
	rc = new_node(p, RK_REPEAT, &kid);
	if (rc != 0)
		return rc;
	/* the copy goes to the new node, so the list needs no relinking */
	n = p->ast->nodes;
	n[kid] = n[s->last];
	n[kid].next = REF_NONE;
	n[s->last] = (struct ref_node){.kind = RK_REPEAT,
				       .lazy = (unsigned char)lazy,
				       .first = REF_NONE, .kid = kid,
				       .next = REF_NONE, .min = (int)min,
				       .max = (int)max};
	s->state = ITEM_QUANTIFIED;
	return 0;
}

/* ---- items and sequences ---- */

/* A literal character at pos (maybe inside \Q...\E). */
static int literal_item(struct parser *p, struct seq *s)
{
	size_t at = p->pos;
	uint32_t cp = take_char(p), node = REF_NONE;
	int rc = char_node(p, cp, at, &node);

	if (rc == 0) {
		list_append(p, s, node);
		s->state = ITEM_REPEATABLE;
	}
	return rc;
}

/*
 * PCRE2 10.42's auto-possessification takes the types \S and \h, \S and
 * \v for disjoint, so \S*\v does not match "a\x85" nor \h+\S "\xa0"
 * (U+0085 and U+00A0 are in both; in UTF-8 mode the Unicode spaces too).
 * Classes are not affected ([^\s]*\v matches); the types anywhere in one
 * pattern are out of reach, since the optimizer looks into groups.
 */
static int check_possessify(struct parser *p, int letter, size_t at)
{
	p->seen_S |= letter == 'S';
	p->seen_hv |= letter == 'h' || letter == 'v';
	if (p->seen_S && p->seen_hv)
		return fail(p, REF_OUT_OF_REACH, at,
			    "\\S with \\h or \\v outside a class (PCRE2 "
			    "10.42 takes them for disjoint: wrong at U+0085 "
			    "and U+00A0)");
	return 0;
}

/* An escape outside a class, at pos. */
static int escape_item(struct parser *p, struct seq *s)
{
	size_t at = p->pos;
	struct esc e;
	uint32_t node = REF_NONE;
	int rc = parse_escape(p, 0, &e);

	if (rc != 0)
		return rc;
	switch (e.kind) {
	case ESC_QUOTE:
		p->in_quote = 1;
		return 0;
	case ESC_ENDQUOTE:
		return 0;
	case ESC_ASSERT:
		rc = assert_node(p, (enum ref_assert)e.cp, &node);
		s->state = ITEM_ASSERT;
		break;
	case ESC_CLASS:
		rc = check_possessify(p, (int)e.cp, at);
		if (rc == 0)
			rc = class_escape_node(p, (int)e.cp, &node);
		s->state = ITEM_REPEATABLE;
		break;
	case ESC_CHAR:
		if (e.cp == 0)
			p->needs |= CAP_NUL_PATTERN;
		rc = char_node(p, e.cp, at, &node);
		s->state = ITEM_REPEATABLE;
		break;
	}
	if (rc == 0)
		list_append(p, s, node);
	return rc;
}

/* ^ or $ at pos, as the multiline option in force reads it. */
static int anchor_item(struct parser *p, struct seq *s)
{
	int ml = (p->opts & OPT_M) != 0;
	enum ref_assert kind = p->re[p->pos] == '^' ? (ml ? RA_MBOL : RA_BOS) :
				(ml ? RA_MEOL : RA_EOSNL);
	uint32_t node = REF_NONE;
	int rc = assert_node(p, kind, &node);

	p->pos++;
	if (rc == 0)
		list_append(p, s, node);
	s->state = ITEM_ASSERT;
	return rc;
}

/* One item at pos, appended to s. */
static int parse_item(struct parser *p, struct seq *s)
{
	uint32_t node = REF_NONE;
	int rc;

	switch (p->re[p->pos]) {
	case '(':
		rc = parse_group(p, &node, &s->state);
		break;
	case '[':
		rc = parse_class(p, &node);
		s->state = ITEM_REPEATABLE;
		break;
	case '.':
		p->pos++;
		rc = dot_node(p, &node);
		s->state = ITEM_REPEATABLE;
		break;
	case '^':
	case '$':
		return anchor_item(p, s);
	case '\\':
		return escape_item(p, s);
	default:
		return literal_item(p, s);
	}
	if (rc == 0 && node != REF_NONE)
		list_append(p, s, node);
	return rc;
}

/* Items up to '|', ')' or the end, as one node. */
static int parse_seq(struct parser *p, uint32_t *out)
{
	struct seq s = {REF_NONE, REF_NONE, 0, ITEM_NONE};
	int rc = 0;

	while (rc == 0 && p->pos < p->len) {
		int c = p->re[p->pos];
		if (p->in_quote && c == '\\' && peek(p, 1) == 'E') {
			p->in_quote = 0;
			p->pos += 2;
		} else if (p->in_quote) {
			rc = literal_item(p, &s);
		} else if (c == '|' || c == ')') {
			break;
		} else if (is_quantifier(p)) {
			rc = apply_quantifier(p, &s);
		} else {
			rc = parse_item(p, &s);
		}
	}
	return rc != 0 ? rc : list_node(p, &s, RK_CAT, out);
}

static int parse_alt(struct parser *p, uint32_t *out)
{
	struct seq s = {REF_NONE, REF_NONE, 0, ITEM_NONE};
	uint32_t branch = REF_NONE;
	int rc;

	for (;;) {
		rc = parse_seq(p, &branch);
		if (rc != 0)
			return rc;
		list_append(p, &s, branch);
		if (p->pos >= p->len || p->re[p->pos] != '|')
			break;
		p->pos++;
	}
	return list_node(p, &s, RK_ALT, out);
}

/* In UTF-8 mode the whole pattern must be valid first, as in PCRE2. */
static int check_utf8(struct parser *p)
{
	uint32_t cp;

	for (size_t i = 0; i < p->len;) {
		size_t n = utf8_decode(p->re + i, p->len - i, &cp);
		if (n == 0)
			return fail(p, REF_INVALID, i,
				    "invalid UTF-8 in the pattern");
		i += n;
	}
	return 0;
}

static unsigned initial_opts(unsigned flags)
{
	return ((flags & ENGINE_CASELESS) ? OPT_I : 0u) |
	       ((flags & ENGINE_DOTALL) ? OPT_S : 0u) |
	       ((flags & ENGINE_MULTILINE) ? OPT_M : 0u);
}

int ref_parse(const char *re, size_t len, unsigned flags, struct ref_ast *ast,
	      unsigned *needs, unsigned *features, char *why, size_t size)
{
	struct parser p = {
		.re = (const unsigned char *)re, .len = len,
		.utf8 = (flags & ENGINE_UTF8) != 0,
		.opts = initial_opts(flags), .ast = ast, .why = why,
		.size = size,
	};
	int rc = p.utf8 ? check_utf8(&p) : 0;

	if (len > 0 && memchr(re, '\0', len) != NULL)
		p.needs |= CAP_NUL_PATTERN;
	if (rc == 0)
		rc = parse_alt(&p, &ast->root);
	if (rc == 0 && p.pos < p.len)
		rc = fail(&p, REF_INVALID, p.pos,
			  "unmatched closing parenthesis");
	*needs = p.needs;
	*features = p.features;
	free(p.names);
	free(p.lit.r);
	free(p.plain.r);
	return rc;
}

void ref_ast_release(struct ref_ast *ast)
{
	free(ast->nodes);
	free(ast->ranges);
	ast->nodes = NULL;
	ast->ranges = NULL;
}

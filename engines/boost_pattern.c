/*
 * boost_pattern.c - PCRE-style pattern -> Boost.Regex Perl syntax, see
 * boost_pattern.h for what is rewritten and what is refused.  One pass
 * over the pattern with a stack of frames, one per open group: the
 * options in force (i, s, m) and whether what was read so far can match
 * the empty string (for the counted repeats Boost reads differently).
 * Every class, however it was written, goes through a byte set (the ERE
 * translation's, engines/ere.h) and is written back by one function.
 *
 * Build: with engines/boost.c (RXB_HAVE_BOOST).
 */
#include "engines/boost_pattern.h"
#include "engines/ere.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define BP_MAX_DEPTH 250 /* PCRE2's default parenthesis nesting limit */
#define BP_INF (~0ul)    /* no upper bound: * + {n,} */

enum bp_opt {
	BP_I = 1u << 0, /* caseless */
	BP_S = 1u << 1, /* dotall */
	BP_M = 1u << 2, /* multiline */
};

/* One open group (frame[0]: the pattern itself). */
struct bp_frame {
	unsigned opt;   /* enum bp_opt in force */
	int assert;     /* a lookaround: matches empty whatever it holds */
	int alt_null;   /* every atom of this alternative so far can match "" */
	int grp_null;   /* an earlier alternative can */
	int atom;       /* the alternative has a last atom, a quantifier's target */
	int atom_null;  /* it can match "" (its quantifier included) */
	int quantified; /* the last item was a quantifier: ? or + modify it */
};

struct bp {
	const unsigned char *p;
	size_t len;
	size_t pos;
	char *buf;
	size_t used;
	size_t cap;
	int oom;
	struct bp_frame frame[BP_MAX_DEPTH + 1];
	int depth;
	long index;
	struct engine_error *err;
};

/* --- frames ----------------------------------------------------------- */

static struct bp_frame *bp_top(struct bp *b)
{
	return &b->frame[b->depth];
}

static unsigned bp_opts(const struct bp *b)
{
	return b->frame[b->depth].opt;
}

/* The last atom is complete: it joins its alternative. */
static void bp_commit(struct bp_frame *f)
{
	if (f->atom)
		f->alt_null &= f->atom_null;
	f->atom = 0;
	f->quantified = 0;
}

/* An atom begins (`nullable`: it can match the empty string). */
static void bp_atom(struct bp *b, int nullable)
{
	struct bp_frame *f = bp_top(b);

	bp_commit(f);
	f->atom = 1;
	f->atom_null = nullable;
}

/* --- output ----------------------------------------------------------- */

static void bp_put(struct bp *b, const char *s, size_t n)
{
	size_t cap = b->cap ? b->cap : 64;
	char *grown;

	if (b->oom)
		return;
	while (cap < b->used + n + 1)
		cap *= 2;
	if (cap != b->cap) {
		grown = realloc(b->buf, cap);
		if (grown == NULL) {
			b->oom = 1;
			return;
		}
		b->buf = grown;
		b->cap = cap;
	}
	memcpy(b->buf + b->used, s, n);
	b->used += n;
	b->buf[b->used] = '\0';
}

static void bp_puts(struct bp *b, const char *s)
{
	bp_put(b, s, strlen(s));
}

static int bp_is_alnum(unsigned c)
{
	return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') ||
	       (c >= 'A' && c <= 'Z');
}

static int bp_is_word(unsigned c)
{
	return bp_is_alnum(c) || c == '_';
}

/* Byte c as an escape Boost reads as that byte: \x{HH} below 0x80 (the
 * braces end it), \xHH above (Boost's char regex refuses \x{HH} past
 * CHAR_MAX; without braces it reads exactly two digits). */
static void bp_hex_byte(char *text, size_t size, unsigned c)
{
	snprintf(text, size, c < 0x80 ? "\\x{%02x}" : "\\x%02x", c);
}

/* Byte c as a literal: itself when a letter, digit or '_', else escaped. */
static void bp_literal(struct bp *b, unsigned c)
{
	char text[8];

	bp_atom(b, 0);
	if (bp_is_word(c)) {
		text[0] = (char)c;
		bp_put(b, text, 1);
		return;
	}
	bp_hex_byte(text, sizeof(text), c);
	bp_puts(b, text);
}

static int bp_fail(struct bp *b, int status, const char *what)
{
	engine_error_set(b->err, status, b->index, (long)b->pos, "%s%s", what,
			 status == ENGINE_ERR_UNSUPPORTED ?
				 " is not supported in the Boost translation" :
				 "");
	return status;
}

/* --- byte sets -------------------------------------------------------- */

/* Adds the other case of every ASCII letter in s (PCRE2's caseless class). */
static void set_fold(struct ere_set *s)
{
	for (unsigned c = 'A'; c <= 'Z'; c++) {
		if (ere_set_has(s, c) || ere_set_has(s, c | 0x20)) {
			ere_set_add(s, c);
			ere_set_add(s, c | 0x20);
		}
	}
}

/* Writes s as one Boost class of escaped ranges: (?!) when empty. */
static void set_emit(struct bp *b, const struct ere_set *s)
{
	char text[8];
	unsigned c = 0;

	if (ere_set_count(s) == 0) {
		bp_puts(b, "(?!)");
		return;
	}
	bp_puts(b, "[");
	while (c < 256) {
		unsigned hi = c;
		if (!ere_set_has(s, c)) {
			c++;
			continue;
		}
		while (hi + 1 < 256 && ere_set_has(s, hi + 1))
			hi++;
		bp_hex_byte(text, sizeof(text), c);
		bp_puts(b, text);
		if (hi > c) {
			bp_hex_byte(text, sizeof(text), hi);
			bp_puts(b, "-");
			bp_puts(b, text);
		}
		c = hi + 1;
	}
	bp_puts(b, "]");
}

/* A class as Boost must see it: folded here, so Boost's own caseless
 * matching (which folds ranges by their ends) is switched off for it. */
static void bp_emit_class(struct bp *b, struct ere_set *s, int negate)
{
	struct ere_set out = {{0}};

	bp_atom(b, 0);
	if (bp_opts(b) & BP_I)
		set_fold(s);
	ere_set_merge(&out, s, negate);
	if (bp_opts(b) & BP_I)
		bp_puts(b, "(?-i:");
	set_emit(b, &out);
	if (bp_opts(b) & BP_I)
		bp_puts(b, ")");
}

/* POSIX classes as PCRE2's default (C locale) tables define them; under
 * caseless matching [:upper:] and [:lower:] are [:alpha:], as in PCRE2. */
static int bp_posix_class(const char *name, size_t n, int caseless,
			  struct ere_set *s)
{
	if (caseless && n == 5 && (memcmp(name, "upper", 5) == 0 ||
				   memcmp(name, "lower", 5) == 0))
		name = "alpha";
	return ere_set_posix_class(name, n, s);
}

/* \d \w \s \h \v and their negations into s; -1 if c is none of them. */
static int bp_perl_class(unsigned c, struct ere_set *s)
{
	struct ere_set t = {{0}};

	switch (c | 0x20) {
	case 'h': /* PCRE2's horizontal space on bytes */
		ere_set_add(&t, '\t');
		ere_set_add(&t, ' ');
		ere_set_add(&t, 0xa0);
		break;
	case 'v': /* and its vertical space */
		ere_set_add_range(&t, '\n', '\r');
		ere_set_add(&t, 0x85);
		break;
	default:
		return ere_set_perl_class(c, s);
	}
	ere_set_merge(s, &t, c < 'a');
	return 0;
}

/* --- escapes that stand for one byte ---------------------------------- */

static int bp_hex(unsigned c)
{
	if (c >= '0' && c <= '9')
		return (int)(c - '0');
	if ((c | 0x20) >= 'a' && (c | 0x20) <= 'f')
		return (int)((c | 0x20) - 'a' + 10);
	return -1;
}

/* Digits of base 8 or 16 at pos, at most `max` of them (0: until '}'),
 * into *v; returns how many were read. */
static size_t bp_number(struct bp *b, unsigned base, size_t max,
			unsigned long *v)
{
	size_t n = 0;

	*v = 0;
	while (b->pos < b->len && (max == 0 || n < max)) {
		int d = bp_hex(b->p[b->pos]);
		if (d < 0 || (unsigned)d >= base || *v > 0xffff)
			break;
		*v = *v * base + (unsigned)d;
		b->pos++;
		n++;
	}
	return n;
}

/* \x{..} or \o{..} at pos (on the '{'): the value in *c, or an error. */
static int bp_braced(struct bp *b, unsigned base, unsigned *c)
{
	unsigned long v;
	size_t n;

	b->pos++;
	n = bp_number(b, base, 0, &v);
	if (n == 0 || b->pos >= b->len || b->p[b->pos] != '}')
		return bp_fail(b, ENGINE_ERR_COMPILE, "malformed \\x{...} or "
			       "\\o{...}");
	b->pos++;
	if (v > 0xff)
		return bp_fail(b, ENGINE_ERR_COMPILE, "a code point above 0xff "
			       "outside UTF-8 mode");
	*c = (unsigned)v;
	return 0;
}

/* \cX: the control character; PCRE2 takes printable ASCII only. */
static int bp_control(struct bp *b, unsigned *c)
{
	unsigned x;

	if (b->pos >= b->len || b->p[b->pos] < 0x20 || b->p[b->pos] > 0x7e)
		return bp_fail(b, ENGINE_ERR_COMPILE, "\\c needs a printable "
			       "ASCII character");
	x = b->p[b->pos++];
	if (x >= 'a' && x <= 'z')
		x -= 0x20;
	*c = x ^ 0x40;
	return 0;
}

/*
 * The escape after the backslash at pos-1 when it stands for one byte
 * (in_class: also \b as backspace and \ddd octal).  Returns 1 with the
 * byte in *c, 0 when it is some other escape (pos unmoved), <0 on error.
 */
static int bp_escape_byte(struct bp *b, int in_class, unsigned *c)
{
	static const char simple[] = "ntrfea";
	static const unsigned char value[] = {'\n', '\t', '\r', '\f', 0x1b, 0x07};
	unsigned e = b->p[b->pos];
	unsigned long v;
	const char *hit = e != 0 ? strchr(simple, (int)e) : NULL;

	if (hit != NULL) {
		b->pos++;
		*c = value[hit - simple];
		return 1;
	}
	if (!bp_is_alnum(e) || (in_class && (e == '8' || e == '9'))) {
		b->pos++; /* escaped punctuation, '_' (and [\8]) is itself */
		*c = e;
		return 1;
	}
	if (e == 'b' && in_class) {
		b->pos++;
		*c = 0x08;
		return 1;
	}
	if (e == '0' || (in_class && e >= '1' && e <= '7')) {
		bp_number(b, 8, 3, &v); /* \0dd, or [\ddd] in a class */
		*c = (unsigned)(v & 0xff);
		return v > 0xff ? bp_fail(b, ENGINE_ERR_COMPILE, "octal above "
					  "\\377") : 1;
	}
	if (e == 'x' || e == 'o' || e == 'c') {
		int rc;
		b->pos++;
		if (e == 'c')
			rc = bp_control(b, c);
		else if (b->pos < b->len && b->p[b->pos] == '{')
			rc = bp_braced(b, e == 'x' ? 16 : 8, c);
		else if (e == 'o')
			rc = bp_fail(b, ENGINE_ERR_COMPILE, "\\o needs braces");
		else
			rc = (bp_number(b, 16, 2, &v), *c = (unsigned)v, 0);
		return rc < 0 ? rc : 1;
	}
	return 0;
}

/* --- classes ---------------------------------------------------------- */

/* [:name:] or [:^name:] at pos into s; 1 if there is one, 0 if the '['
 * is a literal, <0 on error. */
static int bp_class_posix(struct bp *b, struct ere_set *s)
{
	const unsigned char *at = b->p + b->pos;
	size_t left = b->len - b->pos, k = 2;
	struct ere_set t = {{0}};
	int neg;

	if (left < 4 || at[1] != ':')
		return 0;
	while (k < left && at[k] != ']')
		k++;
	if (k >= left || at[k - 1] != ':' || k < 4)
		return 0;
	neg = at[2] == '^';
	if (bp_posix_class((const char *)at + 2 + neg, k - 3 - (size_t)neg,
			   (bp_opts(b) & BP_I) != 0, &t) != 0)
		return bp_fail(b, ENGINE_ERR_COMPILE, "unknown POSIX class");
	ere_set_merge(s, &t, neg);
	b->pos += k + 1;
	return 1;
}

/*
 * One class member at pos into s: a byte (1, in *c, a possible range
 * end), a set (2: [:name:], \d and the like), or <0.
 */
static int bp_class_member(struct bp *b, struct ere_set *s, unsigned *c)
{
	unsigned e;
	int rc;

	if (b->p[b->pos] == '[') {
		rc = bp_class_posix(b, s);
		if (rc != 0)
			return rc < 0 ? rc : 2;
	}
	if (b->p[b->pos] != '\\') {
		*c = b->p[b->pos++];
		return 1;
	}
	if (++b->pos >= b->len)
		return bp_fail(b, ENGINE_ERR_COMPILE, "\\ at the end");
	e = b->p[b->pos];
	if (bp_perl_class(e, s) == 0) {
		b->pos++;
		return 2;
	}
	rc = bp_escape_byte(b, 1, c);
	if (rc != 0)
		return rc;
	return bp_fail(b, ENGINE_ERR_UNSUPPORTED, "this escape in a class");
}

/* The range lo-<member at pos> into s, or an error. */
static int bp_class_range(struct bp *b, struct ere_set *s, unsigned lo)
{
	unsigned hi = 0;
	int rc = bp_class_member(b, s, &hi);

	if (rc < 0)
		return rc;
	if (rc == 2 || hi < lo)
		return bp_fail(b, ENGINE_ERR_COMPILE, "invalid range in a class");
	ere_set_add_range(s, lo, hi);
	return 0;
}

/* [...] at pos (on the '['): parsed and written, or an error. */
static int bp_class(struct bp *b)
{
	struct ere_set s = {{0}};
	int negate, first = 1;

	b->pos++;
	negate = b->pos < b->len && b->p[b->pos] == '^';
	b->pos += (size_t)negate;
	while (b->pos < b->len && (b->p[b->pos] != ']' || first)) {
		unsigned c = 0;
		int rc;
		if (b->p[b->pos] == '\\' && b->pos + 1 < b->len &&
		    (b->p[b->pos + 1] == 'Q' || b->p[b->pos + 1] == 'E'))
			return bp_fail(b, ENGINE_ERR_UNSUPPORTED, "\\Q or \\E "
				       "in a class");
		rc = bp_class_member(b, &s, &c);
		first = 0;
		if (rc < 0)
			return rc;
		if (rc == 1 && b->pos + 1 < b->len && b->p[b->pos] == '-' &&
		    b->p[b->pos + 1] != ']') {
			b->pos++;
			rc = bp_class_range(b, &s, c);
			if (rc < 0)
				return rc;
		} else if (rc == 1) {
			ere_set_add(&s, c);
		} else if (b->pos + 1 < b->len && b->p[b->pos] == '-' &&
			   b->p[b->pos + 1] != ']') {
			return bp_fail(b, ENGINE_ERR_COMPILE, "invalid range "
				       "in a class");
		}
	}
	if (b->pos >= b->len)
		return bp_fail(b, ENGINE_ERR_COMPILE, "missing ]");
	b->pos++;
	bp_emit_class(b, &s, negate);
	return 0;
}

/* --- escapes outside classes ------------------------------------------ */

/* \Q...\E at pos (after the Q): every byte a literal. */
static void bp_quoted(struct bp *b)
{
	while (b->pos < b->len) {
		if (b->p[b->pos] == '\\' && b->pos + 1 < b->len &&
		    b->p[b->pos + 1] == 'E') {
			b->pos += 2;
			return;
		}
		bp_literal(b, b->p[b->pos++]);
	}
}

/* An escape whose meaning is an assertion or a set, at pos (the letter);
 * 0 done, 1 not one of these, <0 error. */
static int bp_escape_item(struct bp *b)
{
	unsigned e = b->p[b->pos];
	struct ere_set s = {{0}};

	if (e != 0 && strchr("dDwWsSbAz", (int)e) != NULL) {
		char text[3] = {'\\', (char)e, '\0'};
		bp_atom(b, strchr("bAz", (int)e) != NULL);
		bp_puts(b, text);
	} else if (e == 'B') {
		bp_atom(b, 1);
		bp_puts(b, "(?:(?!\\b))"); /* Boost's \B fails at both ends */
	} else if (e == 'Z') {
		bp_atom(b, 1);
		bp_puts(b, "(?:(?=\\n?\\z))");
	} else if (e == 'N' && !(b->pos + 1 < b->len &&
				 b->p[b->pos + 1] == '{')) {
		ere_set_add(&s, '\n');
		bp_emit_class(b, &s, 1);
	} else if (e != 0 && strchr("hHvV", (int)e) != NULL) {
		bp_perl_class(e, &s);
		bp_emit_class(b, &s, 0);
	} else if (e == 'Q' || e == 'E') {
		b->pos++;
		if (e == 'Q')
			bp_quoted(b);
		return 0;
	} else {
		return 1;
	}
	b->pos++;
	return 0;
}

/* \1..\9, one digit (longer ones are octal or a reference: refused). */
static int bp_backref(struct bp *b)
{
	char text[12];
	unsigned d = b->p[b->pos];

	if (b->pos + 1 < b->len && b->p[b->pos + 1] >= '0' &&
	    b->p[b->pos + 1] <= '9')
		return bp_fail(b, ENGINE_ERR_UNSUPPORTED, "a back-reference "
			       "of two digits or more");
	/* grouped: a digit written after it cannot extend the number; it
	   matches "" when its group did */
	bp_atom(b, 1);
	snprintf(text, sizeof(text), "(?:\\%c)", (char)d);
	bp_puts(b, text);
	b->pos++;
	return 0;
}

/* The escape at pos (on the backslash). */
static int bp_escape(struct bp *b)
{
	unsigned c = 0, e;
	int rc;

	if (++b->pos >= b->len)
		return bp_fail(b, ENGINE_ERR_COMPILE, "\\ at the end");
	e = b->p[b->pos];
	rc = bp_escape_item(b);
	if (rc <= 0)
		return rc;
	if (e >= '1' && e <= '9')
		return bp_backref(b);
	rc = bp_escape_byte(b, 0, &c);
	if (rc < 0)
		return rc;
	if (rc == 0)
		return bp_fail(b, ENGINE_ERR_UNSUPPORTED, "this escape");
	bp_literal(b, c);
	return 0;
}

/* --- groups and options ----------------------------------------------- */

/* Option letters at pos up to ')' or ':' applied to *opt; 0 or error. */
static int bp_option_letters(struct bp *b, unsigned *opt)
{
	int off = 0;

	for (; b->pos < b->len; b->pos++) {
		unsigned bit = 0;
		switch (b->p[b->pos]) {
		case ')':
		case ':':
			return 0;
		case '-': off = 1; continue;
		case 'i': bit = BP_I; break;
		case 's': bit = BP_S; break;
		case 'm': bit = BP_M; break;
		case '^': *opt = 0; continue;
		default:
			return bp_fail(b, ENGINE_ERR_UNSUPPORTED, "this inline "
				       "option (only i, m, s)");
		}
		*opt = off ? *opt & ~bit : *opt | bit;
	}
	return bp_fail(b, ENGINE_ERR_COMPILE, "missing )");
}

/* Opens a group (a lookaround when `assert`) with options `opt`. */
static int bp_push(struct bp *b, unsigned opt, int assert, const char *text)
{
	if (b->depth >= BP_MAX_DEPTH)
		return bp_fail(b, ENGINE_ERR_COMPILE, "parentheses nested too "
			       "deeply");
	bp_commit(bp_top(b));
	b->frame[++b->depth] = (struct bp_frame){.opt = opt, .assert = assert,
						 .alt_null = 1};
	bp_puts(b, text);
	return 0;
}

/* ')' at pos: the group is the last atom of the enclosing one. */
static int bp_pop(struct bp *b)
{
	struct bp_frame *f = bp_top(b);
	int nullable;

	if (b->depth == 0)
		return bp_fail(b, ENGINE_ERR_COMPILE, "unmatched )");
	bp_commit(f);
	nullable = f->assert || f->grp_null || f->alt_null;
	b->depth--;
	f = bp_top(b);
	f->atom = 1;
	f->atom_null = nullable;
	f->quantified = 0;
	bp_puts(b, ")");
	b->pos++;
	return 0;
}

/* '|' at pos. */
static void bp_alternative(struct bp *b)
{
	struct bp_frame *f = bp_top(b);

	bp_commit(f);
	f->grp_null |= f->alt_null;
	f->alt_null = 1;
	bp_puts(b, "|");
	b->pos++;
}

/* (?flags) or (?flags:...) at pos (after "(?"). */
static int bp_options(struct bp *b)
{
	unsigned opt = bp_opts(b);
	int rc = bp_option_letters(b, &opt);

	if (rc < 0)
		return rc;
	if (b->p[b->pos++] == ':')
		return bp_push(b, opt, 0, opt & BP_I ? "(?i:" : "(?-i:");
	bp_top(b)->opt = opt; /* to the end of the enclosing group */
	bp_puts(b, opt & BP_I ? "(?i)" : "(?-i)");
	return 0;
}

/* (?<name>, (?'name' or (?P<name> at pos (on the name): (?<name>. */
static int bp_named(struct bp *b, unsigned char close)
{
	size_t start = b->pos;
	int rc;

	while (b->pos < b->len && bp_is_word(b->p[b->pos]))
		b->pos++;
	if (b->pos == start || b->pos >= b->len || b->p[b->pos] != close ||
	    (b->p[start] >= '0' && b->p[start] <= '9'))
		return bp_fail(b, ENGINE_ERR_COMPILE, "malformed group name");
	b->pos++;
	rc = bp_push(b, bp_opts(b), 0, "(?<");
	if (rc < 0)
		return rc;
	bp_put(b, (const char *)b->p + start, b->pos - 1 - start);
	bp_puts(b, ">");
	return 0;
}

/* The group kinds after "(?" that Boost reads as PCRE does. */
static int bp_group_same(struct bp *b)
{
	static const char *const kinds[] = {":", "=", "!", "<=", "<!", ">",
					    "|"};
	const char *at = (const char *)b->p + b->pos;

	for (size_t i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++) {
		size_t n = strlen(kinds[i]);
		char text[8];
		if (b->len - b->pos < n || memcmp(at, kinds[i], n) != 0)
			continue;
		b->pos += n;
		snprintf(text, sizeof(text), "(?%s", kinds[i]);
		return bp_push(b, bp_opts(b), i >= 1 && i <= 4, text);
	}
	return 1;
}

/* "(?" at pos (after it). */
static int bp_group_query(struct bp *b)
{
	const unsigned char *at = b->p + b->pos;
	size_t left = b->len - b->pos;
	int rc = bp_group_same(b);

	if (rc <= 0)
		return rc;
	if (left >= 1 && at[0] == '#') {
		const unsigned char *end = memchr(at, ')', left);
		if (end == NULL)
			return bp_fail(b, ENGINE_ERR_COMPILE, "missing ) after "
				       "a comment");
		b->pos += (size_t)(end - at) + 1;
		return 0;
	}
	if (left >= 2 && at[0] == '<' && at[1] != '=' && at[1] != '!') {
		b->pos++;
		return bp_named(b, '>');
	}
	if (left >= 1 && at[0] == '\'') {
		b->pos++;
		return bp_named(b, '\'');
	}
	if (left >= 2 && at[0] == 'P' && at[1] == '<') {
		b->pos += 2;
		return bp_named(b, '>');
	}
	return bp_options(b);
}

/* '(' at pos. */
static int bp_group(struct bp *b)
{
	b->pos++;
	if (b->pos < b->len && b->p[b->pos] == '*')
		return bp_fail(b, ENGINE_ERR_UNSUPPORTED, "(*VERB)");
	if (b->pos < b->len && b->p[b->pos] == '?') {
		b->pos++;
		return bp_group_query(b);
	}
	return bp_push(b, bp_opts(b), 0, "(");
}

/* --- the rest --------------------------------------------------------- */

/* Length of a {n} {n,} {n,m} quantifier at pos, or 0 when the brace is
 * a literal (PCRE2 10.42 reads {,m} and the rest as text). */
static size_t bp_brace_len(const struct bp *b)
{
	size_t j = b->pos + 1, digits = 0;

	while (j < b->len && b->p[j] >= '0' && b->p[j] <= '9')
		j++, digits++;
	if (digits == 0)
		return 0;
	if (j < b->len && b->p[j] == ',')
		for (j++; j < b->len && b->p[j] >= '0' && b->p[j] <= '9'; j++)
			;
	return j < b->len && b->p[j] == '}' ? j + 1 - b->pos : 0;
}

/* `.`, `^` and `$` under the options in force. */
static void bp_special(struct bp *b, unsigned c)
{
	unsigned opt = bp_opts(b);

	b->pos++;
	bp_atom(b, c != '.');
	if (c == '.')
		bp_puts(b, opt & BP_S ? "(?s:.)" : "[^\\n]");
	else if (c == '^')
		bp_puts(b, opt & BP_M ? "(?:^(?<![\\r\\f])(?!(?<=\\n)\\z))" : "\\A");
	else
		bp_puts(b, opt & BP_M ? "(?:(?=\\n|\\z))" : "\\z");
}

/*
 * A quantifier {min,max} of n bytes at pos.  Boost ends a repeat at its
 * first iteration that matched "" (the count jumps to the maximum), where
 * PCRE2 matches each of {n,m}'s copies on its own, so (?:\b|a){2}b finds
 * "ab" in PCRE2 and nothing in Boost; for * + ? the two agree.  A bounded
 * count of something that can match "" is therefore refused.
 */
static int bp_quantifier(struct bp *b, unsigned long min, unsigned long max,
			 size_t n)
{
	struct bp_frame *f = bp_top(b);

	if (f->atom && f->atom_null &&
	    (min >= 2 || (max != BP_INF && max >= 2)))
		return bp_fail(b, ENGINE_ERR_UNSUPPORTED, "a counted repeat of "
			       "what can match the empty string");
	if (min == 0)
		f->atom_null = 1;
	bp_put(b, (const char *)b->p + b->pos, n);
	b->pos += n;
	f->quantified = 1;
	return 0;
}

/* A decimal number at p[*i], saturating; advances *i. */
static unsigned long bp_decimal(const unsigned char *p, size_t *i)
{
	unsigned long v = 0;

	for (; p[*i] >= '0' && p[*i] <= '9'; (*i)++)
		v = v < 100000 ? v * 10 + (p[*i] - '0') : v;
	return v;
}

/* {n} {n,} {n,m} of n bytes at pos (bp_brace_len() checked its form). */
static int bp_counted(struct bp *b, size_t n)
{
	size_t i = b->pos + 1;
	unsigned long min = bp_decimal(b->p, &i), max = min;

	if (b->p[i] == ',') {
		i++;
		max = b->p[i] == '}' ? BP_INF : bp_decimal(b->p, &i);
	}
	return bp_quantifier(b, min, max, n);
}

/* * + ? at pos, or the ? + after a quantifier that make it lazy or
 * possessive. */
static int bp_repeat(struct bp *b, unsigned c)
{
	struct bp_frame *f = bp_top(b);

	if (f->quantified && c != '*') {
		f->quantified = 0;
		bp_put(b, (const char *)b->p + b->pos, 1);
		b->pos++;
		return 0;
	}
	return bp_quantifier(b, c == '+', c == '?' ? 1 : BP_INF, 1);
}

/* One item at pos. */
static int bp_item(struct bp *b)
{
	unsigned c = b->p[b->pos];
	size_t n;

	switch (c) {
	case '\\': return bp_escape(b);
	case '[': return bp_class(b);
	case '(': return bp_group(b);
	case ')': return bp_pop(b);
	case '*': case '+': case '?': return bp_repeat(b, c);
	case '.': case '^': case '$':
		bp_special(b, c);
		return 0;
	case '|':
		bp_alternative(b);
		return 0;
	case '{':
		n = bp_brace_len(b);
		if (n > 0)
			return bp_counted(b, n);
		break;
	default:
		break;
	}
	bp_literal(b, c);
	b->pos++;
	return 0;
}

static unsigned bp_engine_opts(unsigned flags)
{
	return ((flags & ENGINE_CASELESS) ? BP_I : 0u) |
	       ((flags & ENGINE_DOTALL) ? BP_S : 0u) |
	       ((flags & ENGINE_MULTILINE) ? BP_M : 0u);
}

int boost_pattern_translate(const struct engine_pattern *p, long index,
			    unsigned flags, char **out, size_t *outlen,
			    struct engine_error *err)
{
	struct bp b = {.p = (const unsigned char *)p->re, .len = p->len,
		       .index = index, .err = err};
	int rc = 0;

	*out = NULL;
	b.frame[0] = (struct bp_frame){.opt = bp_engine_opts(flags),
				       .alt_null = 1};
	if (flags & ENGINE_UTF8)
		return bp_fail(&b, ENGINE_ERR_UNSUPPORTED, "UTF-8 mode");
	bp_puts(&b, "");
	while (rc == 0 && b.pos < b.len && !b.oom)
		rc = bp_item(&b);
	if (rc == 0 && b.depth > 0)
		rc = bp_fail(&b, ENGINE_ERR_COMPILE, "missing )");
	if (rc == 0 && b.oom)
		rc = bp_fail(&b, ENGINE_ERR_NOMEM, "out of memory");
	if (rc != 0) {
		free(b.buf);
		return rc;
	}
	*out = b.buf;
	*outlen = b.used;
	return 0;
}

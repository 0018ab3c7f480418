/*
 * ere.c - PCRE-style pattern -> POSIX ERE, see ere.h for what is rewritten
 * and what is refused.  One pass over the pattern; character classes go
 * through a 256-bit byte set so that every class, however it was written
 * (`.`, `\w`, `[^\d\n]`, `[[:alpha:]-]`), is emitted by one function that
 * knows the ERE bracket rules (']' first, '-' last, no escapes inside).
 *
 * Build: always (engines/posix.c needs it; engines/tre.c when RXB_HAVE_TRE).
 */
#include "engines/ere.h"

#include <stdlib.h>
#include <string.h>

#define ERE_MAX_GROUPS 9 /* ERE back-references are \1..\9 */

struct ere {
	const unsigned char *p;
	size_t len;
	size_t pos;
	unsigned opts;
	char *buf;
	size_t used;
	size_t cap;
	unsigned pcre_groups;                 /* capturing groups seen */
	unsigned ere_groups;                  /* '(' emitted */
	unsigned map[ERE_MAX_GROUPS + 1];     /* PCRE group -> ERE group */
	int depth;
	long index;
	struct engine_error *err;
};

static int ere_fail(struct ere *e, int status, const char *what)
{
	engine_error_set(e->err, status, e->index, (long)e->pos, "%s%s", what,
			 status == ENGINE_ERR_UNSUPPORTED ?
				 " is not supported by POSIX ERE" : "");
	return status;
}

static int ere_put(struct ere *e, const char *s, size_t n)
{
	if (e->used + n + 1 > e->cap) {
		size_t cap = (e->cap ? e->cap : 64) * 2 + n;
		char *b = realloc(e->buf, cap);
		if (b == NULL)
			return ere_fail(e, ENGINE_ERR_NOMEM, "out of memory");
		e->buf = b;
		e->cap = cap;
	}
	memcpy(e->buf + e->used, s, n);
	e->used += n;
	e->buf[e->used] = '\0';
	return 0;
}

static int ere_putc(struct ere *e, unsigned char c)
{
	return ere_put(e, (const char *)&c, 1);
}

/* Emits '(' and counts it, so back-references can be renumbered. */
static int ere_open(struct ere *e)
{
	e->ere_groups++;
	return ere_putc(e, '(');
}

/* One byte that must match itself, escaped where ERE gives it meaning. */
static int ere_literal(struct ere *e, unsigned char c)
{
	if (c == '\0' && !(e->opts & ERE_NUL))
		return ere_fail(e, ENGINE_ERR_UNSUPPORTED, "a NUL byte");
	if (c != '\0' && strchr(".[()*+?{|^$\\", c) != NULL) {
		int rc = ere_putc(e, '\\');
		if (rc != 0)
			return rc;
	}
	return ere_putc(e, c);
}

/* The members of s between brackets, ']' first and '-' last. */
static int ere_members(struct ere *e, const struct ere_set *s)
{
	int rc = 0;
	int dash = 0;
	size_t start = e->used;

	if (ere_set_has(s, ']'))
		rc = ere_putc(e, ']');
	for (unsigned c = 1; c < 256 && rc == 0; c++) {
		unsigned hi = c;
		if (!ere_set_has(s, c) || strchr("]^-[", (int)c) != NULL)
			continue;
		while (hi + 1 < 256 && ere_set_has(s, hi + 1) &&
		       strchr("]^-[", (int)(hi + 1)) == NULL)
			hi++;
		rc = ere_putc(e, (unsigned char)c);
		if (rc == 0 && hi >= c + 2)
			rc = ere_put(e, "-", 1);
		if (rc == 0 && hi >= c + 1)
			rc = ere_putc(e, (unsigned char)hi);
		c = hi;
	}
	if (rc == 0 && ere_set_has(s, '['))
		rc = ere_putc(e, '[');
	/* A list must not start with '^'; '-' is literal first or last. */
	if (rc == 0 && ere_set_has(s, '^') && e->used == start &&
	    ere_set_has(s, '-')) {
		rc = ere_put(e, "-^", 2);
		dash = 1;
	} else if (rc == 0 && ere_set_has(s, '^')) {
		rc = ere_putc(e, '^'); /* first only in [^^...]: literal */
	}
	if (rc == 0 && ere_set_has(s, '-') && !dash)
		rc = ere_putc(e, '-');
	return rc;
}

/*
 * Emits an expression matching exactly the bytes in s.  A set holding NUL
 * is written as a non-matching list of the rest, so no NUL reaches the
 * ERE; under REG_NEWLINE a non-matching list never matches '\n', so a set
 * holding '\n' then gets it back as an alternative.
 */
static int ere_emit_set(struct ere *e, const struct ere_set *s)
{
	struct ere_set rest = {{0}};
	unsigned n = ere_set_count(s);
	int wrap;
	int rc;

	if (n == 0)
		return ere_fail(e, ENGINE_ERR_UNSUPPORTED, "an empty class");
	if (n == 1) {
		unsigned c = 0;
		while (!ere_set_has(s, c))
			c++;
		return ere_literal(e, (unsigned char)c);
	}
	if (!ere_set_has(s, 0)) {
		rc = ere_putc(e, '[');
		if (rc == 0)
			rc = ere_members(e, s);
		return rc != 0 ? rc : ere_putc(e, ']');
	}
	ere_set_merge(&rest, s, 1);
	if (ere_set_count(&rest) == 0)
		ere_set_add(&rest, '\n'); /* every byte: [^\n] plus \n below */
	wrap = ere_set_has(s, '\n') && (ere_set_has(&rest, '\n') ||
				    (e->opts & ERE_NEWLINE));
	rc = wrap ? ere_open(e) : 0;
	if (rc == 0)
		rc = ere_put(e, "[^", 2);
	if (rc == 0)
		rc = ere_members(e, &rest);
	if (rc == 0)
		rc = ere_putc(e, ']');
	if (rc == 0 && wrap)
		rc = ere_put(e, "|\n)", 3);
	return rc;
}

static int ere_hex(unsigned char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if ((c | 0x20) >= 'a' && (c | 0x20) <= 'f')
		return (c | 0x20) - 'a' + 10;
	return -1;
}

/* \xHH or \x{H...} after the 'x'; the byte in *c, or -1 if above 0xff. */
static int ere_parse_hex(struct ere *e, unsigned *c)
{
	unsigned v = 0;
	int braced = e->pos < e->len && e->p[e->pos] == '{';
	int digits = 0;

	if (braced)
		e->pos++;
	while (e->pos < e->len && ere_hex(e->p[e->pos]) >= 0 &&
	       (braced || digits < 2)) {
		v = v * 16 + (unsigned)ere_hex(e->p[e->pos++]);
		digits++;
		if (v > 0xff)
			return ere_fail(e, ENGINE_ERR_UNSUPPORTED,
					"a code point above \\xff");
	}
	if (braced && (e->pos >= e->len || e->p[e->pos] != '}'))
		return ere_fail(e, ENGINE_ERR_COMPILE, "malformed \\x{...}");
	if (braced)
		e->pos++;
	*c = v;
	return 0;
}

/* Up to three octal digits starting at pos (the first already known). */
static int ere_parse_octal(struct ere *e, unsigned *c)
{
	unsigned v = 0;

	for (int i = 0; i < 3 && e->pos < e->len && e->p[e->pos] >= '0' &&
			e->p[e->pos] <= '7';
	     i++)
		v = v * 8 + (unsigned)(e->p[e->pos++] - '0');
	if (v > 0xff)
		return ere_fail(e, ENGINE_ERR_UNSUPPORTED,
				"a code point above \\377");
	*c = v;
	return 0;
}

/*
 * The single byte an escape stands for (pos is just past the backslash
 * and is advanced past the escape).  Returns 0 with the byte in *c, 1 if
 * the escape is something else (a class, an assertion: left unparsed),
 * or a negative status.  `in_class` makes \b a backspace and \1 octal.
 */
static int ere_escape_byte(struct ere *e, int in_class, unsigned *c)
{
	/* Not \v: in PCRE it is the vertical-space class, refused below. */
	static const char simple[] = "n\nt\tr\rf\fa\ae\x1b";
	unsigned char ch = e->p[e->pos];
	const char *hit;

	if (ch == 'x') {
		e->pos++;
		return ere_parse_hex(e, c);
	}
	if (ch == '0' || (in_class && ch >= '1' && ch <= '7'))
		return ere_parse_octal(e, c);
	if (in_class && ch == 'b') {
		e->pos++;
		*c = '\b';
		return 0;
	}
	hit = strchr(simple, ch);
	if (ch != '\0' && hit != NULL && (hit - simple) % 2 == 0) {
		e->pos++;
		*c = (unsigned char)hit[1];
		return 0;
	}
	if ((ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') ||
	    (ch >= '0' && ch <= '9'))
		return 1;
	e->pos++;
	*c = ch; /* escaped punctuation or a high byte: itself */
	return 0;
}

/* [:name:] or [:^name:] at pos (at the first '['), merged into s. */
static int ere_bracket_posix(struct ere *e, struct ere_set *s)
{
	struct ere_set t = {{0}};
	size_t p = e->pos + 2;
	int negate = p < e->len && e->p[p] == '^';
	size_t name = p + (size_t)negate;
	size_t end = name;

	while (end + 1 < e->len && !(e->p[end] == ':' && e->p[end + 1] == ']'))
		end++;
	/* [:ascii:] (PCRE2's, read by the Boost translation) stays refused
	   here, as it always was: it is no POSIX class */
	if (end + 1 >= e->len ||
	    (end - name == 5 && memcmp(e->p + name, "ascii", 5) == 0) ||
	    ere_set_posix_class((const char *)e->p + name, end - name, &t) != 0)
		return ere_fail(e, ENGINE_ERR_COMPILE,
				"unknown POSIX class name");
	ere_set_merge(s, &t, negate);
	e->pos = end + 2;
	return 0;
}

/*
 * One bracket item at pos: a byte (returned in *c, result 0) or a class
 * merged into s (result 1); negative status on error.
 */
static int ere_bracket_item(struct ere *e, struct ere_set *s, unsigned *c)
{
	unsigned char ch = e->p[e->pos];
	int rc;

	if (ch == '[' && e->pos + 1 < e->len && e->p[e->pos + 1] == ':') {
		rc = ere_bracket_posix(e, s);
		return rc != 0 ? rc : 1;
	}
	if (ch == '[' && e->pos + 1 < e->len &&
	    (e->p[e->pos + 1] == '.' || e->p[e->pos + 1] == '='))
		return ere_fail(e, ENGINE_ERR_UNSUPPORTED,
				"a collating element");
	e->pos++;
	if (ch != '\\') {
		*c = ch;
		return 0;
	}
	if (e->pos >= e->len)
		return ere_fail(e, ENGINE_ERR_COMPILE, "\\ at end of pattern");
	rc = ere_escape_byte(e, 1, c);
	if (rc != 1)
		return rc;
	if (ere_set_perl_class(e->p[e->pos], s) == 0) {
		e->pos++;
		return 1;
	}
	return ere_fail(e, ENGINE_ERR_UNSUPPORTED, "this escape in a class");
}

/* A PCRE bracket expression at pos ('['), parsed into s. */
static int ere_parse_bracket(struct ere *e, struct ere_set *s)
{
	struct ere_set in = {{0}};
	int negate;
	int first = 1;

	e->pos++;
	negate = e->pos < e->len && e->p[e->pos] == '^';
	e->pos += (size_t)negate;
	for (;;) {
		unsigned lo = 0;
		unsigned hi = 0;
		int rc;

		if (e->pos >= e->len)
			return ere_fail(e, ENGINE_ERR_COMPILE,
					"missing terminating ] of a class");
		if (e->p[e->pos] == ']' && !first)
			break;
		first = 0;
		rc = ere_bracket_item(e, &in, &lo);
		if (rc < 0)
			return rc;
		if (rc == 1)
			continue;
		if (e->pos + 1 < e->len && e->p[e->pos] == '-' &&
		    e->p[e->pos + 1] != ']') {
			e->pos++;
			rc = ere_bracket_item(e, &in, &hi);
			if (rc < 0)
				return rc;
			if (rc == 1 || hi < lo)
				return ere_fail(e, ENGINE_ERR_COMPILE,
						"invalid range in a class");
			ere_set_add_range(&in, lo, hi);
			continue;
		}
		ere_set_add(&in, lo);
	}
	e->pos++;
	ere_set_merge(s, &in, negate);
	return 0;
}

/* Length of a valid {m}, {m,} or {m,n} at pos, else 0 (a literal '{'). */
static size_t ere_interval_len(const struct ere *e)
{
	size_t p = e->pos + 1;
	size_t digits = 0;

	while (p < e->len && e->p[p] >= '0' && e->p[p] <= '9') {
		p++;
		digits++;
	}
	if (digits == 0)
		return 0;
	if (p < e->len && e->p[p] == ',') {
		p++;
		while (p < e->len && e->p[p] >= '0' && e->p[p] <= '9')
			p++;
	}
	if (p >= e->len || e->p[p] != '}')
		return 0;
	return p + 1 - e->pos;
}

/* A quantifier at pos, refusing the lazy and possessive forms. */
static int ere_quantifier(struct ere *e, size_t n)
{
	int rc = ere_put(e, (const char *)e->p + e->pos, n);

	e->pos += n;
	if (rc != 0 || e->pos >= e->len)
		return rc;
	if (e->p[e->pos] == '?')
		return ere_fail(e, ENGINE_ERR_UNSUPPORTED, "a lazy quantifier");
	if (e->p[e->pos] == '+')
		return ere_fail(e, ENGINE_ERR_UNSUPPORTED,
				"a possessive quantifier");
	return 0;
}

/* \1..\9 at pos, renumbered for the groups the translation added. */
static int ere_backref(struct ere *e)
{
	unsigned g = (unsigned)(e->p[e->pos] - '0');
	char ref[2];

	if (!(e->opts & ERE_BACKREF))
		return ere_fail(e, ENGINE_ERR_UNSUPPORTED, "a back-reference");
	if (e->pos + 1 < e->len && e->p[e->pos + 1] >= '0' &&
	    e->p[e->pos + 1] <= '9')
		return ere_fail(e, ENGINE_ERR_UNSUPPORTED,
				"a back-reference above \\9");
	if (g > e->pcre_groups || e->map[g] > ERE_MAX_GROUPS)
		return ere_fail(e, ENGINE_ERR_UNSUPPORTED,
				"this back-reference");
	e->pos++;
	ref[0] = '\\';
	ref[1] = (char)('0' + e->map[g]);
	return ere_put(e, ref, 2);
}

/* An escape outside a class; pos is at the backslash. */
static int ere_escape(struct ere *e)
{
	struct ere_set s = {{0}};
	unsigned c = 0;
	unsigned char ch;
	int rc;

	e->pos++;
	if (e->pos >= e->len)
		return ere_fail(e, ENGINE_ERR_COMPILE, "\\ at end of pattern");
	rc = ere_escape_byte(e, 0, &c);
	if (rc != 1)
		return rc != 0 ? rc : ere_literal(e, (unsigned char)c);
	ch = e->p[e->pos];
	if (ere_set_perl_class(ch, &s) == 0) {
		e->pos++;
		return ere_emit_set(e, &s);
	}
	if ((ch == 'b' || ch == 'B') && (e->opts & ERE_WORD_BOUNDARY)) {
		e->pos++;
		return ere_put(e, ch == 'b' ? "\\b" : "\\B", 2);
	}
	if (ch >= '1' && ch <= '9')
		return ere_backref(e);
	return ere_fail(e, ENGINE_ERR_UNSUPPORTED, "this escape");
}

/* '(' at pos: a capture, (?: made capturing, or a refused (?... form. */
static int ere_group(struct ere *e)
{
	const unsigned char *p = e->p + e->pos;
	size_t left = e->len - e->pos;

	if (left >= 2 && (p[1] == '?' || p[1] == '*')) {
		if (left < 3 || p[1] != '?' || p[2] != ':')
			return ere_fail(e, ENGINE_ERR_UNSUPPORTED,
					"this (? or (* group");
		e->pos += 3;
	} else {
		e->pos++;
		e->pcre_groups++;
		if (e->pcre_groups <= ERE_MAX_GROUPS)
			e->map[e->pcre_groups] = e->ere_groups + 1;
	}
	e->depth++;
	return ere_open(e);
}

static int ere_close(struct ere *e)
{
	if (e->depth == 0)
		return ere_fail(e, ENGINE_ERR_COMPILE, "unmatched )");
	e->depth--;
	e->pos++;
	return ere_putc(e, ')');
}

static int ere_dot(struct ere *e)
{
	struct ere_set s = {{0}};

	e->pos++;
	ere_set_add_range(&s, 0, 255);
	if (!(e->opts & ERE_DOTALL))
		s.bit['\n' >> 3] &= (unsigned char)~(1u << ('\n' & 7));
	return ere_emit_set(e, &s);
}

/* One token of the pattern at pos. */
static int ere_token(struct ere *e)
{
	unsigned char ch = e->p[e->pos];
	struct ere_set s = {{0}};
	size_t n;
	int rc;

	switch (ch) {
	case '\\':
		return ere_escape(e);
	case '(':
		return ere_group(e);
	case ')':
		return ere_close(e);
	case '.':
		return ere_dot(e);
	case '[':
		rc = ere_parse_bracket(e, &s);
		return rc != 0 ? rc : ere_emit_set(e, &s);
	case '*':
	case '+':
	case '?':
		return ere_quantifier(e, 1);
	case '{':
		n = ere_interval_len(e);
		if (n > 0)
			return ere_quantifier(e, n);
		break;
	case '|':
	case '^':
	case '$':
		e->pos++;
		return ere_putc(e, ch);
	default:
		break;
	}
	e->pos++;
	return ere_literal(e, ch);
}

int ere_translate(const char *re, size_t len, unsigned opts, long index,
		  char **out, size_t *outlen, struct engine_error *err)
{
	struct ere e = {0};
	int rc;

	e.p = (const unsigned char *)re;
	e.len = len;
	e.opts = opts;
	e.index = index;
	e.err = err;
	*out = NULL;
	rc = ere_put(&e, "", 0);
	if (rc == 0 && (opts & ERE_ANCHOR))
		rc = ere_putc(&e, '^');
	if (rc == 0 && (opts & ERE_ANCHOR))
		rc = ere_open(&e);
	while (rc == 0 && e.pos < e.len)
		rc = ere_token(&e);
	if (rc == 0 && e.depth > 0)
		rc = ere_fail(&e, ENGINE_ERR_COMPILE, "missing )");
	if (rc == 0 && (opts & ERE_ANCHOR))
		rc = ere_putc(&e, ')');
	if (rc != 0) {
		free(e.buf);
		return rc;
	}
	*out = e.buf;
	*outlen = e.used;
	return 0;
}

int ere_prepare(const struct engine_pattern *p, long index, unsigned flags,
		unsigned engine_opts, char **out, size_t *outlen,
		struct engine_error *err)
{
	unsigned o = engine_opts;

	if (flags & ENGINE_UTF8) {
		engine_error_set(err, ENGINE_ERR_UNSUPPORTED, index, -1,
				 "no UTF-8 mode (C locale bytes only)");
		return ENGINE_ERR_UNSUPPORTED;
	}
	if (flags & ENGINE_DOTALL)
		o |= ERE_DOTALL;
	if (flags & ENGINE_MULTILINE)
		o |= ERE_NEWLINE;
	if (flags & ENGINE_ANCHORED)
		o |= ERE_ANCHOR;
	return ere_translate(p->re, p->len, o, index, out, outlen, err);
}

/* --- byte sets (ere.h; engines/boost_pattern.c uses them too) --------- */

void ere_set_add(struct ere_set *s, unsigned c)
{
	s->bit[c >> 3] |= (unsigned char)(1u << (c & 7));
}

int ere_set_has(const struct ere_set *s, unsigned c)
{
	return (s->bit[c >> 3] >> (c & 7)) & 1;
}

void ere_set_add_range(struct ere_set *s, unsigned lo, unsigned hi)
{
	for (unsigned c = lo; c <= hi; c++)
		ere_set_add(s, c);
}

void ere_set_merge(struct ere_set *s, const struct ere_set *t, int negate)
{
	for (size_t i = 0; i < sizeof(s->bit); i++)
		s->bit[i] |= negate ? (unsigned char)~t->bit[i] : t->bit[i];
}

unsigned ere_set_count(const struct ere_set *s)
{
	unsigned n = 0;

	for (unsigned c = 0; c < 256; c++)
		n += (unsigned)ere_set_has(s, c);
	return n;
}

int ere_set_posix_class(const char *name, size_t n, struct ere_set *s)
{
	static const struct {
		const char *name;
		const char *ranges; /* pairs lo,hi */
	} classes[] = {
		{"alpha", "AZaz"}, {"digit", "09"}, {"alnum", "AZaz09"},
		{"upper", "AZ"}, {"lower", "az"}, {"xdigit", "09AFaf"},
		{"space", "\t\r  "}, {"blank", "\t\t  "}, {"punct", "!/:@[`{~"},
		{"cntrl", "\x01\x1f\x7f\x7f"}, {"print", " ~"}, {"graph", "!~"},
		{"word", "AZaz09__"}, {"ascii", "\x01\x7f"},
	};

	for (size_t i = 0; i < sizeof(classes) / sizeof(classes[0]); i++) {
		const char *r = classes[i].ranges;
		if (strlen(classes[i].name) != n ||
		    memcmp(classes[i].name, name, n) != 0)
			continue;
		for (; r[0] != '\0'; r += 2)
			ere_set_add_range(s, (unsigned char)r[0],
					  (unsigned char)r[1]);
		if (strcmp(classes[i].name, "cntrl") == 0 ||
		    strcmp(classes[i].name, "ascii") == 0)
			ere_set_add(s, 0); /* the table cannot hold NUL */
		return 0;
	}
	return -1;
}

int ere_set_perl_class(unsigned c, struct ere_set *s)
{
	struct ere_set t = {{0}};

	switch (c | 0x20) {
	case 'd': ere_set_posix_class("digit", 5, &t); break;
	case 'w': ere_set_posix_class("word", 4, &t); break;
	case 's': ere_set_posix_class("space", 5, &t); break;
	default: return -1;
	}
	ere_set_merge(s, &t, c < 'a');
	return 0;
}

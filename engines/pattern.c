/*
 * pattern.c - names of semantics classes and capabilities, and the UTF-8
 * checks, and what a pattern's bytes show it needs (see pattern.h).
 */
#include "engines/pattern.h"

#include <stdio.h>
#include <string.h>

const char *engine_semantics_name(enum engine_semantics s)
{
	switch (s) {
	case SEM_LEFTMOST_FIRST: return "leftmost-first";
	case SEM_LEFTMOST_LONGEST: return "leftmost-longest";
	case SEM_ALL_ENDS: return "all-match-ends";
	case SEM_NONE: return "none";
	}
	return "?";
}

static const char *const cap_names[] = {
	"multi-native", "start-of-match", "backref", "lookaround",
	"lazy", "noncapture", "perl-classes", "inline-flags",
	"nul-in-pattern", "utf8", "match-limit", "counted-repetition",
	"word-boundary", "empty-match", "atomic", "test-only",
	"perl-dollar", "unicode-property", "unicode-script",
	"extended-space", "set-in-order", "requests", "floor-program",
};

/* Is name[0..n) (a \p{...} name, '^' dropped) a general category? */
static int general_category(const char *name, size_t n)
{
	static const char *const gc[] = {
		"C", "Cc", "Cf", "Cn", "Co", "Cs", "L", "L&", "Lc", "Ll",
		"Lm", "Lo", "Lt", "Lu", "M", "Mc", "Me", "Mn", "N", "Nd",
		"Nl", "No", "P", "Pc", "Pd", "Pe", "Pf", "Pi", "Po", "Ps",
		"S", "Sc", "Sk", "Sm", "So", "Z", "Zl", "Zp", "Zs", "Any",
	};

	for (size_t k = 0; k < sizeof(gc) / sizeof(gc[0]); k++)
		if (strlen(gc[k]) == n && memcmp(gc[k], name, n) == 0)
			return 1;
	return 0;
}

/* What the \p or \P at re[i] (i: the 'p') needs. */
static unsigned property_needs(const char *re, size_t len, size_t i)
{
	const char *name = re + i + 2, *end;

	if (i + 1 >= len || re[i + 1] != '{')
		return CAP_UNICODE_PROPERTY; /* \pL: one letter, a category */
	end = memchr(name, '}', len - (i + 2));
	if (end == NULL)
		return CAP_UNICODE_PROPERTY; /* invalid: the engines say so */
	if (name < end && *name == '^')
		name++;
	return general_category(name, (size_t)(end - name))
		       ? CAP_UNICODE_PROPERTY
		       : CAP_UNICODE_PROPERTY | CAP_UNICODE_SCRIPT;
}

/* Does re[0..len) set the x flag inline: (?x) (?ix) (?x: (an x after
 * '-' turns it off)? */
static int inline_x(const char *re, size_t len)
{
	for (size_t i = 0; i + 2 < len; i++) {
		size_t k = i + 2;
		if (re[i] != '(' || re[i + 1] != '?' ||
		    (i > 0 && re[i - 1] == '\\'))
			continue;
		while (k < len && re[k] != '\0' &&
		       strchr("imnsxJU^", re[k]) != NULL)
			if (re[k++] == 'x')
				return 1;
	}
	return 0;
}

/* Does re[0..len) hold a byte above 0x7f? */
static int high_byte(const char *re, size_t len)
{
	for (size_t i = 0; i < len; i++)
		if ((unsigned char)re[i] > 0x7f)
			return 1;
	return 0;
}

unsigned engine_pattern_needs(const char *re, size_t len)
{
	unsigned needs = 0;
	int quoted = 0; /* inside \Q...\E: every byte is itself but \E */

	for (size_t i = 0; i + 1 < len; i++) {
		if (re[i] != '\\' || (quoted && re[i + 1] != 'E'))
			continue;
		i++; /* the escaped byte, skipped with its backslash */
		if (quoted || re[i] == 'Q')
			quoted = !quoted;
		else if (re[i] == 'p' || re[i] == 'P')
			needs |= property_needs(re, len, i);
	}
	if (high_byte(re, len) && inline_x(re, len))
		needs |= CAP_EXTENDED_SPACE;
	return needs;
}

void engine_caps_format(unsigned caps, char *buf, size_t size)
{
	size_t used = 0;

	if (size == 0)
		return;
	buf[0] = '\0';
	for (size_t i = 0; i < sizeof(cap_names) / sizeof(cap_names[0]); i++) {
		if (!(caps & (1u << i)))
			continue;
		int w = snprintf(buf + used, size - used, "%s%s",
				 used ? "," : "", cap_names[i]);
		if (w < 0 || (size_t)w >= size - used)
			return;
		used += (size_t)w;
	}
}

size_t engine_utf8_len(const char *s, size_t avail)
{
	const unsigned char *p = (const unsigned char *)s;
	unsigned lo = 0x80, hi = 0xbf;
	size_t n;

	if (p[0] < 0x80)
		return 1;
	if (p[0] >= 0xc2 && p[0] <= 0xdf)
		n = 2;
	else if (p[0] >= 0xe0 && p[0] <= 0xef)
		n = 3;
	else if (p[0] >= 0xf0 && p[0] <= 0xf4)
		n = 4;
	else
		return 0;
	/* the second byte excludes overlongs, surrogates, > U+10FFFF */
	if (p[0] == 0xe0)
		lo = 0xa0;
	else if (p[0] == 0xed)
		hi = 0x9f;
	else if (p[0] == 0xf0)
		lo = 0x90;
	else if (p[0] == 0xf4)
		hi = 0x8f;
	if (n > avail || p[1] < lo || p[1] > hi)
		return 0;
	for (size_t i = 2; i < n; i++)
		if ((p[i] & 0xc0) != 0x80)
			return 0;
	return n;
}

long engine_utf8_invalid(const char *s, size_t len)
{
	for (size_t i = 0; i < len;) {
		size_t n = engine_utf8_len(s + i, len - i);
		if (n == 0)
			return (long)i;
		i += n;
	}
	return -1;
}

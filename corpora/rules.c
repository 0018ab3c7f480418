/*
 * rules.c - the built-in rule set and the readers for regex, Snort/Suricata
 * and ModSecurity rule files (see rules.h).
 *
 * Each reader works on logical lines (Snort and ModSecurity continuations
 * joined) and appends to a struct ruleset: a rule's patterns first, then
 * the rule that owns them; a syntax error stops the file with
 * "FILE:LINE: what" (the rule's first line) and leaves no half-read rule.  Patterns stay in the file's PCRE syntax: the engine
 * adapters translate or refuse what they cannot run, and the suite
 * reports those per engine and rule.
 */
#define _GNU_SOURCE
#include "corpora/rules.h"

#include "corpora/file.h"
#include "engines/pattern.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

/*
 * Written for rxbench: every engine runs them (the POSIX engines too: no
 * \d, no (?:, no lazy or lookaround quantifiers, no \b).  Compiled caseless
 * and dotall, as a WAF does.  The HTTP corpus (corpora/packets.c) plants
 * attacks these detect and never anything else they match.
 */
static const struct {
	const char *name, *re;
} builtin[RULE_BUILTIN_COUNT] = {
	[RULE_BAD_METHOD] = {"bad-method",
		"^(TRACE|TRACK|DEBUG|CONNECT|PROPFIND) "},
	[RULE_ENCODED_REQLINE] = {"encoded-request-line",
		"^[a-z]+ +[^ ]*%(00|0a|0d|25|c0%af|2e%2e)"},
	[RULE_PATH_TRAVERSAL] = {"path-traversal",
		"([.][.]|%2e%2e)(/|%2f|%5c)"},
	[RULE_SQLI_UNION] = {"sqli-union",
		"union([ +]|%20|/[*][^*]*[*]/)+(all([ +]|%20)+)?select([ +]|%20)"},
	[RULE_SQLI_TAUTOLOGY] = {"sqli-tautology",
		"'[ +]*(or|and)[ +]+'?[0-9a-z]+'?[ +]*=[ +]*'?[0-9a-z]+"},
	[RULE_XSS] = {"xss",
		"<script[^>]*>|javascript:|<[a-z]+[^>]*[ /+]on(load|error|mouseover|focus|click)[ +]*="},
	[RULE_SHELL_INJECTION] = {"shell-injection",
		"(;|[|]|&&|`|[$][(])[ +]*(cat|wget|curl|bash|sh|nc|uname|whoami|id)[ +]+[-/a-z]"},
	[RULE_SCANNER_UA] = {"scanner-user-agent",
		"user-agent:[ -~]*(nikto|sqlmap|nmap|masscan|dirbuster|acunetix|wpscan|zgrab|nuclei)"},
	[RULE_LOG4SHELL] = {"log4shell",
		"[$][{][^}]*j[^}]*n[^}]*d[^}]*i[^}]*:"},
	[RULE_SENSITIVE_FILE] = {"sensitive-file",
		"/etc/(passwd|shadow|hosts)|/proc/self/environ|(boot|win)[.]ini|[.]htaccess|[.]git/(config|HEAD)|wp-config[.]php"},
};

/* The reader's position, for rule names and messages. */
struct src {
	const char *file; /* as the user gave it */
	const char *base; /* its last path component */
	long line;        /* the first line of the rule being read */
	char *err;
	size_t errsize;
};

static int src_error(const struct src *s, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* Fill the error message "FILE:LINE: ..."; returns -1. */
static int src_error(const struct src *s, const char *fmt, ...)
{
	char msg[384];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	snprintf(s->err, s->errsize, "%s:%ld: %s", s->file, s->line, msg);
	msg_escape_controls(s->err, s->errsize);
	return -1;
}

void ruleset_init(struct ruleset *rs)
{
	memset(rs, 0, sizeof(*rs));
	rs->modsec = MODSEC_DEFAULT;
}

/* Drop the patterns from index `from` on (those of a rule not added). */
static void drop_patterns(struct ruleset *rs, size_t from)
{
	while (rs->np > from)
		free(rs->p[--rs->np].re);
}

void rules_release(struct ruleset *rs)
{
	enum modsec_version v = rs->modsec;

	for (size_t i = 0; i < rs->n; i++) {
		free(rs->r[i].name);
		free(rs->r[i].where);
		free(rs->r[i].vars);
		free(rs->r[i].actions);
	}
	drop_patterns(rs, 0);
	free(rs->r);
	free(rs->p);
	ruleset_init(rs);
	rs->modsec = v;
}

/* Room for one more element of an array of *cap (doubling).  0 or -1. */
static int grow(void **a, size_t n, size_t *cap, size_t elem)
{
	size_t c = *cap ? *cap * 2 : 16;
	void *grown;

	if (n < *cap)
		return 0;
	grown = realloc(*a, c * elem); /* rule files of 100,000 rules */
	if (grown == NULL)
		return -1;
	*a = grown;
	*cap = c;
	return 0;
}

/*
 * Append a pattern (re copied) for the rule that will be added next.
 * 0, or -1 out of memory.
 */
static int rules_add_pattern(struct ruleset *rs, const char *re, size_t len,
			     unsigned flags, int negated)
{
	struct rule_pattern *p;

	if (grow((void **)&rs->p, rs->np, &rs->pcap, sizeof(*rs->p)) != 0)
		return -1;
	p = &rs->p[rs->np];
	p->re = malloc(len + 1);
	if (p->re == NULL)
		return -1;
	memcpy(p->re, re, len);
	p->re[len] = '\0';
	p->len = len;
	p->flags = flags;
	p->negated = negated;
	p->rule = rs->n;
	rs->np++;
	return 0;
}

/*
 * Append the rule owning patterns [first, np) (name and where copied).
 * 0, or -1 out of memory.
 */
static int rules_add(struct ruleset *rs, size_t first, const char *name,
		     const char *where)
{
	struct rule *r;

	if (grow((void **)&rs->r, rs->n, &rs->cap, sizeof(*rs->r)) != 0)
		return -1;
	r = &rs->r[rs->n];
	r->name = strdup(name);
	r->where = strdup(where);
	if (r->name == NULL || r->where == NULL) {
		free(r->name);
		free(r->where);
		return -1;
	}
	r->first = first;
	r->n = rs->np - first;
	r->vars = r->actions = NULL;
	rs->n++;
	return 0;
}

int rules_holds(const struct ruleset *rs, size_t r, const unsigned char *hit)
{
	const struct rule *ru = &rs->r[r];

	for (size_t k = ru->first; k < ru->first + ru->n; k++)
		/* a positive condition needs a match, a negated one none */
		if ((hit[k] != 0) == (rs->p[k].negated != 0))
			return 0;
	return 1;
}

int rules_builtin(struct ruleset *rs)
{
	for (size_t i = 0; i < RULE_BUILTIN_COUNT; i++) {
		size_t first = rs->np;
		if (rules_add_pattern(rs, builtin[i].re, strlen(builtin[i].re),
				      ENGINE_CASELESS | ENGINE_DOTALL, 0) != 0 ||
		    rules_add(rs, first, builtin[i].name, "built-in") != 0) {
			drop_patterns(rs, first);
			return -1;
		}
	}
	return 0;
}

int rules_format_parse(const char *s)
{
	static const char *const names[] = {"auto", "regex", "snort", "modsec"};

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (strcmp(s, names[i]) == 0)
			return (int)i;
	return -1;
}

/* ---- pattern normalisation: inline flags and extended mode ---- */

/*
 * Remove what PCRE's x flag ignores: unescaped whitespace and #-comments
 * outside character classes.  In place; returns the new length.
 */
static size_t strip_extended(char *re, size_t len)
{
	size_t o = 0;
	int in_class = 0;

	for (size_t i = 0; i < len; i++) {
		char c = re[i];
		if (c == '\\' && i + 1 < len) {
			re[o++] = c;
			re[o++] = re[++i];
			continue;
		}
		if (in_class) {
			in_class = c != ']';
		} else if (c == '[') {
			in_class = 1;
			/* a ']' right after '[' or '[^' is a member */
			if (i + 1 < len && re[i + 1] == '^')
				re[o++] = re[i++];
			if (i + 1 < len && re[i + 1] == ']')
				re[o++] = re[i++];
		} else if (c == ' ' || c == '\t' || c == '\n' || c == '\r' ||
			   c == '\f' || c == '\v') {
			continue;
		} else if (c == '#') {
			while (i < len && re[i] != '\n')
				i++;
			continue;
		}
		re[o++] = c;
	}
	return o;
}

/*
 * Offset of the ')' closing the group that opens at re[0], or len when
 * unbalanced.  Escapes and character classes are skipped.
 */
static size_t group_end(const char *re, size_t len)
{
	int depth = 0, in_class = 0;

	for (size_t i = 0; i < len; i++) {
		char c = re[i];
		if (c == '\\') {
			i++;
		} else if (in_class) {
			in_class = c != ']';
		} else if (c == '[') {
			in_class = 1;
			if (i + 1 < len && re[i + 1] == '^')
				i++;
			if (i + 1 < len && re[i + 1] == ']')
				i++;
		} else if (c == '(') {
			depth++;
		} else if (c == ')' && --depth == 0) {
			return i;
		}
	}
	return len;
}

/*
 * Flags letters at re[2..] of "(?ismx)" or "(?ismx:": the engine flags in
 * *flags, extended mode in *x; returns the offset of the ')' or ':' that
 * ends them, or 0 when re does not start that way.
 */
static size_t inline_flags(const char *re, size_t len, unsigned *flags,
			   int *x)
{
	size_t i = 2;

	*flags = 0;
	*x = 0;
	if (len < 4 || re[0] != '(' || re[1] != '?')
		return 0;
	for (; i < len; i++) {
		switch (re[i]) {
		case 'i': *flags |= ENGINE_CASELESS; break;
		case 's': *flags |= ENGINE_DOTALL; break;
		case 'm': *flags |= ENGINE_MULTILINE; break;
		case 'x': *x = 1; break;
		case ')':
		case ':':
			return i > 2 ? i : 0;
		default:
			return 0;
		}
	}
	return 0;
}

/*
 * Turn a leading "(?is)" or a whole-pattern "(?i:...)" into engine flags,
 * and apply x.  Works in place on re (len updated); *flags gains the
 * flags.
 */
static void normalise(char *re, size_t *len, unsigned *flags, int x)
{
	unsigned f;
	int fx;
	size_t end = inline_flags(re, *len, &f, &fx);

	if (end > 0 && re[end] == ')') {
		memmove(re, re + end + 1, *len - end - 1);
		*len -= end + 1;
	} else if (end > 0 && group_end(re, *len) == *len - 1) {
		memmove(re, re + end + 1, *len - end - 2);
		*len -= end + 2;
	} else {
		f = 0;
		fx = 0;
	}
	*flags |= f;
	if (x || fx)
		*len = strip_extended(re, *len);
	re[*len] = '\0';
}

/*
 * Add re[0..len) (copied, normalised) as a pattern of the rule read at s.
 * 0, or -1 with the error filled.
 */
static int add_read_pattern(struct ruleset *rs, const struct src *s,
			    const char *re, size_t len, unsigned flags, int x,
			    int negated)
{
	char *copy;
	int rc;

	if (len > RULES_MAX_PATTERN)
		return src_error(s, "pattern of %zu bytes, longer than %d (1 MiB)",
				 len, RULES_MAX_PATTERN);
	copy = malloc(len + 1);
	if (copy == NULL)
		return src_error(s, "out of memory");
	memcpy(copy, re, len);
	normalise(copy, &len, &flags, x);
	if (len == 0) {
		free(copy);
		return src_error(s, "empty pattern");
	}
	rc = rules_add_pattern(rs, copy, len, flags, negated);
	free(copy);
	return rc == 0 ? 0 : src_error(s, "out of memory");
}

/*
 * Add the rule read at s owning patterns [first, np): named "<kind><id>"
 * when the file gives an id ("id942100", "sid2"), else "FILE:LINE".  On
 * error its patterns are dropped.  0, or -1 with the error filled.
 */
static int add_read_rule(struct ruleset *rs, const struct src *s, size_t first,
			 const char *kind, const char *id)
{
	char name[160], where[512];

	if (id != NULL) {
		snprintf(name, sizeof(name), "%s%s", kind, id);
		snprintf(where, sizeof(where), "%s:%ld (%s %s)", s->file, s->line,
			 kind, id);
	} else {
		snprintf(name, sizeof(name), "%s:%ld", s->base, s->line);
		snprintf(where, sizeof(where), "%s:%ld", s->file, s->line);
	}
	if (rules_add(rs, first, name, where) == 0)
		return 0;
	drop_patterns(rs, first);
	return src_error(s, "out of memory");
}

/* ---- logical lines ---- */

/*
 * A logical line: physical lines joined at a trailing '\' (Snort and
 * ModSecurity continue a rule so).
 */
struct lline {
	char *text;   /* malloc'd, NUL-terminated */
	size_t len;
	long first;   /* 1-based number of its first physical line */
};

/*
 * The next logical line from text at *pos (continuations joined when
 * `join`).  1 with *ll filled, 0 at the end, -1 out of memory.
 */
static int next_lline(const char *text, size_t len, size_t *pos, long *lineno,
		      int join, struct lline *ll)
{
	size_t cap = 0;

	ll->text = NULL;
	ll->len = 0;
	if (*pos >= len)
		return 0;
	ll->first = *lineno + 1;
	while (*pos < len) {
		const char *p = text + *pos;
		const char *nl = memchr(p, '\n', len - *pos);
		size_t l = nl ? (size_t)(nl - p) : len - *pos;
		int cont;
		char *grown;

		*pos += l + (nl != NULL);
		(*lineno)++;
		if (l > 0 && p[l - 1] == '\r')
			l--;
		cont = join && l > 0 && p[l - 1] == '\\';
		if (cont)
			l--;
		grown = realloc(ll->text, cap + l + 1);
		if (grown == NULL) {
			free(ll->text);
			ll->text = NULL;
			return -1;
		}
		ll->text = grown;
		memcpy(ll->text + cap, p, l);
		cap += l;
		ll->text[cap] = '\0';
		if (!cont)
			break;
	}
	ll->len = cap;
	return 1;
}

static const char *skip_space(const char *p)
{
	while (*p == ' ' || *p == '\t')
		p++;
	return p;
}

/* skip_space() within p[0..n): the first other byte, or p + n. */
static const char *skip_space_n(const char *p, size_t n)
{
	const char *end = p + n;

	while (p < end && (*p == ' ' || *p == '\t'))
		p++;
	return p;
}

/* A line the readers skip: blank, or a '#' comment. */
static int insignificant(const char *p)
{
	p = skip_space(p);
	return *p == '\0' || *p == '#';
}

/* ---- regex lines ---- */

static int parse_regex(struct ruleset *rs, struct src *s, const struct lline *ll)
{
	size_t first = rs->np;

	if (insignificant(ll->text))
		return 0;
	if (add_read_pattern(rs, s, ll->text, ll->len, 0, 0, 0) != 0)
		return -1;
	return add_read_rule(rs, s, first, NULL, NULL);
}

/* ---- Snort / Suricata ---- */

/* What a Snort rule's options add up to while they are read. */
struct snort_rule {
	size_t first; /* its patterns: rs->p[first .. np) */
	size_t npcre; /* pcre options read */
	long content; /* pattern of the last content option, or -1 */
	char sid[32]; /* its sid, or "" */
};

/* Map one pcre flag letter.  0, or -1 (unknown or unsupported). */
static int snort_flag(char c, unsigned *flags, int *x)
{
	switch (c) {
	case 'i': *flags |= ENGINE_CASELESS; return 0;
	case 's': *flags |= ENGINE_DOTALL; return 0;
	case 'm': *flags |= ENGINE_MULTILINE; return 0;
	case 'A': *flags |= ENGINE_ANCHORED; return 0;
	case 'x': *x = 1; return 0;
	}
	/* buffer selection and limits: where Snort looks, not how it matches */
	return c != '\0' && strchr("RUIPHDMCKSYBO", c) != NULL ? 0 : -1;
}

/*
 * The quoted value of option `opt`, `"..."` after an optional '!', from
 * v[0..vlen) into buf (room for vlen + 1 bytes, n bytes written): \" and
 * \; (the rule language's escapes) become " and ;, other escapes stay
 * (a regex's own, or content's \\).  *negated: the '!' was there;
 * *after: the offset past the closing quote.  0, or -1 with the error
 * filled.
 */
static int snort_quoted(const struct src *s, const char *opt, const char *v,
			size_t vlen, char *buf, size_t *n, int *negated,
			size_t *after)
{
	size_t i = 0, o = 0;

	while (i < vlen && v[i] == ' ')
		i++;
	*negated = i < vlen && v[i] == '!';
	for (i += (size_t)*negated; i < vlen && v[i] == ' '; i++)
		;
	if (i >= vlen || v[i] != '"')
		return src_error(s, "%s: the value must be %s", opt,
				 strcmp(opt, "pcre") == 0
					 ? "a quoted \"/regex/flags\""
					 : "quoted");
	for (i++; i < vlen && v[i] != '"'; i++) {
		if (v[i] == '\\' && i + 1 < vlen &&
		    (v[i + 1] == '"' || v[i + 1] == ';'))
			i++;
		else if (v[i] == '\\' && i + 1 < vlen)
			buf[o++] = v[i++];
		buf[o++] = v[i];
	}
	buf[o] = '\0';
	if (i >= vlen)
		return src_error(s, "%s: unterminated quote", opt);
	*n = o;
	*after = i + 1;
	return 0;
}

/*
 * The value of a pcre option, `"/re/flags"` with optional leading '!':
 * unquote it and add its pattern.
 */
static int snort_pcre(struct ruleset *rs, struct src *s, const char *v,
		      size_t vlen)
{
	char *buf = malloc(vlen + 1), delim, *last;
	size_t n = 0, i, after;
	unsigned flags = 0;
	int x = 0, negated, rc = -1;

	if (buf == NULL)
		return src_error(s, "out of memory");
	if (snort_quoted(s, "pcre", v, vlen, buf, &n, &negated, &after) != 0)
		goto out;
	i = buf[0] == 'm' ? 1 : 0;
	delim = buf[i];
	/* "m" alone: no delimiter, and nothing after it to search */
	last = n >= i + 2 && delim != '\0' ? strrchr(buf + i + 1, delim) : NULL;
	if ((i == 0 && delim != '/') || last == NULL) {
		src_error(s, "pcre: expected /regex/flags");
		goto out;
	}
	for (const char *f = last + 1; *f; f++) {
		if (snort_flag(*f, &flags, &x) != 0) {
			src_error(s, "pcre: unsupported flag '%c'", *f);
			goto out;
		}
	}
	rc = add_read_pattern(rs, s, buf + i + 1, (size_t)(last - buf - i - 1),
			      flags, x, negated);
out:
	free(buf);
	return rc;
}

/* The value of hex digit c. */
static int hex_value(char c)
{
	return isdigit((unsigned char)c) ? c - '0'
					 : tolower((unsigned char)c) - 'a' + 10;
}

/*
 * Decode content text in place: |41 42| hex sections to their bytes and
 * \X to X (bytes never grow).  The new length, or -1 with the error
 * filled.
 */
static long content_bytes(const struct src *s, char *t, size_t n)
{
	size_t o = 0, digits = 0;
	int hex = 0;

	for (size_t i = 0; i < n; i++) {
		char c = t[i];
		if (c == '\\' && !hex && i + 1 < n) {
			t[o++] = t[++i];
		} else if (c == '|') {
			if (hex && digits % 2 != 0)
				return src_error(s, "content: odd number of hex "
						 "digits in |...|");
			hex = !hex;
			digits = 0;
		} else if (!hex) {
			t[o++] = c;
		} else if (c != ' ' && !isxdigit((unsigned char)c)) {
			return src_error(s, "content: '%c' in a |hex| section",
					 c);
		} else if (c != ' ') {
			int v = hex_value(c);
			t[o] = (char)(digits % 2 == 0 ? v << 4 : t[o] | v);
			o += digits++ % 2;
		}
	}
	if (hex)
		return src_error(s, "content: unterminated |hex| section");
	return (long)o;
}

/*
 * Bytes b[0..n) as a regex matching exactly them, into out (room for
 * 4n + 1): metacharacters escaped, bytes outside printable ASCII as \xHH.
 * Returns the length.
 */
static size_t literal_regex(const char *b, size_t n, char *out)
{
	size_t o = 0;

	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)b[i];
		if (c < 0x20 || c >= 0x7f) {
			o += (size_t)snprintf(out + o, 5, "\\x%02x", c);
			continue;
		}
		if (strchr("\\^$.|?*+()[]{}", c) != NULL)
			out[o++] = '\\';
		out[o++] = (char)c;
	}
	out[o] = '\0';
	return o;
}

/* Snort 3's inline modifiers after the quote (`, nocase, depth 3`). */
static int content_nocase(const char *m, size_t len)
{
	while (len > 0) {
		const char *comma = memchr(m, ',', len);
		size_t l = comma ? (size_t)(comma - m) : len;
		const char *t = skip_space_n(m, l);
		size_t tl = l - (size_t)(t - m);

		while (tl > 0 && (t[tl - 1] == ' ' || t[tl - 1] == '\t'))
			tl--;
		if (tl == 6 && strncmp(t, "nocase", 6) == 0)
			return 1;
		len -= l + (comma != NULL);
		m += l + (comma != NULL);
	}
	return 0;
}

/* A content (or uricontent, `opt`) option's value: its literal as a pattern. */
static int snort_content(struct ruleset *rs, struct src *s, const char *opt,
			 const char *v, size_t vlen)
{
	char *buf = malloc(vlen + 1), *re = malloc(4 * vlen + 1);
	size_t n = 0, after;
	long bytes;
	int negated, rc = -1;

	if (buf == NULL || re == NULL) {
		src_error(s, "out of memory");
		goto out;
	}
	if (snort_quoted(s, opt, v, vlen, buf, &n, &negated, &after) != 0)
		goto out;
	bytes = content_bytes(s, buf, n);
	if (bytes < 0)
		goto out;
	if (bytes == 0) {
		src_error(s, "content: empty");
		goto out;
	}
	n = literal_regex(buf, (size_t)bytes, re);
	rc = add_read_pattern(rs, s, re, n,
			      content_nocase(v + after, vlen - after)
				      ? ENGINE_CASELESS : 0, 0, negated);
out:
	free(buf);
	free(re);
	return rc;
}

/*
 * Length of the option starting at p: up to the ';' that is neither
 * escaped nor inside quotes.  Sets *closed when that ';' exists.
 */
static size_t snort_option_len(const char *p, int *closed)
{
	int quoted = 0;
	size_t i = 0;

	*closed = 0;
	for (; p[i]; i++) {
		if (p[i] == '\\' && p[i + 1] != '\0')
			i++;
		else if (p[i] == '"')
			quoted = !quoted;
		else if (p[i] == ';' && !quoted) {
			*closed = 1;
			return i;
		}
	}
	return i;
}

/*
 * The value of option p[0..olen) when it is `name:value`: its start, with
 * its length in *vlen; else NULL.
 */
static const char *option_value(const char *p, size_t olen, const char *name,
				size_t *vlen)
{
	size_t n = strlen(name);
	const char *v;

	if (olen <= n || strncmp(p, name, n) != 0)
		return NULL;
	v = skip_space_n(p + n, olen - n);
	if (v == p + olen || *v != ':')
		return NULL;
	*vlen = olen - (size_t)(v + 1 - p);
	return v + 1;
}

/* Is option p[0..olen) the bare word `name`? */
static int option_is(const char *p, size_t olen, const char *name)
{
	size_t n = strlen(name);

	return olen >= n && strncmp(p, name, n) == 0 &&
	       skip_space_n(p + n, olen - n) == p + olen;
}

/* The digits of a sid option's value into sid (at most size - 1). */
static void snort_sid(const char *v, size_t vlen, char *sid, size_t size)
{
	const char *d = skip_space_n(v, vlen);
	size_t n = strspn(d, "0123456789");

	if (n > (size_t)(v + vlen - d))
		n = (size_t)(v + vlen - d);
	if (n >= size)
		n = size - 1;
	memcpy(sid, d, n);
	sid[n] = '\0';
}

/* Options that are conditions: their value is a pattern. */
static const struct {
	const char *name;
	int pcre; /* else a content literal */
} snort_conditions[] = {
	{"pcre", 1},
	{"content", 0},
	{"uricontent", 0}, /* content in the URI buffer (buffers are ignored) */
};

/* One option p[0..olen): a condition, nocase for the last content, sid. */
static int snort_option(struct ruleset *rs, struct src *s, const char *p,
			size_t olen, struct snort_rule *sr)
{
	size_t n = sizeof(snort_conditions) / sizeof(snort_conditions[0]);
	const char *v;
	size_t vlen;

	for (size_t k = 0; k < n; k++) {
		v = option_value(p, olen, snort_conditions[k].name, &vlen);
		if (v == NULL)
			continue;
		if (snort_conditions[k].pcre) {
			sr->npcre++;
			return snort_pcre(rs, s, v, vlen);
		}
		sr->content = (long)rs->np;
		return snort_content(rs, s, snort_conditions[k].name, v, vlen);
	}
	if (option_is(p, olen, "nocase")) {
		if (sr->content < 0)
			return src_error(s, "nocase: no content option before it");
		rs->p[sr->content].flags |= ENGINE_CASELESS;
		return 0;
	}
	v = option_value(p, olen, "sid", &vlen);
	if (v != NULL)
		snort_sid(v, vlen, sr->sid, sizeof(sr->sid));
	return 0;
}

/* The options of a rule body, p just past its '('. */
static int snort_options(struct ruleset *rs, struct src *s, const char *p,
			 struct snort_rule *sr)
{
	for (;;) {
		int closed;
		size_t olen;

		p = skip_space(p);
		if (*p == ')' || *p == '\0')
			return 0;
		olen = snort_option_len(p, &closed);
		if (snort_option(rs, s, p, olen, sr) != 0)
			return -1;
		if (!closed)
			return src_error(s, "unterminated option (missing ';')");
		p += olen + 1;
	}
}

/*
 * A Snort rule (one logical line): a rule of its pcre and content
 * conditions, or skipped when it has no pcre.
 */
static int parse_snort(struct ruleset *rs, struct src *s, const struct lline *ll)
{
	struct snort_rule sr = {rs->np, 0, -1, ""};
	const char *p;

	if (insignificant(ll->text))
		return 0;
	p = strchr(ll->text, '(');
	if (p == NULL)
		return src_error(s, "not a Snort rule: no '(' options");
	if (snort_options(rs, s, p + 1, &sr) != 0) {
		drop_patterns(rs, sr.first);
		return -1;
	}
	if (sr.npcre == 0) { /* content alone: a string matcher's job */
		drop_patterns(rs, sr.first);
		rs->skipped++;
		return 0;
	}
	return add_read_rule(rs, s, sr.first, "sid", sr.sid[0] ? sr.sid : NULL);
}

/* ---- ModSecurity ---- */

/*
 * One argument of a SecRule at *pp, "quoted" (either quote) or bare up to
 * whitespace, into out (cap bytes at least strlen(*pp)+1), as version v's
 * config reader reads it.  v2 (Apache's ap_getword_conf/substring_conf):
 * \\ is \ in a quoted word and a bare one, \q the quote q in a quoted
 * one.  v3 (seclang-scanner.ll 3.0.9, FREE_TEXT_QUOTE_MACRO_EXPANSION:
 * the text between the quotes as written): \\ stays \\; \q, which the
 * text keeps too, is written q, which PCRE reads the same.  In both a
 * quote after an even run of backslashes ends the word.  1, 0 at the end
 * of the line, -1 for an unterminated quote.
 */
static int modsec_word(const char **pp, char *out, enum modsec_version v)
{
	const char *p = skip_space(*pp);
	size_t o = 0;

	if (*p == '\0')
		return 0;
	if (*p == '"' || *p == '\'') {
		char q = *p++;
		for (; *p && *p != q; p++) {
			if (*p == '\\' && p[1] == '\\' && v != MODSEC_V2)
				out[o++] = *p++;
			else if (*p == '\\' && (p[1] == '\\' || p[1] == q))
				p++;
			out[o++] = *p;
		}
		if (*p != q)
			return -1;
		p++;
	} else {
		for (; *p && *p != ' ' && *p != '\t'; p++) {
			if (*p == '\\' && p[1] == '\\' && v == MODSEC_V2)
				p++;
			out[o++] = *p;
		}
	}
	out[o] = '\0';
	*pp = p;
	return 1;
}

/* The value of "id:N" in a ModSecurity action list, into id; or "". */
static void modsec_id(const char *actions, char *id, size_t size)
{
	const char *p = strstr(actions, "id:");
	size_t n;

	id[0] = '\0';
	while (p != NULL && p != actions && p[-1] != ',' && p[-1] != ' ' &&
	       p[-1] != '"' && p[-1] != '\'')
		p = strstr(p + 1, "id:");
	if (p == NULL)
		return;
	p += 3;
	if (*p == '\'')
		p++;
	n = strspn(p, "0123456789");
	if (n >= size)
		n = size - 1;
	memcpy(id, p, n);
	id[n] = '\0';
}

/*
 * The operator argument: the regex of @rx (or no operator), else NULL;
 * *negated says whether the operator is negated ("!@rx").
 */
static const char *modsec_regex(const char *op, int *negated)
{
	*negated = *op == '!';
	op += *negated;
	if (*op != '@')
		return op;
	if (strncmp(op, "@rx", 3) == 0 && (op[3] == ' ' || op[3] == '\t' ||
					    op[3] == '\0'))
		return skip_space(op + 3);
	return NULL;
}

/*
 * How version v compiles @rx: v3 with PCRE_DOTALL | PCRE_MULTILINE
 * (src/utils/regex.cc, Regex::Regex, 3.0.9: '^' and '$' at every line);
 * v2 with PCRE_DOTALL | PCRE_DOLLAR_ENDONLY (re_operators.c,
 * msre_op_rx_param_init).  The engines have no DOLLAR_ENDONLY: v2's '$'
 * matches before a final '\n' here, at the very end only in mod_security2.
 */
static unsigned modsec_flags(enum modsec_version v)
{
	return v == MODSEC_V2 ? ENGINE_DOTALL : ENGINE_DOTALL | ENGINE_MULTILINE;
}

/* SecRule VARIABLES OPERATOR [ACTIONS]; other directives are skipped. */
static int parse_modsec(struct ruleset *rs, struct src *s, const struct lline *ll)
{
	const char *p = skip_space(ll->text), *re;
	char *var = NULL, *op = NULL, *act = NULL, id[32];
	size_t first = rs->np;
	int rc = -1, negated;

	if (insignificant(p) || strncasecmp(p, "SecRule", 7) != 0 ||
	    (p[7] != ' ' && p[7] != '\t'))
		return 0;
	p += 7;
	var = malloc(ll->len + 1);
	op = malloc(ll->len + 1);
	act = malloc(ll->len + 1);
	if (var == NULL || op == NULL || act == NULL) {
		src_error(s, "out of memory");
		goto out;
	}
	act[0] = '\0'; /* the actions are optional */
	if (modsec_word(&p, var, rs->modsec) != 1 ||
	    modsec_word(&p, op, rs->modsec) != 1) {
		src_error(s, "SecRule: expected VARIABLES \"OPERATOR\" "
			  "(unterminated quote or missing operator)");
		goto out;
	}
	if (modsec_word(&p, act, rs->modsec) < 0) {
		src_error(s, "SecRule: unterminated quote in the actions");
		goto out;
	}
	modsec_id(act, id, sizeof(id));
	re = modsec_regex(op, &negated);
	if (re == NULL || strstr(re, "%{") != NULL) {
		rs->skipped++; /* another operator, or macros filled at run time */
		rc = 0;
		goto out;
	}
	rc = add_read_pattern(rs, s, re, strlen(re), modsec_flags(rs->modsec), 0,
			      negated);
	if (rc == 0)
		rc = add_read_rule(rs, s, first, "id", id[0] ? id : NULL);
	if (rc == 0) { /* what --rules-target=variables reads */
		struct rule *r = &rs->r[rs->n - 1];
		r->vars = var;
		r->actions = act;
		var = act = NULL;
	}
out:
	free(var);
	free(op);
	free(act);
	return rc;
}

/* ---- files ---- */

static int is_snort_action(const char *p)
{
	static const char *const actions[] = {"alert", "drop", "pass", "reject",
					      "log", "sdrop", "rejectsrc",
					      "rejectdst", "rejectboth"};

	for (size_t i = 0; i < sizeof(actions) / sizeof(actions[0]); i++) {
		size_t n = strlen(actions[i]);
		if (strncmp(p, actions[i], n) == 0 &&
		    (p[n] == ' ' || p[n] == '\t'))
			return 1;
	}
	return 0;
}

/* The format of text from its first significant line. */
static enum rules_format detect(const char *text, size_t len)
{
	size_t pos = 0;
	long lineno = 0;
	struct lline ll;
	enum rules_format f = RULES_REGEX;

	while (next_lline(text, len, &pos, &lineno, 1, &ll) == 1) {
		const char *p = skip_space(ll.text);
		int done = !insignificant(p);
		if (done && strncasecmp(p, "Sec", 3) == 0)
			f = RULES_MODSEC;
		else if (done && is_snort_action(p) && strchr(p, '(') != NULL)
			f = RULES_SNORT;
		free(ll.text);
		if (done)
			break;
	}
	return f;
}

/* Parse text into rs; a file without rules is not an error here. */
static int parse_text(struct ruleset *rs, const char *file, const char *text,
		      size_t len, enum rules_format fmt, char *err,
		      size_t errsize)
{
	struct src s = {file, strrchr(file, '/') ? strrchr(file, '/') + 1 : file,
			0, err, errsize};
	size_t pos = 0;
	long lineno = 0;
	struct lline ll;
	int rc = 0, more;

	if (fmt == RULES_AUTO)
		fmt = detect(text, len);
	while (rc == 0) {
		more = next_lline(text, len, &pos, &lineno, fmt != RULES_REGEX,
				  &ll);
		if (more <= 0)
			return more < 0 ? src_error(&s, "out of memory") : 0;
		s.line = ll.first;
		if (memchr(ll.text, '\0', ll.len) != NULL)
			rc = src_error(&s, "NUL byte in a rule line");
		else if (fmt == RULES_SNORT)
			rc = parse_snort(rs, &s, &ll);
		else if (fmt == RULES_MODSEC)
			rc = parse_modsec(rs, &s, &ll);
		else
			rc = parse_regex(rs, &s, &ll);
		free(ll.text);
	}
	return rc;
}

/* -1 with "NAME: no regex rules ..." when rs did not grow past `before`. */
static int check_grew(const struct ruleset *rs, size_t before,
		      size_t skipped_before, const char *name, char *err,
		      size_t errsize)
{
	if (rs->n > before)
		return 0;
	snprintf(err, errsize, "%s: no regex rules found%s", name,
		 rs->skipped > skipped_before ? " (only other operators)" : "");
	return -1;
}

int rules_parse(struct ruleset *rs, const char *file, const char *text,
		size_t len, enum rules_format fmt, char *err, size_t errsize)
{
	size_t before = rs->n, skipped = rs->skipped;

	if (parse_text(rs, file, text, len, fmt, err, errsize) != 0)
		return -1;
	return check_grew(rs, before, skipped, file, err, errsize);
}

/* Read and parse one file (no check that it held rules). */
static int load_file(struct ruleset *rs, const char *path,
		     enum rules_format fmt, char *err, size_t errsize)
{
	struct corpus c;
	int rc;

	if (corpus_load_file(&c, path, err, errsize) != 0)
		return -1;
	rc = parse_text(rs, path, c.data, c.len, fmt, err, errsize);
	corpus_release(&c);
	return rc;
}

static int rule_file_name(const struct dirent *d)
{
	size_t n = strlen(d->d_name);

	return (n > 5 && strcmp(d->d_name + n - 5, ".conf") == 0) ||
	       (n > 6 && strcmp(d->d_name + n - 6, ".rules") == 0);
}

/* Every *.conf and *.rules file of a directory, in name order. */
static int load_dir(struct ruleset *rs, const char *path,
		    enum rules_format fmt, char *err, size_t errsize)
{
	struct dirent **list = NULL;
	int n = scandir(path, &list, rule_file_name, alphasort), rc = 0;

	if (n < 0) {
		snprintf(err, errsize, "%s: %s", path, strerror(errno));
		return -1;
	}
	for (int i = 0; i < n; i++) {
		char file[4096];

		snprintf(file, sizeof(file), "%s/%s", path, list[i]->d_name);
		if (rc == 0)
			rc = load_file(rs, file, fmt, err, errsize);
		free(list[i]);
	}
	free(list);
	return rc;
}

int rules_load(struct ruleset *rs, const char *path, enum rules_format fmt,
	       char *err, size_t errsize)
{
	struct stat sb;
	size_t before = rs->n, skipped = rs->skipped;
	int rc;

	if (stat(path, &sb) == 0 && S_ISDIR(sb.st_mode))
		rc = load_dir(rs, path, fmt, err, errsize);
	else
		rc = load_file(rs, path, fmt, err, errsize);
	if (rc != 0)
		return -1;
	return check_grew(rs, before, skipped, path, err, errsize);
}

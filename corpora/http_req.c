/*
 * http_req.c - one strict HTTP/1.x request parser (see http_req.h).
 */
#define _GNU_SOURCE
#include "corpora/http_req.h"
#include "corpora/apache_req.h"
#include "corpora/file.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

void http_req_init(struct http_req *q)
{
	memset(q, 0, sizeof(*q));
	q->modsec = MODSEC_DEFAULT;
}

void http_req_release(struct http_req *q)
{
	free(q->headers.v);
	free(q->cookies.v);
	free(q->args_get.v);
	free(q->args_post.v);
	free(q->args_json.v);
	free(q->buf);
	free(q->jbuf);
	http_req_init(q);
}

/* RFC 7230 tchar. */
static int is_tchar(unsigned char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       (c >= '0' && c <= '9') || strchr("!#$%&'*+-.^_`|~", c) != NULL;
}

static int is_hex(unsigned char c)
{
	return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') ||
	       (c >= 'A' && c <= 'F');
}

static int hex_val(unsigned char c)
{
	return c <= '9' ? c - '0' : (c | 0x20) - 'a' + 10;
}

/* %XX decoded, '+' a space when plus (urlDecode) or kept (libmodsecurity3's
 * utils::uri_decode); a malformed escape kept. */
static size_t pct_decode(const char *s, size_t n, char *out, int plus)
{
	size_t o = 0;

	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s[i];
		if (c == '%' && i + 2 < n && is_hex((unsigned char)s[i + 1]) &&
		    is_hex((unsigned char)s[i + 2])) {
			out[o++] = (char)(hex_val((unsigned char)s[i + 1]) * 16 +
					  hex_val((unsigned char)s[i + 2]));
			i += 2;
		} else {
			out[o++] = c == '+' && plus ? ' ' : (char)c;
		}
	}
	return o;
}

size_t http_url_decode(const char *s, size_t n, char *out)
{
	return pct_decode(s, n, out, 1);
}

static int pair_add(struct http_pairs *l, struct http_span name,
		    struct http_span value)
{
	if (l->n == l->cap) {
		size_t cap = l->cap ? l->cap * 2 : 16;
		struct http_pair *v = realloc(l->v, cap * sizeof(*v));
		if (v == NULL)
			return -1;
		l->v = v;
		l->cap = cap;
	}
	l->v[l->n++] = (struct http_pair){name, value};
	return 0;
}

/* n bytes of q's buffer (sized at parse for the worst case). */
static char *buf_take(struct http_req *q, size_t n)
{
	char *p = q->buf + q->buf_len;

	q->buf_len += n;
	return p;
}

/* Split s on '&' into l, names and values URL-decoded; an empty piece is
 * an argument with an empty name and value, a trailing '&' none (both
 * versions: libmodsecurity3's extractArguments splits with getline,
 * mod_security2's parse_arguments adds the empty name).  0 or -1. */
static int args_parse(struct http_req *q, struct http_span s,
		      struct http_pairs *l)
{
	size_t i = 0;

	while (i < s.n) {
		const char *piece = s.p + i, *amp, *eq;
		size_t len;
		struct http_span name, value;

		amp = memchr(piece, '&', s.n - i);
		len = amp ? (size_t)(amp - piece) : s.n - i;
		i += len + 1;
		eq = memchr(piece, '=', len);
		name.n = eq ? (size_t)(eq - piece) : len;
		name.p = buf_take(q, name.n);
		name.n = http_url_decode(piece, name.n, (char *)name.p);
		value.n = eq ? len - name.n - 1 : 0;
		if (eq != NULL) {
			size_t vn = (size_t)(piece + len - eq - 1);
			value.p = buf_take(q, vn);
			value.n = http_url_decode(eq + 1, vn, (char *)value.p);
		} else {
			value.p = piece + len;
		}
		if (pair_add(l, name, value) != 0)
			return -1;
	}
	return 0;
}

static struct http_span trim_left(struct http_span s)
{
	while (s.n > 0 && (s.p[0] == ' ' || s.p[0] == '\t')) {
		s.p++;
		s.n--;
	}
	return s;
}

static struct http_span trim(struct http_span s)
{
	s = trim_left(s);
	while (s.n > 0 && (s.p[s.n - 1] == ' ' || s.p[s.n - 1] == '\t'))
		s.n--;
	return s;
}

/*
 * The separator of a Cookie header's value: ';', or for v2 ',' when the
 * value has no ';' and its first ',' is followed by a space (mod_security2
 * modsecurity.c, modsecurity_tx_init, cookie format 0).
 */
static char cookie_sep(const struct http_req *q, struct http_span v)
{
	const char *comma = memchr(v.p, ',', v.n);

	if (q->modsec != MODSEC_V2 || memchr(v.p, ';', v.n) != NULL ||
	    comma == NULL || comma + 1 >= v.p + v.n || comma[1] != ' ')
		return ';';
	return ',';
}

/*
 * One Cookie header's value split into q->cookies: empty pieces and empty
 * names skipped, the name's leading whitespace trimmed, the value kept
 * as it is (libmodsecurity3's addRequestHeader; mod_security2's
 * parse_cookies_v0).  The value's trailing whitespace, which v3 trims
 * from the last piece, is already gone (header_lines).  0 or -1.
 */
static int cookies_parse(struct http_req *q, struct http_span v)
{
	char sep = cookie_sep(q, v);
	size_t i = 0;

	while (i < v.n) {
		const char *piece = v.p + i, *semi = memchr(piece, sep, v.n - i);
		size_t len = semi ? (size_t)(semi - piece) : v.n - i;
		struct http_span s = trim_left((struct http_span){piece, len}),
				 name, value;
		const char *eq = memchr(s.p, '=', s.n);

		i += len + 1;
		name = (struct http_span){s.p, eq ? (size_t)(eq - s.p) : s.n};
		if (name.n == 0)
			continue;
		value = eq ? (struct http_span){eq + 1, s.n - name.n - 1}
			   : (struct http_span){s.p + s.n, 0};
		if (pair_add(&q->cookies, name, value) != 0)
			return -1;
	}
	return 0;
}

/* The parse's position and its error. */
struct cur {
	const char *p;
	size_t len, at;
	long line;
	char *why;
	size_t size;
};

__attribute__((format(printf, 2, 3)))
static int bad(struct cur *c, const char *fmt, ...)
{
	va_list ap;
	int n = snprintf(c->why, c->size, "line %ld: ", c->line);

	va_start(ap, fmt);
	if (n > 0 && (size_t)n < c->size)
		vsnprintf(c->why + n, c->size - (size_t)n, fmt, ap);
	va_end(ap);
	msg_escape_controls(c->why, c->size); /* a quoted Content-Type */
	return 1;
}

/* The end of the line at c->at (index of its CR); or 1 after bad(). */
static int line_end(struct cur *c, size_t *end)
{
	for (size_t i = c->at; i < c->len; i++) {
		unsigned char ch = (unsigned char)c->p[i];
		if (ch == '\r') {
			if (i + 1 < c->len && c->p[i + 1] == '\n') {
				*end = i;
				return 0;
			}
			return bad(c, "a CR not followed by LF");
		}
		if (ch == '\n')
			return bad(c, "a bare LF (lines end in CRLF)");
	}
	return bad(c, "no end of the head (the request is cut short)");
}

static const char *span_chr(struct http_span s, char ch)
{
	return memchr(s.p, ch, s.n);
}

/* METHOD SP TARGET SP HTTP/d.d.  0 or 1 after bad(). */
static int request_line(struct http_req *q, struct cur *c)
{
	size_t end = 0, i;
	struct http_span l;
	const char *sp1, *sp2;

	if (line_end(c, &end) != 0)
		return 1;
	l = (struct http_span){c->p, end};
	q->line = l;
	c->at = end + 2;
	sp1 = span_chr(l, ' ');
	if (sp1 == NULL || sp1 == l.p)
		return bad(c, "no method");
	for (const char *m = l.p; m < sp1; m++)
		if (!is_tchar((unsigned char)*m))
			return bad(c, "byte 0x%02x in the method",
				   (unsigned char)*m);
	q->method = (struct http_span){l.p, (size_t)(sp1 - l.p)};
	sp2 = memchr(sp1 + 1, ' ', (size_t)(l.p + l.n - sp1 - 1));
	if (sp2 == NULL || sp2 == sp1 + 1)
		return bad(c, "no request target and protocol");
	for (const char *t = sp1 + 1; t < sp2; t++)
		if ((unsigned char)*t < 0x21 || (unsigned char)*t > 0x7e)
			return bad(c, "byte 0x%02x in the request target",
				   (unsigned char)*t);
	q->target = (struct http_span){sp1 + 1, (size_t)(sp2 - sp1 - 1)};
	q->protocol = (struct http_span){sp2 + 1, (size_t)(l.p + l.n - sp2 - 1)};
	i = q->protocol.n;
	if (i != 8 || memcmp(q->protocol.p, "HTTP/", 5) != 0 ||
	    q->protocol.p[5] < '0' || q->protocol.p[5] > '9' ||
	    q->protocol.p[6] != '.' || q->protocol.p[7] < '0' ||
	    q->protocol.p[7] > '9')
		return bad(c, "the protocol is not HTTP/d.d");
	return 0;
}

/* ---- the variables of the request target (see http_req.h) ---- */

static struct http_var var_of(const char *p, size_t n, int set)
{
	return (struct http_var){{p, n}, set};
}

/* s up to its first c (all of it when none). */
static struct http_span span_until(struct http_span s, char c)
{
	const char *at = span_chr(s, c);

	return (struct http_span){s.p, at ? (size_t)(at - s.p) : s.n};
}

/* Both versions: the path as sent and the query, before any '#'. */
static void target_split(struct http_req *q)
{
	struct http_span t = span_until(q->target, '#');
	const char *qm = span_chr(t, '?');

	q->path = span_until(t, '?');
	q->query = qm ? var_of(qm + 1, (size_t)(t.p + t.n - qm - 1), 1)
		      : var_of(t.p + t.n, 0, 0);
}

/*
 * REQUEST_BASENAME of the path f: after its last '/' or '\' ("" when one
 * ends it).  With neither: "" in v3 (processURI sets no basename), all of
 * f in v2 (file_basename: after the last '/', then after the last '\').
 */
static struct http_span basename_of(struct http_span f, enum modsec_version v)
{
	size_t i = f.n;

	while (i > 0 && f.p[i - 1] != '/' && f.p[i - 1] != '\\')
		i--;
	if (i == 0 && v == MODSEC_V2)
		return f;
	return i == 0 ? (struct http_span){f.p + f.n, 0}
		      : (struct http_span){f.p + i, f.n - i};
}

/*
 * v3's REQUEST_URI from the decoded target d: "scheme://host" cut when
 * the first ':' is followed by "//" and a '/' comes after them
 * (Transaction::processURI's parsedURI).
 */
static struct http_span uri_v3(struct http_span d)
{
	const char *colon, *slash;
	size_t at;

	if (d.n == 0 || d.p[0] == '/')
		return d;
	colon = span_chr(d, ':');
	if (colon == NULL)
		return d;
	at = (size_t)(colon - d.p) + 1;
	if (at + 2 > d.n || d.p[at] != '/' || d.p[at + 1] != '/')
		return d;
	slash = memchr(d.p + at + 2, '/', d.n - at - 2);
	return slash ? (struct http_span){slash, (size_t)(d.p + d.n - slash)} : d;
}

/*
 * libmodsecurity3 3.0.9 (Transaction::processURI): the target less its
 * fragment, %-decoded by utils::uri_decode ('+' kept), split at its first
 * '?'; every variable has a value ("" when empty), QUERY_STRING too.
 */
static void target_v3(struct http_req *q)
{
	struct http_span t = span_until(q->target, '#'), d, f;

	d.p = buf_take(q, t.n);
	d.n = pct_decode(t.p, t.n, (char *)d.p, 0);
	f = span_until(d, '?');
	q->filename = var_of(f.p, f.n, 1);
	q->basename = (struct http_var){basename_of(f, MODSEC_V3), 1};
	q->uri = (struct http_var){uri_v3(d), 1};
	q->query.set = 1;
}

static int is_scheme_char(unsigned char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       (c >= '0' && c <= '9') || c == '+' || c == '-' || c == '.';
}

/*
 * Apache's parsed_uri.path of target t (ap_parse_uri: leading '//'
 * collapsed; apr_uri_parse: a scheme and ':' skipped, then "//authority"
 * up to '/', '?' or '#'; the path up to '?' or '#').
 */
static struct http_span apache_path(struct http_span t)
{
	const char *s = t.p, *end = t.p + t.n;

	while (end - s >= 2 && s[0] == '/' && s[1] == '/')
		s++;
	t.p = s;
	if (s < end && ((*s | 0x20) >= 'a' && (*s | 0x20) <= 'z')) {
		while (s < end && is_scheme_char((unsigned char)*s))
			s++;
		s = s < end && *s == ':' ? s + 1 : t.p;
	}
	if (end - s >= 2 && s[0] == '/' && s[1] == '/')
		for (s += 2; s < end && *s != '/' && *s != '?' && *s != '#'; s++)
			;
	t = (struct http_span){s, (size_t)(end - s)};
	return span_until(span_until(t, '?'), '#');
}

/*
 * mod_security2 on Apache 2.4 (re_variables.c: var_request_filename_
 * generate, var_request_basename_generate with file_basename,
 * var_request_uri_generate): Apache's path as sent, none when empty or
 * for CONNECT (apr_uri_parse_hostinfo: no path, no query).
 */
static void target_v2(struct http_req *q)
{
	struct http_span p = apache_path(q->target), b = basename_of(p, MODSEC_V2);
	int set = p.n > 0;
	char *u;

	if (q->method.n == 7 && memcmp(q->method.p, "CONNECT", 7) == 0) {
		q->query.set = 0;
		set = 0;
	}
	q->filename = var_of(p.p, p.n, set);
	q->basename = var_of(b.p, b.n, set);
	if (!q->query.set) {
		q->uri = q->filename;
		return;
	}
	/* path "?" query; apr_pstrcat stops at a NULL path: "" */
	u = buf_take(q, set ? p.n + 1 + q->query.v.n : 0);
	if (set) {
		memcpy(u, p.p, p.n);
		u[p.n] = '?';
		memcpy(u + p.n + 1, q->query.v.p, q->query.v.n);
	}
	q->uri = var_of(u, set ? p.n + 1 + q->query.v.n : 0, 1);
}

/* The target's variables as q->modsec reads them. */
static void target_vars(struct http_req *q)
{
	target_split(q);
	if (q->modsec == MODSEC_V2)
		target_v2(q);
	else
		target_v3(q);
}

/* A header value's bytes: VCHAR, obs-text, SP, HTAB.  0 or bad(). */
static int check_value(struct cur *c, struct http_span v)
{
	for (size_t i = 0; i < v.n; i++) {
		unsigned char ch = (unsigned char)v.p[i];
		if (ch < 0x20 && ch != '\t')
			return bad(c, "byte 0x%02x in a header value", ch);
		if (ch == 0x7f)
			return bad(c, "byte 0x7f in a header value");
	}
	return 0;
}

/* A folded line's text appended to the last header (one SP for the
 * fold), in q's buffer.  0 or -1. */
static int fold_into(struct http_req *q, struct http_span more)
{
	struct http_pair *h = &q->headers.v[q->headers.n - 1];
	size_t n = h->value.n + 1 + more.n;
	char *to;

	/* a value folded before is the buffer's last (only the last header
	   folds): append in place, past what trim() cut from its end (an
	   empty fold leaves a blank there; copying the value again for each
	   such fold outgrew the buffer's 2 * len) */
	if ((uintptr_t)h->value.p >= (uintptr_t)q->buf &&
	    (uintptr_t)h->value.p <= (uintptr_t)(q->buf + q->buf_len)) {
		to = (char *)h->value.p;
		q->buf_len = (size_t)(to + h->value.n - q->buf);
		buf_take(q, 1 + more.n);
	} else {
		to = memcpy(buf_take(q, n), h->value.p, h->value.n);
	}
	to[h->value.n] = ' ';
	memcpy(to + h->value.n + 1, more.p, more.n);
	h->value = trim((struct http_span){to, n});
	return 0;
}

/* The header lines up to the empty one.  0, 1 after bad(), -1. */
static int header_lines(struct http_req *q, struct cur *c)
{
	for (;;) {
		size_t end = 0;
		struct http_span l, name;
		const char *colon;

		c->line++;
		if (line_end(c, &end) != 0)
			return 1;
		l = (struct http_span){c->p + c->at, end - c->at};
		c->at = end + 2;
		if (l.n == 0)
			return 0;
		if (check_value(c, l) != 0)
			return 1;
		if (l.p[0] == ' ' || l.p[0] == '\t') {
			if (q->headers.n == 0)
				return bad(c, "a folded line before any header");
			if (q->modsec == MODSEC_V2 && apache_fold_refused(l.p, l.n))
				return bad(c, APACHE_FOLD_WHY);
			if (fold_into(q, trim(l)) != 0)
				return -1;
			continue;
		}
		colon = span_chr(l, ':');
		if (colon == NULL)
			return bad(c, "a header line without ':'");
		name = (struct http_span){l.p, (size_t)(colon - l.p)};
		if (name.n == 0)
			return bad(c, "an empty header name");
		for (size_t i = 0; i < name.n; i++)
			if (!is_tchar((unsigned char)name.p[i]))
				return bad(c, "byte 0x%02x in a header name",
					   (unsigned char)name.p[i]);
		if (pair_add(&q->headers, name,
			     trim((struct http_span){colon + 1,
						     (size_t)(l.p + l.n - colon - 1)})) != 0)
			return -1;
	}
}

static int span_is(struct http_span s, const char *w)
{
	return s.n == strlen(w) && strncasecmp(s.p, w, s.n) == 0;
}

/* ---- v2: Apache around mod_security2's phases (apache_req.h) ---- */

/*
 * The Host header as Apache leaves it before phase 1: the target's host
 * h replaces the first Host header's value and drops the others
 * (apr_table_setn; none is added to a request without one).
 */
static void v2_host(struct http_req *q, struct http_span h)
{
	size_t k = 0, seen = 0;

	for (size_t i = 0; i < q->headers.n; i++) {
		struct http_pair p = q->headers.v[i];
		if (span_is(p.name, "host") && seen++ > 0)
			continue;
		if (span_is(p.name, "host"))
			p.value = h;
		q->headers.v[k++] = p;
	}
	q->headers.n = k;
}

/*
 * REQUEST_URI, _FILENAME and _BASENAME from phase 2 on: Apache's path
 * (q->filename, parsed_uri.path; none: nothing to rewrite) normalised
 * and decoded, REQUEST_URI that path '?' the raw query.  When Apache
 * refuses the path after phase 1, v2_phase2_refused, and the variables
 * hold the path as Apache left it, which phase 5 (logging) still sees.
 */
static void v2_phase2(struct http_req *q)
{
	struct http_span p = q->filename.v;
	char *out, why[200];
	size_t n = 0;

	if (!q->filename.set)
		return;
	out = buf_take(q, p.n + 1 + q->query.v.n);
	if (apache_phase2_path(p.p, p.n, out, &n, why, sizeof(why)) != 0)
		q->v2_phase2_refused = 1;
	q->filename2 = var_of(out, n, 1);
	q->basename2 = (struct http_var){basename_of(q->filename2.v, MODSEC_V2),
					 1};
	q->uri2 = q->filename2;
	if (q->query.set) {
		out[n] = '?';
		memcpy(out + n + 1, q->query.v.p, q->query.v.n);
		q->uri2 = var_of(out, n + 1 + q->query.v.n, 1);
	}
}

/* Apache's refusal why as the parse's reason, on the request line. 1. */
static int v2_refused(struct cur *c, const char *why)
{
	snprintf(c->why, c->size, "line 1: %s", why);
	return 1;
}

/* What Apache refuses before phase 1 (not a request, its reason named)
 * and what it rewrites before and after it.  0, or 1 with c's why. */
static int v2_apache(struct http_req *q, struct cur *c)
{
	struct http_span t = q->target, h = {NULL, 0};
	char why[200];
	int host;

	if (apache_target_refused(q->method.p, q->method.n, t.p, t.n, why,
				  sizeof(why)) != 0)
		return v2_refused(c, why);
	h.p = buf_take(q, t.n);
	host = apache_target_host(q->method.p, q->method.n, t.p, t.n,
				  (char *)h.p, &h.n, why, sizeof(why));
	if (host == 400)
		return v2_refused(c, why);
	if (host == 1)
		v2_host(q, h);
	v2_phase2(q);
	return 0;
}

#define FORM "application/x-www-form-urlencoded"
#define MULTIPART "multipart/form-data"

/* The media type of a Content-Type value, lowercase, without params. */
static void media_type(struct http_span v, char *buf, size_t size)
{
	const char *semi = span_chr(v, ';');
	struct http_span t = trim((struct http_span){v.p,
				semi ? (size_t)(semi - v.p) : v.n});
	size_t n = t.n < size - 1 ? t.n : size - 1;

	for (size_t i = 0; i < n; i++)
		buf[i] = (char)(t.p[i] >= 'A' && t.p[i] <= 'Z' ? t.p[i] | 0x20
							      : t.p[i]);
	buf[n] = '\0';
}

/*
 * Whether Content-Type value v picks a body processor: it starts
 * with FORM or MULTIPART, without case (libmodsecurity3's
 * addRequestHeader tests every Content-Type header, the last such one
 * deciding; mod_security2's modsecurity_tx_init the first header only).
 */
static int type_decides(struct http_span v)
{
	return (v.n >= strlen(FORM) && strncasecmp(v.p, FORM, strlen(FORM)) == 0) ||
	       (v.n >= strlen(MULTIPART) &&
		strncasecmp(v.p, MULTIPART, strlen(MULTIPART)) == 0);
}

/*
 * The body processor modsecurity.conf-recommended's rules switch on for
 * Content-Type value v (each Content-Type header, lowercased, prefix):
 * 200000 XML for ^(?:application(?:/soap\+|/)|text/)xml, 200001 JSON for
 * ^application/json; NULL for neither.
 */
static const char *conf_processor(struct http_span v)
{
	static const struct { const char *prefix, *name; } rules[] = {
		{"application/soap+xml", "XML"}, {"application/xml", "XML"},
		{"text/xml", "XML"}, {"application/json", "JSON"},
	};

	for (size_t i = 0; i < sizeof(rules) / sizeof(rules[0]); i++)
		if (v.n >= strlen(rules[i].prefix) &&
		    strncasecmp(v.p, rules[i].prefix, strlen(rules[i].prefix)) == 0)
			return rules[i].name;
	return NULL;
}

/* Does the k-th Content-Type header (from 0), value v, set the type? */
static int type_taken(const struct http_req *q, size_t k, struct http_span v)
{
	return k == 0 || (q->modsec != MODSEC_V2 && type_decides(v));
}

/* ---- a JSON body as libmodsecurity3 3.0.9 reads it ----
 *
 * src/request_body_processor/json.cc: yajl 2.1.0 (Debian's) hands each
 * value to addArgument(), which names it from a stack of containers: a
 * map or array opened under the current key ("json" at the top, "" in
 * an array, "empty-key" for an empty key); the name is each container's
 * name then "." (a map) or ".array_<its count>" (an array), then the key
 * (a map) or nothing (an array, whose count steps).  Values: a string
 * decoded (\uXXXX to UTF-8, a surrogate pair joined), a number as
 * written, true, false, "" for null.  Its own reader, not jansson's:
 * jansson gives no number's spelling.  On a parse error libmodsecurity3
 * sets REQBODY_ERROR and keeps the arguments yajl gave before it: yajl
 * calls back on each token as it is lexed and accepted (a number at the
 * very end too: yajl_complete_parse feeds a blank), and stops at the
 * first bad one, as this reader does, so those arguments are kept here
 * too.  Where yajl reads what this reader does not (a high surrogate
 * escape without its low one: '?' and a byte skipped), or the names pass
 * 16 MiB, the body is not a request. */

#define JSON_DEPTH_MAX 10000 /* json.cc's json_depth_limit_default */
#define JSON_BYTES_MAX ((size_t)1 << 24) /* names grow as depth x args */

struct jcont {
	size_t name, name_n; /* the container's name in q->jbuf */
	int array;
	size_t count;        /* an array's elements so far */
};

struct jarg {
	size_t name, name_n, value, value_n; /* in q->jbuf */
};

struct jrd {
	struct http_req *q;
	const unsigned char *p;
	size_t n, at;
	struct jcont *st;
	size_t depth, st_cap;
	size_t key, key_n;   /* json.cc's m_current_key; key_n 0: empty */
	struct jarg *args;
	size_t nargs, args_cap;
	const char *err;     /* what does not parse, when 1 is returned */
	int whole;           /* err is no yajl error: refuse the request */
};

/* room for n more bytes in q->jbuf; 0, or 1 (too big) or -1 */
static int jb_room(struct jrd *r, size_t n)
{
	struct http_req *q = r->q;
	size_t cap = q->jbuf_cap ? q->jbuf_cap : 256;
	char *b;

	if (n > JSON_BYTES_MAX || q->jbuf_len + n > JSON_BYTES_MAX) {
		r->err = "its argument names and values pass 16 MiB";
		r->whole = 1;
		return 1;
	}
	if (q->jbuf_len + n <= q->jbuf_cap)
		return 0;
	while (cap < q->jbuf_len + n)
		cap *= 2;
	b = realloc(q->jbuf, cap);
	if (b == NULL)
		return -1;
	q->jbuf = b;
	q->jbuf_cap = cap;
	return 0;
}

static int jb_put(struct jrd *r, const void *p, size_t n)
{
	int rc = jb_room(r, n);

	if (rc == 0 && n > 0) {
		memcpy(r->q->jbuf + r->q->jbuf_len, p, n);
		r->q->jbuf_len += n;
	}
	return rc;
}

/* bytes [off, off + n) of q->jbuf appended to it */
static int jb_copy(struct jrd *r, size_t off, size_t n)
{
	int rc = jb_room(r, n);

	if (rc == 0 && n > 0) {
		memcpy(r->q->jbuf + r->q->jbuf_len, r->q->jbuf + off, n);
		r->q->jbuf_len += n;
	}
	return rc;
}

static int j_bad(struct jrd *r, const char *what)
{
	r->err = what;
	return 1;
}

/* json.cc's getCurrentKey(): "json" (offset 0) outside any container,
 * "" in an array or "empty-key" (offset 4) when no key is pending, else
 * the key, which it consumes. */
static void j_key(struct jrd *r, size_t *off, size_t *n)
{
	if (r->depth == 0) {
		*off = 0;
		*n = 4;
	} else if (r->key_n == 0) {
		*off = 4;
		*n = r->st[r->depth - 1].array ? 0 : 9;
	} else {
		*off = r->key;
		*n = r->key_n;
		r->key_n = 0;
	}
}

/* addArgument(): value [voff, voff + vn) of q->jbuf under its name. */
static int j_add(struct jrd *r, size_t voff, size_t vn)
{
	size_t start = r->q->jbuf_len, koff, kn;
	char num[32];
	int rc = 0;

	for (size_t i = 0; i < r->depth && rc == 0; i++) {
		rc = jb_copy(r, r->st[i].name, r->st[i].name_n);
		if (rc == 0 && r->st[i].array) {
			snprintf(num, sizeof(num), ".array_%zu", r->st[i].count);
			rc = jb_put(r, num, strlen(num));
		} else if (rc == 0) {
			rc = jb_put(r, ".", 1);
		}
	}
	if (rc != 0)
		return rc;
	if (r->depth > 0 && r->st[r->depth - 1].array) {
		r->st[r->depth - 1].count++;
		kn = 0;
	} else {
		j_key(r, &koff, &kn);
		rc = jb_copy(r, koff, kn);
	}
	if (rc == 0 && r->nargs == r->args_cap) {
		size_t cap = r->args_cap ? r->args_cap * 2 : 16;
		struct jarg *a = realloc(r->args, cap * sizeof(*a));
		if (a == NULL)
			return -1;
		r->args = a;
		r->args_cap = cap;
	}
	if (rc == 0)
		r->args[r->nargs++] = (struct jarg){start, r->q->jbuf_len - start,
						    voff, vn};
	return rc;
}

/* yajl_start_map / yajl_start_array: a container named by j_key(). */
static int j_open(struct jrd *r, int array)
{
	size_t off, n;

	if (r->depth >= JSON_DEPTH_MAX)
		return j_bad(r, "nesting deeper than 10000 (json.cc's limit)");
	if (r->depth == r->st_cap) {
		size_t cap = r->st_cap ? r->st_cap * 2 : 16;
		struct jcont *s = realloc(r->st, cap * sizeof(*s));
		if (s == NULL)
			return -1;
		r->st = s;
		r->st_cap = cap;
	}
	j_key(r, &off, &n);
	r->st[r->depth++] = (struct jcont){off, n, array, 0};
	return 0;
}

/* yajl_end_map / yajl_end_array: an enclosing array counts it. */
static void j_close(struct jrd *r)
{
	r->depth--;
	if (r->depth > 0 && r->st[r->depth - 1].array)
		r->st[r->depth - 1].count++;
}

static void j_ws(struct jrd *r)
{
	/* yajl_lex's whitespace: JSON's four and \v \f */
	while (r->at < r->n && strchr(" \t\n\v\f\r", r->p[r->at]) != NULL &&
	       r->p[r->at] != '\0')
		r->at++;
}

/* The bytes of one UTF-8 character at s[0..n) as yajl_lex_utf8_char
 * checks it (a lead byte's class and continuation bytes, nothing more);
 * 0 when it fails. */
static size_t j_utf8(const unsigned char *s, size_t n)
{
	size_t len = (s[0] >> 5) == 0x6 ? 2 : (s[0] >> 4) == 0xe ? 3
		     : (s[0] >> 3) == 0x1e ? 4 : 0;

	if (len == 0 || len > n)
		return 0;
	for (size_t i = 1; i < len; i++)
		if ((s[i] >> 6) != 0x2)
			return 0;
	return len;
}

/* Four hex digits at r->p[r->at]; -1 when not. */
static long j_hex4(struct jrd *r)
{
	long v = 0;

	if (r->n - r->at < 4)
		return -1;
	for (int i = 0; i < 4; i++) {
		if (!is_hex(r->p[r->at + (size_t)i]))
			return -1;
		v = v * 16 + hex_val(r->p[r->at + (size_t)i]);
	}
	r->at += 4;
	return v;
}

/* yajl's Utf32toUtf8 (a NUL is one byte). */
static int j_put_cp(struct jrd *r, unsigned long cp)
{
	unsigned char u[4];
	size_t n;

	if (cp < 0x80) {
		u[0] = (unsigned char)cp;
		n = 1;
	} else if (cp < 0x800) {
		u[0] = (unsigned char)(0xc0 | (cp >> 6));
		u[1] = (unsigned char)(0x80 | (cp & 0x3f));
		n = 2;
	} else if (cp < 0x10000) {
		u[0] = (unsigned char)(0xe0 | (cp >> 12));
		u[1] = (unsigned char)(0x80 | ((cp >> 6) & 0x3f));
		u[2] = (unsigned char)(0x80 | (cp & 0x3f));
		n = 3;
	} else {
		u[0] = (unsigned char)(0xf0 | (cp >> 18));
		u[1] = (unsigned char)(0x80 | ((cp >> 12) & 0x3f));
		u[2] = (unsigned char)(0x80 | ((cp >> 6) & 0x3f));
		u[3] = (unsigned char)(0x80 | (cp & 0x3f));
		n = 4;
	}
	return jb_put(r, u, n);
}

/* The escape after a '\' (yajl_string_decode).  A high surrogate must be
 * followed by \u and a low one (yajl joins any \u after it, and writes
 * '?' and skips a byte when none follows); a lone low surrogate is
 * encoded as it is, as yajl does. */
static int j_escape(struct jrd *r)
{
	static const char from[] = "\"\\/bfnrt", to[] = "\"\\/\b\f\n\r\t";
	const char *e;
	long cp, lo;

	if (r->at >= r->n)
		return j_bad(r, "a string without its closing quote");
	e = r->p[r->at] != '\0' ? strchr(from, r->p[r->at]) : NULL;
	if (e != NULL) {
		r->at++;
		return jb_put(r, &to[e - from], 1);
	}
	if (r->p[r->at++] != 'u')
		return j_bad(r, "an unknown escape in a string");
	cp = j_hex4(r);
	if (cp < 0)
		return j_bad(r, "\\u without four hex digits");
	if (cp >= 0xd800 && cp <= 0xdbff) {
		r->whole = 1;
		if (r->n - r->at < 2 || r->p[r->at] != '\\' ||
		    r->p[r->at + 1] != 'u')
			return j_bad(r, "a high surrogate escape alone");
		r->at += 2;
		lo = j_hex4(r);
		if (lo < 0xdc00 || lo > 0xdfff)
			return j_bad(r, "a high surrogate escape without a low one");
		r->whole = 0;
		cp = 0x10000 + ((cp - 0xd800) << 10) + (lo - 0xdc00);
	}
	return j_put_cp(r, (unsigned long)cp);
}

/* A string at r->p[r->at] == '"', decoded at the end of q->jbuf. */
static int j_string(struct jrd *r, size_t *off, size_t *n)
{
	int rc = 0;

	*off = r->q->jbuf_len;
	r->at++;
	while (rc == 0) {
		unsigned char c;
		size_t u;
		if (r->at >= r->n)
			return j_bad(r, "a string without its closing quote");
		c = r->p[r->at++];
		if (c == '"')
			break;
		if (c < 0x20)
			return j_bad(r, "a control byte in a string");
		if (c == '\\') {
			rc = j_escape(r);
			continue;
		}
		u = c < 0x80 ? 1 : j_utf8(r->p + r->at - 1, r->n - r->at + 1);
		if (u == 0)
			return j_bad(r, "invalid UTF-8 in a string");
		rc = jb_put(r, r->p + r->at - 1, u);
		r->at += u - 1;
	}
	*n = r->q->jbuf_len - *off;
	return rc;
}

static size_t j_digits(struct jrd *r)
{
	size_t k = 0;

	while (r->at < r->n && r->p[r->at] >= '0' && r->p[r->at] <= '9') {
		r->at++;
		k++;
	}
	return k;
}

/* A number, its text as written (yajl_lex_number's grammar). */
static int j_number(struct jrd *r, size_t *off, size_t *n)
{
	size_t start = r->at;

	if (r->p[r->at] == '-')
		r->at++;
	if (r->at < r->n && r->p[r->at] == '0')
		r->at++;
	else if (j_digits(r) == 0)
		return j_bad(r, "no digits in a number");
	if (r->at < r->n && r->p[r->at] == '.') {
		r->at++;
		if (j_digits(r) == 0)
			return j_bad(r, "no digits after a number's '.'");
	}
	if (r->at < r->n && (r->p[r->at] | 0x20) == 'e') {
		r->at++;
		if (r->at < r->n && (r->p[r->at] == '+' || r->p[r->at] == '-'))
			r->at++;
		if (j_digits(r) == 0)
			return j_bad(r, "no digits in a number's exponent");
	}
	*off = r->q->jbuf_len;
	*n = r->at - start;
	return jb_put(r, r->p + start, *n);
}

/* true, false or null: the value's text ("" for null) in *off, *n. */
static int j_word(struct jrd *r, size_t *off, size_t *n)
{
	static const char *const words[] = {"true", "false", "null"};

	for (size_t i = 0; i < 3; i++) {
		size_t len = strlen(words[i]);
		if (r->n - r->at >= len && memcmp(r->p + r->at, words[i], len) == 0) {
			r->at += len;
			*off = r->q->jbuf_len;
			*n = i == 2 ? 0 : len;
			return jb_put(r, words[i], *n);
		}
	}
	return j_bad(r, "no JSON value");
}

/* A scalar value at r->p[r->at], given to j_add(). */
static int j_scalar(struct jrd *r)
{
	size_t off = 0, n = 0;
	unsigned char c = r->p[r->at];
	int rc;

	if (c == '"')
		rc = j_string(r, &off, &n);
	else if (c == '-' || (c >= '0' && c <= '9'))
		rc = j_number(r, &off, &n);
	else
		rc = j_word(r, &off, &n);
	return rc != 0 ? rc : j_add(r, off, n);
}

enum jstate { J_VALUE, J_KEY, J_AFTER };

/* An object's key and its ':'; the next state is J_VALUE. */
static int j_member(struct jrd *r)
{
	int rc;

	if (r->at >= r->n || r->p[r->at] != '"')
		return j_bad(r, "no key in an object");
	rc = j_string(r, &r->key, &r->key_n);
	if (rc != 0)
		return rc;
	j_ws(r);
	if (r->at >= r->n || r->p[r->at] != ':')
		return j_bad(r, "no ':' after a key");
	r->at++;
	return 0;
}

/* One step from state *s at the next non-blank byte. */
static int j_step(struct jrd *r, enum jstate *s)
{
	unsigned char c = r->p[r->at];
	int rc = 0;

	if (*s == J_KEY) {
		*s = J_VALUE;
		return j_member(r);
	}
	if (*s == J_VALUE && (c == '{' || c == '[')) {
		r->at++;
		rc = j_open(r, c == '[');
		j_ws(r);
		if (rc == 0 && r->at < r->n && r->p[r->at] == (c == '[' ? ']' : '}')) {
			r->at++;
			j_close(r);
			*s = J_AFTER;
		} else {
			*s = c == '[' ? J_VALUE : J_KEY;
		}
		return rc;
	}
	if (*s == J_VALUE) {
		*s = J_AFTER;
		return j_scalar(r);
	}
	if (c != ',' && c != (r->st[r->depth - 1].array ? ']' : '}'))
		return j_bad(r, "no ',' or end after a value");
	r->at++;
	if (c == ',')
		*s = r->st[r->depth - 1].array ? J_VALUE : J_KEY;
	else
		j_close(r);
	return 0;
}

/* The whole body as one JSON value (trailing blanks only).  0, 1 with
 * r->err, -1. */
static int j_walk(struct jrd *r)
{
	enum jstate s = J_VALUE;
	int rc = jb_put(r, "jsonempty-key", 13);

	while (rc == 0) {
		j_ws(r);
		if (s == J_AFTER && r->depth == 0)
			return r->at == r->n ? 0 : j_bad(r, "bytes after the value");
		if (r->at >= r->n)
			return j_bad(r, "the value is cut short");
		rc = j_step(r, &s);
	}
	return rc;
}

/* Body q->body read as JSON into q->args_json (up to a yajl error, whose
 * reason goes to q->json_error).  0, 1 after bad(), -1. */
static int json_args(struct http_req *q, struct cur *c)
{
	struct jrd r = {.q = q, .p = (const unsigned char *)q->body.p,
			.n = q->body.n};
	int rc = j_walk(&r);

	if (rc == 1 && !r.whole) {
		snprintf(q->json_error, sizeof(q->json_error), "byte %zu: %s",
			 r.at, r.err);
		rc = 0;
	}
	for (size_t i = 0; rc == 0 && i < r.nargs; i++)
		rc = pair_add(&q->args_json,
			      (struct http_span){q->jbuf + r.args[i].name,
						 r.args[i].name_n},
			      (struct http_span){q->jbuf + r.args[i].value,
						 r.args[i].value_n});
	free(r.st);
	free(r.args);
	if (rc == 1)
		return bad(c, "a JSON body not read as yajl reads it (byte "
			   "%zu: %s)", r.at, r.err);
	return rc;
}

/* ---- a chunked body, de-chunked as the server hands it on ----
 *
 * RFC 9112 7.1: chunk-size (hex) [ ";" chunk-ext ] CRLF, the data, CRLF;
 * a last chunk "0" [ext] CRLF, trailer lines, an empty line, and nothing
 * after.  The connector gives ModSecurity the data only (the headers as
 * sent: Transfer-Encoding stays, no Content-Length appears; trailers are
 * no headers: nginx drops them, Apache keeps them apart in
 * trailers_in).  Sizes of more than 8 hex digits are refused (the
 * oracle's de-chunker, tests/modsec_oracle.c, stops there too). */

/* The line at c->at without its CRLF; 1 after bad(). */
static int chunk_line(struct cur *c, struct http_span *l)
{
	const char *s = c->p + c->at;
	size_t k = 0, rest = c->len - c->at;

	while (k < rest && s[k] != '\r' && s[k] != '\n')
		k++;
	c->line++;
	if (k + 1 >= rest || s[k] != '\r' || s[k + 1] != '\n')
		return bad(c, "a chunked body cut short or a line not ending "
			   "in CRLF");
	*l = (struct http_span){s, k};
	c->at += k + 2;
	return 0;
}

/* A chunk-size line: its size in *size; 1 after bad(). */
static int chunk_size(struct cur *c, struct http_span l, size_t *size)
{
	size_t k = 0;

	*size = 0;
	while (k < l.n && is_hex((unsigned char)l.p[k]))
		*size = *size * 16 + (size_t)hex_val((unsigned char)l.p[k++]);
	if (k == 0 || k > 8)
		return bad(c, "a chunk size of %s hex digits",
			   k == 0 ? "no" : "more than 8");
	l = trim_left((struct http_span){l.p + k, l.n - k});
	if (l.n > 0 && l.p[0] != ';')
		return bad(c, "a chunk size followed by neither ';' nor CRLF");
	return check_value(c, l);
}

/* Trailer lines up to the empty one, and nothing after.  0 or bad(). */
static int chunk_trailers(struct cur *c)
{
	struct http_span l = {NULL, 0};
	const char *colon;

	for (;;) {
		if (chunk_line(c, &l) != 0)
			return 1;
		if (l.n == 0)
			break;
		colon = span_chr(l, ':');
		if (colon == NULL || colon == l.p)
			return bad(c, "a trailer line without a name and ':'");
		for (const char *t = l.p; t < colon; t++)
			if (!is_tchar((unsigned char)*t))
				return bad(c, "byte 0x%02x in a trailer name",
					   (unsigned char)*t);
		if (check_value(c, l) != 0)
			return 1;
	}
	if (c->at != c->len)
		return bad(c, "%zu bytes after the chunked body's end",
			   c->len - c->at);
	return 0;
}

/* The chunks at c->at de-chunked into q's buffer as q->body.  0, 1. */
static int chunked_body(struct http_req *q, struct cur *c)
{
	char *out = q->buf + q->buf_len;
	size_t n = 0, size = 0;
	struct http_span l = {NULL, 0};

	for (;;) {
		if (chunk_line(c, &l) != 0 || chunk_size(c, l, &size) != 0)
			return 1;
		if (size == 0)
			break;
		if (c->len - c->at < size + 2)
			return bad(c, "a chunk of %zu bytes cut short", size);
		if (c->p[c->at + size] != '\r' || c->p[c->at + size + 1] != '\n')
			return bad(c, "a chunk's data not followed by CRLF");
		memcpy(buf_take(q, size), c->p + c->at, size);
		c->at += size + 2;
		n += size;
	}
	if (chunk_trailers(c) != 0)
		return 1;
	q->body = (struct http_span){out, n};
	return 0;
}

/* What the headers say of the body. */
struct body_hdrs {
	size_t clen, nte;
	int have_len;
	struct http_span te;  /* the Transfer-Encoding value */
	const char *proc;     /* modsecurity.conf-recommended's processor */
	char type[64];        /* the media type, lowercase */
};

/* Content-Length's value into b; 0 or bad(). */
static int content_length(struct cur *c, struct http_span v,
			  struct body_hdrs *b)
{
	size_t n = 0;

	if (v.n == 0 || v.n > 12)
		return bad(c, "a bad Content-Length");
	for (size_t k = 0; k < v.n; k++) {
		if (v.p[k] < '0' || v.p[k] > '9')
			return bad(c, "a bad Content-Length");
		n = n * 10 + (size_t)(v.p[k] - '0');
	}
	if (b->have_len && n != b->clen)
		return bad(c, "two different Content-Lengths");
	b->have_len = 1;
	b->clen = n;
	return 0;
}

/* Content-Length, Transfer-Encoding, Content-Type into b.  The rules
 * 200000 (XML) then 200001 (JSON) run on every Content-Type header: a
 * JSON one wins.  0 or 1. */
static int body_headers(struct http_req *q, struct cur *c, struct body_hdrs *b)
{
	size_t ntypes = 0;

	for (size_t i = 0; i < q->headers.n; i++) {
		const struct http_pair *h = &q->headers.v[i];
		const char *proc;
		if (span_is(h->name, "transfer-encoding")) {
			b->te = h->value;
			b->nte++;
		} else if (span_is(h->name, "content-type")) {
			if (type_taken(q, ntypes, h->value))
				media_type(h->value, b->type, sizeof(b->type));
			proc = conf_processor(h->value);
			if (proc != NULL && (b->proc == NULL || proc[0] == 'J'))
				b->proc = proc;
			ntypes++;
		} else if (span_is(h->name, "content-length") &&
			   content_length(c, h->value, b) != 0) {
			return 1;
		}
	}
	return 0;
}

/* The body's bytes: Content-Length of them, or the chunks de-chunked
 * (Transfer-Encoding: chunked alone, HTTP/1.1, no Content-Length).  0, 1. */
static int body_bytes(struct http_req *q, struct cur *c,
		      const struct body_hdrs *b)
{
	size_t rest = c->len - c->at;

	if (b->nte > 1)
		return bad(c, "two Transfer-Encoding headers");
	if (b->nte == 1 && !span_is(b->te, "chunked"))
		return bad(c, "a Transfer-Encoding other than chunked (\"%.*s\")",
			   (int)(b->te.n < 40 ? b->te.n : 40), b->te.p);
	if (b->nte == 1 && b->have_len)
		return bad(c, "Transfer-Encoding and Content-Length together "
			   "(RFC 9112 6.1: a request to refuse)");
	if (b->nte == 1 && !span_is(q->protocol, "HTTP/1.1"))
		return bad(c, "a chunked body in %.*s (HTTP/1.1 only)",
			   (int)q->protocol.n, q->protocol.p);
	if (b->nte == 1)
		return chunked_body(q, c);
	if (rest != b->clen)
		return bad(c, "the body is %zu bytes, Content-Length says %zu",
			   rest, b->clen);
	q->body = (struct http_span){c->p + c->at, rest};
	return 0;
}

/* Content-Length, Transfer-Encoding, Content-Type: the body and how it
 * is read.  0, 1 after bad(), -1. */
static int body_of(struct http_req *q, struct cur *c)
{
	struct body_hdrs b = {0};

	if (body_headers(q, c, &b) != 0 || body_bytes(q, c, &b) != 0)
		return 1;
	q->body_kind = q->body.n == 0 ? HTTP_BODY_NONE : HTTP_BODY_OTHER;
	if (q->body.n == 0)
		return 0;
	if (b.proc != NULL && b.proc[0] == 'X')
		return bad(c, "XML bodies are not parsed (modsecurity.conf-"
			   "recommended's rule 200000 gives them to the XML "
			   "body processor)");
	if (b.proc != NULL && q->modsec == MODSEC_V2)
		return bad(c, "JSON bodies are not parsed under --modsec=2 "
			   "(mod_security2's msc_json.c names their arguments "
			   "by a key prefix, arrays without an index)");
	if (b.proc != NULL) {
		q->body_kind = HTTP_BODY_JSON;
		return json_args(q, c);
	}
	if (strncmp(b.type, MULTIPART, strlen(MULTIPART)) == 0)
		return bad(c, "%s bodies are not parsed (ModSecurity reads "
			   "them into ARGS_POST and FILES)", b.type);
	if (strncmp(b.type, FORM, strlen(FORM)) == 0)
		q->body_kind = HTTP_BODY_FORM;
	return 0;
}

static int buf_reserve(struct http_req *q, size_t n)
{
	if (n > q->buf_cap) {
		char *b = realloc(q->buf, n);
		if (b == NULL)
			return -1;
		q->buf = b;
		q->buf_cap = n;
	}
	q->buf_len = 0;
	return 0;
}

int http_req_parse(struct http_req *q, const char *p, size_t len, char *why,
		   size_t size)
{
	struct cur c = {p, len, 0, 1, why, size};
	int rc;

	q->headers.n = q->cookies.n = q->args_get.n = q->args_post.n = 0;
	q->args_json.n = 0;
	q->jbuf_len = 0;
	q->json_error[0] = '\0';
	q->body = (struct http_span){p + len, 0};
	q->body_kind = HTTP_BODY_NONE;
	why[0] = '\0';
	/* what the buffer holds: folded headers (at most the header lines),
	   the target's decoded or joined copy (at most the target and 1),
	   decoded arguments (at most the query and the body), a de-chunked
	   body (at most the rest): 3 * len + 1; under v2 the target's host
	   and Apache's phase-2 path '?' query too (at most 2 * target + 1) */
	if (buf_reserve(q, (q->modsec == MODSEC_V2 ? 5 : 3) * len + 16) != 0)
		return -1;
	rc = request_line(q, &c);
	if (rc == 0)
		target_vars(q);
	q->uri2 = q->uri;
	q->filename2 = q->filename;
	q->basename2 = q->basename;
	q->v2_phase2_refused = 0;
	if (rc == 0)
		rc = header_lines(q, &c);
	if (rc == 0 && q->modsec == MODSEC_V2)
		rc = v2_apache(q, &c);
	if (rc == 0)
		rc = body_of(q, &c);
	if (rc != 0)
		return rc;
	for (size_t i = 0; i < q->headers.n; i++)
		if (span_is(q->headers.v[i].name, "cookie") &&
		    cookies_parse(q, q->headers.v[i].value) != 0)
			return -1;
	if (args_parse(q, q->query.v, &q->args_get) != 0)
		return -1;
	if (q->body_kind == HTTP_BODY_FORM &&
	    args_parse(q, q->body, &q->args_post) != 0)
		return -1;
	return 0;
}

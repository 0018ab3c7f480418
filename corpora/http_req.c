/*
 * http_req.c - one strict HTTP/1.x request parser (see http_req.h).
 */
#define _GNU_SOURCE
#include "corpora/http_req.h"
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
	free(q->buf);
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

/* Content-Length, Transfer-Encoding, Content-Type: the body.  0 or 1. */
static int body_of(struct http_req *q, struct cur *c)
{
	size_t rest = c->len - c->at, clen = 0;
	int have_len = 0;
	size_t ntypes = 0;
	const char *proc = NULL;
	char type[64] = "";

	for (size_t i = 0; i < q->headers.n; i++) {
		const struct http_pair *h = &q->headers.v[i];
		if (span_is(h->name, "transfer-encoding"))
			return bad(c, "Transfer-Encoding bodies are not parsed");
		if (span_is(h->name, "content-type")) {
			if (type_taken(q, ntypes, h->value))
				media_type(h->value, type, sizeof(type));
			if (conf_processor(h->value) != NULL)
				proc = conf_processor(h->value);
			ntypes++;
		}
		if (!span_is(h->name, "content-length"))
			continue;
		size_t v = 0;
		if (h->value.n == 0 || h->value.n > 12)
			return bad(c, "a bad Content-Length");
		for (size_t k = 0; k < h->value.n; k++) {
			if (h->value.p[k] < '0' || h->value.p[k] > '9')
				return bad(c, "a bad Content-Length");
			v = v * 10 + (size_t)(h->value.p[k] - '0');
		}
		if (have_len && v != clen)
			return bad(c, "two different Content-Lengths");
		have_len = 1;
		clen = v;
	}
	if (rest != clen)
		return bad(c, "the body is %zu bytes, Content-Length says %zu",
			   rest, clen);
	q->body = (struct http_span){c->p + c->at, rest};
	q->body_kind = rest == 0 ? HTTP_BODY_NONE : HTTP_BODY_OTHER;
	if (rest > 0 && proc != NULL)
		return bad(c, "%s bodies are not parsed (modsecurity.conf-"
			   "recommended's rule %s gives them to the %s body "
			   "processor)", proc, proc[0] == 'J' ? "200001" : "200000",
			   proc);
	if (rest > 0 && strncmp(type, MULTIPART, strlen(MULTIPART)) == 0)
		return bad(c, "%s bodies are not parsed (ModSecurity reads "
			   "them into ARGS_POST and FILES)", type);
	if (rest > 0 && strncmp(type, FORM, strlen(FORM)) == 0)
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
	q->body = (struct http_span){p + len, 0};
	q->body_kind = HTTP_BODY_NONE;
	why[0] = '\0';
	/* what the buffer holds: folded headers (at most the header lines),
	   the target's decoded or joined copy (at most the target and 1),
	   decoded arguments (at most the query and the body): 2 * len + 1 */
	if (buf_reserve(q, 2 * len + 16) != 0)
		return -1;
	rc = request_line(q, &c);
	if (rc == 0)
		target_vars(q);
	if (rc == 0)
		rc = header_lines(q, &c);
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

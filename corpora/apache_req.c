/*
 * apache_req.c - Apache httpd 2.4's own handling of a request around
 * mod_security2's phases (see apache_req.h).  No build options.
 */
#include "corpora/apache_req.h"

#include <stdio.h>
#include <string.h>
#include <strings.h>

/* The pieces of a target as apr_uri_parse (or, for CONNECT,
 * apr_uri_parse_hostinfo) finds them, as offsets into the target. */
struct auri {
	int bad;                 /* APR_EGENERAL */
	int http;                /* scheme "http" without case */
	int authority;           /* "scheme://" seen: a hostname */
	size_t host, host_n;     /* the hostname (brackets left out) */
	int v6;                  /* it came in [ ] */
	int port;                /* a ':' after the host: port_str set */
	size_t port_at, port_n;
	int user;                /* an '@' in the authority */
	size_t path, path_n;     /* path_n 0: parsed_uri.path NULL */
	int fragment;            /* a '#' after the authority */
};

static int is_alpha(unsigned char c)
{
	return (c | 0x20) >= 'a' && (c | 0x20) <= 'z';
}

static int is_digit(unsigned char c)
{
	return c >= '0' && c <= '9';
}

static int is_xdigit(unsigned char c)
{
	return is_digit(c) || ((c | 0x20) >= 'a' && (c | 0x20) <= 'f');
}

static int is_scheme_char(unsigned char c)
{
	return is_alpha(c) || is_digit(c) || c == '+' || c == '-' || c == '.';
}

static char lower(char c)
{
	return c >= 'A' && c <= 'Z' ? (char)(c | 0x20) : c;
}

/* A port as apr_uri_parse checks it with strtol: an optional sign, one
 * digit at least, nothing after them.  1 when it passes. */
static int port_ok(const char *p, size_t n)
{
	size_t i = n > 0 && (p[0] == '+' || p[0] == '-') ? 1 : 0;

	if (i == n)
		return 0;
	for (; i < n; i++)
		if (!is_digit((unsigned char)p[i]))
			return 0;
	return 1;
}

/* The path and what follows it, from t[i..n) (apr_uri_parse's
 * deal_with_path: the path ends at '?' or '#'). */
static void uri_path(const char *t, size_t i, size_t n, struct auri *u)
{
	size_t e = i;

	while (e < n && t[e] != '?' && t[e] != '#')
		e++;
	u->path = i;
	u->path_n = e - i;
	u->fragment = memchr(t + i, '#', n - i) != NULL;
}

/* The host and port of the hostinfo t[a..e) after any user@
 * (apr_uri_parse's deal_with_host): a '[' opens an IPv6 literal, a port
 * follows the first ':' (after ']' for a literal). */
static void uri_host(const char *t, size_t a, size_t e, struct auri *u)
{
	const char *colon;

	if (a < e && t[a] == '[') {
		const char *rb = memchr(t + a, ']', e - a);
		if (rb == NULL) {
			u->bad = 1;
			return;
		}
		u->v6 = 1;
		colon = rb + 1 < t + e && rb[1] == ':' ? rb + 1 : NULL;
		u->host = a + 1;
		u->host_n = colon ? (size_t)(colon - t) - a - 2 : e - a - 2;
	} else {
		colon = memchr(t + a, ':', e - a);
		u->host = a;
		u->host_n = colon ? (size_t)(colon - t) - a : e - a;
	}
	if (colon == NULL)
		return;
	u->port = 1;
	u->port_at = (size_t)(colon - t) + 1;
	u->port_n = e - u->port_at;
	if (u->port_n > 0 && !port_ok(t + u->port_at, u->port_n))
		u->bad = 1;
}

/* "//authority" at t[i..n): the hostinfo up to '/', '?' or '#', its user
 * part up to the last '@', then the path. */
static void uri_authority(const char *t, size_t i, size_t n, struct auri *u)
{
	size_t e = i, a = i;

	while (e < n && t[e] != '/' && t[e] != '?' && t[e] != '#')
		e++;
	for (size_t k = e; k > i; k--)
		if (t[k - 1] == '@') {
			u->user = 1;
			a = k;
			break;
		}
	u->authority = 1;
	uri_host(t, a, e, u);
	uri_path(t, e, n, u);
}

/* A relative reference's leading segment (up to the first '/', all of
 * t without one) must hold no ':' (RFC 3986 3.3, APR 1.7's check). */
static int relative_ok(const char *t, size_t n)
{
	const char *slash = memchr(t, '/', n);

	return memchr(t, ':', slash ? (size_t)(slash - t) : n) == NULL;
}

/* apr_uri_parse (APR 1.7) of t[0..n): a path when t starts with '/'; a
 * scheme (a letter, then letters, digits, '+', '-', '.', then ':'), then
 * "//" and an authority or a path; without a scheme a relative path. */
static void uri_parse(const char *t, size_t n, struct auri *u)
{
	size_t s = 1;

	if (n > 0 && t[0] == '/') {
		uri_path(t, 0, n, u);
		return;
	}
	while (s < n && is_scheme_char((unsigned char)t[s]))
		s++;
	if (n == 0 || !is_alpha((unsigned char)t[0]) || s == n || t[s] != ':') {
		u->bad = !relative_ok(t, n);
		uri_path(t, 0, n, u);
		return;
	}
	u->http = s == 4 && strncasecmp(t, "http", 4) == 0;
	if (s + 2 < n && t[s + 1] == '/' && t[s + 2] == '/')
		uri_authority(t, s + 3, n, u);
	else
		uri_path(t, s + 1, n, u);
}

/* apr_uri_parse_hostinfo (CONNECT): host ':' port, the port digits to
 * the end; an IPv6 literal's ']' must be followed by ':'. */
static void uri_connect(const char *t, size_t n, struct auri *u)
{
	const char *colon;

	u->authority = 1;
	if (n > 0 && t[0] == '[') {
		const char *rb = memchr(t, ']', n);
		colon = rb && rb + 1 < t + n && rb[1] == ':' ? rb + 1 : NULL;
		u->v6 = 1;
		u->host = 1;
		u->host_n = colon ? (size_t)(colon - t) - 2 : 0;
	} else {
		colon = memchr(t, ':', n);
		u->host_n = colon ? (size_t)(colon - t) : 0;
	}
	if (colon == NULL) {
		u->bad = 1;
		return;
	}
	u->port = 1;
	u->port_at = (size_t)(colon - t) + 1;
	u->port_n = n - u->port_at;
	if (!port_ok(t + u->port_at, u->port_n))
		u->bad = 1;
}

static int is_method(const char *m, size_t mn, const char *name)
{
	return mn == strlen(name) && memcmp(m, name, mn) == 0;
}

/* ap_parse_uri: leading '//' collapsed to '/', then the parse; *t and
 * *tn moved past what was collapsed. */
static void target_parse(const char *m, size_t mn, const char **t,
			 size_t *tn, struct auri *u)
{
	memset(u, 0, sizeof(*u));
	while (*tn >= 2 && (*t)[0] == '/' && (*t)[1] == '/') {
		(*t)++;
		(*tn)--;
	}
	if (is_method(m, mn, "CONNECT"))
		uri_connect(*t, *tn, u);
	else
		uri_parse(*t, *tn, u);
}

int apache_target_refused(const char *method, size_t mn, const char *t,
			  size_t tn, char *why, size_t size)
{
	struct auri u;
	const char *msg = NULL;

	target_parse(method, mn, &t, &tn, &u);
	if (u.bad || (u.path_n > 0 && t[u.path] != '/' &&
		      !(is_method(method, mn, "OPTIONS") && u.path_n == 1 &&
			t[u.path] == '*')))
		msg = "AH03450: the target does not parse as a URI or its "
		      "path does not start with '/'";
	else if (u.fragment)
		msg = "AH02421: a '#fragment' in the target";
	else if (u.user)
		msg = "AH02422: user@ in the target";
	if (msg == NULL) {
		snprintf(why, size, "%s", "");
		return 0;
	}
	snprintf(why, size, "Apache refuses the request line (%s; 400 before "
		 "phase 1)", msg);
	return 400;
}

/* fix_hostname_v6_literal on h[0..n): hex digits (lowercased), ':' (one
 * "::" at most, none before '.'), '.' (not before ':' or '.').  0 or -1. */
static int v6_fix(char *h, size_t n)
{
	int dc = 0;

	for (size_t i = 0; i < n; i++) {
		char next = i + 1 < n ? h[i + 1] : '\0';
		if (is_xdigit((unsigned char)h[i]))
			h[i] = lower(h[i]);
		else if (h[i] == ':' && next == ':' && dc++)
			return -1;
		else if (h[i] == ':' && next == '.')
			return -1;
		else if (h[i] == '.' && (next == ':' || next == '.'))
			return -1;
		else if (h[i] != ':' && h[i] != '.')
			return -1;
	}
	return 0;
}

/* fix_hostname_non_v6 on h[0..*n): lowercased, no "..", '/' or '\',
 * one trailing '.' dropped.  0 or -1. */
static int name_fix(char *h, size_t *n)
{
	for (size_t i = 0; i < *n; i++) {
		if ((h[i] == '.' && i + 1 < *n && h[i + 1] == '.') ||
		    h[i] == '/' || h[i] == '\\')
			return -1;
		h[i] = lower(h[i]);
	}
	if (*n > 0 && h[*n - 1] == '.')
		(*n)--;
	return 0;
}

/* strict_hostname_check on h[0..n): letters, digits, '-', '_', '.'; all
 * digits and dots: a dotted quad without leading zeroes; else the last
 * label, if any after a '.', starts with a letter.  0 or -1. */
static int name_strict(const char *h, size_t n)
{
	int quad = 1, zeroes = 0, dots = 0;
	size_t last = n;

	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)h[i];
		if (is_alpha(c) || c == '-' || c == '_') {
			quad = 0;
		} else if (c == '.') {
			dots++;
			last = i;
			if (i + 2 < n && h[i + 1] == '0' &&
			    is_digit((unsigned char)h[i + 2]))
				zeroes = 1;
		} else if (!is_digit(c)) {
			return -1;
		}
	}
	if (quad) {
		if (n == 0 || h[0] == '.' ||
		    (n > 1 && h[0] == '0' && is_digit((unsigned char)h[1])))
			zeroes = 1;
		return zeroes || dots != 3 ? -1 : 0;
	}
	return last + 1 < n && !is_alpha((unsigned char)h[last + 1]) ? -1 : 0;
}

/* fix_hostname (host from the target, strict): the name fixed in h[0..*n)
 * in place.  0, or 400 with why. */
static int host_fix(char *h, size_t *n, int v6, char *why, size_t size)
{
	size_t d = 0;

	if (*n == 0)
		return 0; /* "the Host header field CAN be blank" */
	while (d < *n && is_digit((unsigned char)h[d]))
		d++;
	if (d == *n) {
		snprintf(why, size, "Apache refuses the target's host "
			 "(AH02416: a purely numeric host name; 400 before "
			 "phase 1)");
		return 400;
	}
	if (v6 ? v6_fix(h, *n) == 0
	       : name_fix(h, n) == 0 && name_strict(h, *n) == 0)
		return 0;
	snprintf(why, size, "Apache refuses the target's host (AH00550: a "
		 "malformed host name under HttpProtocolOptions Strict; 400 "
		 "before phase 1)");
	return 400;
}

int apache_target_host(const char *method, size_t mn, const char *t,
		       size_t tn, char *host, size_t *hn, char *why,
		       size_t size)
{
	struct auri u;
	size_t o = 0, n;
	int v6, rc;

	snprintf(why, size, "%s", "");
	target_parse(method, mn, &t, &tn, &u);
	if (u.bad || !u.authority ||
	    !(u.http || is_method(method, mn, "CONNECT")))
		return 0;
	/* ap_parse_uri keeps the brackets' inside; fix_hostname takes a
	   name with a ':' for an IPv6 literal */
	v6 = u.v6 && memchr(t + u.host, ':', u.host_n) != NULL;
	host[o++] = '[';
	memcpy(host + o, t + u.host, u.host_n);
	n = u.host_n;
	rc = host_fix(host + o, &n, v6, why, size);
	if (rc != 0)
		return rc;
	if (!v6)
		memmove(host, host + 1, n);
	o = v6 ? n + 2 : n;
	if (v6)
		host[o - 1] = ']';
	if (u.port) {
		host[o++] = ':';
		memcpy(host + o, t + u.port_at, u.port_n);
		o += u.port_n;
	}
	*hn = o;
	return 1;
}

/* %XX at p[0..left): its byte, or -1 without two hex digits. */
static int pct_byte(const char *p, size_t left)
{
	int hi, lo;

	if (left < 3 || !is_xdigit((unsigned char)p[1]) ||
	    !is_xdigit((unsigned char)p[2]))
		return -1;
	hi = is_digit((unsigned char)p[1]) ? p[1] - '0' : (p[1] | 0x20) - 'a' + 10;
	lo = is_digit((unsigned char)p[2]) ? p[2] - '0' : (p[2] | 0x20) - 'a' + 10;
	return hi * 16 + lo;
}

/* RFC 3986's unreserved: ALPHA DIGIT - . _ ~ (T_URI_UNRESERVED). */
static int unreserved(int c)
{
	return is_alpha((unsigned char)c) || is_digit((unsigned char)c) ||
	       c == '-' || c == '.' || c == '_' || c == '~';
}

/* s[i] ends a segment: '/' or the end. */
static int seg_end(const char *s, size_t i, size_t n)
{
	return i >= n || s[i] == '/';
}

/*
 * A dot segment at s[r] (a segment's start): 1 for ".", 2 for ".." (the
 * second dot may be %2e, not decoded yet), 0 otherwise; *next is where
 * the following segment starts.
 */
static int dot_segment(const char *s, size_t r, size_t n, size_t *next)
{
	size_t d = r + 1;

	if (s[r] != '.')
		return 0;
	if (seg_end(s, d, n)) {
		*next = d < n ? d + 1 : d;
		return 1;
	}
	if (s[d] != '.') {
		if (!(d + 2 < n && s[d] == '%' && s[d + 1] == '2' &&
		      (s[d + 2] | 0x20) == 'e'))
			return 0;
		d += 2;
	}
	if (!seg_end(s, d + 1, n))
		return 0;
	*next = d + 1 < n ? d + 2 : d + 1;
	return 2;
}

/*
 * ap_normalize_path(NOT_ABOVE_ROOT | MERGE_SLASHES | DECODE_UNRESERVED)
 * on s[0..*n), in place (s[0] is '/').  Reads at r, writes at w <= r: an
 * unreserved %XX becomes its byte where its last digit was, then counts
 * as sent; at a segment's start '/'s are merged and dot segments
 * dropped, ".." taking the segment before it.  1, or 0 for a bad escape
 * or ".." at the root (the path is still rewritten).
 */
static int normalize(char *s, size_t *n)
{
	size_t r = 1, w = 1, next = 0;
	int ok = 1;

	while (r < *n) {
		int b = s[r] == '%' ? pct_byte(s + r, *n - r) : 0;
		if (b < 0)
			ok = 0;
		else if (b > 0 && unreserved(b))
			s[r += 2] = (char)b;
		if (s[w - 1] == '/' && s[r] == '/') {
			while (r < *n && s[r] == '/')
				r++;
			continue;
		}
		int dots = s[w - 1] == '/' ? dot_segment(s, r, *n, &next) : 0;
		if (dots == 2 && w == 1)
			ok = 0;
		while (dots == 2 && w > 1 && s[--w - 1] != '/')
			;
		if (dots > 0) {
			r = next;
			continue;
		}
		s[w++] = s[r++];
	}
	*n = w;
	return ok;
}

/*
 * ap_unescape_url_ex(KEEP_UNRESERVED | FORBID_SLASHES) on s[0..*n) in
 * place: %XX decoded but for unreserved bytes (kept as written); a '%'
 * without two hex digits kept.  0, 400 (a bad escape) or 404 (%2f or
 * %00, decoded all the same).
 */
static int unescape(char *s, size_t *n)
{
	size_t w = 0;
	int badesc = 0, badpath = 0;

	for (size_t r = 0; r < *n; r++) {
		int b = s[r] == '%' ? pct_byte(s + r, *n - r) : -2;
		if (b == -1)
			badesc = 1;
		if (b < 0 || unreserved(b)) {
			s[w++] = s[r];
			continue;
		}
		if (b == 0 || b == '/')
			badpath = 1;
		s[w++] = (char)b;
		r += 2;
	}
	*n = w;
	return badesc ? 400 : badpath ? 404 : 0;
}

int apache_phase2_path(const char *p, size_t n, char *out, size_t *on,
		       char *why, size_t size)
{
	const char *nul;
	int rc;

	snprintf(why, size, "%s", "");
	memcpy(out, p, n);
	*on = n;
	if (n == 1 && p[0] == '*')
		return 0; /* OPTIONS * (ap_normalize_path takes it) */
	if (n == 0 || p[0] != '/' || !normalize(out, on)) {
		snprintf(why, size, "Apache refuses the path after phase 1 "
			 "(AH10244 ap_normalize_path: '/../' above the root "
			 "or a '%%' without two hex digits; 400, no phase 2)");
		return 400;
	}
	rc = unescape(out, on);
	nul = memchr(out, '\0', *on);
	if (nul != NULL) /* a C string to mod_security2 */
		*on = (size_t)(nul - out);
	if (rc == 404)
		snprintf(why, size, "Apache refuses the path after phase 1 "
			 "(AH00026 ap_unescape_url_ex: %%2f or %%00, "
			 "AllowEncodedSlashes Off; 404, no phase 2)");
	else if (rc != 0)
		snprintf(why, size, "Apache refuses the path after phase 1 "
			 "(ap_unescape_url_ex: a '%%' without two hex digits; "
			 "400, no phase 2)");
	return rc;
}

int apache_fold_refused(const char *l, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (l[i] != ' ' && l[i] != '\t')
			return 0;
	return 1;
}

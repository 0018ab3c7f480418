/*
 * http_req.h - a small strict parser of one HTTP/1.x request in a packet
 * payload, into the parts ModSecurity's variables name (corpora/waf.h):
 * the request line and its pieces, the headers, the cookies, the query
 * and form arguments, the body.
 *
 * Strict: a payload is a request only when it is one whole request and
 * nothing else.  The request line is METHOD SP TARGET SP HTTP/d.d CRLF
 * (a token, visible ASCII, no high bytes); header lines are NAME ":" OWS
 * VALUE OWS CRLF (a token name; a value of visible ASCII, SP, HTAB and
 * bytes 0x80-0xff); a line starting with SP or HTAB continues the header
 * above it (obs-fold, replaced by one SP as RFC 7230 3.2.4 says); an empty
 * line ends the head.  Any other control byte (NUL, a CR not before LF, a
 * bare LF) is an error, as is a head without its empty line (a cut
 * packet).  The body is Content-Length bytes exactly, the rest of the
 * payload (no Content-Length: no body), or with "Transfer-Encoding:
 * chunked" (alone, in HTTP/1.1, without Content-Length) the chunks'
 * data, de-chunked into q->buf as the server hands it to ModSecurity:
 * the headers stay as sent, chunk extensions and trailers are dropped;
 * RFC 9112's syntax strictly (CRLF lines, sizes of 1 to 8 hex digits,
 * nothing after the end) or not a request.
 *
 * A body whose Content-Type (any such header) starts application/json,
 * which a deployment's modsecurity.conf-recommended (rule 200001, which
 * wins over 200000's XML and over a form type) gives to the JSON body
 * processor: under v3, libmodsecurity3 3.0.9's json.cc on yajl, its
 * values are args_json (ARGS and ARGS_NAMES; not ARGS_POST, their origin
 * being "JSON"), in body order, named "json" then ".key" per enclosing
 * object and ".array_N" per enclosing array (N the element's index;
 * "empty-key" for a key ""), strings decoded, numbers as written, true,
 * false, "" for null.  A JSON body yajl stops in (a syntax error,
 * invalid UTF-8, nesting past 10000: libmodsecurity3's REQBODY_ERROR)
 * keeps the arguments before the error, as yajl's callbacks gave them,
 * and q->json_error says where; one with a high surrogate escape without
 * its low one (yajl writes '?' and skips a byte) is not a request.
 * Under v2 no JSON body is (its msc_json.c names arguments differently,
 * unmodelled).
 *
 * Not requests here, the reason naming them: a multipart/form-data body
 * (both versions parse it into ARGS_POST and FILES, rxbench does not);
 * an XML body (rule 200000: text/xml, application/xml or
 * application/soap+xml, the XML collection).  Any other body
 * (multipart/mixed, text/plain, ...) is REQUEST_BODY only, as both
 * versions read it.
 *
 * The request target, as q->modsec reads it (the version set before the
 * parse; see modsec.h):
 *   both      a '#fragment' is cut before the query and the arguments:
 *             only REQUEST_LINE and REQUEST_URI_RAW keep it.
 *   v3        libmodsecurity3 3.0.9's Transaction::processURI: the target
 *             less its fragment is %-decoded ('+' kept); REQUEST_FILENAME
 *             is that up to its first '?' (a decoded "%3f" counts),
 *             REQUEST_BASENAME its part after the last '/' or '' ("" when
 *             none, or nothing follows), REQUEST_URI the whole of it with
 *             "scheme://host" cut when a '/' follows.  Every variable has
 *             a value, "" when empty (QUERY_STRING without '?').
 *   v2        mod_security2 on Apache 2.4 (ap_parse_uri, apr_uri_parse):
 *             leading '//' collapsed, "scheme://host" cut, the path as
 *             sent up to '?' or '#' (no value when empty), REQUEST_BASENAME
 *             its part after the last '/', then after the last ''
 *             (file_basename), REQUEST_URI path?query (re_variables.c).
 *             A CONNECT target (host:port: apr_uri_parse_hostinfo) has no
 *             path and no query: REQUEST_FILENAME, REQUEST_BASENAME,
 *             REQUEST_URI and QUERY_STRING have no value, nor has
 *             QUERY_STRING without a '?'.  That is phase 1's reading;
 *             from phase 2 on uri2, filename2 and basename2 hold them
 *             from the path Apache 2.4 normalised and %-decoded after
 *             phase 1, '?' and the raw query (corpora/apache_req.h);
 *             where Apache refuses that path (400, 404) phases 2 to 4
 *             do not run (v2_phase2_refused) and phase 5 sees the path
 *             as Apache left it.  Apache's own work before phase 1 too:
 *             an http:// or CONNECT target's host replaces the Host
 *             header's value (none is added), and what Apache answers
 *             400 before phase 1 is not a request, its AH number named
 *             (a '#fragment', a target apr_uri_parse refuses or whose
 *             path does not start with '/', user@, a malformed host in
 *             the target, an empty folded line).
 *
 * Arguments (ARGS_GET from the query, ARGS_POST from a body whose
 * Content-Type starts with application/x-www-form-urlencoded, without
 * case, as both versions test it) are split on '&', a piece without '='
 * a name with an empty value, an empty piece an argument with an empty
 * name and value (both versions; a trailing '&' gives none), and names
 * and values URL-decoded as ModSecurity does ('+' is a space, %XX a byte,
 * a malformed escape kept as it is).  Cookies are the Cookie headers
 * split on ';', empty pieces and empty names skipped, a name's leading
 * whitespace trimmed, nothing else (a value keeps its spaces), not
 * decoded: libmodsecurity3's addRequestHeader and mod_security2's
 * parse_cookies_v0; v2 splits on ',' instead when the header has no ';'
 * and a ", " (modsecurity.c).
 */
#ifndef RXB_HTTP_REQ_H
#define RXB_HTTP_REQ_H

#include <stddef.h>

#include "corpora/modsec.h"

/* Bytes in the payload, or in the request's own buffer. */
struct http_span {
	const char *p;
	size_t n;
};

struct http_pair {
	struct http_span name, value;
};

struct http_pairs {
	struct http_pair *v;
	size_t n, cap;
};

enum http_body {
	HTTP_BODY_NONE,  /* no body */
	HTTP_BODY_FORM,  /* application/x-www-form-urlencoded...: ARGS_POST */
	HTTP_BODY_OTHER, /* any other type: REQUEST_BODY only */
	HTTP_BODY_JSON,  /* application/json... under v3: args_json */
};

/* A variable the request target gives, as q->modsec reads it. */
struct http_var {
	struct http_span v;
	int set; /* 0: the variable has no value (v2's CONNECT) */
};

/* A parsed request; its spans stay valid until the next parse. */
struct http_req {
	struct http_span line;     /* the request line without CRLF */
	struct http_span method, target, protocol;
	struct http_span path;     /* target up to '?' or '#', as sent */
	struct http_var query;     /* QUERY_STRING: after '?', up to '#' */
	struct http_var uri, filename, basename; /* REQUEST_URI, _FILENAME,
						    _BASENAME (see above) */
	struct http_var uri2, filename2, basename2; /* the same from phase 2
						       on: v2's Apache path;
						       v3: the same values */
	int v2_phase2_refused;     /* v2: Apache refuses the path after
				      phase 1: no phase 2 to 4 runs */
	struct http_span body;
	enum http_body body_kind;
	struct http_pairs headers, cookies, args_get, args_post;
	struct http_pairs args_json; /* a JSON body's: ARGS, not ARGS_POST */
	char *buf;                 /* decoded args, target, folded headers,
				      a de-chunked body */
	size_t buf_len, buf_cap;
	char *jbuf;                /* args_json's names and values */
	size_t jbuf_len, jbuf_cap;
	char json_error[96];       /* "" or where yajl stops ("byte 7: no
				      key in an object": REQBODY_ERROR) */
	/* the ModSecurity whose reading the parse follows: MODSEC_DEFAULT
	   after http_req_init(); set it before a parse, which keeps it */
	enum modsec_version modsec;
};

void http_req_init(struct http_req *q);
void http_req_release(struct http_req *q);

/*
 * Parse p[0..len) into q (whatever q held before is dropped).  0; 1 when
 * the payload is not one whole request, with the reason in why ("line 2:
 * a NUL byte in a header value"); -1 out of memory.
 */
int http_req_parse(struct http_req *q, const char *p, size_t len, char *why,
		   size_t size);

/*
 * URL-decode s[0..n) into out (n bytes at least) as ModSecurity's
 * urlDecode: '+' is a space, %XX a byte, a '%' not followed by two hex
 * digits kept.  Returns the decoded length.
 */
size_t http_url_decode(const char *s, size_t n, char *out);

#endif

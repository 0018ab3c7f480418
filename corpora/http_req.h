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
 * payload (no Content-Length: no body); chunked bodies, multipart and XML
 * bodies are not parsed, and so such payloads are not requests here.
 *
 * Arguments (ARGS_GET from the query, ARGS_POST from an
 * application/x-www-form-urlencoded body) are split on '&', empty pieces
 * skipped, a piece without '=' a name with an empty value, and names and
 * values URL-decoded as ModSecurity does ('+' is a space, %XX a byte, a
 * malformed escape kept as it is).  Cookies are the Cookie headers split
 * on ';' and trimmed of SP and HTAB (ModSecurity's version 0 cookies),
 * not decoded.
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
	HTTP_BODY_FORM,  /* application/x-www-form-urlencoded: ARGS_POST */
	HTTP_BODY_OTHER, /* any other type: REQUEST_BODY only */
};

/* A parsed request; its spans stay valid until the next parse. */
struct http_req {
	struct http_span line;     /* the request line without CRLF */
	struct http_span method, target, protocol;
	struct http_span path;     /* target up to '?' */
	struct http_span query;    /* after '?'; n 0 when none */
	struct http_span body;
	enum http_body body_kind;
	struct http_pairs headers, cookies, args_get, args_post;
	char *buf;                 /* decoded args and folded headers */
	size_t buf_len, buf_cap;
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

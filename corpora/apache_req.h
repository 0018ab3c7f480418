/*
 * apache_req.h - what Apache httpd 2.4 (Debian 12's 2.4.71, its default
 * configuration: HttpProtocolOptions Strict, MergeSlashes On,
 * AllowEncodedSlashes Off) does to a request before and between
 * mod_security2's phases, for the payload suite's --modsec=2 reading
 * (corpora/http_req.h, corpora/waf.h).  rxbench's own code, written from
 * reading Apache's server/protocol.c, server/vhost.c, server/request.c,
 * server/util.c and APR 1.7's uri/apr_uri.c; each function names the
 * ones it follows.
 *
 * Three things, each on bytes (a request target has no NUL, blank or
 * control byte: corpora/http_req.c refuses those first):
 *   refusals   the request line Apache answers 400 before any phase
 *              runs: apache_target_refused();
 *   Host       the value an absolute-form "http://" or CONNECT target
 *              gives the Host header before phase 1 (V1 of the
 *              findings): apache_target_host();
 *   the path   the path phase 2 on sees, Apache having normalised and
 *              decoded it in place after phase 1 (V2), or the status
 *              with which Apache stops after phase 1:
 *              apache_phase2_path().
 * Each returns 0 or Apache's status (400, 404) with why naming Apache's
 * log message number and its reason; why is always a string.
 */
#ifndef RXB_APACHE_REQ_H
#define RXB_APACHE_REQ_H

#include <stddef.h>

/*
 * Does Apache refuse the request line "METHOD TARGET" before phase 1
 * (ap_parse_request_line after ap_parse_uri and apr_uri_parse /
 * apr_uri_parse_hostinfo for CONNECT)?  0 when it takes it; 400 with why
 * for AH03450 (the target does not parse: a port that is not digits, an
 * unclosed '[', a ':' before any '/' in a target without scheme (APR
 * 1.7: "?a:b"), a CONNECT target without ":port"; or a path not starting
 * with '/' other than OPTIONS's "*"), AH02421 (a '#fragment', refused
 * under HttpProtocolOptions Strict) and AH02422 (user@ in the
 * authority).
 */
int apache_target_refused(const char *method, size_t mn, const char *t,
			  size_t tn, char *why, size_t size);

/*
 * The Host header's value Apache puts in r->headers_in when the target
 * names a host (ap_parse_uri: an "http://" target, the scheme without
 * case, or CONNECT's host:port; ap_update_vhost_from_headers_ex and
 * construct_host_header): the host lowercased with one trailing '.'
 * dropped (fix_hostname), an IPv6 literal in its brackets, then ':' and
 * the port as written when the target has a ':'.  The target must be one
 * apache_target_refused() takes.  Returns 0 when the target names no
 * host (the Host header stays as sent); 1 with host[0..*hn) (tn bytes at
 * least); 400 with why when Apache refuses that host before phase 1
 * (AH02416 a purely numeric name, AH00550 a malformed one under
 * HttpProtocolOptions Strict: strict_hostname_check).  Apache replaces
 * the Host header only when the request has one; it adds none.
 */
int apache_target_host(const char *method, size_t mn, const char *t,
		       size_t tn, char *host, size_t *hn, char *why,
		       size_t size);

/*
 * The path phase 2 on sees (mod_security2 reads r->parsed_uri.path), from
 * the path p[0..n) phase 1 sees (parsed_uri.path as sent: after '//'
 * collapsing, without scheme://authority, up to '?' or '#'; n > 0):
 * ap_process_request_internal's ap_normalize_path (NOT_ABOVE_ROOT,
 * MERGE_SLASHES, DECODE_UNRESERVED: %XX of ALPHA DIGIT - . _ ~ decoded,
 * '//' merged, "/./" and "/x/../" removed, ".%2e" counted as "..") then
 * ap_unescape_url_ex (KEEP_UNRESERVED, FORBID_SLASHES: every other %XX
 * decoded, '+' kept).  Its second ap_normalize_path runs only under
 * AllowEncodedSlashes On, not the default.  0 with out[0..*on) (n + 1
 * bytes at least); 400 with why (AH10244: "/../" above the root, a '%'
 * without two hex digits, a path not starting with '/') or 404 (AH00026:
 * %2f or %00), after which Apache runs no phase 2 to 4, and out[0..*on)
 * is the path as Apache left it, which phase 5 (logging) sees: rewritten
 * by the steps that ran, up to a decoded NUL.
 */
int apache_phase2_path(const char *p, size_t n, char *out, size_t *on,
		       char *why, size_t size);

/*
 * Does Apache refuse the folded header line l[0..n) (starting with SP or
 * HTAB) before phase 1?  1 when it holds only SP and HTAB (ap_get_mime_
 * headers_core: AH03443 "Empty folded line encountered"), else 0.
 */
int apache_fold_refused(const char *l, size_t n);

/* The reason apache_fold_refused() stands for, for a "line N: " why. */
#define APACHE_FOLD_WHY \
	"Apache refuses an empty folded line (AH03443, 400 before phase 1)"

#endif

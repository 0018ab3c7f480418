/*
 * waf.h - ModSecurity rules on the parts of a request they name: a
 * rule's VARIABLES and its transformations (t:...) read from its SecRule
 * (corpora/rules.h keeps both texts), and the values they give for one
 * parsed request (corpora/http_req.h), transformed, for a matcher to test.
 *
 * Variables rxbench fills, as the version chosen (modsec.h) reads them
 * (corpora/http_req.h says how each reads the target):
 *   REQUEST_LINE, REQUEST_METHOD, REQUEST_PROTOCOL, REQUEST_URI_RAW (the
 *   target as sent, '#fragment' and all), REQUEST_URI, REQUEST_FILENAME,
 *   REQUEST_BASENAME (v3: %-decoded; v2: as sent in phase 1, from
 *   phase 2 on Apache's normalised and decoded path), QUERY_STRING,
 *   REQUEST_BODY (the raw body: v2 fills it for other than form bodies
 *   only as CRS's rule 901340 forces it), and the collections ARGS,
 *   ARGS_GET, ARGS_POST, REQUEST_HEADERS, REQUEST_COOKIES and their
 *   _NAMES.  XML (all its XPaths) is empty: ModSecurity fills it only for
 *   XML bodies, which the parser refuses.  v3 gives a scalar variable a
 *   value even when it is unset (""), v2 none (QUERY_STRING without '?',
 *   REQUEST_BODY without a body, v2's CONNECT path variables).
 * Under v2 a request whose path Apache refuses after phase 1 (400, 404:
 * corpora/apache_req.h, http_req.v2_phase2_refused) gives a rule of
 * phases 2 to 4 no value at all: Apache runs none of them; phase 5
 * (logging) still runs and sees the path as Apache left it.  Not
 * modelled: that phase 5 then sees no body variables either (phase 2
 * read no body); rxbench's phase 5 sees them.
 * Phase (phase:1 to 5, or request, response, logging; default 2): a phase
 * 1 rule runs before the body is read, so it sees ARGS as the query's
 * arguments only, no ARGS_POST and no REQUEST_BODY (v3: ""); phases 3 to
 * 5 see what phase 2 sees.  phase:0 is unsupported (no request yet).
 * A collection takes a selector: VAR:name (that element, names compared
 * without case) or VAR:/re/ where re is plain letters, digits, '_', '-'
 * and '.' (elements whose name contains it, without case: CRS's
 * !REQUEST_COOKIES:/__utm/); '!' before one leaves those elements out of
 * the collection.  Anything else is unsupported, named: TX and the other
 * variables of the rule engine's own state, '&' (counts), other regex
 * selectors, FILES and the multipart variables.
 *
 * Transformations: none, lowercase, urlDecode, urlDecodeUni (%uXXXX as
 * its low byte, plus 0x20 for the full-width forms FF01-FF5E, as without
 * a unicode map), htmlEntityDecode (&#DDD; &#xHH; &quot; &amp; &lt; &gt;
 * &nbsp;, ';' optional, a numeric entity its low byte), removeNulls, the
 * same in both versions; removeWhitespace (isspace and NBSP 0xa0; v3
 * drops every 0xc2 byte too) and compressWhitespace (a run of isspace,
 * and in v2 of NBSP too, becomes one space; v3 3.0.9 leaves 0xa0).
 * Any other, and the multiMatch action, make the rule unsupported, named.
 */
#ifndef RXB_WAF_H
#define RXB_WAF_H

#include <stddef.h>

#include "corpora/http_req.h"

enum waf_tfn {
	WAF_T_LOWERCASE,
	WAF_T_URLDECODE,
	WAF_T_URLDECODEUNI,
	WAF_T_HTMLENTITYDECODE,
	WAF_T_REMOVENULLS,
	WAF_T_REMOVEWHITESPACE,
	WAF_T_COMPRESSWHITESPACE,
};

#define WAF_MAX_TARGETS 32
#define WAF_MAX_TFNS 16
#define WAF_NAME 64

struct waf_target {
	unsigned char var;     /* enum waf_var (waf.c) */
	unsigned char exclude; /* '!': leave the selected elements out */
	unsigned char sel;     /* enum waf_sel (waf.c) */
	char name[WAF_NAME];   /* the selector */
};

/* What one rule reads: its targets and transformations. */
struct waf_spec {
	struct waf_target t[WAF_MAX_TARGETS];
	size_t nt;
	unsigned char tfn[WAF_MAX_TFNS]; /* enum waf_tfn, in order */
	size_t ntfn;
	enum modsec_version modsec; /* whose reading (waf_spec_parse()) */
	unsigned char phase;        /* 1 to 5 (phase:, default 2) */
};

/*
 * Read a SecRule's VARIABLES and actions (its transformations and phase)
 * into w as ModSecurity version v does.  0; 1 when rxbench cannot read
 * them faithfully, with why naming the variable, selector,
 * transformation or action ("transformation t:jsDecode", "phase:0").
 */
int waf_spec_parse(const char *vars, const char *actions,
		   enum modsec_version v, struct waf_spec *w, char *why,
		   size_t size);

/* Do two specs read the same values (one compiled set for both)? */
int waf_spec_same(const struct waf_spec *a, const struct waf_spec *b);

/* A buffer for transformed values, grown as needed. */
struct waf_scratch {
	char *p;
	size_t cap;
};

/*
 * Call fn(arg, value, len) on each value of w's targets in q, after w's
 * transformations, until fn returns non-zero; returns that, 0 when every
 * value was seen (none: 0 too), or -1 out of memory.
 */
int waf_each(const struct waf_spec *w, const struct http_req *q,
	     struct waf_scratch *s,
	     int (*fn)(void *arg, const char *v, size_t n), void *arg);

void waf_scratch_release(struct waf_scratch *s);

/*
 * Apply transformation t to in[0..n) into out (n bytes at least: none of
 * these makes a value longer) as ModSecurity version v does.  Returns
 * the new length.
 */
size_t waf_transform(enum waf_tfn t, enum modsec_version v, const char *in,
		     size_t n, char *out);

/* "lowercase" -> WAF_T_LOWERCASE; -1 when rxbench does not apply it. */
int waf_tfn_parse(const char *name, size_t len);

#endif

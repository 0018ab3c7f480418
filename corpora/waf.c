/*
 * waf.c - ModSecurity variables and transformations on a parsed request
 * (see waf.h).
 */
#define _GNU_SOURCE
#include "corpora/waf.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* ---- transformations (ModSecurity 2's msre_fn_* semantics) ---- */

#define NBSP 0xa0

static const struct {
	const char *name;
	enum waf_tfn t;
} tfns[] = {
	{"lowercase", WAF_T_LOWERCASE},
	{"urlDecode", WAF_T_URLDECODE},
	{"urlDecodeUni", WAF_T_URLDECODEUNI},
	{"htmlEntityDecode", WAF_T_HTMLENTITYDECODE},
	{"removeNulls", WAF_T_REMOVENULLS},
	{"removeWhitespace", WAF_T_REMOVEWHITESPACE},
	{"compressWhitespace", WAF_T_COMPRESSWHITESPACE},
};

int waf_tfn_parse(const char *name, size_t len)
{
	for (size_t i = 0; i < sizeof(tfns) / sizeof(tfns[0]); i++)
		if (strlen(tfns[i].name) == len &&
		    strncasecmp(tfns[i].name, name, len) == 0)
			return (int)tfns[i].t;
	return -1;
}

static int hexd(unsigned char c)
{
	return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') ||
	       (c >= 'A' && c <= 'F');
}

static unsigned char x2c(const char *p)
{
	unsigned char a = (unsigned char)p[0], b = (unsigned char)p[1];
	int hi = a <= '9' ? a - '0' : (a | 0x20) - 'a' + 10;
	int lo = b <= '9' ? b - '0' : (b | 0x20) - 'a' + 10;

	return (unsigned char)(hi * 16 + lo);
}

/* C-locale isspace. */
static int c_space(unsigned char c)
{
	return c == ' ' || (c >= '\t' && c <= '\r');
}

/*
 * A space to compressWhitespace: isspace, and in v2 NBSP too
 * (re_tfns.c msre_fn_compressWhitespace_execute); v3 3.0.9's
 * CompressWhitespace::evaluate tests isspace on a signed char only, 0xa0
 * not one in the C locale a connector runs in.
 */
static int compress_ws(unsigned char c, enum modsec_version v)
{
	return c_space(c) || (v == MODSEC_V2 && c == NBSP);
}

/*
 * A byte removeWhitespace drops: isspace or NBSP (v2's
 * msre_fn_removeWhitespace_execute), and in v3 every 0xc2 byte too
 * (RemoveWhitespace::evaluate drops both bytes of UTF-8's NBSP, c2 a0,
 * wherever they stand).
 */
static int remove_ws(unsigned char c, enum modsec_version v)
{
	return c_space(c) || c == NBSP || (v == MODSEC_V3 && c == 0xc2);
}

/* %uXXXX at in[i] (6 bytes there, all hex): its low byte, full-width
 * ASCII shifted. */
static unsigned char uni_byte(const char *in, size_t i)
{
	unsigned char d = x2c(in + i + 4);

	if (d > 0x00 && d < 0x5f && (in[i + 2] | 0x20) == 'f' &&
	    (in[i + 3] | 0x20) == 'f')
		d += 0x20;
	return d;
}

static size_t url_decode(const char *in, size_t n, char *out, int uni)
{
	size_t i = 0, o = 0;

	while (i < n) {
		if (in[i] != '%') {
			out[o++] = in[i] == '+' ? ' ' : in[i];
			i++;
		} else if (uni && i + 1 < n && (in[i + 1] | 0x20) == 'u') {
			if (i + 5 < n && hexd((unsigned char)in[i + 2]) &&
			    hexd((unsigned char)in[i + 3]) &&
			    hexd((unsigned char)in[i + 4]) &&
			    hexd((unsigned char)in[i + 5])) {
				out[o++] = (char)uni_byte(in, i);
				i += 6;
			} else { /* keep "%u", go on after it */
				out[o++] = in[i++];
				out[o++] = in[i++];
			}
		} else if (i + 2 < n && hexd((unsigned char)in[i + 1]) &&
			   hexd((unsigned char)in[i + 2])) {
			out[o++] = (char)x2c(in + i + 1);
			i += 3;
		} else {
			out[o++] = in[i++];
		}
	}
	return o;
}

/* strtol's low byte on digits d[0..n) in base b: saturates at LONG_MAX. */
static unsigned char entity_byte(const char *d, size_t n, int b)
{
	unsigned long v = 0;

	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)d[i];
		int x = c <= '9' ? c - '0' : (c | 0x20) - 'a' + 10;
		if (v > (0x7fffffffffffffffUL - (unsigned long)x) / (unsigned long)b)
			return 0xff;
		v = v * (unsigned long)b + (unsigned long)x;
	}
	return (unsigned char)v;
}

static const struct {
	const char *name;
	unsigned char c;
} entities[] = {
	{"quot", '"'}, {"amp", '&'}, {"lt", '<'}, {"gt", '>'}, {"nbsp", NBSP},
};

/*
 * One entity at in[i] ('&', a byte after it): its byte into *c and the
 * index after it (and its optional ';'); else 0 with *copy the bytes
 * to copy as they are.
 */
static size_t entity_at(const char *in, size_t n, size_t i, unsigned char *c,
			size_t *copy)
{
	size_t k = i + 1, j;
	int hex = 0;

	*copy = 1;
	if (in[k] == '#') {
		*copy = 2;
		if (k + 1 >= n)
			return 0;
		k++;
		if ((in[k] | 0x20) == 'x') {
			*copy = 3;
			if (k + 1 >= n)
				return 0;
			k++;
			hex = 1;
		}
		for (j = k; j < n && (hex ? hexd((unsigned char)in[j])
					  : in[j] >= '0' && in[j] <= '9'); j++)
			;
		if (j == k)
			return 0;
		*c = entity_byte(in + k, j - k, hex ? 16 : 10);
	} else {
		for (j = k; j < n && ((in[j] | 0x20) >= 'a' && (in[j] | 0x20) <= 'z'
				      ? 1 : in[j] >= '0' && in[j] <= '9'); j++)
			;
		if (j == k)
			return 0;
		size_t e = 0;
		while (e < sizeof(entities) / sizeof(entities[0]) &&
		       (strlen(entities[e].name) != j - k ||
			strncasecmp(entities[e].name, in + k, j - k) != 0))
			e++;
		if (e == sizeof(entities) / sizeof(entities[0])) {
			*copy = j - k + 1;
			return 0;
		}
		*c = entities[e].c;
	}
	return j < n && in[j] == ';' ? j + 1 : j;
}

static size_t html_decode(const char *in, size_t n, char *out)
{
	size_t i = 0, o = 0;

	while (i < n) {
		size_t copy = 1, next = 0;
		unsigned char c;
		if (in[i] == '&' && i + 1 < n)
			next = entity_at(in, n, i, &c, &copy);
		if (next != 0) {
			out[o++] = (char)c;
			i = next;
			continue;
		}
		for (size_t z = 0; z < copy && i < n; z++)
			out[o++] = in[i++];
	}
	return o;
}

size_t waf_transform(enum waf_tfn t, enum modsec_version v, const char *in,
		     size_t n, char *out)
{
	size_t o = 0;
	int inws = 0;

	switch (t) {
	case WAF_T_URLDECODE:
		return url_decode(in, n, out, 0);
	case WAF_T_URLDECODEUNI:
		return url_decode(in, n, out, 1);
	case WAF_T_HTMLENTITYDECODE:
		return html_decode(in, n, out);
	case WAF_T_LOWERCASE:
		for (; o < n; o++)
			out[o] = in[o] >= 'A' && in[o] <= 'Z' ? (char)(in[o] | 0x20)
							    : in[o];
		return n;
	case WAF_T_REMOVENULLS:
		for (size_t i = 0; i < n; i++)
			if (in[i] != '\0')
				out[o++] = in[i];
		return o;
	case WAF_T_REMOVEWHITESPACE:
		for (size_t i = 0; i < n; i++)
			if (!remove_ws((unsigned char)in[i], v))
				out[o++] = in[i];
		return o;
	case WAF_T_COMPRESSWHITESPACE:
		for (size_t i = 0; i < n; i++) {
			int w = compress_ws((unsigned char)in[i], v);
			if (!w || !inws)
				out[o++] = w ? ' ' : in[i];
			inws = w;
		}
		return o;
	}
	return 0;
}

/* ---- variables ---- */

enum waf_var {
	V_REQUEST_LINE,
	V_REQUEST_METHOD,
	V_REQUEST_PROTOCOL,
	V_REQUEST_URI,
	V_REQUEST_URI_RAW,
	V_REQUEST_FILENAME,
	V_REQUEST_BASENAME,
	V_QUERY_STRING,
	V_REQUEST_BODY,
	V_XML,
	/* collections from here */
	V_ARGS,
	V_ARGS_NAMES,
	V_ARGS_GET,
	V_ARGS_GET_NAMES,
	V_ARGS_POST,
	V_ARGS_POST_NAMES,
	V_REQUEST_HEADERS,
	V_REQUEST_HEADERS_NAMES,
	V_REQUEST_COOKIES,
	V_REQUEST_COOKIES_NAMES,
};

enum waf_sel { SEL_NONE, SEL_NAME, SEL_CONTAINS };

static const char *const var_names[] = {
	[V_REQUEST_LINE] = "REQUEST_LINE",
	[V_REQUEST_METHOD] = "REQUEST_METHOD",
	[V_REQUEST_PROTOCOL] = "REQUEST_PROTOCOL",
	[V_REQUEST_URI] = "REQUEST_URI",
	[V_REQUEST_URI_RAW] = "REQUEST_URI_RAW",
	[V_REQUEST_FILENAME] = "REQUEST_FILENAME",
	[V_REQUEST_BASENAME] = "REQUEST_BASENAME",
	[V_QUERY_STRING] = "QUERY_STRING",
	[V_REQUEST_BODY] = "REQUEST_BODY",
	[V_XML] = "XML",
	[V_ARGS] = "ARGS",
	[V_ARGS_NAMES] = "ARGS_NAMES",
	[V_ARGS_GET] = "ARGS_GET",
	[V_ARGS_GET_NAMES] = "ARGS_GET_NAMES",
	[V_ARGS_POST] = "ARGS_POST",
	[V_ARGS_POST_NAMES] = "ARGS_POST_NAMES",
	[V_REQUEST_HEADERS] = "REQUEST_HEADERS",
	[V_REQUEST_HEADERS_NAMES] = "REQUEST_HEADERS_NAMES",
	[V_REQUEST_COOKIES] = "REQUEST_COOKIES",
	[V_REQUEST_COOKIES_NAMES] = "REQUEST_COOKIES_NAMES",
};

#define NVARS (sizeof(var_names) / sizeof(var_names[0]))

static int var_find(const char *s, size_t n)
{
	for (size_t v = 0; v < NVARS; v++)
		if (strlen(var_names[v]) == n && strncasecmp(var_names[v], s, n) == 0)
			return (int)v;
	return -1;
}

/* A selector's text into t: a name, or /plain/.  0, or 1 with why. */
static int selector(const char *s, size_t n, struct waf_target *t, char *why,
		    size_t size)
{
	if (n >= 2 && s[0] == '\'' && s[n - 1] == '\'') {
		s++;
		n -= 2;
	}
	t->sel = SEL_NAME;
	if (n >= 2 && s[0] == '/' && s[n - 1] == '/') {
		s++;
		n -= 2;
		t->sel = SEL_CONTAINS;
		for (size_t i = 0; i < n; i++)
			if (!((s[i] | 0x20) >= 'a' && (s[i] | 0x20) <= 'z') &&
			    !(s[i] >= '0' && s[i] <= '9') && !strchr("_-.", s[i])) {
				snprintf(why, size, "a regex selector (/%.*s/)",
					 (int)(n > 40 ? 40 : n), s);
				return 1;
			}
	}
	if (n == 0 || n >= WAF_NAME) {
		snprintf(why, size, "an empty or long selector");
		return 1;
	}
	memcpy(t->name, s, n);
	t->name[n] = '\0';
	return 0;
}

/* One '|'-separated item of VARIABLES into w.  0, or 1 with why. */
static int target(const char *s, size_t n, struct waf_spec *w, char *why,
		  size_t size)
{
	struct waf_target t = {0, 0, SEL_NONE, ""};
	const char *colon;
	int v;

	if (n > 0 && s[0] == '&') {
		snprintf(why, size, "a count (%.*s)", (int)(n > 40 ? 40 : n), s);
		return 1;
	}
	if (n > 0 && s[0] == '!') {
		t.exclude = 1;
		s++;
		n--;
	}
	colon = memchr(s, ':', n);
	v = var_find(s, colon ? (size_t)(colon - s) : n);
	if (v < 0) {
		snprintf(why, size, "variable %.*s",
			 (int)(colon ? colon - s : (long)(n > 40 ? 40 : n)), s);
		return 1;
	}
	t.var = (unsigned char)v;
	if (v == V_XML) { /* XML:/ * : empty, XML bodies are refused */
		if (t.exclude)
			return 0;
	} else if (colon != NULL) {
		if (v < V_ARGS) {
			snprintf(why, size, "a selector on %s", var_names[v]);
			return 1;
		}
		if (selector(colon + 1, (size_t)(s + n - colon - 1), &t, why,
			     size) != 0)
			return 1;
	} else if (t.exclude) {
		snprintf(why, size, "a whole variable left out (!%s)",
			 var_names[v]);
		return 1;
	}
	if (w->nt == WAF_MAX_TARGETS) {
		snprintf(why, size, "more than %d variables", WAF_MAX_TARGETS);
		return 1;
	}
	w->t[w->nt++] = t;
	return 0;
}

/*
 * phase:P (a, n: after "phase:") into w: 1 to 5, or request (2), response
 * (4), logging (5) without case; a number read as atoi/stoi do (its
 * leading digits).  0, or 1 with why for phase 0 (no request yet) and
 * what neither version takes.  (v3: actions/phase.cc Phase::init; v2:
 * re_actions.c msre_action_phase_init.)
 */
static int phase(const char *a, size_t n, struct waf_spec *w, char *why,
		 size_t size)
{
	static const struct { const char *name; unsigned char p; } names[] = {
		{"request", 2}, {"response", 4}, {"logging", 5},
	};
	unsigned p = 0;
	size_t d = 0;

	if (n >= 2 && a[0] == '\'' && a[n - 1] == '\'') {
		a++;
		n -= 2;
	}
	for (; d < n && d < 3 && a[d] >= '0' && a[d] <= '9'; d++)
		p = p * 10 + (unsigned)(a[d] - '0');
	for (size_t i = 0; d == 0 && i < sizeof(names) / sizeof(names[0]); i++)
		if (strlen(names[i].name) == n &&
		    strncasecmp(names[i].name, a, n) == 0)
			p = names[i].p;
	if (p < 1 || p > 5) {
		snprintf(why, size, "phase:%.*s", (int)(n > 20 ? 20 : n), a);
		return 1;
	}
	w->phase = (unsigned char)p;
	return 0;
}

/* Action `a` (len n): a transformation or phase into w, or multiMatch.
 * 0 or 1. */
static int action(const char *a, size_t n, struct waf_spec *w, char *why,
		  size_t size)
{
	int t;

	while (n > 0 && (*a == ' ' || *a == '\t')) {
		a++;
		n--;
	}
	if (n == 10 && strncasecmp(a, "multiMatch", 10) == 0) {
		snprintf(why, size, "action multiMatch");
		return 1;
	}
	if (n > 6 && strncasecmp(a, "phase:", 6) == 0)
		return phase(a + 6, n - 6, w, why, size);
	if (n < 2 || strncmp(a, "t:", 2) != 0)
		return 0;
	a += 2;
	n -= 2;
	if (n == 4 && strncasecmp(a, "none", 4) == 0) {
		w->ntfn = 0;
		return 0;
	}
	t = waf_tfn_parse(a, n);
	if (t < 0 || w->ntfn == WAF_MAX_TFNS) {
		snprintf(why, size, "transformation t:%.*s",
			 (int)(n > 40 ? 40 : n), a);
		return 1;
	}
	w->tfn[w->ntfn++] = (unsigned char)t;
	return 0;
}

/* The length of the action at a: to a ',' outside '...'. */
static size_t action_len(const char *a)
{
	size_t i = 0;
	int quoted = 0;

	for (; a[i] != '\0' && (quoted || a[i] != ','); i++)
		if (a[i] == '\'' && (i == 0 || a[i - 1] != '\\'))
			quoted = !quoted;
	return i;
}

int waf_spec_parse(const char *vars, const char *actions,
		   enum modsec_version v, struct waf_spec *w, char *why,
		   size_t size)
{
	memset(w, 0, sizeof(*w));
	w->modsec = v;
	w->phase = 2; /* both versions' default */
	why[0] = '\0';
	for (const char *p = vars; *p != '\0';) {
		size_t n = strcspn(p, "|");
		if (target(p, n, w, why, size) != 0)
			return 1;
		p += n + (p[n] == '|');
	}
	for (const char *a = actions; a != NULL && *a != '\0';) {
		size_t n = action_len(a);
		if (action(a, n, w, why, size) != 0)
			return 1;
		a += n + (a[n] == ',');
	}
	return 0;
}

int waf_spec_same(const struct waf_spec *a, const struct waf_spec *b)
{
	if (a->modsec != b->modsec || a->phase != b->phase || a->nt != b->nt ||
	    a->ntfn != b->ntfn ||
	    memcmp(a->tfn, b->tfn, a->ntfn) != 0)
		return 0;
	for (size_t i = 0; i < a->nt; i++)
		if (a->t[i].var != b->t[i].var ||
		    a->t[i].exclude != b->t[i].exclude ||
		    a->t[i].sel != b->t[i].sel ||
		    strcmp(a->t[i].name, b->t[i].name) != 0)
			return 0;
	return 1;
}

/* ---- values ---- */

void waf_scratch_release(struct waf_scratch *s)
{
	free(s->p);
	s->p = NULL;
	s->cap = 0;
}

/* Transform v and hand it to fn. */
static int emit(const struct waf_spec *w, struct http_span v,
		struct waf_scratch *s,
		int (*fn)(void *arg, const char *v, size_t n), void *arg)
{
	if (w->ntfn == 0)
		return fn(arg, v.p, v.n);
	if (s->cap < v.n + 1) {
		char *p = realloc(s->p, v.n + 64);
		if (p == NULL)
			return -1;
		s->p = p;
		s->cap = v.n + 64;
	}
	memcpy(s->p, v.p, v.n);
	for (size_t i = 0; i < w->ntfn; i++)
		v.n = waf_transform((enum waf_tfn)w->tfn[i], w->modsec, s->p,
				    v.n, s->p);
	return fn(arg, s->p, v.n);
}

static int sel_match(const struct waf_target *t, struct http_span name)
{
	size_t n = strlen(t->name);

	if (t->sel == SEL_NAME)
		return name.n == n && strncasecmp(name.p, t->name, n) == 0;
	for (size_t i = 0; i + n <= name.n; i++)
		if (strncasecmp(name.p + i, t->name, n) == 0)
			return 1;
	return 0;
}

/* Element e of collection var left out by an exclusion of w? */
static int excluded(const struct waf_spec *w, int var, struct http_span name)
{
	for (size_t i = 0; i < w->nt; i++)
		if (w->t[i].exclude && w->t[i].var == var &&
		    sel_match(&w->t[i], name))
			return 1;
	return 0;
}

/*
 * The collection(s) a variable reads in phase ph, and whether it gives
 * names.  Phase 1 runs before the body is read: ARGS holds the query's
 * arguments only, ARGS_POST nothing (both versions add the body's
 * arguments in phase 2's request body processing).  A JSON body's
 * arguments are ARGS and ARGS_NAMES only: libmodsecurity3 adds them
 * with origin "JSON", which fills neither ARGS_POST nor ARGS_GET
 * (Transaction::addArgument).
 */
static size_t collections(const struct http_req *q, int var, unsigned ph,
			  const struct http_pairs **c, int *names)
{
	*names = var == V_ARGS_NAMES || var == V_ARGS_GET_NAMES ||
		 var == V_ARGS_POST_NAMES || var == V_REQUEST_HEADERS_NAMES ||
		 var == V_REQUEST_COOKIES_NAMES;
	switch (var) {
	case V_ARGS: case V_ARGS_NAMES:
		c[0] = &q->args_get;
		c[1] = &q->args_post;
		c[2] = &q->args_json;
		return ph >= 2 ? 3 : 1;
	case V_ARGS_GET: case V_ARGS_GET_NAMES:
		c[0] = &q->args_get;
		return 1;
	case V_ARGS_POST: case V_ARGS_POST_NAMES:
		c[0] = &q->args_post;
		return ph >= 2 ? 1 : 0;
	case V_REQUEST_HEADERS: case V_REQUEST_HEADERS_NAMES:
		c[0] = &q->headers;
		return 1;
	default:
		c[0] = &q->cookies;
		return 1;
	}
}

static int each_element(const struct waf_spec *w, const struct waf_target *t,
			const struct http_req *q, struct waf_scratch *s,
			int (*fn)(void *arg, const char *v, size_t n), void *arg)
{
	const struct http_pairs *c[3];
	int names, rc;
	size_t nc = collections(q, t->var, w->phase, c, &names);

	for (size_t k = 0; k < nc; k++)
		for (size_t i = 0; i < c[k]->n; i++) {
			const struct http_pair *e = &c[k]->v[i];
			if ((t->sel != SEL_NONE && !sel_match(t, e->name)) ||
			    excluded(w, t->var, e->name))
				continue;
			rc = emit(w, names ? e->name : e->value, s, fn, arg);
			if (rc != 0)
				return rc;
		}
	return 0;
}

/*
 * The value of a scalar variable in w's phase into *v; 0 when it has
 * none.  v3 gives every variable a value ("" when unset: its
 * AnchoredVariable::evaluate), REQUEST_BODY too (the body from phase 2
 * on, when there is one); v2 none where its generator finds NULL: no
 * query, no body, or phase 1 for the body (re_variables.c).
 */
static int scalar(const struct waf_spec *w, const struct http_req *q, int var,
		  struct http_span *v)
{
	const struct http_var *u = NULL;
	int v3 = w->modsec != MODSEC_V2, body = w->phase >= 2 && q->body.n > 0;
	int late = !v3 && w->phase >= 2; /* Apache's path (apache_req.h) */

	switch (var) {
	case V_REQUEST_LINE: *v = q->line; return 1;
	case V_REQUEST_METHOD: *v = q->method; return 1;
	case V_REQUEST_PROTOCOL: *v = q->protocol; return 1;
	case V_REQUEST_URI_RAW: *v = q->target; return 1;
	case V_REQUEST_URI: u = late ? &q->uri2 : &q->uri; break;
	case V_REQUEST_FILENAME: u = late ? &q->filename2 : &q->filename; break;
	case V_REQUEST_BASENAME: u = late ? &q->basename2 : &q->basename; break;
	case V_QUERY_STRING: u = &q->query; break;
	default: /* V_REQUEST_BODY */
		*v = body ? q->body : (struct http_span){q->body.p, 0};
		return body || v3;
	}
	*v = u->v;
	return u->set;
}

int waf_each(const struct waf_spec *w, const struct http_req *q,
	     struct waf_scratch *s,
	     int (*fn)(void *arg, const char *v, size_t n), void *arg)
{
	if (w->modsec == MODSEC_V2 && w->phase >= 2 && w->phase <= 4 &&
	    q->v2_phase2_refused)
		return 0; /* Apache stopped after phase 1 (waf.h) */
	for (size_t i = 0; i < w->nt; i++) {
		const struct waf_target *t = &w->t[i];
		int rc = 0;
		if (t->exclude || t->var == V_XML)
			continue;
		struct http_span v;
		if (t->var >= V_ARGS)
			rc = each_element(w, t, q, s, fn, arg);
		else if (scalar(w, q, t->var, &v))
			rc = emit(w, v, s, fn, arg);
		if (rc != 0)
			return rc;
	}
	return 0;
}

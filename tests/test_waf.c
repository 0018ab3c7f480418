/*
 * test_waf.c - the HTTP request parser (corpora/http_req.h), ModSecurity
 * variables and transformations (corpora/waf.h): edge bytes, folded
 * headers, percent-encoding, and transformations against values worked
 * out by hand from ModSecurity 2's code.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>

#include "corpora/http_req.h"
#include "corpora/packets.h"
#include "corpora/waf.h"

/* Parse text (len: strlen when 0); the parser's return. */
static int parse(struct http_req *q, const char *text, size_t len, char *why)
{
	return http_req_parse(q, text, len ? len : strlen(text), why, 160);
}

static int span_eq(struct http_span s, const char *want)
{
	return s.n == strlen(want) && memcmp(s.p, want, s.n) == 0;
}

#define SPAN_EQ(s, want) \
	cr_expect(span_eq((s), (want)), "got \"%.*s\", want \"%s\"", \
		  (int)(s).n, (s).p, (want))

Test(http_req, a_whole_request)
{
	struct http_req q;
	char why[160];
	const char *req = "POST /a/b.php?x=1&y=%41+b&flag HTTP/1.1\r\n"
			  "Host: example.com\r\n"
			  "Content-Type: application/x-www-form-urlencoded; charset=utf-8\r\n"
			  "Cookie: s=1; __utma=2 ;bare\r\n"
			  "Content-Length: 11\r\n"
			  "\r\n"
			  "n%3d=v&&w=2";

	http_req_init(&q);
	cr_assert_eq(parse(&q, req, 0, why), 0, "%s", why);
	SPAN_EQ(q.method, "POST");
	SPAN_EQ(q.target, "/a/b.php?x=1&y=%41+b&flag");
	SPAN_EQ(q.path, "/a/b.php");
	SPAN_EQ(q.query.v, "x=1&y=%41+b&flag");
	SPAN_EQ(q.protocol, "HTTP/1.1");
	SPAN_EQ(q.line, "POST /a/b.php?x=1&y=%41+b&flag HTTP/1.1");
	cr_assert_eq(q.headers.n, 4);
	SPAN_EQ(q.headers.v[1].value,
		"application/x-www-form-urlencoded; charset=utf-8");
	cr_assert_eq(q.args_get.n, 3);
	SPAN_EQ(q.args_get.v[1].value, "A b");
	SPAN_EQ(q.args_get.v[2].name, "flag");
	SPAN_EQ(q.args_get.v[2].value, "");
	cr_assert_eq(q.body_kind, HTTP_BODY_FORM);
	/* the empty piece is an argument with an empty name (both versions) */
	cr_assert_eq(q.args_post.n, 3);
	SPAN_EQ(q.args_post.v[0].name, "n=");
	SPAN_EQ(q.args_post.v[1].name, "");
	SPAN_EQ(q.args_post.v[1].value, "");
	SPAN_EQ(q.args_post.v[2].value, "2");
	cr_assert_eq(q.cookies.n, 3);
	SPAN_EQ(q.cookies.v[1].name, "__utma");
	SPAN_EQ(q.cookies.v[1].value, "2 "); /* a value keeps its spaces */
	SPAN_EQ(q.cookies.v[2].name, "bare");
	SPAN_EQ(q.body, "n%3d=v&&w=2");
	http_req_release(&q);
}

Test(http_req, folded_headers_become_one_space)
{
	struct http_req q;
	char why[160];
	const char *req = "GET / HTTP/1.0\r\nX-A: one\r\n  two\r\n\tthree \r\n"
			  "X-B: b\r\n\r\n";

	http_req_init(&q);
	cr_assert_eq(parse(&q, req, 0, why), 0, "%s", why);
	cr_assert_eq(q.headers.n, 2);
	SPAN_EQ(q.headers.v[0].value, "one two three");
	SPAN_EQ(q.headers.v[1].value, "b");
	cr_expect_eq(parse(&q, "GET / HTTP/1.1\r\n folded\r\n\r\n", 0, why), 1);
	cr_expect(strstr(why, "a folded line before any header") != NULL, "%s",
		  why);
	http_req_release(&q);
}

/* Each payload is not a request, for the reason given. */
Test(http_req, strict_about_edge_bytes)
{
	static const struct {
		const char *text;
		size_t len; /* 0: strlen */
		const char *why;
	} bad[] = {
		{"GET / HTTP/1.1\r\nHost: a\r\n", 0, "no end of the head"},
		{"GET / HTTP/1.1\r\nHost: a\r\n\r", 0, "a CR not followed by LF"},
		{"GET / HTTP/1.1", 0, "no end of the head"},
		{"GET / HTTP/1.1\nHost: a\n\n", 0, "a bare LF"},
		{"GET / HTTP/1.1\r\nHost: a\rb\r\n\r\n", 0, "a CR not followed"},
		{"GET / HTTP/1.1\r\nHost: a\0b\r\n\r\n", 29, "byte 0x00 in a header value"},
		{"GET /\xe9 HTTP/1.1\r\n\r\n", 0, "byte 0xe9 in the request target"},
		{"GET / HTTP/1.1\r\nHo st: a\r\n\r\n", 0, "byte 0x20 in a header name"},
		{"GET / HTTP/1.1\r\nHost : a\r\n\r\n", 0, "byte 0x20 in a header name"},
		{"GET / HTTP/1.1\r\nnocolon\r\n\r\n", 0, "without ':'"},
		{"GET / HTTP/2\r\n\r\n", 0, "not HTTP/d.d"},
		{"G(T / HTTP/1.1\r\n\r\n", 0, "byte 0x28 in the method"},
		{"GET  HTTP/1.1\r\n\r\n", 0, "no request target"},
		{"GET / HTTP/1.1\r\n\r\nbody", 0, "the body is 4 bytes, Content-Length says 0"},
		{"POST / HTTP/1.1\r\nContent-Length: 9\r\n\r\nabc", 0, "the body is 3 bytes"},
		{"POST / HTTP/1.1\r\nContent-Length: 1x\r\n\r\nabc", 0, "a bad Content-Length"},
		{"POST / HTTP/1.1\r\nTransfer-Encoding: gzip, chunked\r\n\r\n0\r\n\r\n", 0, "a Transfer-Encoding other than chunked (\"gzip, chunked\")"},
		{"POST / HTTP/1.1\r\nContent-Type: text/plain\r\nContent-Type: Application/JSON;x\r\nContent-Length: 10\r\n\r\n[\"\\ud800\"]", 0, "line 5: a JSON body not read as yajl reads it (byte 8: a high surrogate escape alone)"},
		{"POST / HTTP/1.1\r\nContent-Type: application/soap+xml\r\nContent-Length: 3\r\n\r\n<a>", 0, "XML bodies are not parsed (modsecurity.conf-recommended's rule 200000"},
		{"POST / HTTP/1.1\r\nContent-Type: text/xml\r\nContent-Length: 3\r\n\r\n<a>", 0, "XML bodies are not parsed"},
		{"POST / HTTP/1.1\r\nContent-Type: Multipart/Form-Data; boundary=x\r\nContent-Length: 3\r\n\r\n<a>", 0, "multipart/form-data bodies are not parsed (ModSecurity reads them into ARGS_POST and FILES)"},
		/* a tab quoted from the Content-Type is escaped (found by fuzz_http_req) */
		{"POST / HTTP/1.1\r\nContent-Type: multipart/form-data\tx\r\nContent-Length: 3\r\n\r\n<a>", 0, "line 4: multipart/form-data\\x09x bodies are not parsed"},
	};
	struct http_req q;
	char why[160];

	http_req_init(&q);
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		cr_expect_eq(parse(&q, bad[i].text, bad[i].len, why), 1,
			     "case %zu parsed", i);
		cr_expect(strstr(why, bad[i].why) != NULL, "case %zu: \"%s\", "
			  "want \"%s\"", i, why, bad[i].why);
	}
	http_req_release(&q);
}

Test(http_req, high_bytes_and_nul_in_a_body)
{
	struct http_req q;
	char why[160];
	static const char req[] = "POST / HTTP/1.1\r\nX-Name: caf\xc3\xa9\r\n"
				  "Content-Length: 4\r\n\r\na\0\xff\n";

	http_req_init(&q);
	cr_assert_eq(parse(&q, req, sizeof(req) - 1, why), 0, "%s", why);
	SPAN_EQ(q.headers.v[0].value, "caf\xc3\xa9");
	cr_assert_eq(q.body.n, 4);
	cr_expect_eq(memcmp(q.body.p, "a\0\xff\n", 4), 0);
	cr_expect_eq(q.body_kind, HTTP_BODY_OTHER);
	http_req_release(&q);
}

Test(http_req, percent_encoding)
{
	char out[64];
	size_t n = http_url_decode("%41%4a+%zz%4%", 13, out);

	cr_assert_eq(n, 9);
	cr_expect_eq(memcmp(out, "AJ %zz%4%", 9), 0, "%.*s", (int)n, out);
}

/* Parse text as version v reads it. */
static int parse_v(struct http_req *q, const char *text, enum modsec_version v,
		   char *why)
{
	q->modsec = v;
	return parse(q, text, 0, why);
}

#define VAR_EQ(var, want) \
	do { \
		cr_expect((var).set, #var " has no value, want \"%s\"", (want)); \
		SPAN_EQ((var).v, (want)); \
	} while (0)

#define VAR_NONE(var) cr_expect(!(var).set, #var " has a value")

/*
 * The target's variables, worked from libmodsecurity3 3.0.9's
 * Transaction::processURI and mod_security2's re_variables.c on Apache's
 * ap_parse_uri: a fragment is in neither's query, arguments or
 * REQUEST_URI, only in REQUEST_LINE and REQUEST_URI_RAW; v3 %-decodes
 * REQUEST_URI, _FILENAME and _BASENAME ('+' kept) and cuts the path at a
 * decoded '?'; v2 keeps the path as sent.
 */
Test(http_req, target_by_version)
{
	struct http_req q;
	char why[160];
	const char *req = "GET /a%20b/c%2Ed+e.php%3fq?x=%41&y#fr?ag HTTP/1.1\r\n\r\n";

	http_req_init(&q);
	cr_assert_eq(parse_v(&q, req, MODSEC_V3, why), 0, "%s", why);
	SPAN_EQ(q.line, "GET /a%20b/c%2Ed+e.php%3fq?x=%41&y#fr?ag HTTP/1.1");
	SPAN_EQ(q.target, "/a%20b/c%2Ed+e.php%3fq?x=%41&y#fr?ag");
	VAR_EQ(q.query, "x=%41&y");
	VAR_EQ(q.filename, "/a b/c.d+e.php");
	VAR_EQ(q.basename, "c.d+e.php");
	VAR_EQ(q.uri, "/a b/c.d+e.php?q?x=A&y");
	cr_assert_eq(q.args_get.n, 2);
	SPAN_EQ(q.args_get.v[0].value, "A");
	SPAN_EQ(q.args_get.v[1].name, "y");

	/* Apache refuses a '#fragment' before phase 1 (AH02421) */
	cr_assert_eq(parse_v(&q, req, MODSEC_V2, why), 1);
	cr_expect(strstr(why, "AH02421") != NULL, "%s", why);
	req = "GET /a%20b/c%2Ed+e.php%3fq?x=%41&y HTTP/1.1\r\n\r\n";
	cr_assert_eq(parse_v(&q, req, MODSEC_V2, why), 0, "%s", why);
	VAR_EQ(q.query, "x=%41&y");
	VAR_EQ(q.filename, "/a%20b/c%2Ed+e.php%3fq");
	VAR_EQ(q.basename, "c%2Ed+e.php%3fq");
	VAR_EQ(q.uri, "/a%20b/c%2Ed+e.php%3fq?x=%41&y");
	cr_expect_eq(q.args_get.n, 2);
	http_req_release(&q);
}

/* Targets of other forms, one version at a time. */
Test(http_req, target_forms)
{
	static const struct {
		const char *line;
		enum modsec_version v;
		const char *filename, *basename, *uri, *query; /* NULL: none */
	} cases[] = {
		/* v3: no '/' gives an empty basename; v2: CONNECT has no path
		   or query (apr_uri_parse_hostinfo) */
		{"CONNECT host:443", MODSEC_V3, "host:443", "", "host:443", ""},
		{"CONNECT host:443", MODSEC_V2, NULL, NULL, NULL, NULL},
		/* absolute form: v3 cuts scheme://host from REQUEST_URI only */
		{"GET http://h.example/x/y?z", MODSEC_V3, "http://h.example/x/y",
		 "y", "/x/y?z", "z"},
		{"GET http://h.example/x/y?z", MODSEC_V2, "/x/y", "y", "/x/y?z",
		 "z"},
		{"GET http://h.example", MODSEC_V3, "http://h.example",
		 "h.example", "http://h.example", ""},
		{"GET http://h.example", MODSEC_V2, NULL, NULL, NULL, NULL},
		/* a trailing '/': an empty basename in both */
		{"GET /dir/", MODSEC_V3, "/dir/", "", "/dir/", ""},
		{"GET /dir/", MODSEC_V2, "/dir/", "", "/dir/", NULL},
		/* Apache collapses a leading '//' */
		{"GET //a//b\\c", MODSEC_V2, "/a//b\\c", "c", "/a//b\\c", NULL},
		{"GET //a//b\\c", MODSEC_V3, "//a//b\\c", "c", "//a//b\\c", ""},
		{"GET /?", MODSEC_V2, "/", "", "/?", ""},
		{"GET /#a?b=1", MODSEC_V3, "/", "", "/", ""},
		{"OPTIONS *", MODSEC_V2, "*", "*", "*", NULL},
		{"OPTIONS *", MODSEC_V3, "*", "", "*", ""},
	};
	struct http_req q;
	char why[160], text[128];

	http_req_init(&q);
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		snprintf(text, sizeof(text), "%s HTTP/1.1\r\n\r\n", cases[i].line);
		cr_assert_eq(parse_v(&q, text, cases[i].v, why), 0, "%s", why);
		cr_expect_eq(q.args_get.n,
			     cases[i].query && cases[i].query[0] ? 1u : 0u,
			     "case %zu", i);
		if (cases[i].filename == NULL) {
			VAR_NONE(q.filename);
			VAR_NONE(q.basename);
			VAR_NONE(q.uri);
		} else {
			VAR_EQ(q.filename, cases[i].filename);
			VAR_EQ(q.basename, cases[i].basename);
			VAR_EQ(q.uri, cases[i].uri);
		}
		if (cases[i].query == NULL)
			VAR_NONE(q.query);
		else
			VAR_EQ(q.query, cases[i].query);
	}
	http_req_release(&q);
}

/*
 * Cookies: split on ';', empty pieces and names skipped, a name's leading
 * whitespace trimmed and nothing else (libmodsecurity3's addRequestHeader,
 * mod_security2's parse_cookies_v0); v2 splits on ',' when the header has
 * no ';' and its first ',' is followed by a space.
 */
Test(http_req, cookies_by_version)
{
	struct http_req q;
	char why[160];
	const char *semi = "GET / HTTP/1.1\r\n"
			   "Cookie: a=1 ; b = 2;;  c;\t=x; d=e=f\r\n\r\n";
	const char *comma = "GET / HTTP/1.1\r\nCookie: a=1, b=2\r\n"
			    "Cookie: c=3,d=4\r\n\r\n";

	http_req_init(&q);
	for (int v = MODSEC_V2; v <= MODSEC_V3; v++) {
		cr_assert_eq(parse_v(&q, semi, (enum modsec_version)v, why), 0,
			     "%s", why);
		cr_assert_eq(q.cookies.n, 4, "v%d: %zu cookies", v, q.cookies.n);
		SPAN_EQ(q.cookies.v[0].name, "a");
		SPAN_EQ(q.cookies.v[0].value, "1 ");
		SPAN_EQ(q.cookies.v[1].name, "b ");
		SPAN_EQ(q.cookies.v[1].value, " 2");
		SPAN_EQ(q.cookies.v[2].name, "c");
		SPAN_EQ(q.cookies.v[2].value, "");
		SPAN_EQ(q.cookies.v[3].name, "d");
		SPAN_EQ(q.cookies.v[3].value, "e=f");
	}
	cr_assert_eq(parse_v(&q, comma, MODSEC_V3, why), 0, "%s", why);
	cr_assert_eq(q.cookies.n, 2);
	SPAN_EQ(q.cookies.v[0].value, "1, b=2");
	SPAN_EQ(q.cookies.v[1].value, "3,d=4");
	cr_assert_eq(parse_v(&q, comma, MODSEC_V2, why), 0, "%s", why);
	cr_assert_eq(q.cookies.n, 3);
	SPAN_EQ(q.cookies.v[0].value, "1");
	SPAN_EQ(q.cookies.v[1].name, "b");
	SPAN_EQ(q.cookies.v[1].value, "2");
	SPAN_EQ(q.cookies.v[2].value, "3,d=4");
	http_req_release(&q);
}

/*
 * Bodies: form arguments when the Content-Type starts with
 * application/x-www-form-urlencoded, without case (both versions; v3
 * tests every Content-Type header, v2 the first); other types are
 * REQUEST_BODY only (JSON and XML are refused: strict_about_edge_bytes).
 */
Test(http_req, body_types)
{
	static const struct {
		const char *type;
		enum modsec_version v;
		enum http_body kind;
	} cases[] = {
		{"Content-Type: APPLICATION/X-WWW-FORM-URLENCODED;charset=x", MODSEC_V3, HTTP_BODY_FORM},
		{"Content-Type: application/x-www-form-urlencodedX", MODSEC_V2, HTTP_BODY_FORM},
		{"Content-Type: text/plain\r\nContent-Type: application/x-www-form-urlencoded", MODSEC_V3, HTTP_BODY_FORM},
		{"Content-Type: text/plain\r\nContent-Type: application/x-www-form-urlencoded", MODSEC_V2, HTTP_BODY_OTHER},
		{"Content-Type: application/x-www-form-urlencoded\r\nContent-Type: text/plain", MODSEC_V3, HTTP_BODY_FORM},
		{"Content-Type: multipart/mixed; boundary=x", MODSEC_V3, HTTP_BODY_OTHER},
	};
	struct http_req q;
	char why[160], text[256];

	http_req_init(&q);
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		snprintf(text, sizeof(text), "POST / HTTP/1.1\r\n%s\r\n"
			 "Content-Length: 7\r\n\r\na=1&&b=", cases[i].type);
		cr_assert_eq(parse_v(&q, text, cases[i].v, why), 0, "%s", why);
		cr_expect_eq(q.body_kind, cases[i].kind, "case %zu", i);
		cr_expect_eq(q.args_post.n, cases[i].kind == HTTP_BODY_FORM ? 3 : 0,
			     "case %zu", i);
	}
	http_req_release(&q);
}

/* One argument's name and value, expected. */
struct pair_want {
	const char *name, *value;
	size_t value_n; /* 0: strlen */
};

static void expect_pairs(const struct http_pairs *l,
			 const struct pair_want *want, size_t n)
{
	cr_assert_eq(l->n, n, "%zu arguments, want %zu", l->n, n);
	for (size_t i = 0; i < n; i++) {
		size_t vn = want[i].value_n ? want[i].value_n
					    : strlen(want[i].value);
		SPAN_EQ(l->v[i].name, want[i].name);
		cr_expect(l->v[i].value.n == vn &&
			  memcmp(l->v[i].value.p, want[i].value, vn) == 0,
			  "%s: \"%.*s\", want \"%s\"", want[i].name,
			  (int)l->v[i].value.n, l->v[i].value.p, want[i].value);
	}
}

/* A POST of body under Content-Type type (Content-Length added). */
static int post(struct http_req *q, const char *type, const char *body,
		enum modsec_version v, char *why)
{
	char text[32768];

	snprintf(text, sizeof(text), "POST / HTTP/1.1\r\nContent-Type: %s\r\n"
		 "Content-Length: %zu\r\n\r\n%s", type, strlen(body), body);
	q->modsec = v;
	return parse(q, text, 0, why);
}

/*
 * JSON bodies, names worked from libmodsecurity3 3.0.9's json.cc
 * (addArgument, getCurrentKey): a map adds "key.", an array
 * "key.array_N" (N its elements so far, a map or array among them), the
 * top is "json", a key of "" is "empty-key" (in an array: nothing);
 * values as yajl hands them: strings decoded, numbers as written, null
 * "".  Duplicate keys are both kept, in order; empty containers add
 * nothing.  REQUEST_BODY stays the raw body; ARGS_POST gets none.
 */
Test(http_req, json_bodies)
{
	static const struct pair_want obj[] = {
		{"json.a.b", "x\"y", 0},
		{"json.a.c.array_0", "1", 0},
		{"json.a.c.array_1", "-2.50e+3", 0},
		{"json.a.c.array_2", "true", 0},
		{"json.a.c.array_3", "false", 0},
		{"json.a.c.array_4", "", 0},
		{"json.empty-key", "\xc3\xa9\xc3\xa9", 0},
		{"json.k\"\xc3\xa9", "\xf0\x9f\x98\x80|\xed\xb0\x80|\0|/", 12},
		{"json.d.array_0.e", "f", 0},
		{"json.d.array_1.array_0", "g", 0},
		{"json.d.array_3", "10000000000000000000000", 0},
		{"json.a", "dup", 0},
	}, top[] = {
		{"json.array_0", "1", 0},
		{"json.array_1.x", "2", 0},
		{"json.array_2.array_0.array_0", "0", 0},
	}, empties[] = {
		{"json.empty-key.empty-key", "1", 0},
		{"json.array_0", "", 0},
	}, scalar[] = {{"json", "s\t", 0}};
	const char *body = "{\"a\":{\"b\":\"x\\\"y\",\"c\":[1,-2.50e+3,true,"
			   "false,null]},\"\":\"\xc3\xa9\\u00e9\", \"o\":{},"
			   "\"k\\\"\\u00E9\" : \"\\ud83d\\ude00|\\udc00|\\u0000|"
			   "\\/\",\"e\":[],\n\t\"d\":[{\"e\":\"f\"},[\"g\"],{},"
			   "10000000000000000000000],\"a\":\"dup\"}";
	struct http_req q;
	char why[160];

	http_req_init(&q);
	cr_assert_eq(post(&q, "application/json", body, MODSEC_V3, why), 0,
		     "%s", why);
	cr_expect_eq(q.body_kind, HTTP_BODY_JSON);
	expect_pairs(&q.args_json, obj, sizeof(obj) / sizeof(obj[0]));
	cr_expect_eq(q.args_post.n, 0);
	SPAN_EQ(q.body, body);
	cr_assert_eq(post(&q, "Application/JSON; charset=utf-8",
			  " [1, {\"x\": 2}, [[0]]] ", MODSEC_V3, why), 0, "%s", why);
	expect_pairs(&q.args_json, top, 3);
	cr_assert_eq(post(&q, "application/json", "{\"\":{\"\":1},\"z\":{}}",
			  MODSEC_V3, why), 0, "%s", why);
	expect_pairs(&q.args_json, empties, 1);
	cr_assert_eq(post(&q, "application/json", "[\"\"]", MODSEC_V3, why), 0);
	expect_pairs(&q.args_json, empties + 1, 1);
	cr_assert_eq(post(&q, "application/json", "\"s\\t\"", MODSEC_V3, why), 0);
	expect_pairs(&q.args_json, scalar, 1);
	cr_assert_eq(post(&q, "application/json", "{}", MODSEC_V3, why), 0);
	cr_expect_eq(q.args_json.n, 0);
	/* 200001 on any Content-Type header, after 200000: JSON wins, even
	   over a form type */
	cr_assert_eq(post(&q, "text/xml\r\nContent-Type: application/json",
			  "[7]", MODSEC_V3, why), 0, "%s", why);
	cr_expect_eq(q.args_json.n, 1);
	cr_assert_eq(post(&q, "application/x-www-form-urlencoded\r\n"
			  "Content-Type: application/json", "{\"a\":1}",
			  MODSEC_V3, why), 0, "%s", why);
	cr_expect_eq(q.body_kind, HTTP_BODY_JSON);
	cr_expect_eq(q.args_post.n, 0);
	cr_expect_eq(post(&q, "application/json", "{\"a\":1}", MODSEC_V2, why), 1);
	cr_expect(strstr(why, "JSON bodies are not parsed under --modsec=2") != NULL,
		  "%s", why);
	http_req_release(&q);
}

/* q's JSON arguments as "name=value," each. */
static void json_joined(const struct http_req *q, char *out, size_t size)
{
	size_t o = 0;

	out[0] = '\0';
	for (size_t i = 0; i < q->args_json.n && o < size; i++) {
		int n = snprintf(out + o, size - o, "%.*s=%.*s,",
				 (int)q->args_json.v[i].name.n,
				 q->args_json.v[i].name.p,
				 (int)q->args_json.v[i].value.n,
				 q->args_json.v[i].value.p);
		if (n < 0)
			break;
		o += (size_t)n;
	}
}

/*
 * A body yajl stops in: the arguments its callbacks gave before the
 * error stay (json.cc adds each as it comes; REQBODY_ERROR is set), a
 * number at the very end too (yajl_complete_parse feeds a blank); the
 * error is q->json_error.  Nesting deeper than json.cc's 10000 stops it
 * too.  A high surrogate escape without its low one, which yajl reads
 * its own way, is not a request.
 */
Test(http_req, json_errors_keep_what_came_before)
{
	static const struct {
		const char *body, *error, *args;
	} cases[] = {
		{"{\"a\":1,}", "byte 7: no key in an object", "json.a=1,"},
		{"{\"a\" 1}", "byte 5: no ':' after a key", ""},
		{"[1,]", "byte 3: no JSON value", "json.array_0=1,"},
		{"01", "byte 1: bytes after the value", "json=0,"},
		{"[0 1]", "byte 3: no ',' or end after a value", "json.array_0=0,"},
		{"[true1]", "byte 5: no ',' or end", "json.array_0=true,"},
		{"{\"a\":1}}", "byte 7: bytes after the value", "json.a=1,"},
		{"[\"x\",\"\\x\"]", "an unknown escape in a string", "json.array_0=x,"},
		{"[\"\\u12\"]", "\\u without four hex digits", ""},
		{"[\"a\x01\"]", "a control byte in a string", ""},
		{"[1,\"\xc3(\"]", "invalid UTF-8 in a string", "json.array_0=1,"},
		{"[\"\xff\"]", "invalid UTF-8 in a string", ""},
		{"[\"a", "a string without its closing quote", ""},
		{"[1.]", "no digits after a number's '.'", ""},
		{"[-]", "no digits in a number", ""},
		{"[1e]", "no digits in a number's exponent", ""},
		{"[tru]", "no JSON value", ""},
		{"{\"a\":[1,{\"b\":2", "the value is cut short",
		 "json.a.array_0=1,json.a.array_1.b=2,"},
		{"  ", "the value is cut short", ""},
	};
	struct http_req q;
	char why[160], got[256], deep[20016];

	http_req_init(&q);
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		cr_expect_eq(post(&q, "application/json", cases[i].body,
				  MODSEC_V3, why), 0, "case %zu: %s", i, why);
		cr_expect(strstr(q.json_error, cases[i].error) != NULL,
			  "case %zu: \"%s\", want \"%s\"", i, q.json_error,
			  cases[i].error);
		json_joined(&q, got, sizeof(got));
		cr_expect_str_eq(got, cases[i].args, "case %zu", i);
	}
	cr_assert_eq(post(&q, "application/json", "[1]", MODSEC_V3, why), 0);
	cr_expect_str_eq(q.json_error, "");
	memset(deep, '[', 10000);
	memcpy(deep + 10000, "7", 1);
	memset(deep + 10001, ']', 10000);
	deep[20001] = '\0';
	cr_expect_eq(post(&q, "application/json", deep, MODSEC_V3, why), 0);
	cr_expect_str_eq(q.json_error, "");
	cr_expect_eq(q.args_json.n, 1);
	memcpy(deep, "[1,", 3);
	memset(deep + 3, '[', 10001);
	deep[10004] = '\0';
	cr_expect_eq(post(&q, "application/json", deep, MODSEC_V3, why), 0);
	cr_expect(strstr(q.json_error, "nesting deeper than 10000") != NULL,
		  "%s", q.json_error);
	json_joined(&q, got, sizeof(got));
	cr_expect_str_eq(got, "json.array_0=1,");
	cr_expect_eq(post(&q, "application/json", "[\"\\ud800\"]", MODSEC_V3,
			  why), 1);
	cr_expect(strstr(why, "a JSON body not read as yajl reads it (byte 8: "
			 "a high surrogate escape alone)") != NULL, "%s", why);
	cr_expect_eq(post(&q, "application/json", "[1,\"\\ud800\\u0041\"]",
			  MODSEC_V3, why), 1);
	cr_expect(strstr(why, "a high surrogate escape without a low one") != NULL,
		  "%s", why);
	http_req_release(&q);
}

/*
 * Chunked bodies: the chunks' data is the body (REQUEST_BODY, form or
 * JSON arguments); the headers stay as sent (Transfer-Encoding, no
 * Content-Length); extensions and trailers are dropped.
 */
Test(http_req, chunked_bodies)
{
	static const struct pair_want form[] = {
		{"a", "<script>", 0}, {"b", "2", 0},
	}, json[] = {{"json.a", "x", 0}};
	struct http_req q;
	char why[160];

	http_req_init(&q);
	cr_assert_eq(parse(&q, "POST /c HTTP/1.1\r\n"
			   "Content-Type: application/x-www-form-urlencoded\r\n"
			   "Transfer-Encoding: Chunked\r\n\r\n"
			   "4;ext=1\r\na=<s\r\n00A\r\ncript>&b=2\r\n"
			   "0\r\nX-T: 1\r\n\r\n", 0, why), 0, "%s", why);
	SPAN_EQ(q.body, "a=<script>&b=2");
	cr_expect_eq(q.body_kind, HTTP_BODY_FORM);
	expect_pairs(&q.args_post, form, 2);
	cr_expect_eq(q.headers.n, 2);
	cr_assert_eq(parse(&q, "POST /c HTTP/1.1\r\nTransfer-Encoding: chunked\r\n"
			   "Content-Type: application/json\r\n\r\n"
			   "3 ;a=\"b\"\r\n{\"a\r\n6\r\n\":\"x\"}\r\n0\r\n\r\n", 0,
			   why), 0, "%s", why);
	expect_pairs(&q.args_json, json, 1);
	cr_assert_eq(parse(&q, "POST /c HTTP/1.1\r\nTransfer-Encoding: chunked\r\n"
			   "\r\n0\r\n\r\n", 0, why), 0, "%s", why);
	cr_expect_eq(q.body.n, 0);
	cr_expect_eq(q.body_kind, HTTP_BODY_NONE);
	http_req_release(&q);
}

Test(http_req, chunked_that_does_not_parse)
{
	static const struct {
		const char *chunks, *why;
	} bad[] = {
		{"x\r\nabc\r\n0\r\n\r\n", "line 4: a chunk size of no hex digits"},
		{"000000003\r\nabc\r\n0\r\n\r\n", "a chunk size of more than 8 hex digits"},
		{"3\r\nabcd\r\n0\r\n\r\n", "a chunk's data not followed by CRLF"},
		{"5\r\nabc\r\n", "a chunk of 5 bytes cut short"},
		{"3\r\nabc\r\n0\r\n", "a chunked body cut short"},
		{"3\nabc\n0\n\n", "a line not ending in CRLF"},
		{"3 x\r\nabc\r\n0\r\n\r\n", "a chunk size followed by neither ';' nor CRLF"},
		{"3;a\x01\r\nabc\r\n0\r\n\r\n", "byte 0x01 in a header value"},
		{"3\r\nabc\r\n0\r\nno colon\r\n\r\n", "a trailer line without a name and ':'"},
		{"3\r\nabc\r\n0\r\n\r\nGET / HTTP/1.1\r\n\r\n", "18 bytes after the chunked body's end"},
	};
	static const char *const heads[][2] = {
		{"POST / HTTP/1.0\r\nTransfer-Encoding: chunked\r\n\r\n",
		 "a chunked body in HTTP/1.0 (HTTP/1.1 only)"},
		{"POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n"
		 "Content-Length: 3\r\n\r\n", "Transfer-Encoding and Content-Length"},
		{"POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n"
		 "Transfer-Encoding: chunked\r\n\r\n", "two Transfer-Encoding headers"},
	};
	struct http_req q;
	char why[160], text[256];

	http_req_init(&q);
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		snprintf(text, sizeof(text), "POST / HTTP/1.1\r\nTransfer-Encoding:"
			 " chunked\r\n\r\n%s", bad[i].chunks);
		cr_expect_eq(parse(&q, text, 0, why), 1, "case %zu parsed", i);
		cr_expect(strstr(why, bad[i].why) != NULL, "case %zu: \"%s\", "
			  "want \"%s\"", i, why, bad[i].why);
	}
	for (size_t i = 0; i < sizeof(heads) / sizeof(heads[0]); i++) {
		snprintf(text, sizeof(text), "%s3\r\nabc\r\n0\r\n\r\n", heads[i][0]);
		cr_expect_eq(parse(&q, text, 0, why), 1, "head %zu parsed", i);
		cr_expect(strstr(why, heads[i][1]) != NULL, "head %zu: \"%s\"",
			  i, why);
	}
	http_req_release(&q);
}

/*
 * Packet p carries a piece of a plant split across two packets of a flow
 * (packets.h): it ends with the split text's first k bytes or starts
 * with the rest, the cut before its ':'.
 */
static int split_piece(const struct packet *p)
{
	const char *t = PACKETS_SPLIT_HTTP;
	size_t len = strlen(t);

	for (size_t k = 1; k <= 6; k++)
		if (memcmp(p->p + p->len - k, t, k) == 0 ||
		    memcmp(p->p, t + k, len - k) == 0)
			return 1;
	return 0;
}

/*
 * Every generated HTTP packet of 128 bytes and more is a whole request,
 * but the two halves of a plant split across packets for the flow modes
 * (a segment of a stream), of which there are at most two per split.
 */
Test(http_req, generated_packets_are_requests)
{
	static const size_t sizes[] = {128, 256, 512, 1500};
	char why[160];

	for (size_t s = 0; s < sizeof(sizes) / sizeof(sizes[0]); s++) {
		struct packets_spec spec = {sizes[s], 500, 0.1, 9};
		struct packets pk;
		struct http_req q;
		size_t cut = 0;

		http_req_init(&q);
		cr_assert_eq(packets_generate(&pk, PACKETS_HTTP, &spec), 0);
		for (size_t i = 0; i < pk.n; i++) {
			cr_assert_eq(pk.pkt[i].len, sizes[s]);
			if (parse(&q, pk.pkt[i].p, pk.pkt[i].len, why) == 0)
				continue;
			cr_assert(split_piece(&pk.pkt[i]),
				  "size %zu packet %zu: %s: %.*s", sizes[s], i,
				  why, (int)pk.pkt[i].len, pk.pkt[i].p);
			cut++;
		}
		cr_expect_leq(cut, 2 * pk.nsplit, "size %zu: %zu cut, %zu splits",
			      sizes[s], cut, pk.nsplit);
		cr_expect_lt(cut, pk.n / 4, "size %zu: %zu of %zu not requests",
			     sizes[s], cut, pk.n);
		packets_release(&pk);
		http_req_release(&q);
	}
}

/* ---- transformations ---- */

static void expect_tfn(enum waf_tfn t, enum modsec_version v, const char *in,
		       size_t n, const char *want, size_t wn)
{
	char out[256];
	size_t got = waf_transform(t, v, in, n, out);

	cr_expect(got == wn && memcmp(out, want, wn) == 0,
		  "v%d transformation %d of \"%.*s\": got \"%.*s\"", (int)v, t,
		  (int)n, in, (int)got, out);
}

/* The same in both versions. */
#define TFN(t, in, want) \
	do { \
		expect_tfn((t), MODSEC_V3, (in), sizeof(in) - 1, (want), \
			   sizeof(want) - 1); \
		expect_tfn((t), MODSEC_V2, (in), sizeof(in) - 1, (want), \
			   sizeof(want) - 1); \
	} while (0)

/* Version v's value. */
#define TFN_V(t, v, in, want) \
	expect_tfn((t), (v), (in), sizeof(in) - 1, (want), sizeof(want) - 1)

Test(waf, transformations_known_values)
{
	TFN(WAF_T_LOWERCASE, "SeLeCt \xc9X", "select \xc9x");
	TFN(WAF_T_URLDECODE, "a%20b+c%2", "a b c%2");
	TFN(WAF_T_URLDECODE, "%u0041%", "%u0041%");
	TFN(WAF_T_URLDECODEUNI, "%u0041%U00e9", "A\xe9");
	/* full-width ASCII: FF01..FF5E take 0x20 more (U+FF41 is 'a') */
	TFN(WAF_T_URLDECODEUNI, "%uff21%uFF41", "Aa");
	TFN(WAF_T_URLDECODEUNI, "%u12%41+", "%u12A ");
	TFN(WAF_T_URLDECODEUNI, "%uzzzz", "%uzzzz");
	TFN(WAF_T_HTMLENTITYDECODE, "&lt;script&gt;&#x41;&#66&QUOT;&amp",
	    "<script>AB\"&");
	TFN(WAF_T_HTMLENTITYDECODE, "&nbsp;&foo;&#;&#x;&", "\xa0&foo;&#;&#x;&");
	TFN(WAF_T_HTMLENTITYDECODE, "&#x141;&#99999999999999999999;",
	    "\x41\xff");
	TFN(WAF_T_REMOVENULLS, "a\0b\0", "ab");
	TFN(WAF_T_REMOVEWHITESPACE, "a \t\nb\xa0" "c\v\fd", "abcd");
	TFN(WAF_T_COMPRESSWHITESPACE, "a  \t\r\n\v\fb c ", "a b c ");
}

/*
 * Whitespace differs: v3 3.0.9's CompressWhitespace::evaluate does not
 * take NBSP (0xa0) for a space, v2's msre_fn_compressWhitespace_execute
 * does; v3's RemoveWhitespace::evaluate drops every 0xc2 byte besides
 * NBSP (UTF-8's NBSP is c2 a0), v2's drops NBSP only.
 */
Test(waf, whitespace_by_version)
{
	TFN_V(WAF_T_COMPRESSWHITESPACE, MODSEC_V3, "a \xa0\xa0" "b\xa0",
	      "a \xa0\xa0" "b\xa0");
	TFN_V(WAF_T_COMPRESSWHITESPACE, MODSEC_V2, "a \xa0\xa0" "b\xa0",
	      "a b ");
	TFN_V(WAF_T_REMOVEWHITESPACE, MODSEC_V3, "x\xc2\xa0y \xc3\xa9\xc2",
	      "xy\xc3\xa9");
	TFN_V(WAF_T_REMOVEWHITESPACE, MODSEC_V2, "x\xc2\xa0y \xc3\xa9\xc2",
	      "x\xc2y\xc3\xa9\xc2");
}

Test(waf, transformation_names)
{
	cr_expect_eq(waf_tfn_parse("urlDecodeUni", 12), WAF_T_URLDECODEUNI);
	cr_expect_eq(waf_tfn_parse("lowercase", 9), WAF_T_LOWERCASE);
	cr_expect_eq(waf_tfn_parse("jsDecode", 8), -1);
}

/* ---- variables ---- */

struct seen {
	char v[16][64];
	size_t n;
};

static int collect(void *arg, const char *v, size_t n)
{
	struct seen *s = arg;

	if (s->n < 16)
		snprintf(s->v[s->n++], 64, "%.*s", (int)n, v);
	return 0;
}

static int has(const struct seen *s, const char *v)
{
	for (size_t i = 0; i < s->n; i++)
		if (strcmp(s->v[i], v) == 0)
			return 1;
	return 0;
}

Test(waf, variables_with_selectors_and_exclusions)
{
	struct http_req q;
	struct waf_spec w;
	struct waf_scratch sc = {0};
	struct seen s = {0};
	char why[160];
	const char *req = "GET /x/Page.PHP?Id=%27OR HTTP/1.1\r\n"
			  "User-Agent: Nikto\r\nCookie: __utmz=A; s=B\r\n\r\n";

	http_req_init(&q);
	cr_assert_eq(parse(&q, req, 0, why), 0, "%s", why);
	cr_assert_eq(waf_spec_parse("REQUEST_COOKIES|!REQUEST_COOKIES:/__utm/|"
				    "REQUEST_HEADERS:User-Agent|ARGS|"
				    "REQUEST_BASENAME|XML:/*",
				    "id:1,phase:2,t:none,t:lowercase,msg:'a, b'",
				    MODSEC_V3, &w, why, sizeof(why)), 0, "%s", why);
	cr_assert_eq(waf_each(&w, &q, &sc, collect, &s), 0);
	cr_expect_eq(s.n, 4, "b, nikto, 'or, page.php: %zu", s.n);
	cr_expect(has(&s, "b") && has(&s, "nikto") && has(&s, "'or") &&
		  has(&s, "page.php"));
	cr_expect(!has(&s, "a"), "__utmz is left out");
	cr_expect_eq(waf_spec_parse("TX:foo", "", MODSEC_V3,
				    &w, why, sizeof(why)), 1);
	cr_expect_str_eq(why, "variable TX");
	cr_expect_eq(waf_spec_parse("ARGS", "t:jsDecode", MODSEC_V3,
				    &w, why, sizeof(why)), 1);
	cr_expect_str_eq(why, "transformation t:jsDecode");
	cr_expect_eq(waf_spec_parse("&ARGS", "", MODSEC_V3,
				    &w, why, sizeof(why)), 1);
	cr_expect_eq(waf_spec_parse("ARGS:/^a.*$/", "", MODSEC_V3,
				    &w, why, sizeof(why)), 1);
	cr_expect_eq(waf_spec_parse("ARGS", "t:none,multiMatch", MODSEC_V3,
				    &w, why, sizeof(why)), 1);
	waf_scratch_release(&sc);
	http_req_release(&q);
}

/* The values of vars (t:none) on request text as version v, in phase
 * from actions, into s. */
static void values_of(const char *text, enum modsec_version v,
		      const char *vars, const char *actions, struct seen *s)
{
	struct http_req q;
	struct waf_spec w;
	struct waf_scratch sc = {0};
	char why[160];

	http_req_init(&q);
	q.modsec = v;
	cr_assert_eq(parse(&q, text, 0, why), 0, "%s", why);
	cr_assert_eq(waf_spec_parse(vars, actions, v, &w, why, sizeof(why)), 0,
		     "%s", why);
	memset(s, 0, sizeof(*s));
	cr_assert_eq(waf_each(&w, &q, &sc, collect, s), 0);
	waf_scratch_release(&sc);
	http_req_release(&q);
}

/*
 * Empty values: v3 gives every scalar variable a value, "" when unset
 * (AnchoredVariable::evaluate): QUERY_STRING without '?', REQUEST_BODY
 * without a body; v2 none (var_simple_generate on NULL).
 */
Test(waf, empty_values_by_version)
{
	struct seen s;
	const char *get = "GET /x HTTP/1.1\r\n\r\n";

	values_of(get, MODSEC_V3, "QUERY_STRING|REQUEST_BODY", "", &s);
	cr_expect_eq(s.n, 2);
	cr_expect_str_eq(s.v[0], "");
	values_of(get, MODSEC_V2, "QUERY_STRING|REQUEST_BODY", "", &s);
	cr_expect_eq(s.n, 0);
	values_of("CONNECT h:1 HTTP/1.1\r\n\r\n", MODSEC_V3,
		  "REQUEST_BASENAME|REQUEST_FILENAME", "", &s);
	cr_expect_eq(s.n, 2);
	cr_expect(has(&s, "") && has(&s, "h:1"));
	values_of("CONNECT h:1 HTTP/1.1\r\n\r\n", MODSEC_V2,
		  "REQUEST_BASENAME|REQUEST_FILENAME|REQUEST_URI|REQUEST_URI_RAW",
		  "", &s);
	cr_expect_eq(s.n, 1);
	cr_expect(has(&s, "h:1"));
}

/*
 * Phase 1 runs before the body is read: ARGS is the query's arguments,
 * ARGS_POST and REQUEST_BODY are empty (v3: REQUEST_BODY "", v2 none);
 * phase:request is 2.
 */
Test(waf, phases)
{
	struct seen s;
	struct waf_spec w;
	char why[160];
	const char *post = "POST /?g=1 HTTP/1.1\r\n"
			   "Content-Type: application/x-www-form-urlencoded\r\n"
			   "Content-Length: 3\r\n\r\np=2";
	const char *vars = "ARGS|ARGS_POST|ARGS_NAMES|REQUEST_BODY";
	const char *json = "POST /?g=1 HTTP/1.1\r\n"
			   "Content-Type: application/json\r\n"
			   "Content-Length: 9\r\n\r\n{\"p\":[2]}";

	for (int v = MODSEC_V2; v <= MODSEC_V3; v++) {
		values_of(post, (enum modsec_version)v, vars, "phase:1", &s);
		cr_expect_eq(s.n, v == MODSEC_V3 ? 3 : 2, "v%d: %zu", v, s.n);
		cr_expect(has(&s, "1") && has(&s, "g") && !has(&s, "2"));
		values_of(post, (enum modsec_version)v, vars,
			  "id:1,phase:request", &s);
		cr_expect_eq(s.n, 6, "v%d: %zu", v, s.n);
		cr_expect(has(&s, "2") && has(&s, "p") && has(&s, "p=2"));
		values_of(post, (enum modsec_version)v, vars, "", &s);
		cr_expect_eq(s.n, 6, "v%d: the default phase is 2", v);
	}
	/* a JSON body's arguments: ARGS and ARGS_NAMES in phase 2, never
	   ARGS_POST (libmodsecurity3 adds them with origin "JSON") */
	values_of(json, MODSEC_V3, "ARGS|ARGS_NAMES|ARGS_POST|ARGS_POST_NAMES",
		  "phase:2", &s);
	cr_expect_eq(s.n, 4, "%zu", s.n);
	cr_expect(has(&s, "1") && has(&s, "g") && has(&s, "json.p.array_0") &&
		  has(&s, "2"));
	values_of(json, MODSEC_V3, "ARGS|ARGS_NAMES", "phase:1", &s);
	cr_expect_eq(s.n, 2, "%zu", s.n);
	cr_expect_eq(waf_spec_parse("ARGS", "phase:0", MODSEC_V3, &w, why,
				    sizeof(why)), 1);
	cr_expect_str_eq(why, "phase:0");
	cr_expect_eq(waf_spec_parse("ARGS", "phase:'2'", MODSEC_V3, &w, why,
				    sizeof(why)), 0);
	cr_expect_eq(w.phase, 2);
	cr_expect_eq(waf_spec_parse("ARGS", "phase:RESPONSE", MODSEC_V2, &w,
				    why, sizeof(why)), 0);
	cr_expect_eq(w.phase, 4);
}

/*
 * v2: what Apache 2.4 does around mod_security2's phases (corpora/
 * apache_req.h): the target's host replaces the Host header before phase
 * 1; from phase 2 on the path is normalised and decoded; a path Apache
 * refuses after phase 1 gives phases 2 to 4 nothing, phase 5 the path
 * Apache left; what Apache answers 400 before phase 1 is not a request.
 */
Test(waf, v2_apache_around_the_phases)
{
	struct seen s;
	struct http_req q;
	char why[160];
	const char *abs = "GET http://EXAMPLE.com./a/%2e%2e/x%2Ephp?q=%2e "
			  "HTTP/1.1\r\nHost: 1.2.3.4\r\nHost: b\r\n\r\n";
	const char *bad = "GET /a%2fb/c?q HTTP/1.1\r\nHost: a\r\n\r\n";
	const char *vars = "REQUEST_URI|REQUEST_FILENAME|REQUEST_BASENAME";

	values_of(abs, MODSEC_V2, "REQUEST_HEADERS:Host", "phase:1", &s);
	cr_expect(s.n == 1 && has(&s, "example.com"), "%zu %s", s.n, s.v[0]);
	values_of(abs, MODSEC_V3, "REQUEST_HEADERS:Host", "phase:1", &s);
	cr_expect(s.n == 2 && has(&s, "1.2.3.4"), "v3 keeps the headers");
	values_of(abs, MODSEC_V2, vars, "phase:1", &s);
	cr_expect(s.n == 3 && has(&s, "/a/%2e%2e/x%2Ephp?q=%2e") &&
		  has(&s, "x%2Ephp"), "phase 1 sees the path as sent");
	values_of(abs, MODSEC_V2, vars, "phase:2", &s);
	cr_expect(s.n == 3 && has(&s, "/x.php?q=%2e") && has(&s, "/x.php") &&
		  has(&s, "x.php"), "%zu %s %s %s", s.n, s.v[0], s.v[1], s.v[2]);
	values_of(bad, MODSEC_V2, vars, "phase:1", &s);
	cr_expect_eq(s.n, 3);
	values_of(bad, MODSEC_V2, "ARGS|REQUEST_URI", "phase:2", &s);
	cr_expect_eq(s.n, 0, "Apache runs no phase 2 after a 404: %zu", s.n);
	values_of(bad, MODSEC_V2, vars, "phase:5", &s);
	cr_expect(s.n == 3 && has(&s, "/a/b/c?q") && has(&s, "c"));
	values_of(bad, MODSEC_V3, vars, "phase:2", &s);
	cr_expect(s.n == 3 && has(&s, "/a/b/c?q"), "v3 decodes, runs phase 2");

	http_req_init(&q);
	q.modsec = MODSEC_V2;
	cr_expect_eq(parse(&q, "GET ?a:b HTTP/1.1\r\n\r\n", 0, why), 1);
	cr_expect(strstr(why, "line 1: ") && strstr(why, "AH03450"), "%s", why);
	cr_expect_eq(parse(&q, "GET http://1.2.3/ HTTP/1.1\r\n\r\n", 0, why),
		     1);
	cr_expect(strstr(why, "AH00550") != NULL, "%s", why);
	cr_expect_eq(parse(&q, "GET / HTTP/1.1\r\nA: b\r\n \t\r\n\r\n", 0,
			   why), 1);
	cr_expect(strstr(why, "line 3: ") && strstr(why, "AH03443"), "%s", why);
	q.modsec = MODSEC_V3;
	cr_expect_eq(parse(&q, "GET ?a:b#c HTTP/1.1\r\n\r\n", 0, why), 0,
		     "%s", why);
	http_req_release(&q);
}

/*
 * fuzz_http_req.c - libFuzzer target for the HTTP request parser
 * (corpora/http_req.c) and the ModSecurity values read from what it
 * parsed (corpora/waf.c), as libmodsecurity3 and as mod_security2 read
 * them: the input is a packet payload.
 *
 * A payload is a request or not, never a crash; every span of a parsed
 * request lies in the payload or the parser's own buffers (a de-chunked
 * body and its arguments, a JSON body's names and values), and each value
 * of every variable, through every transformation, is read whole.  A
 * refusal is one printable line starting "line ".
 */
#include "corpora/http_req.h"
#include "corpora/waf.h"

#include "tests/fuzz/fuzz_check.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const uint8_t *in_at;
static size_t in_len;
static const struct http_req *req;

static void check_span(struct http_span s)
{
	const char *p = s.p;
	int in_payload = p >= (const char *)in_at && p + s.n <= (const char *)in_at + in_len;
	int in_buf = p >= req->buf && p + s.n <= req->buf + req->buf_len;
	int in_jbuf = req->jbuf != NULL && p >= req->jbuf &&
		      p + s.n <= req->jbuf + req->jbuf_len;

	if (s.n > 0 && !in_payload && !in_buf && !in_jbuf)
		abort();
}

static void check_pairs(const struct http_pairs *l)
{
	for (size_t i = 0; i < l->n; i++) {
		check_span(l->v[i].name);
		check_span(l->v[i].value);
	}
}

/* Touch a value's ends: ASan reports one outside its buffer. */
static int touch(void *arg, const char *v, size_t n)
{
	volatile char sink = 0;

	(void)arg;
	if (n > 0)
		sink ^= (char)(v[0] ^ v[n - 1]);
	(void)sink;
	return 0;
}

static const char vars[] =
	"REQUEST_LINE|REQUEST_METHOD|REQUEST_PROTOCOL|REQUEST_URI|"
	"REQUEST_URI_RAW|REQUEST_FILENAME|REQUEST_BASENAME|QUERY_STRING|"
	"REQUEST_BODY|ARGS|ARGS_NAMES|REQUEST_HEADERS|REQUEST_HEADERS_NAMES|"
	"REQUEST_COOKIES|!REQUEST_COOKIES:/__utm/|REQUEST_COOKIES_NAMES|"
	"REQUEST_HEADERS:User-Agent|XML:/*";
static const char tfns[] =
	"t:none,t:urlDecodeUni,t:htmlEntityDecode,t:urlDecode,t:removeNulls,"
	"t:compressWhitespace,t:lowercase,t:removeWhitespace";

/* The payload parsed and read as version v, in phases 1 and 2. */
static void one_version(const uint8_t *data, size_t size,
			enum modsec_version v)
{
	static const char *const phases[] = {"phase:1", "phase:2"};
	struct http_req q;
	struct waf_spec w;
	struct waf_scratch s = {0};
	char why[160];
	int rc;

	http_req_init(&q);
	q.modsec = v;
	req = &q;
	rc = http_req_parse(&q, (const char *)data, size, why, sizeof(why));
	if (rc == 1 && !fuzz_message_ok(why, "line "))
		abort();
	if (rc == 0) {
		check_span(q.line);
		check_span(q.body);
		check_span(q.query.v);
		check_span(q.uri.v);
		check_span(q.filename.v);
		check_span(q.basename.v);
		check_pairs(&q.headers);
		check_pairs(&q.cookies);
		check_pairs(&q.args_get);
		check_pairs(&q.args_post);
		check_pairs(&q.args_json);
		for (size_t i = 0; i < 2; i++) {
			char actions[sizeof(tfns) + 16];
			snprintf(actions, sizeof(actions), "%s,%s", tfns,
				 phases[i]);
			if (waf_spec_parse(vars, actions, v, &w, why,
					   sizeof(why)) != 0 ||
			    waf_each(&w, &q, &s, touch, NULL) < 0)
				abort();
		}
	}
	waf_scratch_release(&s);
	http_req_release(&q);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	in_at = data;
	in_len = size;
	one_version(data, size, MODSEC_V3);
	one_version(data, size, MODSEC_V2);
	return 0;
}

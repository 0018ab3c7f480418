/*
 * json_read.c - JSON results reader (see json_read.h).
 *
 * A recursive-descent parser driven by the schema: parse_object() and
 * parse_array() walk a container and hand each member or item to a
 * callback that knows what it must be.  Every read checks the position
 * against the length first; depth is counted in those two functions.
 */
#include "report/json_read.h"

#include "corpora/file.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct jp {
	const char *s;
	size_t len, pos;
	const char *name;
	char *err;
	size_t errsize;
	int depth;
	int failed;
};

/*
 * Record the first error, at byte offset `at`, as "name:line:col: msg".
 * Always returns -1 so callers can `return jp_fail(...)`.
 */
__attribute__((format(printf, 3, 4)))
static int jp_fail(struct jp *p, size_t at, const char *fmt, ...)
{
	size_t line = 1, col = 1;
	char msg[256];
	va_list ap;

	if (p->failed)
		return -1;
	p->failed = 1;
	for (size_t i = 0; i < at && i < p->len; i++) {
		if (p->s[i] == '\n') {
			line++;
			col = 1;
		} else {
			col++;
		}
	}
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	snprintf(p->err, p->errsize, "%s:%zu:%zu: %s", p->name, line, col, msg);
	msg_escape_controls(p->err, p->errsize); /* quoted names may hold \n */
	return -1;
}

static void skip_ws(struct jp *p)
{
	while (p->pos < p->len && (p->s[p->pos] == ' ' || p->s[p->pos] == '\t' ||
				   p->s[p->pos] == '\n' || p->s[p->pos] == '\r'))
		p->pos++;
}

/* The next non-blank byte without taking it, or -1 at the end. */
static int peek(struct jp *p)
{
	skip_ws(p);
	return p->pos < p->len ? (unsigned char)p->s[p->pos] : -1;
}

static int expect(struct jp *p, char c)
{
	if (peek(p) != (unsigned char)c) {
		if (p->pos >= p->len)
			return jp_fail(p, p->pos, "expected '%c', got the end "
				       "of the file", c);
		return jp_fail(p, p->pos, "expected '%c'", c);
	}
	p->pos++;
	return 0;
}

/* The literal word (true, false, null) at the position, taken. */
static int take_word(struct jp *p, const char *word)
{
	size_t n = strlen(word);

	if (p->len - p->pos < n || memcmp(p->s + p->pos, word, n) != 0)
		return -1;
	p->pos += n;
	return 0;
}

/* A growing byte buffer for decoded strings. */
struct sbuf {
	char *b;
	size_t n, cap;
};

static int sbuf_put(struct sbuf *b, const char *bytes, size_t n)
{
	if (b->cap - b->n < n + 1) {
		size_t cap = b->cap ? b->cap : 32;
		char *grown;
		while (cap - b->n < n + 1)
			cap *= 2;
		grown = realloc(b->b, cap);
		if (grown == NULL)
			return -1;
		b->b = grown;
		b->cap = cap;
	}
	memcpy(b->b + b->n, bytes, n);
	b->n += n;
	b->b[b->n] = '\0';
	return 0;
}

/* Four hex digits at s; -1 when they are not. */
static long hex4(const char *s)
{
	long v = 0;

	for (int i = 0; i < 4; i++) {
		char c = s[i];
		int d;
		if (c >= '0' && c <= '9')
			d = c - '0';
		else if (c >= 'a' && c <= 'f')
			d = c - 'a' + 10;
		else if (c >= 'A' && c <= 'F')
			d = c - 'A' + 10;
		else
			return -1;
		v = v * 16 + d;
	}
	return v;
}

/* Code point cp as UTF-8 into out; returns the length. */
static size_t utf8_put(unsigned long cp, char *out)
{
	if (cp < 0x80) {
		out[0] = (char)cp;
		return 1;
	}
	if (cp < 0x800) {
		out[0] = (char)(0xc0 | (cp >> 6));
		out[1] = (char)(0x80 | (cp & 0x3f));
		return 2;
	}
	if (cp < 0x10000) {
		out[0] = (char)(0xe0 | (cp >> 12));
		out[1] = (char)(0x80 | ((cp >> 6) & 0x3f));
		out[2] = (char)(0x80 | (cp & 0x3f));
		return 3;
	}
	out[0] = (char)(0xf0 | (cp >> 18));
	out[1] = (char)(0x80 | ((cp >> 12) & 0x3f));
	out[2] = (char)(0x80 | ((cp >> 6) & 0x3f));
	out[3] = (char)(0x80 | (cp & 0x3f));
	return 4;
}

/*
 * A \uXXXX escape (and its low surrogate) at p->pos, which points just
 * after "\u".  Appends the bytes to b.  0 or -1.
 */
static int unicode_escape(struct jp *p, struct sbuf *b)
{
	size_t at = p->pos - 2;
	long cp, lo;
	char out[4];

	if (p->len - p->pos < 4 || (cp = hex4(p->s + p->pos)) < 0)
		return jp_fail(p, at, "bad \\u escape: four hex digits needed");
	p->pos += 4;
	if (cp == 0)
		return jp_fail(p, at, "\\u0000 in a string is not supported");
	if (cp >= 0x80 && cp <= 0xff) {
		/* a byte the writer found outside UTF-8 (json_read.h) */
		out[0] = (char)cp;
		return sbuf_put(b, out, 1);
	}
	if (cp >= 0xdc00 && cp <= 0xdfff)
		return jp_fail(p, at, "lone low surrogate \\u%04lx", cp);
	if (cp >= 0xd800 && cp <= 0xdbff) {
		if (p->len - p->pos < 6 || p->s[p->pos] != '\\' ||
		    p->s[p->pos + 1] != 'u' ||
		    (lo = hex4(p->s + p->pos + 2)) < 0xdc00 || lo > 0xdfff)
			return jp_fail(p, at, "high surrogate \\u%04lx without "
				       "its low half", cp);
		p->pos += 6;
		cp = 0x10000 + ((cp - 0xd800) << 10) + (lo - 0xdc00);
	}
	return sbuf_put(b, out, utf8_put((unsigned long)cp, out));
}

/* One escape sequence; p->pos is on the backslash. */
static int string_escape(struct jp *p, struct sbuf *b)
{
	static const char from[] = "\"\\/bfnrt", to[] = "\"\\/\b\f\n\r\t";
	const char *hit;
	char c;

	if (p->pos + 1 >= p->len)
		return jp_fail(p, p->pos, "unterminated string");
	c = p->s[p->pos + 1];
	p->pos += 2;
	if (c == 'u')
		return unicode_escape(p, b);
	hit = c ? strchr(from, c) : NULL;
	if (hit == NULL)
		return jp_fail(p, p->pos - 2, "bad escape '\\%c'",
			       c >= 0x20 && c < 0x7f ? c : '?');
	return sbuf_put(b, &to[hit - from], 1);
}

/*
 * A string value, decoded into a new NUL-terminated string (*out, owned
 * by the caller).  0 or -1.
 */
static int parse_string(struct jp *p, char **out)
{
	struct sbuf b = {0};
	size_t start;

	*out = NULL;
	if (peek(p) != '"')
		return jp_fail(p, p->pos, "expected a string");
	start = p->pos++;
	if (sbuf_put(&b, "", 0) != 0)
		goto oom;
	for (;;) {
		size_t run = p->pos;
		while (run < p->len && p->s[run] != '"' && p->s[run] != '\\' &&
		       (unsigned char)p->s[run] >= 0x20)
			run++;
		if (sbuf_put(&b, p->s + p->pos, run - p->pos) != 0)
			goto oom;
		p->pos = run;
		if (p->pos >= p->len) {
			jp_fail(p, start, "unterminated string");
			goto fail;
		}
		if (p->s[p->pos] == '"')
			break;
		if (p->s[p->pos] != '\\') {
			jp_fail(p, p->pos, "control character 0x%02x in a "
				"string (escape it)", (unsigned char)p->s[p->pos]);
			goto fail;
		}
		if (string_escape(p, &b) != 0)
			goto fail;
	}
	p->pos++;
	*out = b.b;
	return 0;
oom:
	jp_fail(p, p->pos, "out of memory");
fail:
	free(b.b);
	return -1;
}

/* Length of the JSON number at p->pos (grammar-checked), or 0. */
static size_t number_span(const struct jp *p, int *integer)
{
	const char *s = p->s + p->pos, *end = p->s + p->len, *q = s;

	*integer = 1;
	if (q < end && *q == '-')
		q++;
	if (q < end && *q == '0')
		q++;
	else if (q < end && *q >= '1' && *q <= '9')
		while (q < end && *q >= '0' && *q <= '9')
			q++;
	else
		return 0;
	if (q < end && *q == '.') {
		*integer = 0;
		if (++q >= end || *q < '0' || *q > '9')
			return 0;
		while (q < end && *q >= '0' && *q <= '9')
			q++;
	}
	if (q < end && (*q == 'e' || *q == 'E')) {
		*integer = 0;
		q++;
		if (q < end && (*q == '+' || *q == '-'))
			q++;
		if (q >= end || *q < '0' || *q > '9')
			return 0;
		while (q < end && *q >= '0' && *q <= '9')
			q++;
	}
	return (size_t)(q - s);
}

/* A finite number, or null as NAN when allow_null.  0 or -1. */
static int parse_number(struct jp *p, double *out, int allow_null)
{
	char buf[64];
	size_t n;
	int integer;
	char *end;

	if (peek(p) == 'n' && allow_null && take_word(p, "null") == 0) {
		*out = NAN;
		return 0;
	}
	n = number_span(p, &integer);
	if (n == 0)
		return jp_fail(p, p->pos, "expected a number%s",
			       allow_null ? " or null" : "");
	if (n >= sizeof(buf))
		return jp_fail(p, p->pos, "number longer than %zu characters",
			       sizeof(buf) - 1);
	memcpy(buf, p->s + p->pos, n);
	buf[n] = '\0';
	*out = strtod(buf, &end);
	if (isinf(*out))
		return jp_fail(p, p->pos, "number %s is out of range", buf);
	p->pos += n;
	return 0;
}

/* A non-negative integer that fits 64 bits. */
static int parse_u64(struct jp *p, uint64_t *out)
{
	char buf[32];
	size_t n;
	int integer;
	unsigned long long v;

	n = peek(p) == '-' ? 0 : number_span(p, &integer);
	if (n == 0 || !integer)
		return jp_fail(p, p->pos, "expected a non-negative integer");
	if (n >= sizeof(buf))
		return jp_fail(p, p->pos, "integer out of range");
	memcpy(buf, p->s + p->pos, n);
	buf[n] = '\0';
	errno = 0;
	v = strtoull(buf, NULL, 10);
	if (errno != 0)
		return jp_fail(p, p->pos, "integer %s out of range", buf);
	*out = v;
	p->pos += n;
	return 0;
}

static int parse_bool(struct jp *p, int *out)
{
	peek(p);
	if (take_word(p, "true") == 0)
		*out = 1;
	else if (take_word(p, "false") == 0)
		*out = 0;
	else
		return jp_fail(p, p->pos, "expected true or false");
	return 0;
}

typedef int (*member_fn)(struct jp *p, const char *key, size_t at, void *ctx);
typedef int (*item_fn)(struct jp *p, size_t index, void *ctx);

static int enter(struct jp *p)
{
	if (++p->depth > JSON_READ_MAX_DEPTH)
		return jp_fail(p, p->pos, "nested deeper than %d levels",
			       JSON_READ_MAX_DEPTH);
	return 0;
}

/*
 * A container from `open` to `close`: fn gets each item (p->pos on it),
 * items separated by commas.  Depth is counted here.
 */
static int parse_container(struct jp *p, char open, char close, item_fn fn,
			   void *ctx)
{
	int rc = -1;

	if (enter(p) != 0 || expect(p, open) != 0)
		goto out;
	if (peek(p) == (unsigned char)close) {
		p->pos++;
		rc = 0;
		goto out;
	}
	for (size_t i = 0;; i++) {
		peek(p);
		if (fn(p, i, ctx) != 0)
			goto out;
		if (peek(p) == (unsigned char)close)
			break;
		if (expect(p, ',') != 0)
			goto out;
	}
	p->pos++;
	rc = 0;
out:
	p->depth--;
	return rc;
}

struct member_ctx {
	member_fn fn;
	void *ctx;
};

/* One "key": value of an object, handed to the member callback. */
static int member_item(struct jp *p, size_t index, void *ctx)
{
	struct member_ctx *mc = ctx;
	size_t at = p->pos;
	char *key;
	int rc;

	(void)index;
	if (parse_string(p, &key) != 0)
		return -1;
	rc = expect(p, ':');
	if (rc == 0) {
		peek(p);
		rc = mc->fn(p, key, at, mc->ctx);
	}
	free(key);
	return rc;
}

/* An object; fn gets each member with p->pos on its value. */
static int parse_object(struct jp *p, member_fn fn, void *ctx)
{
	struct member_ctx mc = {fn, ctx};

	return parse_container(p, '{', '}', member_item, &mc);
}

/* An array; fn gets each item with p->pos on it. */
static int parse_array(struct jp *p, item_fn fn, void *ctx)
{
	return parse_container(p, '[', ']', fn, ctx);
}

static int skip_value(struct jp *p);

static int skip_member(struct jp *p, const char *key, size_t at, void *ctx)
{
	(void)key, (void)at, (void)ctx;
	return skip_value(p);
}

static int skip_item(struct jp *p, size_t index, void *ctx)
{
	(void)index, (void)ctx;
	return skip_value(p);
}

/* Any value, checked and thrown away (unknown members). */
static int skip_value(struct jp *p)
{
	int c = peek(p);
	double d;
	char *s;

	if (c == '{')
		return parse_object(p, skip_member, NULL);
	if (c == '[')
		return parse_array(p, skip_item, NULL);
	if (c == '"') {
		if (parse_string(p, &s) != 0)
			return -1;
		free(s);
		return 0;
	}
	if (take_word(p, "true") == 0 || take_word(p, "false") == 0 ||
	    take_word(p, "null") == 0)
		return 0;
	if (c == -1)
		return jp_fail(p, p->pos, "expected a value, got the end of "
			       "the file");
	return parse_number(p, &d, 0);
}

/* A string or null (*out NULL). */
static int parse_string_or_null(struct jp *p, char **out)
{
	*out = NULL;
	if (peek(p) == 'n' && take_word(p, "null") == 0)
		return 0;
	return parse_string(p, out);
}

/* Report a member given twice; `seen` is a bit set of member indexes. */
static int once(struct jp *p, unsigned *seen, unsigned bit, const char *key,
		size_t at)
{
	if (*seen & bit)
		return jp_fail(p, at, "member \"%s\" given twice", key);
	*seen |= bit;
	return 0;
}

/* --- metrics ------------------------------------------------------ */

struct metric_ctx {
	struct metric m;
	size_t cap;
	unsigned seen;
};

static int sample_item(struct jp *p, size_t index, void *ctx)
{
	struct metric_ctx *mc = ctx;
	double v = 0;

	(void)index;
	if (parse_number(p, &v, 1) != 0)
		return -1;
	if (mc->m.n == mc->cap) {
		size_t cap = mc->cap ? mc->cap * 2 : 8;
		double *grown = realloc(mc->m.v, cap * sizeof(*grown));
		if (grown == NULL)
			return jp_fail(p, p->pos, "out of memory");
		mc->m.v = grown;
		mc->cap = cap;
	}
	mc->m.v[mc->m.n++] = v;
	return 0;
}

static int parse_better(struct jp *p, enum metric_better *out)
{
	static const char *const names[] = {
		[BETTER_LOWER] = "lower",
		[BETTER_HIGHER] = "higher",
		[BETTER_EXACT] = "exact",
	};
	size_t at = p->pos;
	char *s;
	int rc = -1;

	if (parse_string(p, &s) != 0)
		return -1;
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		if (strcmp(s, names[i]) == 0) {
			*out = (enum metric_better)i;
			rc = 0;
		}
	}
	if (rc != 0)
		jp_fail(p, at, "better must be \"lower\", \"higher\" or "
			"\"exact\"");
	free(s);
	return rc;
}

static int metric_member(struct jp *p, const char *key, size_t at, void *ctx)
{
	struct metric_ctx *mc = ctx;

	if (strcmp(key, "unit") == 0) {
		if (once(p, &mc->seen, 1, key, at) != 0 ||
		    parse_string(p, &mc->m.unit) != 0)
			return -1;
		if (mc->m.unit[0] == '\0' || strpbrk(mc->m.unit, " \t\n") != NULL)
			return jp_fail(p, at, "a unit must be one non-empty word");
		return 0;
	}
	if (strcmp(key, "better") == 0)
		return once(p, &mc->seen, 2, key, at) != 0
			       ? -1
			       : parse_better(p, &mc->m.better);
	if (strcmp(key, "samples") == 0)
		return once(p, &mc->seen, 4, key, at) != 0
			       ? -1
			       : parse_array(p, sample_item, mc);
	return skip_value(p);
}

/* --- benchmarks --------------------------------------------------- */

struct bench_ctx {
	struct result r;
	size_t capm, capi;
	unsigned seen;
	struct results *res;
	int journal; /* a later object of a name replaces the earlier */
};

static int iter_item(struct jp *p, size_t index, void *ctx)
{
	struct bench_ctx *bc = ctx;
	uint64_t v = 0;

	(void)index;
	if (parse_u64(p, &v) != 0)
		return -1;
	if (bc->r.nsamples == bc->capi) {
		size_t cap = bc->capi ? bc->capi * 2 : 8;
		uint64_t *grown = realloc(bc->r.iters, cap * sizeof(*grown));
		if (grown == NULL)
			return jp_fail(p, p->pos, "out of memory");
		bc->r.iters = grown;
		bc->capi = cap;
	}
	bc->r.iters[bc->r.nsamples++] = v;
	return 0;
}

static int metric_item(struct jp *p, size_t index, void *ctx)
{
	struct bench_ctx *bc = ctx;
	struct metric_ctx mc = {0};
	size_t at = p->pos;

	(void)index;
	if (parse_object(p, metric_member, &mc) != 0)
		goto fail;
	if ((mc.seen & 7) != 7) {
		jp_fail(p, at, "a metric needs \"unit\", \"better\" and "
			"\"samples\"");
		goto fail;
	}
	if (result_metric(&bc->r, mc.m.unit) != NULL) {
		jp_fail(p, at, "metric \"%s\" given twice", mc.m.unit);
		goto fail;
	}
	if (bc->r.nm == bc->capm) {
		size_t cap = bc->capm ? bc->capm * 2 : 4;
		struct metric *grown = realloc(bc->r.m, cap * sizeof(*grown));
		if (grown == NULL) {
			jp_fail(p, at, "out of memory");
			goto fail;
		}
		bc->r.m = grown;
		bc->capm = cap;
	}
	bc->r.m[bc->r.nm++] = mc.m;
	return 0;
fail:
	free(mc.m.unit);
	free(mc.m.v);
	return -1;
}

static int parse_status(struct jp *p, struct result *r)
{
	size_t at = p->pos;
	char *s;
	int st;

	if (parse_string(p, &s) != 0)
		return -1;
	st = result_status_parse(s);
	free(s);
	if (st < 0)
		return jp_fail(p, at, "unknown status (ok, mismatch, error, "
			       "unsupported, timeout, unverified)");
	r->status = (enum result_status)st;
	return 0;
}

static int bench_member(struct jp *p, const char *key, size_t at, void *ctx)
{
	static const char *const keys[] = {"name",	 "suite",
					   "status",	 "message",
					   "iterations", "metrics",
					   "verified",	 "unverified"};
	struct bench_ctx *bc = ctx;
	unsigned bit = 0;

	for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++)
		if (strcmp(key, keys[i]) == 0)
			bit = 1u << i;
	if (bit == 0)
		return skip_value(p); /* "keys" is derived from the name */
	if (once(p, &bc->seen, bit, key, at) != 0)
		return -1;
	switch (bit) {
	case 1: return parse_string(p, &bc->r.name);
	case 2: return parse_string(p, &bc->r.suite);
	case 4: return parse_status(p, &bc->r);
	case 8: return parse_string_or_null(p, &bc->r.message);
	case 16: return parse_array(p, iter_item, bc);
	case 32: return parse_array(p, metric_item, bc);
	case 64: return parse_string_or_null(p, &bc->r.verified);
	default: return parse_bool(p, &bc->r.unverified);
	}
}

/* Checks a parsed benchmark and moves it into the results. */
static int bench_commit(struct jp *p, struct bench_ctx *bc, size_t at)
{
	struct result *r;

	if ((bc->seen & 3) != 3)
		return jp_fail(p, at, "a benchmark needs \"name\" and \"suite\"");
	if (bc->r.name[0] == '\0' || strpbrk(bc->r.name, " \t\n") != NULL)
		return jp_fail(p, at, "benchmark name \"%.60s\" is empty or "
			       "has blanks", bc->r.name);
	for (size_t i = 0; i < bc->r.nm; i++)
		if (bc->r.m[i].n != bc->r.nsamples)
			return jp_fail(p, at, "%s: metric %s has %zu samples "
				       "but there are %zu iterations",
				       bc->r.name, bc->r.m[i].unit,
				       bc->r.m[i].n, bc->r.nsamples);
	r = results_find(bc->res, bc->r.name);
	if (r != NULL && !bc->journal)
		return jp_fail(p, at, "benchmark %s given twice", bc->r.name);
	if (r != NULL) { /* the journal's newer line: keep its name only */
		result_reset(r);
	} else {
		r = results_add(bc->res, bc->r.suite, bc->r.name);
	}
	if (r == NULL)
		return jp_fail(p, at, "out of memory");
	r->status = bc->r.status;
	r->message = bc->r.message;
	r->verified = bc->r.verified;
	r->unverified = bc->r.unverified;
	r->iters = bc->r.iters;
	r->nsamples = bc->r.nsamples;
	r->m = bc->r.m;
	r->nm = bc->r.nm;
	bc->r.message = NULL;
	bc->r.verified = NULL;
	bc->r.iters = NULL;
	bc->r.m = NULL;
	bc->r.nm = bc->r.nsamples = 0;
	return 0;
}

struct top_ctx {
	struct results *res;
	unsigned seen;
	int journal; /* "journal": true came first */
};

static int bench_item(struct jp *p, size_t index, void *ctx)
{
	struct top_ctx *tc = ctx;
	struct bench_ctx bc = {.res = tc->res, .journal = tc->journal};
	size_t at = p->pos;
	int rc;

	(void)index;
	rc = parse_object(p, bench_member, &bc);
	if (rc == 0)
		rc = bench_commit(p, &bc, at);
	result_release(&bc.r);
	return rc;
}

/* --- the top level ------------------------------------------------ */

struct config_ctx {
	struct results *res;
	int meta;
};

static int config_member(struct jp *p, const char *key, size_t at, void *ctx)
{
	struct config_ctx *cc = ctx;
	char *v;
	int rc;

	if (parse_string(p, &v) != 0)
		return -1;
	if (key[0] == '\0' || strpbrk(key, ":\n") != NULL ||
	    strchr(v, '\n') != NULL) {
		free(v);
		return jp_fail(p, at, "configuration key \"%.60s\" or its "
			       "value cannot be a Go config line", key);
	}
	rc = cc->meta ? results_meta_set(cc->res, key, v)
		      : results_config_set(cc->res, key, v);
	free(v);
	return rc == 0 ? 0 : jp_fail(p, at, "out of memory");
}

static int check_format(struct jp *p, const char *key, size_t at)
{
	char *s;
	int ok;

	(void)key;
	if (parse_string(p, &s) != 0)
		return -1;
	ok = strcmp(s, "rxbench-results") == 0;
	free(s);
	return ok ? 0 : jp_fail(p, at, "not an rxbench results file "
				"(format is not \"rxbench-results\")");
}

static int check_version(struct jp *p, size_t at)
{
	double v;

	if (parse_number(p, &v, 0) != 0)
		return -1;
	if (v != 1)
		return jp_fail(p, at, "results format version %g; this "
			       "rxbench reads version 1", v);
	return 0;
}

/* One argument of "argv", appended to the results' command line. */
static int argv_item(struct jp *p, size_t index, void *ctx)
{
	struct results *res = ctx;
	char **grown;
	char *s;

	(void)index;
	if (parse_string(p, &s) != 0)
		return -1;
	grown = realloc(res->argv, (res->argc + 2) * sizeof(*grown));
	if (grown == NULL) {
		free(s);
		return jp_fail(p, p->pos, "out of memory");
	}
	res->argv = grown;
	res->argv[res->argc++] = s;
	res->argv[res->argc] = NULL;
	return 0;
}

static int top_member(struct jp *p, const char *key, size_t at, void *ctx)
{
	static const char *const keys[] = {"format", "version", "interrupted",
					   "config", "context", "benchmarks",
					   "journal", "argv"};
	struct top_ctx *tc = ctx;
	struct config_ctx cc = {tc->res, 0};
	unsigned bit = 0;

	for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++)
		if (strcmp(key, keys[i]) == 0)
			bit = 1u << i;
	if (bit == 0)
		return skip_value(p);
	if (once(p, &tc->seen, bit, key, at) != 0)
		return -1;
	switch (bit) {
	case 1: return check_format(p, key, at);
	case 2: return check_version(p, at);
	case 4: return parse_bool(p, &tc->res->interrupted);
	case 8: return parse_object(p, config_member, &cc);
	case 16:
		cc.meta = 1;
		return parse_object(p, config_member, &cc);
	case 32: return parse_array(p, bench_item, tc);
	case 64: return parse_bool(p, &tc->journal);
	default: return parse_array(p, argv_item, tc->res);
	}
}

int json_read_results(const char *text, size_t len, const char *name,
		      struct results *res, char *err, size_t errsize)
{
	struct jp p = {text, len, 0, name, err, errsize, 0, 0};
	struct top_ctx tc = {res, 0, 0};

	if (errsize > 0)
		err[0] = '\0';
	if (peek(&p) == -1)
		return jp_fail(&p, p.pos, "empty file, expected a JSON object");
	if (parse_object(&p, top_member, &tc) != 0)
		return jp_fail(&p, p.pos, "out of memory"); /* unless said */
	if ((tc.seen & 1) == 0)
		return jp_fail(&p, 0, "not an rxbench results file (no "
			       "\"format\" member)");
	if ((tc.seen & 2) == 0 || (tc.seen & 32) == 0)
		return jp_fail(&p, 0, "a results file needs \"version\" and "
			       "\"benchmarks\"");
	if (peek(&p) != -1)
		return jp_fail(&p, p.pos, "unexpected data after the JSON "
			       "object");
	return 0;
}

/*
 * The text a journal stands for: up to its last complete line, the comma
 * after the last benchmark dropped, the array and object closed.  NULL
 * when the head itself is incomplete or memory ran out.
 */
static char *journal_close(const char *text, size_t len, size_t *out_len)
{
	static const char tail[] = "\n ]\n}\n";
	size_t n = len;
	char *buf;

	while (n > 0 && text[n - 1] != '\n')
		n--; /* a line cut short by the kill */
	if (n >= 2 && text[n - 2] == ',')
		n -= 2;
	else if (n < 2 || text[n - 2] != '[')
		return NULL;
	buf = malloc(n + sizeof(tail));
	if (buf == NULL)
		return NULL;
	memcpy(buf, text, n);
	memcpy(buf + n, tail, sizeof(tail));
	*out_len = n + sizeof(tail) - 1;
	return buf;
}

int json_read_journal(const char *text, size_t len, const char *name,
		      struct results *res, char *err, size_t errsize)
{
	size_t n = 0;
	char *closed = journal_close(text, len, &n);
	int rc;

	if (closed == NULL) {
		snprintf(err, errsize, "%s: a journal cut short before its "
			 "first benchmark", name);
		return -1;
	}
	rc = json_read_results(closed, n, name, res, err, errsize);
	free(closed);
	res->interrupted = 1; /* the run that wrote it never ended */
	return rc;
}

/*
 * packets.c - generated packet sets with planted matches (see packets.h).
 */
#define _GNU_SOURCE
#include "corpora/packets.h"

#include "corpora/http.h"
#include "corpora/rng.h"
#include "corpora/rules.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define PRINTABLE_FIRST 0x20
#define PRINTABLE_COUNT 95 /* ' ' .. '~' */
#define DEFAULT_BYTES (4u << 20)
#define DEFAULT_MIN_COUNT 4096
#define FLOWS_SALT 0x666c6f7773ull /* "flows": the flows' own draws */
/* Rules anchored at the start of data: in a flow, only its first packet's. */
#define ANCHORED_RULES ((1u << RULE_BAD_METHOD) | (1u << RULE_ENCODED_REQLINE))

size_t packets_default_count(size_t size)
{
	size_t n = size ? DEFAULT_BYTES / size : DEFAULT_MIN_COUNT;

	return n < DEFAULT_MIN_COUNT ? DEFAULT_MIN_COUNT : n;
}

double packets_linerate_mpps(double link_gbps, double frame_bytes)
{
	return link_gbps * 1e9 / ((frame_bytes + 20.0) * 8.0) / 1e6;
}

int packets_has_pri_ate(const char *data, size_t len)
{
	const char *pri = memmem(data, len, "pri", 3);

	if (pri == NULL)
		return 0;
	pri += 3;
	return memmem(pri, len - (size_t)(pri - data), "ate", 3) != NULL;
}

void packets_release(struct packets *pk)
{
	free(pk->buf);
	free(pk->pkt);
	free(pk->mark);
	free(pk->flow);
	free(pk->flow_mark);
	memset(pk, 0, sizeof(*pk));
}

/* Printable bytes, eight per 64-bit draw (95^8 < 2^64 / 2700: bias < 0.04%). */
static void fill_printable(struct rng *r, char *p, size_t len)
{
	size_t i = 0;

	while (i < len) {
		uint64_t v = rng_next(r);
		for (int k = 0; k < 8 && i < len; k++, i++) {
			p[i] = (char)(PRINTABLE_FIRST + v % PRINTABLE_COUNT);
			v /= PRINTABLE_COUNT;
		}
	}
}

/*
 * Break every "pri" by redrawing its 'i' among the bytes that are neither
 * 'i' nor 'p': the new byte cannot end this "pri" nor start another, and
 * the byte before it is 'r', so no "pri" is left (one pass suffices).
 */
static void remove_pri(struct rng *r, char *p, size_t len)
{
	for (size_t i = 0; i + 3 <= len; i++) {
		char c;
		if (p[i] != 'p' || p[i + 1] != 'r' || p[i + 2] != 'i')
			continue;
		do
			c = (char)(PRINTABLE_FIRST + rng_below(r, PRINTABLE_COUNT));
		while (c == 'i' || c == 'p');
		p[i + 2] = c;
	}
}

/* Plant "private" (LITERAL) or "pri" ... "ate" (FULLSCAN) into p. */
static void plant(struct rng *r, char *p, size_t size, enum packets_kind kind)
{
	size_t a, b;

	if (kind == PACKETS_LITERAL) {
		a = rng_below(r, size - 7 + 1);
		memcpy(p + a, PACKETS_LITERAL_NEEDLE, 7);
		return;
	}
	a = rng_below(r, size - 6 + 1);
	b = a + 3 + rng_below(r, size - 3 - (a + 3) + 1);
	memcpy(p + a, "pri", 3);
	memcpy(p + b, "ate", 3);
}

/* Fill packet i of pk; `hit` says whether it carries a match. */
static void fill_packet(struct rng *r, struct packets *pk, size_t i,
			enum packets_kind kind, int hit)
{
	char *p = pk->buf + i * pk->size;

	if (kind == PACKETS_HTTP) {
		pk->mark[i] = http_packet(r, p, pk->size, hit);
	} else {
		fill_printable(r, p, pk->size);
		remove_pri(r, p, pk->size);
		if (hit)
			plant(r, p, pk->size, kind);
		pk->mark[i] = (uint32_t)hit;
	}
	pk->nplanted += pk->mark[i] != 0;
	pk->pkt[i].p = p;
	pk->pkt[i].len = pk->size;
}

static int spec_valid(const struct packets_spec *spec)
{
	return spec->size >= PACKETS_MIN_SIZE && spec->size <= PACKETS_MAX_SIZE &&
	       spec->match_rate >= 0 && spec->match_rate <= 1;
}

/* ---- flows ---- */

/*
 * A "pri" across the boundary before packet b (filler "p|ri" or "pr|i")
 * is broken by redrawing b's first byte among those that are none of
 * 'p', 'r', 'i': it then ends no "pri" and starts none.  The first byte
 * of a packet is never part of a plant ("pri", "ate", "private" start
 * with neither 'r' nor 'i').
 */
static void break_boundary(struct rng *r, const struct packets *pk, size_t b)
{
	const struct packet *a = &pk->pkt[b - 1];
	char *h = pk->buf + b * pk->size;
	int cut = (a->p[a->len - 1] == 'p' && h[0] == 'r' && h[1] == 'i') ||
		  (a->p[a->len - 2] == 'p' && a->p[a->len - 1] == 'r' &&
		   h[0] == 'i');
	char c;

	if (!cut)
		return;
	do
		c = (char)(PRINTABLE_FIRST + rng_below(r, PRINTABLE_COUNT));
	while (c == 'p' || c == 'r' || c == 'i');
	h[0] = c;
}

/*
 * Plant text across the boundary before packet b: its first k bytes end
 * packet b - 1, the rest start b.  The cut points keep each half from
 * matching alone (see packets.h).  Returns the mask the flow gains.
 */
static uint32_t split_plant(struct rng *r, struct packets *pk, size_t b,
			    enum packets_kind kind)
{
	const char *text = kind == PACKETS_HTTP ? PACKETS_SPLIT_HTTP
						: PACKETS_LITERAL_NEEDLE;
	size_t len = strlen(text);
	/* "private": any cut; the HTTP text: before its ':' (index 6) */
	size_t k = 1 + rng_below(r, kind == PACKETS_HTTP ? 6 : len - 1);
	char *tail = pk->buf + b * pk->size - k;

	if (pk->size < len)
		return 0;
	memcpy(tail, text, k);
	memcpy(pk->buf + b * pk->size, text + k, len - k);
	return kind == PACKETS_HTTP ? 1u << RULE_LOG4SHELL : 1u;
}

/* What flow [first, end) carries as a stream, before any split plant. */
static uint32_t flow_truth(const struct packets *pk, size_t first, size_t end,
			   enum packets_kind kind)
{
	uint32_t m = pk->mark[first];

	for (size_t i = first + 1; i < end; i++)
		m |= kind == PACKETS_HTTP ? pk->mark[i] & ~ANCHORED_RULES
					  : pk->mark[i];
	return m;
}

/* Flow f's boundaries fixed and, at the rate, a split plant. */
static void flow_fill(struct rng *r, struct packets *pk, size_t f,
		      enum packets_kind kind, double rate)
{
	size_t first = pk->flow[f], end = pk->flow[f + 1], b;
	uint32_t split = 0;

	for (b = first + 1; kind != PACKETS_HTTP && b < end; b++)
		break_boundary(r, pk, b);
	if (end - first >= 2 &&
	    (double)rng_below(r, 1000000) < rate * 1e6) {
		b = first + 1 + rng_below(r, end - first - 1);
		if (pk->mark[b - 1] == 0 && pk->mark[b] == 0)
			split = split_plant(r, pk, b, kind);
	}
	pk->nsplit += split != 0;
	pk->flow_mark[f] = flow_truth(pk, first, end, kind) | split;
}

/* Cut pk into flows (packets.h).  0, or -1 out of memory. */
static int make_flows(struct packets *pk, enum packets_kind kind,
		      const struct packets_spec *spec)
{
	struct rng r;
	size_t nf = 0;

	pk->flow = malloc((pk->n + 1) * sizeof(*pk->flow));
	pk->flow_mark = calloc(pk->n + 1, sizeof(*pk->flow_mark));
	if (pk->flow == NULL || pk->flow_mark == NULL)
		return -1;
	rng_init(&r, spec->seed ^ FLOWS_SALT ^ ((uint64_t)spec->size << 32) ^
			     (uint64_t)kind);
	for (size_t i = 0; i < pk->n; nf++) {
		size_t len = PACKETS_FLOW_MIN +
			     rng_below(&r, PACKETS_FLOW_MAX - PACKETS_FLOW_MIN + 1);
		pk->flow[nf] = i;
		i += len < pk->n - i ? len : pk->n - i;
	}
	pk->flow[nf] = pk->n;
	pk->nflows = nf;
	for (size_t f = 0; f < nf; f++)
		flow_fill(&r, pk, f, kind, spec->match_rate);
	return 0;
}

int packets_flow_view(const struct packets *pk, struct packets *view)
{
	double bytes = 0;

	memset(view, 0, sizeof(*view));
	if (pk->flow == NULL || pk->nflows == 0)
		return -1;
	view->pkt = malloc(pk->nflows * sizeof(*view->pkt));
	view->mark = pk->flow_mark ? malloc(pk->nflows * sizeof(*view->mark))
				   : NULL;
	if (view->pkt == NULL || (pk->flow_mark != NULL && view->mark == NULL)) {
		packets_release(view);
		return -1;
	}
	for (size_t f = 0; f < pk->nflows; f++) {
		const struct packet *last = &pk->pkt[pk->flow[f + 1] - 1];
		const char *p = pk->pkt[pk->flow[f]].p;
		view->pkt[f] = (struct packet){p, (size_t)(last->p + last->len - p)};
		bytes += (double)view->pkt[f].len;
		if (view->mark != NULL) {
			view->mark[f] = pk->flow_mark[f];
			view->nplanted += view->mark[f] != 0;
		}
	}
	view->n = pk->nflows;
	view->wire_bytes = pk->wire_bytes;
	view->payload_bytes = bytes / (double)pk->nflows;
	return 0;
}

int packets_generate(struct packets *pk, enum packets_kind kind,
		     const struct packets_spec *spec)
{
	struct rng r;
	size_t n, want;

	memset(pk, 0, sizeof(*pk));
	if (!spec_valid(spec))
		return -1;
	n = spec->count ? spec->count : packets_default_count(spec->size);
	pk->buf = malloc(n * spec->size + 1);
	pk->pkt = malloc(n * sizeof(*pk->pkt));
	pk->mark = calloc(n, sizeof(*pk->mark));
	if (pk->buf == NULL || pk->pkt == NULL || pk->mark == NULL) {
		packets_release(pk);
		return -1;
	}
	pk->n = n;
	pk->size = spec->size;
	pk->wire_bytes = (double)spec->size;
	pk->payload_bytes = (double)spec->size;
	rng_init(&r, spec->seed ^ ((uint64_t)spec->size << 32) ^ (uint64_t)kind);
	want = (size_t)llround(spec->match_rate * (double)n);
	/* selection sampling: exactly `want` of the n packets, uniformly */
	for (size_t i = 0; i < n; i++) {
		int hit = rng_below(&r, n - i) < want;
		want -= (size_t)hit;
		fill_packet(&r, pk, i, kind, hit);
	}
	pk->buf[n * spec->size] = '\0';
	if (make_flows(pk, kind, spec) != 0) {
		packets_release(pk);
		return -1;
	}
	return 0;
}

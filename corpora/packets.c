/*
 * packets.c - generated packet sets with planted matches (see packets.h).
 */
#define _GNU_SOURCE
#include "corpora/packets.h"

#include "corpora/http.h"
#include "corpora/rng.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define PRINTABLE_FIRST 0x20
#define PRINTABLE_COUNT 95 /* ' ' .. '~' */
#define DEFAULT_BYTES (4u << 20)
#define DEFAULT_MIN_COUNT 4096

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
	return 0;
}

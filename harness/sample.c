/*
 * sample.c - the wire form of one sample (see sample.h).
 */
#include "harness/sample.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#define SAMPLE_MAGIC "RXS1"

/* A cursor over a byte buffer; writes and reads fail once it would overflow. */
struct wire {
	unsigned char *p;
	size_t len, size;
	int bad;
};

static void wire_put(struct wire *w, const void *src, size_t n)
{
	if (w->bad || n > w->size - w->len) {
		w->bad = 1;
		return;
	}
	memcpy(w->p + w->len, src, n);
	w->len += n;
}

static void wire_get(struct wire *w, void *dst, size_t n)
{
	if (w->bad || n > w->size - w->len) {
		w->bad = 1;
		memset(dst, 0, n);
		return;
	}
	memcpy(dst, w->p + w->len, n);
	w->len += n;
}

size_t sample_encode(const struct result *r, size_t sample, int rc,
		     const char *why, unsigned char *buf, size_t size)
{
	struct wire w = {buf, 0, size, 0};
	int32_t rc32 = rc;
	uint64_t iters = 0;
	uint16_t nm = 0, wlen = 0;

	if (rc == 0 && sample < r->nsamples) {
		iters = r->iters[sample];
		nm = (uint16_t)r->nm;
	}
	if (rc < 0 && why != NULL)
		wlen = (uint16_t)strnlen(why, 1024);
	wire_put(&w, SAMPLE_MAGIC, 4);
	wire_put(&w, &rc32, sizeof(rc32));
	wire_put(&w, &wlen, sizeof(wlen));
	if (wlen > 0)
		wire_put(&w, why, wlen);
	wire_put(&w, &iters, sizeof(iters));
	wire_put(&w, &nm, sizeof(nm));
	for (size_t i = 0; i < nm; i++) {
		const struct metric *m = &r->m[i];
		size_t ulen = strlen(m->unit);
		uint8_t better = (uint8_t)m->better, u8 = (uint8_t)ulen;
		double v = sample < m->n ? m->v[sample] : NAN;

		if (ulen > 255)
			return 0;
		wire_put(&w, &better, 1);
		wire_put(&w, &u8, 1);
		wire_put(&w, m->unit, ulen);
		wire_put(&w, &v, sizeof(v));
	}
	return w.bad ? 0 : w.len;
}

/* Decode the metrics of one sample into r (its sample already begun). */
static int decode_metrics(struct wire *w, uint16_t nm, struct result *r)
{
	for (uint16_t i = 0; i < nm; i++) {
		uint8_t better, ulen;
		char unit[256];
		double v;

		wire_get(w, &better, 1);
		wire_get(w, &ulen, 1);
		wire_get(w, unit, ulen);
		unit[ulen] = '\0';
		wire_get(w, &v, sizeof(v));
		if (w->bad || better > BETTER_EXACT || ulen == 0 ||
		    memchr(unit, '\0', ulen) != NULL)
			return -1;
		if (!isnan(v) && result_metric_add(r, unit,
						   (enum metric_better)better,
						   v) != 0)
			return -1;
	}
	return 0;
}

int sample_decode(const unsigned char *buf, size_t len, struct result *r,
		  int *rc, char *why, size_t size)
{
	struct wire w = {(unsigned char *)buf, 0, len, 0};
	char magic[4], text[1024];
	int32_t rc32;
	uint64_t iters;
	uint16_t nm, wlen;

	wire_get(&w, magic, 4);
	wire_get(&w, &rc32, sizeof(rc32));
	wire_get(&w, &wlen, sizeof(wlen));
	if (w.bad || wlen >= sizeof(text))
		return -1;
	wire_get(&w, text, wlen);
	text[wlen] = '\0';
	if (size > 0)
		snprintf(why, size, "%s", text);
	wire_get(&w, &iters, sizeof(iters));
	wire_get(&w, &nm, sizeof(nm));
	if (w.bad || memcmp(magic, SAMPLE_MAGIC, 4) != 0 || rc32 > 0)
		return -1;
	*rc = rc32;
	if (rc32 < 0)
		return nm == 0 && w.len == len ? 0 : -1;
	if (iters == 0 || result_sample_begin(r, iters) < 0)
		return -1;
	if (decode_metrics(&w, nm, r) != 0)
		return -1;
	return w.len == len ? 0 : -1;
}

/*
 * pcap.c - TCP/UDP payloads from pcap/pcapng files (see pcap.h).
 *
 * Every length read from a frame is checked against what was captured
 * before it is used: a malformed frame is skipped, never read past.
 */
#include "corpora/pcap.h"

#include <errno.h>
#include <pcap/pcap.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define ETHERTYPE_IPV4 0x0800
#define ETHERTYPE_IPV6 0x86dd
#define IPPROTO_TCP_ 6
#define IPPROTO_UDP_ 17
#define WIRE_OVERHEAD 18 /* Ethernet header 14 + FCS 4 */

static unsigned be16(const unsigned char *p)
{
	return (unsigned)p[0] << 8 | p[1];
}

/* A frame being decoded: f[0..cap), the current offset, its flow key. */
struct frame {
	const unsigned char *f;
	size_t cap;
	size_t at;
	struct pcap_flowkey key;
};

/* The TCP or UDP payload at fr->at (the L4 header) of protocol proto. */
static int l4_payload(struct frame *fr, int proto, size_t l4_len,
		      size_t *off, size_t *len)
{
	size_t hdr;

	if (proto == IPPROTO_TCP_) {
		if (l4_len < 20 || fr->at + 13 > fr->cap)
			return 0;
		hdr = (size_t)(fr->f[fr->at + 12] >> 4) * 4;
		if (hdr < 20)
			return 0;
		fr->key.seq = (uint32_t)be16(fr->f + fr->at + 4) << 16 |
			      be16(fr->f + fr->at + 6);
	} else if (proto == IPPROTO_UDP_) {
		if (l4_len < 8 || fr->at + 8 > fr->cap)
			return 0;
		hdr = 8;
		if (be16(fr->f + fr->at + 4) >= 8 && be16(fr->f + fr->at + 4) < l4_len)
			l4_len = be16(fr->f + fr->at + 4);
	} else {
		return 0;
	}
	fr->key.proto = (unsigned char)proto;
	fr->key.sport = (uint16_t)be16(fr->f + fr->at);
	fr->key.dport = (uint16_t)be16(fr->f + fr->at + 2);
	if (hdr >= l4_len || fr->at + hdr >= fr->cap)
		return 0;
	*off = fr->at + hdr;
	*len = l4_len - hdr;
	if (*off + *len > fr->cap) /* snapped short: keep what was captured */
		*len = fr->cap - *off;
	return *len > 0;
}

static int ipv4(struct frame *fr, size_t *off, size_t *len, size_t *ip_len)
{
	const unsigned char *h = fr->f + fr->at;
	size_t ihl, total;

	if (fr->at + 20 > fr->cap || (h[0] >> 4) != 4)
		return 0;
	ihl = (size_t)(h[0] & 15) * 4;
	total = be16(h + 2);
	if (ihl < 20 || total <= ihl || (be16(h + 6) & 0x1fff) != 0)
		return 0; /* malformed, or a non-first fragment */
	*ip_len = total;
	memcpy(fr->key.src, h + 12, 4);
	memcpy(fr->key.dst, h + 16, 4);
	fr->at += ihl;
	return l4_payload(fr, h[9], total - ihl, off, len);
}

/* IPv6 with its extension headers (hop-by-hop, routing, fragment, dest, AH). */
static int ipv6(struct frame *fr, size_t *off, size_t *len, size_t *ip_len)
{
	const unsigned char *h = fr->f + fr->at;
	size_t rest;
	int next;

	if (fr->at + 40 > fr->cap || (h[0] >> 4) != 6)
		return 0;
	rest = be16(h + 4);
	next = h[6];
	*ip_len = rest + 40;
	memcpy(fr->key.src, h + 8, 16);
	memcpy(fr->key.dst, h + 24, 16);
	fr->key.v6 = 1;
	fr->at += 40;
	for (int hops = 0; hops < 8; hops++) {
		const unsigned char *e = fr->f + fr->at;
		size_t elen;
		if (next != 0 && next != 43 && next != 44 && next != 60 && next != 51)
			return l4_payload(fr, next, rest, off, len);
		if (fr->at + 8 > fr->cap)
			return 0;
		if (next == 44 && (be16(e + 2) & 0xfff8) != 0)
			return 0; /* non-first fragment */
		elen = next == 44 ? 8 : next == 51 ? ((size_t)e[1] + 2) * 4
						   : ((size_t)e[1] + 1) * 8;
		if (elen >= rest)
			return 0;
		next = e[0];
		rest -= elen;
		fr->at += elen;
	}
	return 0;
}

static int by_ethertype(struct frame *fr, unsigned type, size_t *off,
			size_t *len, size_t *ip_len)
{
	if (type == ETHERTYPE_IPV4)
		return ipv4(fr, off, len, ip_len);
	if (type == ETHERTYPE_IPV6)
		return ipv6(fr, off, len, ip_len);
	return 0;
}

static int by_version(struct frame *fr, size_t *off, size_t *len,
		      size_t *ip_len)
{
	if (fr->at >= fr->cap)
		return 0;
	return (fr->f[fr->at] >> 4) == 4 ? ipv4(fr, off, len, ip_len)
					 : ipv6(fr, off, len, ip_len);
}

static int ethernet(struct frame *fr, size_t *off, size_t *len, size_t *ip_len)
{
	unsigned type;

	if (fr->cap < 14)
		return 0;
	type = be16(fr->f + 12);
	fr->at = 14;
	/* up to two VLAN tags (802.1Q, 802.1ad, the old QinQ 0x9100) */
	for (int tags = 0; tags < 2 && (type == 0x8100 || type == 0x88a8 ||
					type == 0x9100); tags++) {
		if (fr->at + 4 > fr->cap)
			return 0;
		type = be16(fr->f + fr->at + 2);
		fr->at += 4;
	}
	return by_ethertype(fr, type, off, len, ip_len);
}

int pcap_link_supported(int dlt)
{
	return dlt == DLT_EN10MB || dlt == DLT_LINUX_SLL ||
	       dlt == DLT_LINUX_SLL2 || dlt == DLT_RAW || dlt == DLT_IPV4 ||
	       dlt == DLT_IPV6 || dlt == DLT_NULL || dlt == DLT_LOOP;
}

int pcap_frame_payload(int dlt, const unsigned char *f, size_t caplen,
		       size_t *off, size_t *len, size_t *ip_len)
{
	struct pcap_flowkey key;

	return pcap_frame_flow(dlt, f, caplen, &key, off, len, ip_len);
}

/* The frame's payload and, in fr->key, its flow (pcap_frame_flow). */
static int frame_decode(int dlt, struct frame *fr, size_t *off, size_t *len,
			size_t *ip_len)
{
	const unsigned char *f = fr->f;
	size_t caplen = fr->cap;

	switch (dlt) {
	case DLT_EN10MB:
		return ethernet(fr, off, len, ip_len);
	case DLT_LINUX_SLL:
		if (caplen < 16)
			return 0;
		fr->at = 16;
		return by_ethertype(fr, be16(f + 14), off, len, ip_len);
	case DLT_LINUX_SLL2:
		if (caplen < 20)
			return 0;
		fr->at = 20;
		return by_ethertype(fr, be16(f), off, len, ip_len);
	case DLT_NULL:
	case DLT_LOOP:
		/* a 4-byte address family, byte order of the capturing host */
		fr->at = 4;
		return caplen >= 4 ? by_version(fr, off, len, ip_len) : 0;
	case DLT_RAW:
	case DLT_IPV4:
	case DLT_IPV6:
		return by_version(fr, off, len, ip_len);
	}
	return 0;
}

int pcap_frame_flow(int dlt, const unsigned char *f, size_t caplen,
		    struct pcap_flowkey *key, size_t *off, size_t *len,
		    size_t *ip_len)
{
	struct frame fr;
	int rc;

	memset(&fr, 0, sizeof(fr));
	fr.f = f;
	fr.cap = caplen;
	rc = frame_decode(dlt, &fr, off, len, ip_len);
	*key = fr.key;
	return rc;
}

/* Payloads gathered while reading: offsets into buf until the end. */
struct gather {
	char *buf;
	size_t used, cap;
	size_t *off, *len;
	struct pcap_flowkey *key; /* per payload: its flow */
	double *wire;             /* per payload: its frame's wire bytes */
	size_t n, ncap;
};

/* g->field grown to n entries, or return -1 (g->field unchanged). */
#define GATHER_GROW(g, field, n)                                            \
	do {                                                                \
		void *grown_ = realloc((g)->field, (n) * sizeof(*(g)->field)); \
		if (grown_ == NULL)                                         \
			return -1;                                          \
		(g)->field = grown_;                                        \
	} while (0)

/* Room for one more payload's entries.  0, or -1 out of memory. */
static int gather_grow(struct gather *g)
{
	size_t ncap = g->ncap ? g->ncap * 2 : 1024;

	GATHER_GROW(g, off, ncap);
	GATHER_GROW(g, len, ncap);
	GATHER_GROW(g, key, ncap);
	GATHER_GROW(g, wire, ncap);
	g->ncap = ncap;
	return 0;
}

static int gather_add(struct gather *g, const unsigned char *p, size_t len,
		      size_t ip_len, const struct pcap_flowkey *key)
{
	if (g->used + len + 1 > g->cap) {
		size_t cap = (g->cap ? g->cap * 2 : 1u << 20) + len;
		char *grown = realloc(g->buf, cap);
		if (grown == NULL)
			return -1;
		g->buf = grown;
		g->cap = cap;
	}
	if (g->n == g->ncap && gather_grow(g) != 0)
		return -1;
	memcpy(g->buf + g->used, p, len);
	g->off[g->n] = g->used;
	g->len[g->n] = len;
	g->key[g->n] = *key;
	g->wire[g->n] = (double)(ip_len + WIRE_OVERHEAD);
	g->used += len;
	g->n++;
	return 0;
}

static void gather_free(struct gather *g)
{
	free(g->buf);
	free(g->off);
	free(g->len);
	free(g->key);
	free(g->wire);
}

/* Move the gathered payloads into pk. */
static int gather_finish(struct gather *g, struct packets *pk)
{
	double wire = 0;

	memset(pk, 0, sizeof(*pk));
	pk->pkt = malloc(g->n * sizeof(*pk->pkt));
	if (pk->pkt == NULL)
		return -1;
	pk->buf = g->buf;
	pk->buf[g->used] = '\0';
	for (size_t i = 0; i < g->n; i++) {
		pk->pkt[i].p = g->buf + g->off[i];
		pk->pkt[i].len = g->len[i];
		wire += g->wire[i];
	}
	pk->n = g->n;
	pk->wire_bytes = wire / (double)g->n;
	pk->payload_bytes = (double)g->used / (double)g->n;
	g->buf = NULL;
	return 0;
}

/* ---- flows (pcap_load_flows) ---- */

/* A payload being placed: its index and its offset in its flow. */
struct seg {
	const struct gather *g;
	size_t i;
	int64_t rel; /* TCP: sequence number less the flow's first; UDP: 0 */
};

/* Orders by 5-tuple, then by capture order. */
static int tuple_cmp(const struct pcap_flowkey *a, const struct pcap_flowkey *b)
{
	int c = memcmp(a->src, b->src, sizeof(a->src));

	if (c == 0)
		c = memcmp(a->dst, b->dst, sizeof(a->dst));
	if (c == 0)
		c = (a->proto > b->proto) - (a->proto < b->proto);
	if (c == 0)
		c = (a->sport > b->sport) - (a->sport < b->sport);
	if (c == 0)
		c = (a->dport > b->dport) - (a->dport < b->dport);
	if (c == 0)
		c = (a->v6 > b->v6) - (a->v6 < b->v6);
	return c;
}

static int seg_by_tuple(const void *x, const void *y)
{
	const struct seg *a = x, *b = y;
	int c = tuple_cmp(&a->g->key[a->i], &b->g->key[b->i]);

	return c != 0 ? c : (a->i > b->i) - (a->i < b->i);
}

/* Within a flow: by sequence offset, then capture order (first copy first). */
static int seg_by_seq(const void *x, const void *y)
{
	const struct seg *a = x, *b = y;

	if (a->rel != b->rel)
		return a->rel < b->rel ? -1 : 1;
	return (a->i > b->i) - (a->i < b->i);
}

/* The flows being built: payload bytes in flow order, and boundaries. */
struct flowbuild {
	struct gather out;
	size_t *flow;
	size_t nflows;
};

/* Start a flow at the next payload of fb. */
static void flow_start(struct flowbuild *fb)
{
	if (fb->nflows == 0 || fb->flow[fb->nflows - 1] != fb->out.n)
		fb->flow[fb->nflows++] = fb->out.n;
}

/*
 * One flow's segments s[0..n), sorted by seg_by_seq, into fb: a segment
 * wholly before the next expected byte is a retransmission and dropped;
 * one that overlaps it loses the bytes already taken (the first copy in
 * sequence order is kept); a gap ends the stream, the segments past it
 * start a new flow.  UDP: every datagram, in capture order.  0 or -1.
 */
static int flow_place(struct flowbuild *fb, const struct seg *s, size_t n)
{
	int64_t next = s[0].rel;

	flow_start(fb);
	for (size_t k = 0; k < n; k++) {
		const struct gather *g = s[k].g;
		size_t i = s[k].i, skip = 0;
		int64_t end = s[k].rel + (int64_t)g->len[i];
		if (g->key[i].proto == 6) {
			if (end <= next)
				continue;
			if (s[k].rel > next)
				flow_start(fb);
			else
				skip = (size_t)(next - s[k].rel);
			next = end;
		}
		if (gather_add(&fb->out, (const unsigned char *)g->buf +
				       g->off[i] + skip, g->len[i] - skip,
			       (size_t)g->wire[i] - WIRE_OVERHEAD, &g->key[i]) != 0)
			return -1;
	}
	return 0;
}

/* Offsets of a TCP flow's segments from its first captured one. */
static void flow_offsets(struct seg *s, size_t n)
{
	uint32_t base = s[0].g->key[s[0].i].seq;
	int64_t low = 0;

	for (size_t k = 0; k < n; k++) {
		s[k].rel = (int32_t)(s[k].g->key[s[k].i].seq - base);
		low = s[k].rel < low ? s[k].rel : low;
	}
	for (size_t k = 0; k < n; k++)
		s[k].rel -= low;
	qsort(s, n, sizeof(*s), seg_by_seq);
}

/* Regroup g's payloads by flow into fb.  0, or -1 out of memory. */
static int flows_group(const struct gather *g, struct flowbuild *fb)
{
	struct seg *s = malloc(g->n * sizeof(*s));
	int rc = 0;

	fb->flow = malloc((2 * g->n + 1) * sizeof(*fb->flow));
	if (s == NULL || fb->flow == NULL) {
		free(s);
		return -1;
	}
	for (size_t i = 0; i < g->n; i++)
		s[i] = (struct seg){g, i, 0};
	qsort(s, g->n, sizeof(*s), seg_by_tuple);
	for (size_t a = 0, b; a < g->n && rc == 0; a = b) {
		for (b = a + 1; b < g->n && tuple_cmp(&g->key[s[a].i],
						      &g->key[s[b].i]) == 0;)
			b++;
		if (g->key[s[a].i].proto == 6)
			flow_offsets(s + a, b - a);
		rc = flow_place(fb, s + a, b - a);
	}
	fb->flow[fb->nflows] = fb->out.n;
	free(s);
	return rc;
}

/* g's payloads as flows, into pk.  0, or -1 out of memory. */
static int flows_finish(const struct gather *g, struct packets *pk)
{
	struct flowbuild fb = {0};
	int rc = flows_group(g, &fb);

	if (rc == 0)
		rc = gather_finish(&fb.out, pk);
	if (rc == 0) {
		pk->flow = fb.flow;
		pk->nflows = fb.nflows;
		fb.flow = NULL;
	}
	free(fb.flow);
	gather_free(&fb.out);
	return rc;
}

/* libpcap's message, prefixed with the file name unless it has it. */
static void pcap_msg(char *err, size_t errsize, const char *path,
		     const char *msg)
{
	if (strncmp(msg, path, strlen(path)) == 0)
		snprintf(err, errsize, "%s", msg);
	else
		snprintf(err, errsize, "%s: %s", path, msg);
}

/* Read every frame of p.  0, or -1 with err filled. */
static int read_frames(pcap_t *p, const char *path, struct gather *g,
		       size_t *frames, char *err, size_t errsize)
{
	struct pcap_pkthdr *h;
	const unsigned char *data;
	int dlt = pcap_datalink(p), rc;

	if (!pcap_link_supported(dlt)) {
		snprintf(err, errsize, "%s: link type %s is not supported "
			 "(Ethernet, Linux cooked, raw IP and loopback are)",
			 path, pcap_datalink_val_to_name(dlt)
				       ? pcap_datalink_val_to_name(dlt) : "?");
		return -1;
	}
	for (;;) {
		size_t off, len, ip_len;
		struct pcap_flowkey key;

		rc = pcap_next_ex(p, &h, &data);
		if (rc != 1)
			break;
		(*frames)++;
		if (pcap_frame_flow(dlt, data, h->caplen, &key, &off, &len,
				    &ip_len) &&
		    gather_add(g, data + off, len, ip_len, &key) != 0) {
			snprintf(err, errsize, "%s: out of memory", path);
			return -1;
		}
	}
	if (rc == PCAP_ERROR) {
		char msg[PCAP_ERRBUF_SIZE + 64];
		snprintf(msg, sizeof(msg), "%s (after %zu packets)", pcap_geterr(p),
			 *frames);
		pcap_msg(err, errsize, path, msg);
		return -1;
	}
	return 0;
}

/* Read the capture p was opened on into pk.  0, or -1 with err filled. */
static int load_opened(struct packets *pk, pcap_t *p, const char *name,
		       int flows, char *err, size_t errsize)
{
	struct gather g = {0};
	size_t frames = 0;
	int rc = -1;

	if (read_frames(p, name, &g, &frames, err, errsize) != 0)
		goto out;
	if (g.n == 0) {
		snprintf(err, errsize, "%s: no TCP or UDP payload in %zu packets",
			 name, frames);
		goto out;
	}
	rc = flows ? flows_finish(&g, pk) : gather_finish(&g, pk);
	if (rc != 0)
		snprintf(err, errsize, "%s: out of memory", name);
out:
	gather_free(&g);
	return rc;
}

/* Either loader on fp (flows: grouped into flows). */
static int load_fp(struct packets *pk, FILE *fp, const char *name, int flows,
		   char *err, size_t errsize)
{
	char ebuf[PCAP_ERRBUF_SIZE] = "";
	pcap_t *p;
	int rc;

	memset(pk, 0, sizeof(*pk));
	p = pcap_fopen_offline(fp, ebuf);
	if (p == NULL) {
		fclose(fp);
		pcap_msg(err, errsize, name, ebuf);
		return -1;
	}
	rc = load_opened(pk, p, name, flows, err, errsize);
	pcap_close(p); /* closes fp */
	return rc;
}

int pcap_load_payloads_fp(struct packets *pk, FILE *fp, const char *name,
			  char *err, size_t errsize)
{
	return load_fp(pk, fp, name, 0, err, errsize);
}

int pcap_load_flows_fp(struct packets *pk, FILE *fp, const char *name,
		       char *err, size_t errsize)
{
	return load_fp(pk, fp, name, 1, err, errsize);
}

/* Open path for either loader. */
static int load_path(struct packets *pk, const char *path, int flows,
		     char *err, size_t errsize)
{
	struct stat sb;
	FILE *fp;

	memset(pk, 0, sizeof(*pk));
	fp = fopen(path, "rb");
	if (fp == NULL) {
		snprintf(err, errsize, "%s: %s", path, strerror(errno));
		return -1;
	}
	if (fstat(fileno(fp), &sb) == 0 && S_ISDIR(sb.st_mode)) {
		fclose(fp);
		snprintf(err, errsize, "%s: is a directory", path);
		return -1;
	}
	return load_fp(pk, fp, path, flows, err, errsize);
}

int pcap_load_payloads(struct packets *pk, const char *path, char *err,
		       size_t errsize)
{
	return load_path(pk, path, 0, err, errsize);
}

int pcap_load_flows(struct packets *pk, const char *path, char *err,
		    size_t errsize)
{
	return load_path(pk, path, 1, err, errsize);
}

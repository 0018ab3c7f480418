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

/* A frame being decoded: f[0..cap) and the current offset. */
struct frame {
	const unsigned char *f;
	size_t cap;
	size_t at;
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
	} else if (proto == IPPROTO_UDP_) {
		if (l4_len < 8 || fr->at + 8 > fr->cap)
			return 0;
		hdr = 8;
		if (be16(fr->f + fr->at + 4) >= 8 && be16(fr->f + fr->at + 4) < l4_len)
			l4_len = be16(fr->f + fr->at + 4);
	} else {
		return 0;
	}
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
	struct frame fr = {f, caplen, 0};

	switch (dlt) {
	case DLT_EN10MB:
		return ethernet(&fr, off, len, ip_len);
	case DLT_LINUX_SLL:
		if (caplen < 16)
			return 0;
		fr.at = 16;
		return by_ethertype(&fr, be16(f + 14), off, len, ip_len);
	case DLT_LINUX_SLL2:
		if (caplen < 20)
			return 0;
		fr.at = 20;
		return by_ethertype(&fr, be16(f), off, len, ip_len);
	case DLT_NULL:
	case DLT_LOOP:
		/* a 4-byte address family, byte order of the capturing host */
		fr.at = 4;
		return caplen >= 4 ? by_version(&fr, off, len, ip_len) : 0;
	case DLT_RAW:
	case DLT_IPV4:
	case DLT_IPV6:
		return by_version(&fr, off, len, ip_len);
	}
	return 0;
}

/* Payloads gathered while reading: offsets into buf until the end. */
struct gather {
	char *buf;
	size_t used, cap;
	size_t *off, *len;
	size_t n, ncap;
	double wire;
};

static int gather_add(struct gather *g, const unsigned char *p, size_t len,
		      size_t ip_len)
{
	if (g->used + len + 1 > g->cap) {
		size_t cap = (g->cap ? g->cap * 2 : 1u << 20) + len;
		char *grown = realloc(g->buf, cap);
		if (grown == NULL)
			return -1;
		g->buf = grown;
		g->cap = cap;
	}
	if (g->n == g->ncap) {
		size_t ncap = g->ncap ? g->ncap * 2 : 1024;
		size_t *o = realloc(g->off, ncap * sizeof(*o));
		size_t *l = o ? realloc(g->len, ncap * sizeof(*l)) : NULL;
		if (o != NULL)
			g->off = o;
		if (l == NULL)
			return -1;
		g->len = l;
		g->ncap = ncap;
	}
	memcpy(g->buf + g->used, p, len);
	g->off[g->n] = g->used;
	g->len[g->n] = len;
	g->used += len;
	g->n++;
	g->wire += (double)(ip_len + WIRE_OVERHEAD);
	return 0;
}

/* Move the gathered payloads into pk. */
static int gather_finish(struct gather *g, struct packets *pk)
{
	memset(pk, 0, sizeof(*pk));
	pk->pkt = malloc(g->n * sizeof(*pk->pkt));
	if (pk->pkt == NULL)
		return -1;
	pk->buf = g->buf;
	pk->buf[g->used] = '\0';
	for (size_t i = 0; i < g->n; i++) {
		pk->pkt[i].p = g->buf + g->off[i];
		pk->pkt[i].len = g->len[i];
	}
	pk->n = g->n;
	pk->wire_bytes = g->wire / (double)g->n;
	pk->payload_bytes = (double)g->used / (double)g->n;
	g->buf = NULL;
	return 0;
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

		rc = pcap_next_ex(p, &h, &data);
		if (rc != 1)
			break;
		(*frames)++;
		if (pcap_frame_payload(dlt, data, h->caplen, &off, &len, &ip_len) &&
		    gather_add(g, data + off, len, ip_len) != 0) {
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

int pcap_load_payloads(struct packets *pk, const char *path, char *err,
		       size_t errsize)
{
	char ebuf[PCAP_ERRBUF_SIZE] = "";
	struct gather g = {0};
	struct stat sb;
	size_t frames = 0;
	pcap_t *p;
	int rc = -1;

	memset(pk, 0, sizeof(*pk));
	if (stat(path, &sb) == 0 && S_ISDIR(sb.st_mode)) {
		snprintf(err, errsize, "%s: is a directory", path);
		return -1;
	}
	p = pcap_open_offline(path, ebuf);
	if (p == NULL) {
		pcap_msg(err, errsize, path, ebuf);
		return -1;
	}
	if (read_frames(p, path, &g, &frames, err, errsize) != 0)
		goto out;
	if (g.n == 0) {
		snprintf(err, errsize, "%s: no TCP or UDP payload in %zu packets",
			 path, frames);
		goto out;
	}
	rc = gather_finish(&g, pk);
	if (rc != 0)
		snprintf(err, errsize, "%s: out of memory", path);
out:
	pcap_close(p);
	free(g.buf);
	free(g.off);
	free(g.len);
	return rc;
}

/*
 * xdp_frame.c - Ethernet frames around a payload (see xdp_frame.h).
 */
#include "engines/xdp_frame.h"

#include <stdint.h>
#include <string.h>

#define ETH_LEN 14
#define VLAN_LEN 4
#define IP4_LEN 20
#define IP6_LEN 40
#define TCP_LEN 20
#define UDP_LEN 8
#define MAX_OPT_WORDS 10

static void put16(unsigned char *p, unsigned v)
{
	p[0] = (unsigned char)(v >> 8);
	p[1] = (unsigned char)v;
}

static size_t l3_len(const struct xdp_frame_spec *s)
{
	return s->ipv6 ? IP6_LEN : IP4_LEN + 4u * (size_t)s->ip_opts;
}

static size_t l4_len(const struct xdp_frame_spec *s)
{
	return s->udp ? UDP_LEN : TCP_LEN + 4u * (size_t)s->tcp_opts;
}

size_t xdp_frame_headers(const struct xdp_frame_spec *s)
{
	return ETH_LEN + VLAN_LEN * (size_t)s->vlans + l3_len(s) + l4_len(s);
}

/* Ethernet and the tags; returns the bytes written. */
static size_t put_eth(unsigned char *p, const struct xdp_frame_spec *s)
{
	static const unsigned char macs[12] = {2, 0, 0, 0, 0, 1,
					       2, 0, 0, 0, 0, 2};
	size_t n = 12;

	memcpy(p, macs, sizeof(macs));
	if (s->vlans == 2) {
		put16(p + n, 0x88a8);
		put16(p + n + 2, 100);
		n += VLAN_LEN;
	}
	if (s->vlans >= 1) {
		put16(p + n, 0x8100);
		put16(p + n + 2, 200);
		n += VLAN_LEN;
	}
	put16(p + n, s->ipv6 ? 0x86dd : 0x0800);
	return n + 2;
}

/* The IPv4 header checksum over h[0..len). */
static unsigned ip4_sum(const unsigned char *h, size_t len)
{
	uint32_t sum = 0;

	for (size_t i = 0; i + 1 < len; i += 2)
		sum += (uint32_t)(h[i] << 8 | h[i + 1]);
	while (sum >> 16)
		sum = (sum & 0xffff) + (sum >> 16);
	return ~sum & 0xffff;
}

/* The IP header for an L4 segment of l4 bytes; returns its length. */
static size_t put_ip(unsigned char *p, const struct xdp_frame_spec *s,
		     size_t l4)
{
	size_t hl = l3_len(s);

	memset(p, 0, hl);
	if (s->ipv6) {
		p[0] = 0x60;
		put16(p + 4, (unsigned)l4);
		p[6] = s->udp ? 17 : 6;
		p[7] = 64;
		p[8] = 0x20, p[9] = 0x01, p[10] = 0x0d, p[11] = 0xb8;
		p[23] = 1;
		p[24] = 0x20, p[25] = 0x01, p[26] = 0x0d, p[27] = 0xb8;
		p[39] = 2;
		return hl;
	}
	p[0] = (unsigned char)(0x40 | (hl / 4));
	put16(p + 2, (unsigned)(hl + l4));
	put16(p + 6, 0x4000); /* don't fragment */
	p[8] = 64;
	p[9] = s->udp ? 17 : 6;
	p[12] = 192, p[13] = 0, p[14] = 2, p[15] = 1;
	p[16] = 192, p[17] = 0, p[18] = 2, p[19] = 2;
	memset(p + IP4_LEN, 1, hl - IP4_LEN); /* NOP options */
	put16(p + 10, ip4_sum(p, hl));
	return hl;
}

/* The TCP or UDP header for `len` payload bytes; returns its length. */
static size_t put_l4(unsigned char *p, const struct xdp_frame_spec *s,
		     size_t len)
{
	size_t hl = l4_len(s);

	memset(p, 0, hl);
	put16(p, 40000);
	put16(p + 2, 80);
	if (s->udp) {
		put16(p + 4, (unsigned)(hl + len));
		return hl;
	}
	p[12] = (unsigned char)((hl / 4) << 4);
	p[13] = 0x18; /* PSH, ACK */
	put16(p + 14, 65535);
	memset(p + TCP_LEN, 1, hl - TCP_LEN);
	return hl;
}

size_t xdp_frame_build(unsigned char *out, size_t cap,
		       const struct xdp_frame_spec *s, const void *payload,
		       size_t len)
{
	size_t hdr = xdp_frame_headers(s), n;

	if (s->vlans < 0 || s->vlans > 2 || s->ip_opts < 0 ||
	    s->ip_opts > MAX_OPT_WORDS || s->tcp_opts < 0 ||
	    s->tcp_opts > MAX_OPT_WORDS || hdr + len > cap ||
	    l3_len(s) + l4_len(s) + len > 0xffff)
		return 0;
	n = put_eth(out, s);
	n += put_ip(out + n, s, l4_len(s) + len);
	n += put_l4(out + n, s, len);
	if (len > 0)
		memcpy(out + n, payload, len);
	return n + len;
}

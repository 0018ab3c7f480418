/*
 * xdp_frame.h - whole Ethernet frames around a payload, for the XDP
 * programs' test runs: Ethernet, VLAN tags, IPv4 or IPv6, TCP or UDP.
 * Addresses are the documentation ranges (192.0.2.0/24, 2001:db8::/32);
 * the IPv4 header checksum is right, the L4 checksums are 0 (nothing
 * checks them before the program).
 *
 * Build: always (no library).
 */
#ifndef RXB_XDP_FRAME_H
#define RXB_XDP_FRAME_H

#include <stddef.h>

struct xdp_frame_spec {
	int ipv6;     /* 0: IPv4 */
	int udp;      /* 0: TCP */
	int vlans;    /* 0, 1 or 2 tags (802.1ad outer, 802.1Q inner) */
	int ip_opts;  /* IPv4: 4-byte words of options (NOPs), 0 .. 10 */
	int tcp_opts; /* TCP: 4-byte words of options (NOPs), 0 .. 10 */
};

/* The headers' length for spec: where the payload starts. */
size_t xdp_frame_headers(const struct xdp_frame_spec *spec);

/*
 * Write the frame for payload[0..len) into out[0..cap).  Its length, or
 * 0 when it does not fit in cap or len is too long for the IP length
 * fields.
 */
size_t xdp_frame_build(unsigned char *out, size_t cap,
		       const struct xdp_frame_spec *spec, const void *payload,
		       size_t len);

#endif

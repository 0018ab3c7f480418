/*
 * pcap.h - packet payloads from a capture file (--pcap FILE), so users
 * replay their own traffic through the payload suite.
 *
 * Reads pcap and pcapng with libpcap; decodes Ethernet (with 802.1Q/ad
 * tags), Linux cooked v1/v2, raw IP and BSD loopback frames carrying IPv4
 * or IPv6 (extension headers skipped, non-first fragments ignored) and
 * keeps the TCP and UDP payloads that are not empty.  The wire size of a
 * packet, for line rate, is its IP length plus 18 (Ethernet header and
 * FCS), whatever the capture's link type.
 *
 * Build: needs libpcap (pkg-config libpcap; Debian libpcap-dev).
 */
#ifndef RXB_PCAP_H
#define RXB_PCAP_H

#include <stddef.h>

#include "corpora/packets.h"

/*
 * Load every TCP/UDP payload of `path` into pk (size 0, mark NULL).
 * 0, or -1 with one line in err naming the file: missing, not a capture,
 * truncated, an unsupported link type, or no payload at all.  Nothing in
 * a malformed frame makes it fail: such frames are skipped.  Free with
 * packets_release().
 */
int pcap_load_payloads(struct packets *pk, const char *path, char *err,
		       size_t errsize);

/*
 * Find the TCP/UDP payload of one captured frame of link type `dlt`
 * (a DLT_* value).  1 with its offset, length and the IP length, 0 when
 * the frame holds none (other protocols, fragments, malformed, empty).
 */
int pcap_frame_payload(int dlt, const unsigned char *f, size_t caplen,
		       size_t *off, size_t *len, size_t *ip_len);

/* 1 when pcap_frame_payload() decodes link type dlt. */
int pcap_link_supported(int dlt);

#endif

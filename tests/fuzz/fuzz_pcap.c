/*
 * fuzz_pcap.c - libFuzzer target for the --pcap reader (corpora/pcap.c):
 * the input is a capture file (pcap or pcapng) read from memory through
 * fmemopen(), then libpcap and our frame decoders.
 *
 * libpcap itself is not instrumented (the Debian library); a finding in
 * it shows as a crash inside libpcap's frames.  On success every payload
 * lies inside the reader's buffer and is not empty.
 */
#define _GNU_SOURCE
#include "corpora/pcap.h"

#include "tests/fuzz/fuzz_check.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void check_packets(const struct packets *pk)
{
	if (pk->n == 0)
		abort();
	for (size_t i = 0; i < pk->n; i++) {
		volatile unsigned char sink = 0;
		if (pk->pkt[i].len == 0)
			abort();
		/* touch both ends: ASan reports a payload outside the buffer */
		sink ^= (unsigned char)pk->pkt[i].p[0];
		sink ^= (unsigned char)pk->pkt[i].p[pk->pkt[i].len - 1];
		(void)sink;
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct packets pk;
	char err[512] = "";
	FILE *fp;

	if (size == 0)
		return 0; /* fmemopen refuses an empty buffer */
	fp = fmemopen((void *)data, size, "rb");
	if (fp == NULL)
		return 0;
	if (pcap_load_payloads_fp(&pk, fp, "fuzz.pcap", err, sizeof(err)) == 0) {
		check_packets(&pk);
		packets_release(&pk);
	} else if (!fuzz_message_ok(err, "fuzz.pcap")) {
		abort();
	}
	return 0;
}

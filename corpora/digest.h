/*
 * digest.h - the SHA-256 of an input (a corpus, a policy file, a rule
 * set), recorded with each benchmark so compare can tell two runs over
 * different data apart (harness/results.h: inputs).
 *
 * Built with nettle (Debian: nettle-dev) when RXB_HAVE_NETTLE; without
 * it there is no digest and the inputs record the size alone.
 */
#ifndef RXB_DIGEST_H
#define RXB_DIGEST_H

#include <stddef.h>

#define DIGEST_HEX_SIZE 65 /* 64 hex digits and the NUL */

/* The lowercase hex SHA-256 of len bytes of data into hex.  0, or -1 when
   built without nettle (hex is then ""). */
int digest_sha256_hex(const void *data, size_t len,
		      char hex[DIGEST_HEX_SIZE]);

#endif

/*
 * digest.c - SHA-256 through nettle (see digest.h).  RXB_HAVE_NETTLE:
 * set by CMake when nettle is found.
 */
#include "corpora/digest.h"

#include <stdio.h>

#ifdef RXB_HAVE_NETTLE
#include <nettle/sha2.h>

int digest_sha256_hex(const void *data, size_t len,
		      char hex[DIGEST_HEX_SIZE])
{
	struct sha256_ctx ctx;
	unsigned char d[SHA256_DIGEST_SIZE];

	sha256_init(&ctx);
	sha256_update(&ctx, len, data);
	sha256_digest(&ctx, sizeof(d), d);
	for (size_t i = 0; i < sizeof(d); i++)
		snprintf(hex + 2 * i, 3, "%02x", d[i]);
	return 0;
}
#else
int digest_sha256_hex(const void *data, size_t len,
		      char hex[DIGEST_HEX_SIZE])
{
	(void)data, (void)len;
	hex[0] = '\0';
	return -1;
}
#endif

/*
 * dns_wire_cli.c - corpora/dns_wire.h on the command line, for
 * tests/test_dns_wire_go.sh, which compares it with Debian's miekg/dns
 * (tests/dns_wire_go).  Built with the tests, never installed.
 *
 *   dns_wire_cli gen N SEED      N random names, one per line in hex,
 *                                heavy in the bytes that matter: dots,
 *                                backslashes and \DDD escapes, CR, NUL,
 *                                0xff and other high bytes, UTF-8,
 *                                special characters, labels near 63
 *                                bytes and names near 255
 *   dns_wire_cli trip 1.1.8|1.1.50
 *                                each hex line of stdin round-tripped
 *                                (dns_wire_round_trip): "ok HEX" or
 *                                "error CLASS", CLASS the miekg/dns error
 *                                the status stands for (fqdn, rdata,
 *                                long), so the two outputs compare
 *
 * Exit 0, or 2 with a message on bad arguments or input.
 */
#include "corpora/dns_wire.h"
#include "corpora/rng.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NAME_MAX_TEXT 400

/*
 * One piece of a random name at p (prev: the byte before it, or 0): a
 * byte, an escape, a UTF-8 character, a label of 60 to 66 bytes, or a
 * dot (one in ten of them right after another, an empty label).  Its
 * length.
 */
static size_t gen_piece(struct rng *r, char *p, char prev)
{
	static const char special[] = "\\\r\n \"'()@;$*-_AZ09";
	static const char *const utf8[] = {"\xc4\xb0", "\xe2\x82\xac",
					   "\xf0\x9f\x98\x80"}; /* İ, €, U+1F600 */
	uint64_t k = rng_below(r, 100);

	if (k < 50)
		return (size_t)sprintf(p, "%c", (int)('a' + rng_below(r, 26)));
	if (k < 62)
		return (size_t)sprintf(p, "%c",
				       special[rng_below(r, sizeof(special) - 1)]);
	if (k < 68)
		return (size_t)sprintf(p, "\\%03u", (unsigned)rng_below(r, 1000));
	if (k < 78) { /* NUL or a high byte */
		p[0] = rng_below(r, 4) == 0 ? '\0'
					    : (char)(0x80 + rng_below(r, 128));
		return 1;
	}
	if (k < 84)
		return (size_t)sprintf(p, "%s", utf8[rng_below(r, 3)]);
	if (k < 88) { /* a label of 60 to 66 bytes, dots around it */
		size_t n = 60 + rng_below(r, 7), at = 0;
		if (prev != '.' && prev != 0)
			p[at++] = '.';
		memset(p + at, 'x', n);
		p[at + n] = '.';
		return at + n + 1;
	}
	if (prev == '.' && rng_below(r, 10) != 0)
		return (size_t)sprintf(p, "z");
	p[0] = '.';
	return 1;
}

/* A random name into buf; its length. */
static size_t gen_name(struct rng *r, char *buf)
{
	size_t want = rng_below(r, 4) == 0 ? 240 + rng_below(r, 30)
					    : rng_below(r, 40);
	size_t n = 0;

	while (n < want && n + 80 < NAME_MAX_TEXT)
		n += gen_piece(r, buf + n, n > 0 ? buf[n - 1] : 0);
	return n;
}

static int cmd_gen(const char *count, const char *seed)
{
	char buf[NAME_MAX_TEXT];
	struct rng r;
	long n = strtol(count, NULL, 10);

	rng_init(&r, strtoull(seed, NULL, 10));
	for (long i = 0; i < n; i++) {
		size_t len = gen_name(&r, buf);
		for (size_t k = 0; k < len; k++)
			printf("%02x", (unsigned char)buf[k]);
		putchar('\n');
	}
	return 0;
}

/* The miekg/dns error a status stands for. */
static const char *error_class(int rc)
{
	switch (rc) {
	case DNS_WIRE_NOT_FQDN:
		return "fqdn";
	case DNS_WIRE_LONG_NAME:
		return "long";
	case DNS_WIRE_BAD_WIRE:
		return "buf";
	default:
		return "rdata";
	}
}

/* hex[0..n) into out; its length, or -1 when not hex. */
static long unhex(const char *hex, size_t n, char *out)
{
	unsigned v;

	if (n % 2 != 0)
		return -1;
	for (size_t i = 0; i < n; i += 2) {
		if (sscanf(hex + i, "%2x", &v) != 1)
			return -1;
		out[i / 2] = (char)v;
	}
	return (long)(n / 2);
}

static int cmd_trip(const char *version)
{
	enum dns_wire_lib lib = strcmp(version, "1.1.8") == 0
					? DNS_WIRE_MIEKG_1_1_8
					: DNS_WIRE_MIEKG_1_1_50;
	char line[2 * NAME_MAX_TEXT + 4], name[NAME_MAX_TEXT + 2];
	char out[DNS_WIRE_TEXT_MAX + 1];

	while (fgets(line, sizeof(line), stdin) != NULL) {
		size_t olen, n = strcspn(line, "\n");
		long len = unhex(line, n, name);
		int rc;
		if (len < 0) {
			fprintf(stderr, "dns_wire_cli: not a hex line: %s", line);
			return 2;
		}
		rc = dns_wire_round_trip(name, (size_t)len, lib, out, &olen,
					 NULL);
		if (rc != DNS_WIRE_OK) {
			printf("error %s\n", error_class(rc));
			continue;
		}
		fputs("ok ", stdout);
		for (size_t k = 0; k < olen; k++)
			printf("%02x", (unsigned char)out[k]);
		putchar('\n');
	}
	return 0;
}

int main(int argc, char **argv)
{
	if (argc == 4 && strcmp(argv[1], "gen") == 0)
		return cmd_gen(argv[2], argv[3]);
	if (argc == 3 && strcmp(argv[1], "trip") == 0 &&
	    (strcmp(argv[2], "1.1.8") == 0 || strcmp(argv[2], "1.1.50") == 0))
		return cmd_trip(argv[2]);
	fprintf(stderr, "usage: dns_wire_cli gen N SEED | trip 1.1.8|1.1.50\n");
	return 2;
}

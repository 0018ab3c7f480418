/*
 * test_dns_wire.c - a query name packed and unpacked as miekg/dns does
 * (corpora/dns_wire.h), on hand-worked cases: the bytes unpacking
 * escapes, the rules packing enforces, the two library versions.
 * tests/test_dns_wire_go.sh checks the same code against Debian's
 * miekg/dns on random names.
 */
#include <criterion/criterion.h>

#include <string.h>

#include "corpora/dns_wire.h"

#define NEW DNS_WIRE_MIEKG_1_1_50
#define OLD DNS_WIRE_MIEKG_1_1_8

/* in[0..len) round-trips under lib to exactly `want`. */
static void trip_n(const char *in, size_t len, enum dns_wire_lib lib,
		   const char *want)
{
	char out[DNS_WIRE_TEXT_MAX + 1];
	size_t olen = 0, detail = 0;
	int rc = dns_wire_round_trip(in, len, lib, out, &olen, &detail);

	cr_assert_eq(rc, DNS_WIRE_OK, "'%s': status %d", want, rc);
	cr_assert_eq(olen, strlen(want), "got '%s', want '%s'", out, want);
	cr_assert_str_eq(out, want);
}

static void trip(const char *in, enum dns_wire_lib lib, const char *want)
{
	trip_n(in, strlen(in), lib, want);
}

/* in[0..len) fails under lib with status, and detail when nonzero. */
static void fails_n(const char *in, size_t len, enum dns_wire_lib lib,
		    int status, size_t want_detail)
{
	char out[DNS_WIRE_TEXT_MAX + 1];
	size_t olen = 0, detail = 0;
	int rc = dns_wire_round_trip(in, len, lib, out, &olen, &detail);

	cr_assert_eq(rc, status, "'%.*s': status %d, want %d", (int)len, in,
		     rc, status);
	if (want_detail != 0)
		cr_assert_eq(detail, want_detail);
}

static void fails(const char *in, enum dns_wire_lib lib, int status)
{
	fails_n(in, strlen(in), lib, status, 0);
}

/* A name of n bytes: labels of 63 'a's (62 at the end), dots between. */
static size_t long_name(char *buf, size_t n)
{
	for (size_t i = 0; i < n; i++)
		buf[i] = i % 64 == 63 ? '.' : 'a';
	buf[n] = '\0';
	return n;
}

Test(dns_wire, control_and_high_bytes_unpack_as_ddd)
{
	trip_n("a\0b", 3, NEW, "a\\000b.");
	trip("a\rb", NEW, "a\\013b.");
	trip("a\nb", NEW, "a\\010b.");
	trip("a\x7f" "b", NEW, "a\\127b.");
	trip("a\xff" "b", NEW, "a\\255b.");
	trip("a\x80.com", OLD, "a\\128.com.");
	trip("~ !", NEW, "~\\ !.");
}

Test(dns_wire, special_characters_get_a_backslash)
{
	trip("a\"b", NEW, "a\\\"b.");
	trip("(a);b", NEW, "\\(a\\)\\;b.");
	trip("a@b", NEW, "a\\@b.");
	trip("a b", NEW, "a\\ b.");
	trip("a$b%c", NEW, "a$b%c.");   /* not special */
	trip("a\\\\b", NEW, "a\\\\b."); /* an escaped backslash */
	trip("a\\b", NEW, "ab.");       /* a backslash escapes the b */
	trip("a'b", NEW, "a\\'b.");     /* 1.1.50 escapes ' ... */
	trip("a'b", OLD, "a'b.");       /* ... 1.1.8 does not */
}

Test(dns_wire, escaped_dot_stays_in_its_label)
{
	unsigned char wire[16];
	size_t wlen = 0;

	trip("a\\.b.com", NEW, "a\\.b.com.");
	cr_assert_eq(dns_wire_pack("a\\.b.com", 8, NEW, wire, sizeof(wire),
				   &wlen, NULL), DNS_WIRE_OK);
	cr_assert_eq(wlen, 9);
	cr_assert(memcmp(wire, "\3a.b\3com\0", 9) == 0);
	trip("\\.", NEW, "\\.."); /* not qualified: dns.Fqdn adds a dot */
	trip("a\\.", NEW, "a\\..");
	trip("\\046x", NEW, "\\.x."); /* \DDD of a dot */
}

Test(dns_wire, ddd_escapes_pack_their_byte_mod_256)
{
	trip("\\065\\066c", NEW, "ABc.");
	trip("\\000", NEW, "\\000.");
	trip("\\256", NEW, "\\000.");
	trip("\\999", NEW, "\\231.");
	trip("\\12.", NEW, "12."); /* two digits: \1 is '1' */
}

Test(dns_wire, case_and_utf8_kept_byte_for_byte)
{
	trip("WWW.Example.COM", NEW, "WWW.Example.COM.");
	trip("www.example.com.", NEW, "www.example.com.");
	/* "İ" is C4 B0; miekg/dns's IsFqdn miscounts after a 2-byte
	   character and refuses it, dig and glibc send it (dns_wire.h) */
	trip("\xc4\xb0", NEW, "\\196\\176.");
	trip("\xc4\xb0.", NEW, "\\196\\176.");
	trip("a\xc4\xb0.b", OLD, "a\\196\\176.b.");
}

Test(dns_wire, empty_line_and_root)
{
	unsigned char wire[4];
	size_t wlen = 0;

	trip("", NEW, ".");
	trip(".", NEW, ".");
	trip(".", OLD, ".");
	cr_assert_eq(dns_wire_pack(".", 1, NEW, wire, sizeof(wire), &wlen,
				   NULL), DNS_WIRE_OK);
	cr_assert_eq(wlen, 1);
	cr_assert_eq(wire[0], 0);
}

Test(dns_wire, empty_labels)
{
	fails("a..b", NEW, DNS_WIRE_EMPTY_LABEL);
	fails("a..b", OLD, DNS_WIRE_EMPTY_LABEL);
	fails("..", NEW, DNS_WIRE_LEADING_DOT);
	fails("..", OLD, DNS_WIRE_EMPTY_LABEL);
	fails("a.b..", NEW, DNS_WIRE_EMPTY_LABEL);
	/* a leading dot: 1.1.50 refuses it; 1.1.8 packs an empty first
	   label, so the name on the wire is the root */
	fails(".a.com", NEW, DNS_WIRE_LEADING_DOT);
	trip(".a.com", OLD, ".");
}

Test(dns_wire, trailing_backslash_is_not_qualified)
{
	fails("a\\", NEW, DNS_WIRE_NOT_FQDN);
	fails("a\\\\\\", OLD, DNS_WIRE_NOT_FQDN);
	trip("a\\\\", NEW, "a\\\\.");
}

Test(dns_wire, labels_of_63_and_64_bytes)
{
	char buf[80];

	memset(buf, 'x', 64);
	trip_n(buf, 63, NEW, "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx.");
	fails_n(buf, 64, NEW, DNS_WIRE_LONG_LABEL, 64);
	fails_n(buf, 64, OLD, DNS_WIRE_LONG_LABEL, 64);
	/* escapes count as the one byte they pack to */
	memcpy(buf + 60, "\\255\\255\\255", 12);
	trip_n(buf, 72, NEW, "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx\\255\\255\\255.");
}

Test(dns_wire, names_of_255_and_256_bytes_on_the_wire)
{
	char buf[300], out[DNS_WIRE_TEXT_MAX + 1];
	size_t olen, detail = 0;

	/* n text bytes, no final dot, pack to n + 2 wire bytes */
	long_name(buf, 253);
	cr_assert_eq(dns_wire_round_trip(buf, 253, NEW, out, &olen, NULL),
		     DNS_WIRE_OK);
	cr_assert_eq(olen, 254);
	long_name(buf, 254);
	cr_assert_eq(dns_wire_round_trip(buf, 254, NEW, out, &olen, &detail),
		     DNS_WIRE_LONG_NAME);
	cr_assert_eq(detail, 256);
	long_name(buf, 280);
	fails_n(buf, 280, OLD, DNS_WIRE_LONG_NAME, 282);
}

Test(dns_wire, the_longest_unpacked_name)
{
	char in[4 * 250 + 4 + 1], out[DNS_WIRE_TEXT_MAX + 1];
	size_t n = 0, olen = 0;
	size_t labels[4] = {63, 63, 63, 61};

	for (size_t l = 0; l < 4; l++) {
		for (size_t i = 0; i < labels[l]; i++, n += 4)
			memcpy(in + n, "\\255", 4);
		in[n++] = '.';
	}
	cr_assert_eq(dns_wire_round_trip(in, n, NEW, out, &olen, NULL),
		     DNS_WIRE_OK);
	cr_assert_eq(olen, DNS_WIRE_TEXT_MAX);
	cr_assert_eq(memcmp(out, in, n), 0);
}

Test(dns_wire, unpack_refuses_malformed_wire)
{
	static const unsigned char ptr[] = {0xc0, 0x0c};
	static const unsigned char cut[] = {3, 'a', 'b'};
	static const unsigned char reserved[] = {0x41, 'a', 0};
	static const unsigned char ok[] = {1, 'a', 0};
	char out[DNS_WIRE_TEXT_MAX + 1];
	size_t olen;

	cr_assert_eq(dns_wire_unpack(ptr, 2, NEW, out, &olen, NULL),
		     DNS_WIRE_BAD_WIRE);
	cr_assert_eq(dns_wire_unpack(cut, 3, NEW, out, &olen, NULL),
		     DNS_WIRE_BAD_WIRE);
	cr_assert_eq(dns_wire_unpack(reserved, 3, NEW, out, &olen, NULL),
		     DNS_WIRE_BAD_WIRE);
	cr_assert_eq(dns_wire_unpack(ok, 2, NEW, out, &olen, NULL),
		     DNS_WIRE_BAD_WIRE);
	cr_assert_eq(dns_wire_unpack(ok, 3, NEW, out, &olen, NULL),
		     DNS_WIRE_OK);
	cr_assert_str_eq(out, "a.");
}

Test(dns_wire, explain_names_the_rule)
{
	char buf[256];

	dns_wire_explain(DNS_WIRE_LONG_LABEL, 64, buf, sizeof(buf));
	cr_assert(strstr(buf, "64 bytes") != NULL, "%s", buf);
	dns_wire_explain(DNS_WIRE_LONG_NAME, 256, buf, sizeof(buf));
	cr_assert(strstr(buf, "256 bytes on the wire (at most 255)") != NULL,
		  "%s", buf);
	dns_wire_explain(DNS_WIRE_EMPTY_LABEL, 0, buf, sizeof(buf));
	cr_assert(strstr(buf, "empty label") != NULL, "%s", buf);
}

/*
 * dns_wire.h - a query name the way it reaches Cilium's DNS proxy: packed
 * into wire-format labels as a DNS client packs it, then unpacked as the
 * proxy's DNS library unpacks it into the string CheckAllowed gets.
 *
 * The library is miekg/dns as Cilium builds it (enum dns_wire_lib): both
 * versions pack and unpack alike but for two points, each noted where it
 * matters.  Unpacking escapes every byte of a label that is not printable
 * ASCII as \DDD (three decimal digits) and the special characters with a
 * backslash (\. \" \\ \( \) \; \@ and a space as "\ ", plus \' in 1.1.50
 * only); each label ends with '.', the root is ".".
 *
 * Packing reads the name as presentation text, as PackDomainName does:
 * a '.' ends a label, \DDD is the byte DDD (mod 256: \256 is 0), a
 * backslash before any other byte makes that byte part of the label.  It
 * is first made fully qualified as dns.Fqdn does (a '.' appended unless
 * the name ends with a dot no backslash escapes).  One departure, on
 * purpose: whether the final dot is escaped is decided by counting the
 * backslashes before it byte by byte.  miekg/dns's IsFqdn counts from
 * the start of the last character that is not a backslash, so after a
 * 2- or 4-byte UTF-8 character it gets the count wrong (a name ending in
 * "İ" is refused, ErrFqdn or ErrRdata); a client other than a Go program
 * on miekg/dns (dig, glibc) sends such a name, and the proxy's unpacking
 * does not depend on it.
 *
 * Nothing here allocates or prints.
 */
#ifndef RXB_DNS_WIRE_H
#define RXB_DNS_WIRE_H

#include <stddef.h>

/* A name on the wire, its length bytes and final zero included. */
#define DNS_WIRE_MAX 255
/* The longest unpacked name (63,63,63,61-byte labels of \DDD escapes
   and their dots: miekg/dns's maxDomainNamePresentationLength). */
#define DNS_WIRE_TEXT_MAX 1004

/* Which miekg/dns packs and unpacks. */
enum dns_wire_lib {
	/* cilium/dns 8e25ec9a0ff3 (miekg/dns v1.1.8), which Cilium v1.11
	   builds in place of miekg/dns: a leading dot packs as an empty
	   first label (the name on the wire is the root), and ' is not
	   escaped */
	DNS_WIRE_MIEKG_1_1_8,
	/* cilium/dns af788769 (miekg/dns v1.1.50, Debian's
	   golang-github-miekg-dns-dev 1.1.50 alike), Cilium's newest: a
	   leading dot is refused, ' unpacks as \' */
	DNS_WIRE_MIEKG_1_1_50,
};

/* Why a name cannot reach the proxy (0 is none). */
enum dns_wire_status {
	DNS_WIRE_OK = 0,
	DNS_WIRE_NOT_FQDN = -1,    /* an odd run of backslashes ends it: the
				      dot dns.Fqdn appends is escaped */
	DNS_WIRE_EMPTY_LABEL = -2, /* two unescaped dots in a row */
	DNS_WIRE_LEADING_DOT = -3, /* 1.1.50: a dot first, not the root */
	DNS_WIRE_LONG_LABEL = -4,  /* a label of 64 bytes or more */
	DNS_WIRE_LONG_NAME = -5,   /* packed, but over DNS_WIRE_MAX bytes:
				      UnpackDomainName refuses it */
	DNS_WIRE_BAD_WIRE = -6,    /* unpack: cut short, or a length byte
				      with its top bits set (a compression
				      pointer: none in a name packed alone) */
};

/*
 * Pack name[0..len) (any bytes) as the library does after dns.Fqdn: its
 * wire bytes into wire[0..cap) (those past cap left out) and their
 * number, cap or not, in *wlen; a name over DNS_WIRE_MAX bytes on the
 * wire packs, as the library packs it.  Under 1.1.8 a leading dot
 * writes a zero byte first, then the labels after it.  DNS_WIRE_OK, or
 * a negative status (the first rule the text breaks, as the library
 * reads it) with, for DNS_WIRE_LONG_LABEL, the label's length in
 * *detail (may be NULL).
 */
int dns_wire_pack(const char *name, size_t len, enum dns_wire_lib lib,
		  unsigned char *wire, size_t cap, size_t *wlen,
		  size_t *detail);

/*
 * Unpack the name at the start of wire[0..wlen) as UnpackDomainName does
 * into out[], NUL-terminated, its length in *olen (no NUL inside: every
 * byte outside printable ASCII is escaped).  out must hold
 * DNS_WIRE_TEXT_MAX + 1 bytes.  DNS_WIRE_OK, DNS_WIRE_LONG_NAME (with
 * the labels' bytes so far and the final zero, over DNS_WIRE_MAX, in
 * *detail, may be NULL) or DNS_WIRE_BAD_WIRE.  A label's length counts
 * against DNS_WIRE_MAX before its bytes are looked for, so a name cut
 * after DNS_WIRE_MAX bytes is still DNS_WIRE_LONG_NAME.
 */
int dns_wire_unpack(const unsigned char *wire, size_t wlen,
		    enum dns_wire_lib lib, char *out, size_t *olen,
		    size_t *detail);

/*
 * Both: name[0..len) as the proxy's CheckAllowed gets it, into out[]
 * (DNS_WIRE_TEXT_MAX + 1 bytes), its length in *olen.  The first
 * failing step's status, with its *detail as above (for
 * DNS_WIRE_LONG_NAME, the whole packed length).
 */
int dns_wire_round_trip(const char *name, size_t len, enum dns_wire_lib lib,
			char *out, size_t *olen, size_t *detail);

/*
 * Why status (with its detail) stops a name, one phrase naming the rule
 * and the library call that enforces it ("a label of 64 bytes on the
 * wire (at most 63): PackDomainName refuses it"), into buf[0..size).
 */
void dns_wire_explain(int status, size_t detail, char *buf, size_t size);

#endif

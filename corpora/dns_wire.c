/*
 * dns_wire.c - a query name packed and unpacked as miekg/dns does it
 * (see dns_wire.h for the rules and the two versions).  Written from the
 * library's behaviour (PackDomainName, UnpackDomainName, IsFqdn, Fqdn,
 * escapeByte in cilium/dns 8e25ec9a0ff3 and af788769); tests/dns_wire_go
 * checks it against Debian's miekg/dns.
 */
#include "corpora/dns_wire.h"

#include <stdio.h>
#include <string.h>

/* The largest label the top two bits of a length byte leave. */
#define DNS_LABEL_MAX 63

/* A name as presentation text of n bytes: s[0..len), and when n is
   len + 1 the '.' dns.Fqdn appends. */
struct dns_text {
	const unsigned char *s;
	size_t len, n;
};

static unsigned char text_at(const struct dns_text *t, size_t i)
{
	return i < t->len ? t->s[i] : '.';
}

static int is_digit(unsigned char c)
{
	return c >= '0' && c <= '9';
}

/*
 * Whether t ends with a dot that no backslash escapes (an even run of
 * backslashes, none too, before it), counted byte by byte.
 */
static int text_qualified(const struct dns_text *t)
{
	size_t k = 0;

	if (t->n == 0 || text_at(t, t->n - 1) != '.')
		return 0;
	while (k + 1 < t->n && text_at(t, t->n - 2 - k) == '\\')
		k++;
	return k % 2 == 0;
}

/*
 * The byte the text at *i stands for, *i moved past it; *lit is 1 when
 * it was escaped (an escaped '.' does not end a label).  \DDD is DDD
 * mod 256, as the library's byte arithmetic wraps.
 */
static unsigned char text_byte(const struct dns_text *t, size_t *i, int *lit)
{
	size_t at = *i;

	*lit = text_at(t, at) == '\\' && at + 1 < t->n;
	if (!*lit) {
		*i = at + 1;
		return text_at(t, at);
	}
	if (at + 3 < t->n && is_digit(text_at(t, at + 1)) &&
	    is_digit(text_at(t, at + 2)) && is_digit(text_at(t, at + 3))) {
		*i = at + 4;
		return (unsigned char)((text_at(t, at + 1) - '0') * 100 +
				       (text_at(t, at + 2) - '0') * 10 +
				       (text_at(t, at + 3) - '0'));
	}
	*i = at + 2;
	return text_at(t, at + 1);
}

/* wire[at] = b when at is inside the cap bytes wire[] holds. */
static void put(unsigned char *wire, size_t cap, size_t at, unsigned char b)
{
	if (at < cap)
		wire[at] = b;
}

/*
 * The labels of qualified t into wire[0..cap), as packDomainName's loop
 * (the whole text is read, whatever cap): a label's bytes go in after
 * the room for its length byte, written when its dot comes.  Status as
 * dns_wire_pack.
 */
static int pack_labels(const struct dns_text *t, enum dns_wire_lib lib,
		       unsigned char *wire, size_t cap, size_t *wlen,
		       size_t *detail)
{
	size_t i = 0, w = 0, n = 0; /* n: bytes in the label at wire[w] */
	int was_dot = 0, lit;

	while (i < t->n) {
		size_t at = i;
		unsigned char c = text_byte(t, &i, &lit);
		if (lit || c != '.') {
			put(wire, cap, w + 1 + n++, c);
			was_dot = 0;
			continue;
		}
		if (at == 0 && t->n > 1 && lib == DNS_WIRE_MIEKG_1_1_50)
			return DNS_WIRE_LEADING_DOT;
		if (was_dot)
			return DNS_WIRE_EMPTY_LABEL;
		if (n > DNS_LABEL_MAX) {
			if (detail != NULL)
				*detail = n;
			return DNS_WIRE_LONG_LABEL;
		}
		put(wire, cap, w, (unsigned char)n);
		w += 1 + n;
		n = 0;
		was_dot = 1;
	}
	if (t->n > 1) /* the root "." wrote its zero as its only label */
		put(wire, cap, w++, 0);
	*wlen = w;
	return DNS_WIRE_OK;
}

int dns_wire_pack(const char *name, size_t len, enum dns_wire_lib lib,
		  unsigned char *wire, size_t cap, size_t *wlen,
		  size_t *detail)
{
	struct dns_text t = {(const unsigned char *)name, len, len};

	if (!text_qualified(&t))
		t.n = len + 1; /* dns.Fqdn */
	if (!text_qualified(&t))
		return DNS_WIRE_NOT_FQDN;
	return pack_labels(&t, lib, wire, cap, wlen, detail);
}

/*
 * Whether unpacking escapes b with a backslash (isDomainNameLabelSpecial
 * in 1.1.50; 1.1.8 leaves ' as it is).
 */
static int label_special(unsigned char b, enum dns_wire_lib lib)
{
	const char *set = lib == DNS_WIRE_MIEKG_1_1_50 ? ". '@;()\"\\"
						      : ". @;()\"\\";

	return b != 0 && strchr(set, b) != NULL;
}

/* Label byte b as UnpackDomainName writes it at out; its length. */
static size_t unpack_byte(unsigned char b, enum dns_wire_lib lib, char *out)
{
	if (label_special(b, lib)) {
		out[0] = '\\';
		out[1] = (char)b;
		return 2;
	}
	if (b >= ' ' && b <= '~') {
		out[0] = (char)b;
		return 1;
	}
	out[0] = '\\';
	out[1] = (char)('0' + b / 100);
	out[2] = (char)('0' + b / 10 % 10);
	out[3] = (char)('0' + b % 10);
	return 4;
}

int dns_wire_unpack(const unsigned char *wire, size_t wlen,
		    enum dns_wire_lib lib, char *out, size_t *olen,
		    size_t *detail)
{
	size_t off = 0, o = 0, used = 0; /* used: label bytes, lengths too */

	for (;;) {
		size_t c;
		if (off >= wlen)
			return DNS_WIRE_BAD_WIRE;
		c = wire[off++];
		if (c == 0)
			break;
		if ((c & 0xC0) != 0)
			return DNS_WIRE_BAD_WIRE;
		used += c + 1;
		if (used >= DNS_WIRE_MAX) { /* the library's budget */
			if (detail != NULL)
				*detail = used + 1;
			return DNS_WIRE_LONG_NAME;
		}
		if (off + c > wlen)
			return DNS_WIRE_BAD_WIRE;
		for (size_t k = 0; k < c; k++)
			o += unpack_byte(wire[off + k], lib, out + o);
		out[o++] = '.';
		off += c;
	}
	if (o == 0)
		out[o++] = '.';
	out[o] = '\0';
	*olen = o;
	return DNS_WIRE_OK;
}

int dns_wire_round_trip(const char *name, size_t len, enum dns_wire_lib lib,
			char *out, size_t *olen, size_t *detail)
{
	unsigned char wire[DNS_WIRE_MAX + 1];
	size_t wlen;
	int rc = dns_wire_pack(name, len, lib, wire, sizeof(wire), &wlen,
			       detail);

	if (rc != DNS_WIRE_OK)
		return rc;
	/* a longer name is cut to wire[]: unpacking stops on the budget
	   (or, 1.1.8's leading dot, on the first byte) before its end */
	rc = dns_wire_unpack(wire, wlen < sizeof(wire) ? wlen : sizeof(wire),
			     lib, out, olen, detail);
	if (rc == DNS_WIRE_LONG_NAME && detail != NULL)
		*detail = wlen;
	return rc;
}

void dns_wire_explain(int status, size_t detail, char *buf, size_t size)
{
	switch (status) {
	case DNS_WIRE_OK:
		snprintf(buf, size, "no error");
		break;
	case DNS_WIRE_NOT_FQDN:
		snprintf(buf, size, "it ends with a backslash that escapes the "
			 "final dot dns.Fqdn adds: PackDomainName refuses a "
			 "name not fully qualified");
		break;
	case DNS_WIRE_EMPTY_LABEL:
		snprintf(buf, size, "an empty label (two dots in a row): "
			 "PackDomainName refuses it");
		break;
	case DNS_WIRE_LEADING_DOT:
		snprintf(buf, size, "a leading dot (an empty first label): "
			 "PackDomainName refuses it (Cilium 1.19's miekg/dns "
			 "1.1.50)");
		break;
	case DNS_WIRE_LONG_LABEL:
		snprintf(buf, size, "a label of %zu bytes on the wire (at most "
			 "63): PackDomainName refuses it", detail);
		break;
	case DNS_WIRE_LONG_NAME:
		snprintf(buf, size, "%zu bytes on the wire (at most %d): the "
			 "proxy's UnpackDomainName refuses it", detail,
			 DNS_WIRE_MAX);
		break;
	default:
		snprintf(buf, size, "a malformed wire name");
		break;
	}
}

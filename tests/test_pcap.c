/*
 * test_pcap.c - the --pcap reader on captures written here byte by byte:
 * Ethernet (VLAN, IPv4, IPv6 with an extension header, Ethernet padding),
 * Linux cooked, frames that carry no payload, and truncated, foreign and
 * missing files, which must fail with one line naming the file.
 */
#include <criterion/criterion.h>

#include <pcap/pcap.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "corpora/pcap.h"

struct buf {
	unsigned char b[8192];
	size_t n;
};

static void put(struct buf *b, const void *p, size_t n)
{
	cr_assert_leq(b->n + n, sizeof(b->b));
	memcpy(b->b + b->n, p, n);
	b->n += n;
}

static void put8(struct buf *b, unsigned v)
{
	unsigned char c = (unsigned char)v;
	put(b, &c, 1);
}

static void put16(struct buf *b, unsigned v) /* network order */
{
	put8(b, v >> 8);
	put8(b, v & 0xff);
}

static void put32le(struct buf *b, unsigned v)
{
	for (int i = 0; i < 4; i++)
		put8(b, (v >> (8 * i)) & 0xff);
}

static void zeros(struct buf *b, size_t n)
{
	while (n-- > 0)
		put8(b, 0);
}

static void eth(struct buf *f, unsigned type)
{
	zeros(f, 12);
	put16(f, type);
}

static void ipv4(struct buf *f, unsigned proto, size_t l4len, unsigned frag)
{
	put8(f, 0x45);
	put8(f, 0);
	put16(f, (unsigned)(20 + l4len));
	put16(f, 1);
	put16(f, frag);
	put8(f, 64);
	put8(f, proto);
	zeros(f, 10); /* checksum, addresses */
}

static void ipv6(struct buf *f, unsigned next, size_t len)
{
	put8(f, 0x60);
	zeros(f, 3);
	put16(f, (unsigned)len);
	put8(f, next);
	put8(f, 64);
	zeros(f, 32);
}

static void tcp(struct buf *f, const char *payload)
{
	zeros(f, 12);
	put8(f, 5 << 4); /* data offset: 20 bytes */
	zeros(f, 7);
	put(f, payload, strlen(payload));
}

static void udp(struct buf *f, const char *payload)
{
	put16(f, 1000);
	put16(f, 53);
	put16(f, (unsigned)(8 + strlen(payload)));
	put16(f, 0);
	put(f, payload, strlen(payload));
}

static void file_header(struct buf *file, unsigned linktype)
{
	put32le(file, 0xa1b2c3d4);
	put8(file, 2);
	put8(file, 0);
	put8(file, 4);
	put8(file, 0);
	zeros(file, 8);
	put32le(file, 65535);
	put32le(file, linktype);
}

static void record(struct buf *file, const struct buf *frame)
{
	put32le(file, 1);
	put32le(file, 0);
	put32le(file, (unsigned)frame->n);
	put32le(file, (unsigned)frame->n);
	put(file, frame->b, frame->n);
}

static void write_file(const char *path, const struct buf *b, size_t n)
{
	FILE *f = fopen(path, "wb");

	cr_assert_not_null(f);
	cr_assert_eq(fwrite(b->b, 1, n, f), n);
	fclose(f);
}

static const char *const http = "GET /private HTTP/1.1\r\n";

/* Seven frames; four carry a payload. */
static void ethernet_capture(struct buf *file)
{
	struct buf f;

	file_header(file, 1); /* LINKTYPE_ETHERNET */
	f.n = 0; /* IPv4 TCP with a payload */
	eth(&f, 0x0800);
	ipv4(&f, 6, 20 + strlen(http), 0);
	tcp(&f, http);
	record(file, &f);
	f.n = 0; /* 802.1Q, IPv6, UDP */
	eth(&f, 0x8100);
	put16(&f, 7);
	put16(&f, 0x86dd);
	ipv6(&f, 17, 8 + 4);
	udp(&f, "dns?");
	record(file, &f);
	f.n = 0; /* ARP */
	eth(&f, 0x0806);
	zeros(&f, 28);
	record(file, &f);
	f.n = 0; /* a non-first IPv4 fragment */
	eth(&f, 0x0800);
	ipv4(&f, 17, 8 + 5, 100);
	udp(&f, "frag!");
	record(file, &f);
	f.n = 0; /* TCP without payload */
	eth(&f, 0x0800);
	ipv4(&f, 6, 20, 0);
	tcp(&f, "");
	record(file, &f);
	f.n = 0; /* a short UDP frame with Ethernet padding to 60 bytes */
	eth(&f, 0x0800);
	ipv4(&f, 17, 8 + 2, 0);
	udp(&f, "hi");
	zeros(&f, 60 - f.n);
	record(file, &f);
	f.n = 0; /* IPv6, hop-by-hop options, TCP */
	eth(&f, 0x86dd);
	ipv6(&f, 0, 8 + 20 + 5);
	put8(&f, 6); /* next: TCP */
	zeros(&f, 7);
	tcp(&f, "hello");
	record(file, &f);
}

static void expect_payload(const struct packets *pk, size_t i, const char *s)
{
	cr_assert_lt(i, pk->n);
	cr_expect_eq(pk->pkt[i].len, strlen(s), "payload %zu", i);
	cr_expect_eq(memcmp(pk->pkt[i].p, s, strlen(s)), 0, "payload %zu", i);
}

static char path[64];

static void setup(void)
{
	snprintf(path, sizeof(path), "/tmp/rxb_test_pcap_%d.pcap", (int)getpid());
}

static void teardown(void)
{
	unlink(path);
}

TestSuite(pcap, .init = setup, .fini = teardown);

Test(pcap, ethernet_payloads)
{
	struct buf file = {.n = 0};
	struct packets pk;
	char err[512] = "";

	ethernet_capture(&file);
	write_file(path, &file, file.n);
	cr_assert_eq(pcap_load_payloads(&pk, path, err, sizeof(err)), 0, "%s",
		     err);
	cr_assert_eq(pk.n, 4);
	expect_payload(&pk, 0, http);
	expect_payload(&pk, 1, "dns?");
	expect_payload(&pk, 2, "hi");
	expect_payload(&pk, 3, "hello");
	cr_expect_null(pk.mark);
	cr_expect_eq(pk.size, 0);
	/* wire size: IP length + 18, averaged */
	cr_expect_float_eq(pk.wire_bytes,
			   ((20 + 20 + strlen(http)) + (40 + 12) + (20 + 10) +
			    (40 + 33)) / 4.0 + 18, 1e-9);
	packets_release(&pk);
}

Test(pcap, linux_cooked)
{
	struct buf file = {.n = 0}, f = {.n = 0};
	struct packets pk;
	char err[512] = "";

	file_header(&file, 113); /* LINKTYPE_LINUX_SLL */
	put16(&f, 0);
	put16(&f, 1);
	put16(&f, 6);
	zeros(&f, 8);
	put16(&f, 0x0800);
	ipv4(&f, 17, 8 + 6, 0);
	udp(&f, "cooked");
	record(&file, &f);
	write_file(path, &file, file.n);
	cr_assert_eq(pcap_load_payloads(&pk, path, err, sizeof(err)), 0, "%s",
		     err);
	cr_assert_eq(pk.n, 1);
	expect_payload(&pk, 0, "cooked");
	packets_release(&pk);
}

Test(pcap, frame_decoder_rejects_malformed)
{
	unsigned char f[64] = {0};
	size_t off, len, ip;

	/* IPv4 header claiming a 15-word header in a 34-byte frame */
	f[12] = 0x08;
	f[14] = 0x4f;
	f[17] = 40;
	f[23] = 6;
	cr_expect_eq(pcap_frame_payload(DLT_EN10MB, f, 34, &off, &len, &ip), 0);
	cr_expect_eq(pcap_frame_payload(DLT_EN10MB, f, 5, &off, &len, &ip), 0);
	cr_expect_eq(pcap_frame_payload(DLT_RAW, f, 0, &off, &len, &ip), 0);
	cr_expect(pcap_link_supported(DLT_LINUX_SLL2));
	cr_expect_not(pcap_link_supported(DLT_IEEE802_11));
}

static void expect_fail(const char *file, const char *want)
{
	struct packets pk;
	char err[512] = "";

	cr_expect_eq(pcap_load_payloads(&pk, file, err, sizeof(err)), -1);
	cr_expect_eq(strncmp(err, file, strlen(file)), 0, "names the file: %s",
		     err);
	cr_expect_not_null(strstr(err, want), "%s", err);
	cr_expect_null(strchr(err, '\n'), "one line: %s", err);
}

Test(pcap, truncated_foreign_missing)
{
	struct buf file = {.n = 0}, text = {.n = 0};

	ethernet_capture(&file);
	write_file(path, &file, file.n - 5);
	expect_fail(path, "truncated");
	write_file(path, &file, 10);
	expect_fail(path, "truncated");
	put(&text, "hello, this is not a capture\n", 29);
	write_file(path, &text, text.n);
	expect_fail(path, "unknown file format");
	expect_fail("/nonexistent/x.pcap", "No such file or directory");
	expect_fail("/tmp", "is a directory");
}

Test(pcap, no_payload_and_foreign_link)
{
	struct buf file = {.n = 0}, f = {.n = 0};

	file_header(&file, 1);
	eth(&f, 0x0806);
	zeros(&f, 28);
	record(&file, &f);
	write_file(path, &file, file.n);
	expect_fail(path, "no TCP or UDP payload in 1 packets");
	file.n = 0;
	file_header(&file, 105); /* 802.11 */
	record(&file, &f);
	write_file(path, &file, file.n);
	expect_fail(path, "not supported");
}

/* ---- flows (pcap_load_flows) ---- */

/* One Ethernet IPv4 frame: TCP (seq) or UDP from port sp to dp. */
static void flow_frame(struct buf *file, unsigned proto, unsigned sp,
		       unsigned dp, unsigned seq, const char *payload)
{
	struct buf f = {.n = 0};
	size_t len = strlen(payload);

	eth(&f, 0x0800);
	put8(&f, 0x45);
	put8(&f, 0);
	put16(&f, (unsigned)(20 + (proto == 6 ? 20 : 8) + len));
	zeros(&f, 4);
	put8(&f, 64);
	put8(&f, proto);
	zeros(&f, 2);
	put8(&f, 10), put8(&f, 0), put8(&f, 0), put8(&f, sp == 80 ? 2 : 1);
	put8(&f, 10), put8(&f, 0), put8(&f, 0), put8(&f, sp == 80 ? 1 : 2);
	put16(&f, sp);
	put16(&f, dp);
	if (proto == 6) {
		put16(&f, seq >> 16);
		put16(&f, seq & 0xffff);
		zeros(&f, 4);
		put8(&f, 5 << 4);
		zeros(&f, 7);
	} else {
		put16(&f, (unsigned)(8 + len));
		put16(&f, 0);
	}
	put(&f, payload, len);
	record(file, &f);
}

/* The flow of pk whose first packet is `first`, or -1. */
static long flow_starting(const struct packets *pk, const char *first)
{
	for (size_t f = 0; f < pk->nflows; f++) {
		const struct packet *p = &pk->pkt[pk->flow[f]];
		if (p->len == strlen(first) && memcmp(p->p, first, p->len) == 0)
			return (long)f;
	}
	return -1;
}

/* Flow f of pk holds exactly the packets parts[0..n). */
static void expect_flow(const struct packets *pk, long f,
			const char *const *parts, size_t n)
{
	cr_assert_geq(f, 0, "no flow starting \"%s\"", parts[0]);
	cr_assert_eq(pk->flow[f + 1] - pk->flow[f], n, "flow \"%s\": %zu packets",
		     parts[0], pk->flow[f + 1] - pk->flow[f]);
	for (size_t k = 0; k < n; k++)
		expect_payload(pk, pk->flow[f] + k, parts[k]);
}

/*
 * TCP out of order, a retransmission, an overlap, a gap and a sequence
 * number that wraps; the reverse direction; UDP between them.
 */
Test(pcap, flows_by_five_tuple_in_sequence_order)
{
	struct buf file = {.n = 0};
	struct packets pk, view;
	char err[512] = "";
	static const char *const a[] = {"abcd", "efgh", "ijkl", "mn"};
	static const char *const gap[] = {"wxyz"};
	static const char *const back[] = {"HTTP/1.1 200"};
	static const char *const dns[] = {"q1", "q2"};
	static const char *const wrap[] = {"AB", "CD"};
	long fa;

	file_header(&file, 1);
	flow_frame(&file, 6, 1000, 80, 5000, "abcd");
	flow_frame(&file, 6, 1000, 80, 5008, "ijkl"); /* before efgh */
	flow_frame(&file, 17, 1000, 53, 0, "q1");
	flow_frame(&file, 6, 1000, 80, 5004, "efgh");
	flow_frame(&file, 6, 80, 1000, 9000, "HTTP/1.1 200");
	flow_frame(&file, 6, 1000, 80, 5004, "EFGH"); /* retransmitted */
	flow_frame(&file, 6, 1000, 80, 5010, "KLmn"); /* overlaps "kl" */
	flow_frame(&file, 17, 1000, 53, 0, "q2");
	flow_frame(&file, 6, 1000, 80, 5020, "wxyz"); /* after a gap */
	flow_frame(&file, 6, 2000, 80, 0, "CD");      /* wraps: after AB */
	flow_frame(&file, 6, 2000, 80, 0xfffffffeu, "AB");
	write_file(path, &file, file.n);
	cr_assert_eq(pcap_load_flows(&pk, path, err, sizeof(err)), 0, "%s", err);
	cr_expect_eq(pk.nflows, 5);
	cr_expect_eq(pk.n, 10, "the retransmission dropped: %zu", pk.n);
	fa = flow_starting(&pk, "abcd");
	expect_flow(&pk, fa, a, 4);
	expect_flow(&pk, flow_starting(&pk, "wxyz"), gap, 1);
	expect_flow(&pk, flow_starting(&pk, "HTTP/1.1 200"), back, 1);
	expect_flow(&pk, flow_starting(&pk, "q1"), dns, 2);
	expect_flow(&pk, flow_starting(&pk, "AB"), wrap, 2);
	/* a flow reassembled is one view of its bytes */
	cr_assert_eq(packets_flow_view(&pk, &view), 0);
	cr_expect_eq(view.n, 5);
	cr_expect_eq(view.pkt[fa].len, 14);
	cr_expect_eq(memcmp(view.pkt[fa].p, "abcdefghijklmn", 14), 0);
	cr_expect_null(view.mark);
	packets_release(&view);
	packets_release(&pk);
	/* the capture order loader is unchanged: every payload */
	cr_assert_eq(pcap_load_payloads(&pk, path, err, sizeof(err)), 0, "%s",
		     err);
	cr_expect_eq(pk.n, 11);
	cr_expect_null(pk.flow);
	packets_release(&pk);
}

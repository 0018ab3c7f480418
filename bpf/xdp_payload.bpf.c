/*
 * bpf/xdp_payload.bpf.c - the payload suite's XDP programs (issue 25),
 * compiled by clang -target bpf and embedded in rxbench (engines/xdp_load.c
 * loads them with libbpf; bpf/xdp_shared.h is the contract).
 *
 *   xdp_base     parse to the payload, return cfg.action
 *   xdp_literal  ... and search cfg.needle in it: cfg.action on a hit
 *   xdp_dfa      ... and walk it through the DFA tables (one per group of
 *                the set, XDP_RXB_DFA_LANES a pass): cfg.action on a
 *                match; with cfg.dfa_all every rule id that matches
 *
 * The parser: Ethernet, at most two VLAN tags (802.1Q or 802.1ad), IPv4
 * (header options by IHL; payload ends at the total length, so Ethernet
 * padding is not payload; a later fragment has no L4 header) or IPv6
 * without extension headers (a next header other than TCP or UDP, an
 * extension header included, is XDP_RXB_OTHER), TCP (options by data
 * offset) or UDP.  Anything else (XDP_RXB_OTHER: ARP, ICMP, ...) and a
 * short or lying frame (XDP_RXB_MALFORMED) returns XDP_PASS: the stack
 * judges what the program cannot, and a search never drops a frame it
 * did not read.  The result map tells the two apart.  xdp-tools'
 * xdp-filter passes what it does not filter too, but answers a header
 * cut short with XDP_ABORTED (a drop that fires the xdp:xdp_exception
 * tracepoint); the seed does not say what its program does.
 *
 * The DFA reads a copy of the payload (bpf_xdp_load_bytes into a
 * per-CPU buffer: it also reads fragments) in bpf_loop callbacks: a plain
 * loop over 1500 bytes is more than the verifier follows (issue 25), and
 * the kernel inlines bpf_loop into a counted loop around a direct call.
 * Each callback does a block of bytes, so the call is paid per block.
 * The literal reads the frame itself, 64 offsets a step of a plain
 * bounded loop (its part says how).
 */
#include <linux/bpf.h>
#include <linux/if_ether.h>
#include <linux/in.h>
#include <linux/ip.h>
#include <linux/ipv6.h>
#include <linux/tcp.h>
#include <linux/udp.h>

#include <bpf/bpf_endian.h>
#include <bpf/bpf_helpers.h>

#include "xdp_shared.h"

#define DFA_BLOCK 64u   /* bytes a DFA callback walks */
#define BUF_MASK (XDP_RXB_MAX_PAYLOAD - 1u) /* payload offsets */
#define NEEDLE_MASK (XDP_RXB_MAX_NEEDLE - 1u)

char LICENSE[] SEC("license") = "Dual BSD/GPL";

/* Set by the loader; a section of its own, so it is all that map holds. */
const volatile struct xdp_rxb_cfg cfg SEC(".rodata.cfg") = {
	.action = XDP_DROP,
};

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct xdp_rxb_result);
} result SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct xdp_rxb_buf);
} payload SEC(".maps");

/* The DFA tables: a value of rows x 256 __u32 per group, key = the
   group (bpf/xdp_shared.h), sized by the loader (no BTF value type, so
   it may). */
struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__uint(key_size, sizeof(__u32));
	__uint(value_size, 512);
} dfa_next SEC(".maps");

/* Per DFA state (group g's state s at cfg.dfa_acc_base[g] + s): struct
   xdp_rxb_accept; max_entries set by the loader. */
struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct xdp_rxb_accept);
} dfa_acc SEC(".maps");

struct vlan {
	__be16 tci;
	__be16 proto;
};

/* Where the payload is: [off, off + len) of the frame. */
struct where {
	__u32 off;
	__u32 len;
};

/* The EtherType after at most two VLAN tags; *off moves past them.
   -1 when the frame is short. */
static __always_inline int parse_eth(void *data, void *end, __u32 *off)
{
	struct ethhdr *eth = data;
	__u16 proto;

	if ((void *)(eth + 1) > end)
		return -1;
	proto = eth->h_proto;
	*off = sizeof(*eth);
#pragma unroll
	for (int i = 0; i < 2; i++) {
		struct vlan *v = data + *off;
		if (proto != bpf_htons(ETH_P_8021Q) &&
		    proto != bpf_htons(ETH_P_8021AD))
			break;
		if ((void *)(v + 1) > end)
			return -1;
		proto = v->proto;
		*off += sizeof(*v);
	}
	return proto;
}

/* IPv4 at *off: *off moves to L4, *l3end is where the datagram ends, the
   L4 protocol is returned; a negative enum xdp_rxb_status otherwise. */
static __always_inline int parse_ip4(void *data, void *end, __u32 *off,
				     __u32 *l3end)
{
	struct iphdr *ip = data + *off;
	__u32 ihl, tot;

	if ((void *)(ip + 1) > end)
		return -XDP_RXB_MALFORMED;
	ihl = ip->ihl * 4u;
	tot = bpf_ntohs(ip->tot_len);
	if (ihl < sizeof(*ip) || tot < ihl || *off + tot > (__u32)(end - data))
		return -XDP_RXB_MALFORMED;
	if (ip->frag_off & bpf_htons(0x1fff))
		return -XDP_RXB_OTHER;
	*l3end = *off + tot;
	*off += ihl;
	return ip->protocol;
}

/* IPv6 at *off, as parse_ip4; no extension headers. */
static __always_inline int parse_ip6(void *data, void *end, __u32 *off,
				     __u32 *l3end)
{
	struct ipv6hdr *ip = data + *off;
	__u32 plen;

	if ((void *)(ip + 1) > end)
		return -XDP_RXB_MALFORMED;
	plen = bpf_ntohs(ip->payload_len);
	*off += sizeof(*ip);
	if (*off + plen > (__u32)(end - data))
		return -XDP_RXB_MALFORMED;
	*l3end = *off + plen;
	return ip->nexthdr;
}

/* TCP or UDP at *off: *off moves to the payload.  0, or a negative
   enum xdp_rxb_status. */
static __always_inline int parse_l4(void *data, void *end, int proto,
				    __u32 *off, __u32 l3end)
{
	__u32 hlen;

	if (*off > 0xffff)
		return -XDP_RXB_MALFORMED;
	if (proto == IPPROTO_TCP) {
		struct tcphdr *t = data + *off;
		if ((void *)(t + 1) > end)
			return -XDP_RXB_MALFORMED;
		hlen = t->doff * 4u;
		if (hlen < sizeof(*t))
			return -XDP_RXB_MALFORMED;
	} else if (proto == IPPROTO_UDP) {
		hlen = sizeof(struct udphdr);
	} else {
		return -XDP_RXB_OTHER;
	}
	if (*off + hlen > l3end)
		return -XDP_RXB_MALFORMED;
	*off += hlen;
	return 0;
}

/* The frame's payload in *w: an enum xdp_rxb_status. */
static __always_inline int parse(struct xdp_md *ctx, struct where *w)
{
	void *data = (void *)(long)ctx->data;
	void *end = (void *)(long)ctx->data_end;
	__u32 off = 0, l3end = 0;
	int proto = parse_eth(data, end, &off);

	if (proto < 0)
		return XDP_RXB_MALFORMED;
	if (proto == bpf_htons(ETH_P_IP))
		proto = parse_ip4(data, end, &off, &l3end);
	else if (proto == bpf_htons(ETH_P_IPV6))
		proto = parse_ip6(data, end, &off, &l3end);
	else
		return XDP_RXB_OTHER;
	if (proto < 0)
		return -proto;
	proto = parse_l4(data, end, proto, &off, l3end);
	if (proto < 0)
		return -proto;
	w->off = off;
	w->len = l3end - off;
	return w->len > XDP_RXB_MAX_PAYLOAD ? XDP_RXB_TOO_LONG
					    : XDP_RXB_PAYLOAD;
}

/* Parse, and note what was found in the result map (its ids cleared).
   NULL when the map cannot be read (never, for an array). */
static __always_inline struct xdp_rxb_result *
begin(struct xdp_md *ctx, struct where *w)
{
	__u32 zero = 0;
	struct xdp_rxb_result *res = bpf_map_lookup_elem(&result, &zero);

	w->off = w->len = 0;
	if (res == NULL)
		return NULL;
	res->status = parse(ctx, w);
	res->off = w->off;
	res->len = w->len;
	res->hit = 0;
	return res;
}

SEC("xdp")
int xdp_base(struct xdp_md *ctx)
{
	struct where w;
	struct xdp_rxb_result *res = begin(ctx, &w);

	if (res == NULL || res->status != XDP_RXB_PAYLOAD)
		return XDP_PASS;
	return cfg.action;
}

/* The payload into the per-CPU buffer.  The buffer, or NULL. */
static __always_inline struct xdp_rxb_buf *copy_payload(struct xdp_md *ctx,
							 const struct where *w)
{
	__u32 zero = 0, len = w->len;
	struct xdp_rxb_buf *b = bpf_map_lookup_elem(&payload, &zero);

	if (b == NULL || len == 0 || len > XDP_RXB_MAX_PAYLOAD)
		return NULL;
	if (bpf_xdp_load_bytes(ctx, w->off, b->b, len) != 0)
		return NULL;
	return b;
}

/* ---- literal ---- */

/*
 * The literal is searched in the frame itself: a program loaded without
 * BPF_F_XDP_HAS_FRAGS gets linear frames only, so direct packet access
 * sees the whole payload and nothing is copied or looked up.  Plain
 * bounded loops: a step tests LIT_CHUNK candidate offsets, a word of 8
 * at a time, so 3466 bytes are 54 steps, which the verifier follows one
 * by one (a loop a byte at a time is too many for it).  The filter:
 * offset q is a candidate when the needle's two filter bytes (the
 * rarest by the loader's byte ranks: cfg.rare_at) are at q + rare_at[0]
 * and q + rare_at[1]; a step with a candidate has its offsets confirmed
 * (lit_confirm), which on text is rare.  The candidates after the last
 * whole step are done by one step moved back to end at the last one
 * (offsets done twice do no harm), a payload of fewer than LIT_CHUNK by
 * two overlapping steps of fewer words, and one of fewer than 8 (a
 * payload shorter than the needle + 7) by lit_confirm alone.
 */
#define LIT_CHUNK 64u
#define LIT_CHUNKS (XDP_RXB_MAX_PAYLOAD / LIT_CHUNK)
#define LIT_OFF_MAX 255u /* the parser's payload offset is at most 142 */

/* Non-zero when a byte of v is zero (a borrow may flag the byte above a
   zero byte too: a filter, the candidates are confirmed). */
static __always_inline __u64 has_zero(__u64 v)
{
	return (v - 0x0101010101010101ULL) & ~v & 0x8080808080808080ULL;
}

/*
 * Candidates q .. q + 8 * words - 1 at p = payload + q, the bytes up to
 * p + 8 * words - 1 + rare_at[1] readable: non-zero when one may match.
 * The loads are through __u64 pointers: clang -target bpf splits a load
 * it cannot prove aligned into 8 byte loads (the old filter spent most
 * of its time there), and x86-64 and arm64 load unaligned words, which
 * the verifier allows unless BPF_F_STRICT_ALIGNMENT (or an arch without
 * efficient unaligned access) asks otherwise.
 */
static __always_inline __u64 lit_filter(const __u8 *p, __u32 words)
{
	const __u64 *a = (const __u64 *)(p + cfg.rare_at[0]);
	const __u64 *b = (const __u64 *)(p + cfg.rare_at[1]);
	__u64 ra = cfg.rare8[0], rb = cfg.rare8[1], any = 0;

#pragma unroll
	for (__u32 k = 0; k < LIT_CHUNK / 8; k++)
		if (k < words)
			any |= has_zero((a[k] ^ ra) | (b[k] ^ rb));
	return any;
}

/*
 * Is the needle at one of the n (<= LIT_CHUNK) offsets from q of the
 * payload at off, its len bytes in the frame?  1 on a hit.  A global
 * function: the verifier checks it once, not at every step that calls
 * it.  The masks keep the offsets bounded for the verifier (they are in
 * range anyway); an offset is compared without a branch per byte, so
 * the verifier follows two paths an offset, not one per byte.
 */
__noinline int lit_confirm(struct xdp_md *ctx, __u32 off, __u32 len,
			   __u32 q, __u32 n)
{
	void *data = (void *)(long)ctx->data;
	void *end = (void *)(long)ctx->data_end;
	__u32 nl = cfg.needle_len, ra = cfg.rare_at[0], rb = cfg.rare_at[1];
	const __u8 *p;

	off &= LIT_OFF_MAX;
	q &= BUF_MASK;
	p = data + off + q;
	for (__u32 j = 0; j < LIT_CHUNK; j++) {
		const __u8 *s = p + j;
		__u8 diff = 0;
		/* the bound is checked on s itself, not on a pointer
		   clang would derive beside it: the verifier knows the
		   bound only of the pointer checked */
		barrier_var(s);
		if (j >= n || q + j + nl > len || (void *)(s + nl) > end)
			return 0;
		if (s[ra & NEEDLE_MASK] != cfg.needle[ra & NEEDLE_MASK] ||
		    s[rb & NEEDLE_MASK] != cfg.needle[rb & NEEDLE_MASK])
			continue;
#pragma unroll
		for (__u32 i = 0; i < XDP_RXB_MAX_NEEDLE; i++)
			if (i < nl)
				diff |= s[i] ^ cfg.needle[i];
		if (diff == 0)
			return 1;
	}
	return 0;
}

/* The candidates q .. q + 8 * words - 1 (all below n): 1 on a hit. */
static __always_inline int lit_step(struct xdp_md *ctx, __u32 off,
				    __u32 len, __u32 q, __u32 words)
{
	void *data = (void *)(long)ctx->data;
	void *end = (void *)(long)ctx->data_end;
	const __u8 *p;

	/* the masks bound the offsets for the verifier (they are in range
	   anyway); barrier_var() keeps clang from dropping a mask it
	   deems redundant and from deriving another pointer than the p
	   the bound is checked on (the verifier knows p's bound only) */
	barrier_var(off);
	barrier_var(q);
	p = data + (off & LIT_OFF_MAX) + (q & BUF_MASK);
	barrier_var(p);
	if ((void *)(p + 8 * words + cfg.rare_at[1]) > end)
		return 0;
	return lit_filter(p, words) && lit_confirm(ctx, off, len, q, 8 * words);
}

/* Fewer than LIT_CHUNK candidates (n): two steps of the most words
   that fit, from the first and back from the last (they overlap). */
static __always_inline int lit_short(struct xdp_md *ctx, __u32 off,
				     __u32 len, __u32 n)
{
	if (n >= 32)
		return lit_step(ctx, off, len, 0, 4) ||
		       lit_step(ctx, off, len, n - 32, 4);
	if (n >= 16)
		return lit_step(ctx, off, len, 0, 2) ||
		       lit_step(ctx, off, len, n - 16, 2);
	if (n >= 8)
		return lit_step(ctx, off, len, 0, 1) ||
		       lit_step(ctx, off, len, n - 8, 1);
	return lit_confirm(ctx, off, len, 0, n);
}

/*
 * The n candidates of the payload at off (len bytes): 1 on a hit.  The
 * whole steps, then the last n % LIT_CHUNK candidates with a step moved
 * back to end at the last one.  That step is found from n alone, not
 * from where the loop stopped, so that the verifier checks it once
 * rather than after each of the loop's exits.
 */
static __always_inline int lit_search(struct xdp_md *ctx, __u32 off,
				      __u32 len, __u32 n)
{
	if (n < LIT_CHUNK)
		return lit_short(ctx, off, len, n);
	for (__u32 i = 0; i < LIT_CHUNKS && (i + 1) * LIT_CHUNK <= n; i++)
		if (lit_step(ctx, off, len, i * LIT_CHUNK, LIT_CHUNK / 8))
			return 1;
	return n % LIT_CHUNK &&
	       lit_step(ctx, off, len, n - LIT_CHUNK, LIT_CHUNK / 8);
}

/*
 * The payload's offset and length are read back from the result map
 * (volatile: not the values clang has in registers): the verifier then
 * sees one range for every header layout the parser took, not one per
 * layout, and checks the search once.
 */
SEC("xdp")
int xdp_literal(struct xdp_md *ctx)
{
	struct where w;
	struct xdp_rxb_result *res = begin(ctx, &w);
	__u32 nl = cfg.needle_len, off, len;

	if (res == NULL || res->status != XDP_RXB_PAYLOAD)
		return XDP_PASS;
	off = *(volatile __u32 *)&res->off;
	len = *(volatile __u32 *)&res->len;
	if (len < nl || len > XDP_RXB_MAX_PAYLOAD)
		return XDP_PASS;
	res->hit = lit_search(ctx, off, len, len - nl + 1);
	return res->hit ? cfg.action : XDP_PASS;
}

/* ---- dfa ---- */

#define L XDP_RXB_DFA_LANES
#define GROUP_MASK (XDP_RXB_DFA_GROUPS - 1u)

/* A pass walks groups first .. first + L - 1 (the last pass's lanes past
   cfg.dfa_groups walk the loader's padding, see dfa_lanes()), a block of
   bytes through each in turn. */
struct dfa_ctx {
	__u32 state[L]; /* as row offsets, state << XDP_RXB_DFA_ROW_SHIFT */
	__u32 first;    /* the pass's first group */
	__u32 pos;
	__u32 len;
	__u32 hit;
};

/* The pass's first group: 0 when one pass holds every group (a constant
   then: the verifier prunes the idle lanes). */
static __always_inline __u32 dfa_first(const struct dfa_ctx *c)
{
	return cfg.dfa_groups <= L ? 0 : c->first;
}

/* The pass's lanes: the groups when one pass holds them all, else L
   (the loader pads the last pass with groups that never accept, so the
   lanes are a constant for the verifier, whose paths through the lanes'
   accepting steps would otherwise multiply). */
static __always_inline __u32 dfa_lanes(void)
{
	return cfg.dfa_groups < L ? cfg.dfa_groups : L;
}

/* The accept entry of group g's state s (a state number), or NULL. */
static __always_inline struct xdp_rxb_accept *dfa_acc_of(__u32 g, __u32 s)
{
	__u32 key = cfg.dfa_acc_base[g & GROUP_MASK] + s;

	return bpf_map_lookup_elem(&dfa_acc, &key);
}

/* ids |= what group g's state s's accept entry holds now (at_end 0) or
   at the end of the payload (at_end 1). */
static __noinline void dfa_collect(__u32 g, __u32 s, __u32 at_end)
{
	__u32 zero = 0;
	struct xdp_rxb_accept *a = dfa_acc_of(g, s);
	struct xdp_rxb_result *res = bpf_map_lookup_elem(&result, &zero);

	if (a == NULL || res == NULL)
		return;
	for (__u32 k = 0; k < XDP_RXB_ID_WORDS; k++)
		res->ids[k] |= at_end ? a->end[k] : a->now[k];
}

/* A transition into accepting state s of group g: 1 when the walk may
   stop. */
static __always_inline int dfa_accept(struct dfa_ctx *c, __u32 g, __u32 s)
{
	c->hit = 1;
	if (!cfg.dfa_all)
		return 1;
	dfa_collect(g, s, 0);
	return 0;
}

/* One step of group g on byte ch through its table t: *s (a row's byte
   offset, at most mask) moves; 1 when the walk stops.  The chain from a
   load to the next is an ADD: an entry above mask has the accept bit
   (or is out of the table: never), and the test that says so bounds the
   offset for the verifier without an AND between the loads. */
static __always_inline int dfa_step(struct dfa_ctx *c, const void *t,
				    __u64 mask, __u32 g, __u64 *s, __u8 ch)
{
	/* the column first (it does not wait for the last load); 64-bit:
	   a 32-bit state costs two shifts a step to widen it */
	const void *col = t + ch * 4u;
	__u64 v;

	barrier_var(col);
	v = *(const __u32 *)(col + *s);
	/* else clang tests the accept bit by a sign extension (two
	   shifts) and widens v again (two more) */
	barrier_var(v);
	if (v > mask) {
		*s = v & mask;
		return dfa_accept(c, g, *s >> XDP_RXB_DFA_ROW_SHIFT);
	}
	*s = v;
	return 0;
}

/* Byte j of a word loaded from memory (in memory order). */
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define WORD_BYTE(x, j) ((x) >> (8 * (j)))
#else
#define WORD_BYTE(x, j) ((x) >> (56 - 8 * (j)))
#endif

/* The 8 bytes of word x through group g's table t, as dfa_step.  The
   bytes are read a word at a time (the buffer is 8-aligned, and so are
   the words read): a load per byte makes clang keep a pointer per byte,
   more than the stack holds. */
static __always_inline int dfa_word(struct dfa_ctx *c, const void *t,
				    __u64 mask, __u32 g, __u64 *s, __u64 x)
{
#pragma unroll
	for (__u32 j = 0; j < 8; j++)
		if (dfa_step(c, t, mask, g, s, WORD_BYTE(x, j)))
			return 1;
	return 0;
}

/* Lane l of block i: DFA_BLOCK bytes at pos through group first + l,
   its state in a register.  1 stops. */
static __always_inline int dfa_lane(struct dfa_ctx *c,
				    const struct xdp_rxb_buf *b, __u32 pos,
				    __u32 first, __u32 l)
{
	__u32 g = first + l;
	/* the AND: a state read back from c is bounded for the verifier
	   once a block, the steps bound the rest (dfa_step) */
	__u64 mask = cfg.dfa_mask, s = c->state[l] & mask;
	const void *t = bpf_map_lookup_elem(&dfa_next, &g);
	/* a pointer of its own: through &b->b[] clang reads bytes */
	const __u64 *w = (const __u64 *)(b->b + pos);

	if (t == NULL)
		return 1;
#pragma unroll
	for (__u32 k = 0; k < DFA_BLOCK / 8; k++)
		if (dfa_word(c, t, mask, g, &s, w[k]))
			return 1;
	c->state[l] = s;
	return 0;
}

/* Block i: DFA_BLOCK bytes, all inside the payload, through each of the
   pass's groups in turn (a lane's steps depend on each other, the
   lanes' do not: the core overlaps them).  1 stops. */
static long dfa_block(__u32 i, void *data)
{
	struct dfa_ctx *c = data;
	__u32 zero = 0, pos = (i * DFA_BLOCK) & BUF_MASK, first = dfa_first(c);
	const struct xdp_rxb_buf *b = bpf_map_lookup_elem(&payload, &zero);

	if (b == NULL)
		return 1;
#pragma unroll
	for (__u32 l = 0; l < L; l++)
		if (l < dfa_lanes() && dfa_lane(c, b, pos, first, l))
			return 1;
	return 0;
}

/* The last 1 .. DFA_BLOCK bytes of the pass through lane l: their
   whole words as a block's, then the last 0 .. 7 bytes one by one. */
static __noinline int dfa_tail_lane(struct dfa_ctx *c, __u32 l)
{
	__u32 zero = 0, g, pos, n;
	__u64 s, mask = cfg.dfa_mask;
	const struct xdp_rxb_buf *b = bpf_map_lookup_elem(&payload, &zero);
	const void *t;
	const __u64 *w;

	if (c == NULL || b == NULL || l >= L)
		return 1;
	g = dfa_first(c) + l;
	t = bpf_map_lookup_elem(&dfa_next, &g);
	if (t == NULL)
		return 1;
	pos = c->pos & BUF_MASK;
	n = c->len - c->pos;
	s = c->state[l] & mask;
	w = (const __u64 *)(b->b + pos);
#pragma unroll
	for (__u32 k = 0; k < DFA_BLOCK / 8; k++) {
		if (8 * k + 8 > n)
			break;
		if (dfa_word(c, t, mask, g, &s, w[k]))
			return 1;
	}
	/* j, not k from n & ~7: the verifier counts the loop's rounds by
	   its bound, and so follows 7 of them, not DFA_BLOCK */
	for (__u32 j = 0; j < 7; j++) {
		__u32 k = (n & ~7u) + j;

		if (k >= n)
			break;
		if (dfa_step(c, t, mask, g, &s, b->b[(pos + k) & BUF_MASK]))
			return 1;
	}
	c->state[l] = s;
	return 0;
}

/* The last 1 .. DFA_BLOCK bytes of the pass.  1 stops. */
static __always_inline int dfa_tail(struct dfa_ctx *c)
{
#pragma unroll
	for (__u32 l = 0; l < L; l++)
		if (l < dfa_lanes() && dfa_tail_lane(c, l))
			return 1;
	return 0;
}

/* Accept flags of group g's state at row offset off (0 when out of the
   map). */
static __always_inline __u32 dfa_flags(__u32 g, __u32 off)
{
	struct xdp_rxb_accept *a = dfa_acc_of(g, off >> XDP_RXB_DFA_ROW_SHIFT);

	return a == NULL ? 0 : a->flags;
}

/* The end-of-payload step of lane l: the state the walk ends in
   settles what waited for the byte after (\b, \B, $, \z, a final
   '\n'), as its accept-at-end flag says. */
static __always_inline void dfa_end(struct dfa_ctx *c, __u32 first, __u32 l)
{
	if (!(dfa_flags(first + l, c->state[l]) & XDP_RXB_ACC_END))
		return;
	c->hit = 1;
	if (cfg.dfa_all)
		dfa_collect(first + l, c->state[l] >> XDP_RXB_DFA_ROW_SHIFT, 1);
}

/* The pass's start states (each group's 0), and whether they accept
   already.  1 when the walk may stop. */
static __always_inline int dfa_begin(struct dfa_ctx *c, __u32 first, __u32 nl)
{
#pragma unroll
	for (__u32 l = 0; l < L; l++) {
		c->state[l] = 0;
		if (l < nl && (dfa_flags(first + l, 0) & XDP_RXB_ACC_NOW) &&
		    dfa_accept(c, first + l, 0))
			return 1;
	}
	return 0;
}

/* Pass i over the payload (len > 0): its groups' starts, blocks, the
   tail, then the end-of-payload step.  1 when the walk may stop. */
static __always_inline int dfa_pass(struct dfa_ctx *c, __u32 i)
{
	__u32 blocks = (c->len - 1) / DFA_BLOCK, first, nl;

	c->first = i * L;
	first = dfa_first(c);
	if (first >= cfg.dfa_groups)
		return 1;
	nl = dfa_lanes();
	if (dfa_begin(c, first, nl))
		return 1;
	bpf_loop(blocks, dfa_block, c, 0);
	if (c->hit && !cfg.dfa_all)
		return 1;
	c->pos = blocks * DFA_BLOCK;
	if (dfa_tail(c) != 0)
		return 1;
	if (!cfg.dfa_tail)
		return 0;
#pragma unroll
	for (__u32 l = 0; l < L; l++)
		if (l < nl)
			dfa_end(c, first, l);
	return c->hit && !cfg.dfa_all;
}

/* bpf_loop's callback: pass i.  1 stops. */
static long dfa_pass_cb(__u32 i, void *data)
{
	return dfa_pass(data, i);
}

/* The walk: one pass when the groups fit in the lanes, else a pass per
   L groups. */
static __always_inline void dfa_walk(struct dfa_ctx *c)
{
	if (cfg.dfa_groups <= L)
		dfa_pass(c, 0);
	else
		bpf_loop((cfg.dfa_groups + L - 1) / L, dfa_pass_cb, c, 0);
}

/* An empty payload: each start state, at the end. */
static __always_inline void dfa_empty(struct dfa_ctx *c)
{
	for (__u32 g = 0; g < XDP_RXB_DFA_GROUPS; g++) {
		if (g >= cfg.dfa_groups)
			break;
		if (!(dfa_flags(g, 0) & (XDP_RXB_ACC_NOW | XDP_RXB_ACC_END)))
			continue;
		c->hit = 1;
		if (cfg.dfa_all)
			dfa_collect(g, 0, 1);
	}
}

SEC("xdp")
int xdp_dfa(struct xdp_md *ctx)
{
	struct where w;
	struct xdp_rxb_result *res = begin(ctx, &w);
	struct dfa_ctx c = {};
	const struct xdp_rxb_buf *b;

	if (res == NULL || res->status != XDP_RXB_PAYLOAD)
		return XDP_PASS;
	for (__u32 k = 0; k < XDP_RXB_ID_WORDS; k++)
		res->ids[k] = 0;
	c.len = w.len;
	b = copy_payload(ctx, &w);
	if (b == NULL) {
		if (w.len == 0)
			dfa_empty(&c);
	} else {
		dfa_walk(&c);
	}
	res->hit = c.hit;
	return c.hit ? cfg.action : XDP_PASS;
}

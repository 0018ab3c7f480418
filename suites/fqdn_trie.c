/*
 * fqdn_trie.c - the matcher of the `trie` strategy (see fqdn_trie.h).
 *
 * What makes it fast, per query (already lower case with its final dot):
 *   - one lookup of the whole name in a set hashed from the key's first
 *     and last eight bytes and its length (two loads, two multiplies,
 *     whatever the name's length), the slot holding 32 bits of the hash
 *     so that a miss rarely reads a key, a hit compared sixteen bytes at
 *     a time (SSE2), never by memcmp;
 *   - then a filter of 8 Ki bits (1 KiB, in L1) of every selector's last
 *     label: a query under any other top-level label is denied by one
 *     word read and one bit, before any other lookup;
 *   - per group of heads (the distinct numbers of leading wildcard
 *     labels: one or two in practice), one search to the group's dot
 *     eight bytes at a time, one lookup of the suffix, and a check of the
 *     heads found there decided when they were inserted (a lone '*' is
 *     a class check of the label by SSE2 range compares, one star a
 *     prefix and a suffix compared as masked words);
 *   - no recursion, no backtracking, no allocation, no byte loop on the
 *     fast path.  Only 1.19's leading "**." walks the label trie (edges
 *     keyed by the label's first eight bytes read as one number).
 */
#define _GNU_SOURCE
#include "suites/fqdn_trie.h"

#include "suites/fqdn_forms.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif

/* What ends at a node. */
enum { END_HERE = 1u << 0, END_SUBDOMAINS = 1u << 1 };

struct trie_node {
	uint32_t wild;     /* first wildcard edge + 1, 0: none */
	uint16_t terminal; /* END_HERE: a pattern ends here; END_SUBDOMAINS:
			      1.19's "**." pattern, one label or more left */
	uint16_t exact;    /* it has plain-label children */
};

/* A plain-label edge; the label is in the arena, its first 8 bytes in key. */
struct trie_edge {
	uint64_t key;
	uint32_t parent, child, off, len;
};

/* A wildcard-label edge, in its parent's list. */
struct trie_wild {
	uint32_t next; /* next edge of the same parent + 1, 0: last */
	uint32_t child, off, len;
};

/*
 * Heads.  A pattern whose stars all sit in its first j labels (every 1.11
 * pattern; in 1.19 every one without a leading "**.") is its head, those
 * j labels, and an exact suffix, the rest.  A query can match it only
 * with the suffix after its own j-th dot, so the pattern is kept in
 * group j, a hash set of suffixes, each naming its heads; a query hashes
 * its suffix once per group (one or two groups in practice) and globs
 * the heads it finds, label by label.  No walk, no recursion: this is
 * the trie's fast path.  Patterns with a leading "**." (a head of no
 * fixed length) and a group beyond TRIE_GROUPS go to the label trie.
 */
#define TRIE_GROUPS 8

/* Bits of the last-label filter: 8 Ki bits, 1 KiB, stays in L1. */
#define TLD_SHIFT 13
#define TLD_WORDS ((1u << TLD_SHIFT) / 64)

/*
 * Keys (in the trie's arena) -> a value: the matchNames, and each group's
 * suffixes.  Probed by a hash of the key's first and last eight bytes and
 * its length (two loads, two multiplies, whatever the length: DNS names
 * differ in their first label and their top-level domain), the slot
 * holding 32 bits of it so that a miss rarely reads a key.
 */
struct trie_set {
	struct trie_key {
		uint32_t off, len, value;
	} *e;
	size_t n, cap;
	uint64_t *slot; /* hash << 32 | entry + 1; 0: empty */
	size_t mask;
};

struct trie_group {
	size_t j;            /* head labels */
	struct trie_set suf; /* suffix -> first head + 1 (value) */
};

/* What a head is, decided once when it is inserted. */
enum head_kind {
	HEAD_STAR,     /* labels of stars only ("*", "*.*"): any labels of
			  class characters */
	HEAD_ONE_STAR, /* one label with one star: a prefix and a suffix */
	HEAD_GENERAL,  /* anything else: label by label */
};

struct trie_head {
	uint32_t next; /* next head of the same suffix + 1, 0: last */
	uint32_t off, len; /* "l1.l2...lj" in the arena, no final dot */
	uint16_t kind;     /* enum head_kind */
	uint16_t pre;      /* HEAD_ONE_STAR: bytes before the star */
};

struct fqdn_trie {
	struct trie_set names; /* the matchNames (and star-less patterns), as
				  rewritten queries */
	struct trie_node *node;
	size_t nnodes, capnodes;
	struct trie_edge *edge;
	size_t nedges, capedges;
	uint32_t *slot; /* edge index + 1 per slot, 0: empty */
	size_t mask;
	struct trie_wild *wild;
	size_t nwild, capwild;
	char *arena;
	size_t used, size;
	int match_all; /* 1: every valid name (1.11's "*"); 2: every name */
	/* the last labels of every selector, as bits (tld_bit()): a query
	   whose last label has no bit set is denied at once; tld_any: some
	   selector's last label has a star, or it allows all */
	uint64_t tld[TLD_WORDS];
	int tld_any;
	/* patterns by head: see "heads" below */
	struct trie_group group[TRIE_GROUPS];
	size_t ngroups;
	struct trie_head *head;
	size_t nheads, capheads;
};

static int grow(void **p, size_t *cap, size_t need, size_t elem)
{
	size_t c = *cap ? *cap : 16;
	void *q;

	if (need <= *cap)
		return 0;
	while (c < need)
		c *= 2;
	q = realloc(*p, c * elem);
	if (q == NULL)
		return -1;
	*p = q;
	*cap = c;
	return 0;
}

#define ARENA_PAD 8
static const char arena_pad[ARENA_PAD];

/* A copy of s in the arena; its offset, or -1 out of memory. */
static long arena_put(struct fqdn_trie *t, const char *s, size_t len)
{
	long off = (long)t->used;

	if (grow((void **)&t->arena, &t->size, t->used + len, 1) != 0)
		return -1;
	memcpy(t->arena + t->used, s, len);
	t->used += len;
	return off;
}

static uint64_t key_hash(const char *k, size_t len)
{
	uint64_t a = 0, b = 0;

	if (len >= 8) {
		memcpy(&a, k, 8);
		memcpy(&b, k + len - 8, 8);
	} else {
		for (size_t i = 0; i < len; i++)
			a = a << 8 | (unsigned char)k[i];
	}
	return ((a * 0x9e3779b97f4a7c15ull) ^ b ^ len) * 0xff51afd7ed558ccdull;
}

#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define TRIE_LE 1 /* byte i of a loaded word is bits 8i..8i+7 */
#else
#define TRIE_LE 0
#endif

static inline uint64_t load8(const char *p)
{
	uint64_t w;

	memcpy(&w, p, 8);
	return w;
}

#ifdef __SSE2__
static inline int eq16(const char *a, const char *b)
{
	__m128i x = _mm_loadu_si128((const __m128i *)(const void *)a);
	__m128i y = _mm_loadu_si128((const __m128i *)(const void *)b);

	return _mm_movemask_epi8(_mm_cmpeq_epi8(x, y)) == 0xffff;
}
#endif

/*
 * a[0..len) == b[0..len): sixteen bytes at a time (SSE2; eight without
 * it), the last sixteen (or eight) read again, overlapping, rather than
 * byte by byte; no call to memcmp.  Reads nothing outside either key.
 */
static inline int key_eq(const char *a, const char *b, size_t len)
{
#ifdef __SSE2__
	if (len >= 16) {
		for (size_t i = 0; i + 16 < len; i += 16)
			if (!eq16(a + i, b + i))
				return 0;
		return eq16(a + len - 16, b + len - 16);
	}
#endif
	if (len < 8) {
		for (size_t i = 0; i < len; i++)
			if (a[i] != b[i])
				return 0;
		return 1;
	}
	for (size_t i = 0; i + 8 < len; i += 8)
		if (load8(a + i) != load8(b + i))
			return 0;
	return load8(a + len - 8) == load8(b + len - 8);
}

/* 0x80 in each byte of w that is zero (exact: no borrow between bytes). */
static inline uint64_t zero_bytes(uint64_t w)
{
	const uint64_t low7 = 0x7f7f7f7f7f7f7f7full;

	return ~(((w & low7) + low7) | w | low7);
}

/*
 * The filter bit of the last label of q[0..len) (len >= 1, q ends with a
 * dot): its last eight bytes at most and its length up to eight, found
 * without a loop.  The eight bytes before the final dot are read at once
 * (missing ones, before q, count as dots); the label is what lies above
 * their highest dot.  Little-endian only (tld_any elsewhere).
 */
static inline size_t tld_bit(const char *q, size_t len)
{
	const uint64_t dots = 0x0101010101010101ull * '.';
	size_t end = len - 1, l = 8;
	uint64_t w = dots, z;

	if (end >= 8) {
		w = load8(q + end - 8);
	} else {
		for (size_t i = 0; i < end; i++) /* the top `end` bytes */
			w = (w & ~(0xffull << (8 * (8 - end + i)))) |
			    (uint64_t)(unsigned char)q[i] << (8 * (8 - end + i));
	}
	z = zero_bytes(w ^ dots);
	if (z != 0) {
		size_t k = (size_t)(63 - __builtin_clzll(z)) >> 3;
		l = 7 - k;
		w = l == 0 ? 0 : w >> (8 * (k + 1));
	}
	return (size_t)(((w ^ l) * 0x9e3779b97f4a7c15ull) >> (64 - TLD_SHIFT));
}

static inline int tld_has(const struct fqdn_trie *t, const char *q,
			  size_t len)
{
	size_t b = tld_bit(q, len);

	return (t->tld[b / 64] >> (b % 64)) & 1;
}

/* Note the last label of low[0..len) (lower case, final dot) in t. */
static void tld_note(struct fqdn_trie *t, const char *low, size_t len)
{
	const char *dot = len > 1 ? memrchr(low, '.', len - 1) : NULL;
	size_t start = dot ? (size_t)(dot - low) + 1 : 0, b;

	if (!TRIE_LE || memchr(low + start, '*', len - 1 - start) != NULL) {
		t->tld_any = 1;
		return;
	}
	b = tld_bit(low, len);
	t->tld[b / 64] |= 1ull << (b % 64);
}

/* The slot of key k in s, or the empty slot where it goes. */
static inline __attribute__((always_inline)) size_t
set_probe(const struct fqdn_trie *t, const struct trie_set *s,
			const char *k, size_t len, uint64_t h)
{
	uint64_t tag = h >> 32 << 32;

	for (size_t i = (size_t)(h >> 32) & s->mask;; i = (i + 1) & s->mask) {
		const struct trie_key *e;
		if (s->slot[i] == 0)
			return i;
		e = &s->e[(uint32_t)s->slot[i] - 1];
		if ((s->slot[i] & ~0xffffffffull) == tag && e->len == len &&
		    key_eq(t->arena + e->off, k, len))
			return i;
	}
}

/* Double s's slots (kept at most half full); 0, or -1 out of memory. */
static int set_rehash(const struct fqdn_trie *t, struct trie_set *s)
{
	size_t n = s->slot ? 2 * (s->mask + 1) : 64;
	uint64_t *slot = calloc(n, sizeof(*slot));

	if (slot == NULL)
		return -1;
	free(s->slot);
	s->slot = slot;
	s->mask = n - 1;
	for (size_t k = 0; k < s->n; k++) {
		uint64_t h = key_hash(t->arena + s->e[k].off, s->e[k].len);
		size_t i = (size_t)(h >> 32) & s->mask;
		while (s->slot[i] != 0)
			i = (i + 1) & s->mask;
		s->slot[i] = (h >> 32 << 32) | (k + 1);
	}
	return 0;
}

/* Key k -> value into s; the entry (a known key keeps its value), or -1. */
static long set_add(struct fqdn_trie *t, struct trie_set *s, const char *k,
		    size_t len, uint32_t value)
{
	uint64_t h = key_hash(k, len);
	size_t i;
	long off;

	if (s->slot == NULL && set_rehash(t, s) != 0)
		return -1;
	i = set_probe(t, s, k, len, h);
	if (s->slot[i] != 0)
		return (long)(uint32_t)s->slot[i] - 1;
	off = arena_put(t, k, len);
	if (off < 0 || grow((void **)&s->e, &s->cap, s->n + 1, sizeof(*s->e)))
		return -1;
	s->e[s->n] = (struct trie_key){(uint32_t)off, (uint32_t)len, value};
	s->slot[i] = (h >> 32 << 32) | ++s->n;
	if (2 * s->n > s->mask + 1 && set_rehash(t, s) != 0)
		return -1;
	return (long)s->n - 1;
}

/* 1 and *value when k is in s, else 0. */
static inline __attribute__((always_inline)) int
set_find(const struct fqdn_trie *t, const struct trie_set *s,
		    const char *k, size_t len, uint32_t *value)
{
	size_t i;

	if (s->n == 0)
		return 0;
	i = set_probe(t, s, k, len, key_hash(k, len));
	if (s->slot[i] == 0)
		return 0;
	*value = s->e[(uint32_t)s->slot[i] - 1].value;
	return 1;
}

static void set_release(struct trie_set *s)
{
	free(s->e);
	free(s->slot);
}

/* A new node; its id, or -1 out of memory. */
static long node_new(struct fqdn_trie *t)
{
	if (grow((void **)&t->node, &t->capnodes, t->nnodes + 1,
		 sizeof(*t->node)) != 0)
		return -1;
	t->node[t->nnodes] = (struct trie_node){0, 0, 0};
	return (long)t->nnodes++;
}

/*
 * The first min(len, 8) bytes of label l as a little-endian number.  One
 * unaligned load when l[0..8) lies before end, bytes one by one near it.
 */
static inline uint64_t label_key(const char *l, size_t len, const char *end)
{
	uint64_t w = 0;

#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	if (end - l >= 8) {
		memcpy(&w, l, 8);
		return len >= 8 ? w : w & ((1ull << (8 * len)) - 1);
	}
#endif
	for (size_t i = 0; i < len && i < 8; i++)
		w |= (uint64_t)(unsigned char)l[i] << (8 * i);
	return w;
}

/* Home slot of (parent, label key, length). */
static size_t edge_home(const struct fqdn_trie *t, uint32_t parent,
			uint64_t key, size_t len)
{
	uint64_t h = (key + ((uint64_t)parent << 8 | len)) *
		     0xff51afd7ed558ccdull;

	return (size_t)(h >> 32) & t->mask;
}

/* The slot of edge (parent, label), or the empty slot where it goes. */
static size_t edge_probe(const struct fqdn_trie *t, uint32_t parent,
			 const char *l, size_t len, uint64_t key)
{
	size_t i = edge_home(t, parent, key, len);

	for (;; i = (i + 1) & t->mask) {
		const struct trie_edge *e;
		if (t->slot[i] == 0)
			return i;
		e = &t->edge[t->slot[i] - 1];
		if (e->key == key && e->parent == parent && e->len == len &&
		    (len <= 8 ||
		     memcmp(t->arena + e->off + 8, l + 8, len - 8) == 0))
			return i;
	}
}

/* Double the edge slots (kept at most half full). */
static int edge_rehash(struct fqdn_trie *t)
{
	size_t n = t->slot ? 2 * (t->mask + 1) : 64;
	uint32_t *slot = calloc(n, sizeof(*slot));

	if (slot == NULL)
		return -1;
	free(t->slot);
	t->slot = slot;
	t->mask = n - 1;
	for (size_t k = 0; k < t->nedges; k++) {
		const struct trie_edge *e = &t->edge[k];
		size_t i = edge_home(t, e->parent, e->key, e->len);
		while (t->slot[i] != 0)
			i = (i + 1) & t->mask;
		t->slot[i] = (uint32_t)k + 1;
	}
	return 0;
}

/* The child of parent along plain label l, made when absent. */
static long exact_child(struct fqdn_trie *t, uint32_t parent, const char *l,
			size_t len)
{
	uint64_t key = label_key(l, len, l + len);
	size_t i = edge_probe(t, parent, l, len, key);
	long id, off;

	if (t->slot[i] != 0)
		return t->edge[t->slot[i] - 1].child;
	id = node_new(t);
	off = arena_put(t, l, len);
	if (id < 0 || off < 0 ||
	    grow((void **)&t->edge, &t->capedges, t->nedges + 1,
		 sizeof(*t->edge)) != 0)
		return -1;
	t->edge[t->nedges++] = (struct trie_edge){key, parent, (uint32_t)id,
						  (uint32_t)off, (uint32_t)len};
	t->node[parent].exact = 1;
	if (2 * t->nedges > t->mask + 1)
		return edge_rehash(t) != 0 ? -1 : id;
	t->slot[i] = (uint32_t)t->nedges;
	return id;
}

/* The child of parent along wildcard label l, made when absent. */
static long wild_child(struct fqdn_trie *t, uint32_t parent, const char *l,
		       size_t len)
{
	long id, off;

	for (uint32_t e = t->node[parent].wild; e != 0; e = t->wild[e - 1].next) {
		const struct trie_wild *w = &t->wild[e - 1];
		if (w->len == len && memcmp(t->arena + w->off, l, len) == 0)
			return w->child;
	}
	id = node_new(t);
	off = arena_put(t, l, len);
	if (id < 0 || off < 0 ||
	    grow((void **)&t->wild, &t->capwild, t->nwild + 1,
		 sizeof(*t->wild)) != 0)
		return -1;
	t->wild[t->nwild] = (struct trie_wild){t->node[parent].wild,
					       (uint32_t)id, (uint32_t)off,
					       (uint32_t)len};
	t->node[parent].wild = (uint32_t)++t->nwild;
	return id;
}

/* s lowercased into low, with a trailing dot.  Its length. */
static size_t lower_fqdn(const struct fqdn_selector *s, char *low)
{
	size_t n = s->len;

	for (size_t i = 0; i < n; i++)
		low[i] = (char)(s->text[i] >= 'A' && s->text[i] <= 'Z'
					? s->text[i] - 'A' + 'a'
					: s->text[i]);
	if (n == 0 || low[n - 1] != '.')
		low[n++] = '.';
	return n;
}

/* A pattern's labels into the trie, right to left; `end` flags its node. */
static int insert_pattern(struct fqdn_trie *t, const char *low, size_t len,
			  unsigned endflag)
{
	size_t end = len - 1; /* before the trailing dot */
	long node = 0;

	if (len == 0) { /* 1.19's "**." alone: from the root */
		t->node[0].terminal |= (uint16_t)endflag;
		return 0;
	}
	for (;;) {
		const char *dot = memrchr(low, '.', end);
		size_t start = dot ? (size_t)(dot - low) + 1 : 0;
		if (memchr(low + start, '*', end - start) != NULL)
			node = wild_child(t, (uint32_t)node, low + start,
					  end - start);
		else
			node = exact_child(t, (uint32_t)node, low + start,
					   end - start);
		if (node < 0)
			return -1;
		if (start == 0)
			break;
		end = start - 1;
	}
	t->node[node].terminal |= (uint16_t)endflag;
	return 0;
}

/* The group of heads of j labels, made when absent; NULL when full. */
static struct trie_group *group_of(struct fqdn_trie *t, size_t j)
{
	size_t i = 0;

	while (i < t->ngroups && t->group[i].j < j)
		i++;
	if (i < t->ngroups && t->group[i].j == j)
		return &t->group[i];
	if (t->ngroups == TRIE_GROUPS)
		return NULL;
	memmove(&t->group[i + 1], &t->group[i],
		(t->ngroups - i) * sizeof(t->group[0]));
	t->ngroups++;
	t->group[i] = (struct trie_group){.j = j};
	return &t->group[i];
}

/* 1 when h[0..n) (n > 0) has an empty label: a dot first, last or
 * after another (Cilium's code accepts such a pattern, its CRD does not). */
static int empty_label(const char *h, size_t n)
{
	return h[0] == '.' || h[n - 1] == '.' || memmem(h, n, "..", 2) != NULL;
}

/* The head of text h[0..n) (at arena offset off), its kind decided. */
static struct trie_head head_new(const char *h, size_t n, uint32_t off)
{
	struct trie_head hd = {0, off, (uint32_t)n, HEAD_GENERAL, 0};
	const char *star = memchr(h, '*', n);
	size_t stars = 0;

	size_t dots = 0;

	for (size_t i = 0; i < n; i++) {
		stars += h[i] == '*';
		dots += h[i] == '.';
	}
	if (stars + dots == n && !empty_label(h, n)) { /* every label is
							  stars */
		hd.kind = HEAD_STAR;
		return hd;
	}
	if (memchr(h, '.', n) != NULL || stars != 1)
		return hd;
	hd.kind = n == 1 ? HEAD_STAR : HEAD_ONE_STAR;
	hd.pre = (uint16_t)(star - h);
	return hd;
}

/*
 * Pattern low[0..len) (lower case, final dot) as head + suffix: 1 when
 * kept so, 0 when it needs the label trie (a group too many), -1 out of
 * memory.  A pattern without a star is an exact name.
 */
static int insert_head(struct fqdn_trie *t, const char *low, size_t len)
{
	const char *star = memrchr(low, '*', len);
	const char *cut;
	size_t j = 1, p;
	struct trie_group *g;
	long at, off;

	if (star == NULL)
		return set_add(t, &t->names, low, len, 0) < 0 ? -1 : 1;
	cut = memchr(star, '.', len - (size_t)(star - low)); /* ends the head */
	for (const char *c = low; c < cut; c++)
		j += *c == '.';
	p = (size_t)(cut - low) + 1;
	g = group_of(t, j);
	if (g == NULL)
		return t->ngroups == TRIE_GROUPS ? 0 : -1;
	off = arena_put(t, low, p - 1);
	at = set_add(t, &g->suf, low + p, len - p, (uint32_t)t->nheads + 1);
	if (off < 0 || at < 0 || grow((void **)&t->head, &t->capheads,
				      t->nheads + 1, sizeof(*t->head)) != 0)
		return -1;
	t->head[t->nheads] = head_new(low, p - 1, (uint32_t)off);
	if (g->suf.e[at].value != (uint32_t)t->nheads + 1) { /* a known suffix */
		t->head[t->nheads].next = g->suf.e[at].value;
		g->suf.e[at].value = (uint32_t)t->nheads + 1;
	}
	t->nheads++;
	return 1;
}

static int trie_insert(struct fqdn_trie *t, const struct fqdn_selector *s,
		       enum fqdn_cilium v)
{
	char *low;
	size_t len, skip = 0;
	int rc;

	if (v == FQDN_CILIUM_1_19 && fqdn_sel_dns_wildcard(s)) {
		t->match_all = 2;
		t->tld_any = 1;
		return 0;
	}
	if (s->kind == FQDN_MATCH_PATTERN && s->len == 1 && s->text[0] == '*') {
		t->match_all = t->match_all ? t->match_all : 1;
		t->tld_any = 1;
		return 0;
	}
	low = malloc(s->len + 2);
	if (low == NULL)
		return -1;
	len = lower_fqdn(s, low);
	tld_note(t, low, len);
	if (s->kind == FQDN_MATCH_NAME) {
		rc = set_add(t, &t->names, low, len, 0) < 0 ? -1 : 0;
		free(low);
		return rc;
	}
	if (v == FQDN_CILIUM_1_19)
		skip = fqdn_subdomain_prefix(low, len);
	rc = skip ? 0 : insert_head(t, low, len);
	if (rc == 0)
		rc = insert_pattern(t, low + skip, len - skip,
				    skip ? END_SUBDOMAINS : END_HERE);
	free(low);
	return rc < 0 ? -1 : 0;
}

struct fqdn_trie *fqdn_trie_build(const struct fqdn_policy *p)
{
	struct fqdn_trie *t = calloc(1, sizeof(*t));

	if (t == NULL)
		return NULL;
	/* ARENA_PAD bytes before and after every key: a word read around a
	   short key stays in the arena (head_match) */
	if (node_new(t) != 0 || edge_rehash(t) != 0 ||
	    arena_put(t, arena_pad, ARENA_PAD) < 0)
		goto fail;
	for (size_t i = 0; i < p->n; i++)
		if (trie_insert(t, &p->sel[i], p->cilium) != 0)
			goto fail;
	if (arena_put(t, arena_pad, ARENA_PAD) < 0)
		goto fail;
	return t;
fail:
	fqdn_trie_free(t);
	return NULL;
}

void fqdn_trie_free(struct fqdn_trie *t)
{
	if (t == NULL)
		return;
	set_release(&t->names);
	for (size_t i = 0; i < t->ngroups; i++)
		set_release(&t->group[i].suf);
	free(t->head);
	free(t->node);
	free(t->edge);
	free(t->slot);
	free(t->wild);
	free(t->arena);
	free(t);
}

/* What a byte of a query is: one load instead of five compares. */
enum { CH_CLASS = 1, CH_DOT = 2 };

#define CH_RANGE(a, b) [a ... b] = CH_CLASS
static const unsigned char ch_kind[256] = {
	CH_RANGE('a', 'z'), CH_RANGE('A', 'Z'), CH_RANGE('0', '9'),
	['-'] = CH_CLASS, ['_'] = CH_CLASS, ['.'] = CH_DOT,
};
#undef CH_RANGE

/* [-a-zA-Z0-9_]: a character a '*' matches. */
static inline int in_class(unsigned char c)
{
	return ch_kind[c] & CH_CLASS;
}

/*
 * Glob of one label, '*' = any run of class characters.  The label holds
 * class characters only (checked by the caller), so the classic
 * last-star backtracking is exact.
 */
static int label_glob(const char *pat, size_t plen, const char *s, size_t slen)
{
	size_t p = 0, i = 0, star = SIZE_MAX, mark = 0;
	const char *one = memchr(pat, '*', plen);

	/* one star (the usual "*", "*x", "x*", "x*y"): the text before it
	   is a prefix, the text after it a suffix, no backtracking */
	if (one != NULL && memchr(one + 1, '*', plen - (size_t)(one - pat) - 1)
				   == NULL) {
		size_t pre = (size_t)(one - pat), suf = plen - pre - 1;
		return slen >= pre + suf && memcmp(pat, s, pre) == 0 &&
		       memcmp(one + 1, s + slen - suf, suf) == 0;
	}

	while (i < slen) {
		if (p < plen && pat[p] == '*') {
			star = p++;
			mark = i;
		} else if (p < plen && pat[p] == s[i]) {
			p++;
			i++;
		} else if (star != SIZE_MAX) {
			p = star + 1;
			i = ++mark;
		} else {
			return 0;
		}
	}
	while (p < plen && pat[p] == '*')
		p++;
	return p == plen;
}

/* Every label non-empty and of class characters (or the root "."). */
static int valid_name(const char *q, size_t len)
{
	size_t label = 0;

	if (len == 1)
		return 1;
	for (size_t i = 0; i < len; i++) {
		if (q[i] == '.') {
			if (label == 0)
				return 0;
			label = 0;
		} else if (!in_class((unsigned char)q[i])) {
			return 0;
		} else {
			label++;
		}
	}
	return 1;
}

static int label_plain(const char *l, size_t len)
{
	for (size_t i = 0; i < len; i++)
		if (!in_class((unsigned char)l[i]))
			return 0;
	return 1;
}

static int trie_walk(const struct fqdn_trie *t, uint32_t node, const char *q,
		     size_t end, const char *lim);

/*
 * Having matched the label at start into child: done, or go on.  A "**."
 * pattern ending at child takes what is left, q[0..start - 1), when it is
 * one valid label or more.  lim: the end of the query (what may be read).
 */
static int trie_next(const struct fqdn_trie *t, uint32_t child, const char *q,
		     size_t start, const char *lim)
{
	if (start == 0)
		return (t->node[child].terminal & END_HERE) != 0;
	if ((t->node[child].terminal & END_SUBDOMAINS) && start > 1 &&
	    valid_name(q, start))
		return 1;
	return trie_walk(t, child, q, start - 1, lim);
}

/* Whether the labels of q[0..end) (one or more) lead from node to an end. */
static int trie_walk(const struct fqdn_trie *t, uint32_t node, const char *q,
		     size_t end, const char *lim)
{
	size_t start = end, len;

	while (start > 0 && q[start - 1] != '.')
		start--;
	len = end - start;
	if (t->node[node].exact) {
		size_t i = edge_probe(t, node, q + start, len,
				      label_key(q + start, len, lim));
		if (t->slot[i] != 0 &&
		    trie_next(t, t->edge[t->slot[i] - 1].child, q, start, lim))
			return 1;
	}
	if (t->node[node].wild == 0 || !label_plain(q + start, len))
		return 0;
	for (uint32_t e = t->node[node].wild; e != 0; e = t->wild[e - 1].next) {
		const struct trie_wild *w = &t->wild[e - 1];
		if (label_glob(t->arena + w->off, w->len, q + start, len) &&
		    trie_next(t, w->child, q, start, lim))
			return 1;
	}
	return 0;
}

/* The low n bytes of a word (n <= 8). */
static inline uint64_t keep_low(size_t n)
{
	return n == 0 ? 0 : ~0ull >> (64 - 8 * n);
}

/*
 * A HEAD_ONE_STAR head p[0..m) (star at p[pre]) against a plain query
 * head q[0..n) of one label, q[0..len) readable: the text before the
 * star is a prefix, the text after it a suffix.  Each compare is one
 * masked word when it is shorter than eight bytes (the arena pads every
 * key by ARENA_PAD bytes each side), else key_eq()'s words.
 */
static int one_star_match(const char *p, size_t m, size_t pre, const char *q,
			  size_t n, size_t len)
{
	size_t suf = m - pre - 1;
	const char *ps = p + pre + 1, *qs = q + n - suf;

	if (n < pre + suf)
		return 0;
	if (TRIE_LE && pre <= 8 && len >= 8
		    ? ((load8(p) ^ load8(q)) & keep_low(pre)) != 0
		    : !key_eq(p, q, pre))
		return 0;
	if (!TRIE_LE || suf >= 8 || len < 8)
		return key_eq(ps, qs, suf);
	if ((size_t)(qs - q) + 8 <= len) /* the word from its start */
		return ((load8(ps) ^ load8(qs)) & keep_low(suf)) == 0;
	return n < 8 ? key_eq(ps, qs, suf) /* the word that ends with it */
		     : suf == 0 || ((load8(p + m - 8) ^ load8(q + n - 8)) >>
				    (64 - 8 * suf)) == 0;
}

/*
 * Head h against the query's head q[0..n), which has as many labels (the
 * group says so), label by label: a pattern label with '*' globs a label
 * of class characters, any other is compared.  plain: q[0..n) is class
 * characters and dots only (the caller checked once for all heads).
 */
static int head_match(const struct fqdn_trie *t, const struct trie_head *h,
		      const char *q, size_t n, size_t len, int plain)
{
	const char *p = t->arena + h->off;
	size_t m = h->len, k = 0, i = 0;

	if (h->kind == HEAD_STAR)
		return plain;
	if (h->kind == HEAD_ONE_STAR)
		return plain && one_star_match(p, m, h->pre, q, n, len);
	for (;;) {
		size_t pe = k, qe = i;
		int star = 0;
		while (pe < m && p[pe] != '.')
			star |= p[pe++] == '*';
		while (qe < n && q[qe] != '.')
			qe++;
		if (star ? !label_plain(q + i, qe - i) ||
				   !label_glob(p + k, pe - k, q + i, qe - i)
			 : pe - k != qe - i || memcmp(p + k, q + i, qe - i) != 0)
			return 0;
		if (pe == m || qe == n)
			return pe == m && qe == n;
		k = pe + 1;
		i = qe + 1;
	}
}

/*
 * The first dot of q[i..len) (q ends with one): eight bytes at a time, a
 * byte equal to '.' found as a zero byte of w ^ "........" (the lowest
 * flagged byte of (w - 0x01..) & ~w & 0x80.. is the first zero: borrows
 * only flag bytes above it).
 */
static inline size_t next_dot(const char *q, size_t i, size_t len)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	const uint64_t ones = 0x0101010101010101ull;

	for (; i + 8 <= len; i += 8) {
		uint64_t w, z;
		memcpy(&w, q + i, 8);
		w ^= ones * '.';
		z = (w - ones) & ~w & (ones << 7);
		if (z != 0)
			return i + (size_t)(__builtin_ctzll(z) >> 3);
	}
#else
	(void)len;
#endif
	while (q[i] != '.')
		i++;
	return i;
}

#ifdef __SSE2__
/* Bit i set when byte i of v is a class character or a dot (lower case:
 * the query is lowered); bytes of 0x80 and above compare negative. */
static inline unsigned plain16(__m128i v)
{
	__m128i az = _mm_and_si128(_mm_cmpgt_epi8(v, _mm_set1_epi8('a' - 1)),
				   _mm_cmplt_epi8(v, _mm_set1_epi8('z' + 1)));
	__m128i dig = _mm_and_si128(_mm_cmpgt_epi8(v, _mm_set1_epi8('-' - 1)),
				    _mm_cmplt_epi8(v, _mm_set1_epi8('9' + 1)));
	__m128i ok = _mm_or_si128(
		_mm_or_si128(az, _mm_cmpeq_epi8(v, _mm_set1_epi8('_'))),
		_mm_andnot_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8('/')), dig));

	return (unsigned)_mm_movemask_epi8(ok);
}

static inline __m128i load16(const char *p)
{
	return _mm_loadu_si128((const __m128i *)(const void *)p);
}
#endif

/*
 * q[0..n) is class characters and dots only; q[0..len) may be read
 * (n < len).  Sixteen bytes at a time (SSE2: '-' to '9' but '/', 'a' to
 * 'z', '_'), the last sixteen again; a head shorter than sixteen read as
 * the query's first sixteen, the bits past it ignored.
 */
static int head_plain(const char *q, size_t n, size_t len)
{
	const unsigned char *u = (const unsigned char *)q;
	unsigned all = CH_CLASS | CH_DOT;
	size_t i = 0;

#ifdef __SSE2__
	if (len >= 16) {
		if (n < 16) {
			unsigned keep = (1u << n) - 1;
			return (plain16(load16(q)) & keep) == keep;
		}
		for (; i + 16 < n; i += 16)
			if (plain16(load16(q + i)) != 0xffff)
				return 0;
		return plain16(load16(q + n - 16)) == 0xffff;
	}
#endif
	for (; i < n; i++)
		all &= ch_kind[u[i]] ? CH_CLASS | CH_DOT : 0;
	return all != 0;
}

/*
 * Whether a head of some group matches q (lower case, final dot): per
 * group, the suffix after the query's j-th dot (dots found eight bytes at
 * a time) is looked up, and only when it is there is the head read: once
 * for whether it is plain, then per head found.
 */
static int heads_match(const struct fqdn_trie *t, const char *q, size_t len)
{
	size_t dots = 0, i = 0;
	int plain = -1;

	for (size_t g = 0; g < t->ngroups; g++) {
		const struct trie_group *gr = &t->group[g];
		uint32_t v;
		for (; dots < gr->j; dots++) {
			if (i == len)
				return 0; /* too few labels for this group and
					     the next */
			i = next_dot(q, i, len) + 1;
		}
		if (!set_find(t, &gr->suf, q + i, len - i, &v))
			continue;
		plain = head_plain(q, i - 1, len); /* this group's head */
		for (; v != 0; v = t->head[v - 1].next)
			if (head_match(t, &t->head[v - 1], q, i - 1, len, plain))
				return 1;
	}
	return 0;
}

int fqdn_trie_match(const struct fqdn_trie *t, const char *q, size_t len)
{
	uint32_t v;

	if (len == 0 || q[len - 1] != '.')
		return 0;
	if (set_find(t, &t->names, q, len, &v))
		return 1;
	if (!t->tld_any && !tld_has(t, q, len))
		return 0; /* no selector ends in this label */
	if (t->match_all == 2 || (t->match_all && valid_name(q, len)))
		return 1;
	if ((t->node[0].terminal & END_SUBDOMAINS) && len > 1 &&
	    valid_name(q, len))
		return 1; /* 1.19's "**." alone */
	if (t->ngroups > 0 && heads_match(t, q, len))
		return 1;
	if (t->nedges + t->nwild == 0)
		return 0;
	/* "." is one empty label: the pattern "*." allows it, as Cilium's
	   ^[-a-zA-Z0-9_]*[.]$ does */
	return trie_walk(t, 0, q, len - 1, q + len);
}

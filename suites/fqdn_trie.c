/*
 * fqdn_trie.c - the matcher of the `trie` strategy (see fqdn_trie.h).
 *
 * Two parts, each one pass over the query at most:
 *   - every matchName, lowercased and fully qualified, in a hash set:
 *     one lookup of the whole name;
 *   - every matchPattern in a label trie, top-level domain first.  Plain
 *     labels are edges in one open-addressing table keyed by (parent
 *     node, label); labels with '*' are a per-node list tried with a glob.
 * A query's labels are found right to left by a byte loop (labels are
 * short: a call to memrchr cost more); an edge is keyed by its parent
 * and the label's first eight bytes read as one number (one load where
 * eight bytes are there to read) and its length, mixed by one multiply:
 * a level costs one probe and, for labels longer than eight bytes, one
 * memcmp of the rest.
 */
#define _GNU_SOURCE
#include "suites/fqdn_trie.h"

#include "suites/strset.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

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

struct fqdn_trie {
	struct strset names; /* the matchNames, as rewritten queries */
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

/* 1 when s is a pattern of stars only. */
static int all_stars(const struct fqdn_selector *s)
{
	return s->kind == FQDN_MATCH_PATTERN && s->len > 0 &&
	       strspn(s->text, "*") == s->len;
}

static int trie_insert(struct fqdn_trie *t, const struct fqdn_selector *s,
		       enum fqdn_cilium v)
{
	char low[FQDN_NAME_MAX + 2];
	size_t len, skip = 0;

	if (v == FQDN_CILIUM_1_19 && all_stars(s)) {
		t->match_all = 2;
		return 0;
	}
	if (s->kind == FQDN_MATCH_PATTERN && s->len == 1 && s->text[0] == '*') {
		t->match_all = t->match_all ? t->match_all : 1;
		return 0;
	}
	if (s->len > FQDN_NAME_MAX)
		return -1;
	len = lower_fqdn(s, low);
	if (s->kind == FQDN_MATCH_NAME)
		return strset_add(&t->names, low, len, 0) < 0 ? -1 : 0;
	if (v == FQDN_CILIUM_1_19 && len >= 3 && memcmp(low, "**.", 3) == 0)
		skip = 3;
	return insert_pattern(t, low + skip, len - skip,
			      skip ? END_SUBDOMAINS : END_HERE);
}

struct fqdn_trie *fqdn_trie_build(const struct fqdn_policy *p)
{
	struct fqdn_trie *t = calloc(1, sizeof(*t));

	if (t == NULL)
		return NULL;
	if (strset_init(&t->names, p->nnames) != 0 || node_new(t) != 0 ||
	    edge_rehash(t) != 0)
		goto fail;
	for (size_t i = 0; i < p->n; i++)
		if (trie_insert(t, &p->sel[i], p->cilium) != 0)
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
	strset_release(&t->names);
	free(t->node);
	free(t->edge);
	free(t->slot);
	free(t->wild);
	free(t->arena);
	free(t);
}

static int in_class(unsigned char c)
{
	return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' ||
	       c == '_' || (c >= 'A' && c <= 'Z');
}

/*
 * Glob of one label, '*' = any run of class characters.  The label holds
 * class characters only (checked by the caller), so the classic
 * last-star backtracking is exact.
 */
static int label_glob(const char *pat, size_t plen, const char *s, size_t slen)
{
	size_t p = 0, i = 0, star = SIZE_MAX, mark = 0;

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

int fqdn_trie_match(const struct fqdn_trie *t, const char *q, size_t len)
{
	if (len == 0 || q[len - 1] != '.')
		return 0;
	if (t->names.n > 0 && strset_find(&t->names, q, len, NULL))
		return 1;
	if (t->match_all == 2 || (t->match_all && valid_name(q, len)))
		return 1;
	if ((t->node[0].terminal & END_SUBDOMAINS) && len > 1 &&
	    valid_name(q, len))
		return 1; /* 1.19's "**." alone */
	if (t->nedges + t->nwild == 0)
		return 0;
	/* "." is one empty label: the pattern "*." allows it, as Cilium's
	   ^[-a-zA-Z0-9_]*[.]$ does */
	return trie_walk(t, 0, q, len - 1, q + len);
}

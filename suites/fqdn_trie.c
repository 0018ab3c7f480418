/*
 * fqdn_trie.c - the label trie of the `trie` strategy (see fqdn_trie.h).
 */
#include "suites/fqdn_trie.h"

#include "suites/strset.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

struct trie_node {
	uint32_t wild;     /* first wildcard edge + 1, 0: none */
	uint32_t terminal; /* a selector ends here */
};

struct trie_wild {
	uint32_t next;  /* next edge of the same parent + 1, 0: last */
	uint32_t child;
	uint32_t off;   /* the label pattern in the arena */
	uint32_t len;
};

struct fqdn_trie {
	struct trie_node *node;
	size_t nnodes, capnodes;
	struct trie_wild *wild;
	size_t nwild, capwild;
	char *arena;
	size_t used, size;
	struct strset edges; /* (parent id, label) -> child id */
	int match_all;
};

/* Edge keys: the parent id's 4 bytes, then the label. */
#define EDGE_KEY_MAX (4 + FQDN_NAME_MAX + 1)

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

/* A new node; its id, or -1 out of memory. */
static long trie_node_new(struct fqdn_trie *t)
{
	if (grow((void **)&t->node, &t->capnodes, t->nnodes + 1,
		 sizeof(*t->node)) != 0)
		return -1;
	t->node[t->nnodes] = (struct trie_node){0, 0};
	return (long)t->nnodes++;
}

static size_t edge_key(char *key, uint32_t parent, const char *label,
		       size_t len)
{
	memcpy(key, &parent, 4);
	memcpy(key + 4, label, len);
	return 4 + len;
}

/* The child of parent along plain label l, made when absent. */
static long trie_exact_child(struct fqdn_trie *t, uint32_t parent,
			     const char *l, size_t len)
{
	char key[EDGE_KEY_MAX];
	size_t klen = edge_key(key, parent, l, len);
	uint32_t child;
	long id;

	if (strset_find(&t->edges, key, klen, &child))
		return child;
	id = trie_node_new(t);
	if (id < 0 || strset_add(&t->edges, key, klen, (uint32_t)id) < 0)
		return -1;
	return id;
}

/* The child of parent along wildcard label l, made when absent. */
static long trie_wild_child(struct fqdn_trie *t, uint32_t parent,
			    const char *l, size_t len)
{
	struct trie_wild *w;
	long id;

	for (uint32_t e = t->node[parent].wild; e != 0; e = t->wild[e - 1].next) {
		w = &t->wild[e - 1];
		if (w->len == len && memcmp(t->arena + w->off, l, len) == 0)
			return w->child;
	}
	id = trie_node_new(t);
	if (id < 0 ||
	    grow((void **)&t->wild, &t->capwild, t->nwild + 1, sizeof(*w)) ||
	    grow((void **)&t->arena, &t->size, t->used + len, 1))
		return -1;
	memcpy(t->arena + t->used, l, len);
	t->wild[t->nwild] = (struct trie_wild){t->node[parent].wild,
					       (uint32_t)id,
					       (uint32_t)t->used,
					       (uint32_t)len};
	t->used += len;
	t->node[parent].wild = (uint32_t)++t->nwild;
	return id;
}

/* Insert one selector, lowercased, labels from the right. */
static int trie_insert(struct fqdn_trie *t, const struct fqdn_selector *s)
{
	char low[FQDN_NAME_MAX + 1];
	size_t len = s->len, end;
	long node = 0;

	if (s->kind == FQDN_MATCH_PATTERN && len == 1 && s->text[0] == '*') {
		t->match_all = 1;
		return 0;
	}
	if (len > FQDN_NAME_MAX)
		return -1;
	for (size_t i = 0; i < len; i++)
		low[i] = (char)(s->text[i] >= 'A' && s->text[i] <= 'Z'
					? s->text[i] - 'A' + 'a'
					: s->text[i]);
	end = len > 0 && low[len - 1] == '.' ? len - 1 : len;
	while (node >= 0) {
		size_t start = end;
		while (start > 0 && low[start - 1] != '.')
			start--;
		if (memchr(low + start, '*', end - start) != NULL)
			node = trie_wild_child(t, (uint32_t)node, low + start,
					       end - start);
		else
			node = trie_exact_child(t, (uint32_t)node, low + start,
						end - start);
		if (start == 0)
			break;
		end = start - 1;
	}
	if (node < 0)
		return -1;
	t->node[node].terminal = 1;
	return 0;
}

struct fqdn_trie *fqdn_trie_build(const struct fqdn_policy *p)
{
	struct fqdn_trie *t = calloc(1, sizeof(*t));

	if (t == NULL)
		return NULL;
	if (strset_init(&t->edges, p->n) != 0 || trie_node_new(t) != 0)
		goto fail;
	for (size_t i = 0; i < p->n; i++)
		if (trie_insert(t, &p->sel[i]) != 0)
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
	strset_release(&t->edges);
	free(t->node);
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

/* Whether q[0..end) (one or more labels) leads from node to an end. */
static int trie_walk(const struct fqdn_trie *t, uint32_t node, const char *q,
		     size_t end)
{
	char key[EDGE_KEY_MAX];
	size_t start = end, llen;
	uint32_t child;

	while (start > 0 && q[start - 1] != '.')
		start--;
	llen = end - start;
	if (llen <= FQDN_NAME_MAX &&
	    strset_find(&t->edges, key, edge_key(key, node, q + start, llen),
			&child) &&
	    (start == 0 ? t->node[child].terminal != 0
			: trie_walk(t, child, q, start - 1)))
		return 1;
	if (t->node[node].wild == 0 || !label_plain(q + start, llen))
		return 0;
	for (uint32_t e = t->node[node].wild; e != 0; e = t->wild[e - 1].next) {
		const struct trie_wild *w = &t->wild[e - 1];
		if (!label_glob(t->arena + w->off, w->len, q + start, llen))
			continue;
		if (start == 0 ? t->node[w->child].terminal != 0
			       : trie_walk(t, w->child, q, start - 1))
			return 1;
	}
	return 0;
}

int fqdn_trie_match(const struct fqdn_trie *t, const char *q, size_t len)
{
	if (len == 0 || q[len - 1] != '.')
		return 0;
	if (t->match_all && valid_name(q, len))
		return 1;
	if (len == 1)
		return 0; /* the root: no labels */
	return trie_walk(t, 0, q, len - 1);
}

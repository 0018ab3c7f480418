/*
 * strset.h - a hash map from byte strings to a 32-bit value: the name
 * set of the FQDN strategies (Go's map[string]string in the seed) and
 * the edge table of the FQDN trie.
 *
 * Open addressing with linear probing over 8-byte slots (entry index and
 * 32 bits of the hash, so most misses never touch a key), load at most
 * one half.  Keys are copied into one arena; entries stay in insertion
 * order.  Lookups never allocate.
 */
#ifndef RXB_STRSET_H
#define RXB_STRSET_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

struct strset_slot {
	uint32_t idx;  /* entry index + 1; 0 = empty */
	uint32_t hash; /* low 32 bits of the key's hash */
};

struct strset_entry {
	uint32_t off; /* key offset in the arena */
	uint32_t len;
	uint32_t value;
};

struct strset {
	struct strset_slot *slot;
	size_t mask; /* slots - 1; slots is a power of two */
	struct strset_entry *e;
	size_t n, cap;
	char *arena;
	size_t used, size;
};

/*
 * The hash the set uses, exposed for tables that hash parts of keys:
 * eight bytes at a time, multiplied and folded, finished with
 * splitmix64's mixer.  Fast on the 3-60 byte keys of DNS names (inline:
 * the FQDN matchers hash every label) and good enough for linear
 * probing; not keyed, so not for hostile input.
 */
static inline uint64_t strset_hash(const void *key, size_t len)
{
	const unsigned char *p = key, *end = p + len;
	uint64_t h = 0x9e3779b97f4a7c15ull ^ len, w = 0;

	for (; end - p >= 8; p += 8) {
		memcpy(&w, p, 8);
		h = (h ^ w) * 0xff51afd7ed558ccdull;
		h ^= h >> 32;
	}
	/* the last 0-7 bytes: the key's last eight read again when it has
	   eight (one load, not a call to memcpy of a variable size) */
	if (p < end && len >= 8)
		memcpy(&w, end - 8, 8);
	else
		for (w = 0; p < end; p++)
			w = w << 8 | *p;
	h = (h ^ w) * 0xc4ceb9fe1a85ec53ull;
	h ^= h >> 29;
	h *= 0xbf58476d1ce4e5b9ull;
	return h ^ (h >> 32);
}

/* An empty set sized for about `hint` keys.  0, or -1 out of memory. */
int strset_init(struct strset *s, size_t hint);
void strset_release(struct strset *s);

/*
 * Add key -> value.  A key already present keeps its first value.
 * Returns the entry index (>= 0), or -1 out of memory or a key of 4 GiB.
 */
long strset_add(struct strset *s, const void *key, size_t len,
		uint32_t value);

/* 1 and *value (when not NULL) if key is present, else 0. */
int strset_find(const struct strset *s, const void *key, size_t len,
		uint32_t *value);

/* Entry i's key (not NUL-terminated) and its length. */
const char *strset_key(const struct strset *s, size_t i, size_t *len);

#endif

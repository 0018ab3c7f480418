/*
 * strset.c - the string hash map (see strset.h).
 */
#include "suites/strset.h"

#include <stdlib.h>
#include <string.h>

int strset_init(struct strset *s, size_t hint)
{
	size_t slots = 16;

	memset(s, 0, sizeof(*s));
	while (slots < 2 * hint)
		slots *= 2;
	s->slot = calloc(slots, sizeof(*s->slot));
	if (s->slot == NULL)
		return -1;
	s->mask = slots - 1;
	return 0;
}

void strset_release(struct strset *s)
{
	free(s->slot);
	free(s->e);
	free(s->arena);
	memset(s, 0, sizeof(*s));
}

/* The slot holding key, or the empty slot where it would go. */
static size_t strset_probe(const struct strset *s, const void *key, size_t len,
			   uint64_t h)
{
	size_t i = (size_t)(h >> 32) & s->mask;

	for (;; i = (i + 1) & s->mask) {
		const struct strset_slot *sl = &s->slot[i];
		const struct strset_entry *e;
		if (sl->idx == 0)
			return i;
		if (sl->hash != (uint32_t)h)
			continue;
		e = &s->e[sl->idx - 1];
		if (e->len == len && memcmp(s->arena + e->off, key, len) == 0)
			return i;
	}
}

/* Double the slots and re-place every entry. */
static int strset_grow(struct strset *s)
{
	size_t slots = 2 * (s->mask + 1);
	struct strset_slot *old = s->slot, *sl;
	size_t oldn = s->mask + 1;

	sl = calloc(slots, sizeof(*sl));
	if (sl == NULL)
		return -1;
	s->slot = sl;
	s->mask = slots - 1;
	for (size_t i = 0; i < oldn; i++) {
		const struct strset_entry *e;
		size_t j;
		if (old[i].idx == 0)
			continue;
		e = &s->e[old[i].idx - 1];
		j = (size_t)(strset_hash(s->arena + e->off, e->len) >> 32) &
		    s->mask;
		while (sl[j].idx != 0)
			j = (j + 1) & s->mask;
		sl[j] = old[i];
	}
	free(old);
	return 0;
}

/* Room for one more entry and len more arena bytes. */
static int strset_reserve(struct strset *s, size_t len)
{
	if (s->n == s->cap) {
		size_t cap = s->cap ? 2 * s->cap : 16;
		struct strset_entry *e = realloc(s->e, cap * sizeof(*e));
		if (e == NULL)
			return -1;
		s->e = e;
		s->cap = cap;
	}
	if (s->used + len > s->size) {
		size_t size = s->size ? 2 * s->size : 256;
		char *a;
		while (size < s->used + len)
			size *= 2;
		a = realloc(s->arena, size);
		if (a == NULL)
			return -1;
		s->arena = a;
		s->size = size;
	}
	return 0;
}

long strset_add(struct strset *s, const void *key, size_t len, uint32_t value)
{
	uint64_t h = strset_hash(key, len);
	size_t i;

	if (len > UINT32_MAX || s->used + len > UINT32_MAX)
		return -1;
	i = strset_probe(s, key, len, h);
	if (s->slot[i].idx != 0)
		return (long)s->slot[i].idx - 1;
	if (2 * (s->n + 1) > s->mask + 1) {
		if (strset_grow(s) != 0)
			return -1;
		i = strset_probe(s, key, len, h);
	}
	if (strset_reserve(s, len) != 0)
		return -1;
	memcpy(s->arena + s->used, key, len);
	s->e[s->n] = (struct strset_entry){(uint32_t)s->used, (uint32_t)len,
					   value};
	s->used += len;
	s->slot[i] = (struct strset_slot){(uint32_t)(s->n + 1), (uint32_t)h};
	return (long)s->n++;
}

int strset_find(const struct strset *s, const void *key, size_t len,
		uint32_t *value)
{
	size_t i;

	if (s->slot == NULL)
		return 0;
	i = strset_probe(s, key, len, strset_hash(key, len));
	if (s->slot[i].idx == 0)
		return 0;
	if (value != NULL)
		*value = s->e[s->slot[i].idx - 1].value;
	return 1;
}

const char *strset_key(const struct strset *s, size_t i, size_t *len)
{
	*len = s->e[i].len;
	return s->arena + s->e[i].off;
}

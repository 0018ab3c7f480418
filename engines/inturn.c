/*
 * inturn.c - sets as patterns tried in turn (see inturn.h).
 */
#include "engines/inturn.h"

#include <stdlib.h>

/* The set's per-pattern array, n zeroed elements; 0 or -1. */
static int inturn_slots(const struct inturn_build *b, void *s, size_t n)
{
	void **slots = (void **)((char *)s + b->slots_at);

	*slots = calloc(n, b->slot_size);
	return *slots != NULL ? 0 : -1;
}

int inturn_compile(const struct inturn_build *b,
		   const struct engine_pattern *pats, size_t n, unsigned flags,
		   void **out, struct engine_error *err)
{
	struct inturn *t;
	void *s;
	int rc = 0;

	*out = NULL;
	if (n == 0) {
		engine_error_set(err, ENGINE_ERR_COMPILE, -1, -1, "empty set");
		return ENGINE_ERR_COMPILE;
	}
	s = calloc(1, b->set_size);
	if (s == NULL || inturn_slots(b, s, n) != 0) {
		engine_error_set(err, ENGINE_ERR_NOMEM, -1, -1, "out of memory");
		b->free(s);
		return ENGINE_ERR_NOMEM;
	}
	t = s;
	*t = (struct inturn){n, (flags & ENGINE_ANCHORED) != 0,
			     b->utf8 && (flags & ENGINE_UTF8) != 0, b->try_one};
	if (b->begin != NULL)
		rc = b->begin(s, flags, err);
	for (size_t i = 0; i < n && rc == 0; i++)
		rc = b->compile_one(s, i, &pats[i], flags, err);
	if (rc == 0 && b->finish != NULL)
		rc = b->finish(s, err);
	if (rc != 0) {
		b->free(s);
		return rc;
	}
	*out = s;
	return 0;
}

int inturn_is_match(const struct inturn *t, void *h, const char *data,
		    size_t len)
{
	for (size_t i = 0; i < t->n; i++) {
		int rc = t->try_one(h, i, data, len, 0, NULL);
		if (rc != 0)
			return rc;
	}
	return 0;
}

/* Where to resume after m: its end, or one byte/character past it if empty. */
static size_t inturn_resume(const struct inturn *t, const char *data,
			    size_t len, const struct inturn_span *m)
{
	size_t at = m->eo;

	if (m->eo > m->so)
		return at;
	at++;
	while (t->utf8 && at < len && ((unsigned char)data[at] & 0xc0) == 0x80)
		at++;
	return at;
}

static long inturn_count_one(const struct inturn *t, void *h, size_t i,
			     const char *data, size_t len)
{
	struct inturn_span m;
	long count = 0;
	size_t start = 0;

	while (start <= len) {
		int rc = t->try_one(h, i, data, len, start, &m);
		if (rc <= 0)
			return rc < 0 ? rc : count;
		count++;
		if (t->anchored)
			break;
		start = inturn_resume(t, data, len, &m);
	}
	return count;
}

long inturn_count(const struct inturn *t, void *h, const char *data,
		  size_t len)
{
	long total = 0;

	for (size_t i = 0; i < t->n; i++) {
		long c = inturn_count_one(t, h, i, data, len);
		if (c < 0)
			return c;
		total += c;
	}
	return total;
}

long inturn_match_ids(const struct inturn *t, void *h, const char *data,
		      size_t len, unsigned char *ids)
{
	long matched = 0;

	for (size_t i = 0; i < t->n; i++) {
		int rc = t->try_one(h, i, data, len, 0, NULL);
		if (rc < 0)
			return rc;
		ids[i] = (unsigned char)rc;
		matched += rc;
	}
	return matched;
}

int inturn_op_is_match(void *h, const char *data, size_t len)
{
	return inturn_is_match(h, h, data, len);
}

long inturn_op_count(void *h, const char *data, size_t len)
{
	return inturn_count(h, h, data, len);
}

long inturn_op_match_ids(void *h, const char *data, size_t len,
			 unsigned char *ids)
{
	return inturn_match_ids(h, h, data, len, ids);
}

/*
 * results.c - the results model (see results.h).
 */
#include "harness/results.h"

#include "engines/status.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void results_init(struct results *res)
{
	memset(res, 0, sizeof(*res));
}

void result_reset(struct result *r)
{
	for (size_t i = 0; i < r->nm; i++) {
		free(r->m[i].unit);
		free(r->m[i].v);
	}
	free(r->m);
	free(r->iters);
	free(r->message);
	free(r->verified);
	r->m = NULL;
	r->iters = NULL;
	r->message = r->verified = NULL;
	r->nm = r->nsamples = 0;
	r->status = RESULT_OK;
	r->unverified = 0;
	result_inputs_release(&r->in);
}

int result_inputs_add(struct result_inputs *in, const char *key,
		      const void *value, size_t len)
{
	char *v = malloc(len + 1), *k = NULL;
	struct result_input *grown = NULL;

	if (v == NULL)
		return -1;
	memcpy(v, value, len);
	v[len] = '\0';
	for (size_t i = 0; i < in->n; i++) {
		if (strcmp(in->v[i].key, key) == 0) {
			free(in->v[i].value);
			in->v[i].value = v;
			in->v[i].len = len;
			return 0;
		}
	}
	k = strdup(key);
	if (k != NULL)
		grown = realloc(in->v, (in->n + 1) * sizeof(*grown));
	if (grown == NULL) {
		free(k);
		free(v);
		return -1;
	}
	in->v = grown;
	in->v[in->n++] = (struct result_input){k, v, len};
	return 0;
}

int result_inputs_merge(struct result_inputs *dst,
			const struct result_inputs *src)
{
	for (size_t i = 0; i < src->n; i++)
		if (result_inputs_add(dst, src->v[i].key, src->v[i].value,
				      src->v[i].len) != 0)
			return -1;
	return 0;
}

const struct result_input *result_inputs_get(const struct result_inputs *in,
					     const char *key)
{
	for (size_t i = 0; i < in->n; i++)
		if (strcmp(in->v[i].key, key) == 0)
			return &in->v[i];
	return NULL;
}

void result_inputs_release(struct result_inputs *in)
{
	for (size_t i = 0; i < in->n; i++) {
		free(in->v[i].key);
		free(in->v[i].value);
	}
	free(in->v);
	in->v = NULL;
	in->n = 0;
}

/* result_inputs_addf with a va_list. */
static int inputs_vaddf(struct result_inputs *in, const char *key,
			const char *fmt, va_list ap)
{
	char buf[512];
	int n = vsnprintf(buf, sizeof(buf), fmt, ap);

	if (n < 0)
		return -1;
	return result_inputs_add(in, key, buf,
				 (size_t)n < sizeof(buf) ? (size_t)n
							 : sizeof(buf) - 1);
}

int result_inputs_addf(struct result_inputs *in, const char *key,
		       const char *fmt, ...)
{
	va_list ap;
	int rc;

	va_start(ap, fmt);
	rc = inputs_vaddf(in, key, fmt, ap);
	va_end(ap);
	return rc;
}

int result_input_addf(struct result *r, const char *key, const char *fmt, ...)
{
	va_list ap;
	int rc;

	va_start(ap, fmt);
	rc = inputs_vaddf(&r->in, key, fmt, ap);
	va_end(ap);
	return rc;
}

void result_release(struct result *r)
{
	result_reset(r);
	free(r->name);
	free(r->suite);
}

void results_release(struct results *res)
{
	for (size_t i = 0; i < res->ncfg; i++) {
		free(res->cfg[i].key);
		free(res->cfg[i].value);
	}
	for (size_t i = 0; i < res->n; i++)
		result_release(&res->r[i]);
	for (size_t i = 0; i < res->nlayout; i++) {
		free(res->layout[i].suite);
		free(res->layout[i].line);
	}
	free(res->layout);
	for (size_t i = 0; i < res->argc; i++)
		free(res->argv[i]);
	free(res->argv);
	free(res->cfg);
	free(res->r);
	free(res->slot);
	results_init(res);
}

int results_layout_add(struct results *res, const char *suite,
		       const char *line)
{
	struct layout_line *grown = realloc(res->layout, (res->nlayout + 1) *
							     sizeof(*grown));
	char *s = strdup(suite), *l = strdup(line);

	if (grown != NULL)
		res->layout = grown;
	if (grown == NULL || s == NULL || l == NULL) {
		free(s);
		free(l);
		return -1;
	}
	res->layout[res->nlayout++] = (struct layout_line){s, l};
	return 0;
}

int results_layout_has(const struct results *res, const char *suite)
{
	for (size_t i = 0; i < res->nlayout; i++)
		if (strcmp(res->layout[i].suite, suite) == 0)
			return 1;
	return 0;
}

static int config_set(struct results *res, const char *key,
		      const char *value, int meta)
{
	char *v = strdup(value);
	struct config_pair *grown;

	if (v == NULL)
		return -1;
	for (size_t i = 0; i < res->ncfg; i++) {
		if (strcmp(res->cfg[i].key, key) == 0) {
			free(res->cfg[i].value);
			res->cfg[i].value = v;
			res->cfg[i].meta = meta;
			return 0;
		}
	}
	grown = realloc(res->cfg, (res->ncfg + 1) * sizeof(*grown));
	if (grown == NULL)
		goto fail;
	res->cfg = grown;
	res->cfg[res->ncfg].key = strdup(key);
	if (res->cfg[res->ncfg].key == NULL)
		goto fail;
	res->cfg[res->ncfg].meta = meta;
	res->cfg[res->ncfg++].value = v;
	return 0;
fail:
	free(v);
	return -1;
}

int results_config_set(struct results *res, const char *key,
		       const char *value)
{
	return config_set(res, key, value, 0);
}

int results_set_argv(struct results *res, int argc, char *const *argv)
{
	char **v = calloc((size_t)argc + 1, sizeof(*v));

	if (v == NULL)
		return -1;
	for (int i = 0; i < argc; i++) {
		v[i] = strdup(argv[i]);
		if (v[i] == NULL) {
			while (i > 0)
				free(v[--i]);
			free(v);
			return -1;
		}
	}
	for (size_t i = 0; i < res->argc; i++)
		free(res->argv[i]);
	free(res->argv);
	res->argv = v;
	res->argc = (size_t)argc;
	return 0;
}

int results_meta_set(struct results *res, const char *key, const char *value)
{
	return config_set(res, key, value, 1);
}

const char *results_config_get(const struct results *res, const char *key)
{
	for (size_t i = 0; i < res->ncfg; i++)
		if (strcmp(res->cfg[i].key, key) == 0)
			return res->cfg[i].value;
	return NULL;
}

/* FNV-1a of a name: the index's hash. */
static size_t name_hash(const char *s)
{
	uint64_t h = 14695981039346656037ull;

	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 1099511628211ull;
	return (size_t)h;
}

/* The index slot that holds `name` or the empty slot where it belongs. */
static size_t slot_of(const struct results *res, const char *name)
{
	size_t mask = res->nslot - 1, i = name_hash(name) & mask;

	while (res->slot[i] != 0 &&
	       strcmp(res->r[res->slot[i] - 1].name, name) != 0)
		i = (i + 1) & mask;
	return i;
}

/* Rebuild the index with room for twice the results.  0, or -1. */
static int index_grow(struct results *res)
{
	size_t n = res->nslot ? res->nslot * 2 : 64;
	size_t *slot = calloc(n, sizeof(*slot));

	if (slot == NULL)
		return -1;
	free(res->slot);
	res->slot = slot;
	res->nslot = n;
	for (size_t i = 0; i < res->n; i++)
		res->slot[slot_of(res, res->r[i].name)] = i + 1;
	return 0;
}

void results_pop(struct results *res)
{
	if (res->n == 0)
		return;
	result_release(&res->r[--res->n]);
	/* open addressing: rebuilding is simpler than deleting a slot */
	memset(res->slot, 0, res->nslot * sizeof(*res->slot));
	for (size_t i = 0; i < res->n; i++)
		res->slot[slot_of(res, res->r[i].name)] = i + 1;
}

struct result *results_find(const struct results *res, const char *name)
{
	size_t i;

	if (res->nslot == 0)
		return NULL;
	i = slot_of(res, name);
	return res->slot[i] ? &res->r[res->slot[i] - 1] : NULL;
}

struct result *results_add(struct results *res, const char *suite,
			   const char *name)
{
	struct result *r = results_find(res, name);

	if (r != NULL)
		return r;
	if (2 * (res->n + 1) > res->nslot && index_grow(res) != 0)
		return NULL;
	if (res->n == res->cap) {
		size_t cap = res->cap ? res->cap * 2 : 16;
		struct result *grown = realloc(res->r, cap * sizeof(*grown));
		if (grown == NULL)
			return NULL;
		res->r = grown;
		res->cap = cap;
	}
	r = &res->r[res->n];
	memset(r, 0, sizeof(*r));
	r->name = strdup(name);
	r->suite = strdup(suite);
	if (r->name == NULL || r->suite == NULL) {
		result_release(r);
		return NULL;
	}
	res->slot[slot_of(res, name)] = ++res->n;
	return r;
}

/* Grows a double array to n+1 entries, padding new slots with NAN. */
static int metric_grow(struct metric *m, size_t n)
{
	double *v = realloc(m->v, n * sizeof(*v));

	if (v == NULL)
		return -1;
	for (size_t i = m->n; i < n; i++)
		v[i] = NAN;
	m->v = v;
	m->n = n;
	return 0;
}

long result_sample_begin(struct result *r, uint64_t iters)
{
	uint64_t *it = realloc(r->iters, (r->nsamples + 1) * sizeof(*it));

	if (it == NULL)
		return -1;
	r->iters = it;
	r->iters[r->nsamples] = iters;
	for (size_t i = 0; i < r->nm; i++)
		if (metric_grow(&r->m[i], r->nsamples + 1) != 0)
			return -1;
	return (long)r->nsamples++;
}

static struct metric *metric_get(struct result *r, const char *unit,
				 enum metric_better better)
{
	struct metric *grown;

	for (size_t i = 0; i < r->nm; i++)
		if (strcmp(r->m[i].unit, unit) == 0)
			return &r->m[i];
	grown = realloc(r->m, (r->nm + 1) * sizeof(*grown));
	if (grown == NULL)
		return NULL;
	r->m = grown;
	memset(&r->m[r->nm], 0, sizeof(r->m[0]));
	r->m[r->nm].unit = strdup(unit);
	r->m[r->nm].better = better;
	if (r->m[r->nm].unit == NULL ||
	    metric_grow(&r->m[r->nm], r->nsamples) != 0) {
		free(r->m[r->nm].unit);
		return NULL;
	}
	return &r->m[r->nm++];
}

int result_metric_add(struct result *r, const char *unit,
		      enum metric_better better, double value)
{
	struct metric *m;

	if (r->nsamples == 0)
		return -1;
	m = metric_get(r, unit, better);
	if (m == NULL)
		return -1;
	/* an infinite or NaN figure (a rate over 0 ns) is no figure: the
	   writers print a missing value as none, never "inf" */
	m->v[r->nsamples - 1] = isfinite(value) ? value : NAN;
	return 0;
}

const struct metric *result_metric(const struct result *r, const char *unit)
{
	for (size_t i = 0; i < r->nm; i++)
		if (strcmp(r->m[i].unit, unit) == 0)
			return &r->m[i];
	return NULL;
}

int metric_unit_exact(const char *unit)
{
	/* the units harness/callgrind.c records */
	static const char *const exact[] = {
		"instr/op", "L1-hits/op", "LL-hits/op",
		"RAM-hits/op", "rw/op", "est-cycles/op",
	};

	for (size_t i = 0; i < sizeof(exact) / sizeof(exact[0]); i++)
		if (strcmp(unit, exact[i]) == 0)
			return 1;
	return 0;
}

int metric_unit_time(const char *unit)
{
	static const char *const times[] = {"ns", "us", "\xc2\xb5s",
					    "\xce\xbcs", "ms", "s", "sec"};
	size_t len = strcspn(unit, "/");

	for (size_t i = 0; i < sizeof(times) / sizeof(times[0]); i++)
		if (strlen(times[i]) == len &&
		    strncmp(unit, times[i], len) == 0)
			return 1;
	return 0;
}

void result_set_status(struct result *r, enum result_status st,
		       const char *fmt, ...)
{
	va_list ap;
	char buf[4096]; /* a message may quote a whole name, escaped */

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	free(r->message);
	r->message = strdup(buf);
	r->status = st;
}

static const char *const status_names[] = {
	[RESULT_OK] = "ok",
	[RESULT_MISMATCH] = "mismatch",
	[RESULT_ERROR] = "error",
	[RESULT_UNSUPPORTED] = "unsupported",
	[RESULT_TIMEOUT] = "timeout",
	[RESULT_UNVERIFIED] = "unverified",
};

const char *result_status_name(enum result_status st)
{
	if ((size_t)st < sizeof(status_names) / sizeof(status_names[0]))
		return status_names[st];
	return "?";
}

int result_status_parse(const char *name)
{
	for (size_t i = 0; i < sizeof(status_names) / sizeof(status_names[0]); i++)
		if (strcmp(status_names[i], name) == 0)
			return (int)i;
	return -1;
}

enum result_status result_status_of(int status)
{
	switch (status) {
	case ENGINE_OK: return RESULT_OK;
	case ENGINE_ERR_UNSUPPORTED: return RESULT_UNSUPPORTED;
	case STATUS_TIMEOUT: return RESULT_TIMEOUT;
	case STATUS_MISMATCH: return RESULT_MISMATCH;
	}
	return RESULT_ERROR;
}

int result_key(const struct result *r, const char *key, char *buf,
	       size_t size)
{
	size_t klen = strlen(key);
	const char *p = r->name;

	while ((p = strchr(p, '/')) != NULL) {
		p++;
		if (strncmp(p, key, klen) == 0 && p[klen] == '=') {
			const char *v = p + klen + 1;
			size_t vlen = strcspn(v, "/");
			if (vlen >= size)
				vlen = size ? size - 1 : 0;
			if (size) {
				memcpy(buf, v, vlen);
				buf[vlen] = '\0';
			}
			return 1;
		}
	}
	return 0;
}

int results_failed(const struct results *res)
{
	for (size_t i = 0; i < res->n; i++)
		if (res->r[i].status != RESULT_OK &&
		    res->r[i].status != RESULT_UNSUPPORTED &&
		    res->r[i].status != RESULT_UNVERIFIED)
			return 1;
	return 0;
}

int result_set_verified(struct result *r, const char *text, int unverified)
{
	char *copy = text ? strdup(text) : NULL;

	if (text != NULL && copy == NULL)
		return -1;
	free(r->verified);
	r->verified = copy;
	r->unverified = unverified;
	return 0;
}

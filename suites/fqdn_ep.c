/*
 * fqdn_ep.c - the endpoints of the FQDN suite and their shared cache of
 * compiled rules (see fqdn_ep.h).
 */
#define _GNU_SOURCE
#include "suites/fqdn_ep.h"

#include "harness/alloc.h"
#include "harness/interrupt.h"
#include "suites/fqdn_runner.h"
#include "suites/reference.h"
#include "suites/strset.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* One L7 selector's rules, compiled; shared by every selector holding them. */
struct fqdn_ep_unit {
	struct fqdn_ep_unit *next; /* in its cache bucket */
	uint64_t hash;
	char *key; /* the rules' text (kind and text per selector) */
	size_t keylen;
	size_t refs;
	int64_t heap; /* live bytes its build kept (-1: not measured) */
	struct fqdn_built built;
	void *h; /* the compiled regex(es); NULL for the trie or none */
};

int fqdn_ep_policy(const struct fqdn_policy *base, size_t id,
		   struct fqdn_policy *p, char *ex)
{
	size_t extra = 3, at = 0;
	int n;

	*p = *base;
	p->cap = base->n + extra;
	p->sel = malloc(p->cap * sizeof(*p->sel));
	if (p->sel == NULL)
		return -1;
	if (base->n > 0) /* an empty base may have no array at all */
		memcpy(p->sel, base->sel, base->n * sizeof(*p->sel));
	p->l7_selectors = 1; /* a unit is one selector */
	if (id % 10 != 0) {
		n = snprintf(ex, FQDN_EP_EXTRA / 2,
			     "custom-for-this-one%zu.domain.tld", id);
		p->sel[p->n++] = (struct fqdn_selector){FQDN_MATCH_NAME, ex,
							(size_t)n, 0};
		p->nnames++;
		at = (size_t)n + 1;
		n = snprintf(ex + at, FQDN_EP_EXTRA / 2,
			     "custom2-for-this-one*%zu.domain.tld", id);
		p->sel[p->n++] = (struct fqdn_selector){FQDN_MATCH_PATTERN,
							ex + at, (size_t)n, 0};
		p->npatterns++;
	}
	if ((id + 1) % 20 == 0) {
		p->sel[p->n++] = (struct fqdn_selector){FQDN_MATCH_PATTERN,
							(char *)"*", 1, 0};
		p->npatterns++;
	}
	return 0;
}

void fqdn_ep_policy_release(struct fqdn_policy *p)
{
	free(p->sel); /* the texts are borrowed */
	p->sel = NULL;
	p->n = 0;
}

/* p's rules as one text: a kind byte and the selector, each, LF-ended. */
static char *rules_key(const struct fqdn_policy *p, size_t *len)
{
	size_t n = 0, at = 0;
	char *k;

	for (size_t i = 0; i < p->n; i++)
		n += p->sel[i].len + 2;
	k = malloc(n ? n : 1);
	if (k == NULL)
		return NULL;
	for (size_t i = 0; i < p->n; i++) {
		k[at++] = p->sel[i].kind == FQDN_MATCH_NAME ? 'N' : 'P';
		memcpy(k + at, p->sel[i].text, p->sel[i].len);
		at += p->sel[i].len;
		k[at++] = '\n';
	}
	*len = at;
	return k;
}

/* The cache's unit of key k, or NULL. */
static struct fqdn_ep_unit *cache_find(const struct fqdn_ep_world *w,
				       const char *k, size_t len, uint64_t h)
{
	for (struct fqdn_ep_unit *u = w->bucket[h & w->mask]; u; u = u->next)
		if (u->hash == h && u->keylen == len &&
		    memcmp(u->key, k, len) == 0)
			return u;
	return NULL;
}

static void unit_free(const struct fqdn_ep_world *w, struct fqdn_ep_unit *u)
{
	if (u->h != NULL)
		fqdn_regex_free(w->s, w->e, u->h);
	fqdn_built_release(&u->built);
	free(u->key);
	free(u);
}

/*
 * A compile of b that failed with rc: unsupported when every regex of b
 * is valid syntax (the reference parses it), since the regexes are built
 * from checked selectors with syntax every engine claims: a limit of the
 * engine (Hyperscan's pattern length), said in err.  Else rc.
 */
static int compile_limit(const struct fqdn_built *b, int rc,
			 struct engine_error *err)
{
	char why[256];
	size_t n = strlen(err->msg);

	if (rc != ENGINE_ERR_COMPILE && rc != ENGINE_ERR_NOMEM)
		return rc;
	for (size_t i = 0; i < b->nre; i++) {
		struct ref_regex *r = NULL;
		int v = ref_compile(b->re[i], b->relen[i], 0, &r, why,
				    sizeof(why));
		if (v == REF_OK)
			ref_free(r);
		else if (v != REF_OUT_OF_REACH)
			return rc;
	}
	snprintf(err->msg + n, sizeof(err->msg) - n, " (%s); valid syntax (the "
		 "reference parses it): a limit of this engine",
		 engine_status_name(rc));
	return ENGINE_ERR_UNSUPPORTED;
}

/*
 * Generate and compile p's rules into a new unit that owns key (freed on
 * failure too).  measure: count what it keeps (never inside a timed op:
 * the harness counts those).  The unit, or NULL with *rc set.
 */
static struct fqdn_ep_unit *unit_new(const struct fqdn_ep_world *w,
				     const struct fqdn_policy *p, char *key,
				     size_t len, uint64_t h, int measure,
				     int *rc, struct engine_error *err)
{
	struct fqdn_ep_unit *u;

	if (measure)
		alloc_count_begin();
	u = calloc(1, sizeof(*u));
	*rc = ENGINE_ERR_NOMEM;
	if (u != NULL && fqdn_generate(w->s, p, &u->built) == 0) {
		*rc = u->built.unsupported ? ENGINE_ERR_UNSUPPORTED : 0;
		if (*rc == 0 && w->e != NULL)
			*rc = fqdn_regex_compile(w->s, &u->built, w->e, &u->h,
						 err);
		if (*rc != 0 && *rc != ENGINE_ERR_UNSUPPORTED)
			*rc = compile_limit(&u->built, *rc, err);
	}
	if (measure) {
		struct alloc_stats st = alloc_count_end();
		if (u != NULL)
			u->heap = alloc_hooks_available()
					  ? st.live + (int64_t)len
					  : -1; /* the key was made before */
	}
	if (u == NULL || *rc != 0) {
		if (u != NULL && u->built.unsupported != NULL)
			snprintf(err->msg, sizeof(err->msg), "%s",
				 u->built.unsupported);
		if (u != NULL)
			unit_free(w, u);
		free(key);
		return NULL;
	}
	u->hash = h;
	u->key = key;
	u->keylen = len;
	u->refs = 1;
	return u;
}

/* The unit of p's rules: the cache's (one more reference), or a new one. */
static struct fqdn_ep_unit *unit_get(struct fqdn_ep_world *w,
				     const struct fqdn_policy *p, int measure,
				     int *rc, struct engine_error *err)
{
	size_t len;
	char *key = rules_key(p, &len);
	uint64_t h;
	struct fqdn_ep_unit *u;

	*rc = ENGINE_ERR_NOMEM;
	if (key == NULL)
		return NULL;
	h = strset_hash(key, len);
	u = cache_find(w, key, len, h);
	if (u != NULL) {
		free(key);
		u->refs++;
		*rc = 0;
		return u;
	}
	u = unit_new(w, p, key, len, h, measure, rc, err);
	if (u == NULL)
		return NULL;
	u->next = w->bucket[h & w->mask];
	w->bucket[h & w->mask] = u;
	w->nunits++;
	return u;
}

/* Drop one reference to u; the last frees it. */
static void unit_put(struct fqdn_ep_world *w, struct fqdn_ep_unit *u)
{
	struct fqdn_ep_unit **at = &w->bucket[u->hash & w->mask];

	if (--u->refs > 0)
		return;
	while (*at != u)
		at = &(*at)->next;
	*at = u->next;
	w->nunits--;
	unit_free(w, u);
}

/* Endpoint ep's selectors to the units of generation g. */
static int ep_set(struct fqdn_ep_world *w, size_t ep, unsigned g, int measure,
		  struct engine_error *err)
{
	struct fqdn_ep_unit *u[FQDN_EP_SELECTORS] = {NULL};
	struct fqdn_policy p;
	char ex[FQDN_EP_EXTRA];
	int rc = 0;

	if (fqdn_ep_policy(w->base, ep + g * w->round, &p, ex) != 0)
		return ENGINE_ERR_NOMEM;
	for (size_t k = 0; k < FQDN_EP_SELECTORS && rc == 0; k++)
		u[k] = unit_get(w, &p, measure, &rc, err);
	fqdn_ep_policy_release(&p);
	for (size_t k = 0; k < FQDN_EP_SELECTORS; k++) {
		struct fqdn_ep_unit **slot = &w->sel[ep * FQDN_EP_SELECTORS + k];
		struct fqdn_ep_unit *old = rc == 0 ? *slot : u[k];
		if (rc == 0)
			*slot = u[k];
		if (old != NULL)
			unit_put(w, old);
	}
	if (rc == 0)
		w->gen[ep] = (unsigned char)g;
	return rc;
}

/* The world's own tables, measured when the hooks are there. */
static int world_tables(struct fqdn_ep_world *w)
{
	size_t nb = 64;
	struct alloc_stats st;

	while (nb < w->n)
		nb *= 2;
	alloc_count_begin();
	w->gen = calloc(w->n, 1);
	w->sel = calloc(w->n * FQDN_EP_SELECTORS, sizeof(*w->sel));
	w->bucket = calloc(nb, sizeof(*w->bucket));
	st = alloc_count_end();
	w->mask = nb - 1;
	w->heap = alloc_hooks_available() ? st.live : -1;
	return w->gen && w->sel && w->bucket ? 0 : -1;
}

/* Totals with and without the cache, from the units now held. */
static void world_measure(struct fqdn_ep_world *w)
{
	int64_t tables = w->heap, units = 0, each = 0;

	if (tables < 0)
		return;
	for (size_t b = 0; b <= w->mask; b++)
		for (const struct fqdn_ep_unit *u = w->bucket[b]; u; u = u->next) {
			units += u->heap;
			each += u->heap * (int64_t)u->refs;
		}
	w->heap = tables + units;
	w->heap_nocache = tables + each;
}

/* --- on a runner engine --- */

/*
 * The runner's index of the unit of rules p: the one described before
 * (seen: rules' text -> index), else p generated and described now.  The
 * index, or a negative engine status (err filled).
 */
static long runner_unit(const struct fqdn_ep_world *w,
			struct fqdn_runner_desc *rw,
			struct strset *seen, const struct fqdn_policy *p,
			struct engine_error *err)
{
	size_t len;
	char *key = rules_key(p, &len);
	struct fqdn_built b = {0};
	struct engine_span *re = NULL, *names = NULL;
	uint32_t u = (uint32_t)seen->n;
	long rc = ENGINE_ERR_NOMEM;

	if (key == NULL || strset_find(seen, key, len, &u)) {
		free(key);
		return key == NULL ? ENGINE_ERR_NOMEM : (long)u;
	}
	if (fqdn_generate(w->s, p, &b) != 0)
		goto out;
	if (b.unsupported != NULL) {
		snprintf(err->msg, sizeof(err->msg), "%s", b.unsupported);
		rc = ENGINE_ERR_UNSUPPORTED;
		goto out;
	}
	re = calloc(b.nre + 1, sizeof(*re));
	names = calloc(b.names.n + 1, sizeof(*names));
	if (re == NULL || names == NULL)
		goto out;
	for (size_t i = 0; i < b.nre; i++)
		re[i] = (struct engine_span){b.re[i], b.relen[i]};
	for (size_t i = 0; i < b.names.n; i++)
		names[i].p = strset_key(&b.names, i, &names[i].len);
	if (fqdn_runner_desc_unit(rw, &(struct fqdn_runner_unit){
					   re, b.nre, names, b.names.n}) == 0 &&
	    strset_add(seen, key, len, u) >= 0)
		rc = (long)u;
out:
	free(re);
	free(names);
	free(key);
	fqdn_built_release(&b);
	return rc;
}

/* Describe every endpoint of both generations in rw. */
static int runner_describe(struct fqdn_ep_world *w, struct fqdn_runner_desc *rw,
			   struct engine_error *err)
{
	struct strset seen;
	long rc = 0;

	if (strset_init(&seen, w->n) != 0)
		return ENGINE_ERR_NOMEM;
	for (size_t g = 0; g < 2 && rc >= 0; g++)
		for (size_t ep = 0; ep < w->n && rc >= 0; ep++) {
			struct fqdn_policy p;
			char ex[FQDN_EP_EXTRA];
			if (fqdn_ep_policy(w->base, ep + g * w->round, &p, ex) != 0) {
				rc = ENGINE_ERR_NOMEM;
				break;
			}
			rc = runner_unit(w, rw, &seen, &p, err);
			fqdn_ep_policy_release(&p);
			for (size_t k = 0; rc >= 0 && k < FQDN_EP_SELECTORS; k++)
				fqdn_runner_desc_assign(rw, ep, g, k,
							(uint32_t)rc);
		}
	strset_release(&seen);
	return rc < 0 ? (int)rc : 0;
}

/* fqdn_ep_build() on a runner: the world described, built there, and the
 * memory it reports; then freed there (every process builds its own). */
static int runner_build(struct fqdn_ep_world *w, struct engine_error *err)
{
	struct fqdn_runner_mem mem;
	struct fqdn_runner_desc *d;
	void *any = NULL;
	int rc = w->e->compile(NULL, 0, 0, &any, err);

	if (rc != 0)
		return rc;
	d = fqdn_runner_desc_new(w->n, 2, FQDN_EP_SELECTORS);
	rc = d == NULL ? ENGINE_ERR_NOMEM : runner_describe(w, d, err);
	if (rc == 0)
		rc = fqdn_runner_ep_build(d, any, 0, &w->runner, &mem, err);
	fqdn_runner_desc_free(d);
	w->e->free(any);
	if (rc != 0)
		return rc;
	runner_unload(w->runner);
	w->heap = mem.heap;
	w->heap_nocache = mem.heap_nocache;
	w->nunits = (size_t)mem.units;
	return 0;
}

int fqdn_ep_runner_answers(const struct fqdn_ep_world *w, unsigned rewrite,
			   const uint32_t *ep,
			   const struct engine_span *q, size_t n,
			   unsigned char *out)
{
	return fqdn_runner_ep_answers(w->runner, rewrite, ep, q, n, out);
}

int fqdn_ep_build(struct fqdn_ep_world *w, const struct fqdn_strategy *s,
		  const struct engine *e, const struct fqdn_policy *base,
		  size_t n, struct engine_error *err)
{
	*w = (struct fqdn_ep_world){.s = s, .e = e, .base = base, .n = n,
				    .round = (n + 19) / 20 * 20};
	w->heap_nocache = -1;
	if (e != NULL && (e->caps & CAP_REQUESTS)) /* built where it times */
		return runner_build(w, err);
	if (world_tables(w) != 0)
		return ENGINE_ERR_NOMEM;
	for (size_t ep = 0; ep < n; ep++) {
		int rc = interrupt_signal() ? STATUS_INTERRUPTED
					    : ep_set(w, ep, 0, 1, err);
		if (rc != 0)
			return rc;
	}
	world_measure(w);
	return 0;
}

void fqdn_ep_free(struct fqdn_ep_world *w)
{
	if (w->runner != NULL)
		runner_free(w->runner);
	w->runner = NULL;
	for (size_t i = 0; w->sel != NULL && i < w->n * FQDN_EP_SELECTORS; i++)
		if (w->sel[i] != NULL)
			unit_put(w, w->sel[i]);
	free(w->sel);
	free(w->gen);
	free(w->bucket);
	w->sel = NULL;
	w->gen = NULL;
	w->bucket = NULL;
}

int fqdn_ep_decide(const struct fqdn_ep_world *w, size_t ep, const char *q,
		   size_t len, char *buf)
{
	struct fqdn_ep_unit *const *u = &w->sel[ep * FQDN_EP_SELECTORS];

	for (size_t k = 0; k < FQDN_EP_SELECTORS; k++) {
		int v = fqdn_decide(w->s, &u[k]->built, w->e, u[k]->h, q, len,
				    buf);
		if (v != 0)
			return v;
	}
	return 0;
}

int fqdn_ep_update(struct fqdn_ep_world *w, size_t ep)
{
	struct engine_error err = {0, -1, -1, ""};

	return ep_set(w, ep, !w->gen[ep], 0, &err);
}

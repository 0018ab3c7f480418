/*
 * fqdn_runner.c - the fqdn suite's wire to a runner (fqdn_runner.h): its
 * rewrite flags and its endpoints requests, coded on engines/runner.h's
 * message API.
 */
#include "suites/fqdn_runner.h"

#include <stdlib.h>
#include <string.h>

unsigned fqdn_runner_rewrite(const struct fqdn_strategy *s)
{
	return FQDN_RUNNER_REWRITE_FQDN |
	       (s->flags & FQDN_S_REVERSE ? FQDN_RUNNER_REWRITE_REVERSE : 0);
}

/* An endpoints world's description ('P'). */
struct fqdn_runner_desc {
	size_t n, ngen, nsel;
	uint32_t nunits;
	struct runner_msg units;   /* the units, coded */
	uint32_t *unit_of;         /* n * ngen * nsel */
	struct engine_span *ref;  /* the reference's regexes, copies */
	size_t nref;
	struct engine_span *refnames; /* and names */
	size_t nrefnames;
};

struct fqdn_runner_desc *fqdn_runner_desc_new(size_t n, size_t ngen,
					      size_t nsel)
{
	struct fqdn_runner_desc *d = calloc(1, sizeof(*d));

	if (d == NULL)
		return NULL;
	*d = (struct fqdn_runner_desc){.n = n, .ngen = ngen, .nsel = nsel};
	d->unit_of = calloc(n * ngen * nsel + 1, sizeof(*d->unit_of));
	if (d->unit_of == NULL) {
		free(d);
		return NULL;
	}
	return d;
}

void fqdn_runner_desc_free(struct fqdn_runner_desc *d)
{
	if (d == NULL)
		return;
	runner_msg_release(&d->units);
	free(d->unit_of);
	for (size_t i = 0; i < d->nref; i++)
		free((char *)d->ref[i].p);
	for (size_t i = 0; i < d->nrefnames; i++)
		free((char *)d->refnames[i].p);
	free(d->ref);
	free(d->refnames);
	free(d);
}

/* Copies of b[0..n) into *out; 0 or -1. */
static int bytes_copy(const struct engine_span *b, size_t n,
		      struct engine_span **out)
{
	*out = calloc(n ? n : 1, sizeof(**out));
	for (size_t i = 0; *out != NULL && i < n; i++) {
		char *p = malloc(b[i].len ? b[i].len : 1);
		if (p == NULL)
			return -1;
		memcpy(p, b[i].p, b[i].len);
		(*out)[i] = (struct engine_span){p, b[i].len};
	}
	return *out == NULL ? -1 : 0;
}

/* Bytes a and b have in common at the start. */
static size_t common_prefix(const struct engine_span *a,
			    const struct engine_span *b)
{
	size_t i = 0, n = a->len < b->len ? a->len : b->len;

	while (i < n && a->p[i] == b->p[i])
		i++;
	return i;
}

/* 1 when the reference's names start u's, in order. */
static int names_with_ref(const struct fqdn_runner_desc *d,
			  const struct fqdn_runner_unit *u)
{
	if (d->nunits == 0 || d->nrefnames == 0 || u->nnames < d->nrefnames)
		return 0;
	for (size_t i = 0; i < d->nrefnames; i++)
		if (u->names[i].len != d->refnames[i].len ||
		    memcmp(u->names[i].p, d->refnames[i].p, u->names[i].len))
			return 0;
	return 1;
}

int fqdn_runner_desc_unit(struct fqdn_runner_desc *d,
			  const struct fqdn_runner_unit *u)
{
	struct runner_msg *m = &d->units;
	int ref = names_with_ref(d, u);
	size_t skip = ref ? d->nrefnames : 0;

	if (d->nunits == 0 && (bytes_copy(u->re, u->nre, &d->ref) != 0 ||
			       bytes_copy(u->names, u->nnames, &d->refnames) != 0))
		return -1;
	if (d->nunits == 0) {
		d->nref = u->nre;
		d->nrefnames = u->nnames;
	}
	runner_msg_u32(m, (uint32_t)u->nre);
	for (size_t i = 0; i < u->nre; i++) {
		size_t pre = d->nunits > 0 && i < d->nref
				     ? common_prefix(&u->re[i], &d->ref[i])
				     : 0;
		runner_msg_u32(m, (uint32_t)pre);
		runner_msg_bytes(m, u->re[i].p + pre, u->re[i].len - pre);
	}
	runner_msg_u32(m, (uint32_t)(u->nnames - skip));
	runner_msg_u8(m, (unsigned)ref);
	for (size_t i = skip; i < u->nnames; i++)
		runner_msg_bytes(m, u->names[i].p, u->names[i].len);
	d->nunits++;
	return m->oom ? -1 : 0;
}

void fqdn_runner_desc_assign(struct fqdn_runner_desc *d, size_t ep,
			     size_t gen, size_t sel, uint32_t unit)
{
	d->unit_of[(ep * d->ngen + gen) * d->nsel + sel] = unit;
}

int fqdn_runner_ep_build(const struct fqdn_runner_desc *d, void *any,
			 unsigned flags, void **world,
			 struct fqdn_runner_mem *mem,
			 struct engine_error *err)
{
	struct runner_msg m = {0}, reply = {0};
	int rc;

	*world = runner_world_new(any);
	if (*world == NULL) {
		engine_error_set(err, ENGINE_ERR_NOMEM, -1, -1, "out of memory");
		return ENGINE_ERR_NOMEM;
	}
	runner_msg_u8(&m, 'P');
	runner_msg_u32(&m, runner_id(*world));
	runner_msg_u32(&m, flags);
	runner_msg_u32(&m, (uint32_t)d->n);
	runner_msg_u32(&m, (uint32_t)d->nsel);
	runner_msg_u32(&m, (uint32_t)d->ngen);
	runner_msg_u32(&m, d->nunits);
	runner_msg_put(&m, d->units.p, d->units.n);
	if (d->units.oom)
		m.oom = 1;
	for (size_t i = 0; i < d->n * d->ngen * d->nsel; i++)
		runner_msg_u32(&m, d->unit_of[i]);
	rc = runner_world_load(*world, &m, 'P', &reply, err);
	if (rc == 0) {
		mem->heap = (int64_t)runner_msg_get(&reply, 8);
		mem->heap_nocache = (int64_t)runner_msg_get(&reply, 8);
		mem->units = runner_msg_get(&reply, 8);
		if (reply.oom) {
			rc = STATUS_CRASHED;
			engine_error_set(err, rc, -1, -1,
					 "runner: a short endpoints reply");
		}
	}
	runner_msg_release(&m);
	runner_msg_release(&reply);
	if (rc != 0) {
		runner_free(*world);
		*world = NULL;
	}
	return rc;
}

/* u32 n, n x (u32 endpoint, bytes input): 'Q' and 'X'. */
static void ep_queries_msg(const uint32_t *eps, const struct engine_span *in,
			   size_t n, struct runner_msg *m)
{
	runner_msg_u32(m, (uint32_t)n);
	for (size_t i = 0; i < n; i++) {
		runner_msg_u32(m, eps[i]);
		runner_msg_bytes(m, in[i].p, in[i].len);
	}
}

int fqdn_runner_ep_answers(void *world, unsigned rewrite, const uint32_t *eps,
			   const struct engine_span *in, size_t n,
			   unsigned char *out)
{
	struct runner_msg m = {0};
	char why[256];
	long *v = malloc((n ? n : 1) * sizeof(*v));
	int rc = v == NULL ? ENGINE_ERR_NOMEM : 0;

	if (rc == 0) {
		runner_msg_u8(&m, 'Q');
		runner_msg_u32(&m, runner_id(world));
		runner_msg_u8(&m, rewrite);
		ep_queries_msg(eps, in, n, &m);
		rc = runner_call(world, &m, 'A', why, sizeof(why));
	}
	if (rc == 0)
		rc = runner_read_values(&m, n, v);
	for (size_t i = 0; rc == 0 && i < n; i++)
		out[i] = v[i] != 0;
	runner_msg_release(&m);
	free(v);
	return rc;
}

void *fqdn_runner_ep_add_work(void *world, enum fqdn_runner_ep_op op,
			      unsigned rewrite, const uint32_t *eps,
			      const struct engine_span *in, size_t n)
{
	struct runner_msg m = {0};
	void *job;

	runner_msg_u8(&m, 'X');
	runner_msg_u32(&m, runner_id(world));
	runner_msg_u8(&m, (unsigned)op);
	runner_msg_u8(&m, rewrite);
	ep_queries_msg(eps, in, n, &m);
	job = runner_add_request(world, &m);
	runner_msg_release(&m);
	return job;
}

/*
 * fqdn_size.c - what the FQDN suite's strategy cases (fqdn.c) and its
 * endpoint cases (fqdn_ep_case.c) share of a policy size (fqdn_size.h).
 */
#include "suites/fqdn_size.h"

#include <stdio.h>
#include <stdlib.h>

const char *fqdn_phase_name(enum fqdn_phase ph)
{
	static const char *const names[] = {"generate", "compile",
					    "combined-compile"};

	if (ph < PH_MATCH_FIRST)
		return names[ph];
	if (ph == PH_QUERIES)
		return "queries";
	if (ph == PH_UPDATE)
		return "policy-update";
	return fqdn_qset_name((enum fqdn_qset)(ph - PH_MATCH_FIRST));
}

/* Queries of set k (all sets: FQDN_NSETS) that answer a allows. */
size_t fqdn_answer_allowed(const struct fqdn_size *z, const unsigned char *a,
			   size_t k)
{
	size_t from = k < FQDN_NSETS ? z->off[k] : 0;
	size_t n = k < FQDN_NSETS ? z->q[k].n : fqdn_total(z->sets, FQDN_NSETS);
	size_t allowed = 0;

	for (size_t i = 0; i < n; i++)
		allowed += a[from + i] == 1;
	return allowed;
}

void fqdn_size_describe(void *arg, const struct case_item *c,
			const void *answer, char *buf, size_t size)
{
	const struct fqdn_size *z = arg;

	(void)c;
	snprintf(buf, size, "%zu of %zu queries allowed",
		 fqdn_answer_allowed(z, answer, FQDN_NSETS),
		 fqdn_total(z->sets, FQDN_NSETS));
}

void fqdn_size_explain(void *arg, const struct case_item *c, const void *got,
		       const void *want, char *buf, size_t size)
{
	const struct fqdn_size *z = arg;

	(void)c;
	fqdn_explain(z->sets, FQDN_NSETS, got, want, buf, size);
}

/*
 * Every query of z's sets as it is, in set order, into *rin (the
 * runner's op rewrites it); nothing when *rin is there.  0, or -1 out of
 * memory.
 */
int fqdn_queries_all(const struct fqdn_size *z, struct engine_span **rin)
{
	size_t total = fqdn_total(z->sets, FQDN_NSETS), j = 0;

	if (*rin != NULL)
		return 0;
	*rin = calloc(total + 1, sizeof(**rin));
	if (*rin == NULL)
		return -1;
	for (size_t k = 0; k < FQDN_NSETS; k++)
		for (size_t i = 0; i < z->q[k].n; i++)
			(*rin)[j++] = (struct engine_span){z->q[k].name[i],
							    z->q[k].len[i]};
	return 0;
}

int fqdn_engine_timeable(const struct engine *e, char *why, size_t size)
{
	if (!engine_self_timed(e) || (e->caps & CAP_REQUESTS))
		return 0;
	snprintf(why, size, "%s times itself and takes no suite requests: the "
		 "proxy's op (its rewrite, its name map, then the regex) cannot "
		 "be timed there", e->name);
	return ENGINE_ERR_UNSUPPORTED;
}

/* The longest query of z's sets. */
size_t fqdn_size_maxq(const struct fqdn_size *z)
{
	size_t maxq = 0;

	for (size_t k = 0; k < FQDN_NSETS; k++)
		if (z->q[k].maxlen > maxq)
			maxq = z->q[k].maxlen;
	return maxq;
}

/*
 * test_xdp_common.c - helpers of the XDP tests (see test_xdp_common.h).
 */
#include "test_xdp_common.h"

#include "suites/reference.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

size_t xt_patterns(const struct ruleset *rs, struct xdp_dfa_pattern *out,
		   size_t max)
{
	if (rs->np > max)
		return 0;
	for (size_t k = 0; k < rs->np; k++)
		out[k] = (struct xdp_dfa_pattern){rs->p[k].re, rs->p[k].len,
						  rs->p[k].flags, (uint32_t)k};
	return rs->np;
}

int xt_refs_init(struct xt_refs *x, const struct xdp_dfa_pattern *p,
		 size_t n, char *why, size_t size)
{
	x->r = calloc(n + 1, sizeof(*x->r));
	x->p = p;
	x->n = n;
	if (x->r == NULL)
		return -1;
	for (size_t k = 0; k < n; k++)
		if (ref_compile(p[k].re, p[k].len, p[k].flags, &x->r[k], why,
				size) != REF_OK)
			return -1;
	return 0;
}

void xt_refs_release(struct xt_refs *x)
{
	for (size_t k = 0; x->r != NULL && k < x->n; k++)
		ref_free(x->r[k]);
	free(x->r);
	memset(x, 0, sizeof(*x));
}

int xt_ref_ids(const struct xt_refs *x, const void *data, size_t len,
	       __u64 ids[XDP_RXB_ID_WORDS])
{
	int any = 0;

	memset(ids, 0, XDP_RXB_ID_WORDS * sizeof(__u64));
	for (size_t k = 0; k < x->n; k++) {
		if (!ref_is_match(x->r[k], data, len))
			continue;
		ids[x->p[k].id / 64] |= 1ull << (x->p[k].id % 64);
		any = 1;
	}
	return any;
}

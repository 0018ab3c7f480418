/*
 * fqdn_ref.h - the reference verdict of the FQDN suite: does a policy
 * allow a query name, by Cilium v1.11's rules?
 *
 *   - names are compared case-insensitively and fully qualified (a
 *     missing trailing dot is added to selector and query alike);
 *   - a matchName matches exactly that name;
 *   - a matchPattern matches names with the same number of labels, label
 *     by label, where '*' matches any run (possibly empty) of
 *     [-a-zA-Z0-9_] and every other character matches itself;
 *   - a matchPattern that is exactly "*" matches every valid name: one or
 *     more non-empty labels of [-a-zA-Z0-9_], or the root ".".
 *
 * Plain label-by-label comparison over the selectors as written: no
 * regex engine, and no code shared with the strategies it checks.
 */
#ifndef RXB_FQDN_REF_H
#define RXB_FQDN_REF_H

#include <stddef.h>

#include "corpora/fqdn_policy.h"

/* One selector, cut into labels once (the labels point into the policy). */
struct fqdn_ref_sel {
	int match_all;  /* the matchPattern "*" */
	size_t nlabels;
	const char **label;
	size_t *len;
};

struct fqdn_ref {
	struct fqdn_ref_sel *sel;
	size_t n;
};

/*
 * Cut every selector of p into labels.  p must outlive r.
 * 0, or -1 out of memory.
 */
int fqdn_ref_init(struct fqdn_ref *r, const struct fqdn_policy *p);
void fqdn_ref_release(struct fqdn_ref *r);

/* 1 when the policy allows the query name q[0..len), else 0. */
int fqdn_ref_allows(const struct fqdn_ref *r, const char *q, size_t len);

#endif

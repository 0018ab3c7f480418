/*
 * fqdn_verify.c - a strategy's verdicts against the reference's (see
 * fqdn_verify.h).
 */
#include "suites/fqdn_verify.h"

#include <string.h>

int fqdn_verify(const struct fqdn_strategy *s, const struct fqdn_built *b,
		const struct engine *e, void *h, const struct fqdn_qset_ref *sets,
		size_t n, char *buf, struct fqdn_verdict *v)
{
	memset(v, 0, sizeof(*v));
	for (size_t k = 0; k < n; k++) {
		const struct fqdn_queries *q = sets[k].q;
		for (size_t i = 0; i < q->n; i++, v->total++) {
			int got = fqdn_decide(s, b, e, h, q->name[i], q->len[i],
					      buf);
			if (got >= 0 && got == sets[k].expect[i])
				continue;
			if (got < 0 || v->wrong++ == 0) {
				v->query = q->name[i];
				v->set = sets[k].name;
				v->got = got;
				v->want = sets[k].expect[i];
			}
			if (got < 0) {
				v->status = got;
				return -1;
			}
		}
	}
	return v->wrong == 0 ? 0 : -1;
}

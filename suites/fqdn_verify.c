/*
 * fqdn_verify.c - a strategy's verdicts against the reference's, and the
 * messages that quote a query (see fqdn_verify.h).
 */
#include "suites/fqdn_verify.h"

#include "corpora/file.h"

#include <stdio.h>
#include <string.h>

/* The first wrong (or failing) verdict, query i of set `set`. */
static void note_first(struct fqdn_verdict *v, const struct fqdn_qset_ref *set,
		       size_t i, int got)
{
	v->query = set->q->name[i];
	v->qlen = set->q->len[i];
	v->index = i;
	v->set = set->name;
	v->got = got;
	v->want = set->expect[i];
}

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
			if (got > 0)
				v->allowed++;
			if (got >= 0 && got == sets[k].expect[i])
				continue;
			if (got < 0 || v->wrong++ == 0)
				note_first(v, &sets[k], i, got);
			if (got < 0) {
				v->status = got;
				return -1;
			}
		}
	}
	return v->wrong == 0 ? 0 : -1;
}

void fqdn_verdict_text(const struct fqdn_verdict *v, const char *strategy,
		       const char *engine, size_t domains, char *buf,
		       size_t size)
{
	char q[4 * FQDN_NAME_MAX + 64];

	msg_escape_bytes(v->query ? v->query : "", v->query ? v->qlen : 0, q,
			 sizeof(q));
	if (v->status != 0)
		snprintf(buf, size, "%s: strategy %s: query '%s' (%s): %s",
			 engine, strategy, q, v->set ? v->set : "?",
			 engine_status_name(v->status));
	else
		snprintf(buf, size, "strategy %s, engine %s, %zu domains: query "
			 "'%s' (%s): %s, the reference says %s; %zu of %zu "
			 "queries differ", strategy, engine, domains, q,
			 v->set ? v->set : "?", v->got ? "allowed" : "denied",
			 v->want ? "allowed" : "denied", v->wrong, v->total);
}

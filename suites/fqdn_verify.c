/*
 * fqdn_verify.c - a strategy's verdicts, the reference's, and the
 * messages that quote a query (see fqdn_verify.h).
 */
#include "suites/fqdn_verify.h"

#include "corpora/file.h"

#include <stdio.h>
#include <string.h>

size_t fqdn_total(const struct fqdn_set *sets, size_t n)
{
	size_t total = 0;

	for (size_t k = 0; k < n; k++)
		total += sets[k].q->n;
	return total;
}

int fqdn_answer(const struct fqdn_strategy *s, const struct fqdn_built *b,
		const struct engine *e, void *h, const struct fqdn_set *sets,
		size_t n, char *buf, unsigned char *out, size_t *at)
{
	size_t j = 0;

	for (size_t k = 0; k < n; k++) {
		const struct fqdn_queries *q = sets[k].q;
		for (size_t i = 0; i < q->n; i++, j++) {
			int v;
			if (at != NULL)
				*at = j;
			v = fqdn_decide(s, b, e, h, q->name[i], q->len[i], buf);
			if (v < 0)
				return v;
			out[j] = (unsigned char)v;
		}
	}
	return 0;
}

int fqdn_expect(const struct fqdn_ref *r, const struct fqdn_set *sets,
		size_t n, unsigned char *out)
{
	for (size_t k = 0; k < n; k++) {
		const struct fqdn_queries *q = sets[k].q;
		for (size_t i = 0; i < q->n; i++) {
			int v = fqdn_ref_allows(r, q->name[i], q->len[i]);
			if (v < 0)
				return -1;
			*out++ = (unsigned char)v;
		}
	}
	return 0;
}

size_t fqdn_differ(const unsigned char *got, const unsigned char *want,
		   size_t total)
{
	size_t n = 0;

	for (size_t i = 0; i < total; i++)
		n += got[i] != want[i];
	return n;
}

void fqdn_query_text(const struct fqdn_set *sets, size_t n, size_t at,
		     char *buf, size_t size)
{
	char q[4 * FQDN_NAME_MAX + 64];
	size_t k = 0;

	while (k < n && at >= sets[k].q->n)
		at -= sets[k++].q->n;
	if (k == n) {
		snprintf(buf, size, "no query");
		return;
	}
	msg_escape_bytes(sets[k].q->name[at], sets[k].q->len[at], q, sizeof(q));
	snprintf(buf, size, "query '%s' (%s)", q, sets[k].name);
}

void fqdn_explain(const struct fqdn_set *sets, size_t n,
		  const unsigned char *got, const unsigned char *want,
		  char *buf, size_t size)
{
	size_t total = fqdn_total(sets, n), first = 0;
	char q[4 * FQDN_NAME_MAX + 128];

	while (first < total && got[first] == want[first])
		first++;
	if (first == total) {
		snprintf(buf, size, "no query differs");
		return;
	}
	fqdn_query_text(sets, n, first, q, sizeof(q));
	snprintf(buf, size, "%s: %s, the reference says %s; %zu of %zu queries "
		 "differ", q, got[first] ? "allowed" : "denied",
		 want[first] ? "allowed" : "denied",
		 fqdn_differ(got, want, total), total);
}

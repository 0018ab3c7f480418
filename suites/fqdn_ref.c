/*
 * fqdn_ref.c - the reference matcher (see fqdn_ref.h).  Written for
 * obviousness: selectors are cut into labels once, each query is cut on
 * every call and compared with every selector of the same label count.
 */
#include "suites/fqdn_ref.h"

#include <stdlib.h>
#include <string.h>

#define REF_MAX_LABELS 256

/* A query cut into labels, the trailing dot dropped. */
struct labels {
	const char *p[REF_MAX_LABELS];
	size_t len[REF_MAX_LABELS];
	size_t n;
	int overflow;
};

static char ascii_lower(char c)
{
	return c >= 'A' && c <= 'Z' ? (char)(c - 'A' + 'a') : c;
}

/*
 * Cut s into at most max labels (p, plen): "a.b." and "a.b" both give
 * {a, b}; "." and "" give none.  Returns the count; *overflow is set when
 * s has more than max labels.
 */
static size_t split(const char *s, size_t len, const char **p, size_t *plen,
		    size_t max, int *overflow)
{
	size_t start = 0, n = 0;

	*overflow = 0;
	if (len > 0 && s[len - 1] == '.')
		len--;
	if (len == 0)
		return 0;
	for (size_t i = 0; i <= len; i++) {
		if (i < len && s[i] != '.')
			continue;
		if (n == max) {
			*overflow = 1;
			return n;
		}
		p[n] = s + start;
		plen[n++] = i - start;
		start = i + 1;
	}
	return n;
}

static int dns_class(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       (c >= '0' && c <= '9') || c == '-' || c == '_';
}

/* Does pattern label pat match name label s?  Recursive on each '*'. */
static int glob(const char *pat, size_t plen, const char *s, size_t slen)
{
	if (plen == 0)
		return slen == 0;
	if (pat[0] == '*') {
		/* '*' takes k class characters, k = 0, 1, ... */
		for (size_t k = 0; k <= slen; k++) {
			if (glob(pat + 1, plen - 1, s + k, slen - k))
				return 1;
			if (k < slen && !dns_class(s[k]))
				return 0;
		}
		return 0;
	}
	return slen > 0 && ascii_lower(pat[0]) == ascii_lower(s[0]) &&
	       glob(pat + 1, plen - 1, s + 1, slen - 1);
}

/* Cilium's match-all: every label non-empty and of the DNS class. */
static int valid_name(const struct labels *q)
{
	if (q->overflow)
		return 0;
	for (size_t i = 0; i < q->n; i++) {
		if (q->len[i] == 0)
			return 0;
		for (size_t j = 0; j < q->len[i]; j++)
			if (!dns_class(q->p[i][j]))
				return 0;
	}
	return 1;
}

/* Same label count, every label matching (top-level domain first). */
static int sel_match(const struct fqdn_ref_sel *s, const struct labels *q)
{
	if (s->match_all)
		return valid_name(q);
	if (q->overflow || s->nlabels != q->n)
		return 0;
	for (size_t i = q->n; i-- > 0;)
		if (!glob(s->label[i], s->len[i], q->p[i], q->len[i]))
			return 0;
	return 1;
}

static int ref_sel_init(struct fqdn_ref_sel *rs, const struct fqdn_selector *s)
{
	const char *p[REF_MAX_LABELS];
	size_t len[REF_MAX_LABELS];
	int overflow;

	memset(rs, 0, sizeof(*rs));
	if (s->kind == FQDN_MATCH_PATTERN && s->len == 1 && s->text[0] == '*') {
		rs->match_all = 1;
		return 0;
	}
	rs->nlabels = split(s->text, s->len, p, len, REF_MAX_LABELS, &overflow);
	rs->label = malloc((rs->nlabels + 1) * sizeof(*rs->label));
	rs->len = malloc((rs->nlabels + 1) * sizeof(*rs->len));
	if (rs->label == NULL || rs->len == NULL)
		return -1;
	memcpy(rs->label, p, rs->nlabels * sizeof(*p));
	memcpy(rs->len, len, rs->nlabels * sizeof(*len));
	return 0;
}

int fqdn_ref_init(struct fqdn_ref *r, const struct fqdn_policy *p)
{
	r->n = 0;
	r->sel = calloc(p->n ? p->n : 1, sizeof(*r->sel));
	if (r->sel == NULL)
		return -1;
	for (size_t i = 0; i < p->n; i++) {
		int rc = ref_sel_init(&r->sel[i], &p->sel[i]);
		r->n++;
		if (rc != 0) {
			fqdn_ref_release(r);
			return -1;
		}
	}
	return 0;
}

void fqdn_ref_release(struct fqdn_ref *r)
{
	for (size_t i = 0; i < r->n; i++) {
		free(r->sel[i].label);
		free(r->sel[i].len);
	}
	free(r->sel);
	r->sel = NULL;
	r->n = 0;
}

int fqdn_ref_allows(const struct fqdn_ref *r, const char *q, size_t len)
{
	struct labels ql;

	ql.n = split(q, len, ql.p, ql.len, REF_MAX_LABELS, &ql.overflow);
	for (size_t i = 0; i < r->n; i++)
		if (sel_match(&r->sel[i], &ql))
			return 1;
	return 0;
}

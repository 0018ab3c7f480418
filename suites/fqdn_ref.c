/*
 * fqdn_ref.c - the reference matcher (see fqdn_ref.h).  Written for
 * obviousness: selectors are lower-cased and cut into labels once; each
 * query is lower-cased as Go does and cut, then compared with every
 * selector of as many labels, label by label from the top-level domain:
 * a label without '*' by equality, one with '*' by a small dynamic
 * program (exact whatever the stars, linear in the label per pattern
 * character).  Every query meets every selector: O(queries x selectors).
 */
#include "suites/fqdn_ref.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* A query rune that lowers to no ASCII character: equal to no selector byte. */
#define REF_FOREIGN 0x80
/* A non-ASCII selector byte (the loader refuses them): equal to no query byte. */
#define REF_NEVER 0x81

static int dns_class(unsigned char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       (c >= '0' && c <= '9') || c == '-' || c == '_';
}

static int in(unsigned char c, unsigned char lo, unsigned char hi)
{
	return c >= lo && c <= hi;
}

/*
 * The rune at s[0..len) as Go's utf8.DecodeRune reads it: the shortest
 * form only, no surrogates, at most U+10FFFF; anything else is U+FFFD of
 * width 1.  len > 0.
 */
static uint32_t decode_rune(const unsigned char *s, size_t len, size_t *width)
{
	unsigned char c = s[0];
	unsigned char lo = 0x80, hi = 0xbf;
	size_t n = c >= 0xc2 && c <= 0xdf ? 2 : c >= 0xe0 && c <= 0xef ? 3
					    : c >= 0xf0 && c <= 0xf4 ? 4 : 1;
	uint32_t r = n == 2 ? c & 0x1fu : n == 3 ? c & 0x0fu : c & 0x07u;

	*width = 1;
	if (c < 0x80)
		return c;
	if (n == 1 || len < n)
		return 0xfffd;
	if (c == 0xe0)
		lo = 0xa0;
	else if (c == 0xed)
		hi = 0x9f;
	else if (c == 0xf0)
		lo = 0x90;
	else if (c == 0xf4)
		hi = 0x8f;
	if (!in(s[1], lo, hi))
		return 0xfffd;
	for (size_t i = 1; i < n; i++) {
		if (i > 1 && !in(s[i], 0x80, 0xbf))
			return 0xfffd;
		r = (r << 6) | (s[i] & 0x3fu);
	}
	*width = n;
	return r;
}

/* unicode.ToLower(r) when it is ASCII, else REF_FOREIGN. */
static unsigned char lower_rune(uint32_t r)
{
	if (r >= 'A' && r <= 'Z')
		return (unsigned char)(r - 'A' + 'a');
	if (r < 0x80)
		return (unsigned char)r;
	if (r == 0x130) /* LATIN CAPITAL LETTER I WITH DOT ABOVE */
		return 'i';
	if (r == 0x212a) /* KELVIN SIGN */
		return 'k';
	return REF_FOREIGN;
}

/*
 * The width of the last rune of s[0..end) as Go's
 * utf8.DecodeLastRuneInString reads it: look back at most four bytes for
 * a byte that starts a rune, decode from there, and take that rune only
 * when it ends exactly at end (else width 1).  end > 0.
 */
static size_t last_rune_width(const unsigned char *s, size_t end)
{
	long start = (long)end - 1, lim = (long)end - 4;
	size_t w;

	if (s[start] < 0x80)
		return 1;
	if (lim < 0)
		lim = 0;
	for (start--; start >= lim; start--)
		if ((s[start] & 0xc0) != 0x80)
			break;
	if (start < 0)
		start = 0;
	decode_rune(s + start, end - (size_t)start, &w);
	return (size_t)start + w == end ? w : 1;
}

/*
 * dns.IsFqdn of the DNS library (miekg/dns in 1.11, its copy in
 * pkg/fqdn/dns since): q ends with '.' and the byte count from the start
 * of the last rune before that dot that is not a backslash, to the dot,
 * is odd.  Meant to count escaping backslashes, it counts the bytes of
 * that rune too: a name ending in a two- or four-byte rune and a dot
 * (U+0130 then a dot: bytes c4 b0 2e) is not qualified, and dns.Fqdn
 * adds a second dot.
 */
static int is_fqdn(const unsigned char *q, size_t len)
{
	size_t end, w = 1;

	if (len == 0 || q[len - 1] != '.')
		return 0;
	end = len - 1;
	while (end > 0 && q[end - 1] == '\\')
		end--;
	if (end > 0)
		w = last_rune_width(q, end);
	return (len - 1 - end + w) % 2 != 0;
}

/*
 * strings.ToLower(dns.Fqdn(q)) into out (len + 1 bytes), one byte per
 * rune: what a selector can match of it.  Returns its length.
 */
static size_t lower_fqdn(const char *q, size_t len, char *out)
{
	const unsigned char *s = (const unsigned char *)q;
	size_t n = 0, w;

	for (size_t i = 0; i < len; i += w)
		out[n++] = (char)lower_rune(decode_rune(s + i, len - i, &w));
	if (!is_fqdn(s, len))
		out[n++] = '.';
	return n;
}

/* Cut body[0..n) at every dot into off[], len[] (1 + dots labels). */
static size_t cut_labels(const char *body, size_t n, size_t *off, size_t *len)
{
	size_t k = 0, start = 0;

	for (size_t i = 0; i <= n; i++) {
		if (i < n && body[i] != '.')
			continue;
		off[k] = start;
		len[k++] = i - start;
		start = i + 1;
	}
	return k;
}

/* A query lower-cased as Go would and cut into labels (one allocation). */
struct qlabels {
	char *low;          /* the name, its final dot cut off: body bytes */
	size_t body;
	size_t *off, *len;  /* label i is low[off[i]..off[i] + len[i]) */
	size_t n;
	unsigned char *row; /* label_match's scratch */
};

static int qlabels_init(struct qlabels *ql, const char *q, size_t len)
{
	size_t max = len + 2; /* bytes of low, and labels at most */
	size_t *mem = malloc(max * (2 * sizeof(size_t) + 2));

	if (mem == NULL)
		return -1;
	ql->off = mem;
	ql->len = mem + max;
	ql->low = (char *)(mem + 2 * max);
	ql->row = (unsigned char *)ql->low + max;
	ql->body = lower_fqdn(q, len, ql->low) - 1;
	ql->n = cut_labels(ql->low, ql->body, ql->off, ql->len);
	return 0;
}

/*
 * Does pattern label p[0..m) match name label s[0..n)?  Without a star,
 * when they are equal; with one, by a dynamic program: row (n + 1 bytes)
 * says, for each j, whether the pattern so far matches s[0..j).
 */
static int label_match(const char *p, size_t m, const char *s, size_t n,
		       unsigned char *row)
{
	if (memchr(p, '*', m) == NULL)
		return m == n && memcmp(p, s, n) == 0;
	memset(row, 0, n + 1);
	row[0] = 1;
	for (size_t i = 0; i < m; i++) {
		if (p[i] == '*') {
			for (size_t j = 1; j <= n; j++)
				row[j] |= row[j - 1] &&
					  dns_class((unsigned char)s[j - 1]);
			continue;
		}
		for (size_t j = n; j > 0; j--)
			row[j] = row[j - 1] && s[j - 1] == p[i];
		row[0] = 0;
	}
	return row[n];
}

/* Every label of q below `upto` is a non-empty run of class characters. */
static int labels_valid(const struct qlabels *q, size_t upto)
{
	for (size_t i = 0; i < upto; i++) {
		if (q->len[i] == 0)
			return 0;
		for (size_t j = 0; j < q->len[i]; j++)
			if (!dns_class((unsigned char)q->low[q->off[i] + j]))
				return 0;
	}
	return 1;
}

/*
 * As many labels, each matching (top-level domain first: fails soonest).
 * With 1.19's leading "**.", the selector's labels match the query's last
 * ones and the query has at least one more, each valid.
 */
static int sel_match(const struct fqdn_ref_sel *s, const struct qlabels *q)
{
	size_t skip;

	if (s->subdomains ? q->n <= s->nlabels : q->n != s->nlabels)
		return 0;
	skip = q->n - s->nlabels; /* query labels left of the selector's */
	for (size_t i = s->nlabels; i-- > 0;)
		if (!label_match(s->low + s->off[i], s->len[i],
				 q->low + q->off[skip + i], q->len[skip + i],
				 q->row))
			return 0;
	return !s->subdomains || labels_valid(q, skip);
}

/* The match-all's verdict on body[0..n): "." or non-empty class labels. */
static int match_all(const char *body, size_t n)
{
	size_t label = 0;

	if (n == 0)
		return 1; /* the name "." */
	for (size_t i = 0; i <= n; i++) {
		if (i == n || body[i] == '.') {
			if (label == 0)
				return 0;
			label = 0;
		} else if (!dns_class((unsigned char)body[i])) {
			return 0;
		} else {
			label++;
		}
	}
	return 1;
}

/* The labels of s->low[0..n) (its final dot excluded) into s. */
static int sel_cut(struct fqdn_ref_sel *s, size_t n)
{
	size_t count = 1;

	for (size_t i = 0; i + 1 < n; i++)
		count += s->low[i] == '.';
	s->off = malloc(count * sizeof(*s->off));
	s->len = malloc(count * sizeof(*s->len));
	if (s->off == NULL || s->len == NULL)
		return -1;
	s->nlabels = cut_labels(s->low, n - 1, s->off, s->len);
	return 0;
}

/* How many stars s[0..len) starts with. */
static size_t leading_stars(const char *s, size_t len)
{
	size_t i = 0;

	while (i < len && s[i] == '*')
		i++;
	return i;
}

/*
 * 1.19's isDNSWildcard: stars only ("*", "**", ...), with or without
 * one final dot ("*.", "***.").
 */
static int dns_wildcard(const char *s, size_t len)
{
	if (len > 0 && s[len - 1] == '.')
		len--;
	return len > 0 && leading_stars(s, len) == len;
}

/*
 * What kind of match-all pattern s is under version v (0: none), for the
 * proxy or (l3) the name manager, whose ToAnchoredRegexp match-all keeps
 * to valid names and the root in 1.19 too.
 */
static int match_all_kind(const struct fqdn_selector *s, enum fqdn_cilium v,
			  int l3)
{
	if (s->kind != FQDN_MATCH_PATTERN)
		return 0;
	if (v == FQDN_CILIUM_1_19 && dns_wildcard(s->text, s->len))
		return l3 ? REF_ALL_VALID : REF_ALL_NAMES;
	if (v == FQDN_CILIUM_1_19)
		return 0;
	return s->len == 1 && s->text[0] == '*' ? REF_ALL_VALID : 0;
}

/*
 * 1.19's subdomain wildcard: two stars or more, then a dot, then the
 * rest (escapeRegexpCharacters).  The length of that prefix, or 0.
 */
static size_t subdomain_prefix(const char *s, size_t len)
{
	size_t k = leading_stars(s, len);

	return k >= 2 && k < len && s[k] == '.' ? k + 1 : 0;
}

/* Selectors are ASCII (fqdn_selector_check): ASCII lower case suffices. */
static int ref_sel_init(struct fqdn_ref_sel *rs, const struct fqdn_selector *s,
			enum fqdn_cilium v, int l3)
{
	const char *text = s->text;
	size_t n = s->len;

	memset(rs, 0, sizeof(*rs));
	rs->match_all = match_all_kind(s, v, l3);
	if (rs->match_all)
		return 0;
	if (v == FQDN_CILIUM_1_19 && s->kind == FQDN_MATCH_PATTERN &&
	    subdomain_prefix(text, n) > 0) {
		size_t k = subdomain_prefix(text, n);
		rs->subdomains = 1;
		text += k;
		n -= k;
	}
	if (n == 0 && !rs->subdomains)
		return 0; /* Cilium skips an empty selector: no labels, no match */
	rs->low = calloc(1, n + 2);
	if (rs->low == NULL)
		return -1;
	if (n == 0)
		return 0; /* "**." alone: one label or more, nothing else */
	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)text[i];
		rs->low[i] = (char)(c >= 0x80 ? REF_NEVER : lower_rune(c));
	}
	if (rs->low[n - 1] != '.')
		rs->low[n++] = '.';
	rs->low[n] = '\0';
	return sel_cut(rs, n);
}

/* fqdn_ref_init, for the name manager when l3. */
static int ref_init(struct fqdn_ref *r, const struct fqdn_policy *p, int l3)
{
	r->n = 0;
	r->sel = calloc(p->n ? p->n : 1, sizeof(*r->sel));
	if (r->sel == NULL)
		return -1;
	for (size_t i = 0; i < p->n; i++) {
		int rc = ref_sel_init(&r->sel[i], &p->sel[i], p->cilium, l3);
		r->n++;
		if (rc != 0) {
			fqdn_ref_release(r);
			return -1;
		}
	}
	return 0;
}

int fqdn_ref_init(struct fqdn_ref *r, const struct fqdn_policy *p)
{
	return ref_init(r, p, 0);
}

int fqdn_ref_init_name_manager(struct fqdn_ref *r, const struct fqdn_policy *p)
{
	return ref_init(r, p, 1);
}

void fqdn_ref_release(struct fqdn_ref *r)
{
	for (size_t i = 0; i < r->n; i++) {
		free(r->sel[i].low);
		free(r->sel[i].off);
		free(r->sel[i].len);
	}
	free(r->sel);
	r->sel = NULL;
	r->n = 0;
}

int fqdn_ref_allows(const struct fqdn_ref *r, const char *q, size_t len)
{
	struct qlabels ql;
	int allowed = 0;

	if (qlabels_init(&ql, q, len) != 0)
		return -1;
	for (size_t i = 0; i < r->n && !allowed; i++) {
		const struct fqdn_ref_sel *s = &r->sel[i];
		if (s->match_all == REF_ALL_NAMES)
			allowed = 1;
		else if (s->match_all == REF_ALL_VALID)
			allowed = match_all(ql.low, ql.body);
		else
			allowed = s->low != NULL && sel_match(s, &ql);
	}
	free(ql.off);
	return allowed;
}

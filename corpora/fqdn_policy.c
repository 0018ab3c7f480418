/*
 * fqdn_policy.c - FQDN policies and query names: checks, the generator,
 * the query-set generators and the file readers (see fqdn_policy.h).
 * The YAML reader is in fqdn_yaml.c.
 */
#define _GNU_SOURCE
#include "corpora/fqdn_policy.h"

#include "corpora/file.h"
#include "corpora/rng.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The generator's long second-level domain, as in the Go benchmark's data. */
#define LONG_DOMAIN "this-very-long-super-long-domain"

/* Used when the public suffix list is not installed. */
static char *builtin_tlds[] = {
	"com", "net", "org", "io", "no", "de", "uk", "co.uk", "fr", "nl",
	"se", "jp", "cn", "br", "au", "com.au", "in", "ru", "it", "es",
	"ch", "dev", "app", "cloud", "info", "eu", "ca", "us", "co", "me",
};

static const char *const qset_names[FQDN_Q_COUNT] = {
	"match-name", "match-pattern", "bad-match-pattern", "bad-match-tld",
};

const char *fqdn_qset_name(enum fqdn_qset q)
{
	return q < FQDN_Q_COUNT ? qset_names[q] : "?";
}

/* A NUL-terminated copy of s[0..len), which may hold NUL (strndup stops). */
static char *bytes_dup(const char *s, size_t len)
{
	char *d = malloc(len + 1);

	if (d == NULL)
		return NULL;
	memcpy(d, s, len);
	d[len] = '\0';
	return d;
}

const char *fqdn_cilium_name(enum fqdn_cilium v)
{
	return v == FQDN_CILIUM_1_19 ? "1.19" : "1.11";
}

void fqdn_policy_init(struct fqdn_policy *p)
{
	memset(p, 0, sizeof(*p));
}

void fqdn_policy_release(struct fqdn_policy *p)
{
	for (size_t i = 0; i < p->n; i++)
		free(p->sel[i].text);
	for (size_t i = 0; i < p->nwarnings; i++)
		free(p->warnings[i]);
	free(p->sel);
	free(p->sets);
	free(p->warnings);
	fqdn_policy_init(p);
}

/* Room for one more selector (sel and sets grow together). */
static int policy_grow(struct fqdn_policy *p)
{
	size_t cap = p->cap ? 2 * p->cap : 64;
	struct fqdn_selector *sel;
	unsigned *sets;

	if (p->n < p->cap)
		return 0;
	sel = realloc(p->sel, cap * sizeof(*sel));
	if (sel == NULL)
		return -1;
	p->sel = sel;
	sets = realloc(p->sets, cap * sizeof(*sets));
	if (sets == NULL)
		return -1;
	p->sets = sets;
	p->cap = cap;
	return 0;
}

/* Count (d = +1) or uncount (d = -1: size_t arithmetic wraps, so adding
 * (size_t)-1 subtracts one) a selector of `kind` in `sets`. */
static void counts_add(struct fqdn_policy *p, enum fqdn_kind kind,
		       unsigned sets, int d)
{
	struct fqdn_counts *in[2] = {&p->l3, &p->l7};
	unsigned bit[2] = {FQDN_SET_L3, FQDN_SET_L7};

	if (kind == FQDN_MATCH_NAME)
		p->nnames += (size_t)d;
	else
		p->npatterns += (size_t)d;
	for (int k = 0; k < 2; k++) {
		if (!(sets & bit[k]))
			continue;
		in[k]->n += (size_t)d;
		if (kind == FQDN_MATCH_NAME)
			in[k]->nnames += (size_t)d;
		else
			in[k]->npatterns += (size_t)d;
	}
}

int fqdn_policy_add_to(struct fqdn_policy *p, unsigned sets,
		       enum fqdn_kind kind, const char *s, size_t len,
		       long line)
{
	struct fqdn_selector *sel;

	if (policy_grow(p) != 0)
		return -1;
	sel = &p->sel[p->n];
	sel->text = bytes_dup(s, len);
	if (sel->text == NULL)
		return -1;
	sel->kind = kind;
	sel->len = len;
	sel->line = line;
	p->sets[p->n] = sets & FQDN_SET_ALL;
	p->nsets = ++p->n;
	counts_add(p, kind, sets, +1);
	return 0;
}

int fqdn_policy_add(struct fqdn_policy *p, enum fqdn_kind kind, const char *s,
		    size_t len, long line)
{
	return fqdn_policy_add_to(p, FQDN_SET_ALL, kind, s, len, line);
}

void fqdn_policy_truncate(struct fqdn_policy *p, size_t n)
{
	while (p->n > n) {
		struct fqdn_selector *s = &p->sel[--p->n];
		counts_add(p, s->kind, fqdn_selector_sets(p, p->n), -1);
		free(s->text);
	}
	if (p->nsets > p->n)
		p->nsets = p->n;
}

int fqdn_policy_select(const struct fqdn_policy *p, unsigned set,
		       struct fqdn_policy *out)
{
	fqdn_policy_init(out);
	out->cilium = p->cilium;
	out->l7_selectors = p->l7_selectors;
	for (size_t i = 0; i < p->n; i++) {
		const struct fqdn_selector *s = &p->sel[i];
		unsigned in = fqdn_selector_sets(p, i) & set;
		if (in != 0 &&
		    fqdn_policy_add_to(out, in, s->kind, s->text, s->len,
				       s->line) != 0) {
			fqdn_policy_release(out);
			return -1;
		}
	}
	return 0;
}

static int dns_char(unsigned char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       (c >= '0' && c <= '9') || c == '-' || c == '_';
}

static const char *kind_name(enum fqdn_kind kind)
{
	return kind == FQDN_MATCH_NAME ? "matchName" : "matchPattern";
}

/* Room for sel_quote's text: 64 bytes, each written \xNN at most. */
#define FQDN_QUOTE_MAX (4 * 64 + 3)
/* ... and for the quotes, a long one's tail and length around it */
#define FQDN_QUOTED_MAX (FQDN_QUOTE_MAX + 80)

/*
 * s quoted for a message: 'text' when short, else its first 40 and last
 * 8 bytes around "..." and its length ("'aaa...aaa' (300 bytes)").
 * Control bytes, and when s is not UTF-8 the bytes above 0x7e, are
 * written \xNN (msg_quote_text), as a scan pattern's are.
 */
static const char *sel_quote(char *buf, size_t size, const char *s,
			     size_t len)
{
	char head[FQDN_QUOTE_MAX], tail[40];

	if (len <= 64) {
		msg_quote_text(s, len, len, head, sizeof(head));
		snprintf(buf, size, "'%s'", head);
	} else {
		msg_quote_text(s, 40, 40, head, sizeof(head));
		msg_quote_text(s + len - 8, 8, 8, tail, sizeof(tail));
		snprintf(buf, size, "'%s...%s' (%zu bytes)", head, tail, len);
	}
	return buf;
}

/* The offset of the first byte Cilium's agent refuses in s, or len. */
static size_t first_bad_byte(enum fqdn_kind kind, const char *s, size_t len)
{
	for (size_t i = 0; i < len; i++) {
		unsigned char c = (unsigned char)s[i];
		if (!dns_char(c) && c != '.' &&
		    !(c == '*' && kind == FQDN_MATCH_PATTERN))
			return i;
	}
	return len;
}

/* The reason byte i of s is refused, into msg. */
static void bad_char(enum fqdn_kind kind, const char *s, size_t len,
		     size_t i, char *msg, size_t msgsize)
{
	unsigned char c = (unsigned char)s[i];
	char q[FQDN_QUOTED_MAX];

	sel_quote(q, sizeof(q), s, len);
	if (c >= ' ' && c < 0x7f)
		snprintf(msg, msgsize, "%s %s: character '%c' is not allowed "
			 "(letters, digits, '-', '_', '.'%s)", kind_name(kind),
			 q, c, " and '*' in a matchPattern");
	else
		snprintf(msg, msgsize, "%s %s: byte 0x%02x at offset %zu is "
			 "not allowed in a DNS name", kind_name(kind), q, c, i);
}

/*
 * Where s (of allowed bytes only) breaks the CRD pattern
 * ^([-a-zA-Z0-9_]+[.]?)+$ (with '*' in the class for a matchPattern):
 * the offset of a leading dot or of the second dot of "..", or len when
 * it matches.
 */
static size_t crd_break(const char *s, size_t len)
{
	if (len > 0 && s[0] == '.')
		return 0;
	for (size_t i = 1; i < len; i++)
		if (s[i] == '.' && s[i - 1] == '.')
			return i;
	return len;
}

/* What only the CRD schema refuses in s: FQDN_SEL_CRD with msg, or OK. */
static enum fqdn_judgement judge_crd(enum fqdn_kind kind, const char *s,
				     size_t len, enum fqdn_cilium v,
				     char *msg, size_t msgsize)
{
	const char *what = kind_name(kind), *ver = fqdn_cilium_name(v);
	size_t at = crd_break(s, len);
	char q[FQDN_QUOTED_MAX];

	sel_quote(q, sizeof(q), s, len);
	if (v == FQDN_CILIUM_1_19 && len > FQDN_SELECTOR_MAX) {
		snprintf(msg, msgsize, "%s %s is refused by Cilium %s's CRD "
			 "schema (maxLength %d); its agent's code accepts it",
			 what, q, ver, FQDN_SELECTOR_MAX);
		return FQDN_SEL_CRD;
	}
	if (at == len)
		return FQDN_SEL_OK;
	snprintf(msg, msgsize, "%s %s is refused by Cilium %s's CRD schema "
		 "(pattern %s: %s at offset %zu); its agent's code accepts it",
		 what, q, ver, kind == FQDN_MATCH_NAME
				       ? "^([-a-zA-Z0-9_]+[.]?)+$"
				       : "^([-a-zA-Z0-9_*]+[.]?)+$",
		 at == 0 ? "a leading dot" : "an empty label", at);
	return FQDN_SEL_CRD;
}

enum fqdn_judgement fqdn_selector_judge(enum fqdn_kind kind, const char *s,
					size_t len, enum fqdn_cilium v,
					char *msg, size_t msgsize)
{
	const char *what = kind_name(kind);
	size_t bad;
	char q[FQDN_QUOTED_MAX];

	sel_quote(q, sizeof(q), s, len);
	if (len == 0) {
		snprintf(msg, msgsize, "empty %s", what);
		return FQDN_SEL_REFUSED;
	}
	if (len > FQDN_SELECTOR_HARD_MAX) {
		snprintf(msg, msgsize, "%s %s: no CiliumNetworkPolicy can hold "
			 "it (Kubernetes keeps objects of at most 1.5 MiB)",
			 what, q);
		return FQDN_SEL_REFUSED;
	}
	/* 1.19's matchpattern.prevalidate: the length, then the bytes */
	if (v == FQDN_CILIUM_1_19 && kind == FQDN_MATCH_PATTERN &&
	    len > FQDN_SELECTOR_MAX) {
		snprintf(msg, msgsize, "%s %s is longer than %d bytes: Cilium "
			 "1.19's agent refuses it (matchpattern.MaxFQDNLength)",
			 what, q, FQDN_SELECTOR_MAX);
		return FQDN_SEL_REFUSED;
	}
	bad = first_bad_byte(kind, s, len);
	if (bad < len) {
		bad_char(kind, s, len, bad, msg, msgsize);
		return FQDN_SEL_REFUSED;
	}
	return judge_crd(kind, s, len, v, msg, msgsize);
}

int fqdn_selector_check(enum fqdn_kind kind, const char *s, size_t len,
			char *msg, size_t msgsize)
{
	if (fqdn_selector_judge(kind, s, len, FQDN_CILIUM_1_19, msg,
				msgsize) != FQDN_SEL_OK ||
	    fqdn_selector_judge(kind, s, len, FQDN_CILIUM_1_11, msg,
				msgsize) != FQDN_SEL_OK)
		return -1;
	return 0;
}

void fqdn_tlds_release(char **tlds, long n, int from_psl)
{
	if (!from_psl)
		return;
	for (long i = 0; i < n; i++)
		free(tlds[i]);
	free(tlds);
}

/* A public suffix rule usable as a TLD: ASCII DNS characters and dots. */
static int psl_usable(const char *s, size_t len)
{
	char msg[8];

	return len > 0 && fqdn_selector_check(FQDN_MATCH_NAME, s, len, msg,
					      sizeof(msg)) == 0;
}

/* Each usable rule of the list; -1 out of memory. */
static long psl_parse(const struct corpus *c, char ***out)
{
	struct line *lines = NULL;
	long nl = corpus_lines(c, &lines), n = 0;
	char **v = nl > 0 ? calloc((size_t)nl, sizeof(*v)) : NULL;

	for (long i = 0; v != NULL && i < nl; i++) {
		const char *p = lines[i].p;
		size_t len = strcspn(p, " \t\r\n");
		if (len > lines[i].len)
			len = lines[i].len;
		if (!psl_usable(p, len))
			continue; /* comments, blank, wildcard and IDN rules */
		v[n] = strndup(p, len);
		if (v[n++] == NULL) {
			fqdn_tlds_release(v, n, 1);
			v = NULL;
		}
	}
	free(lines);
	*out = v;
	return v == NULL ? -1 : n;
}

long fqdn_tlds_load(const char *psl_path, char ***tlds, int *from_psl)
{
	struct corpus c;
	char err[256];
	long n = 0;

	*from_psl = 0;
	if (psl_path != NULL &&
	    corpus_load_file(&c, psl_path, err, sizeof(err)) == 0) {
		n = psl_parse(&c, tlds);
		corpus_release(&c);
		if (n < 0)
			return -1;
		if (n > 0) {
			*from_psl = 1;
			return n;
		}
		free(*tlds);
	}
	*tlds = builtin_tlds;
	return (long)(sizeof(builtin_tlds) / sizeof(builtin_tlds[0]));
}

/* A random lowercase label of 8 to 15 letters into buf. */
static int rand_label(struct rng *r, char *buf)
{
	int len = 8 + (int)rng_below(r, 8);

	for (int i = 0; i < len; i++)
		buf[i] = (char)('a' + rng_below(r, 26));
	buf[len] = '\0';
	return len;
}

/* Selector `kind` (0-4, see fqdn_policy_generate) into buf. */
static int gen_selector(struct rng *r, int shape, const char *tld, char *buf,
			size_t size)
{
	char l[16];

	rand_label(r, l);
	switch (shape) {
	case 1:
		return snprintf(buf, size, "*.%s.domain.%s", l, tld);
	case 2:
		return snprintf(buf, size, "*.*.%s.domain.%s", l, tld);
	case 3:
		return snprintf(buf, size, "*%s.domain.%s", l, tld);
	case 4:
		return snprintf(buf, size, "%s*.domain.%s", l, tld);
	default:
		return snprintf(buf, size, "%s." LONG_DOMAIN ".%s", l, tld);
	}
}

/* Shapes 0 (60%), 1-4 (10% each) for n selectors, shuffled. */
static unsigned char *gen_shapes(struct rng *r, size_t n)
{
	unsigned char *shape = malloc(n ? n : 1);

	if (shape == NULL)
		return NULL;
	for (size_t i = 0; i < n; i++) {
		size_t tenth = (i * 10) / n; /* 0..9, evenly spread */
		shape[i] = (unsigned char)(tenth < 6 ? 0 : tenth - 5);
	}
	for (size_t i = n; i > 1; i--) {
		size_t j = (size_t)rng_below(r, i);
		unsigned char t = shape[i - 1];
		shape[i - 1] = shape[j];
		shape[j] = t;
	}
	return shape;
}

int fqdn_policy_generate(struct fqdn_policy *p, size_t n, uint64_t seed,
			 char *const *tlds, long ntlds)
{
	struct rng r;
	unsigned char *shape;
	char buf[512];
	int rc = 0;

	rng_init(&r, seed);
	shape = gen_shapes(&r, n);
	if (shape == NULL || ntlds <= 0) {
		free(shape);
		return -1;
	}
	for (size_t i = 0; i < n && rc == 0; i++) {
		const char *tld = tlds[rng_below(&r, (uint64_t)ntlds)];
		int len = gen_selector(&r, shape[i], tld, buf, sizeof(buf));
		if (len <= 0 || (size_t)len >= sizeof(buf)) {
			rc = -1;
			break;
		}
		if (len > FQDN_NAME_MAX)
			len = FQDN_NAME_MAX; /* cannot happen with real TLDs */
		rc = fqdn_policy_add(p, shape[i] ? FQDN_MATCH_PATTERN
						 : FQDN_MATCH_NAME,
				     buf, (size_t)len, 0);
	}
	free(shape);
	return rc;
}

void fqdn_queries_init(struct fqdn_queries *q)
{
	memset(q, 0, sizeof(*q));
}

void fqdn_queries_release(struct fqdn_queries *q)
{
	for (size_t i = 0; i < q->n; i++)
		free(q->name[i]);
	free(q->name);
	free(q->len);
	fqdn_queries_init(q);
}

int fqdn_queries_add(struct fqdn_queries *q, const char *s, size_t len)
{
	if (q->n == q->cap) {
		size_t cap = q->cap ? 2 * q->cap : 64;
		char **name = realloc(q->name, cap * sizeof(*name));
		size_t *l;
		if (name == NULL)
			return -1;
		q->name = name;
		l = realloc(q->len, cap * sizeof(*l));
		if (l == NULL)
			return -1;
		q->len = l;
		q->cap = cap;
	}
	q->name[q->n] = bytes_dup(s, len);
	if (q->name[q->n] == NULL)
		return -1;
	q->len[q->n++] = len;
	if (len > q->maxlen)
		q->maxlen = len;
	return 0;
}

/* One query being built, in a buffer qbuf_room() makes big enough. */
struct qbuf {
	char *b;
	size_t n, cap;
};

/*
 * Room for any query of p: a selector may be longer than any DNS name
 * (1.11 has no limit), a star becomes at most 8 bytes, and a query adds
 * at most "nope.nop.nop.nop.", ".bar<i>s" and the final dot.
 */
static size_t qbuf_room(const struct fqdn_policy *p)
{
	size_t room = 0;

	for (size_t i = 0; i < p->n; i++) {
		const struct fqdn_selector *s = &p->sel[i];
		size_t n = s->len;
		for (size_t k = 0; k < s->len; k++)
			n += s->text[k] == '*' ? 7 : 0;
		if (n > room)
			room = n;
	}
	return room + 64;
}

static void qb_put(struct qbuf *b, const char *s, size_t len)
{
	if (len > b->cap - 1 - b->n)
		len = b->cap - 1 - b->n; /* qbuf_room: never */
	memcpy(b->b + b->n, s, len);
	b->n += len;
	b->b[b->n] = '\0';
}

/* The selector with every '*' replaced by `fill` (or random characters). */
static void qb_fill(struct qbuf *b, const struct fqdn_selector *s,
		    const char *fill, struct rng *r)
{
	static const char chars[] = "abcdefghijklmnopqrstuvwxyz0123456789-_";

	for (size_t i = 0; i < s->len; i++) {
		if (s->text[i] != '*') {
			qb_put(b, &s->text[i], 1);
			continue;
		}
		if (fill != NULL) {
			qb_put(b, fill, strlen(fill));
			continue;
		}
		for (uint64_t k = 1 + rng_below(r, 8); k > 0; k--)
			qb_put(b, &chars[rng_below(r, sizeof(chars) - 1)], 1);
	}
}

static void qb_fqdn(struct qbuf *b)
{
	if (b->n == 0 || b->b[b->n - 1] != '.')
		qb_put(b, ".", 1);
}

/* One in eight queries is sent in mixed case, as resolvers may do (0x20). */
static void qb_mixcase(struct qbuf *b, struct rng *r)
{
	if (rng_below(r, 8) != 0)
		return;
	for (size_t i = 0; i < b->n; i++)
		if (b->b[i] >= 'a' && b->b[i] <= 'z' && rng_below(r, 2))
			b->b[i] = (char)(b->b[i] - 'a' + 'A');
}

/* Query i of set `which` made from selector s. */
static void gen_query(struct qbuf *b, const struct fqdn_selector *s,
		      enum fqdn_qset which, size_t i, struct rng *r)
{
	char tld[32];

	b->n = 0;
	b->b[0] = '\0';
	switch (which) {
	case FQDN_Q_MATCH_NAME:
		qb_fill(b, s, "", r);
		break;
	case FQDN_Q_MATCH_PATTERN:
		if (s->len == 1 && s->text[0] == '*')
			qb_put(b, "any.example.com", 15); /* the match-all */
		else
			qb_fill(b, s, NULL, r);
		break;
	case FQDN_Q_BAD_PATTERN:
		qb_put(b, "nope.nop.nop.nop.", 17);
		qb_fill(b, s, "bar.hmm", r);
		break;
	default:
		qb_fill(b, s, "bar", r);
		if (b->n > 0 && b->b[b->n - 1] == '.')
			b->n--;
		snprintf(tld, sizeof(tld), ".bar%zus", i);
		qb_put(b, tld, strlen(tld));
		break;
	}
	qb_fqdn(b);
	if (which == FQDN_Q_MATCH_NAME || which == FQDN_Q_MATCH_PATTERN)
		qb_mixcase(b, r);
}

/* The selectors a set is made from: names, patterns, or all. */
static int qset_uses(enum fqdn_qset which, const struct fqdn_selector *s)
{
	if (which == FQDN_Q_MATCH_NAME)
		return s->kind == FQDN_MATCH_NAME;
	if (which == FQDN_Q_MATCH_PATTERN)
		return s->kind == FQDN_MATCH_PATTERN;
	return 1;
}

int fqdn_queries_generate(struct fqdn_queries *q, const struct fqdn_policy *p,
			  enum fqdn_qset which, uint64_t seed)
{
	struct rng r;
	struct qbuf b = {NULL, 0, 0};
	size_t j = 0, made = 0;
	int rc = 0;

	rng_init(&r, seed ^ (0x51ed2701u + (uint64_t)which));
	if (p->n == 0 || (which == FQDN_Q_MATCH_NAME && p->nnames == 0) ||
	    (which == FQDN_Q_MATCH_PATTERN && p->npatterns == 0))
		return 0;
	b.cap = qbuf_room(p);
	b.b = malloc(b.cap);
	if (b.b == NULL)
		return -1;
	while (made < p->n && rc == 0) {
		const struct fqdn_selector *s = &p->sel[j++ % p->n];
		if (!qset_uses(which, s))
			continue;
		gen_query(&b, s, which, made, &r);
		rc = fqdn_queries_add(q, b.b, b.n);
		made++;
	}
	free(b.b);
	return rc;
}

/* printf into err, prefixed with "path:line: ". Returns -1. */
static int fail_at(char *err, size_t errsize, const char *path, long line,
		   const char *fmt, ...)
{
	va_list ap;
	int w = snprintf(err, errsize, "%s:%ld: ", path, line);

	if (w < 0 || (size_t)w >= errsize)
		return -1;
	va_start(ap, fmt);
	vsnprintf(err + w, errsize - (size_t)w, fmt, ap);
	va_end(ap);
	msg_escape_controls(err, errsize);
	return -1;
}

int fqdn_policy_warn(struct fqdn_policy *p, const char *path, long line,
		     const char *fmt, ...)
{
	char msg[1024], **grown;
	va_list ap;
	int w = snprintf(msg, sizeof(msg), "%s:%ld: ", path, line);

	p->nwarnings_total++;
	if (p->nwarnings >= FQDN_WARNINGS_KEPT)
		return 0;
	if (w > 0 && (size_t)w < sizeof(msg)) {
		va_start(ap, fmt);
		vsnprintf(msg + w, sizeof(msg) - (size_t)w, fmt, ap);
		va_end(ap);
	}
	msg_escape_controls(msg, sizeof(msg));
	grown = realloc(p->warnings, (p->nwarnings + 1) * sizeof(*grown));
	if (grown == NULL)
		return -1;
	p->warnings = grown;
	p->warnings[p->nwarnings] = strdup(msg);
	if (p->warnings[p->nwarnings] == NULL)
		return -1;
	p->nwarnings++;
	return 0;
}

/* A 1.19 DNS wildcard ("*", "**.": stars and at most a final dot), which
 * matchpattern.Sanitize leaves as it is. */
static int all_stars(const char *s, size_t len)
{
	size_t i = 0;

	if (len > 0 && s[len - 1] == '.')
		len--;
	while (i < len && s[i] == '*')
		i++;
	return len > 0 && i == len;
}

/*
 * The length of what the 1.19 name manager's FQDNSelector.ToRegex hands
 * matchpattern.Validate: a matchName through dns.FQDN, a matchPattern
 * through Sanitize (a DNS wildcard kept, else dns.FQDN); both add a final
 * dot when there is none (a selector holds no backslash to escape it).
 */
static size_t l3_length(enum fqdn_kind kind, const char *s, size_t len)
{
	if (kind == FQDN_MATCH_PATTERN && all_stars(s, len))
		return len;
	return len + (len == 0 || s[len - 1] != '.');
}

/*
 * Under 1.19, *sets without FQDN_SET_L3 when the name manager drops s
 * (its qualified form over FQDN_SELECTOR_MAX), with a warning.  0, or -1
 * out of memory.
 */
static int l3_drop(struct fqdn_policy *p, const char *path, long line,
		   enum fqdn_kind kind, const char *s, size_t len,
		   unsigned *sets)
{
	size_t q = l3_length(kind, s, len);
	char quoted[FQDN_QUOTED_MAX];

	if (!(*sets & FQDN_SET_L3) || p->cilium != FQDN_CILIUM_1_19 ||
	    q <= FQDN_SELECTOR_MAX)
		return 0;
	*sets &= ~(unsigned)FQDN_SET_L3;
	return fqdn_policy_warn(p, path, line, "%s %s is left out of the "
				"toFQDNs (L3) set: Cilium 1.19's name manager "
				"drops it (ToRegex: %zu bytes once qualified, "
				"more than %d)", kind_name(kind),
				sel_quote(quoted, sizeof(quoted), s, len), q,
				FQDN_SELECTOR_MAX);
}

int fqdn_policy_take(struct fqdn_policy *p, const char *path, long line,
		     unsigned sets, enum fqdn_kind kind, const char *s,
		     size_t len, char *err, size_t errsize)
{
	char msg[512];
	enum fqdn_judgement j = fqdn_selector_judge(kind, s, len, p->cilium,
						    msg, sizeof(msg));

	if (j == FQDN_SEL_REFUSED)
		return fail_at(err, errsize, path, line, "%s", msg);
	if ((j == FQDN_SEL_CRD &&
	     fqdn_policy_warn(p, path, line, "%s", msg) != 0) ||
	    l3_drop(p, path, line, kind, s, len, &sets) != 0)
		return fail_at(err, errsize, path, line, "out of memory");
	if ((sets & FQDN_SET_ALL) == 0) {
		p->ndropped++;
		return 0;
	}
	if (fqdn_policy_add_to(p, sets, kind, s, len, line) != 0)
		return fail_at(err, errsize, path, line, "out of memory");
	return 0;
}

/* The line without leading and trailing blanks. */
static struct line trim_blanks(struct line l)
{
	while (l.len > 0 && (l.p[0] == ' ' || l.p[0] == '\t')) {
		l.p++;
		l.len--;
	}
	while (l.len > 0 && (l.p[l.len - 1] == ' ' || l.p[l.len - 1] == '\t'))
		l.len--;
	return l;
}

/* The line trimmed of blanks; len 0 for blank and '#' comment lines. */
static struct line trim_line(struct line l)
{
	l = trim_blanks(l);
	if (l.len > 0 && l.p[0] == '#')
		l.len = 0;
	return l;
}

/*
 * YAML when a line that is no '#' comment holds ':'.  A selector never
 * holds one (fqdn_selector_judge) and a policy cannot name a selector
 * without one (matchName:, matchPattern:, flow style too), so a list,
 * whatever its lines start with ("-", "--x.com", "---"), is a list, and a
 * YAML file without ':' would have given no selector anyway.
 */
static int looks_like_yaml(const struct line *lines, long n)
{
	for (long i = 0; i < n; i++) {
		struct line l = trim_line(lines[i]);
		if (l.len > 0 && memchr(l.p, ':', l.len) != NULL)
			return 1;
	}
	return 0;
}

/* The plain list: one selector per line, '*' makes it a matchPattern,
 * every one in both sets. */
static int parse_list(struct fqdn_policy *p, const char *path,
		      const struct line *lines, long n, char *err,
		      size_t errsize)
{
	for (long i = 0; i < n; i++) {
		struct line l = trim_line(lines[i]);
		enum fqdn_kind k;
		if (l.len == 0)
			continue;
		k = memchr(l.p, '*', l.len) ? FQDN_MATCH_PATTERN
					    : FQDN_MATCH_NAME;
		if (fqdn_policy_take(p, path, i + 1, FQDN_SET_ALL, k, l.p,
				     l.len, err, errsize) != 0)
			return -1;
	}
	return 0;
}

int fqdn_policy_parse(struct fqdn_policy *p, const char *path,
		      const char *data, size_t len, char *err, size_t errsize)
{
	struct corpus c = {(char *)data, len};
	struct line *lines = NULL;
	long n = corpus_lines(&c, &lines);
	int rc;

	if (n < 0)
		return fail_at(err, errsize, path, 1, "out of memory");
	if (looks_like_yaml(lines, n))
		rc = fqdn_policy_parse_yaml(p, path, data, len, err, errsize);
	else
		rc = parse_list(p, path, lines, n, err, errsize);
	free(lines);
	if (rc == 0 && p->n == 0 && p->ndropped > 0)
		rc = fail_at(err, errsize, path, n > 0 ? n : 1,
			     "no selector left: Cilium %s leaves each of the "
			     "%zu in the file out of every set (see the "
			     "warnings)", fqdn_cilium_name(p->cilium),
			     p->ndropped);
	else if (rc == 0 && p->n == 0)
		rc = fail_at(err, errsize, path, n > 0 ? n : 1,
			     "empty policy: no matchName or matchPattern "
			     "selector in the file");
	return rc;
}

int fqdn_policy_load(struct fqdn_policy *p, const char *path, char *err,
		     size_t errsize)
{
	struct corpus c;
	int rc;

	if (corpus_load_file(&c, path, err, errsize) != 0)
		return -1;
	rc = fqdn_policy_parse(p, path, c.data, c.len, err, errsize);
	corpus_release(&c);
	return rc;
}

/*
 * The lines of c, bytes exact: cut at each LF, which is not part of a
 * line; a CR before it is kept; a last line without LF counts, and a file
 * that ends with LF has no empty line after it.  The count, or -1 out of
 * memory (*out malloc'd).
 */
static long exact_lines(const struct corpus *c, struct line **out)
{
	size_t n = 0, cap = 64;
	struct line *v = malloc(cap * sizeof(*v));
	const char *p = c->data, *end = c->data + c->len;

	while (v != NULL && p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t len = nl ? (size_t)(nl - p) : (size_t)(end - p);
		if (n == cap) {
			struct line *grown = realloc(v, 2 * cap * sizeof(*v));
			if (grown == NULL)
				break;
			v = grown;
			cap *= 2;
		}
		v[n++] = (struct line){p, len};
		p += len + (nl != NULL);
	}
	if (v != NULL && p < end) {
		free(v);
		v = NULL;
	}
	*out = v;
	return v == NULL ? -1 : (long)n;
}

int fqdn_queries_load(struct fqdn_queries *q, const char *path, char *err,
		      size_t errsize)
{
	struct corpus c;
	struct line *lines = NULL;
	long n;
	int rc = 0;

	if (corpus_load_file(&c, path, err, errsize) != 0)
		return -1;
	n = exact_lines(&c, &lines);
	if (n < 0)
		rc = fail_at(err, errsize, path, 1, "out of memory");
	for (long i = 0; i < n && rc == 0; i++) {
		if (lines[i].len > FQDN_QUERY_HARD_MAX)
			rc = fail_at(err, errsize, path, i + 1, "query name of "
				     "%zu bytes: no DNS message can carry it "
				     "(at most %d)", lines[i].len,
				     FQDN_QUERY_HARD_MAX);
		else if (fqdn_queries_add(q, lines[i].p, lines[i].len) != 0)
			rc = fail_at(err, errsize, path, i + 1, "out of memory");
	}
	if (rc == 0 && q->n == 0)
		rc = fail_at(err, errsize, path, 1, "no query names in the "
			     "file (it is empty)");
	free(lines);
	corpus_release(&c);
	return rc;
}

/* --- the Kubernetes-shaped generator --- */

static const char *const k8s_words[] = {
	"api", "web", "db", "cache", "queue", "auth", "search", "billing",
	"orders", "users", "cart", "inventory", "notify", "metrics", "gateway",
	"frontend", "backend", "worker", "scheduler", "redis", "postgres",
	"kafka", "elastic", "grafana", "prometheus", "loki", "vault", "keycloak",
};
static const char *const k8s_namespaces[] = {
	"default", "kube-system", "monitoring", "payments", "checkout", "auth",
	"data", "ingress", "logging", "ml", "platform", "staging",
};
static const char *const k8s_regions[] = {
	"us-east-1", "us-west-2", "eu-west-1", "eu-central-1", "ap-south-1",
};
/* Cloud endpoints as policies allow them. */
static const char *const k8s_cloud_patterns[] = {
	"*.googleapis.com", "*.s3.amazonaws.com", "*.blob.core.windows.net",
	"*.azurecr.io", "*.amazonaws.com", "*.gcr.io", "*.docker.io",
	"*.cloudfront.net", "*.pkg.dev", "*.servicebus.windows.net",
};
/* Exact external services. */
static const char *const k8s_external[] = {
	"api.github.com", "registry-1.docker.io", "auth.docker.io",
	"storage.googleapis.com", "oauth2.googleapis.com", "sts.amazonaws.com",
	"api.stripe.com", "hooks.slack.com", "login.microsoftonline.com",
	"quay.io", "ghcr.io", "pypi.org", "files.pythonhosted.org",
	"registry.npmjs.org", "proxy.golang.org",
};

#define K8S_PICK(r, list) \
	(list)[rng_below((r), sizeof(list) / sizeof((list)[0]))]

/* A service name: a word, a dash and a number ("orders-17"). */
static void k8s_service(struct rng *r, char *buf, size_t size)
{
	snprintf(buf, size, "%s-%u", K8S_PICK(r, k8s_words),
		 (unsigned)rng_below(r, 1000));
}

/* Selector i of the Kubernetes shape into buf; *pattern says its kind. */
static int k8s_selector(struct rng *r, size_t i, char *buf, size_t size,
			int *pattern)
{
	const char *ns = K8S_PICK(r, k8s_namespaces);
	const char *region = K8S_PICK(r, k8s_regions);
	uint64_t roll = rng_below(r, 100);
	char svc[48];

	k8s_service(r, svc, sizeof(svc));
	*pattern = 1;
	if (i % 250 == 249)
		return snprintf(buf, size, "*");
	if (roll < 10)
		return snprintf(buf, size, "*.%s.svc.cluster.local", ns);
	if (roll < 12)
		return snprintf(buf, size, "*.*.svc.cluster.local");
	if (roll < 14)
		return snprintf(buf, size, "*.*.*.cluster.local");
	if (roll < 17)
		return snprintf(buf, size, "**.%s.svc.cluster.local", ns);
	if (roll < 22)
		return snprintf(buf, size, "*.s3.%s.amazonaws.com", region);
	if (roll < 27)
		return snprintf(buf, size, "%s", K8S_PICK(r, k8s_cloud_patterns));
	*pattern = 0;
	if (roll < 62)
		return snprintf(buf, size, "%s.%s.svc.cluster.local", svc, ns);
	if (roll < 72)
		return snprintf(buf, size, "%s.s3.%s.amazonaws.com", svc, region);
	if (roll < 80)
		return snprintf(buf, size, "%s.%s.rds.amazonaws.com", svc,
				region);
	if (roll < 90)
		return snprintf(buf, size, "%s", K8S_PICK(r, k8s_external));
	return snprintf(buf, size, "%s.example-corp.com", svc);
}

int fqdn_policy_generate_k8s(struct fqdn_policy *p, size_t n, uint64_t seed)
{
	struct rng r;
	char buf[256];
	int rc = 0;

	rng_init(&r, seed ^ 0x6b38735fu);
	for (size_t i = 0; i < n && rc == 0; i++) {
		int pattern;
		int len = k8s_selector(&r, i, buf, sizeof(buf), &pattern);
		if (len <= 0 || (size_t)len >= sizeof(buf))
			return -1;
		rc = fqdn_policy_add(p, pattern ? FQDN_MATCH_PATTERN
						: FQDN_MATCH_NAME,
				     buf, (size_t)len, 0);
	}
	return rc;
}

int fqdn_policy_generate_cilium(struct fqdn_policy *p, size_t n)
{
	size_t npat = n * 30 / 630 ? n * 30 / 630 : 1;
	char buf[96];

	for (size_t i = 0; i < n; i++) {
		int pat = i < npat;
		int len = pat ? snprintf(buf, sizeof(buf),
					 "*.bar%zuanother.very.long.domain.here",
					 i)
			      : snprintf(buf, sizeof(buf), "%zuvery.long.domain."
					 "containing.a.lot.of.chars", i - npat);
		if (fqdn_policy_add(p, pat ? FQDN_MATCH_PATTERN : FQDN_MATCH_NAME,
				    buf, (size_t)len, 0) != 0)
			return -1;
	}
	return 0;
}

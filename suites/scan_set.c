/*
 * scan_set.c - the scan suite's set model (--model set): every pattern at
 * once, as a grep user runs a patterns file (grep -f, RE2::Set, a
 * Hyperscan database, PCRE2 in a loop).
 *
 * One case per engine: the whole set compiled once, with --flags for
 * every pattern.  An engine that lacks a capability one pattern needs, or
 * refuses one, runs none of them: grep -f too takes the file whole or
 * not at all.  Its answer, on each corpus line (the grep model's: without
 * its '\n', a '\r' before it kept), is which patterns match the line
 * (match_ids): the lines any pattern matches, the lines is_match says
 * match, and per pattern the lines it matches, each count with a digest
 * of the line numbers behind it, so that a right count on wrong lines is
 * no agreement.  The answer is in parts (suites/case.h), part 0 the
 * match-any lines and part 1 + i pattern i's; each part is verified alone
 * against the reference run pattern by pattern on every line where the
 * reference reaches the pattern (part 0 where it reaches every one), else
 * by a strict majority of at least three libraries, else unverified.
 *
 * The timed op is match_ids on every line: both answers at once.  An
 * engine without a native set (engine_set_native(): re2, hyperscan and
 * rust-regex have one) has the adapter's own loop, each pattern tried in
 * turn on the line (engines/inturn.h; a runner's loop in its language);
 * the row's input "set" says which.  No alternation is built: joined as
 * (?:a)|(?:b) patterns change meaning (backreference numbers, (?|...),
 * repeated group names), and one match of the alternation says nothing
 * of the other patterns.
 */
#define _GNU_SOURCE
#include "suites/scan_int.h"

#include "harness/interrupt.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Answers are asked in batches of lines of about this many id bytes (a
 * runner's in one request each). */
#define SET_BATCH ((size_t)16 << 20)

/* One part of a set's answer: compared as bytes, so padding is zero. */
struct set_part {
	unsigned char set;     /* enum case_part */
	unsigned char pad[7];
	long lines;            /* lines matched (part 0: by any pattern) */
	long is_match;         /* part 0: lines is_match says match; else 0 */
	uint64_t digest;       /* of those lines' numbers: set_digest() */
};

struct scan_set {
	struct case_ops ops;       /* the set's, sized to it */
	struct engine_pattern *ep; /* r->pats' patterns, in order */
	unsigned *needs;           /* each pattern's capabilities */
	size_t n;
	unsigned flags;            /* the set's (--flags) */
	unsigned char *ids;        /* n bytes: match_ids' out, per op */
	char name[200];            /* the patterns= level */
};

/*
 * The digest of a part's lines: FNV-1a's 64-bit step on each line's
 * number (1 for the first), in order: h = (h ^ line) * 0x100000001b3 from
 * 0xcbf29ce484222325 (tests/test_scan_set.sh computes it the same way).
 */
#define SET_DIGEST_START UINT64_C(0xcbf29ce484222325)

static void set_digest(struct set_part *p, long line)
{
	p->lines++;
	p->digest = (p->digest ^ (uint64_t)(line + 1)) *
		    UINT64_C(0x100000001b3);
}

static struct set_part *set_parts(const void *answer)
{
	return (struct set_part *)answer;
}

/* Part k opened: answered, nothing counted yet. */
static void set_open(struct set_part *p)
{
	memset(p, 0, sizeof(*p));
	p->set = CASE_PART_SET;
	p->digest = SET_DIGEST_START;
}

/* "pattern 3 (rules.txt:7: `a+b`)", "pattern 2 (`a+b`)": pattern i. */
static void set_pattern_text(const struct scan_run *r, size_t i, char *buf,
			     size_t size)
{
	const struct scan_pattern *p = &r->pats[i];
	char shown[300], where[300] = "";

	scan_pattern_shown(p, shown, sizeof(shown));
	if (p->file != NULL)
		snprintf(where, sizeof(where), "%s:%ld: ", p->file, p->line);
	snprintf(buf, size, "pattern %zu (%s`%s`)", i + 1, where, shown);
	msg_escape_controls(buf, size);
}

/* --- answers --------------------------------------------------------- */

/* Line i's ids (n bytes) and is_match m into the parts; any: k > 0. */
static void set_tally(struct set_part *parts, size_t n, long i, long k,
		      int m, const unsigned char *ids)
{
	const unsigned char *q = ids, *end = ids + n;

	if (k > 0)
		set_digest(&parts[0], i);
	parts[0].is_match += m;
	while (q < end && (q = memchr(q, 1, (size_t)(end - q))) != NULL) {
		set_digest(&parts[1 + (q - ids)], i);
		q++;
	}
}

/* match_ids and is_match of lines [from, from + b) into the parts. */
static int set_batch(const struct scan_run *r, const struct case_item *c,
		     const struct engine_span *in, long from, size_t b,
		     struct set_part *parts, long *k, long *hit,
		     unsigned char *ids)
{
	size_t n = r->set->n;
	int rc = engine_answers(c->e, c->h, ENGINE_OP_MATCH_IDS, in + from, b,
				n, k, ids, NULL);

	if (rc == 0)
		rc = engine_answers(c->e, c->h, ENGINE_OP_IS_MATCH, in + from,
				    b, n, hit, NULL, NULL);
	for (size_t j = 0; rc == 0 && j < b; j++)
		set_tally(parts, n, from + (long)j, k[j], hit[j] != 0,
			  ids + j * n);
	return rc;
}

/* case_ops.answer: match_ids and is_match on every line, asked a batch
 * of lines at a time (a runner's in one request). */
static int set_answer(void *st, const struct case_item *c, void *out)
{
	struct scan_run *r = st;
	struct set_part *parts = set_parts(out);
	size_t n = r->set->n, lines = r->nlines ? (size_t)r->nlines : 1;
	size_t b = SET_BATCH / n ? SET_BATCH / n : 1;
	const struct engine_span *in = scan_inputs(r);
	long *k, *hit;
	unsigned char *ids;
	int rc = ENGINE_ERR_NOMEM;

	for (size_t i = 0; i <= n; i++)
		set_open(&parts[i]);
	b = b < lines ? b : lines;
	k = calloc(b, sizeof(*k));
	hit = calloc(b, sizeof(*hit));
	ids = malloc(b * n);
	if (in != NULL && k != NULL && hit != NULL && ids != NULL)
		rc = 0;
	for (long from = 0; rc == 0 && from < r->nlines; from += (long)b) {
		size_t left = (size_t)(r->nlines - from);
		rc = set_batch(r, c, in, from, left < b ? left : b, parts, k,
			       hit, ids);
	}
	free(k);
	free(hit);
	free(ids);
	return rc;
}

/* --- the expected answer --------------------------------------------- */

/* Pattern i's part from the reference; hit[line] set where it matches. */
static void set_ref_part(const struct scan_run *r, size_t i,
			 struct set_part *part, unsigned char *hit)
{
	const struct ref_regex *re = r->pats[i].ref;

	set_open(part);
	for (long l = 0; l < r->nlines; l++) {
		if (!ref_is_match(re, r->lines[l].p, r->lines[l].len))
			continue;
		set_digest(part, l);
		hit[l] = 1;
	}
}

/* "; out of its reach: 2 patterns (the first, pattern 3 (`a(?=b)`): why)" */
static void set_unreached_text(const struct scan_run *r, size_t unreached,
			       size_t first, char *buf, size_t size)
{
	char what[400];

	if (unreached == 0) {
		buf[0] = '\0';
		return;
	}
	set_pattern_text(r, first, what, sizeof(what));
	snprintf(buf, size, "; out of its reach: %zu pattern%s "
		 "(%s%.300s: %.150s)", unreached, unreached == 1 ? "" : "s",
		 unreached == 1 ? "" : "the first, ", what,
		 r->pats[first].ref_why);
}

/*
 * case_ops.expect: the reference, pattern by pattern on every line; the
 * match-any part only when it reaches every pattern (a line only an
 * unreached pattern matches would be missing).
 */
static int set_expect(void *st, const struct case_item *c, void *out,
		      char *by, size_t size)
{
	const struct scan_run *r = st;
	struct set_part *parts = set_parts(out);
	size_t n = r->set->n, unreached = 0, first = 0;
	unsigned char *hit = calloc(r->nlines ? (size_t)r->nlines : 1, 1);
	char why[600];

	(void)c;
	if (hit == NULL)
		return CASE_REF_ERROR;
	memset(out, 0, (n + 1) * sizeof(*parts));
	for (size_t i = 0; i < n; i++) {
		if (r->pats[i].ref != NULL)
			set_ref_part(r, i, &parts[1 + i], hit);
		else if (unreached++ == 0)
			first = i;
	}
	if (unreached == 0) {
		set_open(&parts[0]);
		for (long l = 0; l < r->nlines; l++)
			if (hit[l])
				set_digest(&parts[0], l);
		parts[0].is_match = parts[0].lines;
	}
	free(hit);
	set_unreached_text(r, unreached, first, why, sizeof(why));
	snprintf(by, size, "reference, each pattern on every line%s", why);
	return unreached == n ? CASE_REF_NONE : CASE_REF_OK;
}

/* --- answers in words ------------------------------------------------ */

/* Each pattern's lines, comma-separated ("?": a part left out), into
 * buf[0..size), cut with "..." where they no longer fit. */
static void set_counts_text(const struct set_part *parts, size_t n,
			    char *buf, size_t size)
{
	size_t at = 0;

	buf[0] = '\0';
	for (size_t i = 1; i <= n; i++) {
		char one[32];
		int w;
		if (parts[i].set == CASE_PART_SET)
			w = snprintf(one, sizeof(one), "%s%ld",
				     i > 1 ? "," : "", parts[i].lines);
		else
			w = snprintf(one, sizeof(one), "%s?", i > 1 ? "," : "");
		if (at + (size_t)w + 4 > size) {
			snprintf(buf + at, size - at, "...");
			return;
		}
		memcpy(buf + at, one, (size_t)w + 1);
		at += (size_t)w;
	}
}

/*
 * "matching lines 12 (is_match 12, digest 0123456789abcdef); patterns
 * matching: 2 of 3; lines per pattern: 5,0,9" ("?" where a part is left
 * out: an expected answer nothing computed).
 */
static void set_describe(void *st, const struct case_item *c,
			 const void *answer, char *buf, size_t size)
{
	const struct scan_run *r = st;
	const struct set_part *parts = set_parts(answer);
	size_t n = r->set->n, any = 0, known = 0;
	char lines[100], counts[400];

	(void)c;
	for (size_t i = 1; i <= n; i++) {
		known += parts[i].set == CASE_PART_SET;
		any += parts[i].set == CASE_PART_SET && parts[i].lines > 0;
	}
	if (parts[0].set == CASE_PART_SET)
		snprintf(lines, sizeof(lines), "%ld (is_match %ld, digest "
			 "%016llx)", parts[0].lines, parts[0].is_match,
			 (unsigned long long)parts[0].digest);
	else
		snprintf(lines, sizeof(lines), "?");
	set_counts_text(parts, n, counts, sizeof(counts));
	snprintf(buf, size, "matching lines %s; patterns matching: %zu of "
		 "%zu%s; lines per pattern: %s", lines, any, n,
		 known < n ? " (of those known)" : "", counts);
}

/* --- where an answer differs ----------------------------------------- */

/*
 * The first line of [from, from + b) where part k (0: any pattern; else
 * pattern k) of the engine's answers (v: match_ids' values, ids: its
 * bytes, line after line) and the reference differ, with what each
 * says in *got and *want; -1 when none.
 */
static long set_line_differs(const struct scan_run *r, size_t k, long from,
			     size_t b, const long *v, const unsigned char *ids,
			     int *got, int *want)
{
	size_t n = r->set->n;

	for (size_t j = 0; j < b; j++) {
		const struct line *ln = &r->lines[from + (long)j];
		*got = k == 0 ? v[j] > 0 : ids[j * n + k - 1];
		*want = 0;
		for (size_t i = (k == 0 ? 0 : k - 1); i < (k == 0 ? n : k); i++)
			*want |= ref_is_match(r->pats[i].ref, ln->p, ln->len);
		if (*got != *want)
			return from + (long)j;
	}
	return -1;
}

/* "; first at line 7 (it says 1, the reference 0): `text`" for line l. */
static void set_line_text(const struct scan_run *r, long l, int got,
			  int want, char *buf, size_t size)
{
	char text[300];

	msg_escape_bytes(r->lines[l].p, r->lines[l].len, text, sizeof(text));
	snprintf(buf, size, "; first at line %ld (it says %d, the reference "
		 "%d): `%s`", l + 1, got, want, text);
}

/* Part k's first line where the engine and the reference differ, asked
 * again in this process (the answer came from a child, which got there),
 * a batch of lines at a time (a runner's in one request each). */
static void set_first_line(struct scan_run *r, const struct case_item *c,
			   size_t k, char *buf, size_t size)
{
	size_t n = r->set->n, lines = r->nlines ? (size_t)r->nlines : 1;
	size_t b = SET_BATCH / n ? SET_BATCH / n : 1;
	const struct engine_span *in;
	long *v, l = -1;
	unsigned char *ids;
	int got = 0, want = 0;

	for (size_t i = (k == 0 ? 0 : k - 1); i < (k == 0 ? n : k); i++)
		if (r->pats[i].ref == NULL)
			return; /* the reference cannot say */
	in = scan_inputs(r);
	b = b < lines ? b : lines;
	v = calloc(b, sizeof(*v));
	ids = malloc(b * n);
	for (long from = 0; in != NULL && v != NULL && ids != NULL &&
			    l < 0 && from < r->nlines && !interrupt_signal();
	     from += (long)b) {
		size_t left = (size_t)(r->nlines - from), m = left < b ? left : b;
		if (engine_answers(c->e, c->h, ENGINE_OP_MATCH_IDS, in + from, m,
				   n, v, ids, NULL) != 0)
			break;
		l = set_line_differs(r, k, from, m, v, ids, &got, &want);
	}
	free(v);
	free(ids);
	if (l >= 0)
		set_line_text(r, l, got, want, buf, size);
}

/* Does part k of g differ from the known part k of w? */
static int set_differs(const struct set_part *g, const struct set_part *w,
		       size_t k)
{
	return w[k].set == CASE_PART_SET &&
	       memcmp(&g[k], &w[k], sizeof(*g)) != 0;
}

/* case_ops.explain: the first pattern whose lines differ (else the lines
 * any pattern matches), and its first line that differs. */
static void set_explain(void *st, const struct case_item *c, const void *got,
			const void *want, char *buf, size_t size)
{
	struct scan_run *r = st;
	const struct set_part *g = set_parts(got), *w = set_parts(want);
	size_t k = 1, at;
	char what[400] = "the lines any pattern matches", ism[40] = "",
	     wism[40] = "";

	while (k <= r->set->n && !set_differs(g, w, k))
		k++;
	if (k > r->set->n)
		k = 0;
	if (k == 0 && !set_differs(g, w, 0)) {
		snprintf(buf, size, "no part differs");
		return;
	}
	if (k > 0)
		set_pattern_text(r, k - 1, what, sizeof(what));
	else
		snprintf(ism, sizeof(ism), "is_match %ld, ", g[0].is_match);
	if (k == 0)
		snprintf(wism, sizeof(wism), "is_match %ld, ", w[0].is_match);
	at = (size_t)snprintf(buf, size, "%s: %ld lines (%sdigest %016llx) "
			      "where %ld (%sdigest %016llx) were expected",
			      what, g[k].lines, ism,
			      (unsigned long long)g[k].digest, w[k].lines, wism,
			      (unsigned long long)w[k].digest);
	if (at < size)
		set_first_line(r, c, k, buf + at, size - at);
}

/* --- compiling and timing -------------------------------------------- */

/* case_ops.compile: the whole set; an error names the pattern. */
static int set_compile(void *st, const struct case_item *c, void **h,
		       char *why, size_t size)
{
	const struct scan_run *r = st;
	const struct scan_set *s = r->set;
	struct engine_error err = {0, -1, -1, ""};
	char what[400], buf[32];
	int rc = c->e->compile(s->ep, s->n, s->flags, h, &err);
	const char *off;

	if (rc == 0)
		return 0;
	off = scan_offset_text(err.offset, buf, sizeof(buf));
	if (err.pattern < 0 || (size_t)err.pattern >= s->n) {
		snprintf(why, size, "%s%s", err.msg, off);
		return rc;
	}
	set_pattern_text(r, (size_t)err.pattern, what, sizeof(what));
	/* a pattern the reference compiled is valid PCRE syntax: an engine
	   that refuses it has reached a limit of its own */
	if (rc == ENGINE_ERR_COMPILE && r->pats[err.pattern].ref != NULL) {
		snprintf(why, size, "%s is valid, and %s cannot compile it: "
			 "%s%s (a set runs whole or not at all)", what,
			 c->e->name, err.msg, off);
		return ENGINE_ERR_UNSUPPORTED;
	}
	snprintf(why, size, "%s: %s%s", what, err.msg, off);
	return rc;
}

/* The timed op: match_ids on every line. */
static int set_run(void *arg, uint64_t n)
{
	const struct case_item *c = arg;
	const struct scan_run *r = c->st;
	volatile long sink = 0;

	for (uint64_t k = 0; k < n; k++)
		for (long i = 0; i < r->nlines; i++) {
			long m = c->e->match_ids(c->h, r->lines[i].p,
						 r->lines[i].len, r->set->ids);
			if (m < 0)
				return (int)m;
			sink += m > 0;
		}
	(void)sink;
	return 0;
}

/* The timed op as work: match_ids on every line (none: nothing to time
 * but the suite's loop). */
static int set_bench_work(struct scan_run *r, struct case_item *c,
			  struct bench *b)
{
	struct engine_work w = {ENGINE_OP_MATCH_IDS, 0, &c->h, 1,
				scan_inputs(r), r->nrin, NULL, 0, 0};

	if (w.inputs == NULL)
		return -1;
	return r->nlines > 0 ? case_bench_work(b, c->e, c->h, &w) : 0;
}

/* Lines matched and (line, pattern) pairs of a verified answer. */
static double set_pairs(const struct scan_run *r, const struct set_part *p)
{
	double pairs = 0;

	for (size_t i = 1; i <= r->set->n; i++)
		pairs += (double)p[i].lines;
	return pairs;
}

static int set_bench(void *st, struct case_item *c, const void *answer,
		     struct bench *b)
{
	struct scan_run *r = st;
	const struct set_part *p = set_parts(answer);

	b->run = set_run;
	b->arg = c;
	b->bytes_per_op = (double)r->corpus.len;
	b->extra[0] = (struct bench_metric){"matches", BETTER_EXACT,
					    (double)p[0].lines};
	b->extra[1] = (struct bench_metric){"ids", BETTER_EXACT,
					    set_pairs(r, p)};
	b->nextra = 2;
	return set_bench_work(r, c, b);
}

static void set_release(void *st, struct case_item *c)
{
	(void)st;
	c->e->free(c->h);
}

/* Why engine e cannot run the set (its op, match_ids on every line, or
 * a pattern's needs), into why; 0 when it can. */
static int set_gate(struct scan_run *r, const struct engine *e, char *why,
		    size_t size)
{
	const struct scan_set *s = r->set;
	size_t first = s->n, more = 0;
	char what[400], caps[256], more_text[160];

	if (scan_work_gate(r, e, ENGINE_OP_MATCH_IDS, why, size))
		return 1;
	for (size_t i = 0; i < s->n; i++)
		if (s->needs[i] & ~e->caps) {
			more += first < s->n;
			first = first < s->n ? first : i;
		}
	if (first == s->n)
		return 0;
	set_pattern_text(r, first, what, sizeof(what));
	engine_caps_format(s->needs[first] & ~e->caps, caps, sizeof(caps));
	snprintf(more_text, sizeof(more_text), ", and %zu more pattern%s "
		 "need%s what %s lacks", more, more == 1 ? "" : "s",
		 more == 1 ? "s" : "", e->name);
	snprintf(why, size, "%.300s needs %.150s, which %s lacks%.120s (a set "
		 "runs whole "
		 "or not at all)", what, caps, e->name, more ? more_text : "");
	return 1;
}

/* case_ops.voter: every engine's answer is held to the same lines. */
static int set_voter(void *st, const struct case_item *c,
		     const struct engine *e, int *klass)
{
	char why[800];

	(void)c;
	*klass = 0;
	return set_gate(st, e, why, sizeof(why));
}

static const struct case_ops scan_set_ops = {
	.part_name = "line count",
	.compile = set_compile,
	.answer = set_answer,
	.expect = set_expect,
	.describe = set_describe,
	.explain = set_explain,
	.bench = set_bench,
	.release = set_release,
	.voter = set_voter,
};

/* --- the set and its cases ------------------------------------------- */

/* The name part of a patterns file: its base name, level-safe. */
static void set_file_part(const char *path, char *part, size_t size)
{
	const char *base = strrchr(path, '/');

	base = base ? base + 1 : path;
	scan_name_part(base, strlen(base), part, size);
	if (part[0] == '\0')
		snprintf(part, size, "file");
}

/* The length of "+K-more-files" for K files left out, 0 for none. */
static size_t set_more_len(size_t k)
{
	return k ? (size_t)snprintf(NULL, 0, "+%zu-more-files", k) : 0;
}

/*
 * The patterns= level: the files' names joined by '+' (in order), "+N"
 * for --pattern's beside them; "args-N" for --pattern's alone;
 * "built-in".  When the names do not fit in size, as many whole ones as
 * do, then "+K-more-files" for the K left out: never a name cut in the
 * middle, and the "+N" kept (many files were cut at 200 bytes mid-name,
 * their "+N" lost).
 */
static void set_name(const struct scan_run *r, char *buf, size_t size)
{
	size_t at = 0, i, n = r->cfg->npaths, args = r->cfg->npatterns;
	size_t tail = args ? (size_t)snprintf(NULL, 0, "+%zu", args) : 0;

	buf[0] = '\0';
	if (n == 0) {
		snprintf(buf, size, args ? "args-%zu" : "built-in", args);
		return;
	}
	for (i = 0; i < n; i++) {
		char part[160];

		set_file_part(r->cfg->paths[i], part, sizeof(part));
		if (at + (i > 0) + strlen(part) + set_more_len(n - i - 1) +
			    tail >= size)
			break;
		at += (size_t)snprintf(buf + at, size - at, "%s%s",
				       i ? "+" : "", part);
	}
	if (i < n)
		at += (size_t)snprintf(buf + at, size - at, i ? "+%zu-more-files"
						      : "%zu-files", n - i);
	if (args && at < size)
		snprintf(buf + at, size - at, "+%zu", args);
}

/* r's patterns as a set in a new r->set.  0, or -1 out of memory. */
static int set_build(struct scan_run *r)
{
	struct scan_set *s = calloc(1, sizeof(*s));

	r->set = s;
	if (s == NULL)
		return -1;
	s->n = r->npats;
	s->ep = calloc(s->n, sizeof(*s->ep));
	s->needs = calloc(s->n, sizeof(*s->needs));
	s->ids = calloc(s->n, 1);
	if (s->ep == NULL || s->needs == NULL || s->ids == NULL)
		return -1;
	for (size_t i = 0; i < s->n; i++) {
		const struct scan_pattern *p = &r->pats[i];
		s->ep[i] = (struct engine_pattern){p->re, p->len};
		s->needs[i] = p->needs |
			      (p->ref ? ref_needs(p->ref)
				      : engine_pattern_needs(p->re, p->len));
	}
	s->flags = r->npats ? r->pats[0].flags : 0; /* one for all */
	s->ops = scan_set_ops;
	s->ops.parts = s->n + 1;
	s->ops.answer_size = (s->n + 1) * sizeof(struct set_part);
	set_name(r, s->name, sizeof(s->name));
	return 0;
}

/*
 * What every row of the set records: the patterns files (path, size,
 * sha256; "patterns-file", then "patterns-file.2", ...), each pattern
 * not from one ("pattern.N", N its place in the set), how many, and the
 * flags.
 */
static int set_inputs(struct scan_run *r)
{
	char v[32], key[48], err[512];

	for (size_t i = 0; i < r->cfg->npaths; i++) {
		snprintf(key, sizeof(key), "patterns-file");
		if (i > 0)
			snprintf(key, sizeof(key), "patterns-file.%zu", i + 1);
		if (case_table_input_file(&r->table, key, r->cfg->paths[i],
					  err, sizeof(err)) != 0)
			return -1;
	}
	for (size_t i = 0; i < r->npats; i++) {
		if (r->pats[i].file != NULL)
			continue;
		snprintf(key, sizeof(key), "pattern.%zu", i + 1);
		if (case_table_input(&r->table, key, r->pats[i].re,
				     r->pats[i].len) != 0)
			return -1;
	}
	snprintf(v, sizeof(v), "%zu", r->set->n);
	if (case_table_input(&r->table, "set-size", v, strlen(v)) != 0)
		return -1;
	return 0;
}

/* Engine e's case of the set. */
static int set_add_case(struct scan_run *r, const struct engine *e)
{
	char name[400], label[300], gate[800], flags[8];
	const char *kind = engine_set_native(e) ? "native" : "in-turn";
	int gated = set_gate(r, e, gate, sizeof(gate));
	unsigned needs = 0;

	for (size_t i = 0; i < r->set->n; i++)
		needs |= r->set->needs[i];
	snprintf(name, sizeof(name), "Scan/engine=%s/patterns=%s/model=set",
		 engine_bench_name(e), r->set->name);
	snprintf(label, sizeof(label), "%s: the set of %zu pattern%s (%s)",
		 e->name, r->set->n, r->set->n == 1 ? "" : "s", r->set->name);
	scan_flags_text(r->set->flags, flags);
	if (case_add(&r->table, name, label, e, needs, gated ? gate : NULL, 0,
		     0, r->set) != 0 ||
	    case_input(&r->table, "set", kind, strlen(kind)) != 0 ||
	    case_input(&r->table, "flags", flags, strlen(flags)) != 0)
		return -1;
	return 0;
}

int scan_set_add_cases(struct scan_run *r, struct suite_ctx *ctx)
{
	if (set_build(r) != 0 || set_inputs(r) != 0)
		return -1;
	r->table.ops = &r->set->ops;
	for (size_t j = 0; j < ctx->nengines; j++)
		if (set_add_case(r, ctx->engines[j]) != 0)
			return -1;
	return 0;
}

void scan_set_free(struct scan_set *s)
{
	if (s == NULL)
		return;
	free(s->ep);
	free(s->needs);
	free(s->ids);
	free(s);
}

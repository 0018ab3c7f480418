/*
 * scan.c - the generic scan suite: patterns over a whole corpus.
 *
 * Models (rebar's): `count` counts the matches in the whole corpus as one
 * op; `grep` counts the lines that match.  Before any timing every
 * engine's answer is computed: is_match on the corpus and grep counts
 * must agree across all engines, counts within a semantics class, and a
 * literal pattern is also checked against a memmem() reference.  An
 * engine that disagrees with the majority gets a MISMATCH row and no time.
 *
 * Without --pattern/--patterns-file/--corpus it runs the built-in pattern
 * table on the built-in generated corpus, whose expected answers the
 * table records (leftmost-first counts, matching lines).
 */
#define _GNU_SOURCE
#include "suites/suite.h"

#include "corpora/file.h"
#include "corpora/text.h"
#include "harness/interrupt.h"
#include "harness/isolate.h"
#include "suites/strset.h"

#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

enum scan_model { MODEL_COUNT, MODEL_GREP };

#define SCAN_MAX_PATTERN (1 << 20) /* bytes of one --patterns-file line */
#define SCAN_CORPUS_SIZE (1u << 20) /* the built-in corpus */

struct scan_pattern {
	char *name;
	char *re;
	size_t len;
	unsigned flags; /* enum engine_flag */
	unsigned needs; /* enum engine_cap */
	int literal;    /* plain bytes: a memmem reference applies */
	long expect_first; /* built-in corpus: leftmost-first count, or -1 */
	long expect_lines; /* built-in corpus: matching lines, or -1 */
};

/*
 * The built-in set: benchmarks as data, as rebar keeps them.  needs: what
 * an engine must have; first and lines: the answers expected on the
 * built-in corpus (1 MiB, seed 1) from leftmost-first engines and in the
 * grep model, checked before any timing like every engine's answer.
 */
static const struct {
	const char *name, *re;
	unsigned flags, needs;
	int literal;
	long first, lines;
} builtin[] = {
	{"literal", "Sherlock", 0, 0, 1, 1730, 1657},
	{"literal-rare", "Huckleberry Finn", 0, 0, 1, 14, 14},
	{"caseless", "sherlock holmes", ENGINE_CASELESS, 0, 0, 10, 10},
	{"alternation", "Sherlock|Holmes|Watson|Irene|Adler", 0, 0, 0, 8714,
	 6677},
	{"suffix", "[a-zA-Z]+ing", 0, 0, 0, 14197, 9344},
	{"date", "[0-9]{4}-[0-9]{2}-[0-9]{2}", 0, CAP_COUNTED_REP, 0, 1138,
	 1110},
	{"email", "[a-z0-9._]+@[a-z0-9]+[.](com|org|net)", 0, 0, 0, 683, 667},
	{"line-start", "^The ", ENGINE_MULTILINE, 0, 0, 117, 117},
	{"pri-ate", "pri[a-z]*ate", 0, 0, 0, 3328, 3011},
	{"no-match", "zqxj[0-9]+", 0, 0, 0, 0, 0},
};

static struct {
	struct scan_pattern *pats;
	size_t npats, cap;
	unsigned flags;        /* --flags for user patterns */
	const char *corpus_path;
	const char *patterns_path;
	enum scan_model model;
	struct corpus corpus;
	struct line *lines;
	long nlines;
	struct scan_case *cases;
	size_t ncases;
	struct strset names; /* of user patterns */
} st;

/* One pattern x engine, alive from prepare() to cleanup(). */
struct scan_case {
	const struct engine *e;
	void *h;
	long answer;
	int matched;
};

static int add_pattern(const char *name, const char *re, size_t len,
		       unsigned flags, unsigned needs, int literal)
{
	struct scan_pattern *p;

	if (st.npats == st.cap) { /* doubling: 100,000 patterns load at once */
		size_t cap = st.cap ? st.cap * 2 : 16;
		struct scan_pattern *grown = realloc(st.pats, cap * sizeof(*grown));
		if (grown == NULL)
			return -1;
		st.pats = grown;
		st.cap = cap;
	}
	p = &st.pats[st.npats];
	p->name = strdup(name);
	p->re = malloc(len + 1);
	if (p->name == NULL || p->re == NULL) {
		free(p->name);
		free(p->re);
		return -1;
	}
	memcpy(p->re, re, len);
	p->re[len] = '\0';
	p->len = len;
	p->flags = flags;
	p->needs = needs;
	p->literal = literal;
	p->expect_first = -1;
	p->expect_lines = -1;
	st.npats++;
	return 0;
}

/* A user pattern's name: its text made name-safe, numbered if repeated
 * (st.names finds repeats in O(1): 100,000 patterns load at once). */
static int add_user_pattern(const char *re, size_t len)
{
	char name[48];
	size_t l;

	if (st.names.slot == NULL && strset_init(&st.names, 64) != 0)
		return -1;
	bench_name_part(re, len < 32 ? len : 32, name, sizeof(name));
	if (name[0] == '\0')
		snprintf(name, sizeof(name), "empty");
	l = strlen(name);
	for (size_t k = st.npats + 1; strset_find(&st.names, name, strlen(name),
						  NULL); k++)
		snprintf(name + (l > 36 ? 36 : l), 12, "#%zu", k);
	if (strset_add(&st.names, name, strlen(name), 0) < 0)
		return -1;
	return add_pattern(name, re, len, st.flags, 0, 0);
}

static int parse_flags(const char *v)
{
	unsigned f = 0;

	for (const char *p = v; *p; p++) {
		switch (*p) {
		case 'i': f |= ENGINE_CASELESS; break;
		case 's': f |= ENGINE_DOTALL; break;
		case 'm': f |= ENGINE_MULTILINE; break;
		case 'a': f |= ENGINE_ANCHORED; break;
		case 'u': f |= ENGINE_UTF8; break;
		default:
			fprintf(stderr, "rxbench: --flags=%s: unknown flag '%c' "
				"(use i, s, m, a, u)\n", v, *p);
			return -1;
		}
	}
	st.flags = f;
	return 0;
}

static int scan_set_option(const char *key, const char *value)
{
	if (value == NULL && (strcmp(key, "pattern") == 0 ||
			      strcmp(key, "patterns-file") == 0 ||
			      strcmp(key, "corpus") == 0 ||
			      strcmp(key, "model") == 0 ||
			      strcmp(key, "flags") == 0)) {
		return SUITE_OPT_NEEDS_VALUE;
	}
	if (strcmp(key, "pattern") == 0)
		return add_user_pattern(value, strlen(value)) ? SUITE_OPT_INVALID
							       : SUITE_OPT_OK;
	if (strcmp(key, "patterns-file") == 0) {
		st.patterns_path = value;
		return SUITE_OPT_OK;
	}
	if (strcmp(key, "corpus") == 0) {
		st.corpus_path = value;
		return SUITE_OPT_OK;
	}
	if (strcmp(key, "flags") == 0)
		return parse_flags(value) ? SUITE_OPT_INVALID : SUITE_OPT_OK;
	if (strcmp(key, "model") == 0) {
		if (strcmp(value, "count") == 0)
			st.model = MODEL_COUNT;
		else if (strcmp(value, "grep") == 0)
			st.model = MODEL_GREP;
		else {
			fprintf(stderr, "rxbench: --model=%s: use count or grep\n",
				value);
			return SUITE_OPT_INVALID;
		}
		return SUITE_OPT_OK;
	}
	return SUITE_OPT_UNKNOWN;
}

/*
 * Read --patterns-file: one pattern per line, blank lines skipped.  A
 * pattern longer than SCAN_MAX_PATTERN is refused: some engines need a
 * few hundred bytes of memory per pattern byte (glibc: 220 MiB for one
 * MiB), and no real pattern is that long.
 */
static int load_patterns_file(const char *path)
{
	struct corpus f;
	struct line *lines = NULL;
	char err[512];
	long n;

	if (corpus_load_file(&f, path, err, sizeof(err)) != 0) {
		fprintf(stderr, "rxbench: %s\n", err);
		return -1;
	}
	n = corpus_lines(&f, &lines);
	for (long i = 0; i < n; i++) {
		if (lines[i].len > SCAN_MAX_PATTERN) {
			fprintf(stderr, "rxbench: %s:%ld: pattern of %zu bytes, "
				"longer than %d (1 MiB)\n", path, i + 1,
				lines[i].len, SCAN_MAX_PATTERN);
			n = -2;
		} else if (lines[i].len > 0 &&
			   add_user_pattern(lines[i].p, lines[i].len) != 0) {
			n = -1;
		}
	}
	if (n == 0 || (n > 0 && st.npats == 0))
		fprintf(stderr, "rxbench: %s: no patterns in the file\n", path);
	free(lines);
	corpus_release(&f);
	return n > 0 && st.npats > 0 ? 0 : -1;
}

/* With --flags=u the corpus must be UTF-8: PCRE2's JIT and Oniguruma
 * trust it and would read past a broken sequence. */
static int check_utf8_corpus(void)
{
	long bad;

	if (!(st.flags & ENGINE_UTF8) || st.corpus_path == NULL)
		return 0;
	bad = engine_utf8_invalid(st.corpus.data, st.corpus.len);
	if (bad < 0)
		return 0;
	fprintf(stderr, "rxbench: %s: not UTF-8 at byte %ld (--flags=u needs "
		"a UTF-8 corpus)\n", st.corpus_path, bad);
	return -1;
}

/* The built-in table, with its expected answers when the corpus is ours. */
static int add_builtin_patterns(void)
{
	for (size_t i = 0; i < sizeof(builtin) / sizeof(builtin[0]); i++) {
		struct scan_pattern *p;
		if (add_pattern(builtin[i].name, builtin[i].re,
				strlen(builtin[i].re), builtin[i].flags,
				builtin[i].needs, builtin[i].literal) != 0)
			return -1;
		p = &st.pats[st.npats - 1];
		if (st.corpus_path == NULL) {
			p->expect_first = builtin[i].first;
			p->expect_lines = builtin[i].lines;
		}
	}
	return 0;
}

static int load_inputs(void)
{
	char err[512];

	if (st.patterns_path != NULL && load_patterns_file(st.patterns_path))
		return -1;
	if (st.npats == 0 && add_builtin_patterns() != 0)
		return -1;
	if (st.corpus_path != NULL) {
		if (corpus_load_file(&st.corpus, st.corpus_path, err,
				     sizeof(err)) != 0) {
			fprintf(stderr, "rxbench: %s\n", err);
			return -1;
		}
	} else if (text_generate(&st.corpus, SCAN_CORPUS_SIZE, 1) != 0) {
		return -1;
	}
	if (check_utf8_corpus() != 0)
		return -1;
	st.nlines = corpus_lines(&st.corpus, &st.lines);
	return st.nlines < 0 ? -1 : 0;
}

static long grep_count(const struct scan_case *c)
{
	long hits = 0;

	for (long i = 0; i < st.nlines; i++) {
		int m = c->e->is_match(c->h, st.lines[i].p, st.lines[i].len);
		if (m < 0)
			return m;
		hits += m;
	}
	return hits;
}

/* The answer this engine gives under the current model; <0 on error. */
static long scan_answer(const struct scan_case *c)
{
	if (st.model == MODEL_GREP)
		return grep_count(c);
	if (c->e->count == NULL)
		return ENGINE_ERR_UNSUPPORTED;
	return c->e->count(c->h, st.corpus.data, st.corpus.len);
}

/* memmem reference: non-overlapping (first/longest) or every end (all-ends). */
static long literal_count(const struct scan_pattern *p, int overlapping)
{
	long n = 0;
	const char *at = st.corpus.data, *end = st.corpus.data + st.corpus.len;

	if (p->len == 0)
		return -1;
	while (at < end) {
		const char *hit = memmem(at, (size_t)(end - at), p->re, p->len);
		if (hit == NULL)
			break;
		n++;
		at = hit + (overlapping ? 1 : p->len);
	}
	return n;
}

static long literal_grep(const struct scan_pattern *p)
{
	long n = 0;

	for (long i = 0; i < st.nlines; i++)
		n += memmem(st.lines[i].p, st.lines[i].len, p->re, p->len) != NULL;
	return n;
}

static void case_name(const struct scan_pattern *p, const struct engine *e,
		      char *buf, size_t size)
{
	snprintf(buf, size, "Scan/engine=%s/pattern=%s%s", e->name, p->name,
		 st.model == MODEL_GREP ? "/model=grep" : "");
}

/* " (offset N)" when the engine knows where the error is, else "". */
static const char *offset_text(long offset, char *buf, size_t size)
{
	if (offset < 0)
		return "";
	snprintf(buf, size, " (offset %ld)", offset);
	return buf;
}

/* Compile one case; 0 when it has a handle, else a row was added. */
static int scan_case_compile(struct suite_ctx *ctx,
			     const struct scan_pattern *p, struct scan_case *c)
{
	struct engine_pattern ep = {p->re, p->len};
	struct engine_error err = {0, -1, -1, ""};
	char name[256], off[32];
	int rc;

	case_name(p, c->e, name, sizeof(name));
	if (p->needs & ~c->e->caps) {
		suite_fail(ctx, "scan", name, RESULT_UNSUPPORTED,
			   "%s lacks a feature pattern %s needs", c->e->name,
			   p->name);
		return -1;
	}
	rc = c->e->compile(&ep, 1, p->flags, &c->h, &err);
	if (rc != 0) {
		suite_fail(ctx, "scan", name,
			   rc == ENGINE_ERR_UNSUPPORTED ? RESULT_UNSUPPORTED
							: RESULT_ERROR,
			   "%s: pattern %s: %s%s", c->e->name, p->name,
			   err.msg, offset_text(err.offset, off, sizeof(off)));
		c->h = NULL;
		return -1;
	}
	return 0;
}

/* One case's answer, as computed in the verifying child. */
struct scan_answer {
	long matched; /* is_match on the corpus */
	long answer;  /* the count or matching lines under the model */
};

/* isolate_items.answer: case i of an array of compiled cases. */
static int scan_case_answer(void *arg, size_t i, void *out)
{
	const struct scan_case *c = ((struct scan_case *const *)arg)[i];
	struct scan_answer a;
	int m = c->e->is_match(c->h, st.corpus.data, st.corpus.len);

	if (m < 0)
		return m;
	a.matched = m;
	a.answer = scan_answer(c);
	if (a.answer < 0)
		return (int)a.answer;
	memcpy(out, &a, sizeof(a));
	return 0;
}

/*
 * Keep case c's answer, or make its failure a row and drop the case (no
 * answer: out of the vote and the plan, else a MISMATCH row would
 * replace this one).
 */
static void scan_case_settle(struct suite_ctx *ctx,
			     const struct scan_pattern *p, struct scan_case *c,
			     const struct isolate_verdict *v,
			     const struct scan_answer *a)
{
	char name[256], why[256];

	if (v->status == 0) {
		c->matched = (int)a->matched;
		c->answer = a->answer;
		return;
	}
	case_name(p, c->e, name, sizeof(name));
	isolate_verdict_text(v, ctx->opts, why, sizeof(why));
	suite_fail(ctx, "scan", name,
		   v->status == ENGINE_ERR_UNSUPPORTED ? RESULT_UNSUPPORTED
		   : v->status == ISOLATE_TIMEOUT      ? RESULT_TIMEOUT
						       : RESULT_ERROR,
		   "%s: pattern %s: %s", c->e->name, p->name, why);
	c->e->free(c->h);
	c->h = NULL;
}

/*
 * Every compiled case's answer, computed in a child with --timeout per
 * answer (isolate.h): glibc's regexec has no match limit, and a case that
 * takes minutes must cost one row, not the run.  0, ISOLATE_INTERRUPTED,
 * or -1 out of memory.
 */
static int scan_answer_all(struct suite_ctx *ctx)
{
	struct isolate_items it = {0, sizeof(struct scan_answer),
				   scan_case_answer, NULL, NULL};
	struct scan_case **live;
	struct scan_answer *out;
	struct isolate_verdict *v;
	size_t k = 0;
	int rc = -1;

	for (size_t i = 0; i < st.ncases; i++)
		it.n += st.cases[i].h != NULL;
	live = calloc(it.n ? it.n : 1, sizeof(*live));
	out = calloc(it.n ? it.n : 1, sizeof(*out));
	v = calloc(it.n ? it.n : 1, sizeof(*v));
	if (live == NULL || out == NULL || v == NULL)
		goto out;
	for (size_t i = 0; i < st.ncases; i++)
		if (st.cases[i].h != NULL)
			live[k++] = &st.cases[i];
	it.arg = live;
	rc = isolate_answers(&it, ctx->opts, out, v);
	if (rc == ISOLATE_INTERRUPTED)
		goto out;
	for (k = 0; k < it.n; k++) {
		size_t pat = (size_t)(live[k] - st.cases) / ctx->nengines;
		scan_case_settle(ctx, &st.pats[pat], live[k], &v[k], &out[k]);
	}
	rc = 0;
out:
	free(live);
	free(out);
	free(v);
	return rc;
}

/* Do engines a and b have to agree on the answer? */
static int comparable(const struct scan_case *a, const struct scan_case *b)
{
	return st.model == MODEL_GREP || a->e->semantics == b->e->semantics;
}

/*
 * The answer most comparable engines give (ties: the first engine's), the
 * reference when a literal reference exists.
 */
static long majority(const struct scan_case *cs, size_t n, size_t i,
		     const struct scan_pattern *p, int *is_ref)
{
	long best = cs[i].answer;
	size_t best_votes = 0;

	*is_ref = 0;
	if (p->expect_lines >= 0 && (st.model == MODEL_GREP ||
				     cs[i].e->semantics == SEM_LEFTMOST_FIRST)) {
		*is_ref = 1;
		return st.model == MODEL_GREP ? p->expect_lines
					      : p->expect_first;
	}
	if (p->literal && p->flags == 0) {
		*is_ref = 1;
		if (st.model == MODEL_GREP)
			return literal_grep(p);
		return literal_count(p, cs[i].e->semantics == SEM_ALL_ENDS);
	}
	for (size_t j = 0; j < n; j++) {
		size_t votes = 0;
		if (cs[j].h == NULL || !comparable(&cs[i], &cs[j]))
			continue;
		for (size_t k = 0; k < n; k++)
			votes += cs[k].h != NULL && comparable(&cs[i], &cs[k]) &&
				 cs[k].answer == cs[j].answer;
		if (votes > best_votes) {
			best_votes = votes;
			best = cs[j].answer;
		}
	}
	return best;
}

/* Majority of is_match over all engines that compiled. */
static int majority_match(const struct scan_case *cs, size_t n)
{
	size_t yes = 0, total = 0;

	for (size_t i = 0; i < n; i++) {
		if (cs[i].h == NULL)
			continue;
		total++;
		yes += cs[i].matched == 1;
	}
	return 2 * yes > total || (2 * yes == total && total && cs[0].matched == 1);
}

/* Every engine's answers, for a MISMATCH message. */
static void answers_text(const struct scan_case *cs, size_t n, char *buf,
			 size_t size)
{
	size_t used = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < n && used < size; i++) {
		int w;
		if (cs[i].h == NULL)
			continue;
		w = snprintf(buf + used, size - used, "%s%s=%ld", used ? ", " : "",
			     cs[i].e->name, cs[i].answer);
		if (w < 0)
			break;
		used += (size_t)w;
	}
}

static int scan_run_count(void *arg, uint64_t n)
{
	struct scan_case *c = arg;
	volatile long sink = 0;

	for (uint64_t i = 0; i < n; i++) {
		long v = c->e->count(c->h, st.corpus.data, st.corpus.len);
		if (v < 0)
			return (int)v;
		sink += v;
	}
	(void)sink;
	return 0;
}

static int scan_run_grep(void *arg, uint64_t n)
{
	struct scan_case *c = arg;

	for (uint64_t i = 0; i < n; i++) {
		long v = grep_count(c);
		if (v < 0)
			return (int)v;
	}
	return 0;
}

/* Compare the answers of one pattern's engines; plan the ones that agree. */
static int scan_pattern_plan(struct suite_ctx *ctx, const struct scan_pattern *p,
			     struct scan_case *cs)
{
	int want_match = 0;

	want_match = majority_match(cs, ctx->nengines);
	for (size_t i = 0; i < ctx->nengines; i++) {
		struct scan_case *c = &cs[i];
		char name[256], all[512];
		int is_ref;
		long want;
		struct bench b = {0};

		if (c->h == NULL)
			continue;
		case_name(p, c->e, name, sizeof(name));
		want = majority(cs, ctx->nengines, i, p, &is_ref);
		if (c->answer != want || c->matched != want_match) {
			answers_text(cs, ctx->nengines, all, sizeof(all));
			suite_fail(ctx, "scan", name, RESULT_MISMATCH,
				   "%s: pattern %s: %s %ld, %s %ld, is_match %d "
				   "(expected %d); all engines: %s",
				   c->e->name, p->name,
				   st.model == MODEL_GREP ? "matching lines"
							  : "count",
				   c->answer, is_ref ? "reference" : "majority",
				   want, c->matched, want_match, all);
			continue;
		}
		if (!suite_wants(ctx, name))
			continue;
		b.name = strdup(name);
		b.suite = "scan";
		b.run = st.model == MODEL_GREP ? scan_run_grep : scan_run_count;
		b.arg = c;
		b.bytes_per_op = (double)st.corpus.len;
		b.extra[0] = (struct bench_metric){"matches", BETTER_EXACT,
						   (double)c->answer};
		b.nextra = 1;
		if (b.name == NULL || plan_add(ctx->plan, &b) != 0) {
			free(b.name);
			return -1;
		}
	}
	return 0;
}

static int scan_prepare(struct suite_ctx *ctx)
{
	if (load_inputs() != 0)
		return -1;
	st.ncases = st.npats * ctx->nengines;
	st.cases = calloc(st.ncases ? st.ncases : 1, sizeof(*st.cases));
	if (st.cases == NULL)
		return -1;
	/* a Ctrl-C stops compiling and verifying too (100,000 patterns) */
	for (size_t i = 0; i < st.npats && !interrupt_signal(); i++)
		for (size_t j = 0; j < ctx->nengines; j++) {
			struct scan_case *c = &st.cases[i * ctx->nengines + j];
			c->e = ctx->engines[j];
			scan_case_compile(ctx, &st.pats[i], c);
		}
	if (interrupt_signal())
		return 0;
	switch (scan_answer_all(ctx)) {
	case 0:
		break;
	case ISOLATE_INTERRUPTED:
		return 0; /* nothing is planned: the run stops */
	default:
		return -1;
	}
	for (size_t i = 0; i < st.npats; i++)
		if (scan_pattern_plan(ctx, &st.pats[i],
				      &st.cases[i * ctx->nengines]) != 0)
			return -1;
	return 0;
}

static void scan_cleanup(void)
{
	for (size_t i = 0; i < st.ncases; i++)
		if (st.cases[i].h != NULL)
			st.cases[i].e->free(st.cases[i].h);
	for (size_t i = 0; i < st.npats; i++) {
		free(st.pats[i].name);
		free(st.pats[i].re);
	}
	free(st.cases);
	free(st.pats);
	strset_release(&st.names);
	free(st.lines);
	corpus_release(&st.corpus);
	st.cases = NULL;
	st.pats = NULL;
	st.lines = NULL;
	st.ncases = st.npats = st.cap = 0;
}

const struct suite suite_scan = {
	.name = "scan",
	.desc = "count matches (or matching lines) of patterns in a corpus",
	.usage = "  --pattern=RE          a pattern (repeatable)\n"
		 "  --patterns-file=FILE  one pattern per line\n"
		 "  --corpus=FILE         the haystack (default: 1 MiB generated prose)\n"
		 "  --model=count|grep    matches in the file, or matching lines\n"
		 "  --flags=isma          caseless, dotall, multiline, anchored\n",
	.in_default = 1,
	.set_option = scan_set_option,
	.prepare = scan_prepare,
	.cleanup = scan_cleanup,
};

/*
 * scan.c - the generic scan suite: patterns over a whole corpus.
 *
 * Models (rebar's): `count` counts the matches in the whole corpus as one
 * op; `grep` counts the lines that match (GNU grep's lines: split at
 * '\n', a '\r' before it is part of the line).  The suite is a generator
 * of cases, one per pattern x engine, for the one pipeline of
 * suites/case.h: every engine's answer (is_match on the corpus and the
 * model's count) is compared with the expected answer of its class,
 * computed by the reference matcher (suites/reference.h) from the pattern
 * and corpus alone, or recorded in the built-in table.
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
#include "suites/case.h"
#include "suites/reference.h"
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
	int user;       /* from the command line: --flags applies */
	long expect_first; /* built-in corpus: leftmost-first count, or -1 */
	long expect_lines; /* built-in corpus: matching lines, or -1 */
	struct ref_regex *ref; /* the reference; NULL when out of its reach */
	int ref_rc;            /* ref_compile()'s status */
	char ref_why[160];     /* why there is no reference */
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
	long first, lines;
} builtin[] = {
	{"literal", "Sherlock", 0, 0, 1730, 1657},
	{"literal-rare", "Huckleberry Finn", 0, 0, 14, 14},
	{"caseless", "sherlock holmes", ENGINE_CASELESS, 0, 10, 10},
	{"alternation", "Sherlock|Holmes|Watson|Irene|Adler", 0, 0, 8714, 6677},
	{"suffix", "[a-zA-Z]+ing", 0, 0, 14197, 9344},
	{"date", "[0-9]{4}-[0-9]{2}-[0-9]{2}", 0, CAP_COUNTED_REP, 1138, 1110},
	{"email", "[a-z0-9._]+@[a-z0-9]+[.](com|org|net)", 0, 0, 683, 667},
	{"line-start", "^The ", ENGINE_MULTILINE, 0, 117, 117},
	{"pri-ate", "pri[a-z]*ate", 0, 0, 3328, 3011},
	{"no-match", "zqxj[0-9]+", 0, 0, 0, 0},
};

static struct {
	struct scan_pattern *pats;
	size_t npats, cap;
	unsigned flags;        /* --flags: every user pattern, once parsed */
	const char *corpus_path;
	const char *patterns_path;
	enum scan_model model;
	struct corpus corpus;
	struct line *lines;
	long nlines;
	struct case_table table; /* pattern x engine */
	struct strset names; /* of user patterns */
} st;

static int add_pattern(const char *name, const char *re, size_t len,
		       unsigned flags, unsigned needs, int user)
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
	p->user = user;
	p->expect_first = -1;
	p->ref = NULL;
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
	return add_pattern(name, re, len, 0, 0, 1);
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
				builtin[i].needs, 0) != 0)
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
	/* --flags is for every user pattern, wherever it stood */
	for (size_t i = 0; i < st.npats; i++)
		if (st.pats[i].user)
			st.pats[i].flags = st.flags;
	st.nlines = corpus_lines_exact(&st.corpus, &st.lines);
	return st.nlines < 0 ? -1 : 0;
}

/* --- answers --------------------------------------------------------- */

/* One case's answer, as the verifying child computes it. */
struct scan_answer {
	long matched; /* is_match on the whole corpus */
	long answer;  /* the count, or the matching lines (grep model) */
};

static long grep_count(const struct engine *e, void *h)
{
	long hits = 0;

	for (long i = 0; i < st.nlines; i++) {
		int m = e->is_match(h, st.lines[i].p, st.lines[i].len);
		if (m < 0)
			return m;
		hits += m;
	}
	return hits;
}

/* The answer engine e gives under the current model; <0 on error. */
static long scan_model_answer(const struct engine *e, void *h)
{
	if (st.model == MODEL_GREP)
		return grep_count(e, h);
	if (e->count == NULL)
		return ENGINE_ERR_UNSUPPORTED;
	return e->count(h, st.corpus.data, st.corpus.len);
}

/* Cases of one pattern share a reference class when their answers must
 * agree: every engine in the grep model, a semantics class otherwise
 * (the test-only noop, which has none, is held to leftmost-first). */
static int scan_class(const struct engine *e)
{
	if (st.model == MODEL_GREP)
		return 0;
	return e->semantics == SEM_NONE ? SEM_LEFTMOST_FIRST : (int)e->semantics;
}

/* --- the reference -------------------------------------------------- */

/* Compile p's reference once; p->ref stays NULL when out of its reach. */
static void scan_ref_compile(struct scan_pattern *p)
{
	p->ref_rc = ref_compile(p->re, p->len, p->flags, &p->ref, p->ref_why,
				sizeof(p->ref_why));
	if (p->ref_rc != REF_OK)
		p->ref = NULL;
}

static long ref_grep(const struct ref_regex *r)
{
	long hits = 0;

	for (long i = 0; i < st.nlines; i++)
		hits += ref_is_match(r, st.lines[i].p, st.lines[i].len);
	return hits;
}

/* The reference's answer for class k of p, in *a.  0 or -1 (memory). */
static int scan_ref_answer(const struct scan_pattern *p, int k,
			   struct scan_answer *a)
{
	a->matched = ref_is_match(p->ref, st.corpus.data, st.corpus.len);
	if (st.model == MODEL_GREP)
		a->answer = ref_grep(p->ref);
	else
		a->answer = ref_count(p->ref, (enum engine_semantics)k,
				      st.corpus.data, st.corpus.len);
	return a->answer < 0 ? -1 : 0;
}

static const char *scan_class_name(int k)
{
	return st.model == MODEL_GREP ? "matching lines"
				      : engine_semantics_name((enum engine_semantics)k);
}

/* case_ops.expect: the built-in table's answer, else the reference's. */
static int scan_expect(void *arg, const struct case_item *c, void *out,
		       char *by, size_t size)
{
	const struct scan_pattern *p = c->arg;
	struct scan_answer *a = out;
	long table = st.model == MODEL_GREP ? p->expect_lines : p->expect_first;

	(void)arg;
	if (table >= 0 && (st.model == MODEL_GREP ||
			   c->klass == SEM_LEFTMOST_FIRST)) {
		a->answer = table;
		a->matched = table > 0;
		snprintf(by, size, "the built-in table's %s answer",
			 scan_class_name(c->klass));
		return CASE_REF_OK;
	}
	if (p->ref == NULL) {
		snprintf(by, size, "the reference %s it (%s)",
			 p->ref_rc == REF_INVALID ? "refuses" : "cannot check",
			 p->ref_why);
		return CASE_REF_NONE;
	}
	if (scan_ref_answer(p, c->klass, a) != 0)
		return CASE_REF_ERROR;
	snprintf(by, size, "reference, %s", scan_class_name(c->klass));
	return CASE_REF_OK;
}

/* --- the case pipeline's operations ---------------------------------- */

/* " (offset N)" when the engine knows where the error is, else "". */
static const char *offset_text(long offset, char *buf, size_t size)
{
	if (offset < 0)
		return "";
	snprintf(buf, size, " (offset %ld)", offset);
	return buf;
}

static int scan_compile(void *arg, const struct case_item *c, void **h,
			char *why, size_t size)
{
	const struct scan_pattern *p = c->arg;
	struct engine_pattern ep = {p->re, p->len};
	struct engine_error err = {0, -1, -1, ""};
	char off[32];
	int rc;

	(void)arg;
	rc = c->e->compile(&ep, 1, p->flags, h, &err);
	if (rc == 0)
		return 0;
	/* a pattern the reference compiled is valid PCRE syntax: an engine
	   that refuses it has reached a limit of its own */
	if (rc == ENGINE_ERR_COMPILE && p->ref != NULL) {
		snprintf(why, size, "a valid pattern %s cannot compile: %s%s",
			 c->e->name, err.msg,
			 offset_text(err.offset, off, sizeof(off)));
		return ENGINE_ERR_UNSUPPORTED;
	}
	snprintf(why, size, "%s%s", err.msg,
		 offset_text(err.offset, off, sizeof(off)));
	return rc;
}

static int scan_answer(void *arg, const struct case_item *c, void *out)
{
	struct scan_answer a;
	int m = c->e->is_match(c->h, st.corpus.data, st.corpus.len);

	(void)arg;
	if (m < 0)
		return m;
	a.matched = m;
	a.answer = scan_model_answer(c->e, c->h);
	if (a.answer < 0)
		return (int)a.answer;
	memcpy(out, &a, sizeof(a));
	return 0;
}

static void scan_describe(void *arg, const struct case_item *c,
			  const void *answer, char *buf, size_t size)
{
	const struct scan_answer *a = answer;

	(void)arg;
	(void)c;
	snprintf(buf, size, "%s %ld, is_match %ld",
		 st.model == MODEL_GREP ? "matching lines" : "count", a->answer,
		 a->matched);
}

static int scan_run_count(void *arg, uint64_t n)
{
	const struct case_item *c = arg;
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
	const struct case_item *c = arg;

	for (uint64_t i = 0; i < n; i++) {
		long v = grep_count(c->e, c->h);
		if (v < 0)
			return (int)v;
	}
	return 0;
}

static int scan_bench(void *arg, struct case_item *c, const void *answer,
		      struct bench *b)
{
	const struct scan_answer *a = answer;

	(void)arg;
	b->run = st.model == MODEL_GREP ? scan_run_grep : scan_run_count;
	b->arg = c;
	b->bytes_per_op = (double)st.corpus.len;
	b->extra[0] = (struct bench_metric){"matches", BETTER_EXACT,
					    (double)a->answer};
	b->nextra = 1;
	return 0;
}

static void scan_release(void *arg, struct case_item *c)
{
	(void)arg;
	c->e->free(c->h);
}

static const struct case_ops scan_ops = {
	.answer_size = sizeof(struct scan_answer),
	.compile = scan_compile,
	.answer = scan_answer,
	.expect = scan_expect,
	.describe = scan_describe,
	.bench = scan_bench,
	.release = scan_release,
};

/* --- the case table -------------------------------------------------- */

/*
 * Capabilities that the engine's caps cannot express alone: `$` outside
 * multiline mode on an engine where it is the end of data only, over a
 * corpus that ends with '\n' (PCRE's `$` also matches before it).  A
 * pattern out of the reference's reach is judged by its bytes.
 */
static int scan_gate(const struct scan_pattern *p, const struct engine *e,
		     char *why, size_t size)
{
	int dollar = p->ref != NULL ? (ref_features(p->ref) & REF_USES_DOLLAR) != 0
				    : memchr(p->re, '$', p->len) != NULL;

	if (st.model != MODEL_COUNT || (e->caps & CAP_PERL_DOLLAR) || !dollar ||
	    st.corpus.len == 0 || st.corpus.data[st.corpus.len - 1] != '\n')
		return 0;
	snprintf(why, size, "`$` is the end of data only in %s, and the corpus "
		 "ends with a newline, before which PCRE's `$` matches too "
		 "(needs perl-dollar)", e->name);
	return 1;
}

static void case_name(const struct scan_pattern *p, const struct engine *e,
		      char *buf, size_t size)
{
	snprintf(buf, size, "Scan/engine=%s/pattern=%s%s", e->name, p->name,
		 st.model == MODEL_GREP ? "/model=grep" : "");
}

/* The cases of pattern i: one per engine, group i. */
static int scan_add_cases(struct suite_ctx *ctx, size_t i)
{
	struct scan_pattern *p = &st.pats[i];
	unsigned needs = p->needs | (p->ref ? ref_needs(p->ref) : 0);

	for (size_t j = 0; j < ctx->nengines; j++) {
		const struct engine *e = ctx->engines[j];
		char name[256], label[128], gate[256];
		int gated = scan_gate(p, e, gate, sizeof(gate));

		case_name(p, e, name, sizeof(name));
		snprintf(label, sizeof(label), "%s: pattern %s", e->name,
			 p->name);
		if (case_add(&st.table, name, label, e, needs,
			     gated ? gate : NULL, i, scan_class(e), p) != 0)
			return -1;
	}
	return 0;
}

static int scan_prepare(struct suite_ctx *ctx)
{
	int rc;

	if (load_inputs() != 0)
		return -1;
	case_table_init(&st.table, "scan", &scan_ops, NULL);
	for (size_t i = 0; i < st.npats && !interrupt_signal(); i++) {
		scan_ref_compile(&st.pats[i]);
		if (scan_add_cases(ctx, i) != 0)
			return -1;
	}
	rc = case_run(&st.table, ctx);
	if (rc == STATUS_INTERRUPTED)
		return 0; /* nothing more is planned: the run stops */
	return rc;
}

static void scan_cleanup(void)
{
	case_table_release(&st.table);
	for (size_t i = 0; i < st.npats; i++) {
		free(st.pats[i].name);
		free(st.pats[i].re);
		if (st.pats[i].ref != NULL)
			ref_free(st.pats[i].ref);
	}
	free(st.pats);
	strset_release(&st.names);
	free(st.lines);
	corpus_release(&st.corpus);
	st.pats = NULL;
	st.lines = NULL;
	st.npats = st.cap = 0;
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

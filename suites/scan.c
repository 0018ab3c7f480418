/*
 * scan.c - the generic scan suite: patterns over a whole corpus.
 *
 * Models (rebar's): `count` counts the matches in the whole corpus as one
 * op; `grep` counts the lines that match (GNU grep's lines: split at
 * '\n', a '\r' before it is part of the line); `set` runs every pattern
 * at once, as grep -f does, on every line (scan_set.c).  The suite is a
 * generator of cases, one per pattern x engine (the set: one per engine),
 * for the one pipeline of
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
#include "suites/case.h"
#include "suites/reference.h"
#include "suites/scan_int.h"
#include "suites/strset.h"

#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#define SCAN_MAX_PATTERN (1 << 20) /* bytes of one --patterns-file line */
#define SCAN_CORPUS_SIZE (1u << 20) /* the built-in corpus */
#define SCAN_NAME_BYTES 32 /* of a pattern in its benchmark name */

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

static int add_pattern(struct scan_run *r, const char *name, const char *re,
		       size_t len, unsigned flags, unsigned needs, int user)
{
	struct scan_pattern *p;

	if (r->npats == r->cap) { /* doubling: 100,000 patterns load at once */
		size_t cap = r->cap ? r->cap * 2 : 16;
		struct scan_pattern *grown = realloc(r->pats, cap * sizeof(*grown));
		if (grown == NULL)
			return -1;
		r->pats = grown;
		r->cap = cap;
	}
	p = &r->pats[r->npats];
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
	p->line = 0;
	p->file = NULL;
	p->expect_first = -1;
	p->ref = NULL;
	p->expect_lines = -1;
	r->npats++;
	return 0;
}

/*
 * A benchmark name's level holds a pattern as it can: Go's benchmark
 * format ends a name at white space (benchstat splits the line into
 * fields there) and '/' separates its levels.  So its printable ASCII
 * bytes stay as they are ('=' too: every reader of a level, benchstat's
 * included, splits it at its first '='), but white space becomes '_' (go
 * test's own rule for b.Run names), '/' becomes `\x2f` (readable, and the
 * pattern's own spelling of '/'), and every other byte (controls, DEL,
 * bytes above 0x7e: names are ASCII) '_'.  The first SCAN_NAME_BYTES bytes
 * of s only; a '-' before the digits that end it becomes '_' (benchstat
 * reads "GPL-3" as GOMAXPROCS 3).  The pattern itself is recorded whole
 * in the row's inputs ("pattern"), and a name repeated gets "#N".
 */
void scan_name_part(const char *s, size_t len, char *out, size_t size)
{
	size_t j = 0, n = len < SCAN_NAME_BYTES ? len : SCAN_NAME_BYTES;

	for (size_t i = 0; i < n && j + 5 < size; i++) {
		unsigned char c = (unsigned char)s[i];
		if (c == '/')
			j += (size_t)snprintf(out + j, size - j, "\\x2f");
		else
			out[j++] = c > ' ' && c < 0x7f ? (char)c : '_';
	}
	out[j] = '\0';
	while (j > 0 && out[j - 1] >= '0' && out[j - 1] <= '9')
		j--;
	if (j > 0 && out[j] != '\0' && out[j - 1] == '-')
		out[j - 1] = '_';
}

/* A user pattern's name: its text made name-safe, numbered "#N" if
 * repeated, as go test numbers a repeated b.Run name (r->names finds
 * repeats in O(1): 100,000 patterns load at once).  file and line: where
 * it was read (NULL and 0: --pattern). */
static int add_user_pattern(struct scan_run *r, const char *re, size_t len,
			    const char *file, long line)
{
	char name[192];
	size_t l;

	if (r->names.slot == NULL && strset_init(&r->names, 64) != 0)
		return -1;
	scan_name_part(re, len, name, sizeof(name) - 24);
	if (name[0] == '\0')
		snprintf(name, sizeof(name), "empty");
	l = strlen(name);
	for (size_t k = r->npats + 1; strset_find(&r->names, name, strlen(name),
						  NULL); k++)
		snprintf(name + l, sizeof(name) - l, "#%zu", k);
	if (strset_add(&r->names, name, strlen(name), 0) < 0)
		return -1;
	if (add_pattern(r, name, re, len, 0, 0, 1) != 0)
		return -1;
	r->pats[r->npats - 1].line = line;
	r->pats[r->npats - 1].file = file;
	return 0;
}

/* The letters of --flags and of the "flags" input, and their bits. */
static const struct {
	char letter;
	unsigned flag; /* enum engine_flag */
} scan_flag_letters[] = {
	{'i', ENGINE_CASELESS}, {'s', ENGINE_DOTALL}, {'m', ENGINE_MULTILINE},
	{'a', ENGINE_ANCHORED}, {'u', ENGINE_UTF8},
};

#define SCAN_NFLAGS (sizeof(scan_flag_letters) / sizeof(scan_flag_letters[0]))

/* --flags=isma...: the enum engine_flag bits for user patterns. */
static int opt_flags(void *cfg, const char *v, char *err, size_t size)
{
	unsigned f = 0;

	for (const char *p = v; *p; p++) {
		size_t k = 0;
		while (k < SCAN_NFLAGS && scan_flag_letters[k].letter != *p)
			k++;
		if (k == SCAN_NFLAGS) {
			snprintf(err, size, "unknown flag '%c' (use i, s, m, a, "
				 "u)", *p);
			return -1;
		}
		f |= scan_flag_letters[k].flag;
	}
	((struct scan_config *)cfg)->flags = f;
	return 0;
}

void scan_flags_text(unsigned flags, char *buf)
{
	size_t j = 0;

	for (size_t k = 0; k < SCAN_NFLAGS; k++)
		if (flags & scan_flag_letters[k].flag)
			buf[j++] = scan_flag_letters[k].letter;
	buf[j] = '\0';
}

/* v appended to the list *list of *n (capacity *cap).  0, or -1 with
 * the reason in err. */
static int opt_append(const char ***list, size_t *n, size_t *cap,
		      const char *v, char *err, size_t size)
{
	if (*n == *cap) {
		size_t grow = *cap ? *cap * 2 : 8;
		const char **grown = realloc(*list, grow * sizeof(*grown));
		if (grown == NULL) {
			snprintf(err, size, "out of memory");
			return -1;
		}
		*list = grown;
		*cap = grow;
	}
	(*list)[(*n)++] = v;
	return 0;
}

static int opt_pattern(void *cfg, const char *v, char *err, size_t size)
{
	struct scan_config *c = cfg;

	return opt_append(&c->patterns, &c->npatterns, &c->cap, v, err, size);
}

/* --patterns-file, repeatable as --pattern is: every file, in order. */
static int opt_patterns_file(void *cfg, const char *v, char *err,
			     size_t size)
{
	struct scan_config *c = cfg;

	return opt_append(&c->paths, &c->npaths, &c->pathcap, v, err, size);
}

static int opt_model(void *cfg, const char *v, char *err, size_t size)
{
	struct scan_config *c = cfg;

	if (strcmp(v, "count") == 0)
		c->model = MODEL_COUNT;
	else if (strcmp(v, "grep") == 0)
		c->model = MODEL_GREP;
	else if (strcmp(v, "set") == 0)
		c->model = MODEL_SET;
	else {
		snprintf(err, size, "use count, grep or set");
		return -1;
	}
	return 0;
}

static void scan_config_release(void *cfg)
{
	free(((struct scan_config *)cfg)->patterns);
	free(((struct scan_config *)cfg)->paths);
}

#define SCAN_OPT(f) offsetof(struct scan_config, f)
static const struct opt_spec scan_options[] = {
	{"pattern", "RE", "a pattern (repeatable); its benchmark name holds\n"
	 "its first 32 bytes: printable ASCII as it\n"
	 "is but white space as '_', '/' as \\x2f,\n"
	 "other bytes as '_'; a repeated name gets\n"
	 "#N; the pattern whole is the row's input\n"
	 "\"pattern\"", OPT_CALL, 0, 0, 0, opt_pattern},
	{"patterns-file", "FILE", "one pattern per line (repeatable: every\n"
	 "file, in order, after the --pattern ones); a\n"
	 "line ends at \\n or \\r\\n (neither is part of\n"
	 "the pattern); blank lines and lines starting\n"
	 "with # are skipped", OPT_CALL, 0, 0, 0, opt_patterns_file},
	{"corpus", "FILE", "the haystack (default: 1 MiB generated prose)",
	 OPT_TEXT, SCAN_OPT(corpus_path), 0, 0, NULL},
	{"model", "count|grep|set", "matches in the file, matching lines, or\n"
	 "set: every pattern at once on each line, as\n"
	 "grep -f (the lines any matches and which\n"
	 "patterns match each; match_ids, a native set\n"
	 "or each pattern in turn: input \"set\");\n"
	 "named Scan/engine=E/patterns=FILE/model=set",
	 OPT_CALL, 0, 0, 0, opt_model},
	{"flags", "ismau", "for every user pattern: caseless, dotall,\n"
	 "multiline, anchored, UTF-8", OPT_CALL, 0, 0, 0, opt_flags},
	{NULL, NULL, NULL, OPT_FLAG, 0, 0, 0, NULL},
};

/* A UTF-8 byte-order mark (what Windows editors put first), skipped. */
static void skip_bom(struct line *first)
{
	if (first->len >= 3 && memcmp(first->p, "\xef\xbb\xbf", 3) == 0) {
		first->p += 3;
		first->len -= 3;
	}
}

/*
 * Read one --patterns-file: one pattern per line, a line ending at '\n'
 * or "\r\n" (corpus_lines: a file saved on Windows means what it says
 * on Linux), a UTF-8 byte-order mark at its start skipped, blank lines
 * and lines starting with '#' skipped (a pattern that starts with a
 * literal '#' is written `\#` or `[#]`).  A pattern longer than
 * SCAN_MAX_PATTERN is refused: some engines need a few hundred bytes of
 * memory per pattern byte (glibc: 220 MiB for one MiB), and no real
 * pattern is that long.  A file without a pattern is refused too.
 */
static int load_patterns_file(struct scan_run *r, const char *path)
{
	struct corpus f;
	struct line *lines = NULL;
	char err[512];
	size_t before = r->npats;
	long n;

	if (corpus_load_file(&f, path, err, sizeof(err)) != 0) {
		fprintf(stderr, "rxbench: --patterns-file=%s\n", err);
		return -1;
	}
	n = corpus_lines(&f, &lines);
	if (n > 0)
		skip_bom(&lines[0]);
	for (long i = 0; i < n; i++) {
		if (lines[i].len > SCAN_MAX_PATTERN) {
			fprintf(stderr, "rxbench: %s:%ld: pattern of %zu bytes, "
				"longer than %d (1 MiB)\n", path, i + 1,
				lines[i].len, SCAN_MAX_PATTERN);
			n = -2;
		} else if (lines[i].len > 0 && lines[i].p[0] != '#' &&
			   add_user_pattern(r, lines[i].p, lines[i].len, path,
					    i + 1) != 0) {
			n = -1;
		}
	}
	if (n == 0 || (n > 0 && r->npats == before))
		fprintf(stderr, "rxbench: --patterns-file=%s: no patterns in "
			"the file\n", path);
	free(lines);
	corpus_release(&f);
	return n > 0 && r->npats > before ? 0 : -1;
}

/* With --flags=u the corpus must be UTF-8: PCRE2's JIT and Oniguruma
 * trust it and would read past a broken sequence. */
static int check_utf8_corpus(const struct scan_run *r)
{
	long bad;

	if (!(r->cfg->flags & ENGINE_UTF8) || r->cfg->corpus_path == NULL)
		return 0;
	bad = engine_utf8_invalid(r->corpus.data, r->corpus.len);
	if (bad < 0)
		return 0;
	fprintf(stderr, "rxbench: %s: not UTF-8 at byte %ld (--flags=u needs "
		"a UTF-8 corpus)\n", r->cfg->corpus_path, bad);
	return -1;
}

/* The built-in table, with its expected answers when the corpus is ours;
 * as a set, the patterns without flags of their own (8 of 10): a set is
 * compiled with one set of flags, as grep -f reads every pattern alike. */
static int add_builtin_patterns(struct scan_run *r)
{
	for (size_t i = 0; i < sizeof(builtin) / sizeof(builtin[0]); i++) {
		struct scan_pattern *p;
		if (r->model == MODEL_SET && builtin[i].flags != 0)
			continue;
		if (add_pattern(r, builtin[i].name, builtin[i].re,
				strlen(builtin[i].re), builtin[i].flags,
				builtin[i].needs, 0) != 0)
			return -1;
		p = &r->pats[r->npats - 1];
		if (r->cfg->corpus_path == NULL) {
			p->expect_first = builtin[i].first;
			p->expect_lines = builtin[i].lines;
		}
	}
	return 0;
}

/* The corpus every case runs on, as inputs of every row. */
static int scan_corpus_inputs(struct scan_run *r)
{
	if (r->cfg->corpus_path == NULL &&
	    case_table_input(&r->table, "seed", "1", 1) != 0)
		return -1;
	return case_table_input_data(&r->table, "corpus", r->cfg->corpus_path,
				     "generated prose", r->corpus.data,
				     r->corpus.len);
}

static int load_inputs(struct scan_run *r)
{
	char err[512];

	for (size_t i = 0; i < r->cfg->npatterns; i++)
		if (add_user_pattern(r, r->cfg->patterns[i],
				     strlen(r->cfg->patterns[i]), NULL, 0) != 0)
			return -1;
	for (size_t i = 0; i < r->cfg->npaths; i++)
		if (load_patterns_file(r, r->cfg->paths[i]) != 0)
			return -1;
	if (r->npats == 0 && add_builtin_patterns(r) != 0)
		return -1;
	if (r->cfg->corpus_path != NULL) {
		if (corpus_load_file(&r->corpus, r->cfg->corpus_path, err,
				     sizeof(err)) != 0) {
			fprintf(stderr, "rxbench: --corpus=%s\n", err);
			return -1;
		}
	} else if (text_generate(&r->corpus, SCAN_CORPUS_SIZE, 1) != 0) {
		return -1;
	}
	if (check_utf8_corpus(r) != 0 || scan_corpus_inputs(r) != 0)
		return -1;
	/* --flags is for every user pattern, wherever it stood */
	for (size_t i = 0; i < r->npats; i++)
		if (r->pats[i].user)
			r->pats[i].flags = r->cfg->flags;
	r->nlines = corpus_lines_exact(&r->corpus, &r->lines);
	return r->nlines < 0 ? -1 : 0;
}

/* --- answers --------------------------------------------------------- */

/* One case's answer, as the verifying child computes it. */
struct scan_answer {
	long matched; /* is_match on the whole corpus (grep model: on a line,
			 as grep -q: a `$` before the corpus's final newline is
			 no line's end) */
	long answer;  /* the count, or the matching lines (grep model) */
};

const struct engine_span *scan_inputs(struct scan_run *r)
{
	int lines = r->model != MODEL_COUNT;
	size_t n = lines ? (size_t)r->nlines : 1;

	if (r->rin != NULL)
		return r->rin;
	r->rin = calloc(n ? n : 1, sizeof(*r->rin));
	if (r->rin == NULL)
		return NULL;
	for (size_t i = 0; lines && i < n; i++)
		r->rin[i] = (struct engine_span){r->lines[i].p, r->lines[i].len};
	if (!lines)
		r->rin[0] = (struct engine_span){r->corpus.data, r->corpus.len};
	r->nrin = n;
	return r->rin;
}

int scan_work_gate(struct scan_run *r, const struct engine *e,
		   enum engine_op op, char *why, size_t size)
{
	struct engine_work w = {op, 0, NULL, 0, scan_inputs(r), r->nrin,
				NULL, 0, 0};

	return w.inputs != NULL && engine_work_refused(e, &w, why, size);
}

/* The timed op of the grep model: is_match on every line, counting the
 * matching ones; <0 on error. */
static long grep_count(const struct scan_run *r, const struct engine *e,
		       void *h)
{
	long hits = 0;

	for (long i = 0; i < r->nlines; i++) {
		int m = e->is_match(h, r->lines[i].p, r->lines[i].len);
		if (m < 0)
			return m;
		hits += m;
	}
	return hits;
}

/* The answer of the grep model: its lines asked at once (a runner's in
 * one request); <0 on error. */
static long grep_answer(struct scan_run *r, const struct engine *e, void *h)
{
	const struct engine_span *in = scan_inputs(r);
	long *v = malloc(r->nrin * sizeof(*v) + 1);
	long hits = in == NULL || v == NULL ? ENGINE_ERR_NOMEM : 0;

	if (hits == 0)
		hits = engine_answers(e, h, ENGINE_OP_IS_MATCH, in, r->nrin, 0,
				      v, NULL, NULL);
	for (size_t i = 0; hits >= 0 && i < r->nrin; i++)
		hits += v[i];
	free(v);
	return hits;
}

/* The answer engine e gives under the current model; <0 on error. */
static long scan_model_answer(struct scan_run *r, const struct engine *e,
			      void *h)
{
	if (r->model == MODEL_GREP)
		return grep_answer(r, e, h);
	if (e->count == NULL)
		return ENGINE_ERR_UNSUPPORTED;
	return e->count(h, r->corpus.data, r->corpus.len);
}

/* Cases of one pattern share a reference class when their answers must
 * agree: every engine in the grep model, a semantics class otherwise
 * (the test-only noop, which has none, is held to leftmost-first). */
static int scan_class(const struct scan_run *r, const struct engine *e)
{
	if (r->model == MODEL_GREP)
		return 0;
	return engine_semantics(e) == SEM_NONE ? SEM_LEFTMOST_FIRST
						 : (int)engine_semantics(e);
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

static long ref_grep(const struct scan_run *r, const struct ref_regex *re)
{
	long hits = 0;

	for (long i = 0; i < r->nlines; i++)
		hits += ref_is_match(re, r->lines[i].p, r->lines[i].len);
	return hits;
}

/* The reference's answer for class k of p, in *a.  0 or -1 (memory). */
static int scan_ref_answer(const struct scan_run *r,
			   const struct scan_pattern *p, int k,
			   struct scan_answer *a)
{
	if (r->model == MODEL_GREP) {
		a->answer = ref_grep(r, p->ref);
		a->matched = a->answer > 0;
	} else {
		a->matched = ref_is_match(p->ref, r->corpus.data,
					  r->corpus.len);
		a->answer = ref_count(p->ref, (enum engine_semantics)k,
				      r->corpus.data, r->corpus.len);
	}
	return a->answer < 0 ? -1 : 0;
}

static const char *scan_class_name(const struct scan_run *r, int k)
{
	return r->model == MODEL_GREP ? "matching lines"
				      : engine_semantics_name((enum engine_semantics)k);
}

/* case_ops.expect: the built-in table's answer, else the reference's. */
static int scan_expect(void *st, const struct case_item *c, void *out,
		       char *by, size_t size)
{
	const struct scan_run *r = st;
	const struct scan_pattern *p = c->arg;
	struct scan_answer *a = out;
	long table = r->model == MODEL_GREP ? p->expect_lines : p->expect_first;

	if (table >= 0 && (r->model == MODEL_GREP ||
			   c->klass == SEM_LEFTMOST_FIRST)) {
		a->answer = table;
		a->matched = table > 0;
		snprintf(by, size, "the built-in table's %s answer",
			 scan_class_name(r, c->klass));
		return CASE_REF_OK;
	}
	if (p->ref == NULL) {
		snprintf(by, size, "the reference %s it (%s)",
			 p->ref_rc == REF_INVALID ? "refuses" : "cannot check",
			 p->ref_why);
		return CASE_REF_NONE;
	}
	if (scan_ref_answer(r, p, c->klass, a) != 0)
		return CASE_REF_ERROR;
	snprintf(by, size, "reference, %s", scan_class_name(r, c->klass));
	return CASE_REF_OK;
}

/* --- the case pipeline's operations ---------------------------------- */

const char *scan_offset_text(long offset, char *buf, size_t size)
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
			 scan_offset_text(err.offset, off, sizeof(off)));
		return ENGINE_ERR_UNSUPPORTED;
	}
	snprintf(why, size, "%s%s", err.msg,
		 scan_offset_text(err.offset, off, sizeof(off)));
	return rc;
}

static int scan_answer(void *st, const struct case_item *c, void *out)
{
	struct scan_run *r = st;
	struct scan_answer a;
	int m = r->model == MODEL_GREP
			? 0
			: c->e->is_match(c->h, r->corpus.data, r->corpus.len);

	if (m < 0)
		return m;
	a.answer = scan_model_answer(r, c->e, c->h);
	if (a.answer < 0)
		return (int)a.answer;
	a.matched = r->model == MODEL_GREP ? a.answer > 0 : m;
	memcpy(out, &a, sizeof(a));
	return 0;
}

static void scan_describe(void *st, const struct case_item *c,
			  const void *answer, char *buf, size_t size)
{
	const struct scan_run *r = st;
	const struct scan_answer *a = answer;

	(void)c;
	snprintf(buf, size, "%s %ld, is_match %ld",
		 r->model == MODEL_GREP ? "matching lines" : "count", a->answer,
		 a->matched);
}

static int scan_run_count(void *arg, uint64_t n)
{
	const struct case_item *c = arg;
	const struct scan_run *r = c->st;
	volatile long sink = 0;

	for (uint64_t i = 0; i < n; i++) {
		long v = c->e->count(c->h, r->corpus.data, r->corpus.len);
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
	const struct scan_run *r = c->st;

	for (uint64_t i = 0; i < n; i++) {
		long v = grep_count(r, c->e, c->h);
		if (v < 0)
			return (int)v;
	}
	return 0;
}

/* The same op as work: the model's over the corpus, or every line. */
static int scan_bench_work(struct scan_run *r, struct case_item *c,
			   struct bench *b)
{
	struct engine_work w = {r->model == MODEL_GREP ? ENGINE_OP_IS_MATCH
						       : ENGINE_OP_COUNT,
				0, &c->h, 1, scan_inputs(r), r->nrin,
				NULL, 0, 0};

	if (w.inputs == NULL)
		return -1;
	return case_bench_work(b, c->e, c->h, &w);
}

static int scan_bench(void *st, struct case_item *c, const void *answer,
		      struct bench *b)
{
	struct scan_run *r = st;
	const struct scan_answer *a = answer;

	b->run = r->model == MODEL_GREP ? scan_run_grep : scan_run_count;
	b->arg = c;
	b->bytes_per_op = (double)r->corpus.len;
	b->extra[0] = (struct bench_metric){"matches", BETTER_EXACT,
					    (double)a->answer};
	b->nextra = 1;
	return scan_bench_work(r, c, b);
}

static void scan_release(void *arg, struct case_item *c)
{
	(void)arg;
	c->e->free(c->h);
}

static int scan_voter(void *st, const struct case_item *c,
		      const struct engine *e, int *klass);

static const struct case_ops scan_ops = {
	.answer_size = sizeof(struct scan_answer),
	.compile = scan_compile,
	.answer = scan_answer,
	.expect = scan_expect,
	.describe = scan_describe,
	.bench = scan_bench,
	.release = scan_release,
	.voter = scan_voter,
};

/* --- the case table -------------------------------------------------- */

/*
 * What the engine's caps cannot express alone: the model's op, which an
 * engine may lack or not time (scan_work_gate: xdp has no count, and
 * times one input per op); `$` outside multiline mode on an engine where
 * it is the end of data only, over a corpus that ends with '\n' (PCRE's
 * `$` also matches before it).  A pattern out of the reference's reach is
 * judged by its bytes.
 */
static int scan_gate(struct scan_run *r, const struct scan_pattern *p,
		     const struct engine *e, char *why, size_t size)
{
	int dollar = p->ref != NULL ? (ref_features(p->ref) & REF_USES_DOLLAR) != 0
				    : memchr(p->re, '$', p->len) != NULL;

	if (scan_work_gate(r, e, r->model == MODEL_GREP ? ENGINE_OP_IS_MATCH
							: ENGINE_OP_COUNT,
			   why, size))
		return 1;
	if (r->model != MODEL_COUNT || (e->caps & CAP_PERL_DOLLAR) || !dollar ||
	    r->corpus.len == 0 || r->corpus.data[r->corpus.len - 1] != '\n')
		return 0;
	snprintf(why, size, "`$` is the end of data only in %s, and the corpus "
		 "ends with a newline, before which PCRE's `$` matches too "
		 "(needs perl-dollar)", e->name);
	return 1;
}

/* case_ops.voter: e votes where scan_gate() would let it run. */
static int scan_voter(void *st, const struct case_item *c,
		      const struct engine *e, int *klass)
{
	struct scan_run *r = st;
	char why[256];

	*klass = scan_class(r, e);
	return scan_gate(r, c->arg, e, why, sizeof(why));
}

static void case_name(const struct scan_run *r, const struct scan_pattern *p,
		      const struct engine *e, char *buf, size_t size)
{
	snprintf(buf, size, "Scan/engine=%s/pattern=%s%s", engine_bench_name(e),
		 p->name, r->model == MODEL_GREP ? "/model=grep" : "");
}

/* The cases of pattern i: one per engine, group i. */
static int scan_add_cases(struct scan_run *r, struct suite_ctx *ctx, size_t i)
{
	struct scan_pattern *p = &r->pats[i];
	unsigned needs = p->needs | (p->ref ? ref_needs(p->ref)
					   : engine_pattern_needs(p->re, p->len));

	for (size_t j = 0; j < ctx->nengines; j++) {
		const struct engine *e = ctx->engines[j];
		char name[256], label[128], gate[256];
		int gated = scan_gate(r, p, e, gate, sizeof(gate));

		case_name(r, p, e, name, sizeof(name));
		snprintf(label, sizeof(label), "%s: pattern %s", e->name,
			 p->name);
		char flags[SCAN_NFLAGS + 1];
		if (case_add(&r->table, name, label, e, needs,
			     gated ? gate : NULL, i, scan_class(r, e), p) != 0)
			return -1;
		scan_flags_text(p->flags, flags);
		if (case_input(&r->table, "pattern", p->re, p->len) != 0 ||
		    case_input(&r->table, "flags", flags, strlen(flags)) != 0)
			return -1;
	}
	return 0;
}

static void scan_cleanup(void *run)
{
	struct scan_run *r = run;

	case_table_release(&r->table);
	for (size_t i = 0; i < r->npats; i++) {
		free(r->pats[i].name);
		free(r->pats[i].re);
		if (r->pats[i].ref != NULL)
			ref_free(r->pats[i].ref);
	}
	free(r->pats);
	strset_release(&r->names);
	scan_set_free(r->set);
	free(r->lines);
	free(r->rin);
	corpus_release(&r->corpus);
	free(r);
}

/* Up to 60 bytes of p's pattern for a message (msg_quote_text: a
 * pattern that is not UTF-8 has its bytes above 0x7e written \xHH);
 * "..." after a longer one. */
void scan_pattern_shown(const struct scan_pattern *p, char *buf, size_t size)
{
	msg_quote_text(p->re, p->len, 60, buf, size);
}

/*
 * A user pattern the reference's parser refuses (what PCRE2 rejects), or
 * where it stops early, PCRE2's compiler, is the user's mistake, not an
 * engine's: one line naming it, where it stood and the offset, before
 * any engine runs.  0, or -1 after them.
 */
/*
 * Where the reference stops before a pattern's end (a construct out of
 * its reach), the rest is judged by PCRE2's compiler, whose syntax
 * rxbench documents: (?<=a)[[=b=]] is no pattern to PCRE2, and three
 * libraries reading it as [[=b] then ']' must not verify one another.
 * 1 with why filled when PCRE2 refuses its syntax; 0 when it compiles,
 * refuses it for another reason, or is not built.
 */
static int pcre2_refuses(const struct scan_pattern *p, char *why,
			 size_t size)
{
	const struct engine *e = engine_find("pcre2");
	struct engine_pattern ep = {p->re, p->len};
	struct engine_error err = {0, -1, -1, ""};
	void *h = NULL;

	if (e == NULL || e->compile(&ep, 1, p->flags, &h, &err) == 0) {
		if (e != NULL && h != NULL)
			e->free(h);
		return 0;
	}
	if (err.status != ENGINE_ERR_COMPILE)
		return 0;
	if (err.offset >= 0)
		snprintf(why, size, "%.200s at offset %ld (PCRE2's compiler)",
			 err.msg, err.offset);
	else
		snprintf(why, size, "%.200s (PCRE2's compiler)", err.msg);
	return 1;
}

static int check_syntax(const struct scan_run *r)
{
	int rc = 0;

	for (size_t i = 0; i < r->npats; i++) {
		const struct scan_pattern *p = &r->pats[i];
		char where[300], shown[300], msg[1000], why[300];
		if (!p->user || p->ref_rc == REF_OK || p->ref_rc == REF_NOMEM)
			continue;
		if (p->ref_rc == REF_INVALID)
			snprintf(why, sizeof(why), "%s", p->ref_why);
		else if (strncmp(p->ref_why, REF_WHY_TOO_LARGE,
				 strlen(REF_WHY_TOO_LARGE)) == 0 ||
			 !pcre2_refuses(p, why, sizeof(why)))
			continue; /* parsed whole: too large is no syntax */
		if (p->file != NULL)
			snprintf(where, sizeof(where), "%s:%ld", p->file,
				 p->line);
		else
			snprintf(where, sizeof(where), "--pattern");
		scan_pattern_shown(p, shown, sizeof(shown));
		snprintf(msg, sizeof(msg), "%s: pattern %s: %s (no engine ran)",
			 where, shown, why);
		msg_escape_controls(msg, sizeof(msg));
		fprintf(stderr, "rxbench: %s\n", msg);
		rc = -1;
	}
	return rc;
}

/* A signal (interrupt.h) stops it with what is planned so far. */
static void *scan_prepare(struct suite_ctx *ctx, const void *cfg)
{
	struct scan_run *r = calloc(1, sizeof(*r));

	if (r == NULL)
		return NULL;
	r->cfg = cfg;
	r->model = r->cfg->model;
	case_table_init(&r->table, "scan", &scan_ops, r);
	if (load_inputs(r) != 0)
		goto fail;
	for (size_t i = 0; i < r->npats && !interrupt_signal(); i++)
		scan_ref_compile(&r->pats[i]);
	if (check_syntax(r) != 0)
		goto fail;
	if (r->model == MODEL_SET && scan_set_add_cases(r, ctx) != 0)
		goto fail;
	for (size_t i = 0; r->model != MODEL_SET && i < r->npats &&
			   !interrupt_signal(); i++)
		if (scan_add_cases(r, ctx, i) != 0)
			goto fail;
	if (case_run(&r->table, ctx) == -1)
		goto fail;
	return r;
fail:
	scan_cleanup(r);
	return NULL;
}

/* The report's verdict and tables (report/layout_decl.h). */
static const char *const scan_layout[] = {
	/* the count and grep models' rows have a pattern= level, the set
	   model's a patterns= level instead: a verdict by a key no result has
	   (`?`) is left out, so a run shows the verdict of its model */
	"verdict by=pattern? who=engine metric=ns/op show=MB/s overall=1 "
	"question='Which engine scans this corpus fastest, per pattern and "
	"overall?'",
	"table title='ns/op per engine' rows=pattern cols=engine "
	"metrics=ns/op",
	"table split=patterns? rows=pattern?,engine "
	"metrics=ns/op,MB/s,matches,B/op,allocs/op",
	"verdict by=patterns? who=engine metric=ns/op show=MB/s,matches,ids "
	"question='Which engine runs the whole pattern set fastest, as grep "
	"-f does (each line: does any pattern match, and which)?'",
	NULL,
};

const struct suite suite_scan = {
	.name = "scan",
	.desc = "count matches, matching lines or a set's lines in a corpus",
	.in_default = 1,
	/* an op is a whole corpus (milliseconds): 200 ms is tens of ops */
	.default_benchtime_ns = 200e6,
	.options = scan_options,
	.config_size = sizeof(struct scan_config),
	.config_release = scan_config_release,
	.prepare = scan_prepare,
	.cleanup = scan_cleanup,
	.layout = scan_layout,
};

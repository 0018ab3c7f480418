/*
 * re2.c - RE2 (automata, linear time) through the project's C binding
 * engines/cre2.h.  Engine `re2`.
 *
 * A single pattern is a plain RE2.  A set of several is also an RE2::Set,
 * RE2's native multi-pattern DFA, which answers is_match and match_ids;
 * the per-pattern RE2 objects are kept too because a set cannot report
 * match extents, so count() walks them one by one.
 *
 * Semantics worth knowing: bytes are Latin-1 unless ENGINE_UTF8 (then
 * count() resumes one character past an empty match and takes no empty
 * match inside a character, as the reference counts, suites/reference.h:
 * RE2 alone would search from inside the character); `$`
 * without ENGINE_MULTILINE matches only at the very end of the data (RE2
 * has no "before a final newline" rule, unlike PCRE2); ENGINE_MULTILINE
 * is RE2's (?m), prefixed to each pattern because RE2's Perl mode has no
 * option for it.  RE2 has no version API: CMake passes RXB_RE2_VERSION
 * (from pkg-config or dpkg).
 *
 * Threads (engine.thread_new): RE2's and RE2::Set's matching methods are
 * const and documented thread-safe; the one state a handle changes while
 * it matches is the set's result vector, so a thread's state borrows the
 * compiled RE2s and the set and has its own vector and hits.
 *
 * Build: only when CMake found RE2 (RXB_HAVE_RE2).
 */
#include "engines/engine.h"
#include "engines/cre2.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifndef RXB_RE2_VERSION
#define RXB_RE2_VERSION "unknown"
#endif

/*
 * --engine-opt re2.max_mem, longest_match, literal.  RE2's own default
 * budget is 8 MiB; rxbench's is 256 MiB, which large sets need for their
 * DFA.  longest_match makes RE2 leftmost-longest (engine_semantics()
 * follows it); literal reads every pattern as a literal string, which the
 * references do not: a pattern with metacharacters then MISMATCHes.
 */
static uint64_t re2_max_mem = (uint64_t)256 << 20;
static uint64_t re2_longest = 0;
static uint64_t re2_literal = 0;

static const struct engine_option re2_options_table[] = {
	{"max_mem", ENGINE_OPT_SIZE, "256M",
	 "memory budget: program and DFA states (RE2's default: 8M)",
	 1u << 10, (uint64_t)1 << 40, NULL, NULL, &re2_max_mem},
	{"longest_match", ENGINE_OPT_BOOL, "false",
	 "leftmost-longest instead of leftmost-first", 0, 1, NULL, NULL,
	 &re2_longest},
	{"literal", ENGINE_OPT_BOOL, "false",
	 "patterns are literal strings, not regexes", 0, 1, NULL, NULL,
	 &re2_literal},
	{NULL, 0, NULL, NULL, 0, 0, NULL, NULL, NULL},
};

struct re2_set {
	size_t n;
	cre2_anchor_t anchor;
	int utf8;           /* ENGINE_UTF8: count() steps characters */
	cre2_regexp_t **re; /* one per pattern */
	cre2_set_t *set;    /* NULL for a single pattern */
	int *hits;          /* n slots for cre2_set_match(), made here */
	int dfa_failed;     /* a search in ENGINE_PHASE_WARM ran out of DFA
			       memory (re2_note) */
	cre2_set_hits_t *own; /* a thread's state (thread_new): its result
				 vector; re and set are the handle's */
};

static const char *re2_version(void)
{
	return RXB_RE2_VERSION;
}

static void re2_set_free(void *h)
{
	struct re2_set *s = h;

	if (s == NULL)
		return;
	if (s->own != NULL) { /* a thread's: re and set are borrowed */
		cre2_set_hits_delete(s->own);
		free(s->hits);
		free(s);
		return;
	}
	for (size_t i = 0; s->re != NULL && i < s->n; i++)
		cre2_delete(s->re[i]);
	cre2_set_delete(s->set);
	free(s->hits);
	free(s->re);
	free(s);
}

static cre2_options_t *re2_options(unsigned flags)
{
	cre2_options_t *opt = cre2_opt_new();

	if (opt == NULL)
		return NULL;
	cre2_opt_set_utf8(opt, (flags & ENGINE_UTF8) != 0);
	cre2_opt_set_case_sensitive(opt, (flags & ENGINE_CASELESS) == 0);
	cre2_opt_set_dot_nl(opt, (flags & ENGINE_DOTALL) != 0);
	cre2_opt_set_max_mem(opt, (int64_t)re2_max_mem);
	cre2_opt_set_longest_match(opt, re2_longest != 0);
	cre2_opt_set_literal(opt, re2_literal != 0);
	return opt;
}

/*
 * The pattern RE2 sees: p itself, or "(?m)" + p under ENGINE_MULTILINE.
 * Returns a malloc'd copy (caller frees) with its length in *len, or NULL.
 */
static char *re2_pattern(const struct engine_pattern *p, unsigned flags,
			 size_t *len)
{
	const char *prefix = (flags & ENGINE_MULTILINE) ? "(?m)" : "";
	size_t plen = strlen(prefix);
	char *buf = malloc(plen + p->len + 1);

	if (buf == NULL)
		return NULL;
	memcpy(buf, prefix, plen);
	if (p->len > 0)
		memcpy(buf + plen, p->re, p->len);
	buf[plen + p->len] = '\0';
	*len = plen + p->len;
	return buf;
}

/* Compiles pattern i into s->re[i] (and the set); 0 or a negative status. */
static int re2_compile_one(struct re2_set *s, size_t i,
			   const struct engine_pattern *p, unsigned flags,
			   const cre2_options_t *opt, struct engine_error *err)
{
	size_t len = 0;
	char *buf = re2_pattern(p, flags, &len);
	char msg[200];
	int rc = ENGINE_ERR_NOMEM;

	if (buf == NULL)
		goto nomem;
	s->re[i] = cre2_new(buf, len, opt);
	if (s->re[i] == NULL)
		goto nomem;
	if (cre2_error_code(s->re[i]) != CRE2_NO_ERROR) {
		engine_error_set(err, ENGINE_ERR_COMPILE, (long)i, -1, "%s",
				 cre2_error_string(s->re[i]));
		rc = ENGINE_ERR_COMPILE;
		goto out;
	}
	if (s->set != NULL && cre2_set_add(s->set, buf, len, msg,
					   sizeof(msg)) < 0) {
		engine_error_set(err, ENGINE_ERR_COMPILE, (long)i, -1,
				 "RE2::Set: %s", msg);
		rc = ENGINE_ERR_COMPILE;
		goto out;
	}
	rc = 0;
	goto out;
nomem:
	engine_error_set(err, ENGINE_ERR_NOMEM, (long)i, -1, "out of memory");
out:
	free(buf);
	return rc;
}

/* Makes the RE2::Set a multi-pattern handle needs; 0 or ENGINE_ERR_NOMEM. */
static int re2_make_set(struct re2_set *s, const cre2_options_t *opt,
			struct engine_error *err)
{
	s->set = cre2_set_new(opt, s->anchor);
	s->hits = calloc(s->n, sizeof(*s->hits));
	if (s->set == NULL || s->hits == NULL) {
		engine_error_set(err, ENGINE_ERR_NOMEM, -1, -1,
				 "out of memory");
		return ENGINE_ERR_NOMEM;
	}
	return 0;
}

static int re2_compile(const struct engine_pattern *pats, size_t n,
		       unsigned flags, void **out, struct engine_error *err)
{
	struct re2_set *s = NULL;
	cre2_options_t *opt = NULL;
	int rc = ENGINE_ERR_NOMEM;

	*out = NULL;
	if (n == 0) {
		engine_error_set(err, ENGINE_ERR_COMPILE, -1, -1, "empty set");
		return ENGINE_ERR_COMPILE;
	}
	s = calloc(1, sizeof(*s));
	opt = re2_options(flags);
	if (s == NULL || opt == NULL)
		goto nomem;
	s->n = n;
	s->anchor = (flags & ENGINE_ANCHORED) ? CRE2_ANCHOR_START
					      : CRE2_UNANCHORED;
	s->utf8 = (flags & ENGINE_UTF8) != 0;
	s->re = calloc(n, sizeof(*s->re));
	if (s->re == NULL)
		goto nomem;
	if (n > 1) {
		rc = re2_make_set(s, opt, err);
		if (rc != 0)
			goto fail;
	}
	for (size_t i = 0; i < n; i++) {
		rc = re2_compile_one(s, i, &pats[i], flags, opt, err);
		if (rc != 0)
			goto fail;
	}
	if (s->set != NULL && cre2_set_compile(s->set) != 0) {
		engine_error_set(err, ENGINE_ERR_COMPILE, -1, -1,
				 "RE2::Set exceeds its memory budget");
		rc = ENGINE_ERR_COMPILE;
		goto fail;
	}
	cre2_opt_delete(opt);
	*out = s;
	return 0;
nomem:
	engine_error_set(err, ENGINE_ERR_NOMEM, -1, -1, "out of memory");
	rc = ENGINE_ERR_NOMEM;
fail:
	cre2_opt_delete(opt);
	re2_set_free(s);
	return rc;
}

/* cre2_set_match() failures as engine statuses. */
static long re2_set_status(long rc)
{
	if (rc >= 0)
		return rc;
	return rc == -2 ? ENGINE_ERR_LIMIT : ENGINE_ERR_MATCH;
}

/*
 * One search of pattern i from `start`: 1 match (extent in *m), 0, <0.
 * In ENGINE_PHASE_WARM, until a search found it, it is asked of the
 * pattern's logging twin instead (cre2_match_probe(): the same answer),
 * to learn whether the DFA gives up there; re2_note() then frees the
 * twins.  The handle's own RE2 learns nothing then: every measuring
 * child warms its own before it times (harness/bench.h).
 */
static int re2_try(struct re2_set *s, size_t i, const char *data, size_t len,
		   size_t start, cre2_string_t *m)
{
	int rc, failed = 0;

	if (engine_phase == ENGINE_PHASE_WARM && !s->dfa_failed) {
		rc = cre2_match_probe(s->re[i], data, len, start, len,
				      s->anchor, m, m != NULL, &failed);
		s->dfa_failed = failed;
	} else {
		rc = cre2_match(s->re[i], data, len, start, len, s->anchor, m,
				m != NULL);
	}
	return rc < 0 ? ENGINE_ERR_MATCH : rc;
}

static int re2_is_match(void *h, const char *data, size_t len)
{
	struct re2_set *s = h;

	if (s->set != NULL)
		return (int)re2_set_status(cre2_set_match(s->set, data, len,
							  NULL, 0));
	return re2_try(s, 0, data, len, 0, NULL);
}

/*
 * Whether a match may start or end at `at`: anywhere in bytes, in UTF-8
 * mode not before a continuation byte (10xxxxxx), the reference's rule
 * (suites/reference.c's boundary(), for invalid bytes too).  RE2 starts
 * its unanchored search at any byte: an empty match can fall inside a
 * character (\B between the bytes of "\xc3\xa9").
 */
static int re2_boundary(const struct re2_set *s, const char *data,
			size_t len, size_t at)
{
	return !s->utf8 || at >= len ||
	       ((unsigned char)data[at] & 0xc0) != 0x80;
}

/*
 * Where the next search starts after an empty match at `at`: one byte on,
 * and in UTF-8 mode past the continuation bytes after it, so a search
 * never starts inside a character, where RE2 would match empty again
 * (x* over "\xc3\xa9" counted 3, not 2).  The reference's resume() and
 * inturn.c's: a stray continuation byte goes with what precedes it.
 */
static size_t re2_step(const struct re2_set *s, const char *data,
		       size_t len, size_t at)
{
	at++;
	while (!re2_boundary(s, data, len, at))
		at++;
	return at;
}

/*
 * Non-overlapping matches of pattern i, one character past an empty
 * match; an empty match inside a character (UTF-8 mode) is none, and the
 * search goes on from the next character.
 */
static long re2_count_one(struct re2_set *s, size_t i, const char *data,
			  size_t len)
{
	long count = 0;
	size_t start = 0;
	cre2_string_t m;

	while (start <= len) {
		int rc = re2_try(s, i, data, len, start, &m);
		if (rc <= 0)
			return rc < 0 ? rc : count;
		/* RE2 gives NULL data only for an empty match in NULL text. */
		size_t end = m.data != NULL ? (size_t)(m.data - data) : 0;
		end += m.length;
		if (m.length > 0 || re2_boundary(s, data, len, end))
			count++;
		if (s->anchor != CRE2_UNANCHORED)
			break;
		start = m.length > 0 ? end : re2_step(s, data, len, end);
	}
	return count;
}

static long re2_count(void *h, const char *data, size_t len)
{
	struct re2_set *s = h;
	long total = 0;

	for (size_t i = 0; i < s->n; i++) {
		long c = re2_count_one(s, i, data, len);
		if (c < 0)
			return c;
		total += c;
	}
	return total;
}

static long re2_match_ids(void *h, const char *data, size_t len,
			  unsigned char *ids)
{
	struct re2_set *s = h;
	long n;

	memset(ids, 0, s->n);
	if (s->set == NULL) {
		int rc = re2_try(s, 0, data, len, 0, NULL);
		if (rc > 0)
			ids[0] = 1;
		return rc;
	}
	n = re2_set_status(
		s->own != NULL
			? cre2_set_match_hits(s->set, s->own, data, len,
					      s->hits, s->n)
			: cre2_set_match(s->set, data, len, s->hits, s->n));
	for (long k = 0; k < n; k++)
		ids[s->hits[k]] = 1;
	return n;
}

/* Another thread's state: h's RE2s and set, its own result vector. */
static void *re2_thread_new(void *h)
{
	const struct re2_set *s = h;
	struct re2_set *t = calloc(1, sizeof(*t));

	if (t == NULL)
		return NULL;
	*t = *s;
	t->dfa_failed = 0;
	t->hits = calloc(s->n, sizeof(*t->hits));
	t->own = cre2_set_hits_new();
	if (t->hits == NULL || t->own == NULL) {
		free(t->hits);
		cre2_set_hits_delete(t->own);
		free(t);
		return NULL;
	}
	return t;
}

/*
 * Sum of the per-pattern program sizes.  RE2 counts instructions, not
 * bytes, and RE2::Set does not expose its own program at all.
 */
static size_t re2_size(void *h)
{
	struct re2_set *s = h;
	size_t total = 0;

	for (size_t i = 0; i < s->n; i++) {
		int sz = cre2_program_size(s->re[i]);
		if (sz > 0)
			total += (size_t)sz;
	}
	return total;
}

static enum engine_semantics re2_semantics_now(void)
{
	return re2_longest ? SEM_LEFTMOST_LONGEST : SEM_LEFTMOST_FIRST;
}

/* Whether a search in ENGINE_PHASE_WARM ran out of DFA memory; the
 * twins that looked are freed (what their DFAs learned is not needed). */
static int re2_note(void *h, char *msg, size_t size)
{
	struct re2_set *s = h;
	char mem[32];

	for (size_t i = 0; s->own == NULL && i < s->n; i++)
		cre2_drop_twin(s->re[i]);
	if (!s->dfa_failed)
		return 0;
	engine_opt_format(&re2_options_table[0], re2_max_mem, mem,
			  sizeof(mem));
	snprintf(msg, size, "re2: DFA out of memory (max_mem %s), the NFA "
		 "answered: raise --engine-opt re2.max_mem", mem);
	return 1;
}

const struct engine engine_re2 = {
	.name = "re2",
	.desc = "RE2 (automata, linear time); native sets via RE2::Set",
	.caps = CAP_MULTI_NATIVE | CAP_START_OF_MATCH | CAP_LAZY |
		CAP_NONCAPTURE | CAP_PERL_CLASSES | CAP_INLINE_FLAGS |
		CAP_NUL_PATTERN | CAP_UTF8 | CAP_COUNTED_REP |
		CAP_WORD_BOUNDARY | CAP_EMPTY_MATCH | CAP_UNICODE_PROPERTY,
	.semantics = SEM_LEFTMOST_FIRST,
	.version = re2_version,
	.compile = re2_compile,
	.is_match = re2_is_match,
	.count = re2_count,
	.match_ids = re2_match_ids,
	.size = re2_size,
	.free = re2_set_free,
	.options = re2_options_table,
	.semantics_now = re2_semantics_now,
	.note = re2_note,
	.thread_new = re2_thread_new,
	.thread_free = re2_set_free,
};

/*
 * pcre2.c - PCRE2 (8-bit), as two engines: `pcre2` (the interpreter) and
 * `pcre2-jit` (the same patterns JIT-compiled).  The two differ only in
 * one flag, so they share this file; each still exports its own struct.
 *
 * Sets: PCRE2 has no multi-pattern matcher, so a set is its patterns
 * compiled one by one and tried in turn (the honest fallback).
 * Backtracking is bounded: a match limit and a depth limit turn
 * catastrophic patterns into ENGINE_ERR_LIMIT instead of a hang.
 *
 * Threads (engine.thread_new): PCRE2 documents a compiled pattern, and
 * its JIT code, as shareable between threads; match data, a match
 * context that points at a JIT stack, and the JIT stack are not.  A
 * thread's state borrows the set's compiled patterns and has its own.
 *
 * Build: only when CMake found libpcre2-8 (RXB_HAVE_PCRE2).
 */
#define PCRE2_CODE_UNIT_WIDTH 8
#include "engines/engine.h"
#include "engines/inturn.h"

#include <pcre2.h>

#include "engines/pcre2_common.h"
#include <stdlib.h>
#include <string.h>

/*
 * The limits, engine options of each engine (--engine-opt
 * pcre2.match_limit=N, pcre2-jit.jit_stack=4M): generous for real
 * patterns, small enough to stop (a+)+$ in milliseconds.
 */
struct pcre2_limits {
	uint64_t match;
	uint64_t depth;
	uint64_t jit_stack;
};
static struct pcre2_limits pcre2_interp_limits = {10000000u, 100000u, 0};
static struct pcre2_limits pcre2_jit_limits = {10000000u, 100000u, 1u << 20};

#define PCRE2_OPT_MATCH(lim)                                                 \
	{"match_limit", ENGINE_OPT_COUNT, "10000000",                        \
	 "most match() calls per attempt (pcre2_set_match_limit)", 1,       \
	 UINT32_MAX, NULL, NULL, &(lim).match}
#define PCRE2_OPT_DEPTH(lim)                                                 \
	{"depth_limit", ENGINE_OPT_COUNT, "100000",                          \
	 "deepest backtracking (pcre2_set_depth_limit)", 1, UINT32_MAX,     \
	 NULL, NULL, &(lim).depth}

static const struct engine_option pcre2_interp_options[] = {
	PCRE2_OPT_MATCH(pcre2_interp_limits),
	PCRE2_OPT_DEPTH(pcre2_interp_limits),
	{NULL, 0, NULL, NULL, 0, 0, NULL, NULL, NULL},
};

/* no depth_limit: pcre2_jit_match ignores it (the JIT stack bounds it) */
static const struct engine_option pcre2_jit_options[] = {
	PCRE2_OPT_MATCH(pcre2_jit_limits),
	{"jit_stack", ENGINE_OPT_SIZE, "1M",
	 "the JIT's stack, most it may grow to (from 32K)", 32u << 10,
	 1u << 30, NULL, NULL, &pcre2_jit_limits.jit_stack},
	{NULL, 0, NULL, NULL, 0, 0, NULL, NULL, NULL},
};

struct pcre2_set {
	/* first member: inturn_op_* get the set as a struct inturn */
	struct inturn turn; /* n, anchored, utf8 and pcre2_try */
	int jit;
	pcre2_code **code;
	pcre2_match_data **md; /* one per pattern, made at compile time */
	pcre2_match_context *mctx;
	pcre2_jit_stack *stack;
	int borrowed; /* a thread's state: code is the set's (thread_new) */
};

static int pcre2_try(void *h, size_t i, const char *data, size_t len,
		     size_t start, struct inturn_span *span);

static void pcre2_set_free(void *h)
{
	struct pcre2_set *s = h;

	if (s == NULL)
		return;
	for (size_t i = 0; i < s->turn.n; i++) {
		if (s->md != NULL)
			pcre2_match_data_free(s->md[i]);
		if (s->code != NULL && !s->borrowed)
			pcre2_code_free(s->code[i]);
	}
	pcre2_match_context_free(s->mctx);
	pcre2_jit_stack_free(s->stack);
	free(s->md);
	if (!s->borrowed)
		free(s->code);
	free(s);
}

/* Compiles pattern i into s; 0 or a negative status with err filled. */
static int pcre2_compile_one(void *h, size_t i, const struct engine_pattern *p,
			     unsigned flags, struct engine_error *err)
{
	struct pcre2_set *s = h;
	int code;
	PCRE2_UCHAR msg[200];

	s->code[i] = rxb_pcre2_compile(p, i, flags, err);
	if (s->code[i] == NULL)
		return ENGINE_ERR_COMPILE;
	if (s->jit) {
		code = pcre2_jit_compile(s->code[i], PCRE2_JIT_COMPLETE);
		if (code != 0) {
			pcre2_get_error_message(code, msg, sizeof(msg));
			engine_error_set(err, ENGINE_ERR_UNSUPPORTED, (long)i,
					 -1, "JIT: %s", (const char *)msg);
			return ENGINE_ERR_UNSUPPORTED;
		}
	}
	s->md[i] = pcre2_match_data_create_from_pattern(s->code[i], NULL);
	if (s->md[i] == NULL) {
		engine_error_set(err, ENGINE_ERR_NOMEM, (long)i, -1,
				 "out of memory");
		return ENGINE_ERR_NOMEM;
	}
	return 0;
}

/* Match context with the limits and, for JIT, a stack made once here. */
static int pcre2_make_context(struct pcre2_set *s, struct engine_error *err)
{
	const struct pcre2_limits *lim = s->jit ? &pcre2_jit_limits
						: &pcre2_interp_limits;

	s->mctx = pcre2_match_context_create(NULL);
	if (s->mctx == NULL)
		goto nomem;
	pcre2_set_match_limit(s->mctx, (uint32_t)lim->match);
	pcre2_set_depth_limit(s->mctx, (uint32_t)lim->depth);
	if (s->jit) {
		s->stack = pcre2_jit_stack_create(32 * 1024,
						  (PCRE2_SIZE)lim->jit_stack,
						  NULL);
		if (s->stack == NULL)
			goto nomem;
		pcre2_jit_stack_assign(s->mctx, NULL, s->stack);
	}
	return 0;
nomem:
	engine_error_set(err, ENGINE_ERR_NOMEM, -1, -1, "out of memory");
	return ENGINE_ERR_NOMEM;
}

/* The per-pattern match data, and the match context (pcre2_make_context). */
static int pcre2_begin(void *h, struct engine_error *err)
{
	struct pcre2_set *s = h;

	s->md = calloc(s->turn.n, sizeof(*s->md));
	if (s->md == NULL) {
		engine_error_set(err, ENGINE_ERR_NOMEM, -1, -1, "out of memory");
		return ENGINE_ERR_NOMEM;
	}
	return pcre2_make_context(s, err);
}

static int pcre2_begin_interp(void *h, unsigned flags, struct engine_error *err)
{
	(void)flags;
	((struct pcre2_set *)h)->jit = 0;
	return pcre2_begin(h, err);
}

static int pcre2_begin_jit(void *h, unsigned flags, struct engine_error *err)
{
	(void)flags;
	((struct pcre2_set *)h)->jit = 1;
	return pcre2_begin(h, err);
}

#define PCRE2_BUILD(begin_fn)                                                \
	{                                                                    \
		.set_size = sizeof(struct pcre2_set),                        \
		.slots_at = offsetof(struct pcre2_set, code),                \
		.slot_size = sizeof(pcre2_code *), .utf8 = 1,                \
		.try_one = pcre2_try, .begin = begin_fn,                     \
		.compile_one = pcre2_compile_one, .free = pcre2_set_free,    \
	}
static const struct inturn_build pcre2_interp_build =
	PCRE2_BUILD(pcre2_begin_interp);
static const struct inturn_build pcre2_jit_build = PCRE2_BUILD(pcre2_begin_jit);

static int pcre2_interp_compile(const struct engine_pattern *pats, size_t n,
				unsigned flags, void **out,
				struct engine_error *err)
{
	return inturn_compile(&pcre2_interp_build, pats, n, flags, out, err);
}

static int pcre2_jit_compile_set(const struct engine_pattern *pats, size_t n,
				 unsigned flags, void **out,
				 struct engine_error *err)
{
	return inturn_compile(&pcre2_jit_build, pats, n, flags, out, err);
}

/*
 * One match attempt of pattern i from `start` (an inturn_try_fn).  In
 * UTF mode pcre2_match() checks the subject from `start` to its end on
 * every call, which makes a count over n bytes cost n^2; inturn's first
 * attempt on a subject is at 0 and checks all of it, later ones start on
 * a character boundary (it resumes by characters), so they pass
 * PCRE2_NO_UTF_CHECK, as pcre2test's global matching and PCRE2's
 * documentation do.  pcre2_jit_match() checks nothing.
 */
static int pcre2_try(void *h, size_t i, const char *data, size_t len,
		     size_t start, struct inturn_span *span)
{
	struct pcre2_set *s = h;
	int rc;

	if (s->jit)
		rc = pcre2_jit_match(s->code[i], (PCRE2_SPTR)data, len, start,
				     0, s->md[i], s->mctx);
	else
		rc = pcre2_match(s->code[i], (PCRE2_SPTR)data, len, start,
				 start > 0 ? PCRE2_NO_UTF_CHECK : 0, s->md[i],
				 s->mctx);
	if (rc < 0)
		return rxb_pcre2_status(rc);
	if (span != NULL) {
		PCRE2_SIZE *ov = pcre2_get_ovector_pointer(s->md[i]);
		span->so = ov[0];
		span->eo = ov[1];
	}
	return 1;
}

/* Another thread's state: h's patterns, its own match data and context. */
static void *pcre2_thread_new(void *h)
{
	const struct pcre2_set *s = h;
	struct pcre2_set *t = calloc(1, sizeof(*t));
	struct engine_error err;

	if (t == NULL)
		return NULL;
	t->turn = s->turn;
	t->jit = s->jit;
	t->code = s->code;
	t->borrowed = 1;
	t->md = calloc(t->turn.n, sizeof(*t->md));
	if (t->md == NULL || pcre2_make_context(t, &err) != 0)
		goto fail;
	for (size_t i = 0; i < t->turn.n; i++) {
		t->md[i] = pcre2_match_data_create_from_pattern(t->code[i], NULL);
		if (t->md[i] == NULL)
			goto fail;
	}
	return t;
fail:
	pcre2_set_free(t);
	return NULL;
}

static size_t pcre2_size(void *h)
{
	struct pcre2_set *s = h;

	return rxb_pcre2_size(s->code, s->turn.n, s->jit);
}

#define PCRE2_CAPS                                                           \
	(CAP_START_OF_MATCH | CAP_BACKREF | CAP_LOOKAROUND | CAP_LAZY |      \
	 CAP_NONCAPTURE | CAP_PERL_CLASSES | CAP_INLINE_FLAGS |              \
	 CAP_NUL_PATTERN | CAP_UTF8 | CAP_MATCH_LIMIT | CAP_COUNTED_REP |    \
	 CAP_WORD_BOUNDARY | CAP_EMPTY_MATCH | CAP_ATOMIC | CAP_PERL_DOLLAR |  \
	 CAP_UNICODE_PROPERTY | CAP_UNICODE_SCRIPT | CAP_EXTENDED_SPACE)

const struct engine engine_pcre2 = {
	.name = "pcre2",
	.desc = "PCRE2 interpreter (backtracking); sets tried in turn",
	.caps = PCRE2_CAPS,
	.semantics = SEM_LEFTMOST_FIRST,
	.version = rxb_pcre2_version,
	.compile = pcre2_interp_compile,
	.is_match = inturn_op_is_match,
	.count = inturn_op_count,
	.match_ids = inturn_op_match_ids,
	.size = pcre2_size,
	.free = pcre2_set_free,
	.options = pcre2_interp_options,
	.thread_new = pcre2_thread_new,
	.thread_free = pcre2_set_free,
};

const struct engine engine_pcre2_jit = {
	.name = "pcre2-jit",
	.library = "pcre2",
	.desc = "PCRE2 JIT-compiled; sets tried in turn",
	.caps = PCRE2_CAPS,
	.semantics = SEM_LEFTMOST_FIRST,
	.version = rxb_pcre2_version,
	.compile = pcre2_jit_compile_set,
	.is_match = inturn_op_is_match,
	.count = inturn_op_count,
	.match_ids = inturn_op_match_ids,
	.size = pcre2_size,
	.free = pcre2_set_free,
	.options = pcre2_jit_options,
	.thread_new = pcre2_thread_new,
	.thread_free = pcre2_set_free,
};

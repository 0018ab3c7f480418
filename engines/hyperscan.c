/*
 * hyperscan.c - Hyperscan (block mode), engine `hyperscan`.  Builds the
 * same against Vectorscan, which keeps the API and <hs.h>.
 *
 * A set is one database compiled with hs_compile_multi(), pattern i
 * reporting id i: native multi-pattern matching.  Scratch is allocated
 * once at compile time, so a handle must not scan from two threads; a
 * thread of its own (engine.thread_new) gets the same database with a
 * scratch from hs_clone_scratch (Hyperscan's rule: a database is
 * read-only and shared, a scratch belongs to one thread at a time).
 *
 * Semantics (SEM_ALL_ENDS): Hyperscan reports every offset at which some
 * match of a pattern ends, once per offset, and no start offsets (we do
 * not ask for HS_FLAG_SOM_LEFTMOST).  count() is the number of those
 * reports summed over the set.  Because every end is reported, greedy and
 * lazy quantifiers produce the same reports, so lazy syntax is accepted
 * and CAP_LAZY is honest here.  ENGINE_ANCHORED wraps each pattern as
 * \A(?:p) (\A, not ^, which HS_FLAG_MULTILINE would let match after a
 * newline) and adds HS_FLAG_SINGLEMATCH, so an anchored count is 0 or 1
 * per pattern as engine.h requires.  Patterns are C strings to Hyperscan: one
 * holding a NUL byte is ENGINE_ERR_UNSUPPORTED.
 *
 * Build: only when CMake found libhs (RXB_HAVE_HYPERSCAN).
 */
#include "engines/engine.h"

#include <hs.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

struct hyperscan_set {
	size_t n;
	hs_database_t *db;
	hs_scratch_t *scratch;
};

/* What a match callback updates: a counter or the ids array. */
struct hyperscan_ctx {
	long count;
	unsigned char *ids;
};

/*
 * --engine-opt hyperscan.mode and hyperscan.som.  Every suite hands an
 * engine whole buffers (a corpus, a packet, a name): block mode.
 * Vectored and streaming mode need a suite that scans data in parts; none
 * does yet, so they are refused rather than run as block mode.  som asks
 * for the leftmost start of each match (HS_FLAG_SOM_LEFTMOST): the same
 * ends are reported, at the cost SOM tracking has.
 */
static const char *const hyperscan_modes[] = {"block", "vectored",
					      "streaming", NULL};
static uint64_t hyperscan_mode = 0;
static uint64_t hyperscan_som = 0;

static const char *hyperscan_refuse_mode(uint64_t v)
{
	if (v == 0)
		return NULL;
	return "no suite scans data in parts (every one hands Hyperscan "
	       "whole buffers): only mode=block";
}

static const struct engine_option hyperscan_options[] = {
	{"mode", ENGINE_OPT_CHOICE, "block",
	 "database mode: block (vectored, streaming: no suite yet)", 0, 0,
	 hyperscan_modes, hyperscan_refuse_mode, &hyperscan_mode},
	{"som", ENGINE_OPT_BOOL, "false",
	 "track the leftmost start of each match (HS_FLAG_SOM_LEFTMOST)", 0,
	 1, NULL, NULL, &hyperscan_som},
	{NULL, 0, NULL, NULL, 0, 0, NULL, NULL, NULL},
};

static const char *hyperscan_engine_version(void)
{
	return hs_version();
}

static void hyperscan_set_free(void *h)
{
	struct hyperscan_set *s = h;

	if (s == NULL)
		return;
	hs_free_scratch(s->scratch);
	hs_free_database(s->db);
	free(s);
}

static unsigned hyperscan_pattern_flags(unsigned flags)
{
	unsigned f = HS_FLAG_ALLOWEMPTY;

	if (flags & ENGINE_CASELESS)
		f |= HS_FLAG_CASELESS;
	if (flags & ENGINE_DOTALL)
		f |= HS_FLAG_DOTALL;
	if (flags & ENGINE_MULTILINE)
		f |= HS_FLAG_MULTILINE;
	if (flags & ENGINE_UTF8)
		f |= HS_FLAG_UTF8;
	if (flags & (ENGINE_SINGLEMATCH | ENGINE_ANCHORED))
		f |= HS_FLAG_SINGLEMATCH;
	if (hyperscan_som)
		f |= HS_FLAG_SOM_LEFTMOST;
	return f;
}

/*
 * Hyperscan's message as an engine error.  It has no error codes; a valid
 * construct it lacks (back-references, lookaround, atomic groups) says
 * "unsupported" or "not supported", and is ENGINE_ERR_UNSUPPORTED.
 */
static int hyperscan_report(hs_compile_error_t *ce, struct engine_error *err)
{
	int status = ENGINE_ERR_COMPILE;

	if (ce == NULL) { /* not a compiler error: no message to give */
		engine_error_set(err, status, -1, -1,
				 "Hyperscan compile failed");
		return status;
	}
	if (strstr(ce->message, "unsupported") != NULL ||
	    strstr(ce->message, "not supported") != NULL)
		status = ENGINE_ERR_UNSUPPORTED;
	engine_error_set(err, status, ce->expression, -1, "%s", ce->message);
	hs_free_compile_error(ce);
	return status;
}

/*
 * Checks p alone before it is wrapped in \A(?:...), so that an unbalanced
 * pattern like "a)|(b" is rejected instead of being balanced by the wrap.
 */
static int hyperscan_validate(const char *p, unsigned f, size_t i,
			      struct engine_error *err)
{
	hs_expr_info_t *info = NULL;
	hs_compile_error_t *ce = NULL;

	if (hs_expression_info(p, f, &info, &ce) != HS_SUCCESS) {
		if (ce != NULL)
			ce->expression = (int)i;
		return hyperscan_report(ce, err);
	}
	free(info);
	return 0;
}

/*
 * Rewrites e (p as a C string, with room for the wrap) into \A(?:p) once
 * p alone has been validated; 0 or a negative status.
 */
static int hyperscan_anchor(char *e, const struct engine_pattern *p,
			    unsigned flags, size_t i, struct engine_error *err)
{
	int rc = hyperscan_validate(e, hyperscan_pattern_flags(flags), i, err);

	if (rc != 0)
		return rc;
	memcpy(e, "\\A(?:", 5);
	if (p->len > 0)
		memcpy(e + 5, p->re, p->len);
	memcpy(e + 5 + p->len, ")", 2);
	return 0;
}

/*
 * The NUL-terminated expression Hyperscan gets for pattern i: p, or
 * \A(?:p) under ENGINE_ANCHORED.  Returns 0 with a malloc'd string in
 * *out, or a negative status with err filled.
 */
static int hyperscan_expression(const struct engine_pattern *p, size_t i,
				unsigned flags, char **out,
				struct engine_error *err)
{
	char *e;
	int rc = 0;

	*out = NULL;
	if (p->len > 0 && memchr(p->re, '\0', p->len) != NULL) {
		engine_error_set(err, ENGINE_ERR_UNSUPPORTED, (long)i, -1,
				 "NUL byte in pattern (Hyperscan takes "
				 "C strings)");
		return ENGINE_ERR_UNSUPPORTED;
	}
	e = malloc(p->len + sizeof("\\A(?:)"));
	if (e == NULL) {
		engine_error_set(err, ENGINE_ERR_NOMEM, (long)i, -1,
				 "out of memory");
		return ENGINE_ERR_NOMEM;
	}
	if (p->len > 0)
		memcpy(e, p->re, p->len);
	e[p->len] = '\0';
	if (flags & ENGINE_ANCHORED)
		rc = hyperscan_anchor(e, p, flags, i, err);
	if (rc != 0)
		free(e);
	else
		*out = e;
	return rc;
}

static void hyperscan_free_expressions(char **exprs, size_t n)
{
	for (size_t i = 0; exprs != NULL && i < n; i++)
		free(exprs[i]);
	free(exprs);
}

/* Compiles the database and scratch into s; 0 or a negative status. */
static int hyperscan_build(struct hyperscan_set *s, char **exprs,
			   unsigned *fl, unsigned *ids,
			   struct engine_error *err)
{
	hs_compile_error_t *ce = NULL;

	if (hs_compile_multi((const char *const *)exprs, fl, ids,
			     (unsigned)s->n, HS_MODE_BLOCK, NULL, &s->db,
			     &ce) != HS_SUCCESS)
		return hyperscan_report(ce, err);
	if (hs_alloc_scratch(s->db, &s->scratch) != HS_SUCCESS) {
		engine_error_set(err, ENGINE_ERR_NOMEM, -1, -1,
				 "hs_alloc_scratch failed");
		return ENGINE_ERR_NOMEM;
	}
	return 0;
}

static int hyperscan_compile_set(const struct engine_pattern *pats, size_t n,
				 unsigned flags, void **out,
				 struct engine_error *err)
{
	struct hyperscan_set *s = NULL;
	char **exprs = NULL;
	unsigned *fl = NULL;
	unsigned *ids = NULL;
	int rc = ENGINE_ERR_NOMEM;

	*out = NULL;
	if (n == 0 || n > UINT_MAX) {
		engine_error_set(err, ENGINE_ERR_COMPILE, -1, -1,
				 "set of %zu patterns", n);
		return ENGINE_ERR_COMPILE;
	}
	s = calloc(1, sizeof(*s));
	exprs = calloc(n, sizeof(*exprs));
	fl = calloc(n, sizeof(*fl));
	ids = calloc(n, sizeof(*ids));
	if (s == NULL || exprs == NULL || fl == NULL || ids == NULL) {
		engine_error_set(err, ENGINE_ERR_NOMEM, -1, -1,
				 "out of memory");
		goto out;
	}
	s->n = n;
	for (size_t i = 0; i < n; i++) {
		rc = hyperscan_expression(&pats[i], i, flags, &exprs[i], err);
		if (rc != 0)
			goto out;
		fl[i] = hyperscan_pattern_flags(flags);
		ids[i] = (unsigned)i;
	}
	rc = hyperscan_build(s, exprs, fl, ids, err);
	if (rc != 0)
		goto out;
	*out = s;
	s = NULL;
out:
	hyperscan_set_free(s);
	hyperscan_free_expressions(exprs, n);
	free(fl);
	free(ids);
	return rc;
}

static int hyperscan_on_first(unsigned id, unsigned long long from,
			      unsigned long long to, unsigned fl, void *ctx)
{
	(void)id;
	(void)from;
	(void)to;
	(void)fl;
	(void)ctx;
	return 1; /* stop: one match answers is_match */
}

static int hyperscan_on_count(unsigned id, unsigned long long from,
			      unsigned long long to, unsigned fl, void *ctx)
{
	struct hyperscan_ctx *c = ctx;

	(void)id;
	(void)from;
	(void)to;
	(void)fl;
	c->count++;
	return 0;
}

static int hyperscan_on_id(unsigned id, unsigned long long from,
			   unsigned long long to, unsigned fl, void *ctx)
{
	struct hyperscan_ctx *c = ctx;

	(void)from;
	(void)to;
	(void)fl;
	c->ids[id] = 1;
	return 0;
}

/* hs_scan over data; HS_SUCCESS, HS_SCAN_TERMINATED or a negative status. */
static int hyperscan_run(struct hyperscan_set *s, const char *data,
			 size_t len, match_event_handler cb,
			 struct hyperscan_ctx *ctx)
{
	hs_error_t rc;

	if (len > UINT_MAX)
		return ENGINE_ERR_UNSUPPORTED; /* hs_scan takes unsigned int */
	rc = hs_scan(s->db, data != NULL ? data : "", (unsigned)len, 0,
		     s->scratch, cb, ctx);
	switch (rc) {
	case HS_SUCCESS:
	case HS_SCAN_TERMINATED:
		return rc;
	case HS_NOMEM:
		return ENGINE_ERR_NOMEM;
	default:
		return ENGINE_ERR_MATCH;
	}
}

static int hyperscan_is_match(void *h, const char *data, size_t len)
{
	int rc = hyperscan_run(h, data, len, hyperscan_on_first, NULL);

	if (rc == HS_SCAN_TERMINATED)
		return 1;
	return rc == HS_SUCCESS ? 0 : rc;
}

static long hyperscan_count(void *h, const char *data, size_t len)
{
	struct hyperscan_ctx ctx = {0, NULL};
	int rc = hyperscan_run(h, data, len, hyperscan_on_count, &ctx);

	return rc == HS_SUCCESS ? ctx.count : rc;
}

static long hyperscan_match_ids(void *h, const char *data, size_t len,
				unsigned char *ids)
{
	struct hyperscan_set *s = h;
	struct hyperscan_ctx ctx = {0, ids};
	long matched = 0;
	int rc;

	memset(ids, 0, s->n);
	rc = hyperscan_run(s, data, len, hyperscan_on_id, &ctx);
	if (rc != HS_SUCCESS)
		return rc;
	for (size_t i = 0; i < s->n; i++)
		matched += ids[i];
	return matched;
}

/* Another thread's state: h's database, borrowed, and its own scratch. */
static void *hyperscan_thread_new(void *h)
{
	const struct hyperscan_set *s = h;
	struct hyperscan_set *t = malloc(sizeof(*t));

	if (t == NULL)
		return NULL;
	*t = (struct hyperscan_set){s->n, s->db, NULL};
	if (hs_clone_scratch(s->scratch, &t->scratch) != HS_SUCCESS) {
		free(t);
		return NULL;
	}
	return t;
}

static void hyperscan_thread_free(void *t)
{
	struct hyperscan_set *s = t;

	if (s == NULL)
		return;
	hs_free_scratch(s->scratch); /* the database is the set's */
	free(s);
}

static size_t hyperscan_size(void *h)
{
	struct hyperscan_set *s = h;
	size_t sz = 0;

	if (hs_database_size(s->db, &sz) != HS_SUCCESS)
		return 0;
	return sz;
}

const struct engine engine_hyperscan = {
	.name = "hyperscan",
	.desc = "Hyperscan block mode (automata, SIMD); native sets",
	.caps = CAP_MULTI_NATIVE | CAP_LAZY | CAP_NONCAPTURE |
		CAP_PERL_CLASSES | CAP_INLINE_FLAGS | CAP_COUNTED_REP |
		CAP_WORD_BOUNDARY | CAP_EMPTY_MATCH | CAP_UTF8 |
		CAP_PERL_DOLLAR,
	.semantics = SEM_ALL_ENDS,
	.version = hyperscan_engine_version,
	.compile = hyperscan_compile_set,
	.is_match = hyperscan_is_match,
	.count = hyperscan_count,
	.match_ids = hyperscan_match_ids,
	.size = hyperscan_size,
	.free = hyperscan_set_free,
	.options = hyperscan_options,
	.thread_new = hyperscan_thread_new,
	.thread_free = hyperscan_thread_free,
};

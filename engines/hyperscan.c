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
 * Flows (compile_flow, match_flow): a streaming database scans a flow's
 * packets through one stream the handle opens at compile time and
 * hs_reset_stream()s after each flow (the end-of-stream matches reported
 * then), so matching never allocates; a vectored one hands them to
 * hs_scan_vector() at once.  mem() is hs_database_size, hs_scratch_size
 * and hs_stream_size.  With som, a streaming database keeps a large SOM
 * horizon (HS_MODE_SOM_HORIZON_LARGE).
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
	unsigned mode;              /* HS_MODE_BLOCK, _STREAM or _VECTORED */
	hs_stream_t *stream;        /* STREAM: the one stream, reset per flow */
	const char **vdata;         /* VECTORED: the parts, grown to the */
	unsigned *vlen;             /* longest flow */
	size_t vcap;
};

/* What a match callback updates: a counter or the ids array. */
struct hyperscan_ctx {
	long count;
	unsigned char *ids;
};

/*
 * --engine-opt hyperscan.mode and hyperscan.som.  Every suite hands an
 * engine whole buffers (a corpus, a packet, a name): block mode.
 * Vectored and streaming databases are the payload suite's --mode (its
 * flows), so this option refuses them rather than give another suite a
 * database it cannot scan whole buffers with.  som asks
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
	return "every suite hands Hyperscan whole buffers here: only "
	       "mode=block (streaming and vectored: payload --mode=stream,"
	       "vectored)";
}

static const struct engine_option hyperscan_options[] = {
	{"mode", ENGINE_OPT_CHOICE, "block",
	 "database mode: block (for flows: payload --mode)", 0, 0,
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
	if (s->stream != NULL)
		hs_close_stream(s->stream, s->scratch, NULL, NULL);
	free(s->vdata);
	free(s->vlen);
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

	unsigned mode = s->mode;

	if (mode == HS_MODE_STREAM && hyperscan_som)
		mode |= HS_MODE_SOM_HORIZON_LARGE;
	if (hs_compile_multi((const char *const *)exprs, fl, ids,
			     (unsigned)s->n, mode, NULL, &s->db,
			     &ce) != HS_SUCCESS)
		return hyperscan_report(ce, err);
	if (hs_alloc_scratch(s->db, &s->scratch) != HS_SUCCESS) {
		engine_error_set(err, ENGINE_ERR_NOMEM, -1, -1,
				 "hs_alloc_scratch failed");
		return ENGINE_ERR_NOMEM;
	}
	if (s->mode == HS_MODE_STREAM &&
	    hs_open_stream(s->db, 0, &s->stream) != HS_SUCCESS) {
		engine_error_set(err, ENGINE_ERR_NOMEM, -1, -1,
				 "hs_open_stream failed");
		return ENGINE_ERR_NOMEM;
	}
	return 0;
}

/* A set as a database of mode (HS_MODE_*); see engine.compile. */
static int hyperscan_compile_mode(unsigned mode,
				  const struct engine_pattern *pats, size_t n,
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
	s->mode = mode;
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

static int hyperscan_compile_set(const struct engine_pattern *pats, size_t n,
				 unsigned flags, void **out,
				 struct engine_error *err)
{
	return hyperscan_compile_mode(HS_MODE_BLOCK, pats, n, flags, out, err);
}

static int hyperscan_compile_flow(enum engine_flow mode,
				  const struct engine_pattern *pats, size_t n,
				  unsigned flags, void **out,
				  struct engine_error *err)
{
	return hyperscan_compile_mode(mode == ENGINE_FLOW_STREAM
					      ? HS_MODE_STREAM
					      : HS_MODE_VECTORED,
				      pats, n, flags, out, err);
}

/* is_match: the first match is the answer (over a flow it may come at
 * the stream's end, from hs_reset_stream). */
static int hyperscan_on_stop(unsigned id, unsigned long long from,
			     unsigned long long to, unsigned fl, void *ctx)
{
	(void)id;
	(void)from;
	(void)to;
	(void)fl;
	((struct hyperscan_ctx *)ctx)->count = 1;
	return 1;
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
	struct hyperscan_ctx ctx = {0, NULL};
	int rc = hyperscan_run(h, data, len, hyperscan_on_stop, &ctx);

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

/* An hs_error_t of a flow scan as 0 (went on), 1 (stopped) or <0. */
static int hyperscan_status(hs_error_t rc)
{
	switch (rc) {
	case HS_SUCCESS:
		return 0;
	case HS_SCAN_TERMINATED:
		return 1;
	case HS_NOMEM:
		return ENGINE_ERR_NOMEM;
	default:
		return ENGINE_ERR_MATCH;
	}
}

/* The flow through s's stream, then reset (end matches reported). */
static int hyperscan_stream(struct hyperscan_set *s,
			    const struct engine_span *parts, size_t n,
			    match_event_handler cb, struct hyperscan_ctx *ctx)
{
	int rc = 0;
	hs_error_t e;

	for (size_t k = 0; k < n && rc == 0; k++) {
		if (parts[k].len > UINT_MAX)
			rc = ENGINE_ERR_UNSUPPORTED;
		else
			rc = hyperscan_status(hs_scan_stream(
				s->stream, parts[k].p ? parts[k].p : "",
				(unsigned)parts[k].len, 0, s->scratch, cb, ctx));
	}
	/* a stopped stream reports nothing more: reset it quietly */
	e = hs_reset_stream(s->stream, 0, s->scratch, rc == 0 ? cb : NULL, ctx);
	if (rc == 0 && e != HS_SUCCESS && e != HS_SCAN_TERMINATED)
		rc = ENGINE_ERR_MATCH;
	return rc;
}

/* The vector arrays grown to n parts.  0, or ENGINE_ERR_NOMEM. */
static int hyperscan_vgrow(struct hyperscan_set *s, size_t n)
{
	const char **d;
	unsigned *l;

	if (n <= s->vcap)
		return 0;
	d = realloc(s->vdata, n * sizeof(*d));
	if (d == NULL)
		return ENGINE_ERR_NOMEM;
	s->vdata = d;
	l = realloc(s->vlen, n * sizeof(*l));
	if (l == NULL)
		return ENGINE_ERR_NOMEM;
	s->vlen = l;
	s->vcap = n;
	return 0;
}

static int hyperscan_vector(struct hyperscan_set *s,
			    const struct engine_span *parts, size_t n,
			    match_event_handler cb, struct hyperscan_ctx *ctx)
{
	int rc = n > UINT_MAX ? ENGINE_ERR_UNSUPPORTED : hyperscan_vgrow(s, n);

	for (size_t k = 0; k < n && rc == 0; k++) {
		if (parts[k].len > UINT_MAX)
			return ENGINE_ERR_UNSUPPORTED;
		s->vdata[k] = parts[k].p ? parts[k].p : "";
		s->vlen[k] = (unsigned)parts[k].len;
	}
	if (rc != 0)
		return rc;
	return hyperscan_status(hs_scan_vector(s->db, s->vdata, s->vlen,
					       (unsigned)n, 0, s->scratch, cb,
					       ctx));
}

static long hyperscan_match_flow(void *h, const struct engine_span *parts,
				 size_t n, unsigned char *ids)
{
	struct hyperscan_set *s = h;
	struct hyperscan_ctx ctx = {0, ids};
	match_event_handler cb = ids ? hyperscan_on_id : hyperscan_on_stop;
	long matched = 0;
	int rc;

	if (ids != NULL)
		memset(ids, 0, s->n);
	rc = s->mode == HS_MODE_STREAM ? hyperscan_stream(s, parts, n, cb, &ctx)
				       : hyperscan_vector(s, parts, n, cb, &ctx);
	if (rc < 0)
		return rc;
	if (ids == NULL)
		return ctx.count > 0;
	for (size_t i = 0; i < s->n; i++)
		matched += ids[i];
	return matched;
}

static void hyperscan_mem(void *h, struct engine_mem *m)
{
	struct hyperscan_set *s = h;

	*m = (struct engine_mem){0, 0, 0};
	if (hs_database_size(s->db, &m->db) != HS_SUCCESS)
		m->db = 0;
	if (hs_scratch_size(s->scratch, &m->scratch) != HS_SUCCESS)
		m->scratch = 0;
	if (s->mode == HS_MODE_STREAM &&
	    hs_stream_size(s->db, &m->stream) != HS_SUCCESS)
		m->stream = 0;
}

/* Another thread's state: h's database, borrowed, and its own scratch. */
static void *hyperscan_thread_new(void *h)
{
	const struct hyperscan_set *s = h;
	struct hyperscan_set *t = malloc(sizeof(*t));

	if (t == NULL)
		return NULL;
	*t = (struct hyperscan_set){.n = s->n, .db = s->db, .mode = s->mode};
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
		CAP_PERL_DOLLAR | CAP_UNICODE_PROPERTY,
	.semantics = SEM_ALL_ENDS,
	.version = hyperscan_engine_version,
	.compile = hyperscan_compile_set,
	.is_match = hyperscan_is_match,
	.count = hyperscan_count,
	.match_ids = hyperscan_match_ids,
	.size = hyperscan_size,
	.free = hyperscan_set_free,
	.options = hyperscan_options,
	.compile_flow = hyperscan_compile_flow,
	.match_flow = hyperscan_match_flow,
	.mem = hyperscan_mem,
	.thread_new = hyperscan_thread_new,
	.thread_free = hyperscan_thread_free,
};

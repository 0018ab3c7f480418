/*
 * boost.c - Boost.Regex (backtracking, Perl syntax), engine `boost`,
 * through the project's C binding engines/cboost.h.  A set is its
 * patterns tried in turn.
 *
 * Patterns are translated first (engines/boost_pattern.h): where Boost's
 * Perl syntax means something else than PCRE2 (it takes '\r' and '\f'
 * for line ends: `.`, multiline `^` `$`, \Z; \B at the ends of the data;
 * [[:blank:]], \h, \v; caseless ranges) the translation spells PCRE2's
 * meaning, and it refuses what it cannot vouch for.  Bytes in the classic
 * C++ locale; no UTF-8 mode (boost::u32regex needs ICU).  `$` outside
 * multiline mode is the end of data only (written \z, Boost's `$` under
 * no_mod_m; no CAP_PERL_DOLLAR), like RE2's.  Leftmost-first, as Perl.
 *
 * Backtracking is bounded by Boost itself: a search that visits more
 * states than about the square of the text's length (at most
 * 100,000,000) throws, and cboost.cc turns that into ENGINE_ERR_LIMIT:
 * (a+)+$ on 30 a's and a 'b' ends there instead of hanging.
 *
 * Build: only when CMake found Boost.Regex (RXB_HAVE_BOOST).
 */
#include "engines/engine.h"
#include "engines/boost_pattern.h"
#include "engines/cboost.h"
#include "engines/inturn.h"

#include <stdlib.h>

/*
 * No engine.thread_new: a boost::regex may be shared by threads (Boost's
 * documentation), but each pattern's cboost_regex keeps the one
 * boost::cmatch every search reuses.
 */
struct boost_set {
	/* first member: inturn_op_* get the set as a struct inturn */
	struct inturn turn; /* n, anchored and boost_try */
	cboost_regex_t **re;
};

static int boost_try(void *h, size_t i, const char *data, size_t len,
		     size_t start, struct inturn_span *span);

static void boost_set_free(void *h)
{
	struct boost_set *s = h;

	if (s == NULL)
		return;
	for (size_t i = 0; s->re != NULL && i < s->turn.n; i++)
		cboost_delete(s->re[i]);
	free(s->re);
	free(s);
}

/* A cboost.h status as an engine status. */
static int boost_status(int rc)
{
	switch (rc) {
	case CBOOST_ERR_SYNTAX: return ENGINE_ERR_COMPILE;
	case CBOOST_ERR_NOMEM: return ENGINE_ERR_NOMEM;
	case CBOOST_ERR_LIMIT: return ENGINE_ERR_LIMIT;
	default: return ENGINE_ERR_MATCH;
	}
}

/* Translates and compiles pattern i into s->re[i]; 0 or a negative status. */
static int boost_compile_one(void *h, size_t i, const struct engine_pattern *p,
			     unsigned flags, struct engine_error *err)
{
	struct boost_set *s = h;
	char *re = NULL, msg[200] = "";
	size_t len = 0;
	int rc;

	rc = boost_pattern_translate(p, (long)i, flags, &re, &len, err);
	if (rc != 0)
		return rc;
	rc = cboost_new(re, len, (flags & ENGINE_CASELESS) ? CBOOST_ICASE : 0,
			&s->re[i], msg, sizeof(msg));
	free(re);
	if (rc == CBOOST_OK)
		return 0;
	rc = boost_status(rc);
	if (rc == ENGINE_ERR_MATCH)
		rc = ENGINE_ERR_COMPILE;
	engine_error_set(err, rc, (long)i, -1, "%s", msg);
	return rc;
}

static const struct inturn_build boost_build = {
	.set_size = sizeof(struct boost_set),
	.slots_at = offsetof(struct boost_set, re),
	.slot_size = sizeof(cboost_regex_t *),
	.try_one = boost_try,
	.compile_one = boost_compile_one,
	.free = boost_set_free,
};

static int boost_compile_set(const struct engine_pattern *pats, size_t n,
			     unsigned flags, void **out,
			     struct engine_error *err)
{
	return inturn_compile(&boost_build, pats, n, flags, out, err);
}

/* One leftmost-first search of pattern i from `start` (an inturn_try_fn);
 * anchored sets only ever search from 0. */
static int boost_try(void *h, size_t i, const char *data, size_t len,
		     size_t start, struct inturn_span *span)
{
	struct boost_set *s = h;
	size_t so = 0, eo = 0;
	int rc = cboost_search(s->re[i], data, len, start, s->turn.anchored,
			       &so, &eo);

	if (rc < 0)
		return boost_status(rc);
	if (rc > 0 && span != NULL)
		*span = (struct inturn_span){so, eo};
	return rc;
}

const struct engine engine_boost = {
	.name = "boost",
	.desc = "Boost.Regex (backtracking, Perl syntax); sets tried in turn",
	.caps = CAP_START_OF_MATCH | CAP_BACKREF | CAP_LOOKAROUND | CAP_LAZY |
		CAP_NONCAPTURE | CAP_PERL_CLASSES | CAP_INLINE_FLAGS |
		CAP_NUL_PATTERN | CAP_MATCH_LIMIT | CAP_COUNTED_REP |
		CAP_WORD_BOUNDARY | CAP_EMPTY_MATCH | CAP_ATOMIC,
	.semantics = SEM_LEFTMOST_FIRST,
	.version = cboost_version,
	.compile = boost_compile_set,
	.is_match = inturn_op_is_match,
	.count = inturn_op_count,
	.match_ids = inturn_op_match_ids,
	.size = NULL,
	.free = boost_set_free,
};

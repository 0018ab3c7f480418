/*
 * pcre2_dfa.c - PCRE2's alternative matcher, pcre2_dfa_match(), engine
 * `pcre2-dfa`.  The same compiled patterns and options as engines/pcre2.c;
 * only the matching function differs.
 *
 * Semantics (SEM_LEFTMOST_LONGEST): the DFA matcher walks every path at
 * once from the leftmost start where any match begins and returns all the
 * matches from there, longest first; count() takes the longest and
 * resumes at its end (one character past an empty one), as inturn.c does
 * for every engine.  Greedy and lazy quantifiers are the same to it, and
 * the longest match does not depend on them either, so lazy syntax keeps
 * its leftmost-longest meaning (CAP_LAZY).  Lookahead and lookbehind are
 * supported (each is run as a separate match at its point).  An atomic
 * group or possessive quantifier would lock in the LONGEST match of its
 * body (Perl locks in the first; under PCRE2_DFA_SHORTEST, which is_match
 * therefore does not use, the shortest), so (?>a|ab)c would match "abc":
 * they are refused at compile time (no
 * CAP_ATOMIC), found in the pattern's text by dfa_atomic_at(), with
 * (*VERB) items, which the matcher does not support, and (?x), whose
 * spacing that scan does not follow.  Also refused: backreferences
 * (PCRE2_INFO_BACKREFMAX).  \K, \C in UTF-8 mode and conditions on a
 * group are reported by the matcher when it meets them; all of these are
 * ENGINE_ERR_UNSUPPORTED.  No captures are asked for.
 *
 * Limits: no backtracking, so no catastrophic patterns (no
 * CAP_MATCH_LIMIT: (a+)+$ is simply answered); the match, depth and heap
 * limits still bound the recursion that lookarounds and pattern
 * recursion use, as ENGINE_ERR_LIMIT.  The workspace (the matcher's state vectors)
 * is made at compile time, sized from the largest compiled pattern; a
 * match that needs more (PCRE2_ERROR_DFA_WSSIZE) doubles it and retries,
 * up to RXB_DFA_WS_MAX ints, then ENGINE_ERR_LIMIT.  That is the one
 * allocation a match may make, once per handle; the warm-up pass makes
 * it before anything is timed.
 *
 * Sets: patterns tried in turn.
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

/* The same bounds as engines/pcre2.c; the heap limit is in KiB. */
#define RXB_DFA_MATCH_LIMIT 10000000u
#define RXB_DFA_DEPTH_LIMIT 100000u
#define RXB_DFA_HEAP_LIMIT (256u * 1024u)
/* Workspace in ints: at least this, at most RXB_DFA_WS_MAX (64 MiB). */
#define RXB_DFA_WS_MIN 4096u
#define RXB_DFA_WS_MAX ((size_t)1 << 24)

/*
 * No engine.thread_new: the compiled patterns could be shared (as in
 * pcre2.c), but the match data and the workspace, which a match may
 * grow, are the set's.
 */
struct dfa_set {
	/* first member: inturn_op_* get the set as a struct inturn */
	struct inturn turn; /* n, anchored, utf8 and dfa_try */
	pcre2_code **code;
	pcre2_match_data *md; /* one pair: the longest match */
	pcre2_match_context *mctx;
	int *ws;
	size_t wscount;
};

static int dfa_try(void *h, size_t i, const char *data, size_t len,
		   size_t start, struct inturn_span *span);

static void dfa_set_free(void *h)
{
	struct dfa_set *s = h;

	if (s == NULL)
		return;
	for (size_t i = 0; s->code != NULL && i < s->turn.n; i++)
		pcre2_code_free(s->code[i]);
	pcre2_match_data_free(s->md);
	pcre2_match_context_free(s->mctx);
	free(s->ws);
	free(s->code);
	free(s);
}

/* Whether byte c is one of `set` (never NUL, unlike strchr()). */
static int dfa_in(const char *set, char c)
{
	return c != '\0' && strchr(set, c) != NULL;
}

/* Offset of the first byte after the escape at re[i] ('\\'), skipping
 * \Q...\E and braced arguments (\x{..} \o{..} \p{..} \g{..} ...). */
static size_t dfa_skip_escape(const char *re, size_t len, size_t i)
{
	if (i + 1 >= len)
		return len;
	if (re[i + 1] == 'Q') {
		for (i += 2; i < len; i++)
			if (re[i] == '\\' && i + 1 < len && re[i + 1] == 'E')
				return i + 2;
		return len;
	}
	if (i + 2 < len && re[i + 2] == '{' && dfa_in("xopPgkN", re[i + 1])) {
		const char *end = memchr(re + i, '}', len - i);
		return end != NULL ? (size_t)(end - re) + 1 : len;
	}
	return i + 2;
}

/* Offset just past the class opening at re[i] ('['). */
static size_t dfa_skip_class(const char *re, size_t len, size_t i)
{
	i++;
	if (i < len && re[i] == '^')
		i++;
	if (i < len && re[i] == ']') /* a literal ']' first */
		i++;
	while (i < len && re[i] != ']') {
		const char *end;
		if (re[i] == '\\') {
			i = dfa_skip_escape(re, len, i);
		} else if (re[i] == '[' && i + 1 < len && re[i + 1] == ':' &&
			   (end = memchr(re + i + 2, ']', len - i - 2)) != NULL &&
			   end[-1] == ':') {
			i = (size_t)(end - re) + 1; /* [:name:] */
		} else {
			i++;
		}
	}
	return i < len ? i + 1 : len;
}

/* Offset just past a {n} {n,} {n,m} quantifier at re[i], or 0 when the
 * brace is a literal (PCRE2 10.42 reads {,m} and the rest as text). */
static size_t dfa_brace_end(const char *re, size_t len, size_t i)
{
	size_t j = i + 1, digits = 0;

	while (j < len && re[j] >= '0' && re[j] <= '9')
		j++, digits++;
	if (digits == 0)
		return 0;
	if (j < len && re[j] == ',')
		for (j++; j < len && re[j] >= '0' && re[j] <= '9'; j++)
			;
	return j < len && re[j] == '}' ? j + 1 : 0;
}

/* At re[i] '(' : 1 when it opens an atomic group, a (*VERB) or (?x). */
static int dfa_group_refused(const char *re, size_t len, size_t i)
{
	if (i + 1 >= len)
		return 0;
	if (re[i + 1] == '*')
		return 1;
	if (re[i + 1] != '?' || i + 2 >= len)
		return 0;
	if (re[i + 2] == '>')
		return 1;
	for (size_t j = i + 2; j < len && re[j] != ')' && re[j] != ':'; j++) {
		if (!dfa_in("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ^-",
			    re[j]))
			return 0; /* not an option setting: (?<name> (?= ... */
		if (re[j] == 'x')
			return 1;
	}
	return 0;
}

/*
 * Where re[0..len) (a pattern pcre2_compile() accepted) has an atomic
 * group (?>, a possessive quantifier (a++ a*+ a?+ a{2}+), a (*...) item or
 * an (?x) option; -1 when nowhere.  Escapes, \Q...\E, classes and
 * (?#...) comments are skipped.
 */
static long dfa_atomic_at(const char *re, size_t len)
{
	size_t i = 0;

	while (i < len) {
		size_t q = 0;
		if (re[i] == '\\') {
			i = dfa_skip_escape(re, len, i);
			continue;
		}
		if (re[i] == '[') {
			i = dfa_skip_class(re, len, i);
			continue;
		}
		if (re[i] == '(' && i + 2 < len && re[i + 1] == '?' &&
		    re[i + 2] == '#') {
			const char *end = memchr(re + i, ')', len - i);
			i = end != NULL ? (size_t)(end - re) + 1 : len;
			continue;
		}
		if (re[i] == '(') {
			if (dfa_group_refused(re, len, i))
				return (long)i;
			i += (i + 1 < len && re[i + 1] == '?') ? 2 : 1;
			continue;
		}
		if (re[i] == '*' || re[i] == '+' || re[i] == '?')
			q = i + 1;
		else if (re[i] == '{')
			q = dfa_brace_end(re, len, i);
		if (q > 0 && q < len && re[q] == '+')
			return (long)i;
		i = q > 0 ? q : i + 1;
	}
	return -1;
}

/* Compiles pattern i; 0 or a negative status with err filled. */
static int dfa_compile_one(void *h, size_t i, const struct engine_pattern *p,
			   unsigned flags, struct engine_error *err)
{
	struct dfa_set *s = h;
	uint32_t backrefs = 0;
	long at;

	s->code[i] = rxb_pcre2_compile(p, i, flags, err);
	if (s->code[i] == NULL)
		return ENGINE_ERR_COMPILE;
	at = dfa_atomic_at(p->re, p->len);
	if (at >= 0) {
		engine_error_set(err, ENGINE_ERR_UNSUPPORTED, (long)i, at,
				 "atomic groups, possessive quantifiers, "
				 "(*VERB)s and (?x) are refused: pcre2_dfa_match"
				 " locks in the longest match of an atomic "
				 "group, not the first");
		return ENGINE_ERR_UNSUPPORTED;
	}
	pcre2_pattern_info(s->code[i], PCRE2_INFO_BACKREFMAX, &backrefs);
	if (backrefs > 0) {
		engine_error_set(err, ENGINE_ERR_UNSUPPORTED, (long)i, -1,
				 "backreferences are not supported by "
				 "pcre2_dfa_match");
		return ENGINE_ERR_UNSUPPORTED;
	}
	return 0;
}

/* Workspace ints for the compiled set: room for two state vectors of
 * about one state per code unit of the largest pattern (3 ints each). */
static size_t dfa_ws_size(const struct dfa_set *s)
{
	size_t want = RXB_DFA_WS_MIN;

	for (size_t i = 0; i < s->turn.n; i++) {
		size_t sz = 0;
		pcre2_pattern_info(s->code[i], PCRE2_INFO_SIZE, &sz);
		if (sz <= RXB_DFA_WS_MAX / 8 && 6 * sz + 2 > want)
			want = 6 * sz + 2;
	}
	return want < RXB_DFA_WS_MAX ? want : RXB_DFA_WS_MAX;
}

/* Match data, context with the limits, and the workspace; 0 or NOMEM. */
static int dfa_make_match_data(void *h, struct engine_error *err)
{
	struct dfa_set *s = h;

	s->md = pcre2_match_data_create(1, NULL);
	s->mctx = pcre2_match_context_create(NULL);
	s->wscount = dfa_ws_size(s);
	s->ws = malloc(s->wscount * sizeof(*s->ws));
	if (s->md == NULL || s->mctx == NULL || s->ws == NULL) {
		engine_error_set(err, ENGINE_ERR_NOMEM, -1, -1,
				 "out of memory");
		return ENGINE_ERR_NOMEM;
	}
	pcre2_set_match_limit(s->mctx, RXB_DFA_MATCH_LIMIT);
	pcre2_set_depth_limit(s->mctx, RXB_DFA_DEPTH_LIMIT);
	pcre2_set_heap_limit(s->mctx, RXB_DFA_HEAP_LIMIT);
	return 0;
}

static const struct inturn_build dfa_build = {
	.set_size = sizeof(struct dfa_set),
	.slots_at = offsetof(struct dfa_set, code),
	.slot_size = sizeof(pcre2_code *),
	.utf8 = 1,
	.try_one = dfa_try,
	.compile_one = dfa_compile_one,
	.finish = dfa_make_match_data,
	.free = dfa_set_free,
};

static int dfa_compile_set(const struct engine_pattern *pats, size_t n,
			   unsigned flags, void **out,
			   struct engine_error *err)
{
	return inturn_compile(&dfa_build, pats, n, flags, out, err);
}

/* Doubles the workspace after PCRE2_ERROR_DFA_WSSIZE; 0, LIMIT or NOMEM. */
static int dfa_grow(struct dfa_set *s)
{
	int *ws;

	if (s->wscount >= RXB_DFA_WS_MAX)
		return ENGINE_ERR_LIMIT;
	ws = malloc(2 * s->wscount * sizeof(*ws));
	if (ws == NULL)
		return ENGINE_ERR_NOMEM;
	free(s->ws);
	s->ws = ws;
	s->wscount *= 2;
	return 0;
}

/* The longest match of pattern i at the leftmost start from `start`
 * (an inturn_try_fn); after the first attempt (at 0, which checks the
 * whole subject) without the UTF check, as pcre2.c's pcre2_try says. */
static int dfa_try(void *h, size_t i, const char *data, size_t len,
		   size_t start, struct inturn_span *span)
{
	struct dfa_set *s = h;
	PCRE2_SPTR subject = (PCRE2_SPTR)(data != NULL ? data : "");
	int rc;

	for (;;) {
		rc = pcre2_dfa_match(s->code[i], subject, len, start,
				     start > 0 ? PCRE2_NO_UTF_CHECK : 0, s->md,
				     s->mctx, s->ws, s->wscount);
		if (rc != PCRE2_ERROR_DFA_WSSIZE)
			break;
		rc = dfa_grow(s);
		if (rc != 0)
			return rc;
	}
	if (rc < 0)
		return rxb_pcre2_status(rc);
	/* rc 0: more matches than the one pair holds; it has the longest */
	if (span != NULL) {
		PCRE2_SIZE *ov = pcre2_get_ovector_pointer(s->md);
		span->so = ov[0];
		span->eo = ov[1];
	}
	return 1;
}

static size_t dfa_size(void *h)
{
	struct dfa_set *s = h;

	return s->wscount * sizeof(*s->ws) +
	       rxb_pcre2_size(s->code, s->turn.n, 0);
}

const struct engine engine_pcre2_dfa = {
	.name = "pcre2-dfa",
	.library = "pcre2",
	.desc = "PCRE2 DFA matcher (pcre2_dfa_match, longest match); sets "
		"tried in turn",
	.caps = CAP_START_OF_MATCH | CAP_LOOKAROUND | CAP_LAZY |
		CAP_NONCAPTURE | CAP_PERL_CLASSES | CAP_INLINE_FLAGS |
		CAP_NUL_PATTERN | CAP_UTF8 | CAP_COUNTED_REP |
		CAP_WORD_BOUNDARY | CAP_EMPTY_MATCH | CAP_PERL_DOLLAR |
		CAP_UNICODE_PROPERTY | CAP_UNICODE_SCRIPT | CAP_EXTENDED_SPACE,
	.semantics = SEM_LEFTMOST_LONGEST,
	.version = rxb_pcre2_version,
	.compile = dfa_compile_set,
	.is_match = inturn_op_is_match,
	.count = inturn_op_count,
	.match_ids = inturn_op_match_ids,
	.size = dfa_size,
	.free = dfa_set_free,
};

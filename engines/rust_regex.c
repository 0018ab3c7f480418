/*
 * rust_regex.c - Rust's regex crate 1.7.1 (finite automata, linear time),
 * engine `rust-regex`, through the static library engines/rust/ builds
 * (engines/rust_regex.h).  1.7 predates the crate's 1.9 rewrite (the
 * meta engine of regex-automata); rebar keeps it as rust/regexold.
 *
 * A set is a Regex per pattern and, for two or more, a RegexSet: native
 * is_match and match_ids.  count() walks the patterns in turn with
 * Regex::find_at (inturn.h: resume at a match's end, one byte or UTF-8
 * character past an empty one), not with find_iter, which skips an empty
 * match right after the previous one and so counts otherwise than
 * engine.h defines.
 *
 * Semantics worth knowing: leftmost-first.  No lookaround, no
 * backreferences, no atomic groups.  `$` without ENGINE_MULTILINE is the
 * end of data only (no Perl "before a final newline").  Bytes are one
 * character each unless ENGINE_UTF8 (the crate's Unicode mode off); in
 * UTF-8 mode \w \d \s \b keep their ASCII meaning, as in PCRE2 without
 * UCP (engines/rust/src/lib.rs translates them, and spells as \xHH an
 * escaped punctuation character the crate takes for no escape: Snort's
 * `\/`).  The crate parses its own syntax, near PCRE's: what it reads
 * otherwise (an escaped letter it does not know, `\Z`, `\Q`) is a
 * compile error, never a different answer.  ENGINE_ANCHORED wraps each
 * pattern as \A(?:p).  Its limits are engine options: size_limit (the
 * compiled program) and dfa_size_limit (the lazy DFA's cache per search
 * thread).
 *
 * Build: only when CMake found cargo and the packaged crates
 * (RXB_HAVE_RUST_REGEX); the crate version comes from CMake too.
 */
#include "engines/engine.h"
#include "engines/inturn.h"
#include "engines/rust_regex.h"

#include <stdlib.h>

#ifndef RXB_RUST_REGEX_VERSION
#define RXB_RUST_REGEX_VERSION "unknown"
#endif

/*
 * No engine.thread_new: a Regex and a RegexSet are Sync (the crate keeps
 * a cache per thread), but RxbSet keeps the one hits vector every
 * match_ids reuses (engines/rust/src/lib.rs).
 */
struct rust_set {
	/* first member: inturn_op_count gets the set as a struct inturn */
	struct inturn turn;
	struct rxb_rust_set *rs;
};

/* The crate's own defaults (RegexBuilder). */
static uint64_t rust_size_limit = 10u << 20;
static uint64_t rust_dfa_size_limit = 2u << 20;

static const struct engine_option rust_options[] = {
	{"size_limit", ENGINE_OPT_SIZE, "10M",
	 "most bytes a compiled pattern (or the set) may take",
	 1, (uint64_t)1 << 40, NULL, NULL, &rust_size_limit},
	{"dfa_size_limit", ENGINE_OPT_SIZE, "2M",
	 "the lazy DFA's cache; when it fills too often, the NFA runs",
	 1, (uint64_t)1 << 40, NULL, NULL, &rust_dfa_size_limit},
	{NULL, 0, NULL, NULL, 0, 0, NULL, NULL, NULL},
};

static const char *rust_version(void)
{
	return RXB_RUST_REGEX_VERSION " (before the 1.9 meta engine; rebar: "
				      "rust/regexold)";
}

static void rust_set_free(void *h)
{
	struct rust_set *s = h;

	if (s == NULL)
		return;
	rxb_rust_free(s->rs);
	free(s);
}

/* src/lib.rs reads enum engine_flag by these values. */
_Static_assert(ENGINE_CASELESS == 1 && ENGINE_DOTALL == 2 &&
		       ENGINE_ANCHORED == 4 && ENGINE_UTF8 == 16 &&
		       ENGINE_MULTILINE == 32,
	       "engines/rust/src/lib.rs mirrors enum engine_flag");

/* One search of pattern i from `start` (an inturn_try_fn). */
static int rust_try(void *h, size_t i, const char *data, size_t len,
		    size_t start, struct inturn_span *span)
{
	struct rust_set *s = h;

	if (span == NULL)
		return rxb_rust_find_at(s->rs, i, data, len, start, NULL, NULL);
	return rxb_rust_find_at(s->rs, i, data, len, start, &span->so,
				&span->eo);
}

/* The crate's status as an engine error in err; returns the status. */
static int rust_error(int rc, long pattern, const char *msg,
		      struct engine_error *err)
{
	if (rc == RXB_RUST_TOO_BIG) {
		engine_error_set(err, ENGINE_ERR_COMPILE, pattern, -1,
				 "%s (raise --engine-opt "
				 "rust-regex.size_limit)", msg);
		return ENGINE_ERR_COMPILE;
	}
	engine_error_set(err, ENGINE_ERR_COMPILE, pattern, -1, "%s", msg);
	return ENGINE_ERR_COMPILE;
}

static int rust_compile(const struct engine_pattern *pats, size_t n,
			unsigned flags, void **out, struct engine_error *err)
{
	struct rxb_rust_limits lim = {(size_t)rust_size_limit,
				      (size_t)rust_dfa_size_limit};
	struct rust_set *s;
	char msg[sizeof(err->msg)];
	long at = -1;
	int rc;

	*out = NULL;
	if (n == 0) {
		engine_error_set(err, ENGINE_ERR_COMPILE, -1, -1, "empty set");
		return ENGINE_ERR_COMPILE;
	}
	s = calloc(1, sizeof(*s));
	if (s == NULL) {
		engine_error_set(err, ENGINE_ERR_NOMEM, -1, -1, "out of memory");
		return ENGINE_ERR_NOMEM;
	}
	s->turn = (struct inturn){n, (flags & ENGINE_ANCHORED) != 0,
				  (flags & ENGINE_UTF8) != 0, rust_try};
	rc = rxb_rust_compile(pats, n, flags, &lim, &s->rs, &at,
			      msg, sizeof(msg));
	if (rc != 0) {
		free(s);
		return rust_error(rc, at, msg, err);
	}
	*out = s;
	return 0;
}

static int rust_is_match(void *h, const char *data, size_t len)
{
	return rxb_rust_is_match(((struct rust_set *)h)->rs, data, len);
}

static long rust_match_ids(void *h, const char *data, size_t len,
			   unsigned char *ids)
{
	return rxb_rust_match_ids(((struct rust_set *)h)->rs, data, len, ids);
}

const struct engine engine_rust_regex = {
	.name = "rust-regex",
	.desc = "Rust regex crate 1.7 (automata, linear time); native sets "
		"via RegexSet",
	.caps = CAP_MULTI_NATIVE | CAP_START_OF_MATCH | CAP_LAZY |
		CAP_NONCAPTURE | CAP_PERL_CLASSES | CAP_INLINE_FLAGS |
		CAP_NUL_PATTERN | CAP_UTF8 | CAP_COUNTED_REP |
		CAP_WORD_BOUNDARY | CAP_EMPTY_MATCH,
	.semantics = SEM_LEFTMOST_FIRST,
	.version = rust_version,
	.compile = rust_compile,
	.is_match = rust_is_match,
	.count = inturn_op_count,
	.match_ids = rust_match_ids,
	.free = rust_set_free,
	.options = rust_options,
};

/*
 * engine.h - the one interface every regex engine adapter implements.
 *
 * An adapter lives in its own file (engines/<name>.c), keeps everything
 * static and exports one `const struct engine`.  engines/registry.c lists
 * them all; callers find an engine by name with engine_find().  The harness
 * owns the clock: adapters never time, print or allocate inside is_match /
 * count / match_ids (scratch and match data are made at compile time).
 * Some libraries still allocate inside their own match calls (Oniguruma's
 * backtrack stack, RE2::Set::Match, glibc regexec, TRE); that is a real
 * cost of the engine and shows in B/op and allocs/op.
 *
 * Build options: each adapter is compiled only when CMake found its
 * library (RXB_HAVE_<ENGINE>); registry.c reacts to the same macros.
 */
#ifndef RXB_ENGINE_H
#define RXB_ENGINE_H

#include <stddef.h>

#include "engines/pattern.h"

/* Filled by compile() on failure. */
struct engine_error {
	int status;        /* ENGINE_ERR_COMPILE, _UNSUPPORTED or _NOMEM */
	long pattern;      /* index of the offending pattern, or -1 */
	long offset;       /* byte offset inside it, or -1 when unknown */
	char msg[256];     /* the engine's own message */
};

struct engine {
	const char *name;
	/*
	 * The implementation it comes from, when other engines share it
	 * ("pcre2" for pcre2-jit): a vote between engines (suites/case.h)
	 * counts a library once.  NULL: the name.
	 */
	const char *library;
	const char *desc;
	unsigned caps;                   /* enum engine_cap */
	enum engine_semantics semantics; /* what count() counts */

	/* Library version string, e.g. "10.42". Never NULL. */
	const char *(*version)(void);

	/*
	 * Compile a set of n >= 1 patterns with `flags` (enum engine_flag).
	 * Returns 0 and a handle in *out, or a negative enum engine_status
	 * with *err filled.  The handle owns every buffer it needs to match
	 * (scratch, match data), so matching never allocates.
	 */
	int (*compile)(const struct engine_pattern *pats, size_t n,
		       unsigned flags, void **out, struct engine_error *err);

	/* 1 if any pattern of the set matches data[0..len), 0 if none, <0 error. */
	int (*is_match)(void *h, const char *data, size_t len);

	/*
	 * Number of matches in data (semantics class above): non-overlapping
	 * matches, resuming after each match and one byte past an empty one.
	 * For a set it is the sum over patterns; with ENGINE_ANCHORED it is
	 * 0 or 1 per pattern.  <0 on error.  May be NULL.
	 */
	long (*count)(void *h, const char *data, size_t len);

	/*
	 * Which patterns of the set match: ids[i] = 1 if pattern i matches
	 * anywhere, else 0 (ids has one byte per pattern).  Returns the number
	 * of patterns that matched, <0 on error.  May be NULL.
	 */
	long (*match_ids)(void *h, const char *data, size_t len,
			  unsigned char *ids);

	/* Bytes the compiled set occupies when the engine can tell, else 0. May be NULL. */
	size_t (*size)(void *h);

	void (*free)(void *h);
};

/* The registry (engines/registry.c). */
extern const struct engine *const engine_table[];
extern const size_t engine_count;

/*
 * What this process is doing, set first thing in the children the
 * harness forks (the child_init of harness/isolate.h's isolate_run():
 * suites/case.c's for a verifying child, harness/bench.c's for a
 * measuring one): the parent compiles, a verifying child computes
 * answers, a measuring child times a sample.  Only the test-only engines
 * (crash.c) look at it, to fail in one phase on purpose.
 */
enum engine_phase {
	ENGINE_PHASE_PARENT = 0,
	ENGINE_PHASE_VERIFY,
	ENGINE_PHASE_MEASURE,
};
extern enum engine_phase engine_phase;

/* Returns the engine called `name`, or NULL. */
const struct engine *engine_find(const char *name);

/* An engine this binary was built without, and why; ended by {NULL}. */
struct engine_missing {
	const char *name;
	const char *why; /* "libhs not found when configured (install ...)" */
};
extern const struct engine_missing engine_missing[];

/* Why engine `name` was left out at configure time, or NULL. */
const char *engine_missing_reason(const char *name);

/* True when a set on this engine is native rather than a loop over patterns. */
static inline int engine_set_native(const struct engine *e)
{
	return (e->caps & CAP_MULTI_NATIVE) != 0;
}

/* e->library, or e->name when it has none. */
static inline const char *engine_library(const struct engine *e)
{
	return e->library != NULL ? e->library : e->name;
}

/* Fill err: helper for adapters. */
void engine_error_set(struct engine_error *err, int status, long pattern,
		      long offset, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));

#endif

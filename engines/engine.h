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

/* Compile flags, applied to every pattern of a set. */
enum engine_flag {
	ENGINE_CASELESS = 1u << 0,     /* ASCII case-insensitive */
	ENGINE_DOTALL = 1u << 1,       /* '.' matches '\n' too */
	ENGINE_ANCHORED = 1u << 2,     /* match only at the start of data */
	ENGINE_SINGLEMATCH = 1u << 3,  /* stop at the first match (Hyperscan H) */
	ENGINE_UTF8 = 1u << 4,         /* UTF-8 mode; the default is Latin-1/bytes */
	ENGINE_MULTILINE = 1u << 5,    /* ^ and $ match at line breaks */
};

/*
 * Capabilities are data: the suites and tests decide "unsupported" from
 * this bitfield before asking the engine, so an engine is never asked for
 * something it would answer wrongly.
 */
enum engine_cap {
	CAP_MULTI_NATIVE = 1u << 0,   /* native multi-pattern set (not a loop) */
	CAP_START_OF_MATCH = 1u << 1, /* reports where a match starts */
	CAP_BACKREF = 1u << 2,        /* \1 */
	CAP_LOOKAROUND = 1u << 3,     /* (?=) (?!) (?<=) (?<!) */
	CAP_LAZY = 1u << 4,           /* *? +? ?? */
	CAP_NONCAPTURE = 1u << 5,     /* (?:...) */
	CAP_PERL_CLASSES = 1u << 6,   /* \d \w \s and their negations */
	CAP_INLINE_FLAGS = 1u << 7,   /* (?i) inside a pattern */
	CAP_NUL_PATTERN = 1u << 8,    /* a NUL byte inside a pattern */
	CAP_UTF8 = 1u << 9,           /* ENGINE_UTF8 mode */
	CAP_MATCH_LIMIT = 1u << 10,   /* bounded backtracking (error, not hang) */
	CAP_COUNTED_REP = 1u << 11,   /* {m,n} */
	CAP_WORD_BOUNDARY = 1u << 12, /* \b \B */
	CAP_EMPTY_MATCH = 1u << 13,   /* patterns that can match the empty string */
	CAP_ATOMIC = 1u << 14,        /* (?>...) and possessive quantifiers */
	CAP_TEST_ONLY = 1u << 15,     /* hidden from default runs (noop, crash) */
	CAP_PERL_DOLLAR = 1u << 16,   /* `$` also matches before a final '\n' (Perl);
					 without it `$` is end of data only */
};

/* What count() counts; counts agree only within one class. */
enum engine_semantics {
	SEM_LEFTMOST_FIRST,   /* Perl: PCRE2, RE2, Oniguruma */
	SEM_LEFTMOST_LONGEST, /* POSIX: glibc regex, TRE */
	SEM_ALL_ENDS,         /* every match end offset: Hyperscan */
	SEM_NONE,             /* test-only engines */
};

/* Negative results of is_match, count and match_ids. */
enum engine_status {
	ENGINE_OK = 0,
	ENGINE_ERR_COMPILE = -1,     /* pattern rejected; see engine_error */
	ENGINE_ERR_UNSUPPORTED = -2, /* the engine lacks a needed capability */
	ENGINE_ERR_LIMIT = -3,       /* match/backtrack limit reached */
	ENGINE_ERR_NOMEM = -4,
	ENGINE_ERR_MATCH = -5,       /* any other run-time engine failure */
};

/* A pattern is bytes, not a C string: it may hold NUL. */
struct engine_pattern {
	const char *re;
	size_t len;
};

/* Filled by compile() on failure. */
struct engine_error {
	int status;        /* ENGINE_ERR_COMPILE, _UNSUPPORTED or _NOMEM */
	long pattern;      /* index of the offending pattern, or -1 */
	long offset;       /* byte offset inside it, or -1 when unknown */
	char msg[256];     /* the engine's own message */
};

struct engine {
	const char *name;
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
 * What this process is doing, set by the harness in the children it forks
 * (harness/isolate.c): the parent compiles, a verifying child computes
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

/* True when a set on this engine is native rather than a loop over patterns. */
static inline int engine_set_native(const struct engine *e)
{
	return (e->caps & CAP_MULTI_NATIVE) != 0;
}

/* "leftmost-first" and so on. */
const char *engine_semantics_name(enum engine_semantics s);

/* Names the capability bits set in caps, comma-separated, into buf. */
void engine_caps_format(unsigned caps, char *buf, size_t size);

/* One-line name of a status, e.g. "match limit". */
const char *engine_status_name(int status);

/*
 * Length (1 to 4) of the valid UTF-8 sequence at s, which has `avail` > 0
 * bytes, or 0 when it is not one: overlong forms, surrogates and code
 * points above U+10FFFF are invalid.
 */
size_t engine_utf8_len(const char *s, size_t avail);

/*
 * Offset of the first byte of s[0..len) that does not start a valid
 * UTF-8 sequence, or -1 when all of s is valid UTF-8.  For adapters whose
 * library trusts its UTF-8 input, for suites that must give them valid
 * UTF-8, and for writers of formats that must be UTF-8 (JSON).
 */
long engine_utf8_invalid(const char *s, size_t len);

/* Fill err: helper for adapters. */
void engine_error_set(struct engine_error *err, int status, long pattern,
		      long offset, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));

#endif

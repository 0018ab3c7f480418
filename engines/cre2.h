/*
 * cre2.h - the project's own small C binding to RE2, in the shape of the
 * cre2 library: opaque handles, an options object, single regexps and
 * RE2::Set.  engines/re2.c is its only user; engines/cre2.cc implements
 * it (with engines/cboost.cc, the only C++ in rxbench).
 *
 * Every function catches C++ exceptions at the boundary: an allocation
 * failure inside RE2 becomes a NULL handle or a -1 return, never an
 * exception crossing into C.  Lengths are size_t so haystacks may exceed
 * 2 GiB on the C side; RE2 itself takes size_t offsets.
 *
 * Build: only when CMake found RE2 (RXB_HAVE_RE2).
 */
#ifndef RXB_CRE2_H
#define RXB_CRE2_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct cre2_options cre2_options_t;
typedef struct cre2_regexp cre2_regexp_t;
typedef struct cre2_set cre2_set_t;

/* Where a match may start (and end); mirrors RE2::Anchor. */
typedef enum cre2_anchor {
	CRE2_UNANCHORED,
	CRE2_ANCHOR_START,
	CRE2_ANCHOR_BOTH,
} cre2_anchor_t;

/* A byte range inside the caller's text (not NUL-terminated). */
typedef struct cre2_string {
	const char *data;
	size_t length;
} cre2_string_t;

/* Error codes of cre2_error_code(); the values of RE2::ErrorCode. */
enum cre2_error {
	CRE2_NO_ERROR = 0,
	CRE2_ERROR_INTERNAL = 1,
	CRE2_ERROR_BAD_UTF8 = 13,
	CRE2_ERROR_PATTERN_TOO_LARGE = 15,
};

/*
 * Options: Latin-1, case-sensitive, '.' excludes '\n', captures kept,
 * leftmost-first, RE2's default memory budget, errors never logged.
 * cre2_opt_new() returns NULL when out of memory; the caller frees with
 * cre2_opt_delete(), which accepts NULL.
 */
cre2_options_t *cre2_opt_new(void);
void cre2_opt_delete(cre2_options_t *opt);
void cre2_opt_set_utf8(cre2_options_t *opt, int flag);
void cre2_opt_set_case_sensitive(cre2_options_t *opt, int flag);
void cre2_opt_set_dot_nl(cre2_options_t *opt, int flag);
void cre2_opt_set_never_capture(cre2_options_t *opt, int flag);
void cre2_opt_set_longest_match(cre2_options_t *opt, int flag);
void cre2_opt_set_max_mem(cre2_options_t *opt, int64_t bytes);
void cre2_opt_set_literal(cre2_options_t *opt, int flag);

/*
 * Compiles pattern[0..len) (it may hold NUL).  Returns NULL only when out
 * of memory; a pattern error still returns a handle, so check
 * cre2_error_code() first.  Free with cre2_delete(), which accepts NULL.
 */
cre2_regexp_t *cre2_new(const char *pattern, size_t len,
			const cre2_options_t *opt);
void cre2_delete(cre2_regexp_t *re);

/* 0 when the regexp compiled, else an RE2::ErrorCode value. */
int cre2_error_code(const cre2_regexp_t *re);

/* RE2's message for the error ("" when none); owned by re. */
const char *cre2_error_string(const cre2_regexp_t *re);

/* The part of the pattern the error is about, pointing into re. */
void cre2_error_arg(const cre2_regexp_t *re, cre2_string_t *arg);

/* RE2's program size (instructions), or -1 when re did not compile. */
int cre2_program_size(const cre2_regexp_t *re);

/*
 * Searches text[start..end) (the whole text is context for ^ and \b).
 * On a match fills match[0..nmatch) with group extents (NULL data for a
 * group that did not take part) and returns 1; returns 0 for no match and
 * -1 when re did not compile, nmatch is out of range (0..16) or RE2
 * failed internally.
 */
int cre2_match(const cre2_regexp_t *re, const char *text, size_t len,
	       size_t start, size_t end, cre2_anchor_t anchor,
	       cre2_string_t *match, int nmatch);

/*
 * cre2_match() asked of a twin of re (made at the first call and kept in
 * re until cre2_drop_twin() or cre2_delete()) whose errors are logged,
 * with fd 2 captured around the search into one temporary file the
 * process keeps: the same answer, and *dfa_failed set to 1 when RE2's DFA
 * ran out of its memory budget on this search (RE2 then falls back to the
 * NFA, which it says only in its log), else 0.  The twin has the same
 * pattern and options as re, so it answers as re does; re itself is not
 * asked.  For a look before timing from one thread, never inside it.
 * Returns as cre2_match(); -1 too when the twin or the capture failed.
 */
int cre2_match_probe(cre2_regexp_t *re, const char *text, size_t len,
		     size_t start, size_t end, cre2_anchor_t anchor,
		     cre2_string_t *match, int nmatch, int *dfa_failed);

/* Free re's twin (cre2_match_probe()) and what its DFA learned. */
void cre2_drop_twin(cre2_regexp_t *re);

/* 1 if re matches anywhere in text[0..len), 0 if not, -1 on error. */
int cre2_partial_match(const cre2_regexp_t *re, const char *text, size_t len);

/*
 * Sets (RE2::Set).  cre2_set_new() copies opt and returns NULL when out of
 * memory.  cre2_set_add() returns the pattern's index (0, 1, ...) or -1
 * with RE2's message in error[0..error_len) (when error is not NULL).
 * cre2_set_compile() returns 0, or -1 when the set exceeds max_mem.
 */
cre2_set_t *cre2_set_new(const cre2_options_t *opt, cre2_anchor_t anchor);
int cre2_set_add(cre2_set_t *set, const char *pattern, size_t len,
		 char *error, size_t error_len);
int cre2_set_compile(cre2_set_t *set);

/*
 * Matches the compiled set against text[0..len).  When match is NULL,
 * returns 1 if any pattern matched, else 0.  Otherwise writes the indices
 * of the matching patterns (unsorted, at most match_len of them) to match
 * and returns how many matched.  Returns -1 when the set is not compiled,
 * -2 when RE2's DFA ran out of its memory budget and -3 on any other
 * failure.  Not reentrant: a set keeps one reusable result vector.
 */
long cre2_set_match(cre2_set_t *set, const char *text, size_t len,
		    int *match, size_t match_len);

/*
 * The same from any thread: the result vector is the caller's own
 * (RE2::Set::Match is const and thread-safe).  cre2_set_hits_new()
 * returns NULL when out of memory.
 */
typedef struct cre2_set_hits cre2_set_hits_t;
cre2_set_hits_t *cre2_set_hits_new(void);
void cre2_set_hits_delete(cre2_set_hits_t *hits);
long cre2_set_match_hits(const cre2_set_t *set, cre2_set_hits_t *hits,
			 const char *text, size_t len, int *match,
			 size_t match_len);

void cre2_set_delete(cre2_set_t *set);

#ifdef __cplusplus
}
#endif

#endif

/*
 * cboost.h - the project's small C binding to Boost.Regex (boost::regex,
 * Perl syntax, bytes in the classic C++ locale).  engines/boost.c is its
 * only user; engines/cboost.cc implements it.
 *
 * Every function catches every C++ exception at the boundary: a pattern
 * Boost refuses, std::bad_alloc, and the std::runtime_error Boost throws
 * when a search visits more states than its bound (too much
 * backtracking) or overflows its stack all become the negative statuses
 * below, never an exception crossing into C.
 *
 * Build: only when CMake found Boost.Regex (RXB_HAVE_BOOST).
 */
#ifndef RXB_CBOOST_H
#define RXB_CBOOST_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct cboost_regex cboost_regex_t;

enum cboost_flag {
	CBOOST_ICASE = 1u << 0, /* caseless (ASCII: the classic locale) */
};

enum cboost_status {
	CBOOST_OK = 0,
	CBOOST_ERR_SYNTAX = -1, /* the pattern was refused; see the message */
	CBOOST_ERR_NOMEM = -2,
	CBOOST_ERR_LIMIT = -3,  /* too complex to match: Boost's state bound */
	CBOOST_ERR_OTHER = -4,  /* any other exception */
};

/* "1.74.0": the Boost headers rxbench was built with.  Never NULL. */
const char *cboost_version(void);

/*
 * Compiles pattern[0..len) (Perl syntax; it may hold NUL) with `flags`
 * (enum cboost_flag).  Perl mode with no_mod_s: `.` does not match line
 * ends, `^` and `$` match at line ends (Boost takes '\n', '\r' and '\f'
 * for those).  Returns CBOOST_OK with a new regex in
 * *out (free it with cboost_delete(), which accepts NULL), or a negative
 * enum cboost_status with Boost's message in msg[0..size).
 */
int cboost_new(const char *pattern, size_t len, unsigned flags,
	       cboost_regex_t **out, char *msg, size_t size);
void cboost_delete(cboost_regex_t *re);

/*
 * The leftmost-first match in text[start..len) (the whole text is context
 * for ^, \b and lookbehind); with `anchored` it must start at `start`.
 * Returns 1 with its extent in *so, *eo (offsets into text; both may be
 * NULL), 0 for no match, or a negative enum cboost_status.  Not
 * reentrant: a regex keeps one reusable match_results.
 */
int cboost_search(cboost_regex_t *re, const char *text, size_t len,
		  size_t start, int anchored, size_t *so, size_t *eo);

#ifdef __cplusplus
}
#endif

#endif

/*
 * posix.h - a library with the POSIX regex API (regcomp/regexec) as one
 * row of the adapter in engines/posix.c: glibc's row (engine `posix`, in
 * posix.c) and TRE's (engine `tre`, engines/tre.c).
 *
 * A row wraps its library's own regex_t and calls; the two cannot share a
 * translation unit (TRE's <tre/tre.h> defines a regex_t of its own).  The
 * adapter does the rest once for every row: the PCRE-to-ERE translation
 * (engines/ere.h), sets tried in turn (engines/inturn.h), the errors,
 * ENGINE_ANCHORED.
 */
#ifndef RXB_POSIX_H
#define RXB_POSIX_H

#include <stddef.h>

#include "engines/engine.h"
#include "engines/inturn.h"

struct posix_lib {
	size_t re_size; /* sizeof its regex_t */
	size_t max_len; /* the longest haystack its regoff_t can index */
	unsigned ere;   /* enum ere_option: what its ERE reads besides ERE */
	/* Optional: 0 when the library can be used, else a status, err filled. */
	int (*init)(struct engine_error *err);
	/*
	 * ERE ere[0..len) (NUL-terminated) into *re, REG_EXTENDED with
	 * REG_ICASE for ENGINE_CASELESS and REG_NEWLINE for ENGINE_MULTILINE
	 * in `flags`: 0, or ENGINE_ERR_COMPILE or _NOMEM with the library's
	 * message in msg[0..size) (then re holds nothing to free).
	 */
	int (*comp)(void *re, const char *ere, size_t len, unsigned flags,
		    char *msg, size_t size);
	/*
	 * The leftmost-longest match in data[start, len) with data[0, start)
	 * its left context (`multiline`: compiled under ENGINE_MULTILINE):
	 * 1 with its extent in *span unless span is NULL, 0 for none, or a
	 * negative enum engine_status.  len is at most max_len.
	 */
	int (*exec)(const void *re, const char *data, size_t len, size_t start,
		    int multiline, struct inturn_span *span);
	void (*free)(void *re);
};

/* TRE's row and its version (engines/tre.c, built with RXB_HAVE_TRE). */
extern const struct posix_lib posix_tre;
const char *posix_tre_version(void);

#endif

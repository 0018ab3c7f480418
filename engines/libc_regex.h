/*
 * libc_regex.h - glibc's own POSIX regex functions, whatever else is
 * linked.
 *
 * Debian's libonig also exports regcomp/regexec/regfree/regerror
 * (Oniguruma's POSIX API); with libonig on the link line those names may
 * bind to it, which then reads glibc's regex_t and hangs or crashes.  So
 * every user of POSIX regex in rxbench (the `posix` engine, the -bench
 * filter) calls glibc's functions through this table, looked up in libc
 * itself once.
 */
#ifndef RXB_LIBC_REGEX_H
#define RXB_LIBC_REGEX_H

#include <regex.h>
#include <stddef.h>

struct libc_regex {
	int (*comp)(regex_t *, const char *, int);
	int (*exec)(const regex_t *, const char *, size_t, regmatch_t *, int);
	void (*free)(regex_t *);
	size_t (*error)(int, const regex_t *, char *, size_t);
};

/* glibc's functions, or NULL when they cannot be found (not glibc). */
const struct libc_regex *libc_regex(void);

#endif

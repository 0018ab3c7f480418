/*
 * filter.h - Go's -bench selection, exactly as go test does it
 * (testing/match.go): the pattern is split at every '/' and top-level '|'
 * that stands outside brackets and parentheses (a backslash escapes the
 * next byte); '|' separates whole alternatives, '/' the levels of one.  A
 * name "BenchmarkSuite/k=v/..." is selected when, for some alternative,
 * part i matches level i (unanchored; POSIX ERE here, RE2 syntax in Go:
 * they agree on the literals, classes, anchors and alternations names
 * need).  An empty part matches anything, levels beyond the parts are not
 * constrained, and a pattern with more levels than the name does not
 * select it.
 *
 * The filter also keeps what it was asked, so that a run whose filter
 * selects nothing can say so with an example of a name.
 */
#ifndef RXB_FILTER_H
#define RXB_FILTER_H

#include <regex.h>
#include <stddef.h>

struct libc_regex;

#define FILTER_MAX_PARTS 16
#define FILTER_MAX_ALTS 16

struct filter_alt {
	regex_t re[FILTER_MAX_PARTS];
	unsigned char any[FILTER_MAX_PARTS]; /* empty part: matches anything */
	size_t n;
};

struct bench_filter {
	const struct libc_regex *api; /* glibc's regex (see libc_regex.h) */
	struct filter_alt alt[FILTER_MAX_ALTS];
	size_t nalt; /* 0: everything matches */
	/* what filter_select() was asked */
	size_t asked, chosen;
	char example[160]; /* the first name asked, "" before */
};

/*
 * Compile pattern (NULL or "" selects all).  0, or -1 with a message
 * naming the bad part in err.
 */
int filter_init(struct bench_filter *f, const char *pattern, char *err,
		size_t errsize);
void filter_release(struct bench_filter *f);

/* 1 when "Benchmark" + name is selected. */
int filter_match(const struct bench_filter *f, const char *name);

/* filter_match() that counts: asked and chosen grow, example keeps the
 * first name. */
int filter_select(struct bench_filter *f, const char *name);

#endif

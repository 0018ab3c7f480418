/*
 * filter.h - Go's -bench selection: the pattern is split on '/' and part i
 * must match (unanchored, POSIX ERE) level i of "BenchmarkSuite/k=v/...".
 * Levels beyond the pattern's parts are not constrained.
 */
#ifndef RXB_FILTER_H
#define RXB_FILTER_H

#include <regex.h>
#include <stddef.h>

struct libc_regex;

#define FILTER_MAX_PARTS 16

struct bench_filter {
	const struct libc_regex *api; /* glibc's regex (see libc_regex.h) */
	regex_t re[FILTER_MAX_PARTS];
	size_t n; /* 0: everything matches */
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

#endif

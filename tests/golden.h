/*
 * golden.h - golden-file helpers for the Criterion tests: read a file,
 * and compare output with a golden file (rewritten when the environment
 * has RXB_UPDATE_GOLDEN=1).  Header-only: each test includes it once.
 */
#ifndef RXB_TEST_GOLDEN_H
#define RXB_TEST_GOLDEN_H

#include <criterion/criterion.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The whole file as a NUL-terminated string (*len bytes; len may be
 * NULL); NULL when it cannot be opened.  The caller frees. */
static inline char *golden_slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "r");
	char *buf = NULL;
	size_t cap = 0;
	ssize_t n;

	if (f == NULL)
		return NULL;
	n = getdelim(&buf, &cap, '\0', f);
	fclose(f);
	if (len != NULL)
		*len = n < 0 ? 0 : (size_t)n;
	if (n < 0) {
		free(buf);
		return strdup("");
	}
	return buf;
}

static inline void check_golden(const char *path, const char *got)
{
	char *want;

	if (getenv("RXB_UPDATE_GOLDEN") != NULL) {
		FILE *f = fopen(path, "w");
		cr_assert_not_null(f);
		fputs(got, f);
		fclose(f);
	}
	want = golden_slurp(path, NULL);
	cr_assert_not_null(want, "missing golden file %s", path);
	cr_assert_str_eq(got, want, "%s differs:\n%s", path, got);
	free(want);
}

#endif

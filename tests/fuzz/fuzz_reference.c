/*
 * fuzz_reference.c - libFuzzer target for the reference matcher
 * (suites/reference.h).  The first input byte holds the flags (enum
 * engine_flag, low six bits), the second the pattern length; the
 * pattern follows, the rest is the data.
 *
 * Besides the sanitizers, it checks what the reference promises: a
 * refused pattern comes with a one-line printable reason; the four
 * answers agree on whether there is a match; no count exceeds the
 * number of offsets (one with ENGINE_ANCHORED).
 */
#include "suites/reference.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static int printable_line(const char *s)
{
	if (*s == '\0')
		return 0;
	for (; *s; s++)
		if ((unsigned char)*s < 0x20 || (unsigned char)*s >= 0x7f)
			return 0;
	return 1;
}

static void check_answers(const struct ref_regex *r, unsigned flags,
			  const char *d, size_t n)
{
	int m = ref_is_match(r, d, n);
	long most = (flags & ENGINE_ANCHORED) ? 1 : (long)n + 1;
	long c[3] = {ref_count(r, SEM_LEFTMOST_FIRST, d, n),
		     ref_count(r, SEM_LEFTMOST_LONGEST, d, n),
		     ref_count(r, SEM_ALL_ENDS, d, n)};

	for (size_t i = 0; i < 3; i++)
		if ((c[i] > 0) != m || c[i] < 0 || c[i] > most)
			abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ref_regex *r;
	char why[256];
	unsigned flags;
	size_t plen;
	int rc;

	if (size < 2)
		return 0;
	flags = data[0] & 0x3fu;
	plen = data[1] < size - 2 ? data[1] : size - 2;
	rc = ref_compile((const char *)data + 2, plen, flags, &r, why,
			 sizeof(why));
	if (rc != REF_OK) {
		if ((rc != REF_INVALID && rc != REF_OUT_OF_REACH) ||
		    !printable_line(why))
			abort();
		return 0;
	}
	check_answers(r, flags, (const char *)data + 2 + plen,
		      size - 2 - plen);
	ref_free(r);
	return 0;
}

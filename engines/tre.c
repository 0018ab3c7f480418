/*
 * tre.c - TRE (tagged NFA, POSIX leftmost-longest) as a row of the POSIX
 * API adapter, engines/posix.c, which makes it engine `tre`: a set is its
 * patterns tried in turn.
 *
 * Patterns go through the same PCRE-to-ERE translation as the `posix`
 * engine (engines/ere.c), with the same newline rules: no REG_NEWLINE
 * unless ENGINE_MULTILINE, '.' translated to [^\n] unless ENGINE_DOTALL,
 * `$` only at the end of data.  TRE takes lengths, so patterns and
 * haystacks may hold NUL.  TRE has no start offset: count() passes
 * data + start and so loses the left context.  For ^ that is repaired
 * with REG_NOTBOL (set unless a line starts at `start`); for \b it cannot
 * be, so \b \B are refused (no CAP_WORD_BOUNDARY).  Lazy quantifiers are
 * refused too: TRE's minimal repetition does not fit leftmost-longest
 * counts.  Bytes in the C locale (TRE reads multibyte only in a
 * multibyte locale, which rxbench never sets); no UTF-8 mode.
 *
 * Build: only when CMake found libtre (RXB_HAVE_TRE).
 */
#include "engines/engine.h"
#include "engines/ere.h"
#include "engines/posix.h"

#include <tre/tre.h>

const char *posix_tre_version(void)
{
	static char *v;

	if (v == NULL && tre_config(TRE_CONFIG_VERSION, &v) != REG_OK)
		v = tre_version();
	return v != NULL ? v : "unknown";
}

static int tre_row_comp(void *re, const char *ere, size_t len,
			unsigned flags, char *msg, size_t size)
{
	int cflags = REG_EXTENDED | (flags & ENGINE_CASELESS ? REG_ICASE : 0) |
		     (flags & ENGINE_MULTILINE ? REG_NEWLINE : 0);
	int rc = tre_regncomp(re, ere, len, cflags);

	if (rc == REG_OK)
		return 0;
	tre_regerror(rc, re, msg, size);
	return rc == REG_ESPACE ? ENGINE_ERR_NOMEM : ENGINE_ERR_COMPILE;
}

/*
 * The match in data + start, its extent made relative to data again;
 * REG_NOTBOL unless a line starts at `start`.  span NULL asks only
 * whether it matches: TRE then runs without tags, which matters for
 * patterns with many groups (the FQDN baseline regex has 500: with a
 * submatch asked for, tre_tnfa_run_parallel alloca()s tags x states and
 * overflows an 8 MiB stack).
 */
static int tre_row_exec(const void *re, const char *data, size_t len,
			size_t start, int multiline, struct inturn_span *span)
{
	regmatch_t m;
	int bol = start == 0 || (multiline && data[start - 1] == '\n');
	int rc = tre_regnexec(re, data + start, len - start, span != NULL,
			      span != NULL ? &m : NULL, bol ? 0 : REG_NOTBOL);

	if (rc == REG_NOMATCH)
		return 0;
	if (rc != REG_OK)
		return rc == REG_ESPACE ? ENGINE_ERR_NOMEM : ENGINE_ERR_MATCH;
	if (span != NULL)
		*span = (struct inturn_span){start + (size_t)m.rm_so,
					     start + (size_t)m.rm_eo};
	return 1;
}

static void tre_row_free(void *re)
{
	tre_regfree(re);
}

const struct posix_lib posix_tre = {
	.re_size = sizeof(regex_t),
	/* regoff_t is an int in TRE: longer haystacks cannot be searched */
	.max_len = ((size_t)1 << (sizeof(regoff_t) * 8 - 1)) - 1,
	.ere = ERE_BACKREF | ERE_NUL,
	.comp = tre_row_comp,
	.exec = tre_row_exec,
	.free = tre_row_free,
};

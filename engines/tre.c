/*
 * tre.c - TRE (tagged NFA, POSIX leftmost-longest), engine `tre`.  A set
 * is its patterns tried in turn.
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
#include "engines/inturn.h"
#include "engines/ere.h"

#include <stdlib.h>
#include <string.h>
#include <tre/tre.h>

/* regoff_t is an int in TRE: longer haystacks cannot be searched. */
#define TRE_MAX_LEN (((size_t)1 << (sizeof(regoff_t) * 8 - 1)) - 1)

struct tre_set {
	/* first member: inturn_op_* get the set as a struct inturn */
	struct inturn turn; /* n, anchored and tre_try */
	size_t compiled;    /* re[0..compiled) need tre_regfree() */
	int multiline;
	regex_t *re;
};

static int tre_try(void *h, size_t i, const char *data, size_t len,
		   size_t start, struct inturn_span *span);

static const char *tre_engine_version(void)
{
	static char *v;

	if (v == NULL && tre_config(TRE_CONFIG_VERSION, &v) != REG_OK)
		v = tre_version();
	return v != NULL ? v : "unknown";
}

static void tre_set_free(void *h)
{
	struct tre_set *s = h;

	if (s == NULL)
		return;
	for (size_t i = 0; i < s->compiled; i++)
		tre_regfree(&s->re[i]);
	free(s->re);
	free(s);
}

static int tre_cflags(unsigned flags)
{
	int c = REG_EXTENDED;

	if (flags & ENGINE_CASELESS)
		c |= REG_ICASE;
	if (flags & ENGINE_MULTILINE)
		c |= REG_NEWLINE;
	return c;
}

/* Translates and compiles pattern i into s->re[i]; 0 or a negative status. */
static int tre_compile_one(void *h, size_t i, const struct engine_pattern *p,
			   unsigned flags, struct engine_error *err)
{
	struct tre_set *s = h;
	char *ere = NULL;
	size_t len = 0;
	char msg[200];
	int rc;

	rc = ere_prepare(p, (long)i, flags, ERE_BACKREF | ERE_NUL, &ere, &len,
			 err);
	if (rc != 0)
		return rc;
	rc = tre_regncomp(&s->re[i], ere, len, tre_cflags(flags));
	if (rc != REG_OK) {
		tre_regerror(rc, &s->re[i], msg, sizeof(msg));
		engine_error_set(err, rc == REG_ESPACE ? ENGINE_ERR_NOMEM
						       : ENGINE_ERR_COMPILE,
				 (long)i, -1, "%s", msg);
		rc = rc == REG_ESPACE ? ENGINE_ERR_NOMEM : ENGINE_ERR_COMPILE;
		goto out;
	}
	s->compiled++;
out:
	free(ere);
	return rc;
}

static int tre_begin(void *h, unsigned flags, struct engine_error *err)
{
	(void)err;
	((struct tre_set *)h)->multiline = (flags & ENGINE_MULTILINE) != 0;
	return 0;
}

static const struct inturn_build tre_build = {
	.set_size = sizeof(struct tre_set),
	.slots_at = offsetof(struct tre_set, re),
	.slot_size = sizeof(regex_t),
	.try_one = tre_try,
	.begin = tre_begin,
	.compile_one = tre_compile_one,
	.free = tre_set_free,
};

static int tre_compile_set(const struct engine_pattern *pats, size_t n,
			   unsigned flags, void **out,
			   struct engine_error *err)
{
	return inturn_compile(&tre_build, pats, n, flags, out, err);
}

/* Whether ^ may match at `start`: data start, or a line start (REG_NEWLINE). */
static int tre_at_bol(const struct tre_set *s, const char *data, size_t start)
{
	return start == 0 || (s->multiline && data[start - 1] == '\n');
}

/*
 * Leftmost-longest match of pattern i in data[start..len): 1 with its
 * extent relative to data in *m, 0 for none, <0 on error.  Under
 * ENGINE_ANCHORED the match must start at offset 0 (REG_NEWLINE lets the
 * translated ^ match after any newline).  m NULL asks only whether it
 * matches: TRE then runs without tags, which matters for patterns with
 * many groups (the FQDN baseline regex has 500: with a submatch asked
 * for, tre_tnfa_run_parallel alloca()s tags x states and overflows an
 * 8 MiB stack).
 */
static int tre_try(void *h, size_t i, const char *data, size_t len,
		   size_t start, struct inturn_span *span)
{
	struct tre_set *s = h;
	regmatch_t mm;
	/*
	 * Ask TRE for the match extent only when it is needed: with a
	 * submatch, a 500-group regex overflows the stack inside
	 * tre_tnfa_run_parallel (an alloca of tags x states).
	 */
	regmatch_t *m = span != NULL || s->turn.anchored ? &mm : NULL;
	int eflags = tre_at_bol(s, data, start) ? 0 : REG_NOTBOL;
	int rc;

	if (len > TRE_MAX_LEN)
		return ENGINE_ERR_UNSUPPORTED;
	rc = tre_regnexec(&s->re[i], data != NULL ? data + start : "",
			  len - start, m != NULL, m, eflags);
	if (rc == REG_NOMATCH)
		return 0;
	if (rc != REG_OK)
		return rc == REG_ESPACE ? ENGINE_ERR_NOMEM : ENGINE_ERR_MATCH;
	if (m == NULL)
		return 1;
	m->rm_so += (regoff_t)start;
	m->rm_eo += (regoff_t)start;
	if (span != NULL)
		*span = (struct inturn_span){(size_t)m->rm_so, (size_t)m->rm_eo};
	return !s->turn.anchored || m->rm_so == 0;
}

/*
 * Threads: TRE documents itself as thread-safe, a compiled regex_t shared
 * by concurrent searches (each tre_regnexec allocates its own state); a
 * set keeps no scratch, so threads share the handle.
 */
const struct engine engine_tre = {
	.name = "tre",
	.desc = "TRE (tagged NFA, leftmost-longest); sets tried in turn",
	.caps = CAP_START_OF_MATCH | CAP_BACKREF | CAP_NONCAPTURE |
		CAP_PERL_CLASSES | CAP_NUL_PATTERN | CAP_COUNTED_REP |
		CAP_EMPTY_MATCH,
	.semantics = SEM_LEFTMOST_LONGEST,
	.version = tre_engine_version,
	.compile = tre_compile_set,
	.is_match = inturn_op_is_match,
	.count = inturn_op_count,
	.match_ids = inturn_op_match_ids,
	.size = NULL,
	.free = tre_set_free,
	.thread_new = engine_thread_same,
	.thread_free = engine_thread_same_free,
};

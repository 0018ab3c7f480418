/*
 * posix.c - glibc's POSIX regex (regcomp/regexec, REG_EXTENDED), engine
 * `posix`.  Leftmost-longest; a set is its patterns tried in turn.
 *
 * Patterns are PCRE-style across rxbench, so each is translated to ERE by
 * engines/ere.c first ((?: -> (, '.' and \d \w \s as explicit brackets,
 * escapes to bytes); what ERE cannot express is ENGINE_ERR_UNSUPPORTED.
 * Newlines: without ENGINE_MULTILINE no REG_NEWLINE, so ^ $ are data
 * anchors and '.' is translated to [^\n] unless ENGINE_DOTALL;
 * ENGINE_MULTILINE sets REG_NEWLINE (^ $ at line breaks) and the
 * translation gives '\n' back to negated classes that REG_NEWLINE would
 * take it from.  `$` matches only at the end of data (ERE), not before a
 * final newline as in PCRE2.  Bytes in the C locale; no UTF-8 mode.
 * REG_STARTEND lets haystacks hold NUL and count() resume at an offset
 * with the left context (for ^ and \b) intact; patterns are C strings,
 * so a NUL inside one is ENGINE_ERR_UNSUPPORTED.
 *
 * Linking: Debian's libonig also exports regcomp/regexec/regfree/regerror
 * (Oniguruma's POSIX API), and with libonig on the link line those names
 * may bind to it, which then reads glibc's regex_t and hangs or crashes.
 * So the four functions are looked up in libc itself (dlsym on the libc
 * handle), once, and called through struct posix_api->
 *
 * Build: always (glibc).
 */
#define _GNU_SOURCE
#include "engines/engine.h"
#include "engines/inturn.h"
#include "engines/ere.h"
#include "engines/libc_regex.h"

#include <gnu/libc-version.h>
#include <regex.h>
#include <stdlib.h>
#include <string.h>

/* regoff_t is a signed int in glibc: longer haystacks cannot be searched. */
#define POSIX_MAX_LEN (((size_t)1 << (sizeof(regoff_t) * 8 - 1)) - 1)

struct posix_set {
	/* first member: inturn_op_* get the set as a struct inturn */
	struct inturn turn; /* n, anchored and posix_try */
	size_t compiled;    /* re[0..compiled) need regfree() */
	regex_t *re;
};

static int posix_try(void *h, size_t i, const char *data, size_t len,
		     size_t start, struct inturn_span *span);

static const struct libc_regex *posix_api;

/* 0 when glibc's functions were found, else ENGINE_ERR_UNSUPPORTED. */
static int posix_api_init(struct engine_error *err)
{
	posix_api = libc_regex();
	if (posix_api != NULL)
		return 0;
	engine_error_set(err, ENGINE_ERR_UNSUPPORTED, -1, -1,
			 "glibc regex functions not found");
	return ENGINE_ERR_UNSUPPORTED;
}

static const char *posix_version(void)
{
	return gnu_get_libc_version();
}

static void posix_set_free(void *h)
{
	struct posix_set *s = h;

	if (s == NULL)
		return;
	for (size_t i = 0; i < s->compiled; i++)
		posix_api->free(&s->re[i]);
	free(s->re);
	free(s);
}

static int posix_cflags(unsigned flags)
{
	int c = REG_EXTENDED;

	if (flags & ENGINE_CASELESS)
		c |= REG_ICASE;
	if (flags & ENGINE_MULTILINE)
		c |= REG_NEWLINE;
	return c;
}

/* Translates and compiles pattern i into s->re[i]; 0 or a negative status. */
static int posix_compile_one(void *h, size_t i, const struct engine_pattern *p,
			     unsigned flags, struct engine_error *err)
{
	struct posix_set *s = h;
	char *ere = NULL;
	size_t len = 0;
	char msg[200];
	int rc;

	rc = ere_prepare(p, (long)i, flags, ERE_BACKREF | ERE_WORD_BOUNDARY, &ere, &len,
			 err);
	if (rc != 0)
		return rc;
	rc = posix_api->comp(&s->re[i], ere, posix_cflags(flags));
	if (rc != 0) {
		posix_api->error(rc, &s->re[i], msg, sizeof(msg));
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

/* The glibc regex functions, found once (libc_regex.h). */
static int posix_begin(void *h, unsigned flags, struct engine_error *err)
{
	(void)h;
	(void)flags;
	return posix_api_init(err);
}

static const struct inturn_build posix_build = {
	.set_size = sizeof(struct posix_set),
	.slots_at = offsetof(struct posix_set, re),
	.slot_size = sizeof(regex_t),
	.try_one = posix_try,
	.begin = posix_begin,
	.compile_one = posix_compile_one,
	.free = posix_set_free,
};

static int posix_compile(const struct engine_pattern *pats, size_t n,
			 unsigned flags, void **out, struct engine_error *err)
{
	return inturn_compile(&posix_build, pats, n, flags, out, err);
}

/*
 * Leftmost-longest match of pattern i in data[start..len): 1 with its
 * extent in *m, 0 for none, <0 on error.  Under ENGINE_ANCHORED the
 * translation is ^(...), and a match must also start at offset 0 because
 * REG_NEWLINE lets ^ match after any newline.
 */
static int posix_try(void *h, size_t i, const char *data, size_t len,
		     size_t start, struct inturn_span *span)
{
	struct posix_set *s = h;
	regmatch_t mm, *m = &mm;
	/* glibc keeps the left context with REG_STARTEND; NOTBOL is a guard. */
	int eflags = REG_STARTEND | (start > 0 ? REG_NOTBOL : 0);
	int rc;

	if (len > POSIX_MAX_LEN)
		return ENGINE_ERR_UNSUPPORTED;
	m->rm_so = (regoff_t)start;
	m->rm_eo = (regoff_t)len;
	rc = posix_api->exec(&s->re[i], data != NULL ? data : "", 1, m,
			    eflags);
	if (rc == REG_NOMATCH)
		return 0;
	if (rc != 0)
		return rc == REG_ESPACE ? ENGINE_ERR_NOMEM : ENGINE_ERR_MATCH;
	if (span != NULL)
		*span = (struct inturn_span){(size_t)m->rm_so, (size_t)m->rm_eo};
	return !s->turn.anchored || m->rm_so == 0;
}

/*
 * Threads: POSIX does not list regexec among the functions that need not
 * be thread-safe, and glibc marks it MT-Safe; a set keeps no scratch
 * (regmatch_t is on the stack), so threads share the handle.  glibc takes
 * a lock of the regex_t's own inside regexec: threads on one compiled
 * pattern contend for it, which --threads then measures.
 */
const struct engine engine_posix = {
	.name = "posix",
	.desc = "glibc POSIX regex (ERE, leftmost-longest); sets tried in turn",
	.caps = CAP_START_OF_MATCH | CAP_BACKREF | CAP_NONCAPTURE |
		CAP_PERL_CLASSES | CAP_COUNTED_REP | CAP_WORD_BOUNDARY |
		CAP_EMPTY_MATCH,
	.semantics = SEM_LEFTMOST_LONGEST,
	.version = posix_version,
	.compile = posix_compile,
	.is_match = inturn_op_is_match,
	.count = inturn_op_count,
	.match_ids = inturn_op_match_ids,
	.size = NULL,
	.free = posix_set_free,
	.thread_new = engine_thread_same,
	.thread_free = engine_thread_same_free,
};

/*
 * posix.c - libraries with the POSIX regex API (regcomp/regexec,
 * REG_EXTENDED) as two engines: `posix` (glibc) and `tre` (TRE, its row
 * in engines/tre.c, which says how TRE differs).  Each library is a row
 * (struct posix_lib, posix.h); everything else is done here once.
 * Leftmost-longest; a set is its patterns tried in turn.
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
 *
 * glibc: REG_STARTEND lets haystacks hold NUL and count() resume at an
 * offset with the left context (for ^ and \b) intact; patterns are C
 * strings, so a NUL inside one is ENGINE_ERR_UNSUPPORTED.
 *
 * Linking: Debian's libonig also exports regcomp/regexec/regfree/regerror
 * (Oniguruma's POSIX API), and with libonig on the link line those names
 * may bind to it, which then reads glibc's regex_t and hangs or crashes.
 * So glibc's four functions are looked up in libc itself (dlsym on the
 * libc handle), once, and called through struct libc_regex.
 *
 * Build: always (glibc); `tre` only when CMake found libtre (RXB_HAVE_TRE).
 */
#define _GNU_SOURCE
#include "engines/engine.h"
#include "engines/inturn.h"
#include "engines/ere.h"
#include "engines/libc_regex.h"
#include "engines/posix.h"

#include <gnu/libc-version.h>
#include <regex.h>
#include <stdlib.h>
#include <string.h>

struct posix_set {
	/* first member: inturn_op_* get the set as a struct inturn */
	struct inturn turn; /* n, anchored and posix_try */
	const struct posix_lib *lib;
	size_t compiled; /* re[0..compiled) need lib->free() */
	int multiline;
	void *re;        /* n of the library's regex_t */
};

/* --- the adapter ------------------------------------------------------ */

static void *posix_re(const struct posix_set *s, size_t i)
{
	return (char *)s->re + i * s->lib->re_size;
}

static void posix_set_free(void *h)
{
	struct posix_set *s = h;

	if (s == NULL)
		return;
	for (size_t i = 0; i < s->compiled; i++)
		s->lib->free(posix_re(s, i));
	free(s->re);
	free(s);
}

/* Before the first pattern: the set's library, usable (lib->init). */
static int posix_begin(void *h, const struct posix_lib *lib, unsigned flags,
		       struct engine_error *err)
{
	struct posix_set *s = h;

	s->lib = lib;
	s->multiline = (flags & ENGINE_MULTILINE) != 0;
	return lib->init != NULL ? lib->init(err) : 0;
}

/* Translates and compiles pattern i into its slot; 0 or a negative status. */
static int posix_compile_one(void *h, size_t i, const struct engine_pattern *p,
			     unsigned flags, struct engine_error *err)
{
	struct posix_set *s = h;
	char *ere = NULL;
	size_t len = 0;
	char msg[200];
	int rc;

	rc = ere_prepare(p, (long)i, flags, s->lib->ere, &ere, &len, err);
	if (rc != 0)
		return rc;
	rc = s->lib->comp(posix_re(s, i), ere, len, flags, msg, sizeof(msg));
	if (rc != 0)
		engine_error_set(err, rc, (long)i, -1, "%s", msg);
	else
		s->compiled++;
	free(ere);
	return rc;
}

/*
 * Leftmost-longest match of pattern i in data[start..len) (an
 * inturn_try_fn).  Under ENGINE_ANCHORED the translation is ^(...), and a
 * match must also start at offset 0 because REG_NEWLINE lets ^ match
 * after any newline.
 */
static int posix_try(void *h, size_t i, const char *data, size_t len,
		     size_t start, struct inturn_span *span)
{
	struct posix_set *s = h;
	struct inturn_span at;
	int rc;

	if (len > s->lib->max_len)
		return ENGINE_ERR_UNSUPPORTED;
	if (span == NULL && s->turn.anchored)
		span = &at;
	rc = s->lib->exec(posix_re(s, i), data != NULL ? data : "", len, start,
			  s->multiline, span);
	if (rc != 1)
		return rc;
	return !s->turn.anchored || span->so == 0;
}

/* An engine's compile(): lib's patterns tried in turn; `begin` sets lib. */
static int posix_compile_lib(const struct posix_lib *lib,
			     int (*begin)(void *, unsigned,
					  struct engine_error *),
			     const struct engine_pattern *pats, size_t n,
			     unsigned flags, void **out,
			     struct engine_error *err)
{
	const struct inturn_build build = {
		.set_size = sizeof(struct posix_set),
		.slots_at = offsetof(struct posix_set, re),
		.slot_size = lib->re_size,
		.try_one = posix_try,
		.begin = begin,
		.compile_one = posix_compile_one,
		.free = posix_set_free,
	};

	return inturn_compile(&build, pats, n, flags, out, err);
}

/* --- glibc's row ------------------------------------------------------ */

static const struct libc_regex *posix_api;

/* 0 when glibc's functions were found, else ENGINE_ERR_UNSUPPORTED. */
static int posix_glibc_init(struct engine_error *err)
{
	posix_api = libc_regex();
	if (posix_api != NULL)
		return 0;
	engine_error_set(err, ENGINE_ERR_UNSUPPORTED, -1, -1,
			 "glibc regex functions not found");
	return ENGINE_ERR_UNSUPPORTED;
}

static int posix_glibc_comp(void *re, const char *ere, size_t len,
			    unsigned flags, char *msg, size_t size)
{
	int cflags = REG_EXTENDED | (flags & ENGINE_CASELESS ? REG_ICASE : 0) |
		     (flags & ENGINE_MULTILINE ? REG_NEWLINE : 0);
	int rc = posix_api->comp(re, ere, cflags);

	(void)len; /* a C string: ere_prepare() refused any NUL */
	if (rc == 0)
		return 0;
	posix_api->error(rc, re, msg, size);
	return rc == REG_ESPACE ? ENGINE_ERR_NOMEM : ENGINE_ERR_COMPILE;
}

static int posix_glibc_exec(const void *re, const char *data, size_t len,
			    size_t start, int multiline,
			    struct inturn_span *span)
{
	regmatch_t m = {.rm_so = (regoff_t)start, .rm_eo = (regoff_t)len};
	/* glibc keeps the left context with REG_STARTEND; NOTBOL is a guard. */
	int rc = posix_api->exec(re, data, 1, &m,
				 REG_STARTEND | (start > 0 ? REG_NOTBOL : 0));

	(void)multiline;
	if (rc == REG_NOMATCH)
		return 0;
	if (rc != 0)
		return rc == REG_ESPACE ? ENGINE_ERR_NOMEM : ENGINE_ERR_MATCH;
	if (span != NULL)
		*span = (struct inturn_span){(size_t)m.rm_so, (size_t)m.rm_eo};
	return 1;
}

static void posix_glibc_free(void *re)
{
	posix_api->free(re);
}

static const struct posix_lib posix_glibc = {
	.re_size = sizeof(regex_t),
	/* regoff_t is a signed int in glibc: longer haystacks cannot be searched */
	.max_len = ((size_t)1 << (sizeof(regoff_t) * 8 - 1)) - 1,
	.ere = ERE_BACKREF | ERE_WORD_BOUNDARY,
	.init = posix_glibc_init,
	.comp = posix_glibc_comp,
	.exec = posix_glibc_exec,
	.free = posix_glibc_free,
};

/* --- the engines ------------------------------------------------------ */

/* What every row can do (the ERE translation's reach). */
#define POSIX_CAPS                                                           \
	(CAP_START_OF_MATCH | CAP_BACKREF | CAP_NONCAPTURE |                 \
	 CAP_PERL_CLASSES | CAP_COUNTED_REP | CAP_EMPTY_MATCH)

/* Every row's operations: leftmost-longest, patterns tried in turn. */
#define POSIX_OPS                                                            \
	.semantics = SEM_LEFTMOST_LONGEST, .is_match = inturn_op_is_match,   \
	.count = inturn_op_count, .match_ids = inturn_op_match_ids,          \
	.free = posix_set_free, .thread_new = engine_thread_same,            \
	.thread_free = engine_thread_same_free

static int posix_begin_glibc(void *h, unsigned flags, struct engine_error *err)
{
	return posix_begin(h, &posix_glibc, flags, err);
}

static int posix_compile(const struct engine_pattern *pats, size_t n,
			 unsigned flags, void **out, struct engine_error *err)
{
	return posix_compile_lib(&posix_glibc, posix_begin_glibc, pats, n,
				 flags, out, err);
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
	.caps = POSIX_CAPS | CAP_WORD_BOUNDARY,
	.version = gnu_get_libc_version,
	.compile = posix_compile,
	POSIX_OPS,
};

#ifdef RXB_HAVE_TRE
static int posix_begin_tre(void *h, unsigned flags, struct engine_error *err)
{
	return posix_begin(h, &posix_tre, flags, err);
}

static int posix_compile_tre(const struct engine_pattern *pats, size_t n,
			     unsigned flags, void **out,
			     struct engine_error *err)
{
	return posix_compile_lib(&posix_tre, posix_begin_tre, pats, n, flags,
				 out, err);
}

/*
 * No CAP_WORD_BOUNDARY: TRE has no start offset (engines/tre.c).
 * Threads: TRE documents itself as thread-safe, a compiled regex_t shared
 * by concurrent searches (each tre_regnexec allocates its own state); a
 * set keeps no scratch, so threads share the handle.
 */
const struct engine engine_tre = {
	.name = "tre",
	.desc = "TRE (tagged NFA, leftmost-longest); sets tried in turn",
	.caps = POSIX_CAPS | CAP_NUL_PATTERN,
	.version = posix_tre_version,
	.compile = posix_compile_tre,
	POSIX_OPS,
};
#endif

/*
 * onig.c - Oniguruma 6.9 (backtracking), engine `onig`, with Perl syntax
 * (ONIG_SYNTAX_PERL).  A set is its patterns tried in turn.
 *
 * Option names are Ruby's and easy to get backwards: ONIG_OPTION_MULTILINE
 * is Perl's /s ('.' matches '\n'), so it serves ENGINE_DOTALL.  Perl
 * syntax turns ONIG_OPTION_SINGLELINE on (^ is \A, $ is \Z: end of data or
 * before a final newline, as in PCRE2); ENGINE_MULTILINE negates it with
 * ONIG_OPTION_NEGATE_SINGLELINE so ^ $ match at line breaks.  Bytes are
 * ONIG_ENCODING_ASCII (every byte one character) unless ENGINE_UTF8; in
 * UTF-8 mode \w \d \s and POSIX classes stay ASCII, as in PCRE2 without
 * UCP.  ENGINE_ANCHORED uses onig_match_with_param() at offset 0.
 * Backtracking is bounded per match attempt, so catastrophic patterns end
 * as ENGINE_ERR_LIMIT.  The region for match extents is made at compile
 * time and sized for the widest pattern.
 *
 * Build: only when CMake found Oniguruma (RXB_HAVE_ONIG).
 */
#include "engines/engine.h"
#include "engines/inturn.h"

#include <oniguruma.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

/* The same order of magnitude as pcre2.match_limit's default. */
#define RXB_ONIG_RETRY_LIMIT 10000000ul

struct onig_set {
	/* first member: inturn_op_* get the set as a struct inturn */
	struct inturn turn; /* n, anchored, utf8 and onig_try */
	OnigRegex *re;
	OnigRegion *region; /* shared: one search at a time (so no
			       engine.thread_new yet: a thread would need
			       its own region and match parameters) */
	OnigMatchParam *mp;
};

static int onig_try(void *h, size_t i, const char *data, size_t len,
		    size_t start, struct inturn_span *span);

/*
 * --engine-opt onig.syntax: the syntax Oniguruma reads patterns in.  Perl
 * is rxbench's (PCRE syntax everywhere); the others read some patterns
 * otherwise (Ruby's ^ and $ are always line anchors), which verification
 * then shows as a MISMATCH, never as a time.
 */
static const char *const onig_syntax_names[] = {
	"perl", "perl_ng", "java", "python", "ruby", "oniguruma", NULL,
};
static uint64_t onig_syntax = 0;

static const struct engine_option onig_options_table[] = {
	{"syntax", ENGINE_OPT_CHOICE, "perl",
	 "pattern syntax: perl, perl_ng, java, python, ruby, oniguruma", 0,
	 0, onig_syntax_names, NULL, &onig_syntax},
	{NULL, 0, NULL, NULL, 0, 0, NULL, NULL, NULL},
};

static OnigSyntaxType *onig_syntax_now(void)
{
	OnigSyntaxType *const syntaxes[] = {
		ONIG_SYNTAX_PERL, ONIG_SYNTAX_PERL_NG, ONIG_SYNTAX_JAVA,
		ONIG_SYNTAX_PYTHON, ONIG_SYNTAX_RUBY, ONIG_SYNTAX_ONIGURUMA,
	};

	return syntaxes[onig_syntax < 6 ? onig_syntax : 0];
}

static pthread_once_t onig_once = PTHREAD_ONCE_INIT;
static int onig_init_rc = -1;

static void onig_init_encodings(void)
{
	OnigEncoding encs[] = {ONIG_ENCODING_ASCII, ONIG_ENCODING_UTF8};

	onig_init_rc = onig_initialize(encs, 2);
}

static const char *onig_engine_version(void)
{
	return onig_version();
}

static void onig_set_free(void *h)
{
	struct onig_set *s = h;

	if (s == NULL)
		return;
	for (size_t i = 0; s->re != NULL && i < s->turn.n; i++)
		if (s->re[i] != NULL)
			onig_free(s->re[i]);
	if (s->region != NULL)
		onig_region_free(s->region, 1);
	if (s->mp != NULL)
		onig_free_match_param(s->mp);
	free(s->re);
	free(s);
}

static OnigOptionType onig_options(unsigned flags)
{
	OnigOptionType o = ONIG_OPTION_NONE;

	if (flags & ENGINE_CASELESS)
		o |= ONIG_OPTION_IGNORECASE;
	if (flags & ENGINE_DOTALL)
		o |= ONIG_OPTION_MULTILINE;
	if (flags & ENGINE_MULTILINE)
		o |= ONIG_OPTION_NEGATE_SINGLELINE;
	if (flags & ENGINE_UTF8)
		o |= ONIG_OPTION_WORD_IS_ASCII | ONIG_OPTION_DIGIT_IS_ASCII |
		     ONIG_OPTION_SPACE_IS_ASCII | ONIG_OPTION_POSIX_IS_ASCII;
	return o;
}

/* Oniguruma's error status as an engine status. */
static int onig_status(int code)
{
	switch (code) {
	case ONIG_MISMATCH:
		return 0;
	case ONIGERR_MEMORY:
		return ENGINE_ERR_NOMEM;
	case ONIGERR_RETRY_LIMIT_IN_MATCH_OVER:
	case ONIGERR_RETRY_LIMIT_IN_SEARCH_OVER:
	case ONIGERR_MATCH_STACK_LIMIT_OVER:
	case ONIGERR_SUBEXP_CALL_LIMIT_IN_SEARCH_OVER:
		return ENGINE_ERR_LIMIT;
	default:
		return ENGINE_ERR_MATCH;
	}
}

/*
 * The offset of an escape Oniguruma reads otherwise than PCRE, or -1:
 * \h \H are hex digits to it (PCRE: horizontal space), \v \V \C \E \y
 * \Y \g the letters or its own constructs (PCRE: vertical space, one
 * code unit, the end of \Q, backreferences).  Refused rather than
 * misread: two misreaders agreeing with a third would be a wrong
 * majority (v8 and onig both read (?<=a)\E as 'E' after 'a').
 */
static long onig_misread(const struct engine_pattern *p)
{
	for (size_t i = 0; i + 1 < p->len; i++) {
		if (p->re[i] != '\\')
			continue;
		if (strchr("hHvVCEyYg", p->re[i + 1]) != NULL &&
		    p->re[i + 1] != '\0')
			return (long)i;
		i++; /* the escaped byte */
	}
	return -1;
}

/* Compiles pattern i into s->re[i]; 0 or a negative status. */
static int onig_compile_one(void *h, size_t i, const struct engine_pattern *p,
			    unsigned flags, struct engine_error *err)
{
	struct onig_set *s = h;
	OnigErrorInfo einfo = {0};
	OnigUChar msg[ONIG_MAX_ERROR_MESSAGE_LEN];
	const OnigUChar *re = (const OnigUChar *)(p->re != NULL ? p->re : "");
	OnigEncoding enc = (flags & ENGINE_UTF8) ? ONIG_ENCODING_UTF8
						 : ONIG_ENCODING_ASCII;
	long bad = (flags & ENGINE_UTF8) ? engine_utf8_invalid(p->re, p->len)
					 : -1;
	int rc;

	if (bad >= 0) { /* Oniguruma does not check: it would read past */
		engine_error_set(err, ENGINE_ERR_COMPILE, (long)i, bad,
				 "invalid UTF-8 in the pattern");
		return ENGINE_ERR_COMPILE;
	}
	bad = onig_misread(p);
	if (bad >= 0) {
		engine_error_set(err, ENGINE_ERR_UNSUPPORTED, (long)i, bad,
				 "Oniguruma reads \\%c otherwise than PCRE",
				 p->re[bad + 1]);
		return ENGINE_ERR_UNSUPPORTED;
	}
	rc = onig_new(&s->re[i], re, re + p->len, onig_options(flags), enc,
		      onig_syntax_now(), &einfo);
	if (rc == ONIG_NORMAL)
		return 0;
	s->re[i] = NULL;
	onig_error_code_to_str(msg, rc, &einfo);
	rc = rc == ONIGERR_MEMORY ? ENGINE_ERR_NOMEM : ENGINE_ERR_COMPILE;
	engine_error_set(err, rc, (long)i, -1, "%s", (const char *)msg);
	return rc;
}

/* Region sized for the pattern with most groups, and the retry limit. */
static int onig_make_match_data(void *h, struct engine_error *err)
{
	struct onig_set *s = h;
	int groups = 0;

	for (size_t i = 0; i < s->turn.n; i++) {
		int g = onig_number_of_captures(s->re[i]);
		if (g > groups)
			groups = g;
	}
	s->region = onig_region_new();
	s->mp = onig_new_match_param();
	if (s->region == NULL || s->mp == NULL ||
	    onig_region_resize(s->region, groups + 1) != ONIG_NORMAL) {
		engine_error_set(err, ENGINE_ERR_NOMEM, -1, -1,
				 "out of memory");
		return ENGINE_ERR_NOMEM;
	}
	onig_initialize_match_param(s->mp);
	onig_set_retry_limit_in_match_of_match_param(s->mp,
						     RXB_ONIG_RETRY_LIMIT);
	return 0;
}

/* Oniguruma's encodings, initialised once per process. */
static int onig_begin(void *h, unsigned flags, struct engine_error *err)
{
	(void)h;
	(void)flags;
	pthread_once(&onig_once, onig_init_encodings);
	if (onig_init_rc == ONIG_NORMAL)
		return 0;
	engine_error_set(err, ENGINE_ERR_NOMEM, -1, -1,
			 "onig_initialize failed");
	return ENGINE_ERR_NOMEM;
}

static const struct inturn_build onig_build = {
	.set_size = sizeof(struct onig_set),
	.slots_at = offsetof(struct onig_set, re),
	.slot_size = sizeof(OnigRegex),
	.utf8 = 1,
	.try_one = onig_try,
	.begin = onig_begin,
	.compile_one = onig_compile_one,
	.finish = onig_make_match_data,
	.free = onig_set_free,
};

static int onig_compile_set(const struct engine_pattern *pats, size_t n,
			    unsigned flags, void **out,
			    struct engine_error *err)
{
	return inturn_compile(&onig_build, pats, n, flags, out, err);
}

/*
 * One match of pattern i at or after `start` (only at 0 when anchored),
 * an inturn_try_fn.  The extent comes from s->region, asked for only
 * when span is wanted.
 */
static int onig_try(void *h, size_t i, const char *data, size_t len,
		    size_t start, struct inturn_span *span)
{
	struct onig_set *s = h;
	OnigRegion *region = span != NULL ? s->region : NULL;
	const OnigUChar *str = (const OnigUChar *)(data != NULL ? data : "");
	const OnigUChar *end = str + len;
	int rc;

	if (s->turn.anchored)
		rc = onig_match_with_param(s->re[i], str, end, str + start,
					   region, ONIG_OPTION_NONE, s->mp);
	else
		rc = onig_search_with_param(s->re[i], str, end, str + start,
					    end, region, ONIG_OPTION_NONE,
					    s->mp);
	if (rc < 0)
		return onig_status(rc);
	if (span != NULL)
		*span = (struct inturn_span){(size_t)region->beg[0],
					     (size_t)region->end[0]};
	return 1;
}

const struct engine engine_onig = {
	.name = "onig",
	.desc = "Oniguruma (backtracking, Perl syntax); sets tried in turn",
	.caps = CAP_START_OF_MATCH | CAP_BACKREF | CAP_LOOKAROUND | CAP_LAZY |
		CAP_NONCAPTURE | CAP_PERL_CLASSES | CAP_INLINE_FLAGS |
		CAP_NUL_PATTERN | CAP_UTF8 | CAP_MATCH_LIMIT |
		CAP_COUNTED_REP | CAP_WORD_BOUNDARY | CAP_EMPTY_MATCH |
		CAP_ATOMIC |
		CAP_PERL_DOLLAR,
	.semantics = SEM_LEFTMOST_FIRST,
	.version = onig_engine_version,
	.compile = onig_compile_set,
	.is_match = inturn_op_is_match,
	.count = inturn_op_count,
	.match_ids = inturn_op_match_ids,
	.size = NULL,
	.free = onig_set_free,
	.options = onig_options_table,
};

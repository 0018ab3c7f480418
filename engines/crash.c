/*
 * crash.c - two test-only engines that fail on purpose while a sample is
 * measured, to prove that the harness's isolation keeps the rest of a run:
 *   crash  raises SIGSEGV in is_match / count (default action);
 *   hang   sleeps forever there (a timeout row with --timeout).
 *
 * Both match literal patterns only (memmem; anything else is
 * `unsupported`), and they misbehave only in a forked child of the
 * harness (engine_phase): by default the child that measures a sample, so
 * a suite's verification gets correct answers and plans the case, and the
 * timed run then fails, which is what isolation is for.  With
 * RXB_MISBEHAVE=verify in the environment when the pattern is compiled,
 * they fail in the child that computes the answers instead (a crash or a
 * hang while verifying).  With --no-fork they never misbehave.
 *
 * Hidden from default runs by CAP_TEST_ONLY; ask with --engines=crash.
 */
#define _GNU_SOURCE
#include "engines/engine.h"

#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

struct literal {
	enum engine_phase when; /* the phase it fails in */
	int hang;               /* 1: sleep instead of crashing */
	size_t len;
	char re[];
};

static const char *crash_version(void)
{
	return "0";
}

/* 1 when p has no regex syntax, so memmem gives every engine's answer. */
static int is_literal(const struct engine_pattern *p)
{
	for (size_t i = 0; i < p->len; i++)
		if (p->re[i] == '\0' || strchr("\\^$.|?*+()[]{}", p->re[i]))
			return 0;
	return p->len > 0;
}

static int literal_compile(const struct engine_pattern *pats, size_t n,
			   unsigned flags, int hang, void **out,
			   struct engine_error *err)
{
	struct literal *l;
	const char *v;

	*out = NULL;
	if (n != 1 || flags != 0 || !is_literal(&pats[0])) {
		engine_error_set(err, ENGINE_ERR_UNSUPPORTED, n == 1 ? 0 : -1,
				 -1, "test engine: one literal pattern, no "
				 "flags");
		return ENGINE_ERR_UNSUPPORTED;
	}
	l = malloc(sizeof(*l) + pats[0].len);
	if (l == NULL) {
		engine_error_set(err, ENGINE_ERR_NOMEM, 0, -1, "out of memory");
		return ENGINE_ERR_NOMEM;
	}
	v = getenv("RXB_MISBEHAVE");
	l->when = v != NULL && strcmp(v, "verify") == 0 ? ENGINE_PHASE_VERIFY
							: ENGINE_PHASE_MEASURE;
	l->hang = hang;
	l->len = pats[0].len;
	memcpy(l->re, pats[0].re, pats[0].len);
	*out = l;
	return 0;
}

static int crash_compile(const struct engine_pattern *pats, size_t n,
			 unsigned flags, void **out, struct engine_error *err)
{
	return literal_compile(pats, n, flags, 0, out, err);
}

static int hang_compile(const struct engine_pattern *pats, size_t n,
			unsigned flags, void **out, struct engine_error *err)
{
	return literal_compile(pats, n, flags, 1, out, err);
}

/* In the phase it was compiled for: fail the way this engine fails. */
static void misbehave(const struct literal *l)
{
	struct timespec second = {1, 0};

	if (engine_phase != l->when)
		return;
	if (!l->hang) {
		/* the default action, even where a sanitizer runtime has
		   installed its own handler: the signal is what is tested */
		signal(SIGSEGV, SIG_DFL);
		raise(SIGSEGV);
	}
	for (;;)
		nanosleep(&second, NULL);
}

static int literal_is_match(void *h, const char *data, size_t len)
{
	struct literal *l = h;

	misbehave(l);
	return memmem(data, len, l->re, l->len) != NULL;
}

/* Non-overlapping occurrences, as leftmost-first engines count a literal. */
static long literal_count(void *h, const char *data, size_t len)
{
	struct literal *l = h;
	const char *at = data, *end = data + len;
	long n = 0;

	misbehave(l);
	for (;;) {
		const char *hit = memmem(at, (size_t)(end - at), l->re, l->len);
		if (hit == NULL)
			return n;
		n++;
		at = hit + l->len;
	}
}

static void literal_free(void *h)
{
	free(h);
}

const struct engine engine_crash = {
	.name = "crash",
	.desc = "literal matcher that raises SIGSEGV while measured (test only)",
	.caps = CAP_TEST_ONLY,
	.semantics = SEM_LEFTMOST_FIRST,
	.version = crash_version,
	.compile = crash_compile,
	.is_match = literal_is_match,
	.count = literal_count,
	.free = literal_free,
};

const struct engine engine_hang = {
	.name = "hang",
	.desc = "literal matcher that never returns while measured (test only)",
	.caps = CAP_TEST_ONLY,
	.semantics = SEM_LEFTMOST_FIRST,
	.version = crash_version,
	.compile = hang_compile,
	.is_match = literal_is_match,
	.count = literal_count,
	.free = literal_free,
};

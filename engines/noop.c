/*
 * noop.c - a test-only engine that matches nothing and does no work.
 *
 * It measures what the harness and a call through the engine table cost
 * (the foundation's "< 2 ns/op" floor).  Hidden from default runs by
 * CAP_TEST_ONLY; ask for it with --engines=noop.
 */
#include "engines/engine.h"

#include <stdlib.h>

static const char *noop_version(void)
{
	return "0";
}

static int noop_compile(const struct engine_pattern *pats, size_t n,
			unsigned flags, void **out, struct engine_error *err)
{
	(void)pats;
	(void)flags;
	(void)err;
	*out = (void *)(size_t)(n ? n : 1); /* any non-NULL token */
	return 0;
}

static int noop_is_match(void *h, const char *data, size_t len)
{
	(void)h;
	(void)data;
	(void)len;
	return 0;
}

static long noop_count(void *h, const char *data, size_t len)
{
	(void)h;
	(void)data;
	(void)len;
	return 0;
}

static void noop_free(void *h)
{
	(void)h;
}

const struct engine engine_noop = {
	.name = "noop",
	.desc = "does nothing; measures the harness floor (test only)",
	.caps = CAP_TEST_ONLY,
	.semantics = SEM_NONE,
	.version = noop_version,
	.compile = noop_compile,
	.is_match = noop_is_match,
	.count = noop_count,
	.free = noop_free,
};

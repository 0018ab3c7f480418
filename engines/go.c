/*
 * go.c - Go's regexp (the standard library of Debian's golang-go), as a
 * runner: engines/runners/go/main.go, built by CMake when it finds `go`
 * (RXB_HAVE_GO), started as rxbench's child (engines/runner.h).
 *
 * Go's regexp is RE2's design: leftmost-first, linear time, no
 * backreferences or lookaround, and `$` is the end of the text only
 * (no Perl `$` before a final newline).  It reads patterns and text as
 * UTF-8 always: in rxbench's byte mode a pattern that names a character
 * above 0x7f is refused (unsupported).  Its FindAll skips an empty match
 * right after a match and steps a whole rune past an empty one, so
 * patterns that can match "" are left to other engines (no
 * CAP_EMPTY_MATCH) rather than counted differently.
 */
#include "engines/runner.h"

static const struct runner_def go_def = {"go", "rxbench-go", NULL};

static const char *go_version(void)
{
	return runner_version(&go_def);
}

static int go_compile(const struct engine_pattern *pats, size_t n,
		      unsigned flags, void **out, struct engine_error *err)
{
	return runner_compile(&go_def, pats, n, flags, out, err);
}

const struct engine engine_go = {
	.name = "go",
	.library = "go-regexp",
	.desc = "Go regexp (runner: engines/runners/go)",
	.caps = CAP_START_OF_MATCH | CAP_LAZY | CAP_NONCAPTURE |
		CAP_PERL_CLASSES | CAP_INLINE_FLAGS | CAP_NUL_PATTERN |
		CAP_UTF8 | CAP_COUNTED_REP | CAP_WORD_BOUNDARY,
	.semantics = SEM_LEFTMOST_FIRST,
	.kind = ENGINE_RUNNER,
	.version = go_version,
	.compile = go_compile,
	.is_match = runner_is_match,
	.count = runner_count,
	.match_ids = runner_match_ids,
	.free = runner_free,
};

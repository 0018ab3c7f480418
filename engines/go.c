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
 *
 * Its option mode says how the runner times (engines/runner.h, 'B'):
 * warm (the default: regexp's machine pool stays warm, as in a
 * long-running DNS proxy) or seed (seed 000's Go benchmark: runtime.GC()
 * before every op with the clock stopped, so every op builds its matcher
 * again: the megabytes per query of the seed's match phases).
 */
#include "engines/runner.h"

static uint64_t go_mode = RUNNER_MODE_WARM;

static const char *const go_modes[] = {"warm", "seed", NULL}; /* enum order */

static const struct engine_option go_options[] = {
	{"mode", ENGINE_OPT_CHOICE, "warm",
	 "timing: warm (matcher pool kept) or seed (runtime.GC() before every "
	 "op, seed 000's method)", 0, 0, go_modes, NULL, &go_mode},
	{NULL, 0, NULL, NULL, 0, 0, NULL, NULL, NULL},
};

static const struct runner_def go_def = {"go", "rxbench-go", NULL, &go_mode};

RUNNER_ADAPTER(go, go_def)

const struct engine engine_go = {
	.name = "go",
	.library = "go-regexp",
	.desc = "Go regexp (runner: engines/runners/go)",
	.caps = RUNNER_CAPS | CAP_START_OF_MATCH | CAP_LAZY | CAP_NONCAPTURE |
		CAP_PERL_CLASSES | CAP_INLINE_FLAGS | CAP_NUL_PATTERN |
		CAP_UTF8 | CAP_COUNTED_REP | CAP_WORD_BOUNDARY |
		CAP_UNICODE_PROPERTY,
	.semantics = SEM_LEFTMOST_FIRST,
	.options = go_options,
	RUNNER_OPS(go),
};

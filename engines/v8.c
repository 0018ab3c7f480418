/*
 * v8.c - JavaScript's RegExp (V8's Irregexp) through node, as a runner:
 * engines/runners/node/rxbench-v8.js run by node (RXB_HAVE_V8, RXB_NODE),
 * started as rxbench's child (engines/runner.h); no npm packages.
 *
 * Irregexp is a backtracker, leftmost-first: lookaround (lookbehind of
 * any width), backreferences and lazy quantifiers; no inline flags, no
 * atomic groups or possessive quantifiers, no match limit (a catastrophic
 * pattern is a timeout row), and `$` is the end of the text only.  The
 * runner spells `.`, multiline `^` `$` and `\s` as PCRE means them
 * (JavaScript's see `\r`, U+2028, U+2029 and U+00A0 too) and refuses the
 * syntax JavaScript reads otherwise (`\A`, `\z`, `\Z`, POSIX classes, ...).
 */
#include "engines/runner.h"

static const struct runner_def v8_def = {"v8", "rxbench-v8.js", RXB_NODE,
					  NULL};

RUNNER_ADAPTER(v8, v8_def)

const struct engine engine_v8 = {
	.name = "v8",
	.library = "v8",
	.desc = "JavaScript RegExp in node (runner: engines/runners/node)",
	.caps = RUNNER_CAPS | CAP_START_OF_MATCH | CAP_BACKREF | CAP_LOOKAROUND | CAP_LAZY |
		CAP_NONCAPTURE | CAP_PERL_CLASSES | CAP_NUL_PATTERN |
		CAP_UTF8 | CAP_COUNTED_REP | CAP_WORD_BOUNDARY |
		CAP_EMPTY_MATCH,
	.semantics = SEM_LEFTMOST_FIRST,
	.opt_in = 1,
	RUNNER_OPS(v8),
};

/*
 * python_re.c - Python 3's re on bytes, as a runner:
 * engines/runners/python/rxbench-python.py run by /usr/bin/python3
 * (RXB_HAVE_PYTHON_RE, RXB_PYTHON3), started as rxbench's child
 * (engines/runner.h).
 *
 * re is a backtracker with Perl's reading: leftmost-first, `$` also
 * before a final newline, lookaround (fixed-width lookbehind: a wider
 * one is a compile error, so unsupported), backreferences, atomic groups
 * and possessive quantifiers (3.11), empty matches counted as Perl does
 * (3.7).  It has no match limit: a catastrophic pattern is a timeout row.
 * Its `\Z` is the end of the text only and it has no POSIX classes: both
 * are refused rather than misread.
 */
#include "engines/runner.h"

static const struct runner_def python_def = {"python-re",
					     "rxbench-python.py",
					     RXB_PYTHON3, NULL};

RUNNER_ADAPTER(python, python_def)

const struct engine engine_python_re = {
	.name = "python-re",
	.library = "python-re",
	.desc = "Python 3 re on bytes (runner: engines/runners/python)",
	.caps = RUNNER_CAPS | CAP_START_OF_MATCH | CAP_BACKREF | CAP_LOOKAROUND | CAP_LAZY |
		CAP_NONCAPTURE | CAP_PERL_CLASSES | CAP_INLINE_FLAGS |
		CAP_NUL_PATTERN | CAP_UTF8 | CAP_COUNTED_REP |
		CAP_WORD_BOUNDARY | CAP_EMPTY_MATCH | CAP_ATOMIC |
		CAP_PERL_DOLLAR,
	.semantics = SEM_LEFTMOST_FIRST,
	.opt_in = 1,
	RUNNER_OPS(python),
};

/*
 * pcre2_options.h - rxbench's engine flags as PCRE2 compile options, for
 * both PCRE2 adapters (pcre2.c: the backtracker and its JIT; pcre2_dfa.c:
 * the DFA matcher).  Include after <pcre2.h> (PCRE2_CODE_UNIT_WIDTH 8).
 */
#ifndef RXB_PCRE2_OPTIONS_H
#define RXB_PCRE2_OPTIONS_H

#include <stdint.h>

#include "engines/pattern.h"

static inline uint32_t rxb_pcre2_options(unsigned flags)
{
	uint32_t o = 0;

	if (flags & ENGINE_CASELESS)
		o |= PCRE2_CASELESS;
	if (flags & ENGINE_DOTALL)
		o |= PCRE2_DOTALL;
	if (flags & ENGINE_ANCHORED)
		o |= PCRE2_ANCHORED;
	if (flags & ENGINE_MULTILINE)
		o |= PCRE2_MULTILINE;
	/* the pattern is checked: invalid UTF-8 is a compile error, never
	   the undefined behaviour PCRE2_NO_UTF_CHECK would allow */
	if (flags & ENGINE_UTF8)
		o |= PCRE2_UTF;
	return o;
}

#endif

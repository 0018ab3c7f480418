/*
 * pcre2_common.h - what both PCRE2 adapters (pcre2.c: the backtracker and
 * its JIT; pcre2_dfa.c: the DFA matcher) do alike: compiling one pattern
 * of a set under rxbench's engine flags, the library's version, the size
 * of the compiled patterns, and a failed match as an engine status.
 * Include after <pcre2.h> (PCRE2_CODE_UNIT_WIDTH 8).
 *
 * Build: with the two adapters (RXB_HAVE_PCRE2).
 */
#ifndef RXB_PCRE2_COMMON_H
#define RXB_PCRE2_COMMON_H

#include <stddef.h>
#include <stdint.h>

#include "engines/engine.h"

/* The library's version, e.g. "10.42"; never NULL. */
const char *rxb_pcre2_version(void);

/*
 * Pattern p, index i of its set, compiled under engine `flags`: the code
 * (the caller frees it with pcre2_code_free), or NULL with err filled
 * (ENGINE_ERR_COMPILE, PCRE2's message and offset).
 */
pcre2_code *rxb_pcre2_compile(const struct engine_pattern *p, size_t i,
			      unsigned flags, struct engine_error *err);

/* Bytes of code[0..n) (PCRE2_INFO_SIZE), with their JIT code if jit. */
size_t rxb_pcre2_size(pcre2_code *const *code, size_t n, int jit);

/*
 * A match function's negative result as an engine status: 0 for
 * PCRE2_ERROR_NOMATCH, ENGINE_ERR_LIMIT for the limits, _NOMEM, and
 * _UNSUPPORTED for what pcre2_dfa_match() cannot do; else _MATCH.
 */
int rxb_pcre2_status(int rc);

#endif

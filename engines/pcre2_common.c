/*
 * pcre2_common.c - what the PCRE2 adapters share (see pcre2_common.h).
 *
 * Build: with engines/pcre2.c and engines/pcre2_dfa.c (RXB_HAVE_PCRE2).
 */
#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>

#include "engines/pcre2_common.h"

/* Engine flags (enum engine_flag) as PCRE2 compile options. */
static uint32_t rxb_pcre2_options(unsigned flags)
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

const char *rxb_pcre2_version(void)
{
	static char buf[64];

	if (buf[0] == '\0')
		pcre2_config(PCRE2_CONFIG_VERSION, buf);
	return buf;
}

pcre2_code *rxb_pcre2_compile(const struct engine_pattern *p, size_t i,
			      unsigned flags, struct engine_error *err)
{
	int code;
	PCRE2_SIZE off;
	PCRE2_UCHAR msg[200];
	pcre2_code *re = pcre2_compile((PCRE2_SPTR)p->re, p->len,
				       rxb_pcre2_options(flags), &code, &off,
				       NULL);

	if (re == NULL) {
		pcre2_get_error_message(code, msg, sizeof(msg));
		engine_error_set(err, ENGINE_ERR_COMPILE, (long)i, (long)off,
				 "%s", (const char *)msg);
	}
	return re;
}

size_t rxb_pcre2_size(pcre2_code *const *code, size_t n, int jit)
{
	size_t total = 0;

	for (size_t i = 0; i < n; i++) {
		size_t sz = 0;
		pcre2_pattern_info(code[i], PCRE2_INFO_SIZE, &sz);
		total += sz;
		if (jit) {
			sz = 0;
			pcre2_pattern_info(code[i], PCRE2_INFO_JITSIZE, &sz);
			total += sz;
		}
	}
	return total;
}

int rxb_pcre2_status(int rc)
{
	switch (rc) {
	case PCRE2_ERROR_NOMATCH:
		return 0;
	case PCRE2_ERROR_MATCHLIMIT:
	case PCRE2_ERROR_DEPTHLIMIT:
	case PCRE2_ERROR_HEAPLIMIT:
	case PCRE2_ERROR_JIT_STACKLIMIT:
	case PCRE2_ERROR_DFA_RECURSE:
		return ENGINE_ERR_LIMIT;
	case PCRE2_ERROR_NOMEMORY:
		return ENGINE_ERR_NOMEM;
	case PCRE2_ERROR_DFA_UITEM:
	case PCRE2_ERROR_DFA_UCOND:
	case PCRE2_ERROR_DFA_UFUNC:
		return ENGINE_ERR_UNSUPPORTED;
	default:
		return ENGINE_ERR_MATCH;
	}
}

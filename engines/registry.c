/*
 * registry.c - the table of engine adapters, looked up by name.
 *
 * Each adapter is listed once, under the RXB_HAVE_<X> macro CMake defines
 * when it found the library, in the order `rxbench list` shows them.
 */
#include "engines/engine.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

extern const struct engine engine_re2;
extern const struct engine engine_pcre2;
extern const struct engine engine_pcre2_jit;
extern const struct engine engine_pcre2_dfa;
extern const struct engine engine_hyperscan;
extern const struct engine engine_tre;
extern const struct engine engine_posix;
extern const struct engine engine_onig;
extern const struct engine engine_boost;
extern const struct engine engine_rust_regex;
extern const struct engine engine_go;
extern const struct engine engine_python_re;
extern const struct engine engine_v8;
extern const struct engine engine_xdp;
extern const struct engine engine_noop;
extern const struct engine engine_crash;
extern const struct engine engine_hang;

const struct engine *const engine_table[] = {
#ifdef RXB_HAVE_RE2
	&engine_re2,
#endif
#ifdef RXB_HAVE_PCRE2
	&engine_pcre2,
	&engine_pcre2_jit,
	&engine_pcre2_dfa,
#endif
#ifdef RXB_HAVE_HYPERSCAN
	&engine_hyperscan,
#endif
#ifdef RXB_HAVE_TRE
	&engine_tre,
#endif
	&engine_posix,
#ifdef RXB_HAVE_ONIG
	&engine_onig,
#endif
#ifdef RXB_HAVE_BOOST
	&engine_boost,
#endif
#ifdef RXB_HAVE_RUST_REGEX
	&engine_rust_regex,
#endif
#ifdef RXB_HAVE_GO
	&engine_go,
#endif
#ifdef RXB_HAVE_PYTHON_RE
	&engine_python_re,
#endif
#ifdef RXB_HAVE_V8
	&engine_v8,
#endif
#ifdef RXB_HAVE_XDP
	&engine_xdp,
#endif
	&engine_noop,
	&engine_crash,
	&engine_hang,
};

const size_t engine_count = sizeof(engine_table) / sizeof(engine_table[0]);

/* The adapters configure left out: which library it did not find. */
#define MISSING(name, module, package) \
	{name, module " not found when configured (install " package ")"}
const struct engine_missing engine_missing[] = {
#ifndef RXB_HAVE_RE2
	MISSING("re2", "re2", "libre2-dev"),
#endif
#ifndef RXB_HAVE_PCRE2
	MISSING("pcre2", "libpcre2-8", "libpcre2-dev"),
	MISSING("pcre2-jit", "libpcre2-8", "libpcre2-dev"),
	MISSING("pcre2-dfa", "libpcre2-8", "libpcre2-dev"),
#endif
#ifndef RXB_HAVE_HYPERSCAN
	MISSING("hyperscan", "libhs", "libhyperscan-dev"),
#endif
#ifndef RXB_HAVE_TRE
	MISSING("tre", "tre", "libtre-dev"),
#endif
#ifndef RXB_HAVE_ONIG
	MISSING("onig", "oniguruma", "libonig-dev"),
#endif
#ifndef RXB_HAVE_BOOST
	MISSING("boost", "Boost.Regex", "libboost-regex-dev"),
#endif
#ifndef RXB_HAVE_RUST_REGEX
	MISSING("rust-regex", "rust regex crate", "cargo librust-regex-dev "
		"librust-aho-corasick-dev librust-memchr-dev"),
#endif
#ifndef RXB_HAVE_GO
	{"go", "go not found when configured (install golang-go)"},
#endif
#ifndef RXB_HAVE_PYTHON_RE
	{"python-re", "/usr/bin/python3 not found when configured (install "
		      "python3)"},
#endif
#ifndef RXB_HAVE_V8
	{"v8", "node not found when configured (install nodejs)"},
#endif
#ifndef RXB_HAVE_XDP
	{"xdp", "clang's BPF target or libbpf not found when configured "
		"(install clang libbpf-dev)"},
#endif
	{NULL, NULL},
};

const char *engine_missing_reason(const char *name)
{
	for (const struct engine_missing *m = engine_missing; m->name; m++)
		if (strcmp(m->name, name) == 0)
			return m->why;
	return NULL;
}

enum engine_phase engine_phase = ENGINE_PHASE_PARENT;

const struct engine *engine_find(const char *name)
{
	for (size_t i = 0; i < engine_count; i++)
		if (strcmp(engine_table[i]->name, name) == 0)
			return engine_table[i];
	return NULL;
}

void engine_error_set(struct engine_error *err, int status, long pattern,
		      long offset, const char *fmt, ...)
{
	va_list ap;

	if (err == NULL)
		return;
	err->status = status;
	err->pattern = pattern;
	err->offset = offset;
	va_start(ap, fmt);
	vsnprintf(err->msg, sizeof(err->msg), fmt, ap);
	va_end(ap);
}


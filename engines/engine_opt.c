/*
 * engine_opt.c - engine options (`--engine-opt ENGINE.KEY=VALUE`, see
 * engine.h): parsing "ENGINE.KEY=VALUE" against the engine's declared
 * table, checking the value by its kind, and spelling the options that
 * differ from their defaults for benchmark names and results.
 */
#include "engines/engine.h"

#include "harness/parse.h"

#include <stdio.h>
#include <string.h>
#include <strings.h>

static const char *const bool_true[] = {"true", "on", "yes", "1", NULL};
static const char *const bool_false[] = {"false", "off", "no", "0", NULL};

static long word_index(const char *const *words, const char *s)
{
	for (long i = 0; words[i] != NULL; i++)
		if (strcasecmp(words[i], s) == 0)
			return i;
	return -1;
}

/* "64M" and the like: digits, then nothing or one of K M G (KiB...). */
static int parse_bytes(const char *s, uint64_t *out, char *err, size_t size)
{
	static const char units[] = "KMG";
	char num[32];
	size_t len = strlen(s);
	unsigned shift = 0;
	const char *u;

	if (len > 0 && (u = strchr(units, s[len - 1] & ~0x20)) != NULL &&
	    *u != '\0') {
		shift = 10u * (unsigned)(u - units + 1);
		len--;
	}
	if (len == 0 || len >= sizeof(num))
		goto bad;
	memcpy(num, s, len);
	num[len] = '\0';
	if (parse_u64(num, 0, UINT64_MAX >> shift, out, err, size) != 0)
		goto bad;
	*out <<= shift;
	return 0;
bad:
	snprintf(err, size, "not a size: use bytes or K, M, G, as 64M");
	return -1;
}

/* Parse v for option o into *out; 0 or -1 with err. */
static int opt_parse(const struct engine_option *o, const char *v,
		     uint64_t *out, char *err, size_t size)
{
	long k;

	switch (o->kind) {
	case ENGINE_OPT_SIZE:
		if (parse_bytes(v, out, err, size) != 0)
			return -1;
		break;
	case ENGINE_OPT_COUNT:
		if (parse_u64(v, 0, UINT64_MAX, out, err, size) != 0)
			return -1;
		break;
	case ENGINE_OPT_BOOL:
		if (word_index(bool_true, v) >= 0)
			*out = 1;
		else if (word_index(bool_false, v) >= 0)
			*out = 0;
		else
			goto choices;
		return 0;
	case ENGINE_OPT_CHOICE:
		k = word_index(o->choices, v);
		if (k < 0)
			goto choices;
		*out = (uint64_t)k;
		return 0;
	}
	if (*out < o->min || *out > o->max) {
		char lo[32], hi[32];
		engine_opt_format(o, o->min, lo, sizeof(lo));
		engine_opt_format(o, o->max, hi, sizeof(hi));
		snprintf(err, size, "must be from %s to %s", lo, hi);
		return -1;
	}
	return 0;
choices:
	if (o->kind == ENGINE_OPT_BOOL) {
		snprintf(err, size, "not true or false");
		return -1;
	}
	snprintf(err, size, "use one of");
	for (size_t i = 0; o->choices[i] != NULL; i++)
		snprintf(err + strlen(err), size - strlen(err), "%s %s",
			 i ? "," : "", o->choices[i]);
	return -1;
}

void engine_opt_format(const struct engine_option *o, uint64_t v, char *buf,
		       size_t size)
{
	static const char units[] = "GMK";

	switch (o->kind) {
	case ENGINE_OPT_SIZE:
		for (unsigned i = 0; i < 3; i++) {
			uint64_t unit = (uint64_t)1 << (10u * (3 - i));
			if (v != 0 && v % unit == 0) {
				snprintf(buf, size, "%llu%c",
					 (unsigned long long)(v / unit),
					 units[i]);
				return;
			}
		}
		break;
	case ENGINE_OPT_BOOL:
		snprintf(buf, size, "%s", v ? "true" : "false");
		return;
	case ENGINE_OPT_CHOICE:
		snprintf(buf, size, "%s", o->choices[v]);
		return;
	case ENGINE_OPT_COUNT:
		break;
	}
	snprintf(buf, size, "%llu", (unsigned long long)v);
}

static const struct engine_option *opt_find(const struct engine *e,
					    const char *key, size_t len)
{
	for (const struct engine_option *o = e->options; o && o->key; o++)
		if (strlen(o->key) == len && strncmp(o->key, key, len) == 0)
			return o;
	return NULL;
}

/* "re2 has no option 'x' (options: max_mem, longest_match)" into err. */
static void no_such_key(const struct engine *e, const char *key, size_t len,
			char *err, size_t size)
{
	snprintf(err, size, "%s has no option '%.*s'", e->name, (int)len, key);
	if (e->options == NULL || e->options[0].key == NULL) {
		snprintf(err + strlen(err), size - strlen(err), " (it has none)");
		return;
	}
	snprintf(err + strlen(err), size - strlen(err), " (options:");
	for (const struct engine_option *o = e->options; o->key; o++)
		snprintf(err + strlen(err), size - strlen(err), "%s %s",
			 o == e->options ? "" : ",", o->key);
	snprintf(err + strlen(err), size - strlen(err), ")");
}

/* The engine named arg[0..len), or NULL with err saying why. */
static const struct engine *opt_engine(const char *arg, size_t len,
				       char *err, size_t size)
{
	char name[64];
	const char *why;
	const struct engine *e;

	if (len == 0 || len >= sizeof(name)) {
		snprintf(err, size, "write ENGINE.KEY=VALUE, as re2.max_mem=64M");
		return NULL;
	}
	memcpy(name, arg, len);
	name[len] = '\0';
	e = engine_find(name);
	why = engine_missing_reason(name);
	if (e == NULL && why != NULL)
		snprintf(err, size, "%s was not built: %s", name, why);
	else if (e == NULL)
		snprintf(err, size, "no engine '%s' (rxbench list names them)",
			 name);
	return e;
}

int engine_opt_set(const char *arg, char *err, size_t size)
{
	const char *dot = strchr(arg, '.');
	const char *eq = strchr(arg, '=');
	const struct engine *e;
	const struct engine_option *o;
	const char *why;
	uint64_t v;

	if (dot == NULL || eq == NULL || eq < dot) {
		snprintf(err, size, "write ENGINE.KEY=VALUE, as re2.max_mem=64M");
		return -1;
	}
	e = opt_engine(arg, (size_t)(dot - arg), err, size);
	if (e == NULL)
		return -1;
	o = opt_find(e, dot + 1, (size_t)(eq - dot - 1));
	if (o == NULL) {
		no_such_key(e, dot + 1, (size_t)(eq - dot - 1), err, size);
		return -1;
	}
	if (opt_parse(o, eq + 1, &v, err, size) != 0)
		return -1;
	why = o->refuse != NULL ? o->refuse(v) : NULL;
	if (why != NULL) {
		snprintf(err, size, "%s", why);
		return -1;
	}
	*o->value = v;
	return 0;
}

void engine_opts_reset(void)
{
	char err[128];

	for (size_t i = 0; i < engine_count; i++)
		for (const struct engine_option *o = engine_table[i]->options;
		     o != NULL && o->key; o++)
			(void)opt_parse(o, o->def, o->value, err, sizeof(err));
}

/* Is o at its default? */
static int opt_is_default(const struct engine_option *o)
{
	char err[128];
	uint64_t d;

	return opt_parse(o, o->def, &d, err, sizeof(err)) == 0 && d == *o->value;
}

size_t engine_opts_changed(const struct engine *e, char *buf, size_t size)
{
	size_t n = 0;
	char v[32];

	if (size > 0)
		buf[0] = '\0';
	for (const struct engine_option *o = e->options; o && o->key; o++) {
		if (opt_is_default(o))
			continue;
		engine_opt_format(o, *o->value, v, sizeof(v));
		snprintf(buf + n, size - n, "%s%s:%s", n ? "," : "", o->key, v);
		n = strlen(buf);
	}
	return n;
}

const char *engine_bench_name(const struct engine *e)
{
	static char names[64][256];
	char opts[200];
	size_t slot = 0;

	while (slot < engine_count && engine_table[slot] != e)
		slot++;
	if (slot >= 64 || engine_opts_changed(e, opts, sizeof(opts)) == 0)
		return e->name;
	snprintf(names[slot], sizeof(names[slot]), "%s,%s", e->name, opts);
	return names[slot];
}

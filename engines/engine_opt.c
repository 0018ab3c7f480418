/*
 * engine_opt.c - engine options (`--engine-opt ENGINE.KEY=VALUE`, see
 * engine.h): parsing "ENGINE.KEY=VALUE" against the engine's declared
 * table, checking the value by its kind, and spelling the options that
 * differ from their defaults for benchmark names and results.
 *
 * Sweeps: "ENGINE.KEY=V1,V2" runs the engine once per value.  The run's
 * entries for it are then variants, copies of the engine's struct whose
 * compile, compile_flow and semantics_now set the variant's values
 * around the engine's own (options are read at compile, engine.h), made
 * by engine_opt_entries() once the options are parsed.
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

/* Parse v for o and ask o's refuse: 0, or -1 with err. */
static int opt_value(const struct engine_option *o, const char *v,
		     uint64_t *out, char *err, size_t size)
{
	const char *why;

	if (opt_parse(o, v, out, err, size) != 0)
		return -1;
	why = o->refuse != NULL ? o->refuse(*out) : NULL;
	if (why != NULL) {
		snprintf(err, size, "%s", why);
		return -1;
	}
	return 0;
}

/* --- sweeps: one option at several values, one entry each --------- */

#define OPT_MAX 16     /* options of one engine a sweep can set */
#define SWEEP_MAX 16   /* values of one swept option */
#define SWEEPS_MAX 8   /* swept options in a run */
#define VARIANT_MAX ENGINE_OPT_VARIANTS_MAX /* the hooks below */

/* Option o of engine e at each of v[0..n), an entry each. */
struct sweep {
	const struct engine *e;
	const struct engine_option *o;
	uint64_t v[SWEEP_MAX];
	size_t n;
};

/* An entry of a sweep: e is base with hooks that set v around base's. */
struct variant {
	struct engine e;
	const struct engine *base;
	uint64_t v[OPT_MAX]; /* every option of base, in its table's order */
	unsigned swept;      /* bit i: option i is one the sweep sets */
	char name[256];      /* its benchmark name */
};

static struct sweep sweeps[SWEEPS_MAX];
static size_t nsweeps;
static struct variant variants[VARIANT_MAX];
static size_t nvariants;

/* o's index in e's table. */
static size_t opt_index(const struct engine *e, const struct engine_option *o)
{
	return (size_t)(o - e->options);
}

/* The variant whose engine is e, or NULL (e is a table's engine). */
static struct variant *variant_of(const struct engine *e)
{
	for (size_t i = 0; i < nvariants; i++)
		if (&variants[i].e == e)
			return &variants[i];
	return NULL;
}

/* Set v's values, the ones they replace into saved (variant_restore). */
static void variant_apply(const struct variant *v, uint64_t *saved)
{
	size_t i = 0;

	for (const struct engine_option *o = v->base->options; o->key; o++) {
		saved[i] = *o->value;
		*o->value = v->v[i++];
	}
}

static void variant_restore(const struct variant *v, const uint64_t *saved)
{
	size_t i = 0;

	for (const struct engine_option *o = v->base->options; o->key; o++)
		*o->value = saved[i++];
}

static int variant_compile(const struct variant *v,
			   const struct engine_pattern *pats, size_t n,
			   unsigned flags, void **out, struct engine_error *err)
{
	uint64_t saved[OPT_MAX];
	int rc;

	variant_apply(v, saved);
	rc = v->base->compile(pats, n, flags, out, err);
	variant_restore(v, saved);
	return rc;
}

static int variant_compile_flow(const struct variant *v,
				enum engine_flow mode,
				const struct engine_pattern *pats, size_t n,
				unsigned flags, void **out,
				struct engine_error *err)
{
	uint64_t saved[OPT_MAX];
	int rc;

	variant_apply(v, saved);
	rc = v->base->compile_flow(mode, pats, n, flags, out, err);
	variant_restore(v, saved);
	return rc;
}

static enum engine_semantics variant_semantics(const struct variant *v)
{
	uint64_t saved[OPT_MAX];
	enum engine_semantics s;

	variant_apply(v, saved);
	s = engine_semantics(v->base);
	variant_restore(v, saved);
	return s;
}

/* Variant k's hooks: compile() takes no engine, so one function each. */
#define VARIANT_HOOKS(k)                                                      \
	static int variant_compile_##k(const struct engine_pattern *p,       \
				       size_t n, unsigned f, void **out,      \
				       struct engine_error *err)              \
	{                                                                     \
		return variant_compile(&variants[k], p, n, f, out, err);     \
	}                                                                     \
	static int variant_flow_##k(enum engine_flow m,                      \
				    const struct engine_pattern *p, size_t n, \
				    unsigned f, void **out,                   \
				    struct engine_error *err)                 \
	{                                                                     \
		return variant_compile_flow(&variants[k], m, p, n, f, out,   \
					    err);                             \
	}                                                                     \
	static enum engine_semantics variant_semantics_##k(void)             \
	{                                                                     \
		return variant_semantics(&variants[k]);                       \
	}
VARIANT_HOOKS(0) VARIANT_HOOKS(1) VARIANT_HOOKS(2) VARIANT_HOOKS(3)
VARIANT_HOOKS(4) VARIANT_HOOKS(5) VARIANT_HOOKS(6) VARIANT_HOOKS(7)
VARIANT_HOOKS(8) VARIANT_HOOKS(9) VARIANT_HOOKS(10) VARIANT_HOOKS(11)
VARIANT_HOOKS(12) VARIANT_HOOKS(13) VARIANT_HOOKS(14) VARIANT_HOOKS(15)
#undef VARIANT_HOOKS

#define VARIANT_ENTRY(k)                                                      \
	{variant_compile_##k, variant_flow_##k, variant_semantics_##k}
static const struct {
	int (*compile)(const struct engine_pattern *, size_t, unsigned,
		       void **, struct engine_error *);
	int (*compile_flow)(enum engine_flow, const struct engine_pattern *,
			    size_t, unsigned, void **, struct engine_error *);
	enum engine_semantics (*semantics_now)(void);
} variant_hooks[VARIANT_MAX] = {
	VARIANT_ENTRY(0),  VARIANT_ENTRY(1),  VARIANT_ENTRY(2),
	VARIANT_ENTRY(3),  VARIANT_ENTRY(4),  VARIANT_ENTRY(5),
	VARIANT_ENTRY(6),  VARIANT_ENTRY(7),  VARIANT_ENTRY(8),
	VARIANT_ENTRY(9),  VARIANT_ENTRY(10), VARIANT_ENTRY(11),
	VARIANT_ENTRY(12), VARIANT_ENTRY(13), VARIANT_ENTRY(14),
	VARIANT_ENTRY(15),
};
#undef VARIANT_ENTRY

/* The sweep of option o of e, or NULL. */
static struct sweep *sweep_find(const struct engine *e,
				const struct engine_option *o)
{
	for (size_t i = 0; i < nsweeps; i++)
		if (sweeps[i].e == e && sweeps[i].o == o)
			return &sweeps[i];
	return NULL;
}

/* A single value given after a sweep of the same option replaces it. */
static void sweep_drop(const struct engine *e, const struct engine_option *o)
{
	struct sweep *s = sweep_find(e, o);

	if (s != NULL)
		*s = sweeps[--nsweeps];
}

/* Whether e can have its options swept: 0, or -1 with err. */
static int sweep_allowed(const struct engine *e,
			 const struct engine_option *o, char *err,
			 size_t size)
{
	size_t n = 0;

	while (e->options[n].key != NULL)
		n++;
	if (e->kind == ENGINE_RUNNER)
		snprintf(err, size, "%s's runner reads its options at every "
			 "sample, not at compile: one value a run", e->name);
	else if (n > OPT_MAX)
		snprintf(err, size, "%s has more than %d options to sweep",
			 e->name, OPT_MAX);
	else if (sweep_find(e, o) == NULL && nsweeps == SWEEPS_MAX)
		snprintf(err, size, "at most %d options swept a run",
			 SWEEPS_MAX);
	else
		return 0;
	return -1;
}

/* The values of list ("drop,tx") for o into s: 0, or -1 with err. */
static int sweep_parse(struct sweep *s, const char *list, char *err,
		       size_t size)
{
	char one[64], why[160];

	for (const char *p = list;; p++) {
		size_t len = strcspn(p, ",");
		if (len == 0 || len >= sizeof(one)) {
			snprintf(err, size, "%s: write VALUE,VALUE,... (no "
				 "empty value)", len ? "a value too long" :
				 "an empty value");
			return -1;
		}
		memcpy(one, p, len);
		one[len] = '\0';
		if (s->n == SWEEP_MAX) {
			snprintf(err, size, "at most %d values", SWEEP_MAX);
			return -1;
		}
		if (opt_value(s->o, one, &s->v[s->n], why, sizeof(why)) != 0) {
			snprintf(err, size, "'%s': %s", one, why);
			return -1;
		}
		for (size_t k = 0; k < s->n; k++)
			if (s->v[k] == s->v[s->n]) {
				snprintf(err, size, "'%s': given twice", one);
				return -1;
			}
		s->n++;
		p += len;
		if (*p == '\0')
			return 0;
	}
}

/* e.o=list: a sweep, replacing one of the same option.  0 or -1, err. */
static int sweep_set(const struct engine *e, const struct engine_option *o,
		     const char *list, char *err, size_t size)
{
	struct sweep s = {e, o, {0}, 0};
	struct sweep *at;

	if (sweep_allowed(e, o, err, size) != 0 ||
	    sweep_parse(&s, list, err, size) != 0)
		return -1;
	at = sweep_find(e, o);
	if (at == NULL)
		at = &sweeps[nsweeps++];
	*at = s;
	return 0;
}

int engine_opt_set(const char *arg, char *err, size_t size)
{
	const char *dot = strchr(arg, '.');
	const char *eq = strchr(arg, '=');
	const struct engine *e;
	const struct engine_option *o;
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
	if (strchr(eq + 1, ',') != NULL)
		return sweep_set(e, o, eq + 1, err, size);
	if (opt_value(o, eq + 1, &v, err, size) != 0)
		return -1;
	sweep_drop(e, o);
	*o->value = v;
	return 0;
}

/* Variant of base: the options as set now, the sweeps' at idx[]. */
static const struct engine *variant_new(const struct engine *base,
					struct sweep *const *sw, size_t ns,
					const size_t *idx)
{
	struct variant *v = &variants[nvariants];
	size_t i = 0;

	memset(v, 0, sizeof(*v));
	v->base = base;
	for (const struct engine_option *o = base->options; o->key; o++)
		v->v[i++] = *o->value;
	for (size_t k = 0; k < ns; k++) {
		i = opt_index(base, sw[k]->o);
		v->v[i] = sw[k]->v[idx[k]];
		v->swept |= 1u << i;
	}
	v->e = *base;
	v->e.compile = variant_hooks[nvariants].compile;
	v->e.compile_flow = base->compile_flow != NULL
				    ? variant_hooks[nvariants].compile_flow
				    : NULL;
	v->e.semantics_now = variant_hooks[nvariants].semantics_now;
	nvariants++;
	return &v->e;
}

int engine_opt_swept(const struct engine *e)
{
	for (size_t i = 0; i < nsweeps; i++)
		if (sweeps[i].e == e)
			return 1;
	return 0;
}

size_t engine_opt_entry_count(const struct engine *e)
{
	size_t total = 1;

	for (size_t i = 0; i < nsweeps; i++)
		if (sweeps[i].e == e)
			total *= sweeps[i].n;
	return total;
}

long engine_opt_entries(const struct engine *e, const struct engine **out,
			size_t max, char *err, size_t size)
{
	struct sweep *sw[SWEEPS_MAX];
	size_t ns = 0, total = 1, idx[SWEEPS_MAX] = {0};

	for (size_t i = 0; i < nsweeps; i++)
		if (sweeps[i].e == e) {
			sw[ns++] = &sweeps[i];
			total *= sweeps[i].n;
		}
	if (total > max || (ns > 0 && nvariants + total > VARIANT_MAX)) {
		snprintf(err, size, "%s: %zu entries (one per swept value), "
			 "more than the run holds (%zu)", e->name, total,
			 ns > 0 && max > VARIANT_MAX - nvariants
				 ? VARIANT_MAX - nvariants : max);
		return -1;
	}
	if (ns == 0) {
		out[0] = e;
		return 1;
	}
	for (size_t k = 0; k < total; k++) {
		out[k] = variant_new(e, sw, ns, idx);
		for (size_t j = ns; j-- > 0 && ++idx[j] == sw[j]->n;)
			idx[j] = 0; /* the last option's values turn fastest */
	}
	return (long)total;
}

uint64_t engine_opt_value(const struct engine *e,
			  const struct engine_option *o)
{
	const struct variant *v = variant_of(e);

	return v != NULL ? v->v[opt_index(v->base, o)] : *o->value;
}

void engine_opts_reset(void)
{
	char err[128];

	nsweeps = 0;
	nvariants = 0;

	for (size_t i = 0; i < engine_count; i++)
		for (const struct engine_option *o = engine_table[i]->options;
		     o != NULL && o->key; o++)
			(void)opt_parse(o, o->def, o->value, err, sizeof(err));
}

/* Is v o's default? */
static int opt_is_default(const struct engine_option *o, uint64_t v)
{
	char err[128];
	uint64_t d;

	return opt_parse(o, o->def, &d, err, sizeof(err)) == 0 && d == v;
}

size_t engine_opts_changed(const struct engine *e, char *buf, size_t size)
{
	const struct variant *var = variant_of(e);
	size_t n = 0, i = 0;
	char v[32];

	if (size > 0)
		buf[0] = '\0';
	for (const struct engine_option *o = e->options; o && o->key;
	     o++, i++) {
		uint64_t now = engine_opt_value(e, o);
		int swept = var != NULL && (var->swept & (1u << i));
		if (!swept && opt_is_default(o, now))
			continue;
		engine_opt_format(o, now, v, sizeof(v));
		snprintf(buf + n, size - n, "%s%s:%s", n ? "," : "", o->key, v);
		n = strlen(buf);
	}
	return n;
}

const char *engine_bench_name(const struct engine *e)
{
	static char names[64][256];
	struct variant *var = variant_of(e);
	char opts[200];
	size_t slot = 0;

	while (slot < engine_count && engine_table[slot] != e)
		slot++;
	if ((var == NULL && slot >= 64) ||
	    engine_opts_changed(e, opts, sizeof(opts)) == 0)
		return e->name;
	if (var != NULL) {
		snprintf(var->name, sizeof(var->name), "%s,%s", e->name, opts);
		return var->name;
	}
	snprintf(names[slot], sizeof(names[slot]), "%s,%s", e->name, opts);
	return names[slot];
}

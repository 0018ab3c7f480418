/*
 * payload.c - the payload suite: regex matching on packet payloads, per
 * packet size, in packets per second per core and against line rate (the
 * XDP + Hyperscan measurements of seed 003, in process, across engines).
 *
 * Scenarios (one op = one packet; the op cycles through the packets of
 * the size, 4 MiB of them by default so they do not sit in L1/L2):
 *   base       no regex: the loop reads every byte (the harness floor)
 *   literal    "private", dotall                     printable corpus
 *   full-scan  "pri.*ate", dotall, single match      printable corpus
 *   real-life  10 rules per packet (or --rules), match_ids: the engine's
 *              native set, or its rules in turn      HTTP corpus
 *   touch      (opt-in) base as one contiguous sweep, no per-packet work:
 *              base - touch is what the per-packet loop costs
 * With --pcap every scenario reads the capture's payloads instead.
 *
 * Verification before timing, per scenario and size: every engine's
 * is_match on every packet equals the reference (memmem for the literal,
 * "pri" then "ate" for the full scan) and, on generated packets, what the
 * generator planted; for real-life every rule's answer on every packet
 * (its conditions combined, see corpora/rules.h) equals the planted
 * attacks (built-in rules on the HTTP corpus) or else the engines'
 * majority, and so does the number of packets each rule matches (listed
 * after the tables).  A difference is a MISMATCH row and no time.
 */
#define _GNU_SOURCE
#include "suites/payload.h"

#include "corpora/pcap.h"
#include "harness/interrupt.h"
#include "harness/isolate.h"
#include "report/table.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_SIZES 16
#define MAX_RULE_FILES 16
#define DEFAULT_BENCHTIME_NS 0.3e9

enum { GEN_PRINTABLE, GEN_FULLSCAN, GEN_HTTP };

static const struct scenario_def {
	const char *name;
	const char *title; /* table heading */
	int per_engine;
	int in_default;
} scenarios[SC_COUNT] = {
	[SC_BASE] = {"base", "base", 0, 1},
	[SC_LITERAL] = {"literal", "literal", 1, 1},
	[SC_FULLSCAN] = {"full-scan", "full payload scan", 1, 1},
	[SC_REALLIFE] = {"real-life", "real-life", 1, 1},
	[SC_TOUCH] = {"touch", "touch", 0, 0},
};

static const size_t default_sizes[] = {64, 128, 256, 512, 1000, 1500};

/* The single-pattern scenarios' patterns. */
static const struct {
	const char *re;
	unsigned flags;
} single[SC_COUNT] = {
	[SC_LITERAL] = {PACKETS_LITERAL_NEEDLE, ENGINE_DOTALL},
	[SC_FULLSCAN] = {"pri.*ate", ENGINE_DOTALL | ENGINE_SINGLEMATCH},
};

/* One benchmark's argument. */
struct pcase {
	enum scenario sc;
	const struct size_in *in;
	struct peng *pe; /* NULL for base and touch */
	size_t next;     /* packet the next run starts at */
	uint64_t sink;   /* keeps the base loop's reads alive */
};

static struct {
	/* options */
	size_t sizes[MAX_SIZES];
	size_t nsizes;
	double match_rate;
	double link_gbps;
	uint64_t seed;
	size_t count;
	unsigned scen_mask; /* 0: the defaults */
	const char *rule_files[MAX_RULE_FILES];
	size_t nrule_files;
	enum rules_format rules_format;
	const char *pcap;
	/* inputs */
	struct size_in in[MAX_SIZES];
	size_t nin;
	struct packets pcap_pk;
	struct payload_rules rules;
	/* engines and benchmarks */
	struct peng *eng;
	size_t neng;
	struct pcase **cases;
	size_t ncases;
} st = {.match_rate = 0.01, .link_gbps = 100, .seed = 1};

/* ---- names and messages ---- */

void payload_name(char *buf, size_t size, enum scenario sc,
		  const struct size_in *in, const struct engine *e)
{
	if (e == NULL)
		snprintf(buf, size, "%s/scenario=%s/size=%s", PAYLOAD_PREFIX,
			 scenarios[sc].name, in->label);
	else
		snprintf(buf, size, "%s/scenario=%s/size=%s/engine=%s",
			 PAYLOAD_PREFIX, scenarios[sc].name, in->label, e->name);
}

void payload_excerpt(const char *p, size_t len, size_t from, size_t max,
		     char *buf, size_t size)
{
	size_t o = 0;

	for (size_t i = from; i < len && i < from + max && o + 5 < size; i++) {
		unsigned char c = (unsigned char)p[i];
		if (c == '"' || c == '\\')
			o += (size_t)snprintf(buf + o, size - o, "\\%c", c);
		else if (c >= 0x20 && c < 0x7f)
			buf[o++] = (char)c;
		else
			o += (size_t)snprintf(buf + o, size - o, "\\x%02x", c);
	}
	buf[o] = '\0';
}

/* ---- options ---- */

/* A decimal integer in [min, max].  0, or -1 (junk, sign, range). */
static int size_value(const char *s, size_t min, size_t max, size_t *out)
{
	char *end;
	unsigned long long v;

	errno = 0;
	v = s[0] >= '0' && s[0] <= '9' ? strtoull(s, &end, 10) : 0;
	if (s[0] < '0' || s[0] > '9' || errno != 0 || *end != '\0' ||
	    v < min || v > max)
		return -1;
	*out = (size_t)v;
	return 0;
}

/* size_value() for --opt.  0, or -1 after a message. */
static int parse_size(const char *opt, const char *s, size_t min, size_t max,
		      size_t *out)
{
	if (size_value(s, min, max, out) == 0)
		return 0;
	fprintf(stderr, "rxbench: --%s: '%s' is not a number from %zu to %zu\n",
		opt, s, min, max);
	return -1;
}

/*
 * Call add(item, v) on each comma-separated item of --opt=v.  0, or -1
 * (add failed, or v holds no item: message printed).
 */
static int each_item(const char *opt, const char *v,
		     int (*add)(const char *item, const char *v))
{
	char *copy = strdup(v), *tok, *save = NULL;
	int rc = copy != NULL ? 0 : -1, n = 0;

	for (tok = copy ? strtok_r(copy, ",", &save) : NULL;
	     tok != NULL && rc == 0; tok = strtok_r(NULL, ",", &save), n++)
		rc = add(tok, v);
	free(copy);
	if (rc == 0 && n == 0) {
		fprintf(stderr, "rxbench: --%s=%s: empty list\n", opt, v);
		rc = -1;
	}
	return rc;
}

static int add_size(const char *item, const char *v)
{
	size_t s;

	if (st.nsizes == MAX_SIZES) {
		fprintf(stderr, "rxbench: --sizes=%s: at most %d sizes\n", v,
			MAX_SIZES);
		return -1;
	}
	if (size_value(item, PACKETS_MIN_SIZE, PACKETS_MAX_SIZE, &s) != 0) {
		fprintf(stderr, "rxbench: --sizes=%s: '%s' is not a number from "
			"%d to %d; use packet sizes separated by commas, e.g. "
			"64,128,1500\n", v, item, PACKETS_MIN_SIZE,
			PACKETS_MAX_SIZE);
		return -1;
	}
	st.sizes[st.nsizes++] = s;
	return 0;
}

static int opt_sizes(const char *v)
{
	st.nsizes = 0;
	return each_item("sizes", v, add_size);
}

/* "1%", "0.5%" or a fraction "0.01". */
static int opt_match_rate(const char *v)
{
	char *end;
	double r;

	errno = 0;
	r = strtod(v, &end);
	if (end != v && *end == '%' && end[1] == '\0') {
		r /= 100;
		end++;
	}
	if (end == v || *end != '\0' || errno != 0 || !isfinite(r) || r < 0 ||
	    r > 1 || !((v[0] >= '0' && v[0] <= '9') || v[0] == '.') ||
	    strpbrk(v, "xX") != NULL) {
		fprintf(stderr, "rxbench: --match-rate=%s: not a rate (use a "
			"percentage like 1%% or a fraction like 0.01)\n", v);
		return -1;
	}
	st.match_rate = r;
	return 0;
}

static int opt_link(const char *v)
{
	char *end;
	double g;

	errno = 0;
	g = strtod(v, &end);
	if (end == v || *end != '\0' || errno != 0 || !isfinite(g) || g <= 0 ||
	    g > 1e6 || v[0] < '0' || v[0] > '9' || strpbrk(v, "xX") != NULL) {
		fprintf(stderr, "rxbench: --link=%s: not a link speed in Gbps "
			"(e.g. 100)\n", v);
		return -1;
	}
	st.link_gbps = g;
	return 0;
}

static int opt_seed(const char *v)
{
	size_t s;

	if (parse_size("seed", v, 0, SIZE_MAX, &s) != 0)
		return -1;
	st.seed = s;
	return 0;
}

static int opt_packets(const char *v)
{
	return parse_size("packets", v, 1, 10000000, &st.count);
}

static int add_scenario(const char *item, const char *v)
{
	size_t sc = 0;

	(void)v;
	while (sc < SC_COUNT && strcmp(scenarios[sc].name, item) != 0)
		sc++;
	if (sc == SC_COUNT) {
		fprintf(stderr, "rxbench: --scenarios: unknown scenario '%s' "
			"(base, literal, full-scan, real-life, touch)\n", item);
		return -1;
	}
	st.scen_mask |= 1u << sc;
	return 0;
}

static int opt_scenarios(const char *v)
{
	st.scen_mask = 0;
	return each_item("scenarios", v, add_scenario);
}

static int opt_rules(const char *v)
{
	if (st.nrule_files == MAX_RULE_FILES) {
		fprintf(stderr, "rxbench: --rules: at most %d files\n",
			MAX_RULE_FILES);
		return -1;
	}
	st.rule_files[st.nrule_files++] = v;
	return 0;
}

static int opt_rules_format(const char *v)
{
	int f = rules_format_parse(v);

	if (f < 0) {
		fprintf(stderr, "rxbench: --rules-format=%s: use auto, regex, "
			"snort or modsec\n", v);
		return -1;
	}
	st.rules_format = (enum rules_format)f;
	return 0;
}

static int opt_pcap(const char *v)
{
	st.pcap = v;
	return 0;
}

static const struct {
	const char *name;
	int (*set)(const char *value);
} options[] = {
	{"sizes", opt_sizes},
	{"match-rate", opt_match_rate},
	{"link", opt_link},
	{"seed", opt_seed},
	{"packets", opt_packets},
	{"scenarios", opt_scenarios},
	{"rules", opt_rules},
	{"rules-format", opt_rules_format},
	{"pcap", opt_pcap},
};

static int payload_set_option(const char *key, const char *value)
{
	for (size_t i = 0; i < sizeof(options) / sizeof(options[0]); i++) {
		if (strcmp(key, options[i].name) != 0)
			continue;
		if (value == NULL)
			return SUITE_OPT_NEEDS_VALUE;
		return options[i].set(value) == 0 ? SUITE_OPT_OK
						  : SUITE_OPT_INVALID;
	}
	return SUITE_OPT_UNKNOWN;
}

static int wanted(enum scenario sc)
{
	unsigned mask = st.scen_mask;

	if (mask == 0)
		for (size_t i = 0; i < SC_COUNT; i++)
			mask |= (unsigned)scenarios[i].in_default << i;
	return (mask >> sc) & 1;
}

/* ---- inputs ---- */

/* Generate the corpora the chosen scenarios read at one size. */
static int inputs_size(struct size_in *in, size_t size)
{
	struct packets_spec spec = {size, st.count, st.match_rate, st.seed};
	int need_printable = wanted(SC_BASE) || wanted(SC_LITERAL) ||
			     wanted(SC_TOUCH);

	in->size = size;
	snprintf(in->label, sizeof(in->label), "%zu", size);
	in->linerate = packets_linerate_mpps(st.link_gbps, (double)size);
	if ((need_printable &&
	     packets_generate(&in->gen[GEN_PRINTABLE], PACKETS_LITERAL, &spec)) ||
	    (wanted(SC_FULLSCAN) &&
	     packets_generate(&in->gen[GEN_FULLSCAN], PACKETS_FULLSCAN, &spec)) ||
	    (wanted(SC_REALLIFE) &&
	     packets_generate(&in->gen[GEN_HTTP], PACKETS_HTTP, &spec))) {
		fprintf(stderr, "rxbench: payload: out of memory generating "
			"%zu-byte packets\n", size);
		return -1;
	}
	in->corpus[SC_BASE] = in->corpus[SC_TOUCH] = &in->gen[GEN_PRINTABLE];
	in->corpus[SC_LITERAL] = &in->gen[GEN_PRINTABLE];
	in->corpus[SC_FULLSCAN] = &in->gen[GEN_FULLSCAN];
	in->corpus[SC_REALLIFE] = &in->gen[GEN_HTTP];
	return 0;
}

/* --pcap: one row, every scenario on the capture's payloads. */
static int inputs_pcap(void)
{
	char err[512];
	struct size_in *in = &st.in[0];

	if (pcap_load_payloads(&st.pcap_pk, st.pcap, err, sizeof(err)) != 0) {
		fprintf(stderr, "rxbench: %s\n", err);
		return -1;
	}
	snprintf(in->label, sizeof(in->label), "pcap");
	in->linerate = packets_linerate_mpps(st.link_gbps, st.pcap_pk.wire_bytes);
	for (size_t sc = 0; sc < SC_COUNT; sc++)
		in->corpus[sc] = &st.pcap_pk;
	st.nin = 1;
	return 0;
}

static int inputs_rules(void)
{
	char err[512];

	ruleset_init(&st.rules.rs);
	st.rules.builtin = st.nrule_files == 0;
	if (st.rules.builtin && rules_builtin(&st.rules.rs) != 0)
		return -1;
	for (size_t i = 0; i < st.nrule_files; i++) {
		if (rules_load(&st.rules.rs, st.rule_files[i], st.rules_format,
			       err, sizeof(err)) != 0) {
			fprintf(stderr, "rxbench: %s\n", err);
			return -1;
		}
	}
	if (payload_rules_group(&st.rules) != 0)
		return -1;
	return payload_rules_reference(&st.rules);
}

static int load_inputs(void)
{
	if (st.pcap != NULL && st.nsizes > 0) {
		fprintf(stderr, "rxbench: --sizes and --pcap exclude each other "
			"(a capture has its own sizes)\n");
		return -1;
	}
	if (wanted(SC_REALLIFE) && inputs_rules() != 0)
		return -1;
	if (st.pcap != NULL)
		return inputs_pcap();
	if (st.nsizes == 0) {
		st.nsizes = sizeof(default_sizes) / sizeof(default_sizes[0]);
		memcpy(st.sizes, default_sizes, sizeof(default_sizes));
	}
	for (st.nin = 0; st.nin < st.nsizes; st.nin++)
		if (inputs_size(&st.in[st.nin], st.sizes[st.nin]) != 0)
			return -1;
	return 0;
}

/* ---- engines ---- */

/* Compile a single-pattern scenario's pattern for pe. */
static void compile_single(struct peng *pe, enum scenario sc)
{
	struct engine_pattern p = {single[sc].re, strlen(single[sc].re)};
	struct engine_error err = {0, -1, -1, ""};
	char at[32] = "";

	if (pe->e->compile(&p, 1, single[sc].flags, &pe->single[sc], &err) == 0)
		return;
	if (err.offset >= 0)
		snprintf(at, sizeof(at), " (offset %ld)", err.offset);
	pe->single[sc] = NULL;
	pe->status[sc] = err.status == ENGINE_ERR_UNSUPPORTED ? RESULT_UNSUPPORTED
							      : RESULT_ERROR;
	snprintf(pe->why[sc], sizeof(pe->why[sc]), "%s%s", err.msg, at);
}

static int engines_init(struct suite_ctx *ctx)
{
	st.eng = calloc(ctx->nengines ? ctx->nengines : 1, sizeof(*st.eng));
	if (st.eng == NULL)
		return -1;
	st.neng = ctx->nengines;
	for (size_t i = 0; i < st.neng; i++) {
		struct peng *pe = &st.eng[i];
		pe->e = ctx->engines[i];
		if (wanted(SC_LITERAL))
			compile_single(pe, SC_LITERAL);
		if (wanted(SC_FULLSCAN))
			compile_single(pe, SC_FULLSCAN);
		if (wanted(SC_REALLIFE) &&
		    payload_rules_compile(ctx, &st.rules, pe) != 0)
			return -1;
	}
	return 0;
}

/* ---- the measured loops ---- */

/*
 * Read every byte of p into acc: 64 bytes as four independent 16-byte
 * loads per step, the vector sum carried from packet to packet (no
 * reduction per packet); the rest out of line, its last partial 16 bytes
 * as one load that overlaps bytes already read.  So the base loop costs
 * reading the bytes and little else.  GCC/Clang vector extension (gnu11).
 */
typedef uint64_t u64x2 __attribute__((vector_size(16)));

/* What follows the last whole 64 bytes: kept out of the hot loop. */
static __attribute__((noinline)) u64x2 touch_tail(u64x2 acc, const char *p,
						const char *end, size_t len)
{
	u64x2 a;
	uint64_t sum = 0;

	for (; p + 16 <= end; p += 16) {
		memcpy(&a, p, 16);
		acc += a;
	}
	if (p < end && len >= 16) {
		memcpy(&a, end - 16, 16);
		acc += a;
	} else {
		for (; p < end; p++)
			sum += (unsigned char)*p;
		acc[0] += sum;
	}
	return acc;
}

static inline u64x2 touch(u64x2 acc, const char *p, size_t len)
{
	const char *end = p + len, *whole = p + (len & ~(size_t)63);
	u64x2 a, b, c, d;

	for (; p < whole; p += 64) {
		memcpy(&a, p, 16);
		memcpy(&b, p + 16, 16);
		memcpy(&c, p + 32, 16);
		memcpy(&d, p + 48, 16);
		acc += (a ^ b) + (c ^ d);
	}
	if (__builtin_expect(p < end, 0))
		acc = touch_tail(acc, p, end, len);
	return acc;
}

/*
 * The loops below walk the packets in runs up to the end of the set, so
 * the per-packet work is the op itself plus one compare.  Each keeps the
 * next packet index and a sum in c->sink so nothing is elided.  They are
 * four loops rather than one taking a per-packet callback on purpose: a
 * callback would add an indirect call per packet to what is measured.
 */

/* How many of the n remaining ops fit before packet index i wraps. */
static size_t run_length(const struct packets *pk, size_t i, uint64_t n)
{
	return n < pk->n - i ? (size_t)n : pk->n - i;
}

static int run_base(void *arg, uint64_t n)
{
	struct pcase *c = arg;
	const struct packets *pk = c->in->corpus[c->sc];
	const struct packet *pkt = pk->pkt;
	size_t i = c->next;
	u64x2 acc = {0, 0};

	while (n > 0) {
		size_t end = i + run_length(pk, i, n);
		n -= end - i;
		for (; i < end; i++)
			acc = touch(acc, pkt[i].p, pkt[i].len);
		i = i == pk->n ? 0 : i;
	}
	c->next = i;
	c->sink += acc[0] + acc[1];
	return 0;
}

/* The same bytes as run_base, as few long sweeps. */
static int run_touch(void *arg, uint64_t n)
{
	struct pcase *c = arg;
	const struct packets *pk = c->in->corpus[c->sc];
	size_t i = c->next;
	u64x2 acc = {0, 0};

	while (n > 0) {
		size_t m = run_length(pk, i, n);
		const struct packet *last = &pk->pkt[i + m - 1];
		acc = touch(acc, pk->pkt[i].p,
			    (size_t)(last->p + last->len - pk->pkt[i].p));
		n -= m;
		i = i + m == pk->n ? 0 : i + m;
	}
	c->next = i;
	c->sink += acc[0] + acc[1];
	return 0;
}

static int run_single(void *arg, uint64_t n)
{
	struct pcase *c = arg;
	const struct packets *pk = c->in->corpus[c->sc];
	const struct packet *pkt = pk->pkt;
	const struct engine *e = c->pe->e;
	void *h = c->pe->single[c->sc];
	size_t i = c->next;
	uint64_t hits = 0;

	while (n > 0) {
		size_t end = i + run_length(pk, i, n);
		n -= end - i;
		for (; i < end; i++) {
			int rc = e->is_match(h, pkt[i].p, pkt[i].len);
			if (rc < 0)
				return rc;
			hits += (uint64_t)rc;
		}
		i = i == pk->n ? 0 : i;
	}
	c->next = i;
	c->sink += hits;
	return 0;
}

/* All rule sets of the engine on one packet: matches, or <0. */
static long rules_once(const struct peng *pe, const struct packet *p)
{
	long hits = 0;

	for (size_t g = 0; g < st.rules.ngroups; g++) {
		long rc;
		if (pe->sets[g].h == NULL)
			continue;
		rc = pe->e->match_ids(pe->sets[g].h, p->p, p->len, pe->ids);
		if (rc < 0)
			return rc;
		hits += rc;
	}
	return hits;
}

static int run_rules(void *arg, uint64_t n)
{
	struct pcase *c = arg;
	const struct packets *pk = c->in->corpus[c->sc];
	size_t i = c->next;
	uint64_t hits = 0;

	while (n > 0) {
		size_t end = i + run_length(pk, i, n);
		n -= end - i;
		for (; i < end; i++) {
			long rc = rules_once(c->pe, &pk->pkt[i]);
			if (rc < 0)
				return (int)rc;
			hits += (uint64_t)rc;
		}
		i = i == pk->n ? 0 : i;
	}
	c->next = i;
	c->sink += hits;
	return 0;
}

/* Mpps, Gbps, % of line rate and cores for line rate from ns/packet. */
static void payload_derive(void *arg, double ns, struct result *r)
{
	const struct pcase *c = arg;
	double mpps = 1e3 / ns, lr = c->in->linerate;

	result_metric_add(r, "Mpps", BETTER_HIGHER, mpps);
	result_metric_add(r, "Gbps", BETTER_HIGHER,
			  c->in->corpus[c->sc]->payload_bytes * 8 / ns);
	result_metric_add(r, "%linerate", BETTER_HIGHER, 100 * mpps / lr);
	result_metric_add(r, "cores", BETTER_LOWER, lr / mpps);
}

/* ---- planning ---- */

/*
 * Add benchmark sc x in (x pe) to the plan; `matches` (the verified
 * number of matching packets in the set) becomes a metric unless it is
 * NO_MATCHES.  0, or -1 out of memory.
 */
#define NO_MATCHES ((size_t)-1)

/*
 * Fill b's op for sc x in (x pe): its pcase (kept in st.cases), run,
 * derive and fixed metrics.  0, or -1 out of memory.
 */
static int bench_fill(enum scenario sc, const struct size_in *in,
		      struct peng *pe, size_t matches, struct bench *b)
{
	static int (*const runs[SC_COUNT])(void *, uint64_t) = {
		[SC_BASE] = run_base, [SC_LITERAL] = run_single,
		[SC_FULLSCAN] = run_single, [SC_REALLIFE] = run_rules,
		[SC_TOUCH] = run_touch,
	};
	struct pcase **grown, *c;

	grown = realloc(st.cases, (st.ncases + 1) * sizeof(*grown));
	if (grown == NULL)
		return -1;
	st.cases = grown;
	c = calloc(1, sizeof(*c));
	if (c == NULL)
		return -1;
	*c = (struct pcase){sc, in, pe, 0, 0};
	st.cases[st.ncases++] = c;
	b->run = runs[sc];
	b->derive = payload_derive;
	b->arg = c;
	if (matches != NO_MATCHES)
		b->extra[b->nextra++] = (struct bench_metric){
			"matches", BETTER_EXACT, (double)matches};
	if (sc == SC_REALLIFE)
		b->extra[b->nextra++] = (struct bench_metric){
			"rules", BETTER_EXACT, (double)pe->nok};
	return 0;
}

static int plan_case(struct suite_ctx *ctx, enum scenario sc,
		     const struct size_in *in, struct peng *pe, size_t matches,
		     const char *verified, int unverified)
{
	struct bench b = {0};
	char name[256];

	payload_name(name, sizeof(name), sc, in, pe ? pe->e : NULL);
	if (!suite_wants(ctx, name))
		return 0;
	if (bench_fill(sc, in, pe, matches, &b) != 0)
		return -1;
	b.name = strdup(name);
	b.suite = PAYLOAD_SUITE;
	b.verified = verified ? strdup(verified) : NULL;
	b.unverified = unverified;
	if (b.name == NULL || (verified && b.verified == NULL) ||
	    plan_add(ctx->plan, &b) != 0) {
		free(b.name);
		free(b.verified);
		return -1;
	}
	return 0;
}

/* Does the --bench filter select any engine of sc x in? */
static int any_wanted(struct suite_ctx *ctx, enum scenario sc,
		      const struct size_in *in)
{
	char name[256];

	for (size_t i = 0; i < st.neng; i++) {
		payload_name(name, sizeof(name), sc, in, st.eng[i].e);
		if (suite_wants(ctx, name))
			return 1;
	}
	return 0;
}

/* The reference answer of a single-pattern scenario on one packet. */
static int reference(enum scenario sc, const struct packet *p)
{
	if (sc == SC_LITERAL)
		return memmem(p->p, p->len, PACKETS_LITERAL_NEEDLE,
			      strlen(PACKETS_LITERAL_NEEDLE)) != NULL;
	return packets_has_pri_ate(p->p, p->len);
}

/*
 * The generator's own check: its planted marks equal the reference.
 * 0, or -1 after an error row (an rxbench bug, not an engine's).
 */
static int check_generator(struct suite_ctx *ctx, enum scenario sc,
			   const struct size_in *in, const unsigned char *ref)
{
	const struct packets *pk = in->corpus[sc];
	char name[256];

	for (size_t i = 0; pk->mark != NULL && i < pk->n; i++) {
		if ((pk->mark[i] != 0) == ref[i])
			continue;
		payload_name(name, sizeof(name), sc, in, NULL);
		suite_fail(ctx, PAYLOAD_SUITE, name, RESULT_ERROR,
			   "generator: packet %zu planted %u but the reference "
			   "says %d", i, pk->mark[i], ref[i]);
		return -1;
	}
	return 0;
}

/* Where a message's excerpt of p starts: a little before its "pri". */
static size_t excerpt_from(const struct packet *p)
{
	const char *pri = memmem(p->p, p->len, "pri", 3);
	size_t at = pri ? (size_t)(pri - p->p) : 0;

	return at > 16 ? at - 16 : 0;
}

/*
 * Literal and full-scan are cases of the one pipeline (suites/case.h):
 * one table per size, a group per scenario, a case per engine; the
 * answer is is_match per packet (one byte each), the expected answer the
 * reference's, which check_generator() has held against the planted
 * marks.
 */
struct single_case {
	enum scenario sc;
	struct size_in *in;
	struct peng *pe;
};

static const struct packets *single_packets(const struct case_item *c)
{
	const struct single_case *sc = c->arg;

	return sc->in->corpus[sc->sc];
}

static int single_compile(void *arg, const struct case_item *c, void **h,
			  char *why, size_t size)
{
	const struct single_case *sc = c->arg;

	(void)arg;
	*h = sc->pe->single[sc->sc];
	if (*h != NULL)
		return 0;
	snprintf(why, size, "%s", sc->pe->why[sc->sc]);
	return sc->pe->status[sc->sc] == RESULT_UNSUPPORTED
		       ? ENGINE_ERR_UNSUPPORTED
		       : ENGINE_ERR_COMPILE;
}

static int single_answer(void *arg, const struct case_item *c, void *out)
{
	const struct packets *pk = single_packets(c);
	unsigned char *hit = out;

	(void)arg;
	for (size_t i = 0; i < pk->n; i++) {
		int rc = c->e->is_match(c->h, pk->pkt[i].p, pk->pkt[i].len);
		if (rc < 0)
			return rc;
		hit[i] = (unsigned char)rc;
	}
	return 0;
}

static size_t single_hits(const struct case_item *c, const unsigned char *hit)
{
	const struct packets *pk = single_packets(c);
	size_t n = 0;

	for (size_t i = 0; i < pk->n; i++)
		n += hit[i];
	return n;
}

static int single_expect(void *arg, const struct case_item *c, void *out,
			 char *by, size_t size)
{
	const struct single_case *sc = c->arg;
	const struct packets *pk = single_packets(c);
	unsigned char *hit = out;

	(void)arg;
	for (size_t i = 0; i < pk->n; i++)
		hit[i] = (unsigned char)reference(sc->sc, &pk->pkt[i]);
	snprintf(by, size, "reference (%s) per packet%s",
		 sc->sc == SC_LITERAL ? "memmem" : "pri then ate",
		 pk->mark ? ", = planted" : "");
	return CASE_REF_OK;
}

static void single_describe(void *arg, const struct case_item *c,
			    const void *answer, char *buf, size_t size)
{
	(void)arg;
	snprintf(buf, size, "%zu matching packets", single_hits(c, answer));
}

static void single_explain(void *arg, const struct case_item *c,
			   const void *got, const void *want, char *buf,
			   size_t size)
{
	const struct packets *pk = single_packets(c);
	const unsigned char *g = got, *w = want;
	size_t differ = 0, first = 0;
	char text[200];

	(void)arg;
	for (size_t i = pk->n; i-- > 0;)
		if (g[i] != w[i]) {
			differ++;
			first = i;
		}
	payload_excerpt(pk->pkt[first].p, pk->pkt[first].len,
			excerpt_from(&pk->pkt[first]), 64, text, sizeof(text));
	snprintf(buf, size, "%zu packets differ, first: packet %zu (is_match "
		 "%d, reference %d) \"%s\"", differ, first, g[first], w[first],
		 text);
}

static int single_bench(void *arg, struct case_item *c, const void *answer,
			struct bench *b)
{
	const struct single_case *sc = c->arg;

	(void)arg;
	return bench_fill(sc->sc, sc->in, sc->pe, single_hits(c, answer), b);
}

static void single_release(void *arg, struct case_item *c)
{
	(void)arg;
	(void)c; /* the handle is the engine's pe->single[], freed at cleanup */
}

static const struct case_ops single_ops = {
	.compile = single_compile,
	.answer = single_answer,
	.expect = single_expect,
	.describe = single_describe,
	.explain = single_explain,
	.bench = single_bench,
	.release = single_release,
};

/* The cases of scenario sc at size in: one per engine, group sc. */
static int single_cases(struct case_table *t, enum scenario sc,
			struct size_in *in)
{
	for (size_t i = 0; i < st.neng; i++) {
		struct single_case *x = &in->single[sc][i];
		char name[256], label[128];

		*x = (struct single_case){sc, in, &st.eng[i]};
		payload_name(name, sizeof(name), sc, in, st.eng[i].e);
		snprintf(label, sizeof(label), "%s: /%s/, size %s",
			 st.eng[i].e->name, single[sc].re, in->label);
		if (case_add(t, name, label, st.eng[i].e, 0, NULL, (size_t)sc,
			     0, x) != 0)
			return -1;
	}
	return 0;
}

/*
 * Verify and plan scenario sc (literal or full-scan) at one size through
 * the pipeline; the generator's planted marks are checked against the
 * reference first.  0, or -1 out of memory.
 */
static int plan_single(struct suite_ctx *ctx, enum scenario sc,
		       struct size_in *in)
{
	const struct packets *pk = in->corpus[sc];
	unsigned char *ref;
	int rc;

	if (!any_wanted(ctx, sc, in))
		return 0;
	in->ops[sc] = single_ops;
	in->ops[sc].answer_size = pk->n ? pk->n : 1;
	case_table_init(&in->table[sc], PAYLOAD_SUITE, &in->ops[sc], NULL);
	ref = malloc(pk->n + 1);
	in->single[sc] = calloc(st.neng + 1, sizeof(*in->single[sc]));
	if (ref == NULL || in->single[sc] == NULL) {
		free(ref);
		return -1;
	}
	for (size_t i = 0; i < pk->n; i++)
		ref[i] = (unsigned char)reference(sc, &pk->pkt[i]);
	rc = check_generator(ctx, sc, in, ref);
	free(ref);
	if (rc != 0)
		return 0; /* an error row: rxbench's generator, not an engine */
	if (single_cases(&in->table[sc], sc, in) != 0)
		return -1;
	rc = case_run(&in->table[sc], ctx);
	return rc == STATUS_INTERRUPTED ? 0 : rc;
}

/*
 * Plan engine pe's real-life benchmark, whose answers agreed with every
 * expected answer; `unverified` of its rules ran on packets nothing could
 * decide: an unverified row then, or with --allow-unverified a benchmark
 * marked so.  0, or -1 out of memory.
 */
static int plan_verified(struct suite_ctx *ctx, struct size_in *in,
			 struct peng *pe, size_t matched, size_t unverified,
			 const char *by)
{
	char text[512], name[256];

	in->rules_verified = 1;
	if (unverified == 0) {
		snprintf(text, sizeof(text), "every rule on every packet: %s",
			 by);
		return plan_case(ctx, SC_REALLIFE, in, pe, matched, text, 0);
	}
	snprintf(text, sizeof(text), "%zu of its %zu rules not verified on some "
		 "packets: out of the reference's reach, and no strict majority "
		 "of at least 3 libraries (%s)%s", unverified, pe->nok, by,
		 ctx->allow_unverified ? ""
				       : "; --allow-unverified times it anyway");
	if (ctx->allow_unverified)
		return plan_case(ctx, SC_REALLIFE, in, pe, matched, text, 1);
	payload_name(name, sizeof(name), SC_REALLIFE, in, pe->e);
	suite_fail(ctx, PAYLOAD_SUITE, name, RESULT_UNVERIFIED, "%s: %s",
		   pe->e->name, text);
	return 0;
}

/* Verify and plan the real-life scenario at one size. */
static int plan_reallife(struct suite_ctx *ctx, struct size_in *in)
{
	unsigned char *ok;
	size_t *matched, *unverified;
	char by[256];
	int rc = 0;

	if (!any_wanted(ctx, SC_REALLIFE, in))
		return 0;
	ok = calloc(st.neng ? st.neng : 1, 1);
	matched = calloc(st.neng ? st.neng : 1, sizeof(*matched));
	unverified = calloc(st.neng ? st.neng : 1, sizeof(*unverified));
	in->rule_matched = calloc(st.rules.rs.n ? st.rules.rs.n : 1,
				  sizeof(*in->rule_matched));
	if (ok == NULL || matched == NULL || unverified == NULL ||
	    in->rule_matched == NULL) {
		free(ok);
		free(matched);
		free(unverified);
		return -1;
	}
	for (size_t i = 0; i < st.neng; i++) {
		char name[256];
		ok[i] = st.eng[i].status[SC_REALLIFE] == RESULT_OK;
		if (ok[i])
			continue;
		payload_name(name, sizeof(name), SC_REALLIFE, in, st.eng[i].e);
		suite_fail(ctx, PAYLOAD_SUITE, name, st.eng[i].status[SC_REALLIFE],
			   "%s", st.eng[i].why[SC_REALLIFE]);
	}
	if (payload_rules_verify(ctx, &st.rules, st.eng, st.neng, in, ok,
				 unverified, matched, in->rule_matched, by,
				 sizeof(by)) != 0)
		rc = -1;
	for (size_t i = 0; i < st.neng && rc == 0; i++)
		if (ok[i])
			rc = plan_verified(ctx, in, &st.eng[i], matched[i],
					   unverified[i], by);
	free(ok);
	free(matched);
	free(unverified);
	return rc;
}

static int plan_scenario(struct suite_ctx *ctx, enum scenario sc,
			 struct size_in *in)
{
	switch (sc) {
	case SC_BASE:
	case SC_TOUCH:
		return plan_case(ctx, sc, in, NULL, NO_MATCHES,
				 "no answer: the harness floor", 0);
	case SC_LITERAL:
	case SC_FULLSCAN:
		return plan_single(ctx, sc, in);
	case SC_REALLIFE:
		return plan_reallife(ctx, in);
	default:
		return 0;
	}
}

/*
 * A user's rule set that no selected engine runs: the real-life scenario
 * it was given for measures nothing, which is an error row, not only the
 * engines' unsupported rows.
 */
static void check_rules_run(struct suite_ctx *ctx)
{
	int selected = 0;

	if (!wanted(SC_REALLIFE) || st.rules.builtin)
		return;
	for (size_t i = 0; i < st.nin; i++)
		selected |= any_wanted(ctx, SC_REALLIFE, &st.in[i]);
	for (size_t i = 0; i < st.neng; i++)
		if (st.eng[i].status[SC_REALLIFE] == RESULT_OK)
			return;
	if (selected)
		suite_fail(ctx, PAYLOAD_SUITE, PAYLOAD_PREFIX "/scenario=real-life",
			   RESULT_ERROR, "real-life: none of the %zu selected "
			   "engines runs any of the %zu rules of --rules (see "
			   "the rows above): nothing to measure", st.neng,
			   st.rules.rs.n);
}

static int payload_prepare(struct suite_ctx *ctx)
{
	if (load_inputs() != 0 || engines_init(ctx) != 0)
		return -1;
	check_rules_run(ctx);
	for (size_t sc = 0; sc < SC_COUNT && !interrupt_signal(); sc++)
		for (size_t i = 0; i < st.nin && wanted(sc); i++)
			if (plan_scenario(ctx, sc, &st.in[i]) != 0)
				return -1;
	return 0;
}

/* ---- tables ---- */

/* Row order of the tables: largest packets first, as in the seed. */
static void size_order(size_t *order)
{
	for (size_t i = 0; i < st.nin; i++)
		order[i] = i;
	for (size_t i = 1; i < st.nin; i++)
		for (size_t j = i; j > 0 && st.in[order[j - 1]].size <
						    st.in[order[j]].size; j--) {
			size_t t = order[j];
			order[j] = order[j - 1];
			order[j - 1] = t;
		}
}

static void rows_by_size(const char **labels, double *linerate)
{
	size_t order[MAX_SIZES];

	size_order(order);
	for (size_t i = 0; i < st.nin; i++) {
		labels[i] = st.in[order[i]].label;
		linerate[i] = st.in[order[i]].linerate;
	}
}

/* How the engine ran the rules, for its table's title. */
static void engine_title(const struct peng *pe, char *buf, size_t size,
			 char *foot, size_t fsize)
{
	snprintf(buf, size, "%s %s: link %g Gbps; real-life: %s, %zu of %zu "
		 "rules in %zu set%s", pe->e->name, pe->e->version(),
		 st.link_gbps, engine_set_native(pe->e)
				       ? "native multi-pattern set"
				       : "rules tried in turn (no native set)",
		 pe->nok, st.rules.rs.n, st.rules.ngroups,
		 st.rules.ngroups == 1 ? "" : "s");
	foot[0] = '\0';
	if (wanted(SC_REALLIFE) && pe->status[SC_REALLIFE] == RESULT_OK &&
	    pe->nok < st.rules.rs.n)
		snprintf(foot, fsize, "* partial: %s compiled %zu of the %zu "
			 "rules (the others are SKIP rows above)", pe->e->name,
			 pe->nok, st.rules.rs.n);
}

/* base - touch per size, when both ran: what the per-packet loop costs. */
static void write_overhead(const struct results *res, FILE *out)
{
	for (size_t i = 0; i < st.nin; i++) {
		char name[256];
		const struct result *b, *t;
		payload_name(name, sizeof(name), SC_BASE, &st.in[i], NULL);
		b = results_find(res, name);
		payload_name(name, sizeof(name), SC_TOUCH, &st.in[i], NULL);
		t = results_find(res, name);
		if (b == NULL || t == NULL || b->status != RESULT_OK ||
		    t->status != RESULT_OK)
			continue;
		fprintf(out, "base - touch at size %s: %.3f ns/packet above "
			"touching its bytes\n", st.in[i].label,
			table_median(b, "ns/op") - table_median(t, "ns/op"));
	}
}

/* Rule r's verified packets over every size. */
static size_t rule_total(size_t r)
{
	size_t n = 0;

	for (size_t i = 0; i < st.nin; i++)
		if (st.in[i].rules_verified)
			n += st.in[i].rule_matched[r];
	return n;
}

/*
 * The rules the per-rule table lists into pick (at most RULE_TABLE_MAX):
 * all in file order when they fit, else those matching most packets.
 * Returns how many.
 */
#define RULE_TABLE_MAX 20

static size_t rules_to_list(size_t *pick)
{
	size_t n = 0;

	if (st.rules.rs.n <= RULE_TABLE_MAX) {
		for (; n < st.rules.rs.n; n++)
			pick[n] = n;
		return n;
	}
	for (size_t r = 0; r < st.rules.rs.n; r++) {
		size_t total = rule_total(r), at;

		if (n == RULE_TABLE_MAX && total <= rule_total(pick[n - 1]))
			continue;
		n += n < RULE_TABLE_MAX;
		/* pick stays sorted, most first; the last one falls out */
		for (at = n - 1; at > 0 && rule_total(pick[at - 1]) < total; at--)
			pick[at] = pick[at - 1];
		pick[at] = r;
	}
	return n;
}

/* One rule's row: its verified packets and their share, per size. */
static void write_rule_row(FILE *out, size_t r, const size_t *order,
			   int width)
{
	fprintf(out, "| %-*s |", width, st.rules.rs.r[r].name);
	for (size_t i = 0; i < st.nin; i++) {
		const struct size_in *in = &st.in[order[i]];
		const struct packets *pk = in->corpus[SC_REALLIFE];
		char cell[48] = "n/a";
		if (in->rules_verified)
			snprintf(cell, sizeof(cell), "%zu (%.2f%%)",
				 in->rule_matched[r],
				 100.0 * (double)in->rule_matched[r] /
					 (double)(pk->n ? pk->n : 1));
		fprintf(out, " %16s |", cell);
	}
	fputc('\n', out);
}

/* The per-rule table's header row and the line under it. */
static void write_rule_head(FILE *out, const size_t *order, int width)
{
	fprintf(out, "| %-*s |", width, "rule");
	for (size_t i = 0; i < st.nin; i++)
		fprintf(out, " %16s |", st.in[order[i]].label);
	fputs("\n|", out);
	for (int k = 0; k < width + 2; k++)
		fputc('-', out);
	for (size_t i = 0; i < st.nin; i++)
		fputs("|------------------", out);
	fputs("|\n", out);
}

/*
 * After the tables: how many packets each rule matches per size, as
 * verified (the answer every timed engine gave), and their share.
 */
static void write_rule_counts(FILE *out)
{
	size_t order[MAX_SIZES], pick[RULE_TABLE_MAX], n, silent = 0;
	int width = 4, verified = 0;

	for (size_t i = 0; i < st.nin; i++)
		verified |= st.in[i].rules_verified;
	if (!wanted(SC_REALLIFE) || !verified)
		return;
	size_order(order);
	n = rules_to_list(pick);
	for (size_t k = 0; k < n; k++)
		if ((int)strlen(st.rules.rs.r[pick[k]].name) > width)
			width = (int)strlen(st.rules.rs.r[pick[k]].name);
	fprintf(out, "\nreal-life: packets each rule matches (verified) and "
		"their share, per size%s:\n\n",
		n < st.rules.rs.n ? "; the rules matching most" : "");
	write_rule_head(out, order, width);
	for (size_t k = 0; k < n; k++)
		write_rule_row(out, pick[k], order, width);
	for (size_t r = 0; r < st.rules.rs.n; r++)
		silent += rule_total(r) == 0;
	if (n < st.rules.rs.n)
		fprintf(out, "and %zu more rules; %zu of all %zu match no packet\n",
			st.rules.rs.n - n, silent, st.rules.rs.n);
}

static void payload_report(struct suite_ctx *ctx, FILE *out)
{
	struct table_column cols[SC_COUNT];
	const char *labels[MAX_SIZES];
	double linerate[MAX_SIZES];
	size_t ncols = 0;

	for (size_t sc = 0; sc < SC_COUNT; sc++)
		if (wanted(sc))
			cols[ncols++] = (struct table_column){
				scenarios[sc].name, scenarios[sc].title,
				scenarios[sc].per_engine};
	rows_by_size(labels, linerate);
	fprintf(out, "\nPayload tables: medians; line rate = %g Gbps * 1e9 / "
		"((size + 20) * 8)\n", st.link_gbps);
	for (size_t i = 0; i < st.neng; i++) {
		char title[512], foot[256];
		struct table_spec spec = {PAYLOAD_PREFIX, st.eng[i].e->name, title,
					  labels, linerate, st.nin, cols, ncols,
					  "real-life", NULL};
		engine_title(&st.eng[i], title, sizeof(title), foot, sizeof(foot));
		spec.footnote = foot[0] ? foot : NULL;
		spec.mark_col = foot[0] ? "real-life" : NULL;
		table_write_payload(out, ctx->results, &spec);
	}
	write_overhead(ctx->results, out);
	write_rule_counts(out);
	fputc('\n', out);
}

static void payload_cleanup(void)
{
	for (size_t i = 0; i < st.neng; i++) {
		for (size_t sc = 0; sc < SC_COUNT; sc++)
			if (st.eng[i].single[sc] != NULL)
				st.eng[i].e->free(st.eng[i].single[sc]);
		payload_rules_free(&st.rules, &st.eng[i]);
	}
	for (size_t i = 0; i < st.ncases; i++)
		free(st.cases[i]);
	for (size_t i = 0; i < st.nin; i++) {
		for (size_t k = 0; k < 3; k++)
			packets_release(&st.in[i].gen[k]);
		free(st.in[i].rule_matched);
		st.in[i].rule_matched = NULL;
		st.in[i].rules_verified = 0;
		for (size_t sc = 0; sc < SC_COUNT; sc++) {
			if (st.in[i].ops[sc].answer_size > 0)
				case_table_release(&st.in[i].table[sc]);
			free(st.in[i].single[sc]);
			st.in[i].single[sc] = NULL;
			st.in[i].ops[sc].answer_size = 0;
		}
	}
	packets_release(&st.pcap_pk);
	payload_rules_release(&st.rules);
	free(st.eng);
	free(st.cases);
	st.eng = NULL;
	st.cases = NULL;
	st.neng = st.ncases = st.nin = 0;
}

const struct suite suite_payload = {
	.name = "payload",
	.desc = "regex on packet payloads by size: Mpps per core against line rate",
	.usage = "  --sizes=64,128,...    packet sizes (default 64,128,256,512,1000,1500)\n"
		 "  --match-rate=1%       packets carrying a match (or 0.01)\n"
		 "  --packets=N           packets per size (default: 4 MiB, >= 4096)\n"
		 "  --link=GBPS           link speed for line rate (default 100)\n"
		 "  --seed=N              generator seed (default 1)\n"
		 "  --scenarios=a,b       base, literal, full-scan, real-life, touch\n"
		 "  --rules=FILE|DIR      real-life rules: regex lines, Snort pcre:,\n"
		 "                        ModSecurity SecRule @rx (repeatable)\n"
		 "  --rules-format=F      auto, regex, snort, modsec\n"
		 "  --pcap=FILE           TCP/UDP payloads of a capture instead\n",
	.in_default = 1,
	.default_benchtime_ns = DEFAULT_BENCHTIME_NS,
	.set_option = payload_set_option,
	.legacy_prepare = payload_prepare,
	.legacy_report = payload_report,
	.legacy_cleanup = payload_cleanup,
};

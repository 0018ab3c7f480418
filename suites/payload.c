/*
 * payload.c - the payload suite: regex matching on packet payloads, per
 * packet size, in packets per second per core and against line rate (the
 * XDP + Hyperscan measurements of seed 003, in process, across engines).
 *
 * What it measures is the scenario table below, one row per scenario: the
 * packets it reads, its pattern or rules, how its answers are verified,
 * its op, its help; the rest of the suite loops over the table.  One op
 * is one packet; the op cycles through the packets of the size, 4 MiB of
 * them by default so they do not sit in L1/L2.  With --pcap every
 * scenario reads the capture's payloads instead.
 *
 * Verification before timing is the one pipeline's (suites/case.h): per
 * scenario and size a case per engine, its answer computed in a forked
 * child with --timeout and compared with the expected answer, computed in
 * a child too: for the single-pattern scenarios is_match per packet
 * against the reference (memmem, "pri" then "ate"), itself held against
 * what the generator planted; for real-life every rule's answer on every
 * packet, and so the number of packets each rule matches
 * (payload_rules.c).  A difference is a MISMATCH row and no time.
 *
 * The options are a declared table (payload_options) that fills a struct
 * payload_config; what a run builds from them is a struct payload_run
 * (payload.h), which prepare() returns and cleanup() takes.
 */
#define _GNU_SOURCE
#include "suites/payload.h"

#include "corpora/pcap.h"
#include "harness/interrupt.h"
#include "harness/parse.h"

#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#define MAX_SIZES PAYLOAD_MAX_SIZES
#define MAX_RULE_FILES 16
#define DEFAULT_BENCHTIME_NS 0.1e9

/* Each scenario's own functions, below the table. */
static int run_base(void *arg, uint64_t n);
static int run_touch(void *arg, uint64_t n);
static int run_single(void *arg, uint64_t n);
static int ref_literal(const struct packet *p);
static int ref_pri_ate(const struct packet *p);
static int single_table(struct scen_size *ss, struct suite_ctx *ctx);
static const struct case_ops single_ops;
static int reallife_setup(struct payload_run *r, struct scen_run *sr,
			  struct suite_ctx *ctx);
static void reallife_teardown(struct scen_run *sr);
static int rulecost_setup(struct payload_run *r, struct scen_run *sr,
			  struct suite_ctx *ctx);

/*
 * The scenarios, in the order of the tables' columns.  A new scenario is
 * a row here and its own functions (a generator in corpora/packets.c if
 * it plants something new).
 */
static const struct scenario scenarios[] = {
	{
		.name = "base", .title = "base", .in_default = 1,
		.help = "no regex: the loop reads every byte (the harness floor)",
		.plant = PACKETS_LITERAL, .run = run_base,
	},
	{
		.name = "literal", .title = "literal", .in_default = 1,
		.help = "\"" PACKETS_LITERAL_NEEDLE "\", dotall (printable packets)",
		.plant = PACKETS_LITERAL,
		.re = PACKETS_LITERAL_NEEDLE, .flags = ENGINE_DOTALL,
		.ref_name = "memmem", .reference = ref_literal,
		.ops = &single_ops, .run = run_single, .table = single_table,
	},
	{
		.name = "full-scan", .title = "full payload scan", .in_default = 1,
		.help = "\"pri.*ate\", dotall, single match",
		.plant = PACKETS_FULLSCAN,
		.re = "pri.*ate", .flags = ENGINE_DOTALL | ENGINE_SINGLEMATCH,
		.ref_name = "pri then ate", .reference = ref_pri_ate,
		.ops = &single_ops, .run = run_single, .table = single_table,
	},
	{
		.name = "real-life", .title = "real-life", .in_default = 1,
		.help = "10 rules per packet (or --rules), match_ids (HTTP)",
		.plant = PACKETS_HTTP, .rules = 1,
		.ops = &payload_rules_ops, .run = payload_rules_run,
		.setup = reallife_setup, .table = payload_rules_table,
		.teardown = reallife_teardown,
	},
	{
		.name = "per-rule", .title = "per rule", .in_default = 0,
		.help = "each rule alone (--per-rule): ns per packet, share\n"
			"               of packets it matches, the costliest",
		.plant = PACKETS_HTTP, .rules = 1,
		.ops = &payload_cost_ops, .run = payload_cost_run,
		.setup = rulecost_setup, .table = payload_cost_table,
		.teardown = reallife_teardown, .cases = payload_cost_cases,
	},
	{
		.name = "touch", .title = "touch", .in_default = 0,
		.help = "base as one sweep: base - touch is the per-packet loop",
		.plant = PACKETS_LITERAL, .run = run_touch,
	},
};

#define NSCEN (sizeof(scenarios) / sizeof(scenarios[0]))
_Static_assert(NSCEN <= 32, "--scenarios keeps a bit per scenario");

static const size_t default_sizes[] = {64, 128, 256, 512, 1000, 1500};

/* What the command line chose (suites/options.h fills it). */
struct payload_config {
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
	enum rules_target rules_target;
	int per_rule;       /* --per-rule: the per-rule scenario too */
	const char *pcap;
};

static void payload_config_init(void *cfg)
{
	struct payload_config *c = cfg;

	c->match_rate = 0.01;
	c->link_gbps = 100;
	c->seed = 1;
}

/* ---- names and messages ---- */

const struct scenario *payload_scenario(const char *name)
{
	for (size_t i = 0; i < NSCEN; i++)
		if (strcmp(scenarios[i].name, name) == 0)
			return &scenarios[i];
	return NULL;
}

/* "base, literal, ..." */
static void scenario_names(char *buf, size_t size)
{
	size_t o = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < NSCEN && o < size; i++) {
		int n = snprintf(buf + o, size - o, "%s%s", i ? ", " : "",
				 scenarios[i].name);
		o += n > 0 ? (size_t)n : 0;
	}
}

void payload_name(char *buf, size_t size, const struct scenario *sc,
		  const char *label, const struct engine *e)
{
	int n = snprintf(buf, size, "%s/scenario=%s", PAYLOAD_PREFIX, sc->name);

	if (label != NULL && n > 0 && (size_t)n < size)
		n += snprintf(buf + n, size - (size_t)n, "/size=%s", label);
	if (e != NULL && n > 0 && (size_t)n < size)
		snprintf(buf + n, size - (size_t)n, "/engine=%s",
			 engine_bench_name(e));
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

static int opt_sizes(void *cfg, const char *v, char *err, size_t size)
{
	struct payload_config *c = cfg;
	char why[128];

	if (parse_size_list(v, PACKETS_MIN_SIZE, PACKETS_MAX_SIZE, c->sizes,
			    MAX_SIZES, &c->nsizes, why, sizeof(why)) == 0)
		return 0;
	c->nsizes = 0;
	snprintf(err, size, "%s (packet sizes from %d to %d, separated by "
		 "commas: 64,128,1500)", why, PACKETS_MIN_SIZE,
		 PACKETS_MAX_SIZE);
	return -1;
}

/* "1%", "0.5%" or a fraction "0.01". */
static int opt_match_rate(void *cfg, const char *v, char *err, size_t size)
{
	size_t n = strlen(v);
	char num[64], why[64];
	double r;
	int pct = n > 0 && v[n - 1] == '%';

	snprintf(num, sizeof(num), "%.*s", (int)(pct ? n - 1 : n), v);
	if (n >= sizeof(num) ||
	    parse_real(num, 0, pct ? 100 : 1, &r, why, sizeof(why)) != 0) {
		snprintf(err, size, "not a rate (use a percentage like 1%% or a "
			 "fraction like 0.01)");
		return -1;
	}
	((struct payload_config *)cfg)->match_rate = pct ? r / 100 : r;
	return 0;
}

static int opt_link(void *cfg, const char *v, char *err, size_t size)
{
	double g;
	char why[64];

	if (parse_real(v, 0, 1e6, &g, why, sizeof(why)) != 0 || g <= 0) {
		snprintf(err, size, "not a link speed in Gbps (e.g. 100; at "
			 "most 1e6)");
		return -1;
	}
	((struct payload_config *)cfg)->link_gbps = g;
	return 0;
}

static int opt_scenarios(void *cfg, const char *v, char *err, size_t size)
{
	struct payload_config *c = cfg;
	const char *p = v;

	c->scen_mask = 0;
	for (;;) {
		size_t len = strcspn(p, ","), sc = 0;
		while (sc < NSCEN && (strlen(scenarios[sc].name) != len ||
				      strncmp(scenarios[sc].name, p, len) != 0))
			sc++;
		if (sc == NSCEN) {
			char names[256];
			scenario_names(names, sizeof(names));
			snprintf(err, size, "unknown scenario '%.*s' (%s)",
				 (int)(len > 40 ? 40 : len), p, names);
			return -1;
		}
		c->scen_mask |= 1u << sc;
		p += len;
		if (*p++ == '\0')
			return 0;
	}
}

static int opt_rules(void *cfg, const char *v, char *err, size_t size)
{
	struct payload_config *c = cfg;

	if (c->nrule_files == MAX_RULE_FILES) {
		snprintf(err, size, "at most %d files", MAX_RULE_FILES);
		return -1;
	}
	c->rule_files[c->nrule_files++] = v;
	return 0;
}

static int opt_rules_format(void *cfg, const char *v, char *err, size_t size)
{
	int f = rules_format_parse(v);

	if (f < 0) {
		snprintf(err, size, "use auto, regex, snort or modsec");
		return -1;
	}
	((struct payload_config *)cfg)->rules_format = (enum rules_format)f;
	return 0;
}

static int opt_rules_target(void *cfg, const char *v, char *err, size_t size)
{
	static const char *const names[] = {
		[RULES_TARGET_AUTO] = "auto", [RULES_TARGET_RAW] = "raw",
		[RULES_TARGET_VARIABLES] = "variables",
	};

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (strcmp(v, names[i]) == 0) {
			((struct payload_config *)cfg)->rules_target =
				(enum rules_target)i;
			return 0;
		}
	snprintf(err, size, "use raw, variables or auto");
	return -1;
}

/*
 * The options.  --scenarios's help lists the table's rows: it is put
 * together before main() runs (usage_scenarios).
 */
static char scenarios_help[1024] = "of these (* by default):";

#define PAYLOAD_OPT(f) offsetof(struct payload_config, f)
static const struct opt_spec payload_options[] = {
	{"sizes", "64,128,...", "packet sizes (default 64,128,256,512,1000,\n"
	 "1500)", OPT_CALL, 0, 0, 0, opt_sizes},
	{"match-rate", "1%", "packets carrying a match (or 0.01)", OPT_CALL, 0,
	 0, 0, opt_match_rate},
	{"packets", "N", "packets per size (default: 4 MiB, >= 4096)",
	 OPT_SIZE, PAYLOAD_OPT(count), 1, 10000000, NULL},
	{"link", "GBPS", "link speed for line rate (default 100)", OPT_CALL, 0,
	 0, 0, opt_link},
	{"seed", "N", "generator seed (default 1)", OPT_UINT, PAYLOAD_OPT(seed),
	 0, (double)UINT64_MAX, NULL},
	{"rules", "FILE|DIR", "real-life rules: regex lines, Snort pcre:,\n"
	 "ModSecurity SecRule @rx (repeatable)", OPT_CALL, 0, 0, 0, opt_rules},
	{"rules-format", "F", "auto, regex, snort, modsec", OPT_CALL, 0, 0, 0,
	 opt_rules_format},
	{"rules-target", "T", "raw (every rule on the whole payload),\n"
	 "variables (ModSecurity rules on the request's\n"
	 "parts), auto (default: variables for SecRules)", OPT_CALL, 0, 0, 0,
	 opt_rules_target},
	{"per-rule", NULL, "each rule alone too (scenario per-rule)",
	 OPT_FLAG, PAYLOAD_OPT(per_rule), 0, 0, NULL},
	{"pcap", "FILE", "TCP/UDP payloads of a capture instead", OPT_TEXT,
	 PAYLOAD_OPT(pcap), 0, 0, NULL},
	{"scenarios", "a,b", scenarios_help, OPT_CALL, 0, 0, 0, opt_scenarios},
	{NULL, NULL, NULL, OPT_FLAG, 0, 0, 0, NULL},
};

static void __attribute__((constructor)) usage_scenarios(void)
{
	size_t o = strlen(scenarios_help);

	for (size_t i = 0; i < NSCEN && o < sizeof(scenarios_help); i++) {
		int n = snprintf(scenarios_help + o, sizeof(scenarios_help) - o,
				 "\n  %-11s%c %s", scenarios[i].name,
				 scenarios[i].in_default ? '*' : ' ',
				 scenarios[i].help);
		o += n > 0 ? (size_t)n : 0;
	}
}

/* Is row i selected (--scenarios, else the defaults)? */
static int wanted(const struct payload_run *r, size_t i)
{
	unsigned mask = r->cfg->scen_mask;

	if (mask == 0)
		for (size_t k = 0; k < NSCEN; k++)
			mask |= (unsigned)scenarios[k].in_default << k;
	if (r->cfg->per_rule)
		mask |= 1u << (payload_scenario("per-rule") - scenarios);
	return (mask >> i) & 1;
}

/* ---- inputs ---- */

/* --pcap: one row, every scenario on the capture's payloads. */
static int inputs_pcap(struct payload_run *r)
{
	char err[512];
	struct size_in *in = &r->in[0];

	if (pcap_load_payloads(&r->pcap, r->cfg->pcap, err, sizeof(err)) != 0) {
		fprintf(stderr, "rxbench: %s\n", err);
		return -1;
	}
	snprintf(in->label, sizeof(in->label), "pcap");
	in->linerate = packets_linerate_mpps(r->cfg->link_gbps, r->pcap.wire_bytes);
	r->from_pcap = 1;
	r->nin = 1;
	return 0;
}

/* The sizes (labels, line rates), or the capture.  0, or -1 after a
 * message. */
static int inputs_sizes(struct payload_run *r)
{
	const struct payload_config *c = r->cfg;
	const size_t *sizes = c->nsizes > 0 ? c->sizes : default_sizes;
	size_t n = c->nsizes > 0 ? c->nsizes
				 : sizeof(default_sizes) / sizeof(default_sizes[0]);

	if (c->pcap != NULL && c->nsizes > 0) {
		fprintf(stderr, "rxbench: --sizes and --pcap exclude each other "
			"(a capture has its own sizes)\n");
		return -1;
	}
	if (c->pcap != NULL)
		return inputs_pcap(r);
	for (r->nin = 0; r->nin < n; r->nin++) {
		struct size_in *in = &r->in[r->nin];
		in->size = sizes[r->nin];
		snprintf(in->label, sizeof(in->label), "%zu", in->size);
		in->linerate = packets_linerate_mpps(r->cfg->link_gbps,
						     (double)in->size);
	}
	return 0;
}

/* Does a selected scenario read generated packets of kind k? */
static int kind_wanted(const struct payload_run *r, enum packets_kind k)
{
	for (size_t i = 0; i < NSCEN; i++)
		if (wanted(r, i) && scenarios[i].plant == k)
			return 1;
	return 0;
}

/* Generate, at each size, the packets the selected scenarios read. */
static int inputs_generate(struct payload_run *r)
{
	for (size_t i = 0; i < r->nin && !r->from_pcap; i++) {
		struct size_in *in = &r->in[i];
		struct packets_spec spec = {in->size, r->cfg->count, r->cfg->match_rate,
					    r->cfg->seed};
		for (int k = 0; k < PACKETS_KIND_COUNT; k++) {
			if (!kind_wanted(r, (enum packets_kind)k) ||
			    packets_generate(&in->gen[k], (enum packets_kind)k,
					     &spec) == 0)
				continue;
			fprintf(stderr, "rxbench: payload: out of memory "
				"generating %zu-byte packets\n", in->size);
			return -1;
		}
	}
	return 0;
}

/* The selected scenarios, and each at each size.  0, or -1 (memory). */
static int inputs_scenarios(struct payload_run *r)
{
	r->sr = calloc(NSCEN, sizeof(*r->sr));
	r->ss = calloc(NSCEN * r->nin + 1, sizeof(*r->ss));
	if (r->sr == NULL || r->ss == NULL)
		return -1;
	for (size_t i = 0; i < NSCEN; i++)
		if (wanted(r, i))
			r->sr[r->nsr++].sc = &scenarios[i];
	for (size_t i = 0; i < r->nsr; i++)
		for (size_t j = 0; j < r->nin; j++) {
			struct scen_size *ss = &r->ss[i * r->nin + j];
			ss->run = r;
			ss->sr = &r->sr[i];
			ss->in = &r->in[j];
			ss->pk = r->from_pcap ? &r->pcap
					      : &r->in[j].gen[r->sr[i].sc->plant];
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
 * loops of their own rather than one taking a per-packet callback on
 * purpose: a callback would add an indirect call per packet to what is
 * measured.
 */

/* How many of the n remaining ops fit before packet index i wraps. */
static size_t run_length(const struct packets *pk, size_t i, uint64_t n)
{
	return n < pk->n - i ? (size_t)n : pk->n - i;
}

static int run_base(void *arg, uint64_t n)
{
	struct pcase *c = arg;
	const struct packets *pk = c->ss->pk;
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
	const struct packets *pk = c->ss->pk;
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
	const struct packets *pk = c->ss->pk;
	const struct packet *pkt = pk->pkt;
	const struct engine *e = c->e;
	void *h = c->h;
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

/*
 * Mpps, Gbps, % of line rate and cores for line rate from ns/packet, and
 * the line rate itself (line-Mpps: what the link carries at this size),
 * so a report needs no division to draw it.
 */
static void payload_derive(void *arg, double ns, struct result *r)
{
	const struct pcase *c = arg;
	double mpps = 1e3 / ns, lr = c->ss->in->linerate;

	result_metric_add(r, "Mpps", BETTER_HIGHER, mpps);
	result_metric_add(r, "Gbps", BETTER_HIGHER,
			  c->ss->pk->payload_bytes * 8 / ns);
	result_metric_add(r, "%linerate", BETTER_HIGHER, 100 * mpps / lr);
	result_metric_add(r, "cores", BETTER_LOWER, lr / mpps);
	result_metric_add(r, "line-Mpps", BETTER_EXACT, lr);
}

void payload_bench_fill(struct pcase *pc, size_t matches, struct bench *b)
{
	b->run = pc->ss->sr->sc->run;
	b->derive = payload_derive;
	b->arg = pc;
	b->pass_n = pc->ss->pk->n; /* an op is a packet: warm on them all */
	if (matches != PAYLOAD_NO_MATCHES)
		b->extra[b->nextra++] = (struct bench_metric){
			"matches", BETTER_EXACT, (double)matches};
}

int payload_runner_fill(struct pcase *pc, enum runner_op op,
			void *const *sets, size_t nsets, struct bench *b)
{
	const struct packets *pk = pc->ss->pk;
	struct runner_bytes *in = calloc(pk->n ? pk->n : 1, sizeof(*in));
	struct runner_work w = {op, 1, sets, nsets, NULL, 0, in, pk->n};
	int rc;

	if (in == NULL)
		return -1;
	for (size_t i = 0; i < pk->n; i++)
		in[i] = (struct runner_bytes){pk->pkt[i].p, pk->pkt[i].len};
	rc = case_runner_bench(b, sets[0], &w);
	free(in);
	return rc;
}

/* ---- the single-pattern scenarios (literal, full-scan) ---- */

static int ref_literal(const struct packet *p)
{
	return memmem(p->p, p->len, PACKETS_LITERAL_NEEDLE,
		      strlen(PACKETS_LITERAL_NEEDLE)) != NULL;
}

static int ref_pri_ate(const struct packet *p)
{
	return packets_has_pri_ate(p->p, p->len);
}

/*
 * The generator's own check: its planted marks equal the reference.
 * 0, or 1 after an error row (an rxbench bug, not an engine's).
 */
static int check_generator(struct scen_size *ss, struct suite_ctx *ctx)
{
	const struct scenario *sc = ss->sr->sc;
	const struct packets *pk = ss->pk;
	char name[256];

	for (size_t i = 0; pk->mark != NULL && i < pk->n; i++) {
		int ref = sc->reference(&pk->pkt[i]);
		if ((pk->mark[i] != 0) == ref)
			continue;
		payload_name(name, sizeof(name), sc, ss->in->label, NULL);
		suite_fail(ctx, PAYLOAD_SUITE, name, RESULT_ERROR,
			   "generator: packet %zu planted %u but the reference "
			   "says %d", i, pk->mark[i], ref);
		return 1;
	}
	return 0;
}

/* The table hook: one answer byte per packet, after the generator check. */
static int single_table(struct scen_size *ss, struct suite_ctx *ctx)
{
	ss->ops.answer_size = ss->pk->n ? ss->pk->n : 1;
	return check_generator(ss, ctx);
}

/* Where a message's excerpt of p starts: a little before its "pri". */
static size_t excerpt_from(const struct packet *p)
{
	const char *pri = memmem(p->p, p->len, "pri", 3);
	size_t at = pri ? (size_t)(pri - p->p) : 0;

	return at > 16 ? at - 16 : 0;
}

/*
 * Literal and full-scan as cases of the pipeline: a case per engine and
 * size, compiled per case; the answer is is_match per packet (one byte
 * each), the expected answer the reference's, which check_generator()
 * has held against the planted marks.
 */
static int single_compile(void *arg, const struct case_item *c, void **h,
			  char *why, size_t size)
{
	const struct scenario *sc = ((struct scen_size *)arg)->sr->sc;
	struct engine_pattern p = {sc->re, strlen(sc->re)};
	struct engine_error err = {0, -1, -1, ""};
	char at[32] = "";
	int rc = c->e->compile(&p, 1, sc->flags, h, &err);

	if (rc == 0)
		return 0;
	if (err.offset >= 0)
		snprintf(at, sizeof(at), " (offset %ld)", err.offset);
	snprintf(why, size, "%s%s", err.msg, at);
	return rc == ENGINE_ERR_UNSUPPORTED ? rc : ENGINE_ERR_COMPILE;
}

static int single_answer(void *arg, const struct case_item *c, void *out)
{
	struct scen_size *ss = arg;
	const struct pcase *pc = c->arg;
	unsigned char *hit = out;

	for (size_t i = 0; i < ss->pk->n; i++) {
		int rc;
		ss->at[pc->ei] = i;
		rc = c->e->is_match(c->h, ss->pk->pkt[i].p, ss->pk->pkt[i].len);
		if (rc < 0)
			return rc;
		hit[i] = (unsigned char)rc;
	}
	return 0;
}

static size_t single_hits(const struct scen_size *ss, const unsigned char *hit)
{
	size_t n = 0;

	for (size_t i = 0; i < ss->pk->n; i++)
		n += hit[i];
	return n;
}

static int single_expect(void *arg, const struct case_item *c, void *out,
			 char *by, size_t size)
{
	const struct scen_size *ss = arg;
	const struct scenario *sc = ss->sr->sc;
	unsigned char *hit = out;

	(void)c;
	for (size_t i = 0; i < ss->pk->n; i++)
		hit[i] = (unsigned char)sc->reference(&ss->pk->pkt[i]);
	snprintf(by, size, "reference (%s) per packet%s", sc->ref_name,
		 ss->pk->mark ? ", = planted" : "");
	return CASE_REF_OK;
}

static void single_describe(void *arg, const struct case_item *c,
			    const void *answer, char *buf, size_t size)
{
	(void)c;
	snprintf(buf, size, "%zu matching packets", single_hits(arg, answer));
}

static void single_explain(void *arg, const struct case_item *c,
			   const void *got, const void *want, char *buf,
			   size_t size)
{
	const struct packets *pk = ((struct scen_size *)arg)->pk;
	const unsigned char *g = got, *w = want;
	size_t differ = 0, first = 0;
	char text[200];

	(void)c;
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
	struct pcase *pc = c->arg;

	pc->h = c->h;
	payload_bench_fill(pc, single_hits(arg, answer), b);
	if (c->e->kind == ENGINE_RUNNER)
		return payload_runner_fill(pc, RUNNER_OP_IS_MATCH, &c->h, 1, b);
	return 0;
}

static void single_release(void *arg, struct case_item *c)
{
	(void)arg;
	c->e->free(c->h);
}

void payload_case_failed(void *arg, const struct case_item *c, char *buf,
			 size_t size)
{
	const struct scen_size *ss = arg;
	size_t i = ss->at[((const struct pcase *)c->arg)->ei];
	const struct packet *p = &ss->pk->pkt[i < ss->pk->n ? i : 0];
	char text[200];

	payload_excerpt(p->p, p->len, 0, 64, text, sizeof(text));
	snprintf(buf, size, "on packet %zu \"%s\"", i, text);
}

static const struct case_ops single_ops = {
	.compile = single_compile,
	.answer = single_answer,
	.expect = single_expect,
	.describe = single_describe,
	.explain = single_explain,
	.bench = single_bench,
	.release = single_release,
	.failed = payload_case_failed,
};

/* ---- the real-life scenario's inputs (the rest: payload_rules.c) ---- */

/* The rule set of --rules, or the built-in one, into pr. */
static int reallife_rules(const struct payload_config *cfg,
			  struct payload_rules *pr)
{
	char err[512];

	ruleset_init(&pr->rs);
	pr->builtin = cfg->nrule_files == 0;
	if (pr->builtin && rules_builtin(&pr->rs) != 0)
		return -1;
	for (size_t i = 0; i < cfg->nrule_files; i++) {
		if (rules_load(&pr->rs, cfg->rule_files[i], cfg->rules_format, err,
			       sizeof(err)) != 0) {
			fprintf(stderr, "rxbench: %s\n", err);
			return -1;
		}
	}
	if (payload_rules_targets(pr, cfg->rules_target, err, sizeof(err)) != 0) {
		fprintf(stderr, "rxbench: %s\n", err);
		return -1;
	}
	if (payload_rules_group(pr) != 0)
		return -1;
	return payload_rules_reference(pr);
}

static int reallife_setup(struct payload_run *r, struct scen_run *sr,
			  struct suite_ctx *ctx)
{
	struct reallife *rl = calloc(1, sizeof(*rl));

	sr->data = rl;
	if (rl == NULL || reallife_rules(r->cfg, &rl->pr) != 0)
		return -1;
	return payload_rules_setup(rl, r, ctx);
}

/* The per-rule scenario: the same rules, each compiled alone per case. */
static int rulecost_setup(struct payload_run *r, struct scen_run *sr,
			  struct suite_ctx *ctx)
{
	struct reallife *rl = calloc(1, sizeof(*rl));

	sr->data = rl;
	if (rl == NULL || reallife_rules(r->cfg, &rl->pr) != 0)
		return -1;
	payload_rules_skipped(ctx, &rl->pr, PAYLOAD_PREFIX "/rule=%s");
	return 0;
}

static void reallife_teardown(struct scen_run *sr)
{
	if (sr->data != NULL)
		payload_rules_teardown(sr->data);
	free(sr->data);
	sr->data = NULL;
}

/* ---- planning ---- */

/* Does the --bench filter select any case of ss? */
static int any_wanted(const struct scen_size *ss, struct suite_ctx *ctx)
{
	char name[256];

	for (size_t i = 0; i < ss->run->neng; i++) {
		payload_name(name, sizeof(name), ss->sr->sc, ss->in->label,
			     ss->run->engines[i]);
		if (suite_wants(ctx, name))
			return 1;
	}
	return 0;
}

/* A printf-style input into in.  0 or -1. */
__attribute__((format(printf, 3, 4)))
static int input_f(struct result_inputs *in, const char *key,
		   const char *fmt, ...)
{
	char buf[512];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	return n < 0 ? -1 : result_inputs_add(in, key, buf, strlen(buf));
}

/* What every benchmark of ss reads: link, packets, pattern, rule files. */
static int payload_inputs(const struct scen_size *ss, struct result_inputs *in)
{
	const struct payload_config *cfg = ss->run->cfg;
	const struct scenario *sc = ss->sr->sc;
	int rc = input_f(in, "link-gbps", "%g", ss->run->link_gbps) |
		 input_f(in, "packet-size", "%s", ss->in->label) |
		 input_f(in, "packets", "%zu", ss->pk ? ss->pk->n : 0) |
		 input_f(in, "payload-bytes-mean", "%.6g",
			 ss->pk ? ss->pk->payload_bytes : 0);

	if (sc->re != NULL)
		rc |= result_inputs_add(in, "pattern", sc->re, strlen(sc->re));
	if (cfg == NULL) /* a run made by hand (tests): no options */
		return rc ? -1 : 0;
	if (cfg->pcap != NULL)
		rc |= input_f(in, "pcap", "%s", cfg->pcap);
	else
		rc |= input_f(in, "seed", "%llu",
			      (unsigned long long)cfg->seed) |
		      input_f(in, "match-rate", "%g", cfg->match_rate);
	for (size_t i = 0; i < cfg->nrule_files; i++) {
		char key[32];
		snprintf(key, sizeof(key), "rules-file.%zu", i);
		rc |= input_f(in, key, "%s", cfg->rule_files[i]);
	}
	if (sc->rules && ss->sr->data != NULL)
		rc |= input_f(in, "rules-target", "%s", payload_rules_target_name(
				      &((struct reallife *)ss->sr->data)->pr));
	return rc ? -1 : 0;
}

/* A floor: one benchmark with no answer to verify.  0, or -1. */
static int plan_floor(struct scen_size *ss, struct suite_ctx *ctx)
{
	struct bench b = {0};
	char name[256];

	payload_name(name, sizeof(name), ss->sr->sc, ss->in->label, NULL);
	if (!suite_wants(ctx, name))
		return 0;
	ss->pc = calloc(1, sizeof(*ss->pc));
	if (ss->pc == NULL)
		return -1;
	ss->npc = 1;
	ss->pc[0] = (struct pcase){.ss = ss};
	payload_bench_fill(&ss->pc[0], PAYLOAD_NO_MATCHES, &b);
	b.name = strdup(name);
	b.suite = PAYLOAD_SUITE;
	b.verified = strdup("no answer: the harness floor");
	if (b.name == NULL || b.verified == NULL ||
	    payload_inputs(ss, &b.in) != 0 || plan_add(ctx->plan, &b)) {
		free(b.name);
		free(b.verified);
		result_inputs_release(&b.in);
		return -1;
	}
	return 0;
}

int payload_cases_begin(struct scen_size *ss, size_t n)
{
	ss->pc = calloc(n ? n : 1, sizeof(*ss->pc));
	ss->at = mmap(NULL, (n ? n : 1) * sizeof(size_t),
		      PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (ss->at == MAP_FAILED)
		ss->at = NULL;
	if (ss->pc == NULL || ss->at == NULL)
		return -1;
	ss->npc = n;
	case_table_init(&ss->t, PAYLOAD_SUITE, &ss->ops, ss);
	ss->tabled = 1;
	return payload_inputs(ss, &ss->t.in);
}

/* The cases of ss: one per engine, one group.  0, or -1 (memory). */
static int cases_add(struct scen_size *ss)
{
	const struct scenario *sc = ss->sr->sc;
	size_t n = ss->run->neng;

	if (payload_cases_begin(ss, n) != 0)
		return -1;
	for (size_t i = 0; i < n; i++) {
		const struct engine *e = ss->run->engines[i];
		char name[256], label[160];
		ss->pc[i] = (struct pcase){.ss = ss, .e = e, .ei = i};
		payload_name(name, sizeof(name), sc, ss->in->label, e);
		snprintf(label, sizeof(label), sc->re ? "%s: /%s/, size %s"
						      : "%s: %s, size %s",
			 e->name, sc->re ? sc->re : sc->name, ss->in->label);
		if (case_add(&ss->t, name, label, e, 0, NULL, 0, 0,
			     &ss->pc[i]) != 0)
			return -1;
	}
	return 0;
}

int payload_plan(struct scen_size *ss, struct suite_ctx *ctx)
{
	const struct scenario *sc = ss->sr->sc;
	int rc;

	if (sc->ops == NULL)
		return plan_floor(ss, ctx);
	/* a scenario of its own cases names them otherwise: the pipeline
	   drops those outside --bench */
	if (sc->cases == NULL && !any_wanted(ss, ctx))
		return 0;
	ss->ops = *sc->ops;
	rc = sc->table != NULL ? sc->table(ss, ctx) : 0;
	if (rc != 0)
		return rc < 0 ? -1 : 0;
	if ((sc->cases != NULL ? sc->cases(ss, ctx) : cases_add(ss)) != 0)
		return -1;
	rc = case_run(&ss->t, ctx);
	return rc == STATUS_INTERRUPTED ? 0 : rc;
}

void payload_size_release(struct scen_size *ss)
{
	if (ss->tabled)
		case_table_release(&ss->t);
	if (ss->at != NULL)
		munmap(ss->at, (ss->npc ? ss->npc : 1) * sizeof(size_t));
	for (size_t i = 0; ss->req != NULL && i < ss->pk->n; i++)
		http_req_release(&ss->req[i]);
	free(ss->req);
	free(ss->is_req);
	ss->req = NULL;
	ss->is_req = NULL;
	free(ss->pc);
	ss->tabled = 0;
	ss->at = NULL;
	ss->pc = NULL;
	ss->npc = 0;
}

/* The run's state from the options and ctx's engines.  0, or -1. */
static int run_build(struct payload_run *r, struct suite_ctx *ctx)
{
	char link[64];

	r->engines = ctx->engines;
	r->neng = ctx->nengines;
	r->link_gbps = r->cfg->link_gbps;
	snprintf(link, sizeof(link), "%g Gbps (--link)", r->link_gbps);
	results_meta_set(ctx->results, "payload-link", link);
	if (inputs_sizes(r) != 0 || inputs_scenarios(r) != 0)
		return -1;
	for (size_t i = 0; i < r->nsr; i++)
		if (r->sr[i].sc->setup != NULL &&
		    r->sr[i].sc->setup(r, &r->sr[i], ctx) != 0)
			return -1;
	return inputs_generate(r);
}

static void payload_cleanup(void *run);

/* A signal (interrupt.h) stops it with what is planned so far. */
static void *payload_prepare(struct suite_ctx *ctx, const void *cfg)
{
	struct payload_run *r = calloc(1, sizeof(*r));

	if (r == NULL)
		return NULL;
	r->cfg = cfg;
	if (run_build(r, ctx) != 0)
		goto fail;
	for (size_t i = 0; i < r->nsr * r->nin && !interrupt_signal(); i++)
		if (payload_plan(&r->ss[i], ctx) != 0)
			goto fail;
	return r;
fail:
	payload_cleanup(r);
	return NULL;
}

/* ---- tables ---- */

static void payload_cleanup(void *run)
{
	struct payload_run *r = run;

	for (size_t i = 0; r->ss != NULL && i < r->nsr * r->nin; i++)
		payload_size_release(&r->ss[i]);
	for (size_t i = 0; i < r->nsr; i++)
		if (r->sr[i].sc->teardown != NULL)
			r->sr[i].sc->teardown(&r->sr[i]);
	for (size_t i = 0; i < r->nin; i++)
		for (size_t k = 0; k < PACKETS_KIND_COUNT; k++)
			packets_release(&r->in[i].gen[k]);
	packets_release(&r->pcap);
	free(r->sr);
	free(r->ss);
	free(r);
}

/*
 * The report's verdict and tables (report/layout_decl.h): per engine,
 * Mpps per core by packet size and scenario beside the line rate, and
 * the cores that line rate needs.  base uses no engine: it is in every
 * engine's table.
 */
static const char *const payload_layout[] = {
	"verdict by=scenario,size who=engine metric=Mpps line=line-Mpps "
	"complete=rules about=payload-link question='Which engine keeps up "
	"with the link, per packet size and scenario, and how many cores "
	"does line rate take?'",
	"table title='Mpps per core' split=engine shared=engine "
	"rows=size:desc cols=scenario metrics=Mpps lead=linerate:line-Mpps "
	"keyunit=bytes",
	"table title='cores to reach line rate' split=engine shared=engine "
	"rows=size:desc cols=scenario metrics=cores:line-Mpps/Mpps "
	"keyunit=bytes",
	"growth size=size keyunit=bytes",
	"costliest title='the ten costliest rules' split=bytes,engine rows=rule "
	"metrics=ns/op,%packets flag=%packets:50 cost=scenario:real-life "
	"as=bytes:size top=10",
	NULL,
};

const struct suite suite_payload = {
	.name = "payload",
	.desc = "regex on packet payloads by size: Mpps per core against line rate",
	.in_default = 1,
	.default_benchtime_ns = DEFAULT_BENCHTIME_NS,
	.options = payload_options,
	.config_size = sizeof(struct payload_config),
	.config_init = payload_config_init,
	.prepare = payload_prepare,
	.cleanup = payload_cleanup,
	.layout = payload_layout,
};

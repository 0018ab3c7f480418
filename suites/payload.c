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
 *
 * --threads adds to each case a benchmark per thread count, its op on
 * that many pinned threads (payload_threads.c); the scenarios with ops
 * say how in their payload_thread_ops.
 */
#define _GNU_SOURCE
#include "suites/payload.h"

#include "corpora/digest.h"
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
#define MAX_THREAD_COUNTS 16
#define DEFAULT_BENCHTIME_NS 0.1e9

/* Each scenario's own functions, below the table. */
static int run_base(void *arg, uint64_t n);
static int run_touch(void *arg, uint64_t n);
static int run_single(void *arg, uint64_t n);
static int run_flow_single(void *arg, uint64_t n);
static int ref_literal(const struct packet *p);
static int ref_pri_ate(const struct packet *p);
static int single_table(struct scen_size *ss, struct suite_ctx *ctx);
static const struct case_ops single_ops;
static const struct payload_thread_ops single_threads;
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
		.threads = &single_threads,
	},
	{
		.name = "full-scan", .title = "full payload scan", .in_default = 1,
		.help = "\"pri.*ate\", dotall, single match",
		.plant = PACKETS_FULLSCAN,
		.re = "pri.*ate", .flags = ENGINE_DOTALL | ENGINE_SINGLEMATCH,
		.ref_name = "pri then ate", .reference = ref_pri_ate,
		.ops = &single_ops, .run = run_single, .table = single_table,
		.threads = &single_threads,
	},
	{
		.name = "real-life", .title = "real-life", .in_default = 1,
		.help = "10 rules per packet (or --rules), match_ids (HTTP)",
		.plant = PACKETS_HTTP, .rules = 1,
		.ops = &payload_rules_ops, .run = payload_rules_run,
		.threads = &payload_rules_threads,
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
	enum modsec_version modsec; /* --modsec */
	int per_rule;       /* --per-rule: the per-rule scenario too */
	const char *pcap;
	enum payload_mode modes[PMODE_COUNT]; /* --mode; none: block */
	size_t nmode;
	size_t threads[MAX_THREAD_COUNTS]; /* --threads: counts > 1, ascending */
	size_t nthreads;
	int cpu[BENCH_MAX_THREADS]; /* the CPUs of the affinity mask */
	size_t ncpu;
};

static void payload_config_init(void *cfg)
{
	struct payload_config *c = cfg;

	c->match_rate = 0.01;
	c->link_gbps = 100;
	c->modsec = MODSEC_DEFAULT;
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

static const char *const mode_names[PMODE_COUNT] = {
	[PMODE_BLOCK] = "block", [PMODE_STREAM] = "stream",
	[PMODE_VECTORED] = "vectored",
};

int payload_flow_native(const struct scen_size *ss, const struct engine *e)
{
	return ss->mode != PMODE_BLOCK && e != NULL &&
	       e->compile_flow != NULL && e->match_flow != NULL;
}

const char *payload_mode_key(const struct scen_size *ss,
			     const struct engine *e)
{
	if (ss->mode == PMODE_BLOCK)
		return NULL;
	if (ss->mode == PMODE_STREAM && e != NULL && !payload_flow_native(ss, e))
		return "reassembled";
	return mode_names[ss->mode];
}

void payload_case_name(char *buf, size_t size, const struct scen_size *ss,
		       const struct engine *e)
{
	const char *mode = payload_mode_key(ss, e);
	size_t n;

	payload_name(buf, size, ss->sr->sc, ss->in->label, NULL);
	n = strlen(buf);
	if (mode != NULL && n < size)
		n += (size_t)snprintf(buf + n, size - n, "/mode=%s", mode);
	if (e != NULL && n < size)
		snprintf(buf + n, size - n, "/engine=%s", engine_bench_name(e));
}

const char *payload_unit(const struct scen_size *ss)
{
	return ss->mode == PMODE_BLOCK ? "packet" : "flow";
}

const struct engine_span *payload_flow_spans(const struct scen_size *ss,
					     size_t f, size_t *n)
{
	const size_t *flow = ss->parts->flow;

	*n = flow[f + 1] - flow[f];
	return ss->spans + flow[f];
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

/*
 * Each word of the comma-separated list v, in order, handed to one(cfg,
 * word, len, err, size).  0, or the first -1 one returns.
 */
static int each_word(const char *v, void *cfg,
		     int (*one)(void *cfg, const char *w, size_t len, char *err,
				size_t size),
		     char *err, size_t size)
{
	for (const char *p = v;;) {
		size_t len = strcspn(p, ",");
		if (one(cfg, p, len, err, size) != 0)
			return -1;
		p += len;
		if (*p++ == '\0')
			return 0;
	}
}

/* Index of w[0..len) among the n names of name(i), or n. */
static size_t word_index(const char *w, size_t len, size_t n,
			 const char *(*name)(size_t i))
{
	size_t i = 0;

	while (i < n && (strlen(name(i)) != len || strncmp(name(i), w, len) != 0))
		i++;
	return i;
}

static const char *scenario_name(size_t i)
{
	return scenarios[i].name;
}

static const char *mode_name(size_t i)
{
	return mode_names[i];
}

static int one_scenario(void *cfg, const char *w, size_t len, char *err,
			size_t size)
{
	size_t sc = word_index(w, len, NSCEN, scenario_name);
	char names[256];

	if (sc < NSCEN) {
		((struct payload_config *)cfg)->scen_mask |= 1u << sc;
		return 0;
	}
	scenario_names(names, sizeof(names));
	snprintf(err, size, "unknown scenario '%.*s' (%s)",
		 (int)(len > 40 ? 40 : len), w, names);
	return -1;
}

static int opt_scenarios(void *cfg, const char *v, char *err, size_t size)
{
	((struct payload_config *)cfg)->scen_mask = 0;
	return each_word(v, cfg, one_scenario, err, size);
}

static int one_mode(void *cfg, const char *w, size_t len, char *err,
		    size_t size)
{
	struct payload_config *c = cfg;
	size_t m = word_index(w, len, PMODE_COUNT, mode_name);

	if (m == PMODE_COUNT) {
		snprintf(err, size, "unknown mode '%.*s' (block, stream, "
			 "vectored, separated by commas)",
			 (int)(len > 40 ? 40 : len), w);
		return -1;
	}
	for (size_t k = 0; k < c->nmode; k++)
		if (c->modes[k] == (enum payload_mode)m) {
			snprintf(err, size, "mode '%s' given twice", mode_names[m]);
			return -1;
		}
	c->modes[c->nmode++] = (enum payload_mode)m;
	return 0;
}

/* "block", "stream,vectored", ...: each once. */
static int opt_mode(void *cfg, const char *v, char *err, size_t size)
{
	((struct payload_config *)cfg)->nmode = 0;
	return each_word(v, cfg, one_mode, err, size);
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

static int opt_modsec(void *cfg, const char *v, char *err, size_t size)
{
	if (strcmp(v, "3") != 0 && strcmp(v, "2") != 0) {
		snprintf(err, size, "use 3 (libmodsecurity3) or 2 (mod_security2)");
		return -1;
	}
	((struct payload_config *)cfg)->modsec =
		v[0] == '3' ? MODSEC_V3 : MODSEC_V2;
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

/* "0,1" or "0-3": the CPUs of the mask, for messages. */
static void cpu_names(const struct payload_config *c, char *buf, size_t size)
{
	if (c->ncpu > 0 && (size_t)(c->cpu[c->ncpu - 1] - c->cpu[0]) + 1 ==
				   c->ncpu)
		snprintf(buf, size, "%d-%d", c->cpu[0], c->cpu[c->ncpu - 1]);
	else
		snprintf(buf, size, "%d, ...", c->ncpu ? c->cpu[0] : -1);
}

/* Keep count n (> 1) once, the list ascending. */
static void thread_count_add(struct payload_config *c, size_t n)
{
	size_t i = 0;

	while (i < c->nthreads && c->threads[i] < n)
		i++;
	if (n < 2 || (i < c->nthreads && c->threads[i] == n))
		return;
	memmove(&c->threads[i + 1], &c->threads[i],
		(c->nthreads - i) * sizeof(c->threads[0]));
	c->threads[i] = n;
	c->nthreads++;
}

/*
 * "2", "1,2,4" or "all" (a thread per CPU of the affinity mask).  A
 * count beyond the mask is refused: a thread is pinned to a CPU of its
 * own, so more cannot be measured; the row's threads-line-computed
 * says how many line rate would take beyond.
 */
static int opt_threads(void *cfg, const char *v, char *err, size_t size)
{
	struct payload_config *c = cfg;
	size_t n[MAX_THREAD_COUNTS], k = 0;
	int ncpu = bench_cpus(c->cpu, BENCH_MAX_THREADS);
	char why[128], cpus[64];

	if (ncpu < 1) {
		snprintf(err, size, "cannot read this process's CPU affinity");
		return -1;
	}
	c->ncpu = (size_t)ncpu;
	c->nthreads = 0;
	if (strcmp(v, "all") == 0 && c->ncpu < 2) {
		snprintf(err, size, "this process may run on one CPU only: "
			 "nothing to run on threads (see taskset, --cpu)");
		return -1;
	} else if (strcmp(v, "all") == 0) {
		n[k++] = c->ncpu;
	} else if (parse_size_list(v, 1, BENCH_MAX_THREADS, n,
				   MAX_THREAD_COUNTS, &k, why,
				   sizeof(why)) != 0) {
		snprintf(err, size, "%s (thread counts: 2, or 1,2,4, or all)",
			 why);
		return -1;
	}
	cpu_names(c, cpus, sizeof(cpus));
	for (size_t i = 0; i < k; i++) {
		if (n[i] > c->ncpu) {
			snprintf(err, size, "%zu threads, but this process may "
				 "run on %zu CPUs (%s): each thread is pinned "
				 "to a CPU of its own, so at most %zu are "
				 "measured (threads-line-computed gives the "
				 "count line rate needs beyond)", n[i], c->ncpu,
				 cpus, c->ncpu);
			return -1;
		}
		thread_count_add(c, n[i]);
	}
	return 0;
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
	{"modsec", "V", "the ModSecurity whose reading SecRules follow:\n"
	 "3 (libmodsecurity3, default) or 2 (mod_security2)", OPT_CALL, 0, 0,
	 0, opt_modsec},
	{"per-rule", NULL, "each rule alone too (scenario per-rule)",
	 OPT_FLAG, PAYLOAD_OPT(per_rule), 0, 0, NULL},
	{"pcap", "FILE", "TCP/UDP payloads of a capture instead", OPT_TEXT,
	 PAYLOAD_OPT(pcap), 0, 0, NULL},
	{"scenarios", "a,b", scenarios_help, OPT_CALL, 0, 0, 0, opt_scenarios},
	{"mode", "M,...", "block (default: per packet), stream (per flow,\n"
	 "state kept across packets; reassembled where the\n"
	 "engine has no stream API), vectored (a flow's\n"
	 "packets in one call)", OPT_CALL, 0, 0, 0, opt_mode},
	{"threads", "N,...|all", "also on N pinned threads, each over its\n"
	 "share of the packets (all: one per CPU)", OPT_CALL, 0, 0, 0,
	 opt_threads},
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

/* Is a flow mode (stream, vectored) among --mode's? */
static int flow_modes(const struct payload_run *r)
{
	for (size_t m = 0; m < r->nmode; m++)
		if (r->modes[m] != PMODE_BLOCK)
			return 1;
	return 0;
}

/* pk's packets as spans (what match_flow takes).  NULL out of memory. */
static struct engine_span *spans_of(const struct packets *pk)
{
	struct engine_span *s = malloc((pk->n ? pk->n : 1) * sizeof(*s));

	for (size_t i = 0; s != NULL && i < pk->n; i++)
		s[i] = (struct engine_span){pk->pkt[i].p, pk->pkt[i].len};
	return s;
}

/* The flows view and spans of pk.  0, or -1 out of memory. */
static int flows_of(const struct packets *pk, struct packets *view,
		    struct engine_span **spans)
{
	if (packets_flow_view(pk, view) != 0)
		return -1;
	*spans = spans_of(pk);
	return *spans != NULL ? 0 : -1;
}

/* --pcap in a flow mode: the capture grouped into flows.  0, or -1. */
static int inputs_pcap_flows(struct payload_run *r)
{
	char err[512];

	if (pcap_load_flows(&r->pcap_flows, r->cfg->pcap, err,
			    sizeof(err)) != 0) {
		fprintf(stderr, "rxbench: %s\n", err);
		return -1;
	}
	if (flows_of(&r->pcap_flows, &r->pcap_view, &r->pcap_spans) == 0)
		return 0;
	fprintf(stderr, "rxbench: payload: out of memory grouping %s into "
		"flows\n", r->cfg->pcap);
	return -1;
}

/* --pcap: one row, every scenario on the capture's payloads. */
static int inputs_pcap(struct payload_run *r)
{
	char err[512];
	struct size_in *in = &r->in[0];

	if (pcap_load_payloads(&r->pcap, r->cfg->pcap, err, sizeof(err)) != 0) {
		fprintf(stderr, "rxbench: %s\n", err);
		return -1;
	}
	if (case_inputs_file(&r->pcap_in, "pcap", r->cfg->pcap, err,
			     sizeof(err)) != 0) {
		fprintf(stderr, "rxbench: %s\n", err);
		return -1;
	}
	snprintf(in->label, sizeof(in->label), "pcap");
	in->linerate = packets_linerate_mpps(r->cfg->link_gbps, r->pcap.wire_bytes);
	r->from_pcap = 1;
	r->nin = 1;
	return flow_modes(r) ? inputs_pcap_flows(r) : 0;
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
		for (int k = 0; k < PACKETS_KIND_COUNT && flow_modes(r); k++) {
			if (in->gen[k].flow == NULL ||
			    flows_of(&in->gen[k], &in->flows[k],
				     &in->spans[k]) == 0)
				continue;
			fprintf(stderr, "rxbench: payload: out of memory "
				"making %zu-byte flows\n", in->size);
			return -1;
		}
	}
	return 0;
}

/* What ss reads in its mode: packets, or flows and their packets. */
static void scen_size_inputs(struct payload_run *r, struct scen_size *ss,
			     size_t j)
{
	enum packets_kind k = ss->sr->sc->plant;

	ss->per_op = 1;
	if (ss->mode == PMODE_BLOCK) {
		ss->pk = r->from_pcap ? &r->pcap : &r->in[j].gen[k];
		return;
	}
	ss->pk = r->from_pcap ? &r->pcap_view : &r->in[j].flows[k];
	ss->parts = r->from_pcap ? &r->pcap_flows : &r->in[j].gen[k];
	ss->spans = r->from_pcap ? r->pcap_spans : r->in[j].spans[k];
	if (ss->pk->n > 0)
		ss->per_op = (double)ss->parts->n / (double)ss->pk->n;
}

/* The selected scenarios, and each at each size.  0, or -1 (memory). */
static int inputs_scenarios(struct payload_run *r)
{
	r->sr = calloc(NSCEN, sizeof(*r->sr));
	r->ss = calloc(NSCEN * r->nin * r->nmode + 1, sizeof(*r->ss));
	if (r->sr == NULL || r->ss == NULL)
		return -1;
	for (size_t i = 0; i < NSCEN; i++)
		if (wanted(r, i))
			r->sr[r->nsr++].sc = &scenarios[i];
	for (size_t i = 0; i < r->nsr; i++)
		for (size_t j = 0; j < r->nin; j++)
			for (size_t m = 0; m < r->nmode; m++) {
				struct scen_size *ss =
					&r->ss[(i * r->nin + j) * r->nmode + m];
				ss->run = r;
				ss->sr = &r->sr[i];
				ss->in = &r->in[j];
				ss->mode = r->modes[m];
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

/*
 * n ops of is_match on handle h over packets [lo, hi), cycling, from
 * *next (left at the packet after the last); matches added to *sink.
 * The one-thread op (the whole set) and each thread's (its share).
 */
static inline int single_loop(const struct engine *e, void *h,
			      const struct packet *pkt, size_t lo, size_t hi,
			      size_t *next, uint64_t n, uint64_t *sink)
{
	size_t i = *next;
	uint64_t hits = 0;

	while (n > 0) {
		size_t end = i + (n < hi - i ? (size_t)n : hi - i);
		n -= end - i;
		for (; i < end; i++) {
			int rc = e->is_match(h, pkt[i].p, pkt[i].len);
			if (rc < 0)
				return rc;
			hits += (uint64_t)rc;
		}
		i = i == hi ? lo : i;
	}
	*next = i;
	*sink += hits;
	return 0;
}

/* run_single in a flow mode on an engine with match_flow: an op a flow. */
static int run_flow_single(void *arg, uint64_t n)
{
	struct pcase *c = arg;
	const struct scen_size *ss = c->ss;
	const struct engine *e = c->e;
	size_t i = c->next, nf = ss->pk->n;
	uint64_t hits = 0;

	while (n > 0) {
		size_t end = i + (n < nf - i ? (size_t)n : nf - i);
		n -= end - i;
		for (; i < end; i++) {
			size_t np;
			const struct engine_span *sp = payload_flow_spans(ss, i, &np);
			long rc = e->match_flow(c->h, sp, np, NULL);
			if (rc < 0)
				return (int)rc;
			hits += (uint64_t)rc;
		}
		i = i == nf ? 0 : i;
	}
	c->next = i;
	c->sink += hits;
	return 0;
}

static int run_single(void *arg, uint64_t n)
{
	struct pcase *c = arg;

	return single_loop(c->e, c->h, c->ss->pk->pkt, 0, c->ss->pk->n,
			   &c->next, n, &c->sink);
}

/*
 * Mpps, Gbps, % of line rate and cores for line rate from ns/packet, and
 * the line rate itself (line-Mpps: what the link carries at this size),
 * so a report needs no division to draw it.
 */
static void payload_derive(void *arg, double ns, struct result *r)
{
	const struct pcase *c = arg;
	double per_op = c->ss->per_op > 0 ? c->ss->per_op : 1;
	double mpps = per_op * 1e3 / ns, lr = c->ss->in->linerate;

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

struct runner_bytes *payload_runner_inputs(const struct packets *pk)
{
	struct runner_bytes *in = calloc(pk->n ? pk->n : 1, sizeof(*in));

	for (size_t i = 0; in != NULL && i < pk->n; i++)
		in[i] = (struct runner_bytes){pk->pkt[i].p, pk->pkt[i].len};
	return in;
}

int payload_runner_fill(struct pcase *pc, enum runner_op op,
			void *const *sets, size_t nsets, struct bench *b)
{
	const struct packets *pk = pc->ss->pk;
	struct runner_bytes *in = payload_runner_inputs(pk);
	struct runner_work w = {op, 1, sets, nsets, NULL, 0, in, pk->n,
				RUNNER_REWRITE_NONE};
	int rc;

	if (in == NULL)
		return -1;
	rc = case_runner_bench(b, sets[0], &w);
	free(in);
	return rc;
}

/* ---- memory ---- */

#define FLOWS_CONCURRENT 10000 /* B/10k-flows: what an IDS keeps open */

void payload_mem_fill(const struct engine *e, void *const *h, size_t n,
		      struct bench *b)
{
	struct engine_mem sum = {0, 0, 0};

	for (size_t k = 0; k < n; k++) {
		struct engine_mem m = {0, 0, 0};
		if (e->mem != NULL)
			e->mem(h[k], &m);
		else if (e->size != NULL)
			m.db = e->size(h[k]);
		sum.db += m.db;
		sum.scratch += m.scratch;
		sum.stream += m.stream;
	}
	if (sum.db > 0 && b->nextra < BENCH_MAX_EXTRA)
		b->extra[b->nextra++] = (struct bench_metric){
			"B/db", BETTER_LOWER, (double)sum.db};
	if (sum.scratch > 0 && b->nextra < BENCH_MAX_EXTRA)
		b->extra[b->nextra++] = (struct bench_metric){
			"B/scratch", BETTER_LOWER, (double)sum.scratch};
	if (sum.stream == 0 || b->nextra + 2 > BENCH_MAX_EXTRA)
		return;
	b->extra[b->nextra++] = (struct bench_metric){
		"B/stream", BETTER_LOWER, (double)sum.stream};
	b->extra[b->nextra++] = (struct bench_metric){
		"B/10k-flows", BETTER_LOWER,
		(double)sum.stream * FLOWS_CONCURRENT + (double)sum.db};
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
		payload_case_name(name, sizeof(name), ss, NULL);
		suite_fail(ctx, PAYLOAD_SUITE, name, RESULT_ERROR,
			   "generator: %s %zu planted %u but the reference "
			   "says %d", ss->mode == PMODE_BLOCK ? "packet" : "flow",
			   i, pk->mark[i], ref);
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
	const struct scen_size *ss = arg;
	const struct scenario *sc = ss->sr->sc;
	struct engine_pattern p = {sc->re, strlen(sc->re)};
	struct engine_error err = {0, -1, -1, ""};
	char at[32] = "";
	int rc;

	if (ss->mode == PMODE_VECTORED && !payload_flow_native(ss, c->e)) {
		snprintf(why, size, "%s has no vectored scan (its flows are "
			 "scanned reassembled under --mode=stream)", c->e->name);
		return ENGINE_ERR_UNSUPPORTED;
	}
	rc = payload_flow_native(ss, c->e)
		? c->e->compile_flow((enum engine_flow)ss->mode, &p, 1,
				     sc->flags, h, &err)
		: c->e->compile(&p, 1, sc->flags, h, &err);

	if (rc == 0)
		return 0;
	if (err.offset >= 0)
		snprintf(at, sizeof(at), " (offset %ld)", err.offset);
	snprintf(why, size, "%s%s", err.msg, at);
	return rc == ENGINE_ERR_UNSUPPORTED ? rc : ENGINE_ERR_COMPILE;
}

/* A runner's answer: every packet in one request (engines/runner.h). */
static int single_runner_answer(struct scen_size *ss,
				const struct case_item *c, unsigned char *hit)
{
	struct runner_bytes *in = payload_runner_inputs(ss->pk);
	int rc = in == NULL ? ENGINE_ERR_NOMEM
			    : runner_is_match_each(c->h, in, ss->pk->n, hit);

	free(in);
	return rc;
}

static int single_answer(void *arg, const struct case_item *c, void *out)
{
	struct scen_size *ss = arg;
	const struct pcase *pc = c->arg;
	unsigned char *hit = out;

	int native = payload_flow_native(ss, c->e);

	if (c->e->kind == ENGINE_RUNNER) {
		ss->at[pc->ei] = 0; /* the request is all of them */
		return single_runner_answer(ss, c, hit);
	}
	for (size_t i = 0; i < ss->pk->n; i++) {
		long rc;
		ss->at[pc->ei] = i;
		if (native) {
			size_t n;
			const struct engine_span *sp = payload_flow_spans(ss, i, &n);
			rc = c->e->match_flow(c->h, sp, n, NULL);
		} else {
			rc = c->e->is_match(c->h, ss->pk->pkt[i].p,
					    ss->pk->pkt[i].len);
		}
		if (rc < 0)
			return (int)rc;
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
	snprintf(by, size, "reference (%s) per %s%s", sc->ref_name,
		 ss->mode == PMODE_BLOCK ? "packet" : "reassembled flow",
		 ss->pk->mark ? ", = planted" : "");
	return CASE_REF_OK;
}

static void single_describe(void *arg, const struct case_item *c,
			    const void *answer, char *buf, size_t size)
{
	(void)c;
	const struct scen_size *ss = arg;

	snprintf(buf, size, "%zu matching %ss", single_hits(ss, answer),
		 payload_unit(ss));
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
	snprintf(buf, size, "%zu %ss differ, first: %s %zu (is_match "
		 "%d, reference %d) \"%s\"", differ, payload_unit(arg),
		 payload_unit(arg), first, g[first], w[first], text);
}

static int single_bench(void *arg, struct case_item *c, const void *answer,
			struct bench *b)
{
	struct pcase *pc = c->arg;
	struct pthreads *pt = b->arg; /* NULL: the one-thread benchmark */

	pc->h = c->h;
	payload_bench_fill(pc, single_hits(arg, answer), b);
	if (payload_flow_native(arg, c->e))
		b->run = run_flow_single;
	payload_mem_fill(c->e, &c->h, 1, b);
	if (pt != NULL)
		return payload_threads_fill(pt, c, answer, b);
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
	snprintf(buf, size, "on %s %zu \"%s\"", payload_unit(ss), i, text);
}

/* ---- the single-pattern scenarios on threads ---- */

static int single_thread_begin(struct pslot *s)
{
	s->st = s->pc->e->thread_new(s->pc->h);
	return s->st != NULL ? 0 : ENGINE_ERR_NOMEM;
}

static void single_thread_end(struct pslot *s)
{
	if (s->st != NULL)
		s->pc->e->thread_free(s->st);
	s->st = NULL;
}

static int single_thread_run(struct pslot *s, uint64_t n)
{
	return single_loop(s->pc->e, s->st, s->pc->ss->pk->pkt, s->lo, s->hi,
			   &s->next, n, &s->sink);
}

/* Matching packets of the slot's share, on its own state. */
static int single_thread_check(struct pslot *s, uint64_t *got)
{
	size_t at = s->lo;

	*got = 0;
	return single_loop(s->pc->e, s->st, s->pc->ss->pk->pkt, s->lo, s->hi,
			   &at, s->hi - s->lo, got);
}

static uint64_t single_thread_want(const struct scen_size *ss,
				   const struct case_item *c,
				   const void *answer, size_t lo, size_t hi)
{
	const unsigned char *hit = answer;
	uint64_t n = 0;

	(void)ss;
	(void)c;
	for (size_t i = lo; i < hi; i++)
		n += hit[i];
	return n;
}

static const struct payload_thread_ops single_threads = {
	.begin = single_thread_begin,
	.end = single_thread_end,
	.run = single_thread_run,
	.check = single_thread_check,
	.want = single_thread_want,
	.answer = "matching packets",
};

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
	pr->rs.modsec = cfg->modsec;
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

/*
 * Does the --bench filter select any case of ss, on one thread or (with
 * --threads) on several?  Under --list, each name selected is listed.
 */
static int any_wanted(const struct scen_size *ss, struct suite_ctx *ctx)
{
	size_t nt = ss->sr->sc->threads && ss->mode == PMODE_BLOCK
			? ss->run->nthreads : 0; /* flows: one thread */
	char name[256], threaded[300];
	int any = 0;

	for (size_t i = 0; i < ss->run->neng; i++) {
		payload_case_name(name, sizeof(name), ss, ss->run->engines[i]);
		any |= suite_wants(ctx, name);
		for (size_t k = 0; k < nt; k++) {
			snprintf(threaded, sizeof(threaded), "%s/threads=%zu",
				 name, ss->run->threads[k]);
			any |= suite_wants(ctx, threaded);
		}
	}
	return any;
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

/*
 * What real-life's rules are, whatever their source (the built-in set, a
 * file, a directory): how many rules and conditions were loaded and
 * skipped, and the sha256 of the conditions as compiled (each one's bytes,
 * flags and negation), so two runs on other rules never pair.
 */
static int rules_inputs(const struct ruleset *rs, struct result_inputs *in)
{
	size_t len = 0, at = 0;
	unsigned char *buf;
	char hex[DIGEST_HEX_SIZE];
	int rc;

	for (size_t i = 0; i < rs->np; i++)
		len += rs->p[i].len + 2 + sizeof(unsigned);
	buf = malloc(len + 1);
	if (buf == NULL)
		return -1;
	for (size_t i = 0; i < rs->np; i++) {
		const struct rule_pattern *p = &rs->p[i];
		memcpy(buf + at, p->re, p->len);
		at += p->len;
		buf[at++] = '\0';
		buf[at++] = (unsigned char)p->negated;
		memcpy(buf + at, &p->flags, sizeof(p->flags));
		at += sizeof(p->flags);
	}
	rc = input_f(in, "rules-loaded", "%zu", rs->n) |
	     input_f(in, "rule-conditions", "%zu", rs->np) |
	     input_f(in, "rules-skipped", "%zu", rs->skipped);
	if (digest_sha256_hex(buf, at, hex) == 0)
		rc |= result_inputs_add(in, "rules-sha256", hex, strlen(hex));
	free(buf);
	return rc ? -1 : 0;
}

/*
 * What every benchmark of ss reads: link, packets, pattern and its
 * compile flags (the enum engine_flag bits), the capture, the rules.
 */
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
		rc |= result_inputs_add(in, "pattern", sc->re, strlen(sc->re)) |
		      input_f(in, "engine-flags", "0x%x", sc->flags);
	if (ss->mode != PMODE_BLOCK && ss->pk != NULL)
		rc |= input_f(in, "flows", "%zu", ss->pk->n);
	if (sc->ops == &payload_rules_ops && ss->sr->data != NULL)
		rc |= rules_inputs(&((const struct reallife *)ss->sr->data)->pr.rs,
				   in);
	if (cfg == NULL) /* a run made by hand (tests): no options */
		return rc ? -1 : 0;
	if (cfg->pcap != NULL)
		rc |= result_inputs_merge(in, &ss->run->pcap_in);
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
	if (sc->rules && ss->sr->data != NULL &&
	    ((struct reallife *)ss->sr->data)->pr.variables)
		rc |= input_f(in, "modsec", "%d", (int)cfg->modsec);
	return rc ? -1 : 0;
}

/* A floor: one benchmark with no answer to verify.  0, or -1. */
static int plan_floor(struct scen_size *ss, struct suite_ctx *ctx)
{
	struct bench b = {0};
	char name[256];

	payload_name(name, sizeof(name), ss->sr->sc, ss->in->label, NULL);
	if (ss->mode != ss->run->modes[0] || !suite_wants(ctx, name))
		return 0; /* a floor is the same in every mode: timed once */
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

int payload_cases_begin(struct scen_size *ss, size_t n, size_t nt)
{
	ss->pt = calloc(n * nt + 1, sizeof(*ss->pt));
	ss->npt = n * nt;
	ss->pc = calloc(n ? n : 1, sizeof(*ss->pc));
	ss->at = mmap(NULL, (n ? n : 1) * sizeof(size_t),
		      PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (ss->at == MAP_FAILED)
		ss->at = NULL;
	if (ss->pc == NULL || ss->at == NULL || ss->pt == NULL)
		return -1;
	ss->npc = n;
	case_table_init(&ss->t, PAYLOAD_SUITE, &ss->ops, ss);
	ss->tabled = 1;
	return payload_inputs(ss, &ss->t.in);
}

/*
 * The cases of ss: one per engine, one group, and with --threads a
 * benchmark per thread count on each (block mode only: a flow mode runs
 * on one thread).  0, or -1 (memory).
 */
static int cases_add(struct scen_size *ss, struct suite_ctx *ctx)
{
	const struct scenario *sc = ss->sr->sc;
	size_t n = ss->run->neng;
	size_t nt = sc->threads && ss->mode == PMODE_BLOCK ? ss->run->nthreads
							 : 0; /* flows: one thread */

	if (payload_cases_begin(ss, n, nt) != 0)
		return -1;
	for (size_t i = 0; i < n; i++) {
		const struct engine *e = ss->run->engines[i];
		char name[256], label[160];
		const char *mode = payload_mode_key(ss, e);
		ss->pc[i] = (struct pcase){.ss = ss, .e = e, .ei = i};
		payload_case_name(name, sizeof(name), ss, e);
		snprintf(label, sizeof(label), sc->re ? "%s: /%s/, size %s%s%s"
						      : "%s: %s, size %s%s%s",
			 e->name, sc->re ? sc->re : sc->name, ss->in->label,
			 mode ? ", " : "", mode ? mode : "");
		if (case_add(&ss->t, name, label, e, 0, NULL, 0, 0,
			     &ss->pc[i]) != 0)
			return -1;
		if (nt > 0 && payload_threads_add(ss, ctx, &ss->pc[i],
						  &ss->pt[i * nt]) != 0)
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
	if ((sc->cases != NULL ? sc->cases(ss, ctx) : cases_add(ss, ctx)) != 0)
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
	for (size_t i = 0; i < ss->npt; i++)
		payload_threads_release(&ss->pt[i]);
	free(ss->pt);
	ss->pt = NULL;
	ss->npt = 0;
	free(ss->pc);
	ss->tabled = 0;
	ss->at = NULL;
	ss->pc = NULL;
	ss->npc = 0;
}

/*
 * --threads against the CPUs the run may use now (--cpu pins it after
 * the options were read).  0, or -1 after a message.
 */
static int threads_check(struct payload_run *r)
{
	int n = bench_cpus(r->cpus, BENCH_MAX_THREADS);

	r->cpu = r->cpus;
	if (r->nthreads == 0 || (n > 0 && r->threads[r->nthreads - 1] <=
						  (size_t)n))
		return 0;
	fprintf(stderr, "rxbench: payload: --threads=%zu: the run may use %d "
		"CPU%s (--cpu pins it to one): a thread needs a CPU of its "
		"own\n", r->threads[r->nthreads - 1], n, n == 1 ? "" : "s");
	return -1;
}

/* The run's state from the options and ctx's engines.  0, or -1. */
static int run_build(struct payload_run *r, struct suite_ctx *ctx)
{
	char link[64];

	r->engines = ctx->engines;
	r->neng = ctx->nengines;
	r->link_gbps = r->cfg->link_gbps;
	r->nmode = r->cfg->nmode;
	memcpy(r->modes, r->cfg->modes, sizeof(r->modes));
	if (r->nmode == 0)
		r->modes[r->nmode++] = PMODE_BLOCK;
	r->threads = r->cfg->threads;
	r->nthreads = r->cfg->nthreads;
	if (threads_check(r) != 0)
		return -1;
	snprintf(link, sizeof(link), "%g Gbps (--link)", r->link_gbps);
	results_meta_set(ctx->results, "payload-link", link);
	if (inputs_sizes(r) != 0 || inputs_scenarios(r) != 0)
		return -1;
	for (size_t i = 0; i < r->nsr; i++)
		if (r->sr[i].sc->setup != NULL &&
		    r->sr[i].sc->setup(r, &r->sr[i], ctx) != 0)
			return -1;
	if (inputs_generate(r) != 0)
		return -1;
	for (size_t i = 0; i < r->nsr * r->nin * r->nmode; i++)
		scen_size_inputs(r, &r->ss[i], (size_t)(r->ss[i].in - r->in));
	return 0;
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
	for (size_t i = 0; i < r->nsr * r->nin * r->nmode && !interrupt_signal();
	     i++)
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

	for (size_t i = 0; r->ss != NULL && i < r->nsr * r->nin * r->nmode; i++)
		payload_size_release(&r->ss[i]);
	for (size_t i = 0; i < r->nsr; i++)
		if (r->sr[i].sc->teardown != NULL)
			r->sr[i].sc->teardown(&r->sr[i]);
	for (size_t i = 0; i < r->nin; i++)
		for (size_t k = 0; k < PACKETS_KIND_COUNT; k++) {
			packets_release(&r->in[i].flows[k]);
			free(r->in[i].spans[k]);
			packets_release(&r->in[i].gen[k]);
		}
	packets_release(&r->pcap_view);
	free(r->pcap_spans);
	packets_release(&r->pcap_flows);
	packets_release(&r->pcap);
	result_inputs_release(&r->pcap_in);
	free(r->sr);
	free(r->ss);
	free(r);
}

/*
 * The report's verdict and tables (report/layout_decl.h): per engine,
 * Mpps per core by packet size and scenario beside the line rate, and
 * the cores that line rate needs.  base uses no engine: it is in every
 * engine's table.  Rows on threads (--threads) have their own table:
 * their units (agg-Mpps, ...) are not the one-core tables' and verdict's.
 */
static const char *const payload_layout[] = {
	"verdict by=scenario,size,mode? who=engine metric=Mpps line=line-Mpps "
	"complete=rules about=payload-link question='Which engine keeps up "
	"with the link, per packet size and scenario, and how many cores "
	"does line rate take?'",
	"table title='Mpps per core' split=engine,mode? shared=engine "
	"rows=size:desc cols=scenario metrics=Mpps lead=linerate:line-Mpps "
	"keyunit=bytes",
	"table title='cores to reach line rate' split=engine,mode? "
	"shared=engine rows=size:desc cols=scenario "
	"metrics=cores:line-Mpps/Mpps keyunit=bytes",
	"table title='compiled size, bytes (B/db)' split=mode? rows=scenario "
	"cols=engine metrics=B/db",
	"table title='10,000 concurrent flows, bytes (B/stream x 10,000 + "
	"B/db)' split=mode? rows=scenario cols=engine metrics=B/10k-flows",
	"growth size=size keyunit=bytes",
	"costliest title='the ten costliest rules' split=bytes,engine rows=rule "
	"metrics=ns/op,%packets flag=%packets:50 cost=scenario:real-life "
	"as=bytes:size top=10",
	"table title='on N pinned threads (--threads): all threads, each "
	"thread, and the scaling against thread 0 alone (efficiency = "
	"agg-Mpps / (N x 1thread-Mpps))' split=engine,threads "
	"rows=scenario,size:desc metrics=agg-Mpps,agg-Gbps,thread-Mpps,"
	"thread-Mpps-min,thread-Mpps-max,1thread-Mpps,efficiency,threads-line,"
	"threads-line-computed",
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

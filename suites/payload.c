/*
 * payload.c - the payload suite's core: regex matching on packet
 * payloads, per packet size, in packets per second per core and against
 * line rate (the XDP + Hyperscan measurements of seed 003, in process,
 * across engines).
 *
 * What it measures is the scenario table (payload_scenarios[],
 * suites/payload_scenarios.c), one struct scenario per scenario in a file
 * of its own: the packets it reads, its pattern or rules, how its answers
 * are verified, its op, its help.  This file loops over the table and
 * reaches a scenario only through that struct: names, options, inputs
 * and flow reassembly, memory metrics, planning, the suite struct and
 * its layout.  One op is one packet; the op cycles through the packets
 * of the size (suites/cycle.h), 4 MiB of them by default so they do not
 * sit in L1/L2.  With --pcap every scenario reads the capture's payloads
 * instead.
 *
 * Verification before timing is the one pipeline's (suites/case.h): per
 * scenario and size a case per engine (or the scenario's own cases), its
 * answer computed in a forked child with --timeout and compared with the
 * expected answer; a difference is a MISMATCH row and no time.
 *
 * The options are a declared table (payload_options) that fills a struct
 * payload_config; what a run builds from them is a struct payload_run
 * (payload.h), which prepare() returns and cleanup() takes.
 *
 * --threads adds to each case a benchmark per thread count, its op on
 * that many pinned threads (payload_threads.h); the scenarios that can
 * say how in their payload_thread_ops.
 */
#define _GNU_SOURCE
#include "suites/payload.h"
#include "suites/payload_threads.h"

#include "corpora/pcap.h"
#include "harness/interrupt.h"
#include "harness/parse.h"

#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#define MAX_SIZES PAYLOAD_MAX_SIZES
#define MAX_RULE_FILES PAYLOAD_MAX_RULE_FILES
#define MAX_THREAD_COUNTS PAYLOAD_MAX_THREAD_COUNTS
#define NSCEN payload_nscenarios
#define DEFAULT_BENCHTIME_NS 0.1e9

static const size_t default_sizes[] = {64, 128, 256, 512, 1000, 1500};

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
		if (strcmp(payload_scenarios[i]->name, name) == 0)
			return payload_scenarios[i];
	return NULL;
}

/* "base, literal, ..." */
static void scenario_names(char *buf, size_t size)
{
	size_t o = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < NSCEN && o < size; i++) {
		int n = snprintf(buf + o, size - o, "%s%s", i ? ", " : "",
				 payload_scenarios[i]->name);
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
	return payload_scenarios[i]->name;
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
				 "\n  %-11s%c %s", payload_scenarios[i]->name,
				 payload_scenarios[i]->in_default ? '*' : ' ',
				 payload_scenarios[i]->help);
		o += n > 0 ? (size_t)n : 0;
	}
}

/* Is row i selected (--scenarios, else the defaults)? */
static int wanted(const struct payload_run *r, size_t i)
{
	unsigned mask = r->cfg->scen_mask;

	for (size_t k = 0; k < NSCEN; k++) {
		const struct scenario *sc = payload_scenarios[k];
		if (r->cfg->scen_mask == 0)
			mask |= (unsigned)(sc->in_default != 0) << k;
		if (r->cfg->per_rule)
			mask |= (unsigned)(sc->per_rule != 0) << k;
	}
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
		if (wanted(r, i) && payload_scenarios[i]->plant == k)
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

/*
 * What ss reads in its mode: packets, or flows and their packets; and
 * what an op stands for on the wire, per_op packets of bytes_per_op
 * payload bytes.  A flow's are all its captured packets: those the
 * reassembly dropped (a retransmission) or cut (an overlap) too, which
 * the link carried as block mode counts them, so each mode's Mpps,
 * Gbps and %linerate count the same packets at the same line rate.
 */
static void scen_size_inputs(struct payload_run *r, struct scen_size *ss,
			     size_t j)
{
	enum packets_kind k = ss->sr->sc->plant;
	const struct packets *wire;

	ss->per_op = 1;
	if (ss->mode == PMODE_BLOCK) {
		ss->pk = r->from_pcap ? &r->pcap : &r->in[j].gen[k];
		ss->bytes_per_op = ss->pk->payload_bytes;
		return;
	}
	ss->pk = r->from_pcap ? &r->pcap_view : &r->in[j].flows[k];
	ss->parts = r->from_pcap ? &r->pcap_flows : &r->in[j].gen[k];
	ss->spans = r->from_pcap ? r->pcap_spans : r->in[j].spans[k];
	wire = r->from_pcap ? &r->pcap : ss->parts; /* every captured one */
	if (ss->pk->n > 0)
		ss->per_op = (double)wire->n / (double)ss->pk->n;
	ss->bytes_per_op = wire->payload_bytes * ss->per_op;
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
			r->sr[r->nsr++].sc = payload_scenarios[i];
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
			  c->ss->bytes_per_op * 8 / ns);
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

struct engine_span *payload_spans(const struct packets *pk)
{
	struct engine_span *in = calloc(pk->n ? pk->n : 1, sizeof(*in));

	for (size_t i = 0; in != NULL && i < pk->n; i++)
		in[i] = (struct engine_span){pk->pkt[i].p, pk->pkt[i].len};
	return in;
}

int payload_work_gate(const struct scen_size *ss, const struct engine *e,
		      char *why, size_t size)
{
	struct engine_span *in;
	int rc;

	if (!engine_self_timed(e))
		return 0;
	in = payload_spans(ss->pk);
	if (in == NULL)
		return ENGINE_ERR_NOMEM;
	rc = engine_work_refused(e, &(struct engine_work){ENGINE_OP_IS_MATCH,
				 1, NULL, 1, in, ss->pk->n, NULL, 0, 0},
				 why, size);
	free(in);
	return rc;
}

int payload_is_match_each(struct scen_size *ss, const struct case_item *c,
			  unsigned char *hit)
{
	const struct pcase *pc = c->arg;
	struct engine_span *in = payload_spans(ss->pk);
	long *v = malloc((ss->pk->n ? ss->pk->n : 1) * sizeof(*v));
	int rc = in == NULL || v == NULL ? ENGINE_ERR_NOMEM : 0;

	if (rc == 0)
		rc = engine_answers(c->e, c->h, ENGINE_OP_IS_MATCH, in,
				    ss->pk->n, 0, v, NULL, &ss->at[pc->ei]);
	for (size_t i = 0; rc == 0 && i < ss->pk->n; i++)
		hit[i] = (unsigned char)v[i];
	free(in);
	free(v);
	return rc;
}

size_t payload_hits(const struct scen_size *ss, const unsigned char *hit)
{
	size_t n = 0;

	for (size_t i = 0; i < ss->pk->n; i++)
		n += hit[i];
	return n;
}

int payload_work_fill(struct pcase *pc, const struct engine *e,
		      enum engine_op op, void *const *sets, size_t nsets,
		      struct bench *b)
{
	const struct packets *pk = pc->ss->pk;
	struct engine_span *in;
	int rc;

	if (nsets == 0)
		return 0; /* no set: no op an engine could time itself */
	in = payload_spans(pk);
	if (in == NULL)
		return -1;
	rc = case_bench_work(b, e, sets[0],
			     &(struct engine_work){op, 1, sets, nsets, in,
						   pk->n, NULL, 0, 0});
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

/*
 * What every benchmark of ss reads: link, packets, pattern and its
 * compile flags (the enum engine_flag bits), the capture, the rules.
 */
static int payload_inputs(const struct scen_size *ss, struct result_inputs *in)
{
	const struct payload_config *cfg = ss->run->cfg;
	const struct scenario *sc = ss->sr->sc;
	int rc = result_inputs_addf(in, "link-gbps", "%g", ss->run->link_gbps) |
		 result_inputs_addf(in, "packet-size", "%s", ss->in->label) |
		 result_inputs_addf(in, "packets", "%zu", ss->pk ? ss->pk->n : 0) |
		 result_inputs_addf(in, "payload-bytes-mean", "%.6g",
			 ss->pk ? ss->pk->payload_bytes : 0);

	if (sc->re != NULL)
		rc |= result_inputs_add(in, "pattern", sc->re, strlen(sc->re)) |
		      result_inputs_addf(in, "engine-flags", "0x%x", sc->flags);
	if (ss->mode != PMODE_BLOCK && ss->pk != NULL)
		rc |= result_inputs_addf(in, "flows", "%zu", ss->pk->n);
	if (sc->inputs != NULL)
		rc |= sc->inputs(ss, in, 0);
	if (cfg == NULL) /* a run made by hand (tests): no options */
		return rc ? -1 : 0;
	if (cfg->pcap != NULL)
		rc |= result_inputs_merge(in, &ss->run->pcap_in);
	else
		rc |= result_inputs_addf(in, "seed", "%llu",
			      (unsigned long long)cfg->seed) |
		      result_inputs_addf(in, "match-rate", "%g", cfg->match_rate);
	for (size_t i = 0; i < cfg->nrule_files; i++) {
		char key[32];
		snprintf(key, sizeof(key), "rules-file.%zu", i);
		rc |= result_inputs_addf(in, key, "%s", cfg->rule_files[i]);
	}
	if (sc->inputs != NULL)
		rc |= sc->inputs(ss, in, 1);
	return rc ? -1 : 0;
}

int payload_floor_plan(struct scen_size *ss, struct suite_ctx *ctx,
		       struct pcase *pc)
{
	struct bench b = {0};
	char name[256];

	payload_name(name, sizeof(name), ss->sr->sc, ss->in->label, NULL);
	if (ss->mode != ss->run->modes[0] || !suite_wants(ctx, name))
		return 0; /* a floor is the same in every mode: timed once */
	*pc = (struct pcase){.ss = ss};
	payload_bench_fill(pc, PAYLOAD_NO_MATCHES, &b);
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

/* A scenario of no ops: its floor alone.  0, or -1. */
static int plan_floor(struct scen_size *ss, struct suite_ctx *ctx)
{
	ss->pc = calloc(1, sizeof(*ss->pc));
	if (ss->pc == NULL)
		return -1;
	ss->npc = 1;
	return payload_floor_plan(ss, ctx, &ss->pc[0]);
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
 * Why engine e's case at ss is unsupported before anything compiles:
 * payload_work_gate() over ss's units, the packets or in a flow mode
 * the reassembled flows (what the engine's work reads), into why; 0
 * when it may run, or ENGINE_ERR_NOMEM.  An engine without a vectored
 * scan under --mode=vectored is left to its compile, which says that.
 */
static int case_gate(const struct scen_size *ss, const struct engine *e,
		     char *why, size_t size)
{
	if (ss->mode == PMODE_VECTORED && !payload_flow_native(ss, e))
		return 0;
	return payload_work_gate(ss, e, why, size);
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
		char name[256], label[160], why[256];
		const char *mode = payload_mode_key(ss, e);
		int gated = case_gate(ss, e, why, sizeof(why));

		if (gated == ENGINE_ERR_NOMEM)
			return -1;
		ss->pc[i] = (struct pcase){.ss = ss, .e = e, .ei = i};
		payload_case_name(name, sizeof(name), ss, e);
		snprintf(label, sizeof(label), sc->re ? "%s: /%s/, size %s%s%s"
						      : "%s: %s, size %s%s%s",
			 e->name, sc->re ? sc->re : sc->name, ss->in->label,
			 mode ? ", " : "", mode ? mode : "");
		if (case_add(&ss->t, name, label, e, 0, gated ? why : NULL, 0,
			     0, &ss->pc[i]) != 0)
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
	"complete=rules about=payload-link where=engine "
	"question='Which engine keeps up "
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

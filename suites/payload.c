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
 * The options stay in the file-level `st` (set_option writes them); what a
 * run builds from them is a struct payload_run (payload.h).
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
#include <sys/mman.h>

#define MAX_SIZES PAYLOAD_MAX_SIZES
#define MAX_RULE_FILES 16
#define DEFAULT_BENCHTIME_NS 0.3e9

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
static void touch_report(const struct scen_run *sr, const struct payload_run *r,
			 struct suite_ctx *ctx, FILE *out);

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
		.plant = PACKETS_HTTP,
		.ops = &payload_rules_ops, .run = payload_rules_run,
		.setup = reallife_setup, .table = payload_rules_table,
		.note = payload_rules_note,
		.report = payload_rules_report, .teardown = reallife_teardown,
	},
	{
		.name = "touch", .title = "touch", .in_default = 0,
		.help = "base as one sweep: base - touch is the per-packet loop",
		.plant = PACKETS_LITERAL, .run = run_touch, .report = touch_report,
	},
};

#define NSCEN (sizeof(scenarios) / sizeof(scenarios[0]))
_Static_assert(NSCEN <= 32, "--scenarios keeps a bit per scenario");

static const size_t default_sizes[] = {64, 128, 256, 512, 1000, 1500};

/* The options (set_option writes them); a run's state is payload_run. */
static struct {
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
} st = {.match_rate = 0.01, .link_gbps = 100, .seed = 1};

/*
 * The run between prepare() and cleanup(): the one file-level pointer to
 * it, which goes when prepare() returns the state and cleanup() and
 * report() take it (the suite interface's next step).
 */
static struct payload_run *the_run;

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
		snprintf(buf + n, size - (size_t)n, "/engine=%s", e->name);
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
	while (sc < NSCEN && strcmp(scenarios[sc].name, item) != 0)
		sc++;
	if (sc == NSCEN) {
		char names[256];
		scenario_names(names, sizeof(names));
		fprintf(stderr, "rxbench: --scenarios: unknown scenario '%s' "
			"(%s)\n", item, names);
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


/* Is row i selected (--scenarios, else the defaults)? */
static int wanted(size_t i)
{
	unsigned mask = st.scen_mask;

	if (mask == 0)
		for (size_t k = 0; k < NSCEN; k++)
			mask |= (unsigned)scenarios[k].in_default << k;
	return (mask >> i) & 1;
}

/* ---- inputs ---- */

/* --pcap: one row, every scenario on the capture's payloads. */
static int inputs_pcap(struct payload_run *r)
{
	char err[512];
	struct size_in *in = &r->in[0];

	if (pcap_load_payloads(&r->pcap, st.pcap, err, sizeof(err)) != 0) {
		fprintf(stderr, "rxbench: %s\n", err);
		return -1;
	}
	snprintf(in->label, sizeof(in->label), "pcap");
	in->linerate = packets_linerate_mpps(st.link_gbps, r->pcap.wire_bytes);
	r->from_pcap = 1;
	r->nin = 1;
	return 0;
}

/* The sizes (labels, line rates), or the capture.  0, or -1 after a
 * message. */
static int inputs_sizes(struct payload_run *r)
{
	if (st.pcap != NULL && st.nsizes > 0) {
		fprintf(stderr, "rxbench: --sizes and --pcap exclude each other "
			"(a capture has its own sizes)\n");
		return -1;
	}
	if (st.pcap != NULL)
		return inputs_pcap(r);
	if (st.nsizes == 0) {
		st.nsizes = sizeof(default_sizes) / sizeof(default_sizes[0]);
		memcpy(st.sizes, default_sizes, sizeof(default_sizes));
	}
	for (r->nin = 0; r->nin < st.nsizes; r->nin++) {
		struct size_in *in = &r->in[r->nin];
		in->size = st.sizes[r->nin];
		snprintf(in->label, sizeof(in->label), "%zu", in->size);
		in->linerate = packets_linerate_mpps(st.link_gbps,
						     (double)in->size);
	}
	return 0;
}

/* Does a selected scenario read generated packets of kind k? */
static int kind_wanted(enum packets_kind k)
{
	for (size_t i = 0; i < NSCEN; i++)
		if (wanted(i) && scenarios[i].plant == k)
			return 1;
	return 0;
}

/* Generate, at each size, the packets the selected scenarios read. */
static int inputs_generate(struct payload_run *r)
{
	for (size_t i = 0; i < r->nin && !r->from_pcap; i++) {
		struct size_in *in = &r->in[i];
		struct packets_spec spec = {in->size, st.count, st.match_rate,
					    st.seed};
		for (int k = 0; k < PACKETS_KIND_COUNT; k++) {
			if (!kind_wanted((enum packets_kind)k) ||
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
		if (wanted(i))
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

/* Mpps, Gbps, % of line rate and cores for line rate from ns/packet. */
static void payload_derive(void *arg, double ns, struct result *r)
{
	const struct pcase *c = arg;
	double mpps = 1e3 / ns, lr = c->ss->in->linerate;

	result_metric_add(r, "Mpps", BETTER_HIGHER, mpps);
	result_metric_add(r, "Gbps", BETTER_HIGHER,
			  c->ss->pk->payload_bytes * 8 / ns);
	result_metric_add(r, "%linerate", BETTER_HIGHER, 100 * mpps / lr);
	result_metric_add(r, "cores", BETTER_LOWER, lr / mpps);
}

void payload_bench_fill(struct pcase *pc, size_t matches, struct bench *b)
{
	b->run = pc->ss->sr->sc->run;
	b->derive = payload_derive;
	b->arg = pc;
	if (matches != PAYLOAD_NO_MATCHES)
		b->extra[b->nextra++] = (struct bench_metric){
			"matches", BETTER_EXACT, (double)matches};
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
static int reallife_rules(struct payload_rules *pr)
{
	char err[512];

	ruleset_init(&pr->rs);
	pr->builtin = st.nrule_files == 0;
	if (pr->builtin && rules_builtin(&pr->rs) != 0)
		return -1;
	for (size_t i = 0; i < st.nrule_files; i++) {
		if (rules_load(&pr->rs, st.rule_files[i], st.rules_format, err,
			       sizeof(err)) != 0) {
			fprintf(stderr, "rxbench: %s\n", err);
			return -1;
		}
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
	if (rl == NULL || reallife_rules(&rl->pr) != 0)
		return -1;
	return payload_rules_setup(rl, r, ctx);
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
	if (b.name == NULL || b.verified == NULL || plan_add(ctx->plan, &b)) {
		free(b.name);
		free(b.verified);
		return -1;
	}
	return 0;
}

/* The cases of ss: one per engine, one group.  0, or -1 (memory). */
static int cases_add(struct scen_size *ss)
{
	const struct scenario *sc = ss->sr->sc;
	size_t n = ss->run->neng;

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
	if (!any_wanted(ss, ctx))
		return 0;
	ss->ops = *sc->ops;
	rc = sc->table != NULL ? sc->table(ss, ctx) : 0;
	if (rc != 0)
		return rc < 0 ? -1 : 0;
	if (cases_add(ss) != 0)
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
	free(ss->pc);
	ss->tabled = 0;
	ss->at = NULL;
	ss->pc = NULL;
	ss->npc = 0;
}

/* The run's state from the options and ctx's engines.  0, or -1. */
static int run_build(struct payload_run *r, struct suite_ctx *ctx)
{
	r->engines = ctx->engines;
	r->neng = ctx->nengines;
	r->link_gbps = st.link_gbps;
	if (inputs_sizes(r) != 0 || inputs_scenarios(r) != 0)
		return -1;
	for (size_t i = 0; i < r->nsr; i++)
		if (r->sr[i].sc->setup != NULL &&
		    r->sr[i].sc->setup(r, &r->sr[i], ctx) != 0)
			return -1;
	return inputs_generate(r);
}

static int payload_prepare(struct suite_ctx *ctx)
{
	struct payload_run *r = calloc(1, sizeof(*r));

	the_run = r;
	if (r == NULL || run_build(r, ctx) != 0)
		return -1;
	for (size_t i = 0; i < r->nsr * r->nin && !interrupt_signal(); i++)
		if (payload_plan(&r->ss[i], ctx) != 0)
			return -1;
	return 0;
}

/* ---- tables ---- */

/* Row order of the tables: largest packets first, as in the seed. */
static void size_order(const struct payload_run *r, size_t *order)
{
	for (size_t i = 0; i < r->nin; i++)
		order[i] = i;
	for (size_t i = 1; i < r->nin; i++)
		for (size_t j = i; j > 0 && r->in[order[j - 1]].size <
						    r->in[order[j]].size; j--) {
			size_t t = order[j];
			order[j] = order[j - 1];
			order[j - 1] = t;
		}
}

/*
 * Engine e's table title: its version and link, and what each scenario
 * notes; *mark the column a scenario's footnote explains.
 */
static void engine_title(const struct payload_run *r, size_t e, char *buf,
			 size_t size, char *foot, size_t fsize,
			 const char **mark)
{
	int o = snprintf(buf, size, "%s %s: link %g Gbps", r->engines[e]->name,
			 r->engines[e]->version(), r->link_gbps);

	foot[0] = '\0';
	*mark = NULL;
	for (size_t i = 0; i < r->nsr && o > 0 && (size_t)o + 2 < size; i++) {
		const struct scenario *sc = r->sr[i].sc;
		if (sc->note == NULL)
			continue;
		buf[o++] = ';';
		buf[o++] = ' ';
		sc->note(&r->sr[i], r, e, buf + o, size - (size_t)o, foot,
			 fsize);
		o += (int)strlen(buf + o);
		if (foot[0] != '\0' && *mark == NULL)
			*mark = sc->name;
	}
}

/* touch's report: base - touch per size, when both ran. */
static void touch_report(const struct scen_run *sr, const struct payload_run *r,
			 struct suite_ctx *ctx, FILE *out)
{
	const struct scenario *base = payload_scenario("base");

	for (size_t i = 0; i < r->nin; i++) {
		char name[256];
		const struct result *b, *t;
		payload_name(name, sizeof(name), base, r->in[i].label, NULL);
		b = results_find(ctx->results, name);
		payload_name(name, sizeof(name), sr->sc, r->in[i].label, NULL);
		t = results_find(ctx->results, name);
		if (b == NULL || t == NULL || b->status != RESULT_OK ||
		    t->status != RESULT_OK)
			continue;
		fprintf(out, "base - touch at size %s: %.3f ns/packet above "
			"touching its bytes\n", r->in[i].label,
			table_median(b, "ns/op") - table_median(t, "ns/op"));
	}
}

static void payload_report(struct suite_ctx *ctx, FILE *out)
{
	const struct payload_run *r = the_run;
	struct table_column cols[NSCEN];
	const char *labels[MAX_SIZES];
	double linerate[MAX_SIZES];
	size_t order[MAX_SIZES];

	if (r == NULL)
		return;
	for (size_t i = 0; i < r->nsr; i++)
		cols[i] = (struct table_column){r->sr[i].sc->name,
						r->sr[i].sc->title,
						r->sr[i].sc->ops != NULL};
	size_order(r, order);
	for (size_t i = 0; i < r->nin; i++) {
		labels[i] = r->in[order[i]].label;
		linerate[i] = r->in[order[i]].linerate;
	}
	fprintf(out, "\nPayload tables: medians; line rate = %g Gbps * 1e9 / "
		"((size + 20) * 8)\n", r->link_gbps);
	for (size_t e = 0; e < r->neng; e++) {
		char title[512], foot[256];
		struct table_spec spec = {PAYLOAD_PREFIX, r->engines[e]->name,
					  title, labels, linerate, r->nin, cols,
					  r->nsr, NULL, NULL};
		engine_title(r, e, title, sizeof(title), foot, sizeof(foot),
			     &spec.mark_col);
		spec.footnote = foot[0] ? foot : NULL;
		table_write_payload(out, ctx->results, &spec);
	}
	for (size_t i = 0; i < r->nsr; i++)
		if (r->sr[i].sc->report != NULL)
			r->sr[i].sc->report(&r->sr[i], r, ctx, out);
	fputc('\n', out);
}

static void payload_cleanup(void)
{
	struct payload_run *r = the_run;

	the_run = NULL;
	if (r == NULL)
		return;
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
 * --help: the suite interface takes its options' text as one string, and
 * the --scenarios lines come from the table, so the text is put together
 * before main() runs.
 */
static char usage[2048] =
	"  --sizes=64,128,...    packet sizes (default 64,128,256,512,1000,1500)\n"
	"  --match-rate=1%       packets carrying a match (or 0.01)\n"
	"  --packets=N           packets per size (default: 4 MiB, >= 4096)\n"
	"  --link=GBPS           link speed for line rate (default 100)\n"
	"  --seed=N              generator seed (default 1)\n"
	"  --rules=FILE|DIR      real-life rules: regex lines, Snort pcre:,\n"
	"                        ModSecurity SecRule @rx (repeatable)\n"
	"  --rules-format=F      auto, regex, snort, modsec\n"
	"  --pcap=FILE           TCP/UDP payloads of a capture instead\n"
	"  --scenarios=a,b       of these (* by default):\n";

static void __attribute__((constructor)) usage_scenarios(void)
{
	size_t o = strlen(usage);

	for (size_t i = 0; i < NSCEN && o < sizeof(usage); i++) {
		int n = snprintf(usage + o, sizeof(usage) - o,
				 "    %-11s%c %s\n", scenarios[i].name,
				 scenarios[i].in_default ? '*' : ' ',
				 scenarios[i].help);
		o += n > 0 ? (size_t)n : 0;
	}
}

const struct suite suite_payload = {
	.name = "payload",
	.desc = "regex on packet payloads by size: Mpps per core against line rate",
	.usage = usage,
	.in_default = 1,
	.default_benchtime_ns = DEFAULT_BENCHTIME_NS,
	.set_option = payload_set_option,
	.legacy_prepare = payload_prepare,
	.legacy_report = payload_report,
	.legacy_cleanup = payload_cleanup,
};

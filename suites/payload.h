/*
 * payload.h - the payload suite's core, as its scenarios see it.
 *
 * A scenario is a struct scenario (below) in a file of its own, listed
 * once in payload_scenarios[] (suites/payload_scenarios.c); the core
 * (suites/payload.c: names, options, inputs and flow reassembly, memory,
 * planning, the suite struct and its layout) reaches a scenario only
 * through that struct's fields and hooks.  Data flows one way: a
 * scenario calls the core's helpers declared here, never the reverse.
 *   suites/payload_floor.c     base, touch: the harness floors
 *   suites/payload_single.c    literal, full-scan: one pattern
 *   suites/payload_reallife.c  real-life: a rule set per engine
 *   suites/payload_perrule.c   per-rule: each rule alone
 *   suites/payload_ruleset.h   the rule-set machinery the last two share
 *   suites/payload_threads.h   --threads
 * Nothing outside suites/payload*.c and tests/ includes this.
 */
#ifndef RXB_PAYLOAD_H
#define RXB_PAYLOAD_H

#include "corpora/http_req.h"
#include "corpora/packets.h"
#include "corpora/rules.h"
#include "corpora/waf.h"
#include "harness/threads.h"
#include "suites/case.h"
#include "suites/reference.h"
#include "suites/suite.h"

#include <stdint.h>
#include <stdio.h>

#define PAYLOAD_SUITE "payload"
#define PAYLOAD_PREFIX "Payload"
#define PAYLOAD_MAX_SIZES 16
#define PAYLOAD_MAX_RULE_FILES 16
#define PAYLOAD_MAX_THREAD_COUNTS 16

struct payload_run;
struct scen_run;
struct scen_size;
struct payload_thread_ops; /* suites/payload_threads.h */
struct pthreads;
struct case_item;

/*
 * How a scenario hands packets to an engine (--mode).  BLOCK: packet by
 * packet, the answer per packet (names carry no mode).  STREAM and
 * VECTORED: flow by flow, the answer per flow (a match may straddle
 * packets); an op is one flow, its Mpps counted in packets.  STREAM on
 * an engine with a stream API feeds the flow's packets through one
 * stream (mode=stream); on one without, the reassembled flow is one
 * buffer (mode=reassembled).  VECTORED on an engine with a vectored
 * scan is one call over the packets; the others are unsupported there.
 */
enum payload_mode {
	PMODE_BLOCK = 0,
	PMODE_STREAM,
	PMODE_VECTORED,
	PMODE_COUNT,
};

/* What --rules-target chose. */
enum rules_target {
	RULES_TARGET_AUTO,      /* variables for ModSecurity rules, else raw */
	RULES_TARGET_RAW,       /* every condition on the whole payload */
	RULES_TARGET_VARIABLES, /* ModSecurity rules on the request's parts */
};

/* What the command line chose (payload.c's option table fills it). */
struct payload_config {
	size_t sizes[PAYLOAD_MAX_SIZES];
	size_t nsizes;
	double match_rate;
	double link_gbps;
	uint64_t seed;
	size_t count;
	unsigned scen_mask; /* 0: the defaults */
	const char *rule_files[PAYLOAD_MAX_RULE_FILES];
	size_t nrule_files;
	enum rules_format rules_format;
	enum rules_target rules_target;
	enum modsec_version modsec; /* --modsec */
	int per_rule;       /* --per-rule: the scenarios with .per_rule too */
	const char *pcap;
	enum payload_mode modes[PMODE_COUNT]; /* --mode; none: block */
	size_t nmode;
	size_t threads[PAYLOAD_MAX_THREAD_COUNTS]; /* --threads: counts > 1,
						     ascending */
	size_t nthreads;
	int cpu[BENCH_MAX_THREADS]; /* the CPUs of the affinity mask */
	size_t ncpu;
};

/*
 * A scenario: all the core knows of it.  A scenario with ops is verified
 * through the pipeline (suites/case.h), a case per engine and size; one
 * without is a floor, timed as it is (it answers nothing).  Adding one:
 * a file defining `const struct scenario scenario_x`, and its line in
 * payload_scenarios[] (docs/payload.md, "Adding a scenario").
 */
struct scenario {
	const char *name;   /* in benchmark names: scenario=NAME */
	const char *title;  /* its column's heading in the tables */
	const char *help;   /* its line in --help */
	int in_default;     /* run when --scenarios is not given */
	int per_rule;       /* run under --per-rule too */
	enum packets_kind plant; /* the generated packets it reads */
	/* its one pattern and flags (enum engine_flag), or NULL: in its
	 * inputs and its cases' labels */
	const char *re;
	unsigned flags;
	const void *own;    /* the scenario's own constants, or NULL */
	/* how a case is verified and timed; ops NULL: a floor */
	const struct case_ops *ops;
	int (*run)(void *pcase, uint64_t n); /* the timed op, over a pcase */
	/* the op on threads; NULL: one thread only */
	const struct payload_thread_ops *threads;

	/* Optional hooks, NULL where the scenario needs none. */
	/* Its own inputs and per-engine work (sr->data).  0, or -1 (message
	 * printed, or out of memory). */
	int (*setup)(struct payload_run *r, struct scen_run *sr,
		     struct suite_ctx *ctx);
	/* Before its cases at one size: fill ss->ops' sizes, check the
	 * generator.  0; 1 when it has no cases there (a row says why); -1
	 * out of memory. */
	int (*table)(struct scen_size *ss, struct suite_ctx *ctx);
	/* Free sr->data. */
	void (*teardown)(struct scen_run *sr);
	/* Its cases at one size, instead of one per engine: begins with
	 * payload_cases_begin().  0, or -1 out of memory. */
	int (*cases)(struct scen_size *ss, struct suite_ctx *ctx);
	/* Inputs of its own into in: with options 0 after what every row
	 * reads (what it reads itself), with options 1 after the run's
	 * options (how it reads it; only in a run with options).  0 or -1. */
	int (*inputs)(const struct scen_size *ss, struct result_inputs *in,
		      int options);
};

/* The scenarios, in the order of the tables' columns
 * (suites/payload_scenarios.c). */
extern const struct scenario *const payload_scenarios[];
extern const size_t payload_nscenarios;

/* One packet size (or the capture): its rows' label and line rate. */
struct size_in {
	char label[16];          /* "64", or "pcap" */
	size_t size;             /* 0 for pcap */
	double linerate;         /* Mpps at --link for this size */
	struct packets gen[PACKETS_KIND_COUNT]; /* those some scenario reads */
	/* flow modes: gen's flows reassembled, and gen's packets as spans */
	struct packets flows[PACKETS_KIND_COUNT];
	struct engine_span *spans[PACKETS_KIND_COUNT];
};

/* A scenario of the run: its row and what its setup built. */
struct scen_run {
	const struct scenario *sc;
	void *data; /* the scenario's own (real-life: struct reallife) */
};

/*
 * One case and, once verified, its benchmark's argument: a scenario at a
 * size on an engine (NULL for a floor), and the timed op's state.
 */
struct pcase {
	struct scen_size *ss;
	const struct engine *e;
	size_t ei;       /* index of e in the run's engines */
	void *h;         /* what the op runs (a handle, the engine's rules) */
	size_t next;     /* packet the next run starts at */
	uint64_t sink;   /* keeps the loops' reads alive */
};

/* A scenario at one size: its packets and its cases. */
/* Reasons kept for the packets that are not requests (scen_size). */
#define PAYLOAD_NOTREQ 4

struct scen_size {
	struct payload_run *run;
	struct scen_run *sr;
	const struct size_in *in;
	const struct packets *pk;  /* what it reads: packets, or in a flow
				      mode the flows reassembled (a unit
				      of the answer and one op each) */
	enum payload_mode mode;
	const struct packets *parts; /* flow modes: the flows' packets */
	const struct engine_span *spans; /* parts' packets as spans */
	double per_op;             /* packets per op: 1, or per flow */
	/* payload bytes per op, those of its per_op packets: a flow's
	   captured ones, retransmissions reassembly dropped included
	   (the link carried them); Gbps counts these, as Mpps and
	   %linerate count the packets */
	double bytes_per_op;
	struct case_ops ops;       /* sr->sc->ops with this size's sizes */
	struct case_table t;
	int tabled;                /* t holds cases */
	struct pcase *pc;          /* per engine; one for a floor */
	size_t npc;
	/* Shared with the verifying child: the packet each case's answer is
	 * at, so that a timeout or crash can name it (case_ops.failed). */
	size_t *at;
	/* Rules on their variables: each packet's request (payload_requests) */
	struct http_req *req;
	unsigned char *is_req; /* per packet: req[i] is a whole request */
	size_t nreq;           /* how many are */
	/* why the others are not: the commonest reasons, digits as N */
	struct { char why[120]; size_t n; } notreq[PAYLOAD_NOTREQ];
	struct pthreads *pt; /* --threads: per engine, per thread count */
	size_t npt;
};

/*
 * The state of one run: prepare() builds it, cleanup() frees it; cfg is
 * the options it was built from.
 */
struct payload_run {
	const struct payload_config *cfg; /* the options */
	const struct engine *const *engines; /* the selected ones (ctx's) */
	size_t neng;
	double link_gbps;
	struct size_in in[PAYLOAD_MAX_SIZES];
	size_t nin;
	struct packets pcap;  /* --pcap: what every scenario reads */
	struct result_inputs pcap_in; /* --pcap: its path, size and sha256 */
	int from_pcap;
	/* --pcap in a flow mode: its flows, reassembled, as spans */
	struct packets pcap_flows, pcap_view;
	struct engine_span *pcap_spans;
	enum payload_mode modes[PMODE_COUNT]; /* --mode, in its order */
	size_t nmode;
	struct scen_run *sr;  /* per wanted scenario, in table order */
	size_t nsr;
	struct scen_size *ss; /* scenario sr[i] at size in[j] in modes[m]:
				 ss[(i * nin + j) * nmode + m] */
	/* --threads: the counts beyond 1, and the CPUs thread t is pinned to */
	const size_t *threads;
	size_t nthreads;
	const int *cpu;                /* cpus, or a test's */
	int cpus[BENCH_MAX_THREADS];   /* the affinity mask when prepared */
};

/*
 * The mode key of c's benchmark names at ss: NULL in block mode, else
 * "stream", "reassembled" or "vectored" (engines.h: compile_flow).
 */
const char *payload_mode_key(const struct scen_size *ss,
			     const struct engine *e);

/* Does e scan ss's units in parts (match_flow) rather than whole? */
int payload_flow_native(const struct scen_size *ss, const struct engine *e);

/* Benchmark name of ss on e, with its mode key (payload_name's form). */
void payload_case_name(char *buf, size_t size, const struct scen_size *ss,
		       const struct engine *e);

/* What a unit of ss's answers is: "packet", or "flow" in a flow mode. */
const char *payload_unit(const struct scen_size *ss);

/* Flow f's packets at ss (a flow mode): spans, *n of them.  Inline: the
 * flow ops call it in their timed loops. */
static inline const struct engine_span *
payload_flow_spans(const struct scen_size *ss, size_t f, size_t *n)
{
	const size_t *flow = ss->parts->flow;

	*n = flow[f + 1] - flow[f];
	return ss->spans + flow[f];
}

/*
 * Memory metrics of the compiled sets h[0..n) of engine e into b (their
 * sum): B/db, B/scratch, and with a stream state B/stream and
 * B/10k-flows (B/stream x 10,000 + B/db); each only where e can say.
 */
void payload_mem_fill(const struct engine *e, void *const *h, size_t n,
		      struct bench *b);

/* The row called name, or NULL. */
const struct scenario *payload_scenario(const char *name);

/*
 * Verify and plan scenario ss->sr->sc at one size: its cases (one per
 * engine of ss->run) through case_run(), or a floor's benchmark.  The
 * cases stay in ss until payload_size_release().  0, or -1 out of memory.
 */
int payload_plan(struct scen_size *ss, struct suite_ctx *ctx);
void payload_size_release(struct scen_size *ss);

/*
 * The floor of ss's scenario (its run, no engine: the harness floor) as
 * a benchmark on pc, which must live as long as the plan; nothing when
 * --bench leaves it out, or in any --mode but the first (a floor is the
 * same in each).  0, or -1 out of memory.
 */
int payload_floor_plan(struct scen_size *ss, struct suite_ctx *ctx,
		       struct pcase *pc);

/*
 * Begin ss's case table with n cases' room (ss->pc, ss->at zeroed), and
 * n * nt threaded benchmarks' (ss->pt; nt 0: none), and the inputs every
 * case records.  0, or -1 out of memory.
 */
int payload_cases_begin(struct scen_size *ss, size_t n, size_t nt);

/*
 * Fill b's op for case pc: run, arg and derived metrics; `matches` (the
 * verified number of matching packets) becomes a metric unless it is
 * PAYLOAD_NO_MATCHES.
 */
#define PAYLOAD_NO_MATCHES ((size_t)-1)
void payload_bench_fill(struct pcase *pc, size_t matches, struct bench *b);

/* Packets pk as spans, pointing into pk; free() it.  NULL out of
 * memory. */
struct engine_span *payload_spans(const struct packets *pk);

/*
 * Why self-timed engine e cannot time an op over ss's units, a unit an
 * op (ss->pk: the packets, or in a flow mode the reassembled flows, as
 * payload_work_fill() times them), by its engine.work_check (xdp's
 * payload bound), into why, before anything compiles; 0 when it can,
 * or for an engine the harness times.  ENGINE_ERR_NOMEM without memory.
 */
int payload_work_gate(const struct scen_size *ss, const struct engine *e,
		      char *why, size_t size);

/*
 * is_match of case c (its pcase in c->arg) on every packet of ss, asked
 * at once (a runner's in one request), a byte each into hit; ss->at
 * says where it was.  0, or a negative enum engine_status.
 */
int payload_is_match_each(struct scen_size *ss, const struct case_item *c,
			  unsigned char *hit);

/* How many of ss's packets hit[] says 1 for. */
size_t payload_hits(const struct scen_size *ss, const unsigned char *hit);

/*
 * The work of case pc's op (after payload_bench_fill), for every case:
 * one op is `op` on the next packet over the sets (handles of e; at
 * least one).  An engine that times itself (engine.h's work_new) then
 * times b by it (case_bench_work); for any other nothing changes.  0,
 * or -1 out of memory.
 */
int payload_work_fill(struct pcase *pc, const struct engine *e,
		      enum engine_op op, void *const *sets, size_t nsets,
		      struct bench *b);

/*
 * case_ops.failed for the suite's cases: the packet the verifying child
 * was at (ss->at), and its first bytes.
 */
void payload_case_failed(void *ss, const struct case_item *c, char *buf,
			 size_t size);

/* Name of benchmark sc x size label (x engine when e is not NULL; no
 * size when label is NULL). */
void payload_name(char *buf, size_t size, const struct scenario *sc,
		  const char *label, const struct engine *e);

/* A packet's bytes for a message: escaped, at most `max` from `from`. */
void payload_excerpt(const char *p, size_t len, size_t from, size_t max,
		     char *buf, size_t size);

#endif

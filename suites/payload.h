/*
 * payload.h - the payload suite's shared declarations, split over two files:
 *   suites/payload.c        options, the scenario table, inputs, the
 *                           single-pattern scenarios, the floors, tables
 *   suites/payload_rules.c  the real-life scenario: rule sets compiled per
 *                           engine and verified rule by rule (each rule's
 *                           answer combined from match_ids)
 *   suites/payload_threads.c  --threads: a case's op on N pinned threads,
 *                           each over its share of the packets
 * Nothing outside suites/payload*.c and tests/test_payload.c includes this.
 */
#ifndef RXB_PAYLOAD_H
#define RXB_PAYLOAD_H

#include "corpora/http_req.h"
#include "corpora/packets.h"
#include "corpora/rules.h"
#include "corpora/waf.h"
#include "engines/runner.h"
#include "harness/threads.h"
#include "suites/case.h"
#include "suites/reference.h"
#include "suites/suite.h"

#include <stdint.h>
#include <stdio.h>

#define PAYLOAD_SUITE "payload"
#define PAYLOAD_PREFIX "Payload"
#define PAYLOAD_MAX_SIZES 16

struct payload_run;
struct scen_run;
struct scen_size;
struct pslot;
struct case_item;

/*
 * How a scenario runs on threads (--threads), each thread over its own
 * share of the packets with its own matching state (engine.thread_new).
 */
struct payload_thread_ops {
	/* Slot s's state from its case's handle (s->pc->h).  0 or <0. */
	int (*begin)(struct pslot *s);
	void (*end)(struct pslot *s);
	/* n ops over the slot's packets, cycling.  0 or <0. */
	int (*run)(struct pslot *s, uint64_t n);
	/* The answer over one pass of the slot's packets.  0 or <0. */
	int (*check)(struct pslot *s, uint64_t *got);
	/* The same from verified answer `answer` of case c, packets [lo, hi). */
	uint64_t (*want)(const struct scen_size *ss, const struct case_item *c,
			 const void *answer, size_t lo, size_t hi);
	const char *answer; /* what check counts: "matching packets" */
};

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

/*
 * A scenario: one row of the table in payload.c, all the suite knows of
 * it; everything else loops over the table.  A scenario with ops is
 * verified through the pipeline (suites/case.h), a case per engine and
 * size; one without is a floor, timed as it is (it answers nothing).
 */
struct scenario {
	const char *name;   /* in benchmark names: scenario=NAME */
	const char *title;  /* its column's heading in the tables */
	const char *help;   /* its line in --help */
	int in_default;     /* run when --scenarios is not given */
	enum packets_kind plant; /* the generated packets it reads */
	int rules;          /* reads the rule set (sr->data: struct reallife) */
	/* a single-pattern scenario's pattern, and its reference per packet */
	const char *re;
	unsigned flags;     /* enum engine_flag */
	const char *ref_name; /* "memmem", for messages */
	int (*reference)(const struct packet *p);
	/* how a case is verified and timed; ops NULL: a floor */
	const struct case_ops *ops;
	int (*run)(void *pcase, uint64_t n); /* the timed op, over a pcase */
	/* the op on threads; NULL: one thread only (a floor) */
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
};

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

/* One thread of a threaded case: its packets [lo, hi) and its state. */
struct pslot {
	struct pcase *pc;
	size_t lo, hi;
	size_t next;     /* packet its next run starts at */
	void *st;        /* its matching state (payload_thread_ops.begin) */
	uint64_t sink;
};

/* A case's benchmark on n threads (payload_threads.c). */
struct pthreads {
	struct pcase *pc;
	size_t n;
	struct bench_threads bt;
	struct pslot *slot;   /* n */
	uint64_t *want, *pass; /* per thread */
};

/*
 * Give case c of ss (engine c->e) a benchmark per thread count of the
 * run after its one-thread one (case_add_bench), or, where c->e or the
 * scenario cannot run on threads, an unsupported row saying why.  pt
 * holds the counts' state (one per count).  0, or -1 out of memory.
 */
int payload_threads_add(struct scen_size *ss, struct suite_ctx *ctx,
			struct pcase *pc, struct pthreads *pt);

/*
 * In case_ops.bench, after payload_bench_fill(), for a threaded
 * benchmark (its case_add_bench arg, pt; NULL for the one-thread one):
 * make b the op on pt->n threads, each checked against case c's verified
 * answer over its share.  0, or -1 out of memory.
 */
int payload_threads_fill(struct pthreads *pt, const struct case_item *c,
			 const void *answer, struct bench *b);
void payload_threads_release(struct pthreads *pt);


/*
 * The state of one run: prepare() builds it, cleanup() frees it; cfg is
 * the options it was built from (struct payload_config, payload.c).
 */
struct payload_config;

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

/* Flow f's packets at ss (a flow mode): spans, *n of them. */
const struct engine_span *payload_flow_spans(const struct scen_size *ss,
					     size_t f, size_t *n);

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

/* Packets pk as a runner's inputs (engines/runner.h), pointing into pk;
 * free() it.  NULL out of memory. */
struct runner_bytes *payload_runner_inputs(const struct packets *pk);

/*
 * For a case on a runner engine: b timed by the runner instead (after
 * payload_bench_fill), one op being `op` on the next packet over the
 * sets (handles of c->e; at least one).  0, or -1 out of memory.
 */
int payload_runner_fill(struct pcase *pc, enum runner_op op,
			void *const *sets, size_t nsets, struct bench *b);

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

/* ---- the real-life scenario (payload_rules.c) ---- */

/*
 * Patterns with the same flags and, with --rules-target=variables, the
 * same variables and transformations: one compiled set per engine.
 */
struct rule_group {
	unsigned flags;
	const struct waf_spec *spec; /* what it reads; NULL: the packet */
	size_t *pat; /* indices into the rule set's patterns */
	size_t n;
};

/* An engine's compiled set of one group: local id k is pattern map[k]. */
struct eset {
	void *h;      /* NULL when the engine compiled none of the group */
	size_t *map;
	size_t n;
};

/* One engine's compiled rules, alive from prepare() to cleanup(). */
struct peng {
	const struct engine *e;
	int status;                    /* RESULT_OK, or why it runs none */
	char why[320];                 /* ... in words */
	struct eset *sets;             /* one per rule group */
	/* per flow mode (payload_mode; [0] unused): sets[g] compiled with
	 * compile_flow as fh[m][g] (sets[g].map applies), fh[m] NULL where
	 * the engine has no flow scan, or refused (fwhy[m] says why) */
	void **fh[PMODE_COUNT];
	char fwhy[PMODE_COUNT][320];
	unsigned char *ok;             /* per rule: all its patterns compiled */
	size_t nok;                    /* rules it runs */
	unsigned char *ids;            /* match_ids scratch (largest group) */
	unsigned char *hit;            /* per pattern: matched (scratch) */
	/* --rules-target=variables: transformed values */
	unsigned char *vids;           /* match_ids on one value (scratch) */
	struct waf_scratch ws;
};

/* The rule side of the suite's state. */
struct payload_rules {
	struct ruleset rs;
	int builtin;              /* rs is the built-in set: marks apply */
	struct rule_group *groups;
	size_t ngroups;
	/* the reference (suites/reference.h), by payload_rules_reference() */
	struct ref_regex **ref;   /* per pattern; NULL when out of its reach */
	unsigned char *by_ref;    /* per rule: every condition in its reach */
	unsigned char *dollar;    /* per rule: `$` outside multiline mode */
	unsigned char *ref_hit;   /* per pattern: one packet's answers */
	/* --rules-target (payload_rules_targets()) */
	int variables;            /* rules read the request's variables */
	struct waf_spec *spec;    /* per rule, when variables */
	unsigned char *has_spec;  /* per rule: spec[r] is what it reads (else
				     the whole packet) */
	char **skip;              /* per rule: why it cannot run; NULL: runs */
	size_t nskip;
	struct waf_scratch ws;    /* the reference's values */
};

/* The real-life scenario's state for a run (its scen_run's data). */
struct reallife {
	struct payload_rules pr;
	struct peng *eng;         /* per engine of the run */
	size_t neng;
};

/* What --rules-target chose. */
enum rules_target {
	RULES_TARGET_AUTO,      /* variables for ModSecurity rules, else raw */
	RULES_TARGET_RAW,       /* every condition on the whole payload */
	RULES_TARGET_VARIABLES, /* ModSecurity rules on the request's parts */
};

/* "raw" or "variables": what pr runs. */
const char *payload_rules_target_name(const struct payload_rules *pr);

/*
 * Decide pr's target from t and read each ModSecurity rule's variables
 * and transformations (corpora/waf.h); a rule rxbench cannot run so gets
 * its reason in pr->skip.  0; -1 with a one-line message in err (variables
 * asked for rules that have none, or out of memory).
 */
int payload_rules_targets(struct payload_rules *pr, enum rules_target t,
			  char *err, size_t size);

/*
 * Unsupported rows for the rules pr->skip names, `name` a printf format
 * of the row's name taking the rule's name-safe text.
 */
void payload_rules_skipped(struct suite_ctx *ctx, const struct payload_rules *pr,
			   const char *name);

/*
 * Parse every packet of ss into ss->req when pr reads variables (once,
 * before anything is verified or timed: a WAF parses a request once,
 * whatever its rules).  0, or -1 out of memory.
 */
int payload_requests(struct scen_size *ss, const struct payload_rules *pr);

/* Packet i's request at ss, or NULL (raw rules, or not a request). */
const struct http_req *payload_req(const struct scen_size *ss, size_t i);

/*
 * Whether pattern k of pr matches packet p (q its request, or NULL) by
 * `match` on each value it reads (or on the packet): 1, 0, or <0 from
 * match.  s: scratch for transformed values.
 */
int payload_pattern_on(const struct payload_rules *pr, size_t k,
		       const struct packet *p, const struct http_req *q,
		       struct waf_scratch *s,
		       int (*match)(void *arg, const char *v, size_t n),
		       void *arg);

/*
 * The reference's answer for rule r of pr (pr->by_ref[r]) on packet p, q
 * its request or NULL: what payload_rule_expect() takes as expected (for
 * tests/modsec_ref_cli.c).  1, 0, or -1 out of memory.
 */
int payload_rule_ref(struct payload_rules *pr, size_t r, const struct packet *p,
		     const struct http_req *q);

/*
 * The expected answer of rule r on pk: its packets as bits (bits[i / 8]
 * bit i % 8, zeroed by the caller) and *count.  BY_VOTE (the rule out of
 * the reference's reach: nothing filled), else what filled them, or -1
 * out of memory.
 */
enum payload_expect_by { PAYLOAD_BY_PLANTED, PAYLOAD_BY_REFERENCE,
			 PAYLOAD_BY_VOTE };
int payload_rule_expect(struct payload_rules *pr, const struct scen_size *ss,
			size_t r, unsigned char *bits, size_t *count);

/*
 * Group rs's patterns by flags (and what they read).  0, or -1 out of
 * memory.
 */
int payload_rules_group(struct payload_rules *pr);

/*
 * Compile every pattern for the reference matcher: a rule whose conditions
 * are all in its reach is verified against it, the others by a strict
 * majority of at least three libraries, else not at all.  0, or -1 out
 * of memory.
 */
int payload_rules_reference(struct payload_rules *pr);
void payload_rules_release(struct payload_rules *pr);

/*
 * Compile pr's rules for pe: each pattern alone first (a rule with a
 * pattern it cannot compile gets an unsupported row, or an error row for
 * a built-in rule, and none of its patterns is compiled), then one set
 * per group of the patterns of the rules it runs.  pe->status and
 * pe->why are set when no set could be built or it runs no rule.  0, or
 * -1 out of memory.
 */
int payload_rules_compile(struct suite_ctx *ctx, const struct payload_rules *pr,
			  struct peng *pe);
void payload_rules_free(const struct payload_rules *pr, struct peng *pe);

/* What rule r's patterns show they need (engine_pattern_needs): an
 * engine without it does not run the rule, nor vote on it. */
unsigned payload_rule_needs(const struct payload_rules *pr, size_t r);

/*
 * Set up rl for the run's engines: pr holds the rule set (grouped and
 * compiled for the reference by the caller); each engine's rules are
 * compiled (payload_rules_compile).  A user's rule set that no engine
 * runs is an error row.  0, or -1 out of memory.
 */
int payload_rules_setup(struct reallife *rl, const struct payload_run *r,
			struct suite_ctx *ctx);
void payload_rules_teardown(struct reallife *rl);

/*
 * The verified number of packets rule r matches at ss (real-life at one
 * size): the answer of the engines whose answers were verified, or
 * PAYLOAD_NO_MATCHES when none was.
 */
size_t payload_rules_matched(const struct scen_size *ss, size_t r);

/* The real-life row's ops and hooks (see struct scenario). */
extern const struct case_ops payload_rules_ops;
int payload_rules_run(void *pcase, uint64_t n);
int payload_rules_table(struct scen_size *ss, struct suite_ctx *ctx);
extern const struct payload_thread_ops payload_rules_threads;

/* ---- the per-rule scenario (payload_cost.c) ---- */

/*
 * Each rule alone: a case per rule and engine (its group the rule), the
 * rule's patterns compiled alone, its answer the packets it matches,
 * verified as real-life's rules are; timed per packet.
 */
extern const struct case_ops payload_cost_ops;
int payload_cost_run(void *pcase, uint64_t n);
int payload_cost_table(struct scen_size *ss, struct suite_ctx *ctx);
int payload_cost_cases(struct scen_size *ss, struct suite_ctx *ctx);

#endif

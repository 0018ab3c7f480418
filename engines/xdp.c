/*
 * xdp.c - the `xdp` engine: the payload suite's XDP programs
 * (bpf/xdp_payload.bpf.c) run in the kernel with BPF_PROG_TEST_RUN, each
 * packet a whole Ethernet frame around its payload (issue 25, phase 2).
 *
 * compile(pats, n): n == 0 loads the base program (parse to the payload,
 * return the action); one plain literal the literal program; anything
 * else the DFA program over xdp_dfa_build_capped() (the reference's
 * parser and NFA, `--engine-opt xdp.max_states=N` states a DFA,
 * `xdp.max_groups=N` DFAs), twice: "any match" for is_match (stops at
 * the first accepting state) and "every rule" for match_ids (walks the
 * whole payload), so that each op is answered by the program that times
 * it.  compile_flagged takes each pattern's own flags (the DFA is built
 * from each pattern's parse): a rule set of /i beside none is one set,
 * one program per packet.  A pattern the DFA cannot express, a set past
 * the caps, or a process bpf() refuses (the probe's one line) is
 * ENGINE_ERR_UNSUPPORTED.  Suites ask before anything compiles:
 * engine.unavailable gives the probe's line, engine.work_check why a
 * work cannot be timed here (work_refused_any()).
 *
 * is_match and match_ids run the program once on a frame around the data
 * (engines/xdp_frame.h: IPv4, TCP) and read back its answer: the action
 * it returned and the result it left in the per-CPU map (hit, rule ids).
 * count is NULL: a DFA here says whether and which, not how often.
 *
 * Timing is the kernel's (work_new: a self-timed engine, as a runner is).
 * BPF_PROG_TEST_RUN reports the mean of `repeat` runs of the program on
 * one frame: ktime_get_ns() around the kernel's loop divided by repeat,
 * rounded down to a whole ns.  Each frame gets a pair of test runs, of r
 * and 2r runs, and ns/op is the slope of the CPU clock around them, the
 * kernel's means its bounds (engines/xdp_time.h), the programs held in
 * the XDP dispatcher while a sample runs (xdp_live_hold) so that no test
 * run swaps them in and out.  That includes the program (parse, the
 * search: the literal reads the frame itself, the DFA a copy of the
 * payload made with bpf_xdp_load_bytes), its call and
 * the loop's step; it excludes the syscall, the copy of the frame into
 * the kernel and of the answer back, the driver and the NIC, and every
 * cache miss on the packet's bytes after the first run (the same frame
 * is run `repeat` times, hot in L1, where the user-space rows cycle
 * through 4 MiB of packets).  floor-ns/op is the base program on the
 * same frames: the kernel's cost of parsing to the payload.
 *
 * Build: RXB_HAVE_XDP (clang -target bpf and libbpf, cmake/xdp.cmake).
 */
#define _GNU_SOURCE
#include "engines/engine.h"

#include "engines/xdp_dfa.h"
#include "engines/xdp_frame.h"
#include "engines/xdp_live.h"
#include "engines/xdp_load.h"
#include "engines/xdp_probe.h"
#include "engines/xdp_time.h"
#include "harness/results.h"
#include "suites/reference.h"

#include <bpf/libbpf.h>
#include <linux/bpf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <time.h>

/* xdp.action: what a program returns on a hit (base: on every payload). */
static const char *const xdp_actions[] = {"drop", "tx", "pass", NULL};
static const unsigned xdp_action_codes[] = {XDP_DROP, XDP_TX, XDP_PASS};
static uint64_t xdp_action = 0;
static uint64_t xdp_max_states = XDP_DFA_DEFAULT_MAX_STATES;
static uint64_t xdp_max_groups = XDP_DFA_DEFAULT_MAX_GROUPS;
/* xdp.live: which actions time on live frames (engines/xdp_live.h). */
enum { XDP_LIVE_TX, XDP_LIVE_ALL, XDP_LIVE_OFF };
static const char *const xdp_lives[] = {"tx", "all", "off", NULL};
static uint64_t xdp_live = XDP_LIVE_TX;

static const struct engine_option xdp_options[] = {
	{"action", ENGINE_OPT_CHOICE, "drop",
	 "the XDP action on a hit (base: on every payload); tx is timed on "
	 "live frames (see live)", 0, 0, xdp_actions, NULL, &xdp_action},
	{"max_states", ENGINE_OPT_COUNT, "4096",
	 "states of each DFA of a set (its kernel table: states x 1 KiB, "
	 "one map value)", 1, XDP_DFA_DEFAULT_MAX_STATES, NULL, NULL,
	 &xdp_max_states},
	{"max_groups", ENGINE_OPT_COUNT, "32",
	 "DFAs a set may be split into, each walked over the payload (4 "
	 "side by side a pass)", 1, XDP_DFA_DEFAULT_MAX_GROUPS, NULL, NULL,
	 &xdp_max_groups},
	{"live", ENGINE_OPT_CHOICE, "tx",
	 "time on live frames sent on a veth pair in a netns of the run's "
	 "own: tx, all actions, or off (plain test_run: sends nothing)", 0, 0,
	 xdp_lives, NULL, &xdp_live},
	{NULL, 0, NULL, NULL, 0, 0, NULL, NULL, NULL},
};

/* The frames' headers: IPv4 and TCP without options. */
static const struct xdp_frame_spec frame_spec = {0, 0, 0, 0, 0};

/*
 * The longest frame BPF_PROG_TEST_RUN takes for a program without
 * frags: a page less XDP_PACKET_HEADROOM (256) and the aligned
 * skb_shared_info (320 with 64-byte cache lines); a longer one the
 * kernel refuses (EINVAL).  A payload is then at most this less the
 * headers (3466 bytes), below the programs' own XDP_RXB_MAX_PAYLOAD.
 */
#define XDP_TEST_RUN_MAX_FRAME 3520u

/* The longest payload a frame test_run takes holds. */
static size_t max_payload(void)
{
	size_t m = XDP_TEST_RUN_MAX_FRAME - xdp_frame_headers(&frame_spec);

	return m < XDP_RXB_MAX_PAYLOAD ? m : XDP_RXB_MAX_PAYLOAD;
}

/* Why a payload of len bytes cannot run, into why; 0 when it can. */
static int payload_refused(size_t len, char *why, size_t size)
{
	if (len <= max_payload())
		return 0;
	snprintf(why, size, "payload of %zu bytes: test_run takes frames of "
		 "at most %u bytes (%zu of payload after the %zu bytes of "
		 "headers)", len, XDP_TEST_RUN_MAX_FRAME, max_payload(),
		 xdp_frame_headers(&frame_spec));
	return 1;
}

struct xdp_job;

struct xdp_set {
	enum xdp_prog_kind kind;
	size_t npat;
	unsigned action;         /* the configured action's code */
	int live_frames;         /* timed on live frames (xdp.live) */
	struct xdp_prog *prog;   /* base, literal, or the DFA's "any" */
	struct xdp_prog *all;    /* the DFA's "every rule": match_ids */
	struct xdp_prog *base;   /* floors: loaded by the first work */
	struct xdp_dfa dfa;
	unsigned char *frame;    /* scratch for one frame */
	size_t frame_cap;
	struct xdp_job *jobs;    /* freed with the set */
	struct xdp_set *live;    /* the next set alive (live_sets) */
};

/*
 * The sets alive, so that work_new knows a handle of its own from
 * anything else a suite may pass it (fqdn's first- and all-match
 * strategies hand over their own wrapper of a handle per regex, or NULL
 * when a strategy has no regex).  A job for such a work is kept in
 * orphan_jobs, never freed: a few per run.
 */
static struct xdp_set *live_sets;
static struct xdp_job *orphan_jobs;

static int set_alive(const void *h)
{
	for (const struct xdp_set *s = live_sets; s != NULL; s = s->live)
		if (s == h)
			return 1;
	return 0;
}

/*
 * What the version line says of live frames, into out: one line for the
 * run's every entry, so which actions run live is each entry's xdp.live
 * (a sweep's entries name it, live:all), not said here.  Only a
 * run-wide xdp.live=off (no sweep of live then) asks the kernel nothing.
 */
static void live_said(char *out, size_t size)
{
	char why[200];

	if (xdp_live == XDP_LIVE_OFF)
		snprintf(out, size, "xdp.live=off: every action timed by plain "
			 "test_run, which sends nothing");
	else if (xdp_live_get(why, sizeof(why)) == NULL)
		snprintf(out, size, "%s: every action timed by plain test_run, "
			 "which sends nothing", why);
	else
		snprintf(out, size, "live frames (BPF_F_TEST_XDP_LIVE_FRAMES) "
			 "on a veth pair in a netns of the run's own, every "
			 "XDP_TX frame counted at the peer, for the actions "
			 "of each entry's xdp.live: tx timed on live frames "
			 "under live:tx (the default), every action under "
			 "live:all, none under live:off; a frame over %u "
			 "bytes runs in plain test_run", XDP_LIVE_MAX_FRAME);
}

/*
 * What the version line says of the clock, into out: the measure
 * (engines/xdp_time.h) and whether this run holds its programs in the
 * dispatcher (job_hold), which the namespace decides.
 */
static void clock_said(char *out, size_t size)
{
	static const char measure[] =
		"ns/op the slope of the test-running thread's CPU time "
		"(CLOCK_THREAD_CPUTIME_ID) over test runs of r and 2r runs a "
		"frame, within the bounds of the kernel's whole-ns means "
		"(slope-timed 1), else their mean (kernel-ns/op, the kernel's "
		"means of the same runs)";
	char why[200];

	if (xdp_live_get(why, sizeof(why)) != NULL)
		snprintf(out, size, "%s; the programs held in the XDP "
			 "dispatcher (attached to a veth pair in a netns of "
			 "the run's own) while a sample runs", measure);
	else
		snprintf(out, size, "%s; the programs not held in the XDP "
			 "dispatcher (%s): each test run swaps its program in "
			 "and out, which the kernel's means count", measure,
			 why);
}

/*
 * The version line: libbpf, the kernel, and how the rows are timed; or,
 * where bpf() is refused (every xdp row then says so), the probe's
 * reason, not a timing no row gets.
 */
static const char *xdp_version(void)
{
	static char v[1800];
	char live[480], clock[800], why[300];
	struct utsname u;

	if (v[0] != '\0')
		return v;
	if (xdp_probe(why, sizeof(why)) != 0) {
		snprintf(v, sizeof(v), "libbpf %u.%u, kernel %s, %s: no xdp "
			 "row runs", libbpf_major_version(),
			 libbpf_minor_version(),
			 uname(&u) == 0 ? u.release : "?", why);
		return v;
	}
	live_said(live, sizeof(live));
	clock_said(clock, sizeof(clock));
	snprintf(v, sizeof(v), "libbpf %u.%u, kernel %s, timed in the kernel "
		 "(BPF_PROG_TEST_RUN): %s; %s", libbpf_major_version(),
		 libbpf_minor_version(), uname(&u) == 0 ? u.release : "?",
		 clock, live);
	return v;
}

/* A pattern the literal program searches as it is: 1 .. 64 bytes of no
   metacharacter, compiled without a flag that changes a literal. */
static int plain_literal(const struct engine_pattern *p, unsigned flags)
{
	if (p->len == 0 || p->len > XDP_RXB_MAX_NEEDLE ||
	    (flags & (ENGINE_CASELESS | ENGINE_ANCHORED | ENGINE_UTF8)))
		return 0;
	for (size_t i = 0; i < p->len; i++)
		if (strchr("\\^$.|?*+()[]{}#", p->re[i]) != NULL ||
		    p->re[i] == '\0')
			return 0;
	return 1;
}

static void xdp_free(void *h);

/*
 * Each pattern through the reference's parser, which the DFA is built
 * from: one it finds invalid is ENGINE_ERR_COMPILE (before bpf() is
 * asked anything), one out of its reach ENGINE_ERR_UNSUPPORTED.  0, or
 * the status with err filled.
 */
static int patterns_check(const struct engine_pattern *pats, size_t n,
			  const unsigned *flags, struct engine_error *err)
{
	for (size_t k = 0; k < n; k++) {
		struct ref_regex *r = NULL;
		char why[200];
		int rc = ref_compile(pats[k].re, pats[k].len, flags[k], &r, why,
				     sizeof(why));
		ref_free(r);
		if (rc == REF_OK)
			continue;
		rc = rc == REF_INVALID ? ENGINE_ERR_COMPILE
		   : rc == REF_NOMEM ? ENGINE_ERR_NOMEM : ENGINE_ERR_UNSUPPORTED;
		engine_error_set(err, rc, (long)k, -1, "pattern %zu (%.40s): %s",
				 k, pats[k].re, why);
		return rc;
	}
	return 0;
}

/* Load one program into *out; why filled on failure.  0, or -1.  The
   DFA's "every rule" program reads the maps of its "any" one (s->prog,
   loaded first): the tables are in the kernel once. */
static int load(struct xdp_set *s, enum xdp_prog_kind kind,
		const struct engine_pattern *lit, int all,
		struct xdp_prog **out, char *why, size_t size)
{
	struct xdp_spec spec = {kind, s->action, NULL, 0, NULL, all};

	if (kind == XDP_PROG_LITERAL) {
		spec.needle = lit->re;
		spec.needle_len = lit->len;
	}
	if (kind == XDP_PROG_DFA)
		spec.dfa = &s->dfa;
	if (kind == XDP_PROG_DFA && all && s->prog != NULL)
		return xdp_prog_open_sharing(&spec, s->prog, out, why, size);
	return xdp_prog_open(&spec, out, why, size);
}

/* The pattern a reason of xdp_dfa_build() blames, or -1 for the set. */
static long blamed(const char *why, size_t n)
{
	long k;

	if (strstr(why, "DFAs of") != NULL && n > 1)
		return -1; /* the groups: the set as a whole */
	if (sscanf(why, "pattern %ld", &k) == 1 && k >= 0 && (size_t)k < n)
		return k;
	return -1;
}

/* s->dfa from pats[0..n): 0, or -1 with err filled. */
static int dfa_build(struct xdp_set *s, const struct engine_pattern *pats,
		     size_t n, const unsigned *flags, struct engine_error *err)
{
	struct xdp_dfa_pattern *p = calloc(n, sizeof(*p));
	char why[256];
	int rc;

	if (p == NULL) {
		engine_error_set(err, ENGINE_ERR_NOMEM, -1, -1, "out of memory");
		return -1;
	}
	for (size_t k = 0; k < n; k++)
		p[k] = (struct xdp_dfa_pattern){pats[k].re, pats[k].len,
						flags[k], (uint32_t)k};
	rc = xdp_dfa_build_capped(&s->dfa, p, n, (uint32_t)xdp_max_states,
				  (uint32_t)xdp_max_groups, why, sizeof(why));
	free(p);
	if (rc != 0)
		engine_error_set(err, ENGINE_ERR_UNSUPPORTED, blamed(why, n), -1,
				 "%s", why);
	return rc;
}

/* err->msg with every byte outside printable ASCII as \xHH: a reason
   quotes patterns, which may hold any byte. */
static void msg_printable(struct engine_error *err)
{
	char out[sizeof(err->msg)];
	size_t o = 0;

	for (const unsigned char *p = (const unsigned char *)err->msg;
	     *p != '\0' && o + 5 < sizeof(out); p++) {
		if (*p >= 0x20 && *p < 0x7f)
			out[o++] = (char)*p;
		else
			o += (size_t)snprintf(out + o, sizeof(out) - o,
					      "\\x%02x", *p);
	}
	out[o] = '\0';
	memcpy(err->msg, out, o + 1);
}

/*
 * compile_flagged: n == 0 the base program, one plain literal the
 * literal program, else the DFA's two programs (each pattern with its
 * flags[k]).  Where bpf() is refused, the probe's reason; where the
 * verifier refuses a program, its last lines.
 */
static int xdp_compile_flagged(const struct engine_pattern *pats,
			       const unsigned *flags, size_t n, void **out,
			       struct engine_error *err)
{
	struct xdp_set *s = calloc(1, sizeof(*s));
	char why[256];
	int rc = 0;

	*out = NULL;
	if (s == NULL) {
		engine_error_set(err, ENGINE_ERR_NOMEM, -1, -1, "out of memory");
		return ENGINE_ERR_NOMEM;
	}
	s->npat = n;
	s->action = xdp_action_codes[xdp_action < 3 ? xdp_action : 0];
	s->live_frames = xdp_live == XDP_LIVE_ALL ||
			 (xdp_live == XDP_LIVE_TX && s->action == XDP_TX);
	s->frame_cap = xdp_frame_headers(&frame_spec) + XDP_RXB_MAX_PAYLOAD;
	s->frame = malloc(s->frame_cap);
	s->kind = n == 0 ? XDP_PROG_BASE
		: n == 1 && plain_literal(&pats[0], flags[0]) ? XDP_PROG_LITERAL
							    : XDP_PROG_DFA;
	if (s->frame == NULL) {
		engine_error_set(err, ENGINE_ERR_NOMEM, -1, -1, "out of memory");
		rc = ENGINE_ERR_NOMEM;
	} else if (s->kind == XDP_PROG_DFA &&
		   (rc = patterns_check(pats, n, flags, err)) != 0) {
		/* err filled */
	} else if (n > XDP_RXB_MAX_IDS) {
		engine_error_set(err, ENGINE_ERR_UNSUPPORTED, -1, -1, "a set of "
				 "%zu patterns: the program reports %u rule ids",
				 n, XDP_RXB_MAX_IDS);
		rc = ENGINE_ERR_UNSUPPORTED;
	} else if (xdp_probe(why, sizeof(why)) != 0) {
		engine_error_set(err, ENGINE_ERR_UNSUPPORTED, -1, -1, "%s", why);
		rc = ENGINE_ERR_UNSUPPORTED;
	} else if (s->kind == XDP_PROG_DFA &&
		   dfa_build(s, pats, n, flags, err) != 0) {
		rc = err->status;
	} else if (load(s, s->kind, pats, 0, &s->prog, why, sizeof(why)) ||
		   (s->kind == XDP_PROG_DFA &&
		    load(s, s->kind, pats, 1, &s->all, why, sizeof(why)))) {
		engine_error_set(err, ENGINE_ERR_UNSUPPORTED, -1, -1, "%s", why);
		rc = ENGINE_ERR_UNSUPPORTED;
	}
	if (rc != 0) {
		msg_printable(err);
		xdp_free(s);
		return rc;
	}
	s->live = live_sets;
	live_sets = s;
	*out = s;
	return 0;
}

/* compile: compile_flagged with flags for every pattern. */
static int xdp_compile(const struct engine_pattern *pats, size_t n,
		       unsigned flags, void **out, struct engine_error *err)
{
	unsigned *each = malloc((n + 1) * sizeof(*each));
	int rc;

	*out = NULL;
	if (each == NULL) {
		engine_error_set(err, ENGINE_ERR_NOMEM, -1, -1, "out of memory");
		return ENGINE_ERR_NOMEM;
	}
	for (size_t k = 0; k < n; k++)
		each[k] = flags;
	rc = xdp_compile_flagged(pats, each, n, out, err);
	free(each);
	return rc;
}

/*
 * Run p once on a frame around data[0..len) into a: 0, or a negative
 * status: unsupported for a payload longer than test_run takes, before
 * the kernel is asked (is_match carries no text: work_check and a job's
 * sample say why, payload_refused()), else a failed test run or a parse
 * that did not find the payload the frame holds.
 */
static int run_once(struct xdp_set *s, struct xdp_prog *p, const char *data,
		    size_t len, struct xdp_answer *a)
{
	char why[160];
	size_t flen;

	if (len > max_payload())
		return ENGINE_ERR_UNSUPPORTED;
	flen = xdp_frame_build(s->frame, s->frame_cap, &frame_spec, data, len);
	if (flen == 0 || xdp_prog_run(p, s->frame, flen, 1, a, why,
				      sizeof(why)) != 0)
		return ENGINE_ERR_MATCH;
	if (a->status != XDP_RXB_PAYLOAD || a->len != len)
		return ENGINE_ERR_MATCH;
	return 0;
}

/* The hit an answer says: the action when it tells (drop, tx), and the
   result map's hit, which must agree.  1, 0, or ENGINE_ERR_MATCH. */
static int answer_hit(const struct xdp_set *s, const struct xdp_answer *a)
{
	if (s->action == XDP_PASS)
		return a->action == XDP_PASS ? a->hit : ENGINE_ERR_MATCH;
	if (a->action == s->action && a->hit)
		return 1;
	if (a->action == XDP_PASS && !a->hit)
		return 0;
	return ENGINE_ERR_MATCH;
}

static int xdp_is_match(void *h, const char *data, size_t len)
{
	struct xdp_set *s = h;
	struct xdp_answer a;
	int rc;

	rc = run_once(s, s->prog, data, len, &a);
	if (rc == 0 && s->kind == XDP_PROG_BASE) /* CAP_FLOOR_PROGRAM */
		return a.action == s->action ? 1 : ENGINE_ERR_MATCH;
	return rc != 0 ? rc : answer_hit(s, &a);
}

static long xdp_match_ids(void *h, const char *data, size_t len,
			  unsigned char *ids)
{
	struct xdp_set *s = h;
	struct xdp_answer a;
	long hits = 0;
	int rc;

	if (s->kind == XDP_PROG_BASE)
		return ENGINE_ERR_UNSUPPORTED;
	rc = run_once(s, s->all != NULL ? s->all : s->prog, data, len, &a);
	if (rc == 0)
		rc = answer_hit(s, &a);
	if (rc < 0)
		return rc;
	if (s->kind == XDP_PROG_LITERAL) {
		ids[0] = (unsigned char)rc;
		return rc;
	}
	for (size_t k = 0; k < s->npat; k++) {
		ids[k] = (a.ids[k / 64] >> (k % 64)) & 1;
		hits += ids[k];
	}
	/* the action and the ids must tell the same */
	return (hits > 0) == (rc == 1) ? hits : ENGINE_ERR_MATCH;
}

static size_t xdp_size(void *h)
{
	const struct xdp_set *s = h;

	if (s->kind != XDP_PROG_DFA)
		return 0;
	return (size_t)s->dfa.ngroups * s->dfa.rows * 256 * sizeof(uint32_t) +
	       (size_t)s->dfa.nstates * sizeof(struct xdp_rxb_accept);
}

/* ---- timing: a job per work ---- */

/*
 * Kernel ns the first test run of a frame's pair should last (one
 * system call, one frame, r runs; the second makes 2r: engines/
 * xdp_time.h): RUN_NS_MAX, or a sixteenth of a short sample's budget
 * (at least RUN_NS_MIN).  A test run with repeat > 1 swaps the program
 * into the XDP dispatcher before its loop and out after it
 * (bpf_prog_change_xdp), each swap waiting for an RCU grace period: 8
 * to 40 ms of wall time a test run here, some 0.1 ms of CPU.  So the
 * clock around the system call is the thread's CPU time, and the pair's
 * slope leaves the swap out.  The kernel's own mean, rounded down to a
 * whole ns, bounds the slope (xdp_fit_solve()).  Each frame is one
 * pair, so a sample of --benchtime=1s covers some 170 frames.
 */
#define RUN_NS_MAX 2e6
#define RUN_NS_MIN 2e4
/* Frames the floor (the base program) is timed on, from the sample's
   first: the parse to the payload barely depends on the payload. */
#define FLOOR_FRAMES 16
#define REPEAT_MAX 1000000u /* runs of a pair's second test run */
/* Samples made in all while the slope lies outside the kernel's bound
   (XDP_FIT_OUTSIDE): after the last, the kernel's mean stands. */
#define FIT_TRIES 3

struct xdp_job {
	struct engine_job base;
	struct xdp_job *next;
	struct xdp_set *owner;
	struct xdp_prog *prog;     /* what the work's op runs */
	unsigned char *frames;     /* ninputs frames, stride apart */
	size_t *flen;
	size_t nframes, stride, next_input;
	double est, base_est;      /* the last mean per run seen, 0: none */
	double run_ns;             /* kernel ns a pair's first run aims at */
	const char *refused;       /* why the work cannot be timed, or NULL */
	char refused_buf[200];     /* a reason naming a length */
	int want_live;             /* timed on live frames (live_frames); a
				      frame over XDP_LIVE_MAX_FRAME runs
				      plain (test_run) */
	struct xdp_live *ns;       /* this process's namespace, while a
				      sample runs: holds the programs in
				      the dispatcher; NULL: refused here */
	struct xdp_live *live;     /* ns when want_live: frames run live */
	unsigned char *act;        /* live: prog's action + 1 per frame, 0
				      not known yet */
};

static double wall_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

/*
 * The action p returns on frame i, from one plain test run that also
 * checks the parse (kept per frame for the work's program; the base
 * program returns the set's action on every payload).  0, or a
 * negative status.
 */
static int frame_action(struct xdp_job *j, struct xdp_prog *p, size_t i,
			unsigned *act, char *why, size_t size)
{
	struct xdp_answer a;

	if (p != j->prog) {
		*act = j->owner->action;
		return 0;
	}
	if (j->act[i] == 0) {
		if (xdp_prog_run(p, j->frames + i * j->stride, j->flen[i], 1,
				 &a, why, size) != 0)
			return ENGINE_ERR_MATCH;
		if (a.status != XDP_RXB_PAYLOAD) {
			snprintf(why, size, "xdp: the program did not find the "
				 "payload of frame %zu (status %u)", i,
				 a.status);
			return ENGINE_ERR_MATCH;
		}
		j->act[i] = (unsigned char)(a.action + 1);
	}
	*act = j->act[i] - 1u;
	return 0;
}

/* Frame i run `repeat` times by p on live frames: the kernel's mean in
   *ns, the CPU time around the system call in *cpu.  0, or a negative
   status. */
static int live_run(struct xdp_job *j, struct xdp_prog *p, size_t i,
		    uint32_t repeat, uint32_t *ns, double *cpu, char *why,
		    size_t size)
{
	unsigned act;
	int rc = frame_action(j, p, i, &act, why, size);

	if (rc != 0)
		return rc;
	if (xdp_live_run(j->live, xdp_prog_fd(p), j->frames + i * j->stride,
			 j->flen[i], repeat, act == XDP_TX, ns, cpu, why,
			 size))
		return ENGINE_ERR_MATCH;
	return 0;
}

/*
 * Frame i of j run `repeat` times by p in one test run: on live frames
 * when j has them and the frame is at most XDP_LIVE_MAX_FRAME bytes
 * (the kernel refuses a longer one live), else plain.  The kernel's
 * mean in *d, the CPU time around the system call in *cpu.  0, or a
 * negative status.
 */
static int test_run(struct xdp_job *j, struct xdp_prog *p, size_t i,
		    uint32_t repeat, uint32_t *d, double *cpu, char *why,
		    size_t size)
{
	struct xdp_answer a;

	if (j->live != NULL && j->flen[i] <= XDP_LIVE_MAX_FRAME)
		return live_run(j, p, i, repeat, d, cpu, why, size);
	if (xdp_prog_run(p, j->frames + i * j->stride, j->flen[i], repeat,
			 &a, why, size) != 0)
		return ENGINE_ERR_MATCH;
	if (a.status != XDP_RXB_PAYLOAD) {
		snprintf(why, size, "xdp: the program did not find the payload "
			 "of frame %zu (status %u)", i, a.status);
		return ENGINE_ERR_MATCH;
	}
	*d = a.duration_ns;
	*cpu = a.cpu_ns;
	return 0;
}

/* p's first mean per run on frame i, in *est: one run, with the timer's
   cost (an overestimate), at least 1 ns.  0, or a negative status. */
static int estimate(struct xdp_job *j, struct xdp_prog *p, size_t i,
		    double *est, char *why, size_t size)
{
	uint32_t d;
	double cpu;
	int rc = test_run(j, p, i, 1, &d, &cpu, why, size);

	if (rc == 0)
		*est = d > 0 ? d : 1;
	return rc;
}

/*
 * Frame i of j run by p into f: a pair of test runs of r and 2r runs, r
 * sized for j->run_ns of kernel time at *est (then updated), within
 * `left` runs when left > 0 (fewer than 3 left: one test run of them,
 * which only the kernel's mean times).  0, or a negative status.
 */
static int frame_pair(struct xdp_job *j, struct xdp_prog *p, size_t i,
		      double *est, uint64_t left, struct xdp_fit *f,
		      char *why, size_t size)
{
	double want = j->run_ns / *est;
	uint64_t r = want < 1 ? 1 : want > REPEAT_MAX / 2 ? REPEAT_MAX / 2
							  : (uint64_t)want;
	struct xdp_pair pair;
	int rc;

	if (left > 0 && left < 3 * r)
		r = left / 3;
	if (r == 0) {
		rc = test_run(j, p, i, (uint32_t)left, &pair.d1, &pair.t1, why,
			      size);
		if (rc == 0)
			xdp_fit_single(f, left, pair.d1);
		return rc;
	}
	pair.r = r;
	rc = test_run(j, p, i, (uint32_t)r, &pair.d1, &pair.t1, why, size);
	if (rc == 0)
		rc = test_run(j, p, i, (uint32_t)(2 * r), &pair.d2, &pair.t2,
			      why, size);
	if (rc != 0)
		return rc;
	xdp_fit_pair(f, &pair);
	*est = pair.d2 > 0 ? pair.d2 : 1;
	return 0;
}

/*
 * The work's program over the frames from j->next_input on, cycling, a
 * pair each, into f (emptied first) until the kernel's time of its runs
 * reaches budget_ns (fixed 0) or exactly `fixed` runs are made.  Frames
 * visited in *frames.
 */
static int runs(struct xdp_job *j, double budget_ns, uint64_t fixed,
		struct xdp_fit *f, size_t *frames, char *why, size_t size)
{
	memset(f, 0, sizeof(*f));
	*frames = 0;
	if (j->est == 0) { /* a first estimate, outside the sample */
		int rc = estimate(j, j->prog, j->next_input, &j->est, why,
				  size);
		if (rc != 0)
			return rc;
	}
	while (fixed > 0 ? f->runs < fixed
			 : f->kernel_ns < budget_ns || f->runs == 0) {
		int rc = frame_pair(j, j->prog, j->next_input, &j->est,
				    fixed > 0 ? fixed - f->runs : 0, f, why,
				    size);
		if (rc != 0)
			return rc;
		(*frames)++;
		j->next_input = (j->next_input + 1) % j->nframes;
	}
	return 0;
}

/*
 * The base program over `frames` frames from `from` on (at most
 * FLOOR_FRAMES, every frame once), a pair each: its ns per run in
 * *floor, as the work's (xdp_fit_solve()).
 */
static int floor_runs(struct xdp_job *j, size_t from, size_t frames,
		      double *floor, char *why, size_t size)
{
	struct xdp_prog *p = j->owner->base;
	struct xdp_fit f;
	struct xdp_fit_answer a;

	memset(&f, 0, sizeof(f));
	if (frames > FLOOR_FRAMES)
		frames = FLOOR_FRAMES;
	if (frames > j->nframes)
		frames = j->nframes;
	for (size_t k = 0; k < frames; k++) {
		size_t i = (from + k) % j->nframes;
		int rc = j->base_est == 0
			 ? estimate(j, p, i, &j->base_est, why, size) : 0;
		if (rc == 0)
			rc = frame_pair(j, p, i, &j->base_est, 0, &f, why,
					size);
		if (rc != 0)
			return rc;
	}
	xdp_fit_solve(&f, &a);
	*floor = a.ns_per_op;
	return 0;
}

/* Warm-up: pairs for t->warmup_ns of wall time. */
static int warm(struct xdp_job *j, double warmup_ns, char *why, size_t size)
{
	double end = wall_ns() + warmup_ns;
	struct xdp_fit f;
	size_t frames;
	int rc = 0;

	while (rc == 0 && wall_ns() < end)
		rc = runs(j, j->run_ns, 0, &f, &frames, why, size);
	return rc;
}

/*
 * This process's namespace (a forked child makes its own; the parent
 * had one when the work was made): j->ns, NULL where refused, and
 * j->live = j->ns for a job timed on live frames.  0, or
 * ENGINE_ERR_UNSUPPORTED with why when such a job has none here.
 */
static int job_ns(struct xdp_job *j, char *why, size_t size)
{
	char r[200];

	j->ns = xdp_live_get(r, sizeof(r));
	j->live = j->want_live ? j->ns : NULL;
	if (j->ns != NULL || !j->want_live)
		return 0;
	snprintf(why, size, "xdp: %s (in the sample's process only)", r);
	return ENGINE_ERR_UNSUPPORTED;
}

/*
 * The work's program and the base program held in the XDP dispatcher
 * (xdp_live_hold) while the sample runs, where the process has a
 * namespace: then no test run swaps them in and out.  0, or
 * ENGINE_ERR_MATCH with why.
 */
static int job_hold(struct xdp_job *j, char *why, size_t size)
{
	struct xdp_prog *base = j->owner->base;

	if (j->ns == NULL)
		return 0;
	if (xdp_live_hold(j->ns, 0, xdp_prog_fd(j->prog), why, size) != 0 ||
	    (base != NULL &&
	     xdp_live_hold(j->ns, 1, xdp_prog_fd(base), why, size) != 0))
		return ENGINE_ERR_MATCH;
	return 0;
}

/* After a live sample: every XDP_TX frame reached the veth peer.  0, or
   ENGINE_ERR_MATCH with why: the live number does not count. */
static int live_verify(struct xdp_job *j, char *why, size_t size)
{
	uint64_t sent, received;

	if (j->live == NULL ||
	    xdp_live_check(j->live, &sent, &received, why, size) == 0)
		return 0;
	return ENGINE_ERR_MATCH;
}

/*
 * The work's runs for one sample into f, *a its figures: made again,
 * up to FIT_TRIES times in all, while the slope lies outside the
 * kernel's bound.  The first frame in *from, frames run in *frames.
 */
static int fit_sample(struct xdp_job *j, const struct engine_timing *t,
		      struct xdp_fit *f, struct xdp_fit_answer *a,
		      size_t *from, size_t *frames, char *why, size_t size)
{
	int rc = 0;

	for (int k = 0; rc == 0 && k < FIT_TRIES; k++) {
		*from = j->next_input;
		rc = runs(j, t->benchtime_ns, t->fixed_n, f, frames, why, size);
		if (rc == 0 && xdp_fit_solve(f, a) != XDP_FIT_OUTSIDE)
			break;
	}
	return rc;
}

/*
 * engine_job.sample: the work's op timed in the kernel.  ns/op is the
 * slope of this thread's CPU clock over the frames' pairs of test runs,
 * or the kernel's whole-ns mean where the slope is not sure or not
 * within its bound (xdp_fit_solve()); "kernel-ns/op" is the kernel's
 * mean of the same runs, "slope-timed" 1 when ns/op is the slope.  The
 * floor is the base program's, timed so, over the first frames.  On
 * live frames (set.live_frames) both are, frame by frame (one over
 * XDP_LIVE_MAX_FRAME bytes plain), and the sample counts only when the
 * veth peer received every live frame that returned XDP_TX.
 */
static int job_sample(struct engine_job *job, const struct engine_timing *t,
		      struct engine_sample *s, char *why, size_t size)
{
	struct xdp_job *j = (struct xdp_job *)job;
	struct xdp_fit f;
	struct xdp_fit_answer a;
	size_t from = 0, frames = 0;
	double floor;
	int rc;

	j->run_ns = t->benchtime_ns / 16 > RUN_NS_MAX ? RUN_NS_MAX
		    : t->benchtime_ns / 16 < RUN_NS_MIN ? RUN_NS_MIN
		    : t->benchtime_ns / 16;
	rc = job_ns(j, why, size);
	if (rc == 0)
		rc = job_hold(j, why, size);
	if (rc == 0)
		rc = warm(j, t->warmup_ns, why, size);
	if (rc == 0)
		rc = fit_sample(j, t, &f, &a, &from, &frames, why, size);
	if (rc != 0)
		return rc;
	*s = (struct engine_sample){f.runs, a.ns_per_op, -1, -1, -1, -1, {
		{"kernel-ns/op", BETTER_LOWER, a.kernel_ns_per_op},
		{"slope-timed", BETTER_EXACT, a.how == XDP_FIT_SLOPE}}};
	if (j->owner->base == NULL)
		return live_verify(j, why, size);
	rc = floor_runs(j, from, frames, &floor, why, size);
	if (rc == 0)
		s->floor_ns_per_op = floor;
	return rc == 0 ? live_verify(j, why, size) : rc;
}

static void job_free(struct xdp_job *j)
{
	free(j->frames);
	free(j->flen);
	free(j->act);
	free(j);
}

/* engine_job.sample of a work the engine cannot time: j->refused. */
static int job_refused(struct engine_job *job, const struct engine_timing *t,
		       struct engine_sample *s, char *why, size_t size)
{
	(void)t;
	(void)s;
	snprintf(why, size, "xdp: %s", ((struct xdp_job *)job)->refused);
	return ENGINE_ERR_UNSUPPORTED;
}

/* Why work w cannot be timed on any set, or NULL when it can; a reason
   that names a length is written into buf[0..size). */
static const char *work_refused_any(const struct engine_work *w, char *buf,
				    size_t size)
{
	if (!w->each)
		return "an op over every input: the kernel times one packet per "
		       "op (work.each)";
	if (w->op != ENGINE_OP_IS_MATCH && w->op != ENGINE_OP_MATCH_IDS &&
	    w->op != ENGINE_OP_NONE)
		return "only is_match and match_ids run in the kernel";
	if (w->rewrite != 0 || w->nnames != 0 || w->ninputs == 0)
		return "the op rewrites its inputs or looks names up first";
	if (w->nsets > 1)
		return "a work over several sets (one program runs per packet)";
	for (size_t i = 0; i < w->ninputs; i++)
		if (payload_refused(w->inputs[i].len, buf, size))
			return buf;
	return NULL;
}

/* Why work w cannot be timed on set s, or NULL when it can. */
static const char *work_refused(const struct xdp_set *s,
				const struct engine_work *w, char *buf,
				size_t size)
{
	if (w->nsets != 1 || w->sets[0] != s)
		return "a work over several sets (one program runs per packet)";
	return work_refused_any(w, buf, size);
}

/* engine.work_check: work_refused_any(), before anything compiles
   (w->sets is not read, w->nsets is). */
static int xdp_work_check(const struct engine_work *w, char *why,
			  size_t size)
{
	char buf[200];
	const char *r = work_refused_any(w, buf, sizeof(buf));

	if (r != NULL)
		snprintf(why, size, "xdp cannot time this op: %s", r);
	return r != NULL;
}

/* engine.unavailable: the probe's one line where bpf() is refused. */
static int xdp_unavailable(char *why, size_t size)
{
	return xdp_probe(why, size) != 0;
}

/*
 * work_new: frames around w's inputs (one op = one input, cycling), run
 * by the program w's op asks: is_match the set's, match_ids its
 * every-rule program, NONE the base program.  A work it cannot time (see
 * work_refused) gives a job whose sample says why, unsupported; NULL
 * only out of memory or when the base program does not load.
 */
static struct engine_job *xdp_work_new(void *h, const struct engine_work *w)
{
	struct xdp_set *s = h;
	struct xdp_job *j = calloc(1, sizeof(*j));
	char why[256];

	if (j == NULL)
		return NULL;
	if (!set_alive(h)) {
		j->next = orphan_jobs;
		orphan_jobs = j;
		j->refused = "the work's handle is not one of this engine's "
			     "sets (a suite's wrapper of one handle per regex, "
			     "or none)";
		j->base.sample = job_refused;
		return &j->base;
	}
	j->base.sample = job_sample;
	j->owner = s;
	j->next = s->jobs;
	s->jobs = j;
	j->prog = w->op == ENGINE_OP_MATCH_IDS && s->all ? s->all : s->prog;
	j->refused = work_refused(s, w, j->refused_buf,
				  sizeof(j->refused_buf));
	if (j->refused != NULL) {
		j->base.sample = job_refused;
		return &j->base;
	}
	if (s->base == NULL && s->kind != XDP_PROG_BASE &&
	    load(s, XDP_PROG_BASE, NULL, 0, &s->base, why, sizeof(why)) != 0)
		return NULL;
	for (size_t i = 0; i < w->ninputs; i++)
		j->stride = w->inputs[i].len > j->stride ? w->inputs[i].len
							 : j->stride;
	j->stride += xdp_frame_headers(&frame_spec);
	j->nframes = w->ninputs;
	j->frames = malloc(w->ninputs * j->stride);
	j->flen = calloc(w->ninputs, sizeof(*j->flen));
	j->act = calloc(w->ninputs, 1);
	j->want_live = s->live_frames && xdp_live_get(why, sizeof(why)) != NULL;
	if (j->frames == NULL || j->flen == NULL || j->act == NULL)
		return NULL;
	for (size_t i = 0; i < w->ninputs; i++) {
		j->flen[i] = xdp_frame_build(j->frames + i * j->stride,
					     j->stride, &frame_spec,
					     w->inputs[i].p, w->inputs[i].len);
		if (j->flen[i] == 0)
			return NULL;
	}
	return &j->base;
}

static void xdp_free(void *h)
{
	struct xdp_set *s = h;

	if (s == NULL)
		return;
	for (struct xdp_set **p = &live_sets; *p != NULL; p = &(*p)->live)
		if (*p == s) {
			*p = s->live;
			break;
		}
	while (s->jobs != NULL) {
		struct xdp_job *j = s->jobs;
		s->jobs = j->next;
		job_free(j);
	}
	xdp_prog_free(s->prog);
	xdp_prog_free(s->all);
	xdp_prog_free(s->base);
	xdp_dfa_release(&s->dfa);
	free(s->frame);
	free(s);
}

const struct engine engine_xdp = {
	.name = "xdp",
	.desc = "XDP program, timed in the kernel by BPF_PROG_TEST_RUN "
		"(literal or a DFA over the reference's parse; libbpf)",
	.caps = CAP_MULTI_NATIVE | CAP_LAZY | CAP_NONCAPTURE |
		CAP_PERL_CLASSES | CAP_INLINE_FLAGS | CAP_NUL_PATTERN |
		CAP_WORD_BOUNDARY |
		CAP_COUNTED_REP | CAP_EMPTY_MATCH | CAP_PERL_DOLLAR |
		CAP_FLOOR_PROGRAM,
	.semantics = SEM_LEFTMOST_FIRST, /* no count: see the file comment */
	.opt_in = 1,
	.runs_in = "kernel",
	.version = xdp_version,
	.compile = xdp_compile,
	.compile_flagged = xdp_compile_flagged,
	.is_match = xdp_is_match,
	.count = NULL,
	.match_ids = xdp_match_ids,
	.size = xdp_size,
	.free = xdp_free,
	.options = xdp_options,
	.work_new = xdp_work_new,
	.unavailable = xdp_unavailable,
	.work_check = xdp_work_check,
};

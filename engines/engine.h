/*
 * engine.h - the one interface every regex engine adapter implements.
 *
 * An adapter lives in its own file (engines/<name>.c), keeps everything
 * static and exports one `const struct engine`.  engines/registry.c lists
 * them all; callers find an engine by name with engine_find().  The harness
 * owns the clock: adapters never time, print or allocate inside is_match /
 * count / match_ids (scratch and match data are made at compile time).
 * Some libraries still allocate inside their own match calls (Oniguruma's
 * backtrack stack, RE2::Set::Match, glibc regexec, TRE); that is a real
 * cost of the engine and shows in B/op and allocs/op.
 *
 * Build options: each adapter is compiled only when CMake found its
 * library (RXB_HAVE_<ENGINE>); registry.c reacts to the same macros.
 */
#ifndef RXB_ENGINE_H
#define RXB_ENGINE_H

#include <stddef.h>
#include <stdint.h>

#include "engines/pattern.h"

/* Filled by compile() on failure. */
struct engine_error {
	int status;        /* ENGINE_ERR_COMPILE, _UNSUPPORTED or _NOMEM */
	long pattern;      /* index of the offending pattern, or -1 */
	long offset;       /* byte offset inside it, or -1 when unknown */
	char msg[256];     /* the engine's own message */
};

/*
 * An engine option, `--engine-opt ENGINE.KEY=VALUE` (engines/engine_opt.c
 * parses and checks it).  Each adapter declares its own as a table, ended
 * by {NULL}, whose entries point at the adapter's storage: compile()
 * reads *value, so an option applies to everything compiled after it is
 * set.  Options are the run's, set once before anything compiles.
 */
enum engine_opt_kind {
	ENGINE_OPT_SIZE,   /* bytes: 1048576, 512K, 64M, 1G (powers of 1024) */
	ENGINE_OPT_COUNT,  /* a whole number */
	ENGINE_OPT_BOOL,   /* true or false (on/off, yes/no, 1/0) */
	ENGINE_OPT_CHOICE, /* one of choices; *value is its index */
};

struct engine_option {
	const char *key;
	enum engine_opt_kind kind;
	const char *def;  /* the default, as --engine-opt would spell it */
	const char *help; /* one line */
	uint64_t min, max;          /* SIZE and COUNT: the accepted range */
	const char *const *choices; /* CHOICE: NULL-ended */
	/*
	 * Optional: why a valid value cannot be used by this build's suites
	 * (Hyperscan's streaming mode: no suite streams), or NULL when it
	 * can.
	 */
	const char *(*refuse)(uint64_t value);
	uint64_t *value; /* the adapter's storage; holds the default at start */
};

/*
 * Where an engine runs: in this process (a library linked in), or as a
 * runner, a program in the engine's own language that rxbench starts as
 * its child and talks to over a pipe (engines/runner.h).  A runner's
 * matcher lives in the child, so its ops answer through the pipe (fine
 * for verification) and its benchmarks are timed by the runner itself
 * (struct bench's self_time, harness/bench.h), never by run(arg, n).
 */
enum engine_kind {
	ENGINE_IN_PROCESS = 0,
	ENGINE_RUNNER,
};

/*
 * Flow scanning (--mode=stream|vectored of the payload suite): a flow is
 * handed over as its packets, parts[0..n) in order, and matched as one
 * stream, so a match may straddle parts.
 */
struct engine_span {
	const char *p;
	size_t len;
};

enum engine_flow {
	ENGINE_FLOW_STREAM = 1, /* part by part, state kept between them */
	ENGINE_FLOW_VECTORED,   /* every part in one call */
};

/* What a compiled set occupies, in bytes; 0 where the engine cannot say. */
struct engine_mem {
	size_t db;      /* the compiled patterns (what size() says) */
	size_t scratch; /* matching state made once per handle (thread) */
	size_t stream;  /* state kept per open stream (per flow) */
};

/*
 * == Runners behind the interface ==
 *
 * A suite asks every engine the same way, whatever its kind:
 *
 * - answers: the verification of a case asks for an op's answers on
 *   many inputs with engine_answers(), which uses the engine's answers
 *   hook when it has one (a runner: every input in one round trip) and
 *   otherwise loops over is_match, count or match_ids.
 *
 * - timing: a suite describes what one timed op does as data, a struct
 *   engine_work (the op, the inputs, one input per op or every input
 *   per op, the sets), as well as its own run(arg, n) loop.  An engine
 *   that times itself (work_new set: a runner, whose matcher lives in
 *   a child) turns the work into a job that measures samples; the
 *   pipeline (suites/case.c: case_bench_work) then lets the job time
 *   the benchmark, and the harness's clock times run() for any other.
 *
 * What the engine can do is told by data: a hook left NULL (threads:
 * thread_new), never by its kind.
 */

/* An op, as answers and works name it (the runner protocol's numbers). */
enum engine_op {
	ENGINE_OP_NONE = 0,      /* nothing: a work's floor */
	ENGINE_OP_IS_MATCH = 1,
	ENGINE_OP_COUNT = 2,
	ENGINE_OP_MATCH_IDS = 3,
	ENGINE_OP_COMPILE = 4,   /* a work's only: compile its sets again */
};

/*
 * What a benchmark's op does, for an engine that times itself; the
 * arrays are the caller's and are copied by work_new (the bytes they
 * point to are not, and must outlive the sets' handles).
 */
struct engine_work {
	enum engine_op op;
	int each;                /* 1: one op is the op on the next input,
				    cycling; 0: on every input in turn */
	void *const *sets;       /* compiled handles, of the same engine */
	size_t nsets;
	const struct engine_span *inputs; /* at least one */
	size_t ninputs;
	const struct engine_span *names;  /* an input (as rewritten) found
					     here counts 1 without asking
					     the regex (a map looked up
					     first); may be 0 */
	size_t nnames;
	unsigned rewrite;        /* a suite's bits: what an op does to an
				    input first (runner.h), 0: nothing */
};

/* The rules of one sample (--benchtime, a fixed n, the warm-up). */
struct engine_timing {
	double benchtime_ns;
	uint64_t fixed_n; /* > 0: exactly this n */
	double warmup_ns;
};

/*
 * A figure of a sample beside ns/op that only its engine can give (xdp:
 * the kernel's own whole-ns mean of the same runs); unit NULL: none.
 */
struct engine_figure {
	const char *unit;  /* a metric's name, static */
	unsigned better;   /* enum metric_better (harness/results.h) */
	double value;
};

#define ENGINE_SAMPLE_FIGURES 2

/* A sample an engine measured itself.  Zero it before filling it: a
   figure left zero is none. */
struct engine_sample {
	uint64_t n;
	double ns_per_op;
	double bytes_per_op;    /* < 0: the engine's runtime cannot tell */
	double allocs_per_op;   /* < 0: likewise */
	double floor_ns_per_op; /* the same loop doing nothing; < 0: none */
	double heap_per_op;     /* what one op keeps (compile); < 0: unknown */
	struct engine_figure figures[ENGINE_SAMPLE_FIGURES];
};

/*
 * A self-timed job (work_new, or a suite's own request on a runner):
 * sample() measures one sample under t's rules.  0, or a negative enum
 * engine_status with a one-line reason in why (STATUS_CRASHED: the
 * engine's process died).  A job is owned by the handle it was made
 * from, and freed with it.
 */
struct engine_job {
	int (*sample)(struct engine_job *j, const struct engine_timing *t,
		      struct engine_sample *s, char *why, size_t size);
};

struct engine {
	const char *name;
	/*
	 * The implementation it comes from, when other engines share it
	 * ("pcre2" for pcre2-jit): a vote between engines (suites/case.h)
	 * counts a library once.  NULL: the name.
	 */
	const char *library;
	const char *desc;
	unsigned caps;                   /* enum engine_cap */
	enum engine_semantics semantics; /* what count() counts */
	enum engine_kind kind;           /* 0: in-process */
	/*
	 * 1: left out of a run that names no engines (make bench's), run
	 * with --engines=NAME or --engines=all: an engine for comparison
	 * whose rows would cost make bench's time budget more than they
	 * tell a data-path engineer (python-re, v8).
	 */
	int opt_in;
	/*
	 * Where its matching runs, for reports: NULL in user space (this
	 * process, or a runner's); "kernel" for a program the kernel runs
	 * (xdp's, by BPF_PROG_TEST_RUN).  A run records it as the results'
	 * "ENGINE-runs-in" (tools/context.c), which verdicts read.
	 */
	const char *runs_in;

	/* Library version string, e.g. "10.42". Never NULL. */
	const char *(*version)(void);

	/*
	 * Compile a set of n >= 1 patterns with `flags` (enum engine_flag).
	 * Returns 0 and a handle in *out, or a negative enum engine_status
	 * with *err filled.  The handle owns every buffer it needs to match
	 * (scratch, match data), so matching never allocates.
	 */
	int (*compile)(const struct engine_pattern *pats, size_t n,
		       unsigned flags, void **out, struct engine_error *err);

	/*
	 * Optional, NULL when the engine has none: compile() with each
	 * pattern's own flags, flags[k] for pats[k].  A suite with patterns
	 * of different flags (a rule set's /i beside none) may then hand
	 * them over as one set instead of one per flag combination (xdp:
	 * one program runs per packet).  Returns as compile().
	 */
	int (*compile_flagged)(const struct engine_pattern *pats,
			       const unsigned *flags, size_t n, void **out,
			       struct engine_error *err);

	/* 1 if any pattern of the set matches data[0..len), 0 if none, <0 error. */
	int (*is_match)(void *h, const char *data, size_t len);

	/*
	 * Number of matches in data (semantics class above): non-overlapping
	 * matches, resuming after each match and one byte past an empty one
	 * (with ENGINE_UTF8 one character: the byte and the continuation
	 * bytes after it, as the reference steps; no match starts or ends
	 * inside a character).
	 * For a set it is the sum over patterns; with ENGINE_ANCHORED it is
	 * 0 or 1 per pattern.  <0 on error.  May be NULL.
	 */
	long (*count)(void *h, const char *data, size_t len);

	/*
	 * Which patterns of the set match: ids[i] = 1 if pattern i matches
	 * anywhere, else 0 (ids has one byte per pattern).  Returns the number
	 * of patterns that matched, <0 on error.  May be NULL.
	 */
	long (*match_ids)(void *h, const char *data, size_t len,
			  unsigned char *ids);

	/* Bytes the compiled set occupies when the engine can tell, else 0. May be NULL. */
	size_t (*size)(void *h);

	void (*free)(void *h);

	/* Its --engine-opt options, ended by {NULL}; NULL: none. */
	const struct engine_option *options;

	/*
	 * Optional: the semantics class under the options set now (RE2's
	 * longest_match makes it leftmost-longest); NULL: `semantics`.
	 * Callers use engine_semantics().
	 */
	enum engine_semantics (*semantics_now)(void);

	/*
	 * Optional: whether h left its fast path while it matched in
	 * ENGINE_PHASE_WARM (RE2's DFA out of its memory budget, falling
	 * back to the NFA).  1 with a one-line message naming the option to
	 * change in msg[0..size), 0 when nothing to say.  Read once, after
	 * the warm pass: it may free what h kept to tell (re2's logging
	 * twins).  May be NULL.
	 */
	int (*note)(void *h, char *msg, size_t size);

	/*
	 * Optional flow scanning, NULL when the engine has none (a suite then
	 * scans the reassembled flow with is_match/match_ids, and says so).
	 * compile_flow: as compile(), for `mode`; ENGINE_ERR_UNSUPPORTED
	 * when the engine lacks that mode.  Its handle serves match_flow,
	 * size, mem and free only; it owns its scratch and one stream state,
	 * so matching never allocates (once its part list has grown to the
	 * longest flow) and must not run from two threads.
	 */
	int (*compile_flow)(enum engine_flow mode,
			    const struct engine_pattern *pats, size_t n,
			    unsigned flags, void **out,
			    struct engine_error *err);
	/*
	 * The flow parts[0..n) in the handle's mode, as match_ids (ids: a
	 * byte per pattern; returns how many matched), or with ids NULL as
	 * is_match (1 or 0, stopping at the first match).  A stream is
	 * opened, fed part by part and closed (matches at its end, `$`,
	 * reported then) within the call.  <0 on error.
	 */
	long (*match_flow)(void *h, const struct engine_span *parts, size_t n,
			   unsigned char *ids);
	/* Optional: what h occupies (struct engine_mem).  NULL: size() only. */
	void (*mem)(void *h, struct engine_mem *m);

	/*
	 * Optional, both or neither: matching state for one more thread
	 * over the compiled set h, which stays shared and read-only
	 * (Hyperscan's hs_clone_scratch, PCRE2's match data and JIT stack
	 * per thread).  thread_new returns a handle that is_match, count
	 * and match_ids take in place of h, from that one thread, while h
	 * lives; NULL out of memory.  thread_free frees it (never h).  An
	 * engine whose handle is safe on many threads as it is returns h
	 * itself (engine_thread_same below).
	 * thread_new may be called from the thread that will use the state.
	 * NULL: h's state cannot be shared between threads, and a suite
	 * runs the engine on one thread only (--threads: unsupported).
	 */
	void *(*thread_new)(void *h);
	void (*thread_free)(void *t);

	/*
	 * Optional: op on each of in[0..n) at once (callers use
	 * engine_answers()): values[i] the op's value on in[i] (is_match 1
	 * or 0, count, match_ids' number of patterns that matched); for
	 * match_ids, ids (when not NULL) gets a byte per pattern per input,
	 * input after input.  0, or a negative enum engine_status for the
	 * whole call.  NULL: engine_answers() loops over the ops.
	 */
	int (*answers)(void *h, enum engine_op op, const struct engine_span *in,
		       size_t n, long *values, unsigned char *ids);

	/*
	 * Optional: an engine that times itself (its matcher out of this
	 * process, as a runner's).  A job timing work w on set h (one of
	 * w->sets), owned by h; NULL out of memory.  NULL hook: the
	 * harness's clock times the suite's own loop.
	 */
	struct engine_job *(*work_new)(void *h, const struct engine_work *w);

	/*
	 * Optional, with work_new: the value work w's op computes on each
	 * of its inputs in turn (w->each set, op is_match, count or
	 * match_ids), exactly as a timed op computes it, its rewrite and
	 * names included, into values[0..w->ninputs): how a suite verifies
	 * a work whose op is more than one engine call.  0, or a negative
	 * enum engine_status with a one-line reason in why.  Callers use
	 * engine_work_values().
	 */
	int (*work_values)(const struct engine_work *w, long *values,
			   char *why, size_t size);

	/*
	 * Optional: whether the engine can run in this process at all: 1
	 * with a one-line reason in why[0..size) when it cannot (xdp where
	 * bpf() is refused: no CAP_BPF, a seccomp filter), 0 when it can.
	 * Callers use engine_unavailable(), which asks once per process,
	 * before anything compiles.  NULL: it always can.
	 */
	int (*unavailable)(char *why, size_t size);

	/*
	 * Optional, with work_new: whether the engine can time work w on
	 * any handle of its own (w->sets is not read: a suite asks before
	 * anything compiles).  1 with a one-line reason in why[0..size)
	 * naming the engine when it cannot (xdp times one packet per op:
	 * w->each 0), 0 when work_new would time it.  Callers use
	 * engine_work_refused().  NULL: every work.
	 */
	int (*work_check)(const struct engine_work *w, char *why,
			  size_t size);
};

/* The registry (engines/registry.c). */
extern const struct engine *const engine_table[];
extern const size_t engine_count;

/*
 * What this process is doing, set first thing in the children the
 * harness forks (the child_init of harness/isolate.h's isolate_run():
 * suites/case.c's for a verifying child, harness/bench.c's for a
 * measuring one): the parent compiles, a verifying child computes
 * answers, a measuring child times a sample.  The test-only engines
 * (crash.c) look at it, to fail in one phase on purpose.  A suite that
 * asks a verified case its inputs once in the parent before timing
 * (fqdn's warm pass) sets ENGINE_PHASE_WARM around it: an adapter may
 * then look closer at how it matches (re2: whether its DFA runs out of
 * memory), for engine.note; never while anything is timed.
 */
enum engine_phase {
	ENGINE_PHASE_PARENT = 0,
	ENGINE_PHASE_VERIFY,
	ENGINE_PHASE_MEASURE,
	ENGINE_PHASE_WARM,
};
extern enum engine_phase engine_phase;

/* Returns the engine called `name`, or NULL. */
const struct engine *engine_find(const char *name);

/* An engine this binary was built without, and why; ended by {NULL}. */
struct engine_missing {
	const char *name;
	const char *why; /* "libhs not found when configured (install ...)" */
};
extern const struct engine_missing engine_missing[];

/* Why engine `name` was left out at configure time, or NULL. */
const char *engine_missing_reason(const char *name);

/* True when a set on this engine is native rather than a loop over patterns. */
static inline int engine_set_native(const struct engine *e)
{
	return (e->caps & CAP_MULTI_NATIVE) != 0;
}

/*
 * thread_new and thread_free for a handle that many threads may match on
 * as it is (its library says so and the adapter keeps no scratch in it).
 */
static inline void *engine_thread_same(void *h)
{
	return h;
}

static inline void engine_thread_same_free(void *t)
{
	(void)t; /* it is the handle itself */
}

/*
 * Op on each of in[0..n) with e's answers hook, else one op per input:
 * as engine.answers (ids may be NULL; with it, match_ids needs npat, the
 * patterns of h, bytes per input).  at (may be NULL) gets the index of
 * the input being asked before each op, 0 before a hook that asks them
 * all at once: where a crash or a timeout stopped it (a suite's
 * case_ops.failed reads it).  ENGINE_ERR_UNSUPPORTED when e lacks the
 * op; else 0 or the first op's negative status.
 */
int engine_answers(const struct engine *e, void *h, enum engine_op op,
		   const struct engine_span *in, size_t n, size_t npat,
		   long *values, unsigned char *ids, size_t *at);

/*
 * work_values of e (ENGINE_ERR_UNSUPPORTED when e has none, why
 * filled).
 */
int engine_work_values(const struct engine *e, const struct engine_work *w,
		       long *values, char *why, size_t size);

/*
 * Why e cannot run in this process at all (engine.unavailable), asked
 * once per process for each hook and remembered; NULL when it can.  The
 * text lives as long as the process.  A suite makes every row of such an
 * engine one unsupported row with it, without compiling.
 */
const char *engine_unavailable(const struct engine *e);

/*
 * Whether e can do work w as a suite's benchmark would time it: e has
 * w's op (is_match, count or match_ids) and, when it times itself,
 * engine.work_check takes w (w->sets is not read).  1 with a one-line
 * reason naming e and what it lacks in why ("xdp has no count: it
 * answers is_match and match_ids only"), 0 when it can.  A suite asks
 * when it builds its cases, so that the row says why before anything
 * compiles.
 */
int engine_work_refused(const struct engine *e, const struct engine_work *w,
			char *why, size_t size);

/*
 * Whether e times itself (engine.work_new): its benchmarks time only
 * what a struct engine_work can say, never a suite's own loop.  Such an
 * engine's compile() also takes n == 0: a handle for a work without a
 * regex (a name map alone).
 */
static inline int engine_self_timed(const struct engine *e)
{
	return e->work_new != NULL;
}

/* "in-process" or "runner". */
static inline const char *engine_kind_name(const struct engine *e)
{
	return e->kind == ENGINE_RUNNER ? "runner" : "in-process";
}

/* e->library, or e->name when it has none. */
static inline const char *engine_library(const struct engine *e)
{
	return e->library != NULL ? e->library : e->name;
}

/* The class count() counts under the options set now. */
static inline enum engine_semantics engine_semantics(const struct engine *e)
{
	return e->semantics_now != NULL ? e->semantics_now() : e->semantics;
}

/*
 * Set an option from "ENGINE.KEY=VALUE" (the argument of --engine-opt).
 * 0, or -1 with a one-line reason in err ("not a size: use bytes or
 * K, M, G, as 64M"; "re2 has no option 'foo' (options: max_mem, ...)").
 * "ENGINE.KEY=V1,V2,..." sweeps it instead: engine_opt_entries() makes
 * the engine an entry per value (a bad value: "'foo': use one of ...").
 */
int engine_opt_set(const char *arg, char *err, size_t size);

/* Variants of swept engines a run holds, all engines together. */
#define ENGINE_OPT_VARIANTS_MAX 16

/*
 * How many entries e runs as: 1, or for a sweep the product of its swept
 * options' value counts (what engine_opt_entries() would make).
 */
size_t engine_opt_entry_count(const struct engine *e);

/* Whether an --engine-opt list sweeps an option of e (its entries are
 * variants, counted against ENGINE_OPT_VARIANTS_MAX). */
int engine_opt_swept(const struct engine *e);

/*
 * The entries e runs as, into out[0..max): e itself, or for a sweep a
 * variant per value (per combination when several options of e are
 * swept): a copy of e whose compile, compile_flow and semantics_now run
 * e's with the variant's values set, as compile reads them, and whose
 * benchmark name carries the swept values ("xdp,action:tx").  How many,
 * or -1 with err when they do not fit.  Variants live until
 * engine_opts_reset().
 */
long engine_opt_entries(const struct engine *e, const struct engine **out,
			size_t max, char *err, size_t size);

/* Option o's value as e runs it (a variant's own, else the set one). */
uint64_t engine_opt_value(const struct engine *e,
			  const struct engine_option *o);

/* Every option of every engine back to its default, no sweeps (tests). */
void engine_opts_reset(void);

/*
 * The options of e that differ from their defaults, as
 * "max_mem:64M,longest_match:true" into buf (empty when none, or no
 * options).  Returns the length written.
 */
size_t engine_opts_changed(const struct engine *e, char *buf, size_t size);

/*
 * e's name in benchmark names: "re2", or with the options that differ
 * from their defaults, "re2,max_mem:64M" (Go-name-safe: no '/', '=' or
 * blank; --bench=engine=re2 still selects it).  Valid until the next
 * call for the same engine.
 */
const char *engine_bench_name(const struct engine *e);

/* An option's current value as --engine-opt would spell it, into buf. */
void engine_opt_format(const struct engine_option *o, uint64_t v, char *buf,
		       size_t size);

/* Fill err: helper for adapters. */
void engine_error_set(struct engine_error *err, int status, long pattern,
		      long offset, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));

#endif

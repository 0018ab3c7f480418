/*
 * case.h - the one verify-and-plan pipeline every suite feeds.
 *
 * A suite describes its work as a table of cases.  A case is one
 * benchmark name on one engine (or on a matcher of the suite's own, with
 * no engine: see case_item.e): what it needs (capabilities), which
 * reference group its answer belongs to, and the suite's data; the suite's
 * case_ops say how to compile it, compute its answer, compute the expected
 * answer, describe an answer in words and build the timed op.  case_run()
 * does the rest the same way for every suite:
 *
 *   1. gate     a case whose engine cannot run here at all
 *               (engine_unavailable(): its reason), lacks a capability it
 *               needs, or that the suite gated for a finer reason, is an
 *               unsupported row;
 *   2. compile  a failure is an error (or unsupported) row naming the
 *               engine and what it compiled;
 *   3. answer   every compiled case's answer is computed in one forked
 *               child with --timeout per answer (case_answers(), on
 *               harness/isolate.h): a timeout, a crash or an engine
 *               error is a row;
 *   4. verify   each answer is compared with its group's expected answer,
 *               computed once per group and class from the input alone
 *               (never from which engines ran, or in what order) in a
 *               forked child with --timeout too, before any answer.  Where
 *               the suite has no reference for a group, a strict majority
 *               of at least three libraries of the class stands in for it
 *               (engine_library: pcre2 and pcre2-jit are one), among every
 *               built engine, whatever --engines chose: the pipeline adds
 *               voters, the group's case on each engine of
 *               case_table.voters not in the group whose capabilities
 *               cover the case's needs and that the suite accepts
 *               (case_ops.voter), compiled and answered with the others in
 *               step 3 but never planned nor reported; otherwise the case
 *               is unverified.  An answer in parts (case_ops.parts: a rule
 *               set's answer, rule by rule) is verified part by part the
 *               same way.  A different answer is a MISMATCH row naming both
 *               answers and what computed the expected one;
 *   5. plan     a verified case becomes a benchmark that records what it
 *               was verified against; an unverified one gets an
 *               `unverified` row and no time, unless --allow-unverified,
 *               when it is timed and marked unverified in every output.
 *
 * Cases outside the --bench filter are dropped before anything runs.
 *
 * A case is usually one benchmark, named as the case.  A case whose one
 * answer several benchmarks rely on (the phases of one compiled matcher:
 * compile, match, ...) lists them with case_add_bench(): it is dropped
 * when --bench selects none of them, planned once per benchmark selected
 * when verified, and its rows carry the case's own name.
 */
#ifndef RXB_CASE_H
#define RXB_CASE_H

#include <stddef.h>

#include "harness/isolate.h"
#include "suites/suite.h"

/* What a case's expected answer came from (case_ops.expect). */
enum case_ref {
	CASE_REF_OK = 0,    /* the suite's reference computed it */
	CASE_REF_NONE = 1,  /* no reference reaches this group: vote */
	CASE_REF_ERROR = -1 /* out of memory */
};

/*
 * The first byte of each part of an answer in parts (case_ops.parts): does
 * the answer hold this part?  A case's answer leaves out the parts it does
 * not answer (the rules an engine could not compile), an expected answer
 * the parts nothing in the suite computes (the rules out of the
 * reference's reach).  The other bytes of a part left out are 0.
 */
enum case_part {
	CASE_PART_NONE = 0,
	CASE_PART_SET = 1,
};

/* One of the benchmarks of a case of several (case_add_bench()). */
struct case_bench {
	char *name; /* "FQDN/phase=compile/..."; owned */
	void *arg;  /* the suite's: case_ops.bench() finds it in b->arg */
};

struct case_item {
	char *name;  /* the benchmark name ("Scan/engine=re2/..."), and the
			name of the case's rows; owned */
	char *label; /* for messages: "re2: pattern literal"; owned */
	/* NULL: a matcher of the suite's own, no engine (a trie): it needs
	   no capability and never counts in a vote */
	const struct engine *e;
	unsigned needs; /* enum engine_cap the case needs */
	char *gate;     /* non-NULL: unsupported for this reason; owned */
	size_t group;   /* cases of one group are added together */
	int klass;      /* within a group, cases of one class share the
			   expected answer (a semantics class, say) */
	void *arg;      /* the suite's data for the case; not owned */
	void *st;       /* the table's state (case_table.st), for a timed op
			   that is given only the item */
	void *h;        /* the compiled handle; NULL when none, or when the
			   compiled case needs none (a trie the suite built) */
	struct case_bench *bench; /* case_add_bench(); NULL: one benchmark,
				     named `name` */
	size_t nbench;
	/* set by case_run() */
	int compiled;        /* 1 when compile() succeeded */
	int planned;         /* 1 when it became a benchmark (any of them) */
	int unverified;      /* ... timed unverified (--allow-unverified) */
	unsigned char *answer; /* ops->answer_size bytes, when answered */
	struct result_inputs in; /* case_input(); every row of it records them */
	int voter;           /* 1: a voter case_run() added (step 4) */
};

struct case_ops {
	size_t answer_size; /* bytes of one answer (> 0) */

	/*
	 * Optional: 0, or the number of parts of an answer.  The answer is
	 * then `parts` slices of answer_size / parts bytes (answer_size a
	 * multiple of parts), each opened by its enum case_part byte, and
	 * each part is verified alone: against the expected answer's part,
	 * or where the expected answer leaves it out, against a strict
	 * majority of at least three libraries of the cases that answer it,
	 * else that part is unverified.  A case is verified when every part
	 * it answers is, a MISMATCH when any differs, else unverified.  An
	 * expected answer that is CASE_REF_NONE, or that the reference failed
	 * to give, leaves out every part.  part_name names a part in
	 * messages ("rule"; an 's' makes the plural).
	 */
	size_t parts;
	const char *part_name;

	/*
	 * Compile c for c->e into *h (NULL is a valid handle: the case then
	 * has nothing to free).  0, or a negative enum engine_status
	 * (ENGINE_ERR_UNSUPPORTED makes an unsupported row) with the
	 * engine's one-line reason in why.
	 */
	int (*compile)(void *st, const struct case_item *c, void **h,
		       char *why, size_t size);

	/*
	 * c's answer into out (answer_size bytes), run in the verifying
	 * child: it may change nothing the parent needs.  0, or a negative
	 * enum engine_status.
	 */
	int (*answer)(void *st, const struct case_item *c, void *out);

	/*
	 * The expected answer for c's group and class into out, computed
	 * from the input alone; `by` gets what computed it ("reference Pike
	 * VM, leftmost-first").  CASE_REF_NONE when nothing in the suite
	 * reaches it (`by` then says why); CASE_REF_ERROR out of memory.
	 */
	int (*expect)(void *st, const struct case_item *c, void *out,
		      char *by, size_t size);

	/* An answer in words, for messages: "count 7, is_match 1". */
	void (*describe)(void *st, const struct case_item *c,
			 const void *answer, char *buf, size_t size);

	/*
	 * Optional: where answer `got` differs from `want`, in words, for a
	 * MISMATCH message ("first: packet 12 ...").  NULL: nothing more.
	 * buf holds at least 1,500 bytes: room to quote an input whole.
	 */
	void (*explain)(void *st, const struct case_item *c, const void *got,
			const void *want, char *buf, size_t size);

	/*
	 * Fill b's op (run, arg, bytes_per_op, extra metrics) for verified
	 * case c whose answer is `answer` (it stays there, in the table, until
	 * case_table_release()); name, suite and verification are filled by
	 * case_run().  b comes zeroed but for b->arg: the arg given to
	 * case_add_bench() for this benchmark, NULL for a case of one.
	 * 0, or -1 out of memory.
	 */
	int (*bench)(void *st, struct case_item *c, const void *answer,
		     struct bench *b);

	/* Free c->h (never called when it is NULL). */
	void (*release)(void *st, struct case_item *c);

	/*
	 * Optional: may engine e, which has no case in c's group, vote on
	 * the group's expected answer (step 4)?  0 yes, with *klass the class
	 * its answer is held to; 1 no (the suite's gate refuses e for c, as
	 * case_add()'s gate would: `$` without perl-dollar, say).  NULL: the
	 * suite's votes are among the run's engines only.  A voter is a copy
	 * of c on e: the same arg and needs, with case_item.e and .voter set,
	 * no inputs nor benchmarks; so compile(), answer() and release() must
	 * take the engine from c->e, never from arg.  It is compiled and
	 * answered as any case, before the cases (what an answer leaves in
	 * shared state for failed() is then the case's own); a voter that
	 * fails anywhere is left out silently: it has no row.
	 */
	int (*voter)(void *st, const struct case_item *c,
		     const struct engine *e, int *klass);

	/*
	 * Optional: where c's answer failed (no answer in time, a crash, an
	 * engine error), in words, added to its row ("on packet 12 ...").
	 * Called in the parent after the verifying child is gone, so it can
	 * know only what the child left in memory shared with the parent.
	 * buf holds at least 1,500 bytes: room to quote an input whole.
	 */
	void (*failed)(void *st, const struct case_item *c, char *buf,
		       size_t size);
};

struct case_table {
	const char *suite;          /* static: "scan" */
	const struct case_ops *ops;
	void *st;                   /* the suite's per-run state, passed to ops */
	struct case_item *c;
	size_t n, cap;
	unsigned char *answers;     /* (n + nv) * ops->answer_size */
	struct result_inputs in;    /* case_table_input(): every case's */
	/* the engines a vote may ask: case_table_init() sets the registry's
	   (every engine built; test-only ones never vote); a test its own */
	const struct engine *const *voters;
	size_t nvoters;
	struct case_item *v;        /* the voters case_run() added, by group */
	size_t nv, vcap;
};

void case_table_init(struct case_table *t, const char *suite,
		     const struct case_ops *ops, void *st);

/*
 * Append a case: name and label are copied, gate (may be NULL) too; e
 * may be NULL (case_item.e), and needs is then ignored.  The item must not be referenced after case_run() until release, except
 * through the table.  0, or -1 out of memory.
 */
int case_add(struct case_table *t, const char *name, const char *label,
	     const struct engine *e, unsigned needs, const char *gate,
	     size_t group, int klass, void *arg);

/*
 * Give the case added last one more benchmark, `name` (copied); `arg`
 * reaches case_ops.bench() in b->arg.  0, or -1 out of memory.
 */
int case_add_bench(struct case_table *t, const char *name, void *arg);

/*
 * Inputs every row records (harness/results.h: the pattern's bytes, the
 * corpus's sha256, ...): case_input() for the case added last,
 * case_table_input() for every case of the table (a case's own replaces
 * the table's of the same key).  0, or -1 out of memory.
 */
int case_input(struct case_table *t, const char *key, const void *value,
	       size_t len);
int case_table_input(struct case_table *t, const char *key,
		     const void *value, size_t len);

/*
 * Data every case reads, as three inputs of the table: KEY (its path, or
 * `what` when path is NULL: "generated prose"), KEY-size and KEY-sha256
 * (corpora/digest.h; left out when built without nettle).  0 or -1.
 */
int case_table_input_data(struct case_table *t, const char *key,
			  const char *path, const char *what,
			  const void *data, size_t len);

/* Same for a file read here (a policy): a one-line error in err. */
int case_table_input_file(struct case_table *t, const char *key,
			  const char *path, char *err, size_t errsize);

/*
 * The same three inputs into any set (a benchmark's own, a suite's kept
 * for its floors): name is the path or what the data is; the file is
 * read whole (corpus_load_file: a one-line error in err).  0 or -1.
 */
int case_inputs_data(struct result_inputs *in, const char *key,
		     const char *name, const void *data, size_t len);
int case_inputs_file(struct result_inputs *in, const char *key,
		     const char *path, char *err, size_t errsize);

/*
 * The pipeline above, adding rows to ctx->results and benchmarks to
 * ctx->plan.  The items stay where they are (benchmarks point at them)
 * until case_table_release().  0; STATUS_INTERRUPTED when a signal
 * stopped it (nothing more is planned); -1 out of memory.
 */
int case_run(struct case_table *t, struct suite_ctx *ctx);

/* Free every handle, name and answer. */
void case_table_release(struct case_table *t);

/*
 * The timing of b, in case_ops.bench(), for every case whatever its
 * engine (engines/engine.h, "Runners behind the interface"): the suite
 * fills b->run and b->arg, its own loop, and describes the same op as
 * work w on handle h (one of w->sets); when engine e times itself
 * (work_new), b is timed by e's job for w instead (self_time; run is
 * never called), a job h owns.  Otherwise nothing changes.  0, or -1
 * out of memory.
 */
int case_bench_work(struct bench *b, const struct engine *e, void *h,
		    const struct engine_work *w);

/* b timed by job (a suite's own request's, engines/runner.h's
 * runner_add_request()); NULL (out of memory) is -1. */
int case_bench_job(struct bench *b, struct engine_job *job);

/*
 * Step 3 for any items (suites not yet on the pipeline call it too): the
 * answers verification needs, computed by isolate_run() in forked
 * children with engine_phase ENGINE_PHASE_VERIFY and o->timeout_ns per
 * answer, so that a pattern an engine takes minutes over (glibc's
 * regexec has no match limit) or a crash costs one item, not the run.
 * Each v[i].status is bench_verdict_status()'s: 0, answer()'s status, or
 * STATUS_TIMEOUT / _CRASHED / _SKIPPED.  Without o->isolate the items run
 * in this process.  Returns 0; STATUS_INTERRUPTED when a signal stopped
 * it (the items from the one running on are left unset); STATUS_SYSTEM
 * when pipe or fork failed (the items from there on then ran here).
 */
int case_answers(const struct isolate_items *it, const struct bench_opts *o,
		 void *out, struct isolate_verdict *v);

/*
 * One-line text of a failed case_answers() verdict: "crashed: signal 11
 * (...) while verifying", "no answer within 60s while verifying: ...",
 * or for answer()'s own status its name ("match limit").
 */
void case_verdict_text(const struct isolate_verdict *v,
		       const struct bench_opts *o, char *buf, size_t size);

#endif

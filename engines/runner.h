/*
 * runner.h - engines that run out of process: the runner protocol, and
 * the client every runner adapter (engines/go.c, ...) shares.
 *
 * A runner is a small program in the engine's language (Go's regexp
 * cannot live inside rxbench: its runtime does not survive the fork per
 * sample, and a call from C into Go costs microseconds, more than the ops
 * measured).  rxbench starts it as a child with a socket as its stdin and
 * stdout and sends it requests; the runner answers each with one reply.
 * A runner that exits, or says something malformed, is a crash
 * (STATUS_CRASHED) of the op that asked.  Its stderr is rxbench's.
 *
 * Where it is: <dir of the rxbench binary>/runners/<program>, else the
 * build directory's runners/ (RXB_RUNNER_DIR, for the test binaries),
 * never $PATH.  A runner is started per process that uses it: the parent
 * compiles in one (compile errors), the verifying child and every
 * measuring child start their own and compile the sets they use again.
 * A child's runner dies with it (PR_SET_PDEATHSIG), so a sample killed at
 * --timeout kills its runner too.
 *
 * == The protocol ==
 *
 * Every message, both ways: a u32 length L, then L bytes: a type byte and
 * its fields.  Integers are little-endian (u8, u32, u64); f64 is an IEEE
 * double's bits as a u64; `bytes` is a u32 length and that many bytes,
 * exact (NUL, CR, bytes above 0x7f: patterns and inputs are not text).
 *
 *   request                           reply
 *   'H' hello                         'H' bytes version ("1.19.8")
 *   'C' compile u32 id, u32 flags,    'K' ok, or 'E' error
 *       u32 n, n x bytes pattern
 *   'F' free u32 id                   'K'
 *   'M' match u32 id, u8 op,          'R' u64 value, bytes ids (match_ids:
 *       bytes input                       one byte per pattern, else empty)
 *   'A' answers u32 id, u8 op,        'A' u32 n, n x (u64 value, bytes ids)
 *       u32 n, n x bytes input
 *   'W' work u8 op, u8 flags,         'K', or 'E'
 *       u32 nsets, nsets x u32 id,
 *       u32 nnames, nnames x bytes,
 *       u32 ninputs, ninputs x bytes
 *   'V' work values                   'A' as answers (ids empty)
 *   'B' bench u64 benchtime_ns,       'S' u64 n, f64 ns/op, f64 B/op,
 *       u64 fixed_n, u64 warmup_ns,       f64 allocs/op, f64 floor ns/op,
 *       u8 mode                           f64 B(heap)/op (B/op, allocs/op
 *                                         and B(heap)/op < 0: unknown)
 *   (a suite's own requests: below)
 *   'E' (reply only): u32 status, u32 pattern (index, or 0xffffffff),
 *       bytes message.  status: 1 compile error, 2 unsupported (what the
 *       language cannot do: the message says what), 5 any other failure.
 *
 * compile: flags are enum engine_flag (engines/pattern.h), applied to
 * every pattern of the set; a runner maps those its language has and
 * refuses the others as unsupported (2).  The set is kept under `id`.
 *
 * match: op 1 is_match, 2 count, 3 match_ids, on one input, with the
 * meaning of engines/engine.h (count: non-overlapping matches summed over
 * the set; match_ids: which patterns match).  These are the answers
 * rxbench verifies.
 *
 * answers: match's op on every input in turn, in one round trip: the
 * i-th value and ids are what 'M' would answer for input i.  This is
 * how rxbench verifies a case (every packet, query or line at once: a
 * round trip per input cost seconds per suite).  A failure on any input
 * is the request's 'E'.
 *
 * work: what the next bench times.  op 0 is nothing (the floor), 1-3 as
 * above, 4 compile (one op compiles every pattern of the sets again).
 * flags bit 0 (each) set: one op is the op on the next input, cycling
 * over them (a packet, a query); clear: one op is the op on every input
 * in turn (a corpus, the lines of a file).  Bits 1 to 7 are the suite's:
 * what each op does to its input first, as the suite's own ops do
 * (its suites/SUITE_runner.h says which); a runner refuses bits it does
 * not know.  names, when there are any: an input (as the op made it)
 * found in this set of names counts 1 without asking the regex (a map
 * looked up first).  The value of one input is the sum over
 * the sets.
 *
 * values: the current work's op (each set, op 1-3) on each of its inputs
 * in turn, exactly as a bench's op computes it, rewrite and names
 * included: what rxbench verifies of a work that rewrites.
 *
 * bench: one sample with --benchtime's rules: a warm-up of whole passes
 * over the inputs until warmup_ns has gone by (at least one pass), then n
 * grows like testing.B's (1, then predicted from the last run, +20%, at
 * most 100x) until a run lasts benchtime_ns, or n is fixed_n when that is
 * not 0.  ns/op is the last run's; B/op and allocs/op come from the
 * runtime's own counters over that run where it has them (Go: MemStats
 * TotalAlloc and Mallocs, as testing.B.ReportAllocs).  The floor is the
 * same loop at the same n with op 0, timed the same way.
 *
 * A suite's own requests (its suites/SUITE_runner.h documents them)
 * use the same framing: a world is a handle loaded by a request the
 * suite builds (sent again in every process that uses it, as 'C' is),
 * asked by others (runner_call), and timed by a request sent in place of
 * 'W' (runner_add_request).  A runner answers a request it does not know
 * with 'E'.
 *
 * mode 0 is warm: what the runtime keeps between ops (Go's regexp
 * machine pool) stays, as in a long-running proxy.  Mode 1 is the seed's
 * method (seed 000's Go benchmark): before every op the garbage is
 * collected with the clock stopped, which empties what a runtime pools
 * (every Go op then builds its matcher again), and only the op itself is
 * timed and counted: the clock and the memory counters are read around
 * each op, as testing.B's StartTimer and StopTimer do.  Its n grows with
 * the same rules but stops when a run's wall time reaches benchtime (the
 * collections are not timed and dominate it).  A runner without mode 1
 * answers 'E' unsupported (2).
 */
#ifndef RXB_RUNNER_H
#define RXB_RUNNER_H

#include <stddef.h>
#include <stdint.h>

#include "engines/engine.h"

/* One runner program. */
struct runner_def {
	const char *name;    /* the engine's, for messages */
	const char *program; /* file name under runners/: "rxbench-go" */
	const char *interp;  /* NULL: run the program; else this interpreter,
				the program its script ("/usr/bin/python3") */
	const uint64_t *mode; /* the engine option sent as 'B''s mode (enum
				 runner_mode); NULL: RUNNER_MODE_WARM */
};

/* 'B''s mode. */
enum runner_mode {
	RUNNER_MODE_WARM = 0,
	RUNNER_MODE_SEED = 1,
};

/* The protocol's ops ('M' and 'W') are enum engine_op's numbers, and
 * 'W' says what a struct engine_work says (engines/engine.h); its
 * rewrite bits (1 to 7, 0: none) are the suite's. */

/*
 * The engine ops of a runner adapter.  runner_compile copies the
 * patterns (every process compiles them again in its own runner) and
 * compiles them in this process's runner: 0, or a negative enum
 * engine_status with err filled (the runner's message, or why the runner
 * could not start).  The others are engine.h's; a runner that died is
 * STATUS_CRASHED.
 */
int runner_compile(const struct runner_def *def,
		   const struct engine_pattern *pats, size_t n, unsigned flags,
		   void **out, struct engine_error *err);
int runner_is_match(void *h, const char *data, size_t len);
long runner_count(void *h, const char *data, size_t len);
long runner_match_ids(void *h, const char *data, size_t len,
		      unsigned char *ids);
void runner_free(void *h);

/* Patterns in set h (match_ids' bytes per input). */
size_t runner_npatterns(const void *h);

/*
 * Op (is_match, count or match_ids) on each of in[0..n) in one request
 * ('A'): values[i] the op's value on in[i]; for match_ids, ids (when not
 * NULL) gets runner_npatterns(h) bytes per input, input after input.
 * 0, or a negative enum engine_status (STATUS_CRASHED: the runner died)
 * for the whole request.
 */
int runner_answers(void *h, enum engine_op op, const struct engine_span *in,
		   size_t n, long *values, unsigned char *ids);

/* is_match on each of in[0..n) in one request: hit[i] 0 or 1.  As
 * runner_answers(). */
int runner_is_match_each(void *h, const struct engine_span *in, size_t n,
			 unsigned char *hit);

/*
 * The values work w's op computes on each of its inputs ('W' then 'V':
 * each = 1, op 1-3, not a suite's request), into
 * values[0..w->ninputs), in this process's runner (its sets compiled
 * there first).  This is how a work
 * whose op does more than the regex (a rewrite, a map) is verified.  0,
 * or a negative enum engine_status with why filled.
 */
int runner_work_values(const struct engine_work *w, long *values, char *why,
		       size_t size);

/* The version the runner reports ("1.19.8"), asked once; "unknown" when
 * it cannot start.  Never NULL. */
const char *runner_version(const struct runner_def *def);

/*
 * A copy of w (its arrays, not the bytes they point to, which must
 * outlive h) kept in handle h, which must be one of w->sets or, when w
 * has no set, any handle of the same runner; freed with h.  Returns the
 * job (engine.h's work_new hook: its sample() is timed by the runner of
 * the calling process, which compiles the job's sets first), or NULL out
 * of memory.
 */
struct engine_job *runner_add_work(void *h, const struct engine_work *w);

/*
 * A suite's own requests (its protocol on this framing, in
 * suites/SUITE_runner.h).  A message is a type byte and its
 * fields, built with runner_msg_*() (little-endian, as above; bytes: u32
 * length and the bytes); a reply is read with runner_msg_get() from after
 * its type.  A short read or an allocation failure sets oom.  Release
 * with runner_msg_release().
 */
struct runner_msg {
	unsigned char *p;
	size_t n, cap;
	int oom;
	size_t at; /* reading: the next field */
};

void runner_msg_u8(struct runner_msg *m, unsigned v);
void runner_msg_u32(struct runner_msg *m, uint32_t v);
void runner_msg_bytes(struct runner_msg *m, const char *p, size_t n);
void runner_msg_put(struct runner_msg *m, const void *p, size_t n);
uint64_t runner_msg_get(struct runner_msg *m, int bytes);
void runner_msg_release(struct runner_msg *m);

/* The id of set or world h in the protocol's requests. */
uint32_t runner_id(const void *h);

/*
 * A world: a handle of the runner of h (any set of it) that a suite's
 * request loads, rather than 'C'; freed with runner_free (its 'F'), and
 * used as a set is (runner_unload, runner_add_request).  NULL out of
 * memory.  runner_world_load keeps a copy of req and sends it in this
 * process's runner (and again in every process that uses the world); its
 * reply must be of type reply_type, else an error (a runner's 'E': its
 * status and message in err).  *reply (when not NULL) gets the reply,
 * read from after its type; release it.  0, or a negative enum
 * engine_status with err filled.
 */
void *runner_world_new(void *h);
int runner_world_load(void *world, const struct runner_msg *req,
		      int reply_type, struct runner_msg *reply,
		      struct engine_error *err);

/*
 * Request m (its type and fields) for set or world h, in this process's
 * runner (h loaded there first); m becomes the reply, read from after its
 * type, which must be of type want.  0, or a negative enum engine_status
 * with why filled (STATUS_CRASHED: the runner died).
 */
int runner_call(void *h, struct runner_msg *m, int want, char *why,
		size_t size);

/* The values of an 'A' reply of n inputs (its ids ignored) into values.
 * 0, or STATUS_CRASHED when it is malformed. */
int runner_read_values(struct runner_msg *m, size_t n, long *values);

/*
 * A job as runner_add_work()'s whose request (type and fields, copied)
 * the suite built, sent in place of 'W' before each 'B'; it times set or
 * world h (loaded first) and is freed with h.  NULL out of memory.
 */
void *runner_add_request(void *h, const struct runner_msg *req);

/* Free h's set or world in this process's runner now (what it holds
 * there), keeping the handle: a later use compiles it again. */
void runner_unload(void *h);

/*
 * A runner adapter's two functions of its own, PREFIX_version and
 * PREFIX_compile, for its struct runner_def DEF (engine.h has no
 * per-engine argument to pass it), and the ops of its table entry:
 *
 *	static const struct runner_def py_def = {...};
 *	RUNNER_ADAPTER(py, py_def)
 *	const struct engine engine_py = {.name = ...,
 *		.caps = RUNNER_CAPS | CAP_LAZY | ..., RUNNER_OPS(py)};
 */
#define RUNNER_ADAPTER(PREFIX, DEF)                                         \
	static const char *PREFIX##_version(void)                           \
	{                                                                   \
		return runner_version(&(DEF));                              \
	}                                                                   \
	static int PREFIX##_compile(const struct engine_pattern *pats,      \
				    size_t n, unsigned flags, void **out,   \
				    struct engine_error *err)               \
	{                                                                   \
		return runner_compile(&(DEF), pats, n, flags, out, err);    \
	}

/* What every runner is (engines/pattern.h). */
#define RUNNER_CAPS (CAP_SET_IN_ORDER | CAP_REQUESTS)

#define RUNNER_OPS(PREFIX)                                                  \
	.kind = ENGINE_RUNNER, .version = PREFIX##_version,                 \
	.compile = PREFIX##_compile, .is_match = runner_is_match,           \
	.count = runner_count, .match_ids = runner_match_ids,               \
	.free = runner_free, .answers = runner_answers,                     \
	.work_new = runner_add_work, .work_values = runner_work_values

#endif

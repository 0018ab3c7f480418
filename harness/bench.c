/*
 * bench.c - the measured loop, one sample per forked child (see bench.h).
 */
#include "harness/bench.h"

#include "engines/engine.h"
#include "harness/alloc.h"
#include "harness/callgrind.h"
#include "harness/clock.h"
#include "harness/interrupt.h"
#include "harness/isolate.h"
#include "harness/parse.h"
#include "harness/sample.h"
#include "harness/threads.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define BENCH_MAX_N 1000000000ull

/* The unit s starts with, as a factor to ns (*len its bytes); 0 when it
 * starts with none of Go's (time.ParseDuration: ns us µs ms s m h). */
static double duration_unit(const char *s, size_t *len)
{
	static const struct {
		const char *unit;
		double ns;
	} units[] = {{"ns", 1},       {"us", 1e3},  {"\xc2\xb5s", 1e3},
		     {"\xce\xbcs", 1e3}, {"ms", 1e6},  {"s", 1e9},
		     {"m", 60e9},     {"h", 3600e9}};

	for (size_t i = 0; i < sizeof(units) / sizeof(units[0]); i++) {
		size_t k = strlen(units[i].unit);
		if (strncmp(s, units[i].unit, k) == 0) {
			*len = k;
			return units[i].ns;
		}
	}
	return 0;
}

int bench_parse_duration(const char *s, double *ns)
{
	char num[64], err[64];
	double total = 0;

	if (*s == '\0')
		return -1;
	while (*s != '\0') { /* Go's sequence: "1m30s", "1.5h", "500ms" */
		size_t len = strspn(s, "0123456789."), ulen = 0;
		double unit = duration_unit(s + len, &ulen), v;
		if (len == 0 || len >= sizeof(num) || unit == 0)
			return -1;
		memcpy(num, s, len);
		num[len] = '\0';
		if (parse_real(num, 0, 1e30, &v, err, sizeof(err)) != 0)
			return -1;
		total += v * unit;
		s += len + ulen;
	}
	if (total < 1 || total > 3600e9)
		return -1;
	*ns = total;
	return 0;
}

int bench_parse_benchtime(const char *s, struct bench_opts *o)
{
	size_t len = strlen(s);
	char num[32], err[64];
	uint64_t n;

	if (len > 1 && s[len - 1] == 'x') {
		if (len - 1 >= sizeof(num))
			return -1;
		memcpy(num, s, len - 1);
		num[len - 1] = '\0';
		if (parse_u64(num, 1, BENCH_MAX_N, &n, err, sizeof(err)) != 0)
			return -1;
		o->fixed_n = n;
		return 0;
	}
	if (bench_parse_duration(s, &o->benchtime_ns) != 0)
		return -1;
	o->fixed_n = 0;
	return 0;
}

int plan_add(struct plan *p, const struct bench *b)
{
	if (p->n == p->cap) {
		size_t cap = p->cap ? p->cap * 2 : 16;
		struct bench *grown = realloc(p->b, cap * sizeof(*grown));
		if (grown == NULL)
			return -1;
		p->b = grown;
		p->cap = cap;
	}
	p->b[p->n++] = *b;
	return 0;
}

void plan_release(struct plan *p)
{
	for (size_t i = 0; i < p->n; i++) {
		free(p->b[i].name);
		free(p->b[i].verified);
		result_inputs_release(&p->b[i].in);
		free(p->b[i].note);
	}
	free(p->b);
	p->b = NULL;
	p->n = 0;
	p->cap = 0;
}

uint64_t bench_predict_n(uint64_t last, uint64_t ns, double goal_ns)
{
	double n;

	if (ns == 0)
		ns = 1;
	/* Go: predict, overshoot by 20%, grow at most 100x, at least +1. */
	n = goal_ns * (double)last / (double)ns;
	n += n / 5;
	if (n > 100.0 * (double)last)
		n = 100.0 * (double)last;
	if (n < (double)last + 1)
		n = (double)last + 1;
	if (n > (double)BENCH_MAX_N)
		n = (double)BENCH_MAX_N;
	return (uint64_t)n;
}

/*
 * Time one run of n ops (harness/clock.h).  --measure=wall: the wall
 * clock, as go test.  By default the wall clock too, unless the run was
 * preempted (another process ran, or the host took the vCPU): when the
 * wall clock saw more than BENCH_PREEMPT_NS beyond the process's CPU
 * time.  A preempted run of at least BENCH_CPU_MIN_NS of CPU time counts
 * its CPU time (the CPU clock jitters by microseconds here: too coarse
 * for a short run); a shorter one is timed again, up to
 * BENCH_PREEMPT_TRIES times, the ops going on from where they were.
 * The CPU clock is read only around a run expected to last
 * BENCH_WATCH_NS or more (watch): its system call, just before a run
 * of 10 ops, made each op 100 ns slower here (the kernel's code and
 * data in the op's caches), and a shorter run is seldom preempted.  It
 * is read outside the wall clock's bracket: its system call is where a
 * waiting process takes the CPU.
 */
static int bench_time(const struct bench *b, const struct bench_opts *o,
		      uint64_t n, int watch, uint64_t *ns)
{
	watch = watch && o->measure != BENCH_WALL;
	for (int tries = 1;; tries++) {
		uint64_t c0 = 0, c1 = 0, w0, w, c;
		int rc;

		if (watch)
			c0 = clock_cpu_ns();
		w0 = clock_ns();
		rc = b->run(b->arg, n);
		w = clock_ns() - w0;
		if (watch)
			c1 = clock_cpu_ns();
		c = c1 - c0;
		*ns = w;
		if (!watch || rc < 0 || w <= c + BENCH_PREEMPT_NS)
			return rc;
		if (c >= BENCH_CPU_MIN_NS) {
			*ns = c;
			return rc;
		}
		if (tries == BENCH_PREEMPT_TRIES)
			return rc;
	}
}

uint64_t bench_pass_n(const struct bench *b)
{
	return b->pass_n > 1 ? b->pass_n : 1;
}

/*
 * Warm the op up before a sample is timed, in the process that times
 * it (each sample's child starts cold: caches, branch predictors, lazy
 * state): whole passes over the input set until o->warmup_ns has gone
 * by, at least one.  *per: the ns an op took in it (an estimate for
 * bench_time's watch).  0, or the op's negative status.
 */
static int bench_warm(const struct bench *b, const struct bench_opts *o,
		      double *per)
{
	uint64_t t0 = clock_ns(), ops = 0;
	int rc;

	do {
		rc = b->run(b->arg, bench_pass_n(b));
		ops += bench_pass_n(b);
	} while (rc == 0 && (double)(clock_ns() - t0) < o->warmup_ns &&
		 !interrupt_signal());
	*per = (double)(clock_ns() - t0) / (double)ops;
	return rc;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return (x > y) - (x < y);
}

uint64_t bench_median_u64(uint64_t *v, size_t n)
{
	qsort(v, n, sizeof(v[0]), cmp_u64);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/*
 * The fixed cost of one timed run: the clock reads that bracket it and
 * the call into the op, timed as a run of 0 ops (the median of
 * BENCH_FLOOR_RUNS: what a timed run typically pays, where the fastest
 * would leave part of it in a short sample).  A sample subtracts it, as
 * criterion's slope over iteration counts leaves it out, so a 10-op
 * sample (--benchtime=10x) and a 1 s one measure the same op.  0, or
 * the op's negative status.
 */
static int bench_floor(const struct bench *b, const struct bench_opts *o,
		       uint64_t *floor_ns)
{
	uint64_t ns[BENCH_FLOOR_RUNS];

	for (int i = 0; i < BENCH_FLOOR_RUNS; i++) {
		int rc = bench_time(b, o, 0, 0, &ns[i]);

		if (rc < 0)
			return rc;
	}
	*floor_ns = bench_median_u64(ns, BENCH_FLOOR_RUNS);
	return 0;
}

int bench_is_short(const struct bench_opts *o, double per)
{
	return o->fixed_n > 0 && per * (double)o->fixed_n < BENCH_SHORT_NS;
}

/*
 * BENCH_SHORT_RUNS pairs of s's runs of n and of 2n ops: the median of
 * each of the nv times of the n runs into m1[0..nv), of the 2n runs into
 * m2[0..nv); t: room for 2 * BENCH_SHORT_RUNS * nv times.  0, or the
 * op's negative status.
 */
static int bench_slope_pairs(const struct bench_slope *s, uint64_t n,
			     uint64_t *t, uint64_t *m1, uint64_t *m2)
{
	uint64_t *t2 = t + BENCH_SHORT_RUNS * s->nv, v[BENCH_SLOPE_MAX_V];
	int rc = 0;

	for (int i = 0; rc >= 0 && i < 2 * BENCH_SHORT_RUNS; i++) {
		rc = s->time(s->ctx, i % 2 ? 2 * n : n, v);
		for (size_t j = 0; j < s->nv; j++) /* by time: a median's run */
			(i % 2 ? t2 : t)[j * BENCH_SHORT_RUNS + i / 2] = v[j];
	}
	for (size_t j = 0; rc >= 0 && j < s->nv; j++) {
		m1[j] = bench_median_u64(t + j * BENCH_SHORT_RUNS,
					 BENCH_SHORT_RUNS);
		m2[j] = bench_median_u64(t2 + j * BENCH_SHORT_RUNS,
					 BENCH_SHORT_RUNS);
	}
	return rc < 0 ? rc : 0;
}

int bench_slope_measure(const struct bench_slope *s, uint64_t n, double per,
			double *ns)
{
	uint64_t m1[BENCH_SLOPE_MAX_V], m2[BENCH_SLOPE_MAX_V], k = 1, *t;
	int rc;

	if (s->nv < 1 || s->nv > BENCH_SLOPE_MAX_V)
		return ENGINE_ERR_MATCH;
	t = malloc(2 * BENCH_SHORT_RUNS * s->nv * sizeof(*t));
	if (t == NULL)
		return ENGINE_ERR_NOMEM;
	rc = s->time(s->ctx, n, t); /* the lead-in, untimed */
	if (per < 1)
		per = 1; /* at least 1 ns an op: k stays bounded */
	for (; rc >= 0; k *= 2) {
		rc = bench_slope_pairs(s, k * n, t, m1, m2);
		if (rc < 0 || m2[0] >= m1[0] + s->resolve_ns ||
		    per * (double)(4 * k * n) >= BENCH_SHORT_NS)
			break;
	}
	free(t);
	for (size_t j = 0; rc >= 0 && j < s->nv; j++)
		ns[j] = m2[j] > m1[j] ? (double)(m2[j] - m1[j]) / (double)k : 0;
	return rc < 0 ? rc : 0;
}

/* One untimed-watch run of n ops for bench_slope_measure: ctx is a
 * struct bench_run. */
struct bench_run {
	const struct bench *b;
	const struct bench_opts *o;
};

static int bench_run_time(void *ctx, uint64_t n, uint64_t *ns)
{
	const struct bench_run *br = ctx;

	return bench_time(br->b, br->o, n, 0, ns);
}

/*
 * A short sample of b (bench.h BENCH_SHORT_NS): the slope over its runs
 * of n and 2n ops (bench_slope_measure).  *ns: what the n ops cost.  0,
 * or the op's negative status.
 */
static int bench_short(const struct bench *b, const struct bench_opts *o,
		       uint64_t n, double per, double *ns)
{
	struct bench_run br = {b, o};
	struct bench_slope s = {bench_run_time, &br, 1,
				 BENCH_SHORT_RESOLVE_NS};

	return bench_slope_measure(&s, n, per, ns);
}

/*
 * Grow n until one run lasts the benchtime (or use the fixed n); per:
 * the warm-up's ns per op, then the last run's.  *ns_out: what the n
 * ops took, without the run's fixed cost (floor_ns, or bench_short's).
 */
static int bench_scale(const struct bench *b, const struct bench_opts *o,
		       double per, uint64_t floor_ns, uint64_t *n_out,
		       double *ns_out)
{
	uint64_t n = o->fixed_n ? o->fixed_n : 1, ns = 0;
	int rc;

	*n_out = n;
	if (bench_is_short(o, per))
		return bench_short(b, o, n, per, ns_out);
	for (;;) {
		rc = bench_time(b, o, n, per * (double)n >= BENCH_WATCH_NS, &ns);
		if (rc < 0)
			return rc;
		per = (double)ns / (double)n;
		if (o->fixed_n || (double)ns >= o->benchtime_ns ||
		    n >= BENCH_MAX_N)
			break;
		n = bench_predict_n(n, ns, o->benchtime_ns);
	}
	*n_out = n;
	*ns_out = ns > floor_ns ? (double)(ns - floor_ns) : 0;
	return 0;
}

/*
 * One op kept (b->retain) with counting on: its live bytes for
 * B(heap)/op, and what it allocated into *st.  0 or the op's status.
 */
static int bench_retained(const struct bench *b, struct alloc_stats *st)
{
	int rc;

	alloc_count_begin();
	rc = b->retain(b->arg);
	*st = alloc_count_end();
	if (b->release != NULL)
		b->release(b->arg);
	return rc;
}

/*
 * The allocation run: k ops with counting on (at most ~BENCH_ALLOC_MS of
 * work, at most n), then one retained op for B(heap)/op.  When k is 1
 * and the op can be retained, the retained op is the one counted: it
 * allocates what one op does (bench.retain's contract), and an op that
 * long (a compile of 0.5 s) is not run twice for the same figures.
 */
static int bench_allocs(const struct bench *b, uint64_t n, double ns_per_op,
			struct result *r)
{
	uint64_t k = n;
	struct alloc_stats st = {0, 0, 0}, kept = {0, 0, 0};
	int rc = 0;

	if (ns_per_op > 0 && (double)k * ns_per_op > BENCH_ALLOC_MS * 1e6)
		k = (uint64_t)(BENCH_ALLOC_MS * 1e6 / ns_per_op);
	if (k == 0)
		k = 1;
	if (k > 1 || b->retain == NULL) {
		alloc_count_begin();
		rc = b->run(b->arg, k);
		st = alloc_count_end();
	}
	if (rc == 0 && b->retain != NULL)
		rc = bench_retained(b, &kept);
	if (rc < 0)
		return rc;
	if (b->retain != NULL) {
		if (k == 1)
			st = kept; /* the one op counted (not run above) */
		result_metric_add(r, "B(heap)/op", BETTER_LOWER,
				  kept.live > 0 ? (double)kept.live : 0);
	}
	result_metric_add(r, "B/op", BETTER_LOWER,
			  floor((double)st.bytes / (double)k));
	result_metric_add(r, "allocs/op", BETTER_LOWER,
			  floor((double)st.allocs / (double)k));
	return 0;
}

/* The sample's metrics that come from the op's definition, not the clock. */
static void bench_fixed_metrics(const struct bench *b, struct result *r)
{
	for (size_t i = 0; i < b->nextra; i++)
		result_metric_add(r, b->extra[i].unit, b->extra[i].better,
				  b->extra[i].value);
}

/* Instruction counts of a fixed n (no clock, so no ns/op, MB/s or derive). */
static int bench_measure_instr(const struct bench *b,
			       const struct bench_opts *o, struct result *r)
{
	uint64_t n = o->fixed_n ? o->fixed_n : BENCH_INSTR_DEFAULT_N;
	int rc;

	if (result_sample_begin(r, n) < 0)
		return ENGINE_ERR_NOMEM;
	rc = callgrind_measure(b, n, r);
	if (rc < 0)
		return rc;
	bench_fixed_metrics(b, r);
	if (!o->no_alloc && alloc_hooks_available())
		return bench_allocs(b, n, 0, r);
	return 0;
}

/*
 * The metrics every timed sample has: ns/op, MB/s, derived, fixed.  A
 * sample of 0 ns/op (an op the clock could not see: a self-timed one
 * the kernel rounded down) has no rate: neither MB/s nor the derived
 * metrics, whose divisions would be infinite.
 */
static int bench_time_metrics(const struct bench *b, uint64_t n, double per,
			      struct result *r)
{
	if (result_sample_begin(r, n) < 0)
		return ENGINE_ERR_NOMEM;
	result_metric_add(r, "ns/op", BETTER_LOWER, per);
	if (b->bytes_per_op > 0 && per > 0)
		result_metric_add(r, "MB/s", BETTER_HIGHER,
				  b->bytes_per_op * 1e3 / per);
	if (b->derive != NULL && per > 0)
		b->derive(b->arg, per, r);
	bench_fixed_metrics(b, r);
	return 0;
}

/* Why the last self-timed sample failed, as its op said; "" if it did
 * not (bench_status_text adds it to the row's message). */
static char self_error[256];

/* A self-timed op's sample (bench.self_time): the op's own figures. */
static int bench_measure_self(const struct bench *b,
			      const struct bench_opts *o, struct result *r)
{
	struct bench_self s = {0, 0, -1, -1, -1, -1, "", {{NULL, 0, 0}}};
	int rc;

	if (o->measure == BENCH_INSTRUCTIONS)
		return ENGINE_ERR_UNSUPPORTED; /* callgrind cannot see it */
	rc = b->self_time(b->self_arg, o, &s);
	if (rc != 0)
		snprintf(self_error, sizeof(self_error), "%s", s.why);
	if (rc == 0 && s.n == 0)
		rc = ENGINE_ERR_MATCH;
	if (rc == 0)
		rc = bench_time_metrics(b, s.n, s.ns_per_op, r);
	if (rc < 0)
		return rc;
	if (s.floor_ns_per_op >= 0)
		result_metric_add(r, "floor-ns/op", BETTER_LOWER,
				  s.floor_ns_per_op);
	for (size_t i = 0; i < BENCH_SELF_EXTRA; i++)
		if (s.extra[i].unit != NULL)
			result_metric_add(r, s.extra[i].unit, s.extra[i].better,
					  s.extra[i].value);
	/* each when the runtime can tell (v8 tells bytes, not allocations) */
	if (!o->no_alloc && s.bytes_per_op >= 0)
		result_metric_add(r, "B/op", BETTER_LOWER, s.bytes_per_op);
	if (!o->no_alloc && s.allocs_per_op >= 0)
		result_metric_add(r, "allocs/op", BETTER_LOWER,
				  s.allocs_per_op);
	if (!o->no_alloc && s.heap_per_op >= 0)
		result_metric_add(r, "B(heap)/op", BETTER_LOWER,
				  s.heap_per_op);
	return 0;
}

int bench_measure(const struct bench *b, const struct bench_opts *o,
		  struct result *r)
{
	uint64_t n = 0, floor_ns = 0;
	double warm_per = 0, ns = 0;
	double per;
	int rc;

	self_error[0] = '\0';
	if (b->self_time != NULL)
		return bench_measure_self(b, o, r);
	if (b->threads != NULL)
		return bench_threads_measure(b, o, r);
	if (o->measure == BENCH_INSTRUCTIONS)
		return bench_measure_instr(b, o, r);
	rc = bench_warm(b, o, &warm_per);
	if (rc == 0)
		rc = bench_floor(b, o, &floor_ns);
	if (rc == 0)
		rc = bench_scale(b, o, warm_per, floor_ns, &n, &ns);
	if (rc < 0)
		return rc;
	per = ns / (double)n;
	rc = bench_time_metrics(b, n, per, r);
	if (rc < 0)
		return rc;
	if (!o->no_alloc && alloc_hooks_available())
		return bench_allocs(b, n, per, r);
	return 0;
}

void bench_status_text(int rc, char *buf, size_t size)
{
	if (rc == STATUS_CALLGRIND)
		snprintf(buf, size, "callgrind: %s", callgrind_error());
	else if ((rc == STATUS_MISMATCH || rc == STATUS_SYSTEM) &&
		 bench_threads_error()[0] != '\0')
		snprintf(buf, size, "%s while timing: %s",
			 engine_status_name(rc), bench_threads_error());
	else if (self_error[0] != '\0')
		snprintf(buf, size, "%s while timing: %s",
			 engine_status_name(rc), self_error);
	else
		snprintf(buf, size, "%s while timing", engine_status_name(rc));
}

struct isolate_limits bench_limits(const struct bench_opts *o)
{
	return (struct isolate_limits){o->isolate, (uint64_t)o->timeout_ns};
}

int bench_verdict_status(const struct isolate_verdict *v)
{
	switch (v->end) {
	case ISOLATE_ANSWERED: return v->status;
	case ISOLATE_KILLED:
	case ISOLATE_EXITED: return STATUS_CRASHED;
	case ISOLATE_LATE: return STATUS_TIMEOUT;
	case ISOLATE_SKIPPED: return STATUS_SKIPPED;
	case ISOLATE_NO_CHILD: return STATUS_SYSTEM;
	case ISOLATE_UNSET: break;
	}
	return STATUS_INTERRUPTED;
}

/* What a measuring child sends back: one encoded sample (sample.h). */
struct sample_record {
	uint32_t len;
	unsigned char wire[SAMPLE_MAX_WIRE];
};

/* The one item of a measuring child: sample number `sample` of b. */
struct sample_job {
	const struct bench *b;
	const struct bench_opts *o;
	size_t sample;
};

/*
 * Where a measuring child's sample starts in the op's input set.  Each
 * child starts from the parent's cursor (what it advances is lost with
 * it), so without this every sample of fixed n shorter than a pass
 * (--benchtime=10x over 500 queries) would time the same first n items.
 * Sample k starts at item k*n mod pass_n instead (a short sample,
 * bench_is_short, times the runs after one of n), as the samples of one
 * process (--no-fork) go on from each other, so together they time
 * the whole set as a long sample does.  The ops skipped run before the
 * warm-up, untimed.  Instruction counts keep the first n: they repeat
 * exactly from sample to sample.  0, or the op's negative status.
 */
static int sample_rotate(const struct sample_job *j)
{
	uint64_t pass = bench_pass_n(j->b), n = j->o->fixed_n;

	if (j->o->measure == BENCH_INSTRUCTIONS || j->b->self_time != NULL ||
	    j->b->threads != NULL || n == 0 || n >= pass)
		return 0;
	n = (uint64_t)(j->sample % pass) * n % pass;
	return n > 0 ? j->b->run(j->b->arg, n) : 0;
}

/* First thing in a measuring child: the phase the test engines fail in. */
static void sample_child_init(void *arg)
{
	(void)arg;
	engine_phase = ENGINE_PHASE_MEASURE;
}

/*
 * In the measuring child: measure one sample and encode it, or the op's
 * failure with its text, into the record.  Always 0: the op's status
 * travels in the record, with its text (callgrind's is in this child).
 */
static int sample_answer(void *arg, size_t i, void *out)
{
	const struct sample_job *j = arg;
	struct sample_record *rec = out;
	struct result tmp;
	char why[512] = "";
	int rc;

	(void)i;
	memset(&tmp, 0, sizeof(tmp));
	rc = sample_rotate(j); /* the warm-up pays the child's first faults */
	if (rc == 0)
		rc = bench_measure(j->b, j->o, &tmp);
	if (rc < 0)
		bench_status_text(rc, why, sizeof(why));
	rec->len = (uint32_t)sample_encode(&tmp, tmp.nsamples ? tmp.nsamples - 1
							      : 0,
					   rc, why, rec->wire, sizeof(rec->wire));
	return 0;
}

/* The sample the child sent, into r: 0, or the op's status, or
 * STATUS_CRASHED when the record is malformed. */
static int sample_take(const struct sample_record *rec, struct result *r,
		       char *why, size_t size)
{
	int rc = 0;

	if (rec->len > sizeof(rec->wire) ||
	    sample_decode(rec->wire, rec->len, r, &rc, why, size) != 0) {
		snprintf(why, size, "the measuring child sent a malformed "
			 "sample (%u bytes)", (unsigned)rec->len);
		return STATUS_CRASHED;
	}
	return rc;
}

/*
 * Measure one sample of b into r in a forked child.  0; the op's negative
 * status; or STATUS_CRASHED, _TIMEOUT, _SYSTEM or _INTERRUPTED.  On any
 * failure `why` holds the one-line reason, e.g. "crashed: signal 11
 * (Segmentation fault) while timing".
 */
static int sample_isolated(const struct bench *b, const struct bench_opts *o,
			   struct result *r, char *why, size_t size)
{
	static struct sample_record rec;
	struct sample_job j = {b, o, r->nsamples};
	struct isolate_items it = {1, sizeof(rec), sample_answer, NULL, &j};
	struct isolate_limits lim = bench_limits(o);
	struct isolate_verdict v;

	if (isolate_run(&it, &lim, sample_child_init, &rec, &v) > 0) {
		snprintf(why, size, "interrupted (%s): the measuring child was "
			 "stopped", interrupt_name(interrupt_signal()));
		return STATUS_INTERRUPTED;
	}
	if (v.end != ISOLATE_ANSWERED) {
		isolate_verdict_text(&v, &lim, "sample", "timing", why, size);
		return bench_verdict_status(&v);
	}
	return sample_take(&rec, r, why, size);
}

/* One sample of b, in a child when asked.  0, or <0 with why filled. */
static int harness_sample(const struct bench *b, const struct bench_opts *o,
			  struct result *r, char *why, size_t size)
{
	int rc;

	if (o->isolate)
		return sample_isolated(b, o, r, why, size);
	rc = bench_measure(b, o, r);
	if (rc < 0)
		bench_status_text(rc, why, size);
	return rc;
}

int harness_run(const struct plan *p, const struct bench_opts *o,
		struct results *res, bench_sample_fn on_sample, void *ctx)
{
	int failed = 0;
	int count = o->count > 0 ? o->count : 1;
	unsigned char *dead = calloc(p->n ? p->n : 1, 1);

	if (dead == NULL)
		return (int)p->n;
	for (int rep = 0; rep < count; rep++) {
		for (size_t i = 0; i < p->n; i++) {
			const struct bench *b = &p->b[i];
			struct result *r;
			char why[512];
			int rc;

			if (dead[i])
				continue;
			if (interrupt_signal())
				goto out;
			r = results_add(res, b->suite, b->name);
			if (r != NULL && r->verified == NULL &&
			    b->verified != NULL &&
			    result_set_verified(r, b->verified, b->unverified))
				r = NULL;
			if (r != NULL && r->in.n == 0 &&
			    result_inputs_merge(&r->in, &b->in) != 0)
				r = NULL;
			if (r != NULL && r->message == NULL && b->note != NULL &&
			    (r->message = strdup(b->note)) == NULL)
				r = NULL;
			if (r == NULL) {
				dead[i] = 1;
				failed++;
				continue;
			}
			rc = harness_sample(b, o, r, why, sizeof(why));
			if (rc == STATUS_INTERRUPTED) {
				/* abandoned, not failed; a row without a sample
				   would only say where the signal came */
				if (r == &res->r[res->n - 1] && r->nsamples == 0 &&
				    r->status == RESULT_OK)
					results_pop(res);
				goto out;
			}
			if (rc < 0) {
				result_set_status(r, result_status_of(rc), "%s",
						  why);
				dead[i] = 1;
				failed++;
				continue;
			}
			if (on_sample != NULL)
				on_sample(ctx, r, r->nsamples - 1);
		}
	}
out:
	free(dead);
	return failed;
}

void bench_name_part(const char *s, size_t len, char *out, size_t size)
{
	size_t j = 0;

	if (size == 0)
		return;
	for (size_t i = 0; i < len && j + 1 < size; i++) {
		unsigned char c = (unsigned char)s[i];
		out[j++] = (c <= ' ' || c >= 0x7f || c == '/' || c == '=')
				   ? '_'
				   : (char)c;
	}
	out[j] = '\0';
	/* "GPL-3" at the end of a name is GOMAXPROCS 3 to benchstat and go
	   test's readers: "GPL_3" */
	while (j > 0 && out[j - 1] >= '0' && out[j - 1] <= '9')
		j--;
	if (j > 0 && out[j] != '\0' && out[j - 1] == '-')
		out[j - 1] = '_';
}

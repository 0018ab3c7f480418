/*
 * payload_threads.c - --threads: a payload case's op on N threads at once
 * (harness/threads.h), each pinned to its own CPU, each with its own
 * matching state over the one compiled set (engine.thread_new) and its
 * own share of the packets: the t-th of N contiguous slices of the size's
 * packet set, cycled as the one-thread op cycles the whole set.
 *
 * The case's answer is verified once, on one thread, as for every case;
 * after the timed runs each thread answers once more over its share and
 * that answer is held against the verified answer's over the same
 * packets (payload_thread_ops.want): a thread that differs fails the
 * row.  A threaded row is named as the case plus /threads=N, so a run
 * without --threads names its rows as before.
 *
 * Its metrics (agg-: all threads together): agg-Mpps, agg-Gbps,
 * thread-Mpps (the mean per thread), thread-Mpps-min and -max (each
 * thread's own clock), 1thread-Mpps (thread 0 alone on its share, in the
 * same sample), efficiency = agg-Mpps / (N x 1thread-Mpps), and the
 * fewest threads for line rate at the per-thread rate of N threads:
 * threads-line when that is at most N (measured: N threads were run),
 * threads-line-computed when more (beyond what this machine has: it
 * assumes the efficiency of N holds).
 */
#include "suites/payload_threads.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const struct payload_thread_ops *pt_ops(const struct pthreads *pt)
{
	return pt->pc->ss->sr->sc->threads;
}

static int pt_begin(void *arg, size_t t)
{
	struct pthreads *pt = arg;

	return pt_ops(pt)->begin(&pt->slot[t]);
}

static int pt_run(void *arg, size_t t, uint64_t n)
{
	struct pthreads *pt = arg;

	return pt_ops(pt)->run(&pt->slot[t], n);
}

static int pt_check(void *arg, size_t t, uint64_t *got)
{
	struct pthreads *pt = arg;

	return pt_ops(pt)->check(&pt->slot[t], got);
}

static void pt_end(void *arg, size_t t)
{
	struct pthreads *pt = arg;

	pt_ops(pt)->end(&pt->slot[t]);
}

/* The fewest threads for line rate at a per-thread rate (see the top). */
static void pt_line(double linerate, double thread_mpps, size_t n,
		    struct result *r)
{
	double k;

	if (!(thread_mpps > 0))
		return;
	k = ceil(linerate / thread_mpps);
	result_metric_add(r, k <= (double)n ? "threads-line"
					     : "threads-line-computed",
			  BETTER_LOWER, k);
}

static void pt_derive(void *arg, const struct bench_thread_times *tt,
		      struct result *r)
{
	const struct pthreads *pt = arg;
	const struct scen_size *ss = pt->pc->ss;
	double n = (double)tt->n, lo = INFINITY, hi = 0;
	double mpps = 1e3 / tt->ns_per_op, solo = 1e3 / tt->solo_ns_per_op;

	if (!(tt->ns_per_op > 0 && tt->solo_ns_per_op > 0))
		return;
	for (size_t t = 0; t < tt->n; t++) {
		double m = 1e3 / tt->thread_ns_per_op[t];
		lo = fmin(lo, m);
		hi = fmax(hi, m);
	}
	result_metric_add(r, "agg-Mpps", BETTER_HIGHER, mpps);
	result_metric_add(r, "agg-Gbps", BETTER_HIGHER,
			  ss->bytes_per_op * 8 / tt->ns_per_op);
	result_metric_add(r, "thread-Mpps", BETTER_HIGHER, mpps / n);
	result_metric_add(r, "thread-Mpps-min", BETTER_HIGHER, lo);
	result_metric_add(r, "thread-Mpps-max", BETTER_HIGHER, hi);
	result_metric_add(r, "1thread-Mpps", BETTER_HIGHER, solo);
	result_metric_add(r, "efficiency", BETTER_HIGHER, mpps / (n * solo));
	result_metric_add(r, "line-Mpps", BETTER_EXACT, ss->in->linerate);
	pt_line(ss->in->linerate, mpps / n, tt->n, r);
}

/* Why e cannot run ss's op on n threads, or NULL when it can. */
static const char *pt_refusal(const struct scen_size *ss,
			      const struct engine *e, size_t n, char *buf,
			      size_t size)
{
	if (engine_unavailable(e) != NULL)
		snprintf(buf, size, "%s: %s", e->name, engine_unavailable(e));
	else if (engine_self_timed(e))
		snprintf(buf, size, "%s times itself (engine.work_new: a "
			 "runner in its own process, xdp in the kernel), on one "
			 "thread", e->name);
	else if (e->thread_new == NULL)
		snprintf(buf, size, "%s has no per-thread matching state over "
			 "one compiled set (engine.thread_new): its handle is "
			 "not safe to match on from two threads", e->name);
	else if (ss->pk->n < n)
		snprintf(buf, size, "%zu packets cannot be shared by %zu "
			 "threads", ss->pk->n, n);
	else
		return NULL;
	return buf;
}

int payload_threads_add(struct scen_size *ss, struct suite_ctx *ctx,
			struct pcase *pc, struct pthreads *pt)
{
	const struct payload_run *r = ss->run;
	char name[320], base[256], why[256];

	payload_name(base, sizeof(base), ss->sr->sc, ss->in->label, pc->e);
	if (case_add_bench(&ss->t, base, NULL) != 0)
		return -1;
	for (size_t k = 0; k < r->nthreads; k++) {
		size_t n = r->threads[k];
		snprintf(name, sizeof(name), "%s/threads=%zu", base, n);
		pt[k] = (struct pthreads){.pc = pc, .n = n};
		if (pt_refusal(ss, pc->e, n, why, sizeof(why)) == NULL) {
			if (case_add_bench(&ss->t, name, &pt[k]) != 0)
				return -1;
		} else if (suite_wants(ctx, name)) {
			suite_fail(ctx, PAYLOAD_SUITE, name, RESULT_UNSUPPORTED,
				   "%s", why);
		}
	}
	return 0;
}

int payload_threads_fill(struct pthreads *pt, const struct case_item *c,
			 const void *answer, struct bench *b)
{
	struct scen_size *ss = pt->pc->ss;
	size_t npk = ss->pk->n;

	payload_threads_release(pt);
	pt->slot = calloc(pt->n, sizeof(*pt->slot));
	pt->want = calloc(pt->n, sizeof(*pt->want));
	pt->pass = calloc(pt->n, sizeof(*pt->pass));
	if (pt->slot == NULL || pt->want == NULL || pt->pass == NULL)
		return -1;
	for (size_t t = 0; t < pt->n; t++) {
		size_t lo = npk * t / pt->n, hi = npk * (t + 1) / pt->n;
		pt->slot[t] = (struct pslot){pt->pc, lo, hi, lo, NULL, 0};
		pt->want[t] = pt_ops(pt)->want(ss, c, answer, lo, hi);
		pt->pass[t] = hi - lo;
	}
	pt->bt = (struct bench_threads){
		pt->n, ss->run->cpu, pt, pt_begin, pt_run, pt_check, pt_end,
		pt->want, pt->pass, pt_ops(pt)->answer, pt_derive};
	b->threads = &pt->bt;
	b->derive = NULL;
	b->extra[b->nextra++] = (struct bench_metric){"threads", BETTER_EXACT,
						       (double)pt->n};
	return 0;
}

void payload_threads_release(struct pthreads *pt)
{
	free(pt->slot);
	free(pt->want);
	free(pt->pass);
	pt->slot = NULL;
	pt->want = NULL;
	pt->pass = NULL;
}

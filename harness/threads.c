/*
 * threads.c - a sample on several pinned threads under one clock (see
 * threads.h).
 *
 * The threads are a team driven by this (unpinned) thread: it posts a
 * command and a generation number under a mutex, wakes them all with one
 * broadcast (the start barrier) and waits until the last has finished.
 * Waiting is sleeping on a condition variable, never spinning, so the
 * driver takes no CPU from a worker while they run.  Each thread reads
 * the clock (CLOCK_MONOTONIC, one for all threads) around its own work;
 * a round lasts from the first start to the last end, so the wake-up,
 * whose latency on a busy machine is milliseconds, is not timed and no
 * floor is taken off.  The skew between the threads' starts is: a short
 * sample (--benchtime=1x) is therefore the slope over rounds of k and
 * 2k ops (bench.c's bench_slope_measure, as a single thread's), where
 * it cancels.
 */
#define _GNU_SOURCE
#include "harness/threads.h"

#include "engines/status.h"
#include "harness/clock.h"

#include <pthread.h>
#include <sched.h>
#include <sys/resource.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum team_cmd {
	CMD_PASS,  /* each thread: one pass over its share (warm-up) */
	CMD_RUN,   /* each thread: k ops */
	CMD_SOLO,  /* thread 0 alone: k ops */
	CMD_CHECK, /* each thread: its answer over one pass */
	CMD_QUIT,
};

struct team;

struct worker {
	struct team *tm;
	size_t t;
	pthread_t id;
	int rc;       /* begin's, then the first failing op's */
	uint64_t ns;  /* its own clock over its last command: the wall
			 clock, or its CPU time when preempted (thread_ns) */
	int preempted; /* ... and it was */
	uint64_t t0, t1; /* when its last command began and ended (clock_ns) */
	uint64_t got; /* check's answer */
};

struct team {
	const struct bench_threads *bt;
	pthread_mutex_t mu;
	pthread_cond_t go, done;
	enum team_cmd cmd;
	uint64_t k;
	int wall;           /* --measure=wall: never the CPU time */
	unsigned long gen;  /* bumped per command */
	size_t running;     /* workers not yet done with gen */
	size_t started;     /* workers created */
	struct worker w[BENCH_MAX_THREADS];
};

/*
 * The least difference a short sample's rounds of 2k and k ops take as
 * a time (bench.h BENCH_SHORT_RESOLVE_NS, for one thread's clock
 * reads): a round's time holds the threads' wake-up skew, which varies
 * by hundreds of ns from round to round even in the median of
 * BENCH_SHORT_RUNS, so the rounds grow until the ops outweigh it.
 */
#ifndef TEAM_RESOLVE_NS
#define TEAM_RESOLVE_NS 20000
#endif

static char threads_error[512];

const char *bench_threads_error(void)
{
	return threads_error;
}

static uint64_t thread_cpu_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* The calling thread's voluntary context switches (it blocked). */
static long thread_blocked(void)
{
	struct rusage ru;

	return getrusage(RUSAGE_THREAD, &ru) == 0 ? ru.ru_nvcsw : 0;
}

/*
 * A thread's time for a command, by bench.c's rule for a run: its wall
 * clock, unless it was preempted (the wall clock more than
 * BENCH_PREEMPT_NS beyond its CPU time) for at least BENCH_CPU_MIN_NS of
 * CPU time: then its CPU time.  (No run again: a short preempted one
 * keeps its wall clock.)  Only when it never blocked, though: a thread
 * that waited (a lock inside the engine, glibc's regexec's, malloc's)
 * lost that time to the other threads, a cost of running on threads,
 * which its wall clock keeps.
 */
static void worker_time(struct worker *w, uint64_t wall, uint64_t cpu,
			long blocked)
{
	w->preempted = !w->tm->wall && blocked == 0 &&
		       wall > cpu + BENCH_PREEMPT_NS && cpu >= BENCH_CPU_MIN_NS;
	w->ns = w->preempted ? cpu : wall;
}

/* One command in worker w: 0 or the op's status. */
static int worker_do(struct worker *w, enum team_cmd cmd, uint64_t k)
{
	const struct bench_threads *bt = w->tm->bt;
	long v0 = thread_blocked();
	uint64_t c0 = thread_cpu_ns(), t0 = clock_ns(), t1;
	int rc = 0;

	w->t0 = t0;
	switch (cmd) {
	case CMD_PASS: rc = bt->run(bt->arg, w->t, bt->pass[w->t]); break;
	case CMD_SOLO:
		if (w->t != 0)
			return 0;
		/* fall through */
	case CMD_RUN: rc = bt->run(bt->arg, w->t, k); break;
	case CMD_CHECK: rc = bt->check(bt->arg, w->t, &w->got); break;
	case CMD_QUIT: break;
	}
	t1 = clock_ns();
	w->t1 = t1;
	worker_time(w, t1 - t0, thread_cpu_ns() - c0, thread_blocked() - v0);
	return rc;
}

/* Wait for the next generation after `seen`; its command. */
static enum team_cmd worker_wait(struct team *tm, unsigned long *seen,
				 uint64_t *k)
{
	enum team_cmd cmd;

	pthread_mutex_lock(&tm->mu);
	while (tm->gen == *seen)
		pthread_cond_wait(&tm->go, &tm->mu);
	*seen = tm->gen;
	cmd = tm->cmd;
	*k = tm->k;
	pthread_mutex_unlock(&tm->mu);
	return cmd;
}

static void worker_done(struct team *tm)
{
	pthread_mutex_lock(&tm->mu);
	if (--tm->running == 0)
		pthread_cond_signal(&tm->done);
	pthread_mutex_unlock(&tm->mu);
}

static void *worker_main(void *arg)
{
	struct worker *w = arg;
	struct team *tm = w->tm;
	unsigned long seen = 0;
	enum team_cmd cmd;
	uint64_t k;

	w->rc = tm->bt->begin != NULL ? tm->bt->begin(tm->bt->arg, w->t) : 0;
	worker_done(tm); /* generation 0: started */
	while ((cmd = worker_wait(tm, &seen, &k)) != CMD_QUIT) {
		if (w->rc == 0)
			w->rc = worker_do(w, cmd, k);
		worker_done(tm);
	}
	if (tm->bt->end != NULL)
		tm->bt->end(tm->bt->arg, w->t);
	return NULL;
}

/* Wait until every started worker finished the current generation. */
static void team_wait(struct team *tm)
{
	pthread_mutex_lock(&tm->mu);
	while (tm->running > 0)
		pthread_cond_wait(&tm->done, &tm->mu);
	pthread_mutex_unlock(&tm->mu);
}

/* The first worker's failure, or 0. */
static int team_status(const struct team *tm)
{
	for (size_t t = 0; t < tm->started; t++)
		if (tm->w[t].rc < 0)
			return tm->w[t].rc;
	return 0;
}

/* Post cmd (k ops) to every worker, waking them all. */
static void team_post(struct team *tm, enum team_cmd cmd, uint64_t k)
{
	pthread_mutex_lock(&tm->mu);
	tm->cmd = cmd;
	tm->k = k;
	tm->running = tm->started;
	tm->gen++;
	pthread_cond_broadcast(&tm->go);
	pthread_mutex_unlock(&tm->mu);
}

/*
 * A round's time, from the threads' own clocks (never the driver's, so
 * waking them costs nothing): from the first thread's start to the last
 * one's end, a thread late to start counting as lost parallelism; when
 * another process preempted a thread, the slowest thread's own time
 * (worker_time) instead.
 */
static uint64_t team_time(const struct team *tm, enum team_cmd cmd)
{
	size_t n = cmd == CMD_SOLO ? 1 : tm->started;
	uint64_t slowest = 0, first = UINT64_MAX, last = 0;
	int any = 0;

	for (size_t t = 0; t < n; t++) {
		const struct worker *w = &tm->w[t];
		any |= w->preempted;
		slowest = w->ns > slowest ? w->ns : slowest;
		first = w->t0 < first ? w->t0 : first;
		last = w->t1 > last ? w->t1 : last;
	}
	return any ? slowest : last - first;
}

/*
 * Post cmd (k ops) to every worker and wait for the last; the round's
 * time into *ns (team_time).  0 or the first worker's failure.
 */
static int team_round(struct team *tm, enum team_cmd cmd, uint64_t k,
		      uint64_t *ns)
{
	team_post(tm, cmd, k);
	team_wait(tm);
	if (ns != NULL)
		*ns = team_time(tm, cmd);
	return team_status(tm);
}

/* Start thread t pinned to its CPU.  0 or -1. */
static int team_spawn(struct team *tm, size_t t)
{
	pthread_attr_t attr;
	cpu_set_t set;
	int rc;

	tm->w[t] = (struct worker){.tm = tm, .t = t};
	CPU_ZERO(&set);
	CPU_SET(tm->bt->cpu[t], &set);
	if (pthread_attr_init(&attr) != 0)
		return -1;
	rc = pthread_attr_setaffinity_np(&attr, sizeof(set), &set);
	if (rc == 0)
		rc = pthread_create(&tm->w[t].id, &attr, worker_main, &tm->w[t]);
	pthread_attr_destroy(&attr);
	if (rc != 0)
		snprintf(threads_error, sizeof(threads_error),
			 "thread %zu on CPU %d could not start: %s", t,
			 tm->bt->cpu[t], strerror(rc));
	return rc == 0 ? 0 : -1;
}

/* Start every thread and wait until each made its state.  0, or <0. */
static int team_start(struct team *tm)
{
	pthread_mutex_init(&tm->mu, NULL);
	pthread_cond_init(&tm->go, NULL);
	pthread_cond_init(&tm->done, NULL);
	tm->running = tm->bt->n;
	for (; tm->started < tm->bt->n; tm->started++)
		if (team_spawn(tm, tm->started) != 0)
			break;
	pthread_mutex_lock(&tm->mu);
	tm->running -= tm->bt->n - tm->started; /* the ones never started */
	pthread_mutex_unlock(&tm->mu);
	team_wait(tm);
	if (tm->started < tm->bt->n)
		return STATUS_SYSTEM;
	return team_status(tm);
}

static void team_stop(struct team *tm)
{
	team_post(tm, CMD_QUIT, 0); /* each ends and returns: joined */
	for (size_t t = 0; t < tm->started; t++)
		pthread_join(tm->w[t].id, NULL);
	pthread_cond_destroy(&tm->go);
	pthread_cond_destroy(&tm->done);
	pthread_mutex_destroy(&tm->mu);
}

/*
 * Passes together for the warm-up (at least one).  *per: the ns an op
 * took in the last, on the slowest thread's own clock (wake-ups left
 * out), what decides whether a sample is short.
 */
static int team_warm(struct team *tm, const struct bench_opts *o,
		     double *per)
{
	uint64_t t0 = clock_ns();
	int rc;

	do {
		rc = team_round(tm, CMD_PASS, 0, NULL);
	} while (rc == 0 && (double)(clock_ns() - t0) < o->warmup_ns);
	*per = 0;
	for (size_t t = 0; t < tm->started; t++) {
		double p = (double)tm->w[t].ns / (double)tm->bt->pass[t];

		*per = tm->bt->pass[t] > 0 && p > *per ? p : *per;
	}
	return rc;
}

/* A timed command for bench_slope_measure: ctx is a struct team_timer. */
struct team_timer {
	struct team *tm;
	enum team_cmd cmd;
};

/* One round of k ops: ns[0] its time (team_time), then with CMD_RUN
 * each thread's own, ns[1 + t]. */
static int team_timer_time(void *ctx, uint64_t k, uint64_t *ns)
{
	const struct team_timer *tt = ctx;
	int rc = team_round(tt->tm, tt->cmd, k, &ns[0]);

	for (size_t t = 0; tt->cmd == CMD_RUN && t < tt->tm->started; t++)
		ns[1 + t] = tt->tm->w[t].ns;
	return rc;
}

/*
 * Time cmd (CMD_RUN or CMD_SOLO) at k ops per thread: ns[0] the round's
 * time, and with CMD_RUN ns[1 + t] thread t's own.  A short sample
 * (bench_is_short; per: the warm-up's ns an op) is the slope over rounds
 * of k and 2k ops (bench_slope_measure), as a single thread's is: one
 * round of a few ops reads mostly the threads' wake-up skew (2 us for
 * one 34 ns op a thread).  0 or the first failure.
 */
static int team_timed(struct team *tm, const struct bench_opts *o,
		      enum team_cmd cmd, double per, uint64_t k, double *ns)
{
	struct team_timer tt = {tm, cmd};
	struct bench_slope s = {team_timer_time, &tt,
				cmd == CMD_RUN ? 1 + tm->started : 1,
				TEAM_RESOLVE_NS};
	uint64_t v[1 + BENCH_MAX_THREADS];
	int rc;

	if (bench_is_short(o, per))
		return bench_slope_measure(&s, k, per, ns);
	rc = team_timer_time(&tt, k, v);
	for (size_t j = 0; j < s.nv; j++)
		ns[j] = (double)v[j];
	return rc;
}

/*
 * Grow k (ops per thread) until a round lasts the benchtime (or the
 * fixed k): ns[0] the round's time, ns[1 + t] thread t's own.
 */
static int team_scale(struct team *tm, const struct bench_opts *o,
		      double per, uint64_t *k_out, double *ns)
{
	uint64_t k = o->fixed_n ? o->fixed_n : 1;
	int rc;

	for (;;) {
		rc = team_timed(tm, o, CMD_RUN, per, k, ns);
		if (rc < 0)
			return rc;
		if (o->fixed_n || ns[0] >= o->benchtime_ns)
			break;
		k = bench_predict_n(k, (uint64_t)ns[0], o->benchtime_ns);
	}
	*k_out = k;
	return 0;
}

/* Each thread's answer over its share against the verified one. */
static int team_check(struct team *tm)
{
	const struct bench_threads *bt = tm->bt;
	int rc = team_round(tm, CMD_CHECK, 0, NULL);

	for (size_t t = 0; rc == 0 && t < bt->n; t++) {
		if (tm->w[t].got == bt->want[t])
			continue;
		snprintf(threads_error, sizeof(threads_error),
			 "thread %zu of %zu (CPU %d) answered %llu %s over its "
			 "share, verified %llu: a wrong answer under threads",
			 t, bt->n, bt->cpu[t], (unsigned long long)tm->w[t].got,
			 bt->answer, (unsigned long long)bt->want[t]);
		return STATUS_MISMATCH;
	}
	return rc;
}

/*
 * The sample's metrics from k ops per thread: ns[0] the rounds' time,
 * ns[1 + t] thread t's own; solo: thread 0's alone.
 */
static int team_metrics(const struct bench *b, uint64_t k, const double *ns,
			double solo, struct result *r)
{
	const struct bench_threads *bt = b->threads;
	double per_thread[BENCH_MAX_THREADS];
	struct bench_thread_times tt = {bt->n, ns[0] / (double)(bt->n * k),
					solo / (double)k, per_thread};

	for (size_t t = 0; t < bt->n; t++)
		per_thread[t] = ns[1 + t] / (double)k;
	if (result_sample_begin(r, bt->n * k) < 0)
		return ENGINE_ERR_NOMEM;
	result_metric_add(r, "ns/op", BETTER_LOWER, tt.ns_per_op);
	if (b->bytes_per_op > 0 && tt.ns_per_op > 0)
		result_metric_add(r, "MB/s", BETTER_HIGHER,
				  b->bytes_per_op * 1e3 / tt.ns_per_op);
	if (bt->derive != NULL)
		bt->derive(bt->arg, &tt, r);
	for (size_t i = 0; i < b->nextra; i++)
		result_metric_add(r, b->extra[i].unit, b->extra[i].better,
				  b->extra[i].value);
	return 0;
}

/* Warm-up, the timed rounds, thread 0 alone, the check. */
static int team_measure(const struct bench *b, const struct bench_opts *o,
			struct team *tm, struct result *r)
{
	uint64_t k = 0;
	double per = 0, solo = 0, ns[1 + BENCH_MAX_THREADS];
	int rc = team_warm(tm, o, &per);

	if (rc == 0)
		rc = team_scale(tm, o, per, &k, ns);
	if (rc == 0)
		rc = team_timed(tm, o, CMD_SOLO, per, k, &solo);
	if (rc == 0)
		rc = team_check(tm);
	if (rc < 0)
		return rc;
	return team_metrics(b, k, ns, solo, r);
}

int bench_threads_measure(const struct bench *b, const struct bench_opts *o,
			  struct result *r)
{
	struct team *tm;
	int rc;

	threads_error[0] = '\0';
	if (o->measure == BENCH_INSTRUCTIONS) {
		snprintf(threads_error, sizeof(threads_error),
			 "threads are timed by the clock only (callgrind runs "
			 "one thread at a time)");
		return ENGINE_ERR_UNSUPPORTED;
	}
	if (b->threads->n < 2 || b->threads->n > BENCH_MAX_THREADS)
		return ENGINE_ERR_MATCH;
	tm = calloc(1, sizeof(*tm));
	if (tm == NULL)
		return ENGINE_ERR_NOMEM;
	tm->bt = b->threads;
	tm->wall = o->measure == BENCH_WALL;
	rc = team_start(tm);
	if (rc == 0)
		rc = team_measure(b, o, tm, r);
	team_stop(tm);
	free(tm);
	return rc;
}

int bench_cpus(int *cpu, size_t max)
{
	cpu_set_t set;
	size_t n = 0;

	CPU_ZERO(&set);
	if (sched_getaffinity(0, sizeof(set), &set) != 0)
		return -1;
	for (int c = 0; c < CPU_SETSIZE && n < max; c++)
		if (CPU_ISSET(c, &set))
			cpu[n++] = c;
	return (int)n;
}

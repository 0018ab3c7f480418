/*
 * isolate.c - one sample per forked child, with a time limit (see isolate.h).
 */
#define _GNU_SOURCE
#include "harness/isolate.h"

#include "engines/engine.h"
#include "harness/clock.h"
#include "harness/interrupt.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#define ISOLATE_MAGIC "RXS1"
#define ISOLATE_MAX_MSG 16384

/* A cursor over a byte buffer; writes and reads fail once it would overflow. */
struct wire {
	unsigned char *p;
	size_t len, size;
	int bad;
};

static void wire_put(struct wire *w, const void *src, size_t n)
{
	if (w->bad || n > w->size - w->len) {
		w->bad = 1;
		return;
	}
	memcpy(w->p + w->len, src, n);
	w->len += n;
}

static void wire_get(struct wire *w, void *dst, size_t n)
{
	if (w->bad || n > w->size - w->len) {
		w->bad = 1;
		memset(dst, 0, n);
		return;
	}
	memcpy(dst, w->p + w->len, n);
	w->len += n;
}

size_t isolate_encode(const struct result *r, size_t sample, int rc,
		      const char *why, unsigned char *buf, size_t size)
{
	struct wire w = {buf, 0, size, 0};
	int32_t rc32 = rc;
	uint64_t iters = 0;
	uint16_t nm = 0, wlen = 0;

	if (rc == 0 && sample < r->nsamples) {
		iters = r->iters[sample];
		nm = (uint16_t)r->nm;
	}
	if (rc < 0 && why != NULL)
		wlen = (uint16_t)strnlen(why, 1024);
	wire_put(&w, ISOLATE_MAGIC, 4);
	wire_put(&w, &rc32, sizeof(rc32));
	wire_put(&w, &wlen, sizeof(wlen));
	if (wlen > 0)
		wire_put(&w, why, wlen);
	wire_put(&w, &iters, sizeof(iters));
	wire_put(&w, &nm, sizeof(nm));
	for (size_t i = 0; i < nm; i++) {
		const struct metric *m = &r->m[i];
		size_t ulen = strlen(m->unit);
		uint8_t better = (uint8_t)m->better, u8 = (uint8_t)ulen;
		double v = sample < m->n ? m->v[sample] : NAN;

		if (ulen > 255)
			return 0;
		wire_put(&w, &better, 1);
		wire_put(&w, &u8, 1);
		wire_put(&w, m->unit, ulen);
		wire_put(&w, &v, sizeof(v));
	}
	return w.bad ? 0 : w.len;
}

/* Decode the metrics of one sample into r (its sample already begun). */
static int decode_metrics(struct wire *w, uint16_t nm, struct result *r)
{
	for (uint16_t i = 0; i < nm; i++) {
		uint8_t better, ulen;
		char unit[256];
		double v;

		wire_get(w, &better, 1);
		wire_get(w, &ulen, 1);
		wire_get(w, unit, ulen);
		unit[ulen] = '\0';
		wire_get(w, &v, sizeof(v));
		if (w->bad || better > BETTER_EXACT || ulen == 0 ||
		    memchr(unit, '\0', ulen) != NULL)
			return -1;
		if (!isnan(v) && result_metric_add(r, unit,
						   (enum metric_better)better,
						   v) != 0)
			return -1;
	}
	return 0;
}

int isolate_decode(const unsigned char *buf, size_t len, struct result *r,
		   int *rc, char *why, size_t size)
{
	struct wire w = {(unsigned char *)buf, 0, len, 0};
	char magic[4], text[1024];
	int32_t rc32;
	uint64_t iters;
	uint16_t nm, wlen;

	wire_get(&w, magic, 4);
	wire_get(&w, &rc32, sizeof(rc32));
	wire_get(&w, &wlen, sizeof(wlen));
	if (w.bad || wlen >= sizeof(text))
		return -1;
	wire_get(&w, text, wlen);
	text[wlen] = '\0';
	if (size > 0)
		snprintf(why, size, "%s", text);
	wire_get(&w, &iters, sizeof(iters));
	wire_get(&w, &nm, sizeof(nm));
	if (w.bad || memcmp(magic, ISOLATE_MAGIC, 4) != 0 || rc32 > 0)
		return -1;
	*rc = rc32;
	if (rc32 < 0)
		return nm == 0 && w.len == len ? 0 : -1;
	if (iters == 0 || result_sample_begin(r, iters) < 0)
		return -1;
	if (decode_metrics(&w, nm, r) != 0)
		return -1;
	return w.len == len ? 0 : -1;
}

static int write_all(int fd, const unsigned char *p, size_t n)
{
	while (n > 0) {
		ssize_t w = write(fd, p, n);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return -1;
		p += w;
		n -= (size_t)w;
	}
	return 0;
}

/* The child: measure, send, exit without running atexit or stdio flushes. */
static void __attribute__((noreturn))
child_run(const struct bench *b, const struct bench_opts *o, int fd)
{
	static unsigned char buf[ISOLATE_MAX_MSG];
	struct rlimit no_core = {0, 0};
	struct result tmp;
	char why[512] = "";
	size_t len;
	int rc;

	/* a crash on purpose must not write a core file per sample */
	setrlimit(RLIMIT_CORE, &no_core);
	interrupt_child_reset();
	engine_phase = ENGINE_PHASE_MEASURE;
	memset(&tmp, 0, sizeof(tmp));
	/*
	 * With a fixed n the measured run is the first: one op first (Go's
	 * run1) so that it does not pay this fresh child's copy-on-write
	 * faults.  A scaled n already starts with n = 1.
	 */
	rc = o->measure == BENCH_TIME && o->fixed_n > 0 ? b->run(b->arg, 1) : 0;
	if (rc == 0)
		rc = bench_measure(b, o, &tmp);
	if (rc < 0)
		bench_status_text(rc, why, sizeof(why));
	len = isolate_encode(&tmp, tmp.nsamples ? tmp.nsamples - 1 : 0, rc,
			     why, buf, sizeof(buf));
	if (len == 0 || write_all(fd, buf, len) != 0)
		_exit(3);
	_exit(0);
}

/*
 * Wait until fd is readable or the deadline (0: none) passes.  0 when
 * readable, 1 on timeout, 2 when a signal asks the run to stop
 * (interrupt.h), -1 on a poll error.  poll() waits at most 100 ms at a
 * time, so a signal that lands just before it is seen within 100 ms.
 */
static int wait_readable(int fd, uint64_t deadline)
{
	struct pollfd pfd = {fd, POLLIN, 0};

	for (;;) {
		int wait_ms = 100, rc;

		if (deadline != 0) {
			uint64_t now = clock_ns();
			if (now >= deadline)
				return 1;
			if (deadline - now < 100000000)
				wait_ms = (int)((deadline - now + 999999) / 1000000);
		}
		rc = poll(&pfd, 1, wait_ms);
		if ((rc == 0 || (rc < 0 && errno == EINTR)) && interrupt_signal())
			return 2;
		if (rc > 0)
			return 0;
		if (rc < 0 && errno != EINTR)
			return -1;
	}
}

/*
 * Read the child's message until EOF or the deadline (0: none).
 * 0 at EOF, 1 on timeout, 2 on a signal (see wait_readable), -1 on a read
 * error or an oversized message.
 */
static int read_until(int fd, uint64_t deadline, unsigned char *buf,
		      size_t size, size_t *len)
{
	*len = 0;
	for (;;) {
		int rc = wait_readable(fd, deadline);
		ssize_t got;

		if (rc != 0)
			return rc;
		got = read(fd, buf + *len, size - *len);
		if (got < 0 && errno == EINTR)
			continue;
		if (got < 0)
			return -1;
		if (got == 0)
			return 0;
		*len += (size_t)got;
		if (*len == size)
			return -1;
	}
}

static pid_t wait_child(pid_t pid, int *status)
{
	pid_t w;

	do
		w = waitpid(pid, status, 0);
	while (w < 0 && errno == EINTR);
	return w;
}

/* Turn what the child did into 0, an engine status or an isolate status. */
static int judge(int status, const unsigned char *buf, size_t len,
		 struct result *r, char *why, size_t size)
{
	int rc = 0;

	if (WIFSIGNALED(status)) {
		snprintf(why, size, "crashed: signal %d (%s) while timing",
			 WTERMSIG(status), strsignal(WTERMSIG(status)));
		return ISOLATE_CRASHED;
	}
	if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
		snprintf(why, size, "the measuring child exited with status %d "
			 "without a sample", WIFEXITED(status)
						     ? WEXITSTATUS(status)
						     : -1);
		return ISOLATE_CRASHED;
	}
	if (isolate_decode(buf, len, r, &rc, why, size) != 0) {
		snprintf(why, size, "the measuring child sent a malformed "
			 "sample (%zu bytes)", len);
		return ISOLATE_CRASHED;
	}
	return rc;
}

int isolate_measure(const struct bench *b, const struct bench_opts *o,
		    struct result *r, char *why, size_t size)
{
	static unsigned char buf[ISOLATE_MAX_MSG];
	uint64_t deadline = 0;
	int fds[2], status = 0, rc;
	size_t len = 0;
	pid_t pid;

	if (pipe2(fds, O_CLOEXEC) != 0) {
		snprintf(why, size, "pipe: %s (try --no-fork)", strerror(errno));
		return ISOLATE_SYSTEM;
	}
	fflush(NULL); /* or the child could print the parent's buffered text */
	pid = fork();
	if (pid < 0) {
		snprintf(why, size, "fork: %s (try --no-fork)", strerror(errno));
		close(fds[0]);
		close(fds[1]);
		return ISOLATE_SYSTEM;
	}
	if (pid == 0) {
		close(fds[0]);
		child_run(b, o, fds[1]);
	}
	close(fds[1]);
	if (o->timeout_ns > 0)
		deadline = clock_ns() + (uint64_t)o->timeout_ns;
	rc = read_until(fds[0], deadline, buf, sizeof(buf), &len);
	close(fds[0]);
	if (rc == 1 || rc == 2)
		kill(pid, SIGKILL);
	if (wait_child(pid, &status) < 0) {
		snprintf(why, size, "waitpid: %s", strerror(errno));
		return ISOLATE_SYSTEM;
	}
	/* a Ctrl-C reaches the child too: its death is the interruption,
	   not a crash; a sample it finished before is kept */
	if (rc == 2 || (interrupt_signal() && !(WIFEXITED(status) &&
						 WEXITSTATUS(status) == 0))) {
		snprintf(why, size, "interrupted (%s): the measuring child was "
			 "stopped", interrupt_name(interrupt_signal()));
		return ISOLATE_INTERRUPTED;
	}
	if (rc == 1) {
		snprintf(why, size, "no sample within %gs: the measuring "
			 "child was killed (see --timeout)",
			 o->timeout_ns / 1e9);
		return ISOLATE_TIMEOUT;
	}
	return judge(status, buf, rc == 0 ? len : 0, r, why, size);
}

/* One answer on the wire: the item, its status, its values. */
struct answer_rec {
	uint64_t i;
	int64_t status;
	int64_t v[ISOLATE_MAX_OUT];
};

/* The verifying child: items from..n-1, each sent as soon as it is known. */
static void __attribute__((noreturn))
answers_child(size_t from, size_t n, size_t nout, isolate_answer_fn answer,
	      void *arg, int fd)
{
	struct rlimit no_core = {0, 0};

	setrlimit(RLIMIT_CORE, &no_core);
	interrupt_child_reset();
	engine_phase = ENGINE_PHASE_VERIFY;
	for (size_t i = from; i < n; i++) {
		struct answer_rec rec;
		long v[ISOLATE_MAX_OUT] = {0};

		memset(&rec, 0, sizeof(rec));
		rec.i = i;
		rec.status = answer(arg, i, v);
		for (size_t k = 0; k < nout; k++)
			rec.v[k] = v[k];
		if (write_all(fd, (const unsigned char *)&rec, sizeof(rec)) != 0)
			_exit(3);
	}
	_exit(0);
}

/*
 * Read answer records until EOF, a late answer, or a signal; each answer
 * gets o->timeout_ns from the one before.  *next is the first item without
 * an answer.  0 at EOF, 1 on timeout, 2 on a signal, -1 on an error.
 */
static int answers_read(int fd, const struct bench_opts *o, size_t nout,
			long *out, int *status, size_t *next)
{
	unsigned char buf[sizeof(struct answer_rec)];
	size_t have = 0;

	for (;;) {
		uint64_t deadline = 0;
		struct answer_rec rec;
		ssize_t got;
		int rc;

		if (o->timeout_ns > 0 && have == 0)
			deadline = clock_ns() + (uint64_t)o->timeout_ns;
		rc = wait_readable(fd, deadline);
		if (rc != 0)
			return rc;
		got = read(fd, buf + have, sizeof(buf) - have);
		if (got < 0 && errno == EINTR)
			continue;
		if (got <= 0)
			return got == 0 ? 0 : -1;
		have += (size_t)got;
		if (have < sizeof(buf))
			continue;
		have = 0;
		memcpy(&rec, buf, sizeof(rec));
		if (rec.i != *next)
			return -1;
		status[rec.i] = (int)rec.status;
		for (size_t j = 0; j < nout; j++)
			out[rec.i * nout + j] = (long)rec.v[j];
		(*next)++;
	}
}

/* Items from..n-1 in this process (no isolation, or no fork). */
static int answers_here(size_t from, size_t n, size_t nout,
			isolate_answer_fn answer, void *arg, long *out,
			int *status)
{
	for (size_t i = from; i < n; i++) {
		if (interrupt_signal())
			return ISOLATE_INTERRUPTED;
		status[i] = answer(arg, i, out + i * nout);
	}
	return 0;
}

/*
 * One verifying child for items *next..n-1.  0 when it answered them all
 * or failed in one (that item's status set, *next past it);
 * ISOLATE_INTERRUPTED; ISOLATE_SYSTEM when it could not start.
 */
static int answers_batch(size_t *next, size_t n, size_t nout,
			 isolate_answer_fn answer, void *arg,
			 const struct bench_opts *o, long *out, int *status)
{
	int fds[2], wstatus = 0, rc;
	pid_t pid;

	if (pipe2(fds, O_CLOEXEC) != 0)
		return ISOLATE_SYSTEM;
	fflush(NULL);
	pid = fork();
	if (pid < 0) {
		close(fds[0]);
		close(fds[1]);
		return ISOLATE_SYSTEM;
	}
	if (pid == 0) {
		close(fds[0]);
		answers_child(*next, n, nout, answer, arg, fds[1]);
	}
	close(fds[1]);
	rc = answers_read(fds[0], o, nout, out, status, next);
	close(fds[0]);
	if (rc != 0)
		kill(pid, SIGKILL);
	if (wait_child(pid, &wstatus) < 0)
		return ISOLATE_SYSTEM;
	if (rc == 2 || (interrupt_signal() && *next < n))
		return ISOLATE_INTERRUPTED;
	if (*next >= n)
		return 0;
	/* item *next got no answer: late, or the child died in it */
	status[*next] = rc == 1 ? ISOLATE_TIMEOUT : ISOLATE_CRASHED;
	out[*next * nout] = rc == 1 || !WIFSIGNALED(wstatus)
				    ? 0
				    : WTERMSIG(wstatus);
	(*next)++;
	return 0;
}

int isolate_answers(size_t n, size_t nout, isolate_answer_fn answer,
		    void *arg, const struct bench_opts *o, long *out,
		    int *status)
{
	size_t next = 0;

	if (nout == 0 || nout > ISOLATE_MAX_OUT)
		return ISOLATE_SYSTEM;
	if (!o->isolate)
		return answers_here(0, n, nout, answer, arg, out, status);
	while (next < n) {
		int rc = answers_batch(&next, n, nout, answer, arg, o, out,
				       status);
		if (rc == ISOLATE_SYSTEM)
			return answers_here(next, n, nout, answer, arg, out,
					    status) == 0
				       ? ISOLATE_SYSTEM
				       : ISOLATE_INTERRUPTED;
		if (rc != 0)
			return rc;
	}
	return 0;
}

void isolate_answer_text(int status, const long *out,
			 const struct bench_opts *o, char *buf, size_t size)
{
	if (status == ISOLATE_TIMEOUT)
		snprintf(buf, size, "no answer within %gs while verifying: the "
			 "child was killed (see --timeout)", o->timeout_ns / 1e9);
	else if (status == ISOLATE_CRASHED && out[0] > 0)
		snprintf(buf, size, "crashed: signal %ld (%s) while verifying",
			 out[0], strsignal((int)out[0]));
	else if (status == ISOLATE_CRASHED)
		snprintf(buf, size, "the verifying child exited without an "
			 "answer");
	else
		snprintf(buf, size, "%s while verifying",
			 engine_status_name(status));
}

int isolate_pin_cpu(int cpu, char *err, size_t size)
{
	cpu_set_t allowed, set;

	if (cpu < 0 || cpu >= CPU_SETSIZE) {
		snprintf(err, size, "CPU %d does not exist", cpu);
		return -1;
	}
	if (sched_getaffinity(0, sizeof(allowed), &allowed) != 0) {
		snprintf(err, size, "sched_getaffinity: %s", strerror(errno));
		return -1;
	}
	if (!CPU_ISSET(cpu, &allowed)) {
		snprintf(err, size, "CPU %d is not available to this process "
			 "(%d CPUs allowed)", cpu, CPU_COUNT(&allowed));
		return -1;
	}
	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set) != 0) {
		snprintf(err, size, "sched_setaffinity CPU %d: %s", cpu,
			 strerror(errno));
		return -1;
	}
	return 0;
}

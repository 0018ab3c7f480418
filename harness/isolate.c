/*
 * isolate.c - one sample per forked child, with a time limit (see isolate.h).
 */
#define _GNU_SOURCE
#include "harness/isolate.h"

#include "engines/engine.h"
#include "harness/clock.h"
#include "harness/interrupt.h"
#include "harness/sample.h"

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

/* A forked child's start: no core files, default signals, its phase. */
static void child_begin(enum engine_phase phase)
{
	struct rlimit no_core = {0, 0};

	/* a crash on purpose must not write a core file per sample */
	setrlimit(RLIMIT_CORE, &no_core);
	interrupt_child_reset();
	engine_phase = phase;
}

/* The child: measure, send, exit without running atexit or stdio flushes. */
static void __attribute__((noreturn))
child_run(const struct bench *b, const struct bench_opts *o, int fd)
{
	static unsigned char buf[SAMPLE_MAX_WIRE];
	struct result tmp;
	char why[512] = "";
	size_t len;
	int rc;

	child_begin(ENGINE_PHASE_MEASURE);
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
	len = sample_encode(&tmp, tmp.nsamples ? tmp.nsamples - 1 : 0, rc,
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

/*
 * fork() with a pipe from child to parent: in the child (0) *fd is the
 * write end, in the parent (the child's pid) the read end.  -1 with a
 * one-line reason in why when pipe or fork failed.
 */
static pid_t fork_piped(int *fd, char *why, size_t size)
{
	int fds[2];
	pid_t pid;

	if (pipe2(fds, O_CLOEXEC) != 0) {
		snprintf(why, size, "pipe: %s (try --no-fork)", strerror(errno));
		return -1;
	}
	fflush(NULL); /* or the child could print the parent's buffered text */
	pid = fork();
	if (pid < 0) {
		snprintf(why, size, "fork: %s (try --no-fork)", strerror(errno));
		close(fds[0]);
		close(fds[1]);
		return -1;
	}
	close(fds[pid == 0 ? 0 : 1]);
	*fd = fds[pid == 0 ? 1 : 0];
	return pid;
}

/* Turn what the child did into 0, an engine status or an isolate status. */
static int judge(int status, const unsigned char *buf, size_t len,
		 struct result *r, char *why, size_t size)
{
	int rc = 0;

	if (WIFSIGNALED(status)) {
		snprintf(why, size, "crashed: signal %d (%s) while timing",
			 WTERMSIG(status), strsignal(WTERMSIG(status)));
		return STATUS_CRASHED;
	}
	if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
		snprintf(why, size, "the measuring child exited with status %d "
			 "without a sample", WIFEXITED(status)
						     ? WEXITSTATUS(status)
						     : -1);
		return STATUS_CRASHED;
	}
	if (sample_decode(buf, len, r, &rc, why, size) != 0) {
		snprintf(why, size, "the measuring child sent a malformed "
			 "sample (%zu bytes)", len);
		return STATUS_CRASHED;
	}
	return rc;
}

int isolate_measure(const struct bench *b, const struct bench_opts *o,
		    struct result *r, char *why, size_t size)
{
	static unsigned char buf[SAMPLE_MAX_WIRE];
	uint64_t deadline = 0;
	int fd, status = 0, rc;
	size_t len = 0;
	pid_t pid = fork_piped(&fd, why, size);

	if (pid < 0)
		return STATUS_SYSTEM;
	if (pid == 0)
		child_run(b, o, fd);
	if (o->timeout_ns > 0)
		deadline = clock_ns() + (uint64_t)o->timeout_ns;
	rc = read_until(fd, deadline, buf, sizeof(buf), &len);
	close(fd);
	if (rc == 1 || rc == 2)
		kill(pid, SIGKILL);
	if (wait_child(pid, &status) < 0) {
		snprintf(why, size, "waitpid: %s", strerror(errno));
		return STATUS_SYSTEM;
	}
	/* a Ctrl-C reaches the child too: its death is the interruption,
	   not a crash; a sample it finished before is kept */
	if (rc == 2 || (interrupt_signal() && !(WIFEXITED(status) &&
						 WEXITSTATUS(status) == 0))) {
		snprintf(why, size, "interrupted (%s): the measuring child was "
			 "stopped", interrupt_name(interrupt_signal()));
		return STATUS_INTERRUPTED;
	}
	if (rc == 1) {
		snprintf(why, size, "no sample within %gs: the measuring "
			 "child was killed (see --timeout)",
			 o->timeout_ns / 1e9);
		return STATUS_TIMEOUT;
	}
	return judge(status, buf, rc == 0 ? len : 0, r, why, size);
}

/* An answer on the wire: this header, then it->size bytes. */
struct answer_hdr {
	uint64_t i;
	int64_t status;
};

/* The item after failed item i. */
static size_t after_failure(const struct isolate_items *it, size_t i)
{
	size_t next = it->after_failure ? it->after_failure(it->arg, i) : i + 1;

	return next > i ? next : i + 1;
}

/* The verifying child: items from `from` on, each sent when it is known. */
static void __attribute__((noreturn))
answers_child(const struct isolate_items *it, size_t from, int fd)
{
	size_t len = sizeof(struct answer_hdr) + it->size;
	unsigned char *rec = malloc(len);

	if (rec == NULL)
		_exit(4);
	child_begin(ENGINE_PHASE_VERIFY);
	for (size_t i = from; i < it->n;) {
		struct answer_hdr h = {i, 0};

		memset(rec, 0, len);
		h.status = it->answer(it->arg, i, rec + sizeof(h));
		memcpy(rec, &h, sizeof(h));
		if (write_all(fd, rec, len) != 0)
			_exit(3);
		i = h.status < 0 ? after_failure(it, i) : i + 1;
	}
	_exit(0);
}

/* Items [from, to) were passed over. */
static void mark_skipped(struct isolate_verdict *v, size_t from, size_t to)
{
	for (size_t i = from; i < to; i++)
		v[i] = (struct isolate_verdict){STATUS_SKIPPED, 0};
}

/*
 * Read answers until EOF, a late answer, or a signal; each answer gets
 * o->timeout_ns from the one before.  *next is the first item without an
 * answer.  0 at EOF, 1 on timeout, 2 on a signal, -1 on an error.
 */
static int answers_read(int fd, const struct isolate_items *it,
			const struct bench_opts *o, unsigned char *out,
			struct isolate_verdict *v, size_t *next)
{
	size_t len = sizeof(struct answer_hdr) + it->size, have = 0;
	unsigned char *rec = malloc(len);
	uint64_t deadline = 0;
	int rc = -1;

	if (rec == NULL)
		return -1;
	for (;;) {
		struct answer_hdr h;
		ssize_t got;

		/* a new answer starts: it gets the whole limit */
		if (o->timeout_ns > 0 && have == 0)
			deadline = clock_ns() + (uint64_t)o->timeout_ns;
		rc = wait_readable(fd, deadline);
		if (rc != 0)
			break;
		got = read(fd, rec + have, len - have);
		if (got < 0 && errno == EINTR)
			continue;
		if (got <= 0) {
			rc = got == 0 ? 0 : -1;
			break;
		}
		have += (size_t)got;
		if (have < len)
			continue;
		have = 0;
		memcpy(&h, rec, sizeof(h));
		if (h.i != *next) { /* the child skips as the parent does */
			rc = -1;
			break;
		}
		v[h.i] = (struct isolate_verdict){(int)h.status, 0};
		memcpy(out + h.i * it->size, rec + sizeof(h), it->size);
		*next = h.status < 0 ? after_failure(it, (size_t)h.i)
				     : (size_t)h.i + 1;
		mark_skipped(v, (size_t)h.i + 1, *next < it->n ? *next : it->n);
	}
	free(rec);
	return rc;
}

/* Items from `from` on in this process (no isolation, or no fork). */
static int answers_here(const struct isolate_items *it, size_t from,
			unsigned char *out, struct isolate_verdict *v)
{
	for (size_t i = from; i < it->n;) {
		size_t next;
		if (interrupt_signal())
			return STATUS_INTERRUPTED;
		v[i] = (struct isolate_verdict){
			it->answer(it->arg, i, out + i * it->size), 0};
		next = v[i].status < 0 ? after_failure(it, i) : i + 1;
		mark_skipped(v, i + 1, next < it->n ? next : it->n);
		i = next;
	}
	return 0;
}

/*
 * One verifying child from item *next on.  0 when it answered to the end
 * or died in one item (its verdict set, *next past it);
 * STATUS_INTERRUPTED; STATUS_SYSTEM when it could not start.
 */
static int answers_batch(const struct isolate_items *it,
			 const struct bench_opts *o, unsigned char *out,
			 struct isolate_verdict *v, size_t *next)
{
	char why[256];
	int fd, wstatus = 0, rc;
	size_t skip_to;
	pid_t pid = fork_piped(&fd, why, sizeof(why));

	if (pid < 0)
		return STATUS_SYSTEM; /* the items run in this process */
	if (pid == 0)
		answers_child(it, *next, fd);
	rc = answers_read(fd, it, o, out, v, next);
	close(fd);
	if (rc != 0)
		kill(pid, SIGKILL);
	if (wait_child(pid, &wstatus) < 0)
		return STATUS_SYSTEM;
	if (rc == 2 || (interrupt_signal() && *next < it->n))
		return STATUS_INTERRUPTED;
	if (*next >= it->n)
		return 0;
	/* item *next got no answer: late, or the child died in it */
	v[*next].status = rc == 1 ? STATUS_TIMEOUT : STATUS_CRASHED;
	v[*next].sig = rc != 1 && WIFSIGNALED(wstatus) ? WTERMSIG(wstatus) : 0;
	skip_to = after_failure(it, *next);
	mark_skipped(v, *next + 1, skip_to < it->n ? skip_to : it->n);
	*next = skip_to;
	return 0;
}

int isolate_answers(const struct isolate_items *it, const struct bench_opts *o,
		    void *out, struct isolate_verdict *v)
{
	size_t next = 0;

	if (it->size == 0)
		return STATUS_SYSTEM;
	if (!o->isolate)
		return answers_here(it, 0, out, v);
	while (next < it->n) {
		int rc = answers_batch(it, o, out, v, &next);
		if (rc == STATUS_SYSTEM)
			return answers_here(it, next, out, v) == 0
				       ? STATUS_SYSTEM
				       : STATUS_INTERRUPTED;
		if (rc != 0)
			return rc;
	}
	return 0;
}

void isolate_verdict_text(const struct isolate_verdict *v,
			  const struct bench_opts *o, char *buf, size_t size)
{
	if (v->status == STATUS_TIMEOUT)
		snprintf(buf, size, "no answer within %gs while verifying: the "
			 "child was killed (see --timeout)", o->timeout_ns / 1e9);
	else if (v->status == STATUS_CRASHED && v->sig > 0)
		snprintf(buf, size, "crashed: signal %d (%s) while verifying",
			 v->sig, strsignal(v->sig));
	else if (v->status == STATUS_CRASHED)
		snprintf(buf, size, "the verifying child exited without an "
			 "answer");
	else if (v->status == STATUS_SKIPPED)
		snprintf(buf, size, "not verified after an earlier failure");
	else
		snprintf(buf, size, "%s", engine_status_name(v->status));
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

/*
 * isolate.c - items computed in forked children, each within a deadline
 * (see isolate.h).
 */
#define _GNU_SOURCE
#include "harness/isolate.h"

#include "harness/clock.h"
#include "harness/fdio.h"
#include "harness/interrupt.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

/* A forked child's start: no core files, default signals, the caller's. */
static void child_begin(const struct isolate_items *it,
			void (*child_init)(void *arg))
{
	struct rlimit no_core = {0, 0};

	/* a crash on purpose must not write a core file per item */
	setrlimit(RLIMIT_CORE, &no_core);
	interrupt_child_reset();
	if (child_init != NULL)
		child_init(it->arg);
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
 * write end, in the parent (the child's pid) the read end.  -1 with
 * errno set when pipe or fork failed.
 */
static pid_t fork_piped(int *fd)
{
	int fds[2], err;
	pid_t pid;

	if (pipe2(fds, O_CLOEXEC) != 0)
		return -1;
	fflush(NULL); /* or the child could print the parent's buffered text */
	pid = fork();
	if (pid < 0) {
		err = errno;
		close(fds[0]);
		close(fds[1]);
		errno = err;
		return -1;
	}
	close(fds[pid == 0 ? 0 : 1]);
	*fd = fds[pid == 0 ? 1 : 0];
	return pid;
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

/* The child: items from `from` on, each sent when it is known; it exits
 * without running atexit handlers or flushing stdio. */
static void __attribute__((noreturn))
items_child(const struct isolate_items *it, void (*child_init)(void *arg),
	    size_t from, int fd)
{
	size_t len = sizeof(struct answer_hdr) + it->size;
	unsigned char *rec = malloc(len);

	if (rec == NULL)
		_exit(4);
	child_begin(it, child_init);
	for (size_t i = from; i < it->n;) {
		struct answer_hdr h = {i, 0};

		memset(rec, 0, len);
		h.status = it->answer(it->arg, i, rec + sizeof(h));
		memcpy(rec, &h, sizeof(h));
		if (fdio_write_all(fd, rec, len) != 0)
			_exit(3);
		i = h.status < 0 ? after_failure(it, i) : i + 1;
	}
	_exit(0);
}

/* Items [from, to) were passed over. */
static void mark_skipped(struct isolate_verdict *v, size_t from, size_t to)
{
	for (size_t i = from; i < to; i++)
		v[i] = (struct isolate_verdict){0, ISOLATE_SKIPPED, 0, 0};
}

/* Answer i came back with `status`: its verdict, and the next item. */
static size_t answered(const struct isolate_items *it, size_t i, int status,
		       struct isolate_verdict *v)
{
	size_t next = status < 0 ? after_failure(it, i) : i + 1;

	v[i] = (struct isolate_verdict){status, ISOLATE_ANSWERED, 0, 0};
	mark_skipped(v, i + 1, next < it->n ? next : it->n);
	return next;
}

/*
 * Read answers until EOF, a late answer, or a signal; each answer gets
 * lim->timeout_ns from the one before.  *next is the first item without
 * an answer.  0 at EOF, 1 on timeout, 2 on a signal, -1 on an error.
 */
static int answers_read(int fd, const struct isolate_items *it,
			const struct isolate_limits *lim, unsigned char *out,
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
		if (lim->timeout_ns > 0 && have == 0)
			deadline = clock_ns() + lim->timeout_ns;
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
		memcpy(out + h.i * it->size, rec + sizeof(h), it->size);
		*next = answered(it, (size_t)h.i, (int)h.status, v);
	}
	free(rec);
	return rc;
}

int isolate_run_here(const struct isolate_items *it, void *out,
		     struct isolate_verdict *v)
{
	unsigned char *o = out;
	size_t i = 0;

	while (i < it->n && v[i].end != ISOLATE_UNSET &&
	       v[i].end != ISOLATE_NO_CHILD)
		i++;
	while (i < it->n) {
		if (interrupt_signal())
			return 1;
		i = answered(it, i, it->answer(it->arg, i, o + i * it->size), v);
	}
	return 0;
}

/* Item i got no answer: what the child's end (rc: answers_read's) says. */
static struct isolate_verdict lost(int rc, int wstatus)
{
	if (rc == 1)
		return (struct isolate_verdict){0, ISOLATE_LATE, 0, 0};
	if (WIFSIGNALED(wstatus))
		return (struct isolate_verdict){0, ISOLATE_KILLED,
						WTERMSIG(wstatus), 0};
	return (struct isolate_verdict){
		0, ISOLATE_EXITED, 0, WIFEXITED(wstatus) ? WEXITSTATUS(wstatus) : -1};
}

/* Item i could not be given a child (errno err). */
static int no_child(struct isolate_verdict *v, size_t i, int err)
{
	v[i] = (struct isolate_verdict){0, ISOLATE_NO_CHILD, 0, err};
	return -1;
}

/*
 * After a child ended (rc: answers_read's, wstatus: waitpid's) with item
 * *next unanswered: 1 on a signal, else 0 with that item's verdict set
 * and *next past it.
 */
static int batch_end(const struct isolate_items *it, int rc, int wstatus,
		     struct isolate_verdict *v, size_t *next)
{
	size_t skip_to;

	/* a Ctrl-C reaches the child too: its death is the interruption,
	   not a crash; the answers it sent before are kept */
	if (rc == 2 || (interrupt_signal() && *next < it->n))
		return 1;
	if (*next >= it->n)
		return 0;
	v[*next] = lost(rc, wstatus);
	skip_to = after_failure(it, *next);
	mark_skipped(v, *next + 1, skip_to < it->n ? skip_to : it->n);
	*next = skip_to;
	return 0;
}

/*
 * One child from item *next on.  0 when it answered to the end or died
 * in one item (its verdict set, *next past it); 1 on a signal; -1 when
 * pipe, fork or waitpid failed (item *next is ISOLATE_NO_CHILD).
 */
static int run_batch(const struct isolate_items *it,
		     const struct isolate_limits *lim,
		     void (*child_init)(void *arg), unsigned char *out,
		     struct isolate_verdict *v, size_t *next)
{
	int fd, wstatus = 0, rc;
	pid_t pid = fork_piped(&fd);

	if (pid < 0)
		return no_child(v, *next, errno);
	if (pid == 0)
		items_child(it, child_init, *next, fd);
	rc = answers_read(fd, it, lim, out, v, next);
	close(fd);
	if (rc != 0)
		kill(pid, SIGKILL);
	if (wait_child(pid, &wstatus) < 0)
		return *next < it->n ? no_child(v, *next, errno) : 0;
	return batch_end(it, rc, wstatus, v, next);
}

int isolate_run(const struct isolate_items *it,
		const struct isolate_limits *lim,
		void (*child_init)(void *arg), void *out,
		struct isolate_verdict *v)
{
	size_t next = 0;

	memset(v, 0, it->n * sizeof(*v));
	if (!lim->isolate)
		return isolate_run_here(it, out, v);
	while (next < it->n) {
		int rc = run_batch(it, lim, child_init, out, v, &next);
		if (rc != 0)
			return rc;
	}
	return 0;
}

void isolate_verdict_text(const struct isolate_verdict *v,
			  const struct isolate_limits *lim, const char *item,
			  const char *activity, char *buf, size_t size)
{
	switch (v->end) {
	case ISOLATE_KILLED:
		snprintf(buf, size, "crashed: signal %d (%s) while %s", v->sig,
			 strsignal(v->sig), activity);
		return;
	case ISOLATE_EXITED:
		snprintf(buf, size, "the child exited with status %d without "
			 "its %s while %s", v->code, item, activity);
		return;
	case ISOLATE_LATE:
		snprintf(buf, size, "no %s within %gs while %s: the child was "
			 "killed (see --timeout)", item,
			 (double)lim->timeout_ns / 1e9, activity);
		return;
	case ISOLATE_SKIPPED:
		snprintf(buf, size, "not run after an earlier failure while %s",
			 activity);
		return;
	case ISOLATE_NO_CHILD:
		snprintf(buf, size, "no child for the %s while %s: pipe or fork: "
			 "%s (try --no-fork)", item, activity,
			 strerror(v->code));
		return;
	case ISOLATE_UNSET:
		snprintf(buf, size, "no %s while %s: the run was stopped", item,
			 activity);
		return;
	case ISOLATE_ANSWERED:
		break;
	}
	snprintf(buf, size, "status %d while %s", v->status, activity);
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

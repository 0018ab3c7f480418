/*
 * interrupt.c - SIGINT, SIGTERM and SIGPIPE as a flag (see interrupt.h).
 */
#define _GNU_SOURCE
#include "harness/interrupt.h"

#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

static volatile sig_atomic_t received, sigint_seen;
static struct timespec first_sigint; /* when sigint_seen was set */

/* Seconds since first_sigint (clock_gettime is async-signal-safe). */
static double since_first_sigint(void)
{
	struct timespec now;

	clock_gettime(CLOCK_MONOTONIC, &now);
	return (double)(now.tv_sec - first_sigint.tv_sec) +
	       (double)(now.tv_nsec - first_sigint.tv_nsec) / 1e9;
}

/*
 * Remember the first signal.  A SIGINT more than INTERRUPT_BURST_S after
 * the first takes the default action; those within it are the same
 * Ctrl-C (`timeout -s INT` signals the process and its group, a user
 * presses twice) and count as one.
 */
static void on_signal(int sig)
{
	if (sig == SIGINT) {
		if (sigint_seen && since_first_sigint() > INTERRUPT_BURST_S) {
			signal(SIGINT, SIG_DFL);
			raise(SIGINT);
			return;
		}
		if (!sigint_seen)
			clock_gettime(CLOCK_MONOTONIC, &first_sigint);
		sigint_seen = 1;
	}
	if (received == 0)
		received = sig;
}

void interrupt_install(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	sa.sa_flags = 0; /* no SA_RESTART: poll and waitpid see EINTR */
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGPIPE, &sa, NULL);
}

int interrupt_signal(void)
{
	return received;
}

void interrupt_clear(void)
{
	received = 0;
	sigint_seen = 0;
}

void interrupt_child_reset(void)
{
	signal(SIGINT, SIG_DFL);
	signal(SIGTERM, SIG_DFL);
	signal(SIGPIPE, SIG_DFL);
}

const char *interrupt_name(int sig)
{
	static char buf[32];

	if (sig == SIGINT)
		return "SIGINT";
	if (sig == SIGTERM)
		return "SIGTERM";
	if (sig == SIGPIPE)
		return "SIGPIPE";
	snprintf(buf, sizeof(buf), "signal %d", sig);
	return buf;
}

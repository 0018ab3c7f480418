/*
 * interrupt.h - Ctrl-C, SIGTERM and a closed output pipe during a run:
 * remembered, not fatal.
 *
 * After interrupt_install(), SIGINT, SIGTERM and SIGPIPE only set a flag (a
 * volatile sig_atomic_t).  The harness looks at it between samples and
 * while it waits for a measuring child (which it then kills), so a run
 * stops at the next sample boundary, keeps every sample it finished and
 * writes its results files; the command then exits 128 + the signal (130
 * for SIGINT, 143 for SIGTERM, 141 for SIGPIPE), as a shell reports a
 * process the signal killed.  SIGPIPE is a reader of the Go text that went
 * away (`rxbench run | head`): the write fails with EPIPE, and the
 * benchmarks measured so far still reach the JSON results file.
 *
 * A second SIGINT more than INTERRUPT_BURST_S after the first (Ctrl-C
 * pressed again) ends the process at once: the way out of an op stuck in
 * this process (--no-fork); what finished is in the run's journal
 * (report/json.h).  SIGINTs within that second of the first are one
 * interrupt: `timeout -s INT` signals the process and its group, and a
 * user's double Ctrl-C is often milliseconds apart.
 *
 * The handlers do not restart system calls: a blocked poll() or waitpid()
 * returns EINTR and the caller looks at the flag.
 */
#ifndef RXB_INTERRUPT_H
#define RXB_INTERRUPT_H

#define INTERRUPT_BURST_S 1.0 /* SIGINTs this close are one */

/* Catch SIGINT, SIGTERM and SIGPIPE (see above).  Safe to call more than once. */
void interrupt_install(void);

/* 0, or the first of SIGINT / SIGTERM / SIGPIPE received since install. */
int interrupt_signal(void);

/* Forget a received signal (tests). */
void interrupt_clear(void);

/*
 * In a forked child that measures: the default actions again, so a
 * Ctrl-C that reaches the whole process group ends the child at once
 * (its parent notices and stops the run).
 */
void interrupt_child_reset(void);

/* "SIGINT", "SIGTERM", or "signal N". */
const char *interrupt_name(int sig);

#endif

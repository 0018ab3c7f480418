/*
 * xdp_load.h - the payload suite's XDP programs (bpf/xdp_payload.bpf.c)
 * from user space: load one with libbpf from the object embedded in
 * rxbench, run it on a frame with BPF_PROG_TEST_RUN, read its answer.
 *
 * Not an engine yet (issue 25, phase 1): phase 2 puts an `xdp` engine in
 * front of it.  Nothing here prints: libbpf's messages and the verifier's
 * log end up in the one-line reasons.
 *
 * Build: RXB_HAVE_XDP (clang's BPF target and libbpf found by CMake).
 */
#ifndef RXB_XDP_LOAD_H
#define RXB_XDP_LOAD_H

#include <stddef.h>
#include <stdint.h>

#include "bpf/xdp_shared.h"

struct xdp_dfa; /* engines/xdp_dfa.h */

enum xdp_prog_kind {
	XDP_PROG_BASE,
	XDP_PROG_LITERAL,
	XDP_PROG_DFA,
	XDP_PROG_COUNT,
};

/* What to load. */
struct xdp_spec {
	enum xdp_prog_kind kind;
	unsigned action;            /* XDP_DROP, XDP_TX or XDP_PASS */
	const char *needle;         /* literal: 1 .. XDP_RXB_MAX_NEEDLE bytes */
	size_t needle_len;
	const struct xdp_dfa *dfa;  /* dfa: the table (copied into maps) */
	int dfa_all;                /* dfa: 1 every rule id, 0 any match */
};

/* One run's answer (the last of `repeat` runs). */
struct xdp_answer {
	unsigned action;   /* what the program returned */
	unsigned status;   /* enum xdp_rxb_status */
	unsigned off, len; /* the payload the parser found */
	int hit;           /* literal, dfa: a match */
	__u64 ids[XDP_RXB_ID_WORDS]; /* dfa with dfa_all: rule ids */
	/* the kernel's mean ns per run: total / repeat, rounded down */
	uint32_t duration_ns;
	/* this thread's CPU ns around the system call (clock_thread_ns):
	   the runs and the test run's fixed cost, not its sleeps */
	double cpu_ns;
};

struct xdp_prog;

/* "base", "literal", "dfa". */
const char *xdp_prog_name(enum xdp_prog_kind kind);

/*
 * Open the embedded object, configure and load spec->kind through the
 * verifier, fill its maps.  0 and a new program in *out, or -1 with a
 * one-line reason in why (the probe's reason when bpf() is refused, the
 * verifier's last lines when it refuses the program).  The caller frees
 * *out with xdp_prog_free().
 */
int xdp_prog_open(const struct xdp_spec *spec, struct xdp_prog **out,
		  char *why, size_t size);

/*
 * xdp_prog_open() of a dfa program that reads the DFA maps of `maps`, a
 * dfa program loaded from the same spec->dfa (the "any match" and the
 * "every rule" program of a set: a CRS set's tables are some 90 MB, held
 * once; each program keeps them, so either may be freed first).  As
 * xdp_prog_open() otherwise.
 */
int xdp_prog_open_sharing(const struct xdp_spec *spec,
			  const struct xdp_prog *maps, struct xdp_prog **out,
			  char *why, size_t size);

/*
 * Run the program `repeat` (>= 1) times on frame[0..len) (a whole
 * Ethernet frame, >= 14 bytes) with BPF_PROG_TEST_RUN; the answer is the
 * last run's, the duration the kernel's mean, cpu_ns the thread's CPU
 * time around the system call alone.  0, or -1 with why.
 */
int xdp_prog_run(struct xdp_prog *p, const void *frame, size_t len,
		 uint32_t repeat, struct xdp_answer *a, char *why, size_t size);

/* The loaded program's file descriptor, for runs made elsewhere (live
   frames, engines/xdp_live.h); p keeps it. */
int xdp_prog_fd(const struct xdp_prog *p);

void xdp_prog_free(struct xdp_prog *p);

#endif

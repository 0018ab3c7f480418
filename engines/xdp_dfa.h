/*
 * xdp_dfa.h - a set of patterns compiled to unanchored byte DFAs (one, or
 * groups of the set each in a DFA of its own) for the XDP dfa program
 * (bpf/xdp_payload.bpf.c), with the answers they can
 * give: "does any pattern match anywhere" and "which patterns match
 * anywhere" (set semantics; where and how often do not matter, so lazy
 * and greedy are the same here).
 *
 * Built from the reference's parser and Thompson NFA (suites/
 * reference_int.h) by subset construction over byte classes, a DFA per
 * pattern; a group's DFA is the product of its patterns' (the same DFA
 * the subset construction of the group would make); no minimisation.
 * A DFA state is the set of NFA states alive after a
 * prefix of the data, with every pattern's start added at each offset
 * (unanchored), so the DFA answers what ref_is_match() answers, pattern
 * by pattern.  Each state carries, per pattern id, whether a match ends
 * there, and whether one does if the data ends there, which the walker
 * checks after the last byte.
 *
 * Every assertion of the reference is in: ^ \A, $ \Z \z, multiline ^
 * and $, \b and \B.  A state remembers what they need of the byte before
 * an offset; those that need the byte after are settled by the next
 * transition, or by the end of the data (xdp_dfa.c).  Out of a DFA's
 * reach here, refused with a reason naming the pattern: UTF-8 mode
 * (matches would have to start on character boundaries), and whatever
 * the reference refuses (backreferences, lookaround, ...).
 *
 * Build: always (no library; the XDP loader needs libbpf, this does not).
 */
#ifndef RXB_XDP_DFA_H
#define RXB_XDP_DFA_H

#include <stddef.h>
#include <stdint.h>

#include "bpf/xdp_shared.h"

/*
 * The default state cap of one DFA, also the most there can be: the
 * kernel's table of a DFA is states x 256 x 4 bytes in one array-map
 * value, at most 4 MiB (XDP_RXB_DFA_MAX_STATES).  4 MiB is already past
 * a core's L2: more states would buy set sizes at the price of cache
 * misses on every step of a walk over varied bytes.  --engine-opt
 * xdp.max_states=N lowers it.
 */
#define XDP_DFA_DEFAULT_MAX_STATES XDP_RXB_DFA_MAX_STATES
/* The default and most DFAs of a set (--engine-opt xdp.max_groups=N). */
#define XDP_DFA_DEFAULT_MAX_GROUPS XDP_RXB_DFA_GROUPS

/* struct xdp_dfa.next: the accept bit beside the state number. */
#define XDP_DFA_ACCEPT 0x8000u

/* A pattern of the set. */
struct xdp_dfa_pattern {
	const char *re;
	size_t len;
	unsigned flags; /* enum engine_flag */
	uint32_t id;    /* < XDP_RXB_MAX_IDS: its bit in the answers */
};

struct xdp_dfa {
	uint32_t nstates;  /* of all groups */
	uint32_t ngroups;  /* DFAs, 1 .. XDP_RXB_DFA_GROUPS */
	/* group g's states are base[g] .. base[g] + states[g] of next's rows
	   and acc; its own numbers run from 0, its start */
	uint32_t base[XDP_RXB_DFA_GROUPS];
	uint32_t states[XDP_RXB_DFA_GROUPS];
	uint32_t rows;     /* the largest group's states rounded up to a
			      power of two: the kernel's rows per table */
	uint32_t nclasses; /* byte classes a pattern's DFA tells apart (the
			      most of one pattern: groups are products) */
	int tail;          /* some state accepts at the end (ACC_END) */
	/* nstates x 256 entries: row base[g] + s is group g's state s, an
	   entry the next state's number in its group, | XDP_DFA_ACCEPT when
	   that state accepts */
	uint16_t *next;
	struct xdp_rxb_accept *acc; /* nstates, as next's rows */
};

/*
 * Compile p[0..n) into d: DFAs of at most max_states states each (1 ..
 * XDP_RXB_DFA_MAX_STATES), at most max_groups of them (1 ..
 * XDP_RXB_DFA_GROUPS).  The patterns are packed largest first (by their
 * DFA's states alone), each into the group whose DFA grows least with
 * it and still fits, else into a new group.  The walker runs them all (the same answers; a table lookup per group
 * and byte).  0, or -1 with a one-line reason in why naming the pattern
 * ("pattern 3 ((a)\1): backreference ...": refused, or alone past the
 * state cap) or the groups (the set needs more of them).  Free d with
 * xdp_dfa_release() either way.
 */
int xdp_dfa_build_capped(struct xdp_dfa *d, const struct xdp_dfa_pattern *p,
			 size_t n, uint32_t max_states, uint32_t max_groups,
			 char *why, size_t size);

/* xdp_dfa_build_capped() with XDP_DFA_DEFAULT_MAX_GROUPS. */
int xdp_dfa_build(struct xdp_dfa *d, const struct xdp_dfa_pattern *p,
		  size_t n, uint32_t max_states, char *why, size_t size);

/*
 * Walk data[0..len) as the XDP program does.  With `all`, ids gets the
 * ids of every pattern that matches; without, the walk stops at the
 * first match and ids is left zero.  1 when some pattern matches, else 0.
 */
int xdp_dfa_scan(const struct xdp_dfa *d, const void *data, size_t len,
		 int all, __u64 ids[XDP_RXB_ID_WORDS]);

void xdp_dfa_release(struct xdp_dfa *d);

#endif

/*
 * test_xdp_common.h - what tests/test_xdp.c and tests/test_xdp_cli.c
 * share: the payload suite's patterns as DFA patterns, the reference's
 * answer per pattern as an id set, a packet as a frame.
 */
#ifndef RXB_TEST_XDP_COMMON_H
#define RXB_TEST_XDP_COMMON_H

#include <stddef.h>

#include "bpf/xdp_shared.h"
#include "corpora/rules.h"
#include "engines/xdp_dfa.h"

struct ref_regex;

/* Patterns compiled with the reference, for xt_ref_ids(). */
struct xt_refs {
	struct ref_regex **r;
	const struct xdp_dfa_pattern *p;
	size_t n;
};

/*
 * rs's patterns as DFA patterns in out[0..rs->np) (ids 0.., pointing into
 * rs).  Returns rs->np, or 0 when more than max.
 */
size_t xt_patterns(const struct ruleset *rs, struct xdp_dfa_pattern *out,
		   size_t max);

/* The reference for p[0..n).  0, or -1 with why (the pattern's reason). */
int xt_refs_init(struct xt_refs *x, const struct xdp_dfa_pattern *p,
		 size_t n, char *why, size_t size);
void xt_refs_release(struct xt_refs *x);

/* ids = the ids of the patterns the reference finds in data; 1 if any. */
int xt_ref_ids(const struct xt_refs *x, const void *data, size_t len,
	       __u64 ids[XDP_RXB_ID_WORDS]);

#endif

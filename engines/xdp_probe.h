/*
 * xdp_probe.h - can this process load and test-run an XDP program?  The
 * answer in one line when it cannot: no CAP_BPF/CAP_SYS_ADMIN, a seccomp
 * filter, no bpf() at all, or the BPF JIT switched off.
 *
 * Build: RXB_HAVE_XDP.
 */
#ifndef RXB_XDP_PROBE_H
#define RXB_XDP_PROBE_H

#include <stddef.h>

/*
 * Load a two-instruction XDP program and test-run it once.  0 when both
 * work and the JIT is on; -1 with the reason in why[0..size), e.g.
 * "bpf() refused (EPERM): this process has neither CAP_BPF nor
 * CAP_SYS_ADMIN (kernel.unprivileged_bpf_disabled=2)".  Cheap (one load);
 * the result is not cached.
 */
int xdp_probe(char *why, size_t size);

#endif

/*
 * xdp_live.h - XDP programs run on live frames (issue 25): a network
 * namespace of this process's own, made by a thread of its own, with a
 * veth pair in it, where BPF_PROG_TEST_RUN with
 * BPF_F_TEST_XDP_LIVE_FRAMES (Linux 5.18+) runs a program as if the
 * frames arrived on one end, and really transmits what it returns
 * XDP_TX: out of that end, into its peer, whose own XDP program counts
 * every IPv4 frame it receives and drops it.
 *
 * A second veth pair holds programs in the kernel's XDP dispatcher
 * (xdp_live_hold), so that test runs of them, live or plain, do not
 * swap them in and out (engines/xdp_time.h).
 *
 * Only the namespace's thread ever enters the namespace; the rest of
 * the process, and the host's namespaces, are not touched.  Nothing
 * here prints: every refusal is a one-line reason.
 *
 * Build: RXB_HAVE_XDP (libbpf, pthreads).
 */
#ifndef RXB_XDP_LIVE_H
#define RXB_XDP_LIVE_H

#include <stddef.h>
#include <stdint.h>

/*
 * The longest frame a live run takes (the kernel's page less its
 * headroom, frame head and tail: 3408 bytes with 64-byte cache lines,
 * the selftests' MAX_PKT_SIZE); a longer one runs in plain test_run.
 */
#define XDP_LIVE_MAX_FRAME 3408u

struct xdp_live;

/*
 * This process's namespace, made on the first call in each process (a
 * forked child makes its own: the thread does not survive fork), with
 * a live run of a program that returns XDP_TX on one frame, counted at
 * the peer, as its proof.  NULL with a one-line reason in why when the
 * kernel or the process refuses any step (unshare, the veth pair, the
 * peer's program, live frames, the count); the reason is remembered,
 * so that a process asks the kernel once.  Owned by this module: it
 * lives as long as the process.
 */
struct xdp_live *xdp_live_get(char *why, size_t size);

/*
 * Run prog_fd `repeat` (>= 1) times on frame[0..len) in live-frames
 * mode, arriving on the pair's first end, in batches of 64; `tx` says
 * whether the program returns XDP_TX on this frame (the caller knows it
 * from a plain test run), so that `repeat` more frames are expected at
 * the peer.  The kernel's mean ns per frame in *ns (its clock around
 * the batches: the program, the page pool, the redirect and, when its
 * softirq runs then, the peer's receive), rounded down to a whole ns;
 * the CPU time of the thread that made the system call, around it, in
 * *cpu_ns (engines/xdp_time.h).  0, or -1 with why.
 */
int xdp_live_run(struct xdp_live *l, int prog_fd, const void *frame,
		 size_t len, uint32_t repeat, int tx, uint32_t *ns,
		 double *cpu_ns, char *why, size_t size);

/*
 * Holders: a second veth pair in the namespace, left down, each end
 * holding one program attached natively (XDP_FLAGS_DRV_MODE), which
 * keeps it in the kernel's XDP dispatcher and runs it on no frame.  A test run of repeat > 1 puts its program
 * into the dispatcher before its loop and takes it out after
 * (bpf_prog_change_xdp); for a program the dispatcher holds already
 * that is a reference count, where otherwise each swap rewrites the
 * dispatcher and waits for RCU, and the kernel's clock of the loop
 * after it runs slower by 0.3 to 1 ms (engines/xdp_time.h).
 */
#define XDP_LIVE_HOLDERS 2

/*
 * Attach prog_fd to holder k (0 .. XDP_LIVE_HOLDERS - 1), replacing the
 * program it held (which the dispatcher then lets go): one dispatcher
 * update.  The program stays held until replaced or the process ends.
 * 0, or -1 with why.
 */
int xdp_live_hold(struct xdp_live *l, int k, int prog_fd, char *why,
		  size_t size);

/*
 * Whether every frame the runs so far returned XDP_TX on has reached
 * the peer, and nothing else: waits up to a second for the last
 * batches' receive.  The frames expected and those counted (since the
 * namespace was made, its proof excluded) in *sent and *received.  0
 * when they are equal, else -1 with a one-line reason in why.
 */
int xdp_live_check(struct xdp_live *l, uint64_t *sent, uint64_t *received,
		   char *why, size_t size);

#endif

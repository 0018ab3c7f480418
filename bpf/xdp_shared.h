/*
 * bpf/xdp_shared.h - what the XDP programs (bpf/xdp_payload.bpf.c) and
 * their loader (engines/xdp_load.c) agree on: the configuration in the
 * programs' read-only data, the per-CPU result a run leaves, and the DFA
 * table's layout in its maps.  Included by clang -target bpf and by the
 * host compilers, so it uses the kernel's __u32 types and nothing else.
 */
#ifndef RXB_XDP_SHARED_H
#define RXB_XDP_SHARED_H

#include <linux/types.h>

/* Payload bytes a program reads: longer payloads are XDP_RXB_TOO_LONG. */
#define XDP_RXB_MAX_PAYLOAD 4096u
/* The copy of the payload has this much slack after it, so that a
   read a little past a masked offset (a DFA block) stays inside. */
#define XDP_RXB_BUF_SLACK 192u
#define XDP_RXB_MAX_NEEDLE 64u
/* Rule ids the DFA program reports (bits of ids[]). */
#define XDP_RXB_MAX_IDS 256u
#define XDP_RXB_ID_WORDS (XDP_RXB_MAX_IDS / 64u)
/*
 * The DFA tables as the program reads them: a set is up to
 * XDP_RXB_DFA_GROUPS DFAs, each in its own array-map value (key = the
 * group), per state a row of 256 __u32, entry = the next state's row in
 * the same table as a byte offset (state << 10), with XDP_RXB_DFA_ACCEPT
 * set when that state accepts; one step is a load, an AND and two ADDs.
 * (engines/xdp_dfa.h keeps state numbers; the loader converts.)  An
 * array value may not exceed KMALLOC_MAX_SIZE (4 MiB on x86-64): 4096
 * states a DFA.  The program walks the groups XDP_RXB_DFA_LANES at a
 * time side by side (their lookups are independent), one pass over the
 * payload per XDP_RXB_DFA_LANES groups.
 */
#define XDP_RXB_DFA_ACCEPT 0x80000000u
#define XDP_RXB_DFA_ROW_SHIFT 10u
#define XDP_RXB_DFA_MAX_STATES 4096u
#define XDP_RXB_DFA_GROUPS 32u
#define XDP_RXB_DFA_LANES 4u

/* What the parser found (struct xdp_rxb_result.status). */
enum xdp_rxb_status {
	XDP_RXB_NONE = 0,      /* the program did not run */
	XDP_RXB_PAYLOAD = 1,   /* parsed to a TCP or UDP payload */
	XDP_RXB_MALFORMED = 2, /* short, or a length field that lies */
	XDP_RXB_OTHER = 3,     /* not IPv4/IPv6 TCP/UDP, or a later fragment */
	XDP_RXB_TOO_LONG = 4,  /* payload above XDP_RXB_MAX_PAYLOAD */
};

/*
 * Set by the loader before the object is loaded (the programs see it as
 * constants: the verifier prunes what a configuration does not use).
 */
struct xdp_rxb_cfg {
	__u32 action;     /* XDP_DROP, XDP_TX or XDP_PASS: for a payload
			     (base) or a hit (literal, dfa) */
	__u32 needle_len; /* literal: 1 .. XDP_RXB_MAX_NEEDLE */
	__u32 rare_at[2]; /* literal: where its two filter bytes are,
			     rare_at[0] <= rare_at[1] < needle_len */
	__u64 rare8[2];   /* literal: each filter byte in every byte */
	__u32 dfa_mask;   /* dfa: (rows - 1) << XDP_RXB_DFA_ROW_SHIFT, rows a
			     power of two: keeps an offset in a table */
	__u32 dfa_all;    /* dfa: 1 walks the whole payload for every id,
			     0 stops at the first accepting state */
	__u32 dfa_tail;   /* dfa: some state accepts at the end of the
			     payload (XDP_RXB_ACC_END): check the last one */
	__u32 dfa_groups; /* dfa: DFAs (tables), 1 .. XDP_RXB_DFA_GROUPS */
	/* dfa: group g's state s (from 0, its start) is entry
	   dfa_acc_base[g] + s of the accept map */
	__u32 dfa_acc_base[XDP_RXB_DFA_GROUPS];
	__u8 needle[XDP_RXB_MAX_NEEDLE];
};

/* What a run leaves in the per-CPU result map (the last run's). */
struct xdp_rxb_result {
	__u32 status;                /* enum xdp_rxb_status */
	__u32 off;                   /* payload offset in the frame */
	__u32 len;                   /* payload length */
	__u32 hit;                   /* literal, dfa: a match */
	__u64 ids[XDP_RXB_ID_WORDS]; /* dfa_all: rule ids that matched */
};

/* The per-CPU copy of the payload. */
struct xdp_rxb_buf {
	__u8 b[XDP_RXB_MAX_PAYLOAD + XDP_RXB_BUF_SLACK];
};

/* struct xdp_rxb_accept.flags */
enum xdp_rxb_acc {
	XDP_RXB_ACC_NOW = 1u << 0, /* the state accepts (a match ends here) */
	XDP_RXB_ACC_END = 1u << 1, /* ... if the payload ends here: the
				      assertions that wait for the byte
				      after (\b \B $ \z) settled */
};

/* Per DFA state: what accepts, and the ids of the rules that do. */
struct xdp_rxb_accept {
	__u32 flags;
	__u32 pad;
	__u64 now[XDP_RXB_ID_WORDS];
	__u64 end[XDP_RXB_ID_WORDS];
};

#endif

/*
 * xdp_live.c - live frames on a veth pair in a network namespace of the
 * process's own (see xdp_live.h).
 *
 * BPF_PROG_TEST_RUN with BPF_F_TEST_XDP_LIVE_FRAMES (net/bpf/test_run.c,
 * bpf_test_run_xdp_live) builds frames from the data in a page pool of
 * its own and runs the program on them as arriving on the rx queue that
 * the context's ingress_ifindex names, looked up in the namespace of
 * the calling thread: XDP_TX becomes a redirect back out of that
 * device, XDP_REDIRECT goes where the program says, XDP_PASS builds an
 * skb and hands it to the stack, XDP_DROP returns the page to the pool.
 * The redirects are flushed once per batch, inside the kernel's clock.
 * A veth end transmits XDP frames only when its peer runs NAPI, which an
 * XDP program attached to the peer turns on (so would GRO, which counts
 * them nowhere we can read as simply); the peer's program here counts
 * the IPv4 frames it gets (every frame the payload programs send is
 * IPv4; IPv6 neighbour discovery from the stack is not counted) in a
 * per-CPU array and drops them.  Both ends get an MTU of 3400 so that a
 * frame up to XDP_LIVE_MAX_FRAME passes the redirect's length check.
 *
 * The namespace is made by a thread that unshares CLONE_NEWNET (which
 * changes that thread's namespace only), builds the pair (and the
 * holders' pair, rxb-h0 / rxb-h1, see xdp_live_hold) over rtnetlink
 * (written here: a few attributes), attaches the counter with libbpf
 * (bpf_xdp_attach, netlink in its own namespace), proves a live run on
 * one frame, and then makes every live test run the process asks for;
 * it ends with the process, and the namespace, the pair and the
 * counter's attachment with it.
 *
 * Build: RXB_HAVE_XDP (libbpf, pthreads).
 */
#define _GNU_SOURCE
#include "engines/xdp_live.h"

#include "harness/clock.h"

#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <arpa/inet.h>
#include <errno.h>
#include <linux/bpf.h>
#include <linux/if_link.h>
#include <linux/netlink.h>
#include <linux/rtnetlink.h>
#include <linux/veth.h>
#include <net/if.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#define LIVE_TX "rxb-tx" /* where frames arrive and XDP_TX leaves */
#define LIVE_RX "rxb-rx" /* its peer: counts what arrives */
/* A second pair, whose ends hold programs (xdp_live_hold) */
static const char *const hold_names[XDP_LIVE_HOLDERS] = {"rxb-h0", "rxb-h1"};
#define LIVE_MTU 3400u
#define LIVE_BATCH 64u
#define PROOF_FRAMES 64u
#define CHECK_WAIT_MS 1000

/* What the namespace's thread is asked or doing. */
enum live_state {
	LIVE_STARTING,
	LIVE_FAILED, /* setup refused: why */
	LIVE_IDLE,
	LIVE_ASKED,  /* a run to make (or a program to hold, hold >= 0):
			the request fields */
	LIVE_DONE,   /* its answer: duration, err */
};

struct xdp_live {
	pthread_t thread;
	pthread_mutex_t mu;
	pthread_cond_t cv;
	enum live_state state;
	/* a request, and its answer */
	int prog_fd;
	const void *frame;
	int hold; /* -1: a run; else the holder to attach prog_fd to */
	uint32_t len, repeat, duration;
	double cpu_ns; /* the thread's CPU time around the test run */
	int err;
	/* the pair */
	int tx_ifindex, rx_ifindex;
	int hold_ifindex[XDP_LIVE_HOLDERS];
	int count_fd, peer_fd, tx_prog_fd;
	int ncpu;
	uint64_t base;     /* counted before the first run: the proof */
	uint64_t expected; /* frames returned XDP_TX since */
	char why[200];
};

/* ---- rtnetlink, just what the pair needs ---- */

struct nl_msg {
	union {
		struct nlmsghdr h;
		char b[512];
	} u;
};

/* Append attribute type with data[0..len): the attribute, or NULL when
   the message is full. */
static struct rtattr *nl_put(struct nl_msg *m, unsigned short type,
			     const void *data, size_t len)
{
	size_t at = NLMSG_ALIGN(m->u.h.nlmsg_len);
	struct rtattr *a = (struct rtattr *)(m->u.b + at);

	if (at + RTA_SPACE(len) > sizeof(m->u.b))
		return NULL;
	a->rta_type = type;
	a->rta_len = (unsigned short)RTA_LENGTH(len);
	if (len > 0)
		memcpy(RTA_DATA(a), data, len);
	m->u.h.nlmsg_len = (uint32_t)(at + RTA_SPACE(len));
	return a;
}

/* Close nest a: it holds everything appended since. */
static void nl_end(struct nl_msg *m, struct rtattr *a)
{
	a->rta_len = (unsigned short)(m->u.b + m->u.h.nlmsg_len - (char *)a);
}

/* A new RTM_NEWLINK message with ifinfomsg ifi. */
static void nl_link_msg(struct nl_msg *m, unsigned flags,
			const struct ifinfomsg *ifi)
{
	memset(m, 0, sizeof(*m));
	m->u.h.nlmsg_type = RTM_NEWLINK;
	m->u.h.nlmsg_flags = (unsigned short)(NLM_F_REQUEST | NLM_F_ACK | flags);
	m->u.h.nlmsg_seq = 1;
	m->u.h.nlmsg_len = NLMSG_LENGTH(sizeof(*ifi));
	memcpy(NLMSG_DATA(&m->u.h), ifi, sizeof(*ifi));
}

/* Send m on a new rtnetlink socket (this thread's namespace) and read
   its ack.  0, or -1 with why naming `what`. */
static int nl_talk(struct nl_msg *m, const char *what, char *why,
		   size_t size)
{
	struct sockaddr_nl sa = {.nl_family = AF_NETLINK};
	union {
		struct nlmsghdr h;
		char b[1024];
	} ack;
	int fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_ROUTE);
	int err = EIO;
	ssize_t n = -1;

	if (fd < 0) {
		snprintf(why, size, "%s: rtnetlink socket: %s", what,
			 strerror(errno));
		return -1;
	}
	if (sendto(fd, m->u.b, m->u.h.nlmsg_len, 0, (struct sockaddr *)&sa,
		   sizeof(sa)) >= 0)
		n = recv(fd, ack.b, sizeof(ack.b), 0);
	if (n < 0)
		err = errno;
	else if ((size_t)n >= NLMSG_LENGTH(sizeof(struct nlmsgerr)) &&
		 ack.h.nlmsg_type == NLMSG_ERROR)
		err = -((struct nlmsgerr *)NLMSG_DATA(&ack.h))->error;
	close(fd);
	if (err != 0)
		snprintf(why, size, "%s: %s", what, strerror(err));
	return err != 0 ? -1 : 0;
}

/*
 * The pair `name` / `peer`, MTU LIVE_MTU each: RTM_NEWLINK with
 * IFLA_LINKINFO { kind "veth", data { VETH_INFO_PEER: the peer's
 * ifinfomsg and name } }.  0, or -1 with why.
 */
static int veth_create(const char *name, const char *peer_name, char *why,
		       size_t size)
{
	struct ifinfomsg ifi = {.ifi_family = AF_UNSPEC};
	uint32_t mtu = LIVE_MTU;
	struct nl_msg m;
	struct rtattr *info = NULL, *data = NULL, *peer = NULL;

	nl_link_msg(&m, NLM_F_CREATE | NLM_F_EXCL, &ifi);
	if (nl_put(&m, IFLA_IFNAME, name, strlen(name) + 1) != NULL &&
	    nl_put(&m, IFLA_MTU, &mtu, sizeof(mtu)) != NULL)
		info = nl_put(&m, IFLA_LINKINFO, NULL, 0);
	if (info != NULL && nl_put(&m, IFLA_INFO_KIND, "veth", 5) != NULL)
		data = nl_put(&m, IFLA_INFO_DATA, NULL, 0);
	if (data != NULL)
		peer = nl_put(&m, VETH_INFO_PEER, &ifi, sizeof(ifi));
	if (peer == NULL || nl_put(&m, IFLA_IFNAME, peer_name,
				   strlen(peer_name) + 1) == NULL ||
	    nl_put(&m, IFLA_MTU, &mtu, sizeof(mtu)) == NULL) {
		snprintf(why, size, "creating a veth pair: the message is too "
			 "long");
		return -1;
	}
	nl_end(&m, peer);
	nl_end(&m, data);
	nl_end(&m, info);
	return nl_talk(&m, "creating a veth pair (rtnetlink)", why, size);
}

/* Device ifindex up.  0, or -1 with why. */
static int link_up(int ifindex, char *why, size_t size)
{
	struct ifinfomsg ifi = {.ifi_family = AF_UNSPEC,
				.ifi_index = ifindex,
				.ifi_flags = IFF_UP,
				.ifi_change = IFF_UP};
	struct nl_msg m;

	nl_link_msg(&m, 0, &ifi);
	return nl_talk(&m, "setting the veth pair up (rtnetlink)", why, size);
}

/* ---- the programs ---- */

#define INSN(c, d, s, o, i)                                                   \
	{.code = (c), .dst_reg = (d), .src_reg = (s), .off = (o), .imm = (i)}

/*
 * The peer's counter: frames of at least an Ethernet header whose
 * EtherType is IPv4 add one to count_fd's entry 0 (per CPU), and every
 * frame is dropped.
 */
static int counter_load(int map_fd)
{
	const struct bpf_insn prog[] = {
		INSN(BPF_LDX | BPF_W | BPF_MEM, 2, 1, 0, 0), /* data */
		INSN(BPF_LDX | BPF_W | BPF_MEM, 3, 1, 4, 0), /* data_end */
		INSN(BPF_ALU64 | BPF_MOV | BPF_X, 4, 2, 0, 0),
		INSN(BPF_ALU64 | BPF_ADD | BPF_K, 4, 0, 0, 14),
		INSN(BPF_JMP | BPF_JGT | BPF_X, 4, 3, 12, 0), /* short: drop */
		INSN(BPF_LDX | BPF_H | BPF_MEM, 4, 2, 12, 0), /* EtherType */
		INSN(BPF_JMP | BPF_JNE | BPF_K, 4, 0, 10, htons(0x0800)),
		INSN(BPF_ST | BPF_W | BPF_MEM, 10, 0, -4, 0), /* key 0 */
		INSN(BPF_ALU64 | BPF_MOV | BPF_X, 2, 10, 0, 0),
		INSN(BPF_ALU64 | BPF_ADD | BPF_K, 2, 0, 0, -4),
		INSN(BPF_LD | BPF_DW | BPF_IMM, 1, BPF_PSEUDO_MAP_FD, 0, map_fd),
		INSN(0, 0, 0, 0, 0),
		INSN(BPF_JMP | BPF_CALL, 0, 0, 0, BPF_FUNC_map_lookup_elem),
		INSN(BPF_JMP | BPF_JEQ | BPF_K, 0, 0, 3, 0),
		INSN(BPF_LDX | BPF_DW | BPF_MEM, 1, 0, 0, 0),
		INSN(BPF_ALU64 | BPF_ADD | BPF_K, 1, 0, 0, 1),
		INSN(BPF_STX | BPF_DW | BPF_MEM, 0, 1, 0, 0),
		INSN(BPF_ALU64 | BPF_MOV | BPF_K, 0, 0, 0, XDP_DROP),
		INSN(BPF_JMP | BPF_EXIT, 0, 0, 0, 0),
	};

	return bpf_prog_load(BPF_PROG_TYPE_XDP, "rxb_live_count", "GPL", prog,
			     sizeof(prog) / sizeof(prog[0]), NULL);
}

/* A program that returns XDP_TX: the proof that live frames go out. */
static int tx_load(void)
{
	const struct bpf_insn prog[] = {
		INSN(BPF_ALU64 | BPF_MOV | BPF_K, 0, 0, 0, XDP_TX),
		INSN(BPF_JMP | BPF_EXIT, 0, 0, 0, 0),
	};

	return bpf_prog_load(BPF_PROG_TYPE_XDP, "rxb_live_tx", "GPL", prog, 2,
			     NULL);
}

/* Frames counted at the peer, all CPUs together: 0, or -1. */
static int counted(struct xdp_live *l, uint64_t *n)
{
	uint64_t *v = calloc((size_t)l->ncpu, sizeof(*v));
	uint32_t zero = 0;
	int rc = -1;

	*n = 0;
	if (v != NULL && bpf_map_lookup_elem(l->count_fd, &zero, v) == 0) {
		for (int i = 0; i < l->ncpu; i++)
			*n += v[i];
		rc = 0;
	}
	free(v);
	return rc;
}

/* The live test run itself, on the namespace's thread: the kernel's
   mean in *ns, this thread's CPU time around the system call in *cpu. */
static int run_here(const struct xdp_live *l, int prog_fd, const void *frame,
		    uint32_t len, uint32_t repeat, uint32_t *ns, double *cpu)
{
	struct xdp_md ctx = {.data_end = len,
			     .ingress_ifindex = (uint32_t)l->tx_ifindex};
	LIBBPF_OPTS(bpf_test_run_opts, run, .data_in = frame,
		    .data_size_in = len, .ctx_in = &ctx,
		    .ctx_size_in = sizeof(ctx), .repeat = (int)repeat,
		    .flags = BPF_F_TEST_XDP_LIVE_FRAMES,
		    .batch_size = LIVE_BATCH);

	uint64_t t0 = clock_thread_ns();
	int rc = bpf_prog_test_run_opts(prog_fd, &run);

	*cpu = (double)(clock_thread_ns() - t0);
	if (rc != 0)
		return errno ? errno : EIO;
	*ns = run.duration;
	return 0;
}

/* prog_fd attached natively to holder k, replacing what it held, on
   the namespace's thread: 0, or an errno. */
static int hold_here(const struct xdp_live *l, int k, int prog_fd)
{
	if (bpf_xdp_attach(l->hold_ifindex[k], prog_fd, XDP_FLAGS_DRV_MODE,
			   NULL) != 0)
		return errno ? errno : EIO;
	return 0;
}

/* Sleep ms milliseconds. */
static void nap_ms(long ms)
{
	struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};

	nanosleep(&ts, NULL);
}

/* Wait up to CHECK_WAIT_MS for the peer to count `want`: the count. */
static uint64_t count_wait(struct xdp_live *l, uint64_t want)
{
	uint64_t n = 0;

	for (int ms = 0; ms <= CHECK_WAIT_MS; ms++) {
		if (counted(l, &n) != 0 || n >= want)
			break;
		nap_ms(1);
	}
	return n;
}

/* The proof: PROOF_FRAMES frames returned XDP_TX reach the peer. */
static int proof(struct xdp_live *l, char *why, size_t size)
{
	unsigned char frame[64] = {2, 0, 0, 0, 0, 1, 2, 0, 0, 0, 0, 2, 8, 0};
	uint32_t ns;
	double cpu;
	int err = run_here(l, l->tx_prog_fd, frame, sizeof(frame),
			   PROOF_FRAMES, &ns, &cpu);

	if (err != 0) {
		snprintf(why, size, "BPF_PROG_TEST_RUN with live frames: %s",
			 strerror(err));
		return -1;
	}
	l->base = count_wait(l, PROOF_FRAMES);
	if (l->base != PROOF_FRAMES) {
		snprintf(why, size, "live frames: %u returned XDP_TX, the "
			 "veth peer received %llu", PROOF_FRAMES,
			 (unsigned long long)l->base);
		return -1;
	}
	return 0;
}

/* The holders' pair, left down: a native XDP program attaches to a
   veth end down or up, and down no frame ever reaches it (up, the
   stack's IPv6 solicitations did, and their runs wrote the result map
   between a test run and its read).  0, or -1 with why. */
static int holders_create(struct xdp_live *l, char *why, size_t size)
{
	if (veth_create(hold_names[0], hold_names[1], why, size) != 0)
		return -1;
	for (int k = 0; k < XDP_LIVE_HOLDERS; k++) {
		l->hold_ifindex[k] = (int)if_nametoindex(hold_names[k]);
		if (l->hold_ifindex[k] == 0) {
			snprintf(why, size, "the holders' veth pair has no "
				 "ifindex: %s", strerror(errno));
			return -1;
		}
	}
	return 0;
}

/* The pair, its counter and the proof, in this thread's new namespace. */
static int setup(struct xdp_live *l, char *why, size_t size)
{
	if (unshare(CLONE_NEWNET) != 0) {
		snprintf(why, size, "unshare(CLONE_NEWNET): %s", strerror(errno));
		return -1;
	}
	if (veth_create(LIVE_TX, LIVE_RX, why, size) != 0 ||
	    holders_create(l, why, size) != 0)
		return -1;
	l->tx_ifindex = (int)if_nametoindex(LIVE_TX);
	l->rx_ifindex = (int)if_nametoindex(LIVE_RX);
	l->count_fd = bpf_map_create(BPF_MAP_TYPE_PERCPU_ARRAY, "rxb_live_n",
				     sizeof(uint32_t), sizeof(uint64_t), 1,
				     NULL);
	l->peer_fd = l->count_fd < 0 ? -1 : counter_load(l->count_fd);
	l->tx_prog_fd = tx_load();
	if (l->tx_ifindex == 0 || l->rx_ifindex == 0) {
		snprintf(why, size, "the veth pair has no ifindex: %s",
			 strerror(errno));
		return -1;
	}
	if (l->peer_fd < 0 || l->tx_prog_fd < 0) {
		snprintf(why, size, "the veth peer's counter: bpf(): %s",
			 strerror(errno));
		return -1;
	}
	if (bpf_xdp_attach(l->rx_ifindex, l->peer_fd, XDP_FLAGS_DRV_MODE,
			   NULL) != 0) {
		snprintf(why, size, "attaching the veth peer's XDP program: %s",
			 strerror(errno));
		return -1;
	}
	if (link_up(l->tx_ifindex, why, size) != 0 ||
	    link_up(l->rx_ifindex, why, size) != 0)
		return -1;
	return proof(l, why, size);
}

/* The signals the process handles are left to its other threads (a
   run lasts a few ms: a Ctrl-C is seen by the caller after it); not
   all signals: LeakSanitizer stops threads with one of its own. */
static void signals_block(void)
{
	static const int sigs[] = {SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGALRM,
				   SIGCHLD, SIGPIPE, SIGUSR1, SIGUSR2};
	sigset_t set;

	sigemptyset(&set);
	for (size_t i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++)
		sigaddset(&set, sigs[i]);
	pthread_sigmask(SIG_BLOCK, &set, NULL);
}

/* The namespace's thread: set up, then serve runs until the process
   ends. */
static void *live_main(void *arg)
{
	struct xdp_live *l = arg;
	char why[sizeof(l->why)];
	int rc;

	signals_block();
	rc = setup(l, why, sizeof(why));

	pthread_mutex_lock(&l->mu);
	if (rc != 0)
		memcpy(l->why, why, sizeof(why));
	l->state = rc != 0 ? LIVE_FAILED : LIVE_IDLE;
	pthread_cond_broadcast(&l->cv);
	while (rc == 0) {
		while (l->state != LIVE_ASKED)
			pthread_cond_wait(&l->cv, &l->mu);
		pthread_mutex_unlock(&l->mu);
		rc = l->hold >= 0 ? hold_here(l, l->hold, l->prog_fd)
				  : run_here(l, l->prog_fd, l->frame, l->len,
					     l->repeat, &l->duration,
					     &l->cpu_ns);
		pthread_mutex_lock(&l->mu);
		l->err = rc;
		rc = 0;
		l->state = LIVE_DONE;
		pthread_cond_broadcast(&l->cv);
	}
	pthread_mutex_unlock(&l->mu);
	return NULL;
}

/* A namespace made by a new thread: l, or NULL with why. */
static struct xdp_live *live_open(char *why, size_t size)
{
	struct xdp_live *l = calloc(1, sizeof(*l));
	int err;

	if (l == NULL) {
		snprintf(why, size, "out of memory");
		return NULL;
	}
	l->count_fd = l->peer_fd = l->tx_prog_fd = -1;
	l->ncpu = libbpf_num_possible_cpus();
	pthread_mutex_init(&l->mu, NULL);
	pthread_cond_init(&l->cv, NULL);
	err = pthread_create(&l->thread, NULL, live_main, l);
	if (err != 0) {
		snprintf(why, size, "a thread for the namespace: %s",
			 strerror(err));
		free(l);
		return NULL;
	}
	pthread_mutex_lock(&l->mu);
	while (l->state == LIVE_STARTING)
		pthread_cond_wait(&l->cv, &l->mu);
	pthread_mutex_unlock(&l->mu);
	if (l->state == LIVE_IDLE)
		return l;
	snprintf(why, size, "%s", l->why);
	pthread_join(l->thread, NULL);
	close(l->tx_prog_fd);
	close(l->peer_fd);
	close(l->count_fd);
	free(l);
	return NULL;
}

/* This process's namespace, or its reason (see xdp_live_get); the
   parent's, in a forked child, where its thread is not. */
static struct xdp_live *proc_live, *proc_parent;
static pid_t proc_pid;
static char proc_why[200];

struct xdp_live *xdp_live_get(char *why, size_t size)
{
	if (proc_pid != 0 && proc_pid != getpid()) {
		/* its file descriptors are the parent's objects: left open */
		proc_parent = proc_live;
		proc_live = NULL;
		proc_pid = 0;
	}
	if (proc_pid == 0) {
		proc_pid = getpid();
		proc_live = live_open(proc_why, sizeof(proc_why));
	}
	if (proc_live == NULL)
		snprintf(why, size, "live frames refused (%s)", proc_why);
	return proc_live;
}

/* The request in l's fields to the namespace's thread, l->mu held: its
   answer's errno (0), l->mu held again with the answer's fields. */
static int ask(struct xdp_live *l)
{
	l->state = LIVE_ASKED;
	pthread_cond_broadcast(&l->cv);
	while (l->state != LIVE_DONE)
		pthread_cond_wait(&l->cv, &l->mu);
	l->state = LIVE_IDLE;
	return l->err;
}

int xdp_live_run(struct xdp_live *l, int prog_fd, const void *frame,
		 size_t len, uint32_t repeat, int tx, uint32_t *ns,
		 double *cpu_ns, char *why, size_t size)
{
	int err;

	if (len < 14 || len > XDP_LIVE_MAX_FRAME || repeat == 0) {
		snprintf(why, size, "xdp: a live frame of %zu bytes (14 to %u), "
			 "%u runs", len, XDP_LIVE_MAX_FRAME, repeat);
		return -1;
	}
	pthread_mutex_lock(&l->mu);
	l->hold = -1;
	l->prog_fd = prog_fd;
	l->frame = frame;
	l->len = (uint32_t)len;
	l->repeat = repeat;
	err = ask(l);
	*ns = l->duration;
	*cpu_ns = l->cpu_ns;
	pthread_mutex_unlock(&l->mu);
	if (err != 0) {
		snprintf(why, size, "xdp: BPF_PROG_TEST_RUN with live frames: "
			 "%s", strerror(err));
		return -1;
	}
	if (tx)
		l->expected += repeat;
	return 0;
}

int xdp_live_check(struct xdp_live *l, uint64_t *sent, uint64_t *received,
		   char *why, size_t size)
{
	uint64_t n = count_wait(l, l->base + l->expected);

	*sent = l->expected;
	*received = n - l->base;
	if (*received == *sent)
		return 0;
	snprintf(why, size, "xdp: live frames: %llu runs returned XDP_TX, the "
		 "veth peer received %llu", (unsigned long long)*sent,
		 (unsigned long long)*received);
	return -1;
}

int xdp_live_hold(struct xdp_live *l, int k, int prog_fd, char *why,
		  size_t size)
{
	int err;

	if (k < 0 || k >= XDP_LIVE_HOLDERS) {
		snprintf(why, size, "xdp: no holder %d", k);
		return -1;
	}
	pthread_mutex_lock(&l->mu);
	l->hold = k;
	l->prog_fd = prog_fd;
	err = ask(l);
	pthread_mutex_unlock(&l->mu);
	if (err != 0)
		snprintf(why, size, "xdp: holding a program in the XDP "
			 "dispatcher (a native attach to %s): %s",
			 hold_names[k], strerror(err));
	return err != 0 ? -1 : 0;
}

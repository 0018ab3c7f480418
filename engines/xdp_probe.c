/*
 * xdp_probe.c - why bpf() is refused here, in one line (see xdp_probe.h).
 *
 * bpf(BPF_PROG_LOAD) fails with EPERM without CAP_BPF (5.8+) or
 * CAP_SYS_ADMIN (kernel.unprivileged_bpf_disabled, 2 on Debian, refuses
 * every other caller), and with EPERM or ENOSYS under a seccomp filter
 * that denies bpf() (Docker's default profile does).  Which one it was is
 * read from /proc/self/status (CapEff, Seccomp).  A kernel with the JIT
 * off (net.core.bpf_jit_enable = 0) would run the programs in the
 * interpreter: loadable, but not what XDP runs, so that is refused too.
 *
 * Build: RXB_HAVE_XDP (libbpf's low-level bpf_prog_load and test run).
 */
#include "engines/xdp_probe.h"

#include <bpf/bpf.h>
#include <errno.h>
#include <linux/bpf.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#define CAP_BPF_BIT 39
#define CAP_SYS_ADMIN_BIT 21

/* The value of "Key:" in /proc/self/status as text, or "" when absent. */
static void status_field(const char *key, char *out, size_t size)
{
	FILE *f = fopen("/proc/self/status", "r");
	char line[256];
	size_t klen = strlen(key);

	out[0] = '\0';
	if (f == NULL)
		return;
	while (fgets(line, sizeof(line), f) != NULL) {
		if (strncmp(line, key, klen) == 0 && line[klen] == ':') {
			snprintf(out, size, "%s", line + klen + 1);
			out[strcspn(out, "\n")] = '\0';
			break;
		}
	}
	fclose(f);
}

/* The first integer in file `path`, or `dflt` when unreadable. */
static long read_long(const char *path, long dflt)
{
	FILE *f = fopen(path, "r");
	long v = dflt;

	if (f == NULL)
		return dflt;
	if (fscanf(f, "%ld", &v) != 1)
		v = dflt;
	fclose(f);
	return v;
}

static int has_cap(int bit)
{
	char text[64];
	unsigned long long caps;

	status_field("CapEff", text, sizeof(text));
	if (sscanf(text, "%llx", &caps) != 1)
		return 0;
	return (int)((caps >> bit) & 1u);
}

/* Why a load failed with errno `err`, in why. */
static void explain(int err, char *why, size_t size)
{
	char secc[32];
	long unpriv = read_long("/proc/sys/kernel/unprivileged_bpf_disabled", -1);

	status_field("Seccomp", secc, sizeof(secc));
	if (err == ENOSYS)
		snprintf(why, size, "bpf() refused (ENOSYS): %s",
			 strstr(secc, "2") ? "a seccomp filter denies it"
					   : "no bpf() in this kernel");
	else if (err == EPERM && !has_cap(CAP_BPF_BIT) &&
		 !has_cap(CAP_SYS_ADMIN_BIT))
		snprintf(why, size,
			 "bpf() refused (EPERM): this process has neither "
			 "CAP_BPF nor CAP_SYS_ADMIN "
			 "(kernel.unprivileged_bpf_disabled=%ld)", unpriv);
	else if ((err == EPERM || err == EACCES) && strstr(secc, "2"))
		snprintf(why, size, "bpf() refused (%s): a seccomp filter "
			 "denies it (Seccomp: 2 in /proc/self/status)",
			 err == EPERM ? "EPERM" : "EACCES");
	else
		snprintf(why, size, "bpf() refused: %s", strerror(err));
}

int xdp_probe(char *why, size_t size)
{
	const struct bpf_insn prog[] = {
		{.code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = BPF_REG_0,
		 .imm = XDP_PASS},
		{.code = BPF_JMP | BPF_EXIT},
	};
	unsigned char frame[64] = {0};
	LIBBPF_OPTS(bpf_test_run_opts, run, .data_in = frame,
		    .data_size_in = sizeof(frame), .repeat = 1);
	int fd, rc;

	errno = 0;
	fd = bpf_prog_load(BPF_PROG_TYPE_XDP, "rxb_probe", "GPL", prog, 2, NULL);
	if (fd < 0) {
		explain(errno ? errno : -fd, why, size);
		return -1;
	}
	rc = bpf_prog_test_run_opts(fd, &run);
	close(fd);
	if (rc != 0) {
		snprintf(why, size, "BPF_PROG_TEST_RUN refused: %s",
			 strerror(errno));
		return -1;
	}
	if (read_long("/proc/sys/net/core/bpf_jit_enable", 1) == 0) {
		snprintf(why, size, "the BPF JIT is off "
			 "(/proc/sys/net/core/bpf_jit_enable is 0): the "
			 "programs would run interpreted, not as XDP runs them");
		return -1;
	}
	return 0;
}

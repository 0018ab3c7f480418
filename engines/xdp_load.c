/*
 * xdp_load.c - load and test-run the payload suite's XDP programs (see
 * xdp_load.h).
 *
 * The object (bpf/xdp_payload.bpf.c, built by clang -target bpf) is a C
 * array generated at build time (cmake/xdp.cmake), so nothing is read
 * from the build tree at run time.  One object holds the three programs;
 * only the one asked for is loaded (autoload), its configuration written
 * into the object's .rodata.cfg before the load so that the verifier sees
 * constants and prunes what the configuration does not use.
 *
 * BPF_PROG_TEST_RUN on XDP (net/bpf/test_run.c, bpf_prog_test_run_xdp):
 * the kernel copies the frame into a buffer of its own with XDP headroom
 * and runs the program `repeat` times on it with preemption and migration
 * off in batches; the return code is handed back and nothing is done with
 * the frame: XDP_TX and XDP_REDIRECT transmit nothing, XDP_DROP frees
 * nothing per run (only BPF_F_TEST_XDP_LIVE_FRAMES, 5.18+, sends frames
 * out: a run of its own, not done here).  The duration is the time over
 * all the runs (ktime_get_ns around the loop, paused while the loop
 * yields to the scheduler) divided by repeat and rounded down to a whole
 * ns: it includes the program, the call into it and the loop, not the
 * syscall, the copy of the frame or the copy back
 * (Documentation/bpf/bpf_prog_run.rst; the selftests' xdp_perf times an
 * XDP program the same way, repeat 1,000,000).  The answer also carries
 * the calling thread's CPU time around the system call, from which
 * engines/xdp_time.h takes the fraction the rounding drops.
 *
 * Build: RXB_HAVE_XDP (libbpf).
 */
#include "engines/xdp_load.h"

#include "engines/xdp_dfa.h"
#include "engines/xdp_probe.h"
#include "harness/clock.h"

#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <errno.h>
#include <linux/bpf.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The object, generated from bpf/xdp_payload.bpf.c (cmake/xdp.cmake). */
extern const unsigned char rxb_xdp_obj[];
extern const size_t rxb_xdp_obj_len;

#define LOG_SIZE (1u << 20)

struct xdp_prog {
	struct bpf_object *obj;
	int prog_fd;
	int result_fd;
	int ncpu;
	struct xdp_rxb_result *per_cpu; /* ncpu results: scratch for reads */
};

static const char *const prog_names[XDP_PROG_COUNT] = {
	[XDP_PROG_BASE] = "xdp_base",
	[XDP_PROG_LITERAL] = "xdp_literal",
	[XDP_PROG_DFA] = "xdp_dfa",
};

/* libbpf's last warning, for reasons (libbpf prints nothing itself). */
static __thread char libbpf_last[256];

static int libbpf_keep(enum libbpf_print_level level, const char *fmt,
		       va_list ap)
{
	if (level != LIBBPF_DEBUG)
		vsnprintf(libbpf_last, sizeof(libbpf_last), fmt, ap);
	libbpf_last[strcspn(libbpf_last, "\n")] = '\0';
	return 0;
}

const char *xdp_prog_name(enum xdp_prog_kind kind)
{
	return kind < XDP_PROG_COUNT ? prog_names[kind] + 4 : "?";
}

/* The last non-empty lines of the verifier's log, on one line. */
static void log_tail(const char *log, char *out, size_t size)
{
	size_t n = strlen(log), start;
	int lines = 0;

	while (n > 0 && log[n - 1] == '\n')
		n--;
	start = n;
	while (start > 0 && lines < 3) {
		start--;
		if (log[start] == '\n')
			lines++;
	}
	if (log[start] == '\n')
		start++;
	snprintf(out, size, "%.*s", (int)(n - start), log + start);
	for (char *p = out; *p; p++)
		if (*p == '\n' || *p == '\t')
			*p = ' ';
}

/*
 * Bytes of packet payloads from the most frequent on: text protocols
 * (HTTP, mail, DNS names, JSON) and the NUL of binary fill; a byte not
 * here is rarer than every byte that is.  Our own rough order, which is
 * all the literal's filter needs: it tests the needle's two rarest
 * bytes, so that on text a candidate to confirm is rare.
 */
static const char lit_common[] =
	" etaoinsrhldcu\r\n/.=:0-1mfpgwyb,2&_3456789vk\"ETAOISNRCDHLPM"
	"\0xjqz;'()UBFGWYVKXJQZ";

/* How common byte c is: 0 the most, sizeof(lit_common) the least. */
static size_t lit_rank(unsigned char c)
{
	const char *p = memchr(lit_common, c, sizeof(lit_common) - 1);

	return p ? (size_t)(p - lit_common) : sizeof(lit_common);
}

/* The needle's two rarest bytes (the first of equals) into c, in the
   needle's order; one needle byte is tested twice. */
static void lit_rare(struct xdp_rxb_cfg *c)
{
	uint32_t a = 0, b = 0;

	for (uint32_t i = 1; i < c->needle_len; i++)
		if (lit_rank(c->needle[i]) > lit_rank(c->needle[a]))
			a = i;
	b = a == 0 && c->needle_len > 1 ? 1 : 0;
	for (uint32_t i = 0; i < c->needle_len; i++)
		if (i != a && lit_rank(c->needle[i]) > lit_rank(c->needle[b]))
			b = i;
	c->rare_at[0] = a < b ? a : b;
	c->rare_at[1] = a < b ? b : a;
	for (int k = 0; k < 2; k++)
		c->rare8[k] = 0x0101010101010101ull * c->needle[c->rare_at[k]];
}

/* The configuration for spec, as the programs read it.  0, or -1. */
static int cfg_fill(const struct xdp_spec *spec, struct xdp_rxb_cfg *c,
		    char *why, size_t size)
{
	memset(c, 0, sizeof(*c));
	c->action = spec->action;
	if (spec->action != XDP_DROP && spec->action != XDP_TX &&
	    spec->action != XDP_PASS) {
		snprintf(why, size, "xdp: action %u is not drop, tx or pass",
			 spec->action);
		return -1;
	}
	if (spec->kind == XDP_PROG_LITERAL) {
		if (spec->needle_len == 0 ||
		    spec->needle_len > XDP_RXB_MAX_NEEDLE) {
			snprintf(why, size, "xdp: a literal of %zu bytes "
				 "(1 to %u)", spec->needle_len,
				 XDP_RXB_MAX_NEEDLE);
			return -1;
		}
		memcpy(c->needle, spec->needle, spec->needle_len);
		c->needle_len = (uint32_t)spec->needle_len;
		lit_rare(c);
	}
	if (spec->kind == XDP_PROG_DFA) {
		if (spec->dfa == NULL) {
			snprintf(why, size, "xdp: the dfa program needs a DFA");
			return -1;
		}
		c->dfa_mask = (spec->dfa->rows - 1) << XDP_RXB_DFA_ROW_SHIFT;
		c->dfa_all = spec->dfa_all != 0;
		c->dfa_tail = spec->dfa->tail != 0;
		c->dfa_groups = spec->dfa->ngroups;
		for (uint32_t g = 0; g < XDP_RXB_DFA_GROUPS; g++)
			c->dfa_acc_base[g] = g < spec->dfa->ngroups
					     ? spec->dfa->base[g]
					     : spec->dfa->nstates;
	}
	return 0;
}

/*
 * The tables the program reads: the groups, and when it walks them in
 * several passes (more than XDP_RXB_DFA_LANES), as many more as fill the
 * last pass.  Those are left zero: a state 0 that stays, and never
 * accepts (its accept entry is the zeroed one after the states', see
 * cfg_fill()).
 */
static uint32_t dfa_tables(const struct xdp_dfa *d)
{
	uint32_t l = XDP_RXB_DFA_LANES;

	return d->ngroups <= l ? d->ngroups : (d->ngroups + l - 1) / l * l;
}

/* Write the configuration and size the DFA maps, before the load. */
static int obj_configure(struct bpf_object *obj, const struct xdp_spec *spec,
			 char *why, size_t size)
{
	struct bpf_map *m = bpf_object__find_map_by_name(obj, ".rodata.cfg");
	struct bpf_map *next;
	struct xdp_rxb_cfg c;
	size_t sz = 0;
	uint32_t rows;

	if (m == NULL || bpf_map__initial_value(m, &sz) == NULL ||
	    sz != sizeof(c)) {
		snprintf(why, size, "xdp: the embedded object has no "
			 ".rodata.cfg of %zu bytes", sizeof(c));
		return -1;
	}
	if (cfg_fill(spec, &c, why, size) != 0)
		return -1;
	if (bpf_map__set_initial_value(m, &c, sizeof(c)) != 0) {
		snprintf(why, size, "xdp: cannot set .rodata.cfg: %s",
			 libbpf_last);
		return -1;
	}
	if (spec->kind != XDP_PROG_DFA)
		return 0;
	rows = spec->dfa->rows;
	next = bpf_object__find_map_by_name(obj, "dfa_next");
	if (bpf_map__set_value_size(next, rows * 256u * sizeof(uint32_t)) ||
	    bpf_map__set_max_entries(next, dfa_tables(spec->dfa)) ||
	    bpf_map__set_max_entries(bpf_object__find_map_by_name(obj, "dfa_acc"),
				     spec->dfa->nstates + 1) != 0) {
		snprintf(why, size, "xdp: cannot size the DFA maps: %s",
			 libbpf_last);
		return -1;
	}
	return 0;
}

/* Only spec->kind's program is loaded. */
static void obj_select(struct bpf_object *obj, enum xdp_prog_kind kind)
{
	struct bpf_program *p;

	bpf_object__for_each_program(p, obj)
		bpf_program__set_autoload(
			p, strcmp(bpf_program__name(p), prog_names[kind]) == 0);
}

/* Group g's kernel table (bpf/xdp_shared.h) from d's rows, into t
   (d->rows x 256): row offsets, rows past its states 0. */
static void dfa_kernel_table(const struct xdp_dfa *d, uint32_t g,
			     uint32_t *t)
{
	const uint16_t *row = d->next + (size_t)d->base[g] * 256;
	size_t n = (size_t)d->states[g] * 256;

	for (size_t i = 0; i < n; i++)
		t[i] = (row[i] & ~XDP_DFA_ACCEPT) << XDP_RXB_DFA_ROW_SHIFT |
		       (row[i] & XDP_DFA_ACCEPT ? XDP_RXB_DFA_ACCEPT : 0);
	memset(t + n, 0, ((size_t)d->rows * 256 - n) * sizeof(*t));
}

/* The DFA into its maps, after the load: a table per group, an accept
   entry per state.  0, or -1. */
static int dfa_upload(struct bpf_object *obj, const struct xdp_dfa *d,
		      char *why, size_t size)
{
	int nfd = bpf_map__fd(bpf_object__find_map_by_name(obj, "dfa_next"));
	int afd = bpf_map__fd(bpf_object__find_map_by_name(obj, "dfa_acc"));
	uint32_t *table = malloc((size_t)d->rows * 256 * sizeof(*table));
	int rc = -1;

	if (table == NULL) {
		snprintf(why, size, "xdp: out of memory");
		return -1;
	}
	for (uint32_t g = 0; g < d->ngroups; g++) {
		dfa_kernel_table(d, g, table);
		if (bpf_map_update_elem(nfd, &g, table, BPF_ANY) != 0)
			goto out;
	}
	for (uint32_t s = 0; s < d->nstates; s++)
		if (bpf_map_update_elem(afd, &s, &d->acc[s], BPF_ANY) != 0)
			goto out;
	rc = 0;
out:
	if (rc != 0)
		snprintf(why, size, "xdp: filling the DFA maps: %s",
			 strerror(errno));
	free(table);
	return rc;
}

/* Load the configured object; on a refusal, the reason in why. */
static int obj_load(struct bpf_object *obj, const char *log, char *why,
		    size_t size)
{
	char tail[200];

	if (bpf_object__load(obj) == 0)
		return 0;
	if (xdp_probe(why, size) != 0)
		return -1;
	log_tail(log, tail, sizeof(tail));
	snprintf(why, size, "xdp: the verifier refused the program: %s",
		 tail[0] ? tail : libbpf_last);
	return -1;
}

static struct xdp_prog *prog_new(struct bpf_object *obj,
				 enum xdp_prog_kind kind)
{
	struct xdp_prog *p = calloc(1, sizeof(*p));
	int ncpu = libbpf_num_possible_cpus();

	if (p == NULL || ncpu <= 0)
		goto fail;
	p->obj = obj;
	p->ncpu = ncpu;
	p->prog_fd = bpf_program__fd(
		bpf_object__find_program_by_name(obj, prog_names[kind]));
	p->result_fd = bpf_map__fd(bpf_object__find_map_by_name(obj, "result"));
	p->per_cpu = calloc((size_t)ncpu, sizeof(*p->per_cpu));
	if (p->per_cpu != NULL && p->prog_fd >= 0 && p->result_fd >= 0)
		return p;
fail:
	if (p != NULL)
		free(p->per_cpu);
	free(p);
	return NULL;
}

/* obj's DFA maps are those of `maps` (loaded): before the load.  0, or
   -1 with why. */
static int dfa_share(struct bpf_object *obj, const struct xdp_prog *maps,
		     char *why, size_t size)
{
	static const char *const names[] = {"dfa_next", "dfa_acc"};

	for (size_t i = 0; i < 2; i++) {
		struct bpf_map *m = bpf_object__find_map_by_name(obj, names[i]);
		int fd = bpf_map__fd(
			bpf_object__find_map_by_name(maps->obj, names[i]));
		if (m == NULL || fd < 0 || bpf_map__reuse_fd(m, fd) != 0) {
			snprintf(why, size, "xdp: cannot share the map %s: %s",
				 names[i], libbpf_last);
			return -1;
		}
	}
	return 0;
}

int xdp_prog_open(const struct xdp_spec *spec, struct xdp_prog **out,
		  char *why, size_t size)
{
	return xdp_prog_open_sharing(spec, NULL, out, why, size);
}

int xdp_prog_open_sharing(const struct xdp_spec *spec,
			  const struct xdp_prog *maps, struct xdp_prog **out,
			  char *why, size_t size)
{
	char *log = calloc(1, LOG_SIZE);
	/* level 0: no log on success (a level-1 log of a big program would
	   fill the buffer, ENOSPC before 6.4); on a failure libbpf loads
	   again at level 1 into this buffer */
	LIBBPF_OPTS(bpf_object_open_opts, opts, .object_name = "rxb_xdp",
		    .kernel_log_buf = log, .kernel_log_size = LOG_SIZE,
		    .kernel_log_level = 0);
	struct bpf_object *obj = NULL;
	int rc = -1;

	*out = NULL;
	libbpf_set_print(libbpf_keep);
	if (log == NULL || spec->kind >= XDP_PROG_COUNT) {
		snprintf(why, size, log ? "xdp: no such program" : "out of memory");
		goto out;
	}
	obj = bpf_object__open_mem(rxb_xdp_obj, rxb_xdp_obj_len, &opts);
	if (obj == NULL) {
		snprintf(why, size, "xdp: cannot open the embedded object: %s",
			 libbpf_last);
		goto out;
	}
	obj_select(obj, spec->kind);
	if (obj_configure(obj, spec, why, size) != 0 ||
	    (maps != NULL && dfa_share(obj, maps, why, size) != 0) ||
	    obj_load(obj, log, why, size) != 0)
		goto out;
	if (spec->kind == XDP_PROG_DFA && maps == NULL &&
	    dfa_upload(obj, spec->dfa, why, size))
		goto out;
	*out = prog_new(obj, spec->kind);
	if (*out == NULL)
		snprintf(why, size, "xdp: out of memory");
	else
		obj = NULL;
	rc = *out ? 0 : -1;
out:
	bpf_object__close(obj);
	free(log);
	return rc;
}

/* The result map's entries zeroed (every CPU): the run's CPU sets one. */
static int result_clear(struct xdp_prog *p)
{
	uint32_t zero = 0;

	memset(p->per_cpu, 0, (size_t)p->ncpu * sizeof(*p->per_cpu));
	return bpf_map_update_elem(p->result_fd, &zero, p->per_cpu, BPF_ANY);
}

/* The entry of the CPU that ran the program into a. */
static int result_read(struct xdp_prog *p, struct xdp_answer *a)
{
	uint32_t zero = 0;

	if (bpf_map_lookup_elem(p->result_fd, &zero, p->per_cpu) != 0)
		return -1;
	for (int i = 0; i < p->ncpu; i++) {
		const struct xdp_rxb_result *r = &p->per_cpu[i];
		if (r->status == XDP_RXB_NONE)
			continue;
		a->status = r->status;
		a->off = r->off;
		a->len = r->len;
		a->hit = r->hit != 0;
		memcpy(a->ids, r->ids, sizeof(a->ids));
		return 0;
	}
	return -1;
}

/* The test run, this thread's CPU time around it in *cpu_ns: 0, or -1
   with errno. */
static int test_run(int fd, struct bpf_test_run_opts *run, double *cpu_ns)
{
	uint64_t t0 = clock_thread_ns();
	int rc = bpf_prog_test_run_opts(fd, run);

	*cpu_ns = (double)(clock_thread_ns() - t0);
	return rc;
}

int xdp_prog_run(struct xdp_prog *p, const void *frame, size_t len,
		 uint32_t repeat, struct xdp_answer *a, char *why, size_t size)
{
	LIBBPF_OPTS(bpf_test_run_opts, run, .data_in = frame,
		    .data_size_in = (uint32_t)len, .repeat = repeat);

	memset(a, 0, sizeof(*a));
	if (repeat == 0 || len < 14 || len > 0xffff) {
		snprintf(why, size, "xdp: a frame of %zu bytes, %u runs", len,
			 repeat);
		return -1;
	}
	if (result_clear(p) != 0 || test_run(p->prog_fd, &run, &a->cpu_ns)) {
		snprintf(why, size, "xdp: BPF_PROG_TEST_RUN: %s",
			 strerror(errno));
		return -1;
	}
	a->action = run.retval;
	a->duration_ns = run.duration;
	if (result_read(p, a) != 0) {
		snprintf(why, size, "xdp: the program left no result");
		return -1;
	}
	return 0;
}

int xdp_prog_fd(const struct xdp_prog *p)
{
	return p->prog_fd;
}

void xdp_prog_free(struct xdp_prog *p)
{
	if (p == NULL)
		return;
	bpf_object__close(p->obj);
	free(p->per_cpu);
	free(p);
}

/*
 * test_xdp_cli.c - the XDP programs and the DFA compiler from the command
 * line (issue 25, phase 1: before the xdp engine exists), for the tests
 * and the measurements in the note.
 *
 *   test_xdp_cli probe
 *       "xdp: ok", or "xdp: unsupported: REASON" and exit 77
 *   test_xdp_cli states [--max-states N] [RULES_FILE ...]
 *       DFA states of the built-in rules (the set, then each alone), and
 *       of each file's rules: per pattern the states or why it is refused
 *   test_xdp_cli bench [--repeat N] [--samples S] [--packets P]
 *                      [--max-states N] [RULES_FILE ...]
 *       every packet verified against the reference, then the kernel's
 *       ns per packet (BPF_PROG_TEST_RUN, mean of N runs per packet,
 *       averaged over P packets; the median of S such samples) for base,
 *       literal and dfa at 64, 512 and 1500 bytes; the dfa rules rows on
 *       the files' patterns that a DFA expresses alone, if any given
 */
#define _GNU_SOURCE
#include "test_xdp_common.h"

#include "corpora/packets.h"
#include "engines/engine.h"
#include "engines/xdp_frame.h"
#include "engines/xdp_load.h"
#include "engines/xdp_probe.h"

#include <linux/bpf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define MAX_PATTERNS 4096
#define MAX_SAMPLES 64

struct opts {
	unsigned long repeat, samples, packets, max_states;
};

/* One measured row: a program on packets of a kind and size. */
struct row {
	const char *name;
	enum xdp_prog_kind kind;
	enum packets_kind plant;
	size_t size;
	const char *re; /* literal needle, or a dfa pattern (NULL: rules) */
	int all;
	unsigned action; /* 0: XDP_DROP */
};

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* The reference's answer for packet i of row r (rules: id set). */
static int expect_ids(const struct xt_refs *x, const struct packet *p,
		      __u64 ids[XDP_RXB_ID_WORDS])
{
	return xt_ref_ids(x, p->p, p->len, ids);
}

/* Run every packet once and compare; 0, or -1 with a line printed. */
static int verify(struct xdp_prog *prog, const struct row *r,
		  const struct packets *pk, const struct xt_refs *x,
		  unsigned char *frame)
{
	static const struct xdp_frame_spec spec = {0};
	char why[256];

	for (size_t i = 0; i < pk->n; i++) {
		struct xdp_answer a;
		__u64 want[XDP_RXB_ID_WORDS];
		size_t n = xdp_frame_build(frame, 65536, &spec, pk->pkt[i].p,
					   pk->pkt[i].len);
		int hit = expect_ids(x, &pk->pkt[i], want);
		int ok;
		if (xdp_prog_run(prog, frame, n, 1, &a, why, sizeof(why))) {
			printf("%s: %s\n", r->name, why);
			return -1;
		}
		ok = a.status == XDP_RXB_PAYLOAD && a.len == pk->pkt[i].len;
		if (r->kind == XDP_PROG_BASE)
			ok = ok && a.action == (r->action ? r->action : XDP_DROP);
		else
			ok = ok && a.hit == hit &&
			     a.action == (hit ? XDP_DROP : XDP_PASS);
		if (r->all)
			ok = ok && memcmp(a.ids, want, sizeof(want)) == 0;
		if (!ok) {
			printf("%s %zu B: packet %zu: answer %d (action %u, "
			       "status %u), reference %d\n", r->name, r->size,
			       i, a.hit, a.action, a.status, hit);
			return -1;
		}
	}
	return 0;
}

/* One sample: mean ns per run over the packets. */
static int sample(struct xdp_prog *prog, const struct packets *pk,
		  unsigned char *frame, const struct opts *o, double *ns)
{
	static const struct xdp_frame_spec spec = {0};
	double sum = 0;
	char why[256];

	for (size_t i = 0; i < pk->n; i++) {
		struct xdp_answer a;
		size_t n = xdp_frame_build(frame, 65536, &spec, pk->pkt[i].p,
					   pk->pkt[i].len);
		if (xdp_prog_run(prog, frame, n, (uint32_t)o->repeat, &a, why,
				 sizeof(why)) != 0) {
			printf("%s\n", why);
			return -1;
		}
		sum += a.duration_ns;
	}
	*ns = sum / (double)pk->n;
	return 0;
}

/* bench's rules files (none: the built-in rules). */
static char **bench_files;
static int bench_nfiles;

/* The patterns of bench_files a DFA of max states expresses alone, in
   p (ids 0..); their count, 0 on an error (printed). */
static size_t file_patterns(struct ruleset *rs, struct xdp_dfa_pattern *p,
			    uint32_t max)
{
	char err[512];
	size_t n, m = 0;

	for (int i = 0; i < bench_nfiles; i++)
		if (rules_load(rs, bench_files[i], RULES_AUTO, err,
			       sizeof(err))) {
			printf("%s\n", err);
			return 0;
		}
	n = xt_patterns(rs, p, MAX_PATTERNS);
	for (size_t k = 0; k < n; k++) {
		struct xdp_dfa d;
		if (xdp_dfa_build(&d, &p[k], 1, max, err, sizeof(err)) == 0) {
			p[m] = p[k];
			p[m].id = (uint32_t)m;
			m++;
		}
		xdp_dfa_release(&d);
	}
	return m;
}

/* The row's patterns: its one pattern, or the rules (bench_files' or
   the built-in ones). */
static size_t row_patterns(const struct row *r, struct ruleset *rs,
			   struct xdp_dfa_pattern *p, uint32_t max)
{
	if (r->re == NULL && bench_nfiles > 0)
		return file_patterns(rs, p, max);
	if (r->re == NULL)
		return rules_builtin(rs) == 0 ? xt_patterns(rs, p, MAX_PATTERNS)
					      : 0;
	p[0] = (struct xdp_dfa_pattern){r->re, strlen(r->re), ENGINE_DOTALL, 0};
	return 1;
}

/* Load r's program, verify it on its packets, time it, print a line. */
static int bench_row(const struct row *r, const struct opts *o,
		     unsigned char *frame)
{
	struct packets_spec ps = {r->size, o->packets, 0.01, 20250};
	static struct xdp_dfa_pattern pat[MAX_PATTERNS];
	struct ruleset rs;
	struct packets pk = {0};
	struct xt_refs x = {0};
	struct xdp_dfa dfa = {0};
	unsigned act = r->action ? r->action : XDP_DROP;
	struct xdp_spec spec = {r->kind, act, r->re, r->re ? strlen(r->re) : 0,
				&dfa, r->all};
	struct xdp_prog *prog = NULL;
	double s[MAX_SAMPLES];
	size_t np;
	char why[256];
	int rc = -1;

	ruleset_init(&rs);
	np = row_patterns(r, &rs, pat, (uint32_t)o->max_states);
	if (packets_generate(&pk, r->plant, &ps) != 0 ||
	    xt_refs_init(&x, pat, np, why, sizeof(why)) != 0 ||
	    (r->kind == XDP_PROG_DFA &&
	     xdp_dfa_build(&dfa, pat, np, (uint32_t)o->max_states, why,
			   sizeof(why)) != 0) ||
	    xdp_prog_open(&spec, &prog, why, sizeof(why)) != 0) {
		printf("%s %zu B: %s\n", r->name, r->size, why);
		goto out;
	}
	if (verify(prog, r, &pk, &x, frame) != 0)
		goto out;
	if (r->kind == XDP_PROG_DFA && r->re == NULL)
		printf("(%zu patterns: %u states in %u DFAs) ", np,
		       dfa.nstates, dfa.ngroups);
	for (size_t k = 0; k < o->samples; k++)
		if (sample(prog, &pk, frame, o, &s[k]) != 0)
			goto out;
	qsort(s, o->samples, sizeof(double), cmp_double);
	printf("%-22s %5zu B  %8.1f ns/pkt  %6.3f ns/B  %7.2f Mpps  "
	       "(min %.1f, max %.1f; %zu pkts verified, %zu hits)\n", r->name,
	       r->size, s[o->samples / 2], s[o->samples / 2] / (double)r->size,
	       1e3 / s[o->samples / 2], s[0], s[o->samples - 1], pk.n,
	       pk.nplanted);
	rc = 0;
out:
	xdp_prog_free(prog);
	xdp_dfa_release(&dfa);
	xt_refs_release(&x);
	packets_release(&pk);
	rules_release(&rs);
	return rc;
}

static int cmd_bench(const struct opts *o)
{
	static const struct row rows[] = {
		{"base", XDP_PROG_BASE, PACKETS_LITERAL, 64, "private", 0, 0},
		{"base (tx)", XDP_PROG_BASE, PACKETS_LITERAL, 64, "private", 0,
		 XDP_TX},
		{"base", XDP_PROG_BASE, PACKETS_LITERAL, 1500, "private", 0, 0},
		{"literal", XDP_PROG_LITERAL, PACKETS_LITERAL, 64, "private", 0, 0},
		{"literal", XDP_PROG_LITERAL, PACKETS_LITERAL, 512, "private", 0, 0},
		{"literal", XDP_PROG_LITERAL, PACKETS_LITERAL, 1500, "private", 0, 0},
		{"dfa full-scan", XDP_PROG_DFA, PACKETS_FULLSCAN, 64, "pri.*ate", 0, 0},
		{"dfa full-scan", XDP_PROG_DFA, PACKETS_FULLSCAN, 512, "pri.*ate", 0, 0},
		{"dfa full-scan", XDP_PROG_DFA, PACKETS_FULLSCAN, 1500, "pri.*ate", 0, 0},
		{"dfa rules any", XDP_PROG_DFA, PACKETS_HTTP, 64, NULL, 0, 0},
		{"dfa rules any", XDP_PROG_DFA, PACKETS_HTTP, 512, NULL, 0, 0},
		{"dfa rules any", XDP_PROG_DFA, PACKETS_HTTP, 1500, NULL, 0, 0},
		{"dfa rules all-ids", XDP_PROG_DFA, PACKETS_HTTP, 64, NULL, 1, 0},
		{"dfa rules all-ids", XDP_PROG_DFA, PACKETS_HTTP, 512, NULL, 1, 0},
		{"dfa rules all-ids", XDP_PROG_DFA, PACKETS_HTTP, 1500, NULL, 1, 0},
	};
	unsigned char *frame = malloc(65536);
	char why[256];
	int rc = 0;

	if (frame == NULL)
		return 1;
	if (xdp_probe(why, sizeof(why)) != 0) {
		printf("xdp: unsupported: %s\n", why);
		free(frame);
		return 77;
	}
	printf("repeat %lu, %lu samples (median), %lu packets each\n",
	       o->repeat, o->samples, o->packets);
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++)
		rc |= bench_row(&rows[i], o, frame) != 0;
	free(frame);
	return rc;
}

/* The patterns of p[0..n) that compiled alone (ok[k]), together. */
static void states_together(const char *what, const struct xdp_dfa_pattern *p,
			    size_t n, const unsigned char *ok, uint32_t max)
{
	static struct xdp_dfa_pattern q[MAX_PATTERNS];
	struct xdp_dfa d;
	size_t m = 0;
	char why[256];
	clock_t t0;
	int rc;

	for (size_t k = 0; k < n; k++)
		if (ok[k])
			q[m++] = p[k];
	if (m == 0)
		return;
	t0 = clock();
	rc = xdp_dfa_build(&d, q, m, max, why, sizeof(why));
	if (rc == 0)
		printf("%s: the %zu patterns a DFA can express, together: %u "
		       "states in %u DFA(s) (a pattern's at most %u byte "
		       "classes); built in "
		       "%.2f s of CPU\n", what, m, d.nstates, d.ngroups,
		       d.nclasses, (double)(clock() - t0) / CLOCKS_PER_SEC);
	else
		printf("%s: the %zu patterns a DFA can express, together: "
		       "refused: %s\n", what, m, why);
	xdp_dfa_release(&d);
}

/* Each pattern alone (states or the reason), then those together. */
static void states_of(const char *what, const struct xdp_dfa_pattern *p,
		      size_t n, const struct ruleset *rs, uint32_t max)
{
	static unsigned char ok[MAX_PATTERNS];
	struct xdp_dfa d;
	size_t good = 0;
	char why[256];

	for (size_t k = 0; k < n; k++) {
		const char *name = rs->r[rs->p[k].rule].name;
		ok[k] = xdp_dfa_build(&d, &p[k], 1, max, why, sizeof(why)) == 0;
		if (ok[k])
			printf("  %-28s %6u states %4u classes\n", name,
			       d.nstates, d.nclasses);
		else
			printf("  %-28s refused: %s\n", name, why);
		good += ok[k];
		xdp_dfa_release(&d);
	}
	printf("%s: %zu of %zu patterns alone within %u states, %zu refused\n",
	       what, good, n, max, n - good);
	states_together(what, p, n, ok, max);
}

static int cmd_states(const struct opts *o, char **files, int nfiles)
{
	static struct xdp_dfa_pattern p[MAX_PATTERNS];
	struct ruleset rs;
	char err[512];
	size_t n;

	ruleset_init(&rs);
	if (nfiles == 0 && rules_builtin(&rs) != 0)
		return 1;
	for (int i = 0; i < nfiles; i++)
		if (rules_load(&rs, files[i], RULES_AUTO, err, sizeof(err))) {
			printf("%s\n", err);
			rules_release(&rs);
			return 1;
		}
	n = xt_patterns(&rs, p, MAX_PATTERNS);
	states_of(nfiles ? "rules" : "built-in", p, n, &rs,
		  (uint32_t)o->max_states);
	rules_release(&rs);
	return 0;
}

/* --name N into *v (1 .. max). */
static int opt_num(char **argv, int *i, int argc, const char *name,
		   unsigned long max, unsigned long *v)
{
	char *end;

	if (strcmp(argv[*i], name) != 0)
		return 0;
	if (*i + 1 >= argc)
		return -1;
	*v = strtoul(argv[++*i], &end, 10);
	return *end || *v == 0 || *v > max ? -1 : 1;
}

int main(int argc, char **argv)
{
	struct opts o = {100000, 5, 32, XDP_DFA_DEFAULT_MAX_STATES};
	char why[256];
	int i = 2, r = 0;

	for (; i < argc; i++) {
		r = opt_num(argv, &i, argc, "--repeat", 100000000, &o.repeat);
		if (!r)
			r = opt_num(argv, &i, argc, "--samples", MAX_SAMPLES,
				    &o.samples);
		if (!r)
			r = opt_num(argv, &i, argc, "--packets", 100000, &o.packets);
		if (!r)
			r = opt_num(argv, &i, argc, "--max-states",
				    XDP_RXB_DFA_MAX_STATES, &o.max_states);
		if (r <= 0)
			break;
	}
	if (argc < 2 || r < 0) {
		fprintf(stderr, "usage: test_xdp_cli probe|states|bench "
			"[--repeat N] [--samples S] [--packets P] "
			"[--max-states N] [RULES_FILE ...]\n");
		return 2;
	}
	if (strcmp(argv[1], "probe") == 0) {
		if (xdp_probe(why, sizeof(why)) == 0)
			return printf("xdp: ok\n") < 0;
		printf("xdp: unsupported: %s\n", why);
		return 77;
	}
	if (strcmp(argv[1], "states") == 0)
		return cmd_states(&o, argv + i, argc - i);
	bench_files = argv + i;
	bench_nfiles = argc - i;
	return strcmp(argv[1], "bench") == 0 ? cmd_bench(&o) : 2;
}

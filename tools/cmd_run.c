/*
 * cmd_run.c - `rxbench run [SUITE...]` and `rxbench scan`: choose suites
 * and engines, let each suite prepare and verify, time the plan, write
 * the Go text to stdout and the JSON results file.
 */
#define _GNU_SOURCE
#include "tools/cli.h"

#include "harness/bench.h"
#include "harness/callgrind.h"
#include "harness/clock.h"
#include "harness/filter.h"
#include "harness/interrupt.h"
#include "harness/isolate.h"
#include "harness/parse.h"
#include "report/gofmt.h"
#include "report/json.h"
#include "report/summary.h"
#include "suites/suite.h"

#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define RUN_DEFAULT_DIR "results"
#define RUN_DEFAULT_OUT RUN_DEFAULT_DIR "/latest.json"
#define RUN_PREVIOUS_OUT RUN_DEFAULT_DIR "/previous.json"
#define RXB_XSTR(x) #x
#define RXB_STR(x) RXB_XSTR(x) /* a macro's value as a string */

struct run_args {
	const struct suite *suites[16];
	void *cfg[16]; /* suites[i]'s configuration (suite.h) */
	size_t nsuites;
	const struct engine *engines[32];
	size_t nengines;
	const char *engines_arg;
	const char *bench;
	const char *out;
	struct bench_opts opts;
	int benchtime_given; /* else a suite's default_benchtime_ns applies */
	int quiet;
	int no_results; /* --no-results: no JSON file at all */
	int cpu;           /* --cpu: -1 when not pinned */
	int timeout_given; /* --timeout was on the command line */
	int allow_unverified; /* time answers nothing could verify, marked */
	const char *list;     /* --list: print the names it selects */
	FILE *journal;        /* out's journal (report/json.h), or NULL */
	char journal_path[4096];
	int rotate; /* out is the default: keep the last one as previous */
	int scan_only; /* `rxbench scan` */
	int load_checked; /* load_check() ran */
};

static void print_engine_names(FILE *f)
{
	for (size_t i = 0; i < engine_count; i++)
		fprintf(f, "%s%s", i ? ", " : "", engine_table[i]->name);
	fputc('\n', f);
}

static void print_suite_names(FILE *f)
{
	for (size_t i = 0; i < suite_count; i++)
		fprintf(f, "%s%s", i ? ", " : "", suite_table[i]->name);
	fputc('\n', f);
}

/* --engines=a,b: look each name up; unknown names list the valid ones. */
static int select_engines(struct run_args *a)
{
	char *copy, *tok, *save = NULL;
	int rc = 0;

	a->nengines = 0;
	if (a->engines_arg == NULL) {
		for (size_t i = 0; i < engine_count && a->nengines < 32; i++)
			if (!(engine_table[i]->caps & CAP_TEST_ONLY))
				a->engines[a->nengines++] = engine_table[i];
		return 0;
	}
	copy = strdup(a->engines_arg);
	if (copy == NULL)
		return -1;
	for (tok = strtok_r(copy, ",", &save); tok != NULL && rc == 0;
	     tok = strtok_r(NULL, ",", &save)) {
		const struct engine *e = engine_find(tok);
		const char *missing = engine_missing_reason(tok);
		if (e == NULL && missing != NULL) {
			fprintf(stderr, "rxbench: --engines: %s was not built: "
				"%s\n", tok, missing);
			rc = -1;
		} else if (e == NULL) {
			fprintf(stderr, "rxbench: unknown engine '%s'; engines "
				"built: ", tok);
			print_engine_names(stderr);
			rc = -1;
		} else if (a->nengines < 32) {
			a->engines[a->nengines++] = e;
		}
	}
	free(copy);
	if (rc == 0 && a->nengines == 0) {
		fprintf(stderr, "rxbench: --engines is empty\n");
		rc = -1;
	}
	return rc;
}

/*
 * --key[=value] for suite s with configuration cfg: SUITE_OPT_OK,
 * SUITE_OPT_UNKNOWN, SUITE_OPT_INVALID, or SUITE_OPT_NEEDS_VALUE when
 * value is NULL and the option takes one.
 */
static int suite_set(const struct suite *s, void *cfg, const char *key,
		     const char *value)
{
	const struct opt_spec *o;

	if (s->options == NULL)
		return s->set_option(key, value);
	o = opt_find(s->options, key);
	if (o == NULL)
		return SUITE_OPT_UNKNOWN;
	if (o->arg != NULL && value == NULL)
		return SUITE_OPT_NEEDS_VALUE;
	if (o->arg == NULL && value != NULL) {
		fprintf(stderr, "rxbench: --%s takes no value\n", key);
		return SUITE_OPT_INVALID;
	}
	return opt_set(o, cfg, value) == 0 ? SUITE_OPT_OK : SUITE_OPT_INVALID;
}

/* Offer --key[=value] to every selected suite. Returns args consumed or -1. */
static int suite_option(struct run_args *a, const char *arg, char *next)
{
	char key[128];
	const char *eq = strchr(arg, '=');
	const char *value = eq ? eq + 1 : NULL;
	size_t klen = eq ? (size_t)(eq - arg) : strlen(arg);
	int taken = 0, used = 1;

	if (klen >= sizeof(key))
		klen = sizeof(key) - 1;
	memcpy(key, arg, klen);
	key[klen] = '\0';
	for (size_t i = 0; i < a->nsuites; i++) {
		int rc = suite_set(a->suites[i], a->cfg[i], key, value);
		if (rc == SUITE_OPT_NEEDS_VALUE) {
			if (next == NULL) {
				fprintf(stderr, "rxbench: --%s needs a value\n",
					key);
				return -1;
			}
			value = next;
			used = 2;
			rc = suite_set(a->suites[i], a->cfg[i], key, value);
		}
		if (rc == SUITE_OPT_INVALID)
			return -1;
		taken |= rc == SUITE_OPT_OK;
	}
	if (!taken) {
		fprintf(stderr, "rxbench: unknown option --%s (see rxbench run "
			"--help)\n", key);
		return -1;
	}
	return used;
}

/*
 * A configuration for each selected suite, holding its defaults.  0, or
 * -1 out of memory.
 */
static int suite_configs(struct run_args *a)
{
	for (size_t i = 0; i < a->nsuites; i++) {
		const struct suite *s = a->suites[i];
		if (s->options == NULL)
			continue;
		a->cfg[i] = calloc(1, s->config_size);
		if (a->cfg[i] == NULL)
			return -1;
		if (s->config_init != NULL)
			s->config_init(a->cfg[i]);
	}
	return 0;
}

static void suite_configs_release(struct run_args *a)
{
	for (size_t i = 0; i < a->nsuites; i++) {
		if (a->cfg[i] != NULL && a->suites[i]->config_release != NULL)
			a->suites[i]->config_release(a->cfg[i]);
		free(a->cfg[i]);
		a->cfg[i] = NULL;
	}
}

/* --- the common options ------------------------------------------- */

static int opt_benchtime(void *cfg, const char *v, char *err, size_t size)
{
	struct run_args *a = cfg;

	if (bench_parse_benchtime(v, &a->opts) != 0) {
		snprintf(err, size, "use a duration like 1s, 200ms, or a count "
			 "like 1000x");
		return -1;
	}
	a->benchtime_given = 1;
	return 0;
}

static int opt_warmup(void *cfg, const char *v, char *err, size_t size)
{
	struct run_args *a = cfg;

	if (strcmp(v, "0") == 0) {
		a->opts.warmup_ns = 0;
		return 0;
	}
	if (bench_parse_duration(v, &a->opts.warmup_ns) != 0) {
		snprintf(err, size, "use a duration like 50ms or 3s, or 0 for "
			 "one pass only");
		return -1;
	}
	return 0;
}

static int opt_count(void *cfg, const char *v, char *err, size_t size)
{
	uint64_t n;

	if (parse_u64(v, 1, 1000, &n, err, size) != 0)
		return -1;
	((struct run_args *)cfg)->opts.count = (int)n;
	return 0;
}

static int opt_timeout(void *cfg, const char *v, char *err, size_t size)
{
	struct run_args *a = cfg;

	if (bench_parse_duration(v, &a->opts.timeout_ns) != 0) {
		snprintf(err, size, "use a duration like 60s, 500ms or 2m (at "
			 "most 1 hour)");
		return -1;
	}
	a->timeout_given = 1;
	return 0;
}

static int opt_cpu(void *cfg, const char *v, char *err, size_t size)
{
	uint64_t n;

	if (parse_u64(v, 0, CPU_SETSIZE - 1, &n, err, size) != 0)
		return -1;
	((struct run_args *)cfg)->cpu = (int)n;
	return 0;
}

static int opt_measure(void *cfg, const char *v, char *err, size_t size)
{
	struct run_args *a = cfg;

	if (strcmp(v, "time") == 0) {
		a->opts.measure = BENCH_TIME;
	} else if (strcmp(v, "instructions") != 0) {
		snprintf(err, size, "use time or instructions");
		return -1;
	} else if (!callgrind_built()) {
		snprintf(err, size, "not available in this build (no "
			 "valgrind/callgrind.h, or a sanitizer build)");
		return -1;
	} else {
		a->opts.measure = BENCH_INSTRUCTIONS;
	}
	return 0;
}

static int opt_no_fork(void *cfg, const char *v, char *err, size_t size)
{
	(void)v;
	(void)err;
	(void)size;
	((struct run_args *)cfg)->opts.isolate = 0;
	return 0;
}

#define RUN_OPT(f) offsetof(struct run_args, f)
static const struct opt_spec run_options[] = {
	{"engines", "a,b", "engines to run (default: all built)", OPT_TEXT,
	 RUN_OPT(engines_arg), 0, 0, NULL},
	{"bench", "REGEX", "select benchmarks, as go test -bench does: '/'\n"
	 "separates levels, '|' alternatives, an empty\nlevel matches all",
	 OPT_TEXT, RUN_OPT(bench), 0, 0, NULL},
	{"list", "REGEX", "print the names --bench=REGEX would run, one\n"
	 "per line, and measure nothing (--list=. : all)", OPT_TEXT,
	 RUN_OPT(list), 0, 0, NULL},
	{"benchtime", "D|Nx", "time per sample (default 1s, or the suite's)\n"
	 "or N iterations", OPT_CALL, 0, 0, 0, opt_benchtime},
	{"warmup", "D", "before each sample, in the process that times\n"
	 "it: one pass over the op's input (every query,\nevery packet) and "
	 "ops for at least D (default\n" RXB_STR(BENCH_WARMUP_DEFAULT_MS) "ms; "
	 "0: the one pass)", OPT_CALL, 0, 0, 0, opt_warmup},
	{"count", "N", "samples per benchmark, interleaved; N > 1\n"
	 "adds a statistics table per suite", OPT_CALL, 0, 0, 0, opt_count},
	{"measure", "time|instructions", "the clock (default), or instruction "
	 "and cache\ncounts under valgrind's callgrind (--benchtime=Nx\n"
	 "sets the ops counted, default " RXB_STR(BENCH_INSTR_DEFAULT_N) ")",
	 OPT_CALL, 0, 0, 0, opt_measure},
	{"timeout", "D", "kill a sample after D (default 60s; 10m with\n"
	 "--measure=instructions): a timeout row", OPT_CALL, 0, 0, 0,
	 opt_timeout},
	{"no-fork", NULL, "measure in this process: no crash isolation,\n"
	 "no timeout", OPT_CALL, 0, 0, 0, opt_no_fork},
	{"cpu", "N", "pin the run to CPU N", OPT_CALL, 0, 0, 0, opt_cpu},
	{"out", "FILE", "(or -o FILE) the JSON results file (default\n"
	 RUN_DEFAULT_OUT ")", OPT_TEXT, RUN_OPT(out), 0, 0, NULL},
	{"no-results", NULL, "write no results file", OPT_FLAG,
	 RUN_OPT(no_results), 0, 0, NULL},
	{"no-alloc", NULL, "skip the allocation-counting run", OPT_FLAG,
	 RUN_OPT(opts.no_alloc), 0, 0, NULL},
	{"allow-unverified", NULL, "time answers no reference or majority\n"
	 "could verify (else an unverified row, no\ntime); every output marks "
	 "them UNVERIFIED", OPT_FLAG, RUN_OPT(allow_unverified), 0, 0, NULL},
	{"quiet", NULL, "no progress on stderr", OPT_FLAG, RUN_OPT(quiet), 0, 0,
	 NULL},
	{NULL, NULL, NULL, OPT_FLAG, 0, 0, 0, NULL},
};

/*
 * A common option at arg ("name" or "name=value", without "--"), its
 * value there or in next.  Returns the arguments used (1 or 2), 0 when
 * it is not a common option, -1 after a message.
 */
static int common_option(struct run_args *a, const char *arg, char *next)
{
	const char *eq = strchr(arg, '=');
	size_t len = eq ? (size_t)(eq - arg) : strlen(arg);
	char name[64];
	const struct opt_spec *o;

	if (len >= sizeof(name))
		return 0;
	memcpy(name, arg, len);
	name[len] = '\0';
	o = opt_find(run_options, name);
	if (o == NULL)
		return 0;
	if (o->arg == NULL && eq != NULL) {
		fprintf(stderr, "rxbench: --%s takes no value\n", name);
		return -1;
	}
	if (o->arg != NULL && eq == NULL && next == NULL) {
		fprintf(stderr, "rxbench: --%s needs a value\n", name);
		return -1;
	}
	if (opt_set(o, a, o->arg == NULL ? NULL : eq ? eq + 1 : next) != 0)
		return -1;
	return o->arg != NULL && eq == NULL ? 2 : 1;
}

/* The help of `rxbench run`, or of `rxbench scan` (scan: 1). */
static void run_usage(FILE *f, int scan)
{
	if (scan)
		fprintf(f, "usage: rxbench scan [options]   (rxbench run scan)\n\n"
			"Verifies every engine's answers for the patterns over "
			"the corpus,\nthen times them in Go's benchmark format.\n\n"
			"options:\n");
	else
		fprintf(f, "usage: rxbench run [SUITE...] [options]\n"
			"       rxbench scan [options]   (same as: rxbench run "
			"scan)\n\nVerifies every engine's answers, then times the "
			"benchmarks and\nprints them in Go's benchmark format "
			"(benchstat reads it).\n\noptions:\n");
	opt_usage(f, run_options);
	fprintf(f, scan ? "\nscan's options:\n" : "\nsuites and their options:\n");
	for (size_t i = 0; i < suite_count; i++) {
		const struct suite *s = suite_table[i];
		if (scan && strcmp(s->name, "scan") != 0)
			continue;
		if (!scan)
			fprintf(f, "\n  %-10s %s%s\n", s->name, s->desc,
				s->in_default ? " (default)" : "");
		if (s->options != NULL)
			opt_usage(f, s->options);
		else
			fputs(s->usage, f);
	}
	fprintf(f, "\nexit status: 0 every benchmark verified and measured; 1 a "
		"mismatch, an error\nor timeout row, or nothing measured; 2 a bad "
		"command line or unusable\ninput; 128+N stopped by signal N (the "
		"finished benchmarks are kept)\n");
}

static int is_suite_value(char **argv, int i)
{
	/* "--key VALUE" or "-o FILE": VALUE follows an option without '=' */
	if (i == 0)
		return 0;
	if (strcmp(argv[i - 1], "-o") == 0)
		return 1;
	return strncmp(argv[i - 1], "--", 2) == 0 &&
	       strchr(argv[i - 1], '=') == NULL;
}

/* Pass 1: the suites named on the command line. */
static int collect_suites(struct run_args *a, int argc, char **argv)
{
	for (int i = 1; i < argc; i++) {
		const struct suite *s;
		if (argv[i][0] == '-')
			continue;
		s = suite_find(argv[i]);
		if (s == NULL && is_suite_value(argv, i))
			continue;
		if (s == NULL) {
			fprintf(stderr, "rxbench: unknown suite '%s'; suites: ",
				argv[i]);
			print_suite_names(stderr);
			return -1;
		}
		if (a->nsuites < 16)
			a->suites[a->nsuites++] = s;
	}
	if (a->nsuites == 0)
		for (size_t i = 0; i < suite_count && a->nsuites < 16; i++)
			if (suite_table[i]->in_default)
				a->suites[a->nsuites++] = suite_table[i];
	return 0;
}

/* Pass 2: options.  0, 1 for --help, -1 on error. */
static int parse_options(struct run_args *a, int argc, char **argv)
{
	for (int i = 1; i < argc;) {
		char *arg = argv[i], *next = i + 1 < argc ? argv[i + 1] : NULL;
		int used;

		if (strcmp(arg, "-h") == 0 || strcmp(arg, "--help") == 0)
			return 1;
		if (strcmp(arg, "-o") == 0) {
			if (next == NULL) {
				fprintf(stderr, "rxbench: -o needs a file\n");
				return -1;
			}
			a->out = next;
			i += 2;
			continue;
		}
		if (strncmp(arg, "--", 2) != 0) {
			if (arg[0] == '-') {
				fprintf(stderr, "rxbench: unknown option %s\n", arg);
				return -1;
			}
			i++; /* a suite name, taken in pass 1 */
			continue;
		}
		used = common_option(a, arg + 2, next);
		if (used == 0)
			used = suite_option(a, arg + 2, next);
		if (used < 0)
			return -1;
		i += used;
	}
	return 0;
}

static size_t name_width(const struct plan *p)
{
	size_t w = 0;

	for (size_t i = 0; i < p->n; i++)
		if (strlen(p->b[i].name) > w)
			w = strlen(p->b[i].name);
	return w;
}

/* The progress line on stderr (a terminal, no --quiet) and the Go text. */
struct progress {
	struct gofmt *g;
	struct run_args *a; /* its journal */
	const char *suite;
	const struct plan *plan;
	size_t done, total;
	uint64_t t0;
	int on;
};

/* "[scan 3/12] Scan/engine=re2/... 4s elapsed, ~10s left"; the next
 * benchmark is plan order, round after round (harness interleaves). */
static void progress_show(const struct progress *p)
{
	double el = (double)(clock_ns() - p->t0) / 1e9;

	fprintf(stderr, "\r\033[K[%s %zu/%zu] %.50s  %.0fs elapsed", p->suite,
		p->done + 1, p->total, p->plan->b[p->done % p->plan->n].name, el);
	if (p->done > 0)
		fprintf(stderr, ", ~%.0fs left",
			el / (double)p->done * (double)(p->total - p->done));
}

/*
 * Append r to the journal as it stands now.  A write that fails (a full
 * disk) says so once and ends the journal; the run goes on.
 */
static void journal_add(struct run_args *a, const struct result *r)
{
	if (a->journal == NULL || json_journal_add(a->journal, r) == 0)
		return;
	fprintf(stderr, "rxbench: %s: %s; the run goes on without it\n",
		a->journal_path, strerror(errno));
	fclose(a->journal);
	a->journal = NULL;
}

static void on_sample(void *ctx, const struct result *r, size_t sample)
{
	struct progress *p = ctx;

	journal_add(p->a, r);

	if (p->on)
		fputs("\r\033[K", stderr);
	gofmt_write_sample(p->g, r, sample);
	fflush(p->g->out); /* a line per finished sample, even into a pipe */
	if (++p->done < p->total && p->on)
		progress_show(p);
}

/* Print (and journal) the rows added from `from` on that are not ok. */
static void print_failures(struct gofmt *g, struct run_args *a,
			   const struct results *res, size_t from)
{
	for (size_t i = from; i < res->n; i++) {
		gofmt_write_status(g, &res->r[i]);
		if (res->r[i].status != RESULT_OK)
			journal_add(a, &res->r[i]);
	}
}

/* True when a result of this suite mismatched or failed. */
static int suite_failed(const struct results *res, const char *suite)
{
	for (size_t i = 0; i < res->n; i++)
		if (strcmp(res->r[i].suite, suite) == 0 &&
		    res->r[i].status != RESULT_OK &&
		    res->r[i].status != RESULT_UNSUPPORTED &&
		    res->r[i].status != RESULT_UNVERIFIED)
			return 1;
	return 0;
}

/*
 * A machine busy with other work when the timing starts (load average
 * above half its CPUs) measures that work too: warn, and record it in
 * the results' context.
 */
static void load_check(struct results *res)
{
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);
	double load = 0;
	char note[160];
	FILE *f = fopen("/proc/loadavg", "r");

	if (f == NULL)
		return;
	if (fscanf(f, "%lf", &load) != 1 || cpus < 1 || load <= cpus / 2.0) {
		fclose(f);
		return;
	}
	fclose(f);
	snprintf(note, sizeof(note), "load average %.2f over %ld CPUs when the "
		 "timing started: other work shares the machine", load, cpus);
	fprintf(stderr, "rxbench: warning: %s; timings will be noisier\n",
		note);
	results_meta_set(res, "busy", note);
}

/*
 * One suite: prepare, print failures, time, report; *planned grows by the
 * benchmarks it timed.  -1 on unusable input.
 */
static int run_suite(const struct suite *s, const void *cfg, struct run_args *a,
		     struct bench_filter *filter, struct results *res,
		     struct gofmt *g, size_t *planned)
{
	struct plan plan = {0};
	struct bench_opts opts = a->opts;
	struct suite_ctx ctx = {.engines = a->engines,
				.nengines = a->nengines, .opts = &opts,
				.filter = filter, .plan = &plan, .results = res,
				.allow_unverified = a->allow_unverified};
	size_t before = res->n;
	uint64_t t0 = clock_ns();
	void *run = NULL;
	int rc, ok;

	if (!a->benchtime_given && s->default_benchtime_ns > 0)
		opts.benchtime_ns = s->default_benchtime_ns;
	gofmt_write_pkg(g, s->name);
	if (s->options != NULL) {
		run = s->prepare(&ctx, cfg);
		rc = run != NULL ? 0 : -1;
	} else {
		rc = s->legacy_prepare(&ctx);
	}
	print_failures(g, a, res, before);
	*planned += plan.n;
	if (rc == 0) {
		struct progress prog = {g, a, s->name, &plan, 0,
					plan.n * (size_t)a->opts.count, clock_ns(),
					!a->quiet && plan.n > 0 && isatty(2)};
		before = res->n;
		if (plan.n > 0 && !a->load_checked++)
			load_check(res); /* once, when the timing starts */
		g->name_width = (int)name_width(&plan);
		if (prog.on)
			progress_show(&prog);
		harness_run(&plan, &opts, res, on_sample, &prog);
		if (prog.on)
			fputs("\r\033[K", stderr);
		print_failures(g, a, res, before);
		if (a->opts.count > 1)
			summary_write_stats(stdout, res, s->name);
		if (!s->reports_growth)
			summary_write_complexity(stdout, res, s->name,
						 summary_size_keys,
						 summary_nsize_keys);
		if (run != NULL && s->report != NULL)
			s->report(&ctx, run, stdout);
		if (run == NULL && s->legacy_report != NULL)
			s->legacy_report(&ctx, stdout);
	}
	if (run != NULL)
		s->cleanup(run);
	if (s->options == NULL && s->legacy_cleanup != NULL)
		s->legacy_cleanup();
	plan_release(&plan);
	ok = rc == 0 && !suite_failed(res, s->name) && !interrupt_signal();
	/* Go's closing lines for a package */
	fprintf(stdout, "%s\n%s\trxbench/suites/%s\t%.3fs\n",
		ok ? "PASS" : "FAIL", ok ? "ok  " : "FAIL", s->name,
		(double)(clock_ns() - t0) / 1e9);
	return rc;
}

/*
 * Pinning and the instruction-count re-execution.  -1 to go on measuring
 * in this process, else the exit status to return (the re-executed run's,
 * or EXIT_USAGE after a message).
 */
static int measure_setup(struct run_args *a, int argc, char **argv)
{
	char err[512];
	int rc;

	if (a->cpu >= 0 && isolate_pin_cpu(a->cpu, err, sizeof(err)) != 0) {
		fprintf(stderr, "rxbench: --cpu=%d: %s\n", a->cpu, err);
		return EXIT_USAGE;
	}
	if (a->opts.measure != BENCH_INSTRUCTIONS)
		return -1;
	if (!a->timeout_given)
		a->opts.timeout_ns = 600e9; /* valgrind runs 10-100x slower */
	if (callgrind_active())
		return -1;
	rc = callgrind_reexec(argc, argv, err, sizeof(err));
	if (rc < 0) {
		fprintf(stderr, "rxbench: --measure=instructions: %s\n", err);
		return EXIT_USAGE;
	}
	return rc;
}

/*
 * Every run writes a results file (the lossless record every report is
 * made from): -o FILE, else results/latest.json under the current
 * directory (made if missing; the one it replaces is kept as
 * results/previous.json).  Checked before anything is measured: a file
 * is created beside the target and removed.  0, or -1 after a message.
 */
static int out_check(struct run_args *a)
{
	char probe[4096];
	struct stat sb;
	int fd;

	if (a->out == NULL && a->no_results)
		return 0;
	if (a->out == NULL) {
		if (mkdir(RUN_DEFAULT_DIR, 0777) != 0 && errno != EEXIST) {
			fprintf(stderr, "rxbench: %s: %s (the results file goes "
				"there; -o FILE or --no-results to choose)\n",
				RUN_DEFAULT_DIR, strerror(errno));
			return -1;
		}
		a->out = RUN_DEFAULT_OUT;
		a->rotate = 1;
	}
	if (stat(a->out, &sb) == 0 && S_ISDIR(sb.st_mode)) {
		fprintf(stderr, "rxbench: -o %s: is a directory\n", a->out);
		return -1;
	}
	snprintf(probe, sizeof(probe), "%s.probe-%ld", a->out, (long)getpid());
	fd = open(probe, O_WRONLY | O_CREAT | O_EXCL, 0644);
	if (fd < 0) {
		fprintf(stderr, "rxbench: -o %s: cannot write there: %s\n",
			a->out, strerror(errno));
		return -1;
	}
	close(fd);
	unlink(probe);
	return 0;
}

/*
 * Start the journal beside the results file (report/json.h): from now
 * on a run killed at any moment leaves what it finished on disk.
 */
static void journal_open(struct run_args *a, const struct results *res)
{
	snprintf(a->journal_path, sizeof(a->journal_path), "%s.journal",
		 a->out);
	a->journal = fopen(a->journal_path, "w");
	if (a->journal != NULL && json_journal_head(a->journal, res) == 0)
		return;
	fprintf(stderr, "rxbench: %s: %s; the run goes on without a "
		"journal\n", a->journal_path, strerror(errno));
	if (a->journal != NULL)
		fclose(a->journal);
	a->journal = NULL;
}

/*
 * Write the results file; the default one keeps its predecessor.  The
 * journal goes once the file is written, and stays when it could not be.
 */
static int out_save(struct run_args *a, const struct results *res)
{
	int moved = a->rotate && rename(RUN_DEFAULT_OUT, RUN_PREVIOUS_OUT) == 0;

	if (json_save_results(a->out, res) == 0) {
		if (a->journal != NULL) {
			fclose(a->journal);
			a->journal = NULL;
			unlink(a->journal_path);
		}
		return 0;
	}
	fprintf(stderr, "rxbench: %s: %s%s%s\n", a->out, strerror(errno),
		a->journal ? "; what finished is in " : "",
		a->journal ? a->journal_path : "");
	if (moved)
		rename(RUN_PREVIOUS_OUT, RUN_DEFAULT_OUT);
	return -1;
}

/*
 * A signal stopped the run: mark the results and say so in the Go text,
 * as a configuration line benchstat ignores and `rxbench report` and
 * `compare` read back as "interrupted".
 */
static void run_interrupted(struct results *res)
{
	res->interrupted = 1;
	fprintf(stdout, GOFMT_INTERRUPTED " %s; the benchmarks above finished, "
		"the rest did not run\n", interrupt_name(interrupt_signal()));
	fflush(stdout);
}

/*
 * Nothing was timed, yet cases were refused or failed (every engine
 * unsupported, say): a run without a single measurement fails, with a
 * line saying why, where its SKIP rows alone would exit 0.  1 then.
 */
static int nothing_measured(const struct results *res, size_t planned)
{
	size_t unsupported = 0;

	if (planned > 0 || res->n == 0)
		return 0;
	for (size_t i = 0; i < res->n; i++)
		unsupported += res->r[i].status == RESULT_UNSUPPORTED;
	fprintf(stderr, "rxbench: nothing was measured: every case was refused "
		"before timing (%zu unsupported, %zu failed; see the rows "
		"above)\n", unsupported, res->n - unsupported);
	return 1;
}

/*
 * --bench selected no name the suites asked about: a warning naming the
 * filter and a name it could have selected.  1 then.
 */
static int selected_nothing(const struct run_args *a,
			    const struct bench_filter *f)
{
	if (a->bench == NULL || f->chosen > 0)
		return 0;
	if (f->asked > 0)
		fprintf(stderr, "rxbench: warning: --bench=%s selects none of "
			"the %zu benchmarks (one is Benchmark%s; --list=. lists "
			"them all)\n", a->bench, f->asked, f->example);
	else
		fprintf(stderr, "rxbench: warning: --bench=%s selects nothing: "
			"the suites had no benchmarks to offer\n", a->bench);
	return 1;
}

/*
 * --list=REGEX: each suite generates its cases as for a run, and the
 * names the filter selects are printed instead of compiled, verified and
 * timed.  Exit status 0, or 2 when a suite's input is unusable.
 */
static int list_main(struct run_args *a)
{
	struct bench_filter filter;
	struct strset listed;
	struct results res;
	char err[256];
	int status = EXIT_OK;

	if (filter_init(&filter, a->list, err, sizeof(err)) != 0) {
		fprintf(stderr, "rxbench: --list: %s\n", err + (strncmp(err,
			"--bench: ", 9) == 0 ? 9 : 0));
		return EXIT_USAGE;
	}
	if (strset_init(&listed, 256) != 0)
		return EXIT_USAGE;
	results_init(&res);
	for (size_t i = 0; i < a->nsuites; i++) {
		const struct suite *s = a->suites[i];
		struct plan plan = {0};
		struct suite_ctx ctx = {.engines = a->engines,
					.nengines = a->nengines,
					.opts = &a->opts, .filter = &filter,
					.plan = &plan, .results = &res,
					.list = stdout, .listed = &listed};
		if (s->options != NULL) {
			void *run = s->prepare(&ctx, a->cfg[i]);
			if (run == NULL)
				status = EXIT_USAGE;
			else
				s->cleanup(run);
		} else {
			if (s->legacy_prepare(&ctx) != 0)
				status = EXIT_USAGE;
			if (s->legacy_cleanup != NULL)
				s->legacy_cleanup();
		}
		plan_release(&plan);
	}
	results_release(&res);
	strset_release(&listed);
	filter_release(&filter);
	return status;
}


static int run_main(struct run_args *a, int argc, char **argv, int first)
{
	struct bench_filter filter;
	struct results res;
	struct gofmt g;
	char err[256];
	int status = EXIT_OK, rc;
	size_t planned = 0;

	rc = parse_options(a, argc, argv);
	if (rc != 0) {
		if (rc > 0)
			run_usage(stdout, a->scan_only);
		return rc > 0 ? EXIT_OK : EXIT_USAGE;
	}
	if (select_engines(a) != 0)
		return EXIT_USAGE;
	if (filter_init(&filter, a->bench, err, sizeof(err)) != 0) {
		fprintf(stderr, "rxbench: %s\n", err);
		return EXIT_USAGE;
	}
	if (a->list != NULL) {
		filter_release(&filter);
		return list_main(a);
	}
	if (out_check(a) != 0) {
		filter_release(&filter);
		return EXIT_USAGE;
	}
	rc = measure_setup(a, argc - first, argv + first);
	if (rc >= 0) {
		filter_release(&filter);
		return rc;
	}
	results_init(&res);
	context_fill(&res, argc - first, argv + first);
	context_fill_measure(&res, &a->opts, a->cpu);
	if (a->out != NULL)
		journal_open(a, &res);
	gofmt_init(&g, stdout, 0);
	gofmt_write_config(&g, &res);
	interrupt_install(); /* Ctrl-C: stop, but keep and write what ran */
	for (size_t i = 0; i < a->nsuites && !interrupt_signal(); i++)
		if (run_suite(a->suites[i], a->cfg[i], a, &filter, &res, &g,
			      &planned) != 0)
			status = EXIT_USAGE;
	if (status == EXIT_OK && results_failed(&res))
		status = EXIT_FAILED;
	if (status != EXIT_USAGE && !interrupt_signal() &&
	    selected_nothing(a, &filter))
		status = EXIT_FAILED;
	else if (status != EXIT_USAGE && !interrupt_signal() &&
		 nothing_measured(&res, planned))
		status = EXIT_FAILED;
	if (interrupt_signal())
		run_interrupted(&res);
	if (a->out != NULL && out_save(a, &res) != 0)
		status = EXIT_USAGE;
	if (interrupt_signal()) {
		fprintf(stderr, "rxbench: interrupted by %s%s%s\n",
			interrupt_name(interrupt_signal()),
			a->out ? "; the finished benchmarks are in " : "",
			a->out ? a->out : "");
		status = 128 + interrupt_signal(); /* as a shell reports it */
	}
	if (a->journal != NULL)
		fclose(a->journal); /* kept: the results file is not written */
	gofmt_release(&g);
	results_release(&res);
	filter_release(&filter);
	return status;
}

static void run_args_init(struct run_args *a)
{
	memset(a, 0, sizeof(*a));
	a->opts.benchtime_ns = 1e9;
	a->opts.count = 1;
	a->opts.isolate = 1;
	a->opts.timeout_ns = 60e9;
	a->opts.warmup_ns = BENCH_WARMUP_DEFAULT_NS;
	a->cpu = -1;
}

int cmd_run(int argc, char **argv)
{
	struct run_args a;
	int rc;

	run_args_init(&a);
	if (collect_suites(&a, argc, argv) != 0)
		return EXIT_USAGE;
	rc = suite_configs(&a) == 0 ? run_main(&a, argc, argv, 0) : EXIT_USAGE;
	suite_configs_release(&a);
	return rc;
}

int cmd_scan(int argc, char **argv)
{
	struct run_args a;
	int rc;

	run_args_init(&a);
	a.suites[a.nsuites++] = suite_find("scan");
	a.scan_only = 1;
	for (int i = 1; i < argc; i++) {
		if (argv[i][0] != '-' && !is_suite_value(argv, i)) {
			fprintf(stderr, "rxbench scan: unexpected argument '%s'\n",
				argv[i]);
			return EXIT_USAGE;
		}
	}
	rc = suite_configs(&a) == 0 ? run_main(&a, argc, argv, 0) : EXIT_USAGE;
	suite_configs_release(&a);
	return rc;
}

/*
 * cmd_run.c - `rxbench run [SUITE...]` and `rxbench scan`: choose suites
 * and engines, let each suite prepare and verify, time the plan, write
 * the Go text to stdout and the JSON results file.
 */
#define _GNU_SOURCE
#include "tools/cli.h"
#include "tools/run_args.h"

#include "harness/bench.h"
#include "harness/callgrind.h"
#include "harness/clock.h"
#include "harness/filter.h"
#include "harness/interrupt.h"
#include "harness/isolate.h"
#include "harness/parse.h"
#include "report/gofmt.h"
#include "report/json.h"
#include "report/text.h"
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
 * A suite that wrote no line (its header is still held) says nothing on
 * standard output when its input was refused (the error is on stderr,
 * alone) or when --bench selected none of its benchmarks: no header, no
 * report, no PASS or FAIL.  1 then, with the held pkg line dropped.
 */
static int suite_silent(struct gofmt *g, const struct run_args *a, int rc,
			size_t planned)
{
	if (g->pending_pkg == NULL ||
	    (rc == 0 && (a->bench == NULL || planned > 0)))
		return 0;
	g->pending_pkg = NULL;
	return 1;
}

/*
 * --compile-budget and --heap-budget as configuration pairs, which every
 * report of the results reads as the verdict's budgets
 * (report/layout.h): the run's own verdict and `rxbench report`'s agree.
 */
static void budgets_record(struct results *res, const struct run_args *a)
{
	if (a->compile_budget != NULL)
		results_config_set(res, REPORT_CONFIG_COMPILE_BUDGET,
				   a->compile_budget);
	if (a->heap_budget != NULL)
		results_config_set(res, REPORT_CONFIG_HEAP_BUDGET,
				   a->heap_budget);
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
 * The rest of the context, once: the selected engines' versions (a
 * runner engine's starts its runner), the budgets, then the journal's
 * head.  Called when a suite's input proved usable, before its first
 * line is written, so that a command line refused for its input (a
 * missing corpus, a bad pattern file) starts no runner.
 */
static void run_context(struct run_args *a, struct results *res)
{
	if (a->context_done)
		return;
	a->context_done = 1;
	context_fill_engines(res, a->engines, a->nengines);
	budgets_record(res, a);
	if (a->out != NULL)
		journal_open(a, res);
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
				.allow_unverified = a->allow_unverified,
				.engines_default = a->engines_arg == NULL};
	size_t before = res->n;
	uint64_t t0 = clock_ns();
	void *run = NULL;
	int rc, ok;

	if (!a->benchtime_given && s->default_benchtime_ns > 0)
		opts.benchtime_ns = s->default_benchtime_ns;
	gofmt_defer(g, NULL, s->name);
	run = s->prepare(&ctx, cfg);
	rc = run != NULL ? 0 : -1;
	if (rc == 0 || res->n > before)
		run_context(a, res);
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
	}
	if (run != NULL)
		s->cleanup(run);
	if (suite_silent(g, a, rc, plan.n)) {
		plan_release(&plan);
		return rc;
	}
	plan_release(&plan);
	gofmt_flush(g);
	if (rc == 0)
		text_write_suite(stdout, res, s->name, NULL);
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

/* Does path end in .json, or name no extension at all (/dev/null)? */
static int json_path(const char *path)
{
	const char *base = strrchr(path, '/');
	const char *dot = strrchr(base ? base + 1 : path, '.');

	return dot == NULL || dot == (base ? base + 1 : path) ||
	       strcmp(dot, ".json") == 0;
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
	if (a->out[0] == '\0') {
		fprintf(stderr, "rxbench: -o needs a file name (it was empty)\n");
		return -1;
	}
	if (a->out[0] == '-') { /* `-o --pattern=a` took the option */
		fprintf(stderr, "rxbench: -o %s: looks like an option, not the "
			"results file (a file of that name: -o ./%s)\n", a->out,
			a->out);
		return -1;
	}
	if (stat(a->out, &sb) == 0 && S_ISDIR(sb.st_mode)) {
		fprintf(stderr, "rxbench: -o %s: is a directory\n", a->out);
		return -1;
	}
	if (!json_path(a->out)) {
		fprintf(stderr, "rxbench: -o %s: a run writes its results as "
			"JSON (.json); for text, csv, md or html, report them: "
			"rxbench report FILE.json -o FILE.html\n", a->out);
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
 * --bench (or --list: opt names it) selected no name the suites asked
 * about: a line naming the filter and a name it could have selected.
 * 1 then.
 */
static int selected_nothing(const char *opt, const char *re,
			    const struct bench_filter *f)
{
	if (re == NULL || f->chosen > 0)
		return 0;
	if (f->asked > 0)
		fprintf(stderr, "rxbench: %s=%s selects none of the %zu "
			"benchmarks (one is Benchmark%s; --list=. lists them "
			"all)\n", opt, re, f->asked, f->example);
	else
		fprintf(stderr, "rxbench: %s=%s selects nothing: the suites "
			"had no benchmarks to offer\n", opt, re);
	return 1;
}

/*
 * --list=REGEX: each suite generates its cases as for a run, and the
 * names the filter selects are printed instead of compiled, verified and
 * timed.  Exit status 0; 1 when it selects nothing (as --bench); 2 when
 * a suite's input is unusable.
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
					.list = stdout, .listed = &listed,
					.engines_default = a->engines_arg == NULL};
		void *run = s->prepare(&ctx, a->cfg[i]);
		if (run == NULL)
			status = EXIT_USAGE;
		else
			s->cleanup(run);
		plan_release(&plan);
	}
	if (status == EXIT_OK && selected_nothing("--list", a->list, &filter))
		status = EXIT_FAILED;
	results_release(&res);
	strset_release(&listed);
	filter_release(&filter);
	return status;
}


/* The run a parsed command line asks for: the exit status. */
static int run_main(struct run_args *a, int argc, char **argv)
{
	struct bench_filter filter;
	struct results res;
	struct gofmt g;
	char err[256];
	int status = EXIT_OK, rc;
	size_t planned = 0;

	if (filter_init(&filter, a->bench, err, sizeof(err)) != 0) {
		fprintf(stderr, "rxbench: %s\n", err);
		return EXIT_USAGE;
	}
	if (a->list != NULL) {
		filter_release(&filter);
		return list_main(a);
	}
	/* Ctrl-C: stop, but keep and write what ran; from here on, so a
	   signal while the context is read (slow on a loaded machine) is
	   one too */
	interrupt_install();
	if (out_check(a) != 0) {
		filter_release(&filter);
		return EXIT_USAGE;
	}
	rc = measure_setup(a, argc, argv);
	if (rc >= 0) {
		filter_release(&filter);
		return rc;
	}
	results_init(&res);
	context_fill(&res, argc, argv);
	context_fill_measure(&res, &a->opts, a->cpu);
	for (size_t i = 0; i < a->nsuites; i++)
		if (suite_layout_fill(a->suites[i], &res) != 0) {
			fprintf(stderr, "rxbench: out of memory\n");
			results_release(&res);
			filter_release(&filter);
			return EXIT_USAGE;
		}
	gofmt_init(&g, stdout, 0);
	gofmt_defer(&g, &res, NULL); /* written with the first suite's lines */
	for (size_t i = 0; i < a->nsuites && !interrupt_signal(); i++)
		if (run_suite(a->suites[i], a->cfg[i], a, &filter, &res, &g,
			      &planned) != 0)
			status = EXIT_USAGE;
	if (status == EXIT_OK && results_failed(&res))
		status = EXIT_FAILED;
	if (status != EXIT_USAGE && !interrupt_signal() &&
	    selected_nothing("--bench", a->bench, &filter))
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

/* `rxbench run` (scan_only 0) or `rxbench scan`: the exit status. */
static int run_command(int argc, char **argv, int scan_only)
{
	struct run_args a;
	int rc;

	run_args_init(&a);
	rc = run_args_parse(&a, argc, argv, scan_only);
	if (rc == 0)
		rc = run_main(&a, argc, argv);
	else
		rc = rc > 0 ? EXIT_OK : EXIT_USAGE;
	run_args_release(&a);
	return rc;
}

int cmd_run(int argc, char **argv)
{
	return run_command(argc, argv, 0);
}

int cmd_scan(int argc, char **argv)
{
	return run_command(argc, argv, 1);
}

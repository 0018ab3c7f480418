/*
 * run_args.c - the command line of `rxbench run` (see run_args.h).
 *
 * Every option is an entry of a declared table: run_options below, and
 * each suite's options.  getopt_long reads them all (a suite's option is
 * known whether or not the suite runs, so that naming one of a suite
 * left out says so); abbreviations are refused, as go test refuses them.
 * Options apply after the suites are known, in command-line order.
 */
#define _GNU_SOURCE
#include "tools/run_args.h"

#include "harness/callgrind.h"
#include "harness/parse.h"
#include "report/layout_decl.h"
#include "tools/cli.h"

#include <getopt.h>
#include <sched.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define RXB_XSTR(x) #x
#define RXB_STR(x) RXB_XSTR(x) /* a macro's value as a string */

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
	} else if (strcmp(v, "wall") == 0) {
		a->opts.measure = BENCH_WALL;
	} else if (strcmp(v, "instructions") != 0) {
		snprintf(err, size, "use time, wall or instructions");
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

/* --engine-opt ENGINE.KEY=VALUE: set now, read when engines compile. */
static int opt_engine_opt(void *cfg, const char *v, char *err, size_t size)
{
	(void)cfg;
	return engine_opt_set(v, err, size);
}

/* --compile-budget=D, --heap-budget=B: checked here, recorded by run. */
static int opt_compile_budget(void *cfg, const char *v, char *err,
			      size_t size)
{
	double ns;

	if (bench_parse_duration(v, &ns) != 0) {
		snprintf(err, size, "not a duration such as 50ms");
		return -1;
	}
	((struct run_args *)cfg)->compile_budget = v;
	return 0;
}

static int opt_heap_budget(void *cfg, const char *v, char *err, size_t size)
{
	double bytes;

	if (ldecl_bytes(v, &bytes) != 0) {
		snprintf(err, size, "not a size such as 16MiB");
		return -1;
	}
	((struct run_args *)cfg)->heap_budget = v;
	return 0;
}

#define RUN_OPT(f) offsetof(struct run_args, f)
static const struct opt_spec run_options[] = {
	{"engines", "a,b", "engines to run (default: all built but the\n"
	 "opt-in ones, * in rxbench list; all: every one)", OPT_TEXT,
	 RUN_OPT(engines_arg), 0, 0, NULL},
	{"engine-opt", "E.KEY=V", "an engine's option, repeatable (rxbench list\n"
	 "shows each engine's and its default): names\nand results carry "
	 "those that differ from it;\na list V1,V2,... sweeps it: the engine "
	 "runs\nonce per value, an entry of its own\n(engine=xdp,action:tx), "
	 "16 entries at most a run", OPT_CALL, 0, 0, 0, opt_engine_opt},
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
	{"measure", "time|wall|instructions", "time (default): the wall clock, "
	 "but a run\npreempted by another process counts its CPU\ntime; wall: "
	 "the wall clock alone, as go test;\nor instruction and cache counts "
	 "under valgrind's\ncallgrind (--benchtime=Nx sets the ops counted,\n"
	 "default " RXB_STR(BENCH_INSTR_DEFAULT_N) ")",
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
	{"compile-budget", "D", "the verdict's compile budget (a suite's\n"
	 "recommendation: fqdn's default 50ms); recorded\nin the results, "
	 "so rxbench report reuses it", OPT_CALL, 0, 0, 0, opt_compile_budget},
	{"heap-budget", "B", "the verdict's memory budget (what compile\n"
	 "keeps: fqdn's default 16MiB); recorded too", OPT_CALL, 0, 0, 0,
	 opt_heap_budget},
	{"quiet", NULL, "no progress on stderr", OPT_FLAG, RUN_OPT(quiet), 0, 0,
	 NULL},
	{NULL, NULL, NULL, OPT_FLAG, 0, 0, 0, NULL},
};

/* --- --help ----------------------------------------------------- */

/*
 * Each suite's example commands for its help, by suite name: the help is
 * their one reader, so they live beside it rather than in struct suite.
 * A name missing here prints no example.
 */
static const struct suite_example {
	const char *suite;
	const char *commands; /* one command a line, each ending in '\n' */
} suite_examples[] = {
	{"scan", "rxbench scan --patterns-file patterns.txt --corpus app.log "
	 "--model grep\n"
	 "rxbench scan --pattern 'Sherlock|Holmes' --corpus FILE "
	 "--engines=re2,pcre2-jit\n"},
	{"payload", "rxbench run payload --rules /usr/share/modsecurity-crs/"
	 "rules --pcap traffic.pcap --scenarios=real-life\n"
	 "rxbench run payload --rules snort.rules --rules-format=snort "
	 "--sizes=64,512,1500\n"},
	{"fqdn", "rxbench run fqdn --policy cnp.yaml --queries names.txt\n"
	 "rxbench run fqdn --domains=100,500,1000 --engines=go,re2,pcre2-jit\n"},
};

/* "example:" and suite's example commands, indented, if it has any. */
static void example_usage(FILE *f, const char *suite)
{
	for (size_t i = 0; i < sizeof(suite_examples) /
	     sizeof(suite_examples[0]); i++) {
		const char *c = suite_examples[i].commands;

		if (strcmp(suite_examples[i].suite, suite) != 0)
			continue;
		fprintf(f, "\nexample:\n");
		while (*c) {
			size_t len = strcspn(c, "\n");
			fprintf(f, "  %.*s\n", (int)len, c);
			c += len + (c[len] == '\n');
		}
	}
}

/*
 * The help of one suite (`rxbench help SUITE`, `rxbench run SUITE
 * --help`): its options and an example; the options every suite shares
 * stay in `rxbench run --help`, the complete reference.
 */
static void suite_usage(FILE *f, const struct suite *s)
{
	fprintf(f, "usage: rxbench run %s [options]%s\n\n  %-10s %s\n\n"
		"%s's options:\n", s->name, strcmp(s->name, "scan") == 0 ?
		"   (or: rxbench scan [options])" : "", s->name, s->desc,
		s->name);
	opt_usage(f, s->options);
	example_usage(f, s->name);
	fprintf(f, "\nThe options every suite takes (--engines, --bench, "
		"--benchtime, --count, -o,\n...) and the exit statuses: "
		"rxbench run --help\n");
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
		opt_usage(f, s->options);
		if (scan)
			example_usage(f, s->name);
	}
	if (!scan)
		fprintf(f, "\nOne suite's options, with an example: rxbench help "
			"SUITE\n");
	fprintf(f, "\nexit status: 0 every benchmark verified and measured; 1 a "
		"mismatch, an error\nor timeout row, or nothing measured; 2 a bad "
		"command line or unusable\ninput; 128+N stopped by signal N (the "
		"finished benchmarks are kept)\n");
}

/* --- engines and suites ------------------------------------------ */

/* The engines a user would name: the test-only ones (noop, crash,
 * hang) are left out of lists and suggestions, not refused. */
static void print_engine_names(FILE *f)
{
	int first = 1;

	for (size_t i = 0; i < engine_count; i++) {
		if (engine_table[i]->caps & CAP_TEST_ONLY)
			continue;
		fprintf(f, "%s%s", first ? "" : ", ", engine_table[i]->name);
		first = 0;
	}
	fputc('\n', f);
}

static const char *closest(const char *const *names, size_t count,
			   const char *tok, size_t n);

/* The engine name closest to tok (--engines=pcre-jit: pcre2-jit), or NULL. */
static const char *engine_near(const char *tok)
{
	const char *names[64];
	size_t k = 0;

	for (size_t i = 0; i < engine_count && k < 64; i++)
		if (!(engine_table[i]->caps & CAP_TEST_ONLY))
			names[k++] = engine_table[i]->name;
	return closest(names, k, tok, strlen(tok));
}

static void print_suite_names(FILE *f)
{
	for (size_t i = 0; i < suite_count; i++)
		fprintf(f, "%s%s", i ? ", " : "", suite_table[i]->name);
	fputc('\n', f);
}

/* e's place among a's engines plus one; 0 when it is not among them. */
static size_t engine_selected(const struct run_args *a,
			      const struct engine *e)
{
	for (size_t i = 0; i < a->nengines; i++)
		if (a->engines[i] == e)
			return i + 1;
	return 0;
}

_Static_assert(RUN_MAX_ENGINES <= 64, "select_engines' noted: one bit each");

/*
 * --engines=a,b: look each name up; unknown names list the valid ones;
 * a name given twice runs once, with a note said once (its rows would
 * share one name, which benchstat and compare read as more samples of
 * one).
 */
static int select_engines(struct run_args *a)
{
	char *copy, *tok, *save = NULL;
	uint64_t noted = 0; /* bit i: a->engines[i] named twice, said */
	int rc = 0;

	a->nengines = 0;
	if (a->engines_arg == NULL || strcmp(a->engines_arg, "all") == 0) {
		int all = a->engines_arg != NULL;

		for (size_t i = 0; i < engine_count && a->nengines < 32; i++)
			if (!(engine_table[i]->caps & CAP_TEST_ONLY) &&
			    (all || !engine_table[i]->opt_in))
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
		size_t at = e != NULL ? engine_selected(a, e) : 0;
		if (strcmp(tok, "all") == 0) {
			fprintf(stderr, "rxbench: --engines=%s: all names every "
				"engine, so it stands alone (--engines=all)\n",
				a->engines_arg);
			rc = -1;
		} else if (e == NULL && missing != NULL) {
			fprintf(stderr, "rxbench: --engines: %s was not built: "
				"%s\n", tok, missing);
			rc = -1;
		} else if (e == NULL) {
			const char *near = engine_near(tok);
			fprintf(stderr, "rxbench: unknown engine '%s'; %s%s%s"
				"engines built: ", tok, near ? "did you mean " : "",
				near ? near : "", near ? "? " : "");
			print_engine_names(stderr);
			rc = -1;
		} else if (at != 0) {
			if (!(noted & (uint64_t)1 << (at - 1)))
				fprintf(stderr, "rxbench: --engines: %s is named "
					"twice; it runs once\n", tok);
			noted |= (uint64_t)1 << (at - 1);
		} else if (a->nengines < RUN_MAX_ENGINES) {
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
 * Whether the entries of the n engines in[] fit a run: RUN_MAX_ENGINES in
 * all, ENGINE_OPT_VARIANTS_MAX of them variants of swept engines.  0, or
 * -1 after saying it for the whole run: "9 entries of xdp and 8 of re2
 * make 17, more than the 16 a run holds".
 */
static int sweeps_fit(const struct engine *const *in, size_t n)
{
	size_t all = 0, swept = 0, nswept = 0, cap, sum;

	for (size_t i = 0; i < n; i++) {
		size_t k = engine_opt_entry_count(in[i]);

		all += k;
		if (engine_opt_swept(in[i])) {
			swept += k;
			nswept++;
		}
	}
	if (all <= RUN_MAX_ENGINES && swept <= ENGINE_OPT_VARIANTS_MAX)
		return 0;
	cap = all > RUN_MAX_ENGINES ? RUN_MAX_ENGINES : ENGINE_OPT_VARIANTS_MAX;
	sum = cap == RUN_MAX_ENGINES ? all : swept;
	fprintf(stderr, "rxbench: --engine-opt: ");
	for (size_t i = 0, j = 0; i < n; i++) {
		if (!engine_opt_swept(in[i]))
			continue;
		fprintf(stderr, "%s%zu %s%s",
			j == 0 ? "" : j + 1 == nswept ? " and " : ", ",
			engine_opt_entry_count(in[i]),
			j == 0 ? "entries of " : "of ", in[i]->name);
		j++;
	}
	if (cap == RUN_MAX_ENGINES && all > swept)
		fprintf(stderr, " with %zu other engine%s", all - swept,
			all - swept == 1 ? "" : "s");
	if (sum > swept || nswept > 1)
		fprintf(stderr, " make %zu", sum);
	fprintf(stderr, ", more than the %zu a run holds (an entry per "
		"swept value: fewer values, or fewer engines)\n", cap);
	return -1;
}

/*
 * Each selected engine as its entries: one per value an --engine-opt
 * E.KEY=V1,V2 sweeps (engine_opt_entries), in place.  0, or -1 after a
 * message.
 */
static int expand_sweeps(struct run_args *a)
{
	const struct engine *in[RUN_MAX_ENGINES];
	size_t n = a->nengines;
	char err[256];

	memcpy(in, a->engines, n * sizeof(*in));
	if (sweeps_fit(in, n) != 0)
		return -1;
	a->nengines = 0;
	for (size_t i = 0; i < n; i++) {
		long k = engine_opt_entries(in[i], a->engines + a->nengines,
					    RUN_MAX_ENGINES - a->nengines, err,
					    sizeof(err));
		if (k < 0) { /* sweeps_fit() said they fit */
			fprintf(stderr, "rxbench: --engine-opt: %s\n", err);
			return -1;
		}
		a->nengines += (size_t)k;
	}
	return 0;
}

/* A suite per name at argv[from..argc), or the default ones.  0 or -1. */
static int select_suites(struct run_args *a, int argc, char **argv, int from)
{
	for (int i = from; i < argc; i++) {
		const struct suite *s = suite_find(argv[i]);
		if (a->scan_only) {
			fprintf(stderr, "rxbench scan: unexpected argument '%s'\n",
				argv[i]);
			return -1;
		}
		if (s == NULL) {
			fprintf(stderr, "rxbench: unknown suite '%s'; suites: ",
				argv[i]);
			print_suite_names(stderr);
			return -1;
		}
		if (a->nsuites < RUN_MAX_SUITES)
			a->suites[a->nsuites++] = s;
	}
	if (a->nsuites > 0)
		return 0;
	for (size_t i = 0; i < suite_count; i++)
		if (suite_table[i]->in_default)
			a->suites[a->nsuites++] = suite_table[i];
	return 0;
}

/* A configuration for each selected suite, holding its defaults. */
static int suite_configs(struct run_args *a)
{
	for (size_t i = 0; i < a->nsuites; i++) {
		const struct suite *s = a->suites[i];
		a->cfg[i] = calloc(1, s->config_size ? s->config_size : 1);
		if (a->cfg[i] == NULL)
			return -1;
		if (s->config_init != NULL)
			s->config_init(a->cfg[i]);
	}
	return 0;
}

void run_args_release(struct run_args *a)
{
	for (size_t i = 0; i < a->nsuites; i++) {
		if (a->cfg[i] != NULL && a->suites[i]->config_release != NULL)
			a->suites[i]->config_release(a->cfg[i]);
		free(a->cfg[i]);
		a->cfg[i] = NULL;
	}
}

/* --- getopt_long over the tables --------------------------------- */

#define OPT_VAL 1000 /* getopt_long's val of long option k: OPT_VAL + k */

/* Every option name once: the common ones, then each suite's. */
struct opt_index {
	struct option *lo; /* getopt_long's table, ended by zeros */
	const char **name;
	size_t n;
};

static int index_add(struct opt_index *x, const struct opt_spec *o)
{
	for (size_t k = 0; k < x->n; k++)
		if (strcmp(x->name[k], o->name) == 0)
			return 0;
	x->lo[x->n] = (struct option){o->name, o->arg ? required_argument
						      : no_argument,
				      NULL, OPT_VAL + (int)x->n};
	x->name[x->n++] = o->name;
	return 0;
}

static int index_build(struct opt_index *x)
{
	size_t cap = 2;

	for (const struct opt_spec *o = run_options; o->name; o++)
		cap++;
	for (size_t i = 0; i < suite_count; i++)
		for (const struct opt_spec *o = suite_table[i]->options;
		     o != NULL && o->name; o++)
			cap++;
	x->lo = calloc(cap, sizeof(*x->lo));
	x->name = calloc(cap, sizeof(*x->name));
	x->n = 0;
	if (x->lo == NULL || x->name == NULL)
		return -1;
	x->lo[x->n] = (struct option){"help", no_argument, NULL, 'h'};
	x->name[x->n++] = "help";
	for (const struct opt_spec *o = run_options; o->name; o++)
		index_add(x, o);
	for (size_t i = 0; i < suite_count; i++)
		for (const struct opt_spec *o = suite_table[i]->options;
		     o != NULL && o->name; o++)
			index_add(x, o);
	return 0;
}

static void index_release(struct opt_index *x)
{
	free(x->lo);
	free(x->name);
}

/* An option as given: its name in the index and its value (or NULL). */
struct given {
	size_t k;
	const char *value;
};

/*
 * The option token getopt_long just read ("--benchti=1s", or the one
 * before its separate value): refused when it abbreviates the name.
 */
static int spelled_out(char **av, const char *optarg_, const char *name)
{
	const char *tok = av[optind - 1];
	size_t len;

	if (optarg_ != NULL && !(optarg_ > tok && optarg_ <= tok + strlen(tok)))
		tok = av[optind - 2];
	tok += tok[1] == '-' ? 2 : 1; /* go test's -count=3 too */
	len = strcspn(tok, "=");
	if (len == strlen(name) && strncmp(tok, name, len) == 0)
		return 1;
	fprintf(stderr, "rxbench: --%.*s: write the whole name, --%s\n",
		(int)len, tok, name);
	return 0;
}

/* Edits (insert, delete, substitute, swap two neighbours: the optimal
 * string alignment distance) between a[0..n) and b; names are short (an
 * option's, an engine's), longer ones count as far.  --modle is one
 * edit from --model, as --mode is. */
static size_t edits(const char *a, size_t n, const char *b)
{
	size_t m = strlen(b), d[64][64];

	if (n >= 63 || m >= 63)
		return SIZE_MAX;
	for (size_t i = 0; i <= n; i++)
		d[i][0] = i;
	for (size_t j = 0; j <= m; j++)
		d[0][j] = j;
	for (size_t i = 1; i <= n; i++)
		for (size_t j = 1; j <= m; j++) {
			size_t best = d[i - 1][j - 1] + (a[i - 1] != b[j - 1]);
			if (d[i - 1][j] + 1 < best)
				best = d[i - 1][j] + 1;
			if (d[i][j - 1] + 1 < best)
				best = d[i][j - 1] + 1;
			if (i > 1 && j > 1 && a[i - 1] == b[j - 2] &&
			    a[i - 2] == b[j - 1] && d[i - 2][j - 2] + 1 < best)
				best = d[i - 2][j - 2] + 1;
			d[i][j] = best;
		}
	return d[n][m];
}

/* Of the names, the closest to tok[0..n) within two edits, or NULL; of
 * two as close, the one whose length is nearer n (--modle: --model, not
 * --mode). */
static const char *closest(const char *const *names, size_t count,
			   const char *tok, size_t n)
{
	const char *best = NULL;
	size_t d = 3, dl = 0;

	for (size_t k = 0; k < count; k++) {
		size_t e = edits(tok, n, names[k]), l = strlen(names[k]);
		size_t ll = l > n ? l - n : n - l;
		if (e < d || (e == d && best != NULL && ll < dl)) {
			d = e;
			dl = ll;
			best = names[k];
		}
	}
	return best;
}

/* The option name closest to tok[0..n), or NULL. */
static const char *near_miss(const struct opt_index *x, const char *tok,
			     size_t n)
{
	return closest(x->name, x->n, tok, n);
}

/* "unknown option --engine; did you mean --engines? (see ...)" */
static void unknown_long(const struct opt_index *x, const char *tok)
{
	size_t dashes = strspn(tok, "-"), n = strcspn(tok + dashes, "=");
	const char *near = near_miss(x, tok + dashes, n);

	fprintf(stderr, "rxbench: unknown option %.*s%s%s%s (see rxbench run "
		"--help)\n", (int)(dashes + n), tok, near ? "; did you mean --" : "",
		near ? near : "", near ? "?" : "");
}

/* Report what getopt_long refused ('?' or ':').  -1. */
static int refused(const struct opt_index *x, char **av, int c)
{
	if (c == ':' && optopt == 'o')
		fprintf(stderr, "rxbench: -o needs a file\n");
	else if (c == ':' && optopt >= OPT_VAL)
		fprintf(stderr, "rxbench: --%s needs a value\n",
			x->name[optopt - OPT_VAL]);
	else if (optopt >= OPT_VAL)
		fprintf(stderr, "rxbench: --%s takes no value\n",
			x->name[optopt - OPT_VAL]);
	else if (optopt != 0)
		fprintf(stderr, "rxbench: unknown option -%c (see rxbench run "
			"--help)\n", optopt);
	else
		unknown_long(x, av[optind - 1]);
	return -1;
}

/*
 * Read every option of av into g (*n of them).  0; 1 when --help was
 * among them; -1 after a message.  optind is then the first non-option (GNU getopt has
 * moved them to the end of av).
 */
static int read_options(const struct opt_index *x, int argc, char **av,
			struct given *g, size_t *n, struct run_args *a)
{
	int c, li, help = 0;

	optind = 0; /* a fresh scan (GNU) */
	opterr = 0;
	*n = 0;
	/* long options with one dash too, as go test spells them
	   (-count=3, -bench=...); -o and -h stay short options */
	while ((c = getopt_long_only(argc, av, ":ho:", x->lo, &li)) != -1) {
		if (c == 'h') {
			help = 1;
			continue;
		}
		if (c == 'o') {
			a->out = optarg;
			continue;
		}
		if (c == '?' || c == ':')
			return refused(x, av, c);
		if (!spelled_out(av, optarg, x->name[c - OPT_VAL]))
			return -1;
		g[*n].k = (size_t)(c - OPT_VAL);
		g[(*n)++].value = optarg;
	}
	return help;
}

/*
 * Apply option g to the run (a common option) or to every selected
 * suite that has it.  0, or -1 after a message (a bad value; an option
 * only suites left out of this run have).
 */
static int apply(struct run_args *a, const struct opt_index *x,
		 const struct given *g)
{
	const char *name = x->name[g->k];
	const struct opt_spec *o = opt_find(run_options, name);
	char owners[256] = "";
	int taken = 0;

	if (o != NULL)
		return opt_set(o, a, g->value);
	for (size_t i = 0; i < a->nsuites; i++) {
		o = opt_find(a->suites[i]->options, name);
		if (o != NULL && opt_set(o, a->cfg[i], g->value) != 0)
			return -1;
		taken |= o != NULL;
	}
	if (taken)
		return 0;
	for (size_t i = 0; i < suite_count; i++)
		if (opt_find(suite_table[i]->options, name) != NULL)
			snprintf(owners + strlen(owners),
				 sizeof(owners) - strlen(owners), "%s%s",
				 owners[0] ? ", " : "", suite_table[i]->name);
	fprintf(stderr, "rxbench: --%s is an option of %s, which this run "
		"leaves out (name the suite: rxbench run %s ...)\n", name,
		owners, owners);
	return -1;
}

/*
 * A one-line warning per --engine-opt naming an engine the run does not
 * run (xdp is opt-in: a sweep or a value of its options alone does not
 * select it), single value or list alike.
 */
static void warn_unused_opts(const struct run_args *a,
			     const struct opt_index *x,
			     const struct given *g, size_t n)
{
	char name[64];

	for (size_t i = 0; i < n; i++) {
		const char *v = g[i].value;
		const struct engine *e;
		size_t len, j = 0;

		if (strcmp(x->name[g[i].k], "engine-opt") != 0 || v == NULL)
			continue;
		len = strcspn(v, ".");
		if (len >= sizeof(name))
			continue;
		memcpy(name, v, len);
		name[len] = '\0';
		e = engine_find(name);
		while (e != NULL && j < a->nengines && a->engines[j] != e)
			j++;
		if (e != NULL && j == a->nengines)
			fprintf(stderr, "rxbench: warning: --engine-opt %s: %s "
				"is not among the run's engines (--engines=%s,"
				"... or all): the option is unused\n", v,
				name, name);
	}
}

int run_args_parse(struct run_args *a, int argc, char **argv, int scan_only)
{
	struct opt_index x = {0};
	char **av = calloc((size_t)argc + 1, sizeof(*av));
	struct given *g = calloc((size_t)argc + 1, sizeof(*g));
	size_t n = 0;
	int rc = -1, help, named;

	a->scan_only = scan_only;
	if (av == NULL || g == NULL || index_build(&x) != 0)
		goto out;
	memcpy(av, argv, (size_t)argc * sizeof(*av)); /* getopt reorders */
	help = read_options(&x, argc, av, g, &n, a);
	if (help < 0)
		goto out;
	named = optind < argc; /* suites named: their help alone */
	if (scan_only)
		a->suites[a->nsuites++] = suite_find("scan");
	if (select_suites(a, argc, av, optind) != 0 || suite_configs(a) != 0)
		goto out;
	for (size_t i = 0; i < n; i++)
		if (apply(a, &x, &g[i]) != 0)
			goto out;
	if (help) { /* after the options: a bad one is still an error */
		for (size_t i = 0; named && i < a->nsuites; i++) {
			if (i > 0)
				fputc('\n', stdout);
			suite_usage(stdout, a->suites[i]);
		}
		if (!named)
			run_usage(stdout, scan_only);
		rc = 1;
		goto out;
	}
	rc = select_engines(a);
	if (rc == 0)
		warn_unused_opts(a, &x, g, n);
	if (rc == 0 && a->timeout_given && !a->opts.isolate)
		fprintf(stderr, "rxbench: warning: --timeout is unused under "
			"--no-fork: a sample runs in this process, which "
			"nothing stops\n");
	if (rc == 0)
		rc = expand_sweeps(a);
out:
	index_release(&x);
	free(av);
	free(g);
	return rc;
}

void run_args_init(struct run_args *a)
{
	memset(a, 0, sizeof(*a));
	engine_opts_reset(); /* options are the run's: none from before */
	a->opts.benchtime_ns = 1e9;
	a->opts.count = 1;
	a->opts.isolate = 1;
	a->opts.timeout_ns = 60e9;
	a->opts.warmup_ns = BENCH_WARMUP_DEFAULT_NS;
	a->cpu = -1;
}

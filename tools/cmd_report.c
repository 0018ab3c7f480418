/*
 * cmd_report.c - `rxbench report RESULTS [--format=F] [-o FILE]`: write a
 * results file (JSON, or Go text) as text, csv, md, html or json.
 */
#include "tools/cli.h"

#include "report/csv.h"
#include "report/gofmt.h"
#include "report/html.h"
#include "report/io.h"
#include "report/json.h"
#include "harness/bench.h"
#include "report/layout_decl.h"
#include "report/md.h"
#include "report/text.h"
#include "report/view.h"
#include "suites/suite.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

/* What a writer gets: the results and the reader's options. */
struct report_in {
	struct results res;
	struct report_opts opts;
};

/* Go text: per suite its benchmarks, then the tables the run printed. */
static int write_text(FILE *f, const void *arg)
{
	const struct report_in *in = arg;
	const struct results *res = &in->res;
	struct strlist suites = {0};
	struct gofmt g;
	size_t w = 0;
	int rc = 0;

	for (size_t i = 0; i < res->n; i++)
		if (strlen(res->r[i].name) > w)
			w = strlen(res->r[i].name);
	gofmt_init(&g, f, (int)w);
	gofmt_write_config(&g, res);
	if (view_suites(res, &suites) != 0)
		rc = -1;
	for (size_t s = 0; rc == 0 && s < suites.n; s++) {
		gofmt_write_pkg(&g, suites.s[s]);
		for (size_t i = 0; i < res->n; i++) {
			const struct result *r = &res->r[i];
			if (strcmp(r->suite, suites.s[s]) != 0)
				continue;
			for (size_t k = 0; k < r->nsamples; k++)
				gofmt_write_sample(&g, r, k);
			gofmt_write_status(&g, r);
		}
		rc = text_write_suite(f, res, suites.s[s], &in->opts);
	}
	if (res->interrupted)
		fputs(GOFMT_INTERRUPTED " the run was stopped; the benchmarks "
		      "above finished, the rest did not run\n", f);
	strlist_release(&suites);
	gofmt_release(&g);
	return rc != 0 || ferror(f) ? -1 : 0;
}

static int write_csv(FILE *f, const void *arg)
{
	return report_write_csv(f, &((const struct report_in *)arg)->res);
}

static int write_md(FILE *f, const void *arg)
{
	const struct report_in *in = arg;

	return report_write_md(f, &in->res, &in->opts);
}

static int write_html(FILE *f, const void *arg)
{
	const struct report_in *in = arg;

	return report_write_html(f, &in->res, &in->opts);
}

static int write_json(FILE *f, const void *arg)
{
	return json_write_results(f, &((const struct report_in *)arg)->res);
}

static const struct format {
	const char *name, *ext;
	report_write_fn write;
} formats[] = {
	{"text", ".txt", write_text}, {"csv", ".csv", write_csv},
	{"md", ".md", write_md},      {"html", ".html", write_html},
	{"json", ".json", write_json},
};

static const struct format *format_find(const char *name)
{
	for (size_t i = 0; i < sizeof(formats) / sizeof(formats[0]); i++)
		if (strcmp(formats[i].name, name) == 0)
			return &formats[i];
	return NULL;
}

/* The format -o's extension names; text when it has none (or there is
 * no -o); NULL for an extension no writer has (-o x.xlsx). */
static const struct format *format_of_path(const char *path)
{
	const char *base = path ? strrchr(path, '/') : NULL;
	const char *dot = path ? strrchr(base ? base + 1 : path, '.') : NULL;

	if (dot == NULL || dot == (base ? base + 1 : path))
		return &formats[0];
	for (size_t i = 0; i < sizeof(formats) / sizeof(formats[0]); i++)
		if (strcmp(formats[i].ext, dot) == 0)
			return &formats[i];
	return NULL;
}

static void report_usage(FILE *f)
{
	fprintf(f,
		"usage: rxbench report RESULTS [--format=FORMAT] [-o FILE]\n"
		"       rxbench report A B ...|DIR [--col KEY] [--row KEYS]\n\n"
		"Writes a results file (the JSON of `rxbench run -o`, or Go\n"
		"benchmark text; \"-\" reads standard input) in another format:\n"
		"  text   Go benchmark format (benchstat reads it)\n"
		"  csv    one row per benchmark x metric x sample\n"
		"  md     Markdown: verdicts, then the declared tables\n"
		"  html   one self-contained page with charts\n"
		"  json   the JSON results file\n"
		"The format defaults to -o's extension (.txt .csv .md .html\n"
		".json), else text.  -o is written atomically (default: "
		"stdout).\n"
		"The verdict's budgets (text, md, html) override those the\n"
		"results record (run --compile-budget) and the suite's:\n"
		"  --compile-budget=DURATION  (\"50ms\") compile at most this\n"
		"  --heap-budget=BYTES        (\"16MiB\") what compile keeps\n"
		"Several results files (or a directory of them) are reported\n"
		"side by side as `rxbench compare` shows them (text, md or\n"
		"html: a page with a colour per run and what changed first),\n"
		"one column per run or per --col KEY; see rxbench compare --help.\n");
}

int cli_output_takes_next(const char *a)
{
	return strcmp(a, "--format") == 0 || strcmp(a, "-o") == 0 ||
	       strcmp(a, "--out") == 0;
}

/* Options of report and compare: --format, -o/--out.  Args used or -1. */
int cli_output_option(char **argv, int i, int argc, const char **format,
		      const char **out)
{
	const char *a = argv[i], *next = i + 1 < argc ? argv[i + 1] : NULL;

	if (strncmp(a, "--format=", 9) == 0) {
		*format = a + 9;
		return 1;
	}
	if (strncmp(a, "--out=", 6) == 0) {
		*out = a + 6;
		return 1;
	}
	if (cli_output_takes_next(a)) {
		if (next == NULL) {
			fprintf(stderr, "rxbench: %s needs a value\n", a);
			return -1;
		}
		*(a[1] == 'f' || a[2] == 'f' ? format : out) = next;
		return 2;
	}
	return 0;
}

int cli_output_not_dir(const char *cmd, const char *out)
{
	struct stat st;
	int len;

	if (out == NULL || strcmp(out, "-") == 0 || stat(out, &st) != 0 ||
	    !S_ISDIR(st.st_mode))
		return 0;
	for (len = (int)strlen(out); len > 1 && out[len - 1] == '/';)
		len--;
	fprintf(stderr, "rxbench %s: -o %s: is a directory; name a file in "
		"it (-o %.*s/FILE)\n", cmd, out, len, out);
	return -1;
}

/* --compile-budget=D, --heap-budget=B: 1 used, 0 not one, -1 bad. */
static int budget_option(const char *a, struct report_opts *o)
{
	if (strncmp(a, "--compile-budget=", 17) == 0) {
		if (bench_parse_duration(a + 17, &o->budget_ns) == 0)
			return 1;
		fprintf(stderr, "rxbench report: %s: not a duration such as "
			"50ms\n", a);
		return -1;
	}
	if (strncmp(a, "--heap-budget=", 14) == 0) {
		if (ldecl_bytes(a + 14, &o->heap_bytes) == 0)
			return 1;
		fprintf(stderr, "rxbench report: %s: not a size such as "
			"16MiB\n", a);
		return -1;
	}
	return 0;
}

/* Results from before layouts were recorded (or Go text) get the
 * layout of the suite of that name, when this rxbench has it. */
static int layouts_fill(struct results *res)
{
	struct strlist suites = {0};
	int rc = view_suites(res, &suites);

	for (size_t s = 0; rc == 0 && s < suites.n; s++) {
		const struct suite *st = suite_find(suites.s[s]);
		if (st != NULL)
			rc = suite_layout_fill(st, res);
	}
	strlist_release(&suites);
	return rc;
}

int cmd_report(int argc, char **argv)
{
	const char *in = NULL, *out = NULL, *fmt = NULL;
	const struct format *f;
	struct report_in rin = {0};
	struct results *res = &rin.res;
	char err[512];
	int status = EXIT_USAGE;

	if (cli_report_runs(argc, argv))
		return cmd_report_runs(argc, argv); /* several runs */
	for (int i = 1; i < argc;) {
		int used = cli_output_option(argv, i, argc, &fmt, &out);
		if (used == 0)
			used = budget_option(argv[i], &rin.opts);
		if (used < 0)
			return EXIT_USAGE;
		if (used > 0) {
			i += used;
			continue;
		}
		if (strcmp(argv[i], "-h") == 0 || strcmp(argv[i], "--help") == 0) {
			report_usage(stdout);
			return EXIT_OK;
		}
		if ((argv[i][0] == '-' && argv[i][1] != '\0') || in != NULL) {
			fprintf(stderr, "rxbench report: unexpected argument "
				"'%s' (see rxbench report --help)\n", argv[i]);
			return EXIT_USAGE;
		}
		in = argv[i++];
	}
	if (in == NULL) {
		report_usage(stderr);
		return EXIT_USAGE;
	}
	if (cli_output_not_dir("report", out) != 0)
		return EXIT_USAGE;
	f = fmt ? format_find(fmt) : format_of_path(out);
	if (f == NULL && fmt != NULL) {
		fprintf(stderr, "rxbench report: --format=%s: use text, csv, "
			"md, html or json\n", fmt);
		return EXIT_USAGE;
	}
	if (f == NULL) {
		fprintf(stderr, "rxbench report: -o %s: no format writes that "
			"extension; use .txt, .csv, .md, .html or .json (or "
			"--format=F)\n", out);
		return EXIT_USAGE;
	}
	results_init(res);
	if (report_load(in, res, err, sizeof(err)) != 0) {
		fprintf(stderr, "rxbench: %s\n", err);
		goto out;
	}
	if (layouts_fill(res) != 0) {
		fprintf(stderr, "rxbench: out of memory\n");
		goto out;
	}
	if (report_save_atomic(out ? out : "-", f->write, &rin) != 0) {
		fprintf(stderr, "rxbench: %s: %s\n", out ? out : "<stdout>",
			strerror(errno));
		goto out;
	}
	status = EXIT_OK;
out:
	results_release(res);
	return status;
}

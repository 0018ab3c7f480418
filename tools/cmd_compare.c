/*
 * cmd_compare.c - `rxbench compare A B [C ...] [--threshold=5%]`: what
 * changed between runs (JSON results or Go text; a directory stands for
 * its *.json files), benchstat-style, every run against the first; with a
 * threshold, exit status 1 on a regression (report/compare.h).
 */
#include "tools/cli.h"

#include "report/compare.h"
#include "report/io.h"

#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static void compare_usage(FILE *f)
{
	fprintf(f,
		"usage: rxbench compare A B [C ...] [--threshold=5%%] [--alpha=0.05]\n"
		"                       [--col KEY] [--row KEY,...] [--show-changed-inputs]\n"
		"                       [--format=text|md|html] [-o FILE]\n\n"
		"Compares runs (JSON results files, Go benchmark text, or a\n"
		"directory of *.json): per benchmark and metric each run's\n"
		"median ± 95%% CI and, against the first, the change and the\n"
		"Mann-Whitney U test p-value (>= 4 samples a side; ~ when not\n"
		"significant at --alpha).  Exact metrics and instruction counts\n"
		"are compared directly.  A benchmark whose recorded inputs\n"
		"(pattern, flags, corpus sha256, ...) differ between runs is\n"
		"refused (exit 2), naming the benchmark and the input.\n\n"
		"  --threshold=P%%  exit 1 when a benchmark got worse by more\n"
		"                  than P%% with significance (exact metrics:\n"
		"                  changed by more than P%%), or newly fails;\n"
		"                  P is a percentage, the %% optional (0.5 is\n"
		"                  half a percent, not half)\n"
		"  --col KEY       columns by a name key (engine), a context key\n"
		"                  (host, cpu, kernel, version) or file; one\n"
		"                  file with --col engine compares its engines\n"
		"                  (benchstat's spelling too: /engine, .file)\n"
		"  --row KEY,...   rows by these keys (default: the name\n"
		"                  without the --col key)\n"
		"  --show-changed-inputs\n"
		"                  compare pairs whose inputs differ, marked and\n"
		"                  listed; they never count as regressions\n"
		"  --format=md     Markdown, for a pull-request comment\n"
		"  --format=html   one offline page: what changed per column,\n"
		"                  a chart per metric with a colour per column\n"
		"Exit status: 0 ok, 1 regression (with --threshold), 2 bad "
		"input.\n");
}

/* "compare", or "report" of several runs: the name in messages. */
static const char *cmd_name = "compare";

/* A number in [lo, hi] with an optional trailing '%'.  0 or -1. */
static int parse_fraction(const char *opt, const char *s, double lo,
			  double hi, int percent, double *out)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(s, &end);
	if (end != s && percent && *end == '%')
		end++;
	if (end == s || *end != '\0' || errno != 0 || !isfinite(v) || v < lo ||
	    v > hi || strpbrk(s, "xX") != NULL) {
		fprintf(stderr, "rxbench: --%s=%s: use a number between %g "
			"and %g%s\n", opt, s, lo, hi, percent ? "%" : "");
		return -1;
	}
	*out = percent ? v / 100 : v;
	return 0;
}

/*
 * The value of --name=V or --name V at argv[i] into *v: the arguments
 * used (1 or 2), 0 when argv[i] is not --name, -1 after a message when
 * the value is missing.
 */
static int option_value(char **argv, int i, int argc, const char *name,
			const char **v)
{
	size_t n = strlen(name);

	if (strncmp(argv[i], name, n) != 0 ||
	    (argv[i][n] != '=' && argv[i][n] != '\0'))
		return 0;
	if (argv[i][n] == '=') {
		*v = argv[i] + n + 1;
		return 1;
	}
	if (i + 1 >= argc) {
		fprintf(stderr, "rxbench %s: %s needs a value\n", cmd_name, name);
		return -1;
	}
	*v = argv[i + 1];
	return 2;
}

/* --threshold / --alpha (=V or a separate V); args used, 0 when not
 * ours, -1 on error. */
static int compare_option(struct compare_opts *o, char **argv, int i,
			  int argc)
{
	const char *a = argv[i], *v;
	int used = option_value(argv, i, argc, "--threshold", &v);

	if (used > 0) {
		o->gate = 1;
		return parse_fraction("threshold", v, 0, 1000, 1,
				      &o->threshold) == 0 ? used : -1;
	}
	if (used == 0)
		used = option_value(argv, i, argc, "--alpha", &v);
	if (used > 0)
		return parse_fraction("alpha", v, 1e-9, 0.5, 0,
				      &o->alpha) == 0 ? used : -1;
	if (used < 0)
		return -1;
	if (strcmp(a, "--show-changed-inputs") == 0) {
		o->show_changed_inputs = 1;
		return 1;
	}
	return 0;
}

/*
 * keys (KEY or KEY,KEY...) in rxbench's spelling, into buf: benchstat's
 * /KEY of a name key is KEY, its .file is file (`-col /engine` read as
 * one writes it for benchstat).  NULL when buf is too small.
 */
static const char *keys_plain(const char *keys, char *buf, size_t size)
{
	size_t at = 0;

	buf[0] = '\0';
	while (*keys != '\0') {
		size_t n = strcspn(keys, ",");
		const char *k = keys + (keys[0] == '/' && n > 1);
		size_t len = n - (size_t)(k - keys);
		int w;

		if (len == 5 && strncmp(k, ".file", 5) == 0) {
			k++;
			len--;
		}
		w = snprintf(buf + at, size - at, "%s%.*s", at ? "," : "",
			     (int)len, k);
		if (w < 0 || (size_t)w >= size - at)
			return NULL;
		at += (size_t)w;
		keys += n + (keys[n] == ',');
	}
	return buf;
}

/* Whether keys (KEY,KEY...) has an empty one: ",x", "x,,y", "x,". */
static int keys_empty(const char *keys)
{
	size_t n = strlen(keys);

	return n == 0 || keys[0] == ',' || keys[n - 1] == ',' ||
	       strstr(keys, ",,") != NULL;
}

/* --col KEY / --row KEYS, as --opt=V or --opt V.  Args used, 0, -1. */
static int key_option(struct compare_opts *o, char **argv, int i, int argc)
{
	static const char *const names[] = {"--col", "--row"};
	static char plain[2][512]; /* the options' values, once a run */

	for (int k = 0; k < 2; k++) {
		const char *v = NULL;
		int used = option_value(argv, i, argc, names[k], &v);
		if (used == 0)
			continue;
		if (used < 0 || *v == '\0') {
			if (used > 0)
				fprintf(stderr, "rxbench %s: %s needs a key "
					"(engine, host, version, file, ...)\n",
					cmd_name, names[k]);
			return -1;
		}
		if (keys_empty(v)) {
			fprintf(stderr, "rxbench %s: %s '%s': an empty key "
				"(keys are joined by ',': --row engine,pattern)"
				"\n", cmd_name, names[k], v);
			return -1;
		}
		v = keys_plain(v, plain[k], sizeof(plain[k]));
		if (v == NULL) {
			fprintf(stderr, "rxbench %s: %s: too many keys\n",
				cmd_name, names[k]);
			return -1;
		}
		*(k == 0 ? &o->col : &o->row) = v;
		return used;
	}
	return 0;
}

static int write_text(FILE *f, const void *arg)
{
	return compare_write_text(f, arg);
}

static int write_md(FILE *f, const void *arg)
{
	return compare_write_md(f, arg);
}

static int write_html(FILE *f, const void *arg)
{
	return compare_write_html(f, arg);
}

/* The writer of --format (text, md, html), or NULL. */
static report_write_fn writer_of(const char *fmt)
{
	return strcmp(fmt, "text") == 0 ? write_text
	       : strcmp(fmt, "md") == 0 ? write_md
	       : strcmp(fmt, "html") == 0 ? write_html
					  : NULL;
}

/* The format -o's extension names (.txt, .md, .html); text when it has
 * none; NULL for an extension no writer has (-o x.xlsx). */
static const char *format_of_out(const char *out)
{
	const char *base = out ? strrchr(out, '/') : NULL;
	const char *dot = out ? strrchr(base ? base + 1 : out, '.') : NULL;

	if (dot == NULL || dot == (base ? base + 1 : out) ||
	    strcmp(dot, ".txt") == 0)
		return "text";
	if (strcmp(dot, ".md") == 0)
		return "md";
	if (strcmp(dot, ".html") == 0)
		return "html";
	return NULL;
}

/* The files to compare, a directory read as its *.json (sorted). */
struct file_list {
	char **v;
	size_t n;
};

static int file_add(struct file_list *l, const char *path)
{
	char **grown = realloc(l->v, (l->n + 1) * sizeof(*grown));

	if (grown == NULL)
		return -1;
	l->v = grown;
	l->v[l->n] = strdup(path);
	return l->v[l->n++] == NULL ? -1 : 0;
}

static int is_results_name(const struct dirent *d)
{
	size_t n = strlen(d->d_name);

	return d->d_name[0] != '.' && n > 5 &&
	       strcmp(d->d_name + n - 5, ".json") == 0;
}

/* path, or the *.json files of directory path.  0 or -1 (said why). */
static int file_expand(struct file_list *l, const char *path)
{
	struct dirent **names = NULL;
	struct stat st;
	int n, rc = 0;

	if (stat(path, &st) != 0 || !S_ISDIR(st.st_mode))
		return file_add(l, path);
	n = scandir(path, &names, is_results_name, alphasort);
	if (n <= 0) {
		fprintf(stderr, "rxbench %s: %s: no *.json results in "
			"the directory\n", cmd_name, path);
		free(names);
		return -1;
	}
	for (int i = 0; i < n; i++) {
		char full[4096];
		snprintf(full, sizeof(full), "%s/%s", path, names[i]->d_name);
		rc |= file_add(l, full);
		free(names[i]);
	}
	free(names);
	return rc;
}

static void file_list_release(struct file_list *l)
{
	for (size_t i = 0; i < l->n; i++)
		free(l->v[i]);
	free(l->v);
}

/* Parse the command line into o, files, format and output.  0 or -1. */
static int compare_args(int argc, char **argv, struct compare_opts *o,
			struct file_list *files, const char **fmt,
			const char **out)
{
	for (int i = 1; i < argc;) {
		int used = cli_output_option(argv, i, argc, fmt, out);
		if (used == 0)
			used = compare_option(o, argv, i, argc);
		if (used == 0)
			used = key_option(o, argv, i, argc);
		if (used < 0)
			return -1;
		if (used > 0) {
			i += used;
			continue;
		}
		if (argv[i][0] == '-' && argv[i][1] != '\0') {
			fprintf(stderr, "rxbench %s: unexpected argument "
				"'%s' (see rxbench %s --help)\n", cmd_name,
				argv[i], cmd_name);
			return -1;
		}
		if (file_expand(files, argv[i++]) != 0)
			return -1;
	}
	if (files->n == 0) {
		compare_usage(stderr);
		return -1;
	}
	if (files->n < (o->col ? 1u : 2u)) {
		fprintf(stderr, "rxbench %s: %s is one run: name another to "
			"compare it with, or compare its engines with --col "
			"engine\n", cmd_name, files->v[0]);
		return -1;
	}
	if (cli_output_not_dir(cmd_name, *out) != 0)
		return -1;
	if (*fmt == NULL)
		*fmt = format_of_out(*out);
	if (*fmt == NULL) {
		fprintf(stderr, "rxbench %s: -o %s: no format writes that "
			"extension; use .txt, .md or .html (or --format=F)\n",
			cmd_name, *out);
		return -1;
	}
	if (writer_of(*fmt) == NULL) {
		fprintf(stderr, "rxbench %s: --format=%s: use text, md or "
			"html%s\n", cmd_name, *fmt,
			strcmp(cmd_name, "report") == 0
				? " (several runs are reported as compare shows them)"
				: "");
		return -1;
	}
	return 0;
}

/*
 * compare, or report of several runs (`report`: the same tables without
 * a verdict; --threshold is compare's).
 */
static int compare_main(int argc, char **argv, int report)
{
	struct compare_opts o;
	struct file_list files = {0};
	struct results *res = NULL;
	struct compare_input *in = NULL;
	struct comparison cmp = {0};
	const char *fmt = NULL, *out = NULL;
	char err[512];
	int status = EXIT_USAGE, rc;

	for (int i = 1; i < argc; i++) {
		if (strcmp(argv[i], "-h") == 0 || strcmp(argv[i], "--help") == 0) {
			compare_usage(stdout);
			return EXIT_OK;
		}
	}
	cmd_name = report ? "report" : "compare";
	compare_opts_init(&o);
	if (compare_args(argc, argv, &o, &files, &fmt, &out) != 0)
		goto out;
	o.report = report;
	if (report && o.gate) {
		fprintf(stderr, "rxbench report: --threshold is compare's: "
			"`rxbench compare` gives the verdict\n");
		goto out;
	}
	res = calloc(files.n, sizeof(*res));
	in = calloc(files.n, sizeof(*in));
	if (res == NULL || in == NULL)
		goto oom;
	for (size_t i = 0; i < files.n; i++) {
		results_init(&res[i]);
		in[i] = (struct compare_input){files.v[i], &res[i]};
		if (report_load(files.v[i], &res[i], err, sizeof(err)) != 0) {
			fprintf(stderr, "rxbench: %s\n", err);
			goto out;
		}
	}
	rc = compare_runs(in, files.n, &o, &cmp);
	if (rc == -2) {
		fprintf(stderr, "rxbench %s: %s\n",
			report ? "report" : "compare", cmp.err);
		goto out;
	}
	if (rc != 0)
		goto oom;
	if (report_save_atomic(out ? out : "-", writer_of(fmt), &cmp) != 0) {
		fprintf(stderr, "rxbench: %s: %s\n", out ? out : "<stdout>",
			strerror(errno));
		goto out;
	}
	status = compare_failed(&cmp) ? EXIT_FAILED : EXIT_OK;
	goto out;
oom:
	fprintf(stderr, "rxbench: out of memory\n");
out:
	comparison_release(&cmp);
	for (size_t i = 0; res != NULL && i < files.n; i++)
		results_release(&res[i]);
	free(res);
	free(in);
	file_list_release(&files);
	return status;
}

int cmd_compare(int argc, char **argv)
{
	return compare_main(argc, argv, 0);
}

int cmd_report_runs(int argc, char **argv)
{
	return compare_main(argc, argv, 1);
}

int cli_report_runs(int argc, char **argv)
{
	const char *fmt = NULL, *out = NULL;
	int files = 0;

	for (int i = 1; i < argc;) {
		int used;
		struct stat st;
		if (i + 1 == argc && cli_output_takes_next(argv[i]))
			break; /* -o without its file: said once, where parsed */
		used = cli_output_option(argv, i, argc, &fmt, &out);
		if (used > 0) {
			i += used;
			continue;
		}
		if (strncmp(argv[i], "--col", 5) == 0 ||
		    strncmp(argv[i], "--row", 5) == 0 ||
		    strcmp(argv[i], "--show-changed-inputs") == 0)
			return 1;
		if (argv[i][0] != '-' && stat(argv[i], &st) == 0 &&
		    S_ISDIR(st.st_mode))
			return 1;
		files += argv[i][0] != '-' || argv[i][1] == '\0';
		i++;
	}
	return files > 1;
}

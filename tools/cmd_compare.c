/*
 * cmd_compare.c - `rxbench compare OLD NEW [--threshold=5%]`: what changed
 * between two runs (JSON results or Go text), benchstat-style; with a
 * threshold, exit status 1 on a regression (report/compare.h).
 */
#include "tools/cli.h"

#include "report/compare.h"
#include "report/io.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void compare_usage(FILE *f)
{
	fprintf(f,
		"usage: rxbench compare OLD NEW [--threshold=5%%] [--alpha=0.05]\n"
		"                       [--format=text|md] [-o FILE]\n\n"
		"Compares two runs (JSON results files or Go benchmark text):\n"
		"per benchmark and metric the old and new median ± 95%% CI, the\n"
		"change, and the Mann-Whitney U test p-value (>= 4 samples a\n"
		"side; ~ when not significant at --alpha).  Exact metrics and\n"
		"instruction counts are compared directly.\n\n"
		"  --threshold=P%%  exit 1 when a benchmark got worse by more\n"
		"                  than P%% with significance (exact metrics:\n"
		"                  changed by more than P%%), or newly fails\n"
		"  --format=md     Markdown, for a pull-request comment\n"
		"Exit status: 0 ok, 1 regression (with --threshold), 2 bad "
		"input.\n");
}

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

/* --threshold / --alpha; args used, 0 when not ours, -1 on error. */
static int compare_option(struct compare_opts *o, const char *a)
{
	if (strncmp(a, "--threshold=", 12) == 0) {
		o->gate = 1;
		return parse_fraction("threshold", a + 12, 0, 1000, 1,
				      &o->threshold) == 0 ? 1 : -1;
	}
	if (strncmp(a, "--alpha=", 8) == 0)
		return parse_fraction("alpha", a + 8, 1e-9, 0.5, 0,
				      &o->alpha) == 0 ? 1 : -1;
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

/* Parse the command line into o, files, format and output.  0 or -1. */
static int compare_args(int argc, char **argv, struct compare_opts *o,
			const char *files[2], const char **fmt,
			const char **out)
{
	int nfiles = 0;

	for (int i = 1; i < argc;) {
		int used = cli_output_option(argv, i, argc, fmt, out);
		if (used == 0)
			used = compare_option(o, argv[i]);
		if (used < 0)
			return -1;
		if (used > 0) {
			i += used;
			continue;
		}
		if ((argv[i][0] == '-' && argv[i][1] != '\0') || nfiles == 2) {
			fprintf(stderr, "rxbench compare: unexpected argument "
				"'%s'\n", argv[i]);
			return -1;
		}
		files[nfiles++] = argv[i++];
	}
	if (nfiles != 2) {
		compare_usage(stderr);
		return -1;
	}
	if (strcmp(*fmt, "text") != 0 && strcmp(*fmt, "md") != 0) {
		fprintf(stderr, "rxbench compare: --format=%s: use text or "
			"md\n", *fmt);
		return -1;
	}
	return 0;
}

int cmd_compare(int argc, char **argv)
{
	struct compare_opts o;
	struct results old, new;
	struct comparison cmp = {0};
	const char *files[2] = {NULL, NULL}, *fmt = "text", *out = NULL;
	char err[512];
	int status = EXIT_USAGE;

	for (int i = 1; i < argc; i++) {
		if (strcmp(argv[i], "-h") == 0 || strcmp(argv[i], "--help") == 0) {
			compare_usage(stdout);
			return EXIT_OK;
		}
	}
	compare_opts_init(&o);
	if (compare_args(argc, argv, &o, files, &fmt, &out) != 0)
		return EXIT_USAGE;
	o.old_name = files[0];
	o.new_name = files[1];
	results_init(&old);
	results_init(&new);
	if (report_load(files[0], &old, err, sizeof(err)) != 0 ||
	    report_load(files[1], &new, err, sizeof(err)) != 0) {
		fprintf(stderr, "rxbench: %s\n", err);
		goto out;
	}
	if (compare_results(&old, &new, &o, &cmp) != 0) {
		fprintf(stderr, "rxbench: out of memory\n");
		goto out;
	}
	if (report_save_atomic(out ? out : "-",
			       strcmp(fmt, "md") == 0 ? write_md : write_text,
			       &cmp) != 0) {
		fprintf(stderr, "rxbench: %s: %s\n", out ? out : "<stdout>",
			strerror(errno));
		goto out;
	}
	status = compare_failed(&cmp) ? EXIT_FAILED : EXIT_OK;
out:
	comparison_release(&cmp);
	results_release(&old);
	results_release(&new);
	return status;
}

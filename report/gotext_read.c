/*
 * gotext_read.c - Go benchmark text reader (see gotext_read.h).
 *
 * Line by line over the buffer; each line is copied (bounded) into a
 * scratch string so the field splitting can use C string functions.
 */
#include "report/gotext_read.h"

#include "report/gofmt.h"

#include "corpora/file.h"
#include "engines/pattern.h" /* engine_utf8_invalid */

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SUITES_PREFIX "rxbench/suites/"
#define MAX_FIELDS 256

struct unit_meta {
	char *unit;
	enum metric_better better;
};

struct gt {
	const char *name;
	char *err;
	size_t errsize;
	size_t line;
	struct results *res;
	char *suite;              /* from the last pkg line, or NULL */
	struct result *pending;   /* the FAIL/SKIP block being read */
	int pending_skip;
	struct unit_meta *units;  /* Unit lines */
	size_t nunits;
	int started;              /* a significant line has been read */
};

__attribute__((format(printf, 2, 3)))
static int gt_fail(struct gt *g, const char *fmt, ...)
{
	char msg[256];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	snprintf(g->err, g->errsize, "%s:%zu: %s", g->name, g->line, msg);
	msg_escape_controls(g->err, g->errsize);
	return -1;
}

void gotext_strip_procs(char *name)
{
	size_t n = strlen(name), i = n;

	while (i > 0 && isdigit((unsigned char)name[i - 1]))
		i--;
	if (i < n && i > 1 && name[i - 1] == '-')
		name[i - 1] = '\0';
}

/* Split s in place on blanks; returns the number of fields. */
static size_t split_fields(char *s, char **f, size_t max)
{
	size_t n = 0;
	char *save = NULL;

	for (char *t = strtok_r(s, " \t", &save); t != NULL && n < max;
	     t = strtok_r(NULL, " \t", &save))
		f[n++] = t;
	return n;
}

/* The better direction benchstat assumes for a unit without a Unit line. */
static enum metric_better default_better(const char *unit)
{
	size_t n = strlen(unit);

	if (n > 2 && strcmp(unit + n - 2, "/s") == 0)
		return BETTER_HIGHER;
	return BETTER_LOWER;
}

/*
 * The suite for a benchmark name when no pkg line said.  rxbench's names
 * start with their suite ("FQDN/..." -> fqdn); other Go text (go test
 * without its pkg line) is one suite, "benchmarks", whatever the names.
 */
static int name_suite(const struct gt *g, const char *name, char *buf,
		      size_t size)
{
	size_t n = strcspn(name, "/");

	if (results_config_get(g->res, "rxbench-version") == NULL) {
		snprintf(buf, size, "benchmarks");
		return 0;
	}
	if (n >= size)
		n = size - 1;
	for (size_t i = 0; i < n; i++)
		buf[i] = (char)tolower((unsigned char)name[i]);
	buf[n] = '\0';
	return 0;
}

/* "BenchmarkX..." with X not a lower-case letter (Go's rule). */
static int is_bench_name(const char *f)
{
	return strncmp(f, "Benchmark", 9) == 0 && f[9] != '\0' &&
	       !islower((unsigned char)f[9]);
}

static int parse_value(struct gt *g, const char *s, double *v)
{
	char *end;

	*v = strtod(s, &end);
	if (end == s || *end != '\0' || !isfinite(*v))
		return gt_fail(g, "value \"%.40s\" is not a number", s);
	return 0;
}

/* A value of unit: a number, and no negative time (a clock's reading
 * is 0 or more: -2.5 ns/op made 12.5 "faster"). */
static int parse_measure(struct gt *g, const char *s, const char *unit,
			 double *v)
{
	if (parse_value(g, s, v) != 0)
		return -1;
	if (*v < 0 && metric_unit_time(unit))
		return gt_fail(g, "%.40s of %.40s is negative: a time is 0 or "
			       "more", unit, s);
	return 0;
}

static int parse_iters(struct gt *g, const char *s, uint64_t *v)
{
	char *end;
	unsigned long long n;

	if (!isdigit((unsigned char)s[0]))
		return gt_fail(g, "iteration count \"%.40s\" is not a "
			       "number", s);
	errno = 0;
	n = strtoull(s, &end, 10);
	/* testing.B's N is a Go int: at most INT64_MAX (JSON's range too) */
	if (*end != '\0' || errno != 0 || n > INT64_MAX)
		return gt_fail(g, "iteration count \"%.40s\" is not a "
			       "number in range", s);
	*v = n;
	return 0;
}

/* One benchmark result line, already split into f[0..n). */
static int bench_line(struct gt *g, char **f, size_t n)
{
	char suite[128];
	char *name = f[0] + 9;
	struct result *r;
	uint64_t iters = 0;

	if (n == 1)
		return 0; /* `go test -v` prints the bare name first */
	if (parse_iters(g, f[1], &iters) != 0)
		return -1;
	if (n % 2 != 0)
		return gt_fail(g, "value \"%.40s\" has no unit", f[n - 1]);
	gotext_strip_procs(name);
	if (g->suite == NULL)
		name_suite(g, name, suite, sizeof(suite));
	r = results_add(g->res, g->suite ? g->suite : suite, name);
	if (r == NULL || result_sample_begin(r, iters) < 0)
		return gt_fail(g, "out of memory");
	for (size_t i = 2; i + 1 < n; i += 2) {
		double v;
		if (parse_measure(g, f[i], f[i + 1], &v) != 0)
			return -1;
		if (result_metric_add(r, f[i + 1], default_better(f[i + 1]),
				      v) != 0)
			return gt_fail(g, "out of memory");
	}
	return 0;
}

/* "Unit UNIT key=value ..." */
static int unit_line(struct gt *g, char **f, size_t n)
{
	enum metric_better b;
	struct unit_meta *grown;
	int set = 0;

	if (n < 2)
		return gt_fail(g, "Unit line without a unit");
	b = default_better(f[1]);
	for (size_t i = 2; i < n; i++) {
		if (strcmp(f[i], "better=higher") == 0)
			b = BETTER_HIGHER, set = 1;
		else if (strcmp(f[i], "better=lower") == 0)
			b = BETTER_LOWER, set = 1;
		else if (strcmp(f[i], "assume=exact") == 0)
			b = BETTER_EXACT, set = 1;
	}
	if (!set)
		return 0;
	grown = realloc(g->units, (g->nunits + 1) * sizeof(*grown));
	if (grown == NULL)
		return gt_fail(g, "out of memory");
	g->units = grown;
	g->units[g->nunits].unit = strdup(f[1]);
	if (g->units[g->nunits].unit == NULL)
		return gt_fail(g, "out of memory");
	g->units[g->nunits++].better = b;
	return 0;
}

/* "--- FAIL: BenchmarkX ..." / "--- SKIP: ...": start a status block. */
static int status_line(struct gt *g, char *line)
{
	int skip = strncmp(line, "--- SKIP: ", 10) == 0;
	char *f[2];
	char suite[128];
	struct result *r;

	if (split_fields(line + 10, f, 2) == 0 || !is_bench_name(f[0]))
		return 0; /* a test, not a benchmark */
	gotext_strip_procs(f[0] + 9);
	if (g->suite == NULL)
		name_suite(g, f[0] + 9, suite, sizeof(suite));
	r = results_add(g->res, g->suite ? g->suite : suite, f[0] + 9);
	if (r == NULL)
		return gt_fail(g, "out of memory");
	r->status = skip ? RESULT_UNSUPPORTED : RESULT_ERROR;
	free(r->message);
	r->message = NULL;
	g->pending = r;
	g->pending_skip = skip;
	return 0;
}

/*
 * "--- UNVERIFIED: BenchmarkX": X was timed without verification
 * (--allow-unverified); its indented reason is not kept.
 */
static int unverified_line(struct gt *g, char *rest)
{
	char *f[2];
	struct result *r;

	if (split_fields(rest, f, 2) == 0 || !is_bench_name(f[0]))
		return 0;
	gotext_strip_procs(f[0] + 9);
	r = results_find(g->res, f[0] + 9);
	if (r != NULL)
		r->unverified = 1;
	return 0;
}

/* An indented line after a FAIL/SKIP line: part of its message. */
static int status_message(struct gt *g, const char *text)
{
	struct result *r = g->pending;
	const char *colon = strstr(text, ": ");
	char *msg;
	size_t old = r->message ? strlen(r->message) : 0;

	if (r->message == NULL && colon != NULL) {
		char st[32];
		size_t n = (size_t)(colon - text);
		int s = -1;
		if (n < sizeof(st)) {
			memcpy(st, text, n);
			st[n] = '\0';
			s = result_status_parse(st);
		}
		if (s > 0) {
			r->status = (enum result_status)s;
			text = colon + 2;
		}
	}
	msg = realloc(r->message, old + strlen(text) + 2);
	if (msg == NULL)
		return gt_fail(g, "out of memory");
	if (old > 0)
		msg[old++] = '\n';
	strcpy(msg + old, text);
	r->message = msg;
	return 0;
}

/* The colon of a Go config line ("key: value", a key of lower case first
 * and no blanks or upper case), or NULL when line is not one. */
static char *config_colon(char *line)
{
	char *colon = strchr(line, ':');

	if (colon == NULL || colon == line || !islower((unsigned char)line[0]))
		return NULL;
	for (char *c = line; c < colon; c++)
		if (isspace((unsigned char)*c) || isupper((unsigned char)*c))
			return NULL;
	if (colon[1] != '\0' && colon[1] != ' ' && colon[1] != '\t')
		return NULL;
	return colon;
}

/*
 * "key: value" with a Go config key.  1 when the line was one, 0 when
 * not, -1 on error.
 */
static int config_line(struct gt *g, char *line)
{
	char *colon = config_colon(line);
	char *v;

	if (colon == NULL)
		return 0;
	*colon = '\0';
	if (engine_utf8_invalid(line, (size_t)(colon - line)) >= 0)
		return gt_fail(g, "configuration key is not UTF-8");
	for (v = colon + 1; *v == ' ' || *v == '\t'; v++)
		;
	for (char *e = v + strlen(v); e > v && (e[-1] == ' ' || e[-1] == '\t');)
		*--e = '\0'; /* benchfmt trims the value */
	if (strcmp(line, "interrupted") == 0) { /* what rxbench before 0.2 printed */
		g->res->interrupted = 1;
		return 1;
	}
	if (strcmp(line, "pkg") == 0) {
		size_t plen = strlen(SUITES_PREFIX);
		free(g->suite);
		g->suite = strdup(strncmp(v, SUITES_PREFIX, plen) == 0 ? v + plen
								       : v);
		return g->suite ? 1 : gt_fail(g, "out of memory");
	}
	return results_config_set(g->res, line, v) == 0
		       ? 1
		       : gt_fail(g, "out of memory");
}

/*
 * Does the first significant line say this is Go benchmark text: a
 * config line ("goos: linux"), a benchmark line, or what go test prints
 * around them (PASS, FAIL, ok, ---, ===, ?, Unit)?  Prose (a README with
 * benchmark lines quoted in it) is not: benchfmt would read its quoted
 * lines, rxbench refuses the file, naming it.
 */
static int go_text_start(char *line)
{
	static const char *const starts[] = {"Benchmark", "PASS", "FAIL",
					     "ok ", "ok\t", "--- ", "=== ",
					     "?", "Unit", "testing: "};

	for (size_t i = 0; i < sizeof(starts) / sizeof(starts[0]); i++)
		if (strncmp(line, starts[i], strlen(starts[i])) == 0)
			return 1;
	return config_colon(line) != NULL;
}

static int one_line(struct gt *g, char *line)
{
	char *f[MAX_FIELDS];
	size_t n;
	int rc;

	if (!g->started && line[strspn(line, " \t")] != '\0') {
		if (!go_text_start(line))
			return gt_fail(g, "neither an rxbench results file (JSON) "
				       "nor Go benchmark text (it starts "
				       "\"%.40s\"; go test -bench prints "
				       "\"goos: ...\" or \"Benchmark...\")",
				       line);
		g->started = 1;
	}

	if (g->pending != NULL && (line[0] == ' ' || line[0] == '\t')) {
		while (*line == ' ' || *line == '\t')
			line++;
		return status_message(g, line);
	}
	g->pending = NULL;
	if (strncmp(line, "--- UNVERIFIED: ", 16) == 0)
		return unverified_line(g, line + 16);
	if (strncmp(line, GOFMT_INTERRUPTED, strlen(GOFMT_INTERRUPTED)) == 0) {
		g->res->interrupted = 1;
		return 0;
	}
	if (strncmp(line, "--- FAIL: ", 10) == 0 ||
	    strncmp(line, "--- SKIP: ", 10) == 0)
		return status_line(g, line);
	rc = config_line(g, line);
	if (rc != 0)
		return rc < 0 ? -1 : 0;
	n = split_fields(line, f, MAX_FIELDS);
	if (n == MAX_FIELDS)
		return gt_fail(g, "more than %d fields", MAX_FIELDS - 1);
	if (n > 0 && is_bench_name(f[0]))
		return bench_line(g, f, n);
	if (n > 0 && strcmp(f[0], "Unit") == 0)
		return unit_line(g, f, n);
	return 0;
}

/* Apply the Unit lines to every metric of that unit. */
static void apply_units(struct gt *g)
{
	for (size_t u = 0; u < g->nunits; u++)
		for (size_t i = 0; i < g->res->n; i++)
			for (size_t k = 0; k < g->res->r[i].nm; k++)
				if (strcmp(g->res->r[i].m[k].unit,
					   g->units[u].unit) == 0)
					g->res->r[i].m[k].better =
						g->units[u].better;
}

int gotext_read_results(const char *text, size_t len, const char *name,
			struct results *res, char *err, size_t errsize)
{
	struct gt g = {name, err, errsize, 0, res, NULL, NULL, 0, NULL, 0, 0};
	char *line = NULL;
	size_t cap = 0;
	int rc = 0;

	if (errsize > 0)
		err[0] = '\0';
	if (len >= 3 && memcmp(text, "\xef\xbb\xbf", 3) == 0) {
		text += 3; /* a UTF-8 byte order mark (a Windows editor's) */
		len -= 3;
	}
	for (size_t pos = 0; pos < len && rc == 0;) {
		const char *nl = memchr(text + pos, '\n', len - pos);
		size_t n = nl ? (size_t)(nl - (text + pos)) : len - pos;
		g.line++;
		if (n + 1 > cap) {
			char *grown = realloc(line, n + 1);
			if (grown == NULL) {
				rc = gt_fail(&g, "out of memory");
				break;
			}
			line = grown;
			cap = n + 1;
		}
		memcpy(line, text + pos, n);
		line[n] = '\0';
		if (n > 0 && line[n - 1] == '\r')
			line[n - 1] = '\0';
		rc = one_line(&g, line);
		pos += n + 1;
	}
	if (rc == 0)
		apply_units(&g);
	for (size_t i = 0; i < g.nunits; i++)
		free(g.units[i].unit);
	free(g.units);
	free(g.suite);
	free(line);
	return rc;
}

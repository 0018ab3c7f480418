/*
 * summary.c - statistics and complexity tables (see summary.h).
 */
#include "report/summary.h"

#include "harness/complexity.h"
#include "report/compare_stats.h"
#include "report/gofmt.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

const char *const summary_size_keys[] = {"domains", "size"};
const size_t summary_nsize_keys =
	sizeof(summary_size_keys) / sizeof(summary_size_keys[0]);

const char *summary_unit(const struct result *r)
{
	if (result_metric(r, "ns/op") != NULL)
		return "ns/op";
	if (result_metric(r, "instr/op") != NULL)
		return "instr/op";
	return NULL;
}

static int width_of(const struct results *res, const char *suite)
{
	size_t w = 4;

	for (size_t i = 0; i < res->n; i++)
		if (strcmp(res->r[i].suite, suite) == 0 &&
		    res->r[i].nsamples > 0 && strlen(res->r[i].name) > w)
			w = strlen(res->r[i].name);
	return (int)w;
}

/* Confidence of the interval printed (benchstat's default). */
#define SUMMARY_CONFIDENCE 0.95

/* Median, interval, min and max of the metric; 0, or -1 when no value. */
static int metric_summary(const struct metric *m, struct stats_summary *s)
{
	if (m == NULL || stats_summarize(m->v, m->n, SUMMARY_CONFIDENCE, s) != 0)
		return -1;
	return s->n > 0 ? 0 : -1;
}

/* The CI column: "[lo, hi]", or why there is none. */
static void ci_text(const struct stats_summary *s, const char *unit,
		    char *buf, size_t size)
{
	char lo[32], hi[32];

	if (!isfinite(s->lo) || !isfinite(s->hi)) {
		snprintf(buf, size, "n/a (n=%zu < %zu)", s->n,
			 stats_ci_min_samples(SUMMARY_CONFIDENCE));
		return;
	}
	gofmt_number(s->lo, unit, lo, sizeof(lo));
	gofmt_number(s->hi, unit, hi, sizeof(hi));
	snprintf(buf, size, "[%s, %s]", lo, hi);
}

static void stats_row(FILE *out, const struct result *r, int width)
{
	const char *unit = summary_unit(r);
	const struct metric *m = unit ? result_metric(r, unit) : NULL;
	char med[32], mn[32], mx[32], ci[80];
	const char *mark;
	struct stats_summary s;
	double spread;

	if (metric_summary(m, &s) != 0)
		return;
	spread = stats_spread_pct(m->v, m->n);
	gofmt_number(s.median, unit, med, sizeof(med));
	gofmt_number(s.min, unit, mn, sizeof(mn));
	gofmt_number(s.max, unit, mx, sizeof(mx));
	ci_text(&s, unit, ci, sizeof(ci));
	mark = r->status != RESULT_OK	      ? result_status_name(r->status)
	       : spread > STATS_UNSTABLE_PCT ? "unstable"
					      : NULL;
	fprintf(out, "  %-*s %12s %12s %12s  %-28s ±%6.2f%%%s%s\n", width,
		r->name, med, mn, mx, ci, spread, mark ? "  " : "",
		mark ? mark : "");
}

void summary_write_stats(FILE *out, const struct results *res,
			 const char *suite)
{
	int width = width_of(res, suite), header = 0;

	for (size_t i = 0; i < res->n; i++) {
		const struct result *r = &res->r[i];
		const char *unit = summary_unit(r);

		if (strcmp(r->suite, suite) != 0 || r->nsamples == 0 ||
		    unit == NULL)
			continue;
		if (!header) {
			fprintf(out, "Statistics of %s for suite %s (95%% CI: "
				"confidence interval of the median from order "
				"statistics; ±: median absolute percentage "
				"error, nanobench's err%%; unstable above "
				"%.0f%%)\n",
				unit, suite, STATS_UNSTABLE_PCT);
			/* "±%" is 3 bytes wide in UTF-8, 2 columns on screen */
			fprintf(out, "  %-*s %12s %12s %12s  %-28s %9s\n", width,
				"name", "median", "min", "max", "95% CI", "±%");
			header = 1;
		}
		stats_row(out, r, width);
	}
	fflush(out);
}

int summary_strip_level(const char *name, const char *key, char *buf,
			size_t size, double *value)
{
	size_t klen = strlen(key);
	const char *p = name;

	while ((p = strchr(p, '/')) != NULL) {
		const char *v = p + 1 + klen + 1, *end;
		char *num_end;
		double x;

		if (strncmp(p + 1, key, klen) != 0 || p[1 + klen] != '=') {
			p++;
			continue;
		}
		end = v + strcspn(v, "/");
		errno = 0;
		x = strtod(v, &num_end);
		if (errno != 0 || num_end != end || v == end || !isfinite(x))
			return 0;
		snprintf(buf, size, "%.*s%s", (int)(p - name), name, end);
		*value = x;
		return 1;
	}
	return 0;
}

/* One point of a growth table. */
struct point {
	char *group;
	double size, time;
	const char *key, *unit;
};

static int cmp_point(const void *a, const void *b)
{
	const struct point *x = a, *y = b;

	return (x->size > y->size) - (x->size < y->size);
}

/* The point of result r, or 0 when it has no size level or time. */
static int point_of(const struct result *r, const char *const *keys,
		    size_t nkeys, struct point *pt)
{
	char buf[1024];
	const char *unit = summary_unit(r);
	struct stats_summary s;

	if (r->status != RESULT_OK || unit == NULL ||
	    metric_summary(result_metric(r, unit), &s) != 0)
		return 0;
	for (size_t k = 0; k < nkeys; k++) {
		if (!summary_strip_level(r->name, keys[k], buf, sizeof(buf),
					 &pt->size))
			continue;
		pt->group = strdup(buf);
		pt->time = s.median;
		pt->key = keys[k];
		pt->unit = unit;
		return pt->group != NULL;
	}
	return 0;
}

/* A row of numbers under the label, one per point. */
static void growth_row(FILE *out, const char *label, const struct point *p,
		       size_t n, int what, const char *unit)
{
	char num[32];

	fprintf(out, "      %-8s", label);
	for (size_t i = 0; i < n; i++) {
		if (what == 0)
			snprintf(num, sizeof(num), "%g", p[i].size);
		else if (what == 1)
			gofmt_number(p[i].time, unit, num, sizeof(num));
		else
			snprintf(num, sizeof(num), "x%.3g",
				 p[0].time > 0 ? p[i].time / p[0].time : NAN);
		fprintf(out, " %10s", num);
	}
	fputc('\n', out);
}

/* The block of one group: its points sorted by size. */
static void growth_block(FILE *out, struct point *p, size_t n)
{
	double sizes[256], times[256], expo;
	struct complexity_fit fit;
	char coef[32], label[32];

	if (n > 256)
		n = 256;
	qsort(p, n, sizeof(*p), cmp_point);
	for (size_t i = 0; i < n; i++) {
		sizes[i] = p[i].size;
		times[i] = p[i].time;
	}
	fprintf(out, "  %s\n", p[0].group);
	snprintf(label, sizeof(label), "%s:", p[0].key);
	growth_row(out, label, p, n, 0, p[0].unit);
	snprintf(label, sizeof(label), "%s:", p[0].unit);
	growth_row(out, label, p, n, 1, p[0].unit);
	growth_row(out, "ratio:", p, n, 2, p[0].unit);
	if (complexity_fit_best(sizes, times, n, &fit) == 0) {
		gofmt_number(fit.coef, p[0].unit, coef, sizeof(coef));
		const char *name = complexity_name(fit.model);
		/* "O(N^2)" -> "N^2": the term the coefficient multiplies */
		fprintf(out, "      best fit %s: %s %s x %.*s, rms %.1f%%", name,
			coef, p[0].unit, (int)strlen(name) - 3, name + 2,
			100 * fit.rms);
	} else {
		fprintf(out, "      no best fit: %zu sizes cannot tell the models "
			"apart (it takes %d)", n, COMPLEXITY_MIN_POINTS);
	}
	if (complexity_exponent(sizes, times, n, &expo) == 0)
		fprintf(out, "; power law N^%.2f", expo);
	fputc('\n', out);
}

int summary_write_complexity(FILE *out, const struct results *res,
			     const char *suite, const char *const *keys,
			     size_t nkeys)
{
	struct point *pts = calloc(res->n ? res->n : 1, sizeof(*pts));
	struct point *grp = calloc(res->n ? res->n : 1, sizeof(*grp));
	unsigned char *done = calloc(res->n ? res->n : 1, 1);
	size_t np = 0;
	int printed = 0;

	if (pts == NULL || grp == NULL || done == NULL)
		goto out;
	for (size_t i = 0; i < res->n; i++)
		if (strcmp(res->r[i].suite, suite) == 0)
			np += (size_t)point_of(&res->r[i], keys, nkeys, &pts[np]);
	for (size_t i = 0; i < np; i++) {
		size_t ng = 0;
		if (done[i])
			continue;
		for (size_t j = i; j < np; j++) {
			if (done[j] || strcmp(pts[i].group, pts[j].group) != 0 ||
			    strcmp(pts[i].key, pts[j].key) != 0)
				continue;
			done[j] = 1;
			grp[ng++] = pts[j];
		}
		if (ng < 2)
			continue;
		if (printed++ == 0)
			fprintf(out, "Growth with size for suite %s (median per "
				"size; ratio to the smallest size; best fit of "
				"O(1), O(log N), O(N), O(N log N), O(N^2), "
				"O(N^3) by least squares, rms = residual RMS / "
				"mean; power law = slope of log time on log N)\n",
				suite);
		growth_block(out, grp, ng);
	}
out:
	for (size_t i = 0; i < np; i++)
		free(pts[i].group);
	free(pts);
	free(grp);
	free(done);
	fflush(out);
	return printed;
}

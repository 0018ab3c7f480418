/*
 * summary.c - statistics and complexity tables (see summary.h).
 */
#include "report/summary.h"

#include "report/compare_stats.h"
#include "report/gofmt.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

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

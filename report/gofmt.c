/*
 * gofmt.c - Go benchmark text writer (see gofmt.h).
 */
#include "report/gofmt.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

void gofmt_init(struct gofmt *g, FILE *out, int name_width)
{
	memset(g, 0, sizeof(*g));
	g->out = out;
	g->name_width = name_width;
}

void gofmt_release(struct gofmt *g)
{
	for (size_t i = 0; i < g->nunits; i++)
		free(g->units[i]);
	free(g->units);
	g->units = NULL;
	g->nunits = 0;
}

void gofmt_write_config(struct gofmt *g, const struct results *res)
{
	for (size_t i = 0; i < res->ncfg; i++)
		if (!res->cfg[i].meta)
			fprintf(g->out, "%s: %s\n", res->cfg[i].key,
				res->cfg[i].value);
}

void gofmt_write_pkg(struct gofmt *g, const char *suite)
{
	fprintf(g->out, "pkg: rxbench/suites/%s\n", suite);
}

void gofmt_defer(struct gofmt *g, const struct results *cfg,
		 const char *suite)
{
	if (cfg != NULL)
		g->pending_cfg = cfg;
	g->pending_pkg = suite;
}

int gofmt_flush(struct gofmt *g)
{
	int held = g->pending_cfg != NULL || g->pending_pkg != NULL;

	if (g->pending_cfg != NULL)
		gofmt_write_config(g, g->pending_cfg);
	if (g->pending_pkg != NULL)
		gofmt_write_pkg(g, g->pending_pkg);
	g->pending_cfg = NULL;
	g->pending_pkg = NULL;
	return held;
}

/* Go's testing.prettyPrint precision rules, without the padding. */
void gofmt_number(double x, const char *unit, char *buf, size_t size)
{
	double y = fabs(x);
	int prec;

	if (strcmp(unit, "B/op") == 0 || strcmp(unit, "allocs/op") == 0) {
		snprintf(buf, size, "%.0f", x);
		return;
	}
	if (strcmp(unit, "MB/s") == 0) {
		snprintf(buf, size, "%.2f", x);
		return;
	}
	if (y == 0 || y >= 999.95)
		prec = 0;
	else if (y >= 99.995)
		prec = 1;
	else if (y >= 9.9995)
		prec = 2;
	else if (y >= 0.99995)
		prec = 3;
	else if (y >= 0.099995)
		prec = 4;
	else if (y >= 0.0099995)
		prec = 5;
	else if (y >= 0.00099995)
		prec = 6;
	else
		prec = 7;
	snprintf(buf, size, "%.*f", prec, x);
}

/* What benchstat should assume about units it does not know. */
static const char *unit_meta(const char *unit, enum metric_better better)
{
	static const char *const known[] = {"ns/op", "B/op", "allocs/op",
					    "MB/s"};

	for (size_t i = 0; i < sizeof(known) / sizeof(known[0]); i++)
		if (strcmp(unit, known[i]) == 0)
			return NULL;
	if (metric_unit_exact(unit))
		return better == BETTER_HIGHER ? "better=higher assume=exact"
					       : "better=lower assume=exact";
	switch (better) {
	case BETTER_LOWER: return "better=lower";
	case BETTER_HIGHER: return "better=higher";
	case BETTER_EXACT: return "assume=exact";
	}
	return NULL;
}

static void declare_units(struct gofmt *g, const struct result *r)
{
	for (size_t i = 0; i < r->nm; i++) {
		const char *meta = unit_meta(r->m[i].unit, r->m[i].better);
		int seen = 0;
		char **grown;

		if (meta == NULL)
			continue;
		for (size_t j = 0; j < g->nunits && !seen; j++)
			seen = strcmp(g->units[j], r->m[i].unit) == 0;
		if (seen)
			continue;
		fprintf(g->out, "Unit %s %s\n", r->m[i].unit, meta);
		grown = realloc(g->units, (g->nunits + 1) * sizeof(*grown));
		if (grown == NULL)
			continue;
		g->units = grown;
		g->units[g->nunits] = strdup(r->m[i].unit);
		if (g->units[g->nunits] != NULL)
			g->nunits++;
	}
}

void gofmt_write_sample(struct gofmt *g, const struct result *r, size_t i)
{
	char num[64];

	if (i >= r->nsamples)
		return;
	gofmt_flush(g);
	declare_units(g, r);
	fprintf(g->out, "Benchmark%-*s\t%8llu", g->name_width, r->name,
		(unsigned long long)r->iters[i]);
	for (size_t k = 0; k < r->nm; k++) {
		if (i >= r->m[k].n || isnan(r->m[k].v[i]))
			continue;
		gofmt_number(r->m[k].v[i], r->m[k].unit, num, sizeof(num));
		fprintf(g->out, "\t%10s %s", num, r->m[k].unit);
	}
	fputc('\n', g->out);
	fflush(g->out);
}

void gofmt_write_status(struct gofmt *g, const struct result *r)
{
	const char *msg = r->message ? r->message : "";
	const char *p;

	if (r->status != RESULT_OK || r->unverified)
		gofmt_flush(g);
	if (r->status == RESULT_OK && r->unverified) {
		/* benchstat reads "--- " lines as neither results nor
		   configuration, as it does FAIL blocks */
		fprintf(g->out, "--- UNVERIFIED: Benchmark%s\n    %s\n",
			r->name, r->verified ? r->verified : "unverified");
		fflush(g->out);
		return;
	}
	if (r->status == RESULT_OK)
		return;
	fprintf(g->out, "--- %s: Benchmark%s\n",
		r->status == RESULT_UNSUPPORTED || r->status == RESULT_UNVERIFIED
			? "SKIP"
			: "FAIL",
		r->name);
	fprintf(g->out, "    %s: ", result_status_name(r->status));
	/* one indented line per message line, as Go prints b.Log output */
	for (p = msg; *p; p++) {
		fputc(*p, g->out);
		if (*p == '\n' && p[1] != '\0')
			fputs("    ", g->out);
	}
	fputc('\n', g->out);
	fflush(g->out);
}

void gofmt_write_results(struct gofmt *g, const struct results *res)
{
	const char *suite = NULL;

	gofmt_write_config(g, res);
	for (size_t i = 0; i < res->n; i++) {
		const struct result *r = &res->r[i];
		if (suite == NULL || strcmp(suite, r->suite) != 0) {
			suite = r->suite;
			gofmt_write_pkg(g, suite);
		}
		for (size_t s = 0; s < r->nsamples; s++)
			gofmt_write_sample(g, r, s);
		gofmt_write_status(g, r);
	}
	if (res->interrupted)
		fputs(GOFMT_INTERRUPTED " the run was stopped; the benchmarks "
		      "above finished, the rest did not run\n", g->out);
}

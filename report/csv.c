/*
 * csv.c - CSV writer (see csv.h).
 */
#include "report/csv.h"

#include "report/json.h"
#include "report/view.h"

#include <math.h>
#include <string.h>

static const char *const fixed_cols[] = {
	"suite", "name", "metric", "unit", "better", "value",
	"sample", "iterations", "status", "message",
};

/* 1 when a spreadsheet would read s as a formula (see csv.h). */
static int formula_like(const char *s)
{
	return s[0] != '\0' && strchr("=+-@\t\r", s[0]) != NULL;
}

void csv_field(FILE *out, const char *s)
{
	int formula = s != NULL && formula_like(s);

	if (s == NULL || (!formula && strpbrk(s, ",\"\r\n") == NULL)) {
		fputs(s ? s : "", out);
		return;
	}
	fputc('"', out);
	if (formula)
		fputc('\'', out);
	for (; *s; s++) {
		if (*s == '"')
			fputc('"', out);
		fputc(*s, out);
	}
	fputc('"', out);
}

static int is_fixed(const char *key)
{
	for (size_t i = 0; i < sizeof(fixed_cols) / sizeof(fixed_cols[0]); i++)
		if (strcmp(key, fixed_cols[i]) == 0)
			return 1;
	return 0;
}

static void header(FILE *out, const struct strlist *keys)
{
	fputs("suite,name", out);
	for (size_t i = 0; i < keys->n; i++) {
		fputs(is_fixed(keys->s[i]) ? ",key_" : ",", out);
		csv_field(out, keys->s[i]);
	}
	fputs(",metric,unit,better,value,sample,iterations,status,message\r\n",
	      out);
}

/* suite, name and the key columns of r. */
static void row_start(FILE *out, const struct result *r,
		      const struct strlist *keys)
{
	char buf[512];

	csv_field(out, r->suite);
	fputc(',', out);
	csv_field(out, r->name);
	for (size_t i = 0; i < keys->n; i++) {
		fputc(',', out);
		if (result_key(r, keys->s[i], buf, sizeof(buf)))
			csv_field(out, buf);
	}
}

static void row_end(FILE *out, const struct result *r)
{
	fputc(',', out);
	csv_field(out, result_status_name(r->status));
	fputc(',', out);
	csv_field(out, r->message);
	fputs("\r\n", out);
}

static const char *better_word(enum metric_better b)
{
	return b == BETTER_HIGHER ? "higher" : b == BETTER_EXACT ? "exact"
								 : "lower";
}

/* The metric's value unit: "ns/op" -> "ns", "MB/s" -> "MB/s". */
static void value_unit(const char *metric, char *buf, size_t size)
{
	size_t n = strlen(metric);

	if (n > 3 && strcmp(metric + n - 3, "/op") == 0)
		n -= 3;
	snprintf(buf, size, "%.*s", (int)n, metric);
}

static void metric_rows(FILE *out, const struct result *r,
			const struct metric *m, const struct strlist *keys)
{
	char unit[128], num[32];

	value_unit(m->unit, unit, sizeof(unit));
	for (size_t s = 0; s < r->nsamples && s < m->n; s++) {
		row_start(out, r, keys);
		fputc(',', out);
		csv_field(out, m->unit);
		fputc(',', out);
		csv_field(out, unit);
		fprintf(out, ",%s,", better_word(m->better));
		if (!isnan(m->v[s])) {
			json_format_number(m->v[s], num, sizeof(num));
			fputs(num, out);
		}
		fprintf(out, ",%zu,%llu", s, (unsigned long long)r->iters[s]);
		row_end(out, r);
	}
}

int report_write_csv(FILE *out, const struct results *res)
{
	struct strlist keys = {0};
	int rc = -1;

	if (view_keys(res, NULL, &keys) != 0)
		goto out;
	header(out, &keys);
	for (size_t i = 0; i < res->n; i++) {
		const struct result *r = &res->r[i];
		if (r->nsamples == 0 || r->nm == 0) {
			row_start(out, r, &keys);
			fputs(",,,,,,", out);
			row_end(out, r);
			continue;
		}
		for (size_t k = 0; k < r->nm; k++)
			metric_rows(out, r, &r->m[k], &keys);
	}
	rc = ferror(out) ? -1 : 0;
out:
	strlist_release(&keys);
	return rc;
}

/*
 * json.c - JSON results writer (see json.h).
 */
#include "report/json.h"

#include "engines/pattern.h" /* engine_utf8_len: strict UTF-8 */
#include "report/io.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

void json_write_string(FILE *out, const char *s, size_t len)
{
	const unsigned char *p = (const unsigned char *)s;

	fputc('"', out);
	for (size_t i = 0; i < len;) {
		unsigned char c = p[i];
		size_t n;

		if (c == '"' || c == '\\') {
			fputc('\\', out);
			fputc(c, out);
			i++;
		} else if (c < 0x20 || c == 0x7f) {
			fprintf(out, "\\u%04x", c);
			i++;
		} else if ((n = engine_utf8_len(s + i, len - i)) != 0) {
			fwrite(p + i, 1, n, out);
			i += n;
		} else {
			/* not UTF-8: keep the byte as its Latin-1 code point */
			fprintf(out, "\\u%04x", c);
			i++;
		}
	}
	fputc('"', out);
}

static void json_str(FILE *out, const char *s)
{
	if (s == NULL)
		fputs("null", out);
	else
		json_write_string(out, s, strlen(s));
}

void json_format_number(double v, char *buf, size_t size)
{
	if (isnan(v) || isinf(v)) {
		snprintf(buf, size, "null");
		return;
	}
	/* the shortest of %.15g..%.17g that reads back exactly */
	for (int prec = 15; prec <= 17; prec++) {
		snprintf(buf, size, "%.*g", prec, v);
		if (strtod(buf, NULL) == v)
			break;
	}
}

static void json_number(FILE *out, double v)
{
	char buf[32];

	json_format_number(v, buf, sizeof(buf));
	fputs(buf, out);
}

static const char *better_name(enum metric_better b)
{
	switch (b) {
	case BETTER_LOWER: return "lower";
	case BETTER_HIGHER: return "higher";
	case BETTER_EXACT: return "exact";
	}
	return "lower";
}

/* The name's key=value levels as a JSON object. */
static void json_keys(FILE *out, const char *name)
{
	const char *p = strchr(name, '/');
	int first = 1;

	fputc('{', out);
	while (p != NULL) {
		const char *lvl = p + 1;
		const char *eq = strchr(lvl, '=');
		const char *end = strchr(lvl, '/');
		size_t lvlen = end ? (size_t)(end - lvl) : strlen(lvl);

		if (eq != NULL && (size_t)(eq - lvl) < lvlen) {
			fputs(first ? "" : ", ", out);
			json_write_string(out, lvl, (size_t)(eq - lvl));
			fputs(": ", out);
			json_write_string(out, eq + 1,
					  lvlen - (size_t)(eq - lvl) - 1);
			first = 0;
		}
		p = end;
	}
	fputc('}', out);
}

static void json_metric(FILE *out, const struct metric *m)
{
	fputs("{\"unit\": ", out);
	json_str(out, m->unit);
	fprintf(out, ", \"better\": \"%s\", \"samples\": [",
		better_name(m->better));
	for (size_t i = 0; i < m->n; i++) {
		fputs(i ? ", " : "", out);
		json_number(out, m->v[i]);
	}
	fputs("]}", out);
}

/*
 * One benchmark as a JSON object; `nl` separates its lines ("\n" in the
 * results file, " " in the journal, where an object is one line).
 */
static void json_result(FILE *out, const struct result *r, const char *nl)
{
	fputs("{\"name\": ", out);
	json_str(out, r->name);
	fputs(", \"suite\": ", out);
	json_str(out, r->suite);
	fputs(", \"keys\": ", out);
	json_keys(out, r->name);
	fprintf(out, ",%s     \"status\": \"%s\", \"message\": ", nl,
		result_status_name(r->status));
	json_str(out, r->message);
	fputs(", \"verified\": ", out);
	json_str(out, r->verified);
	if (r->unverified)
		fputs(", \"unverified\": true", out);
	fprintf(out, ",%s     \"iterations\": [", nl);
	for (size_t i = 0; i < r->nsamples; i++)
		fprintf(out, "%s%llu", i ? ", " : "",
			(unsigned long long)r->iters[i]);
	fputs("],", out);
	fprintf(out, "%s     \"metrics\": [", nl);
	for (size_t i = 0; i < r->nm; i++) {
		fprintf(out, "%s%s       ", i ? "," : "", nl);
		json_metric(out, &r->m[i]);
	}
	fputs("]}", out);
}

/* The Go-text configuration (meta 0) or the JSON-only context (meta 1). */
static void json_config(FILE *out, const char *field,
			const struct results *res, int meta)
{
	int first = 1;

	fprintf(out, " \"%s\": {", field);
	for (size_t i = 0; i < res->ncfg; i++) {
		if (res->cfg[i].meta != meta)
			continue;
		fputs(first ? "\n   " : ",\n   ", out);
		json_str(out, res->cfg[i].key);
		fputs(": ", out);
		json_str(out, res->cfg[i].value);
		first = 0;
	}
	fputs("}", out);
}

/* Everything before the first benchmark; journal adds "journal": true. */
static void json_head(FILE *out, const struct results *res, int journal)
{
	fputs("{\"format\": \"rxbench-results\", \"version\": 1,\n", out);
	if (journal)
		fputs(" \"journal\": true,\n", out);
	fprintf(out, " \"interrupted\": %s,\n",
		res->interrupted ? "true" : "false");
	json_config(out, "config", res, 0);
	fputs(",\n", out);
	json_config(out, "context", res, 1);
	if (res->argv != NULL) {
		fputs(",\n \"argv\": [", out);
		for (size_t i = 0; i < res->argc; i++) {
			fputs(i ? ", " : "", out);
			json_str(out, res->argv[i]);
		}
		fputs("]", out);
	}
	fputs(",\n \"benchmarks\": [\n", out);
}

int json_write_results(FILE *out, const struct results *res)
{
	json_head(out, res, 0);
	for (size_t i = 0; i < res->n; i++) {
		fputs("    ", out);
		json_result(out, &res->r[i], "\n");
		fputs(i + 1 < res->n ? ",\n" : "\n", out);
	}
	fputs(" ]\n}\n", out);
	return ferror(out) ? -1 : 0;
}

int json_journal_head(FILE *out, const struct results *res)
{
	json_head(out, res, 1);
	return fflush(out) != 0 || ferror(out) ? -1 : 0;
}

int json_journal_add(FILE *out, const struct result *r)
{
	json_result(out, r, "");
	fputs(",\n", out);
	return fflush(out) != 0 || ferror(out) ? -1 : 0;
}

/* report_write_fn adapter for json_write_results. */
static int write_json(FILE *f, const void *arg)
{
	return json_write_results(f, arg);
}

int json_save_results(const char *path, const struct results *res)
{
	return report_save_atomic(path, write_json, res);
}

/*
 * json.c - the JSON results file, written and read with jansson (see
 * json.h and json_read.h for the layout and the promises).
 *
 * Writing builds a jansson tree per benchmark and dumps it on one line;
 * reading loads the whole file with json_loadb() (which checks the
 * grammar, UTF-8, nesting and duplicate members) and walks the tree,
 * checking each member's type.  A text that is not UTF-8 (raw bytes of a
 * pattern) is the object {"hex": "..."} wherever a string may stand.
 */
#include "report/json.h"
#include "report/json_read.h"

#include "corpora/file.h"    /* msg_escape_controls */
#include "engines/pattern.h" /* engine_utf8_invalid: strict UTF-8 */
#include "report/io.h"

#include <jansson.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

/* Dump flags: ", " and ": " separators, 15 significant digits (DBL_DIG:
   a number read back and written again gives the same text). */
#define JSON_DUMP_FLAGS (JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(15))

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

/* --- writing ------------------------------------------------------ */

/* len bytes of s: a string when UTF-8 without NUL, else {"hex": ...}. */
static json_t *jtext(const char *s, size_t len)
{
	static const char digits[] = "0123456789abcdef";
	json_t *o;
	char *hex;

	if (s == NULL)
		return json_null();
	if (engine_utf8_invalid(s, len) < 0 && memchr(s, '\0', len) == NULL)
		return json_stringn(s, len);
	hex = malloc(2 * len + 1);
	if (hex == NULL)
		return NULL;
	for (size_t i = 0; i < len; i++) {
		hex[2 * i] = digits[(unsigned char)s[i] >> 4];
		hex[2 * i + 1] = digits[(unsigned char)s[i] & 15];
	}
	o = json_pack("{s:s%}", "hex", hex, 2 * len);
	free(hex);
	return o;
}

static json_t *jstr(const char *s)
{
	return jtext(s, s ? strlen(s) : 0);
}

/* Integral values as integers ("811", not "811.0"); NaN as null. */
static json_t *jnumber(double v)
{
	if (isnan(v) || isinf(v))
		return json_null();
	if (v == floor(v) && fabs(v) < 9007199254740992.0)
		return json_integer((json_int_t)v);
	return json_real(v);
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

/* Set o[key] = v, taking v; -1 when v is NULL (out of memory). */
static int put(json_t *o, const char *key, json_t *v)
{
	return v == NULL ? -1 : json_object_set_new(o, key, v);
}

/* Append v to array a, taking v. */
static int push(json_t *a, json_t *v)
{
	return v == NULL ? -1 : json_array_append_new(a, v);
}

/*
 * The name's key=value levels as an object (derived: never read).  A
 * level whose key is not UTF-8 cannot be a JSON key and is left out;
 * the name keeps it.
 */
static json_t *jkeys(const char *name)
{
	json_t *o = json_object();
	const char *p = strchr(name, '/');
	int rc = o == NULL;

	while (p != NULL && rc == 0) {
		const char *lvl = p + 1, *eq = strchr(lvl, '='),
			   *end = strchr(lvl, '/');
		size_t n = end ? (size_t)(end - lvl) : strlen(lvl);
		if (eq != NULL && (size_t)(eq - lvl) < n &&
		    engine_utf8_invalid(lvl, (size_t)(eq - lvl)) < 0) {
			char *k = strndup(lvl, (size_t)(eq - lvl));
			rc = k == NULL || put(o, k, jtext(eq + 1, n - (size_t)(eq - lvl) - 1));
			free(k);
		}
		p = end;
	}
	if (rc != 0)
		json_decref(o);
	return rc == 0 ? o : NULL;
}

static json_t *jmetric(const struct metric *m)
{
	json_t *o = json_object(), *s = json_array();
	int rc = o == NULL || s == NULL;

	for (size_t i = 0; i < m->n && rc == 0; i++)
		rc = push(s, jnumber(m->v[i]));
	rc = rc || put(o, "unit", jstr(m->unit)) ||
	     put(o, "better", json_string(better_name(m->better)));
	if (rc == 0)
		return put(o, "samples", s) == 0 ? o : (json_decref(o), NULL);
	json_decref(s);
	json_decref(o);
	return NULL;
}

/* The inputs as an object in their order (a key given once). */
static json_t *jinputs(const struct result_inputs *in)
{
	json_t *o = json_object();

	for (size_t i = 0; o != NULL && i < in->n; i++)
		if (put(o, in->v[i].key, jtext(in->v[i].value, in->v[i].len)) != 0) {
			json_decref(o);
			return NULL;
		}
	return o;
}

static json_t *jresult(const struct result *r)
{
	json_t *o = json_object(), *it = json_array(), *ms = json_array();
	int rc = o == NULL || it == NULL || ms == NULL;

	for (size_t i = 0; i < r->nsamples && rc == 0; i++)
		rc = push(it, json_integer((json_int_t)r->iters[i]));
	for (size_t i = 0; i < r->nm && rc == 0; i++)
		rc = push(ms, jmetric(&r->m[i]));
	rc = rc || put(o, "name", jstr(r->name)) ||
	     put(o, "suite", jstr(r->suite)) || put(o, "keys", jkeys(r->name));
	if (rc == 0 && r->in.n > 0)
		rc = put(o, "inputs", jinputs(&r->in));
	rc = rc || put(o, "status", json_string(result_status_name(r->status))) ||
	     put(o, "message", jstr(r->message)) ||
	     put(o, "verified", jstr(r->verified));
	if (rc == 0 && r->unverified)
		rc = put(o, "unverified", json_true());
	rc = rc || put(o, "iterations", json_incref(it)) ||
	     put(o, "metrics", json_incref(ms));
	json_decref(it);
	json_decref(ms);
	if (rc != 0)
		json_decref(o);
	return rc == 0 ? o : NULL;
}

/* The Go-text configuration (meta 0) or the JSON-only context (meta 1). */
static json_t *jconfig(const struct results *res, int meta)
{
	json_t *o = json_object();

	for (size_t i = 0; o != NULL && i < res->ncfg; i++)
		if (res->cfg[i].meta == meta &&
		    put(o, res->cfg[i].key, jstr(res->cfg[i].value)) != 0) {
			json_decref(o);
			return NULL;
		}
	return o;
}

/*
 * The suites' layout declarations (report/layout_decl.h):
 * "layout": {"suite": ["line", ...], ...}, in the order declared.
 */
static json_t *jlayout(const struct results *res)
{
	json_t *o = json_object();
	int rc = o == NULL;

	for (size_t i = 0; rc == 0 && i < res->nlayout; i++) {
		const struct layout_line *l = &res->layout[i];
		if (json_object_get(o, l->suite) == NULL)
			rc = put(o, l->suite, json_array());
		if (rc == 0)
			rc = push(json_object_get(o, l->suite), jstr(l->line));
	}
	if (rc != 0) {
		json_decref(o);
		return NULL;
	}
	return o;
}

/* Everything but the benchmarks; a journal's head says "journal": true. */
static json_t *jhead(const struct results *res, int journal)
{
	json_t *o = json_object(), *argv = json_array();
	int rc = o == NULL || argv == NULL ||
		 put(o, "format", json_string("rxbench-results")) ||
		 put(o, "version", json_integer(JSON_RESULTS_VERSION));

	if (rc == 0 && journal)
		rc = put(o, "journal", json_true());
	rc = rc || put(o, "interrupted", json_boolean(res->interrupted)) ||
	     put(o, "config", jconfig(res, 0)) ||
	     put(o, "context", jconfig(res, 1));
	if (rc == 0 && res->nlayout > 0)
		rc = put(o, "layout", jlayout(res));
	for (size_t i = 0; res->argv != NULL && i < res->argc && rc == 0; i++)
		rc = push(argv, jstr(res->argv[i]));
	if (rc == 0 && res->argv != NULL)
		rc = put(o, "argv", json_incref(argv));
	json_decref(argv);
	if (rc != 0)
		json_decref(o);
	return rc == 0 ? o : NULL;
}

/* Dump v (taken) on one line to out, without its last `cut` bytes. */
static int dump_line(FILE *out, json_t *v, size_t cut)
{
	char *s = v ? json_dumps(v, JSON_DUMP_FLAGS) : NULL;
	int rc = s == NULL ? -1 : 0;

	if (s != NULL)
		fwrite(s, 1, strlen(s) - cut, out);
	free(s);
	json_decref(v);
	return rc;
}

int json_write_results(FILE *out, const struct results *res)
{
	/* the head's members, then one benchmark per line */
	if (dump_line(out, jhead(res, 0), 1) != 0)
		return -1;
	fputs(",\n \"benchmarks\": [\n", out);
	for (size_t i = 0; i < res->n; i++) {
		fputs("  ", out);
		if (dump_line(out, jresult(&res->r[i]), 0) != 0)
			return -1;
		fputs(i + 1 < res->n ? ",\n" : "\n", out);
	}
	fputs(" ]}\n", out);
	return ferror(out) ? -1 : 0;
}

int json_journal_head(FILE *out, const struct results *res)
{
	if (dump_line(out, jhead(res, 1), 0) != 0)
		return -1;
	fputc('\n', out);
	return fflush(out) != 0 || ferror(out) ? -1 : 0;
}

int json_journal_add(FILE *out, const struct result *r)
{
	if (dump_line(out, jresult(r), 0) != 0)
		return -1;
	fputc('\n', out);
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

/* --- reading ------------------------------------------------------ */

struct jr {
	const char *name; /* the file, for messages */
	size_t line;      /* of a journal's line; 0: use jansson's position */
	char *err;
	size_t errsize;
	long version;
};

/* "NAME[:LINE]: what", one line.  Always -1. */
__attribute__((format(printf, 2, 3)))
static int jr_fail(struct jr *p, const char *fmt, ...)
{
	char msg[300];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (p->line > 0)
		snprintf(p->err, p->errsize, "%s:%zu: %s", p->name, p->line, msg);
	else
		snprintf(p->err, p->errsize, "%s: %s", p->name, msg);
	msg_escape_controls(p->err, p->errsize); /* quoted names may hold \n */
	return -1;
}

static int unhex(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	return -1;
}

/* {"hex": "..."} decoded into *out (len bytes + NUL); 0 or -1. */
static int text_hex(json_t *v, char **out, size_t *len)
{
	json_t *h = json_object_get(v, "hex");
	const char *s = json_string_value(h);
	size_t n = json_string_length(h);
	char *b;

	if (s == NULL || json_object_size(v) != 1 || n % 2 != 0)
		return -1;
	b = malloc(n / 2 + 1);
	if (b == NULL)
		return -1;
	for (size_t i = 0; i < n / 2; i++) {
		int hi = unhex(s[2 * i]), lo = unhex(s[2 * i + 1]);
		if (hi < 0 || lo < 0) {
			free(b);
			return -1;
		}
		b[i] = (char)(hi << 4 | lo);
	}
	b[n / 2] = '\0';
	*out = b;
	*len = n / 2;
	return 0;
}

enum {
	TEXT_NULLABLE = 1, /* null reads as *out NULL */
	TEXT_BYTES = 2,    /* may hold a NUL (an input's bytes) */
};

/*
 * A text member: a string, or (version 2) a {"hex"} object; null when
 * TEXT_NULLABLE.  *out is owned by the caller.  0 or -1.
 */
static int get_text(struct jr *p, json_t *v, const char *what, int flags,
		    char **out, size_t *len)
{
	int nullable = flags & TEXT_NULLABLE;
	size_t n = 0;

	*out = NULL;
	if (len == NULL)
		len = &n;
	if (nullable && (v == NULL || json_is_null(v)))
		return 0;
	if (json_is_string(v)) {
		*len = json_string_length(v);
		*out = malloc(*len + 1);
		if (*out == NULL)
			return jr_fail(p, "out of memory");
		memcpy(*out, json_string_value(v), *len + 1);
		return 0;
	}
	if (p->version >= 2 && json_is_object(v) && text_hex(v, out, len) == 0) {
		if ((flags & TEXT_BYTES) || memchr(*out, '\0', *len) == NULL)
			return 0;
		free(*out);
		*out = NULL;
	}
	return jr_fail(p, "%s: expected a string%s", what,
		       nullable ? " or null" : "");
}

static int get_bool(struct jr *p, json_t *v, const char *what, int *out)
{
	if (v == NULL)
		return 0;
	if (!json_is_boolean(v))
		return jr_fail(p, "%s: expected true or false", what);
	*out = json_is_true(v);
	return 0;
}

static int read_metric(struct jr *p, json_t *v, const char *bench,
		       struct metric *m)
{
	static const char *const names[] = {"lower", "higher", "exact"};
	json_t *samples = json_object_get(v, "samples");
	const char *better = json_string_value(json_object_get(v, "better"));
	size_t i;
	json_t *x;

	if (!json_is_object(v) || !json_is_array(samples) || better == NULL)
		return jr_fail(p, "%s: a metric needs \"unit\", \"better\" "
			       "and \"samples\"", bench);
	if (get_text(p, json_object_get(v, "unit"), "unit", 0, &m->unit, NULL))
		return -1;
	if (m->unit[0] == '\0' || strpbrk(m->unit, " \t\n") != NULL)
		return jr_fail(p, "%s: a unit must be one non-empty word", bench);
	for (i = 0; i < 3 && strcmp(better, names[i]) != 0; i++)
		;
	if (i == 3)
		return jr_fail(p, "%s: better must be \"lower\", \"higher\" "
			       "or \"exact\"", bench);
	m->better = (enum metric_better)i;
	m->v = malloc((json_array_size(samples) + 1) * sizeof(*m->v));
	if (m->v == NULL)
		return jr_fail(p, "out of memory");
	json_array_foreach(samples, i, x) {
		if (!json_is_number(x) && !json_is_null(x))
			return jr_fail(p, "%s: metric %s: a sample is a number "
				       "or null", bench, m->unit);
		m->v[m->n++] = json_is_null(x) ? NAN : json_number_value(x);
		if (m->v[m->n - 1] < 0 && metric_unit_time(m->unit))
			return jr_fail(p, "%s: metric %s: sample %g is "
				       "negative: a time is 0 or more", bench,
				       m->unit, m->v[m->n - 1]);
	}
	return 0;
}

static int read_metrics(struct jr *p, json_t *a, struct result *r)
{
	size_t i;
	json_t *x;

	if (a == NULL)
		return 0;
	if (!json_is_array(a))
		return jr_fail(p, "%s: \"metrics\" is not an array", r->name);
	r->m = calloc(json_array_size(a) + 1, sizeof(*r->m));
	if (r->m == NULL)
		return jr_fail(p, "out of memory");
	json_array_foreach(a, i, x) {
		struct metric *m = &r->m[r->nm++];
		if (read_metric(p, x, r->name, m) != 0)
			return -1;
		for (size_t k = 0; k + 1 < r->nm; k++)
			if (strcmp(r->m[k].unit, m->unit) == 0)
				return jr_fail(p, "%s: metric \"%s\" given "
					       "twice", r->name, m->unit);
	}
	return 0;
}

static int read_iterations(struct jr *p, json_t *a, struct result *r)
{
	size_t i;
	json_t *x;

	if (a == NULL)
		return 0;
	if (!json_is_array(a))
		return jr_fail(p, "%s: \"iterations\" is not an array", r->name);
	r->iters = malloc((json_array_size(a) + 1) * sizeof(*r->iters));
	if (r->iters == NULL)
		return jr_fail(p, "out of memory");
	json_array_foreach(a, i, x) {
		if (!json_is_integer(x) || json_integer_value(x) < 0)
			return jr_fail(p, "%s: iterations are non-negative "
				       "integers", r->name);
		r->iters[r->nsamples++] = (uint64_t)json_integer_value(x);
	}
	return 0;
}

static int read_inputs(struct jr *p, json_t *o, struct result *r)
{
	const char *key;
	json_t *v;

	if (o == NULL)
		return 0;
	if (!json_is_object(o))
		return jr_fail(p, "%s: \"inputs\" is not an object", r->name);
	json_object_foreach(o, key, v) {
		char what[200], *s;
		size_t len;
		int rc;
		snprintf(what, sizeof(what), "%.120s: input %.60s", r->name, key);
		if (get_text(p, v, what, TEXT_BYTES, &s, &len) != 0)
			return -1;
		rc = result_inputs_add(&r->in, key, s, len);
		free(s);
		if (rc != 0)
			return jr_fail(p, "out of memory");
	}
	return 0;
}

/* The members of a benchmark object into r (name and suite set). */
static int read_fields(struct jr *p, json_t *o, struct result *r)
{
	const char *st = json_string_value(json_object_get(o, "status"));
	int status = st ? result_status_parse(st) : RESULT_OK;

	if (status < 0 || (st == NULL && json_object_get(o, "status")))
		return jr_fail(p, "%s: unknown status (ok, mismatch, error, "
			       "unsupported, timeout, unverified)", r->name);
	r->status = (enum result_status)status;
	if (get_text(p, json_object_get(o, "message"), "message", TEXT_NULLABLE,
		     &r->message, NULL) != 0 ||
	    get_text(p, json_object_get(o, "verified"), "verified", TEXT_NULLABLE,
		     &r->verified, NULL) != 0 ||
	    get_bool(p, json_object_get(o, "unverified"), "unverified",
		     &r->unverified) != 0 ||
	    read_inputs(p, json_object_get(o, "inputs"), r) != 0 ||
	    read_iterations(p, json_object_get(o, "iterations"), r) != 0 ||
	    read_metrics(p, json_object_get(o, "metrics"), r) != 0)
		return -1;
	for (size_t i = 0; i < r->nm; i++)
		if (r->m[i].n != r->nsamples)
			return jr_fail(p, "%s: metric %s has %zu samples but "
				       "there are %zu iterations", r->name,
				       r->m[i].unit, r->m[i].n, r->nsamples);
	return 0;
}

/*
 * One benchmark object into res; `journal`: a name given again replaces
 * the earlier one (the newer line of a run's journal).  0 or -1.
 */
static int read_bench(struct jr *p, json_t *o, struct results *res,
		      int journal)
{
	struct result tmp = {0}, *r;
	int rc = -1;

	if (!json_is_object(o))
		return jr_fail(p, "a benchmark is not an object");
	if (get_text(p, json_object_get(o, "name"), "name", 0, &tmp.name,
		     NULL) != 0 ||
	    get_text(p, json_object_get(o, "suite"), "suite", 0, &tmp.suite,
		     NULL) != 0)
		goto out;
	if (tmp.name[0] == '\0' || strpbrk(tmp.name, " \t\n") != NULL) {
		jr_fail(p, "benchmark name \"%.60s\" is empty or has blanks",
			tmp.name);
		goto out;
	}
	if (read_fields(p, o, &tmp) != 0)
		goto out;
	r = results_find(res, tmp.name);
	if (r != NULL && !journal) {
		jr_fail(p, "benchmark %s given twice", tmp.name);
		goto out;
	}
	if (r != NULL)
		result_reset(r); /* the journal's newer line: keep the name */
	else
		r = results_add(res, tmp.suite, tmp.name);
	if (r == NULL) {
		jr_fail(p, "out of memory");
		goto out;
	}
	free(tmp.name);
	free(tmp.suite);
	tmp.name = r->name;
	tmp.suite = r->suite;
	*r = tmp;
	return 0;
out:
	result_release(&tmp);
	return rc;
}

static int read_config(struct jr *p, json_t *o, struct results *res,
		       int meta)
{
	const char *key;
	json_t *v;

	if (o == NULL)
		return 0;
	if (!json_is_object(o))
		return jr_fail(p, "\"%s\" is not an object",
			       meta ? "context" : "config");
	json_object_foreach(o, key, v) {
		char *s;
		int rc;
		if (get_text(p, v, key, 0, &s, NULL) != 0)
			return -1;
		if (key[0] == '\0' || strpbrk(key, ":\n") != NULL ||
		    strchr(s, '\n') != NULL) {
			free(s);
			return jr_fail(p, "configuration key \"%.60s\" or its "
				       "value cannot be a Go config line", key);
		}
		rc = meta ? results_meta_set(res, key, s)
			  : results_config_set(res, key, s);
		free(s);
		if (rc != 0)
			return jr_fail(p, "out of memory");
	}
	return 0;
}

static int read_argv(struct jr *p, json_t *a, struct results *res)
{
	size_t i;
	json_t *x;

	if (a == NULL)
		return 0;
	if (!json_is_array(a))
		return jr_fail(p, "\"argv\" is not an array");
	res->argv = calloc(json_array_size(a) + 1, sizeof(*res->argv));
	if (res->argv == NULL)
		return jr_fail(p, "out of memory");
	json_array_foreach(a, i, x)
		if (get_text(p, x, "argv", 0, &res->argv[res->argc++], NULL))
			return -1;
	return 0;
}

/* "layout": {"suite": ["line", ...]} into res (report/layout_decl.h). */
static int read_layout(struct jr *p, json_t *o, struct results *res)
{
	const char *suite;
	json_t *a, *x;
	size_t i;

	if (o == NULL)
		return 0;
	if (!json_is_object(o))
		return jr_fail(p, "\"layout\" is not an object");
	json_object_foreach(o, suite, a) {
		if (!json_is_array(a))
			return jr_fail(p, "\"layout\" of %.60s is not an array",
				       suite);
		json_array_foreach(a, i, x) {
			char *line;
			int rc;
			if (get_text(p, x, "layout", 0, &line, NULL) != 0)
				return -1;
			rc = results_layout_add(res, suite, line);
			free(line);
			if (rc != 0)
				return jr_fail(p, "out of memory");
		}
	}
	return 0;
}

/* The head's members (format, version, config, ...) into res. */
static int read_head(struct jr *p, json_t *o, struct results *res)
{
	const char *fmt = json_string_value(json_object_get(o, "format"));
	json_t *ver = json_object_get(o, "version");

	if (!json_is_object(o))
		return jr_fail(p, "expected a JSON object");
	if (fmt == NULL || strcmp(fmt, "rxbench-results") != 0)
		return jr_fail(p, "not an rxbench results file (format is "
			       "not \"rxbench-results\")");
	if (!json_is_integer(ver))
		return jr_fail(p, "a results file needs \"version\"");
	p->version = (long)json_integer_value(ver);
	if (p->version < 1 || p->version > JSON_RESULTS_VERSION)
		return jr_fail(p, "results format version %ld; this rxbench "
			       "reads versions 1 to %d", p->version,
			       JSON_RESULTS_VERSION);
	if (get_bool(p, json_object_get(o, "interrupted"), "interrupted",
		     &res->interrupted) != 0 ||
	    read_config(p, json_object_get(o, "config"), res, 0) != 0 ||
	    read_config(p, json_object_get(o, "context"), res, 1) != 0 ||
	    read_argv(p, json_object_get(o, "argv"), res) != 0 ||
	    read_layout(p, json_object_get(o, "layout"), res) != 0)
		return -1;
	return 0;
}

/* jansson's error as "NAME:LINE:COL: text".  Always -1. */
static int load_failed(struct jr *p, const json_error_t *e)
{
	size_t line = p->line ? p->line : (size_t)e->line;

	snprintf(p->err, p->errsize, "%s:%zu:%d: %s", p->name, line,
		 e->column, e->text);
	msg_escape_controls(p->err, p->errsize);
	return -1;
}

/* The whole text of a results file (or an old journal, closed). */
static int read_document(struct jr *p, const char *text, size_t len,
			 struct results *res, int journal)
{
	json_error_t e;
	json_t *root, *benches, *x;
	size_t i;
	int rc;

	root = json_loadb(text, len, JSON_REJECT_DUPLICATES, &e);
	if (root == NULL)
		return load_failed(p, &e);
	rc = read_head(p, root, res);
	benches = json_object_get(root, "benchmarks");
	if (rc == 0 && !json_is_array(benches))
		rc = jr_fail(p, "a results file needs \"benchmarks\", an array");
	journal |= json_is_true(json_object_get(root, "journal"));
	json_array_foreach(benches, i, x)
		if (rc == 0)
			rc = read_bench(p, x, res, journal);
	json_decref(root);
	return rc;
}

int json_read_results(const char *text, size_t len, const char *name,
		      struct results *res, char *err, size_t errsize)
{
	struct jr p = {name, 0, err, errsize, 0};

	if (errsize > 0)
		err[0] = '\0';
	return read_document(&p, text, len, res, 0);
}

/*
 * A version 1 journal: the results format left open (a head over several
 * lines, then a benchmark per line each followed by ",\n").  Closed at
 * its last complete line and read as a results file.
 */
static int read_journal_v1(struct jr *p, const char *text, size_t len,
			   struct results *res)
{
	static const char tail[] = "\n ]\n}\n";
	size_t n = len;
	char *buf;
	int rc;

	while (n > 0 && text[n - 1] != '\n')
		n--; /* a line cut short by the kill */
	if (n >= 2 && text[n - 2] == ',')
		n -= 2;
	else if (n < 2 || text[n - 2] != '[')
		return jr_fail(p, "a journal cut short before its first "
			       "benchmark");
	buf = malloc(n + sizeof(tail));
	if (buf == NULL)
		return jr_fail(p, "out of memory");
	memcpy(buf, text, n);
	memcpy(buf + n, tail, sizeof(tail));
	rc = read_document(p, buf, n + sizeof(tail) - 1, res, 1);
	free(buf);
	return rc;
}

/* The next line of text from *pos (without its '\n'); 0 at the end or
   when the line is cut short (no '\n': the kill came mid-line). */
static int next_line(const char *text, size_t len, size_t *pos,
		     const char **line, size_t *n)
{
	const char *nl;

	if (*pos >= len)
		return 0;
	nl = memchr(text + *pos, '\n', len - *pos);
	if (nl == NULL)
		return 0;
	*line = text + *pos;
	*n = (size_t)(nl - *line);
	*pos = (size_t)(nl - text) + 1;
	return 1;
}

int json_read_journal(const char *text, size_t len, const char *name,
		      struct results *res, char *err, size_t errsize)
{
	struct jr p = {name, 1, err, errsize, 0};
	const char *line;
	size_t pos = 0, n;
	json_error_t e;
	json_t *v;
	int rc = 0;

	if (errsize > 0)
		err[0] = '\0';
	if (!next_line(text, len, &pos, &line, &n))
		return jr_fail(&p, "a journal cut short before its first "
			       "benchmark");
	v = json_loadb(line, n, JSON_REJECT_DUPLICATES, &e);
	if (v == NULL) { /* not one line: a version 1 journal */
		p.line = 0;
		rc = read_journal_v1(&p, text, len, res);
	} else {
		rc = read_head(&p, v, res);
		json_decref(v);
	}
	while (p.line > 0 && rc == 0 && next_line(text, len, &pos, &line, &n)) {
		p.line++;
		v = json_loadb(line, n, JSON_REJECT_DUPLICATES, &e);
		rc = v == NULL ? load_failed(&p, &e) : read_bench(&p, v, res, 1);
		json_decref(v);
	}
	res->interrupted = 1; /* the run that wrote it never ended */
	return rc;
}

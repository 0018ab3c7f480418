/*
 * html.c - HTML report writer (see html.h).
 *
 * The charts are drawn from the same tables the Markdown report prints
 * (report/layout.h), so the page and the Markdown always agree; only the
 * scaling plot reads the results directly, since it spans tables.
 */
#include "report/html.h"

#include "report/svg.h"
#include "report/layout.h"
#include "report/view.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static const char css[] =
	"body{font:14px/1.4 system-ui,sans-serif;margin:0 auto;max-width:"
	"1100px;padding:0 16px;color:#222}\n"
	"h1,h2,h3{font-weight:600}h2{border-bottom:1px solid #ccc;"
	"margin-top:2em}\n"
	"table{border-collapse:collapse;margin:.5em 0 1.5em}"
	"caption{caption-side:top;text-align:left;color:#555;padding:4px 0}\n"
	"th,td{border:1px solid #ddd;padding:3px 8px}th{background:#f4f4f4;"
	"cursor:pointer;user-select:none}\n"
	"td.num,th.num{text-align:right;font-variant-numeric:tabular-nums}\n"
	"th[aria-sort=ascending]::after{content:' \\25B2'}"
	"th[aria-sort=descending]::after{content:' \\25BC'}\n"
	"td.status{color:#b00}.banner{background:#fee;padding:8px}\n"
	"figure.chart{margin:1em 0}svg text{font:11px sans-serif;fill:#333}"
	"svg text.title{font-size:13px;font-weight:600}\n"
	"svg line.grid{stroke:#e4e4e4}svg text.tick{fill:#777}\n"
	"svg rect.bar:hover,svg circle.pt:hover{opacity:.7}\n"
	"table.kv td:first-child{font-weight:600}\n";

/* Sorts a table by the clicked column: numbers by data-v, else text. */
static const char script[] =
	"(function(){\n"
	"function key(c){return c.dataset.v!==undefined?"
	"parseFloat(c.dataset.v):null;}\n"
	"function sortBy(t,i,th){\n"
	" var asc=th.getAttribute('aria-sort')!=='ascending';\n"
	" t.querySelectorAll('th').forEach(function(h){"
	"h.removeAttribute('aria-sort');});\n"
	" th.setAttribute('aria-sort',asc?'ascending':'descending');\n"
	" var tb=t.tBodies[0],rows=Array.prototype.slice.call(tb.rows);\n"
	" rows.sort(function(a,b){\n"
	"  var x=a.cells[i],y=b.cells[i],u=key(x),v=key(y),r;\n"
	"  if(u!==null&&v!==null)r=u-v;else if(u!==null)r=-1;"
	"else if(v!==null)r=1;\n"
	"  else r=x.textContent.localeCompare(y.textContent);\n"
	"  return asc?r:-r;});\n"
	" rows.forEach(function(r){tb.appendChild(r);});}\n"
	"document.querySelectorAll('table.sortable').forEach(function(t){\n"
	" t.querySelectorAll('th').forEach(function(th,i){\n"
	"  th.addEventListener('click',function(){sortBy(t,i,th);});});});\n"
	"document.body.setAttribute('data-ready','1');\n"
	"})();\n";

/* Column index by name, or -1. */
static long col_of(const struct rtable *t, const char *name)
{
	for (size_t c = 0; c < t->ncols; c++)
		if (strcmp(t->cols[c], name) == 0)
			return (long)c;
	return -1;
}

static void html_table(FILE *out, const struct rtable *t)
{
	fputs("<h3>", out);
	xml_text(out, t->title);
	fputs("</h3>\n<table class=\"sortable\"><caption>", out);
	xml_text(out, t->caption);
	fputs("</caption>\n<thead><tr>", out);
	for (size_t c = 0; c < t->ncols; c++) {
		fputs(t->numeric[c] ? "<th class=\"num\">" : "<th>", out);
		xml_text(out, t->cols[c]);
		fputs("</th>", out);
	}
	fputs("</tr></thead>\n<tbody>\n", out);
	for (size_t r = 0; r < t->nrows; r++) {
		fputs("<tr>", out);
		for (size_t c = 0; c < t->ncols; c++) {
			const struct rcell *cell = rtable_cell(t, r, c);
			fprintf(out, "<td class=\"%s\"", isnan(cell->v) &&
				t->numeric[c] && cell->text ? "status"
				: t->numeric[c] ? "num" : "text");
			if (!isnan(cell->v) && !isinf(cell->v))
				fprintf(out, " data-v=\"%.17g\"", cell->v);
			fputs(cell->strong ? "><strong>" : ">", out);
			xml_text(out, cell->text);
			fputs(cell->strong ? "</strong></td>" : "</td>", out);
		}
		fputs("</tr>\n", out);
	}
	fputs("</tbody></table>\n", out);
}

/* "a / b" of the text columns of row r, into buf. */
static void row_label(const struct rtable *t, size_t r, char *buf,
		      size_t size)
{
	size_t used = 0;

	buf[0] = '\0';
	for (size_t c = 0; c < t->ncols && used < size; c++) {
		const char *s = rtable_cell(t, r, c)->text;
		int w;
		if (t->numeric[c] || s == NULL || strcmp(t->cols[c], "status") == 0)
			continue;
		w = snprintf(buf + used, size - used, "%s%s", used ? " / " : "",
			     s);
		if (w < 0)
			break;
		used += (size_t)w;
	}
}

/* A bar per row of column `value` (log scale unless linear). */
static int bars_from_table(FILE *out, const struct rtable *t,
			   const char *title, const char *value, int log)
{
	long vc = col_of(t, value), gc = col_of(t, "engine");
	struct svg_bar *bars = calloc(t->nrows + 1, sizeof(*bars));
	char (*labels)[160] = calloc(t->nrows + 1, sizeof(*labels));
	int rc = -1;

	if (bars == NULL || labels == NULL)
		goto out;
	rc = 0;
	if (vc < 0)
		goto out;
	for (size_t r = 0; r < t->nrows; r++) {
		row_label(t, r, labels[r], sizeof(labels[r]));
		bars[r].label = labels[r];
		bars[r].value = rtable_cell(t, r, (size_t)vc)->v;
		bars[r].group = gc >= 0 ? rtable_cell(t, r, (size_t)gc)->text
					: NULL;
	}
	svg_bar_chart(out, title, value, bars, t->nrows, log);
out:
	free(bars);
	free(labels);
	return rc;
}

/* Throughput against packet size: a line per scenario, the line rate. */
static int payload_chart(FILE *out, const struct rtable *t)
{
	struct svg_series *s = calloc(t->ncols, sizeof(*s));
	double *x = calloc(t->nrows + 1, sizeof(*x));
	double *y = calloc((t->nrows + 1) * t->ncols, sizeof(*y));
	char title[512];
	int rc = -1;

	if (s == NULL || x == NULL || y == NULL)
		goto out;
	for (size_t r = 0; r < t->nrows; r++)
		x[r] = rtable_cell(t, r, 0)->v;
	for (size_t c = 1; c < t->ncols; c++) {
		for (size_t r = 0; r < t->nrows; r++)
			y[c * t->nrows + r] = rtable_cell(t, r, c)->v;
		s[c - 1] = (struct svg_series){t->cols[c], x,
					       y + c * t->nrows, t->nrows,
					       strcmp(t->cols[c], "linerate") == 0};
	}
	snprintf(title, sizeof(title), "%s: throughput per core against "
		 "packet size", t->title);
	svg_line_chart(out, title, "packet size (bytes)", t->caption[0] ==
		       'M' ? "Mpps per core" : "per core", s, t->ncols - 1, 1, 1);
	rc = 0;
out:
	free(s);
	free(x);
	free(y);
	return rc;
}

/* The charts that go with a table, before it. */
static int table_charts(FILE *out, const char *suite, const struct rtable *t)
{
	char title[512];

	snprintf(title, sizeof(title), "%s, %s", suite, t->title);
	switch (t->kind) {
	case RTABLE_RANKING:
		snprintf(title, sizeof(title), "%s: engine ranking, geometric "
			 "mean of speed ratios (1 = fastest, lower is better)",
			 suite);
		return bars_from_table(out, t, title, "geomean", 0);
	case RTABLE_FQDN:
	case RTABLE_GENERIC:
		if (t->nrows > 120)
			return 0; /* unreadable as bars: the table says it */
		return bars_from_table(out, t, title, VIEW_TIME_UNIT, 1);
	case RTABLE_PAYLOAD:
		return payload_chart(out, t);
	default:
		return 0;
	}
}

/* --- FQDN scaling: ns/op against the policy size, per phase -------- */

/* The policy size of r: its "domains" key, else its domains metric. */
static double policy_size(const struct result *r)
{
	char buf[64];

	if (result_key(r, "domains", buf, sizeof(buf)))
		return strtod(buf, NULL);
	return view_median(r, "domains");
}

struct scaling {
	struct strlist names; /* series: name without phase and domains */
	double *x, *y;        /* per series, up to res->n points each */
	size_t *np;
	size_t cap;
};

/* The values of r's keys other than phase and domains: "baseline / re2". */
static void series_label(const struct result *r, char *buf, size_t size)
{
	const char *p = strchr(r->name, '/');
	size_t used = 0;

	buf[0] = '\0';
	while (p != NULL && used < size) {
		const char *lvl = p + 1, *end = strchr(lvl, '/');
		const char *eq = strchr(lvl, '=');
		size_t n = end ? (size_t)(end - lvl) : strlen(lvl);
		int w = 0;
		if (eq != NULL && eq < lvl + n &&
		    strncmp(lvl, "phase=", 6) != 0 &&
		    strncmp(lvl, "domains=", 8) != 0)
			w = snprintf(buf + used, size - used, "%s%.*s",
				     used ? " / " : "",
				     (int)(n - (size_t)(eq + 1 - lvl)), eq + 1);
		if (w < 0)
			break;
		used += (size_t)w;
		p = end;
	}
}

static int scaling_add(struct scaling *sc, const struct result *r,
		       double x)
{
	char name[1024];
	long i;

	series_label(r, name, sizeof(name));
	if (strlist_add(&sc->names, name, strlen(name)) != 0)
		return -1;
	i = strlist_find(&sc->names, name);
	if (sc->np[i] < sc->cap) {
		sc->x[(size_t)i * sc->cap + sc->np[i]] = x;
		sc->y[(size_t)i * sc->cap + sc->np[i]++] =
			view_median(r, VIEW_TIME_UNIT);
	}
	return 0;
}

/* Is r an ok result of the suite and phase with a policy size? */
static int scaling_point(const struct result *r, const char *suite,
			 const char *phase)
{
	const char *keys[] = {"phase"};
	const char *vals[] = {phase};

	return strcmp(r->suite, suite) == 0 && r->status == RESULT_OK &&
	       view_match(r, keys, vals, 1) && policy_size(r) > 0;
}

static int scaling_chart(FILE *out, const struct results *res,
			 const char *suite, const char *phase)
{
	struct scaling sc = {0};
	struct strlist sizes = {0};
	struct svg_series *s = NULL;
	char title[512], buf[64];
	int rc = -1;

	for (size_t i = 0; i < res->n; i++) {
		if (!scaling_point(&res->r[i], suite, phase))
			continue;
		snprintf(buf, sizeof(buf), "%g", policy_size(&res->r[i]));
		if (strlist_add(&sizes, buf, strlen(buf)) != 0)
			goto out;
	}
	rc = 0;
	if (sizes.n < 2)
		goto out; /* one size: nothing to plot */
	rc = -1;
	sc.cap = sizes.n;
	sc.x = calloc(res->n * sc.cap + 1, sizeof(*sc.x));
	sc.y = calloc(res->n * sc.cap + 1, sizeof(*sc.y));
	sc.np = calloc(res->n + 1, sizeof(*sc.np));
	if (sc.x == NULL || sc.y == NULL || sc.np == NULL)
		goto out;
	for (size_t i = 0; i < res->n; i++)
		if (scaling_point(&res->r[i], suite, phase) &&
		    scaling_add(&sc, &res->r[i], policy_size(&res->r[i])) != 0)
			goto out;
	s = calloc(sc.names.n + 1, sizeof(*s));
	if (s == NULL)
		goto out;
	for (size_t i = 0; i < sc.names.n; i++)
		s[i] = (struct svg_series){sc.names.s[i], sc.x + i * sc.cap,
					   sc.y + i * sc.cap, sc.np[i], 0};
	snprintf(title, sizeof(title), "%s, phase=%s: scaling with the "
		 "policy size", suite, phase);
	svg_line_chart(out, title, "domains in the policy",
		       VIEW_TIME_UNIT, s, sc.names.n, 1, 1);
	rc = 0;
out:
	free(s);
	free(sc.x);
	free(sc.y);
	free(sc.np);
	strlist_release(&sc.names);
	strlist_release(&sizes);
	return rc;
}

static int scaling_charts(FILE *out, const struct results *res,
			  const char *suite)
{
	struct strlist phases = {0};
	int rc = view_key_values(res, suite, "phase", &phases);

	for (size_t p = 0; p < phases.n && rc == 0; p++)
		rc = scaling_chart(out, res, suite, phases.s[p]);
	strlist_release(&phases);
	return rc;
}

/* --- the page ----------------------------------------------------- */

static void html_config(FILE *out, const struct results *res)
{
	fputs("<details open><summary>Run configuration</summary>\n"
	      "<table class=\"kv\">\n", out);
	for (size_t i = 0; i < res->ncfg; i++) {
		fputs("<tr><td>", out);
		xml_text(out, res->cfg[i].key);
		fputs("</td><td>", out);
		xml_text(out, res->cfg[i].value);
		fputs("</td></tr>\n", out);
	}
	fputs("</table></details>\n", out);
}

static int html_suite(FILE *out, const struct results *res, const char *suite)
{
	struct rtables ts = {0};
	struct strlist keys = {0};
	int rc = -1;

	if (report_suite_tables(res, suite, &ts) != 0 ||
	    view_keys(res, suite, &keys) != 0)
		goto out;
	fputs("<section class=\"suite\"><h2>", out);
	xml_text(out, suite);
	fputs("</h2>\n", out);
	if (view_layout_of(&keys) == LAYOUT_FQDN &&
	    scaling_charts(out, res, suite) != 0)
		goto out;
	for (size_t i = 0; i < ts.n; i++) {
		if (table_charts(out, suite, &ts.t[i]) != 0)
			goto out;
		html_table(out, &ts.t[i]);
	}
	fputs("</section>\n", out);
	rc = 0;
out:
	strlist_release(&keys);
	rtables_release(&ts);
	return rc;
}

int report_write_html(FILE *out, const struct results *res)
{
	struct strlist suites = {0};
	struct rtables fails = {0};
	int rc = -1;

	if (view_suites(res, &suites) != 0)
		goto out;
	fprintf(out, "<!DOCTYPE html>\n<html lang=\"en\"><head>"
		"<meta charset=\"utf-8\">\n<meta name=\"viewport\" "
		"content=\"width=device-width\">\n<title>rxbench results"
		"</title>\n<style>\n%s</style></head>\n<body>\n"
		"<h1>rxbench results</h1>\n", css);
	if (res->interrupted)
		fputs("<p class=\"banner\">The run was interrupted: results "
		      "are partial.</p>\n", out);
	html_config(out, res);
	for (size_t s = 0; s < suites.n; s++)
		if (html_suite(out, res, suites.s[s]) != 0)
			goto out;
	if (report_failure_table(res, &fails) != 0)
		goto out;
	for (size_t i = 0; i < fails.n; i++)
		html_table(out, &fails.t[i]);
	fprintf(out, "<script>\n%s</script>\n</body></html>\n", script);
	rc = ferror(out) ? -1 : 0;
out:
	rtables_release(&fails);
	strlist_release(&suites);
	return rc;
}

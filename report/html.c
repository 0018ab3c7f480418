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
#include "report/gofmt.h"

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
	"table.kv td:first-child{font-weight:600}\n"
	"section.verdict{background:#f5f9ff;border:1px solid #cde;padding:"
	"4px 16px;margin:1em 0}p.answer{font-size:15px;max-width:70em}\n"
	"nav.toc ul{columns:3;margin:0}nav.toc{font-size:13px}\n"
	"ul.short li{margin:.3em 0;font-size:15px}\n"
	"figure.chart{overflow-x:auto}\n";

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
	"document.querySelectorAll('g.toggle').forEach(function(g){\n"
	" g.style.cursor='pointer';\n"
	" g.addEventListener('click',function(){\n"
	"  var svg=g.ownerSVGElement,i=g.dataset.series;\n"
	"  var s=svg.querySelector('g.series[data-series=\"'+i+'\"]');\n"
	"  var off=s.style.display!=='none';\n"
	"  s.style.display=off?'none':'';g.style.opacity=off?0.35:1;});});\n"
	"document.body.setAttribute('data-ready','1');\n"
	"})();\n";

/* A table with an anchor id (its index on the page); its heading and
 * caption unless bare (the verdict, whose caption is its paragraph). */
static void table_open(FILE *out, const struct rtable *t, size_t id, int bare)
{
	if (bare) {
		fprintf(out, "<table class=\"sortable\" id=\"t%zu\">\n", id);
		return;
	}
	fprintf(out, "<h3 id=\"t%zu\">", id);
	xml_text(out, t->title);
	fputs("</h3>\n<table class=\"sortable\"><caption>", out);
	xml_text(out, t->caption);
	fputs("</caption>\n", out);
}

static void html_table_as(FILE *out, const struct rtable *t, size_t id,
			  int bare)
{
	table_open(out, t, id, bare);
	fputs("<thead><tr>", out);
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

static void html_table(FILE *out, const struct rtable *t, size_t id)
{
	html_table_as(out, t, id, 0);
}

void html_write_table(FILE *out, const struct rtable *t, size_t id)
{
	html_table(out, t, id);
}

/* --- charts from the tables --------------------------------------- */

/* Is t a suite's answer (not its overall ranking)? */
static int is_answer(const struct rtable *t)
{
	return t->kind == RTABLE_VERDICT && t->summary != NULL;
}


int html_wants_log(const double *v, size_t n)
{
	double lo = INFINITY, hi = 0;

	for (size_t i = 0; i < n; i++)
		if (v[i] > 0 && isfinite(v[i])) {
			lo = fmin(lo, v[i]);
			hi = fmax(hi, v[i]);
		}
	return hi > 10 * lo;
}

/* The text after the last '=' of a title ("engine=re2": "re2"). */
static const char *title_value(const char *title)
{
	const char *eq = strrchr(title, '=');

	return eq ? eq + 1 : title;
}

/* Overall ranking: a bar per contender. */
static int ranking_chart(FILE *out, struct svg_colors *pal, const char *suite,
			 const struct rtable *t)
{
	struct svg_bar *bars = calloc(t->nrows + 1, sizeof(*bars));
	double *v = calloc(t->nrows + 1, sizeof(*v));
	char title[256];

	if (bars == NULL || v == NULL) {
		free(bars);
		free(v);
		return -1;
	}
	for (size_t r = 0; r < t->nrows; r++) {
		bars[r] = (struct svg_bar){rtable_cell(t, r, 0)->text,
					   rtable_cell(t, r, 1)->v,
					   rtable_cell(t, r, 0)->text};
		v[r] = bars[r].value;
	}
	snprintf(title, sizeof(title), "%s: overall ranking (geometric mean "
		 "of each one's time over the best; 1 = best, lower is "
		 "better)", suite);
	svg_bar_chart(out, pal, title, "x the best (geomean)", bars, t->nrows,
		      html_wants_log(v, t->nrows));
	free(bars);
	free(v);
	return 0;
}

/*
 * Tables ts[a..b) with a column key (a table per split value): a chart
 * per column value, a series per table against the first key, the lead
 * columns dashed (the line rate).
 */
static int pivot_charts(FILE *out, struct svg_colors *pal, const char *suite,
			const struct rtables *ts, size_t a, size_t b)
{
	const struct rtable *t0 = &ts->t[a];
	size_t ns = b - a + t0->nlead, nr = t0->nrows;
	struct svg_series *s = calloc(ns + 1, sizeof(*s));
	double *x = calloc((ns + 1) * (nr + 1), sizeof(*x));
	double *y = calloc((ns + 1) * (nr + 1), sizeof(*y));
	char title[512], xl[128];
	int rc = s && x && y ? 0 : -1;

	for (size_t c = t0->nkeys + t0->nlead; rc == 0 && c < t0->ncols; c++) {
		size_t k = 0;
		for (size_t i = a; i < b; i++, k++) {
			const struct rtable *t = &ts->t[i];
			size_t cc = c < t->ncols && !strcmp(t->cols[c], t0->cols[c]) ? c : 0;
			for (size_t r = 0; r < t->nrows && r < nr; r++) {
				x[k * nr + r] = rtable_cell(t, r, 0)->v;
				y[k * nr + r] = cc ? rtable_cell(t, r, cc)->v : NAN;
			}
			s[k] = (struct svg_series){title_value(t->title),
						   x + k * nr, y + k * nr, nr, 0,
						   title_value(t->title)};
		}
		for (size_t l = 0; l < t0->nlead; l++, k++) {
			for (size_t r = 0; r < nr; r++) {
				x[k * nr + r] = rtable_cell(t0, r, 0)->v;
				y[k * nr + r] = rtable_cell(t0, r, t0->nkeys + l)->v;
			}
			s[k] = (struct svg_series){t0->cols[t0->nkeys + l],
						   x + k * nr, y + k * nr, nr, 1,
						   NULL};
		}
		snprintf(title, sizeof(title), "%s, %s=%s: %s", suite,
			 t0->colkey, t0->cols[c], t0->unit);
		snprintf(xl, sizeof(xl), "%s%s%s%s", t0->cols[0],
			 t0->keyunit[0] ? " (" : "", t0->keyunit,
			 t0->keyunit[0] ? ")" : "");
		svg_line_chart(out, pal, title, xl, t0->unit, s, k,
			       html_wants_log(x, k * nr), html_wants_log(y, k * nr));
	}
	free(s);
	free(x);
	free(y);
	return rc;
}

/* Every row's first key is a number (a size): a line chart fits. */
static int numeric_rows(const struct rtable *t)
{
	for (size_t r = 0; r < t->nrows; r++) {
		const char *s = rtable_cell(t, r, 0)->text;
		char *end;
		if (s == NULL || (strtod(s, &end), end == s || *end != '\0'))
			return 0;
	}
	return t->nrows > 0;
}

/* A column-key table whose rows are names (patterns): a bar per cell,
 * coloured by its column (the engine). */
static int cell_bars(FILE *out, struct svg_colors *pal, const char *suite,
		     const struct rtable *t)
{
	size_t nv = t->ncols - t->nkeys - t->nlead, n = 0;
	struct svg_bar *bars = calloc(t->nrows * nv + 1, sizeof(*bars));
	char (*labels)[160] = calloc(t->nrows * nv + 1, sizeof(*labels));
	double *v = calloc(t->nrows * nv + 1, sizeof(*v));
	char title[512];
	int rc = bars && labels && v ? 0 : -1;

	for (size_t r = 0; rc == 0 && r < t->nrows; r++)
		for (size_t c = t->nkeys + t->nlead; c < t->ncols; c++, n++) {
			snprintf(labels[n], sizeof(labels[n]), "%s: %s",
				 rtable_cell(t, r, 0)->text, t->cols[c]);
			bars[n] = (struct svg_bar){labels[n],
						   rtable_cell(t, r, c)->v,
						   t->cols[c]};
			v[n] = bars[n].value;
		}
	snprintf(title, sizeof(title), "%s, %s: %s per %s and %s", suite,
		 t->title, t->unit, t->cols[0], t->colkey);
	if (rc == 0)
		svg_bar_chart(out, pal, title, t->unit, bars, n, html_wants_log(v, n));
	free(bars);
	free(labels);
	free(v);
	return rc;
}

/* A table with two key columns: a heatmap of its first metric. */
static int heatmap_chart(FILE *out, const char *suite, const struct rtable *t)
{
	struct strlist rows = {0}, cols = {0};
	double *v = NULL;
	char title[512];
	int rc = -1;

	for (size_t r = 0; r < t->nrows; r++) {
		const char *a = rtable_cell(t, r, 0)->text, *b = rtable_cell(t, r, 1)->text;
		if (a == NULL || b == NULL ||
		    strlist_add(&rows, a, strlen(a)) != 0 ||
		    strlist_add(&cols, b, strlen(b)) != 0)
			goto out;
	}
	v = malloc((rows.n * cols.n + 1) * sizeof(*v));
	if (v == NULL)
		goto out;
	for (size_t i = 0; i < rows.n * cols.n; i++)
		v[i] = NAN;
	for (size_t r = 0; r < t->nrows; r++)
		v[(size_t)strlist_find(&rows, rtable_cell(t, r, 0)->text) * cols.n +
		  (size_t)strlist_find(&cols, rtable_cell(t, r, 1)->text)] =
			rtable_cell(t, r, 2)->v;
	snprintf(title, sizeof(title), "%s, %s: %s per %s x %s", suite,
		 t->title, t->cols[2], t->cols[0], t->cols[1]);
	svg_heatmap(out, title, t->cols[2], (const char *const *)rows.s,
		    rows.n, (const char *const *)cols.s, cols.n, v, 0);
	rc = 0;
out:
	free(v);
	strlist_release(&rows);
	strlist_release(&cols);
	return rc;
}

/* Growth: a series per row against the size in the column names. */
static int growth_chart(FILE *out, struct svg_colors *pal, const char *suite,
			const struct rtable *t)
{
	size_t nsz = t->ncols >= 4 ? t->ncols - 4 : 0;
	struct svg_series *s = calloc(t->nrows + 1, sizeof(*s));
	double *x = calloc(nsz + 1, sizeof(*x));
	double *y = calloc((t->nrows + 1) * (nsz + 1), sizeof(*y));
	char title[256], xl[160];
	int rc = s && x && y ? 0 : -1;

	for (size_t k = 0; rc == 0 && k < nsz; k++)
		x[k] = strtod(title_value(t->cols[1 + k]), NULL);
	for (size_t r = 0; rc == 0 && r < t->nrows; r++) {
		for (size_t k = 0; k < nsz; k++)
			y[r * nsz + k] = rtable_cell(t, r, 1 + k)->v;
		s[r] = (struct svg_series){rtable_cell(t, r, 0)->text, x,
					   y + r * nsz, nsz, 0, NULL};
	}
	snprintf(title, sizeof(title), "%s: %s growth with %s (click a legend "
		 "entry to hide or show its series)", suite, t->unit,
		 t->colkey);
	snprintf(xl, sizeof(xl), "%s%s%s%s", t->colkey, t->keyunit[0] ? " (" : "",
		 t->keyunit, t->keyunit[0] ? ")" : "");
	if (rc == 0)
		svg_line_chart(out, pal, title, xl, t->unit, s, t->nrows,
			       html_wants_log(x, nsz), html_wants_log(y, t->nrows * nsz));
	free(s);
	free(x);
	free(y);
	return rc;
}

/* The charts of ts[i] (and the tables after it it draws with); *next. */
static int table_charts(FILE *out, struct svg_colors *pal, const char *suite,
			const struct rtables *ts, size_t i, size_t *next)
{
	const struct rtable *t = &ts->t[i];
	size_t j = i + 1;

	*next = j;
	if (t->kind == RTABLE_VERDICT && !is_answer(t))
		return ranking_chart(out, pal, suite, t);
	if (t->kind == RTABLE_GROWTH)
		return growth_chart(out, pal, suite, t);
	if (t->kind != RTABLE_TABLE)
		return 0;
	if (t->colkey != NULL && !numeric_rows(t))
		return cell_bars(out, pal, suite, t);
	if (t->colkey != NULL) {
		while (j < ts->n && ts->t[j].kind == RTABLE_TABLE &&
		       ts->t[j].colkey && !strcmp(ts->t[j].unit, t->unit))
			j++;
		*next = j;
		return pivot_charts(out, pal, suite, ts, i, j);
	}
	if (t->nkeys == 2 && t->ncols > 2 && t->nrows > 1)
		return heatmap_chart(out, suite, t);
	return 0;
}

/* --- the page ----------------------------------------------------- */

void html_page_open(FILE *out, const char *title)
{
	fputs("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
	      "\n<meta name=\"viewport\" content=\"width=device-width\">\n"
	      "<title>", out);
	xml_text(out, title);
	fprintf(out, "</title>\n<style>\n%s</style></head>\n<body>\n<h1>", css);
	xml_text(out, title);
	fputs("</h1>\n", out);
}

void html_page_close(FILE *out)
{
	fprintf(out, "<script>\n%s</script>\n</body></html>\n", script);
}

void html_config_table(FILE *out, const struct results *res)
{
	fputs("<table class=\"kv\">\n", out);
	for (size_t i = 0; i < res->ncfg; i++) {
		fputs("<tr><td>", out);
		xml_text(out, res->cfg[i].key);
		fputs("</td><td>", out);
		xml_text(out, res->cfg[i].value);
		fputs("</td></tr>\n", out);
	}
	fputs("</table>\n", out);
}

static void html_config(FILE *out, const struct results *res)
{
	fputs("<details id=\"config\"><summary>Run configuration</summary>\n",
	      out);
	html_config_table(out, res);
	fputs("</details>\n", out);
}

struct page {
	const struct results *res;
	struct strlist suites;
	struct rtables *ts; /* per suite */
	struct svg_colors pal;
};

static void html_verdicts(FILE *out, struct page *pg)
{
	fputs("<section class=\"verdict\" id=\"verdict\"><h2>Verdict</h2>\n"
	      "<ul class=\"short\">\n", out);
	for (size_t s = 0; s < pg->suites.n; s++)
		for (size_t i = 0; i < pg->ts[s].n; i++) {
			if (!is_answer(&pg->ts[s].t[i]))
				continue;
			fprintf(out, "<li><a href=\"#t%zu\"><b>", 1000 * s + i);
			xml_text(out, pg->suites.s[s]);
			fputs("</b></a>: ", out);
			xml_text(out, pg->ts[s].t[i].summary);
			fputs("</li>\n", out);
		}
	fputs("</ul>\n", out);
	for (size_t s = 0; s < pg->suites.n; s++)
		for (size_t i = 0; i < pg->ts[s].n; i++) {
			const struct rtable *t = &pg->ts[s].t[i];
			if (!is_answer(t))
				continue;
			fputs("<h3>", out);
			xml_text(out, pg->suites.s[s]);
			fputs("</h3>\n<p class=\"answer\">", out);
			xml_text(out, t->caption);
			fputs("</p>\n", out);
			html_table_as(out, t, 1000 * s + i, 1);
		}
	fputs("</section>\n", out);
}

static void html_toc(FILE *out, const struct page *pg)
{
	fputs("<nav class=\"toc\"><b>Contents</b><ul>\n<li><a href=\"#verdict"
	      "\">Verdict</a></li>\n", out);
	for (size_t s = 0; s < pg->suites.n; s++) {
		fprintf(out, "<li><a href=\"#s%zu\">", s);
		xml_text(out, pg->suites.s[s]);
		fputs("</a></li>\n", out);
		for (size_t i = 0; i < pg->ts[s].n && i < 40; i++) {
			if (is_answer(&pg->ts[s].t[i]))
				continue;
			fprintf(out, "<li>&nbsp;&nbsp;<a href=\"#t%zu\">",
				1000 * s + i);
			xml_text(out, pg->ts[s].t[i].title);
			fputs("</a></li>\n", out);
		}
	}
	fputs("<li><a href=\"#config\">Run configuration</a></li></ul></nav>\n",
	      out);
}

static int html_suite(FILE *out, struct page *pg, size_t s)
{
	const struct rtables *ts = &pg->ts[s];

	fprintf(out, "<section class=\"suite\" id=\"s%zu\"><h2>", s);
	xml_text(out, pg->suites.s[s]);
	fputs("</h2>\n", out);
	for (size_t i = 0, next; i < ts->n; i = next) {
		if (table_charts(out, &pg->pal, pg->suites.s[s], ts, i,
				 &next) != 0)
			return -1;
		for (size_t k = i; k < next; k++)
			if (!is_answer(&ts->t[k]))
				html_table(out, &ts->t[k], 1000 * s + k);
	}
	fputs("</section>\n", out);
	return 0;
}

static int page_tables(struct page *pg, const struct report_opts *opts)
{
	char err[256];

	if (view_suites(pg->res, &pg->suites) != 0)
		return -1;
	pg->ts = calloc(pg->suites.n + 1, sizeof(*pg->ts));
	if (pg->ts == NULL)
		return -1;
	for (size_t s = 0; s < pg->suites.n; s++)
		if (report_suite_tables(pg->res, pg->suites.s[s], opts,
					&pg->ts[s], err, sizeof(err)) != 0) {
			fprintf(stderr, "rxbench: suite %s: %s\n",
				pg->suites.s[s], err[0] ? err : "out of memory");
			return -1;
		}
	return 0;
}

int report_write_html(FILE *out, const struct results *res,
		      const struct report_opts *opts)
{
	struct page *pg = calloc(1, sizeof(*pg));
	struct rtables fails = {0};
	int rc = -1;

	if (pg == NULL)
		return -1;
	pg->res = res;
	if (page_tables(pg, opts) != 0)
		goto out;
	html_page_open(out, "rxbench results");
	if (res->interrupted)
		fputs("<p class=\"banner\">The run was interrupted: results "
		      "are partial.</p>\n", out);
	html_verdicts(out, pg);
	html_toc(out, pg);
	for (size_t s = 0; s < pg->suites.n; s++)
		if (html_suite(out, pg, s) != 0)
			goto out;
	if (report_failure_table(res, &fails) != 0)
		goto out;
	for (size_t i = 0; i < fails.n; i++)
		html_table(out, &fails.t[i], 999000 + i);
	html_config(out, res);
	html_page_close(out);
	rc = ferror(out) ? -1 : 0;
out:
	for (size_t s = 0; pg->ts != NULL && s < pg->suites.n; s++)
		rtables_release(&pg->ts[s]);
	free(pg->ts);
	strlist_release(&pg->suites);
	free(pg);
	rtables_release(&fails);
	return rc;
}

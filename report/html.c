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

static int html_suite(FILE *out, const struct results *res, const char *suite,
		      const struct report_opts *opts)
{
	struct rtables ts = {0};
	char err[256];
	int rc = -1;

	if (report_suite_tables(res, suite, opts, &ts, err, sizeof(err)) != 0)
		goto out;
	fputs("<section class=\"suite\"><h2>", out);
	xml_text(out, suite);
	fputs("</h2>\n", out);
	for (size_t i = 0; i < ts.n; i++)
		html_table(out, &ts.t[i]);
	fputs("</section>\n", out);
	rc = 0;
out:
	rtables_release(&ts);
	return rc;
}

int report_write_html(FILE *out, const struct results *res,
		      const struct report_opts *opts)
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
		if (html_suite(out, res, suites.s[s], opts) != 0)
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

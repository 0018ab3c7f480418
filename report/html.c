/*
 * html.c - HTML report writer (see html.h).
 *
 * The charts are drawn from the same tables the Markdown report prints
 * (report/layout.h), so the page and the Markdown always agree; only the
 * harness floor is told from the results (which column's results have no
 * engine), since a table does not say.  Sections are built in memory
 * (open_memstream) because a section's charts go partly on top of the
 * suite, partly into its collapsed section.
 */
#define _GNU_SOURCE
#include "report/html.h"

#include "report/svg.h"
#include "report/layout.h"
#include "report/rtable.h"
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
	"4px 16px;margin:1em 0}section.verdict h2{margin-top:.5em}p.answer{font-size:15px;max-width:70em}\n"
	"nav.toc{font-size:13px;margin:.5em 0}nav.toc ul{display:inline;"
	"padding:0;margin:0}nav.toc li{display:inline;margin-right:1.2em}\n"
	"ul.short li{margin:.3em 0;font-size:15px}\n"
	"figure.chart{overflow-x:auto}\n"
	"p.question{max-width:75em}\n"
	"details.more{border:1px solid #e2e2e2;border-radius:4px;margin:"
	".4em 0;padding:2px 10px;overflow-x:auto}\n"
	"details.more>summary{cursor:pointer;padding:3px 0}\n";

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

/* A line or bar chart shows at most this many contenders (more are split
 * into several charts): one chart answers one question. */
#define MAX_SERIES 12

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

/* The key=value pairs a table's title ends with ("Mpps per core:
 * engine=re2", "phase=match-name, domains=500"); none when it ends in
 * anything else ("ns/op per engine"). */
#define MAX_PAIRS 8
struct pairs {
	size_t n;
	char k[MAX_PAIRS][64], v[MAX_PAIRS][256];
};

static void title_pairs(const char *title, struct pairs *p)
{
	const char *s = title, *colon;

	p->n = 0;
	while ((colon = strstr(s, ": ")) != NULL)
		s = colon + 2;
	while (*s && p->n < MAX_PAIRS) {
		size_t len = strcspn(s, ","), klen = strcspn(s, "=");
		if (klen >= len) {
			p->n = 0; /* a piece that is no k=v: no pairs */
			return;
		}
		snprintf(p->k[p->n], sizeof(p->k[0]), "%.*s", (int)klen, s);
		snprintf(p->v[p->n], sizeof(p->v[0]), "%.*s",
			 (int)(len - klen - 1), s + klen + 1);
		p->n++;
		s += len;
		s += strspn(s, ", ");
	}
}

/* "engine" or "engine, mode": the keys of pairs, into buf. */
static void pairs_keys(const struct pairs *p, char *buf, size_t size)
{
	size_t used = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < p->n && used < size; i++)
		used += (size_t)snprintf(buf + used, size - used, "%s%s",
					 i ? ", " : "", p->k[i]);
}

/* A split table's name in a legend: its title's values ("re2", "re2 /
 * stream"), else its title. */
static void table_name(const struct rtable *t, char *buf, size_t size)
{
	struct pairs p;
	size_t used = 0;

	title_pairs(t->title, &p);
	snprintf(buf, size, "%s", p.n ? "" : t->title);
	for (size_t i = 0; i < p.n && used < size; i++)
		used += (size_t)snprintf(buf + used, size - used, "%s%s",
					 i ? " / " : "", p.v[i]);
}

/*
 * Where a suite's charts go.  Those the answer is about (drawn from the
 * suite's first declared table, lead, for groups a row of the answer
 * names, or for no group in particular) go on top, open, under the
 * answer's paragraph; the others beside their tables, collapsed (more,
 * nmore counting them).
 */
struct charts {
	struct svg_colors *pal;
	const struct results *res;
	const char *suite;
	const struct rtable *answer; /* the suite's verdict, or NULL */
	int lead;
	FILE *top, *more;
	size_t nmore;
};

/* Does a row of the answer hold every value of p (or p none)? */
static int about_answer(const struct rtable *answer, const struct pairs *p)
{
	if (answer == NULL || p->n == 0)
		return 1;
	for (size_t r = 0; r < answer->nrows; r++) {
		size_t found = 0;
		for (size_t i = 0; i < p->n; i++)
			for (size_t c = 0; c < answer->ncols; c++) {
				const char *x = rtable_cell(answer, r, c)->text;
				if (x != NULL && strcmp(x, p->v[i]) == 0) {
					found++;
					break;
				}
			}
		if (found == p->n)
			return 1;
	}
	return 0;
}

static FILE *chart_out(const struct charts *ch, const struct pairs *about)
{
	return ch->lead && about_answer(ch->answer, about) ? ch->top : ch->more;
}

/* A chart drawn (rc 0) into o: counted when collapsed. */
static void chart_drawn(struct charts *ch, FILE *o, int rc)
{
	ch->nmore += rc == 0 && o == ch->more;
}

/* Overall ranking: a bar per contender, on top (it is the answer's). */
static int ranking_chart(struct charts *ch, const struct rtable *t)
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
		 "better)", ch->suite);
	svg_bar_chart(ch->top, ch->pal, title, "x the best (geomean)", bars,
		      t->nrows, html_wants_log(v, t->nrows));
	free(bars);
	free(v);
	return 0;
}

/*
 * Is column value v of key colkey the harness alone: the suite's results
 * with colkey=v lack every key the tables are split by (payload's base
 * scenario has no engine)?
 */
static int floor_column(const struct charts *ch, const char *colkey,
			const char *v, const struct pairs *split)
{
	char buf[512];
	size_t found = 0;

	for (size_t i = 0; split->n > 0 && i < ch->res->n; i++) {
		const struct result *r = &ch->res->r[i];
		if (strcmp(r->suite, ch->suite) != 0 ||
		    !result_key(r, colkey, buf, sizeof(buf)) || strcmp(buf, v))
			continue;
		for (size_t k = 0; k < split->n; k++)
			if (result_key(r, split->k[k], buf, sizeof(buf)))
				return 0;
		found++;
	}
	return found > 0;
}

/* The first value column of t0 that is the harness alone, or 0. */
static size_t floor_col(const struct charts *ch, const struct rtable *t0,
			const struct pairs *split)
{
	for (size_t c = t0->nkeys + t0->nlead; c < t0->ncols; c++)
		if (floor_column(ch, t0->colkey, t0->cols[c], split))
			return c;
	return 0;
}

/* The floor's series name: "floor (harness, no engine)". */
static void floor_name(const struct pairs *split, char *buf, size_t size)
{
	char keys[160];

	pairs_keys(split, keys, sizeof(keys));
	snprintf(buf, size, "floor (harness, no %s)", keys);
}

/* A pivot chart's series: column c of t (none when 0) against t's first
 * key, into x and y (nr points each). */
static struct svg_series pivot_series(const struct rtable *t, size_t c,
				      size_t nr, double *x, double *y,
				      const char *name, enum svg_line style)
{
	for (size_t r = 0; r < nr; r++) {
		x[r] = r < t->nrows ? rtable_cell(t, r, 0)->v : NAN;
		y[r] = r < t->nrows && c ? rtable_cell(t, r, c)->v : NAN;
	}
	return (struct svg_series){name, x, y, nr, style,
				   style == SVG_LINE ? name : NULL};
}

/* Column c of t if it is t0's column c by name, else 0 (none). */
static size_t same_col(const struct rtable *t, const struct rtable *t0,
		       size_t c)
{
	return c < t->ncols && !strcmp(t->cols[c], t0->cols[c]) ? c : 0;
}

/*
 * Tables ts[a..b) with a column key (a table per split value): a chart
 * per column value, a series per table against the first key, the lead
 * columns dashed (the line rate).  A column of the harness alone (no
 * engine) is no chart of its own: it is every chart's floor, dotted grey
 * under its own name.  More than MAX_SERIES tables: a chart per
 * MAX_SERIES of them.
 */
struct pivot {
	const struct rtables *ts;
	size_t a, b, fc; /* fc: the floor's column, or 0 */
	struct pairs split;
	char floor[200];
};

static int pivot_chart(struct charts *ch, const struct pivot *pv, size_t c,
		       size_t from, size_t to)
{
	const struct rtable *t0 = &pv->ts->t[pv->a];
	size_t nr = t0->nrows, ns = to - from + t0->nlead + 1, k = 0;
	struct svg_series *s = calloc(ns, sizeof(*s));
	char (*names)[192] = calloc(ns, sizeof(*names));
	double *x = calloc(ns * (nr + 1), sizeof(*x));
	double *y = calloc(ns * (nr + 1), sizeof(*y));
	char title[512], xl[128], keys[160], part[48] = "";
	struct pairs about = {.n = 1};
	FILE *o;
	int rc = s && names && x && y ? 0 : -1;

	for (size_t i = from; rc == 0 && i < to; i++, k++) {
		const struct rtable *t = &pv->ts->t[i];
		table_name(t, names[k], sizeof(names[k]));
		s[k] = pivot_series(t, same_col(t, t0, c), nr, x + k * nr,
				    y + k * nr, names[k], SVG_LINE);
	}
	for (size_t l = 0; rc == 0 && l < t0->nlead; l++, k++)
		s[k] = pivot_series(t0, t0->nkeys + l, nr, x + k * nr,
				    y + k * nr, t0->cols[t0->nkeys + l],
				    SVG_REFERENCE);
	if (rc == 0 && pv->fc) {
		s[k] = pivot_series(t0, pv->fc, nr, x + k * nr, y + k * nr,
				    pv->floor, SVG_FLOOR);
		k++;
	}
	if (rc == 0) {
		pairs_keys(&pv->split, keys, sizeof(keys));
		if (to - from < pv->b - pv->a)
			snprintf(part, sizeof(part), " (%zu to %zu of %zu)",
				 from - pv->a + 1, to - pv->a, pv->b - pv->a);
		snprintf(title, sizeof(title), "%s, %s=%s: %s against %s, a line "
			 "per %s%s", ch->suite, t0->colkey, t0->cols[c], t0->unit,
			 t0->cols[0], keys[0] ? keys : "table", part);
		snprintf(xl, sizeof(xl), "%s%s%s%s", t0->cols[0],
			 t0->keyunit[0] ? " (" : "", t0->keyunit,
			 t0->keyunit[0] ? ")" : "");
		snprintf(about.k[0], sizeof(about.k[0]), "%s", t0->colkey);
		snprintf(about.v[0], sizeof(about.v[0]), "%s", t0->cols[c]);
		o = chart_out(ch, &about);
		chart_drawn(ch, o, svg_line_chart(o, ch->pal, title, xl,
			    t0->unit, s, k, html_wants_log(x, k * nr),
			    html_wants_log(y, k * nr)));
	}
	free(s);
	free(names);
	free(x);
	free(y);
	return rc;
}

static int pivot_charts(struct charts *ch, const struct rtables *ts,
			size_t a, size_t b)
{
	struct pivot pv = {ts, a, b, 0, {0}, ""};
	const struct rtable *t0 = &ts->t[a];

	title_pairs(t0->title, &pv.split);
	pv.fc = floor_col(ch, t0, &pv.split);
	floor_name(&pv.split, pv.floor, sizeof(pv.floor));
	for (size_t c = t0->nkeys + t0->nlead; c < t0->ncols; c++) {
		if (c == pv.fc)
			continue;
		for (size_t i = a; i < b; i += MAX_SERIES)
			if (pivot_chart(ch, &pv, c, i, i + MAX_SERIES < b ?
					i + MAX_SERIES : b) != 0)
				return -1;
	}
	return 0;
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

/* A heatmap of a grid (rows x cols, row-major), where the chart goes. */
static int draw_heatmap(struct charts *ch, const struct rtable *t,
			const char *title, const char *unit,
			struct strlist *rows, struct strlist *cols,
			const double *v, int higher_better)
{
	struct pairs about;
	FILE *o;

	title_pairs(t->title, &about);
	o = chart_out(ch, &about);
	chart_drawn(ch, o, svg_heatmap(o, title, unit,
				       (const char *const *)rows->s, rows->n,
				       (const char *const *)cols->s, cols->n,
				       v, higher_better));
	return 0;
}

/* Row r's keys joined by " / ", into buf. */
static void row_label(const struct rtable *t, size_t r, char *buf,
		      size_t size)
{
	size_t used = 0;

	buf[0] = '\0';
	for (size_t c = 0; c < (t->nkeys ? t->nkeys : 1) && used < size; c++)
		used += (size_t)snprintf(buf + used, size - used, "%s%s",
					 c ? " / " : "",
					 rtable_cell(t, r, c)->text ?
					 rtable_cell(t, r, c)->text : "");
}

/* A column-key table whose rows are names (scan's patterns): a heatmap,
 * a row per row, a column per column value (the engine). */
static int cell_heatmap(struct charts *ch, const struct rtable *t)
{
	size_t k0 = t->nkeys + t->nlead, nc = t->ncols - k0;
	struct strlist rows = {0}, cols = {0};
	double *v = malloc((t->nrows * nc + 1) * sizeof(*v));
	char title[512], label[512];
	int rc = v ? 0 : -1;

	for (size_t r = 0; rc == 0 && r < t->nrows; r++) {
		row_label(t, r, label, sizeof(label));
		/* a label met twice: no chart (its rows could not be told
		   apart), rows.n falls short of t->nrows */
		rc = strlist_add(&rows, label, strlen(label));
		for (size_t c = 0; rc == 0 && c < nc; c++)
			v[rows.n ? (rows.n - 1) * nc + c : 0] =
				rtable_cell(t, r, k0 + c)->v;
	}
	for (size_t c = 0; rc == 0 && c < nc; c++)
		rc = strlist_add(&cols, t->cols[k0 + c], strlen(t->cols[k0 + c]));
	if (rc == 0 && rows.n == t->nrows && cols.n == nc) {
		snprintf(title, sizeof(title), "%s, %s: %s per %s and %s",
			 ch->suite, t->title, t->unit, t->cols[0], t->colkey);
		rc = draw_heatmap(ch, t, title, t->unit, &rows, &cols, v,
				  t->better == BETTER_HIGHER);
	}
	free(v);
	strlist_release(&rows);
	strlist_release(&cols);
	return rc;
}

/* A table with two key columns: a heatmap of its first metric. */
static int heatmap_chart(struct charts *ch, const struct rtable *t)
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
	snprintf(title, sizeof(title), "%s, %s: %s per %s x %s", ch->suite,
		 t->title, t->cols[2], t->cols[0], t->cols[1]);
	rc = draw_heatmap(ch, t, title, t->cols[2], &rows, &cols, v,
			  view_better(ch->res, ch->suite, t->cols[2]) ==
			  BETTER_HIGHER);
out:
	free(v);
	strlist_release(&rows);
	strlist_release(&cols);
	return rc;
}

/* --- growth: charts of at most MAX_SERIES rows ---------------------- */

/* A growth row's benchmark name in levels after the suite's part
 * ("Payload/scenario=literal/engine=re2": scenario=literal, engine=re2). */
#define MAX_LEVELS 8
struct levels {
	size_t n;
	char k[MAX_LEVELS][64], v[MAX_LEVELS][192];
};

static void name_levels(const char *name, struct levels *l)
{
	const char *p = name ? strchr(name, '/') : NULL;

	l->n = 0;
	while (p != NULL && l->n < MAX_LEVELS) {
		const char *lvl = p + 1, *eq;
		size_t len = strcspn(lvl, "/");
		eq = memchr(lvl, '=', len);
		snprintf(l->k[l->n], sizeof(l->k[0]), "%.*s",
			 (int)(eq ? (size_t)(eq - lvl) : len), lvl);
		snprintf(l->v[l->n], sizeof(l->v[0]), "%.*s",
			 (int)(eq ? len - (size_t)(eq - lvl) - 1 : len),
			 eq ? eq + 1 : lvl);
		l->n++;
		p = lvl[len] ? lvl + len : NULL;
	}
}

/* Levels [from, to) of l as "v / v" (sep " / ") or "k=v, k=v". */
static void levels_text(const struct levels *l, size_t from, size_t to,
			int with_keys, char *buf, size_t size)
{
	size_t used = 0;

	buf[0] = '\0';
	for (size_t i = from; i < to && i < l->n && used < size; i++)
		used += (size_t)snprintf(buf + used, size - used,
					 with_keys ? "%s%s=%s" : "%s%.0s%s",
					 i > from ? (with_keys ? ", " : " / ")
					 : "", l->k[i], l->v[i]);
}

/*
 * The growth table as charts: rows grouped by their first level
 * (scenario, phase), a group of more than MAX_SERIES rows by its first
 * two (phase and strategy), and so on; a series per row named by the
 * rest (the engine).  A row with fewer levels than the others (payload's
 * base: no engine) is the harness alone: every group's floor.
 */
struct growth {
	const struct rtable *t;
	struct levels *lv;
	size_t *depth; /* per row: the levels that name its group */
	size_t maxlev, nsz;
	double *x, *y;
	char floor[200];
};

static int is_floor_row(const struct growth *g, size_t r)
{
	return g->maxlev >= 2 && g->lv[r].n < g->maxlev;
}

/* Do rows a and b share their first d levels? */
static int same_levels(const struct growth *g, size_t a, size_t b, size_t d)
{
	for (size_t i = 0; i < d; i++)
		if (i >= g->lv[a].n || i >= g->lv[b].n ||
		    strcmp(g->lv[a].k[i], g->lv[b].k[i]) != 0 ||
		    strcmp(g->lv[a].v[i], g->lv[b].v[i]) != 0)
			return 0;
	return 1;
}

/* The fewest first levels of row r that no more than MAX_SERIES rows
 * share (at most all but its last); 0 when rows have one level. */
static size_t row_depth(const struct growth *g, size_t r)
{
	size_t d = g->maxlev >= 2;

	for (; d > 0 && d + 1 < g->maxlev; d++) {
		size_t n = 0;
		for (size_t o = 0; o < g->t->nrows; o++)
			n += !is_floor_row(g, o) && same_levels(g, r, o, d);
		if (n <= MAX_SERIES)
			break;
	}
	return d;
}

/* The group of row r: its first levels with their keys. */
static void growth_group(const struct growth *g, size_t r, char *buf,
			 size_t size)
{
	levels_text(&g->lv[r], 0, g->depth[r], 1, buf, size);
}

/* One chart: the rows of group `key` from its from-th on (at most
 * MAX_SERIES), the floor rows after them.  The rows it drew. */
static size_t growth_chart(struct charts *ch, const struct growth *g,
			   const char *key, size_t from)
{
	struct svg_series s[MAX_SERIES + 4];
	char names[MAX_SERIES + 4][192], title[640], xl[160], rk[512];
	size_t k = 0, seen = 0, drawn = 0;

	for (size_t r = 0; r < g->t->nrows && k < MAX_SERIES; r++) {
		if (is_floor_row(g, r))
			continue;
		growth_group(g, r, rk, sizeof(rk));
		if (strcmp(rk, key) != 0 || seen++ < from)
			continue;
		levels_text(&g->lv[r], g->depth[r], g->lv[r].n, 0, names[k],
			    sizeof(names[k]));
		s[k] = (struct svg_series){names[k], g->x, g->y + r * g->nsz,
					   g->nsz, SVG_LINE, names[k]};
		k++;
	}
	drawn = k;
	if (drawn == 0)
		return 0;
	for (size_t r = 0; r < g->t->nrows && k < MAX_SERIES + 4; r++)
		if (is_floor_row(g, r))
			s[k++] = (struct svg_series){g->floor, g->x,
						     g->y + r * g->nsz, g->nsz,
						     SVG_FLOOR, NULL};
	snprintf(title, sizeof(title), "%s: %s growth with %s%s%s (click a "
		 "legend entry to hide or show its series)", ch->suite,
		 g->t->unit, g->t->colkey, key[0] ? ", " : "", key);
	snprintf(xl, sizeof(xl), "%s%s%s%s", g->t->colkey,
		 g->t->keyunit[0] ? " (" : "", g->t->keyunit,
		 g->t->keyunit[0] ? ")" : "");
	chart_drawn(ch, ch->more, svg_line_chart(ch->more, ch->pal, title, xl,
		    g->t->unit, s, k, html_wants_log(g->x, g->nsz),
		    html_wants_log(g->y, g->t->nrows * g->nsz)));
	return drawn;
}

/* The floor's name from the levels the floor rows lack. */
static void growth_floor_name(struct growth *g)
{
	struct pairs missing = {0};

	for (size_t r = 0; r < g->t->nrows && missing.n == 0; r++)
		if (!is_floor_row(g, r))
			for (size_t i = g->maxlev - 1; i < g->maxlev &&
			     missing.n < MAX_PAIRS; i++)
				snprintf(missing.k[missing.n++],
					 sizeof(missing.k[0]), "%s",
					 g->lv[r].k[i]);
	floor_name(&missing, g->floor, sizeof(g->floor));
}

static int growth_charts(struct charts *ch, const struct rtable *t)
{
	struct growth g = {t, NULL, NULL, 0, t->ncols >= 4 ? t->ncols - 4 : 0,
			   NULL, NULL, ""};
	struct strlist groups = {0};
	char key[512];
	int rc = -1;

	g.lv = calloc(t->nrows + 1, sizeof(*g.lv));
	g.depth = calloc(t->nrows + 1, sizeof(*g.depth));
	g.x = calloc(g.nsz + 1, sizeof(*g.x));
	g.y = calloc((t->nrows + 1) * (g.nsz + 1), sizeof(*g.y));
	if (g.lv == NULL || g.depth == NULL || g.x == NULL || g.y == NULL)
		goto out;
	for (size_t k = 0; k < g.nsz; k++)
		g.x[k] = strtod(title_value(t->cols[1 + k]), NULL);
	for (size_t r = 0; r < t->nrows; r++) {
		name_levels(rtable_cell(t, r, 0)->text, &g.lv[r]);
		g.maxlev = g.lv[r].n > g.maxlev ? g.lv[r].n : g.maxlev;
		for (size_t k = 0; k < g.nsz; k++)
			g.y[r * g.nsz + k] = rtable_cell(t, r, 1 + k)->v;
	}
	for (size_t r = 0; r < t->nrows; r++)
		g.depth[r] = row_depth(&g, r);
	growth_floor_name(&g);
	/* the groups of a first level together (every strategy of a
	   phase), in the order the rows bring them */
	for (size_t f = 0; f < t->nrows; f++)
		for (size_t r = f; r < t->nrows; r++) {
			if (is_floor_row(&g, r) || !same_levels(&g, f, r, 1))
				continue;
			growth_group(&g, r, key, sizeof(key));
			if (strlist_find(&groups, key) >= 0)
				continue;
			if (strlist_add(&groups, key, strlen(key)) != 0)
				goto out;
			for (size_t from = 0, n; (n = growth_chart(ch, &g, key,
							from)) > 0; from += n)
				;
		}
	rc = 0;
out:
	strlist_release(&groups);
	free(g.lv);
	free(g.depth);
	free(g.x);
	free(g.y);
	return rc;
}

/* The charts of ts[i] (and the tables after it it draws with); *next. */
static int table_charts(struct charts *ch, const struct rtables *ts,
			size_t i, size_t *next)
{
	const struct rtable *t = &ts->t[i];
	size_t j = i + 1;

	*next = j;
	if (t->kind == RTABLE_VERDICT && !is_answer(t))
		return ranking_chart(ch, t);
	if (t->kind == RTABLE_GROWTH)
		return growth_charts(ch, t);
	if (t->kind != RTABLE_TABLE)
		return 0;
	if (t->colkey != NULL && !numeric_rows(t))
		return cell_heatmap(ch, t);
	if (t->colkey != NULL) {
		while (j < ts->n && ts->t[j].kind == RTABLE_TABLE &&
		       ts->t[j].colkey && !strcmp(ts->t[j].unit, t->unit))
			j++;
		*next = j;
		return pivot_charts(ch, ts, i, j);
	}
	if (t->nkeys == 2 && t->ncols > 2 && t->nrows > 1)
		return heatmap_chart(ch, t);
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

/* The suite's answer, or NULL. */
static const struct rtable *suite_answer(const struct rtables *ts,
					 size_t *at)
{
	for (size_t i = 0; i < ts->n; i++)
		if (is_answer(&ts->t[i])) {
			*at = i;
			return &ts->t[i];
		}
	return NULL;
}

/* First the verdicts: a paragraph per suite, its answer in brief. */
static void html_verdicts(FILE *out, struct page *pg)
{
	fputs("<section class=\"verdict\" id=\"verdict\"><h2>Verdict</h2>\n",
	      out);
	for (size_t s = 0; s < pg->suites.n; s++) {
		size_t at;
		const struct rtable *t = suite_answer(&pg->ts[s], &at);
		if (t == NULL)
			continue;
		fprintf(out, "<p class=\"answer\"><a href=\"#s%zu\"><b>", s);
		xml_text(out, pg->suites.s[s]);
		fputs("</b></a>: ", out);
		xml_text(out, t->summary);
		fputs("</p>\n", out);
	}
	fputs("</section>\n", out);
}

static void html_toc(FILE *out, const struct page *pg, int failed)
{
	fputs("<nav class=\"toc\"><b>Contents:</b> <ul>\n<li><a href=\"#verdict"
	      "\">Verdict</a></li>\n", out);
	for (size_t s = 0; s < pg->suites.n; s++) {
		fprintf(out, "<li><a href=\"#s%zu\">", s);
		xml_text(out, pg->suites.s[s]);
		fputs("</a></li>\n", out);
	}
	if (failed)
		fputs("<li><a href=\"#failed\">Not measured</a></li>\n", out);
	fputs("<li><a href=\"#config\">Run configuration</a></li></ul></nav>\n",
	      out);
}

/* The text of a title before its key=value pairs ("Mpps per core" of
 * "Mpps per core: engine=re2"), or "" when it is all pairs or none. */
static void title_head(const char *title, char *buf, size_t size)
{
	struct pairs p;
	const char *s = title, *colon, *last = NULL;

	buf[0] = '\0';
	title_pairs(title, &p);
	while ((colon = strstr(s, ": ")) != NULL) {
		last = colon;
		s = colon + 2;
	}
	if (p.n > 0 && last != NULL)
		snprintf(buf, size, "%.*s", (int)(last - title), title);
}

/* The end of the collapsed section from ts[i]: the tables after it with
 * the same title before their pairs (the 11 tables "Mpps per core:
 * engine=..."), at least to `drawn` (the tables its charts drew). */
static size_t section_end(const struct rtables *ts, size_t i, size_t drawn)
{
	char head[256], next[256];
	size_t j = i + 1;

	title_head(ts->t[i].title, head, sizeof(head));
	while (head[0] && j < ts->n && ts->t[j].kind == ts->t[i].kind) {
		title_head(ts->t[j].title, next, sizeof(next));
		if (strcmp(head, next) != 0)
			break;
		j++;
	}
	return j > drawn ? j : drawn;
}

/* Do tables a and b come from one declaration (same keys, column key
 * and unit)? */
static int same_decl(const struct rtable *a, const struct rtable *b)
{
	if (a->kind != RTABLE_TABLE || b->kind != RTABLE_TABLE ||
	    a->nkeys != b->nkeys || !a->colkey != !b->colkey ||
	    !a->unit != !b->unit || (a->colkey && strcmp(a->colkey, b->colkey)) ||
	    (a->unit && strcmp(a->unit, b->unit)))
		return 0;
	for (size_t c = 0; c < a->nkeys && c < a->ncols && c < b->ncols; c++)
		if (strcmp(a->cols[c], b->cols[c]) != 0)
			return 0;
	return 1;
}

/* The suite's first declared table: ts[*a..*b) (empty when none). */
static void lead_tables(const struct rtables *ts, size_t *a, size_t *b)
{
	*a = *b = 0;
	while (*a < ts->n && ts->t[*a].kind != RTABLE_TABLE)
		(*a)++;
	*b = *a;
	while (*b < ts->n && same_decl(&ts->t[*a], &ts->t[*b]))
		(*b)++;
}

/* What a collapsed section holds: "phase=compile: 75 rows" or "Mpps per
 * core: 11 tables, one per engine", and its charts. */
static void section_summary(FILE *out, const struct rtables *ts, size_t i,
			    size_t j, size_t ncharts)
{
	char head[256], keys[160];
	struct pairs p;

	title_head(ts->t[i].title, head, sizeof(head));
	fputs("<summary><b>", out);
	xml_text(out, j - i > 1 && head[0] ? head : ts->t[i].title);
	fputs("</b>: ", out);
	if (j - i > 1) {
		title_pairs(ts->t[i].title, &p);
		pairs_keys(&p, keys, sizeof(keys));
		fprintf(out, "%zu tables%s", j - i, keys[0] ? ", one per " : "");
		xml_text(out, keys);
	} else {
		fprintf(out, "a table of %zu row%s", ts->t[i].nrows,
			ts->t[i].nrows == 1 ? "" : "s");
	}
	if (ncharts)
		fprintf(out, "; %zu chart%s", ncharts, ncharts == 1 ? "" : "s");
	fputs("</summary>\n", out);
}

/* Text written to memory (open_memstream), for the page later. */
struct mem {
	char *s;
	size_t n;
	FILE *f;
};

static int mem_open(struct mem *m)
{
	m->s = NULL;
	m->n = 0;
	m->f = open_memstream(&m->s, &m->n);
	return m->f ? 0 : -1;
}

/* Close m, append its text to out (none: drop it), free it.  0, or -1
 * when memory ran out. */
static int mem_flush(struct mem *m, FILE *out)
{
	int rc = m->f == NULL || fclose(m->f) != 0 ? -1 : 0;

	m->f = NULL;
	if (rc == 0 && m->n && out != NULL)
		fwrite(m->s, 1, m->n, out);
	free(m->s);
	m->s = NULL;
	return rc;
}

/* The charts of ts[i] (and of the tables they span: *next). */
static int charts_of(struct charts *ch, const struct rtables *ts, size_t i,
		     const size_t lead[2], size_t *next)
{
	ch->lead = i >= lead[0] && i < lead[1];
	return table_charts(ch, ts, i, next);
}

/*
 * The tables from ts[i] on, collapsed with their charts; the charts the
 * answer is about go to ch->top instead.  *next: the table after them.
 */
static int html_section(FILE *out, struct charts *ch, const struct rtables *ts,
			size_t s, size_t i, const size_t lead[2], size_t *next)
{
	struct mem m;
	size_t j, k, after;
	int rc;

	if (mem_open(&m) != 0)
		return -1;
	ch->more = m.f;
	ch->nmore = 0;
	rc = charts_of(ch, ts, i, lead, &after);
	j = section_end(ts, i, after);
	for (k = after; rc == 0 && k < j; k = after) {
		rc = charts_of(ch, ts, k, lead, &after);
		j = after > j ? after : j;
	}
	for (k = i; k < j; k++)
		html_table(m.f, &ts->t[k], 1000 * s + k);
	fprintf(out, "<details class=\"more\" id=\"d%zu\">", 1000 * s + i);
	section_summary(out, ts, i, j, ch->nmore);
	rc |= mem_flush(&m, out);
	fputs("</details>\n", out);
	*next = j;
	return rc;
}

/*
 * A suite: its question and answer in full, the charts the answer is
 * about, then the answer's table and every other table collapsed, each
 * with its charts.
 */
static int html_suite(FILE *out, struct page *pg, size_t s)
{
	const struct rtables *ts = &pg->ts[s];
	struct charts ch = {&pg->pal, pg->res, pg->suites.s[s], NULL, 0,
			    NULL, NULL, 0};
	struct mem top, rest;
	size_t at = 0, lead[2] = {0, 0};
	int rc = -1;

	ch.answer = suite_answer(ts, &at);
	lead_tables(ts, &lead[0], &lead[1]);
	if (mem_open(&top) != 0)
		return -1;
	if (mem_open(&rest) != 0) {
		mem_flush(&top, NULL);
		return -1;
	}
	ch.top = top.f;
	for (size_t i = 0, next; i < ts->n; i = next) {
		next = i + 1;
		if (is_answer(&ts->t[i]))
			continue;
		if (html_section(rest.f, &ch, ts, s, i, lead, &next) != 0)
			goto out;
	}
	fprintf(out, "<section class=\"suite\" id=\"s%zu\"><h2>", s);
	xml_text(out, pg->suites.s[s]);
	fputs("</h2>\n", out);
	if (ch.answer != NULL) {
		fputs("<p class=\"question\">", out);
		xml_text(out, ch.answer->caption);
		fputs("</p>\n", out);
	}
	rc = mem_flush(&top, out);
	if (ch.answer != NULL) {
		fprintf(out, "<details class=\"more\" id=\"d%zu\"><summary><b>"
			"The answer</b>: a table of %zu row%s</summary>\n",
			1000 * s + at, ch.answer->nrows,
			ch.answer->nrows == 1 ? "" : "s");
		html_table_as(out, ch.answer, 1000 * s + at, 1);
		fputs("</details>\n", out);
	}
	rc |= mem_flush(&rest, out);
	fputs("</section>\n", out);
	return rc;
out:
	mem_flush(&top, NULL);
	mem_flush(&rest, NULL);
	return -1;
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

/* What was not measured, collapsed under its count. */
static void html_failures(FILE *out, const struct rtables *fails)
{
	for (size_t i = 0; i < fails->n; i++) {
		if (i == 0)
			fputs("<details class=\"more\" id=\"failed\">", out);
		else
			fprintf(out, "<details class=\"more\" id=\"failed%zu\">", i);
		fprintf(out, "<summary><b>Not measured</b>: %zu benchmark%s "
			"(failed, timed out, unsupported, or answers that "
			"disagreed)</summary>\n", fails->t[i].nrows,
			fails->t[i].nrows == 1 ? "" : "s");
		html_table(out, &fails->t[i], 999000 + i);
		fputs("</details>\n", out);
	}
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
	if (report_failure_table(res, &fails) != 0)
		goto out;
	html_verdicts(out, pg);
	html_toc(out, pg, fails.n > 0);
	for (size_t s = 0; s < pg->suites.n; s++)
		if (html_suite(out, pg, s) != 0)
			goto out;
	html_failures(out, &fails);
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

/*
 * md.c - Markdown report writer (see md.h).
 */
#include "report/md.h"

#include "report/layout.h"
#include "report/rtable.h"
#include "report/view.h"

#include <string.h>

void md_text(FILE *out, const char *s)
{
	for (; s != NULL && *s; s++) {
		switch (*s) {
		case '<': fputs("&lt;", out); break;
		case '>': fputs("&gt;", out); break;
		case '&': fputs("&amp;", out); break;
		case '\n':
		case '\r': fputc(' ', out); break;
		case '\\': case '`': case '*': case '_': case '[': case ']':
		case '|': case '#': case '~':
			fputc('\\', out);
			fputc(*s, out);
			break;
		default: fputc(*s, out);
		}
	}
}

static void md_cell(FILE *out, const struct rcell *c)
{
	if (c->text == NULL)
		return;
	if (c->strong)
		fputs("**", out);
	md_text(out, c->text);
	if (c->strong)
		fputs("**", out);
}

void md_table(FILE *out, const struct rtable *t, int level)
{
	fprintf(out, "%.*s ", level, "######");
	md_text(out, t->title);
	fputs("\n\n", out);
	md_text(out, t->caption);
	fputs("\n\n|", out);
	for (size_t c = 0; c < t->ncols; c++) {
		fputc(' ', out);
		md_text(out, t->cols[c]);
		fputs(" |", out);
	}
	fputs("\n|", out);
	for (size_t c = 0; c < t->ncols; c++)
		fputs(t->numeric[c] ? "---:|" : "---|", out);
	fputc('\n', out);
	for (size_t r = 0; r < t->nrows; r++) {
		fputc('|', out);
		for (size_t c = 0; c < t->ncols; c++) {
			fputc(' ', out);
			md_cell(out, rtable_cell(t, r, c));
			fputs(" |", out);
		}
		fputc('\n', out);
	}
	fputc('\n', out);
}

/* The configuration and context as a two-column table. */
static void md_config(FILE *out, const struct results *res)
{
	fputs("| | |\n|---|---|\n", out);
	for (size_t i = 0; i < res->ncfg; i++) {
		fputs("| ", out);
		md_text(out, res->cfg[i].key);
		fputs(" | ", out);
		md_text(out, res->cfg[i].value);
		fputs(" |\n", out);
	}
	fputc('\n', out);
}

/* A suite's tables (its verdict first), each under a heading. */
static int md_suite(FILE *out, const struct results *res, const char *suite,
		    const struct report_opts *opts)
{
	struct rtables ts = {0};
	char err[256];
	int rc = report_suite_tables(res, suite, opts, &ts, err, sizeof(err));

	if (rc != 0)
		fprintf(stderr, "rxbench: suite %s: %s\n", suite,
			err[0] ? err : "out of memory");
	fputs("## ", out);
	md_text(out, suite);
	fputs("\n\n", out);
	for (size_t i = 0; rc == 0 && i < ts.n; i++)
		md_table(out, &ts.t[i], 3);
	rtables_release(&ts);
	return rc;
}

int report_write_md(FILE *out, const struct results *res,
		    const struct report_opts *opts)
{
	struct strlist suites = {0};
	struct rtables fails = {0};
	int rc = -1;

	if (view_suites(res, &suites) != 0)
		goto out;
	fputs("# rxbench results\n\n", out);
	if (res->interrupted)
		fputs("**The run was interrupted: results are partial.**\n\n",
		      out);
	for (size_t s = 0; s < suites.n; s++)
		if (md_suite(out, res, suites.s[s], opts) != 0)
			goto out;
	if (report_failure_table(res, &fails) != 0)
		goto out;
	for (size_t i = 0; i < fails.n; i++)
		md_table(out, &fails.t[i], 2);
	fputs("## Run configuration\n\n", out);
	md_config(out, res);
	rc = ferror(out) ? -1 : 0;
out:
	rtables_release(&fails);
	strlist_release(&suites);
	return rc;
}

/*
 * registry.c - the table of suites, looked up by name.
 */
#include "suites/suite.h"

#include <stdarg.h>
#include <string.h>

extern const struct suite suite_scan;
extern const struct suite suite_payload;
extern const struct suite suite_fqdn;

const struct suite *const suite_table[] = {
	&suite_scan,
	&suite_payload,
	&suite_fqdn,
};

const size_t suite_count = sizeof(suite_table) / sizeof(suite_table[0]);

const struct suite *suite_find(const char *name)
{
	for (size_t i = 0; i < suite_count; i++)
		if (strcmp(suite_table[i]->name, name) == 0)
			return suite_table[i];
	return NULL;
}

int suite_layout_fill(const struct suite *s, struct results *res)
{
	if (s->layout == NULL || results_layout_has(res, s->name))
		return 0;
	for (size_t i = 0; s->layout[i] != NULL; i++)
		if (results_layout_add(res, s->name, s->layout[i]) != 0)
			return -1;
	return 0;
}

int suite_wants(const struct suite_ctx *ctx, const char *name)
{
	size_t len = strlen(name);

	if (ctx->filter != NULL && !filter_select(ctx->filter, name))
		return 0;
	if (ctx->list == NULL)
		return 1;
	if (!strset_find(ctx->listed, name, len, NULL) &&
	    strset_add(ctx->listed, name, len, 0) >= 0)
		fprintf(ctx->list, "Benchmark%s\n", name);
	return 0;
}

void suite_fail(struct suite_ctx *ctx, const char *suite, const char *name,
		enum result_status st, const char *fmt, ...)
{
	char msg[4096]; /* quotes a whole name or pattern, escaped */
	va_list ap;
	struct result *r = results_add(ctx->results, suite, name);

	if (r == NULL)
		return;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	result_set_status(r, st, "%s", msg);
}

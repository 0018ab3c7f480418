/*
 * options.c - command-line options as data (see options.h).
 */
#include "suites/options.h"

#include "harness/parse.h"

#include <stdint.h>
#include <string.h>

#define OPT_HELP_COLUMN 24 /* where the help text starts */

const struct opt_spec *opt_find(const struct opt_spec *table,
				const char *name)
{
	for (const struct opt_spec *o = table; o != NULL && o->name; o++)
		if (strcmp(o->name, name) == 0)
			return o;
	return NULL;
}

/* Store value by o's kind.  0, or -1 with the reason in err. */
static int opt_store(const struct opt_spec *o, void *cfg, const char *value,
		     char *err, size_t size)
{
	char *field = (char *)cfg + o->off;

	switch (o->kind) {
	case OPT_FLAG:
		*(int *)(void *)field = 1;
		return 0;
	case OPT_TEXT:
		*(const char **)(void *)field = value;
		return 0;
	case OPT_UINT: /* a max of 2^64 or more is UINT64_MAX (a double
			  cannot hold UINT64_MAX, and casting it is undefined) */
		return parse_u64(value, (uint64_t)o->min,
				 o->max >= 18446744073709551615.0
					 ? UINT64_MAX
					 : (uint64_t)o->max,
				 (uint64_t *)(void *)field, err, size);
	case OPT_SIZE:
		return parse_size(value, (size_t)o->min, (size_t)o->max,
				  (size_t *)(void *)field, err, size);
	case OPT_REAL:
		return parse_real(value, o->min, o->max,
				  (double *)(void *)field, err, size);
	case OPT_CALL:
		return o->parse(cfg, value, err, size);
	}
	snprintf(err, size, "no such kind of option");
	return -1;
}

int opt_set(const struct opt_spec *o, void *cfg, const char *value)
{
	char err[512] = "";

	if (opt_store(o, cfg, value, err, sizeof(err)) == 0)
		return 0;
	if (value != NULL)
		fprintf(stderr, "rxbench: --%s=%s: %s\n", o->name, value, err);
	else
		fprintf(stderr, "rxbench: --%s: %s\n", o->name, err);
	return -1;
}

void opt_usage(FILE *f, const struct opt_spec *table)
{
	for (const struct opt_spec *o = table; o != NULL && o->name; o++) {
		char left[64];
		const char *h = o->help;
		int w;

		w = snprintf(left, sizeof(left), "  --%s%s%s", o->name,
			     o->arg ? "=" : "", o->arg ? o->arg : "");
		fprintf(f, "%s", left);
		if (w >= OPT_HELP_COLUMN - 1)
			fprintf(f, "\n%*s", OPT_HELP_COLUMN, "");
		else
			fprintf(f, "%*s", OPT_HELP_COLUMN - w, "");
		for (; *h; h++) { /* continuation lines align with the first */
			fputc(*h, f);
			if (*h == '\n' && h[1] != '\0')
				fprintf(f, "%*s", OPT_HELP_COLUMN, "");
		}
		fputc('\n', f);
	}
}

/*
 * cmd_list.c - `rxbench list`: engines (kind, semantics, sets, version),
 * then each one's capabilities and options with their defaults, the
 * engines left out and why, and the suites.  Fits 100 columns: long
 * lists wrap under their engine.
 */
#include "tools/cli.h"

#include "engines/engine.h"
#include "suites/suite.h"

#include <stdio.h>
#include <string.h>

#define LIST_WIDTH 100
#define LIST_INDENT 14 /* where a detail line's text starts */

/*
 * How the engine runs: "in-process" for every adapter of engines/
 * ("test-only" for noop, crash and hang, which default runs leave out).
 * Engines that run as a child program (engines/runner.h) are "runner".
 */
static const char *list_kind(const struct engine *e)
{
	if (e->caps & CAP_TEST_ONLY)
		return "test-only";
	if (e->opt_in) /* left out unless named: run_args.c */
		return e->kind == ENGINE_RUNNER ? "runner*" : "in-process*";
	return engine_kind_name(e); /* in-process, or runner */
}

/*
 * Words of text (separated by sep) after a label in the first
 * LIST_INDENT columns, wrapped at LIST_WIDTH under the first word.
 */
static void list_wrapped(const char *label, const char *text, char sep)
{
	size_t col = (size_t)printf("  %-*s", LIST_INDENT - 2, label);
	const char *w = text;

	while (*w != '\0') {
		const char *end = strchr(w, sep);
		size_t len = end != NULL ? (size_t)(end - w) : strlen(w);
		if (col > LIST_INDENT && col + len + 1 > LIST_WIDTH)
			col = (size_t)printf("\n%*s", LIST_INDENT, "") - 1;
		col += (size_t)printf("%s%.*s", col > LIST_INDENT ? " " : "",
				      (int)len, w);
		w += len;
		while (*w == sep || *w == ' ')
			w++;
	}
	putchar('\n');
}

/* What count() counts, or "none" when the engine has no count (xdp:
   is_match and match_ids only; docs/engines.md).  One word: the column
   is read by field (tests/difffuzz.py). */
static const char *list_count(const struct engine *e)
{
	if (e->count == NULL)
		return "none";
	return engine_semantics_name(engine_semantics(e));
}

static void list_engines(void)
{
	char text[1024];

	printf("engines:\n");
	printf("  %-11s %-11s %-17s %-8s %s\n", "name", "kind", "count", "sets",
	       "version");
	for (size_t i = 0; i < engine_count; i++) {
		const struct engine *e = engine_table[i];
		printf("  %-11s %-11s %-17s %-8s %s\n", e->name, list_kind(e),
		       list_count(e),
		       engine_set_native(e) ? "native" : "in-turn",
		       e->version());
	}
	printf("\n* opt-in: a run includes it when --engines names it, "
	       "or with --engines=all\n");
	printf("\ncapabilities:\n");
	for (size_t i = 0; i < engine_count; i++) {
		const struct engine *e = engine_table[i];
		if (e->caps & CAP_TEST_ONLY)
			continue;
		engine_caps_format(e->caps, text, sizeof(text));
		list_wrapped(e->name, text, ',');
	}
}

/* Each engine option as ENGINE.KEY=default, with its help. */
static void list_option_help(void)
{
	char def[64];

	printf("\nengine options (--engine-opt ENGINE.KEY=VALUE; shown with "
	       "the default):\n");
	for (size_t i = 0; i < engine_count; i++)
		for (const struct engine_option *o = engine_table[i]->options;
		     o != NULL && o->key; o++) {
			snprintf(def, sizeof(def), "%s.%s=%s",
				 engine_table[i]->name, o->key, o->def);
			printf("  %-32s %s\n", def, o->help);
		}
}

int cmd_list(int argc, char **argv)
{
	if (argc > 1 && (strcmp(argv[1], "-h") == 0 ||
			 strcmp(argv[1], "--help") == 0)) {
		printf("usage: rxbench list\n\nLists the engines built into "
		       "this binary (kind, semantics class, sets,\nversion, "
		       "capabilities, options and their defaults), those left "
		       "out and why,\nand the suites.  (rxbench run "
		       "--list=REGEX lists benchmark names.)\n");
		return EXIT_OK;
	}
	if (argc > 1) {
		fprintf(stderr, "rxbench list: unknown argument '%s' (see "
			"rxbench list --help)\n", argv[1]);
		return EXIT_USAGE;
	}
	list_engines();
	list_option_help();
	if (engine_missing[0].name != NULL)
		printf("\nnot built:\n");
	for (const struct engine_missing *m = engine_missing; m->name; m++)
		printf("  %-11s %s\n", m->name, m->why);
	printf("\nsuites:\n");
	for (size_t i = 0; i < suite_count; i++)
		printf("  %-10s %s%s\n", suite_table[i]->name,
		       suite_table[i]->desc,
		       suite_table[i]->in_default ? " (default)" : "");
	return EXIT_OK;
}

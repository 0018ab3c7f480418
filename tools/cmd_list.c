/*
 * cmd_list.c - `rxbench list`: engines (version, semantics, sets,
 * capabilities) and suites.
 */
#include "tools/cli.h"

#include "engines/engine.h"
#include "suites/suite.h"

#include <stdio.h>
#include <string.h>

int cmd_list(int argc, char **argv)
{
	char caps[512];

	if (argc > 1 && (strcmp(argv[1], "-h") == 0 ||
			 strcmp(argv[1], "--help") == 0)) {
		printf("usage: rxbench list\n\nLists the engines built into "
		       "this binary, those left out and why, and the suites.\n"
		       "(rxbench run --list=REGEX lists benchmark names.)\n");
		return EXIT_OK;
	}
	if (argc > 1) {
		fprintf(stderr, "rxbench list: unknown argument '%s' (see "
			"rxbench list --help)\n", argv[1]);
		return EXIT_USAGE;
	}
	printf("engines:\n");
	printf("  %-10s %-18s %-17s %-8s %s\n", "name", "version", "count",
	       "sets", "capabilities");
	for (size_t i = 0; i < engine_count; i++) {
		const struct engine *e = engine_table[i];
		engine_caps_format(e->caps, caps, sizeof(caps));
		printf("  %-10s %-18s %-17s %-8s %s\n", e->name, e->version(),
		       engine_semantics_name(e->semantics),
		       engine_set_native(e) ? "native" : "in-turn", caps);
	}
	if (engine_missing[0].name != NULL)
		printf("\nnot built:\n");
	for (const struct engine_missing *m = engine_missing; m->name; m++)
		printf("  %-10s %s\n", m->name, m->why);
	printf("\nsuites:\n");
	for (size_t i = 0; i < suite_count; i++)
		printf("  %-10s %s%s\n", suite_table[i]->name,
		       suite_table[i]->desc,
		       suite_table[i]->in_default ? " (default)" : "");
	return EXIT_OK;
}

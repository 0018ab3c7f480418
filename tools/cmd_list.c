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
		       "this binary and the suites.\n");
		return EXIT_OK;
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
	printf("\nsuites:\n");
	for (size_t i = 0; i < suite_count; i++)
		printf("  %-10s %s%s\n", suite_table[i]->name,
		       suite_table[i]->desc,
		       suite_table[i]->in_default ? " (default)" : "");
	return EXIT_OK;
}

/*
 * rxbench.c - main: find the subcommand in the table and call it.
 */
#include "tools/cli.h"

#include <stdio.h>
#include <string.h>

static const struct command {
	const char *name;
	int (*fn)(int argc, char **argv);
	const char *help;
} commands[] = {
	{"run", cmd_run, "verify, then time suites (default: all)"},
	{"scan", cmd_scan, "time patterns over a corpus (the scan suite)"},
	{"list", cmd_list, "engines, versions, capabilities and suites"},
	{"report", cmd_report, "write results as text, csv, md or html"},
	{"compare", cmd_compare, "compare two runs (benchstat-style)"},
};

static void usage(FILE *f)
{
	fprintf(f, "usage: rxbench COMMAND [options]\n\ncommands:\n");
	for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		fprintf(f, "  %-8s %s\n", commands[i].name, commands[i].help);
	fprintf(f, "\n'rxbench COMMAND --help' describes a command; 'rxbench "
		"--version' prints the version.\n");
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		usage(stderr);
		return EXIT_USAGE;
	}
	if (strcmp(argv[1], "-h") == 0 || strcmp(argv[1], "--help") == 0 ||
	    strcmp(argv[1], "help") == 0) {
		usage(stdout);
		return EXIT_OK;
	}
	if (strcmp(argv[1], "--version") == 0 || strcmp(argv[1], "version") == 0) {
		printf("rxbench %s\n", RXB_VERSION);
		return EXIT_OK;
	}
	for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		if (strcmp(argv[1], commands[i].name) == 0)
			return commands[i].fn(argc - 1, argv + 1);
	fprintf(stderr, "rxbench: unknown command '%s'\n", argv[1]);
	usage(stderr);
	return EXIT_USAGE;
}

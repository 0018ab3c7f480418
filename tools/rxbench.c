/*
 * rxbench.c - main: find the subcommand in the table and call it;
 * `rxbench help [SUITE|COMMAND]` is the help of either.
 */
#include "tools/cli.h"
#include "suites/suite.h"

#include <stdio.h>
#include <stdlib.h>
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

#define NCOMMANDS (sizeof(commands) / sizeof(commands[0]))

static void print_suite_names(FILE *f)
{
	for (size_t i = 0; i < suite_count; i++)
		fprintf(f, "%s%s", i ? ", " : "", suite_table[i]->name);
}

static void usage(FILE *f)
{
	fprintf(f, "usage: rxbench COMMAND [options]\n\ncommands:\n");
	for (size_t i = 0; i < NCOMMANDS; i++)
		fprintf(f, "  %-8s %s\n", commands[i].name, commands[i].help);
	fprintf(f, "\n'rxbench COMMAND --help' describes a command; 'rxbench "
		"help SUITE' a suite's\noptions, with an example (suites: ");
	print_suite_names(f);
	fprintf(f, ");\n'rxbench --version' prints the version.\n");
}

/* `rxbench help help`: what help takes, as `go help help` says it. */
static void help_usage(FILE *f)
{
	fprintf(f, "usage: rxbench help [SUITE|COMMAND]\n\n"
		"Without a name, the commands; with a suite's name, its options "
		"and an\nexample (as rxbench run SUITE --help); with a "
		"command's, its --help.\n");
}

/* The command called name, or NULL. */
static const struct command *command_find(const char *name)
{
	for (size_t i = 0; i < NCOMMANDS; i++)
		if (strcmp(name, commands[i].name) == 0)
			return &commands[i];
	return NULL;
}

/*
 * `rxbench help NAME [NAME...]`: the suites' help, as `rxbench run NAME...
 * --help` prints it, or a command's --help; help's own for `help help`
 * (or --help).  The exit status; 2 after one line naming the suites and
 * commands when NAME is neither.
 */
static int help_topic(int argc, char **argv)
{
	const struct command *c = command_find(argv[0]);
	char **av;
	int rc;

	if (strcmp(argv[0], "help") == 0 || strcmp(argv[0], "--help") == 0 ||
	    strcmp(argv[0], "-h") == 0) {
		help_usage(stdout);
		return EXIT_OK;
	}
	if (suite_find(argv[0]) == NULL && c == NULL) {
		fprintf(stderr, "rxbench help: no suite or command '%s'; "
			"suites: ", argv[0]);
		print_suite_names(stderr);
		fprintf(stderr, "; commands:");
		for (size_t i = 0; i < NCOMMANDS; i++)
			fprintf(stderr, " %s", commands[i].name);
		fprintf(stderr, " help\n");
		return EXIT_USAGE;
	}
	if (suite_find(argv[0]) == NULL && argc > 1) {
		fprintf(stderr, "rxbench help: one command at a time: '%s' "
			"after '%s' (rxbench help %s)\n", argv[1], argv[0],
			argv[0]);
		return EXIT_USAGE;
	}
	av = calloc((size_t)argc + 3, sizeof(*av));
	if (av == NULL) {
		fprintf(stderr, "rxbench help: out of memory\n");
		return EXIT_USAGE;
	}
	/* a suite (scan too: its suite help names both spellings) */
	if (suite_find(argv[0]) != NULL) {
		av[0] = "run";
		memcpy(av + 1, argv, (size_t)argc * sizeof(*av));
		av[argc + 1] = "--help";
		rc = cmd_run(argc + 2, av);
	} else {
		av[0] = argv[0];
		av[1] = "--help";
		rc = c->fn(2, av);
	}
	free(av);
	return rc;
}

int main(int argc, char **argv)
{
	const struct command *c;

	if (argc < 2) {
		usage(stderr);
		return EXIT_USAGE;
	}
	if (strcmp(argv[1], "help") == 0 && argc > 2)
		return help_topic(argc - 2, argv + 2);
	if (strcmp(argv[1], "-h") == 0 || strcmp(argv[1], "--help") == 0 ||
	    strcmp(argv[1], "help") == 0) {
		usage(stdout);
		return EXIT_OK;
	}
	if (strcmp(argv[1], "--version") == 0 || strcmp(argv[1], "version") == 0) {
		printf("rxbench %s\n", RXB_VERSION);
		return EXIT_OK;
	}
	c = command_find(argv[1]);
	if (c != NULL)
		return c->fn(argc - 1, argv + 1);
	if (suite_find(argv[1]) != NULL) { /* rxbench payload --help */
		fprintf(stderr, "rxbench: %s is a suite, not a command: rxbench "
			"run %s (its options: rxbench help %s)\n", argv[1],
			argv[1], argv[1]);
		return EXIT_USAGE;
	}
	if (argv[1][0] == '-') /* --versoin: not a command */
		fprintf(stderr, "rxbench: unknown option '%s' (rxbench takes "
			"--help, --version, or a command first)\n", argv[1]);
	else
		fprintf(stderr, "rxbench: unknown command '%s'\n", argv[1]);
	usage(stderr);
	return EXIT_USAGE;
}

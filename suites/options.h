/*
 * options.h - command-line options as data.
 *
 * A table of struct opt_spec, ended by an entry whose name is NULL, says
 * which --name options exist, what value each takes, its one line of
 * help, and where in a configuration struct its value goes.  The common
 * options of `rxbench run` and every suite's options are such tables;
 * tools/cmd_run.c turns them into getopt_long's table, applies each
 * option with opt_set() and prints --help from them with opt_usage().
 * Nothing but opt_set() writes a configuration from the command line.
 */
#ifndef RXB_OPTIONS_H
#define RXB_OPTIONS_H

#include <stddef.h>
#include <stdio.h>

enum opt_kind {
	OPT_FLAG, /* int at off: set to 1; the option takes no value */
	OPT_TEXT, /* const char * at off: the value as given (argv outlives
		     the run) */
	OPT_UINT, /* uint64_t at off, a whole number in [min, max] */
	OPT_SIZE, /* size_t at off, a whole number in [min, max] */
	OPT_REAL, /* double at off, a decimal number in [min, max] */
	OPT_CALL, /* parse(cfg, value) does it (value NULL when arg is NULL) */
};

struct opt_spec {
	const char *name; /* --name, without the dashes */
	const char *arg;  /* its value in --help ("N,N,...", "FILE"); NULL:
			     it takes none */
	const char *help; /* what it does, for --help (may hold '\n') */
	enum opt_kind kind;
	size_t off;       /* offsetof(its config struct, field) */
	double min, max;  /* OPT_UINT, OPT_SIZE, OPT_REAL */
	/*
	 * OPT_CALL: store value into cfg.  0, or -1 with the reason in err
	 * ("unknown flag 'q' (use i, s, m, a, u)"), without the option's
	 * name: opt_set() puts "rxbench: --name=value: " before it.
	 */
	int (*parse)(void *cfg, const char *value, char *err, size_t size);
};

/* The entry of table called name, or NULL. */
const struct opt_spec *opt_find(const struct opt_spec *table,
				const char *name);

/*
 * Apply option o with value (NULL when o->arg is NULL) to cfg.  0, or -1
 * after printing "rxbench: --name=value: why" on stderr.
 */
int opt_set(const struct opt_spec *o, void *cfg, const char *value);

/* The table's --help lines: "  --name=ARG   help", aligned. */
void opt_usage(FILE *f, const struct opt_spec *table);

#endif

/*
 * callgrind.c - instruction-count mode under valgrind (see callgrind.h).
 *
 * Build option: RXB_HAVE_CALLGRIND_H.  The parser and the cost formula
 * are built either way (the tests read a fixture file).
 */
#define _GNU_SOURCE
#include "harness/callgrind.h"

#include "engines/engine.h"
#include "harness/interrupt.h"

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#ifdef RXB_HAVE_CALLGRIND_H
#include <valgrind/callgrind.h>
#endif

#define CG_ENV_DIR "RXB_CALLGRIND_DIR"

/* valgrind's options, before --callgrind-out-file and the program. */
static const char *const vg_options[] = {
	"-q", "--tool=callgrind", "--cache-sim=yes", "--instr-atstart=no",
	"--I1=32768,8,64", "--D1=32768,8,64", "--LL=8388608,16,64",
};
#define NOPTIONS (sizeof(vg_options) / sizeof(vg_options[0]))

static char cg_err[512];

const char *callgrind_error(void)
{
	return cg_err;
}

/* The event columns we need, by callgrind's names. */
static const char *const event_names[] = {
	"Ir", "Dr", "Dw", "I1mr", "D1mr", "D1mw", "ILmr", "DLmr", "DLmw",
};
#define NEVENTS (sizeof(event_names) / sizeof(event_names[0]))

static uint64_t *event_slot(struct callgrind_events *ev, size_t i)
{
	uint64_t *slots[NEVENTS] = {&ev->ir, &ev->dr, &ev->dw,
				    &ev->i1mr, &ev->d1mr, &ev->d1mw,
				    &ev->ilmr, &ev->dlmr, &ev->dlmw};
	return slots[i];
}

/* Column of each needed event in the `events:` line; -1 when absent. */
static void parse_events(char *line, long *col)
{
	char *save = NULL, *tok;
	long c = 0;

	for (size_t i = 0; i < NEVENTS; i++)
		col[i] = -1;
	for (tok = strtok_r(line, " \t\n", &save); tok != NULL;
	     tok = strtok_r(NULL, " \t\n", &save), c++)
		for (size_t i = 0; i < NEVENTS; i++)
			if (strcmp(tok, event_names[i]) == 0)
				col[i] = c;
}

/*
 * The numbers of a totals/summary line into v (at most max); missing
 * trailing columns are 0, as callgrind writes them.  Count, or -1 on junk.
 */
static long parse_numbers(const char *s, uint64_t *v, size_t max)
{
	size_t n = 0;

	memset(v, 0, max * sizeof(*v));
	for (;;) {
		char *end;
		unsigned long long x;

		while (*s == ' ' || *s == '\t')
			s++;
		if (*s == '\0' || *s == '\n')
			return (long)n;
		if (*s < '0' || *s > '9' || n == max)
			return -1;
		errno = 0;
		x = strtoull(s, &end, 10);
		if (errno != 0)
			return -1;
		v[n++] = x;
		s = end;
	}
}

/* Per-file parsing state. */
struct cg_parse {
	long col[NEVENTS];
	int have_events;
	uint64_t totals[64], summary[64];
	int have_totals, have_summary;
	long line_totals, line_summary;
};

/* One line of the file; 0, or -1 with err filled. */
static int parse_line(struct cg_parse *p, char *line, long lineno,
		      const char *path, char *trigger, size_t tsize,
		      char *err, size_t esize)
{
	const char *what = NULL;
	uint64_t *dst = NULL;

	if (strncmp(line, "events:", 7) == 0) {
		parse_events(line + 7, p->col);
		p->have_events = 1;
	} else if (strncmp(line, "desc: Trigger:", 14) == 0) {
		const char *t = line + 14 + (line[14] == ' ');
		snprintf(trigger, tsize, "%.*s", (int)strcspn(t, "\n"), t);
	} else if (strncmp(line, "totals:", 7) == 0) {
		what = line + 7;
		dst = p->totals;
		p->have_totals = 1;
		p->line_totals = lineno;
	} else if (strncmp(line, "summary:", 8) == 0) {
		what = line + 8;
		dst = p->summary;
		p->have_summary = 1;
		p->line_summary = lineno;
	}
	if (what != NULL && parse_numbers(what, dst, 64) < 0) {
		snprintf(err, esize, "%s:%ld: bad numbers in '%.40s'", path,
			 lineno, line);
		return -1;
	}
	return 0;
}

/* The needed columns of the totals (or summary) into ev. */
static int take_events(const struct cg_parse *p, const char *path,
		       struct callgrind_events *ev, char *err, size_t esize)
{
	const uint64_t *v = p->have_totals ? p->totals : p->summary;

	if (!p->have_events) {
		snprintf(err, esize, "%s: no 'events:' line (not a callgrind "
			 "output file?)", path);
		return -1;
	}
	if (!p->have_totals && !p->have_summary) {
		snprintf(err, esize, "%s: no 'totals:' or 'summary:' line", path);
		return -1;
	}
	for (size_t i = 0; i < NEVENTS; i++) {
		if (p->col[i] < 0 || p->col[i] >= 64) {
			snprintf(err, esize, "%s: event %s missing (run with "
				 "--cache-sim=yes)", path, event_names[i]);
			return -1;
		}
		*event_slot(ev, i) = v[p->col[i]];
	}
	return 0;
}

int callgrind_parse(FILE *f, const char *path, struct callgrind_events *ev,
		    char *trigger, size_t tsize, char *err, size_t esize)
{
	struct cg_parse p;
	char *line = NULL;
	size_t cap = 0;
	long lineno = 0;
	int rc = 0;

	memset(&p, 0, sizeof(p));
	memset(ev, 0, sizeof(*ev));
	if (tsize > 0)
		trigger[0] = '\0';
	while (rc == 0 && getline(&line, &cap, f) >= 0)
		rc = parse_line(&p, line, ++lineno, path, trigger, tsize, err,
				esize);
	free(line);
	if (rc == 0 && ferror(f)) {
		snprintf(err, esize, "%s: %s", path, strerror(errno));
		rc = -1;
	}
	if (rc == 0)
		rc = take_events(&p, path, ev, err, esize);
	return rc;
}

int callgrind_parse_file(const char *path, struct callgrind_events *ev,
			 char *trigger, size_t tsize, char *err, size_t esize)
{
	FILE *f = fopen(path, "r");
	int rc;

	if (f == NULL) {
		snprintf(err, esize, "%.300s: %s", path, strerror(errno));
		return -1;
	}
	rc = callgrind_parse(f, path, ev, trigger, tsize, err, esize);
	fclose(f);
	return rc;
}

void callgrind_cost(const struct callgrind_events *ev,
		    struct callgrind_cost *c)
{
	double access = (double)ev->ir + (double)ev->dr + (double)ev->dw;
	double l1_miss = (double)ev->i1mr + (double)ev->d1mr + (double)ev->d1mw;
	double ll_miss = (double)ev->ilmr + (double)ev->dlmr + (double)ev->dlmw;

	c->instr = (double)ev->ir;
	c->rw = access;
	c->l1_hits = access - l1_miss;
	c->ll_hits = l1_miss - ll_miss;
	c->ram_hits = ll_miss;
	c->est_cycles = c->l1_hits + 5 * c->ll_hits + 35 * c->ram_hits;
}

void callgrind_describe(char *buf, size_t size)
{
	size_t used = 0;

	if (size == 0)
		return;
	buf[0] = '\0';
	for (size_t i = 1; i < NOPTIONS && used < size; i++) {
		int w = snprintf(buf + used, size - used, "%s%s",
				 used ? " " : "", vg_options[i]);
		if (w < 0)
			break;
		used += (size_t)w;
	}
}

int callgrind_built(void)
{
#ifdef RXB_HAVE_CALLGRIND_H
	return 1;
#else
	return 0;
#endif
}

int callgrind_active(void)
{
#ifdef RXB_HAVE_CALLGRIND_H
	return RUNNING_ON_VALGRIND && getenv(CG_ENV_DIR) != NULL;
#else
	return 0;
#endif
}

/* Remove the files of dir (no subdirectories are made there), then dir. */
static void remove_dir(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;

	if (d == NULL)
		return;
	while ((e = readdir(d)) != NULL)
		if (strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0)
			unlinkat(dirfd(d), e->d_name, 0);
	closedir(d);
	rmdir(dir);
}

/* The valgrind command line around argv; NULL when out of memory. */
static char **reexec_argv(int argc, char **argv, const char *self,
			  char *outfile, char *logfile)
{
	size_t k = 0;
	char **v = calloc(NOPTIONS + (size_t)argc + 5, sizeof(*v));
	const char *vg = getenv("RXB_VALGRIND");

	if (v == NULL)
		return NULL;
	v[k++] = (char *)(vg != NULL && vg[0] != '\0' ? vg : "valgrind");
	for (size_t i = 0; i < NOPTIONS; i++)
		v[k++] = (char *)vg_options[i];
	v[k++] = outfile;
	v[k++] = logfile;
	v[k++] = (char *)self;
	for (int i = 0; i < argc; i++)
		v[k++] = argv[i];
	return v;
}

/*
 * Wait for pid with SIGINT/SIGQUIT ignored (the child gets them from the
 * terminal), as system() does.  A SIGTERM sent to this process alone is
 * passed on, so the measuring child stops and writes what it finished
 * (interrupt.h) instead of running on orphaned.
 */
static int wait_ignoring_signals(pid_t pid)
{
	struct sigaction ign = {0}, old_int, old_quit, old_term;
	int status = 0, passed = 0;
	pid_t w;

	sigaction(SIGTERM, NULL, &old_term);
	interrupt_install();
	ign.sa_handler = SIG_IGN;
	sigaction(SIGINT, &ign, &old_int);
	sigaction(SIGQUIT, &ign, &old_quit);
	for (;;) {
		w = waitpid(pid, &status, 0);
		if (w >= 0 || errno != EINTR)
			break;
		if (interrupt_signal() == SIGTERM && !passed) {
			kill(pid, SIGTERM);
			passed = 1;
		}
	}
	sigaction(SIGINT, &old_int, NULL);
	sigaction(SIGQUIT, &old_quit, NULL);
	sigaction(SIGTERM, &old_term, NULL);
	if (w < 0)
		return -1;
	if (WIFSIGNALED(status))
		return 128 + WTERMSIG(status);
	return WEXITSTATUS(status);
}

/*
 * Copy valgrind's log to stderr without the warnings it prints while it
 * probes the host's caches, which the fixed --I1/--D1/--LL then replace.
 */
static void relay_log(const char *path)
{
	FILE *f = fopen(path, "r");
	char line[1024];

	if (f == NULL)
		return;
	while (fgets(line, sizeof(line), f) != NULL)
		if (strstr(line, "L3 cache found") == NULL &&
		    strstr(line, "specified LL cache") == NULL &&
		    strstr(line, "simulated LL cache") == NULL)
			fputs(line, stderr);
	fclose(f);
}

int callgrind_reexec(int argc, char **argv, char *err, size_t esize)
{
	char self[PATH_MAX], dir[PATH_MAX], outfile[PATH_MAX + 64];
	char logfile[PATH_MAX + 64];
	const char *tmp = getenv("TMPDIR");
	char **vargv = NULL;
	ssize_t len = readlink("/proc/self/exe", self, sizeof(self) - 1);
	int rc = -1;
	pid_t pid;

	if (len <= 0) {
		snprintf(err, esize, "/proc/self/exe: %s", strerror(errno));
		return -1;
	}
	self[len] = '\0';
	snprintf(dir, sizeof(dir), "%s/rxbench-cg.XXXXXX",
		 tmp != NULL && tmp[0] != '\0' ? tmp : "/tmp");
	if (mkdtemp(dir) == NULL) {
		snprintf(err, esize, "%s: %s", dir, strerror(errno));
		return -1;
	}
	snprintf(outfile, sizeof(outfile), "--callgrind-out-file=%s/cg.%%p", dir);
	snprintf(logfile, sizeof(logfile), "--log-file=%s/valgrind.log", dir);
	vargv = reexec_argv(argc, argv, self, outfile, logfile);
	if (vargv == NULL) {
		snprintf(err, esize, "out of memory");
		goto out;
	}
	fflush(NULL);
	pid = fork();
	if (pid < 0) {
		snprintf(err, esize, "fork: %s", strerror(errno));
		goto out;
	}
	if (pid == 0) {
		setenv(CG_ENV_DIR, dir, 1);
		execvp(vargv[0], vargv);
		_exit(127);
	}
	rc = wait_ignoring_signals(pid);
	relay_log(logfile + strlen("--log-file="));
	if (rc == 127)
		snprintf(err, esize, "could not run '%s' (install Debian's "
			 "valgrind package, or set RXB_VALGRIND)", vargv[0]);
	if (rc == 127 || rc < 0)
		rc = -1;
out:
	free(vargv);
	remove_dir(dir);
	return rc;
}

#ifdef RXB_HAVE_CALLGRIND_H
/*
 * The newest dump of this process: DIR/cg.PID.K with the largest K.
 * 0 with its path, or -1.
 */
static int find_dump(const char *dir, char *path, size_t size)
{
	char prefix[64];
	size_t plen;
	long best = -1;
	DIR *d = opendir(dir);
	struct dirent *e;

	if (d == NULL)
		return -1;
	snprintf(prefix, sizeof(prefix), "cg.%ld.", (long)getpid());
	plen = strlen(prefix);
	while ((e = readdir(d)) != NULL) {
		char *end;
		long k;

		if (strncmp(e->d_name, prefix, plen) != 0)
			continue;
		errno = 0;
		k = strtol(e->d_name + plen, &end, 10);
		if (errno == 0 && *end == '\0' && k > best)
			best = k;
	}
	closedir(d);
	if (best < 0)
		return -1;
	snprintf(path, size, "%s/%s%ld", dir, prefix, best);
	return 0;
}

/* Read the dump just made (and remove it).  0 or -1 (cg_err). */
static int read_dump(struct callgrind_cost *c)
{
	const char *dir = getenv(CG_ENV_DIR);
	char path[PATH_MAX], trigger[256];
	struct callgrind_events ev;

	if (find_dump(dir, path, sizeof(path)) != 0) {
		snprintf(cg_err, sizeof(cg_err), "no dump of process %ld in %.300s",
			 (long)getpid(), dir);
		return -1;
	}
	if (callgrind_parse_file(path, &ev, trigger, sizeof(trigger), cg_err,
				 sizeof(cg_err)) != 0)
		return -1;
	unlink(path);
	if (strncmp(trigger, "Client Request", 14) != 0) {
		snprintf(cg_err, sizeof(cg_err), "%.300s: dumped by '%.100s', "
			 "not by rxbench", path, trigger);
		return -1;
	}
	callgrind_cost(&ev, c);
	return 0;
}

/* a - b, never below 0. */
static double cost_less(double a, double b)
{
	return a > b ? a - b : 0;
}

/* The per-op metrics of n ops that cost `all`, less the run's fixed `floor`. */
static void add_metrics(const struct callgrind_cost *all,
			const struct callgrind_cost *floor, uint64_t n,
			struct result *r)
{
	double k = (double)n;

	result_metric_add(r, "instr/op", BETTER_LOWER,
			  cost_less(all->instr, floor->instr) / k);
	result_metric_add(r, "L1-hits/op", BETTER_LOWER,
			  cost_less(all->l1_hits, floor->l1_hits) / k);
	result_metric_add(r, "LL-hits/op", BETTER_LOWER,
			  cost_less(all->ll_hits, floor->ll_hits) / k);
	result_metric_add(r, "RAM-hits/op", BETTER_LOWER,
			  cost_less(all->ram_hits, floor->ram_hits) / k);
	result_metric_add(r, "rw/op", BETTER_LOWER,
			  cost_less(all->rw, floor->rw) / k);
	result_metric_add(r, "est-cycles/op", BETTER_LOWER,
			  cost_less(all->est_cycles, floor->est_cycles) / k);
}

int callgrind_measure(const struct bench *b, uint64_t n, struct result *r)
{
	struct callgrind_cost floor, all;
	int rc;

	if (!callgrind_active()) {
		snprintf(cg_err, sizeof(cg_err), "not running under rxbench's "
			 "callgrind re-execution (%s unset)", CG_ENV_DIR);
		return STATUS_CALLGRIND;
	}
	CALLGRIND_START_INSTRUMENTATION;
	/* a pass over the input warms the simulated caches, uncounted */
	rc = b->run(b->arg, bench_pass_n(b));
	if (rc < 0)
		goto stop;
	/* the fixed cost of a counted run (a run of 0 ops), taken off as
	   bench.c takes the clock's off.  What it cannot take off: callgrind
	   charges about 500 instructions to the first call through the PLT
	   after a ZERO_STATS (seen at memcmp@plt), once per counted run,
	   which is 10% of a 400-instruction op at the default 10 ops */
	CALLGRIND_ZERO_STATS;
	rc = b->run(b->arg, 0);
	CALLGRIND_DUMP_STATS_AT("floor");
	if (rc < 0)
		goto stop;
	if (read_dump(&floor) != 0) {
		rc = STATUS_CALLGRIND;
		goto stop;
	}
	CALLGRIND_ZERO_STATS;
	rc = b->run(b->arg, n);
	CALLGRIND_STOP_INSTRUMENTATION;
	CALLGRIND_DUMP_STATS_AT(b->name);
	if (rc < 0)
		return rc;
	if (read_dump(&all) != 0)
		return STATUS_CALLGRIND;
	add_metrics(&all, &floor, n, r);
	return 0;
stop:
	CALLGRIND_STOP_INSTRUMENTATION;
	return rc;
}
#else
int callgrind_measure(const struct bench *b, uint64_t n, struct result *r)
{
	(void)b;
	(void)n;
	(void)r;
	snprintf(cg_err, sizeof(cg_err), "rxbench was built without "
		 "valgrind/callgrind.h (install valgrind and reconfigure)");
	return STATUS_CALLGRIND;
}
#endif

/*
 * context.c - what a results file records about the machine and the run.
 *
 * Go config lines (stable between runs, so benchstat can compare):
 * goos, goarch, cpu, rxbench version, one "<engine>-version" per engine
 * the run selected.
 * JSON-only context (changes every run): host, kernel, compiler, date,
 * command line, load average, frequency governor; and how the run
 * measures (count, mode, isolation, pinned CPU, its frequency scaling).
 */
#define _GNU_SOURCE
#include "tools/cli.h"

#include "engines/engine.h"
#include "harness/callgrind.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <time.h>

#ifndef RXB_VERSION
#define RXB_VERSION "0.1.0"
#endif

/* First "model name" of /proc/cpuinfo, or "unknown". */
static void cpu_model(char *buf, size_t size)
{
	FILE *f = fopen("/proc/cpuinfo", "r");
	char line[512];

	snprintf(buf, size, "unknown");
	if (f == NULL)
		return;
	while (fgets(line, sizeof(line), f) != NULL) {
		char *colon = strchr(line, ':');
		if (strncmp(line, "model name", 10) != 0 || colon == NULL)
			continue;
		colon += 1 + (colon[1] == ' ');
		colon[strcspn(colon, "\n")] = '\0';
		snprintf(buf, size, "%s", colon);
		break;
	}
	fclose(f);
}

/* The first line of a small file, or "" when unreadable. */
static void first_line(const char *path, char *buf, size_t size)
{
	FILE *f = fopen(path, "r");

	buf[0] = '\0';
	if (f == NULL)
		return;
	if (fgets(buf, (int)size, f) == NULL)
		buf[0] = '\0';
	buf[strcspn(buf, "\n")] = '\0';
	fclose(f);
}

/* The command line as a list: "rxbench", the command, its arguments. */
static void meta_argv(struct results *res, int argc, char **argv)
{
	char **v = malloc(((size_t)argc + 1) * sizeof(*v));

	if (v == NULL)
		return;
	v[0] = "rxbench";
	for (int i = 0; i < argc; i++)
		v[i + 1] = argv[i];
	results_set_argv(res, argc + 1, v);
	free(v);
}

static void meta_run(struct results *res, int argc, char **argv)
{
	char buf[4096];
	size_t used = 0;
	time_t now = time(NULL);
	struct tm tm;

	for (int i = 0; i < argc && used < sizeof(buf); i++) {
		int w = snprintf(buf + used, sizeof(buf) - used, "%s%s",
				 i ? " " : "", argv[i]);
		if (w < 0)
			break;
		used += (size_t)w;
	}
	results_meta_set(res, "cmdline", buf); /* to read; argv to repeat */
	meta_argv(res, argc, argv);
	gmtime_r(&now, &tm);
	strftime(buf, sizeof(buf), "%Y-%m-%dT%H:%M:%SZ", &tm);
	results_meta_set(res, "date", buf);
	first_line("/proc/loadavg", buf, sizeof(buf));
	results_meta_set(res, "loadavg", buf);
	first_line("/sys/devices/system/cpu/cpu0/cpufreq/scaling_governor",
		   buf, sizeof(buf));
	results_meta_set(res, "governor", buf[0] ? buf : "unknown");
}

/*
 * "<engine>-options: max_mem:64M" when e runs with options changed; the
 * entries of a sweep (--engine-opt xdp.action=drop,tx) one after the
 * other: "action:drop; action:tx".
 */
static void engine_context(struct results *res, const struct engine *e)
{
	char key[96], opts[256], all[1024];
	const char *had;

	if (engine_opts_changed(e, opts, sizeof(opts)) == 0)
		return;
	snprintf(key, sizeof(key), "%s-options", e->name);
	had = results_config_get(res, key);
	if (had != NULL && strcmp(had, opts) != 0) {
		snprintf(all, sizeof(all), "%s; %s", had, opts);
		results_config_set(res, key, all);
		return;
	}
	results_config_set(res, key, opts);
}

void context_fill(struct results *res, int argc, char **argv)
{
	struct utsname u;
	char buf[512];

	uname(&u);
	results_config_set(res, "goos", "linux");
	results_config_set(res, "goarch",
			   strcmp(u.machine, "x86_64") == 0 ? "amd64"
			   : strcmp(u.machine, "aarch64") == 0 ? "arm64"
							       : u.machine);
	cpu_model(buf, sizeof(buf));
	results_config_set(res, "cpu", buf);
	results_config_set(res, "rxbench-version", RXB_VERSION);
	results_meta_set(res, "host", u.nodename);
	snprintf(buf, sizeof(buf), "%s %s", u.sysname, u.release);
	results_meta_set(res, "kernel", buf);
#ifdef __VERSION__
	results_meta_set(res, "compiler", "cc " __VERSION__);
#endif
	meta_run(res, argc, argv);
}

/*
 * A runner engine's version() starts its runner (go, python3, node: 0.1
 * to 0.3 s each, more on a loaded machine), so only the engines the run
 * selected are asked, and only once a suite has cases for them.
 */
void context_fill_engines(struct results *res,
			  const struct engine *const *engines, size_t n)
{
	char key[96];

	for (size_t i = 0; i < n; i++) {
		const struct engine *e = engines[i];
		if (e->caps & CAP_TEST_ONLY)
			continue;
		snprintf(key, sizeof(key), "%s-version", e->name);
		results_config_set(res, key, e->version());
		engine_context(res, e);
		snprintf(key, sizeof(key), "%s-runs-in", e->name);
		if (e->runs_in != NULL)
			results_config_set(res, key, e->runs_in);
	}
}

/* "cpu MHz" of processor `cpu` in /proc/cpuinfo, or "". */
static void cpu_mhz(int cpu, char *buf, size_t size)
{
	FILE *f = fopen("/proc/cpuinfo", "r");
	char line[512];
	int proc = -1;

	buf[0] = '\0';
	if (f == NULL)
		return;
	while (fgets(line, sizeof(line), f) != NULL) {
		char *colon = strchr(line, ':');
		if (colon == NULL)
			continue;
		if (strncmp(line, "processor", 9) == 0)
			proc = (int)strtol(colon + 1, NULL, 10);
		else if (proc == cpu && strncmp(line, "cpu MHz", 7) == 0) {
			colon += 1 + (colon[1] == ' ');
			colon[strcspn(colon, "\n")] = '\0';
			snprintf(buf, size, "%s", colon);
			break;
		}
	}
	fclose(f);
}

/* Append "name=<first line of file>" when the file is readable. */
static void add_sysfs(char *buf, size_t size, const char *name,
		      const char *path)
{
	char v[128];
	size_t used = strlen(buf);

	first_line(path, v, sizeof(v));
	if (v[0] != '\0' && used < size)
		snprintf(buf + used, size - used, "%s%s=%s", used ? " " : "",
			 name, v);
}

/* Governor, frequency limits and turbo state of cpu, or "unavailable". */
static void cpufreq_state(int cpu, char *buf, size_t size)
{
	static const char *const files[] = {
		"scaling_governor", "scaling_driver", "scaling_cur_freq",
		"scaling_min_freq", "scaling_max_freq",
	};
	char path[256];

	buf[0] = '\0';
	for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		snprintf(path, sizeof(path),
			 "/sys/devices/system/cpu/cpu%d/cpufreq/%s", cpu,
			 files[i]);
		add_sysfs(buf, size, files[i], path);
	}
	add_sysfs(buf, size, "boost", "/sys/devices/system/cpu/cpufreq/boost");
	add_sysfs(buf, size, "no_turbo",
		  "/sys/devices/system/cpu/intel_pstate/no_turbo");
	if (buf[0] == '\0')
		snprintf(buf, size, "unavailable (no cpufreq in /sys: fixed or "
			 "virtualized)");
}

void context_fill_measure(struct results *res, const struct bench_opts *o,
			  int cpu)
{
	char buf[512], opts[256];
	int c = cpu >= 0 ? cpu : 0;

	snprintf(buf, sizeof(buf), "%d", o->count > 0 ? o->count : 1);
	results_meta_set(res, "count", buf);
	callgrind_describe(opts, sizeof(opts));
	if (o->measure == BENCH_INSTRUCTIONS)
		snprintf(buf, sizeof(buf), "instructions (valgrind %s)", opts);
	else if (o->measure == BENCH_WALL)
		snprintf(buf, sizeof(buf), "wall time (CLOCK_MONOTONIC)");
	else
		snprintf(buf, sizeof(buf), "time (CLOCK_MONOTONIC; a run "
			 "preempted for over 50 us by its CPU time)");
	results_meta_set(res, "measure", buf);
	if (o->isolate && o->timeout_ns > 0)
		snprintf(buf, sizeof(buf), "fork per sample, timeout %gs",
			 o->timeout_ns / 1e9);
	else
		snprintf(buf, sizeof(buf), o->isolate ? "fork per sample"
						      : "none (--no-fork)");
	results_meta_set(res, "isolation", buf);
	snprintf(buf, sizeof(buf), "%d", cpu);
	results_meta_set(res, "cpu-pinned", cpu >= 0 ? buf : "no");
	cpufreq_state(c, buf, sizeof(buf));
	results_meta_set(res, "cpufreq", buf);
	cpu_mhz(c, buf, sizeof(buf));
	if (buf[0] != '\0')
		results_meta_set(res, "cpu-mhz", buf);
	snprintf(buf, sizeof(buf),
		 "/sys/devices/system/cpu/cpu%d/cpufreq/scaling_governor", c);
	first_line(buf, buf, sizeof(buf));
	results_meta_set(res, "governor", buf[0] ? buf : "unknown");
}

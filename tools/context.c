/*
 * context.c - what a results file records about the machine and the run.
 *
 * Go config lines (stable between runs, so benchstat can compare):
 * goos, goarch, cpu, rxbench version, one "<engine>-version" per engine.
 * JSON-only context (changes every run): host, kernel, compiler, date,
 * command line, load average, frequency governor.
 */
#define _GNU_SOURCE
#include "tools/cli.h"

#include "engines/engine.h"

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
	results_meta_set(res, "cmdline", buf);
	gmtime_r(&now, &tm);
	strftime(buf, sizeof(buf), "%Y-%m-%dT%H:%M:%SZ", &tm);
	results_meta_set(res, "date", buf);
	first_line("/proc/loadavg", buf, sizeof(buf));
	results_meta_set(res, "loadavg", buf);
	first_line("/sys/devices/system/cpu/cpu0/cpufreq/scaling_governor",
		   buf, sizeof(buf));
	results_meta_set(res, "governor", buf[0] ? buf : "unknown");
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
	for (size_t i = 0; i < engine_count; i++) {
		const struct engine *e = engine_table[i];
		if (e->caps & CAP_TEST_ONLY)
			continue;
		snprintf(buf, sizeof(buf), "%s-version", e->name);
		results_config_set(res, buf, e->version());
	}
	results_meta_set(res, "host", u.nodename);
	snprintf(buf, sizeof(buf), "%s %s", u.sysname, u.release);
	results_meta_set(res, "kernel", buf);
#ifdef __VERSION__
	results_meta_set(res, "compiler", "cc " __VERSION__);
#endif
	meta_run(res, argc, argv);
}

/*
 * fuzz_gotext_read.c - libFuzzer target for the Go benchmark text reader
 * (report/gotext_read.c) that `rxbench compare` and `report` use.
 *
 * What it accepts then goes through the writers `rxbench report` runs on
 * it (Go text and JSON), and the JSON must read back: a reader that
 * builds results the writers or the JSON reader choke on is a bug too.
 */
#define _GNU_SOURCE
#include "engines/engine.h"
#include "report/gofmt.h"
#include "report/gotext_read.h"
#include "report/json.h"
#include "report/json_read.h"

#include "tests/fuzz/fuzz_check.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The Go text writer, into memory that is thrown away. */
static void write_text(const struct results *res)
{
	struct gofmt g;
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	if (f == NULL)
		return;
	gofmt_init(&g, f, 0);
	gofmt_write_results(&g, res);
	gofmt_release(&g);
	fclose(f);
	free(buf);
}

/* The JSON writer; what it wrote must be UTF-8 and read back. */
static void write_json(const struct results *res)
{
	struct results again;
	char *buf = NULL, err[512];
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	if (f == NULL)
		return;
	if (json_write_results(f, res) != 0)
		abort();
	fclose(f);
	if (engine_utf8_invalid(buf, len) >= 0)
		abort();
	results_init(&again);
	if (json_read_results(buf, len, "written", &again, err,
			      sizeof(err)) != 0)
		abort();
	results_release(&again);
	free(buf);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct results res;
	char err[512] = "";

	results_init(&res);
	if (gotext_read_results((const char *)data, size, "fuzz.txt", &res, err,
				sizeof(err)) == 0) {
		write_text(&res);
		write_json(&res);
	} else if (!fuzz_message_ok(err, "fuzz.txt:"))
		abort();
	results_release(&res);
	return 0;
}

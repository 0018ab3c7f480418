/*
 * fuzz_json_read.c - libFuzzer target for the JSON results reader
 * (report/json_read.c) that `rxbench compare` and `report` use.
 *
 * Oracle beyond the sanitizers: json_read.h promises a lossless round
 * trip, so whatever it accepts, written back and read again, must give
 * the same bytes when written a second time; and what the writer writes
 * is UTF-8, as JSON must be.  The same bytes read as a run's journal
 * (JSON lines, or version 1's open array) must fail with a one-line
 * message naming the file, or give results that round-trip too.
 */
#define _GNU_SOURCE
#include "engines/engine.h"
#include "report/json.h"
#include "report/json_read.h"

#include "tests/fuzz/fuzz_check.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* json_write_results() of res into a new buffer; NULL when it failed. */
static char *write_json(const struct results *res, size_t *len)
{
	char *buf = NULL;
	FILE *f = open_memstream(&buf, len);

	if (f == NULL)
		return NULL;
	if (json_write_results(f, res) != 0) {
		fclose(f);
		free(buf);
		return NULL;
	}
	fclose(f);
	return buf;
}

static void round_trip(const struct results *res)
{
	struct results again;
	char err[512], *a, *b = NULL;
	size_t alen = 0, blen = 0;

	a = write_json(res, &alen);
	if (a == NULL || engine_utf8_invalid(a, alen) >= 0)
		abort();
	results_init(&again);
	if (json_read_results(a, alen, "written", &again, err, sizeof(err)) != 0)
		abort(); /* the reader refused what the writer wrote */
	b = write_json(&again, &blen);
	if (b == NULL || alen != blen || memcmp(a, b, alen) != 0)
		abort(); /* not lossless */
	results_release(&again);
	free(a);
	free(b);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct results res;
	char err[512] = "";

	results_init(&res);
	if (json_read_results((const char *)data, size, "fuzz.json", &res, err,
			      sizeof(err)) == 0)
		round_trip(&res);
	else if (!fuzz_message_ok(err, "fuzz.json:"))
		abort();
	results_release(&res);
	results_init(&res);
	err[0] = '\0';
	if (json_read_journal((const char *)data, size, "fuzz.journal", &res,
			      err, sizeof(err)) == 0)
		round_trip(&res);
	else if (!fuzz_message_ok(err, "fuzz.journal:"))
		abort();
	results_release(&res);
	return 0;
}

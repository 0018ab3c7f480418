/*
 * ref_cli.c - the reference matcher on the command line, for
 * tests/reference_oracle.py and for reproducing what it reports.  Built
 * with the tests, never installed.
 *
 *   ref_cli [-e ENGINE] PATTERN_FILE FLAGS DATA_FILE
 *   ref_cli [-e ENGINE] --batch      (records on stdin, see below)
 *
 * FLAGS is "-" or letters: i caseless, s dotall, m multiline, u UTF-8,
 * a anchored.  Each case prints one line:
 *
 *   ok match=M first=F longest=L ends=E grep=G needs=N features=X
 *   out_of_reach MESSAGE  |  invalid MESSAGE  |  nomem MESSAGE
 *
 * grep counts the lines that match on their own: the data cut at '\n',
 * a '\r' kept in its line (GNU grep), a last line without '\n' counted,
 * none after a final '\n'.  With -e ENGINE every line ends with
 * " engine=M/C" (that engine's is_match and count on the data) or
 * " engine=error" when it refuses the pattern.
 *
 * A batch record is a header line "FLAGS PATTERN_LEN DATA_LEN\n" and
 * then exactly that many pattern bytes and data bytes.
 */
#include "engines/engine.h"
#include "suites/reference.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct bytes {
	char *p;
	size_t n;
};

static int parse_flags(const char *s, unsigned *flags)
{
	static const char letters[] = "ismua";
	static const unsigned bits[] = {ENGINE_CASELESS, ENGINE_DOTALL,
					ENGINE_MULTILINE, ENGINE_UTF8,
					ENGINE_ANCHORED};

	*flags = 0;
	if (strcmp(s, "-") == 0)
		return 0;
	for (; *s; s++) {
		const char *hit = strchr(letters, *s);
		if (hit == NULL)
			return -1;
		*flags |= bits[hit - letters];
	}
	return 0;
}

static long grep_count(const struct ref_regex *r, const struct bytes *d)
{
	long n = 0;
	size_t start = 0;

	while (start < d->n) {
		const char *nl = memchr(d->p + start, '\n', d->n - start);
		size_t end = nl == NULL ? d->n : (size_t)(nl - d->p);
		n += ref_is_match(r, d->p + start, end - start);
		start = end + 1;
	}
	return n;
}

/* " engine=M/C" for the named engine on this case. */
static void engine_answer(const char *name, const struct bytes *re,
			  unsigned flags, const struct bytes *d)
{
	const struct engine *e = engine_find(name);
	struct engine_pattern pat = {re->p, re->n};
	struct engine_error err;
	void *h = NULL;

	if (e == NULL || e->compile(&pat, 1, flags, &h, &err) != 0) {
		printf(" engine=error");
		return;
	}
	printf(" engine=%d/%ld", e->is_match(h, d->p, d->n),
	       e->count != NULL ? e->count(h, d->p, d->n) : -1L);
	e->free(h);
}

static void run_case(const struct bytes *re, unsigned flags,
		     const struct bytes *d, const char *engine)
{
	static const char *const names[] = {"ok", "out_of_reach", "invalid",
					    "nomem"};
	struct ref_regex *r;
	char why[256];
	int rc = ref_compile(re->p, re->n, flags, &r, why, sizeof(why));

	if (rc != REF_OK) {
		printf("%s %s", names[-rc], why);
		if (engine != NULL)
			engine_answer(engine, re, flags, d);
		printf("\n");
		return;
	}
	printf("ok match=%d first=%ld longest=%ld ends=%ld grep=%ld "
	       "needs=%u features=%u",
	       ref_is_match(r, d->p, d->n),
	       ref_count(r, SEM_LEFTMOST_FIRST, d->p, d->n),
	       ref_count(r, SEM_LEFTMOST_LONGEST, d->p, d->n),
	       ref_count(r, SEM_ALL_ENDS, d->p, d->n), grep_count(r, d),
	       ref_needs(r), ref_features(r));
	if (engine != NULL)
		engine_answer(engine, re, flags, d);
	printf("\n");
	ref_free(r);
}

/* Reads n bytes from f into b (NUL-terminated for convenience). */
static int read_exact(FILE *f, size_t n, struct bytes *b)
{
	b->p = malloc(n + 1);
	b->n = n;
	if (b->p == NULL || fread(b->p, 1, n, f) != n)
		return -1;
	b->p[n] = '\0';
	return 0;
}

static int read_file(const char *path, struct bytes *b)
{
	FILE *f = fopen(path, "rb");
	long size;
	int rc = -1;

	if (f == NULL) {
		fprintf(stderr, "ref_cli: %s: %s\n", path, strerror(errno));
		return -1;
	}
	if (fseek(f, 0, SEEK_END) == 0 && (size = ftell(f)) >= 0 &&
	    fseek(f, 0, SEEK_SET) == 0)
		rc = read_exact(f, (size_t)size, b);
	if (rc != 0)
		fprintf(stderr, "ref_cli: %s: cannot read\n", path);
	fclose(f);
	return rc;
}

static int batch(const char *engine)
{
	char flags_s[16];
	size_t plen, dlen;

	while (scanf("%15s %zu %zu", flags_s, &plen, &dlen) == 3) {
		struct bytes re = {0}, d = {0};
		unsigned flags;
		int rc = getchar() == '\n' ? 0 : -1;
		if (rc == 0)
			rc = parse_flags(flags_s, &flags);
		if (rc == 0)
			rc = read_exact(stdin, plen, &re);
		if (rc == 0)
			rc = read_exact(stdin, dlen, &d);
		if (rc == 0)
			run_case(&re, flags, &d, engine);
		free(re.p);
		free(d.p);
		if (rc != 0) {
			fprintf(stderr, "ref_cli: bad batch record\n");
			return 2;
		}
		fflush(stdout);
	}
	return 0;
}

int main(int argc, char **argv)
{
	const char *engine = NULL;
	struct bytes re = {0}, d = {0};
	unsigned flags;
	int rc = 2;

	if (argc > 2 && strcmp(argv[1], "-e") == 0) {
		engine = argv[2];
		argc -= 2;
		argv += 2;
	}
	if (argc == 2 && strcmp(argv[1], "--batch") == 0)
		return batch(engine);
	if (argc != 4 || parse_flags(argv[2], &flags) != 0) {
		fprintf(stderr, "usage: ref_cli [-e ENGINE] PATTERN_FILE FLAGS "
				"DATA_FILE | --batch\n"
				"  FLAGS: - or letters of i s m u a\n");
		return 2;
	}
	if (read_file(argv[1], &re) == 0 && read_file(argv[3], &d) == 0) {
		run_case(&re, flags, &d, engine);
		rc = 0;
	}
	free(re.p);
	free(d.p);
	return rc;
}

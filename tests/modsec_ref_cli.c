/*
 * modsec_ref_cli.c - the payload suite's expected answer for ModSecurity
 * rules on their variables (--rules-target=variables) on the command
 * line, for tests/modsec_diff.py, which holds it against libmodsecurity3
 * (tests/modsec_oracle.c).  Built with the tests, never installed.
 *
 *   modsec_ref_cli [--modsec=3|2] RULES [REQUESTS]
 *
 * RULES is what --rules reads, read as the suite reads it (rules_load in
 * the modsec format, payload_rules_targets, payload_rules_reference);
 * REQUESTS, frames "<decimal length>\n" then that many raw bytes of one
 * request (tests/modsec_oracle.c's framing).  Prints, in this order:
 *   run NAME<TAB>FILE:LINE         a rule whose answer the reference gives
 *   skip NAME<TAB>FILE:LINE<TAB>WHY   a rule the suite does not run on its
 *                                  variables (payload_rules_skipped's
 *                                  reason) or whose answer is not the
 *                                  reference's (a pattern out of its reach)
 *   skipped N                      SecRules not read as rules (other
 *                                  operators than @rx, %{macros})
 *   notreq I: WHY                  request I is no request to the suite
 *                                  (http_req_parse's reason): no rule
 *                                  reads anything of it
 *   req I: NAME...                 the run rules matching request I, in
 *                                  the order of the run lines
 * A request's answer is payload_rule_ref(), the one payload_rule_expect()
 * takes: every condition through payload_pattern_on() (waf_each() on the
 * rule's spec, the reference matcher with the pattern's flags), combined
 * by rules_holds().  Exit 0, or 2 with a message on unusable input.
 */
#include "suites/payload_ruleset.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The whole of file path; NULL with errno set. */
static char *read_all(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	char *p = NULL, *grown;
	size_t n = 0, cap = 0, got;

	if (f == NULL)
		return NULL;
	do {
		if (n + 65536 > cap) {
			cap = (n + 65536) * 2;
			grown = realloc(p, cap);
			if (grown == NULL) {
				free(p);
				fclose(f);
				errno = ENOMEM;
				return NULL;
			}
			p = grown;
		}
		got = fread(p + n, 1, cap - n, f);
		n += got;
	} while (got > 0);
	if (ferror(f)) {
		free(p);
		fclose(f);
		errno = EIO;
		return NULL;
	}
	fclose(f);
	*len = n;
	return p;
}

/* Rule r's "FILE:LINE": its where without the " (id N)" after it. */
static void rule_at(const struct rule *ru, char *buf, size_t size)
{
	const char *par = strstr(ru->where, " (");

	snprintf(buf, size, "%.*s", (int)(par ? (size_t)(par - ru->where)
					      : strlen(ru->where)), ru->where);
}

/* The run and skip lines; runs[r] = 1 for each run rule. */
static void print_rules(const struct payload_rules *pr, unsigned char *runs)
{
	for (size_t r = 0; r < pr->rs.n; r++) {
		const struct rule *ru = &pr->rs.r[r];
		char at[512];
		rule_at(ru, at, sizeof(at));
		if (pr->skip[r] != NULL)
			printf("skip %s\t%s\trxbench does not apply %s\n", ru->name,
			       at, pr->skip[r]);
		else if (!pr->by_ref[r])
			printf("skip %s\t%s\ta pattern out of the reference's "
			       "reach (the suite takes a vote)\n", ru->name, at);
		else
			printf("run %s\t%s\n", ru->name, at);
		runs[r] = pr->skip[r] == NULL && pr->by_ref[r];
	}
	printf("skipped %zu\n", pr->rs.skipped);
}

/* The notreq or req line of request i, p[0..n).  0, or -1 (memory). */
static int print_request(struct payload_rules *pr, const unsigned char *runs,
			 size_t i, const char *p, size_t n)
{
	struct http_req q;
	struct packet pk = {p, n};
	char why[160];
	int rc;

	http_req_init(&q);
	q.modsec = pr->rs.modsec;
	rc = http_req_parse(&q, p, n, why, sizeof(why));
	if (rc == 1)
		printf("notreq %zu: %s\n", i, why);
	if (rc != 0)
		goto out;
	printf("req %zu:", i);
	for (size_t r = 0; r < pr->rs.n; r++) {
		int holds = runs[r] ? payload_rule_ref(pr, r, &pk, &q) : 0;
		if (holds < 0) {
			rc = -1;
			break;
		}
		if (holds)
			printf(" %s", pr->rs.r[r].name);
	}
	printf("\n");
out:
	http_req_release(&q);
	return rc < 0 ? -1 : 0;
}

/* Every request of file path.  0, or -1 (message printed). */
static int print_requests(struct payload_rules *pr, const unsigned char *runs,
			  const char *path)
{
	size_t len, pos = 0, i = 0;
	char *text = read_all(path, &len);
	int rc = 0;

	if (text == NULL) {
		fprintf(stderr, "modsec_ref_cli: %s: %s\n", path, strerror(errno));
		return -1;
	}
	while (rc == 0 && pos < len) {
		char *e;
		unsigned long n;
		if (text[pos] < '0' || text[pos] > '9' ||
		    (n = strtoul(text + pos, &e, 10), e >= text + len) ||
		    *e != '\n' || n > len - (size_t)(e + 1 - text)) {
			fprintf(stderr, "modsec_ref_cli: %s: bad frame at byte "
				"%zu\n", path, pos);
			rc = -1;
			break;
		}
		rc = print_request(pr, runs, i++, e + 1, n);
		if (rc != 0)
			fprintf(stderr, "modsec_ref_cli: out of memory\n");
		pos = (size_t)(e + 1 - text) + n;
	}
	free(text);
	return rc;
}

int main(int argc, char **argv)
{
	struct payload_rules pr;
	enum modsec_version v = MODSEC_DEFAULT;
	unsigned char *runs = NULL;
	char err[512];
	int rc = 2;

	if (argc > 1 && strncmp(argv[1], "--modsec=", 9) == 0) {
		if (strcmp(argv[1] + 9, "2") != 0 && strcmp(argv[1] + 9, "3") != 0) {
			fprintf(stderr, "modsec_ref_cli: --modsec: 3 or 2\n");
			return 2;
		}
		v = argv[1][9] == '2' ? MODSEC_V2 : MODSEC_V3;
		argv++;
		argc--;
	}
	if (argc != 2 && argc != 3) {
		fprintf(stderr, "usage: modsec_ref_cli [--modsec=3|2] RULES "
			"[REQUESTS]\n");
		return 2;
	}
	memset(&pr, 0, sizeof(pr));
	ruleset_init(&pr.rs);
	pr.rs.modsec = v;
	if (rules_load(&pr.rs, argv[1], RULES_MODSEC, err, sizeof(err)) != 0 ||
	    payload_rules_targets(&pr, RULES_TARGET_VARIABLES, err,
				  sizeof(err)) != 0) {
		fprintf(stderr, "modsec_ref_cli: %s\n", err);
		goto out;
	}
	runs = calloc(pr.rs.n + 1, 1);
	if (runs == NULL || payload_rules_reference(&pr) != 0) {
		fprintf(stderr, "modsec_ref_cli: out of memory\n");
		goto out;
	}
	print_rules(&pr, runs);
	if (argc == 3 && print_requests(&pr, runs, argv[2]) != 0)
		goto out;
	rc = 0;
out:
	free(runs);
	payload_rules_release(&pr);
	return rc;
}

/*
 * fqdn_ref_cli.c - the FQDN suite's reference matcher on the command
 * line, for tests/fqdn_oracle.py and for reproducing what it reports.
 * Built with the tests, never installed.
 *
 *   fqdn_ref_cli 1.11|1.19 POLICY_FILE QUERIES_FILE
 *
 * POLICY_FILE is what --policy reads (YAML or a list); QUERIES_FILE what
 * --queries reads (each line's exact bytes).  Prints one line per query,
 * "1" allowed or "0" denied, in order.  Exit 0, or 2 with a message on
 * unusable input.
 */
#include "corpora/fqdn_policy.h"
#include "suites/fqdn_ref.h"

#include <stdio.h>
#include <string.h>

int main(int argc, char **argv)
{
	struct fqdn_policy p;
	struct fqdn_queries q;
	struct fqdn_ref r;
	char err[1024];
	int rc = 2;

	if (argc != 4 || (strcmp(argv[1], "1.11") != 0 &&
			  strcmp(argv[1], "1.19") != 0)) {
		fprintf(stderr, "usage: fqdn_ref_cli 1.11|1.19 POLICY QUERIES\n");
		return 2;
	}
	fqdn_policy_init(&p);
	fqdn_queries_init(&q);
	if (fqdn_policy_load(&p, argv[2], err, sizeof(err)) != 0 ||
	    fqdn_queries_load(&q, argv[3], err, sizeof(err)) != 0) {
		fprintf(stderr, "fqdn_ref_cli: %s\n", err);
		goto out;
	}
	p.cilium = strcmp(argv[1], "1.19") == 0 ? FQDN_CILIUM_1_19
						 : FQDN_CILIUM_1_11;
	if (fqdn_ref_init(&r, &p) != 0)
		goto out;
	for (size_t i = 0; i < q.n; i++) {
		int v = fqdn_ref_allows(&r, q.name[i], q.len[i]);
		if (v < 0)
			break;
		printf("%d\n", v);
	}
	fqdn_ref_release(&r);
	rc = 0;
out:
	fqdn_queries_release(&q);
	fqdn_policy_release(&p);
	return rc;
}

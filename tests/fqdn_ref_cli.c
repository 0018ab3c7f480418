/*
 * fqdn_ref_cli.c - the FQDN suite's reference matcher (or, with --trie,
 * the trie strategy) on the command line, for tests/fqdn_oracle.py and
 * tests/fqdn_cilium_diff.py and for reproducing what they report.  Built
 * with the tests, never installed.
 *
 *   fqdn_ref_cli [--trie | --name-manager] 1.11|1.19 POLICY_FILE QUERIES_FILE
 *
 * POLICY_FILE is what --policy reads (YAML or a list); QUERIES_FILE what
 * --queries reads (each line's exact bytes).  Prints one line per query,
 * "1" allowed or "0" denied, in order: the reference's verdict, or with
 * --trie the trie's (suites/fqdn_trie.h) on the query as the trie
 * strategy rewrites it (fqdn_rewrite), or with --name-manager the
 * reference as Cilium's name manager reads the selectors
 * (fqdn_ref_init_name_manager), each on its component's selector set
 * (a list is in both; 1.19's name manager drops a selector past 255
 * bytes once qualified).  Exit 0, or 2 with a message on unusable input.
 */
#include "corpora/fqdn_policy.h"
#include "suites/fqdn_ref.h"
#include "suites/fqdn_strategies.h"
#include "suites/fqdn_trie.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The reference's verdicts on q (the name manager's when nm), one line
 * each.  0, or -1 out of memory. */
static int print_ref(const struct fqdn_policy *p, const struct fqdn_queries *q,
		     int nm)
{
	struct fqdn_policy set; /* the selectors of that component */
	struct fqdn_ref r;
	int rc;

	if (fqdn_policy_select(p, nm ? FQDN_SET_L3 : FQDN_SET_L7, &set) != 0)
		return -1;
	rc = nm ? fqdn_ref_init_name_manager(&r, &set) : fqdn_ref_init(&r, &set);
	fqdn_policy_release(&set);
	if (rc != 0)
		return -1;
	for (size_t i = 0; i < q->n; i++) {
		int v = fqdn_ref_allows(&r, q->name[i], q->len[i]);
		if (v < 0)
			break;
		printf("%d\n", v);
	}
	fqdn_ref_release(&r);
	return 0;
}

/* The trie's verdicts on q as the trie strategy rewrites each query.
 * 0, or -1 out of memory. */
static int print_trie(const struct fqdn_policy *p,
		      const struct fqdn_queries *q)
{
	const struct fqdn_strategy *st = fqdn_strategy_find("trie");
	struct fqdn_trie *t = fqdn_trie_build(p);
	char *buf = malloc(q->maxlen + 2);
	int rc = -1;

	if (st == NULL || t == NULL || buf == NULL)
		goto out;
	for (size_t i = 0; i < q->n; i++) {
		size_t n = fqdn_rewrite(st, q->name[i], q->len[i], buf);
		printf("%d\n", fqdn_trie_match(t, buf, n));
	}
	rc = 0;
out:
	free(buf);
	if (t != NULL)
		fqdn_trie_free(t);
	return rc;
}

int main(int argc, char **argv)
{
	struct fqdn_policy p;
	struct fqdn_queries q;
	char err[1024];
	int trie = argc > 1 && strcmp(argv[1], "--trie") == 0;
	int nm = argc > 1 && strcmp(argv[1], "--name-manager") == 0;
	int rc = 2;

	argv += trie + nm;
	argc -= trie + nm;
	if (argc != 4 || (strcmp(argv[1], "1.11") != 0 &&
			  strcmp(argv[1], "1.19") != 0)) {
		fprintf(stderr, "usage: fqdn_ref_cli [--trie | --name-manager] "
			"1.11|1.19 POLICY QUERIES\n");
		return 2;
	}
	fqdn_policy_init(&p);
	fqdn_queries_init(&q);
	/* the selectors are checked as that version's agent checks them */
	p.cilium = strcmp(argv[1], "1.19") == 0 ? FQDN_CILIUM_1_19
						 : FQDN_CILIUM_1_11;
	if (fqdn_policy_load(&p, argv[2], err, sizeof(err)) != 0 ||
	    fqdn_queries_load(&q, argv[3], err, sizeof(err)) != 0) {
		fprintf(stderr, "fqdn_ref_cli: %s\n", err);
		goto out;
	}
	if ((trie ? print_trie(&p, &q) : print_ref(&p, &q, nm)) != 0) {
		fprintf(stderr, "fqdn_ref_cli: out of memory\n");
		goto out;
	}
	rc = 0;
out:
	fqdn_queries_release(&q);
	fqdn_policy_release(&p);
	return rc;
}

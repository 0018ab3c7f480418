/*
 * fqdn_case_cli.c - one case of the FQDN suite as data, for the Go
 * benchmark beside it (tests/go/fqdn_bench_test.go): what rxbench's go
 * engine is asked for strategy S on the generated policy of N selectors
 * (the suite's --domains=N --seed=SEED --cilium=1.19 --generator=seed).
 * Built with the tests, never installed.
 *
 *   fqdn_case_cli STRATEGY N SEED
 *
 * Prints lines of a tag, a tab and its text: "op one|first|all" (how the
 * regexes are asked: fqdn_strategies.h), "reverse 0|1" (whether the
 * strategy reverses a query after lowering and qualifying it, as the
 * runner's op does: engines/runner.h), "re REGEX" for each regex, "name
 * KEY" for each key of the name set (rewritten, as the strategy keeps
 * them), then per query set "set NAME" followed by "q QUERY" for each
 * query as generated (the op rewrites it) and "v 0|1" the reference's
 * verdict on it.  Exit 0, or 2 with a message.
 */
#include "corpora/fqdn_policy.h"
#include "suites/fqdn_ref.h"
#include "suites/fqdn_strategies.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const op_names[] = {"one", "set", "first", "all"};

/* The strategy's regexes and name set. */
static void print_built(const struct fqdn_strategy *s,
			const struct fqdn_built *b)
{
	printf("op\t%s\n", op_names[s->op]);
	printf("reverse\t%d\n", (s->flags & FQDN_S_REVERSE) != 0);
	for (size_t i = 0; i < b->nre; i++)
		printf("re\t%.*s\n", (int)b->relen[i], b->re[i]);
	for (size_t i = 0; i < b->names.n; i++) {
		size_t len;
		const char *k = strset_key(&b->names, i, &len);
		printf("name\t%.*s\n", (int)len, k);
	}
}

/* Query set k of policy p: its queries, each with its verdict. */
static int print_set(const struct fqdn_policy *p, const struct fqdn_ref *r,
		     enum fqdn_qset k, unsigned long long seed)
{
	struct fqdn_queries q;
	int rc = 0;

	fqdn_queries_init(&q);
	if (fqdn_queries_generate(&q, p, k, seed) != 0)
		rc = -1;
	printf("set\t%s\n", fqdn_qset_name(k));
	for (size_t i = 0; rc == 0 && i < q.n; i++) {
		int v = fqdn_ref_allows(r, q.name[i], q.len[i]);
		if (v < 0) {
			rc = -1;
			break;
		}
		printf("q\t%.*s\nv\t%d\n", (int)q.len[i], q.name[i], v);
	}
	fqdn_queries_release(&q);
	return rc;
}

int main(int argc, char **argv)
{
	const struct fqdn_strategy *s = argc == 4 ? fqdn_strategy_find(argv[1])
						  : NULL;
	struct fqdn_policy p;
	struct fqdn_built b = {0};
	struct fqdn_ref r;
	char **tlds = NULL;
	int psl = 0, rc = 2;
	long ntlds = -1;
	unsigned long long seed = argc == 4 ? strtoull(argv[3], NULL, 10) : 0;

	if (s == NULL || (s->flags & FQDN_S_TRIE)) {
		fprintf(stderr, "usage: fqdn_case_cli STRATEGY N SEED (a regex "
			"strategy of fqdn_strategies.h)\n");
		return 2;
	}
	fqdn_policy_init(&p);
	p.cilium = FQDN_CILIUM_1_19;
	p.l7_selectors = 1;
	ntlds = fqdn_tlds_load(FQDN_PSL_PATH, &tlds, &psl);
	if (ntlds < 0 ||
	    fqdn_policy_generate(&p, strtoul(argv[2], NULL, 10), seed, tlds,
				 ntlds) != 0 ||
	    fqdn_generate(s, &p, &b) != 0 || fqdn_ref_init(&r, &p) != 0) {
		fprintf(stderr, "fqdn_case_cli: out of memory\n");
		goto out;
	}
	if (b.unsupported != NULL) {
		fprintf(stderr, "fqdn_case_cli: %s: %s\n", s->name,
			b.unsupported);
	} else {
		print_built(s, &b);
		rc = 0;
		for (int k = 0; rc == 0 && k < FQDN_Q_COUNT; k++)
			rc = print_set(&p, &r, (enum fqdn_qset)k, seed);
		rc = rc == 0 ? 0 : 2;
	}
	fqdn_ref_release(&r);
out:
	fqdn_built_release(&b);
	if (ntlds >= 0)
		fqdn_tlds_release(tlds, ntlds, psl);
	fqdn_policy_release(&p);
	return rc;
}

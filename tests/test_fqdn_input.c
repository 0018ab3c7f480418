/*
 * test_fqdn_input.c - the FQDN suite's inputs: the generator's
 * determinism and shape, the query sets, the YAML and list readers and
 * their "FILE:LINE: message" errors (fixtures in tests/data/fqdn/).
 */
#include <criterion/criterion.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "corpora/fqdn_policy.h"
#include "suites/fqdn_ref.h"

static char *tlds_small[] = {"com", "no", "co.uk"};

static void gen(struct fqdn_policy *p, size_t n, uint64_t seed)
{
	fqdn_policy_init(p);
	cr_assert_eq(fqdn_policy_generate(p, n, seed, tlds_small, 3), 0);
	cr_assert_eq(p->n, n);
}

Test(fqdn_generate, deterministic_for_a_seed)
{
	struct fqdn_policy a, b, c;
	int differ = 0;

	gen(&a, 500, 7);
	gen(&b, 500, 7);
	gen(&c, 500, 8);
	for (size_t i = 0; i < 500; i++) {
		cr_assert_str_eq(a.sel[i].text, b.sel[i].text);
		cr_assert_eq(a.sel[i].kind, b.sel[i].kind);
		differ |= strcmp(a.sel[i].text, c.sel[i].text) != 0;
	}
	cr_expect(differ, "another seed gives another policy");
	fqdn_policy_release(&a);
	fqdn_policy_release(&b);
	fqdn_policy_release(&c);
}

/* Which of the five shapes a generated selector has. */
static int shape_of(const char *s)
{
	if (strncmp(s, "*.*.", 4) == 0)
		return 2;
	if (strncmp(s, "*.", 2) == 0)
		return 1;
	if (s[0] == '*')
		return 3;
	if (strchr(s, '*') != NULL)
		return 4;
	return 0;
}

Test(fqdn_generate, shape_60_10_10_10_10_and_valid)
{
	struct fqdn_policy p;
	size_t count[5] = {0};
	char msg[256];

	gen(&p, 1000, 1);
	for (size_t i = 0; i < p.n; i++) {
		const struct fqdn_selector *s = &p.sel[i];
		int sh = shape_of(s->text);
		count[sh]++;
		cr_assert_eq(s->kind, sh ? FQDN_MATCH_PATTERN : FQDN_MATCH_NAME);
		cr_assert_eq(fqdn_selector_check(s->kind, s->text, s->len, msg,
						 sizeof(msg)),
			     0, "%s: %s", s->text, msg);
		if (sh == 0)
			cr_assert(strstr(s->text, ".this-very-long-super-long-"
						  "domain.") != NULL);
		else
			cr_assert(strstr(s->text, ".domain.") != NULL);
	}
	cr_expect_eq(count[0], 600);
	for (int k = 1; k < 5; k++)
		cr_expect_eq(count[k], 100, "shape %d", k);
	cr_expect_eq(p.nnames, 600);
	cr_expect_eq(p.npatterns, 400);
	fqdn_policy_release(&p);
}

Test(fqdn_generate, tlds_from_the_public_suffix_list_or_builtin)
{
	char **tlds;
	int psl;
	long n = fqdn_tlds_load("data/fqdn/no-such-file.dat", &tlds, &psl);

	cr_expect_eq(psl, 0);
	cr_expect_gt(n, 10);
	fqdn_tlds_release(tlds, n, psl);
	n = fqdn_tlds_load(FQDN_PSL_PATH, &tlds, &psl);
	if (psl) {
		cr_expect_gt(n, 1000);
		for (long i = 0; i < n; i++)
			cr_assert(strchr(tlds[i], '*') == NULL &&
				  tlds[i][0] != '!' && tlds[i][0] != '/');
	}
	fqdn_tlds_release(tlds, n, psl);
}

/* Every generated query set gets the reference verdict its name says. */
Test(fqdn_queries, sets_have_the_policy_size_and_expected_verdicts)
{
	static const int want[FQDN_Q_COUNT] = {1, 1, 0, 0};
	struct fqdn_policy p;
	struct fqdn_ref r;

	gen(&p, 500, 3);
	cr_assert_eq(fqdn_ref_init(&r, &p), 0);
	for (int k = 0; k < FQDN_Q_COUNT; k++) {
		struct fqdn_queries q, q2;
		fqdn_queries_init(&q);
		fqdn_queries_init(&q2);
		cr_assert_eq(fqdn_queries_generate(&q, &p, k, 3), 0);
		cr_assert_eq(fqdn_queries_generate(&q2, &p, k, 3), 0);
		cr_assert_eq(q.n, 500, "%s", fqdn_qset_name(k));
		for (size_t i = 0; i < q.n; i++) {
			cr_assert_str_eq(q.name[i], q2.name[i]);
			cr_assert_eq(q.name[i][q.len[i] - 1], '.');
			cr_assert_eq(fqdn_ref_allows(&r, q.name[i], q.len[i]),
				     want[k], "%s: %s", fqdn_qset_name(k),
				     q.name[i]);
		}
		fqdn_queries_release(&q);
		fqdn_queries_release(&q2);
	}
	fqdn_ref_release(&r);
	fqdn_policy_release(&p);
}

Test(fqdn_queries, empty_set_when_the_policy_lacks_its_kind)
{
	struct fqdn_policy p;
	struct fqdn_queries q;

	fqdn_policy_init(&p);
	cr_assert_eq(fqdn_policy_add(&p, FQDN_MATCH_NAME, "a.com", 5, 0), 0);
	fqdn_queries_init(&q);
	cr_assert_eq(fqdn_queries_generate(&q, &p, FQDN_Q_MATCH_PATTERN, 1), 0);
	cr_expect_eq(q.n, 0);
	fqdn_queries_release(&q);
	fqdn_policy_release(&p);
}

static void load_ok(struct fqdn_policy *p, const char *path)
{
	char err[512] = "";

	fqdn_policy_init(p);
	cr_assert_eq(fqdn_policy_load(p, path, err, sizeof(err)), 0, "%s", err);
}

static void expect_sel(const struct fqdn_policy *p, size_t i,
		       enum fqdn_kind kind, const char *text, long line)
{
	cr_assert_lt(i, p->n);
	cr_expect_eq(p->sel[i].kind, kind, "selector %zu", i);
	cr_expect_str_eq(p->sel[i].text, text);
	cr_expect_eq(p->sel[i].line, line, "%s", text);
}

Test(fqdn_read, yaml_toFQDNs_and_dns_rules_in_two_documents)
{
	struct fqdn_policy p;

	load_ok(&p, "data/fqdn/policy.yaml");
	cr_assert_eq(p.n, 4);
	expect_sel(&p, 0, FQDN_MATCH_NAME, "uged.al", 13);
	expect_sel(&p, 1, FQDN_MATCH_PATTERN, "*.s3.io", 14);
	expect_sel(&p, 2, FQDN_MATCH_PATTERN, "wil*dc.ard", 21);
	expect_sel(&p, 3, FQDN_MATCH_NAME, "Cilium.IO.", 31);
	fqdn_policy_release(&p);
}

Test(fqdn_read, plain_list)
{
	struct fqdn_policy p;

	load_ok(&p, "data/fqdn/list.txt");
	cr_assert_eq(p.n, 4);
	expect_sel(&p, 0, FQDN_MATCH_NAME, "uged.al", 2);
	expect_sel(&p, 1, FQDN_MATCH_NAME, "cilium.io", 3);
	expect_sel(&p, 2, FQDN_MATCH_PATTERN, "wil*dc.ard", 5);
	expect_sel(&p, 3, FQDN_MATCH_PATTERN, "*.s3.io", 6);
	fqdn_policy_release(&p);
}

static void load_fails(const char *path, const char *want)
{
	struct fqdn_policy p;
	char err[512] = "";

	fqdn_policy_init(&p);
	cr_assert_eq(fqdn_policy_load(&p, path, err, sizeof(err)), -1, "%s",
		     path);
	cr_expect(strstr(err, want) != NULL, "'%s' lacks '%s'", err, want);
	fqdn_policy_release(&p);
}

Test(fqdn_read, errors_name_file_and_line)
{
	load_fails("data/fqdn/bad_yaml.yaml",
		   "data/fqdn/bad_yaml.yaml:6: invalid YAML: mapping values "
		   "are not allowed");
	load_fails("data/fqdn/bad_selector.yaml",
		   "data/fqdn/bad_selector.yaml:7: matchPattern 'bad "
		   "pattern.example.com': character ' ' is not allowed");
	load_fails("data/fqdn/bad_list.txt",
		   "data/fqdn/bad_list.txt:3: matchName 'exa$mple.com': "
		   "character '$' is not allowed");
	load_fails("data/fqdn/empty.yaml", "data/fqdn/empty.yaml:9: empty "
		   "policy");
	load_fails("data/fqdn/name_star.yaml", "data/fqdn/name_star.yaml:4: "
		   "matchName '*.example.com': character '*' is not allowed");
	load_fails("data/fqdn/missing.yaml", "data/fqdn/missing.yaml");
}

Test(fqdn_read, buffer_errors)
{
	struct fqdn_policy p;
	char err[512];

	fqdn_policy_init(&p);
	cr_expect_eq(fqdn_policy_parse(&p, "x", "", 0, err, sizeof(err)), -1);
	cr_expect(strstr(err, "x:1: empty policy") != NULL, "%s", err);
	cr_expect_eq(fqdn_policy_parse(&p, "y", "a..b\n", 5, err, sizeof(err)),
		     -1);
	cr_expect(strstr(err, "y:1: matchName 'a..b': empty label") != NULL,
		  "%s", err);
	cr_expect_eq(fqdn_policy_parse(&p, "z", "toFQDNs: [", 10, err,
				       sizeof(err)),
		     -1);
	cr_expect(strncmp(err, "z:", 2) == 0 &&
		  strstr(err, ": invalid YAML: did not find expected node") != NULL,
		  "%s", err);
	fqdn_policy_release(&p);
}

Test(fqdn_read, selector_check)
{
	char msg[256];

	cr_expect_eq(fqdn_selector_check(FQDN_MATCH_PATTERN, "*", 1, msg, 256), 0);
	cr_expect_eq(fqdn_selector_check(FQDN_MATCH_NAME, "*", 1, msg, 256), -1);
	cr_expect_eq(fqdn_selector_check(FQDN_MATCH_NAME, "a.b.", 4, msg, 256), 0);
	cr_expect_eq(fqdn_selector_check(FQDN_MATCH_NAME, ".a", 2, msg, 256), -1);
	cr_expect_eq(fqdn_selector_check(FQDN_MATCH_NAME, "", 0, msg, 256), -1);
	cr_expect_eq(fqdn_selector_check(FQDN_MATCH_NAME, "a\xc3\xa9.no", 5,
					 msg, 256),
		     -1);
	cr_expect(strstr(msg, "byte 0xc3 at offset 1") != NULL, "%s", msg);
}

Test(fqdn_read, queries_file)
{
	struct fqdn_queries q;
	char err[512];

	fqdn_queries_init(&q);
	cr_assert_eq(fqdn_queries_load(&q, "data/fqdn/queries.txt", err,
				       sizeof(err)),
		     0, "%s", err);
	cr_assert_eq(q.n, 5);
	cr_expect_str_eq(q.name[1], "  WWW.S3.IO"); /* not trimmed */
	cr_expect_eq(q.len[3], 0);                  /* the empty line */
	cr_expect_str_eq(q.name[4], "wildcard.ard.");
	fqdn_queries_release(&q);
	fqdn_queries_init(&q);
	cr_expect_eq(fqdn_queries_load(&q, "data/fqdn/empty-queries.txt", err,
				       sizeof(err)),
		     -1);
	cr_expect(strstr(err, "data/fqdn/empty-queries.txt:1: no query names")
		  != NULL, "%s", err);
	fqdn_queries_release(&q);
}

/* A query is its line's bytes: blanks, NUL, CR and the empty line too. */
Test(fqdn_read, queries_are_exact_bytes)
{
	static const struct {
		const char *s;
		size_t len;
	} want[] = {
		{".", 1}, {" example.com", 12}, {"uged.al", 7},
		{"a\0b.s3.io", 9}, {"K\xe2\x84\xaaUBE.s3.io", 13},
		{"\xc4\xb0O.s3.io", 9}, {"B\xc3\x84" "D.s3.io", 10},
		{"", 0}, {"UGED.AL\r", 8},
	};
	struct fqdn_queries q;
	char err[512];

	fqdn_queries_init(&q);
	cr_assert_eq(fqdn_queries_load(&q, "data/fqdn/edge-queries.txt", err,
				       sizeof(err)),
		     0, "%s", err);
	cr_assert_eq(q.n, sizeof(want) / sizeof(want[0]));
	for (size_t i = 0; i < q.n; i++) {
		cr_expect_eq(q.len[i], want[i].len, "query %zu", i);
		cr_expect_eq(memcmp(q.name[i], want[i].s, want[i].len), 0,
			     "query %zu", i);
		cr_expect_eq(q.name[i][q.len[i]], '\0');
	}
	cr_expect_eq(q.maxlen, 13);
	fqdn_queries_release(&q);
}

/* The reference on those bytes: nothing trimmed, nothing cut at NUL. */
Test(fqdn_read, exact_queries_under_the_reference)
{
	static const int want[] = {1, 0, 1, 0, 1, 1, 0, 1, 0};
	struct fqdn_policy p;
	struct fqdn_queries q;
	struct fqdn_ref r;
	char err[512];

	load_ok(&p, "data/fqdn/star_dot.txt");
	cr_assert_eq(fqdn_ref_init(&r, &p), 0);
	fqdn_queries_init(&q);
	cr_assert_eq(fqdn_queries_load(&q, "data/fqdn/edge-queries.txt", err,
				       sizeof(err)),
		     0, "%s", err);
	for (size_t i = 0; i < q.n; i++)
		cr_expect_eq(fqdn_ref_allows(&r, q.name[i], q.len[i]), want[i],
			     "query %zu '%s'", i, q.name[i]);
	fqdn_queries_release(&q);
	fqdn_ref_release(&r);
	fqdn_policy_release(&p);
}

/* A list whose lines start with '-' is a list, not YAML. */
Test(fqdn_read, list_lines_may_start_with_a_dash)
{
	struct fqdn_policy p;

	load_ok(&p, "data/fqdn/dash_list.txt");
	cr_assert_eq(p.n, 4);
	expect_sel(&p, 0, FQDN_MATCH_NAME, "-start.example.com", 2);
	expect_sel(&p, 1, FQDN_MATCH_NAME, "--x.example.com", 3);
	expect_sel(&p, 2, FQDN_MATCH_NAME, "---", 4);
	expect_sel(&p, 3, FQDN_MATCH_PATTERN, "-*.example.com", 5);
	fqdn_policy_release(&p);
}

/* YAML aliases are followed; a selector names the line it is written on. */
Test(fqdn_read, yaml_aliases_are_followed)
{
	struct fqdn_policy p;

	load_ok(&p, "data/fqdn/alias.yaml");
	cr_assert_eq(p.n, 6);
	expect_sel(&p, 0, FQDN_MATCH_NAME, "uged.al", 8);
	expect_sel(&p, 1, FQDN_MATCH_PATTERN, "*.s3.io", 9);
	expect_sel(&p, 2, FQDN_MATCH_NAME, "cilium.io", 11);
	expect_sel(&p, 3, FQDN_MATCH_NAME, "uged.al", 8);
	expect_sel(&p, 4, FQDN_MATCH_PATTERN, "*.s3.io", 9);
	expect_sel(&p, 5, FQDN_MATCH_NAME, "cilium.io", 11);
	fqdn_policy_release(&p);
}

static void parse_fails(const char *yaml, const char *want)
{
	struct fqdn_policy p;
	char err[512] = "";

	fqdn_policy_init(&p);
	cr_expect_eq(fqdn_policy_parse(&p, "a.yaml", yaml, strlen(yaml), err,
				       sizeof(err)),
		     -1, "%s", yaml);
	cr_expect(strstr(err, want) != NULL, "'%s' lacks '%s'", err, want);
	fqdn_policy_release(&p);
}

/* Aliases that cannot be followed are one-line errors naming the line. */
Test(fqdn_read, yaml_alias_errors)
{
	char bomb[2048];
	int n;

	parse_fails("spec:\n  toFQDNs: *nope\n",
		    "a.yaml:2: invalid YAML: found undefined alias");
	parse_fails("a: &x\n  toFQDNs:\n  - matchName: a.com\n  - *x\n",
		    "a.yaml:1: YAML alias inside the node it refers to");
	/* nine levels of ten aliases: 10^9 selectors */
	n = snprintf(bomb, sizeof(bomb), "l0: &l0 [{matchName: a.com}]\n");
	for (int i = 1; i < 10; i++)
		n += snprintf(bomb + n, sizeof(bomb) - (size_t)n,
			      "l%d: &l%d [*l%d,*l%d,*l%d,*l%d,*l%d,*l%d,*l%d,"
			      "*l%d,*l%d,*l%d]\n", i, i, i - 1, i - 1, i - 1,
			      i - 1, i - 1, i - 1, i - 1, i - 1, i - 1, i - 1);
	snprintf(bomb + n, sizeof(bomb) - (size_t)n, "toFQDNs: *l9\n");
	parse_fails(bomb, "YAML aliases expand to more than 1000000 nodes");
}

/* --- the Kubernetes-shaped generator --- */

static size_t count_text(const struct fqdn_policy *p, const char *needle,
			 int exact)
{
	size_t n = 0;

	for (size_t i = 0; i < p->n; i++)
		n += exact ? strcmp(p->sel[i].text, needle) == 0
			   : strstr(p->sel[i].text, needle) != NULL;
	return n;
}

Test(fqdn_generate_k8s, deterministic_valid_and_kubernetes_shaped)
{
	struct fqdn_policy a, b;
	char msg[256];

	fqdn_policy_init(&a);
	fqdn_policy_init(&b);
	cr_assert_eq(fqdn_policy_generate_k8s(&a, 1000, 3), 0);
	cr_assert_eq(fqdn_policy_generate_k8s(&b, 1000, 3), 0);
	cr_assert_eq(a.n, 1000);
	for (size_t i = 0; i < a.n; i++) {
		const struct fqdn_selector *s = &a.sel[i];
		cr_assert_str_eq(s->text, b.sel[i].text);
		cr_assert_eq(s->kind, strchr(s->text, '*') ? FQDN_MATCH_PATTERN
							   : FQDN_MATCH_NAME,
			     "%s", s->text);
		cr_assert_eq(fqdn_selector_check(s->kind, s->text, s->len, msg,
						 sizeof(msg)),
			     0, "%s: %s", s->text, msg);
	}
	/* one allow-all per 250, the chains, the cloud and the cluster */
	cr_expect_eq(count_text(&a, "*", 1), 4);
	cr_expect_gt(count_text(&a, "*.*.*.cluster.local", 1), 5);
	cr_expect_gt(count_text(&a, "*.*.svc.cluster.local", 1), 5);
	cr_expect_gt(count_text(&a, "**.", 0), 10);
	cr_expect_gt(count_text(&a, ".svc.cluster.local", 0), 400);
	cr_expect_gt(count_text(&a, "*.s3.", 0), 20);
	cr_expect_gt(count_text(&a, "amazonaws.com", 0), 150);
	cr_expect_gt(count_text(&a, "*.googleapis.com", 1), 0);
	cr_expect_gt(count_text(&a, "api.github.com", 1), 0);
	cr_expect_gt(a.nnames, 500);
	cr_expect_gt(a.npatterns, 200);
	fqdn_policy_release(&a);
	fqdn_policy_release(&b);
	/* none below 250 */
	cr_assert_eq(fqdn_policy_generate_k8s(&a, 100, 3), 0);
	cr_expect_eq(count_text(&a, "*", 1), 0);
	fqdn_policy_release(&a);
}

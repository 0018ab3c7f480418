/*
 * test_fqdn_input.c - the FQDN suite's inputs: the generator's
 * determinism and shape, the query sets, the YAML and list readers, the
 * selector sets (toFQDNs, dns), Cilium's checks per version with the CRD
 * schema's warnings, and their "FILE:LINE: message" errors (fixtures in
 * tests/data/fqdn/).
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
	cr_expect_eq(fqdn_policy_parse(&p, "y", "a$b\n", 4, err, sizeof(err)),
		     -1);
	cr_expect(strstr(err, "y:1: matchName 'a$b': character '$'") != NULL,
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
	cr_expect_eq(fqdn_selector_check(FQDN_MATCH_NAME, "a..b", 4, msg, 256),
		     -1);
	cr_expect(strstr(msg, "an empty label at offset 2") != NULL, "%s", msg);
	cr_expect_eq(fqdn_selector_check(FQDN_MATCH_NAME, "", 0, msg, 256), -1);
	cr_expect_eq(fqdn_selector_check(FQDN_MATCH_NAME, "a\xc3\xa9.no", 5,
					 msg, 256),
		     -1);
	cr_expect(strstr(msg, "byte 0xc3 at offset 1") != NULL, "%s", msg);
}

/*
 * A selector that is not UTF-8 (Latin-1 "café") is quoted with its bytes
 * above 0x7e written \xNN, as a scan pattern's are, never raw (a
 * replacement character on a terminal); UTF-8 stays readable.  Long ones
 * too, in their first 40 and last 8 bytes.
 */
Test(fqdn_read, selector_error_escapes_bytes_that_are_not_utf8)
{
	char msg[512], name[100];

	cr_expect_eq(fqdn_selector_check(FQDN_MATCH_NAME, "caf\xe9 com", 8,
					 msg, sizeof(msg)), -1);
	cr_expect(strstr(msg, "matchName 'caf\\xe9 com': byte 0xe9 at "
			 "offset 3") != NULL, "%s", msg);
	cr_expect_eq(fqdn_selector_check(FQDN_MATCH_NAME, "caf\xc3\xa9.com",
					 9, msg, sizeof(msg)), -1);
	cr_expect(strstr(msg, "'caf\xc3\xa9.com'") != NULL, "%s", msg);
	memset(name, 'a', sizeof(name));
	name[0] = '\xff';
	name[98] = '\x80';
	cr_expect_eq(fqdn_selector_check(FQDN_MATCH_NAME, name, sizeof(name),
					 msg, sizeof(msg)), -1);
	cr_expect(strstr(msg, "'\\xffaaa") != NULL &&
		  strstr(msg, "...aaaaaa\\x80a' (100 bytes)") != NULL, "%s",
		  msg);
	for (const char *c = msg; *c != '\0'; c++)
		cr_expect((unsigned char)*c < 0x80, "raw byte 0x%02x in %s",
			  (unsigned char)*c, msg);
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

/* --- selector sets, Cilium's checks per version, warnings --- */

/* Parse yaml (or a list) as Cilium v reads it; 0 or -1, err filled. */
static int parse_as(struct fqdn_policy *p, enum fqdn_cilium v,
		    const char *text, char *err, size_t errsize)
{
	fqdn_policy_init(p);
	p->cilium = v;
	return fqdn_policy_parse(p, "a.yaml", text, strlen(text), err, errsize);
}

static void parse_fails_as(enum fqdn_cilium v, const char *text,
			   const char *want)
{
	struct fqdn_policy p;
	char err[512] = "";

	cr_expect_eq(parse_as(&p, v, text, err, sizeof(err)), -1, "%s", text);
	cr_expect(strstr(err, want) != NULL, "'%s' lacks '%s'", err, want);
	fqdn_policy_release(&p);
}

/* Some warning of p holds `want`. */
static int warned(const struct fqdn_policy *p, const char *want)
{
	for (size_t i = 0; i < p->nwarnings; i++)
		if (strstr(p->warnings[i], want) != NULL)
			return 1;
	return 0;
}

static void expect_counts(const struct fqdn_counts *c, size_t n,
			  size_t nnames, size_t npatterns, const char *what)
{
	cr_expect_eq(c->n, n, "%s: %zu selectors", what, c->n);
	cr_expect_eq(c->nnames, nnames, "%s: %zu matchNames", what, c->nnames);
	cr_expect_eq(c->npatterns, npatterns, "%s: %zu matchPatterns", what,
		     c->npatterns);
}

/* The same selectors under toFQDNs and dns: two sets, each occurrence
 * once with its own set, file order kept. */
Test(fqdn_sets, toFQDNs_and_dns_are_two_sets)
{
	struct fqdn_policy p, l3, l7;

	load_ok(&p, "data/fqdn/two_sets.yaml");
	cr_assert_eq(p.n, 7);
	cr_expect_eq(p.nnames, 3);
	cr_expect_eq(p.npatterns, 4);
	expect_counts(&p.l3, 3, 1, 2, "L3");
	expect_counts(&p.l7, 4, 2, 2, "L7");
	expect_sel(&p, 0, FQDN_MATCH_NAME, "api.example.com", 12);
	expect_sel(&p, 3, FQDN_MATCH_NAME, "api.example.com", 24);
	for (size_t i = 0; i < p.n; i++)
		cr_expect_eq(fqdn_selector_sets(&p, i),
			     i < 3 ? (unsigned)FQDN_SET_L3
				   : (unsigned)FQDN_SET_L7, "selector %zu", i);
	cr_expect_eq(p.nwarnings, 0);
	cr_assert_eq(fqdn_policy_select(&p, FQDN_SET_L3, &l3), 0);
	cr_assert_eq(fqdn_policy_select(&p, FQDN_SET_L7, &l7), 0);
	cr_assert_eq(l3.n, 3);
	cr_assert_eq(l7.n, 4);
	expect_counts(&l3.l3, 3, 1, 2, "select L3");
	expect_counts(&l3.l7, 0, 0, 0, "select L3, its L7");
	expect_counts(&l7.l7, 4, 2, 2, "select L7");
	cr_expect_eq(l7.nnames, 2);
	expect_sel(&l3, 1, FQDN_MATCH_PATTERN, "*.s3.example.com", 13);
	expect_sel(&l7, 3, FQDN_MATCH_NAME, "only-l7.example.com", 27);
	fqdn_policy_release(&l3);
	fqdn_policy_release(&l7);
	fqdn_policy_release(&p);
}

/* 300 patterns in both: 600 selectors, 300 in each set, not 600. */
Test(fqdn_sets, three_hundred_in_both_count_once_per_set)
{
	size_t size = 2 * 300 * 48 + 256, n = 0;
	char *yaml = malloc(size), err[512];
	struct fqdn_policy p, sel;

	cr_assert_not_null(yaml);
	for (int k = 0; k < 2; k++) {
		n += (size_t)snprintf(yaml + n, size - n, "%s",
				      k ? "  - toPorts:\n    - rules:\n"
					  "        dns:\n"
					: "spec:\n  egress:\n  - toFQDNs:\n");
		for (int i = 0; i < 300; i++)
			n += (size_t)snprintf(yaml + n, size - n,
					      "%s- matchPattern: \"*.p%d.io\"\n",
					      k ? "        " : "    ", i);
	}
	cr_assert_eq(parse_as(&p, FQDN_CILIUM_1_19, yaml, err, sizeof(err)), 0,
		     "%s", err);
	cr_expect_eq(p.n, 600);
	expect_counts(&p.l3, 300, 0, 300, "L3");
	expect_counts(&p.l7, 300, 0, 300, "L7");
	cr_assert_eq(fqdn_policy_select(&p, FQDN_SET_L7, &sel), 0);
	cr_expect_eq(sel.n, 300);
	cr_expect_eq(sel.cilium, FQDN_CILIUM_1_19);
	cr_expect_str_eq(sel.sel[299].text, "*.p299.io");
	fqdn_policy_release(&sel);
	cr_assert_eq(fqdn_policy_select(&p, FQDN_SET_ALL, &sel), 0);
	cr_expect_eq(sel.n, 600);
	expect_counts(&sel.l3, 300, 0, 300, "copy L3");
	fqdn_policy_release(&sel);
	fqdn_policy_release(&p);
	free(yaml);
}

/* A list and the generators put every selector in both sets; a YAML
 * with one list only has the other set empty, which loads. */
Test(fqdn_sets, lists_and_generators_are_in_both_sets)
{
	struct fqdn_policy p;
	char err[512];

	load_ok(&p, "data/fqdn/list.txt");
	expect_counts(&p.l3, 4, 2, 2, "list L3");
	expect_counts(&p.l7, 4, 2, 2, "list L7");
	fqdn_policy_release(&p);
	gen(&p, 100, 1);
	expect_counts(&p.l3, 100, p.nnames, p.npatterns, "generated L3");
	expect_counts(&p.l7, 100, p.nnames, p.npatterns, "generated L7");
	fqdn_policy_release(&p);
	fqdn_policy_init(&p);
	cr_assert_eq(fqdn_policy_generate_k8s(&p, 50, 1), 0);
	cr_expect_eq(p.l3.n + p.l7.n, 100);
	fqdn_policy_release(&p);
	cr_assert_eq(parse_as(&p, FQDN_CILIUM_1_11,
			      "spec:\n  egress:\n  - toFQDNs:\n"
			      "    - matchName: a.com\n", err,
			      sizeof(err)), 0, "%s", err);
	cr_expect_eq(p.l3.n, 1);
	cr_expect_eq(p.l7.n, 0);
	fqdn_policy_release(&p);
	parse_fails_as(FQDN_CILIUM_1_19, "spec:\n  egress:\n  - toFQDNs: []\n"
		       "    toPorts:\n    - rules:\n        dns:\n",
		       "empty policy");
}

Test(fqdn_sets, truncate_keeps_the_set_counts)
{
	struct fqdn_policy p;

	load_ok(&p, "data/fqdn/two_sets.yaml");
	fqdn_policy_truncate(&p, 4);
	cr_expect_eq(p.n, 4);
	expect_counts(&p.l3, 3, 1, 2, "L3");
	expect_counts(&p.l7, 1, 1, 0, "L7");
	fqdn_policy_truncate(&p, 0);
	expect_counts(&p.l3, 0, 0, 0, "L3 none");
	expect_counts(&p.l7, 0, 0, 0, "L7 none");
	cr_assert_eq(fqdn_policy_add_to(&p, FQDN_SET_L7, FQDN_MATCH_NAME,
					"x.io", 4, 0), 0);
	expect_counts(&p.l7, 1, 1, 0, "L7 added");
	cr_expect_eq(p.l3.n, 0);
	fqdn_policy_release(&p);
}

/* Unknown keys in a selector name themselves, the file and the line. */
Test(fqdn_keys, unknown_key_is_an_error_with_file_and_line)
{
	load_fails("data/fqdn/unknown_key.yaml",
		   "data/fqdn/unknown_key.yaml:8: unknown key 'matchPatern' in "
		   "a toFQDNs selector (known: matchName, matchPattern)");
	load_fails("data/fqdn/unknown_dns_key.yaml",
		   "data/fqdn/unknown_dns_key.yaml:11: unknown key 'MatchName' "
		   "in a dns rule (known: matchName, matchPattern)");
	parse_fails_as(FQDN_CILIUM_1_11, "toFQDNs:\n- matchname: a.com\n",
		       "a.yaml:2: unknown key 'matchname' in a toFQDNs "
		       "selector");
	parse_fails_as(FQDN_CILIUM_1_19,
		       "x:\n  rules:\n    dns: [{matchPattern: '*.a', "
		       "matchPatterns: b}]\n",
		       "a.yaml:3: unknown key 'matchPatterns' in a dns rule");
	parse_fails_as(FQDN_CILIUM_1_19, "toFQDNs:\n- [a]: b\n",
		       "a.yaml:2: a list as a key in a toFQDNs selector");
	/* keys elsewhere are not checked */
	{
		struct fqdn_policy p;
		char err[512];
		cr_expect_eq(parse_as(&p, FQDN_CILIUM_1_19,
				      "spec:\n  matchPatern: x\n  egress:\n"
				      "  - toFQDNs:\n    - matchName: a.com\n",
				      err,
				      sizeof(err)), 0, "%s", err);
		fqdn_policy_release(&p);
	}
}

/* What Cilium's types refuse besides: a key twice, both keys in a
 * toFQDNs selector, items and lists of the wrong shape. */
Test(fqdn_keys, shapes_cilium_refuses)
{
	parse_fails_as(FQDN_CILIUM_1_11,
		       "toFQDNs:\n- matchName: a.com\n  matchName: b.com\n",
		       "a.yaml:3: matchName given twice in a toFQDNs selector "
		       "(line 2 first)");
	parse_fails_as(FQDN_CILIUM_1_11,
		       "toFQDNs:\n- matchName: a.com\n  matchPattern: '*.b'\n",
		       "a.yaml:2: a toFQDNs selector with both matchName and "
		       "matchPattern: Cilium refuses the rule");
	parse_fails_as(FQDN_CILIUM_1_19, "toFQDNs:\n- a.com\n",
		       "a.yaml:2: a toFQDNs selector must be a mapping of "
		       "matchName or matchPattern, not 'a.com'");
	parse_fails_as(FQDN_CILIUM_1_19, "dns:\n  matchName: a.com\n",
		       "a.yaml:2: dns must be a list of selectors, not a "
		       "mapping");
	parse_fails_as(FQDN_CILIUM_1_19, "dns:\n- [matchName]\n",
		       "a.yaml:2: a dns rule must be a mapping");
	parse_fails_as(FQDN_CILIUM_1_19, "toFQDNs:\n- matchName: [a]\n",
		       "a.yaml:2: matchName must be a string");
}

/* A dns rule may hold both keys (GeneratePattern takes both; 1.19's
 * CRD oneOf refuses it); merge keys bring keys; empty selectors are
 * left out with a warning. */
Test(fqdn_keys, dns_both_keys_merge_keys_and_empty_selectors)
{
	static const char yaml[] =
		"base: &b {matchPattern: '*.m.io'}\n"
		"spec:\n"
		"  egress:\n"
		"  - toPorts:\n"
		"    - rules:\n"
		"        dns:\n"
		"        - matchName: a.io\n"
		"          matchPattern: '*.a.io'\n"
		"        - <<: *b\n"
		"          matchName: m.io\n"
		"        - {}\n"
		"  - toFQDNs:\n"
		"    - matchName: ''\n"
		"    -\n";
	struct fqdn_policy p;
	char err[512];

	cr_assert_eq(parse_as(&p, FQDN_CILIUM_1_19, yaml, err, sizeof(err)), 0,
		     "%s", err);
	cr_assert_eq(p.n, 4);
	expect_sel(&p, 0, FQDN_MATCH_NAME, "a.io", 7);
	expect_sel(&p, 1, FQDN_MATCH_PATTERN, "*.a.io", 8);
	expect_sel(&p, 2, FQDN_MATCH_NAME, "m.io", 10);
	expect_sel(&p, 3, FQDN_MATCH_PATTERN, "*.m.io", 1);
	cr_expect_eq(p.l7.n, 4);
	cr_expect_eq(p.l3.n, 0);
	cr_expect(warned(&p, "a.yaml:7: a dns rule with both matchName and "
			     "matchPattern is refused by Cilium 1.19's CRD "
			     "schema (oneOf)"), "no oneOf warning");
	cr_expect(warned(&p, "a.yaml:11: a dns rule with no matchName or "
			     "matchPattern is left out"), "no {} warning");
	cr_expect(warned(&p, "a.yaml:13: matchName '' in a toFQDNs selector is "
			     "refused by Cilium 1.19's CRD schema"),
		  "no '' warning");
	cr_expect(warned(&p, "a.yaml:13: a toFQDNs selector with no matchName "
			     "or matchPattern is left out: Cilium's name "
			     "manager would read it as the root name"),
		  "no empty toFQDNs warning");
	cr_expect(warned(&p, "a.yaml:14: a toFQDNs selector with no"),
		  "no null item warning");
	fqdn_policy_release(&p);
	/* 1.11's CRD has no oneOf: both keys in a dns rule, no warning */
	cr_assert_eq(parse_as(&p, FQDN_CILIUM_1_11,
			      "spec: {egress: [{toPorts: [{rules: {dns: [\n"
			      "  {matchName: a.io, matchPattern: '*'}]}}]}]}\n",
			      err, sizeof(err)), 0, "%s", err);
	cr_expect_eq(p.n, 2);
	cr_expect_eq(p.nwarnings, 0, "%s", p.nwarnings ? p.warnings[0] : "");
	fqdn_policy_release(&p);
}

/* s of n bytes: "a.b.c..." labels of 'x' with dots, ending as asked. */
static char *long_selector(size_t n, int pattern, int final_dot)
{
	char *s = malloc(n + 1);

	cr_assert_not_null(s);
	for (size_t i = 0; i < n; i++)
		s[i] = (i % 50 == 49) ? '.' : 'x';
	if (pattern)
		s[0] = '*';
	s[n - 1] = final_dot ? '.' : 'x';
	s[n - 2] = 'x';
	s[n] = '\0';
	return s;
}

/* One selector line as a list, in both sets, read as Cilium v. */
static int parse_list1(struct fqdn_policy *p, enum fqdn_cilium v,
		       const char *sel, char *err, size_t errsize)
{
	fqdn_policy_init(p);
	p->cilium = v;
	return fqdn_policy_parse(p, "l.txt", sel, strlen(sel), err, errsize);
}

/* 255 bytes, Cilium's MaxFQDNLength: accepted by both versions, in
 * both kinds; 1.19's name manager drops one that qualifies to 256. */
Test(fqdn_limits, selectors_of_255_bytes_are_accepted)
{
	static const enum fqdn_cilium vs[] = {FQDN_CILIUM_1_11,
					      FQDN_CILIUM_1_19};
	struct fqdn_policy p;
	char err[512];

	for (int v = 0; v < 2; v++)
		for (int pat = 0; pat < 2; pat++) {
			char *s = long_selector(255, pat, 1);
			cr_assert_eq(parse_list1(&p, vs[v], s, err,
						 sizeof(err)), 0, "%s", err);
			cr_expect_eq(p.n, 1);
			cr_expect_eq(p.sel[0].len, 255);
			cr_expect_eq(p.sel[0].kind, pat ? FQDN_MATCH_PATTERN
							: FQDN_MATCH_NAME);
			cr_expect_eq(fqdn_selector_sets(&p, 0), FQDN_SET_ALL);
			cr_expect_eq(p.nwarnings, 0, "%s",
				     p.nwarnings ? p.warnings[0] : "");
			fqdn_policy_release(&p);
			free(s);
		}
	/* without the final dot it is 256 once qualified: 1.19 drops it
	   from the name manager's set, the proxy keeps it; 1.11 keeps it */
	{
		char *s = long_selector(255, 0, 0);
		cr_assert_eq(parse_list1(&p, FQDN_CILIUM_1_19, s, err,
					 sizeof(err)), 0, "%s", err);
		cr_expect_eq(fqdn_selector_sets(&p, 0), FQDN_SET_L7);
		cr_expect_eq(p.l3.n, 0);
		cr_expect(warned(&p, "l.txt:1: matchName 'xxxx"), "no warning");
		cr_expect(warned(&p, "is left out of the toFQDNs (L3) set: "
				     "Cilium 1.19's name manager drops it "
				     "(ToRegex: 256 bytes once qualified, more "
				     "than 255)"), "%s",
			  p.nwarnings ? p.warnings[0] : "none");
		fqdn_policy_release(&p);
		cr_assert_eq(parse_list1(&p, FQDN_CILIUM_1_11, s, err,
					 sizeof(err)), 0, "%s", err);
		cr_expect_eq(fqdn_selector_sets(&p, 0), FQDN_SET_ALL);
		cr_expect_eq(p.nwarnings, 0);
		fqdn_policy_release(&p);
		free(s);
	}
}

/* 256 bytes: 1.19 refuses the matchPattern (matchpattern.Validate) and
 * takes the matchName with a CRD warning (maxLength); 1.11 has no
 * limit.  In toFQDNs alone, 1.19's name manager drops the name. */
Test(fqdn_limits, selectors_of_256_bytes_follow_each_version)
{
	char *name = long_selector(256, 0, 1), *pat = long_selector(256, 1, 1);
	char yaml[700], err[512];
	struct fqdn_policy p;

	parse_fails_as(FQDN_CILIUM_1_19, pat, "a.yaml:1: matchPattern '*xxx");
	parse_fails_as(FQDN_CILIUM_1_19, pat, "(256 bytes) is longer than 255 "
		       "bytes: Cilium 1.19's agent refuses it "
		       "(matchpattern.MaxFQDNLength)");
	cr_assert_eq(parse_list1(&p, FQDN_CILIUM_1_11, pat, err, sizeof(err)),
		     0, "%s", err);
	cr_expect_eq(p.nwarnings, 0);
	fqdn_policy_release(&p);
	cr_assert_eq(parse_list1(&p, FQDN_CILIUM_1_19, name, err, sizeof(err)),
		     0, "%s", err);
	cr_expect_eq(p.n, 1);
	cr_expect_eq(fqdn_selector_sets(&p, 0), FQDN_SET_L7);
	cr_expect(warned(&p, "(256 bytes) is refused by Cilium 1.19's CRD "
			     "schema (maxLength 255); its agent's code "
			     "accepts it"), "no maxLength warning");
	fqdn_policy_release(&p);
	snprintf(yaml, sizeof(yaml), "spec:\n  egress:\n  - toFQDNs:\n"
		 "    - matchName: %s\n", name);
	parse_fails_as(FQDN_CILIUM_1_19, yaml, "a.yaml:4: no selector left: "
		       "Cilium 1.19 leaves each of the 1 in the file out of "
		       "every set");
	cr_assert_eq(parse_as(&p, FQDN_CILIUM_1_11, yaml, err, sizeof(err)), 0,
		     "%s", err);
	cr_expect_eq(p.l3.n, 1);
	fqdn_policy_release(&p);
	free(name);
	free(pat);
}

/* What the agent accepts and the CRD pattern refuses: a warning each,
 * kept in the policy with file and line; the selector is loaded. */
Test(fqdn_limits, crd_refusals_are_warnings)
{
	struct fqdn_policy p;

	load_ok(&p, "data/fqdn/crd_only.yaml");
	cr_assert_eq(p.n, 3);
	cr_expect_eq(p.nwarnings, 2);
	cr_expect_eq(p.nwarnings_total, 2);
	cr_expect(warned(&p, "data/fqdn/crd_only.yaml:6: matchName "
			     "'a..b.example.com' is refused by Cilium 1.11's "
			     "CRD schema (pattern ^([-a-zA-Z0-9_]+[.]?)+$: an "
			     "empty label at offset 2); its agent's code "
			     "accepts it"), "%s",
		  p.nwarnings ? p.warnings[0] : "none");
	cr_expect(warned(&p, "data/fqdn/crd_only.yaml:7: matchPattern "
			     "'.*.example.com' is refused by Cilium 1.11's "
			     "CRD schema (pattern ^([-a-zA-Z0-9_*]+[.]?)+$: a "
			     "leading dot at offset 0)"), "no leading dot");
	fqdn_policy_release(&p);
}

/* At most FQDN_WARNINGS_KEPT warnings are kept; all are counted. */
Test(fqdn_limits, warnings_are_capped_and_counted)
{
	size_t size = 200 * 16, n = 0;
	char *list = malloc(size), err[512];
	struct fqdn_policy p;

	cr_assert_not_null(list);
	for (int i = 0; i < 150; i++)
		n += (size_t)snprintf(list + n, size - n, "a..b%d\n", i);
	cr_assert_eq(parse_list1(&p, FQDN_CILIUM_1_11, list, err, sizeof(err)),
		     0, "%s", err);
	cr_expect_eq(p.n, 150);
	cr_expect_eq(p.nwarnings, FQDN_WARNINGS_KEPT);
	cr_expect_eq(p.nwarnings_total, 150);
	fqdn_policy_release(&p);
	free(list);
}

/* Queries of any length (CheckAllowed's name is taken as it is). */
Test(fqdn_limits, queries_of_300_bytes_are_accepted)
{
	struct fqdn_queries q;
	char err[512];

	fqdn_queries_init(&q);
	cr_assert_eq(fqdn_queries_load(&q, "data/fqdn/long-queries.txt", err,
				       sizeof(err)),
		     0, "%s", err);
	cr_assert_eq(q.n, 2);
	cr_expect_eq(q.len[0], 300);
	cr_expect_eq(q.maxlen, 300);
	cr_expect_eq(memcmp(q.name[0] + 296, ".com", 4), 0);
	cr_expect_str_eq(q.name[1], "short.example.com");
	fqdn_queries_release(&q);
}

/* Generated queries of a long, starry selector are whole, not cut. */
Test(fqdn_limits, generated_queries_of_long_selectors_are_whole)
{
	char *s = malloc(256);
	struct fqdn_policy p;
	struct fqdn_queries q;
	struct fqdn_ref r;

	cr_assert_not_null(s);
	for (size_t i = 0; i < 255; i++)
		s[i] = i % 2 ? '.' : '*'; /* "*.*.*...*" */
	s[255] = '\0';
	fqdn_policy_init(&p);
	cr_assert_eq(fqdn_policy_add(&p, FQDN_MATCH_PATTERN, s, 255, 0), 0);
	cr_assert_eq(fqdn_ref_init(&r, &p), 0);
	fqdn_queries_init(&q);
	cr_assert_eq(fqdn_queries_generate(&q, &p, FQDN_Q_MATCH_PATTERN, 5), 0);
	cr_assert_eq(q.n, 1);
	cr_expect_gt(q.len[0], 256);
	cr_expect_eq(fqdn_ref_allows(&r, q.name[0], q.len[0]), 1, "%s",
		     q.name[0]);
	fqdn_queries_release(&q);
	fqdn_ref_release(&r);
	fqdn_policy_release(&p);
	free(s);
}

/* --- where Cilium reads selectors: its types, not any key anywhere --- */

/* spec and specs, CiliumNetworkPolicy and CiliumClusterwideNetworkPolicy,
 * kind: List and CiliumNetworkPolicyList items, flow style, a merge key
 * bringing a rule's toFQDNs (read through it: two selectors), labels
 * named dns and toFQDNs (strings: no selector), an empty ingress dns. */
Test(fqdn_where, the_shapes_cilium_reads)
{
	struct fqdn_policy p;

	load_ok(&p, "data/fqdn/shapes.yaml");
	cr_assert_eq(p.n, 6);
	expect_sel(&p, 0, FQDN_MATCH_NAME, "spec.example.com", 13);
	expect_sel(&p, 1, FQDN_MATCH_PATTERN, "*.specs.example.com", 24);
	expect_sel(&p, 2, FQDN_MATCH_NAME, "flow.example.com", 26);
	expect_sel(&p, 3, FQDN_MATCH_PATTERN, "*.specs.example.com", 24);
	expect_sel(&p, 4, FQDN_MATCH_PATTERN, "*.list.example.com", 35);
	expect_sel(&p, 5, FQDN_MATCH_NAME, "cnplist.example.com", 41);
	expect_counts(&p.l3, 4, 2, 2, "L3");
	expect_counts(&p.l7, 2, 1, 1, "L7");
	cr_expect_eq(fqdn_selector_sets(&p, 2), (unsigned)FQDN_SET_L7);
	cr_expect_eq(fqdn_selector_sets(&p, 4), (unsigned)FQDN_SET_L7);
	cr_expect_eq(p.nwarnings, 0, "%s", p.nwarnings ? p.warnings[0] : "");
	fqdn_policy_release(&p);
}

/* The tester's three: each a one-line error naming the file and line,
 * why, and what Cilium does. */
Test(fqdn_where, ingress_dns_deny_toFQDNs_and_duplicates_are_errors)
{
	load_fails("data/fqdn/ingress_dns.yaml",
		   "data/fqdn/ingress_dns.yaml:15: DNS rules under ingress: "
		   "Cilium refuses the policy (DNS rules are allowed on "
		   "egress only)");
	load_fails("data/fqdn/egress_deny_fqdns.yaml",
		   "data/fqdn/egress_deny_fqdns.yaml:10: toFQDNs under "
		   "egressDeny: Cilium's EgressDenyRule has no toFQDNs (the "
		   "API server refuses the field)");
	load_fails("data/fqdn/dup_tofqdns.yaml",
		   "data/fqdn/dup_tofqdns.yaml:8: 'toFQDNs' given twice in "
		   "one mapping (line 6 first): kubectl refuses the YAML "
		   "(duplicate key)");
}

/* The other rule types and deny port rules. */
Test(fqdn_where, other_rule_types)
{
	parse_fails_as(FQDN_CILIUM_1_19,
		       "spec:\n  ingress:\n  - toFQDNs:\n"
		       "    - matchName: a.com\n",
		       "a.yaml:3: toFQDNs under ingress: Cilium's IngressRule "
		       "has no toFQDNs (the API server refuses the field)");
	parse_fails_as(FQDN_CILIUM_1_11,
		       "spec:\n  ingressDeny:\n  - toFQDNs: []\n",
		       "a.yaml:3: toFQDNs under ingressDeny: Cilium's "
		       "IngressDenyRule has no toFQDNs");
	parse_fails_as(FQDN_CILIUM_1_19,
		       "specs:\n- egressDeny:\n  - toPorts:\n    - rules:\n"
		       "        dns: [{matchName: a.com}]\n",
		       "a.yaml:5: DNS rules under egressDeny: Cilium's "
		       "PortDenyRule has no rules (the API server refuses the "
		       "field)");
	/* a selector refused anywhere is named before the place */
	parse_fails_as(FQDN_CILIUM_1_19,
		       "spec:\n  egressDeny:\n  - toFQDNs:\n"
		       "    - matchName: a$b.com\n",
		       "a.yaml:4: matchName 'a$b.com'");
}

/* Any other place, any other kind, a key twice on the way, a value of
 * the wrong shape. */
Test(fqdn_where, other_places_kinds_duplicates_and_shapes)
{
	parse_fails_as(FQDN_CILIUM_1_19, "toFQDNs:\n- matchName: a.com\n",
		       "a.yaml:1: toFQDNs at the top of a document: Cilium "
		       "reads toFQDNs only in an egress rule (spec.egress[], "
		       "specs[].egress[]); the API server refuses the field "
		       "here");
	parse_fails_as(FQDN_CILIUM_1_19,
		       "kind: CiliumNetworkPolicy\nspec:\n  toFQDNs:\n"
		       "  - matchName: a.com\n",
		       "a.yaml:3: toFQDNs under 'spec': Cilium reads toFQDNs "
		       "only in an egress rule");
	parse_fails_as(FQDN_CILIUM_1_19,
		       "spec:\n  egress:\n  - toPorts:\n"
		       "    - dns: [{matchName: a.com}]\n",
		       "a.yaml:4: dns under 'toPorts': Cilium reads DNS rules "
		       "only in egress[].toPorts[].rules; the API server "
		       "refuses the field here");
	parse_fails_as(FQDN_CILIUM_1_19,
		       "kind: NetworkPolicy\nspec:\n  egress:\n"
		       "  - toFQDNs: [{matchName: a.com}]\n",
		       "a.yaml:4: toFQDNs in a kind 'NetworkPolicy' object: "
		       "Cilium reads toFQDNs only in a CiliumNetworkPolicy or "
		       "CiliumClusterwideNetworkPolicy");
	parse_fails_as(FQDN_CILIUM_1_19,
		       "spec:\n  egress: []\nspec:\n  egress: []\n",
		       "a.yaml:3: 'spec' given twice in one mapping (line 1 "
		       "first): kubectl refuses the YAML (duplicate key)");
	parse_fails_as(FQDN_CILIUM_1_19,
		       "spec:\n  egress:\n  - toPorts:\n    - rules:\n"
		       "        dns: []\n        dns: []\n",
		       "a.yaml:6: 'dns' given twice in one mapping (line 5 "
		       "first)");
	parse_fails_as(FQDN_CILIUM_1_19,
		       "spec:\n  egress:\n  - toPorts: []\n    toPorts: []\n",
		       "a.yaml:4: 'toPorts' given twice");
	parse_fails_as(FQDN_CILIUM_1_19,
		       "kind: List\nkind: List\nitems: []\n",
		       "a.yaml:2: 'kind' given twice");
	parse_fails_as(FQDN_CILIUM_1_19,
		       "spec:\n  egress:\n    toFQDNs: [{matchName: a.com}]\n",
		       "a.yaml:3: egress must be a list, not a mapping");
}

/*
 * test_fqdn_suite.c - the FQDN suite's prepare() as a run drives it: a
 * policy with "*." and a queries file of edge cases (".", a leading
 * blank, NUL, CR, the empty line, non-ASCII letters that Go lowers to
 * ASCII and one it does not), verified in forked children; rows for
 * engines that are wrong, stuck, crash or fail while verifying, the
 * `allowed` metric of the queries phase, and map strategies that need no
 * regex verified all the same.
 */
#define _GNU_SOURCE
#include <criterion/criterion.h>

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "engines/engine.h"
#include "harness/bench.h"
#include "harness/results.h"
#include "corpora/fqdn_policy.h"
#include "suites/fqdn_ref.h"
#include "suites/suite.h"

/* How many of data/fqdn/edge-queries.txt star_dot.txt allows (by hand). */
#define EDGE_ALLOWED 5

struct run {
	const struct suite *s;
	const struct engine *eng[4];
	struct bench_opts opts;
	struct plan plan;
	struct results res;
	struct suite_ctx ctx;
	void *cfg; /* the suite's configuration, as the options set it */
	void *run; /* what prepare returned */
};

/*
 * prepare() of the fqdn suite on engines e[0..n): policy file `policy`,
 * queries file `queries`, and opts (NULL-ended "name", "value" pairs).
 */
/*
 * The verifying child's time limit in these tests: enough for a loaded
 * machine (0.2 s, the stuck engine's, timed out pcre2's and re2's
 * verification of every strategy under ctest -j2).
 */
#define VERIFY_TIMEOUT_NS 10e9

/* 1: prepare as a run without --engines (suite_ctx.engines_default). */
static int default_engines;

static void run_prepare_with(struct run *r, const char *policy,
			     const char *queries, const struct engine *const *e,
			     size_t n, const char *const *opts,
			     double timeout_ns)
{
	memset(r, 0, sizeof(*r));
	r->s = suite_find("fqdn");
	cr_assert_not_null(r->s);
	for (size_t i = 0; i < n; i++)
		r->eng[i] = e[i];
	r->opts = (struct bench_opts){.benchtime_ns = 1e6, .count = 1,
				      .isolate = 1, .timeout_ns = timeout_ns};
	r->ctx = (struct suite_ctx){.engines = r->eng, .nengines = n,
				    .opts = &r->opts, .plan = &r->plan,
				    .results = &r->res,
				    .engines_default = default_engines};
	results_init(&r->res);
	r->cfg = calloc(1, r->s->config_size);
	cr_assert_not_null(r->cfg);
	r->s->config_init(r->cfg);
	cr_assert_eq(opt_set(opt_find(r->s->options, "policy"), r->cfg,
			     policy), 0);
	cr_assert_eq(opt_set(opt_find(r->s->options, "queries"), r->cfg,
			     queries), 0);
	for (size_t i = 0; opts != NULL && opts[i] != NULL; i += 2)
		cr_assert_eq(opt_set(opt_find(r->s->options, opts[i]), r->cfg,
				     opts[i + 1]), 0, "--%s", opts[i]);
	r->run = r->s->prepare(&r->ctx, r->cfg);
	cr_assert_not_null(r->run);
}

/* The same with the edge queries and no other option. */
static void run_prepare(struct run *r, const char *policy,
			const struct engine *const *e, size_t n)
{
	run_prepare_with(r, policy, "data/fqdn/edge-queries.txt", e, n, NULL,
			 VERIFY_TIMEOUT_NS);
}

static void run_release(struct run *r)
{
	r->s->cleanup(r->run);
	free(r->cfg);
	plan_release(&r->plan);
	results_release(&r->res);
}

static const struct bench *planned(const struct run *r, const char *name)
{
	for (size_t i = 0; i < r->plan.n; i++)
		if (strcmp(r->plan.b[i].name, name) == 0)
			return &r->plan.b[i];
	return NULL;
}

static double metric(const struct bench *b, const char *unit)
{
	for (size_t i = 0; i < b->nextra; i++)
		if (strcmp(b->extra[i].unit, unit) == 0)
			return b->extra[i].value;
	return -1;
}

/*
 * Under Cilium 1.11 every strategy on PCRE2 and the trie verifies ("."
 * under "*.", Kelvin and dotted-I names allowed, " example.com", NUL, CR
 * denied) and times the queries phase with allowed = 5; the only row is
 * map+multi's (PCRE2 has no native set).
 */
Test(fqdn_suite, edge_queries_verify_and_count_allowed, .timeout = 60)
{
	const struct engine *e[] = {engine_find("pcre2")};
	static const char *const strategies[] = {
		"baseline", "baseline-optimized", "reverse", "reverse+sort",
		"map+baseline", "map+optimized", "map+reverse+sort",
		"cilium-l7", "map+cilium-l7"};
	static const char *const v111[] = {"cilium", "1.11", NULL};
	const struct bench *b;
	struct run r;
	char name[256];

	run_prepare_with(&r, "data/fqdn/star_dot.txt",
			 "data/fqdn/edge-queries.txt", e, 1, v111,
			 VERIFY_TIMEOUT_NS);
	for (size_t i = 0; i < r.res.n; i++)
		cr_expect(strstr(r.res.r[i].name, "strategy=map+multi") != NULL,
			  "%s: %s", r.res.r[i].name, r.res.r[i].message);
	cr_expect_eq(r.res.n, 1);
	for (size_t i = 0; i < sizeof(strategies) / sizeof(strategies[0]); i++) {
		snprintf(name, sizeof(name), "FQDN/phase=queries/strategy=%s/"
			 "engine=pcre2", strategies[i]);
		b = planned(&r, name);
		cr_assert_not_null(b, "%s not planned", name);
		cr_expect_eq(metric(b, "allowed"), EDGE_ALLOWED, "%s", name);
		cr_expect_eq(metric(b, "domains"), 3, "%s", name);
	}
	b = planned(&r, "FQDN/phase=queries/strategy=trie/engine=none");
	cr_assert_not_null(b);
	cr_expect_eq(metric(b, "allowed"), EDGE_ALLOWED);
	b = planned(&r, "FQDN/phase=match-name/strategy=trie/engine=none");
	cr_assert_not_null(b);
	cr_expect_eq(metric(b, "allowed"), -1, "queries phase only");
	run_release(&r);
}

/*
 * Under Cilium 1.19 (the default) "*." is a DNS wildcard: the proxy
 * allows every one of the nine edge queries.  The seed's seven build
 * 1.11's regex, so each is an unsupported row naming what runs it;
 * cilium-l7, map+cilium-l7 and the trie are in the default run and
 * verify, with no other option.
 */
Test(fqdn_suite, star_dot_is_a_wildcard_in_1_19, .timeout = 60)
{
	const struct engine *e[] = {engine_find("pcre2")};
	static const char *const ok[] = {"cilium-l7/engine=pcre2",
					 "map+cilium-l7/engine=pcre2",
					 "trie/engine=none"};
	char name[256];
	struct run r;

	run_prepare(&r, "data/fqdn/star_dot.txt", e, 1);
	cr_expect_eq(r.res.n, 8, "seven unsupported and map+multi's");
	for (size_t i = 0; i < r.res.n; i++)
		if (strstr(r.res.r[i].name, "map+multi") == NULL)
			cr_expect(strstr(r.res.r[i].message, "cilium-l7, "
					 "map+cilium-l7 and trie run it") !=
					  NULL,
				  "%s: %s", r.res.r[i].name,
				  r.res.r[i].message);
	for (size_t i = 0; i < sizeof(ok) / sizeof(ok[0]); i++) {
		const struct bench *b;
		snprintf(name, sizeof(name), "FQDN/phase=queries/strategy=%s",
			 ok[i]);
		b = planned(&r, name);
		cr_assert_not_null(b, "%s not planned", name);
		cr_expect_eq(metric(b, "allowed"), 9, "%s", name);
	}
	run_release(&r);
}

/* PCRE2, counting the names it is asked in the parent's warm pass. */
static size_t parent_calls;

static int counting_is_match(void *h, const char *data, size_t len)
{
	parent_calls += engine_phase == ENGINE_PHASE_WARM; /* the warm pass */
	return engine_find("pcre2")->is_match(h, data, len);
}

/* The same with a note, as re2's on its DFA: warm calls seen, if any. */
static size_t noting_calls;

static int noting_is_match(void *h, const char *data, size_t len)
{
	noting_calls += engine_phase == ENGINE_PHASE_WARM;
	return engine_find("pcre2")->is_match(h, data, len);
}

static int noting_note(void *h, char *msg, size_t size)
{
	(void)h;
	snprintf(msg, size, "noting: looked");
	return 1;
}

/*
 * The answers come from children, and every measuring child warms its
 * own engine, so an engine without a note is asked nothing in the
 * parent; one with a note (re2's DFA) asks a verified case its queries
 * once there to read it (ENGINE_PHASE_WARM), and the note reaches the
 * match phases' rows: 25 queries of data/fqdn/list.txt's sets (4 x 4
 * generated, 9 from the file) per strategy, fewer for the map strategies
 * (names in the set never reach the engine).
 */
Test(fqdn_suite, only_an_engine_with_a_note_is_asked_in_the_parent,
     .timeout = 60)
{
	struct engine counting = *engine_find("pcre2"), noting = counting;
	const struct engine *e[] = {&counting, &noting};
	const struct bench *b;
	struct run r;

	counting.name = "counting";
	counting.is_match = counting_is_match;
	noting.name = "noting";
	noting.is_match = noting_is_match;
	noting.note = noting_note;
	run_prepare(&r, "data/fqdn/list.txt", e, 2);
	cr_expect_eq(r.res.n, 2, "map+multi only");
	cr_expect_eq(parent_calls, 0, "%zu", parent_calls);
	cr_expect_geq(noting_calls, 4 * 25, "%zu", noting_calls);
	cr_expect_leq(noting_calls, 7 * 25, "%zu", noting_calls);
	b = planned(&r, "FQDN/phase=match-name/strategy=baseline/engine=noting");
	cr_assert_not_null(b);
	cr_expect_str_eq(b->note != NULL ? b->note : "", "noting: looked");
	b = planned(&r, "FQDN/phase=match-name/strategy=baseline/engine=counting");
	cr_assert_not_null(b);
	cr_expect_null(b->note);
	run_release(&r);
}

/* The value of results pair `key`, or NULL. */
static const char *config_value(const struct results *res, const char *key)
{
	for (size_t i = 0; i < res->ncfg; i++)
		if (strcmp(res->cfg[i].key, key) == 0)
			return res->cfg[i].value;
	return NULL;
}

/*
 * A run without --engines or --strategies leaves out the slowest engine
 * x strategy pairs (tre's but map+reverse+sort: PCRE2 under tre's name
 * here) and says so in the results; the engine keeps map+reverse+sort,
 * and naming strategies, or running with named engines, brings the
 * pairs back.
 */
Test(fqdn_suite, a_default_run_leaves_out_the_slowest_pairs, .timeout = 60)
{
	static const char *const named[] = {"strategies", "baseline,reverse",
					    NULL};
	struct engine slow = *engine_find("pcre2");
	const struct engine *e[] = {&slow};
	struct run r;

	slow.name = "tre";
	default_engines = 1;
	run_prepare(&r, "data/fqdn/list.txt", e, 1);
	cr_expect_null(planned(&r, "FQDN/phase=match-name/strategy=baseline/"
				   "engine=tre"));
	cr_expect_null(results_find(&r.res, "FQDN/strategy=baseline/engine=tre"));
	cr_expect_null(planned(&r, "FQDN/phase=match-name/strategy=reverse/"
				   "engine=tre"));
	cr_expect_not_null(planned(&r, "FQDN/phase=match-name/strategy="
				       "map+reverse+sort/engine=tre"));
	cr_assert_not_null(config_value(&r.res, "fqdn-left-out"));
	cr_expect(strstr(config_value(&r.res, "fqdn-left-out"),
			 "tre x baseline") != NULL, "%s",
		  config_value(&r.res, "fqdn-left-out"));
	run_release(&r);
	run_prepare_with(&r, "data/fqdn/list.txt", "data/fqdn/edge-queries.txt",
			 e, 1, named, VERIFY_TIMEOUT_NS);
	cr_expect_not_null(planned(&r, "FQDN/phase=match-name/strategy=baseline/"
				       "engine=tre"));
	cr_expect_null(config_value(&r.res, "fqdn-left-out"));
	run_release(&r);
	default_engines = 0;
	run_prepare(&r, "data/fqdn/list.txt", e, 1);
	cr_expect_not_null(planned(&r, "FQDN/phase=match-name/strategy=baseline/"
				       "engine=tre"));
	run_release(&r);
}

/* PCRE2, but it allows any name holding NUL. */
static int nul_yes_is_match(void *h, const char *data, size_t len)
{
	if (memchr(data, '\0', len) != NULL)
		return 1;
	return engine_find("pcre2")->is_match(h, data, len);
}

/* The mismatch row quotes the whole NUL query, escaped. */
Test(fqdn_suite, mismatch_shows_a_nul_query_whole, .timeout = 60)
{
	struct engine yes = *engine_find("pcre2");
	const struct engine *e[] = {&yes};
	const struct result *row;
	struct run r;

	yes.name = "nul-yes";
	yes.is_match = nul_yes_is_match;
	run_prepare(&r, "data/fqdn/list.txt", e, 1);
	row = results_find(&r.res, "FQDN/strategy=baseline/engine=nul-yes");
	cr_assert_not_null(row);
	cr_expect_eq(row->status, RESULT_MISMATCH);
	cr_expect_not_null(strstr(row->message, "query 'a\\x00b.s3.io' "
					       "(queries): allowed, the "
					       "reference says denied; 1 of "
					       "25 queries differ"),
			   "%s", row->message);
	run_release(&r);
}

/* PCRE2, except that it never answers while verifying. */
static int stuck_is_match(void *h, const char *data, size_t len)
{
	struct timespec tick = {0, 50000000};

	while (engine_phase == ENGINE_PHASE_VERIFY)
		nanosleep(&tick, NULL);
	return engine_find("pcre2")->is_match(h, data, len);
}

/* PCRE2, except that it crashes while verifying. */
static int crashy_is_match(void *h, const char *data, size_t len)
{
	if (engine_phase == ENGINE_PHASE_VERIFY) {
		signal(SIGSEGV, SIG_DFL); /* not a sanitizer's report */
		raise(SIGSEGV);
	}
	return engine_find("pcre2")->is_match(h, data, len);
}

/*
 * Verification runs in children with --timeout per answer (a case's
 * verdicts on all its query sets): a stuck engine is a timeout row, a
 * crashing one an error row, each naming the query it was asked (memory
 * shared with the child), each strategy once, and PCRE2 between them
 * still verifies and is planned (policy data/fqdn/list.txt: "." is denied
 * there).
 */
Test(fqdn_suite, stuck_or_crashing_engine_while_verifying, .timeout = 60)
{
	struct engine stuck = *engine_find("pcre2"), crashy = stuck;
	const struct engine *e[] = {&stuck, engine_find("pcre2"), &crashy};
	const struct result *row;
	struct run r;

	stuck.name = "stuck";
	stuck.is_match = stuck_is_match;
	crashy.name = "crashy";
	crashy.is_match = crashy_is_match;
	/* 0.2 s: the stuck engine's row comes back that soon */
	run_prepare_with(&r, "data/fqdn/list.txt", "data/fqdn/edge-queries.txt",
			 e, 3, NULL, 200e6);
	row = results_find(&r.res, "FQDN/strategy=reverse/engine=stuck");
	cr_assert_not_null(row);
	cr_expect_eq(row->status, RESULT_TIMEOUT);
	cr_expect_str_eq(row->message, "stuck: strategy reverse, 4 domains: no "
				       "answer within 0.2s while verifying: the "
				       "child was killed (see --timeout); on "
				       "query 'uged.al.' (match-name)");
	row = results_find(&r.res, "FQDN/strategy=map+optimized/engine=crashy");
	cr_assert_not_null(row);
	cr_expect_eq(row->status, RESULT_ERROR);
	cr_expect_str_eq(row->message, "crashy: strategy map+optimized, 4 "
				       "domains: crashed: signal 11 "
				       "(Segmentation fault) while verifying; on "
				       "query 'wiL_4j7PAG4DC.ArD.' (match-pattern)");
	cr_expect_not_null(planned(&r, "FQDN/phase=queries/strategy=reverse/"
				       "engine=pcre2"));
	cr_expect_null(planned(&r, "FQDN/phase=queries/strategy=reverse/"
				   "engine=stuck"));
	/* 9 strategies (the seed's seven, cilium-l7 and map+cilium-l7) x 2
	   failing engines, and map+multi x 3 unsupported */
	cr_expect_eq(r.res.n, 9 * 2 + 3);
	run_release(&r);
}

/* PCRE2, except that it reaches a match limit on any name holding NUL. */
static int nul_limit_is_match(void *h, const char *data, size_t len)
{
	if (memchr(data, '\0', len) != NULL)
		return ENGINE_ERR_LIMIT;
	return engine_find("pcre2")->is_match(h, data, len);
}

/* An engine error while verifying is an error row naming its query. */
Test(fqdn_suite, engine_error_names_its_query, .timeout = 60)
{
	struct engine limited = *engine_find("pcre2");
	const struct engine *e[] = {&limited};
	const struct result *row;
	struct run r;

	limited.name = "limited";
	limited.is_match = nul_limit_is_match;
	run_prepare(&r, "data/fqdn/list.txt", e, 1);
	row = results_find(&r.res, "FQDN/strategy=baseline/engine=limited");
	cr_assert_not_null(row);
	cr_expect_eq(row->status, RESULT_ERROR);
	cr_expect_str_eq(row->message, "limited: strategy baseline, 4 domains: "
				       "match limit; on query 'a\\x00b.s3.io' "
				       "(queries)");
	run_release(&r);
}

/*
 * A policy of matchNames only: the map strategies have no regex, so no
 * compile phase, and are verified and timed all the same.
 */
Test(fqdn_suite, map_strategies_without_a_regex_verify, .timeout = 60)
{
	const struct engine *e[] = {engine_find("pcre2")};
	char path[] = "/tmp/rxb-fqdn-names-XXXXXX";
	int fd = mkstemp(path);
	const struct bench *b;
	struct run r;

	cr_assert_geq(fd, 0);
	cr_assert_eq(write(fd, "uged.al\ncilium.io\n", 18), 18);
	close(fd);
	run_prepare(&r, path, e, 1);
	unlink(path);
	cr_expect_eq(r.res.n, 1, "map+multi only");
	cr_expect_null(planned(&r, "FQDN/phase=compile/strategy=map+baseline/"
				   "engine=pcre2"));
	b = planned(&r, "FQDN/phase=queries/strategy=map+baseline/engine=pcre2");
	cr_assert_not_null(b);
	cr_expect_eq(metric(b, "allowed"), 1, "uged.al");
	cr_expect_not_null(b->verified);
	run_release(&r);
}

/*
 * Policies in the shape of cilium/cilium's examples/policies (written for
 * these tests), and the verdicts on data/fqdn/examples/queries.txt
 * worked out by hand, for each Cilium component on its own selectors:
 * the DNS proxy on rules.dns (l7), the name manager on toFQDNs (l3).
 * 1.19's proxy allows a.b.payments.svc.cluster.local through
 * "**.payments.svc.cluster.local" (1.11 reads "**" as one label) and
 * every name, "a..b" too, through "*" (1.11: valid names and the root);
 * fqdn-cloud's proxy allows only sts.amazonaws.com and
 * oauth2.googleapis.com ("*.amazonaws.com" is one label), its name
 * manager the bucket, the two googleapis names, the docker names and
 * api.github.com.  The Go oracle (tests/go/cilium_oracle) agrees.
 */
static const struct {
	const char *file;
	size_t l7, l3; /* rules.dns and toFQDNs selectors */
	const char *v111, *v119;     /* the proxy's verdicts */
	const char *l3v111, *l3v119; /* the name manager's */
} examples[] = {
	{"data/fqdn/examples/fqdn-cluster.yaml", 4, 5, "111011010000000000",
	 "111111010000000000", "110000010000000000", "110000010000000000"},
	{"data/fqdn/examples/fqdn-cloud.yaml", 3, 12, "000000000011000000",
	 "000000000011000000", "000000001011111000", "000000001011111000"},
	{"data/fqdn/examples/dns-allow-all.yaml", 1, 1, "111111111111111101",
	 "111111111111111111", "000000000000000000", "000000000000000000"},
};

static size_t ones(const char *v)
{
	size_t n = 0;

	for (; *v; v++)
		n += *v == '1';
	return n;
}

/* Every strategy of the run verified, unsupported or gated, none wrong. */
static void expect_only_unsupported(const struct run *r, const char *what)
{
	for (size_t i = 0; i < r->res.n; i++) {
		const struct result *row = &r->res.r[i];
		cr_expect_eq(row->status, RESULT_UNSUPPORTED, "%s: %s: %s", what,
			     row->name, row->message);
		cr_expect(strstr(row->message, "Cilium 1.19") != NULL ||
				  strstr(row->message, "native") != NULL,
			  "%s: %s", what, row->message);
	}
}

/*
 * A CNP's toFQDNs and rules.dns are two selector sets: two_sets.yaml has
 * 3 under toFQDNs and the same 3 and one more under dns.  The DNS proxy's
 * strategies and the trie hold the 4 dns rules, the name manager's the 3
 * toFQDNs (not 7 merged), each verified against the reference on its
 * own set, and the results say which count is which.
 */
Test(fqdn_suite, cnp_sets_are_apart, .timeout = 60)
{
	const struct engine *e[] = {engine_find("pcre2")};
	static const char *const opts[] = {"strategies", "all", NULL};
	const struct bench *b;
	const char *sel;
	struct run r;

	run_prepare_with(&r, "data/fqdn/two_sets.yaml",
			 "data/fqdn/examples/queries.txt", e, 1, opts,
			 VERIFY_TIMEOUT_NS);
	for (size_t i = 0; i < r.res.n; i++)
		cr_expect(r.res.r[i].status == RESULT_UNSUPPORTED,
			  "%s: %s", r.res.r[i].name, r.res.r[i].message);
	b = planned(&r, "FQDN/phase=match-name/strategy=trie/engine=none");
	cr_assert_not_null(b);
	cr_expect_eq(metric(b, "domains"), 4);
	b = planned(&r, "FQDN/phase=match-name/strategy=cilium-l7/"
			"engine=pcre2");
	cr_assert_not_null(b);
	cr_expect_eq(metric(b, "domains"), 4);
	b = planned(&r, "FQDN/phase=match-name/strategy=cilium-l3/"
			"engine=pcre2");
	cr_assert_not_null(b);
	cr_expect_eq(metric(b, "domains"), 3);
	cr_expect_not_null(b->verified);
	sel = results_config_get(&r.res, "fqdn-selectors");
	cr_assert_not_null(sel);
	cr_expect_str_eq(sel, "4 rules.dns (2 matchName, 2 matchPattern: the "
			      "DNS proxy's), 3 toFQDNs (1 matchName, 2 "
			      "matchPattern: the name manager's)");
	run_release(&r);
}

Test(fqdn_suite, example_policies_load_and_verify_on_both_versions,
     .timeout = 120)
{
	const struct engine *e[] = {engine_find("pcre2"), engine_find("re2")};

	for (size_t i = 0; i < sizeof(examples) / sizeof(examples[0]); i++)
		for (int v = 0; v < 2; v++) {
			const char *opts[] = {"cilium", v ? "1.19" : "1.11",
					      "strategies", "all", NULL};
			const char *want = v ? examples[i].v119 : examples[i].v111;
			const struct bench *b;
			struct run r;
			run_prepare_with(&r, examples[i].file,
					 "data/fqdn/examples/queries.txt", e,
					 e[1] ? 2 : 1, opts, VERIFY_TIMEOUT_NS);
			expect_only_unsupported(&r, examples[i].file);
			b = planned(&r, "FQDN/phase=queries/strategy=trie/"
					"engine=none");
			cr_assert_not_null(b);
			cr_expect_eq(metric(b, "allowed"), (double)ones(want),
				     "%s %s", examples[i].file, opts[1]);
			cr_expect_eq(metric(b, "domains"), (double)examples[i].l7);
			b = planned(&r, "FQDN/phase=queries/strategy=cilium-l7/"
					"engine=pcre2");
			cr_assert_not_null(b, "cilium-l7 is never unsupported");
			cr_expect_eq(metric(b, "allowed"), (double)ones(want));
			want = v ? examples[i].l3v119 : examples[i].l3v111;
			b = planned(&r, "FQDN/phase=queries/strategy=cilium-l3/"
					"engine=pcre2");
			cr_assert_not_null(b, "%s: cilium-l3 on toFQDNs",
					   examples[i].file);
			cr_expect_eq(metric(b, "allowed"), (double)ones(want),
				     "%s %s: cilium-l3", examples[i].file,
				     opts[1]);
			run_release(&r);
		}
}

/* The reference on set `set` of p gives the verdicts `want`. */
static void expect_set_verdicts(const struct fqdn_policy *p, unsigned set,
				const struct fqdn_queries *q, const char *file,
				const char *want)
{
	struct fqdn_policy sub;
	struct fqdn_ref r;

	cr_assert_eq(fqdn_policy_select(p, set, &sub), 0);
	cr_assert_eq(fqdn_ref_init(&r, &sub), 0);
	cr_assert_eq(q->n, strlen(want));
	for (size_t k = 0; k < q->n; k++)
		cr_expect_eq(fqdn_ref_allows(&r, q->name[k], q->len[k]),
			     want[k] - '0', "%s %s %s: '%s'", file,
			     fqdn_cilium_name(p->cilium),
			     set == FQDN_SET_L7 ? "rules.dns" : "toFQDNs",
			     q->name[k]);
	fqdn_ref_release(&r);
	fqdn_policy_release(&sub);
}

/* The reference gives the hand-worked verdicts, query by query. */
Test(fqdn_suite, example_policies_reference_verdicts)
{
	struct fqdn_queries q;
	char err[512];

	fqdn_queries_init(&q);
	cr_assert_eq(fqdn_queries_load(&q, "data/fqdn/examples/queries.txt",
				       err, sizeof(err)), 0, "%s", err);
	for (size_t i = 0; i < sizeof(examples) / sizeof(examples[0]); i++)
		for (int v = 0; v < 2; v++) {
			struct fqdn_policy p;
			fqdn_policy_init(&p);
			p.cilium = v ? FQDN_CILIUM_1_19 : FQDN_CILIUM_1_11;
			cr_assert_eq(fqdn_policy_load(&p, examples[i].file, err,
						      sizeof(err)), 0, "%s", err);
			cr_expect_eq(p.l7.n, examples[i].l7, "%s",
				     examples[i].file);
			cr_expect_eq(p.l3.n, examples[i].l3, "%s",
				     examples[i].file);
			expect_set_verdicts(&p, FQDN_SET_L7, &q, examples[i].file,
					    v ? examples[i].v119
					      : examples[i].v111);
			expect_set_verdicts(&p, FQDN_SET_L3, &q, examples[i].file,
					    v ? examples[i].l3v119
					      : examples[i].l3v111);
			fqdn_policy_release(&p);
		}
	fqdn_queries_release(&q);
}

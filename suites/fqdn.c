/*
 * fqdn.c - the FQDN suite: how fast can a DNS proxy decide whether a
 * policy's toFQDNs selectors allow a query name?  It reproduces the Go
 * benchmark of Cilium's DNS proxy (seed 000) on every engine and adds two
 * strategies beyond it (fqdn_strategies.h).
 *
 * For each policy size (--domains=N[,N...]), strategy and engine:
 *   generate          build the regex string(s) and the name set
 *                     (engine-independent: engine=none)
 *   compile           the engine compiles the regex (or the set)
 *   combined-compile  both
 *   match-name, match-pattern, bad-match-pattern, bad-match-tld
 *                     one query per op, cycling through the query set:
 *                     rewrite (lower case, trailing dot, reversal), the
 *                     name-set lookup, then the regex
 *   queries           the same over --queries FILE
 * The trie strategy uses no engine (engine=none).
 *
 * The suite is a generator of cases for the one pipeline (suites/case.h):
 * one table per size, a case per strategy x engine (the trie's on no
 * engine), whose answer is its verdict on every query of every set
 * (fqdn_verify.h) and whose benchmarks are its phases.  The expected
 * answer is the reference matcher's (fqdn_ref.h), the same for every case
 * of a size; a case that differs gets a MISMATCH row naming the first
 * query that differs, and no time.  The answers are computed in a forked
 * child, each within --timeout: an engine stuck, crashing or failing
 * while verifying is a timeout or error row naming the query it was
 * asked (memory shared with the child), and the run goes on.  One answer
 * serves every phase of a case: its phases time the same compiled regex
 * on the same queries.  Each measuring child warms its own engine with
 * whole passes over its query set before it times (harness/bench.h), so
 * what an engine learns lazily is learnt there (cold, RE2's baseline at
 * 500 selectors took 3 ms a query instead of 5 us); only an engine with
 * a note (re2: did its DFA run out of memory?) is asked the queries once
 * more in the parent, to read it (case_warm).  The timed match loop
 * checks each verdict again against the verified answer.  A regex that an engine rejects although
 * it is valid syntax (the reference parser reads it) is beyond that
 * engine's limits: an unsupported row; an invalid one is an error.  The
 * queries phase also reports `allowed`, how many of the --queries names
 * the policy allows (verified: the strategy's count, equal to the
 * reference's), an exact metric anyone can check with their own tool.
 *
 * The generate phase of a regex strategy is no case: it answers no query,
 * and what it builds is what the strategy's engine cases verify.
 *
 * The suite's default --benchtime is 100ms (about 300 benchmarks with
 * every engine must fit in five minutes); a user's --benchtime wins.
 */
#define _GNU_SOURCE
#include "suites/suite.h"

#include "corpora/dns_wire.h"
#include "corpora/file.h"
#include "corpora/fqdn_policy.h"
#include "harness/interrupt.h"
#include "harness/parse.h"
#include "suites/case.h"
#include "suites/cycle.h"
#include "corpora/rng.h"
#include "suites/fqdn_ep.h"
#include "suites/fqdn_ref.h"
#include "suites/fqdn_runner.h"
#include "suites/fqdn_size.h"
#include "suites/fqdn_strategies.h"
#include "suites/fqdn_verify.h"
#include "suites/reference.h"

#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#define FQDN_MAX_SIZES 16
#define FQDN_DEFAULT_DOMAINS 500
#define FQDN_MAX_DOMAINS 1000000
#define FQDN_MAX_ENDPOINTS 100000

/* One benchmark: a phase of a case. */
struct fqdn_op {
	struct fqdn_case *c;
	enum fqdn_phase phase;
	size_t next; /* the query the next op takes */
};

/* One size x strategy x engine (engine NULL: none). */
struct fqdn_case {
	struct fqdn_size *sz;
	const struct fqdn_strategy *s;
	const struct engine *e;
	struct fqdn_built *built; /* the size's, shared */
	/* once planned: the compiled regex (the table's, NULL when none) and
	   the verified answer (in the table too) */
	void *h;
	const unsigned char *want;
	int warm;                 /* asked every query once, here */
	char note[256];           /* the engine's note after that, or "" */
	char *buf;                /* the rewritten query */
	struct fqdn_built kept;   /* held between retain and release */
	void *kept_h;
	struct fqdn_op op[PH_COUNT];
	/* on an engine that times itself: every query as it is, in set
	   order (its op rewrites it), and the name set, as its works name
	   them (work_inputs); NULL until first asked */
	struct engine_span *win, *wnames;
};

/* What the command line chose (suites/options.h fills it). */
struct fqdn_config {
	size_t sizes[FQDN_MAX_SIZES]; /* --domains */
	size_t nsizes;
	uint64_t seed;
	const char *policy_path;
	const char *queries_path;
	enum fqdn_cilium cilium; /* --cilium */
	int query_wire;          /* --query-form=wire (0: text) */
	size_t l7_selectors;     /* --l7-selectors */
	enum fqdn_generator generator; /* --generator */
	uint32_t strategies; /* --strategies: bit i for fqdn_strategies[i] */
	int strategies_named; /* --strategies was given */
	size_t endpoints[FQDN_MAX_SIZES]; /* --endpoints; none: 0 */
	size_t nendpoints;
};

static void fqdn_config_init(void *cfg)
{
	struct fqdn_config *c = cfg;

	c->seed = 1;
	c->cilium = FQDN_CILIUM_1_19;
	c->l7_selectors = 1;
	for (size_t i = 0; i < fqdn_nstrategies; i++)
		if (!(fqdn_strategies[i].flags & FQDN_S_EXTRA))
			c->strategies |= 1u << i;
}

/* One run: everything prepare builds; the benchmarks point into it. */
struct fqdn_run {
	const struct fqdn_config *cfg;
	struct fqdn_policy file_policy; /* --policy, read once */
	struct fqdn_queries file_queries;
	char **tlds;
	long ntlds;
	int tlds_psl;
	struct fqdn_size *sz;
	size_t nsizes; /* of sz that were set up */
	int lean;      /* fqdn_lean() */
};

/* --domains=N or N1,N2,...: each 1..1000000, at most 16. */
static int opt_domains(void *cfg, const char *v, char *err, size_t size)
{
	struct fqdn_config *c = cfg;
	char why[128];

	if (parse_size_list(v, 1, FQDN_MAX_DOMAINS, c->sizes, FQDN_MAX_SIZES,
			    &c->nsizes, why, sizeof(why)) == 0)
		return 0;
	c->nsizes = 0;
	snprintf(err, size, "%s; use a number of selectors from 1 to %d, or a "
		 "list like 100,500,1000 (at most %d sizes)", why,
		 FQDN_MAX_DOMAINS, FQDN_MAX_SIZES);
	return -1;
}

/* --endpoints=N or N1,N2,...: each 1..100000, at most 16. */
static int opt_endpoints(void *cfg, const char *v, char *err, size_t size)
{
	struct fqdn_config *c = cfg;
	char why[128];

	if (parse_size_list(v, 1, FQDN_MAX_ENDPOINTS, c->endpoints,
			    FQDN_MAX_SIZES, &c->nendpoints, why,
			    sizeof(why)) == 0)
		return 0;
	c->nendpoints = 0;
	snprintf(err, size, "%s; use a number of endpoints from 1 to %d, or a "
		 "list like 1000,10000 (at most %d)", why, FQDN_MAX_ENDPOINTS,
		 FQDN_MAX_SIZES);
	return -1;
}

/*
 * v as one of names[0..n) (an enum's values in order): its index, or -1
 * with "unknown WHAT (use A, B or C)" in err.
 */
static int parse_choice(const char *v, const char *const *names, int n,
			const char *what, char *err, size_t size)
{
	int at;

	for (int i = 0; i < n; i++)
		if (strcmp(v, names[i]) == 0)
			return i;
	at = snprintf(err, size, "unknown %s (use %s", what, names[0]);
	for (int i = 1; i < n && at > 0 && (size_t)at < size; i++)
		at += snprintf(err + at, size - (size_t)at, "%s%s",
			       i + 1 < n ? ", " : " or ", names[i]);
	if (at > 0 && (size_t)at < size)
		snprintf(err + at, size - (size_t)at, ")");
	return -1;
}

/* --cilium=1.11|1.19: the semantics the reference and strategies follow. */
static int opt_cilium(void *cfg, const char *v, char *err, size_t size)
{
	static const char *const names[2] = {"1.11", "1.19"}; /* enum order */
	int k = parse_choice(v, names, 2, "Cilium version", err, size);

	if (k >= 0)
		((struct fqdn_config *)cfg)->cilium = (enum fqdn_cilium)k;
	return k < 0 ? -1 : 0;
}

/* --query-form=text|wire: a query as it is, or through the wire. */
static int opt_query_form(void *cfg, const char *v, char *err, size_t size)
{
	static const char *const names[2] = {"text", "wire"};
	int k = parse_choice(v, names, 2, "query form", err, size);

	if (k >= 0)
		((struct fqdn_config *)cfg)->query_wire = k;
	return k < 0 ? -1 : 0;
}

static const char *const generator_names[3] = {"seed", "k8s",
					       "cilium"}; /* enum order */

static const char *generator_name(const struct fqdn_config *c)
{
	return generator_names[c->generator];
}

/* --generator=seed|k8s: which generated policy. */
static int opt_generator(void *cfg, const char *v, char *err, size_t size)
{
	int k = parse_choice(v, generator_names, 3, "generator", err, size);

	if (k >= 0)
		((struct fqdn_config *)cfg)->generator = (enum fqdn_generator)k;
	return k < 0 ? -1 : 0;
}

/* --strategies=all|NAME[,NAME...]: which strategies run. */
static int opt_strategies(void *cfg, const char *v, char *err, size_t size)
{
	struct fqdn_config *c = cfg;
	const char *p = v;

	c->strategies = 0;
	c->strategies_named = 1;
	if (strcmp(v, "all") == 0) {
		c->strategies = (uint32_t)((1ull << fqdn_nstrategies) - 1);
		return 0;
	}
	while (*p != '\0') {
		size_t n = strcspn(p, ",");
		size_t i = 0;
		while (i < fqdn_nstrategies &&
		       (strlen(fqdn_strategies[i].name) != n ||
			strncmp(fqdn_strategies[i].name, p, n) != 0))
			i++;
		if (i == fqdn_nstrategies) {
			int at = snprintf(err, size, "unknown strategy '%.*s' "
					  "(use all, or any of", (int)n, p);
			for (size_t k = 0; k < fqdn_nstrategies && at > 0 &&
					   (size_t)at < size; k++)
				at += snprintf(err + at, size - (size_t)at, " %s%s",
					       fqdn_strategies[k].name,
					       k + 1 < fqdn_nstrategies ? ","
									: ")");
			return -1;
		}
		c->strategies |= 1u << i;
		p += n + (p[n] == ',');
	}
	if (c->strategies == 0) {
		snprintf(err, size, "no strategy named");
		return -1;
	}
	return 0;
}

#define FQDN_OPT(f) offsetof(struct fqdn_config, f)
static const struct opt_spec fqdn_options[] = {
	{"domains", "N[,N...]", "policy sizes (default 500); several sizes\n"
	 "report scaling", OPT_CALL, 0, 0, 0, opt_domains},
	{"seed", "N", "generator seed (default 1)", OPT_UINT, FQDN_OPT(seed), 0,
	 (double)UINT64_MAX, NULL},
	{"policy", "FILE", "CiliumNetworkPolicy YAML or a list, one\n"
	 "selector per line", OPT_TEXT, FQDN_OPT(policy_path), 0, 0, NULL},
	{"queries", "FILE", "query names, one per line (phase queries)",
	 OPT_TEXT, FQDN_OPT(queries_path), 0, 0, NULL},
	{"cilium", "1.11|1.19", "the semantics Cilium version (default 1.19;\n"
	 "1.19: a leading '**.' is one label or more,\n"
	 "'*.' and '**.' alone allow every name)", OPT_CALL, 0, 0, 0,
	 opt_cilium},
	{"query-form", "text|wire", "text (default): each query as it is, as a\n"
	 "log holds names; wire: packed into DNS labels\n"
	 "and unpacked as the proxy's miekg/dns does\n"
	 "(\\DDD and \\. escapes)", OPT_CALL, 0, 0, 0, opt_query_form},
	{"l7-selectors", "N", "L7 selectors the policy's rules are split\n"
	 "across for cilium-l7 (default 1)", OPT_SIZE, FQDN_OPT(l7_selectors),
	 1, 100000, NULL},
	{"strategies", "all|S[,S...]", "strategies to run (default: the seed's\n"
	 "seven, map+multi, cilium-l7, map+cilium-l7 and\n"
	 "trie, less the slowest engine x strategy pairs\n"
	 "when --engines is not given either; all adds\n"
	 "the name manager's cilium-l3, map+cilium-l3)", OPT_CALL, 0, 0, 0,
	 opt_strategies},
	{"generator", "seed|k8s|cilium", "generated policy: the seed's shapes\n"
	 "(default), Kubernetes-shaped ones, or those of\n"
	 "Cilium's per-endpoint benchmark (1 matchPattern\n"
	 "to 20 matchNames)", OPT_CALL, 0, 0, 0, opt_generator},
	{"endpoints", "N[,N...]", "also N endpoints of the policy as Cilium's\n"
	 "proxy holds them (memory with and without\n"
	 "its regex cache, policy-update, match on a\n"
	 "random endpoint); default none", OPT_CALL, 0, 0, 0, opt_endpoints},
	{NULL, NULL, NULL, OPT_FLAG, 0, 0, 0, NULL},
};

/* The generated policy of n selectors (both sets) into z->policy. */
static int size_generate(const struct fqdn_run *r, struct fqdn_size *z,
			 size_t n)
{
	if (r->cfg->generator == FQDN_GEN_K8S)
		return fqdn_policy_generate_k8s(&z->policy, n, r->cfg->seed);
	if (r->cfg->generator == FQDN_GEN_CILIUM)
		return fqdn_policy_generate_cilium(&z->policy, n);
	return fqdn_policy_generate(&z->policy, n, r->cfg->seed, r->tlds,
				    r->ntlds);
}

/*
 * The selectors of --policy in set `set` into *out, the first n of them
 * (all when !explicit_n).  0, or -1 out of memory.
 */
static int size_select(const struct fqdn_run *r, unsigned set, size_t n,
		       int explicit_n, struct fqdn_policy *out)
{
	if (fqdn_policy_select(&r->file_policy, set, out) != 0)
		return -1;
	if (explicit_n && n < out->n)
		fqdn_policy_truncate(out, n);
	return 0;
}

/* --domains=n beyond both sets of --policy: said on stderr.  1 if so. */
static int size_too_big(const struct fqdn_run *r, size_t n)
{
	const struct fqdn_policy *fp = &r->file_policy;
	size_t most = fp->l7.n > fp->l3.n ? fp->l7.n : fp->l3.n;

	if (n <= most)
		return 0;
	if (fp->l3.n == fp->n && fp->l7.n == fp->n) /* a list: one set */
		fprintf(stderr, "rxbench: --domains=%zu: %s has only %zu "
			"selectors\n", n, r->cfg->policy_path, fp->n);
	else
		fprintf(stderr, "rxbench: --domains=%zu: %s has only %zu "
			"rules.dns and %zu toFQDNs selectors\n", n,
			r->cfg->policy_path, fp->l7.n, fp->l3.n);
	return 1;
}

/*
 * The policies of size n: generated (one list in both sets), or the first
 * n selectors of each set of --policy (a set with fewer keeps them
 * all; n beyond both is an error): z->policy the DNS proxy's
 * (rules.dns), z->policy_l3 the name manager's (toFQDNs).  A file with
 * no rules.dns gives the proxy nothing: the proxy's strategies are then
 * unsupported (size_init), and the query sets come from toFQDNs.
 */
static int size_policy(const struct fqdn_run *r, struct fqdn_size *z,
		       size_t n, int explicit_n)
{
	int rc;

	fqdn_policy_init(&z->policy);
	fqdn_policy_init(&z->policy_l3);
	z->policy.cilium = z->policy_l3.cilium = r->cfg->cilium;
	z->policy.l7_selectors = r->cfg->l7_selectors;
	if (r->cfg->policy_path == NULL) {
		rc = size_generate(r, z, n);
		return rc != 0 ? rc
			       : fqdn_policy_select(&z->policy, FQDN_SET_ALL,
						    &z->policy_l3);
	}
	fqdn_policy_release(&z->policy);
	fqdn_policy_release(&z->policy_l3);
	z->from_file = r->file_policy.l3.n != r->file_policy.n ||
		       r->file_policy.l7.n != r->file_policy.n;
	if (explicit_n && size_too_big(r, n))
		return -1;
	if (size_select(r, FQDN_SET_L7, n, explicit_n, &z->policy) != 0 ||
	    size_select(r, FQDN_SET_L3, n, explicit_n, &z->policy_l3) != 0)
		return -1;
	z->policy.cilium = z->policy_l3.cilium = r->cfg->cilium;
	z->policy.l7_selectors = z->policy_l3.l7_selectors =
		r->cfg->l7_selectors;
	return 0;
}

/* The library the proxy of --cilium unpacks with (corpora/dns_wire.h). */
static enum dns_wire_lib wire_lib(const struct fqdn_config *c)
{
	return c->cilium == FQDN_CILIUM_1_11 ? DNS_WIRE_MIEKG_1_1_8
					     : DNS_WIRE_MIEKG_1_1_50;
}

/* Say why query i of `where` (a file when from_file, else a generated
 * set) cannot reach the proxy: status rc of dns_wire_round_trip. */
static void wire_refused(const char *where, int from_file, size_t i,
			 const char *name, size_t len, int rc, size_t detail)
{
	char q[4 * FQDN_NAME_MAX + 64], why[256];

	msg_escape_bytes(name, len, q, sizeof(q));
	dns_wire_explain(rc, detail, why, sizeof(why));
	if (from_file)
		fprintf(stderr, "rxbench: %s:%zu: query '%s' cannot be sent "
			"(--query-form=wire): %s\n", where, i + 1, q, why);
	else
		fprintf(stderr, "rxbench: --query-form=wire: generated %s "
			"query '%s' cannot be sent: %s\n", where, q, why);
}

/*
 * --query-form=wire: each query of q becomes the name the proxy's DNS
 * library unpacks from it as a client packs it (dns_wire_round_trip),
 * once, before any verdict or timing.  0, or -1 (a query that cannot be
 * sent, said on stderr by wire_refused; out of memory).
 */
static int queries_to_wire(const struct fqdn_config *c, struct fqdn_queries *q,
			   const char *where, int from_file)
{
	struct fqdn_queries w;
	char out[DNS_WIRE_TEXT_MAX + 1];
	int rc = 0;

	fqdn_queries_init(&w);
	for (size_t i = 0; i < q->n && rc == 0; i++) {
		size_t olen = 0, detail = 0;
		rc = dns_wire_round_trip(q->name[i], q->len[i], wire_lib(c),
					 out, &olen, &detail);
		if (rc != DNS_WIRE_OK)
			wire_refused(where, from_file, i, q->name[i],
				     q->len[i], rc, detail);
		else
			rc = fqdn_queries_add(&w, out, olen);
	}
	if (rc != 0) {
		fqdn_queries_release(&w);
		return -1;
	}
	fqdn_queries_release(q);
	*q = w;
	return 0;
}

/* The policy the query sets are drawn from: the proxy's, or the name
 * manager's when the proxy has none (a CNP with toFQDNs only). */
static const struct fqdn_policy *size_proxy_or_l3(const struct fqdn_size *z)
{
	return z->policy.n > 0 ? &z->policy : &z->policy_l3;
}

/* The query sets of z: generated, then --queries. */
static int size_queries(const struct fqdn_run *r, struct fqdn_size *z)
{
	const struct fqdn_queries *fq = &r->file_queries;
	size_t off = 0;

	for (size_t k = 0; k < FQDN_NSETS; k++) {
		struct fqdn_queries *q = &z->q[k];
		fqdn_queries_init(q);
		if (k < FQDN_Q_COUNT &&
		    fqdn_queries_generate(q, size_proxy_or_l3(z),
					  (enum fqdn_qset)k, r->cfg->seed) != 0)
			return -1;
		if (k < FQDN_Q_COUNT && r->cfg->query_wire &&
		    queries_to_wire(r->cfg, q, fqdn_qset_name((enum fqdn_qset)k),
				    0) != 0)
			return -1;
		for (size_t i = 0; k == FQDN_Q_COUNT && i < fq->n; i++)
			if (fqdn_queries_add(q, fq->name[i], fq->len[i]) != 0)
				return -1;
		z->sets[k] = (struct fqdn_set){
			fqdn_phase_name((enum fqdn_phase)(PH_MATCH_FIRST + k)), q};
		z->off[k] = off;
		off += q->n;
	}
	return 0;
}

/* The policy strategy s works on: the name manager's or the proxy's. */
static const struct fqdn_policy *strategy_policy(const struct fqdn_size *z,
						 const struct fqdn_strategy *s)
{
	return (s->flags & FQDN_S_L3) ? &z->policy_l3 : &z->policy;
}

/* s's regexes and name set of z into b, or why it cannot run: its
 * component's set of the policy is empty.  0, or -1 out of memory. */
static int size_generate_strategy(const struct fqdn_size *z,
				  const struct fqdn_strategy *s,
				  struct fqdn_built *b)
{
	const struct fqdn_policy *p = strategy_policy(z, s);

	if (p->n > 0)
		return fqdn_generate(s, p, b);
	memset(b, 0, sizeof(*b));
	b->unsupported = (s->flags & FQDN_S_L3)
		? "the policy has no toFQDNs selector: Cilium's name manager "
		  "selects nothing (rules.dns is the DNS proxy's: every other "
		  "strategy runs it)"
		: "the policy has no rules.dns selector: Cilium's DNS proxy "
		  "holds no rule (toFQDNs is the name manager's: cilium-l3 "
		  "and map+cilium-l3 run it)";
	return 0;
}

/* Inputs of one size, and every strategy's generated regex and set. */
static int size_init(const struct fqdn_run *r, struct fqdn_size *z, size_t n,
		     int explicit_n)
{
	z->domains = n;
	if (size_policy(r, z, n, explicit_n) != 0)
		return -1;
	z->domains = size_proxy_or_l3(z)->n;
	if (size_queries(r, z) != 0)
		return -1;
	z->built = calloc(fqdn_nstrategies, sizeof(*z->built));
	z->valid = malloc(fqdn_nstrategies);
	if (z->built == NULL || z->valid == NULL)
		return -1;
	memset(z->valid, -1, fqdn_nstrategies);
	z->strategies = r->cfg->strategies;
	for (size_t i = 0; i < fqdn_nstrategies; i++)
		if ((z->strategies & (1u << i)) &&
		    size_generate_strategy(z, &fqdn_strategies[i],
					   &z->built[i]) != 0)
			return -1;
	return 0;
}

static void size_release(struct fqdn_size *z)
{
	fqdn_eps_release_all(z);
	case_table_release(&z->table); /* the compiled regexes */
	for (size_t i = 0; i < z->ncases; i++) {
		free(z->cases[i].buf);
		free(z->cases[i].win);
		free(z->cases[i].wnames);
	}
	free(z->cases);
	if (z->at != NULL)
		munmap(z->at, z->maxcases * sizeof(*z->at));
	for (size_t k = 0; k < FQDN_NSETS; k++)
		fqdn_queries_release(&z->q[k]);
	for (size_t i = 0; z->built != NULL && i < fqdn_nstrategies; i++)
		fqdn_built_release(&z->built[i]);
	free(z->built);
	free(z->valid);
	fqdn_policy_release(&z->policy);
	fqdn_policy_release(&z->policy_l3);
}

static int case_has_engine(const struct fqdn_case *c)
{
	return c->e != NULL;
}

/* "FQDN/phase=P/strategy=S/engine=E[/domains=N]"; phase NULL leaves it out. */
static void case_name(const struct fqdn_case *c, const char *phase, char *buf,
		      size_t size)
{
	char dom[32] = "";

	if (c->sz->named)
		snprintf(dom, sizeof(dom), "/domains=%zu", c->sz->domains);
	snprintf(buf, size, "FQDN%s%s/strategy=%s/engine=%s%s",
		 phase ? "/phase=" : "", phase ? phase : "", c->s->name,
		 case_has_engine(c) ? engine_bench_name(c->e) : "none", dom);
}

/* The verdict of case c on query q: 1 allowed, 0 denied, <0 engine error. */
static int case_allows(struct fqdn_case *c, const char *q, size_t len)
{
	return fqdn_decide(c->s, c->built, c->e, c->h, q, len, c->buf);
}

/* Compile c's regexes on its engine.  0, or a negative engine status. */
static int case_compile(const struct fqdn_case *c, const struct fqdn_built *b,
			void **h, struct engine_error *err)
{
	return fqdn_regex_compile(c->s, b, c->e, h, err);
}

static void case_free(const struct fqdn_case *c, void *h)
{
	fqdn_regex_free(c->s, c->e, h);
}

/* --- the timed ops (run by the harness; no clock here) --- */

static int run_generate(void *arg, uint64_t n)
{
	struct fqdn_case *c = ((struct fqdn_op *)arg)->c;
	struct fqdn_built b;

	for (uint64_t i = 0; i < n; i++) {
		if (fqdn_generate(c->s, strategy_policy(c->sz, c->s), &b) != 0)
			return ENGINE_ERR_NOMEM;
		fqdn_built_release(&b);
	}
	return 0;
}

static int run_compile(void *arg, uint64_t n)
{
	struct fqdn_case *c = ((struct fqdn_op *)arg)->c;
	struct engine_error err;
	void *h;

	for (uint64_t i = 0; i < n; i++) {
		int rc = case_compile(c, c->built, &h, &err);
		if (rc != 0)
			return rc;
		case_free(c, h);
	}
	return 0;
}

/* Generate, then compile when the strategy has an engine. */
static int combined_once(struct fqdn_case *c, struct fqdn_built *b, void **h)
{
	struct engine_error err;
	int rc;

	*h = NULL;
	if (fqdn_generate(c->s, strategy_policy(c->sz, c->s), b) != 0)
		return ENGINE_ERR_NOMEM;
	if (!case_has_engine(c))
		return 0;
	rc = case_compile(c, b, h, &err);
	if (rc != 0)
		fqdn_built_release(b);
	return rc;
}

static int run_combined(void *arg, uint64_t n)
{
	struct fqdn_case *c = ((struct fqdn_op *)arg)->c;
	struct fqdn_built b;
	void *h;

	for (uint64_t i = 0; i < n; i++) {
		int rc = combined_once(c, &b, &h);
		if (rc != 0)
			return rc;
		case_free(c, h);
		fqdn_built_release(&b);
	}
	return 0;
}

/* What a match op reads: the case, its query set and their verdicts. */
struct match_arg {
	struct fqdn_case *c;
	const struct fqdn_queries *q;
	const unsigned char *want;
};

/* Query j of the set: 0, or ENGINE_ERR_MATCH when its verdict differs
 * from the verified one, or the engine's negative status. */
static long match_op(void *arg, size_t j)
{
	const struct match_arg *m = arg;
	int v = case_allows(m->c, m->q->name[j], m->q->len[j]);

	if (v < 0)
		return v;
	return v != m->want[j] ? ENGINE_ERR_MATCH : 0;
}

/* One query per op, cycling over the set (suites/cycle.h). */
static int run_match(void *arg, uint64_t n)
{
	struct fqdn_op *op = arg;
	struct fqdn_case *c = op->c;
	size_t k = (size_t)(op->phase - PH_MATCH_FIRST);
	struct match_arg m = {c, &c->sz->q[k], c->want + c->sz->off[k]};

	return cycle_run(0, m.q->n, &op->next, n, match_op, &m, NULL);
}

/* B(heap)/op: what one generate / compile / both keeps. */
static int retain_op(void *arg)
{
	struct fqdn_op *op = arg;
	struct fqdn_case *c = op->c;
	struct engine_error err;

	memset(&c->kept, 0, sizeof(c->kept));
	c->kept_h = NULL;
	if (op->phase == PH_GENERATE)
		return fqdn_generate(c->s, strategy_policy(c->sz, c->s),
				     &c->kept) != 0
			       ? ENGINE_ERR_NOMEM
			       : 0;
	if (op->phase == PH_COMPILE)
		return case_compile(c, c->built, &c->kept_h, &err);
	return combined_once(c, &c->kept, &c->kept_h);
}

static void release_op(void *arg)
{
	struct fqdn_case *c = ((struct fqdn_op *)arg)->c;

	if (c->kept_h != NULL)
		case_free(c, c->kept_h);
	c->kept_h = NULL;
	fqdn_built_release(&c->kept);
}

/* Phases this case times. */
static int case_has_phase(const struct fqdn_case *c, enum fqdn_phase ph)
{
	int trie = (c->s->flags & FQDN_S_TRIE) != 0;

	if (ph == PH_UPDATE) /* an endpoints case's (fqdn_eps) */
		return 0;
	if (ph == PH_GENERATE)
		return !case_has_engine(c);
	if (ph == PH_COMPILE)
		return case_has_engine(c) && c->built->nre > 0;
	if (ph == PH_COMBINED) /* an engine that times itself (a runner,
				  compiling in its own process) times no
				  generate of the strategy's */
		return trie || (case_has_engine(c) && c->built->nre > 0 &&
				!engine_self_timed(c->e));
	if (!trie && !case_has_engine(c))
		return 0;
	return c->sz->q[ph - PH_MATCH_FIRST].n > 0;
}

/* b's op for phase op->phase (no name, suite or verification). */
static void op_fill(struct fqdn_op *op, struct bench *b)
{
	static int (*const run[])(void *, uint64_t) = {
		run_generate, run_compile, run_combined};

	b->run = op->phase < PH_MATCH_FIRST ? run[op->phase] : run_match;
	if (op->phase < PH_MATCH_FIRST) {
		b->retain = retain_op;
		b->release = release_op;
	}
	b->arg = op;
	if (op->phase >= PH_MATCH_FIRST) /* an op is a query: warm on all */
		b->pass_n = op->c->sz->q[op->phase - PH_MATCH_FIRST].n;
	b->extra[0] = (struct bench_metric){"domains", BETTER_EXACT,
					   (double)strategy_policy(op->c->sz,
								   op->c->s)->n};
	b->nextra = 1;
}

/* --- the case pipeline's operations (suites/case.h) --- */

/* 1 when every regex of strategy i parses in the reference (computed once). */
static int built_valid(struct fqdn_size *z, size_t i)
{
	const struct fqdn_built *b = &z->built[i];
	char why[256];

	if (z->valid[i] >= 0)
		return z->valid[i];
	z->valid[i] = 1;
	for (size_t k = 0; k < b->nre && z->valid[i]; k++) {
		struct ref_regex *r = NULL;
		int rc = ref_compile(b->re[k], b->relen[k], 0, &r, why,
				     sizeof(why));
		if (rc == REF_OK)
			ref_free(r);
		z->valid[i] = rc == REF_OK || rc == REF_OUT_OF_REACH;
	}
	return z->valid[i];
}

/*
 * Why c's regex did not compile, into why; the status of its row.  The
 * regexes are built from checked selectors with syntax every engine
 * claims, so when the reference parser reads them (valid syntax, whatever
 * engines ran), a rejection is this engine's limit (pattern size:
 * Hyperscan's 16,000 bytes, PCRE2's 64 KiB link size; TRE's fixed compile
 * stack, which it reports as REG_ESPACE "out of memory"): unsupported.
 * Otherwise it is an error.
 */
static int compile_failure(struct fqdn_case *c, int rc,
			   const struct engine_error *err, char *why,
			   size_t size)
{
	const struct fqdn_built *b = c->built;
	int limit = (rc == ENGINE_ERR_COMPILE || rc == ENGINE_ERR_NOMEM) &&
		    built_valid(c->sz, (size_t)(c->s - fqdn_strategies));
	char what[64];

	if ((c->s->op == FQDN_OP_FIRST || c->s->op == FQDN_OP_ALL) &&
	    err->pattern >= 0 && (size_t)err->pattern < b->nre)
		snprintf(what, sizeof(what), "regex %ld of %zu (%zu bytes)",
			 err->pattern + 1, b->nre, b->relen[err->pattern]);
	else if (b->nre == 1)
		snprintf(what, sizeof(what), "regex of %zu bytes", b->relen[0]);
	else
		snprintf(what, sizeof(what), "set of %zu regexes", b->nre);
	snprintf(why, size, "%s: %s: %s (pattern %ld, offset %ld)%s", what,
		 engine_status_name(rc), err->msg, err->pattern, err->offset,
		 limit ? "; valid syntax (the reference parses it): a limit of "
			 "this engine"
		       : "");
	return limit ? ENGINE_ERR_UNSUPPORTED : rc;
}

/*
 * The case's regex on its engine: no handle for a map strategy without a
 * matchPattern, nor for the trie (built with its size).
 */
static int fqdn_compile(void *arg, const struct case_item *c, void **h,
			char *why, size_t size)
{
	struct fqdn_case *fc = c->arg;
	struct engine_error err = {0, -1, -1, ""};
	int rc;

	(void)arg;
	*h = NULL;
	if (!case_has_engine(fc))
		return 0;
	rc = fqdn_engine_timeable(fc->e, why, size);
	if (rc != 0)
		return rc;
	if (engine_self_timed(fc->e) && fc->built->nre == 0)
		rc = fc->e->compile(NULL, 0, 0, h, &err); /* the map alone */
	else
		rc = case_compile(fc, fc->built, h, &err);
	return rc == 0 ? 0 : compile_failure(fc, rc, &err, why, size);
}

static int work_answer(const struct fqdn_size *z, struct fqdn_case *c,
		       void *h, unsigned char *out);

static int fqdn_case_answer(void *arg, const struct case_item *c, void *out)
{
	const struct fqdn_size *z = arg;
	struct fqdn_case *fc = c->arg;

	if (fc->e != NULL && fc->e->work_values != NULL) {
		z->at[fc - z->cases] = 0; /* the work is all of them */
		return work_answer(z, fc, c->h, out);
	}
	return fqdn_answer(fc->s, fc->built, fc->e, c->h, z->sets, FQDN_NSETS,
			   fc->buf, out, &z->at[fc - z->cases]);
}

/* The reference's verdicts on the selectors of c's Cilium component: the
 * same for every case of the size and class (add_case). */
static int fqdn_case_expect(void *arg, const struct case_item *c, void *out,
			    char *by, size_t size)
{
	const struct fqdn_size *z = arg;
	const struct fqdn_strategy *s = ((const struct fqdn_case *)c->arg)->s;
	const struct fqdn_policy *p = strategy_policy(z, s);
	int l3 = (s->flags & FQDN_S_L3) != 0;
	struct fqdn_ref r;
	int rc;

	snprintf(by, size, "reference, Cilium v%s's rules%s",
		 fqdn_cilium_name(p->cilium),
		 l3 ? " on the name manager's toFQDNs" : "");
	if ((l3 ? fqdn_ref_init_name_manager(&r, p) : fqdn_ref_init(&r, p)) != 0)
		return CASE_REF_ERROR;
	rc = fqdn_expect(&r, z->sets, FQDN_NSETS, out);
	fqdn_ref_release(&r);
	return rc == 0 ? CASE_REF_OK : CASE_REF_ERROR;
}

/* The query the verifying child was asking (an engine error, a timeout,
 * a crash), from the memory it shares with this process. */
static void fqdn_failed(void *arg, const struct case_item *c, char *buf,
			size_t size)
{
	const struct fqdn_size *z = arg;
	const struct fqdn_case *fc = c->arg;
	char q[4 * FQDN_NAME_MAX + 64];

	fqdn_query_text(z->sets, FQDN_NSETS, z->at[fc - z->cases], q, sizeof(q));
	snprintf(buf, size, "on %s", q);
}

/*
 * Whether verified case c asks its queries once in this process before
 * timing: only to read the engine's note (re2: did its DFA run out of
 * memory?), which says something only of the engine's own handle (one
 * regex or a set; FIRST and ALL keep a struct fqdn_each of handles).
 * It warms nothing the timing needs: every measuring child runs whole
 * passes over its query set before it times (harness/bench.h), so what
 * an engine learns lazily (RE2's DFA states) it learns there.
 */
static int case_looks(const struct fqdn_case *c)
{
	return c->h != NULL && c->e->note != NULL &&
	       (c->s->op == FQDN_OP_ONE || c->s->op == FQDN_OP_SET);
}

/*
 * Ask verified case c every query once, here, in ENGINE_PHASE_WARM, and
 * keep the engine's note on what it saw.  Safe to run in this process:
 * the verifying child just gave each of these answers within --timeout
 * without crashing.
 */
static void case_warm(struct fqdn_case *c)
{
	engine_phase = ENGINE_PHASE_WARM; /* the engine may look closer */
	for (size_t k = 0; k < FQDN_NSETS && !interrupt_signal(); k++) {
		const struct fqdn_queries *q = &c->sz->q[k];
		for (size_t i = 0; i < q->n; i++)
			(void)case_allows(c, q->name[i], q->len[i]);
	}
	engine_phase = ENGINE_PHASE_PARENT;
	if (c->e->note(c->h, c->note, sizeof(c->note)) > 0) {
		char name[256];
		case_name(c, NULL, name, sizeof(name));
		fprintf(stderr, "rxbench: %s: %s\n", name, c->note);
	}
}

/*
 * What an engine that times itself is asked in case c's match phases:
 * every query as it is, in set order (the engine's op rewrites it, looks
 * it up in the name set, then asks the regex, as Cilium's proxy
 * lowercases, then its map, then regexp.MatchString), and the name set.
 * Built once per case.  0, or -1 out of memory.
 */
static int work_inputs(const struct fqdn_size *z, struct fqdn_case *c)
{
	const struct strset *names = &c->built->names;

	if (c->win != NULL)
		return 0;
	if (c->wnames == NULL)
		c->wnames = calloc(names->n ? names->n : 1, sizeof(*c->wnames));
	if (c->wnames == NULL || fqdn_queries_all(z, &c->win) != 0)
		return -1;
	for (size_t i = 0; i < names->n; i++)
		c->wnames[i].p = strset_key(names, i, &c->wnames[i].len);
	return 0;
}

/*
 * The work of case c (compiled as *h) on n queries from `in`: the
 * strategy's op, one query per op, each rewritten as the strategy
 * rewrites it (suites/fqdn_runner.h), looked up in the name set first.
 * _ALL asks every regex (match_ids), the others stop at the first that
 * matches (is_match).
 */
static struct engine_work query_work(const struct fqdn_case *c,
				     void *const *h,
				     const struct engine_span *in, size_t n)
{
	enum engine_op op = c->s->op == FQDN_OP_ALL ? ENGINE_OP_MATCH_IDS
						    : ENGINE_OP_IS_MATCH;

	return (struct engine_work){.op = op, .each = 1, .sets = h, .nsets = 1,
				    .inputs = in, .ninputs = n,
				    .names = c->wnames,
				    .nnames = c->built->names.n,
				    .rewrite = fqdn_runner_rewrite(c->s)};
}

/*
 * The verdicts of an engine that computes a work's values itself: its
 * timed op's values on every query, in one call, so the rewrite, the
 * name set and the regex verified are the ones timed.
 */
static int work_answer(const struct fqdn_size *z, struct fqdn_case *c,
		       void *h, unsigned char *out)
{
	size_t total = fqdn_total(z->sets, FQDN_NSETS);
	long *v = malloc((total ? total : 1) * sizeof(*v));
	struct engine_work w;
	char why[256];
	int rc = v == NULL || work_inputs(z, c) != 0 ? ENGINE_ERR_NOMEM : 0;

	if (rc == 0) {
		w = query_work(c, &h, c->win, total);
		rc = engine_work_values(c->e, &w, v, why, sizeof(why));
		if (rc != 0)
			fprintf(stderr, "rxbench: %s\n", why);
	}
	for (size_t j = 0; rc == 0 && j < total; j++)
		out[j] = v[j] != 0;
	free(v);
	return rc;
}

/*
 * What op times, as data (case_bench_work): the compile phases compile
 * the regexes again, a query set's phase asks each of its queries.  An
 * engine the harness's clock times needs none of it.
 */
static int work_fill(const struct fqdn_size *z, struct fqdn_op *op,
		     struct bench *b)
{
	struct fqdn_case *c = op->c;
	static const struct engine_span none = {"", 0};
	struct engine_work w = {.op = ENGINE_OP_COMPILE, .sets = &c->h,
				.nsets = 1, .inputs = &none, .ninputs = 1};
	size_t k = (size_t)(op->phase - PH_MATCH_FIRST);

	if (c->e == NULL || !engine_self_timed(c->e))
		return 0;
	if (op->phase >= PH_MATCH_FIRST) {
		if (work_inputs(z, c) != 0)
			return -1;
		w = query_work(c, &c->h, c->win + z->off[k], z->q[k].n);
	}
	return case_bench_work(b, c->e, c->h, &w);
}

/* Phase op->phase of a verified case (b->arg is op); its note first. */
static int fqdn_bench(void *arg, struct case_item *c, const void *answer,
		      struct bench *b)
{
	const struct fqdn_size *z = arg;
	struct fqdn_op *op = b->arg;
	struct fqdn_case *fc = op->c;

	fc->h = c->h;
	fc->want = answer;
	if (!fc->warm && case_looks(fc))
		case_warm(fc);
	fc->warm = 1;
	op_fill(op, b);
	if (op->phase >= PH_MATCH_FIRST && fc->note[0] != '\0' &&
	    (b->note = strdup(fc->note)) == NULL)
		return -1;
	if (op->phase == PH_QUERIES)
		b->extra[b->nextra++] = (struct bench_metric){
			"allowed", BETTER_EXACT,
			(double)fqdn_answer_allowed(z, answer, FQDN_Q_COUNT)};
	return work_fill(z, op, b);
}

static void fqdn_release(void *arg, struct case_item *c)
{
	(void)arg;
	case_free(c->arg, c->h);
}

static const struct case_ops fqdn_ops = {
	.compile = fqdn_compile,
	.answer = fqdn_case_answer,
	.failed = fqdn_failed,
	.expect = fqdn_case_expect,
	.describe = fqdn_size_describe,
	.explain = fqdn_size_explain,
	.bench = fqdn_bench,
	.release = fqdn_release,
};

/* --- the case tables --- */

/*
 * Plan the generate phase of a regex strategy (engine=none), when --bench
 * selects it: not a case (see the top of the file).  0, or -1 out of
 * memory.
 */
static int plan_generate(struct suite_ctx *ctx, struct fqdn_case *c)
{
	struct fqdn_op *op = &c->op[PH_GENERATE];
	struct bench b = {0};
	char name[256];

	case_name(c, fqdn_phase_name(PH_GENERATE), name, sizeof(name));
	if (!suite_wants(ctx, name))
		return 0;
	*op = (struct fqdn_op){c, PH_GENERATE, 0};
	op_fill(op, &b);
	b.name = strdup(name);
	b.suite = "fqdn";
	if (b.name == NULL || result_inputs_merge(&b.in, &c->sz->table.in) ||
	    plan_add(ctx->plan, &b) != 0) {
		free(b.name);
		result_inputs_release(&b.in);
		return -1;
	}
	return 0;
}

/* Case c into z's table, one benchmark per phase it times. */
static int add_case(struct fqdn_size *z, struct fqdn_case *c)
{
	const char *engine = case_has_engine(c) ? c->e->name : "none";
	const char *gate = c->built->unsupported;
	char name[256], label[128];
	size_t n = 0;

	if (gate == NULL && (c->s->flags & FQDN_S_MULTI) &&
	    !engine_set_native(c->e))
		gate = "needs a native multi-pattern set";
	for (int ph = 0; ph < PH_COUNT; ph++)
		n += case_has_phase(c, (enum fqdn_phase)ph);
	if (n == 0)
		return 0; /* nothing to time: nothing to verify */
	case_name(c, NULL, name, sizeof(name));
	snprintf(label, sizeof(label), "%s: strategy %s, %zu domains", engine,
		 c->s->name, strategy_policy(z, c->s)->n);
	/* class 1: the name manager's, verified on its own selectors */
	if (case_add(&z->table, name, label, c->e, 0, gate, 0,
		     (c->s->flags & FQDN_S_L3) ? 1 : 0, c) != 0)
		return -1;
	for (int ph = 0; ph < PH_COUNT; ph++) {
		if (!case_has_phase(c, (enum fqdn_phase)ph))
			continue;
		c->op[ph] = (struct fqdn_op){c, (enum fqdn_phase)ph, 0};
		case_name(c, fqdn_phase_name((enum fqdn_phase)ph), name, sizeof(name));
		if (case_add_bench(&z->table, name, &c->op[ph]) != 0)
			return -1;
	}
	return 0;
}

/*
 * The engine x strategy pairs a default run (no --engines and no
 * --strategies: make bench) leaves out, the costliest to verify and time
 * at 500 selectors: pcre2-dfa, tre and boost keep only map+reverse+sort
 * (the seed's fastest: their other strategies answer in up to 1.1 ms a
 * query, each verified, then warmed, over 2,000 queries), go leaves out
 * its two slowest (up to 1.9 ms a query) and hyperscan the sets it
 * compiles in 0.4 to 0.6 s each.  Together they took
 * 62 s of CPU of the suite's 148, which put make bench over five minutes.
 * Cilium's own shapes in the default run add as much again: on
 * pcre2-dfa and tre cilium-l7 answers in 140 to 180 us a query and
 * map+cilium-l7 in 74 to 117 us, and hyperscan compiles map+cilium-l7's
 * set in 0.29 s; they go too (go keeps both: it is what Cilium runs).
 * Naming engines (--engines) or strategies (--strategies, all) runs
 * them.  docs/fqdn.md says the same.
 */
#define FQDN_SLOW_BUT_ONE(e)                                                 \
	{e, "baseline"}, {e, "baseline-optimized"}, {e, "reverse"},          \
	{e, "reverse+sort"}, {e, "map+baseline"}, {e, "map+optimized"},      \
	{e, "cilium-l7"}, {e, "map+cilium-l7"}
static const struct {
	const char *engine, *strategy;
} fqdn_slow[] = {
	FQDN_SLOW_BUT_ONE("pcre2-dfa"),
	FQDN_SLOW_BUT_ONE("tre"),
	FQDN_SLOW_BUT_ONE("boost"),
	{"go", "baseline"},
	{"go", "map+baseline"},
	{"hyperscan", "map+baseline"},
	{"hyperscan", "map+optimized"},
	{"hyperscan", "map+reverse+sort"},
	{"hyperscan", "map+cilium-l7"},
};

/* Is engine e on strategy s a pair a default run leaves out? */
static int fqdn_is_slow(const struct engine *e, const struct fqdn_strategy *s)
{
	for (size_t i = 0; i < sizeof(fqdn_slow) / sizeof(fqdn_slow[0]); i++)
		if (strcmp(fqdn_slow[i].engine, e->name) == 0 &&
		    strcmp(fqdn_slow[i].strategy, s->name) == 0)
			return 1;
	return 0;
}

/* "go x baseline, ..." of the pairs left out that this run has. */
static void fqdn_left_out(const struct suite_ctx *ctx, char *buf, size_t size)
{
	size_t at = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < sizeof(fqdn_slow) / sizeof(fqdn_slow[0]); i++)
		for (size_t j = 0; j < ctx->nengines && at < size; j++)
			if (strcmp(ctx->engines[j]->name, fqdn_slow[i].engine) == 0)
				at += (size_t)snprintf(buf + at, size - at, "%s%s x %s",
						       at ? ", " : "",
						       fqdn_slow[i].engine,
						       fqdn_slow[i].strategy);
}

/*
 * Whether a default run leaves the slow pairs out (fqdn_slow), and when
 * it does, say which (once per run): on stderr and in the results.
 */
static int fqdn_lean(struct suite_ctx *ctx, const struct fqdn_config *cfg)
{
	char pairs[1024];

	if (!ctx->engines_default || cfg->strategies_named)
		return 0;
	fqdn_left_out(ctx, pairs, sizeof(pairs));
	if (pairs[0] != '\0' && ctx->list == NULL) {
		results_meta_set(ctx->results, "fqdn-left-out", pairs);
		fprintf(stderr, "rxbench: fqdn: a default run leaves out its "
			"slowest engine x strategy pairs (--engines or "
			"--strategies runs them): %s\n", pairs);
	}
	return 1;
}

/* Strategy i at size z: engine none, then every engine (none for the trie). */
static int strategy_cases(struct suite_ctx *ctx, struct fqdn_size *z, size_t i)
{
	const struct fqdn_strategy *s = &fqdn_strategies[i];
	size_t ne = (s->flags & FQDN_S_TRIE) ? 0 : ctx->nengines;

	if (!(z->strategies & (1u << i)))
		return 0;
	for (size_t j = 0; j <= ne; j++) {
		struct fqdn_case *c = &z->cases[z->ncases];
		if (j > 0 && z->lean && fqdn_is_slow(ctx->engines[j - 1], s))
			continue;
		*c = (struct fqdn_case){.sz = z, .s = s,
					.e = j ? ctx->engines[j - 1] : NULL,
					.built = &z->built[i]};
		z->ncases++;
		c->buf = malloc(fqdn_size_maxq(z) + 2);
		if (c->buf == NULL)
			return -1;
		if (j == 0 && !(s->flags & FQDN_S_TRIE)) {
			if (c->built->unsupported == NULL &&
			    plan_generate(ctx, c) != 0)
				return -1;
		} else if (add_case(z, c) != 0) {
			return -1;
		}
	}
	return 0;
}

/*
 * The cases of size z, strategy by strategy, through the pipeline.  0,
 * STATUS_INTERRUPTED, or -1 out of memory.
 */
/* What every case of z reads: the policy, the queries, the size, the seed. */
static int size_inputs(const struct fqdn_run *r, struct fqdn_size *z)
{
	char err[512], v[32];
	struct case_table *t = &z->table;

	snprintf(v, sizeof(v), "%zu", z->domains);
	if (case_table_input(t, "domains", v, strlen(v)) != 0)
		return -1;
	snprintf(v, sizeof(v), "%llu", (unsigned long long)r->cfg->seed);
	if (r->cfg->policy_path == NULL &&
	    (case_table_input(t, "seed", v, strlen(v)) != 0 ||
	     case_table_input(t, "generator", generator_name(r->cfg),
			      strlen(generator_name(r->cfg))) != 0))
		return -1;
	/* the semantics every verdict follows, and cilium-l7's selectors */
	snprintf(v, sizeof(v), "%zu", r->cfg->l7_selectors);
	if (case_table_input(t, "cilium", fqdn_cilium_name(r->cfg->cilium),
			     strlen(fqdn_cilium_name(r->cfg->cilium))) != 0 ||
	    case_table_input(t, "l7-selectors", v, strlen(v)) != 0)
		return -1;
	if ((r->cfg->policy_path != NULL &&
	     case_table_input_file(t, "policy", r->cfg->policy_path, err,
				   sizeof(err)) != 0) ||
	    (r->cfg->queries_path != NULL &&
	     case_table_input_file(t, "queries", r->cfg->queries_path, err,
				   sizeof(err)) != 0)) {
		fprintf(stderr, "rxbench: %s\n", err);
		return -1;
	}
	return 0;
}

static int size_plan(struct suite_ctx *ctx, const struct fqdn_run *r,
		     struct fqdn_size *z)
{
	size_t total = fqdn_total(z->sets, FQDN_NSETS);

	z->ops = fqdn_ops;
	z->ops.answer_size = total ? total : 1;
	case_table_init(&z->table, "fqdn", &z->ops, z);
	if (size_inputs(r, z) != 0)
		return -1;
	z->maxcases = fqdn_nstrategies * (ctx->nengines + 1);
	z->cases = calloc(z->maxcases, sizeof(*z->cases));
	z->at = mmap(NULL, z->maxcases * sizeof(*z->at), PROT_READ | PROT_WRITE,
		     MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (z->at == MAP_FAILED)
		z->at = NULL;
	if (z->cases == NULL || z->at == NULL)
		return -1;
	z->lean = r->lean;
	for (size_t i = 0; i < fqdn_nstrategies; i++)
		if (strategy_cases(ctx, z, i) != 0)
			return -1;
	return case_run(&z->table, ctx);
}

/* --- the run --- */

/*
 * A query is its line's bytes exactly, CR included (fqdn_policy.h); say
 * so once when a --queries file looks like CRLF text, since Cilium denies
 * every such name.
 */
static void note_crlf(const char *path, const struct fqdn_queries *q)
{
	size_t n = 0, first = 0;

	for (size_t i = q->n; i-- > 0;)
		if (q->len[i] > 0 && q->name[i][q->len[i] - 1] == '\r') {
			n++;
			first = i;
		}
	if (n > 0)
		fprintf(stderr, "rxbench: note: %s: %zu of %zu queries end with "
			"a CR (line %zu first; a CRLF file?): a query is its "
			"line's exact bytes, and Cilium denies a name with a "
			"CR\n", path, n, q->n, first + 1);
}

/* What Cilium's code accepts in the policy and its CRD would refuse (or
 * what rxbench reads otherwise than a glance says): on stderr, once. */
static void note_policy_warnings(const struct fqdn_policy *p)
{
	for (size_t i = 0; i < p->nwarnings; i++)
		fprintf(stderr, "rxbench: warning: %s\n", p->warnings[i]);
	if (p->nwarnings_total > p->nwarnings)
		fprintf(stderr, "rxbench: warning: and %zu more like them\n",
			p->nwarnings_total - p->nwarnings);
}

/* --policy, --queries and the TLD list: read once for all sizes. */
static int load_files(struct fqdn_run *r)
{
	char err[1024];

	fqdn_policy_init(&r->file_policy);
	fqdn_queries_init(&r->file_queries);
	r->file_policy.cilium = r->cfg->cilium; /* checked as it checks them */
	if (r->cfg->policy_path != NULL &&
	    fqdn_policy_load(&r->file_policy, r->cfg->policy_path, err,
			     sizeof(err)) != 0) {
		fprintf(stderr, "rxbench: --policy=%s\n", err);
		return -1;
	}
	note_policy_warnings(&r->file_policy);
	if (r->cfg->queries_path != NULL &&
	    fqdn_queries_load(&r->file_queries, r->cfg->queries_path, err,
			      sizeof(err)) != 0) {
		fprintf(stderr, "rxbench: --queries=%s\n", err);
		return -1;
	}
	note_crlf(r->cfg->queries_path, &r->file_queries);
	if (r->cfg->query_wire &&
	    queries_to_wire(r->cfg, &r->file_queries, r->cfg->queries_path,
			    1) != 0)
		return -1;
	r->ntlds = fqdn_tlds_load(FQDN_PSL_PATH, &r->tlds, &r->tlds_psl);
	return r->ntlds < 0 ? -1 : 0;
}

/* Run context the JSON file keeps: where the inputs came from. */
static void note_inputs(struct suite_ctx *ctx, const struct fqdn_run *r)
{
	char buf[512];

	if (r->cfg->policy_path != NULL)
		snprintf(buf, sizeof(buf), "%s (%zu selectors: %zu rules.dns, "
			 "%zu toFQDNs)", r->cfg->policy_path, r->file_policy.n,
			 r->file_policy.l7.n, r->file_policy.l3.n);
	else if (r->cfg->generator == FQDN_GEN_K8S)
		snprintf(buf, sizeof(buf), "generated Kubernetes-shaped, seed "
			 "%llu", (unsigned long long)r->cfg->seed);
	else if (r->cfg->generator == FQDN_GEN_CILIUM)
		snprintf(buf, sizeof(buf), "generated as Cilium's "
			 "Benchmark_perEPAllow_setPortRulesForID rules");
	else
		snprintf(buf, sizeof(buf), "generated, seed %llu, TLDs from %s "
			 "(%ld)", (unsigned long long)r->cfg->seed,
			 r->tlds_psl ? FQDN_PSL_PATH : "the built-in list",
			 r->ntlds);
	results_meta_set(ctx->results, "fqdn-policy", buf);
	results_meta_set(ctx->results, "fqdn-cilium",
			 fqdn_cilium_name(r->cfg->cilium));
	results_meta_set(ctx->results, "fqdn-query-form",
			 r->cfg->query_wire ? "wire" : "text");
	if (r->cfg->queries_path != NULL)
		results_meta_set(ctx->results, "fqdn-queries",
				 r->cfg->queries_path);
}

/* The policy of a size, in the results' context: what the verdict is
 * for ("500 (300 matchName, 200 matchPattern)"; sizes joined by "; "). */
static void note_size(struct suite_ctx *ctx, const struct fqdn_size *z)
{
	const char *old = results_config_get(ctx->results, "fqdn-selectors");
	const struct fqdn_policy *p = &z->policy, *l3 = &z->policy_l3;
	char buf[1024];
	int at;

	at = snprintf(buf, sizeof(buf), "%s%s", old ? old : "",
		      old ? "; " : "");
	if (z->from_file)
		snprintf(buf + at, sizeof(buf) - (size_t)at,
			 "%zu rules.dns (%zu matchName, %zu matchPattern: the "
			 "DNS proxy's), %zu toFQDNs (%zu matchName, %zu "
			 "matchPattern: the name manager's)",
			 p->n, p->nnames, p->npatterns, l3->n, l3->nnames,
			 l3->npatterns);
	else
		snprintf(buf + at, sizeof(buf) - (size_t)at,
			 "%zu (%zu matchName, %zu matchPattern)", p->n,
			 p->nnames, p->npatterns);
	results_meta_set(ctx->results, "fqdn-selectors", buf);
}

/* Free what fqdn_prepare() built (r may be partly built). */
static void fqdn_run_free(void *arg)
{
	struct fqdn_run *r = arg;

	for (size_t i = 0; i < r->nsizes; i++)
		size_release(&r->sz[i]);
	free(r->sz);
	fqdn_policy_release(&r->file_policy);
	fqdn_queries_release(&r->file_queries);
	fqdn_tlds_release(r->tlds, r->ntlds, r->tlds_psl);
	free(r);
}

/*
 * Build the inputs and run every size's cases through the pipeline.  The
 * run's state, or NULL when the input is unusable or memory ran out.
 */
static void *fqdn_prepare(struct suite_ctx *ctx, const void *cfg)
{
	const struct fqdn_config *c = cfg;
	struct fqdn_run *r = calloc(1, sizeof(*r));
	int explicit_n = c->nsizes > 0;
	size_t n = explicit_n ? c->nsizes : 1;

	if (r == NULL)
		return NULL;
	r->cfg = c;
	if (load_files(r) != 0)
		goto fail;
	note_inputs(ctx, r);
	r->lean = fqdn_lean(ctx, c);
	r->sz = calloc(n, sizeof(*r->sz));
	if (r->sz == NULL)
		goto fail;
	for (size_t i = 0; i < n && !interrupt_signal(); i++) {
		struct fqdn_size *z = &r->sz[r->nsizes++];
		int rc;
		z->named = n > 1;
		if (size_init(r, z, explicit_n ? c->sizes[i] : FQDN_DEFAULT_DOMAINS,
			      explicit_n) != 0)
			goto fail;
		note_size(ctx, z);
		rc = size_plan(ctx, r, z);
		if (rc == 0)
			rc = fqdn_eps_plan_all(ctx, z, c->endpoints,
					       c->nendpoints, c->seed,
					       c->strategies_named
						       ? c->strategies
						       : UINT32_MAX);
		if (rc == STATUS_INTERRUPTED)
			break; /* nothing more is planned: the run stops */
		if (rc != 0)
			goto fail;
	}
	return r;
fail:
	fqdn_run_free(r);
	return NULL;
}

/*
 * The report's verdict and tables (report/layout_decl.h): per match
 * phase (the user's --queries too, with how many the policy allows) the
 * fastest verified strategy x engine with what it costs to compile and
 * keep (the trie's build is its combined-compile), and a recommendation
 * under a compile-time and memory budget, in Cilium's terms: the best on
 * Go's regexp, the best on any engine, what the trie saves against both,
 * apart for the policy alone and per --endpoints count; compile and
 * per-query costs are never averaged together.  The name manager's
 * strategies (cilium-l3, map+cilium-l3: another component, on a CNP's
 * toFQDNs where the proxy's are on its rules.dns) are no contenders for
 * a proxy: their rows stay in the tables.  Then a table per phase and
 * the growth with the policy.
 */
static const char *const fqdn_layout[] = {
	"verdict by=phase,domains?,endpoints? who=strategy,engine metric=ns/op "
	"only=match-name,match-pattern,bad-match-pattern,bad-match-tld,queries "
	"show=allowed cost=phase:compile|combined-compile "
	"heap=B(heap)/op:16MiB budget=50ms "
	"apart=endpoints? hold=B(heap),B(heap)/endpoint op=query "
	"baseline=engine:go baseline-label='Go regexp, what Cilium runs' "
	"floor=strategy:trie floor-label='a purpose-built matcher, no regex "
	"engine' "
	"except=strategy:cilium-l3|map+cilium-l3 except-label='cilium-l3 and "
	"map+cilium-l3 model the name manager, another Cilium component, on "
	"the toFQDNs selectors' "
	"about=fqdn-selectors,fqdn-policy,fqdn-queries question='Which strategy and engine "
	"should a DNS proxy use for this policy?'",
	"table split=phase,domains?,endpoints? rows=strategy,engine "
	"metrics=ns/op,B/op,allocs/op,B(heap)/op,domains best=1",
	"table split=endpoints,domains? rows=strategy,engine cols=phase "
	"metrics=ns/op lead=B(heap),B(heap)/endpoint,nocache-B(heap),"
	"nocache-B(heap)/endpoint title='Endpoints: the memory Cilium would "
	"hold with its shared regex cache and without (nocache), and ns/op of "
	"policy-update and of a query on a random endpoint'",
	"growth size=domains keyunit=selectors",
	NULL,
};

const struct suite suite_fqdn = {
	.name = "fqdn",
	.desc = "Cilium DNS proxy: toFQDNs selectors as regex, name set, trie\n"
		"             (without --engines or --strategies it leaves out\n"
		"             its 30 slowest engine x strategy pairs to keep\n"
		"             make bench under 5 minutes: docs/fqdn.md)",
	.in_default = 1,
	.default_benchtime_ns = 100e6,
	.options = fqdn_options,
	.config_size = sizeof(struct fqdn_config),
	.config_init = fqdn_config_init,
	.prepare = fqdn_prepare,
	.layout = fqdn_layout,
	.cleanup = fqdn_run_free,
};

/*
 * payload_ruleset.h - the rule-set machinery of the payload suite's
 * rule scenarios (real-life, per-rule; suites/payload_ruleset.c): a rule
 * set loaded from --rules (or the built-in one), what its rules read
 * (--rules-target), its reference, its patterns grouped and compiled per
 * engine, the requests parsed from the packets, and each rule's expected
 * answer.  It names no scenario; the scenarios call it.
 */
#ifndef RXB_PAYLOAD_RULESET_H
#define RXB_PAYLOAD_RULESET_H

#include "suites/payload.h"

/*
 * Patterns with the same flags and, with --rules-target=variables, the
 * same variables and transformations: one compiled set per engine.
 */
struct rule_group {
	unsigned flags;
	const struct waf_spec *spec; /* what it reads; NULL: the packet */
	size_t *pat; /* indices into the rule set's patterns */
	size_t n;
};

/* An engine's compiled set of one group: local id k is pattern map[k]. */
struct eset {
	void *h;      /* NULL when the engine compiled none of the group */
	size_t *map;
	size_t n;
};

/* One engine's compiled rules, alive from prepare() to cleanup(). */
struct peng {
	const struct engine *e;
	int status;                    /* RESULT_OK, or why it runs none */
	char why[320];                 /* ... in words */
	struct eset *sets;             /* one per rule group */
	/* per flow mode (payload_mode; [0] unused): sets[g] compiled with
	 * compile_flow as fh[m][g] (sets[g].map applies), fh[m] NULL where
	 * the engine has no flow scan, or refused (fwhy[m] says why) */
	void **fh[PMODE_COUNT];
	char fwhy[PMODE_COUNT][320];
	unsigned char *ok;             /* per rule: all its patterns compiled */
	size_t nok;                    /* rules it runs */
	unsigned char *ids;            /* match_ids scratch (largest group) */
	unsigned char *hit;            /* per pattern: matched (scratch) */
	/* --rules-target=variables: transformed values */
	unsigned char *vids;           /* match_ids on one value (scratch) */
	struct waf_scratch ws;
};

/* The rule side of the suite's state. */
struct payload_rules {
	struct ruleset rs;
	int builtin;              /* rs is the built-in set: marks apply */
	struct rule_group *groups;
	size_t ngroups;
	/* the reference (suites/reference.h), by payload_rules_reference() */
	struct ref_regex **ref;   /* per pattern; NULL when out of its reach */
	unsigned char *by_ref;    /* per rule: every condition in its reach */
	unsigned char *dollar;    /* per rule: `$` outside multiline mode */
	unsigned char *ref_hit;   /* per pattern: one packet's answers */
	/* --rules-target (payload_rules_targets()) */
	int variables;            /* rules read the request's variables */
	struct waf_spec *spec;    /* per rule, when variables */
	unsigned char *has_spec;  /* per rule: spec[r] is what it reads (else
				     the whole packet) */
	char **skip;              /* per rule: why it cannot run; NULL: runs */
	size_t nskip;
	struct waf_scratch ws;    /* the reference's values */
};

/* The real-life scenario's state for a run (its scen_run's data). */
struct reallife {
	struct payload_rules pr;
	struct peng *eng;         /* per engine of the run */
	size_t neng;
};

/* "raw" or "variables": what pr runs. */
const char *payload_rules_target_name(const struct payload_rules *pr);

/*
 * Decide pr's target from t and read each ModSecurity rule's variables
 * and transformations (corpora/waf.h); a rule rxbench cannot run so gets
 * its reason in pr->skip.  0; -1 with a one-line message in err (variables
 * asked for rules that have none, or out of memory).
 */
int payload_rules_targets(struct payload_rules *pr, enum rules_target t,
			  char *err, size_t size);

/*
 * Unsupported rows for the rules pr->skip names, `name` a printf format
 * of the row's name taking the rule's name-safe text.
 */
void payload_rules_skipped(struct suite_ctx *ctx, const struct payload_rules *pr,
			   const char *name);

/*
 * Parse every packet of ss into ss->req when pr reads variables (once,
 * before anything is verified or timed: a WAF parses a request once,
 * whatever its rules).  0, or -1 out of memory.
 */
int payload_requests(struct scen_size *ss, const struct payload_rules *pr);

/* Packet i's request at ss, or NULL (raw rules, or not a request).
 * Inline: the rule ops call it in their timed loops. */
static inline const struct http_req *payload_req(const struct scen_size *ss,
						 size_t i)
{
	return ss->req != NULL && ss->is_req[i] ? &ss->req[i] : NULL;
}

/*
 * Whether pattern k of pr matches packet p (q its request, or NULL) by
 * `match` on each value it reads (or on the packet): 1, 0, or <0 from
 * match.  s: scratch for transformed values.
 */
int payload_pattern_on(const struct payload_rules *pr, size_t k,
		       const struct packet *p, const struct http_req *q,
		       struct waf_scratch *s,
		       int (*match)(void *arg, const char *v, size_t n),
		       void *arg);

/*
 * The reference's answer for rule r of pr (pr->by_ref[r]) on packet p, q
 * its request or NULL: what payload_rule_expect() takes as expected (for
 * tests/modsec_ref_cli.c).  1, 0, or -1 out of memory.
 */
int payload_rule_ref(struct payload_rules *pr, size_t r, const struct packet *p,
		     const struct http_req *q);

/*
 * The expected answer of rule r on pk: its packets as bits (bits[i / 8]
 * bit i % 8, zeroed by the caller) and *count.  BY_VOTE (the rule out of
 * the reference's reach: nothing filled), else what filled them, or -1
 * out of memory.
 */
enum payload_expect_by { PAYLOAD_BY_PLANTED, PAYLOAD_BY_REFERENCE,
			 PAYLOAD_BY_VOTE };
int payload_rule_expect(struct payload_rules *pr, const struct scen_size *ss,
			size_t r, unsigned char *bits, size_t *count);

/*
 * Group rs's patterns by flags (and what they read).  0, or -1 out of
 * memory.
 */
int payload_rules_group(struct payload_rules *pr);

/*
 * Compile every pattern for the reference matcher: a rule whose conditions
 * are all in its reach is verified against it, the others by a strict
 * majority of at least three libraries, else not at all.  0, or -1 out
 * of memory.
 */
int payload_rules_reference(struct payload_rules *pr);
void payload_rules_release(struct payload_rules *pr);

/*
 * Compile pr's rules for pe: each pattern alone first (a rule with a
 * pattern it cannot compile gets an unsupported row, or an error row for
 * a built-in rule, and none of its patterns is compiled), then one set
 * per group of the patterns of the rules it runs.  pe->status and
 * pe->why are set when no set could be built or it runs no rule, and
 * without compiling anything when pe's engine cannot run here at all
 * (engine_unavailable(): its reason, no row per rule).  0, or -1 out of
 * memory.
 */
int payload_rules_compile(struct suite_ctx *ctx, const struct payload_rules *pr,
			  struct peng *pe);
void payload_rules_free(const struct payload_rules *pr, struct peng *pe);

/* What rule r's patterns show they need (engine_pattern_needs): an
 * engine without it does not run the rule, nor vote on it. */
unsigned payload_rule_needs(const struct payload_rules *pr, size_t r);

/*
 * Set up rl for the run's engines: pr holds the rule set (grouped and
 * compiled for the reference by the caller); each engine's rules are
 * compiled (payload_rules_compile), for block mode and each flow mode of
 * the run.  0, or -1 out of memory.
 */
int payload_rules_setup(struct reallife *rl, const struct payload_run *r,
			struct suite_ctx *ctx);
void payload_rules_teardown(struct reallife *rl);

/*
 * The real-life scenario's (suites/payload_reallife.c), for tests: the
 * verified number of packets rule r matches at ss (real-life at one
 * size): the answer of the engines whose answers were verified, or
 * PAYLOAD_NO_MATCHES when none was.
 */
size_t payload_rules_matched(const struct scen_size *ss, size_t r);

/*
 * The rule set of cfg (--rules, or the built-in set; --rules-format,
 * --rules-target, --modsec) into pr, grouped and compiled for the
 * reference.  0, or -1 after a message (or out of memory).
 */
int payload_rules_load(struct payload_rules *pr,
		       const struct payload_config *cfg);

/*
 * A rule scenario's state (sr->data): a struct reallife whose pr is
 * cfg's rule set (payload_rules_load); no engine's rules yet.  0, or -1
 * (sr->data may be set: payload_rules_scen_free frees it).
 */
int payload_rules_scen_new(struct scen_run *sr,
			   const struct payload_config *cfg);

/* Free sr->data, a struct reallife, and set it NULL (a .teardown). */
void payload_rules_scen_free(struct scen_run *sr);

/* What decides rule r's expected answers on pk (payload_rule_expect). */
enum payload_expect_by payload_rule_expect_by(const struct payload_rules *pr,
					      const struct packets *pk,
					      size_t r);

/*
 * The rule-set inputs of a benchmark of ss: with options 0 what the
 * rules are (counts and sha256 of pr's conditions as compiled), with
 * options 1 how they are read (rules-target, and modsec with variables).
 * 0 or -1.
 */
int payload_rules_inputs(const struct payload_rules *pr,
			 struct result_inputs *in, int options);

#endif

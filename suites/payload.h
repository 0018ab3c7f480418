/*
 * payload.h - shared state of the payload suite, split over two files:
 *   suites/payload.c        options, inputs, benchmarks, tables
 *   suites/payload_rules.c  the real-life scenario's rule sets: compiling
 *                           their patterns per engine and verifying each
 *                           rule's answer (combined from match_ids)
 * Nothing outside suites/payload*.c includes this.
 */
#ifndef RXB_PAYLOAD_H
#define RXB_PAYLOAD_H

#include "corpora/packets.h"
#include "corpora/rules.h"
#include "suites/case.h"
#include "suites/reference.h"
#include "suites/suite.h"

#include <stdint.h>

#define PAYLOAD_SUITE "payload"
#define PAYLOAD_PREFIX "Payload"

enum scenario {
	SC_BASE,     /* no regex: touch every byte (the harness floor) */
	SC_LITERAL,  /* "private", dotall */
	SC_FULLSCAN, /* "pri.*ate", dotall, single match */
	SC_REALLIFE, /* the rule set, match_ids per packet */
	SC_TOUCH,    /* one contiguous sweep: base without per-packet work */
	SC_COUNT,
};

struct single_case;

/* The packets each scenario reads at one size (one row of the tables). */
struct size_in {
	char label[16];          /* "64", or "pcap" */
	size_t size;             /* 0 for pcap */
	struct packets gen[3];   /* generated: printable, full-scan, HTTP */
	const struct packets *corpus[SC_COUNT];
	double linerate;         /* Mpps at --link for this size */
	size_t *rule_matched;    /* real-life: verified packets per rule */
	int rules_verified;      /* rule_matched holds an answer engines gave */
	/* literal and full-scan: their cases (suites/case.h), per scenario */
	struct case_table table[SC_COUNT];
	struct case_ops ops[SC_COUNT]; /* answer_size: packets of the size */
	struct single_case *single[SC_COUNT]; /* per engine */
};

/* Patterns with the same flags: one compiled set per engine. */
struct rule_group {
	unsigned flags;
	size_t *pat; /* indices into the rule set's patterns */
	size_t n;
};

/* An engine's compiled set of one group: local id k is pattern map[k]. */
struct eset {
	void *h;      /* NULL when the engine compiled none of the group */
	size_t *map;
	size_t n;
};

/* One engine's compiled patterns, alive from prepare() to cleanup(). */
struct peng {
	const struct engine *e;
	void *single[SC_COUNT];        /* literal and full-scan handles */
	char why[SC_COUNT][320];       /* why a handle is missing */
	int status[SC_COUNT];          /* its result status then */
	struct eset *sets;             /* one per rule group */
	unsigned char *ok;             /* per rule: all its patterns compiled */
	size_t nok;                    /* rules it runs */
	unsigned char *ids;            /* match_ids scratch (largest group) */
	unsigned char *hit;            /* per pattern: matched (scratch) */
};

/* The rule side of the suite's state (payload_rules.c). */
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
};

/*
 * Group rs's patterns by flags.  0, or -1 out of memory.
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
 * pe->why[SC_REALLIFE] are set when no set could be built or it runs no
 * rule.  0, or -1 out of memory.
 */
int payload_rules_compile(struct suite_ctx *ctx, const struct payload_rules *pr,
			  struct peng *pe);
void payload_rules_free(const struct payload_rules *pr, struct peng *pe);

/*
 * Verify the real-life answers of the engines of pes with ok_out[e] set,
 * on in's packets: each rule's answer (its conditions combined by
 * rules_holds()) per packet, against the planted marks (built-in rules on
 * the generated HTTP corpus), the reference matcher (a rule whose
 * conditions are all in its reach) or else a strict majority of at least
 * three libraries (engine_library); so the number of packets each rule
 * matches is verified too.  A difference or an engine error adds a row
 * for that engine (a mismatch names a rule, the engine's count of its
 * packets and the expected count) and clears ok_out[e].  unverified[e] is
 * the number of rules of engine e that nothing could verify on some
 * packet; matched[e] the number of packets where some rule of engine e
 * matched, rule_matched[r] (pr->rs.n slots) the expected number of packets
 * of rule r; `by` gets what the expected answers came from.  0, or -1 out
 * of memory.
 */
int payload_rules_verify(struct suite_ctx *ctx, const struct payload_rules *pr,
			 struct peng *pes, size_t npes, const struct size_in *in,
			 unsigned char *ok_out, size_t *unverified,
			 size_t *matched, size_t *rule_matched, char *by,
			 size_t bysize);

/* Name of benchmark scenario x size (x engine when e is not NULL). */
void payload_name(char *buf, size_t size, enum scenario sc,
		  const struct size_in *in, const struct engine *e);

/* A packet's bytes for a message: escaped, at most `max` from `from`. */
void payload_excerpt(const char *p, size_t len, size_t from, size_t max,
		     char *buf, size_t size);

#endif

/*
 * layout_decl.h - a suite's tables and verdict, declared as data.
 *
 * A suite lists its layout as lines (struct suite.layout); the run copies
 * them into the results (results_layout_add), the results file carries
 * them, and every writer reads them back with ldecl_parse, so the report
 * needs nothing but the results and names no suite.  A line is a kind
 * then key=value words; a value with spaces is quoted with '...'; lists
 * are comma-separated:
 *
 *   table   split=KEYS rows=KEYS[:desc] [cols=KEY] metrics=METRICS
 *           [lead=METRICS] [shared=KEY] [best=1] [title='...']
 *           [keyunit=UNIT]
 *       a table per distinct value of the split keys; a row per distinct
 *       value of the row keys (":desc": numerically, largest first);
 *       with cols, a column per value of that key showing the first
 *       metric, after the lead metrics (taken from any result of the
 *       row); without, a column per metric.  A result without the shared
 *       key joins every table (a scenario that uses no engine).  best=1
 *       marks the best of each column; keyunit: the unit of the first
 *       row key (a chart's axis: "bytes").
 *   growth  size=KEY [metric=UNIT] [keyunit=UNIT]
 *       how the metric grows with the size key, per series (the name
 *       without the size level).
 *   verdict by=KEYS who=KEYS metric=UNIT [only=VALUES] [show=METRICS]
 *           [cost=KEY:VALUE[|VALUE...]] [line=UNIT] [complete=UNIT]
 *           [overall=1] [budget=DURATION] [heap=UNIT:BYTES]
 *           [about=CTXKEYS] [question='...'] [apart=KEYS] [hold=METRICS]
 *           [baseline=KEY:VALUE] [baseline-label='...']
 *           [floor=KEY:VALUE] [floor-label='...'] [op=WORD]
 *           [except=KEY:VALUE[|VALUE...]] [except-label='...']
 *           [where=KEY]
 *       per distinct value of the by keys (the first of them limited to
 *       `only`), the best contender (the values of the who keys) by the
 *       metric; show: metrics of the winner beside it (one no result
 *       has is left out); cost: the contender's result with KEY=VALUE
 *       instead (compile), whose metric is shown and, with budget/heap,
 *       bounds a recommendation: the best geometric mean over the groups
 *       among contenders within both.  Several values are tried in
 *       order, the first the contender has counting (a matcher with no
 *       compile row is built in its combined-compile); the first names
 *       the cost.  line: a metric the winner must reach on one core
 *       (line rate); complete: a metric every ranked result must have at
 *       its group's maximum (a partial rule set is not ranked); overall:
 *       a ranking over the groups every ranked contender completed;
 *       about: context keys quoted in the verdict.
 *       With baseline or floor the recommendation is in lines, made
 *       apart per value of the `apart` by keys (a world: the policy
 *       alone, N endpoints each holding it): the best contender whose
 *       KEY is VALUE (baseline: what is run today, Go's regexp), the best
 *       of all but the floor, and what the floor (a purpose-built
 *       matcher) saves against both; each with the metric's geometric
 *       mean over the world's groups, the cost, and the `hold` metrics
 *       its own results carry (the heap of N endpoints).  op: what one
 *       op is ("query": ns/query); the labels are said beside the lines.
 *       except: a result whose KEY has one of the values is no
 *       contender in this verdict (never ranked, best, runner-up nor
 *       recommended: a strategy that models another component, on
 *       other inputs); it stays in the tables.  When the results hold
 *       such a row the paragraph says they are left out, with
 *       except-label (what they are and why) or else KEY and the
 *       values.  A label cannot hold a quote (').
 *       where: a who key naming an engine; a contender ran where the
 *       results' configuration `ENGINE-runs-in` says (the engine's
 *       name before any ',' of options: "xdp-runs-in: kernel"), else in
 *       user space.  With contenders of two places or more, a second
 *       table gives per group the best of each place, its metric, the
 *       cores line rate takes and whether one core does, and which
 *       place is ahead by how much.
 *
 *   costliest split=KEYS rows=KEY metrics=COST[,SHARE...] [top=N]
 *           [flag=NAME:BOUND] [cost=KEY:VALUE] [as=KEY:KEY] [title='...']
 *       per distinct value of the split keys, the `top` results (default
 *       10) with the row key (a rule) of highest COST, costliest first,
 *       with the other metrics and each one's % of the sum; flag: a row
 *       whose metric NAME is over BOUND is flagged (a rule matching most
 *       packets); then the sum over all of them and the cost of the whole
 *       set: the result with KEY=VALUE whose split keys hold the table's
 *       values (`as` renames one: bytes in the items, size in the set;
 *       of several values, the first).
 *
 * A KEY ending in '?' is optional: a result without it has the value ""
 * there (domains=N, which names carry only when a run has several
 * sizes).  A METRIC is a unit ("ns/op"), NAME:UNIT (a unit under another
 * heading) or NAME:A/B, the ratio of two units' medians
 * ("cores:line-Mpps/Mpps").
 */
#ifndef RXB_LAYOUT_DECL_H
#define RXB_LAYOUT_DECL_H

#include <stddef.h>

#include "harness/results.h"

#define LDECL_MAX 12
#define LDECL_WORD 64

enum ldecl_kind { LDECL_TABLE, LDECL_GROWTH, LDECL_VERDICT, LDECL_COSTLIEST };

struct ldecl_metric {
	char name[LDECL_WORD]; /* the column heading */
	char a[LDECL_WORD];    /* the unit, or the ratio's numerator */
	char b[LDECL_WORD];    /* the ratio's denominator; "" for a unit */
};

struct ldecl_list {
	char s[LDECL_MAX][LDECL_WORD];
	size_t n;
};

struct ldecl {
	enum ldecl_kind kind;
	char title[256], question[256];
	struct ldecl_list split, rows, by, who, only, about;
	int rows_desc, best, overall;
	char col[LDECL_WORD], shared[LDECL_WORD], size[LDECL_WORD];
	char keyunit[LDECL_WORD];
	struct ldecl_metric metric[LDECL_MAX], lead[LDECL_MAX],
		show[LDECL_MAX];
	size_t nmetric, nlead, nshow;
	char cost_key[LDECL_WORD], cost_value[LDECL_WORD]; /* the first */
	struct ldecl_list costs; /* every cost value, in order */
	char line[LDECL_WORD], complete[LDECL_WORD];
	double budget_ns;       /* cost's metric at most this; 0: none */
	char heap[LDECL_WORD];  /* cost's memory metric ... */
	double heap_bytes;      /* ... at most this; 0: none */
	/* costliest */
	size_t top;             /* rows; 0: 10 */
	char flag[LDECL_WORD];  /* a metric's heading ... */
	double flag_over;       /* ... over which a row is flagged */
	char as_from[LDECL_WORD], as_to[LDECL_WORD]; /* split key renamed */
	/* a recommendation in lines (verdict) */
	struct ldecl_list apart;
	struct ldecl_metric hold[LDECL_MAX];
	size_t nhold;
	char base_key[LDECL_WORD], base_value[LDECL_WORD], base_label[128];
	char floor_key[LDECL_WORD], floor_value[LDECL_WORD], floor_label[128];
	char op[LDECL_WORD];
	/* results no verdict ranks (verdict) */
	char except_key[LDECL_WORD];
	struct ldecl_list excepts;   /* its values */
	char except_label[256];
	char where[LDECL_WORD]; /* who key: where a contender ran */
};

/*
 * Parse one layout line into d.  0, or -1 with a one-line reason in err
 * (the word that is wrong).
 */
int ldecl_parse(const char *line, struct ldecl *d, char *err, size_t size);

/*
 * The value of a declared key of r into buf (its name without the '?'
 * in *name when not NULL).  1 when r has it or the key is optional
 * (buf ""), 0 when not.
 */
int ldecl_key(const struct result *r, const char *key, char *buf,
	      size_t size);

/* A declared key's name without the optional mark, into buf. */
void ldecl_key_name(const char *key, char *buf, size_t size);

/* A metric's value for r: the unit's median, or the ratio's; NAN. */
double ldecl_value(const struct result *r, const struct ldecl_metric *m);

/* The better direction of a metric in a suite (a ratio: lower). */
enum metric_better ldecl_better(const struct results *res, const char *suite,
				const struct ldecl_metric *m);

/*
 * Parse "16MiB", "64KiB", "1GiB", "1000" into bytes.  0, or -1 when not
 * a positive number with one of those suffixes.  (Durations are
 * bench_parse_duration's.)
 */
int ldecl_bytes(const char *s, double *bytes);

/*
 * A tuple: the values of r's keys l joined by '\x1f' (how tables and
 * verdicts group results), into buf.  1, or 0 when r lacks one of them.
 * ldecl_tuple_part: value i of a tuple into buf ("" past the end).
 */
int ldecl_tuple_of(const struct result *r, const struct ldecl_list *l,
		   char *buf, size_t size);
void ldecl_tuple_part(const char *tuple, size_t i, char *buf, size_t size);

#endif

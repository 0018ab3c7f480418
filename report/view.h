/*
 * view.h - what the CSV, Markdown and HTML writers share: the name keys
 * of benchmarks, suites and their keys in order of appearance, medians,
 * the table layout a suite's keys call for, and the engine ranking.
 *
 * Everything is derived from the benchmark names ("Suite/k=v/k=v"), so
 * a suite that adds a key is still grouped sensibly: extra keys split
 * tables, never disappear.  Nothing here prints.
 */
#ifndef RXB_VIEW_H
#define RXB_VIEW_H

#include <stddef.h>

#include "harness/results.h"

/* A list of distinct strings, in the order they were first added. */
struct strlist {
	char **s;
	size_t n;
};

/* Add s[0..len) unless present.  0, or -1 when out of memory. */
int strlist_add(struct strlist *l, const char *s, size_t len);
/* Index of s, or -1. */
long strlist_find(const struct strlist *l, const char *s);
void strlist_release(struct strlist *l);

/* Sort numerically when every entry is a number, else keep the order. */
void strlist_sort_numeric(struct strlist *l, int descending);

/* The suites of res, in order of first appearance. */
int view_suites(const struct results *res, struct strlist *out);

/* The union of the name keys of a suite's results (all when suite NULL). */
int view_keys(const struct results *res, const char *suite,
	      struct strlist *out);

/* The distinct values of key `key` over a suite's results, in order. */
int view_key_values(const struct results *res, const char *suite,
		    const char *key, struct strlist *out);

/* The units of a suite's results, in order of first appearance. */
int view_units(const struct results *res, const char *suite,
	       struct strlist *out);

/* The median of a result's metric `unit`; NAN when it has none. */
double view_median(const struct result *r, const char *unit);

/* The better direction of metric `unit` in a suite (lower by default). */
enum metric_better view_better(const struct results *res, const char *suite,
			       const char *unit);

/*
 * True when r's name has exactly `key`=`value` for each of the n pairs
 * (value NULL: the key must be absent).
 */
int view_match(const struct result *r, const char *const *keys,
	       const char *const *values, size_t n);

/*
 * The name of r with the level `key`=... removed ("FQDN/phase=x/
 * strategy=y" for key engine), into buf.
 */
void view_name_without(const struct result *r, const char *key, char *buf,
		       size_t size);

/* How a suite's tables are laid out, decided by its keys. */
enum view_layout {
	LAYOUT_GENERIC, /* one row per benchmark, a column per metric */
	LAYOUT_FQDN,    /* phase, strategy, engine: a table per phase */
	LAYOUT_PAYLOAD, /* scenario, size, engine: size x scenario per engine */
};

enum view_layout view_layout_of(const struct strlist *keys);

/*
 * Line rate (the packets per second a link carries at a size), as the
 * payload suite reports it: a metric whose unit contains "line" and ends
 * in "pps" (the rate itself), or Mpps with "%linerate" (the share of it
 * one core reaches, so line rate = 100 * Mpps / %linerate).
 */
int view_has_line_rate(const struct strlist *units);

/* The line rate in Mpps that r's metrics give; NAN when none. */
double view_line_rate(const struct result *r);

/* One engine's place in a ranking. */
struct rank_row {
	char *engine;
	double geomean; /* geometric mean of (time / best time) */
	size_t count;   /* benchmark groups it was measured in */
};

struct ranking {
	struct rank_row *rows; /* best (lowest geomean) first */
	size_t n;
	size_t groups; /* groups with at least two engines */
};

/*
 * Rank the engines of a suite as rebar's rank does: a group is a name
 * without its engine level; in each group with two or more engines that
 * have a median ns/op, every engine's ratio to the fastest is taken, and
 * an engine's score is the geometric mean of its ratios.  Only results
 * with `key`=`value` count when key is not NULL.  Results that are not
 * ok are left out.  0, or -1 when out of memory.
 */
int view_rank(const struct results *res, const char *suite, const char *key,
	      const char *value, struct ranking *out);
void ranking_release(struct ranking *rk);

/* The rank row of `engine`, or NULL. */
const struct rank_row *ranking_find(const struct ranking *rk,
				    const char *engine);

/* The time unit rankings use. */
#define VIEW_TIME_UNIT "ns/op"

#endif

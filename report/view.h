/*
 * view.h - what the writers share: the name keys of benchmarks, suites,
 * their keys and units in order of appearance, medians.  How tables are
 * laid out is declared by each suite (report/layout_decl.h), never
 * guessed from key names here.  Nothing here prints.
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

/* The time unit of a table without a declared metric. */
#define VIEW_TIME_UNIT "ns/op"

#endif

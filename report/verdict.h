/*
 * verdict.h - the answer to a suite's question, first in every report.
 *
 * From a verdict line of the suite's layout (report/layout_decl.h): a
 * table with a row per group (a match phase; a packet size and scenario;
 * a pattern), its best verified contender, the metric and what the
 * declaration asks to show beside it, the runner-up and by how much; then
 * an overall ranking or a recommendation under the budgets, and what
 * makes the answer less trustworthy (a loaded machine, unstable rows,
 * failed or unverified cases, too few samples).  A contender's cost
 * (compile) is the first of the declared cost rows it has.  With a
 * baseline or a floor declared the recommendation is a few sentences per
 * world (the `apart` keys: fqdn's endpoints): the best baseline
 * contender (go), the best of all but the floor, what the floor (the
 * trie) saves against both, each with numbers and units.  Only verified ok
 * results are ranked; an overall ranking uses only contenders that
 * completed every group and names the others with their coverage; a
 * result below its group's maximum of the `complete` metric (a partial
 * rule set) is not ranked; nor is one the declaration's `except` names
 * (fqdn: the name manager's strategies, another component on other
 * selectors), which the paragraph says when the results hold one.  The
 * paragraph is the table's caption.
 */
#ifndef RXB_VERDICT_H
#define RXB_VERDICT_H

#include "report/layout_decl.h"
#include "report/opts.h"
#include "report/rtable.h"

/* Append the verdict tables of d to out.  0, or -1 out of memory. */
int verdict_build(const struct results *res, const char *suite,
		  const struct ldecl *d, const struct report_opts *opts,
		  struct rtables *out);

#endif

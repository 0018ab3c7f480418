/*
 * layout_growth.h - a `growth` layout line's table (report/layout.c
 * calls it; the declaration is in report/layout_decl.h).
 */
#ifndef RXB_LAYOUT_GROWTH_H
#define RXB_LAYOUT_GROWTH_H

#include "report/layout_decl.h"
#include "report/rtable.h"

/*
 * A table of how each series of the suite (a benchmark name without
 * d's size level) grows with that size: its metric at each size, the
 * growth, a power-law exponent and the best-fitting complexity, a row
 * per series measured at 2 sizes or more; no table with fewer than 2
 * sizes (or more than 32).  Appended to out.  0, or -1 out of memory.
 */
int layout_growth_build(const struct results *res, const char *suite,
			const struct ldecl *d, struct rtables *out);

#endif

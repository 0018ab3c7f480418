/*
 * layout_table.h - a `table` layout line's tables (report/layout.c
 * calls it for each one, and for a suite without a declaration with a
 * table of every metric; the declaration is in report/layout_decl.h).
 */
#ifndef RXB_LAYOUT_TABLE_H
#define RXB_LAYOUT_TABLE_H

#include "report/layout_decl.h"
#include "report/rtable.h"

/*
 * A table per distinct tuple of d's split keys among the suite's
 * results: a row per result (or per tuple of d's row keys, with a column
 * per value of d's column key), a column per metric; none where no
 * result has a number to show.  Appended to out.  0, or -1 out of
 * memory.
 */
int layout_table_build(const struct results *res, const char *suite,
		       const struct ldecl *d, struct rtables *out);

#endif

/*
 * costliest.h - the `costliest` layout line's tables (report/layout.c
 * calls it; the declaration is in report/layout_decl.h).
 */
#ifndef RXB_COSTLIEST_H
#define RXB_COSTLIEST_H

#include "report/layout_decl.h"
#include "report/rtable.h"

/*
 * A table per distinct value of d's split keys among the suite's ok
 * results that have d's row key, appended to out.  0, or -1 out of
 * memory.
 */
int costliest_tables(const struct results *res, const char *suite,
		     const struct ldecl *d, struct rtables *out);

#endif

/*
 * engine.c - what every engine answers the same way, whatever its kind:
 * engine_answers(), an op on many inputs, and engine_work_values() (engine.h,
 * "Runners behind the interface").  No build options.
 */
#include <stdio.h>
#include <stdlib.h>

#include "engines/engine.h"

/* Op on one input, in process; match_ids' bytes into ids (npat). */
static long answer_one(const struct engine *e, void *h, enum engine_op op,
		       const struct engine_span *in, unsigned char *ids)
{
	switch (op) {
	case ENGINE_OP_IS_MATCH:
		return e->is_match(h, in->p, in->len);
	case ENGINE_OP_COUNT:
		return e->count(h, in->p, in->len);
	case ENGINE_OP_MATCH_IDS:
		return e->match_ids(h, in->p, in->len, ids);
	default:
		return ENGINE_ERR_UNSUPPORTED;
	}
}

/* Whether e has op in process. */
static int has_op(const struct engine *e, enum engine_op op)
{
	return (op == ENGINE_OP_IS_MATCH && e->is_match != NULL) ||
	       (op == ENGINE_OP_COUNT && e->count != NULL) ||
	       (op == ENGINE_OP_MATCH_IDS && e->match_ids != NULL);
}

int engine_answers(const struct engine *e, void *h, enum engine_op op,
		   const struct engine_span *in, size_t n, size_t npat,
		   long *values, unsigned char *ids, size_t *at)
{
	unsigned char *scratch = NULL;
	int rc = 0;

	if (at != NULL)
		*at = 0;
	if (e->answers != NULL)
		return e->answers(h, op, in, n, values, ids);
	if (!has_op(e, op))
		return ENGINE_ERR_UNSUPPORTED;
	if (op == ENGINE_OP_MATCH_IDS && ids == NULL) {
		scratch = calloc(npat ? npat : 1, 1);
		if (scratch == NULL)
			return ENGINE_ERR_NOMEM;
	}
	for (size_t i = 0; rc == 0 && i < n; i++) {
		if (at != NULL)
			*at = i;
		values[i] = answer_one(e, h, op, &in[i],
				       ids != NULL ? ids + i * npat : scratch);
		if (values[i] < 0)
			rc = (int)values[i];
	}
	free(scratch);
	return rc;
}

int engine_work_values(const struct engine *e, const struct engine_work *w,
		       long *values, char *why, size_t size)
{
	if (e->work_values == NULL) {
		snprintf(why, size, "engine %s cannot compute a work's values",
			 e->name);
		return ENGINE_ERR_UNSUPPORTED;
	}
	return e->work_values(w, values, why, size);
}

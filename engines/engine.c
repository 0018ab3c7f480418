/*
 * engine.c - what every engine answers the same way, whatever its kind:
 * engine_answers(), an op on many inputs, and engine_work_values() (engine.h,
 * "Runners behind the interface"); and what a suite asks before it compiles
 * anything: engine_unavailable() (can the engine run here at all) and
 * engine_work_refused() (can it do and time this work).  No build options.
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

/* engine_unavailable()'s answers: one per hook (an --engine-opt variant
   of an engine shares its hook), asked once. */
#define UNAVAILABLE_MEMO 32

struct unavailable_memo {
	int (*hook)(char *why, size_t size);
	int refused;
	char why[256];
};

const char *engine_unavailable(const struct engine *e)
{
	static struct unavailable_memo memo[UNAVAILABLE_MEMO];
	static size_t nmemo;
	static char spare[256]; /* past the memo: asked each time */
	struct unavailable_memo *m = NULL;

	if (e->unavailable == NULL)
		return NULL;
	for (size_t i = 0; i < nmemo && m == NULL; i++)
		if (memo[i].hook == e->unavailable)
			m = &memo[i];
	if (m == NULL && nmemo == UNAVAILABLE_MEMO)
		return e->unavailable(spare, sizeof(spare)) ? spare : NULL;
	if (m == NULL) {
		m = &memo[nmemo++];
		m->hook = e->unavailable;
		m->refused = e->unavailable(m->why, sizeof(m->why)) != 0;
	}
	return m->refused ? m->why : NULL;
}

static const char *op_name(enum engine_op op)
{
	switch (op) {
	case ENGINE_OP_IS_MATCH: return "is_match";
	case ENGINE_OP_COUNT: return "count";
	case ENGINE_OP_MATCH_IDS: return "match_ids";
	default: return "?";
	}
}

/* "is_match and match_ids only": the ops e has, into buf. */
static void ops_text(const struct engine *e, char *buf, size_t size)
{
	static const enum engine_op ops[] = {
		ENGINE_OP_IS_MATCH, ENGINE_OP_COUNT, ENGINE_OP_MATCH_IDS,
	};
	size_t nops = sizeof(ops) / sizeof(ops[0]), n = 0, o = 0, k = 0;

	for (size_t i = 0; i < nops; i++)
		n += has_op(e, ops[i]);
	buf[0] = '\0';
	for (size_t i = 0; i < nops && o < size; i++) {
		if (!has_op(e, ops[i]))
			continue;
		k++;
		o += (size_t)snprintf(buf + o, size - o, "%s%s",
				      k == 1 ? "" : k == n ? " and " : ", ",
				      op_name(ops[i]));
	}
	if (o < size)
		snprintf(buf + o, size - o, n == 0 ? "none of the ops" : " only");
}

int engine_work_refused(const struct engine *e, const struct engine_work *w,
			char *why, size_t size)
{
	char ops[64];

	if (w->op >= ENGINE_OP_IS_MATCH && w->op <= ENGINE_OP_MATCH_IDS &&
	    !has_op(e, w->op)) {
		ops_text(e, ops, sizeof(ops));
		snprintf(why, size, "%s has no %s: it answers %s", e->name,
			 op_name(w->op), ops);
		return 1;
	}
	if (engine_self_timed(e) && e->work_check != NULL)
		return e->work_check(w, why, size) != 0;
	return 0;
}

/*
 * reference_prog.c - the reference matcher's compiler: syntax tree ->
 * Thompson NFA (see reference_int.h), plus the facts about the program
 * the matcher's fast paths rest on.
 *
 * Each construct is laid out so control falls through to the next
 * instruction.  Repetition follows PCRE2's shape, since leftmost-first
 * priorities depend on it: {n,m} is n copies then m-n nested optional
 * copies (skipping one skips the rest), {n,} is n-1 copies then a loop
 * whose first iteration is mandatory, and a loop's back edge is a choice
 * between looping and leaving.  A loop whose body can match empty is
 * OP_HEAD body OP_TAIL, so the matcher can apply PCRE2's rule: an
 * iteration that matched the empty string does not loop again, it goes
 * on after the loop, at its own priority ((?:|a)* matches "" at 0 of
 * "aa"; (|.{2,3})*1 matches "abc1", not "abc1de1", in "abc1de1").
 *
 * In UTF-8 mode a set of code points becomes its ASCII members as one
 * byte set plus alternatives of byte-range sequences covering the rest
 * (surrogates excluded), so data is read a byte at a time in every mode.
 *
 * Build: always (part of the reference matcher).
 */
#include "suites/reference.h"
#include "suites/reference_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define REF_MAX_INST 200000    /* bigger programs are out of reach */
#define REF_MAX_KEYS 1000000u  /* instructions x loop levels: VM states */
#define SET_CACHE 64           /* recently made byte sets, for reuse */

struct builder {
	struct ref_prog *p;
	const struct ref_ast *ast;
	int utf8;
	unsigned depth; /* OP_HEAD loops open around what is emitted */
	uint32_t cache[SET_CACHE];
	char *why;
	size_t size;
};

/* A UTF-8 sequence: one byte range per byte. */
struct utf8_seq {
	unsigned char lo[4], hi[4];
	unsigned n;
};

static int emit_node(struct builder *b, uint32_t node);

static int too_big(struct builder *b)
{
	snprintf(b->why, b->size,
		 REF_WHY_TOO_LARGE " (more than %d instructions)",
		 REF_MAX_INST);
	return REF_OUT_OF_REACH;
}

static int nomem(struct builder *b)
{
	snprintf(b->why, b->size, "out of memory");
	return REF_NOMEM;
}

/* Appends an instruction; its index in *pc. */
static int emit(struct builder *b, enum ref_op op, unsigned arg, uint32_t x,
		uint32_t y, uint32_t *pc)
{
	struct ref_prog *p = b->p;

	if (p->n >= REF_MAX_INST)
		return too_big(b);
	if (p->n == p->cap) {
		size_t cap = p->cap ? p->cap * 2 : 64;
		struct ref_inst *in = realloc(p->inst, cap * sizeof(*in));
		if (in == NULL)
			return nomem(b);
		p->inst = in;
		p->cap = cap;
	}
	p->inst[p->n] = (struct ref_inst){(unsigned char)op,
					  (unsigned char)arg,
					  (unsigned short)b->depth, x, y};
	*pc = (uint32_t)p->n++;
	return 0;
}

static uint32_t here(const struct builder *b)
{
	return (uint32_t)b->p->n;
}

/* Index of a byte set equal to s, made if no recent one is. */
static int intern_set(struct builder *b, const struct ref_byteset *s,
		      uint32_t *idx)
{
	struct ref_prog *p = b->p;
	unsigned h = (unsigned)((s->w[0] ^ s->w[1] * 3 ^ s->w[2] * 5 ^
				 s->w[3] * 7) %
				SET_CACHE);

	if (b->cache[h] != REF_NONE &&
	    memcmp(&p->sets[b->cache[h]], s, sizeof(*s)) == 0) {
		*idx = b->cache[h];
		return 0;
	}
	if (p->nsets == p->setcap) {
		size_t cap = p->setcap ? p->setcap * 2 : 16;
		struct ref_byteset *n = realloc(p->sets, cap * sizeof(*n));
		if (n == NULL)
			return nomem(b);
		p->sets = n;
		p->setcap = cap;
	}
	p->sets[p->nsets] = *s;
	*idx = b->cache[h] = (uint32_t)p->nsets++;
	return 0;
}

static void byteset_add(struct ref_byteset *s, unsigned lo, unsigned hi)
{
	for (unsigned c = lo; c <= hi; c++)
		s->w[c >> 6] |= (uint64_t)1 << (c & 63);
}

/* OP_SET for s, falling through. */
static int emit_byteset(struct builder *b, const struct ref_byteset *s)
{
	uint32_t idx, pc;
	int rc = intern_set(b, s, &idx);

	if (rc != 0)
		return rc;
	rc = emit(b, OP_SET, 0, 0, idx, &pc);
	if (rc == 0)
		b->p->inst[pc].x = pc + 1;
	return rc;
}

/* Sets every pending target on a chain linked through x (or y). */
static void patch(struct builder *b, uint32_t chain, int use_y,
		  uint32_t target)
{
	while (chain != REF_NONE) {
		struct ref_inst *in = &b->p->inst[chain];
		uint32_t *f = use_y ? &in->y : &in->x;
		chain = *f;
		*f = target;
	}
}

/* ---- UTF-8 sequences ---- */

static unsigned utf8_encode(uint32_t cp, unsigned char *out)
{
	if (cp < 0x80) {
		out[0] = (unsigned char)cp;
		return 1;
	}
	if (cp < 0x800) {
		out[0] = (unsigned char)(0xc0 | cp >> 6);
		out[1] = (unsigned char)(0x80 | (cp & 0x3f));
		return 2;
	}
	if (cp < 0x10000) {
		out[0] = (unsigned char)(0xe0 | cp >> 12);
		out[1] = (unsigned char)(0x80 | (cp >> 6 & 0x3f));
		out[2] = (unsigned char)(0x80 | (cp & 0x3f));
		return 3;
	}
	out[0] = (unsigned char)(0xf0 | cp >> 18);
	out[1] = (unsigned char)(0x80 | (cp >> 12 & 0x3f));
	out[2] = (unsigned char)(0x80 | (cp >> 6 & 0x3f));
	out[3] = (unsigned char)(0x80 | (cp & 0x3f));
	return 4;
}

struct seq_list {
	struct utf8_seq *s;
	size_t n, cap;
};

static int seq_add(struct builder *b, struct seq_list *l, uint32_t lo,
		   uint32_t hi)
{
	struct utf8_seq q;

	if (l->n == l->cap) {
		size_t cap = l->cap ? l->cap * 2 : 16;
		struct utf8_seq *s = realloc(l->s, cap * sizeof(*s));
		if (s == NULL)
			return nomem(b);
		l->s = s;
		l->cap = cap;
	}
	q.n = utf8_encode(lo, q.lo);
	utf8_encode(hi, q.hi);
	l->s[l->n++] = q;
	return 0;
}

/*
 * Cuts [lo,hi] (no ASCII) into pieces whose UTF-8 forms are one byte
 * range per position: first at the encoding lengths and around the
 * surrogates, then wherever lo and hi differ above a continuation byte
 * that is not full (the usual construction, written out here).
 */
static int utf8_split(struct builder *b, struct seq_list *l, uint32_t lo,
		      uint32_t hi)
{
	static const uint32_t edge[] = {0x7ff, 0xd7ff, 0xdfff, 0xffff};
	int rc;

	if (lo > hi)
		return 0;
	for (size_t i = 0; i < sizeof(edge) / sizeof(edge[0]); i++) {
		if (lo <= edge[i] && hi > edge[i]) {
			rc = utf8_split(b, l, lo, edge[i]);
			return rc != 0 ? rc : utf8_split(b, l, edge[i] + 1, hi);
		}
	}
	if (lo >= 0xd800 && hi <= 0xdfff)
		return 0; /* surrogates: never in valid UTF-8 */
	for (unsigned i = 1; i < 4; i++) {
		uint32_t m = (1u << (6 * i)) - 1;
		if ((lo & ~m) == (hi & ~m))
			continue;
		if ((lo & m) != 0) {
			rc = utf8_split(b, l, lo, lo | m);
			return rc != 0 ? rc :
					 utf8_split(b, l, (lo | m) + 1, hi);
		}
		if ((hi & m) != m) {
			rc = utf8_split(b, l, lo, (hi & ~m) - 1);
			return rc != 0 ? rc : utf8_split(b, l, hi & ~m, hi);
		}
	}
	return seq_add(b, l, lo, hi);
}

/* One sequence as a chain of OP_SET, falling through. */
static int emit_seq(struct builder *b, const struct utf8_seq *q)
{
	int rc = 0;

	for (unsigned i = 0; i < q->n && rc == 0; i++) {
		struct ref_byteset s = {{0}};
		byteset_add(&s, q->lo[i], q->hi[i]);
		rc = emit_byteset(b, &s);
	}
	return rc;
}

/* Alternatives: the ASCII byte set (if any), then each sequence. */
static int emit_alternatives(struct builder *b, const struct ref_byteset *ascii,
			     int has_ascii, const struct seq_list *l)
{
	size_t total = l->n + (size_t)has_ascii;
	uint32_t jumps = REF_NONE, split = REF_NONE, pc;
	int rc = 0;

	for (size_t i = 0; i < total && rc == 0; i++) {
		if (split != REF_NONE)
			b->p->inst[split].y = here(b);
		split = REF_NONE;
		if (i + 1 < total)
			rc = emit(b, OP_SPLIT, 0, here(b) + 1, 0, &split);
		if (rc == 0 && has_ascii && i == 0)
			rc = emit_byteset(b, ascii);
		else if (rc == 0)
			rc = emit_seq(b, &l->s[i - (size_t)has_ascii]);
		if (rc == 0 && i + 1 < total) {
			rc = emit(b, OP_JMP, 0, jumps, 0, &pc);
			if (rc == 0) /* else pc was not emitted: no link to it */
				jumps = pc;
		}
	}
	if (rc == 0)
		patch(b, jumps, 0, here(b));
	return rc;
}

static int emit_utf8_set(struct builder *b, const struct ref_range *r,
			 size_t n)
{
	struct ref_byteset ascii = {{0}};
	struct seq_list l = {0};
	int has_ascii = 0, rc = 0;

	for (size_t i = 0; i < n && rc == 0; i++) {
		if (r[i].lo < 0x80) {
			byteset_add(&ascii, r[i].lo, r[i].hi < 0x80 ? r[i].hi :
								       0x7f);
			has_ascii = 1;
		}
		rc = utf8_split(b, &l, r[i].lo < 0x80 ? 0x80 : r[i].lo,
				r[i].hi);
	}
	if (rc == 0 && !has_ascii && l.n == 0)
		rc = emit_byteset(b, &ascii); /* the empty set: never matches */
	else if (rc == 0)
		rc = emit_alternatives(b, &ascii, has_ascii, &l);
	free(l.s);
	return rc;
}

static int emit_set(struct builder *b, const struct ref_node *n)
{
	const struct ref_range *r = b->ast->ranges + n->first;
	struct ref_byteset s = {{0}};

	if (b->utf8)
		return emit_utf8_set(b, r, n->count);
	for (uint32_t i = 0; i < n->count; i++)
		byteset_add(&s, r[i].lo, r[i].hi);
	return emit_byteset(b, &s);
}

/* ---- structure ---- */

/* Can node match the empty string (assertions taken as passing)? */
static int node_nullable(const struct ref_ast *a, uint32_t node)
{
	const struct ref_node *n = &a->nodes[node];
	uint32_t k;

	switch (n->kind) {
	case RK_SET:
		return 0;
	case RK_CAT:
		for (k = n->first; k != REF_NONE; k = a->nodes[k].next)
			if (!node_nullable(a, k))
				return 0;
		return 1;
	case RK_ALT:
		for (k = n->first; k != REF_NONE; k = a->nodes[k].next)
			if (node_nullable(a, k))
				return 1;
		return 0;
	case RK_REPEAT:
		return n->min == 0 || node_nullable(a, n->kid);
	default:
		return 1; /* RK_EMPTY, RK_ASSERT */
	}
}

static int emit_cat(struct builder *b, const struct ref_node *n)
{
	int rc = 0;

	for (uint32_t k = n->first; k != REF_NONE && rc == 0;
	     k = b->ast->nodes[k].next)
		rc = emit_node(b, k);
	return rc;
}

/* SPLIT to each branch in turn; each but the last jumps to the end. */
static int emit_alt(struct builder *b, const struct ref_node *n)
{
	uint32_t jumps = REF_NONE, split, pc;
	int rc = 0;

	for (uint32_t k = n->first; k != REF_NONE && rc == 0;
	     k = b->ast->nodes[k].next) {
		int last = b->ast->nodes[k].next == REF_NONE;
		split = REF_NONE;
		if (!last)
			rc = emit(b, OP_SPLIT, 0, here(b) + 1, 0, &split);
		if (rc == 0)
			rc = emit_node(b, k);
		if (rc == 0 && !last) {
			rc = emit(b, OP_JMP, 0, jumps, 0, &pc);
			if (rc != 0)
				break; /* pc was not emitted: no link to it */
			jumps = pc;
			b->p->inst[split].y = here(b);
		}
	}
	if (rc == 0)
		patch(b, jumps, 0, here(b));
	return rc;
}

/* A SPLIT whose other way is the end, not known yet: chained in *pend. */
static int emit_skip(struct builder *b, int lazy, uint32_t body,
		     uint32_t *pend)
{
	uint32_t pc;
	int rc = lazy ? emit(b, OP_SPLIT, 0, *pend, body, &pc) :
			emit(b, OP_SPLIT, 0, body, *pend, &pc);

	if (rc == 0)
		*pend = pc;
	return rc;
}

/* Resolves the chain emit_skip() made (lazy ones wait in x). */
static void patch_skips(struct builder *b, int lazy, uint32_t pend)
{
	patch(b, pend, !lazy, here(b));
}

/* k nested optional copies: (?:B(?:B)?)? for k = 2. */
static int emit_optional(struct builder *b, uint32_t kid, int k, int lazy)
{
	uint32_t pend = REF_NONE;
	int rc = 0;

	for (int i = 0; i < k && rc == 0; i++) {
		rc = emit_skip(b, lazy, here(b) + 1, &pend);
		if (rc == 0)
			rc = emit_node(b, kid);
	}
	patch_skips(b, lazy, pend);
	return rc;
}

/* B* as (?:B+)? and B+ as B then a split back, when B cannot be empty. */
static int emit_loop(struct builder *b, uint32_t kid, int plus, int lazy)
{
	uint32_t pend = REF_NONE, top;
	int rc = 0;

	if (!plus)
		rc = emit_skip(b, lazy, here(b) + 1, &pend);
	top = here(b);
	if (rc == 0)
		rc = emit_node(b, kid);
	if (rc == 0)
		rc = emit_skip(b, lazy, top, &pend);
	patch_skips(b, lazy, pend);
	return rc;
}

/*
 * The same when B can match empty: HEAD B TAIL, the body one loop level
 * deeper (see the file header and reference.c).
 */
static int emit_empty_loop(struct builder *b, uint32_t kid, int plus,
			   int lazy)
{
	uint32_t pend = REF_NONE, head, tail;
	int rc = 0;

	if (!plus)
		rc = emit_skip(b, lazy, here(b) + 1, &pend);
	if (rc == 0)
		rc = emit(b, OP_HEAD, 0, here(b) + 1, 0, &head);
	b->depth++;
	if (b->depth > b->p->depths)
		b->p->depths = b->depth;
	if (rc == 0)
		rc = emit_node(b, kid);
	b->depth--;
	if (rc == 0)
		rc = emit(b, OP_TAIL, !lazy, head, 0, &tail);
	if (rc == 0)
		b->p->inst[tail].y = here(b);
	patch_skips(b, lazy, pend);
	return rc;
}

static int emit_repeat(struct builder *b, const struct ref_node *n)
{
	int copies = n->max < 0 && n->min > 0 ? n->min - 1 : n->min;
	int rc = 0;

	for (int i = 0; i < copies && rc == 0; i++)
		rc = emit_node(b, n->kid);
	if (rc != 0)
		return rc;
	if (n->max >= 0)
		return emit_optional(b, n->kid, n->max - n->min, n->lazy);
	if (node_nullable(b->ast, n->kid))
		return emit_empty_loop(b, n->kid, n->min > 0, n->lazy);
	return emit_loop(b, n->kid, n->min > 0, n->lazy);
}

static int emit_node(struct builder *b, uint32_t node)
{
	const struct ref_node *n = &b->ast->nodes[node];
	uint32_t pc;
	int rc;

	switch (n->kind) {
	case RK_SET:
		return emit_set(b, n);
	case RK_ASSERT:
		rc = emit(b, OP_ASSERT, n->assert, 0, 0, &pc);
		if (rc == 0)
			b->p->inst[pc].x = pc + 1;
		return rc;
	case RK_CAT:
		return emit_cat(b, n);
	case RK_ALT:
		return emit_alt(b, n);
	case RK_REPEAT:
		return emit_repeat(b, n);
	default:
		return 0; /* RK_EMPTY */
	}
}

/* ---- facts for the matcher ---- */

/*
 * Walks the instructions reachable from start without a byte.  With
 * `anchor` set a path stops at \A or ^ (not multiline); otherwise every
 * assertion is taken as passing.  Sets *match when OP_MATCH is reached
 * and adds the first byte of every OP_SET reached to *first.
 */
static int walk_start(struct builder *b, int anchor, int *match,
		      struct ref_byteset *first)
{
	const struct ref_prog *p = b->p;
	unsigned char *seen = calloc(p->n, 1);
	uint32_t *stack = malloc((2 * p->n + 1) * sizeof(*stack));
	size_t sp = 0;

	if (seen == NULL || stack == NULL) {
		free(seen);
		free(stack);
		return nomem(b);
	}
	stack[sp++] = p->start;
	while (sp > 0) {
		uint32_t pc = stack[--sp];
		const struct ref_inst *in = &p->inst[pc];
		if (seen[pc])
			continue;
		seen[pc] = 1;
		if (in->op == OP_MATCH)
			*match = 1;
		else if (in->op == OP_SET)
			for (unsigned i = 0; i < 4; i++)
				first->w[i] |= p->sets[in->y].w[i];
		else if (in->op == OP_ASSERT && anchor && in->arg == RA_BOS)
			continue;
		if (in->op == OP_SPLIT || in->op == OP_TAIL)
			stack[sp++] = in->y;
		if (in->op != OP_MATCH && in->op != OP_SET)
			stack[sp++] = in->x;
	}
	free(seen);
	free(stack);
	return 0;
}

static unsigned byteset_count(const struct ref_byteset *s)
{
	unsigned n = 0;

	for (unsigned i = 0; i < 4; i++)
		n += (unsigned)__builtin_popcountll(s->w[i]);
	return n;
}

static int analyse(struct builder *b)
{
	struct ref_prog *p = b->p;
	struct ref_byteset reached = {{0}};
	int match = 0;
	int rc = walk_start(b, 0, &p->nullable, &p->first);

	if (rc == 0)
		rc = walk_start(b, 1, &match, &reached);
	if (rc != 0)
		return rc;
	p->anchored = !match && byteset_count(&reached) == 0;
	p->nfirst = byteset_count(&p->first);
	for (unsigned c = 0; c < 256 && p->nfirst == 1; c++)
		if (ref_byteset_has(&p->first, c))
			p->first_byte = (unsigned char)c;
	return 0;
}

int ref_prog_build(struct ref_prog *prog, const struct ref_ast *ast, int utf8,
		   char *why, size_t size)
{
	struct builder b = {.p = prog, .ast = ast, .utf8 = utf8, .why = why,
			    .size = size};
	uint32_t pc;
	int rc;

	for (size_t i = 0; i < SET_CACHE; i++)
		b.cache[i] = REF_NONE;
	prog->start = 0;
	rc = emit_node(&b, ast->root);
	if (rc == 0)
		rc = emit(&b, OP_MATCH, 0, 0, 0, &pc);
	if (rc == 0 && prog->n * (prog->depths + 1) > REF_MAX_KEYS) {
		snprintf(why, size,
			 REF_WHY_TOO_LARGE " (%zu instructions in %u levels "
			 "of loops that can match empty)",
			 prog->n, prog->depths);
		rc = REF_OUT_OF_REACH;
	}
	if (rc == 0)
		rc = analyse(&b);
	return rc;
}

void ref_prog_release(struct ref_prog *prog)
{
	free(prog->inst);
	free(prog->sets);
	prog->inst = NULL;
	prog->sets = NULL;
}

/*
 * xdp_dfa.c - subset construction of an unanchored byte DFA from the
 * reference's programs (see xdp_dfa.h), a DFA per pattern; a set's
 * groups are products of those (pack(): best fit, largest first).
 *
 * The patterns' programs are laid end to end as one NFA.  A closure
 * follows the epsilon moves (OP_SPLIT, OP_JMP, OP_HEAD, OP_TAIL: for the
 * set of states reached, PCRE2's "an empty iteration does not loop
 * again" changes priorities, not which states are reachable) and keeps
 * what decides the future: the OP_SET and OP_MATCH instructions reached,
 * and the assertions it cannot decide yet.
 *
 * The assertions (suites/reference.c's holds()) look at the byte before
 * an offset and the byte after it.  A DFA state knows the byte before:
 * its context (start of data, '\n', a word byte, another byte), kept
 * only as far as its pending assertions can ask.  The byte after is
 * known one transition late: the step on byte c first settles the
 * pending assertions of the offset before c (\b, \B, multiline ^ and $,
 * \z, $), then moves the OP_SETs over c.  A match found by settling
 * belongs to the offset before c; its OP_MATCH rides into the next state
 * as a marker, which accepts there (the answers are "does it match" and
 * "which patterns match", not where).  $ and \Z before a final '\n' hold
 * only if the '\n' is the last byte: what they lead to rides into the
 * next state gated (GATED), alive only if the data ends there.  The end
 * of the data settles everything left, gated or not: the accept-at-end
 * flag of the state the walk ends in.
 *
 * Build: always.
 */
#include "engines/xdp_dfa.h"

#include "engines/engine.h"
#include "suites/reference.h"
#include "suites/reference_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NO_STATE UINT32_MAX
/* A state's entry that holds only if the data ends at its offset. */
#define GATED 0x80000000u
/* struct build.amask: computed */
#define AMASK_DONE 0x80u

/* One instruction of the whole NFA. */
struct ninst {
	unsigned char op, arg;
	uint32_t x, y;    /* global */
	uint32_t set;     /* OP_SET: index into nfa.sets */
	uint32_t id;      /* OP_MATCH: the pattern's id */
};

struct nfa {
	struct ninst *in;
	size_t n;
	struct ref_byteset *sets;
	size_t nsets;
	uint32_t *starts;  /* every pattern's start */
	size_t nstarts;
	size_t nfloat;     /* starts[0 .. nfloat): may start past offset 0 */
};

/* A growing array of uint32_t. */
struct vec {
	uint32_t *v;
	size_t n, cap;
};

/* The byte before an offset, as far as an assertion asks (bits). */
enum ctx {
	CTX_BOS = 1u << 0,  /* none: offset 0 */
	CTX_NL = 1u << 1,   /* '\n' */
	CTX_WORD = 1u << 2, /* [0-9A-Za-z_] */
};

/* What a closure knows about its offset. */
enum phase {
	AT_NEW,         /* the byte before (ctx); the byte after not yet */
	AT_BYTE,        /* ... and the byte after, c */
	AT_BYTE_GATED,  /* ... and c is a final '\n' (a gated thread) */
	AT_END,         /* the byte before; no byte after */
};

struct where {
	enum phase phase;
	unsigned ctx; /* enum ctx */
	unsigned c;   /* AT_BYTE*: the byte after */
};

/* An assertion's verdict at an offset. */
enum verdict {
	V_FAIL,
	V_HOLD,
	V_PEND, /* kept in the state until the byte after is known */
	V_GATE, /* holds if c is the last byte: $ \Z before a final '\n' */
};

/* The construction's state. */
struct build {
	struct nfa nfa;
	struct xdp_dfa *d;
	uint32_t max;
	struct vec pool;     /* every state's entries back to back */
	size_t *off;         /* state s: pool.v[off[s] .. off[s + 1]) */
	unsigned char *ctx;  /* state s's context (enum ctx) */
	uint32_t *hash;      /* open addressing: state + 1, 0 empty */
	size_t hsize;
	uint32_t *mark;      /* closure: instruction -> generation */
	uint32_t gen;
	unsigned char *amask; /* instruction -> assertions it reaches */
	uint32_t *dmark;     /* amask's search: instruction -> generation */
	uint32_t dgen;
	struct vec stack, out, seeds;
	struct vec gate;     /* settling: threads past a gated $ */
	struct vec next;     /* a step: seeds of the next offset */
	struct vec keep;     /* a step: markers and gated entries */
	struct vec dfs;      /* amask's stack */
	size_t first;        /* the index of p[0] in the caller's set */
	unsigned looks;      /* LOOK_NL | LOOK_WORD: what assertions see */
	unsigned char cls[256];
	unsigned char rep[256]; /* a byte of each class */
	char *why;
	size_t size;
};

static int vec_push(struct vec *v, uint32_t x)
{
	if (v->n == v->cap) {
		size_t c = v->cap ? v->cap * 2 : 64;
		uint32_t *g = realloc(v->v, c * sizeof(*g));
		if (g == NULL)
			return -1;
		v->v = g;
		v->cap = c;
	}
	v->v[v->n++] = x;
	return 0;
}

static int nomem(struct build *b)
{
	snprintf(b->why, b->size, "xdp dfa: out of memory");
	return -1;
}

/* ---- the NFA ---- */

/* What bytes assertion a tells apart, in the byte after an offset or,
   through the context, the byte before. */
enum look {
	LOOK_NL = 1u << 0,   /* '\n' */
	LOOK_WORD = 1u << 1, /* word bytes */
};

static unsigned assert_looks(unsigned a)
{
	switch (a) {
	case RA_MBOL:
	case RA_EOSNL:
	case RA_MEOL: return LOOK_NL;
	case RA_WORDB:
	case RA_NWORDB: return LOOK_WORD;
	default: return 0; /* offset 0, the end */
	}
}

/* Program prog of pattern p appended to the NFA.  0, or -1 with why. */
static int nfa_add(struct build *b, const struct ref_prog *prog,
		   const struct xdp_dfa_pattern *p)
{
	struct nfa *f = &b->nfa;
	uint32_t base = (uint32_t)f->n, sbase = (uint32_t)f->nsets;
	struct ninst *in = realloc(f->in, (f->n + prog->n) * sizeof(*in));
	struct ref_byteset *sets = realloc(f->sets, (f->nsets + prog->nsets) *
							    sizeof(*sets) + 1);

	if (in != NULL)
		f->in = in;
	if (sets != NULL)
		f->sets = sets;
	if (in == NULL || sets == NULL)
		return nomem(b);
	if (prog->nsets > 0) /* no class: prog->sets may be NULL */
		memcpy(f->sets + sbase, prog->sets,
		       prog->nsets * sizeof(*sets));
	f->nsets += prog->nsets;
	for (size_t i = 0; i < prog->n; i++) {
		const struct ref_inst *r = &prog->inst[i];
		if (r->op == OP_ASSERT)
			b->looks |= assert_looks(r->arg);
		f->in[base + i] = (struct ninst){r->op, r->arg, base + r->x,
			base + r->y, sbase + r->y, p->id};
	}
	f->n += prog->n;
	f->starts[f->nstarts++] = base + prog->start;
	return 0;
}

/* Pattern k parsed and built with the reference, then added. */
static int nfa_pattern(struct build *b, const struct xdp_dfa_pattern *p,
		       size_t k)
{
	struct ref_ast ast = {0};
	struct ref_prog prog = {0};
	unsigned needs, features;
	char why[200];
	int rc = -1;

	if (p->flags & ENGINE_UTF8) {
		snprintf(b->why, b->size, "pattern %zu (%.40s): UTF-8 mode: "
			 "matches must start on character boundaries, which a "
			 "byte DFA does not track", b->first + k, p->re);
		return -1;
	}
	if (p->id >= XDP_RXB_MAX_IDS) {
		snprintf(b->why, b->size, "pattern %zu: id %u (at most %u)",
			 b->first + k, p->id, XDP_RXB_MAX_IDS - 1);
		return -1;
	}
	if (ref_parse(p->re, p->len, p->flags, &ast, &needs, &features, why,
		      sizeof(why)) != 0 ||
	    ref_prog_build(&prog, &ast, 0, why, sizeof(why)) != 0)
		snprintf(b->why, b->size, "pattern %zu (%.40s): %s",
			 b->first + k, p->re, why);
	else
		rc = nfa_add(b, &prog, p);
	ref_prog_release(&prog);
	ref_ast_release(&ast);
	return rc;
}

/* The starts in order: floating ones first, anchored (ENGINE_ANCHORED)
   ones after nfloat. */
static int nfa_build(struct build *b, const struct xdp_dfa_pattern *p,
		     size_t n)
{
	struct nfa *f = &b->nfa;
	uint32_t tmp;

	f->starts = calloc(n + 1, sizeof(*f->starts));
	if (f->starts == NULL)
		return nomem(b);
	for (size_t k = 0; k < n; k++)
		if (nfa_pattern(b, &p[k], k) != 0)
			return -1;
	for (size_t k = 0; k < n; k++) {
		if (p[k].flags & ENGINE_ANCHORED)
			continue;
		tmp = f->starts[f->nfloat];
		f->starts[f->nfloat++] = f->starts[k];
		f->starts[k] = tmp;
	}
	return 0;
}

/* ---- assertions ---- */

static int is_word(unsigned c)
{
	return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') ||
	       (c >= 'A' && c <= 'Z') || c == '_';
}

/* The context an offset after byte c has. */
static unsigned byte_ctx(unsigned c)
{
	return c == '\n' ? CTX_NL : is_word(c) ? CTX_WORD : 0;
}

static enum verdict yes(int holds)
{
	return holds ? V_HOLD : V_FAIL;
}

/* Assertion a with the byte before known, the byte after not yet. */
static enum verdict at_new(unsigned a, unsigned ctx)
{
	switch (a) {
	case RA_BOS: return yes(ctx & CTX_BOS);
	case RA_MBOL: /* offset 0, or after a '\n' that is not last */
		return (ctx & CTX_BOS) ? V_HOLD : (ctx & CTX_NL) ? V_PEND
								 : V_FAIL;
	default: return V_PEND; /* the end, or the byte after */
	}
}

/* Assertion a with byte c after the offset. */
static enum verdict at_byte(unsigned a, const struct where *w)
{
	int before = (w->ctx & CTX_WORD) != 0, after = is_word(w->c);

	switch (a) {
	case RA_BOS: return yes(w->ctx & CTX_BOS);
	case RA_MBOL: return yes(w->ctx & (CTX_BOS | CTX_NL));
	case RA_EOS: return V_FAIL;
	case RA_EOSNL:
		if (w->c != '\n')
			return V_FAIL;
		return w->phase == AT_BYTE_GATED ? V_HOLD : V_GATE;
	case RA_MEOL: return yes(w->c == '\n');
	case RA_WORDB: return yes(before != after);
	default: return yes(before == after); /* RA_NWORDB */
	}
}

/* Assertion a at the end of the data. */
static enum verdict at_end(unsigned a, unsigned ctx)
{
	switch (a) {
	case RA_BOS:
	case RA_MBOL: return yes(ctx & CTX_BOS); /* empty data */
	case RA_WORDB: return yes(ctx & CTX_WORD);
	case RA_NWORDB: return yes(!(ctx & CTX_WORD));
	default: return V_HOLD; /* \z, \Z, $, multiline $ */
	}
}

static enum verdict verdict(unsigned a, const struct where *w)
{
	switch (w->phase) {
	case AT_NEW: return at_new(a, w->ctx);
	case AT_END: return at_end(a, w->ctx);
	default: return at_byte(a, w);
	}
}

static int in_set(const struct build *b, size_t s, unsigned c)
{
	return ref_byteset_has(&b->nfa.sets[s], c);
}

/* Byte classes: bytes that every set of the NFA treats alike, and that
   the assertions do ('\n', word bytes, the rest), as far as some
   assertion of the NFA looks. */
static void classes(struct build *b)
{
	unsigned char map[256][2];
	unsigned next;

	memset(b->cls, 0, sizeof(b->cls));
	for (size_t s = 0; s < b->nfa.nsets + 2; s++) {
		memset(map, 0xff, sizeof(map));
		next = 0;
		for (unsigned c = 0; c < 256; c++) {
			int in = s < b->nfa.nsets ? in_set(b, s, c) : 0;
			unsigned char *slot;
			if (s == b->nfa.nsets)
				in = (b->looks & LOOK_NL) && c == '\n';
			else if (s > b->nfa.nsets)
				in = (b->looks & LOOK_WORD) && is_word(c);
			slot = &map[b->cls[c]][in];
			if (*slot == 0xff)
				*slot = (unsigned char)next++;
			b->cls[c] = *slot;
		}
	}
	b->d->nclasses = 0;
	for (unsigned c = 0; c < 256; c++)
		if (b->cls[c] == b->d->nclasses)
			b->rep[b->d->nclasses++] = (unsigned char)c;
}

/* ---- closure ---- */

/* An assertion at pc: where its verdict sends the thread.  1 when pc
   stays in the state (pending), 0 when not, -1 out of memory. */
static int follow_assert(struct build *b, const struct ninst *in,
			 const struct where *w)
{
	switch (verdict(in->arg, w)) {
	case V_HOLD: return vec_push(&b->stack, in->x) ? -1 : 0;
	case V_PEND: return 1;
	case V_GATE: return vec_push(&b->gate, in->x) ? -1 : 0;
	default: return 0;
	}
}

/* Push the epsilon successors of pc; returns 1 when pc is kept. */
static int follow(struct build *b, uint32_t pc, const struct where *w)
{
	const struct ninst *in = &b->nfa.in[pc];
	int rc = 0;

	switch (in->op) {
	case OP_SET:
	case OP_MATCH:
		return 1;
	case OP_SPLIT:
	case OP_TAIL:
		rc = vec_push(&b->stack, in->y);
		/* fall through */
	case OP_JMP:
	case OP_HEAD:
		return vec_push(&b->stack, in->x) | rc ? -1 : 0;
	default: /* OP_ASSERT */
		return follow_assert(b, in, w);
	}
}

static int cmp_u32(const void *a, const void *c)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)c;

	return (x > y) - (x < y);
}

/* b->out = the sorted closure of b->seeds under w (threads past a gated
   $ onto b->gate).  0, or -1. */
static int closure(struct build *b, const struct where *w)
{
	b->gen++;
	b->out.n = 0;
	b->stack.n = 0;
	for (size_t i = 0; i < b->seeds.n; i++)
		if (vec_push(&b->stack, b->seeds.v[i]) != 0)
			return nomem(b);
	while (b->stack.n > 0) {
		uint32_t pc = b->stack.v[--b->stack.n];
		int keep;
		if (b->mark[pc] == b->gen)
			continue;
		b->mark[pc] = b->gen;
		keep = follow(b, pc, w);
		if (keep < 0 || (keep && vec_push(&b->out, pc) != 0))
			return nomem(b);
	}
	qsort(b->out.v, b->out.n, sizeof(uint32_t), cmp_u32);
	return 0;
}

/* ---- what a state's context must tell ---- */

/* The epsilon successors of pc for reach_asserts(). */
static int reach_push(struct build *b, uint32_t pc, unsigned *mask)
{
	const struct ninst *in = &b->nfa.in[pc];
	int rc = 0;

	switch (in->op) {
	case OP_SET:
	case OP_MATCH:
		return 0;
	case OP_ASSERT:
		*mask |= 1u << in->arg;
		return vec_push(&b->dfs, in->x);
	case OP_SPLIT:
	case OP_TAIL:
		rc = vec_push(&b->dfs, in->y);
		/* fall through */
	default: /* OP_JMP, OP_HEAD */
		return vec_push(&b->dfs, in->x) | rc;
	}
}

/* The assertions pc reaches without a byte, as bits 1 << enum
   ref_assert (memoised).  0, or -1 out of memory. */
static int reach_asserts(struct build *b, uint32_t pc, unsigned *mask)
{
	if (!(b->amask[pc] & AMASK_DONE)) {
		unsigned m = 0;
		b->dgen++;
		b->dfs.n = 0;
		if (vec_push(&b->dfs, pc) != 0)
			return nomem(b);
		while (b->dfs.n > 0) {
			uint32_t q = b->dfs.v[--b->dfs.n];
			if (b->dmark[q] == b->dgen)
				continue;
			b->dmark[q] = b->dgen;
			if (reach_push(b, q, &m) != 0)
				return nomem(b);
		}
		b->amask[pc] = (unsigned char)(m | AMASK_DONE);
	}
	*mask |= b->amask[pc] & ~AMASK_DONE;
	return 0;
}

/* ctx as far as b->out's unsettled entries (pending assertions, gated
   threads) can ask: states that differ only in the rest are one. */
static int canon_ctx(struct build *b, unsigned ctx, unsigned *out)
{
	unsigned m = 0, need = 0;

	for (size_t i = 0; i < b->out.n; i++) {
		uint32_t e = b->out.v[i], pc = e & ~GATED;
		if (((e & GATED) || b->nfa.in[pc].op == OP_ASSERT) &&
		    reach_asserts(b, pc, &m) != 0)
			return -1;
	}
	if (m & (1u << RA_BOS | 1u << RA_MBOL))
		need |= CTX_BOS;
	if (m & (1u << RA_MBOL))
		need |= CTX_NL;
	if (m & (1u << RA_WORDB | 1u << RA_NWORDB))
		need |= CTX_WORD;
	*out = ctx & need;
	return 0;
}

/* ---- states ---- */

static uint64_t state_hash(const uint32_t *v, size_t n, unsigned ctx)
{
	uint64_t h = 1469598103934665603ull ^ (uint64_t)ctx;

	for (size_t i = 0; i < n; i++)
		h = (h ^ v[i]) * 1099511628211ull;
	return h ^ (h >> 29);
}

static int state_is(const struct build *b, uint32_t s, unsigned ctx)
{
	size_t n = b->off[s + 1] - b->off[s];

	return b->ctx[s] == ctx && n == b->out.n &&
	       memcmp(b->pool.v + b->off[s], b->out.v, n * sizeof(uint32_t)) == 0;
}

/* The state whose entries are b->out (sorted, unique) in context ctx
   (the whole context: trimmed here): found, or added.  Its number, or
   NO_STATE past the cap or out of memory (why set). */
static uint32_t state_get(struct build *b, unsigned ctx)
{
	uint32_t s = b->d->nstates;
	size_t i;

	if (canon_ctx(b, ctx, &ctx) != 0)
		return NO_STATE;
	i = state_hash(b->out.v, b->out.n, ctx) & (b->hsize - 1);
	for (; b->hash[i] != 0; i = (i + 1) & (b->hsize - 1))
		if (state_is(b, b->hash[i] - 1, ctx))
			return b->hash[i] - 1;
	if (s >= b->max) {
		snprintf(b->why, b->size, "the DFA needs more than %u states "
			 "(--engine-opt xdp.max_states=N, at most %u)", b->max,
			 XDP_RXB_DFA_MAX_STATES);
		return NO_STATE;
	}
	for (size_t k = 0; k < b->out.n; k++)
		if (vec_push(&b->pool, b->out.v[k]) != 0) {
			nomem(b);
			return NO_STATE;
		}
	b->ctx[s] = (unsigned char)ctx;
	b->off[s + 1] = b->pool.n;
	b->hash[i] = s + 1;
	b->d->nstates++;
	return s;
}

/* Set bit `id` of ids for every OP_MATCH in b->out (not gated); 1 if
   any. */
static int out_ids(const struct build *b, __u64 *ids)
{
	int any = 0;

	for (size_t i = 0; i < b->out.n; i++) {
		const struct ninst *in;
		if (b->out.v[i] & GATED)
			continue;
		in = &b->nfa.in[b->out.v[i]];
		if (in->op != OP_MATCH)
			continue;
		ids[in->id / 64] |= 1ull << (in->id % 64);
		any = 1;
	}
	return any;
}

static int ids_differ(const __u64 *a, const __u64 *c)
{
	return memcmp(a, c, XDP_RXB_ID_WORDS * sizeof(__u64)) != 0;
}

/* b->out = state s's entries as they are. */
static int out_state(struct build *b, uint32_t s)
{
	b->out.n = 0;
	for (size_t i = b->off[s]; i < b->off[s + 1]; i++)
		if (vec_push(&b->out, b->pool.v[i]) != 0)
			return nomem(b);
	return 0;
}

/* State s's accept entry: what matches now (the state's own OP_MATCH
   entries), and at the end (everything settled with no byte after). */
static int state_accept(struct build *b, uint32_t s)
{
	struct xdp_rxb_accept *a = &b->d->acc[s];
	struct where end = {AT_END, b->ctx[s], 0};

	memset(a, 0, sizeof(*a));
	if (out_state(b, s) != 0)
		return -1;
	if (out_ids(b, a->now))
		a->flags |= XDP_RXB_ACC_NOW;
	b->seeds.n = 0;
	for (size_t i = 0; i < b->out.n; i++)
		if (vec_push(&b->seeds, b->out.v[i] & ~GATED) != 0)
			return nomem(b);
	if (closure(b, &end) != 0)
		return -1;
	if (out_ids(b, a->end) && ids_differ(a->end, a->now))
		a->flags |= XDP_RXB_ACC_END;
	b->d->tail |= (a->flags & XDP_RXB_ACC_END) != 0;
	return 0;
}

/* ---- a step: state s, byte c ---- */

/* Is pc one of state s's entries (not gated)? */
static int state_has(const struct build *b, uint32_t s, uint32_t pc)
{
	return bsearch(&pc, b->pool.v + b->off[s], b->off[s + 1] - b->off[s],
		       sizeof(uint32_t), cmp_u32) != NULL;
}

/* b->out's moves on c: an OP_SET's successor to b->next (gated: to
   b->keep, tagged), an OP_MATCH to b->keep as a marker, unless s holds
   it already (then it accepted in s).  0, or -1. */
static int advance(struct build *b, uint32_t s, unsigned c, uint32_t tag)
{
	for (size_t i = 0; i < b->out.n; i++) {
		uint32_t pc = b->out.v[i];
		const struct ninst *in = &b->nfa.in[pc];
		int rc = 0;
		if (in->op == OP_SET) {
			if (ref_byteset_has(&b->nfa.sets[in->set], c))
				rc = vec_push(tag ? &b->keep : &b->next,
					      in->x | tag);
		} else if (in->op == OP_MATCH &&
			   (tag || !state_has(b, s, pc))) {
			rc = vec_push(&b->keep, pc | tag);
		}
		if (rc != 0)
			return nomem(b);
	}
	return 0;
}

/*
 * Settle s's pending assertions with c after the offset, then move
 * everything over c (advance).  Threads past a $ that holds if c is a
 * final '\n' are settled again as such, and move gated.  0, or -1.
 */
static int settle(struct build *b, uint32_t s, unsigned c)
{
	struct where w = {AT_BYTE, b->ctx[s], c};

	b->seeds.n = 0;
	b->gate.n = 0;
	for (size_t i = b->off[s]; i < b->off[s + 1]; i++) {
		uint32_t e = b->pool.v[i];
		if (!(e & GATED) && vec_push(&b->seeds, e) != 0)
			return nomem(b);
	}
	if (closure(b, &w) != 0 || advance(b, s, c, 0) != 0)
		return -1;
	if (b->gate.n == 0)
		return 0;
	w.phase = AT_BYTE_GATED;
	b->seeds.n = 0;
	for (size_t i = 0; i < b->gate.n; i++)
		if (vec_push(&b->seeds, b->gate.v[i]) != 0)
			return nomem(b);
	if (closure(b, &w) != 0)
		return -1;
	return advance(b, s, c, GATED);
}

/* b->out sorted without repeats. */
static void out_unique(struct build *b)
{
	size_t n = 0;

	qsort(b->out.v, b->out.n, sizeof(uint32_t), cmp_u32);
	for (size_t i = 0; i < b->out.n; i++)
		if (n == 0 || b->out.v[n - 1] != b->out.v[i])
			b->out.v[n++] = b->out.v[i];
	b->out.n = n;
}

/* The state after byte c from state s. */
static uint32_t step(struct build *b, uint32_t s, unsigned c)
{
	struct where w = {AT_NEW, byte_ctx(c), 0};

	b->next.n = 0;
	b->keep.n = 0;
	if (settle(b, s, c) != 0)
		return NO_STATE;
	b->seeds.n = 0;
	for (size_t i = 0; i < b->next.n; i++)
		if (vec_push(&b->seeds, b->next.v[i]) != 0)
			return nomem(b), NO_STATE;
	for (size_t k = 0; k < b->nfa.nfloat; k++)
		if (vec_push(&b->seeds, b->nfa.starts[k]) != 0)
			return nomem(b), NO_STATE;
	if (closure(b, &w) != 0)
		return NO_STATE;
	for (size_t i = 0; i < b->keep.n; i++)
		if (vec_push(&b->out, b->keep.v[i]) != 0)
			return nomem(b), NO_STATE;
	out_unique(b);
	return state_get(b, w.ctx);
}

/* Every byte class's transition from state s into the table. */
static int expand(struct build *b, uint32_t s)
{
	uint16_t row[256];

	for (unsigned k = 0; k < b->d->nclasses; k++) {
		uint32_t t = step(b, s, b->rep[k]);
		if (t == NO_STATE)
			return -1;
		row[k] = (uint16_t)t;
	}
	for (unsigned c = 0; c < 256; c++)
		b->d->next[(size_t)s * 256 + c] = row[b->cls[c]];
	return 0;
}

static int build_alloc(struct build *b)
{
	b->hsize = 1;
	while (b->hsize < 2 * (size_t)b->max)
		b->hsize *= 2;
	b->off = calloc((size_t)b->max + 1, sizeof(*b->off));
	b->ctx = calloc(b->max, 1);
	b->amask = calloc(b->nfa.n + 1, 1);
	b->dmark = calloc(b->nfa.n + 1, sizeof(*b->dmark));
	b->hash = calloc(b->hsize, sizeof(*b->hash));
	b->mark = calloc(b->nfa.n + 1, sizeof(*b->mark));
	b->d->next = calloc((size_t)b->max * 256, sizeof(uint16_t));
	if (b->off == NULL || b->ctx == NULL || b->hash == NULL ||
	    b->mark == NULL || b->d->next == NULL || b->amask == NULL ||
	    b->dmark == NULL)
		return nomem(b);
	return 0;
}

static void build_release(struct build *b)
{
	free(b->nfa.in);
	free(b->nfa.sets);
	free(b->nfa.starts);
	free(b->pool.v);
	free(b->off);
	free(b->ctx);
	free(b->amask);
	free(b->dmark);
	free(b->hash);
	free(b->mark);
	free(b->stack.v);
	free(b->out.v);
	free(b->seeds.v);
	free(b->gate.v);
	free(b->next.v);
	free(b->keep.v);
	free(b->dfs.v);
}

/* The start state, then every state's row, breadth first. */
static int construct(struct build *b)
{
	struct where start = {AT_NEW, CTX_BOS, 0};

	b->seeds.n = 0;
	for (size_t k = 0; k < b->nfa.nstarts; k++)
		if (vec_push(&b->seeds, b->nfa.starts[k]) != 0)
			return nomem(b);
	if (closure(b, &start) != 0 || state_get(b, CTX_BOS) == NO_STATE)
		return -1;
	for (uint32_t s = 0; s < b->d->nstates; s++)
		if (expand(b, s) != 0)
			return -1;
	return 0;
}

/* The accept entries of every state. */
static int finish(struct build *b)
{
	struct xdp_dfa *d = b->d;

	d->acc = calloc(d->nstates, sizeof(*d->acc));
	if (d->acc == NULL)
		return nomem(b);
	for (uint32_t s = 0; s < d->nstates; s++)
		if (state_accept(b, s) != 0)
			return -1;
	return 0;
}

/* One DFA of p[0..n) in d, its start state 0; no accept bits yet. */
static int build_one(struct xdp_dfa *d, const struct xdp_dfa_pattern *p,
		     size_t n, size_t first, uint32_t max_states, char *why,
		     size_t size)
{
	struct build b = {.d = d, .max = max_states, .why = why, .size = size,
			  .first = first};
	int rc = -1;

	memset(d, 0, sizeof(*d));
	if (nfa_build(&b, p, n) != 0)
		goto out;
	classes(&b);
	if (build_alloc(&b) == 0 && construct(&b) == 0 && finish(&b) == 0)
		rc = 0;
out:
	build_release(&b);
	return rc;
}

/* Group e (one DFA, its states from 0) appended to d.  0 or -1. */
static int merge(struct xdp_dfa *d, const struct xdp_dfa *e)
{
	size_t n = (size_t)d->nstates + e->nstates;
	uint16_t *next = realloc(d->next, n * 256 * sizeof(*next));
	struct xdp_rxb_accept *acc = realloc(d->acc, n * sizeof(*acc));

	if (next != NULL)
		d->next = next;
	if (acc != NULL)
		d->acc = acc;
	if (next == NULL || acc == NULL)
		return -1;
	memcpy(next + (size_t)d->nstates * 256, e->next,
	       (size_t)e->nstates * 256 * sizeof(*next));
	memcpy(acc + d->nstates, e->acc, e->nstates * sizeof(*acc));
	d->base[d->ngroups] = d->nstates;
	d->states[d->ngroups++] = e->nstates;
	d->nstates = (uint32_t)n;
	d->nclasses = d->nclasses > e->nclasses ? d->nclasses : e->nclasses;
	d->tail |= e->tail;
	return 0;
}

/* The kernel's rows per table (the largest group's, a power of two),
   and the accept bits in the entries. */
static void seal(struct xdp_dfa *d)
{
	d->rows = 1;
	for (uint32_t g = 0; g < d->ngroups; g++)
		while (d->rows < d->states[g])
			d->rows *= 2;
	for (uint32_t g = 0; g < d->ngroups; g++) {
		uint16_t *row = d->next + (size_t)d->base[g] * 256;
		const struct xdp_rxb_accept *acc = d->acc + d->base[g];
		for (size_t i = 0; i < (size_t)d->states[g] * 256; i++)
			if (acc[row[i]].flags & XDP_RXB_ACC_NOW)
				row[i] |= XDP_DFA_ACCEPT;
	}
}

/* The product construction under way (product()). */
struct prod {
	const struct xdp_dfa *a, *b;
	struct xdp_dfa *e;
	uint32_t max;
	size_t hsize;
	uint64_t *key;     /* open addressing: pair + 1, 0 empty */
	uint32_t *val;     /* the pair's state */
	uint32_t *pa, *pb; /* state -> its pair */
};

/* The state of pair (x, y): found, or added.  NO_STATE past max. */
static uint32_t prod_get(struct prod *p, uint32_t x, uint32_t y)
{
	uint64_t k = ((uint64_t)x << 32 | y) + 1;
	size_t i = (size_t)((k * 0x9e3779b97f4a7c15ull) >> 32) &
		   (p->hsize - 1);
	uint32_t s = p->e->nstates;

	for (; p->key[i] != 0; i = (i + 1) & (p->hsize - 1))
		if (p->key[i] == k)
			return p->val[i];
	if (s >= p->max)
		return NO_STATE;
	p->key[i] = k;
	p->val[i] = s;
	p->pa[s] = x;
	p->pb[s] = y;
	p->e->nstates++;
	return s;
}

/* State s's row: its pair's rows side by side.  0, or -1 past max. */
static int prod_row(struct prod *p, uint32_t s)
{
	const uint16_t *ra = p->a->next + (size_t)p->pa[s] * 256;
	const uint16_t *rb = p->b->next + (size_t)p->pb[s] * 256;
	uint16_t *out = p->e->next + (size_t)s * 256;
	uint32_t x = NO_STATE, y = 0, t = 0;

	for (unsigned c = 0; c < 256; c++) {
		if (ra[c] != x || rb[c] != y) { /* runs of a class: one look */
			x = ra[c];
			y = rb[c];
			t = prod_get(p, x, y);
			if (t == NO_STATE)
				return -1;
		}
		out[c] = (uint16_t)t;
	}
	return 0;
}

/* Every state accepts what either of its pair does. */
static void prod_accept(struct prod *p)
{
	for (uint32_t s = 0; s < p->e->nstates; s++) {
		const struct xdp_rxb_accept *x = &p->a->acc[p->pa[s]];
		const struct xdp_rxb_accept *y = &p->b->acc[p->pb[s]];
		struct xdp_rxb_accept *o = &p->e->acc[s];
		o->flags = x->flags | y->flags;
		for (unsigned k = 0; k < XDP_RXB_ID_WORDS; k++) {
			o->now[k] = x->now[k] | y->now[k];
			o->end[k] = x->end[k] | y->end[k];
		}
	}
}

/*
 * The product of DFAs a and b (one group each, states from 0, no accept
 * bits in next yet) into e: a state per pair of theirs reachable from
 * (0, 0), accepting what either accepts.  It is the DFA the subset
 * construction makes of a's and b's patterns together (their NFAs are
 * disjoint; a state's context is what either keeps), at two table
 * lookups per byte class instead of a closure.  0, or -1 when it needs
 * more than max states or memory (e released).
 */
static int product(struct xdp_dfa *e, const struct xdp_dfa *a,
		   const struct xdp_dfa *b, uint32_t max)
{
	struct prod p = {a, b, e, max, 1, NULL, NULL, NULL, NULL};
	int rc = -1;

	memset(e, 0, sizeof(*e));
	while (p.hsize < 2 * (size_t)max)
		p.hsize *= 2;
	p.key = calloc(p.hsize, sizeof(*p.key));
	p.val = calloc(p.hsize, sizeof(*p.val));
	p.pa = calloc(max, sizeof(*p.pa));
	p.pb = calloc(max, sizeof(*p.pb));
	e->next = malloc((size_t)max * 256 * sizeof(*e->next));
	if (p.key == NULL || p.val == NULL || p.pa == NULL || p.pb == NULL ||
	    e->next == NULL || prod_get(&p, 0, 0) == NO_STATE)
		goto out;
	for (uint32_t s = 0; s < e->nstates; s++)
		if (prod_row(&p, s) != 0)
			goto out;
	e->acc = calloc(e->nstates, sizeof(*e->acc));
	if (e->acc == NULL)
		goto out;
	prod_accept(&p);
	e->nclasses = a->nclasses > b->nclasses ? a->nclasses : b->nclasses;
	e->tail = a->tail | b->tail;
	rc = 0;
out:
	free(p.key);
	free(p.val);
	free(p.pa);
	free(p.pb);
	if (rc != 0)
		xdp_dfa_release(e);
	return rc;
}

/* The packing under way: each pattern's DFA alone, the groups'. */
struct pack {
	const struct xdp_dfa_pattern *p; /* the set */
	size_t n;
	uint32_t max_states, max_groups;
	size_t *order;        /* p's indices, the most states alone first */
	struct xdp_dfa *one;  /* n: p[i]'s DFA alone */
	struct xdp_dfa dfa[XDP_RXB_DFA_GROUPS];
	uint32_t ngroups;
};

/* why, a reason about pattern i that may not say so, naming it. */
static void name_pattern(const struct xdp_dfa_pattern *p, size_t i,
			 char *why, size_t size)
{
	char tmp[256];

	if (strncmp(why, "pattern ", 8) == 0)
		return;
	snprintf(tmp, sizeof(tmp), "%s", why);
	snprintf(why, size, "pattern %zu (%.40s): %s", i, p->re, tmp);
}

/* Each pattern's DFA alone (refused ones named in why), its table
   trimmed to its states.  0, or -1. */
static int pack_alone(struct pack *k, char *why, size_t size)
{
	for (size_t i = 0; i < k->n; i++) {
		struct xdp_dfa *t = &k->one[i];
		uint16_t *g;
		if (build_one(t, &k->p[i], 1, i, k->max_states, why, size)) {
			name_pattern(&k->p[i], i, why, size);
			return -1;
		}
		g = realloc(t->next, (size_t)t->nstates * 256 * sizeof(*g));
		if (g != NULL)
			t->next = g;
	}
	return 0;
}

/* A global for qsort's comparison: the pack being ordered. */
static const struct pack *pack_sorting;

/* The most states alone first; p's order among equals. */
static int cmp_alone(const void *a, const void *b)
{
	size_t x = *(const size_t *)a, y = *(const size_t *)b;
	uint32_t sx = pack_sorting->one[x].nstates;
	uint32_t sy = pack_sorting->one[y].nstates;

	if (sx != sy)
		return sx < sy ? 1 : -1;
	return (x > y) - (x < y);
}

/*
 * Pattern i into the group whose DFA grows least with it (within the
 * cap), or a new group.  0, or -1 with why when none has room and every
 * group is taken (or out of memory).
 */
static int pack_place(struct pack *k, size_t i, char *why, size_t size)
{
	struct xdp_dfa best = {0}, t;
	uint32_t at = k->ngroups, grow = UINT32_MAX;

	for (uint32_t g = 0; g < k->ngroups; g++) {
		if (product(&t, &k->dfa[g], &k->one[i], k->max_states) != 0)
			continue;
		if (t.nstates - k->dfa[g].nstates < grow) {
			xdp_dfa_release(&best);
			best = t;
			at = g;
			grow = t.nstates - k->dfa[g].nstates;
		} else {
			xdp_dfa_release(&t);
		}
	}
	if (at < k->ngroups) {
		xdp_dfa_release(&k->dfa[at]);
		k->dfa[at] = best;
		return 0;
	}
	if (k->ngroups == k->max_groups) {
		snprintf(why, size, "pattern %zu (%.40s): the set needs more "
			 "than %u DFAs of %u states (xdp.max_groups, "
			 "xdp.max_states)", i, k->p[i].re, k->max_groups,
			 k->max_states);
		return -1;
	}
	k->dfa[k->ngroups++] = k->one[i];
	memset(&k->one[i], 0, sizeof(k->one[i]));
	return 0;
}

static void pack_release(struct pack *k)
{
	for (uint32_t g = 0; g < k->ngroups; g++)
		xdp_dfa_release(&k->dfa[g]);
	for (size_t i = 0; k->one != NULL && i < k->n; i++)
		xdp_dfa_release(&k->one[i]);
	free(k->one);
	free(k->order);
}

/*
 * Best fit, largest first: each pattern's DFA alone (refused ones named),
 * then in order of their states, most first, each into the group whose
 * DFA grows least with it, or a new group; a group's DFA is the product
 * of its patterns'.  The groups' DFAs into d.  0, or -1 with why.
 */
static int pack(struct pack *k, struct xdp_dfa *d, char *why, size_t size)
{
	k->order = calloc(k->n, sizeof(*k->order));
	k->one = calloc(k->n, sizeof(*k->one));
	if (k->order == NULL || k->one == NULL) {
		snprintf(why, size, "xdp dfa: out of memory");
		return -1;
	}
	if (pack_alone(k, why, size) != 0)
		return -1;
	for (size_t i = 0; i < k->n; i++)
		k->order[i] = i;
	pack_sorting = k;
	qsort(k->order, k->n, sizeof(*k->order), cmp_alone);
	for (size_t i = 0; i < k->n; i++)
		if (pack_place(k, k->order[i], why, size) != 0)
			return -1;
	for (uint32_t g = 0; g < k->ngroups; g++)
		if (merge(d, &k->dfa[g]) != 0) {
			snprintf(why, size, "xdp dfa: out of memory");
			return -1;
		}
	return 0;
}

int xdp_dfa_build_capped(struct xdp_dfa *d, const struct xdp_dfa_pattern *p,
			 size_t n, uint32_t max_states, uint32_t max_groups,
			 char *why, size_t size)
{
	struct pack k = {p, n, max_states, max_groups, NULL, NULL, {{0}}, 0};
	int rc;

	memset(d, 0, sizeof(*d));
	why[0] = '\0';
	if (n == 0) {
		snprintf(why, size, "no pattern");
		return -1;
	}
	if (max_states == 0 || max_states > XDP_RXB_DFA_MAX_STATES) {
		snprintf(why, size, "xdp.max_states=%u: 1 to %u", max_states,
			 XDP_RXB_DFA_MAX_STATES);
		return -1;
	}
	if (max_groups == 0 || max_groups > XDP_RXB_DFA_GROUPS) {
		snprintf(why, size, "xdp.max_groups=%u: 1 to %u", max_groups,
			 XDP_RXB_DFA_GROUPS);
		return -1;
	}
	rc = pack(&k, d, why, size);
	pack_release(&k);
	if (rc != 0) {
		xdp_dfa_release(d);
		return -1;
	}
	seal(d);
	return 0;
}

int xdp_dfa_build(struct xdp_dfa *d, const struct xdp_dfa_pattern *p,
		  size_t n, uint32_t max_states, char *why, size_t size)
{
	return xdp_dfa_build_capped(d, p, n, max_states,
				    XDP_DFA_DEFAULT_MAX_GROUPS, why, size);
}

/* ids |= src when all; a match in any case. */
static void found(int all, __u64 *ids, const __u64 *src)
{
	if (!all)
		return;
	for (unsigned k = 0; k < XDP_RXB_ID_WORDS; k++)
		ids[k] |= src[k];
}

/* Group g's walk from its start, then its end; 1 on a match. */
static int scan_group(const struct xdp_dfa *d, uint32_t g,
		      const unsigned char *p, size_t len, int all, __u64 *ids)
{
	const uint16_t *next = d->next + (size_t)d->base[g] * 256;
	const struct xdp_rxb_accept *acc = d->acc + d->base[g];
	uint32_t s = 0;
	int hit = 0;

	if (acc[s].flags & XDP_RXB_ACC_NOW) {
		hit = 1;
		found(all, ids, acc[s].now);
	}
	for (size_t i = 0; i < len && (all || !hit); i++) {
		uint32_t v = next[(size_t)s * 256 + p[i]];
		s = v & ~XDP_DFA_ACCEPT;
		if (v & XDP_DFA_ACCEPT) {
			hit = 1;
			found(all, ids, acc[s].now);
		}
	}
	if (hit && !all)
		return 1;
	if (acc[s].flags & XDP_RXB_ACC_END) {
		hit = 1;
		found(all, ids, acc[s].end);
	}
	return hit;
}

int xdp_dfa_scan(const struct xdp_dfa *d, const void *data, size_t len,
		 int all, __u64 ids[XDP_RXB_ID_WORDS])
{
	int hit = 0;

	memset(ids, 0, XDP_RXB_ID_WORDS * sizeof(__u64));
	for (uint32_t g = 0; g < d->ngroups && (all || !hit); g++)
		hit |= scan_group(d, g, data, len, all, ids);
	return hit;
}

void xdp_dfa_release(struct xdp_dfa *d)
{
	free(d->next);
	free(d->acc);
	memset(d, 0, sizeof(*d));
}

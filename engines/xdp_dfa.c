/*
 * xdp_dfa.c - subset construction of an unanchored byte DFA from the
 * reference's programs (see xdp_dfa.h).
 *
 * The patterns' programs are laid end to end as one NFA.  A closure
 * follows the epsilon moves (OP_SPLIT, OP_JMP, OP_HEAD, OP_TAIL: for the
 * set of states reached, PCRE2's "an empty iteration does not loop
 * again" changes priorities, not which states are reachable) and keeps
 * what decides the future: the OP_SET and OP_MATCH instructions reached,
 * and the assertions that did not hold, so that the end of the data can
 * be tried later (the walker knows the end only when it gets there).
 * A DFA state is that sorted list of instructions, plus a flag for the
 * start state, the one place ^ holds.
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

/* Where the data is, for the assertions. */
struct where {
	int bos, eos, eosnl;
};

/* The construction's state. */
struct build {
	struct nfa nfa;
	struct xdp_dfa *d;
	uint32_t max;
	struct vec pool;     /* every state's instructions back to back */
	size_t *off;         /* state s: pool.v[off[s] .. off[s + 1]) */
	unsigned char *init; /* state s is the start state */
	uint32_t *hash;      /* open addressing: state + 1, 0 empty */
	size_t hsize;
	uint32_t *mark;      /* closure: instruction -> generation */
	uint32_t gen;
	struct vec stack, out, seeds;
	size_t first;        /* the index of p[0] in the caller's set */
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

/* Why assertion `a` is out of a DFA's reach, or NULL when it is not. */
static const char *assert_refused(unsigned a)
{
	switch (a) {
	case RA_MBOL: return "multiline ^ needs the byte before each offset";
	case RA_MEOL: return "multiline $ needs the byte after each offset";
	case RA_WORDB: return "\\b needs the bytes around an offset";
	case RA_NWORDB: return "\\B needs the bytes around an offset";
	default: return NULL;
	}
}

/* Program prog of pattern p appended to the NFA.  0, or -1 with why. */
static int nfa_add(struct build *b, const struct ref_prog *prog,
		   const struct xdp_dfa_pattern *p, size_t k)
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
		const char *no = r->op == OP_ASSERT ? assert_refused(r->arg) : NULL;
		if (no != NULL) {
			snprintf(b->why, b->size, "pattern %zu (%.40s): %s",
				 b->first + k, p->re, no);
			return -1;
		}
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
		rc = nfa_add(b, &prog, p, k);
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

/* Byte classes: bytes that every set of the NFA treats alike. */
static void classes(struct build *b)
{
	unsigned char map[256][2];
	unsigned next;

	memset(b->cls, 0, sizeof(b->cls));
	for (size_t s = 0; s < b->nfa.nsets; s++) {
		memset(map, 0xff, sizeof(map));
		next = 0;
		for (unsigned c = 0; c < 256; c++) {
			int in = ref_byteset_has(&b->nfa.sets[s], c);
			unsigned char *slot = &map[b->cls[c]][in];
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

static int holds(unsigned a, const struct where *w)
{
	switch (a) {
	case RA_BOS: return w->bos;
	case RA_EOS: return w->eos;
	default: return w->eos || w->eosnl; /* RA_EOSNL */
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
		if (holds(in->arg, w))
			return vec_push(&b->stack, in->x) ? -1 : 0;
		return 1;
	}
}

static int cmp_u32(const void *a, const void *c)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)c;

	return (x > y) - (x < y);
}

/* b->out = the sorted closure of b->seeds under w.  0, or -1. */
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

/* ---- states ---- */

static uint64_t state_hash(const uint32_t *v, size_t n, int init)
{
	uint64_t h = 1469598103934665603ull ^ (uint64_t)init;

	for (size_t i = 0; i < n; i++)
		h = (h ^ v[i]) * 1099511628211ull;
	return h ^ (h >> 29);
}

static int state_is(const struct build *b, uint32_t s, int init)
{
	size_t n = b->off[s + 1] - b->off[s];

	return b->init[s] == init && n == b->out.n &&
	       memcmp(b->pool.v + b->off[s], b->out.v, n * sizeof(uint32_t)) == 0;
}

/* The state whose instructions are b->out: found, or added.  Its
   number, or NO_STATE past the cap or out of memory (why set). */
static uint32_t state_get(struct build *b, int init)
{
	size_t i = state_hash(b->out.v, b->out.n, init) & (b->hsize - 1);
	uint32_t s = b->d->nstates;

	for (; b->hash[i] != 0; i = (i + 1) & (b->hsize - 1))
		if (state_is(b, b->hash[i] - 1, init))
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
	b->init[s] = (unsigned char)init;
	b->off[s + 1] = b->pool.n;
	b->hash[i] = s + 1;
	b->d->nstates++;
	return s;
}

/* Set bit `id` of ids for every OP_MATCH in b->out; 1 if any. */
static int out_ids(const struct build *b, __u64 *ids)
{
	int any = 0;

	for (size_t i = 0; i < b->out.n; i++) {
		const struct ninst *in = &b->nfa.in[b->out.v[i]];
		if (in->op != OP_MATCH)
			continue;
		ids[in->id / 64] |= 1ull << (in->id % 64);
		any = 1;
	}
	return any;
}

/* The seeds: state s's instructions. */
static int seed_state(struct build *b, uint32_t s)
{
	b->seeds.n = 0;
	for (size_t i = b->off[s]; i < b->off[s + 1]; i++)
		if (vec_push(&b->seeds, b->pool.v[i]) != 0)
			return nomem(b);
	return 0;
}

static int ids_differ(const __u64 *a, const __u64 *c)
{
	return memcmp(a, c, XDP_RXB_ID_WORDS * sizeof(__u64)) != 0;
}

/* State s's accept entry: now, at the end, before a final '\n'. */
static int state_accept(struct build *b, uint32_t s)
{
	struct xdp_rxb_accept *a = &b->d->acc[s];
	struct where end = {b->init[s], 1, 1}, nl = {b->init[s], 0, 1};

	memset(a, 0, sizeof(*a));
	if (seed_state(b, s) != 0)
		return -1;
	b->out.n = 0;
	for (size_t i = 0; i < b->seeds.n; i++)
		b->out.v[b->out.n++] = b->seeds.v[i];
	if (out_ids(b, a->now))
		a->flags |= XDP_RXB_ACC_NOW;
	if (closure(b, &end) != 0)
		return -1;
	if (out_ids(b, a->end) && ids_differ(a->end, a->now))
		a->flags |= XDP_RXB_ACC_END;
	if (closure(b, &nl) != 0)
		return -1;
	if (out_ids(b, a->nl) && ids_differ(a->nl, a->now))
		a->flags |= XDP_RXB_ACC_NL;
	b->d->tail |= (a->flags & (XDP_RXB_ACC_END | XDP_RXB_ACC_NL)) != 0;
	return 0;
}

/* The state after byte c from state s (seeds: s's instructions). */
static uint32_t step(struct build *b, uint32_t s, unsigned c)
{
	static const struct where mid = {0, 0, 0};

	b->seeds.n = 0;
	for (size_t i = b->off[s]; i < b->off[s + 1]; i++) {
		const struct ninst *in = &b->nfa.in[b->pool.v[i]];
		if (in->op == OP_SET && ref_byteset_has(&b->nfa.sets[in->set], c) &&
		    vec_push(&b->seeds, in->x) != 0)
			return nomem(b), NO_STATE;
	}
	for (size_t k = 0; k < b->nfa.nfloat; k++)
		if (vec_push(&b->seeds, b->nfa.starts[k]) != 0)
			return nomem(b), NO_STATE;
	if (closure(b, &mid) != 0)
		return NO_STATE;
	return state_get(b, 0);
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
	b->init = calloc(b->max, 1);
	b->hash = calloc(b->hsize, sizeof(*b->hash));
	b->mark = calloc(b->nfa.n + 1, sizeof(*b->mark));
	b->d->next = calloc((size_t)b->max * 256, sizeof(uint16_t));
	if (b->off == NULL || b->init == NULL || b->hash == NULL ||
	    b->mark == NULL || b->d->next == NULL)
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
	free(b->init);
	free(b->hash);
	free(b->mark);
	free(b->stack.v);
	free(b->out.v);
	free(b->seeds.v);
}

/* The start state, then every state's row, breadth first. */
static int construct(struct build *b)
{
	struct where start = {1, 0, 0};

	b->seeds.n = 0;
	for (size_t k = 0; k < b->nfa.nstarts; k++)
		if (vec_push(&b->seeds, b->nfa.starts[k]) != 0)
			return nomem(b);
	if (closure(b, &start) != 0 || state_get(b, 1) == NO_STATE)
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
	d->ngroups = 1;
	if (nfa_build(&b, p, n) != 0)
		goto out;
	classes(&b);
	if (build_alloc(&b) == 0 && construct(&b) == 0 && finish(&b) == 0)
		rc = 0;
out:
	build_release(&b);
	return rc;
}

/* Group e appended to d (its states renumbered after d's).  0 or -1. */
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
	for (size_t i = 0; i < (size_t)e->nstates * 256; i++)
		next[(size_t)d->nstates * 256 + i] =
			(uint16_t)(e->next[i] + d->nstates);
	memcpy(acc + d->nstates, e->acc, e->nstates * sizeof(*acc));
	d->start[d->ngroups++] = d->nstates;
	d->nstates = (uint32_t)n;
	d->nclasses = d->nclasses > e->nclasses ? d->nclasses : e->nclasses;
	d->tail |= e->tail;
	return 0;
}

/* Rows rounded up to a power of two, accept bits in the table. */
static int seal(struct xdp_dfa *d)
{
	uint16_t *g;

	d->rows = 1;
	while (d->rows < d->nstates)
		d->rows *= 2;
	g = realloc(d->next, (size_t)d->rows * 256 * sizeof(uint16_t));
	if (g == NULL)
		return -1;
	d->next = g;
	memset(g + (size_t)d->nstates * 256, 0,
	       (size_t)(d->rows - d->nstates) * 256 * sizeof(uint16_t));
	for (size_t i = 0; i < (size_t)d->nstates * 256; i++)
		if (d->acc[d->next[i]].flags & XDP_RXB_ACC_NOW)
			d->next[i] |= XDP_DFA_ACCEPT;
	return 0;
}

/*
 * The longest run p[0..*taken) (at least one pattern) whose DFA fits in
 * `room` states, into e.  0, or -1 with why (the first pattern alone
 * does not fit, or is refused).
 */
static int pack_group(struct xdp_dfa *e, const struct xdp_dfa_pattern *p,
		      size_t n, size_t first, uint32_t room, size_t *taken,
		      char *why, size_t size)
{
	struct xdp_dfa t;
	size_t k = 1;

	if (build_one(e, p, 1, first, room, why, size) != 0)
		return -1;
	while (k < n && build_one(&t, p, k + 1, first, room, why, size) == 0) {
		xdp_dfa_release(e);
		*e = t;
		k++;
	}
	if (k < n)
		xdp_dfa_release(&t);
	why[0] = '\0';
	*taken = k;
	return 0;
}

/* Why p[at] found no room; d released.  Returns -1. */
static int refused(struct xdp_dfa *d, const struct xdp_dfa_pattern *p,
		   size_t at, uint32_t max_states, char *why, size_t size)
{
	char tmp[256];

	if (strncmp(why, "the DFA needs", 13) == 0) {
		snprintf(tmp, sizeof(tmp), "%s", why);
		snprintf(why, size, "pattern %zu (%.40s): %s%s", at, p[at].re,
			 tmp, d->ngroups ? " with the groups before it" : "");
	} else if (why[0] == '\0') {
		snprintf(why, size, "pattern %zu (%.40s): the set needs more "
			 "than %u DFAs within %u states (xdp.max_states)", at,
			 p[at].re, XDP_RXB_DFA_GROUPS, max_states);
	}
	xdp_dfa_release(d);
	return -1;
}

int xdp_dfa_build(struct xdp_dfa *d, const struct xdp_dfa_pattern *p,
		  size_t n, uint32_t max_states, char *why, size_t size)
{
	size_t done = 0, k;

	memset(d, 0, sizeof(*d));
	why[0] = '\0';
	if (n == 0 || max_states == 0 || max_states > XDP_RXB_DFA_MAX_STATES) {
		snprintf(why, size, n ? "xdp.max_states=%u: 1 to %u" :
			 "no pattern", max_states, XDP_RXB_DFA_MAX_STATES);
		return -1;
	}
	while (done < n) {
		struct xdp_dfa e = {0};
		int rc = d->ngroups == XDP_RXB_DFA_GROUPS ? -1 :
			 pack_group(&e, p + done, n - done, done,
				    max_states - d->nstates, &k, why, size);
		if (rc == 0)
			rc = merge(d, &e);
		xdp_dfa_release(&e);
		if (rc != 0)
			return refused(d, p, done, max_states, why, size);
		done += k;
	}
	return seal(d) == 0 ? 0 : -1;
}

/* ids |= src when all; a match in any case. */
static void found(int all, __u64 *ids, const __u64 *src)
{
	if (!all)
		return;
	for (unsigned k = 0; k < XDP_RXB_ID_WORDS; k++)
		ids[k] |= src[k];
}

/* The end of the walk in state s, prev before the last byte. */
static int scan_end(const struct xdp_dfa *d, const unsigned char *data,
		    size_t len, uint32_t s, uint32_t prev, int all,
		    __u64 *ids)
{
	int hit = 0;

	if (d->acc[s].flags & XDP_RXB_ACC_END) {
		hit = 1;
		found(all, ids, d->acc[s].end);
	}
	if (len > 0 && data[len - 1] == '\n' &&
	    (d->acc[prev].flags & XDP_RXB_ACC_NL)) {
		hit = 1;
		found(all, ids, d->acc[prev].nl);
	}
	return hit;
}

/* One group's walk from state s; 1 on a match. */
static int scan_group(const struct xdp_dfa *d, uint32_t s,
		      const unsigned char *p, size_t len, int all, __u64 *ids)
{
	uint32_t prev = s;
	int hit = 0;

	if (d->acc[s].flags & XDP_RXB_ACC_NOW) {
		hit = 1;
		found(all, ids, d->acc[s].now);
	}
	for (size_t i = 0; i < len && (all || !hit); i++) {
		uint32_t v = d->next[(size_t)s * 256 + p[i]];
		prev = s;
		s = v & ~XDP_DFA_ACCEPT;
		if (v & XDP_DFA_ACCEPT) {
			hit = 1;
			found(all, ids, d->acc[s].now);
		}
	}
	if (hit && !all)
		return 1;
	return scan_end(d, p, len, s, prev, all, ids) | hit;
}

int xdp_dfa_scan(const struct xdp_dfa *d, const void *data, size_t len,
		 int all, __u64 ids[XDP_RXB_ID_WORDS])
{
	int hit = 0;

	memset(ids, 0, XDP_RXB_ID_WORDS * sizeof(__u64));
	for (uint32_t g = 0; g < d->ngroups && (all || !hit); g++)
		hit |= scan_group(d, d->start[g], data, len, all, ids);
	return hit;
}

void xdp_dfa_release(struct xdp_dfa *d)
{
	free(d->next);
	free(d->acc);
	memset(d, 0, sizeof(*d));
}

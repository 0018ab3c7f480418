/*
 * reference.c - the reference matcher (see reference.h): the API and the
 * one Pike-VM simulation every semantics class comes from.
 *
 * The VM keeps, for the current offset, a list of threads (an
 * instruction that reads a byte, or OP_MATCH) in priority order, each
 * with the offset its match started at.  A start thread joins at the
 * lowest priority at each offset a match may start at, so the list is
 * ordered by start, then by PCRE2's backtracking order: a state two
 * threads reach is kept by the first, which is the one with the earlier
 * start and, for equal starts, the higher priority.  What a reached
 * OP_MATCH does is what tells the classes apart:
 *
 *   any match        stop;
 *   all ends         note the offset, go on;
 *   leftmost-first   record it and drop the threads after it (they have
 *                    lower priority); the ones before it may still
 *                    replace it;
 *   leftmost-longest record it if its start is earlier or its end later,
 *                    drop threads with later starts; the rest may still
 *                    extend or replace it.
 *
 * Within one offset the epsilon closure follows the program in priority
 * order with an explicit stack (mark on pop, so the order is that of a
 * recursive walk).  A state is an instruction and, inside loops whose
 * body can match empty, the outermost such loop whose current iteration
 * began at this offset: PCRE2 leaves a loop after an iteration that
 * matched empty, so an OP_TAIL reached in an iteration begun here goes on
 * after the loop, and reached otherwise may loop again.  The two are
 * different states; keyed on the instruction alone, the second iteration
 * of (|.{2,3})* would find its OP_TAIL taken and lose the way out at the
 * empty branch's priority.  Once a thread reads a byte its loops no
 * longer matter, so threads are keyed on the instruction.
 *
 * Fast paths, each exact: while no thread is alive the scan jumps to the
 * next offset whose byte can start a match (memchr for one byte) unless
 * the pattern can match empty; a pattern that must start at offset 0 is
 * tried there only.
 *
 * Build: always; no library.
 */
#include "suites/reference.h"
#include "suites/reference_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NO_POS ((size_t)-1)

struct thread {
	uint32_t pc;
	size_t start;
};

struct list {
	struct thread *t;
	size_t n;
};

/* A state of the closure: an instruction and its loop level. */
struct entry {
	uint32_t pc;
	uint32_t level; /* outermost OP_HEAD loop begun at this offset, or
			   none */
};

/* A set of small integers with O(1) clear (Briggs and Torczon). */
struct sparse {
	uint32_t *dense, *index;
	uint32_t n;
};

/* Scratch made at compile time: matching never allocates. */
struct vm {
	const struct ref_prog *p;
	const unsigned char *data;
	size_t len;
	int utf8;
	int anchored;     /* ENGINE_ANCHORED, or the pattern starts with \A */
	uint32_t levels;  /* loop levels per instruction: depths + 1 */
	struct sparse seen; /* states the list being built has reached */
	struct list lists[2];
	struct list *cur, *nxt;
	struct entry *stack;
};

struct ref_regex {
	struct ref_prog prog;
	unsigned flags;
	unsigned needs;
	unsigned features;
	struct vm vm;
};

enum mode {
	MODE_ANY,
	MODE_ENDS,
	MODE_FIRST,
	MODE_LONGEST,
};

/* What one run found. */
struct run {
	int matched;
	size_t s, e;  /* the match (MODE_FIRST, MODE_LONGEST) */
	long ends;    /* offsets where a match ended (MODE_ENDS) */
};

static void sparse_clear(struct sparse *s)
{
	s->n = 0;
}

/* Adds k; returns 1 if it was already there. */
static int sparse_insert(struct sparse *s, uint32_t k)
{
	uint32_t i = s->index[k];

	if (i < s->n && s->dense[i] == k)
		return 1;
	s->index[k] = s->n;
	s->dense[s->n++] = k;
	return 0;
}

static int is_word(int c)
{
	return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') ||
	       (c >= 'A' && c <= 'Z') || c == '_';
}

/* Does assertion `kind` hold at pos?  The whole data is the context. */
static int holds(const struct vm *v, unsigned kind, size_t pos)
{
	const unsigned char *d = v->data;
	size_t len = v->len;
	int before = pos > 0 && is_word(d[pos - 1]);
	int after = pos < len && is_word(d[pos]);

	switch (kind) {
	case RA_BOS: return pos == 0;
	case RA_MBOL: return pos == 0 || (d[pos - 1] == '\n' && pos < len);
	case RA_EOS: return pos == len;
	case RA_EOSNL: return pos == len || (pos + 1 == len && d[pos] == '\n');
	case RA_MEOL: return pos == len || d[pos] == '\n';
	case RA_WORDB: return before != after;
	default: return before == after; /* RA_NWORDB */
	}
}

static void push(struct vm *v, size_t *sp, uint32_t pc, uint32_t level)
{
	v->stack[(*sp)++] = (struct entry){pc, level};
}

/* The epsilon moves of in at pos: what they lead to goes on the stack. */
static void follow(struct vm *v, size_t *sp, const struct ref_inst *in,
		   uint32_t level, size_t pos)
{
	switch (in->op) {
	case OP_JMP:
		push(v, sp, in->x, level);
		break;
	case OP_SPLIT:
		push(v, sp, in->y, level);
		push(v, sp, in->x, level);
		break;
	case OP_ASSERT:
		if (holds(v, in->arg, pos))
			push(v, sp, in->x, level);
		break;
	case OP_HEAD:
		push(v, sp, in->x, level < in->depth ? level : in->depth);
		break;
	default: /* OP_TAIL */
		if (level <= in->depth) { /* begun at this offset: empty */
			push(v, sp, in->y, level);
		} else if (in->arg) {
			push(v, sp, in->y, level);
			push(v, sp, in->x, level);
		} else {
			push(v, sp, in->x, level);
			push(v, sp, in->y, level);
		}
		break;
	}
}

/* Adds to l, in priority order, the threads pc leads to at pos. */
static void closure(struct vm *v, struct list *l, uint32_t pc, size_t pos,
		    size_t start)
{
	const struct ref_inst *inst = v->p->inst;
	uint32_t none = v->levels - 1;
	size_t sp = 0;

	push(v, &sp, pc, none);
	while (sp > 0) {
		struct entry e = v->stack[--sp];
		const struct ref_inst *in = &inst[e.pc];
		int reads = in->op == OP_SET || in->op == OP_MATCH;
		/* what a thread can match no longer depends on its loops */
		uint32_t key = e.pc * v->levels + (reads ? none : e.level);
		if (sparse_insert(&v->seen, key))
			continue;
		if (reads)
			l->t[l->n++] = (struct thread){e.pc, start};
		else
			follow(v, &sp, in, e.level, pos);
	}
}

static int boundary(const struct vm *v, size_t pos)
{
	return !v->utf8 || pos >= v->len || (v->data[pos] & 0xc0) != 0x80;
}

/* Can a match start at pos?  (Exact filters, see the file header.) */
static int may_start(const struct vm *v, size_t pos)
{
	if (v->anchored && pos > 0)
		return 0;
	if (!v->p->nullable &&
	    (pos >= v->len || !ref_byteset_has(&v->p->first, v->data[pos])))
		return 0;
	return boundary(v, pos);
}

/* The first offset >= pos where a match may start, or NO_POS. */
static size_t next_start(const struct vm *v, size_t pos)
{
	const unsigned char *hit;

	if (v->anchored)
		return pos == 0 && may_start(v, 0) ? 0 : NO_POS;
	if (!v->p->nullable && v->p->nfirst == 1) {
		if (pos >= v->len)
			return NO_POS;
		hit = memchr(v->data + pos, v->p->first_byte, v->len - pos);
		return hit == NULL ? NO_POS : (size_t)(hit - v->data);
	}
	while (pos <= v->len && !may_start(v, pos))
		pos++;
	return pos <= v->len ? pos : NO_POS;
}

/* A MATCH thread of cur at pos; returns 1 to drop the rest of cur. */
static int on_match(enum mode mode, const struct thread *t, size_t pos,
		    struct run *r)
{
	if (mode == MODE_LONGEST && r->matched && t->start == r->s &&
	    pos <= r->e)
		return 0;
	r->matched = 1;
	if (mode == MODE_FIRST || mode == MODE_LONGEST) {
		r->s = t->start;
		r->e = pos;
	}
	return mode == MODE_FIRST;
}

/*
 * Walks cur (the threads at pos) in order: MATCH threads as `mode`
 * wants, byte threads into nxt at pos + 1.  Returns 1 when the run is
 * decided (MODE_ANY matched).
 */
static int step(struct vm *v, enum mode mode, size_t pos, struct run *r)
{
	const struct ref_prog *p = v->p;
	int c = pos < v->len ? v->data[pos] : -1;
	int ended = 0;

	sparse_clear(&v->seen);
	v->nxt->n = 0;
	for (size_t i = 0; i < v->cur->n; i++) {
		const struct thread *t = &v->cur->t[i];
		const struct ref_inst *in = &p->inst[t->pc];
		if (mode == MODE_LONGEST && r->matched && t->start > r->s)
			break;
		if (in->op == OP_MATCH && mode == MODE_ANY) {
			r->matched = 1;
			return 1;
		}
		if (in->op == OP_MATCH) {
			ended = 1;
			if (on_match(mode, t, pos, r))
				break;
		} else if (c >= 0 && ref_byteset_has(&p->sets[in->y],
						     (unsigned)c)) {
			closure(v, v->nxt, in->x, pos + 1, t->start);
		}
	}
	r->ends += ended;
	return 0;
}

/*
 * One pass from offset `from`.  MODE_FIRST and MODE_LONGEST stop adding
 * start threads once a match is found and end when no thread is left.
 */
static void run(struct vm *v, size_t from, enum mode mode, struct run *r)
{
	int once = mode == MODE_FIRST || mode == MODE_LONGEST;
	size_t pos = from;
	struct list *t;

	v->cur = &v->lists[0];
	v->nxt = &v->lists[1];
	v->cur->n = 0;
	for (;;) {
		if (once && r->matched) {
			if (v->cur->n == 0)
				return;
		} else if (v->cur->n == 0) {
			size_t at = next_start(v, pos);
			if (at == NO_POS)
				return;
			pos = at;
			sparse_clear(&v->seen);
			closure(v, v->cur, v->p->start, pos, pos);
		} else if (may_start(v, pos)) {
			closure(v, v->cur, v->p->start, pos, pos);
		}
		if (step(v, mode, pos, r) || pos >= v->len)
			return;
		pos++;
		t = v->cur;
		v->cur = v->nxt;
		v->nxt = t;
	}
}

static void vm_bind(struct vm *v, const char *data, size_t len)
{
	v->data = (const unsigned char *)data;
	v->len = data == NULL ? 0 : len;
}

/* Where the next search starts after [s,e): e, or a character on. */
static size_t resume(const struct vm *v, size_t s, size_t e)
{
	if (e > s)
		return e;
	e++;
	while (v->utf8 && e < v->len && (v->data[e] & 0xc0) == 0x80)
		e++;
	return e;
}

static long count_spans(struct vm *v, enum mode mode)
{
	long n = 0;
	size_t from = 0;

	while (from <= v->len) {
		struct run r = {0};
		run(v, from, mode, &r);
		if (!r.matched)
			break;
		n++;
		from = resume(v, r.s, r.e);
	}
	return n;
}

int ref_is_match(const struct ref_regex *r, const char *data, size_t len)
{
	struct vm *v = (struct vm *)&r->vm;
	struct run res = {0};

	vm_bind(v, data, len);
	run(v, 0, MODE_ANY, &res);
	return res.matched;
}

long ref_count(const struct ref_regex *r, enum engine_semantics sem,
	       const char *data, size_t len)
{
	struct vm *v = (struct vm *)&r->vm;
	struct run res = {0};

	if (sem != SEM_LEFTMOST_FIRST && sem != SEM_LEFTMOST_LONGEST &&
	    sem != SEM_ALL_ENDS)
		return -1;
	if (r->flags & ENGINE_ANCHORED)
		return ref_is_match(r, data, len);
	vm_bind(v, data, len);
	if (sem == SEM_ALL_ENDS) {
		run(v, 0, MODE_ENDS, &res);
		return res.ends;
	}
	return count_spans(v, sem == SEM_LEFTMOST_FIRST ? MODE_FIRST :
							   MODE_LONGEST);
}

/*
 * Can the pattern match the empty string somewhere?  Every assertion is
 * decided by the offset's neighbours: no byte, '\n' (last or not), a word
 * byte or another byte on either side.  Trying each pair is exact (with
 * ENGINE_ANCHORED only offset 0, nothing before, counts).
 */
static int matches_empty(struct vm *v)
{
	static const char *const before[] = {"", "\n", "a", " "};
	static const char *const after[] = {"", "\n", "\nx", "a", " "};
	size_t sides = v->anchored ? 1 : 4;
	char buf[8];

	for (size_t i = 0; i < sides; i++) {
		for (size_t j = 0; j < 5; j++) {
			size_t pos = strlen(before[i]);
			snprintf(buf, sizeof(buf), "%s%s", before[i], after[j]);
			vm_bind(v, buf, strlen(buf));
			v->cur = &v->lists[0];
			v->cur->n = 0;
			sparse_clear(&v->seen);
			closure(v, v->cur, v->p->start, pos, pos);
			for (size_t k = 0; k < v->cur->n; k++)
				if (v->p->inst[v->cur->t[k].pc].op == OP_MATCH)
					return 1;
		}
	}
	return 0;
}

static int vm_init(struct ref_regex *r, char *why, size_t size)
{
	struct vm *v = &r->vm;
	size_t n = r->prog.n;
	size_t keys = n * (r->prog.depths + 1u);

	v->p = &r->prog;
	v->utf8 = (r->flags & ENGINE_UTF8) != 0;
	v->anchored = (r->flags & ENGINE_ANCHORED) || r->prog.anchored;
	v->levels = r->prog.depths + 1u;
	/* zeroed: the sparse set is correct either way, valgrind is quieter */
	v->seen.dense = calloc(keys, sizeof(uint32_t));
	v->seen.index = calloc(keys, sizeof(uint32_t));
	v->lists[0].t = calloc(n, sizeof(struct thread));
	v->lists[1].t = calloc(n, sizeof(struct thread));
	/* each state is expanded once per list and pushes at most 2 */
	v->stack = calloc(2 * keys + 1, sizeof(struct entry));
	if (v->seen.dense == NULL || v->seen.index == NULL ||
	    v->lists[0].t == NULL || v->lists[1].t == NULL ||
	    v->stack == NULL) {
		snprintf(why, size, "out of memory");
		return REF_NOMEM;
	}
	return 0;
}

static void vm_release(struct vm *v)
{
	free(v->seen.dense);
	free(v->seen.index);
	free(v->lists[0].t);
	free(v->lists[1].t);
	free(v->stack);
}

int ref_compile(const char *re, size_t len, unsigned flags,
		struct ref_regex **out, char *why, size_t size)
{
	struct ref_ast ast = {0};
	struct ref_regex *r = calloc(1, sizeof(*r));
	char dummy[1];
	int rc;

	*out = NULL;
	if (size == 0) {
		why = dummy;
		size = sizeof(dummy);
	}
	why[0] = '\0';
	if (r == NULL) {
		snprintf(why, size, "out of memory");
		return REF_NOMEM;
	}
	r->flags = flags;
	rc = ref_parse(re == NULL ? "" : re, re == NULL ? 0 : len, flags, &ast,
		       &r->needs, &r->features, why, size);
	if (rc == 0)
		rc = ref_prog_build(&r->prog, &ast, (flags & ENGINE_UTF8) != 0,
				    why, size);
	if (rc == 0)
		rc = vm_init(r, why, size);
	if (rc != 0)
		goto out;
	if (matches_empty(&r->vm)) {
		r->features |= REF_USES_EMPTY;
		r->needs |= CAP_EMPTY_MATCH;
	}
	*out = r;
	r = NULL;
out:
	ref_ast_release(&ast);
	ref_free(r);
	return rc;
}

unsigned ref_needs(const struct ref_regex *r)
{
	return r->needs;
}

unsigned ref_features(const struct ref_regex *r)
{
	return r->features;
}

void ref_free(struct ref_regex *r)
{
	if (r == NULL)
		return;
	vm_release(&r->vm);
	ref_prog_release(&r->prog);
	free(r);
}

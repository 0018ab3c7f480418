/*
 * reference_int.h - what the three parts of the reference matcher share
 * (suites/reference.h is the interface; nothing here is for its callers):
 *
 *   reference_parse.c  pattern bytes -> syntax tree (struct ref_ast),
 *                      with the capabilities and features it uses;
 *   reference_prog.c   syntax tree -> Thompson NFA (struct ref_prog) and
 *                      the facts the matcher's fast paths rely on;
 *   reference.c        the API and the one Pike-VM simulation.
 *
 * Characters are code points in UTF-8 mode and bytes otherwise; a set of
 * them is a sorted list of disjoint ranges.  Options that change what a
 * construct means (caseless, dotall, multiline, ungreedy) are resolved by
 * the parser, so the tree and the program carry no flags.
 */
#ifndef RXB_REFERENCE_INT_H
#define RXB_REFERENCE_INT_H

#include <stddef.h>
#include <stdint.h>

#define REF_NONE UINT32_MAX
#define REF_MAX_CP 0x10ffffu

/* Zero-width assertions, each decided by the data around one offset. */
enum ref_assert {
	RA_BOS,    /* \A, ^: offset 0 */
	RA_MBOL,   /* multiline ^: offset 0, or after a '\n' that is not last */
	RA_EOS,    /* \z: the end */
	RA_EOSNL,  /* \Z, $: the end, or before a '\n' that is last */
	RA_MEOL,   /* multiline $: the end, or before any '\n' */
	RA_WORDB,  /* \b (ASCII word bytes) */
	RA_NWORDB, /* \B */
};

struct ref_range {
	uint32_t lo, hi;
};

enum ref_kind {
	RK_EMPTY,  /* matches the empty string */
	RK_SET,    /* one character of ranges[first .. first + count) */
	RK_ASSERT, /* enum ref_assert in `assert` */
	RK_CAT,    /* `count` children from `first`, linked by `next` */
	RK_ALT,    /* likewise, in priority order */
	RK_REPEAT, /* `kid` {min,max}; max < 0 is unbounded */
};

struct ref_node {
	unsigned char kind;
	unsigned char lazy;   /* RK_REPEAT */
	unsigned char assert; /* RK_ASSERT */
	uint32_t first, count;
	uint32_t kid;
	uint32_t next; /* the next sibling inside a CAT or ALT */
	int min, max;
};

/* The syntax tree: nodes and the ranges of their sets, in two arrays. */
struct ref_ast {
	struct ref_node *nodes;
	size_t n, cap;
	struct ref_range *ranges;
	size_t nranges, rcap;
	uint32_t root;
};

/*
 * Parse re[0..len) under `flags` (enum engine_flag) into ast (zeroed by
 * the caller).  Returns 0, or a negative enum ref_status with a one-line
 * message in why; *needs (enum engine_cap) and *features (enum
 * ref_feature) are set on success.  The caller frees ast with
 * ref_ast_release() either way.
 */
int ref_parse(const char *re, size_t len, unsigned flags, struct ref_ast *ast,
	      unsigned *needs, unsigned *features, char *why, size_t size);
void ref_ast_release(struct ref_ast *ast);

/* Program instructions. */
enum ref_op {
	OP_SET,    /* consume one byte in sets[y]; go to x */
	OP_SPLIT,  /* go to x, then (lower priority) y */
	OP_JMP,    /* go to x */
	OP_ASSERT, /* if assertion `arg` holds here, go to x */
	OP_HEAD,   /* an iteration of a loop whose body can be empty begins */
	OP_TAIL,   /* and ends: if it matched empty go to y (the exit), else to
		      x (the head) and y, in the order `arg` (1: greedy) says */
	OP_MATCH,
};

struct ref_inst {
	unsigned char op;
	unsigned char arg;    /* OP_ASSERT: enum ref_assert; OP_TAIL: greedy */
	unsigned short depth; /* OP_HEAD, OP_TAIL: such loops around this one */
	uint32_t x, y;
};

struct ref_byteset {
	uint64_t w[4];
};

static inline int ref_byteset_has(const struct ref_byteset *s, unsigned c)
{
	return (int)((s->w[c >> 6] >> (c & 63)) & 1u);
}

struct ref_prog {
	struct ref_inst *inst;
	size_t n, cap;
	struct ref_byteset *sets;
	size_t nsets, setcap;
	uint32_t start;
	unsigned depths;       /* nesting levels of OP_HEAD loops (0: none) */
	int nullable;          /* MATCH reachable from start without a byte */
	int anchored;          /* every match starts at offset 0 */
	struct ref_byteset first; /* bytes a match can start with */
	unsigned nfirst;       /* how many; 1: first_byte is the one */
	unsigned char first_byte;
};

/*
 * Compile ast into prog (zeroed by the caller) for UTF-8 (`utf8`) or
 * byte data.  Returns 0, or REF_OUT_OF_REACH when the program would
 * exceed the size bound, or REF_NOMEM; why says which.  The caller frees
 * prog with ref_prog_release() either way.
 */
int ref_prog_build(struct ref_prog *prog, const struct ref_ast *ast, int utf8,
		   char *why, size_t size);
void ref_prog_release(struct ref_prog *prog);

#endif

/*
 * payload_floor.c - the payload suite's floors, base and touch: no
 * regex, no answer to verify; the loop reads every byte of the packets.
 * base is the per-packet harness floor every engine's time includes;
 * touch reads the same bytes as a few long sweeps, so base - touch is
 * the per-packet loop itself.  An engine with a floor of its own
 * (CAP_FLOOR_PROGRAM: xdp's base program, in the kernel) has a base row
 * too, verified (is_match 1 on every packet) and timed as its sets are.
 */
#include "suites/payload.h"

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

/*
 * Read every byte of p into acc: 64 bytes as four independent 16-byte
 * loads per step, the vector sum carried from packet to packet (no
 * reduction per packet); the rest out of line, its last partial 16 bytes
 * as one load that overlaps bytes already read.  So the base loop costs
 * reading the bytes and little else.  GCC/Clang vector extension (gnu11).
 */
typedef uint64_t u64x2 __attribute__((vector_size(16)));

/* What follows the last whole 64 bytes: kept out of the hot loop. */
static __attribute__((noinline)) u64x2 touch_tail(u64x2 acc, const char *p,
						const char *end, size_t len)
{
	u64x2 a;
	uint64_t sum = 0;

	for (; p + 16 <= end; p += 16) {
		memcpy(&a, p, 16);
		acc += a;
	}
	if (p < end && len >= 16) {
		memcpy(&a, end - 16, 16);
		acc += a;
	} else {
		for (; p < end; p++)
			sum += (unsigned char)*p;
		acc[0] += sum;
	}
	return acc;
}

static inline u64x2 touch(u64x2 acc, const char *p, size_t len)
{
	const char *end = p + len, *whole = p + (len & ~(size_t)63);
	u64x2 a, b, c, d;

	for (; p < whole; p += 64) {
		memcpy(&a, p, 16);
		memcpy(&b, p + 16, 16);
		memcpy(&c, p + 32, 16);
		memcpy(&d, p + 48, 16);
		acc += (a ^ b) + (c ^ d);
	}
	if (__builtin_expect(p < end, 0))
		acc = touch_tail(acc, p, end, len);
	return acc;
}

/*
 * base and touch keep loops of their own rather than suites/cycle.h's:
 * base carries a vector sum from packet to packet (no reduction per
 * packet, which a counted op would need), and touch is one sweep per
 * run of packets by design.  Each keeps the next packet index and a sum
 * in c->sink so nothing is elided.
 */

/* How many of the n remaining ops fit before packet index i wraps. */
static size_t run_length(const struct packets *pk, size_t i, uint64_t n)
{
	return n < pk->n - i ? (size_t)n : pk->n - i;
}

static int run_base(void *arg, uint64_t n)
{
	struct pcase *c = arg;
	const struct packets *pk = c->ss->pk;
	const struct packet *pkt = pk->pkt;
	size_t i = c->next;
	u64x2 acc = {0, 0};

	while (n > 0) {
		size_t end = i + run_length(pk, i, n);
		n -= end - i;
		for (; i < end; i++)
			acc = touch(acc, pkt[i].p, pkt[i].len);
		i = i == pk->n ? 0 : i;
	}
	c->next = i;
	c->sink += acc[0] + acc[1];
	return 0;
}

/* The same bytes as run_base, as few long sweeps. */
static int run_touch(void *arg, uint64_t n)
{
	struct pcase *c = arg;
	const struct packets *pk = c->ss->pk;
	size_t i = c->next;
	u64x2 acc = {0, 0};

	while (n > 0) {
		size_t m = run_length(pk, i, n);
		const struct packet *last = &pk->pkt[i + m - 1];
		acc = touch(acc, pk->pkt[i].p,
			    (size_t)(last->p + last->len - pk->pkt[i].p));
		n -= m;
		i = i + m == pk->n ? 0 : i + m;
	}
	c->next = i;
	c->sink += acc[0] + acc[1];
	return 0;
}

/* ---- an engine's own floor (CAP_FLOOR_PROGRAM) ---- */

/* The op: is_match of the engine's floor on packet i, cycling. */
static int run_engine_floor(void *arg, uint64_t n)
{
	struct pcase *c = arg;
	const struct packets *pk = c->ss->pk;

	for (; n > 0; n--) {
		const struct packet *p = &pk->pkt[c->next];
		c->sink += (uint64_t)c->e->is_match(c->h, p->p, p->len);
		c->next = c->next + 1 == pk->n ? 0 : c->next + 1;
	}
	return 0;
}

/* The table hook: one answer byte per packet. */
static int floor_table(struct scen_size *ss, struct suite_ctx *ctx)
{
	(void)ctx;
	ss->ops.answer_size = ss->pk->n ? ss->pk->n : 1;
	return 0;
}

/*
 * base's cases: the harness floor (no engine, ss->pc[n]) and, packet by
 * packet (--mode block), a case per engine that has a floor of its own.
 */
static int floor_cases(struct scen_size *ss, struct suite_ctx *ctx)
{
	size_t n = ss->run->neng;

	if (payload_cases_begin(ss, n + 1, 0) != 0 ||
	    payload_floor_plan(ss, ctx, &ss->pc[n]) != 0)
		return -1;
	for (size_t i = 0; ss->mode == PMODE_BLOCK && i < n; i++) {
		const struct engine *e = ss->run->engines[i];
		char name[256], label[160], why[256];
		int gated;

		if (!(e->caps & CAP_FLOOR_PROGRAM))
			continue;
		gated = payload_work_gate(ss, e, why, sizeof(why));
		if (gated == ENGINE_ERR_NOMEM)
			return -1;
		ss->pc[i] = (struct pcase){.ss = ss, .e = e, .ei = i};
		payload_case_name(name, sizeof(name), ss, e);
		snprintf(label, sizeof(label), "%s: its floor, size %s",
			 e->name, ss->in->label);
		if (case_add(&ss->t, name, label, e, 0, gated ? why : NULL, 0,
			     0, &ss->pc[i]) != 0)
			return -1;
	}
	return 0;
}

static int floor_compile(void *arg, const struct case_item *c, void **h,
			 char *why, size_t size)
{
	struct engine_error err = {0, -1, -1, ""};
	int rc = c->e->compile(NULL, 0, 0, h, &err);

	(void)arg;
	if (rc != 0)
		snprintf(why, size, "%s", err.msg);
	return rc == 0 || rc == ENGINE_ERR_UNSUPPORTED ? rc : ENGINE_ERR_COMPILE;
}

/* is_match of the floor on every packet. */
static int floor_answer(void *arg, const struct case_item *c, void *out)
{
	return payload_is_match_each(arg, c, out);
}

/* Every packet taken whole: 1 each. */
static int floor_expect(void *arg, const struct case_item *c, void *out,
			char *by, size_t size)
{
	const struct scen_size *ss = arg;

	(void)c;
	memset(out, 1, ss->pk->n ? ss->pk->n : 1);
	snprintf(by, size, "every packet (the floor's action on each)");
	return CASE_REF_OK;
}

static void floor_describe(void *arg, const struct case_item *c,
			   const void *answer, char *buf, size_t size)
{
	const struct scen_size *ss = arg;

	(void)c;
	snprintf(buf, size, "%zu of %zu packets", payload_hits(ss, answer),
		 ss->pk->n);
}

static void floor_explain(void *arg, const struct case_item *c,
			  const void *got, const void *want, char *buf,
			  size_t size)
{
	const struct packets *pk = ((const struct scen_size *)arg)->pk;
	const unsigned char *g = got, *w = want;
	size_t i = 0;
	char text[200];

	(void)c;
	while (i + 1 < pk->n && g[i] == w[i])
		i++;
	payload_excerpt(pk->pkt[i].p, pk->pkt[i].len, 0, 64, text,
			sizeof(text));
	snprintf(buf, size, "first: packet %zu (is_match %d) \"%s\"", i, g[i],
		 text);
}

static int floor_bench(void *arg, struct case_item *c, const void *answer,
		       struct bench *b)
{
	struct pcase *pc = c->arg;

	(void)arg;
	(void)answer;
	pc->h = c->h;
	payload_bench_fill(pc, PAYLOAD_NO_MATCHES, b);
	b->run = run_engine_floor;
	return payload_work_fill(pc, c->e, ENGINE_OP_IS_MATCH, &c->h, 1, b);
}

static void floor_release(void *arg, struct case_item *c)
{
	(void)arg;
	c->e->free(c->h);
}

static const struct case_ops floor_ops = {
	.compile = floor_compile,
	.answer = floor_answer,
	.expect = floor_expect,
	.describe = floor_describe,
	.explain = floor_explain,
	.bench = floor_bench,
	.release = floor_release,
	.failed = payload_case_failed,
};

const struct scenario scenario_base = {
	.name = "base", .title = "base", .in_default = 1,
	.help = "no regex: the loop reads every byte (the harness floor)",
	.plant = PACKETS_LITERAL, .run = run_base,
	.ops = &floor_ops, .table = floor_table, .cases = floor_cases,
};

const struct scenario scenario_touch = {
	.name = "touch", .title = "touch", .in_default = 0,
	.help = "base as one sweep: base - touch is the per-packet loop",
	.plant = PACKETS_LITERAL, .run = run_touch,
};

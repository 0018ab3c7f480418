/*
 * case.c - the verify-and-plan pipeline (see case.h).
 */
#define _GNU_SOURCE
#include "suites/case.h"

#include "corpora/digest.h"
#include "corpora/file.h"
#include "harness/interrupt.h"
#include "harness/isolate.h"

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CASE_TEXT 512 /* one answer or reason in words */

void case_table_init(struct case_table *t, const char *suite,
		     const struct case_ops *ops, void *st)
{
	memset(t, 0, sizeof(*t));
	t->suite = suite;
	t->ops = ops;
	t->st = st;
	t->voters = engine_table;
	t->nvoters = engine_count;
}

/* Room for one more item in *c (n of cap).  0 or -1. */
static int case_grow(struct case_item **c, size_t n, size_t *cap)
{
	size_t more = *cap ? *cap * 2 : 16;
	struct case_item *grown;

	if (n < *cap)
		return 0;
	grown = realloc(*c, more * sizeof(*grown));
	if (grown == NULL)
		return -1;
	*c = grown;
	*cap = more;
	return 0;
}

int case_add(struct case_table *t, const char *name, const char *label,
	     const struct engine *e, unsigned needs, const char *gate,
	     size_t group, int klass, void *arg)
{
	struct case_item *c;

	if (case_grow(&t->c, t->n, &t->cap) != 0)
		return -1;
	c = &t->c[t->n];
	memset(c, 0, sizeof(*c));
	c->name = strdup(name);
	c->label = strdup(label);
	c->gate = gate ? strdup(gate) : NULL;
	if (c->name == NULL || c->label == NULL || (gate && c->gate == NULL)) {
		free(c->name);
		free(c->label);
		free(c->gate);
		return -1;
	}
	c->e = e;
	c->needs = needs;
	c->group = group;
	c->klass = klass;
	c->arg = arg;
	c->st = t->st;
	t->n++;
	return 0;
}

int case_add_bench(struct case_table *t, const char *name, void *arg)
{
	struct case_item *c = &t->c[t->n - 1];
	struct case_bench *grown;
	char *copy = strdup(name);

	grown = copy ? realloc(c->bench, (c->nbench + 1) * sizeof(*grown)) : NULL;
	if (grown == NULL) {
		free(copy);
		return -1;
	}
	c->bench = grown;
	c->bench[c->nbench++] = (struct case_bench){copy, arg};
	return 0;
}

int case_input(struct case_table *t, const char *key, const void *value,
	       size_t len)
{
	return result_inputs_add(&t->c[t->n - 1].in, key, value, len);
}

int case_table_input(struct case_table *t, const char *key,
		     const void *value, size_t len)
{
	return result_inputs_add(&t->in, key, value, len);
}

int case_inputs_data(struct result_inputs *in, const char *key,
		     const char *name, const void *data, size_t len)
{
	char k[128], v[DIGEST_HEX_SIZE];

	if (result_inputs_add(in, key, name, strlen(name)) != 0)
		return -1;
	snprintf(k, sizeof(k), "%s-size", key);
	snprintf(v, sizeof(v), "%zu", len);
	if (result_inputs_add(in, k, v, strlen(v)) != 0)
		return -1;
	snprintf(k, sizeof(k), "%s-sha256", key);
	if (digest_sha256_hex(data, len, v) == 0 &&
	    result_inputs_add(in, k, v, strlen(v)) != 0)
		return -1;
	return 0;
}

int case_inputs_file(struct result_inputs *in, const char *key,
		     const char *path, char *err, size_t errsize)
{
	struct corpus f = {0};
	int rc;

	if (corpus_load_file(&f, path, err, errsize) != 0)
		return -1;
	rc = case_inputs_data(in, key, path, f.data, f.len);
	if (rc != 0)
		snprintf(err, errsize, "out of memory");
	corpus_release(&f);
	return rc;
}

int case_table_input_data(struct case_table *t, const char *key,
			  const char *path, const char *what,
			  const void *data, size_t len)
{
	return case_inputs_data(&t->in, key, path ? path : what, data, len);
}

int case_table_input_file(struct case_table *t, const char *key,
			  const char *path, char *err, size_t errsize)
{
	return case_inputs_file(&t->in, key, path, err, errsize);
}

/* c's inputs and its table's into `in`.  0 or -1. */
/*
 * Every option of engine e, as "engine-option.KEY" -> its value now (the
 * defaults too: a build whose default differs then does not pair).
 */
static int case_engine_inputs(const struct engine *e,
			      struct result_inputs *in)
{
	char key[96], v[64];

	for (const struct engine_option *o = e != NULL ? e->options : NULL;
	     o != NULL && o->key; o++) {
		snprintf(key, sizeof(key), "engine-option.%s", o->key);
		engine_opt_format(o, engine_opt_value(e, o), v, sizeof(v));
		if (result_inputs_add(in, key, v, strlen(v)) != 0)
			return -1;
	}
	return 0;
}

static int case_inputs_to(const struct case_table *t,
			  const struct case_item *c, struct result_inputs *in)
{
	return result_inputs_merge(in, &t->in) != 0 ||
			       result_inputs_merge(in, &c->in) != 0 ||
			       case_engine_inputs(c->e, in) != 0
		       ? -1
		       : 0;
}

/* Free what case_add() and case_add_bench() copied. */
static void case_free_item(struct case_item *c)
{
	result_inputs_release(&c->in);
	for (size_t k = 0; k < c->nbench; k++)
		free(c->bench[k].name);
	free(c->bench);
	free(c->name);
	free(c->label);
	free(c->gate);
}

/* A non-ok row for case c. */
static void case_row(struct suite_ctx *ctx, const struct case_table *t,
		     const struct case_item *c, enum result_status st,
		     const char *why)
{
	struct result *r;

	suite_fail(ctx, t->suite, c->name, st, "%s: %s", c->label, why);
	r = results_find(ctx->results, c->name);
	if (r != NULL)
		case_inputs_to(t, c, &r->in); /* out of memory: fewer inputs */
}

/* Steps 1 and 2: gate and compile one case; 0 when it has a handle (a
 * compile a SIGINT cut short, STATUS_INTERRUPTED, leaves no row). */
static int case_compile(struct case_table *t, struct suite_ctx *ctx,
			struct case_item *c)
{
	char why[CASE_TEXT] = "";
	int rc;

	if (c->e != NULL && engine_unavailable(c->e) != NULL) {
		case_row(ctx, t, c, RESULT_UNSUPPORTED, engine_unavailable(c->e));
		return -1;
	}
	if (c->gate != NULL) {
		case_row(ctx, t, c, RESULT_UNSUPPORTED, c->gate);
		return -1;
	}
	if (c->e != NULL && (c->needs & ~c->e->caps)) {
		char caps[256];
		engine_caps_format(c->needs & ~c->e->caps, caps, sizeof(caps));
		snprintf(why, sizeof(why), "needs %s, which %s lacks", caps,
			 c->e->name);
		case_row(ctx, t, c, RESULT_UNSUPPORTED, why);
		return -1;
	}
	rc = t->ops->compile(t->st, c, &c->h, why, sizeof(why));
	c->compiled = rc == 0;
	if (rc == 0)
		return 0;
	c->h = NULL;
	if (rc != STATUS_INTERRUPTED) /* a compile cut short has no row */
		case_row(ctx, t, c, result_status_of(rc), why);
	return -1;
}

/* In each verifying child: the phase the test-only engines fail in. */
static void case_child_init(void *arg)
{
	(void)arg;
	engine_phase = ENGINE_PHASE_VERIFY;
}

int case_answers(const struct isolate_items *it, const struct bench_opts *o,
		 void *out, struct isolate_verdict *v)
{
	struct isolate_limits lim = bench_limits(o);
	int rc = isolate_run(it, &lim, case_child_init, out, v);

	if (rc < 0) /* no child could be made: the rest in this process */
		rc = isolate_run_here(it, out, v) == 0 ? -1 : 1;
	for (size_t i = 0; i < it->n; i++)
		v[i].status = bench_verdict_status(&v[i]);
	return rc > 0 ? STATUS_INTERRUPTED : rc < 0 ? STATUS_SYSTEM : 0;
}

void case_verdict_text(const struct isolate_verdict *v,
		       const struct bench_opts *o, char *buf, size_t size)
{
	struct isolate_limits lim = bench_limits(o);

	if (v->end == ISOLATE_ANSWERED)
		snprintf(buf, size, "%s", engine_status_name(v->status));
	else
		isolate_verdict_text(v, &lim, "answer", "verifying", buf, size);
}

/* isolate_items over the compiled cases and voters. */
struct case_job {
	struct case_table *t;
	struct case_item **live;
};

static int case_job_answer(void *arg, size_t i, void *out)
{
	struct case_job *j = arg;

	return j->t->ops->answer(j->t->st, j->live[i], out);
}

static void case_drop(struct case_table *t, struct case_item *c)
{
	if (c->h != NULL)
		t->ops->release(t->st, c);
	c->h = NULL;
	c->compiled = 0;
}

/* A failed answer: its row, and the case leaves the pipeline. */
static void case_answer_failed(struct case_table *t, struct suite_ctx *ctx,
			       struct case_item *c,
			       const struct isolate_verdict *v)
{
	char why[4 * CASE_TEXT]; /* failed() may quote an input whole */

	case_verdict_text(v, ctx->opts, why, sizeof(why));
	if (t->ops->failed != NULL) {
		size_t n = strlen(why);
		if (n + 2 < sizeof(why)) {
			memcpy(why + n, "; ", 3);
			t->ops->failed(t->st, c, why + n + 2, sizeof(why) - n - 2);
		}
	}
	case_row(ctx, t, c, result_status_of(v->status), why);
	case_drop(t, c);
}

/*
 * Step 3: every compiled voter's and case's answer (the voters first) in
 * a child with --timeout each; a voter that fails leaves the vote.  0,
 * STATUS_INTERRUPTED, or -1 out of memory.
 */
static int case_answer_all(struct case_table *t, struct suite_ctx *ctx)
{
	size_t a = _Alignof(max_align_t);
	size_t size = (t->ops->answer_size + a - 1) / a * a; /* aligned stride */
	size_t all = t->n + t->nv ? t->n + t->nv : 1;
	struct case_job j = {t, calloc(all, sizeof(*j.live))};
	struct isolate_items it = {0, size, case_job_answer, NULL, &j};
	struct isolate_verdict *v = calloc(all, sizeof(*v));
	unsigned char *out;
	int rc = -1;

	t->answers = calloc(all, size);
	out = calloc(all, size);
	if (j.live == NULL || v == NULL || t->answers == NULL || out == NULL)
		goto out;
	for (size_t i = 0; i < t->nv; i++)
		if (t->v[i].compiled)
			j.live[it.n++] = &t->v[i];
	for (size_t i = 0; i < t->n; i++)
		if (t->c[i].compiled)
			j.live[it.n++] = &t->c[i];
	rc = case_answers(&it, ctx->opts, out, v);
	if (rc == STATUS_INTERRUPTED)
		goto out;
	for (size_t k = 0; k < it.n; k++) {
		struct case_item *c = j.live[k];
		if (v[k].status != 0 && c->voter)
			case_drop(t, c);
		else if (v[k].status != 0)
			case_answer_failed(t, ctx, c, &v[k]);
		if (v[k].status != 0)
			continue;
		c->answer = t->answers + k * size;
		memcpy(c->answer, out + k * size, size);
	}
	rc = 0;
out:
	free(j.live);
	free(v);
	free(out);
	return rc;
}

/* The expected answer of one group and class, and how it was found. */
struct case_expect {
	int found;             /* 1: `answer` holds it */
	unsigned char *answer; /* answer_size bytes */
	char by[CASE_TEXT];    /* what computed it, or why nothing could */
};

/* Who may vote on one group: its cases, then its voters. */
struct case_ballot {
	const struct case_item **c;
	size_t n;
};

/* Bytes of one part: the whole answer when it is not in parts. */
static size_t case_part_size(const struct case_ops *o)
{
	return o->parts ? o->answer_size / o->parts : o->answer_size;
}

/* Part k of answer a (the whole answer when not in parts), or NULL when
 * there is no answer or it leaves the part out. */
static const unsigned char *case_part(const struct case_table *t,
				      const unsigned char *a, size_t k)
{
	const unsigned char *p;

	if (a == NULL)
		return NULL;
	p = a + k * case_part_size(t->ops);
	return t->ops->parts == 0 || p[0] == CASE_PART_SET ? p : NULL;
}

/* Does case o of the class answer part k with `a` (anything: a NULL)?
 * A case of no engine is no library: it never says anything in a vote. */
static int case_says(const struct case_table *t, const struct case_item *o,
		    int klass, size_t k, const unsigned char *a)
{
	const unsigned char *p = case_part(t, o->answer, k);

	return p != NULL && o->e != NULL && o->klass == klass &&
	       (a == NULL || memcmp(p, a, case_part_size(t->ops)) == 0);
}

/* Has the library of ballot i answered part k with `a` before i? */
static int case_counted(const struct case_table *t, const struct case_ballot *b,
			size_t i, int klass, size_t k, const unsigned char *a)
{
	const char *lib = engine_library(b->c[i]->e);

	for (size_t j = 0; j < i; j++)
		if (case_says(t, b->c[j], klass, k, a) &&
		    strcmp(engine_library(b->c[j]->e), lib) == 0)
			return 1;
	return 0;
}

static int case_name_cmp(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* names[0..n) sorted, ", "-separated, into buf (what fits). */
static void case_names_text(const char **names, size_t n, char *buf,
			    size_t size)
{
	size_t used = 0;

	buf[0] = '\0';
	qsort(names, n, sizeof(*names), case_name_cmp);
	for (size_t i = 0; i < n && used < size; i++) {
		int w = snprintf(buf + used, size - used, "%s%s",
				 used ? ", " : "", names[i]);
		used += w > 0 ? (size_t)w : 0;
	}
}

/*
 * Libraries of the ballot of the class that answered part k with `a`
 * (anything when a is NULL), each counted once; with names, their names
 * too, sorted and ", "-separated, into names[0..size) (what fits).
 */
static size_t case_libraries(const struct case_table *t,
			     const struct case_ballot *b, int klass, size_t k,
			     const unsigned char *a, char *names, size_t size)
{
	const char **lib = names ? calloc(b->n + 1, sizeof(*lib)) : NULL;
	size_t n = 0;

	for (size_t i = 0; i < b->n; i++) {
		if (!case_says(t, b->c[i], klass, k, a) ||
		    case_counted(t, b, i, klass, k, a))
			continue;
		if (lib != NULL)
			lib[n] = engine_library(b->c[i]->e);
		n++;
	}
	if (names != NULL && size > 0)
		names[0] = '\0';
	if (lib != NULL) /* out of memory: no names */
		case_names_text(lib, n, names, size);
	free(lib);
	return n;
}

/*
 * Part k as a strict majority of at least three libraries of the class
 * answer it, ties never broken by order; NULL when none does.  *votes
 * and *total: the libraries behind it, and all that answered the part.
 */
static const unsigned char *case_majority(const struct case_table *t,
					  const struct case_ballot *b,
					  int klass, size_t k, size_t *votes,
					  size_t *total)
{
	*total = case_libraries(t, b, klass, k, NULL, NULL, 0);
	for (size_t i = 0; i < b->n; i++) {
		const unsigned char *p = case_part(t, b->c[i]->answer, k);
		if (p == NULL || b->c[i]->klass != klass)
			continue;
		*votes = case_libraries(t, b, klass, k, p, NULL, 0);
		if (*votes >= 3 && 2 * *votes > *total)
			return p;
	}
	return NULL;
}

/* No reference: the class's majority stands in.  Fills x when one
 * exists; x->by names the libraries that voted, and how. */
static void case_vote(const struct case_table *t, const struct case_ballot *b,
		      int klass, struct case_expect *x)
{
	size_t votes = 0, total;
	const unsigned char *p = case_majority(t, b, klass, 0, &votes, &total);
	char why[2 * CASE_TEXT], who[200];

	case_libraries(t, b, klass, 0, p, who, sizeof(who));
	if (p != NULL) {
		memcpy(x->answer, p, t->ops->answer_size);
		x->found = 1;
		snprintf(why, sizeof(why), "%.250s; majority of %zu of %zu "
			 "libraries (%s%s)", x->by, votes, total, who,
			 votes < total ? "; the others differ" : "");
	} else {
		snprintf(why, sizeof(why), "%.250s, and no strict majority of "
			 "at least 3 libraries (%zu answered%s%s)", x->by, total,
			 total ? ": " : "", who);
	}
	snprintf(x->by, sizeof(x->by), "%.*s", (int)sizeof(x->by) - 1, why);
}

/* "; majority of at least 3 libraries: 2 rules", or "" for none. */
static void case_parts_text(const struct case_table *t, const char *what,
			    size_t n, char *buf, size_t size)
{
	const char *name = t->ops->part_name ? t->ops->part_name : "part";

	if (n == 0)
		buf[0] = '\0';
	else
		snprintf(buf, size, "; %s: %zu %s%s", what, n, name,
			 n == 1 ? "" : "s");
}

/* Did the ballot's item i of the class answer some part x leaves out? */
static int case_voted(const struct case_table *t, const struct case_ballot *b,
		      size_t i, int klass, const struct case_expect *x)
{
	for (size_t k = 0; k < t->ops->parts; k++)
		if (case_part(t, x->answer, k) == NULL &&
		    case_says(t, b->c[i], klass, k, NULL))
			return 1;
	return 0;
}

/* " (voting: a, b)": the libraries that answered a part the reference
 * left out, into who ("" for none). */
static void case_voters_text(const struct case_table *t,
			     const struct case_ballot *b, int klass,
			     const struct case_expect *x, char *who,
			     size_t size)
{
	const char **lib = calloc(b->n + 1, sizeof(*lib));
	char names[200];
	size_t n = 0;

	who[0] = '\0';
	for (size_t i = 0; lib != NULL && i < b->n; i++) {
		int seen = 0;
		if (!case_voted(t, b, i, klass, x))
			continue;
		for (size_t j = 0; j < n && !seen; j++)
			seen = strcmp(lib[j], engine_library(b->c[i]->e)) == 0;
		if (!seen)
			lib[n++] = engine_library(b->c[i]->e);
	}
	if (n > 0) {
		case_names_text(lib, n, names, sizeof(names));
		snprintf(who, size, " (voting: %s)", names);
	}
	free(lib);
}

/*
 * An answer in parts: each part the reference left out is the class's
 * majority's, where one exists; x->by then says how many parts were
 * voted and how many no majority decided, and which libraries voted.
 */
static void case_vote_parts(const struct case_table *t,
			    const struct case_ballot *b, int klass,
			    struct case_expect *x)
{
	size_t ps = case_part_size(t->ops), voted = 0, undecided = 0;
	char a[100], c[100], who[200], why[2 * CASE_TEXT];

	case_voters_text(t, b, klass, x, who, sizeof(who));
	for (size_t k = 0; k < t->ops->parts; k++) {
		size_t votes = 0, total;
		const unsigned char *p;
		if (case_part(t, x->answer, k) != NULL)
			continue;
		p = case_majority(t, b, klass, k, &votes, &total);
		if (p != NULL)
			memcpy(x->answer + k * ps, p, ps);
		voted += p != NULL;
		undecided += p == NULL && total > 0;
	}
	case_parts_text(t, "majority of at least 3 libraries", voted, a,
			sizeof(a));
	case_parts_text(t, "no strict majority of at least 3 libraries",
			undecided, c, sizeof(c));
	snprintf(why, sizeof(why), "%.250s%s%s%s", x->by, a, c,
		 voted + undecided ? who : "");
	snprintf(x->by, sizeof(x->by), "%.*s", (int)sizeof(x->by) - 1, why);
	x->found = 1; /* the parts say what is known */
}

/*
 * The expected answers are computed in a forked child too, with --timeout
 * each: a reference may be slow on a pattern (a Pike VM is quadratic when
 * high-priority threads outlive every match) and must cost one answer,
 * not the run.  One record per leader (the first compiled case of its
 * group and class): expect()'s status, its `by` text, the answer.
 */
struct case_wire {
	int rc;
	int lead; /* set in the parent: this case is its class's leader */
	char by[CASE_TEXT];
	/* answer_size bytes, aligned for any struct a suite keeps there */
	_Alignas(max_align_t) unsigned char answer[];
};

struct case_leaders {
	struct case_table *t;
	size_t *lead; /* case index of leader i */
	size_t n;
};

/* Bytes of one record, a multiple of the alignment of any type. */
static size_t case_wire_size(const struct case_table *t)
{
	size_t a = _Alignof(max_align_t);
	size_t n = sizeof(struct case_wire) + t->ops->answer_size;

	return (n + a - 1) / a * a;
}

/* Case i's record among wires. */
static struct case_wire *case_wire_of(const struct case_table *t,
				      unsigned char *wires, size_t i)
{
	return (struct case_wire *)(wires + i * case_wire_size(t));
}

static int case_leader_expect(void *arg, size_t i, void *out)
{
	struct case_leaders *l = arg;
	const struct case_item *c = &l->t->c[l->lead[i]];
	struct case_wire *w = out;

	memset(w, 0, case_wire_size(l->t));
	w->rc = l->t->ops->expect(l->t->st, c, w->answer, w->by, sizeof(w->by));
	return w->rc == CASE_REF_ERROR ? ENGINE_ERR_NOMEM : 0;
}

/* Is case i the first compiled case of its group and class? */
static int case_is_leader(const struct case_table *t, size_t i)
{
	const struct case_item *c = &t->c[i];

	if (!c->compiled)
		return 0;
	for (size_t k = i; k-- > 0 && t->c[k].group == c->group;)
		if (t->c[k].compiled && t->c[k].klass == c->klass)
			return 0;
	return 1;
}

/*
 * Every leader's expected answer, computed in a child: into wires (one
 * record of case_wire_size() per case, at the leader's index, `lead`
 * set).  A reference that gives no answer in time (or crashes) is
 * CASE_REF_NONE with the reason.  0, STATUS_INTERRUPTED, or -1 out of
 * memory.
 */
static int case_expect_all(struct case_table *t, struct suite_ctx *ctx,
			   unsigned char *wires)
{
	size_t size = case_wire_size(t);
	struct case_leaders l = {t, calloc(t->n ? t->n : 1, sizeof(size_t)), 0};
	struct isolate_items it = {0, size, case_leader_expect, NULL, &l};
	struct isolate_verdict *v = calloc(t->n ? t->n : 1, sizeof(*v));
	unsigned char *out = calloc(t->n ? t->n : 1, size);
	int rc = -1;

	if (l.lead == NULL || v == NULL || out == NULL)
		goto out;
	for (size_t i = 0; i < t->n; i++)
		if (case_is_leader(t, i))
			l.lead[l.n++] = i;
	it.n = l.n;
	rc = case_answers(&it, ctx->opts, out, v);
	if (rc == STATUS_SYSTEM)
		rc = 0; /* no child could be made: the answers ran here */
	for (size_t k = 0; rc == 0 && k < l.n; k++) {
		struct case_wire *w = case_wire_of(t, wires, l.lead[k]);
		char why[CASE_TEXT];
		memcpy(w, out + k * size, size);
		w->lead = 1;
		if (v[k].status == ENGINE_ERR_NOMEM) {
			rc = -1;
		} else if (v[k].status != 0) {
			case_verdict_text(&v[k], ctx->opts, why, sizeof(why));
			w->rc = CASE_REF_NONE;
			snprintf(w->by, sizeof(w->by), "the reference failed: %.400s",
				 why);
		}
	}
out:
	free(l.lead);
	free(v);
	free(out);
	return rc;
}

/* Does the expected answer in w leave anything to a vote? */
static int case_needs_vote(const struct case_table *t,
			   const struct case_wire *w)
{
	if (w->rc != CASE_REF_OK)
		return 1;
	for (size_t k = 0; k < t->ops->parts; k++)
		if (case_part(t, w->answer, k) == NULL)
			return 1;
	return 0;
}

/* Is engine e's library among the compiled cases of the class of case i
 * in [from, to), or the voters added for them from voter `vfrom` on? */
static int case_library_in(const struct case_table *t, size_t from,
			   size_t to, size_t vfrom, const struct case_item *c,
			   const struct engine *e)
{
	const char *lib = engine_library(e);

	for (size_t k = from; k < to; k++)
		if (t->c[k].e == e ||
		    (t->c[k].compiled && t->c[k].e != NULL &&
		     t->c[k].klass == c->klass &&
		     strcmp(engine_library(t->c[k].e), lib) == 0))
			return 1;
	for (size_t k = vfrom; k < t->nv; k++)
		if (t->v[k].klass == c->klass &&
		    strcmp(engine_library(t->v[k].e), lib) == 0)
			return 1;
	return 0;
}

/* Add leader c's voter on engine e (class klass), compiled; a compile
 * that fails leaves no voter.  0, or -1 out of memory. */
static int case_add_voter(struct case_table *t, const struct case_item *c,
			  const struct engine *e, int klass)
{
	struct case_item *v;
	char why[CASE_TEXT];

	if (case_grow(&t->v, t->nv, &t->vcap) != 0)
		return -1;
	v = &t->v[t->nv];
	*v = (struct case_item){.e = e, .needs = c->needs, .group = c->group,
				.klass = klass, .arg = c->arg, .st = c->st,
				.voter = 1};
	v->name = strdup(c->name);
	v->label = strdup(c->label);
	if (v->name == NULL || v->label == NULL) {
		free(v->name);
		free(v->label);
		return -1;
	}
	t->nv++;
	v->compiled = t->ops->compile(t->st, v, &v->h, why, sizeof(why)) == 0;
	if (!v->compiled)
		v->h = NULL;
	return 0;
}

/*
 * The voters of leader c, case i of group [from, to): every engine of
 * t->voters, not test-only, able to run here, not in the group, of a
 * library not already in its class, with every capability c needs, that
 * the suite accepts in c's class.  0, or -1 out of memory.
 */
static int case_add_voters(struct case_table *t, size_t from, size_t to,
			   size_t i)
{
	const struct case_item *c = &t->c[i];
	size_t vfrom = t->nv;

	for (size_t k = 0; k < t->nvoters && !interrupt_signal(); k++) {
		const struct engine *e = t->voters[k];
		int klass = c->klass;
		if ((e->caps & CAP_TEST_ONLY) || (c->needs & ~e->caps) ||
		    engine_unavailable(e) != NULL ||
		    case_library_in(t, from, to, vfrom, c, e) ||
		    t->ops->voter(t->st, c, e, &klass) != 0 ||
		    klass != c->klass)
			continue;
		if (case_add_voter(t, c, e, klass) != 0)
			return -1;
	}
	return 0;
}

/* Voters for every leader whose expected answer leaves a vote to do.
 * 0, or -1 out of memory. */
static int case_add_all_voters(struct case_table *t, unsigned char *wires)
{
	size_t from = 0;

	if (t->ops->voter == NULL)
		return 0;
	for (size_t i = 0; i < t->n; i++) {
		size_t to = i + 1;
		if (t->c[i].group != t->c[from].group)
			from = i;
		while (to < t->n && t->c[to].group == t->c[i].group)
			to++;
		if (case_wire_of(t, wires, i)->lead &&
		    case_needs_vote(t, case_wire_of(t, wires, i)) &&
		    case_add_voters(t, from, to, i) != 0)
			return -1;
	}
	return 0;
}

/* The expected answer for the class of leader c, voted on by b. */
static void case_expected(struct case_table *t, const struct case_ballot *b,
			  const struct case_item *c, const struct case_wire *w,
			  struct case_expect *x)
{
	memcpy(x->answer, w->answer, t->ops->answer_size);
	snprintf(x->by, sizeof(x->by), "%s", w->by);
	x->found = w->rc == CASE_REF_OK;
	if (t->ops->parts != 0) {
		if (w->rc != CASE_REF_OK) /* no part is known */
			memset(x->answer, 0, t->ops->answer_size);
		case_vote_parts(t, b, c->klass, x);
	} else if (w->rc == CASE_REF_NONE) {
		case_vote(t, b, c->klass, x);
	}
}

/* One benchmark of a case that may be timed, and its verification. */
static int case_plan_one(struct case_table *t, struct suite_ctx *ctx,
			 struct case_item *c, const char *name, void *arg,
			 const char *verified, int unverified)
{
	struct bench b = {.arg = arg};

	if (t->ops->bench(t->st, c, c->answer, &b) != 0)
		return -1;
	b.name = strdup(name);
	b.suite = t->suite;
	b.verified = strdup(verified);
	b.unverified = unverified;
	if (b.name == NULL || b.verified == NULL ||
	    case_inputs_to(t, c, &b.in) != 0 || plan_add(ctx->plan, &b)) {
		free(b.name);
		free(b.verified);
		result_inputs_release(&b.in);
		free(b.note);
		return -1;
	}
	c->planned = 1;
	c->unverified = unverified;
	return 0;
}

/* Step 5 for a case that may be timed: each benchmark of it. */
static int case_plan(struct case_table *t, struct suite_ctx *ctx,
		     struct case_item *c, const char *verified, int unverified)
{
	if (c->nbench == 0)
		return case_plan_one(t, ctx, c, c->name, NULL, verified,
				     unverified);
	for (size_t k = 0; k < c->nbench; k++)
		if (case_plan_one(t, ctx, c, c->bench[k].name, c->bench[k].arg,
				  verified, unverified) != 0)
			return -1;
	return 0;
}

/*
 * Does c's answer agree with x?  1 yes, 0 it differs, -1 nothing verifies
 * it (then why says what was not verified, and why).
 */
static int case_agrees(const struct case_table *t, const struct case_item *c,
		       const struct case_expect *x, char *why, size_t size)
{
	size_t answered = 0, unknown = 0, ps = case_part_size(t->ops);
	const char *name = t->ops->part_name ? t->ops->part_name : "part";

	if (t->ops->parts == 0 && !x->found) {
		snprintf(why, size, "%s", x->by);
		return -1;
	}
	for (size_t k = 0; k < (t->ops->parts ? t->ops->parts : 1); k++) {
		const unsigned char *p = case_part(t, c->answer, k);
		const unsigned char *w = case_part(t, x->answer, k);
		if (p == NULL)
			continue;
		answered++;
		if (w == NULL)
			unknown++;
		else if (memcmp(p, w, ps) != 0)
			return 0;
	}
	if (unknown == 0)
		return 1;
	snprintf(why, size, "%zu of its %zu %s%s: %s", unknown, answered, name,
		 answered == 1 ? "" : "s", x->by);
	return -1;
}

/* Step 4 and 5 for one answered case against its class's expectation. */
static int case_judge(struct case_table *t, struct suite_ctx *ctx,
		      struct case_item *c, const struct case_expect *x)
{
	char got[CASE_TEXT], want[CASE_TEXT], why[2 * CASE_TEXT];
	char text[7 * CASE_TEXT];
	int agrees = case_agrees(t, c, x, why, sizeof(why));

	t->ops->describe(t->st, c, c->answer, got, sizeof(got));
	if (agrees < 0) {
		snprintf(text, sizeof(text), "%s; not verified: %s%s", got, why,
			 ctx->allow_unverified ? "" :
			 " (--allow-unverified times it anyway)");
		if (ctx->allow_unverified)
			return case_plan(t, ctx, c, text, 1);
		case_row(ctx, t, c, RESULT_UNVERIFIED, text);
		return 0;
	}
	t->ops->describe(t->st, c, x->answer, want, sizeof(want));
	if (agrees == 0) {
		char where[3 * CASE_TEXT] = "";
		if (t->ops->explain != NULL) {
			where[0] = ';';
			where[1] = ' ';
			t->ops->explain(t->st, c, c->answer, x->answer, where + 2,
					sizeof(where) - 2);
		}
		snprintf(text, sizeof(text), "%s; expected %s (%s)%s", got, want,
			 x->by, where);
		case_row(ctx, t, c, RESULT_MISMATCH, text);
		return 0;
	}
	snprintf(text, sizeof(text), "%s: %s", x->by, want);
	return case_plan(t, ctx, c, text, 0);
}

/* Verify and plan the answered cases of group [from, to), class by class,
 * with b the group's ballot (its cases and voters). */
static int case_group(struct case_table *t, struct suite_ctx *ctx,
		      size_t from, size_t to, unsigned char *wires,
		      const struct case_ballot *b, struct case_expect *x)
{
	for (size_t i = from; i < to; i++) {
		const struct case_wire *w = case_wire_of(t, wires, i);
		if (!w->lead)
			continue; /* judged with its class's leader */
		case_expected(t, b, &t->c[i], w, x);
		for (size_t k = i; k < to; k++)
			if (t->c[k].answer != NULL &&
			    t->c[k].klass == t->c[i].klass &&
			    case_judge(t, ctx, &t->c[k], x) != 0)
				return -1;
	}
	return 0;
}

/* The ballot of group [from, to): its cases, then its voters from *vi
 * on (voters are added group by group), *vi moved past them. */
static void case_ballot_of(const struct case_table *t, size_t from,
			   size_t to, size_t *vi, struct case_ballot *b)
{
	b->n = 0;
	for (size_t i = from; i < to; i++)
		b->c[b->n++] = &t->c[i];
	while (*vi < t->nv && t->v[*vi].group == t->c[from].group)
		b->c[b->n++] = &t->v[(*vi)++];
}

/* Step 4 for every group, with the leaders' expected answers in wires.
 * 0, or -1 out of memory. */
static int case_verify_all(struct case_table *t, struct suite_ctx *ctx,
			   unsigned char *wires)
{
	struct case_expect x;
	struct case_ballot b = {calloc(t->n + t->nv + 1, sizeof(*b.c)), 0};
	size_t vi = 0;
	int rc = b.c == NULL ? -1 : 0;

	x.answer = calloc(1, t->ops->answer_size);
	if (x.answer == NULL)
		rc = -1;
	for (size_t from = 0, to; from < t->n && rc == 0; from = to) {
		for (to = from + 1; to < t->n && t->c[to].group == t->c[from].group;)
			to++;
		case_ballot_of(t, from, to, &vi, &b);
		rc = case_group(t, ctx, from, to, wires, &b, &x);
	}
	free(x.answer);
	free(b.c);
	return rc;
}

/* Keep the benchmarks of c that --bench selects; 1 when any is left. */
static int case_wanted(struct case_item *c, const struct suite_ctx *ctx)
{
	size_t k = 0;

	if (c->nbench == 0)
		return suite_wants(ctx, c->name);
	for (size_t i = 0; i < c->nbench; i++) {
		if (suite_wants(ctx, c->bench[i].name))
			c->bench[k++] = c->bench[i];
		else
			free(c->bench[i].name);
	}
	c->nbench = k;
	return k > 0;
}

/* Drop the cases the --bench filter does not select: they never run. */
static void case_filter(struct case_table *t, const struct suite_ctx *ctx)
{
	size_t k = 0;

	for (size_t i = 0; i < t->n; i++) {
		if (case_wanted(&t->c[i], ctx))
			t->c[k++] = t->c[i];
		else
			case_free_item(&t->c[i]);
	}
	t->n = k;
}

int case_run(struct case_table *t, struct suite_ctx *ctx)
{
	unsigned char *wires;
	int rc;

	case_filter(t, ctx);
	/* a Ctrl-C stops compiling too (100,000 patterns) */
	for (size_t i = 0; i < t->n && !interrupt_signal(); i++)
		case_compile(t, ctx, &t->c[i]);
	if (interrupt_signal())
		return STATUS_INTERRUPTED;
	/* the expected answers first: they say which groups need voters */
	wires = calloc(t->n ? t->n : 1, case_wire_size(t));
	rc = wires == NULL ? -1 : case_expect_all(t, ctx, wires);
	if (rc == 0)
		rc = case_add_all_voters(t, wires);
	if (rc == 0 && interrupt_signal())
		rc = STATUS_INTERRUPTED;
	if (rc == 0)
		rc = case_answer_all(t, ctx);
	if (rc == 0)
		rc = case_verify_all(t, ctx, wires);
	free(wires);
	return rc;
}

void case_table_release(struct case_table *t)
{
	for (size_t i = 0; i < t->n; i++) {
		case_drop(t, &t->c[i]);
		case_free_item(&t->c[i]);
	}
	for (size_t i = 0; i < t->nv; i++) {
		case_drop(t, &t->v[i]);
		case_free_item(&t->v[i]);
	}
	free(t->v);
	free(t->c);
	free(t->answers);
	result_inputs_release(&t->in);
	case_table_init(t, t->suite, t->ops, t->st);
}

/* bench.self_time for a self-timed engine: o's rules to its job, the
 * sample back. */
static int job_self_time(void *arg, const struct bench_opts *o,
			 struct bench_self *s)
{
	struct engine_job *job = arg;
	struct engine_timing t = {o->benchtime_ns, o->fixed_n, o->warmup_ns};
	struct engine_sample es;
	int rc;

	memset(&es, 0, sizeof(es));
	rc = job->sample(job, &t, &es, s->why, sizeof(s->why));
	if (rc != 0)
		return rc;
	*s = (struct bench_self){es.n, es.ns_per_op, es.bytes_per_op,
				 es.allocs_per_op, es.floor_ns_per_op,
				 es.heap_per_op, "", {{NULL, 0, 0}}};
	for (size_t i = 0; i < ENGINE_SAMPLE_FIGURES && i < BENCH_SELF_EXTRA;
	     i++)
		s->extra[i] = (struct bench_metric){
			es.figures[i].unit,
			(enum metric_better)es.figures[i].better,
			es.figures[i].value};
	return 0;
}

int case_bench_job(struct bench *b, struct engine_job *job)
{
	if (job == NULL)
		return -1;
	b->self_time = job_self_time;
	b->self_arg = job;
	b->retain = NULL; /* the job measures its own heap, not this process's */
	b->release = NULL;
	return 0;
}

int case_bench_work(struct bench *b, const struct engine *e, void *h,
		    const struct engine_work *w)
{
	if (e == NULL || e->work_new == NULL)
		return 0;
	return case_bench_job(b, e->work_new(h, w));
}

/*
 * fqdn_yaml.c - the selectors of a CiliumNetworkPolicy YAML file, read
 * with libyaml's document loader (Debian's libyaml-dev, pkg-config
 * yaml-0.1).
 *
 * Every document of the stream is loaded and walked.  A mapping key
 * `toFQDNs` (an egress rule's L3 selectors: FQDN_SET_L3) or `dns` (the
 * DNS proxy's L7 rules under toPorts[].rules: FQDN_SET_L7) introduces a
 * list of selectors, wherever it is; each selector mapping is read whole
 * and judged by fqdn_policy_take with its line.  Anything else is walked
 * and ignored, so a whole policy (or a List of policies, or `kubectl get
 * -o yaml` output) can be given as is.
 *
 * A selector is what Cilium's types make of it.  FQDNSelector (toFQDNs)
 * and PortRuleDNS (dns, `type PortRuleDNS FQDNSelector`) have two keys,
 * matchName and matchPattern, in 1.11.14 and in 1.19 alike, so any other
 * key in a selector is an error naming it: kubectl's default (strict)
 * field validation refuses it too, and a server without it would prune
 * it and keep a selector that is not the one written.  So is a key given
 * twice, an item that is not a mapping, a list that is not a list.  An
 * empty value (null, "") means "not set", as in Cilium; a selector
 * with neither key set is left out with a warning (the name manager
 * would read an empty toFQDNs selector as the root name ".").  Both keys
 * set is refused in a toFQDNs selector (FQDNSelector.sanitize: "only one
 * of MatchName or MatchPattern") and read as two rules in a dns rule
 * (GeneratePattern takes both; 1.19's CRD schema, oneOf, refuses it: a
 * warning).  A key present with "" is refused by the CRD pattern: a
 * warning.
 *
 * Aliases are followed, as kubectl does when it turns YAML into JSON:
 * `toFQDNs: *sel` reads the list anchored `&sel`, and a selector read
 * through an alias names the line where it is written; a merge key
 * (`<<: *base`) in a selector brings the keys it does not set itself.
 * The loader keeps an alias as a second reference to its node, so an
 * alias bomb (aliases of aliases, each doubling) is stopped after
 * YAML_MAX_REUSE nodes walked beyond the document's own, and an alias
 * inside the node it names (a cycle) is refused.
 */
#include "corpora/fqdn_policy.h"

#include "corpora/file.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <yaml.h>

/* Deeper nesting is refused rather than recursed into. */
#define YAML_MAX_DEPTH 256

/* Nodes walked again through aliases, at most, in one document. */
#define YAML_MAX_REUSE 1000000

enum walk_mode {
	WALK_ANY,      /* an ordinary node */
	WALK_SELLIST,  /* the value of toFQDNs / dns: a list of selectors */
	WALK_SELECTOR, /* an item of that list */
};

struct walk {
	yaml_parser_t parser;
	yaml_document_t doc;
	size_t nnodes;         /* nodes of doc */
	size_t visits;         /* nodes walked in doc so far */
	unsigned char *inside; /* per node: being walked (a cycle test) */
	struct fqdn_policy *p;
	const char *path;
	char *err;
	size_t errsize;
};

static int walk_fail(struct walk *w, size_t line0, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* Message "path:line: ..." for a 0-based libyaml line.  Returns -1. */
static int walk_fail(struct walk *w, size_t line0, const char *fmt, ...)
{
	va_list ap;
	int n = snprintf(w->err, w->errsize, "%s:%zu: ", w->path, line0 + 1);

	if (n < 0 || (size_t)n >= w->errsize)
		return -1;
	va_start(ap, fmt);
	vsnprintf(w->err + n, w->errsize - (size_t)n, fmt, ap);
	va_end(ap);
	msg_escape_controls(w->err, w->errsize); /* a scalar may hold \n */
	return -1;
}

static int scalar_is(const yaml_node_t *n, const char *s)
{
	return n->type == YAML_SCALAR_NODE &&
	       n->data.scalar.length == strlen(s) &&
	       memcmp(n->data.scalar.value, s, strlen(s)) == 0;
}

/* A plain null ("", "~", "null"): the key is absent once in JSON. */
static int scalar_null(const yaml_node_t *n)
{
	const char *s;

	if (n->type != YAML_SCALAR_NODE ||
	    n->data.scalar.style != YAML_PLAIN_SCALAR_STYLE)
		return 0;
	s = (const char *)n->data.scalar.value;
	return n->data.scalar.length == 0 || strcmp(s, "~") == 0 ||
	       strcmp(s, "null") == 0 || strcmp(s, "Null") == 0 ||
	       strcmp(s, "NULL") == 0;
}

/* The selector list a key introduces: its set, or 0. */
static unsigned key_set(const yaml_node_t *key)
{
	if (scalar_is(key, "toFQDNs"))
		return FQDN_SET_L3;
	if (scalar_is(key, "dns"))
		return FQDN_SET_L7;
	return 0;
}

/* "a toFQDNs selector" or "a dns rule", for messages. */
static const char *sel_what(unsigned set)
{
	return set == FQDN_SET_L3 ? "a toFQDNs selector" : "a dns rule";
}

static const char *list_name(unsigned set)
{
	return set == FQDN_SET_L3 ? "toFQDNs" : "dns";
}

/* "a mapping", "a list" or the scalar quoted, into buf. */
static const char *node_what(const yaml_node_t *n, char *buf, size_t size)
{
	if (n->type == YAML_MAPPING_NODE)
		return "a mapping";
	if (n->type == YAML_SEQUENCE_NODE)
		return "a list";
	snprintf(buf, size, "'%.*s%s'",
		 n->data.scalar.length > 40 ? 40 : (int)n->data.scalar.length,
		 (const char *)n->data.scalar.value,
		 n->data.scalar.length > 40 ? "..." : "");
	return buf;
}

static int walk_node(struct walk *w, int id, enum walk_mode mode,
		     unsigned set, int depth);

/* Enter node n (id) once more: the depth, alias-bomb and cycle tests. */
static int walk_enter(struct walk *w, int id, const yaml_node_t *n,
		      int depth)
{
	size_t line = n->start_mark.line;

	if (depth > YAML_MAX_DEPTH)
		return walk_fail(w, line, "YAML nested deeper than %d levels",
				 YAML_MAX_DEPTH);
	if (++w->visits > w->nnodes + YAML_MAX_REUSE)
		return walk_fail(w, line, "YAML aliases expand to more than "
				 "%d nodes beyond the %zu of the document",
				 YAML_MAX_REUSE, w->nnodes);
	if (w->inside[id - 1])
		return walk_fail(w, line, "YAML alias inside the node it "
				 "refers to (a cycle)");
	w->inside[id - 1] = 1;
	return 0;
}

/* The keys of one selector: the value node of matchName (0) and
 * matchPattern (1), 0 when absent, and the line of each key. */
struct sel_keys {
	int value[2];
	size_t line[2];
};

static int sel_keys_read(struct walk *w, int id, unsigned set,
			 struct sel_keys *k, int depth);

/* The keys merge source `id` (a mapping) brings to k, where k has none. */
static int sel_keys_merge1(struct walk *w, int id, unsigned set,
			   struct sel_keys *k, int depth)
{
	yaml_node_t *n = yaml_document_get_node(&w->doc, id);
	struct sel_keys m = {{0, 0}, {0, 0}};
	char what[64];

	if (n == NULL)
		return walk_fail(w, 0, "invalid YAML: node %d missing", id);
	if (n->type != YAML_MAPPING_NODE)
		return walk_fail(w, n->start_mark.line, "a merge key (<<) in "
				 "%s brings %s, not a mapping", sel_what(set),
				 node_what(n, what, sizeof(what)));
	if (sel_keys_read(w, id, set, &m, depth + 1) != 0)
		return -1;
	for (int i = 0; i < 2; i++)
		if (k->value[i] == 0) {
			k->value[i] = m.value[i];
			k->line[i] = m.line[i];
		}
	return 0;
}

/* The keys a merge key's value (a mapping, or a list of them, the first
 * winning) brings to k, where k has none. */
static int sel_keys_merge(struct walk *w, int id, unsigned set,
			  struct sel_keys *k, int depth)
{
	yaml_node_t *n = yaml_document_get_node(&w->doc, id);

	if (n == NULL || n->type != YAML_SEQUENCE_NODE)
		return sel_keys_merge1(w, id, set, k, depth);
	for (yaml_node_item_t *it = n->data.sequence.items.start;
	     it < n->data.sequence.items.top; it++)
		if (sel_keys_merge1(w, *it, set, k, depth) != 0)
			return -1;
	return 0;
}

/* An unknown key of a selector: the error naming it. */
static int unknown_key(struct walk *w, const yaml_node_t *key, unsigned set)
{
	char what[64];

	if (key->type != YAML_SCALAR_NODE)
		return walk_fail(w, key->start_mark.line, "%s as a key in %s "
				 "(known: matchName, matchPattern)",
				 node_what(key, what, sizeof(what)),
				 sel_what(set));
	return walk_fail(w, key->start_mark.line, "unknown key '%.*s%s' in %s "
			 "(known: matchName, matchPattern)",
			 key->data.scalar.length > 64
				 ? 64 : (int)key->data.scalar.length,
			 (const char *)key->data.scalar.value,
			 key->data.scalar.length > 64 ? "..." : "",
			 sel_what(set));
}

/*
 * The keys of selector mapping `id` into k: its own (an unknown key, or
 * one given twice, is an error), then those its merge keys bring.
 */
static int sel_keys_read(struct walk *w, int id, unsigned set,
			 struct sel_keys *k, int depth)
{
	yaml_node_t *n = yaml_document_get_node(&w->doc, id);
	int rc = walk_enter(w, id, n, depth);

	for (yaml_node_pair_t *pr = n->data.mapping.pairs.start;
	     rc == 0 && pr < n->data.mapping.pairs.top; pr++) {
		yaml_node_t *key = yaml_document_get_node(&w->doc, pr->key);
		int i = scalar_is(key, "matchName")	 ? 0
			: scalar_is(key, "matchPattern") ? 1
							 : -1;
		if (scalar_is(key, "<<") &&
		    key->data.scalar.style == YAML_PLAIN_SCALAR_STYLE)
			continue;
		if (i < 0)
			rc = unknown_key(w, key, set);
		else if (k->value[i] != 0)
			rc = walk_fail(w, key->start_mark.line,
				       "%s given twice in %s (line %zu first)",
				       i ? "matchPattern" : "matchName",
				       sel_what(set), k->line[i] + 1);
		else {
			k->value[i] = pr->value;
			k->line[i] = key->start_mark.line;
		}
	}
	for (yaml_node_pair_t *pr = n->data.mapping.pairs.start;
	     rc == 0 && pr < n->data.mapping.pairs.top; pr++) {
		yaml_node_t *key = yaml_document_get_node(&w->doc, pr->key);
		if (scalar_is(key, "<<") &&
		    key->data.scalar.style == YAML_PLAIN_SCALAR_STYLE)
			rc = sel_keys_merge(w, pr->value, set, k, depth);
	}
	w->inside[id - 1] = 0;
	return rc;
}

/* The value node of key i of k, checked to be a string; NULL if absent
 * (or null).  *bad is set on an error (reported). */
static yaml_node_t *sel_value(struct walk *w, const struct sel_keys *k,
			      int i, int *bad)
{
	yaml_node_t *v;

	if (k->value[i] == 0)
		return NULL;
	v = yaml_document_get_node(&w->doc, k->value[i]);
	if (v->type != YAML_SCALAR_NODE) {
		*bad = walk_fail(w, v->start_mark.line, "%s must be a string",
				 i ? "matchPattern" : "matchName");
		return NULL;
	}
	return scalar_null(v) ? NULL : v;
}

/* Warnings for what the CRD schema refuses in the selector as a whole:
 * a key given as "" (the pattern), 1.19's oneOf (exactly one key). */
static int sel_crd_warn(struct walk *w, yaml_node_t *const v[2],
			unsigned set)
{
	enum fqdn_cilium ver = w->p->cilium;
	const char *vn = fqdn_cilium_name(ver);
	int rc = 0;

	for (int i = 0; i < 2 && rc == 0; i++) {
		if (v[i] == NULL || v[i]->data.scalar.length != 0)
			continue;
		rc = fqdn_policy_warn(w->p, w->path,
				      (long)v[i]->start_mark.line + 1,
				      "%s '' in %s is refused by Cilium %s's "
				      "CRD schema (its pattern); its agent's "
				      "code reads it as not set",
				      i ? "matchPattern" : "matchName",
				      sel_what(set), vn);
	}
	if (rc == 0 && ver == FQDN_CILIUM_1_19 && v[0] != NULL &&
	    v[1] != NULL)
		rc = fqdn_policy_warn(w->p, w->path,
				      (long)v[0]->start_mark.line + 1,
				      "%s with both matchName and matchPattern "
				      "is refused by Cilium 1.19's CRD schema "
				      "(oneOf)%s", sel_what(set),
				      set == FQDN_SET_L7
					      ? "; its agent's DNS proxy takes "
						"both"
					      : "");
	return rc == 0 ? 0 : walk_fail(w, 0, "out of memory");
}

/* A selector with neither key set: left out, with a warning (crd: the
 * CRD schema refuses it too). */
static int sel_empty(struct walk *w, const yaml_node_t *n, unsigned set,
		     int crd)
{
	const char *why = set == FQDN_SET_L3
				  ? "Cilium's name manager would read it as "
				    "the root name \".\" (ToRegex of \"\")"
				  : "it adds no rule to the DNS proxy's regex";
	char also[64] = "";

	if (crd)
		snprintf(also, sizeof(also), "; Cilium %s's CRD schema "
			 "refuses it", fqdn_cilium_name(w->p->cilium));
	if (fqdn_policy_warn(w->p, w->path, (long)n->start_mark.line + 1,
			     "%s with no matchName or matchPattern is left "
			     "out: %s%s", sel_what(set), why, also) != 0)
		return walk_fail(w, n->start_mark.line, "out of memory");
	return 0;
}

/* Selector value v as the selector of `kind`, judged and added. */
static int sel_take(struct walk *w, const yaml_node_t *v, unsigned set,
		    enum fqdn_kind kind)
{
	return fqdn_policy_take(w->p, w->path, (long)v->start_mark.line + 1,
				set, kind, (const char *)v->data.scalar.value,
				v->data.scalar.length, w->err, w->errsize);
}

/*
 * What Cilium makes of values v (NULL: absent) as one selector: both set
 * in a toFQDNs selector is an error (FQDNSelector.sanitize), the CRD
 * schema's refusals are warnings; then "" is "not set" (NULL).
 */
static int sel_settle(struct walk *w, const yaml_node_t *n, yaml_node_t *v[2],
		      unsigned set)
{
	if (set == FQDN_SET_L3 && v[0] && v[1] && v[0]->data.scalar.length &&
	    v[1]->data.scalar.length)
		return walk_fail(w, n->start_mark.line, "a toFQDNs selector "
				 "with both matchName and matchPattern: "
				 "Cilium refuses the rule (only one of "
				 "MatchName or MatchPattern is allowed in an "
				 "FQDNSelector)");
	if (sel_crd_warn(w, v, set) != 0)
		return -1;
	for (int i = 0; i < 2; i++)
		if (v[i] != NULL && v[i]->data.scalar.length == 0)
			v[i] = NULL;
	return 0;
}

/* Selector mapping `id` (an item of a toFQDNs or dns list), read whole:
 * its matchName, then its matchPattern (GeneratePattern's order). */
static int walk_selector(struct walk *w, int id, unsigned set, int depth)
{
	yaml_node_t *n = yaml_document_get_node(&w->doc, id), *v[2];
	struct sel_keys k = {{0, 0}, {0, 0}};
	int bad = 0;

	if (sel_keys_read(w, id, set, &k, depth) != 0)
		return -1;
	v[0] = sel_value(w, &k, 0, &bad);
	v[1] = bad ? NULL : sel_value(w, &k, 1, &bad);
	if (bad || sel_settle(w, n, v, set) != 0)
		return -1;
	if (v[0] == NULL && v[1] == NULL)
		return sel_empty(w, n, set, w->p->cilium == FQDN_CILIUM_1_19);
	if (v[0] != NULL && sel_take(w, v[0], set, FQDN_MATCH_NAME) != 0)
		return -1;
	if (v[1] != NULL && sel_take(w, v[1], set, FQDN_MATCH_PATTERN) != 0)
		return -1;
	return 0;
}

/* The pairs of an ordinary mapping: toFQDNs and dns open a list. */
static int walk_mapping(struct walk *w, yaml_node_t *n, int depth)
{
	for (yaml_node_pair_t *pr = n->data.mapping.pairs.start;
	     pr < n->data.mapping.pairs.top; pr++) {
		yaml_node_t *key = yaml_document_get_node(&w->doc, pr->key);
		unsigned set = key_set(key);
		int rc = walk_node(w, pr->key, WALK_ANY, 0, depth + 1);
		if (rc == 0)
			rc = walk_node(w, pr->value,
				       set ? WALK_SELLIST : WALK_ANY, set,
				       depth + 1);
		if (rc != 0)
			return rc;
	}
	return 0;
}

/* The items of a sequence node: selectors in a selector list. */
static int walk_sequence(struct walk *w, yaml_node_t *n, enum walk_mode mode,
			 unsigned set, int depth)
{
	for (yaml_node_item_t *it = n->data.sequence.items.start;
	     it < n->data.sequence.items.top; it++) {
		int rc = walk_node(w, *it, mode == WALK_SELLIST ? WALK_SELECTOR
								: WALK_ANY,
				   set, depth + 1);
		if (rc != 0)
			return rc;
	}
	return 0;
}

/* A node that is not what a selector list or a selector must be. */
static int walk_misfit(struct walk *w, const yaml_node_t *n,
		       enum walk_mode mode, unsigned set)
{
	char what[64];

	if (mode == WALK_SELLIST)
		return walk_fail(w, n->start_mark.line, "%s must be a list of "
				 "selectors, not %s", list_name(set),
				 node_what(n, what, sizeof(what)));
	return walk_fail(w, n->start_mark.line, "%s must be a mapping of "
			 "matchName or matchPattern, not %s", sel_what(set),
			 node_what(n, what, sizeof(what)));
}

/* Node id (1-based) and what it holds, once more for each alias of it. */
static int walk_node(struct walk *w, int id, enum walk_mode mode,
		     unsigned set, int depth)
{
	yaml_node_t *n = yaml_document_get_node(&w->doc, id);
	int rc;

	if (n == NULL)
		return walk_fail(w, 0, "invalid YAML: node %d missing", id);
	if (mode == WALK_SELECTOR && n->type == YAML_MAPPING_NODE)
		return walk_selector(w, id, set, depth);
	if (mode == WALK_SELECTOR && scalar_null(n))
		return sel_empty(w, n, set, 1); /* JSON null: "must be of
						   type object" */
	if (mode == WALK_SELECTOR ||
	    (mode == WALK_SELLIST && n->type != YAML_SEQUENCE_NODE &&
	     !scalar_null(n)))
		return walk_misfit(w, n, mode, set);
	if (n->type == YAML_SCALAR_NODE)
		return 0;
	rc = walk_enter(w, id, n, depth);
	if (rc == 0 && n->type == YAML_MAPPING_NODE)
		rc = walk_mapping(w, n, depth);
	else if (rc == 0)
		rc = walk_sequence(w, n, mode, set, depth);
	w->inside[id - 1] = 0;
	return rc;
}

/* Load the next document into w->doc: 1, 0 at the stream's end, -1. */
static int load_document(struct walk *w)
{
	yaml_parser_t *pr = &w->parser;

	if (!yaml_parser_load(pr, &w->doc))
		return walk_fail(w, pr->problem_mark.line, "invalid YAML: %s%s%s",
				 pr->problem ? pr->problem : "parse error",
				 pr->context ? " " : "",
				 pr->context ? pr->context : "");
	if (yaml_document_get_root_node(&w->doc) == NULL) {
		yaml_document_delete(&w->doc);
		return 0;
	}
	w->nnodes = (size_t)(w->doc.nodes.top - w->doc.nodes.start);
	w->visits = 0;
	w->inside = calloc(w->nnodes, 1);
	if (w->inside == NULL) {
		yaml_document_delete(&w->doc);
		return walk_fail(w, 0, "out of memory");
	}
	return 1;
}

/* All documents of the stream. */
static int walk_stream(struct walk *w)
{
	for (;;) {
		int rc = load_document(w);
		if (rc <= 0)
			return rc;
		rc = walk_node(w, 1, WALK_ANY, 0, 0);
		free(w->inside);
		w->inside = NULL;
		yaml_document_delete(&w->doc);
		if (rc != 0)
			return rc;
	}
}

int fqdn_policy_parse_yaml(struct fqdn_policy *p, const char *path,
			   const char *data, size_t len, char *err,
			   size_t errsize)
{
	struct walk w = {.p = p, .path = path, .err = err, .errsize = errsize};
	int rc;

	if (!yaml_parser_initialize(&w.parser)) {
		snprintf(err, errsize, "%s: out of memory", path);
		return -1;
	}
	yaml_parser_set_input_string(&w.parser, (const unsigned char *)data,
				     len);
	rc = walk_stream(&w);
	yaml_parser_delete(&w.parser);
	return rc;
}

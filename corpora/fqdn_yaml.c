/*
 * fqdn_yaml.c - the selectors of a CiliumNetworkPolicy YAML file, read
 * with libyaml's document loader (Debian's libyaml-dev, pkg-config
 * yaml-0.1).
 *
 * Every document of the stream is loaded and read as Cilium's types
 * (pkg/policy/api) read it.  A document is an object: kind
 * CiliumNetworkPolicy or CiliumClusterwideNetworkPolicy (or none, a bare
 * object) has its Rule in `spec` and in each item of `specs`; a kind
 * ending in List (List, CiliumNetworkPolicyList, ...) holds objects in
 * `items`.  A Rule's `egress` items are EgressRules: their `toFQDNs` is a
 * list of selectors (the name manager's: FQDN_SET_L3) and their
 * `toPorts[].rules.dns` one of DNS rules (the DNS proxy's:
 * FQDN_SET_L7).  Nothing else is read, so a whole policy, a List of
 * policies or `kubectl get -o yaml` output can be given as is; but a
 * `toFQDNs` or `dns` list anywhere else is an error naming why and what
 * Cilium does, never a selector silently taken or dropped: DNS rules on
 * ingress (PortRule.sanitize(ingress): Cilium refuses the policy),
 * toFQDNs in an ingress or deny rule and rules in a deny rule's toPorts
 * (those types have no such field: kubectl's strict field validation
 * refuses it, a server without it prunes it), any other place, or any
 * other kind.  A key (a label, an annotation) named toFQDNs or dns whose
 * value is a string holds no selector and is left alone.  Such a
 * misplaced list is read whole first, into nothing, so a selector that
 * would be refused anywhere is named before the place.  A key given
 * twice in a mapping on the way to a selector (kind, spec, specs, items,
 * egress, ingress, egressDeny, ingressDeny, toFQDNs, toPorts, rules,
 * dns) is an error: kubectl refuses the YAML (duplicate key).  A value
 * of the wrong shape there (egress as a mapping) is an error too.
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
 * (`<<: *base`) in a selector, a rule or any mapping on the way brings
 * the keys it does not set itself (the first source winning).
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
	int parent;                 /* off the path: the key above, 0 none */
	const yaml_node_t *kind;    /* off the path: the kind of the object
				       that is no Cilium policy, or NULL */
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

/* The 64 first bytes of scalar n (for "%.*s%s"), into buf. */
static const char *key_text(const yaml_node_t *n, char *buf, size_t size)
{
	if (n == NULL || n->type != YAML_SCALAR_NODE)
		return "?";
	snprintf(buf, size, "%.*s%s",
		 n->data.scalar.length > 64 ? 64 : (int)n->data.scalar.length,
		 (const char *)n->data.scalar.value,
		 n->data.scalar.length > 64 ? "..." : "");
	return buf;
}

/*
 * A toFQDNs or dns list (value of key `key`, set `set`) where Cilium
 * does not read one: read whole into a throwaway policy (a selector
 * refused anywhere is named first), then the error why (a message for
 * walk_fail at the key's line).  Returns -1.
 */
static int misplaced(struct walk *w, const yaml_node_t *key, int value,
		     unsigned set, int depth, const char *why)
{
	struct fqdn_policy tmp, *keep = w->p;
	int rc;

	fqdn_policy_init(&tmp);
	tmp.cilium = keep->cilium;
	w->p = &tmp;
	rc = walk_node(w, value, WALK_SELLIST, set, depth);
	w->p = keep;
	fqdn_policy_release(&tmp);
	if (rc != 0)
		return rc;
	return walk_fail(w, key->start_mark.line, "%s", why);
}

/* A toFQDNs or dns key off the path Cilium reads: the error, unless its
 * value is a string (a label or an annotation: no selector in it). */
static int stray_key(struct walk *w, const yaml_node_t *key, int value,
		     unsigned set, int depth)
{
	const yaml_node_t *v = yaml_document_get_node(&w->doc, value);
	const char *name = list_name(set);
	char why[384], where[96], kb[80];

	if (v == NULL || v->type == YAML_SCALAR_NODE)
		return 0;
	if (w->kind != NULL) {
		snprintf(why, sizeof(why), "%s in a kind '%s' object: Cilium "
			 "reads %s only in a CiliumNetworkPolicy or "
			 "CiliumClusterwideNetworkPolicy", name,
			 key_text(w->kind, kb, sizeof(kb)), name);
		return misplaced(w, key, value, set, depth, why);
	}
	if (w->parent == 0)
		snprintf(where, sizeof(where), "at the top of a document");
	else
		snprintf(where, sizeof(where), "under '%s'",
			 key_text(yaml_document_get_node(&w->doc, w->parent),
				  kb, sizeof(kb)));
	snprintf(why, sizeof(why), set == FQDN_SET_L3
		 ? "toFQDNs %s: Cilium reads toFQDNs only in an egress rule "
		   "(spec.egress[], specs[].egress[]); the API server refuses "
		   "the field here"
		 : "dns %s: Cilium reads DNS rules only in "
		   "egress[].toPorts[].rules; the API server refuses the field "
		   "here", where);
	return misplaced(w, key, value, set, depth, why);
}

/* A pair of a mapping off the path Cilium reads: a toFQDNs or dns list
 * is misplaced; anything else is walked for one. */
static int walk_mapping_pair(struct walk *w, const yaml_node_pair_t *pr,
			     int depth)
{
	yaml_node_t *key = yaml_document_get_node(&w->doc, pr->key);
	unsigned set = key_set(key);
	int keep = w->parent;
	int rc = walk_node(w, pr->key, WALK_ANY, 0, depth);

	if (rc == 0 && set)
		rc = stray_key(w, key, pr->value, set, depth);
	w->parent = pr->key;
	if (rc == 0 && !set)
		rc = walk_node(w, pr->value, WALK_ANY, 0, depth);
	w->parent = keep;
	return rc;
}

/* The pairs of a mapping off the path. */
static int walk_mapping(struct walk *w, yaml_node_t *n, int depth)
{
	int rc = 0;

	for (yaml_node_pair_t *pr = n->data.mapping.pairs.start;
	     rc == 0 && pr < n->data.mapping.pairs.top; pr++)
		rc = walk_mapping_pair(w, pr, depth + 1);
	return rc;
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

/*
 * The path Cilium reads, as levels: each a mapping of which some keys
 * are read (keys[k], by take) and the rest walked off the path.  A rule
 * list's level knows where it sits (dir): egress, ingress, egressDeny,
 * ingressDeny, the Rule fields of types EgressRule, IngressRule,
 * EgressDenyRule and IngressDenyRule.
 */
enum dir { DIR_EGRESS, DIR_INGRESS, DIR_EGRESS_DENY, DIR_INGRESS_DENY };

static const char *const dir_key[] = {"egress", "ingress", "egressDeny",
				      "ingressDeny", NULL};
static const char *const dir_type[] = {"EgressRule", "IngressRule",
				       "EgressDenyRule", "IngressDenyRule"};

struct level;
typedef int (*level_take)(struct walk *w, const struct level *lv, int k,
			  const yaml_node_t *key, int value, int depth);

struct level {
	const char *const *keys; /* read here, NULL-terminated (< 8) */
	level_take take;         /* keys[k] with its value */
	enum dir dir;
};

static int is_merge(const yaml_node_t *key)
{
	return scalar_is(key, "<<") &&
	       key->data.scalar.style == YAML_PLAIN_SCALAR_STYLE;
}

static int key_index(const struct level *lv, const yaml_node_t *key)
{
	for (int k = 0; lv->keys[k] != NULL; k++)
		if (scalar_is(key, lv->keys[k]))
			return k;
	return -1;
}

/* The error for key `name` given twice in one mapping. */
static int dup_key(struct walk *w, const yaml_node_t *key, const char *name,
		   size_t first0)
{
	return walk_fail(w, key->start_mark.line, "'%s' given twice in one "
			 "mapping (line %zu first): kubectl refuses the YAML "
			 "(duplicate key)", name, first0 + 1);
}

/* The keys of lv that mapping n holds itself, as bits in *own; one
 * held twice is an error. */
static int level_own(struct walk *w, const struct level *lv,
		     const yaml_node_t *n, unsigned *own)
{
	size_t first[8] = {0};

	*own = 0;
	for (yaml_node_pair_t *pr = n->data.mapping.pairs.start;
	     pr < n->data.mapping.pairs.top; pr++) {
		yaml_node_t *key = yaml_document_get_node(&w->doc, pr->key);
		int k = key_index(lv, key);
		if (k < 0)
			continue;
		if (*own & (1u << k))
			return dup_key(w, key, lv->keys[k], first[k]);
		*own |= 1u << k;
		first[k] = key->start_mark.line;
	}
	return 0;
}

static int level_walk(struct walk *w, const struct level *lv, int id,
		      unsigned *seen, int depth);

/* A merge key's source `id` at level lv: a mapping, or a list of them
 * (the first winning), for the keys not in *seen. */
static int level_merge(struct walk *w, const struct level *lv, int id,
		       unsigned *seen, int depth)
{
	yaml_node_t *n = yaml_document_get_node(&w->doc, id);
	char what[64];
	int rc = 0;

	if (n != NULL && n->type == YAML_SEQUENCE_NODE) {
		for (yaml_node_item_t *it = n->data.sequence.items.start;
		     rc == 0 && it < n->data.sequence.items.top; it++)
			rc = level_merge(w, lv, *it, seen, depth + 1);
		return rc;
	}
	if (n == NULL)
		return walk_fail(w, 0, "invalid YAML: node %d missing", id);
	if (n->type != YAML_MAPPING_NODE)
		return walk_fail(w, n->start_mark.line, "a merge key (<<) "
				 "brings %s, not a mapping",
				 node_what(n, what, sizeof(what)));
	return level_walk(w, lv, id, seen, depth + 1);
}

/*
 * Mapping `id` at level lv: its keys of lv that are not in *seen (set
 * by a mapping it is merged into) taken, its other keys walked off the
 * path, then its merge keys' sources; *seen gains its keys.
 */
static int level_walk(struct walk *w, const struct level *lv, int id,
		      unsigned *seen, int depth)
{
	yaml_node_t *n = yaml_document_get_node(&w->doc, id);
	unsigned own = 0, skip = *seen;
	int parent = w->parent; /* the key this mapping is the value of */
	int rc = walk_enter(w, id, n, depth);

	if (rc == 0)
		rc = level_own(w, lv, n, &own);
	*seen |= own;
	for (yaml_node_pair_t *pr = n->data.mapping.pairs.start;
	     rc == 0 && pr < n->data.mapping.pairs.top; pr++) {
		yaml_node_t *key = yaml_document_get_node(&w->doc, pr->key);
		int k = key_index(lv, key);
		if (is_merge(key))
			continue;
		w->parent = k < 0 ? parent : pr->key;
		if (k < 0)
			rc = walk_mapping_pair(w, pr, depth + 1);
		else if (!(skip & (1u << k)))
			rc = lv->take(w, lv, k, key, pr->value, depth + 1);
	}
	w->parent = parent;
	for (yaml_node_pair_t *pr = n->data.mapping.pairs.start;
	     rc == 0 && pr < n->data.mapping.pairs.top; pr++)
		if (is_merge(yaml_document_get_node(&w->doc, pr->key)))
			rc = level_merge(w, lv, pr->value, seen, depth + 1);
	w->inside[id - 1] = 0;
	return rc;
}

/*
 * Value `id` of key `key` into *out when it is a node of `type` (`must`
 * names it: "a mapping"); *out NULL when it is null (nothing to read).
 * 0, or -1 with the error said (a missing node, another type).
 */
static int level_value(struct walk *w, const yaml_node_t *key, int id,
		       yaml_node_type_t type, const char *must,
		       yaml_node_t **out)
{
	yaml_node_t *n = yaml_document_get_node(&w->doc, id);
	char what[64], kb[80];

	*out = NULL;
	if (n == NULL)
		return walk_fail(w, 0, "invalid YAML: node %d missing", id);
	if (scalar_null(n))
		return 0;
	if (n->type != type)
		return walk_fail(w, n->start_mark.line, "%s must be %s, not %s",
				 key_text(key, kb, sizeof(kb)), must,
				 node_what(n, what, sizeof(what)));
	*out = n;
	return 0;
}

/* Value `id` of key `key`, which must be a mapping (or null) read at
 * level lv. */
static int level_mapping(struct walk *w, const struct level *lv,
			 const yaml_node_t *key, int id, int depth)
{
	yaml_node_t *n;
	unsigned seen = 0;

	if (level_value(w, key, id, YAML_MAPPING_NODE, "a mapping", &n) != 0)
		return -1;
	return n == NULL ? 0 : level_walk(w, lv, id, &seen, depth);
}

static int walk_object(struct walk *w, int id, int depth);

/* Value `id` of key `key`, which must be a list (or null) of mappings
 * read at level lv (of objects when lv is NULL). */
static int level_list(struct walk *w, const struct level *lv,
		      const yaml_node_t *key, int id, int depth)
{
	yaml_node_t *n;
	char what[64], kb[80];
	int rc;

	if (level_value(w, key, id, YAML_SEQUENCE_NODE, "a list", &n) != 0)
		return -1;
	if (n == NULL)
		return 0;
	rc = walk_enter(w, id, n, depth);
	for (yaml_node_item_t *it = n->data.sequence.items.start;
	     rc == 0 && it < n->data.sequence.items.top; it++) {
		yaml_node_t *item = yaml_document_get_node(&w->doc, *it);
		unsigned seen = 0;
		if (item == NULL || scalar_null(item))
			continue;
		if (lv == NULL)
			rc = walk_object(w, *it, depth + 1);
		else if (item->type == YAML_MAPPING_NODE)
			rc = level_walk(w, lv, *it, &seen, depth + 1);
		else
			rc = walk_fail(w, item->start_mark.line, "an item of %s "
				       "must be a mapping, not %s",
				       key_text(key, kb, sizeof(kb)),
				       node_what(item, what, sizeof(what)));
	}
	w->inside[id - 1] = 0;
	return rc;
}

/* An empty list or null: what Cilium counts as no rule (len 0). */
static int list_empty(struct walk *w, int id)
{
	yaml_node_t *n = yaml_document_get_node(&w->doc, id);

	return n != NULL && (scalar_null(n) ||
			     (n->type == YAML_SEQUENCE_NODE &&
			      n->data.sequence.items.start ==
				      n->data.sequence.items.top));
}

static const char *const keys_l7[] = {"dns", NULL};

/* rules.dns: the DNS proxy's rules on egress; refused elsewhere. */
static int take_l7(struct walk *w, const struct level *lv, int k,
		   const yaml_node_t *key, int value, int depth)
{
	char why[256];

	(void)k;
	if (lv->dir == DIR_EGRESS)
		return walk_node(w, value, WALK_SELLIST, FQDN_SET_L7, depth);
	if (lv->dir == DIR_INGRESS && list_empty(w, value))
		return 0; /* PortRule.sanitize: len(DNS) > 0 is refused */
	if (lv->dir == DIR_INGRESS)
		snprintf(why, sizeof(why), "DNS rules under ingress: Cilium "
			 "refuses the policy (DNS rules are allowed on egress "
			 "only)");
	else
		snprintf(why, sizeof(why), "DNS rules under %s: Cilium's "
			 "PortDenyRule has no rules (the API server refuses "
			 "the field)", dir_key[lv->dir]);
	return misplaced(w, key, value, FQDN_SET_L7, depth, why);
}

static const struct level lv_l7[] = {
	{keys_l7, take_l7, DIR_EGRESS},
	{keys_l7, take_l7, DIR_INGRESS},
	{keys_l7, take_l7, DIR_EGRESS_DENY},
	{keys_l7, take_l7, DIR_INGRESS_DENY},
};

static const char *const keys_port[] = {"rules", NULL};

/* toPorts[].rules. */
static int take_port(struct walk *w, const struct level *lv, int k,
		     const yaml_node_t *key, int value, int depth)
{
	(void)k;
	return level_mapping(w, &lv_l7[lv->dir], key, value, depth);
}

static const struct level lv_port[] = {
	{keys_port, take_port, DIR_EGRESS},
	{keys_port, take_port, DIR_INGRESS},
	{keys_port, take_port, DIR_EGRESS_DENY},
	{keys_port, take_port, DIR_INGRESS_DENY},
};

static const char *const keys_rule[] = {"toFQDNs", "toPorts", NULL};

/* An egress (or ingress, deny) rule's toFQDNs and toPorts. */
static int take_rule(struct walk *w, const struct level *lv, int k,
		     const yaml_node_t *key, int value, int depth)
{
	char why[256];

	if (k == 1)
		return level_list(w, &lv_port[lv->dir], key, value, depth);
	if (lv->dir == DIR_EGRESS)
		return walk_node(w, value, WALK_SELLIST, FQDN_SET_L3, depth);
	snprintf(why, sizeof(why), "toFQDNs under %s: Cilium's %s has no "
		 "toFQDNs (the API server refuses the field)",
		 dir_key[lv->dir], dir_type[lv->dir]);
	return misplaced(w, key, value, FQDN_SET_L3, depth, why);
}

static const struct level lv_rule[] = {
	{keys_rule, take_rule, DIR_EGRESS},
	{keys_rule, take_rule, DIR_INGRESS},
	{keys_rule, take_rule, DIR_EGRESS_DENY},
	{keys_rule, take_rule, DIR_INGRESS_DENY},
};

/* A Rule (spec, an item of specs): its four rule lists. */
static int take_spec(struct walk *w, const struct level *lv, int k,
		     const yaml_node_t *key, int value, int depth)
{
	(void)lv;
	return level_list(w, &lv_rule[k], key, value, depth);
}

static const struct level lv_spec = {dir_key, take_spec, DIR_EGRESS};

static const char *const keys_policy[] = {"spec", "specs", NULL};

/* A CiliumNetworkPolicy or CiliumClusterwideNetworkPolicy. */
static int take_policy(struct walk *w, const struct level *lv, int k,
		       const yaml_node_t *key, int value, int depth)
{
	(void)lv;
	if (k == 0)
		return level_mapping(w, &lv_spec, key, value, depth);
	return level_list(w, &lv_spec, key, value, depth);
}

static const struct level lv_policy = {keys_policy, take_policy,
				       DIR_EGRESS};

static const char *const keys_list[] = {"items", NULL};

/* A List's items: objects. */
static int take_list(struct walk *w, const struct level *lv, int k,
		     const yaml_node_t *key, int value, int depth)
{
	(void)lv;
	(void)k;
	return level_list(w, NULL, key, value, depth);
}

static const struct level lv_list = {keys_list, take_list, DIR_EGRESS};

/*
 * The value of key `name` in mapping `id`, its own or brought by a merge
 * key, in *out (0 when absent); the key twice in one mapping is an
 * error.
 */
static int map_get(struct walk *w, int id, const char *name, int depth,
		   int *out)
{
	yaml_node_t *n = yaml_document_get_node(&w->doc, id);
	size_t first = 0;
	int rc = walk_enter(w, id, n, depth);

	for (yaml_node_pair_t *pr = n->data.mapping.pairs.start;
	     rc == 0 && pr < n->data.mapping.pairs.top; pr++) {
		yaml_node_t *key = yaml_document_get_node(&w->doc, pr->key);
		if (!scalar_is(key, name))
			continue;
		if (*out != 0)
			rc = dup_key(w, key, name, first);
		*out = pr->value;
		first = key->start_mark.line;
	}
	for (yaml_node_pair_t *pr = n->data.mapping.pairs.start;
	     rc == 0 && *out == 0 && pr < n->data.mapping.pairs.top; pr++) {
		yaml_node_t *v = yaml_document_get_node(&w->doc, pr->value);
		if (!is_merge(yaml_document_get_node(&w->doc, pr->key)))
			continue;
		if (v->type == YAML_MAPPING_NODE)
			rc = map_get(w, pr->value, name, depth + 1, out);
		for (yaml_node_item_t *it = v->type == YAML_SEQUENCE_NODE
						    ? v->data.sequence.items.start
						    : NULL;
		     it != NULL && rc == 0 && *out == 0 &&
		     it < v->data.sequence.items.top; it++)
			if (yaml_document_get_node(&w->doc, *it)->type ==
			    YAML_MAPPING_NODE)
				rc = map_get(w, *it, name, depth + 1, out);
	}
	w->inside[id - 1] = 0;
	return rc;
}

/* Whether scalar n ends with s. */
static int scalar_ends(const yaml_node_t *n, const char *s)
{
	size_t len = strlen(s);

	return n->type == YAML_SCALAR_NODE && n->data.scalar.length >= len &&
	       memcmp(n->data.scalar.value + n->data.scalar.length - len, s,
		      len) == 0;
}

/*
 * Object `id` (a document, an item of a List): a Cilium policy (kind
 * CiliumNetworkPolicy, CiliumClusterwideNetworkPolicy or none) or a
 * List read on the path, anything else walked off it.
 */
static int walk_object(struct walk *w, int id, int depth)
{
	yaml_node_t *n = yaml_document_get_node(&w->doc, id), *kind = NULL;
	const yaml_node_t *keep = w->kind;
	unsigned seen = 0;
	int kid = 0, rc;

	if (n == NULL)
		return walk_fail(w, 0, "invalid YAML: node %d missing", id);
	if (n->type != YAML_MAPPING_NODE)
		return walk_node(w, id, WALK_ANY, 0, depth);
	rc = map_get(w, id, "kind", depth, &kid);
	if (rc != 0)
		return rc;
	kind = kid ? yaml_document_get_node(&w->doc, kid) : NULL;
	if (kind == NULL || scalar_null(kind) ||
	    scalar_is(kind, "CiliumNetworkPolicy") ||
	    scalar_is(kind, "CiliumClusterwideNetworkPolicy"))
		return level_walk(w, &lv_policy, id, &seen, depth);
	if (scalar_ends(kind, "List"))
		return level_walk(w, &lv_list, id, &seen, depth);
	w->kind = kind;
	rc = walk_node(w, id, WALK_ANY, 0, depth);
	w->kind = keep;
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
		w->parent = 0;
		rc = walk_object(w, 1, 0);
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

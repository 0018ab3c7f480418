/*
 * fqdn_yaml.c - the selectors of a CiliumNetworkPolicy YAML file, read
 * with libyaml's document loader (Debian's libyaml-dev, pkg-config
 * yaml-0.1).
 *
 * Every document of the stream is loaded and walked.  A mapping key
 * `toFQDNs` (the egress selectors) or `dns` (the DNS proxy's L7 rules,
 * the list the proxy's regex is built from) introduces a list of
 * selectors; in each selector mapping, `matchName` and `matchPattern`
 * scalars are checked and added with their line.  An empty value means
 * "not set", as in Cilium.  Anything else is walked and ignored, so a
 * whole policy (or a List of policies, or `kubectl get -o yaml` output)
 * can be given as is.
 *
 * Aliases are followed, as kubectl does when it turns YAML into JSON:
 * `toFQDNs: *sel` reads the list anchored `&sel`, and a selector read
 * through an alias names the line where it is written.  The loader keeps
 * an alias as a second reference to its node, so an alias bomb (aliases
 * of aliases, each doubling) is stopped after YAML_MAX_REUSE nodes
 * walked beyond the document's own, and an alias inside the node it
 * names (a cycle) is refused.
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

/* A plain null or empty value: "not set". */
static int scalar_unset(const yaml_node_t *n)
{
	const char *s = (const char *)n->data.scalar.value;

	return n->data.scalar.length == 0 ||
	       (n->data.scalar.style == YAML_PLAIN_SCALAR_STYLE &&
		(strcmp(s, "~") == 0 || strcmp(s, "null") == 0));
}

static int walk_node(struct walk *w, int id, enum walk_mode mode, int depth);

/* The value of matchName/matchPattern: checked and added. */
static int walk_selector_value(struct walk *w, int id, enum fqdn_kind kind)
{
	yaml_node_t *n = yaml_document_get_node(&w->doc, id);
	size_t line = n->start_mark.line;
	char msg[512];

	if (n->type != YAML_SCALAR_NODE)
		return walk_fail(w, line, "%s must be a string",
				 kind == FQDN_MATCH_NAME ? "matchName"
							 : "matchPattern");
	if (scalar_unset(n))
		return 0;
	if (fqdn_selector_check(kind, (const char *)n->data.scalar.value,
				n->data.scalar.length, msg, sizeof(msg)) != 0)
		return walk_fail(w, line, "%s", msg);
	if (fqdn_policy_add(w->p, kind, (const char *)n->data.scalar.value,
			    n->data.scalar.length, (long)line + 1) != 0)
		return walk_fail(w, line, "out of memory");
	return 0;
}

/* The pairs of a mapping node. */
static int walk_mapping(struct walk *w, yaml_node_t *n, enum walk_mode mode,
			int depth)
{
	for (yaml_node_pair_t *pr = n->data.mapping.pairs.start;
	     pr < n->data.mapping.pairs.top; pr++) {
		yaml_node_t *key = yaml_document_get_node(&w->doc, pr->key);
		enum walk_mode sub = WALK_ANY;
		int rc;

		if (mode == WALK_SELECTOR && scalar_is(key, "matchName"))
			rc = walk_selector_value(w, pr->value, FQDN_MATCH_NAME);
		else if (mode == WALK_SELECTOR && scalar_is(key, "matchPattern"))
			rc = walk_selector_value(w, pr->value,
						 FQDN_MATCH_PATTERN);
		else {
			if (scalar_is(key, "toFQDNs") || scalar_is(key, "dns"))
				sub = WALK_SELLIST;
			rc = walk_node(w, pr->key, WALK_ANY, depth + 1);
			if (rc == 0)
				rc = walk_node(w, pr->value, sub, depth + 1);
		}
		if (rc != 0)
			return rc;
	}
	return 0;
}

/* The items of a sequence node. */
static int walk_sequence(struct walk *w, yaml_node_t *n, enum walk_mode mode,
			 int depth)
{
	for (yaml_node_item_t *it = n->data.sequence.items.start;
	     it < n->data.sequence.items.top; it++) {
		int rc = walk_node(w, *it, mode == WALK_SELLIST ? WALK_SELECTOR
								: WALK_ANY,
				   depth + 1);
		if (rc != 0)
			return rc;
	}
	return 0;
}

/* Node id (1-based) and what it holds, once more for each alias of it. */
static int walk_node(struct walk *w, int id, enum walk_mode mode, int depth)
{
	yaml_node_t *n = yaml_document_get_node(&w->doc, id);
	size_t line;
	int rc = 0;

	if (n == NULL)
		return walk_fail(w, 0, "invalid YAML: node %d missing", id);
	line = n->start_mark.line;
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
	if (n->type == YAML_MAPPING_NODE)
		rc = walk_mapping(w, n, mode, depth);
	else if (n->type == YAML_SEQUENCE_NODE)
		rc = walk_sequence(w, n, mode, depth);
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
		rc = walk_node(w, 1, WALK_ANY, 0);
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

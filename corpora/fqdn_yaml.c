/*
 * fqdn_yaml.c - the selectors of a CiliumNetworkPolicy YAML file, read
 * with libyaml's event parser (Debian's libyaml-dev, pkg-config yaml-0.1).
 *
 * Every document of the stream is walked.  A mapping key `toFQDNs` (the
 * egress selectors) or `dns` (the DNS proxy's L7 rules, the list the
 * proxy's regex is built from) introduces a list of selectors; in each
 * selector mapping, `matchName` and `matchPattern` scalars are checked and
 * added with their line.  An empty value means "not set", as in Cilium.
 * Anything else is walked and ignored, so a whole policy (or a List of
 * policies, or `kubectl get -o yaml` output) can be given as is.
 */
#include "corpora/fqdn_policy.h"

#include "corpora/file.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <yaml.h>

/* Deeper nesting is refused rather than recursed into. */
#define YAML_MAX_DEPTH 256

enum walk_mode {
	WALK_ANY,      /* an ordinary node */
	WALK_SELLIST,  /* the value of toFQDNs / dns: a list of selectors */
	WALK_SELECTOR, /* an item of that list */
};

struct walk {
	yaml_parser_t parser;
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

/* The next event, or -1 with libyaml's own problem and line. */
static int walk_next(struct walk *w, yaml_event_t *ev)
{
	yaml_parser_t *pr = &w->parser;

	if (yaml_parser_parse(pr, ev))
		return 0;
	return walk_fail(w, pr->problem_mark.line, "invalid YAML: %s%s%s",
			 pr->problem ? pr->problem : "parse error",
			 pr->context ? " " : "", pr->context ? pr->context : "");
}

static int scalar_is(const yaml_event_t *ev, const char *s)
{
	return ev->type == YAML_SCALAR_EVENT &&
	       ev->data.scalar.length == strlen(s) &&
	       memcmp(ev->data.scalar.value, s, strlen(s)) == 0;
}

static int walk_node(struct walk *w, yaml_event_t *ev, enum walk_mode mode,
		     int depth);

/* The value of matchName/matchPattern: checked and added. */
static int walk_selector_value(struct walk *w, enum fqdn_kind kind)
{
	yaml_event_t ev;
	char msg[512];
	const char *s;
	size_t len, line;
	int rc = 0;

	if (walk_next(w, &ev) != 0)
		return -1;
	line = ev.start_mark.line;
	if (ev.type != YAML_SCALAR_EVENT) {
		rc = walk_fail(w, line, "%s must be a string",
			       kind == FQDN_MATCH_NAME ? "matchName"
						       : "matchPattern");
		goto out;
	}
	s = (const char *)ev.data.scalar.value;
	len = ev.data.scalar.length;
	if (len == 0 || (ev.data.scalar.plain_implicit &&
			 (strcmp(s, "~") == 0 || strcmp(s, "null") == 0)))
		goto out; /* not set */
	if (fqdn_selector_check(kind, s, len, msg, sizeof(msg)) != 0)
		rc = walk_fail(w, line, "%s", msg);
	else if (fqdn_policy_add(w->p, kind, s, len, (long)line + 1) != 0)
		rc = walk_fail(w, line, "out of memory");
out:
	yaml_event_delete(&ev);
	return rc;
}

/* A mapping after its start event: keys and values until its end. */
static int walk_mapping(struct walk *w, enum walk_mode mode, int depth)
{
	yaml_event_t key;
	int rc = 0;

	for (;;) {
		enum walk_mode sub = WALK_ANY;
		if (walk_next(w, &key) != 0)
			return -1;
		if (key.type == YAML_MAPPING_END_EVENT) {
			yaml_event_delete(&key);
			return 0;
		}
		if (mode == WALK_SELECTOR && scalar_is(&key, "matchName"))
			rc = walk_selector_value(w, FQDN_MATCH_NAME);
		else if (mode == WALK_SELECTOR && scalar_is(&key, "matchPattern"))
			rc = walk_selector_value(w, FQDN_MATCH_PATTERN);
		else {
			yaml_event_t val;
			if (scalar_is(&key, "toFQDNs") || scalar_is(&key, "dns"))
				sub = WALK_SELLIST;
			rc = walk_node(w, &key, WALK_ANY, depth + 1);
			if (rc == 0)
				rc = walk_next(w, &val);
			if (rc == 0) {
				rc = walk_node(w, &val, sub, depth + 1);
				yaml_event_delete(&val);
			}
		}
		yaml_event_delete(&key);
		if (rc != 0)
			return rc;
	}
}

/* A sequence after its start event: each item until its end. */
static int walk_sequence(struct walk *w, enum walk_mode mode, int depth)
{
	yaml_event_t item;
	int rc = 0;

	for (;;) {
		if (walk_next(w, &item) != 0)
			return -1;
		if (item.type == YAML_SEQUENCE_END_EVENT) {
			yaml_event_delete(&item);
			return 0;
		}
		rc = walk_node(w, &item, mode == WALK_SELLIST ? WALK_SELECTOR
							      : WALK_ANY,
			       depth + 1);
		yaml_event_delete(&item);
		if (rc != 0)
			return rc;
	}
}

/* The node that starts with ev (owned by the caller). */
static int walk_node(struct walk *w, yaml_event_t *ev, enum walk_mode mode,
		     int depth)
{
	if (depth > YAML_MAX_DEPTH)
		return walk_fail(w, ev->start_mark.line, "YAML nested deeper "
				 "than %d levels", YAML_MAX_DEPTH);
	if (ev->type == YAML_MAPPING_START_EVENT)
		return walk_mapping(w, mode, depth);
	if (ev->type == YAML_SEQUENCE_START_EVENT)
		return walk_sequence(w, mode, depth);
	return 0; /* scalar or alias */
}

/* All documents of the stream. */
static int walk_stream(struct walk *w)
{
	yaml_event_t ev;
	int rc = 0, done = 0;

	while (rc == 0 && !done) {
		if (walk_next(w, &ev) != 0)
			return -1;
		done = ev.type == YAML_STREAM_END_EVENT;
		if (ev.type == YAML_MAPPING_START_EVENT ||
		    ev.type == YAML_SEQUENCE_START_EVENT)
			rc = walk_node(w, &ev, WALK_ANY, 0);
		yaml_event_delete(&ev);
	}
	return rc;
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

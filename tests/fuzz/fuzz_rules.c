/*
 * fuzz_rules.c - libFuzzer target for the rule-file readers
 * (corpora/rules.c): plain regex lines, Snort/Suricata pcre options and
 * ModSecurity SecRules.  The first input byte picks the format (auto,
 * regex, snort, modsec), the rest is the file.
 *
 * Besides the sanitizers, it checks what the readers promise: on success
 * every pattern is non-empty, without NUL, and belongs to the rule that
 * lists it; every rule has patterns, a name and a place; on failure the
 * message names the file.
 */
#include "corpora/rules.h"

#include "tests/fuzz/fuzz_check.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static void check_rules(const struct ruleset *rs)
{
	for (size_t i = 0; i < rs->np; i++) {
		const struct rule_pattern *p = &rs->p[i];
		if (p->len == 0 || memchr(p->re, '\0', p->len) != NULL ||
		    p->re[p->len] != '\0' || p->rule >= rs->n ||
		    i < rs->r[p->rule].first ||
		    i >= rs->r[p->rule].first + rs->r[p->rule].n)
			abort();
	}
	for (size_t i = 0; i < rs->n; i++) {
		const struct rule *r = &rs->r[i];
		if (r->n == 0 || r->name[0] == '\0' || r->where[0] == '\0')
			abort();
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ruleset rs;
	char err[512] = "";
	int rc;

	if (size < 1)
		return 0;
	ruleset_init(&rs);
	rc = rules_parse(&rs, "fuzz.rules", (const char *)data + 1, size - 1,
			 (enum rules_format)(data[0] % 4), err, sizeof(err));
	if (rc == 0)
		check_rules(&rs);
	else if (!fuzz_message_ok(err, "fuzz.rules:"))
		abort();
	rules_release(&rs);
	return 0;
}

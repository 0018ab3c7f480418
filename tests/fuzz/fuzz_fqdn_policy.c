/*
 * fuzz_fqdn_policy.c - libFuzzer target for the FQDN policy readers
 * (corpora/fqdn_policy.c, corpora/fqdn_yaml.c): CiliumNetworkPolicy YAML
 * through libyaml, and the plain list.  An even first byte hands the rest
 * to fqdn_policy_parse() (which picks YAML or list itself), an odd one to
 * the YAML reader directly, so both halves are reached from any input.
 *
 * Oracle beyond the sanitizers: every selector read passes
 * fqdn_selector_check(), the counts add up, and a failure names the file.
 */
#include "corpora/fqdn_policy.h"

#include "tests/fuzz/fuzz_check.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static void check_policy(const struct fqdn_policy *p)
{
	char msg[256];

	if (p->nnames + p->npatterns != p->n)
		abort();
	for (size_t i = 0; i < p->n; i++) {
		const struct fqdn_selector *s = &p->sel[i];
		if (s->text[s->len] != '\0' ||
		    fqdn_selector_check(s->kind, s->text, s->len, msg,
					sizeof(msg)) != 0)
			abort();
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fqdn_policy p;
	char err[512] = "";
	const char *text = (const char *)data + 1;
	int rc;

	if (size < 1)
		return 0;
	fqdn_policy_init(&p);
	if (data[0] % 2 == 0)
		rc = fqdn_policy_parse(&p, "fuzz.yaml", text, size - 1, err,
				       sizeof(err));
	else
		rc = fqdn_policy_parse_yaml(&p, "fuzz.yaml", text, size - 1,
					    err, sizeof(err));
	if (rc == 0)
		check_policy(&p);
	else if (!fuzz_message_ok(err, "fuzz.yaml"))
		abort();
	fqdn_policy_release(&p);
	return 0;
}

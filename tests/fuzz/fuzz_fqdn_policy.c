/*
 * fuzz_fqdn_policy.c - libFuzzer target for the FQDN policy readers
 * (corpora/fqdn_policy.c, corpora/fqdn_yaml.c): CiliumNetworkPolicy YAML
 * through libyaml, and the plain list.  An even first byte hands the rest
 * to fqdn_policy_parse() (which picks YAML or list itself), an odd one to
 * the YAML reader directly, so both halves are reached from any input;
 * its bit 1 picks the Cilium version the selectors are judged for (0:
 * 1.11, 1: 1.19).
 *
 * Oracle beyond the sanitizers: no selector read is one that Cilium's
 * agent refuses (fqdn_selector_judge), each is in a set and those in
 * FQDN_SET_L3 under 1.19 qualify to at most FQDN_SELECTOR_MAX bytes, the
 * counts add up per set, a CRD-only selector left a warning, every
 * warning and every failure is one line naming the file.
 */
#include "corpora/fqdn_policy.h"

#include "tests/fuzz/fuzz_check.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* The length 1.19's name manager compiles: the final dot added unless
 * there is one or the pattern is stars only ("*", "**."). */
static size_t qualified_len(const struct fqdn_selector *s)
{
	size_t n = s->len - (s->text[s->len - 1] == '.');

	if (s->kind == FQDN_MATCH_PATTERN && n > 0 && strspn(s->text, "*") == n)
		return s->len;
	return n + 1;
}

/* What every selector of p must be, its set counts included. */
static void check_selectors(const struct fqdn_policy *p)
{
	struct fqdn_counts in[2] = {{0, 0, 0}, {0, 0, 0}};
	size_t crd = 0;
	char msg[256];

	for (size_t i = 0; i < p->n; i++) {
		const struct fqdn_selector *s = &p->sel[i];
		unsigned sets = fqdn_selector_sets(p, i);
		enum fqdn_judgement j = fqdn_selector_judge(
			s->kind, s->text, s->len, p->cilium, msg, sizeof(msg));
		if (s->text[s->len] != '\0' || j == FQDN_SEL_REFUSED ||
		    sets == 0 || (sets & ~(unsigned)FQDN_SET_ALL) != 0)
			abort();
		if ((sets & FQDN_SET_L3) && p->cilium == FQDN_CILIUM_1_19 &&
		    qualified_len(s) > FQDN_SELECTOR_MAX)
			abort(); /* the 1.19 name manager would drop it */
		crd += j == FQDN_SEL_CRD;
		for (int k = 0; k < 2; k++) {
			if (!(sets & (k ? FQDN_SET_L7 : FQDN_SET_L3)))
				continue;
			in[k].n++;
			in[k].nnames += s->kind == FQDN_MATCH_NAME;
			in[k].npatterns += s->kind == FQDN_MATCH_PATTERN;
		}
	}
	if (memcmp(&in[0], &p->l3, sizeof(in[0])) != 0 ||
	    memcmp(&in[1], &p->l7, sizeof(in[1])) != 0 ||
	    (crd > 0 && p->nwarnings_total == 0))
		abort();
}

static void check_policy(const struct fqdn_policy *p)
{
	if (p->nnames + p->npatterns != p->n || p->nsets != p->n ||
	    p->nwarnings > FQDN_WARNINGS_KEPT ||
	    p->nwarnings > p->nwarnings_total)
		abort();
	check_selectors(p);
	for (size_t i = 0; i < p->nwarnings; i++)
		if (!fuzz_message_ok(p->warnings[i], "fuzz.yaml"))
			abort();
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
	p.cilium = data[0] & 2 ? FQDN_CILIUM_1_19 : FQDN_CILIUM_1_11;
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

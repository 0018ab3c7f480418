/*
 * fqdn_policy.h - the inputs of the FQDN suite: a policy (Cilium's
 * matchName and matchPattern selectors, each in the selector sets it was
 * written under) and query names.
 *
 * A policy comes from the deterministic generator (shaped like the Go
 * benchmark of seed 000: ~60% exact names, ~10% each of four wildcard
 * shapes), from a CiliumNetworkPolicy YAML file (libyaml) or from a plain
 * list, one selector per line.  Query sets are generated from a policy
 * (match-name, match-pattern, bad-match-pattern, bad-match-tld) or read
 * from a file, one name per line.
 *
 * A file's selectors are checked as Cilium's agent checks them, for the
 * version in p->cilium (pkg/policy/api FQDNSelector.sanitize and
 * PortRuleDNS.Sanitize, pkg/fqdn/matchpattern.Validate, the name
 * manager's FQDNSelector.ToRegex): what that code refuses is an error;
 * what it accepts but the CRD schema of the same release refuses (an
 * empty label, a leading dot, 1.19's maxLength and oneOf) is loaded with
 * a warning kept in the policy.
 *
 * Selectors are kept as written; normalisation (lower case, trailing dot)
 * is the business of whoever matches them.  Errors and warnings name the
 * file and the line ("FILE:LINE: message") and nothing here prints.
 *
 * Build: YAML reading needs libyaml (yaml-0.1), always linked.
 */
#ifndef RXB_FQDN_POLICY_H
#define RXB_FQDN_POLICY_H

#include <stddef.h>
#include <stdint.h>

/*
 * Longest name the generators make, selector or query, as DNS allows (253
 * and the final dot).  Files may hold longer ones (the limits below).
 */
#define FQDN_NAME_MAX 254

/*
 * Cilium's MaxFQDNLength (pkg/fqdn/matchpattern, 1.19): its code refuses
 * a longer matchPattern, and the CRD schema (maxLength) a longer
 * matchName or matchPattern.  Cilium 1.11 has no length limit.
 */
#define FQDN_SELECTOR_MAX 255

/* Longest selector read: no CiliumNetworkPolicy can hold a longer one
 * (Kubernetes keeps objects of at most 1.5 MiB). */
#define FQDN_SELECTOR_HARD_MAX (3u << 19)

/* Longest query read: no DNS message (65,535 bytes) can carry more. */
#define FQDN_QUERY_HARD_MAX 65535

enum fqdn_kind {
	FQDN_MATCH_NAME,
	FQDN_MATCH_PATTERN,
};

struct fqdn_selector {
	enum fqdn_kind kind;
	char *text; /* as written, NUL-terminated; owned by the policy */
	size_t len;
	long line;  /* line of the source file, 0 when generated */
};

/*
 * The selector sets of a CiliumNetworkPolicy, which Cilium keeps apart:
 * an egress rule's toFQDNs (L3: the name manager's selectors, one
 * anchored regex each) and toPorts[].rules.dns (L7: the DNS proxy's
 * rules, one regex per L7 selector).  A selector read from YAML is in
 * the set it is written under, and one written under both is two
 * selectors, one in each.  A plain list and the generators put every
 * selector in both sets: a list is the policy both components hold.
 */
enum fqdn_selset {
	FQDN_SET_L3 = 1u << 0, /* toFQDNs */
	FQDN_SET_L7 = 1u << 1, /* toPorts[].rules.dns */
	FQDN_SET_ALL = FQDN_SET_L3 | FQDN_SET_L7,
};

/* How many selectors, matchNames and matchPatterns a set has. */
struct fqdn_counts {
	size_t n;
	size_t nnames;
	size_t npatterns;
};

/* Warnings a policy keeps, at most (the rest are only counted). */
#define FQDN_WARNINGS_KEPT 100

/*
 * Which Cilium reads the policy (--cilium).  1.11 (the seed's): '*' is
 * [-a-zA-Z0-9_]* inside one label, the matchPattern "*" alone allows every
 * valid name.  1.19: a leading "**." matches one or more labels, "**"
 * elsewhere is '*', and a matchPattern of stars only allows every name
 * (GeneratePattern's "(?:)").  0 is 1.11, so a zeroed policy is the seed's.
 */
enum fqdn_cilium {
	FQDN_CILIUM_1_11 = 0,
	FQDN_CILIUM_1_19 = 1,
};

/* "1.11" or "1.19". */
const char *fqdn_cilium_name(enum fqdn_cilium v);

/*
 * sel[0..n) is every selector in file order, each occurrence once
 * (the same pattern under toFQDNs and under dns is two selectors);
 * nnames and npatterns count them all, l3 and l7 those of each set.
 * sets[i] (i < nsets) are the FQDN_SET_* bits of sel[i]: read them with
 * fqdn_selector_sets(), which counts a selector past nsets (one a caller
 * appended to a shallow copy) in both sets.  They sit beside sel, not in
 * struct fqdn_selector, whose positional initialisers (suites/fqdn_ep.c)
 * a new field would leave short.  A shallow copy (*q = *p) shares sets
 * and warnings: never add to it, nor release it with fqdn_policy_release.
 */
struct fqdn_policy {
	struct fqdn_selector *sel;
	size_t n;
	size_t cap;
	size_t nnames;    /* how many are matchName */
	size_t npatterns; /* how many are matchPattern */
	enum fqdn_cilium cilium; /* the semantics it is read with; a file's
				    selectors are checked as that Cilium
				    checks them: set it before loading */
	/* the L7 selectors (toEndpoints peers) its rules are split across,
	   in order and evenly: the per-selector regexes of cilium-l7; 0 is 1 */
	size_t l7_selectors;
	unsigned *sets;        /* FQDN_SET_* of sel[i], i < nsets; owned */
	size_t nsets;
	struct fqdn_counts l3; /* the selectors in FQDN_SET_L3 */
	struct fqdn_counts l7; /* the selectors in FQDN_SET_L7 */
	size_t ndropped;       /* read from the file, but in no set (see
				  fqdn_policy_take); not in sel */
	/* "FILE:LINE: message" for what Cilium's code accepts and its CRD
	   schema refuses, or what rxbench reads otherwise than a glance
	   says (a selector left out of a set); file order, owned.  At most
	   FQDN_WARNINGS_KEPT are kept; nwarnings_total counts them all. */
	char **warnings;
	size_t nwarnings;
	size_t nwarnings_total;
};

/* The FQDN_SET_* bits of selector i of p (FQDN_SET_ALL past p->nsets). */
static inline unsigned fqdn_selector_sets(const struct fqdn_policy *p,
					  size_t i)
{
	return i < p->nsets ? p->sets[i] : (unsigned)FQDN_SET_ALL;
}

/* A list of query names (any bytes, NUL too, not validated). */
struct fqdn_queries {
	char **name; /* each NUL-terminated, owned */
	size_t *len;
	size_t n;
	size_t cap;
	size_t maxlen;
};

/* The generated query sets, in the order the suite times them. */
enum fqdn_qset {
	FQDN_Q_MATCH_NAME,
	FQDN_Q_MATCH_PATTERN,
	FQDN_Q_BAD_PATTERN,
	FQDN_Q_BAD_TLD,
	FQDN_Q_COUNT,
};

/* "match-name", "match-pattern", "bad-match-pattern", "bad-match-tld". */
const char *fqdn_qset_name(enum fqdn_qset q);

/* An empty policy (read with 1.11's checks until p->cilium is set). */
void fqdn_policy_init(struct fqdn_policy *p);
/* Free what p owns (selectors, sets, warnings); p is empty after. */
void fqdn_policy_release(struct fqdn_policy *p);

/* What Cilium makes of one selector (fqdn_selector_judge). */
enum fqdn_judgement {
	FQDN_SEL_OK,      /* its agent and its CRD schema accept it */
	FQDN_SEL_CRD,     /* its agent accepts it, its CRD schema does not */
	FQDN_SEL_REFUSED, /* its agent refuses it (and the rule with it) */
};

/*
 * Judge selector s[0..len) as Cilium `v` does.  Its agent's code
 * (FQDNSelector.sanitize, PortRuleDNS.Sanitize, matchpattern.Validate):
 * only letters, digits, '-', '_', '.' and, in a matchPattern, '*'; in
 * 1.19 a matchPattern of at most FQDN_SELECTOR_MAX bytes; nothing else
 * (no length limit in 1.11, none on a matchName in 1.19, empty labels and
 * a leading dot allowed).  Its CRD schema: the pattern
 * ^([-a-zA-Z0-9_]+[.]?)+$ (with '*' in the class for a matchPattern: no
 * empty label, no leading dot) and, in 1.19, maxLength 255.  Beyond
 * Cilium: an empty selector, or one longer than FQDN_SELECTOR_HARD_MAX,
 * is refused.  The reason for anything but FQDN_SEL_OK is put in msg
 * ("matchName 'a..b' is refused by ...", no file or line).
 */
enum fqdn_judgement fqdn_selector_judge(enum fqdn_kind kind, const char *s,
					size_t len, enum fqdn_cilium v,
					char *msg, size_t msgsize);

/*
 * Check a selector strictly: FQDN_SEL_OK for every Cilium version rxbench
 * knows (agent and CRD schema: non-empty, at most FQDN_SELECTOR_MAX
 * bytes, the characters above, no empty label but the trailing dot's, no
 * leading dot).  A matchPattern of exactly "*" is valid (match-all).
 * 0 when valid, else -1 with the reason in msg.
 */
int fqdn_selector_check(enum fqdn_kind kind, const char *s, size_t len,
			char *msg, size_t msgsize);

/* Append a selector in both sets (copied, not checked).  0, or -1 out of
 * memory. */
int fqdn_policy_add(struct fqdn_policy *p, enum fqdn_kind kind, const char *s,
		    size_t len, long line);

/* The same in the sets `sets` (FQDN_SET_* bits, not 0). */
int fqdn_policy_add_to(struct fqdn_policy *p, unsigned sets,
		       enum fqdn_kind kind, const char *s, size_t len,
		       long line);

/*
 * A new policy in *out (initialised here; the caller releases it) of the
 * selectors of p in any of the sets `set`, in order, copied, each in
 * those of its sets that are in `set` (so out->l3 or out->l7 counts all
 * of out when one set is asked; FQDN_SET_ALL copies p).  cilium and
 * l7_selectors are copied; warnings are not (they are the file's).  An
 * empty result is not an error.  0, or -1 out of memory (*out empty).
 */
int fqdn_policy_select(const struct fqdn_policy *p, unsigned set,
		       struct fqdn_policy *out);

/* Keep only the first n selectors (n <= p->n); the set counts follow. */
void fqdn_policy_truncate(struct fqdn_policy *p, size_t n);

/*
 * The top-level domains the generator draws from: the ASCII rules of the
 * public suffix list at `psl_path` (no wildcard or exception rules), or a
 * small built-in list when the file cannot be read.  Returns the number of
 * entries and sets *tlds to a static or malloc'd array (free with
 * fqdn_tlds_release); *from_psl tells which.  -1 out of memory.
 */
long fqdn_tlds_load(const char *psl_path, char ***tlds, int *from_psl);
void fqdn_tlds_release(char **tlds, long n, int from_psl);

/* Debian's path of the public suffix list. */
#define FQDN_PSL_PATH "/usr/share/publicsuffix/public_suffix_list.dat"

/*
 * Generate n selectors from seed: 60% `<label>.<long domain>.<tld>`
 * names, 10% each `*.<label>.domain.<tld>`, `*.*.<label>.domain.<tld>`,
 * `*<label>.domain.<tld>`, `<label>*.domain.<tld>`, in a shuffled order.
 * The same (n, seed, tlds) gives the same policy everywhere.
 * 0, or -1 out of memory.
 */
int fqdn_policy_generate(struct fqdn_policy *p, size_t n, uint64_t seed,
			 char *const *tlds, long ntlds);

/* Which generator makes a policy (--generator). */
enum fqdn_generator {
	FQDN_GEN_SEED, /* fqdn_policy_generate: the seed's shapes */
	FQDN_GEN_K8S,  /* fqdn_policy_generate_k8s: Kubernetes-shaped */
	FQDN_GEN_CILIUM, /* fqdn_policy_generate_cilium: Cilium's benchmark */
};

/*
 * Generate n selectors shaped as the rules of Cilium's
 * Benchmark_perEPAllow_setPortRulesForID (its 30 matchPatterns and 600
 * matchNames at n = 630): first n * 30 / 630 (at least one) matchPatterns
 * `*.bar<i>another.very.long.domain.here`, then matchNames
 * `<i>very.long.domain.containing.a.lot.of.chars`.  No seed: the same n
 * gives the same policy.  0, or -1 out of memory.
 */
int fqdn_policy_generate_cilium(struct fqdn_policy *p, size_t n);

/*
 * Generate n Kubernetes-shaped selectors from seed, as a cluster's
 * egress policies hold them: in-cluster service names
 * (`<svc>.<ns>.svc.cluster.local`) and their wildcards
 * (`*.<ns>.svc.cluster.local`, chains like `*.*.svc.cluster.local` and
 * `*.*.*.cluster.local`, 1.19's `**.<ns>.svc.cluster.local`), cloud
 * endpoints (`*.s3.amazonaws.com`, `<bucket>.s3.<region>.amazonaws.com`,
 * `*.googleapis.com`, `*.blob.core.windows.net`, ...), exact external
 * service names (`api.github.com`, ...), and one `*` allow-all per 250
 * selectors (none below 250).  The same (n, seed) gives the same policy
 * everywhere.  0, or -1 out of memory.
 */
int fqdn_policy_generate_k8s(struct fqdn_policy *p, size_t n, uint64_t seed);

/*
 * Read a policy file: CiliumNetworkPolicy YAML (every matchName and
 * matchPattern under an egress rule's `toFQDNs:`, in FQDN_SET_L3, or
 * its `toPorts[].rules.dns:`, in FQDN_SET_L7, in any document; those
 * keys anywhere else are errors, see fqdn_yaml.c; aliases and merge keys
 * are followed) when a line that
 * is not a '#' comment holds ':' (no selector can, no YAML policy can do
 * without), otherwise a plain list (one selector per line, '*' marks a
 * pattern, surrounding blanks, '#' comments and blank lines ignored; a
 * line may start with '-'; every selector in both sets).  Every selector
 * is judged as p->cilium's agent judges it (fqdn_policy_take), so set
 * p->cilium after fqdn_policy_init.  One set may be empty (a policy with
 * toFQDNs only): the caller decides.  0, or -1 with "FILE:LINE: message"
 * in err: invalid YAML, a selector Cilium refuses, an unknown key in a
 * selector ("unknown key 'matchPatern' in a toFQDNs selector (known:
 * matchName, matchPattern)"), a toFQDNs selector with both keys, a file
 * with no selector at all (or none left in any set), an unreadable file.
 */
int fqdn_policy_load(struct fqdn_policy *p, const char *path, char *err,
		     size_t errsize);

/* Same, from a buffer; `path` only names it in messages.  For tests. */
int fqdn_policy_parse(struct fqdn_policy *p, const char *path,
		      const char *data, size_t len, char *err, size_t errsize);

/*
 * The YAML half of fqdn_policy_parse (fqdn_yaml.c): selectors are judged
 * and added; an empty result is not an error here.  0, or -1 with
 * "FILE:LINE: message" in err.
 */
int fqdn_policy_parse_yaml(struct fqdn_policy *p, const char *path,
			   const char *data, size_t len, char *err,
			   size_t errsize);

/*
 * One selector of a file, read at path:line into `sets`: judged as
 * p->cilium's agent judges it (fqdn_selector_judge: refused is an
 * error, refused by the CRD schema only a warning), and under 1.19 left
 * out of FQDN_SET_L3, with a warning, when its qualified form (the final
 * dot added unless it is all stars) is longer than FQDN_SELECTOR_MAX:
 * the name manager's ToRegex refuses it and RegisterFQDNSelector drops
 * it ("FQDNSelector did not compile to valid regex").  A selector left
 * in no set is counted in p->ndropped, not added.  0, or -1 with
 * "FILE:LINE: message" in err.  For the readers (fqdn_yaml.c).
 */
int fqdn_policy_take(struct fqdn_policy *p, const char *path, long line,
		     unsigned sets, enum fqdn_kind kind, const char *s,
		     size_t len, char *err, size_t errsize);

/* Keep "path:line: message" as a warning of p.  0, or -1 out of memory. */
int fqdn_policy_warn(struct fqdn_policy *p, const char *path, long line,
		     const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

void fqdn_queries_init(struct fqdn_queries *q);
void fqdn_queries_release(struct fqdn_queries *q);

/* Append a query (its len bytes copied, NUL too).  0, or -1 out of memory. */
int fqdn_queries_add(struct fqdn_queries *q, const char *s, size_t len);

/*
 * Generate query set `which` for policy p: n names (n = p->n), cycling
 * through the selectors the set is made from, fully qualified.  An empty
 * set (no matchName for match-name, no matchPattern for match-pattern)
 * has n = 0.  0, or -1 out of memory.
 */
int fqdn_queries_generate(struct fqdn_queries *q, const struct fqdn_policy *p,
			  enum fqdn_qset which, uint64_t seed);

/*
 * Read query names, one per line: a query is the exact bytes of its line
 * (what Cilium's CheckAllowed gets as the name), nothing trimmed, of any
 * length up to FQDN_QUERY_HARD_MAX (the proxy's DNS library spells a
 * 255-octet wire name in up to 1,004 bytes, \DDD escapes included, and
 * CheckAllowed has no limit).  LF ends a line and is not part of it; a CR
 * before it is a byte of the query (Cilium would deny such a name:
 * convert CRLF files first); an empty line is the empty name, which
 * dns.Fqdn makes the root "."; a file ending with LF has no empty query
 * after it.  0, or -1 with "FILE:LINE: message" in err (unreadable, an
 * empty file, a name longer than FQDN_QUERY_HARD_MAX).
 */
int fqdn_queries_load(struct fqdn_queries *q, const char *path, char *err,
		      size_t errsize);

#endif

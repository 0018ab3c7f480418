/*
 * fqdn_policy.h - the inputs of the FQDN suite: a policy (a list of
 * Cilium toFQDNs selectors, matchName or matchPattern) and query names.
 *
 * A policy comes from the deterministic generator (shaped like the Go
 * benchmark of seed 000: ~60% exact names, ~10% each of four wildcard
 * shapes), from a CiliumNetworkPolicy YAML file (libyaml) or from a plain
 * list, one selector per line.  Query sets are generated from a policy
 * (match-name, match-pattern, bad-match-pattern, bad-match-tld) or read
 * from a file, one name per line.
 *
 * Selectors are kept as written; normalisation (lower case, trailing dot)
 * is the business of whoever matches them.  Errors name the file and the
 * line ("FILE:LINE: message") and nothing here prints.
 *
 * Build: YAML reading needs libyaml (yaml-0.1), always linked.
 */
#ifndef RXB_FQDN_POLICY_H
#define RXB_FQDN_POLICY_H

#include <stddef.h>
#include <stdint.h>

/* Longest selector or generated query, as DNS allows (253 + final dot). */
#define FQDN_NAME_MAX 254

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

struct fqdn_policy {
	struct fqdn_selector *sel;
	size_t n;
	size_t cap;
	size_t nnames;    /* how many are matchName */
	size_t npatterns; /* how many are matchPattern */
	enum fqdn_cilium cilium; /* the semantics it is read with */
	/* the L7 selectors (toEndpoints peers) its rules are split across,
	   in order and evenly: the per-selector regexes of cilium-l7; 0 is 1 */
	size_t l7_selectors;
};

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

void fqdn_policy_init(struct fqdn_policy *p);
void fqdn_policy_release(struct fqdn_policy *p);

/*
 * Check a selector: non-empty, at most FQDN_NAME_MAX bytes, only letters,
 * digits, '-', '_', '.' and (in a matchPattern) '*', no empty label except
 * the trailing dot.  A matchPattern of exactly "*" is valid (match-all).
 * 0 when valid, else -1 with the reason in msg.
 */
int fqdn_selector_check(enum fqdn_kind kind, const char *s, size_t len,
			char *msg, size_t msgsize);

/* Append a selector (copied, not checked).  0, or -1 out of memory. */
int fqdn_policy_add(struct fqdn_policy *p, enum fqdn_kind kind, const char *s,
		    size_t len, long line);

/* Keep only the first n selectors (n <= p->n). */
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
 * matchPattern under `toFQDNs:` or `dns:` in any document; aliases are
 * followed) when a line that is not a '#' comment holds ':' (no selector
 * can, no YAML policy can do without), otherwise a plain list (one
 * selector per line, '*' marks a pattern, surrounding blanks, '#'
 * comments and blank lines ignored; a line may start with '-').  Every
 * selector is checked.  0, or -1 with "FILE:LINE: message" in err
 * (invalid YAML, a bad selector, an empty policy, an unreadable file).
 */
int fqdn_policy_load(struct fqdn_policy *p, const char *path, char *err,
		     size_t errsize);

/* Same, from a buffer; `path` only names it in messages.  For tests. */
int fqdn_policy_parse(struct fqdn_policy *p, const char *path,
		      const char *data, size_t len, char *err, size_t errsize);

/*
 * The YAML half of fqdn_policy_parse (fqdn_yaml.c): selectors are added
 * and checked; an empty result is not an error here.  0, or -1 with
 * "FILE:LINE: message" in err.
 */
int fqdn_policy_parse_yaml(struct fqdn_policy *p, const char *path,
			   const char *data, size_t len, char *err,
			   size_t errsize);

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
 * (what Cilium's CheckAllowed gets as the name), nothing trimmed.  LF ends
 * a line and is not part of it; a CR before it is a byte of the query
 * (Cilium would deny such a name: convert CRLF files first); an empty
 * line is the empty name, which dns.Fqdn makes the root "."; a file
 * ending with LF has no empty query after it.  0, or -1 with
 * "FILE:LINE: message" in err (unreadable, an empty file, a name longer
 * than FQDN_NAME_MAX).
 */
int fqdn_queries_load(struct fqdn_queries *q, const char *path, char *err,
		      size_t errsize);

#endif

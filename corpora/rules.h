/*
 * rules.h - rule sets for the payload suite's real-life scenario: the
 * built-in network-security rules, and readers for users' rule files.
 *
 * Formats (--rules FILE, format detected from the first significant line
 * or forced with --rules-format):
 *   regex   one regex per line; blank lines and lines starting with '#'
 *           are skipped; no flags.
 *   snort   Snort/Suricata rules, a line ending in '\' continued on the
 *           next: a rule with pcre options is a rule here, and its
 *           conditions are its `pcre:"/re/flags"` options (also
 *           `m<delim>re<delim>`) and its `content:"..."` options (also
 *           uricontent; |41 42| hex bytes; nocase, as an option of its own
 *           or Snort 3's `content:"x", nocase`, makes it caseless).  A
 *           negated option (`pcre:!"..."`, `content:!"..."`) holds when
 *           its regex does not match.  pcre flags i s m x A map to engine
 *           flags; the buffer modifiers R U I P H D M C K S Y B O select
 *           where Snort matches, not how, and are ignored, as are
 *           content's offset, depth, distance, within and buffers: every
 *           condition is judged on the whole payload.  Other flags (E G
 *           ...) are an error.  Other options (flow, dsize, byte_test ...)
 *           are not conditions here.  Rules without pcre are counted as
 *           skipped.  A rule with `sid:N` is named "sidN".
 *   modsec  ModSecurity `SecRule VARIABLES "@rx re" ...` (and the implicit
 *           operator `SecRule VARIABLES "re"`), with '\' line continuations,
 *           read as ruleset.modsec's version reads it: v3 (libmodsecurity3)
 *           keeps an argument's text as written (\\ stays \\; \" is ")
 *           and compiles dotall and multiline ('^' '$' at each line:
 *           src/utils/regex.cc); v2 (mod_security2) reads it through
 *           Apache's quoting (\\ -> \, \" -> ") and compiles dotall
 *           (its PCRE_DOLLAR_ENDONLY has no engine flag: '$' also matches
 *           before a final '\n' here).  "!@rx" is a negated condition.
 *           Rules with other operators (@pm, @detectSQLi, ...) or with
 *           %{macros} are counted as skipped; chains are not joined (each
 *           SecRule of a chain is a rule).
 * Any format: a leading `(?i)`-style group of i s m x, or an `(?i:...)`
 * group spanning the whole pattern, becomes engine flags, so engines
 * without inline flags (the POSIX ones) can run the rule.  x (extended)
 * is applied by removing its whitespace and comments.
 *
 * A rule matches a packet when all its conditions hold (rules_holds()):
 * every positive condition's regex matches somewhere in the packet and no
 * negated one's does.  Engines compile the conditions' regexes (struct
 * rule_pattern), and every engine's answer per rule is combined the same
 * way from its answers per pattern.
 *
 * Errors are one line naming FILE:LINE and what is wrong.
 */
#ifndef RXB_RULES_H
#define RXB_RULES_H

#include <stddef.h>

#include "corpora/modsec.h"

/*
 * Longest pattern a rule may have: some engines need hundreds of bytes
 * of memory per pattern byte, and no real rule comes near.
 */
#define RULES_MAX_PATTERN (1 << 20)

/* A condition of a rule: one regex, compiled by the engines. */
struct rule_pattern {
	char *re;       /* pattern bytes, NUL-terminated past len */
	size_t len;
	unsigned flags; /* enum engine_flag */
	int negated;    /* the condition holds when re does not match */
	size_t rule;    /* the rule it belongs to (index into ruleset.r) */
};

/* A rule: its conditions are ruleset.p[first .. first + n), n >= 1. */
struct rule {
	char *name;     /* short and name-safe: "sqli-union", "id942100",
			   "sid2", "x.rules:7" */
	char *where;    /* for messages: "FILE:LINE", "FILE:LINE (sid 2)" or
			   "built-in" */
	size_t first;
	size_t n;
	/* a ModSecurity rule's VARIABLES and actions as written (corpora/
	   waf.h reads them); NULL for other formats */
	char *vars;
	char *actions;
};

struct ruleset {
	struct rule *r;
	size_t n;
	size_t cap;     /* of r */
	struct rule_pattern *p; /* every rule's conditions, in rule order */
	size_t np;
	size_t pcap;    /* of p */
	size_t skipped; /* rules that were not regexes (other operators,
			   macros, Snort rules without pcre) */
	/* the ModSecurity that reads modsec files (corpora/modsec.h):
	   MODSEC_DEFAULT after ruleset_init(); set it before rules_load() */
	enum modsec_version modsec;
};

enum rules_format {
	RULES_AUTO,
	RULES_REGEX,
	RULES_SNORT,
	RULES_MODSEC,
};

/*
 * The built-in rules, in this order (bit i of an HTTP packet's mark), each
 * one positive pattern (pattern i is rule i).
 */
enum rule_builtin {
	RULE_BAD_METHOD,      /* anchored: TRACE, TRACK, DEBUG, ... */
	RULE_ENCODED_REQLINE, /* anchored, backtracking: %00 %0d %25 ... in the target */
	RULE_PATH_TRAVERSAL,
	RULE_SQLI_UNION,
	RULE_SQLI_TAUTOLOGY,  /* backtracking */
	RULE_XSS,             /* backtracking */
	RULE_SHELL_INJECTION,
	RULE_SCANNER_UA,      /* backtracking */
	RULE_LOG4SHELL,       /* backtracking */
	RULE_SENSITIVE_FILE,
	RULE_BUILTIN_COUNT,
};

void ruleset_init(struct ruleset *rs);
void rules_release(struct ruleset *rs);

/* Append the built-in set to rs.  0, or -1 out of memory. */
int rules_builtin(struct ruleset *rs);

/*
 * Append the rules of `path` to rs.  A directory loads its *.conf and
 * *.rules files in name order.  0, or -1 with a one-line message in err
 * ("FILE:LINE: ..." for a syntax error, "FILE: ..." when unreadable or
 * when it holds no rule).
 */
int rules_load(struct ruleset *rs, const char *path, enum rules_format fmt,
	       char *err, size_t errsize);

/*
 * Same on text already in memory; `file` names it in rule names and
 * messages.
 */
int rules_parse(struct ruleset *rs, const char *file, const char *text,
		size_t len, enum rules_format fmt, char *err, size_t errsize);

/*
 * Whether rule r holds on a packet where hit[k] says whether pattern k
 * of rs->p matched (only r's patterns are read): 1 when all of its
 * conditions hold, else 0.
 */
int rules_holds(const struct ruleset *rs, size_t r, const unsigned char *hit);

/* "auto", "regex", "snort", "modsec" -> the format; -1 when unknown. */
int rules_format_parse(const char *s);

#endif

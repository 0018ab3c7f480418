/*
 * boost_pattern.h - the project's PCRE-style patterns in Boost.Regex's
 * Perl syntax, for engines/boost.c.
 *
 * Boost reads most of PCRE's syntax as PCRE does, but not all of it, and
 * where it differs it answers differently rather than failing.  Boost
 * takes '\r' and '\f' for line ends as well as '\n': `.` does not match
 * them, multiline `^` and `$` match around them (and `^` after a final
 * newline), and \Z skips any run of them at the end.  Its \B never
 * matches at the ends of the data, [[:blank:]] holds '\v', \h and \v
 * lack 0xa0 and 0x85, caseless ranges are folded by their ends
 * ((?i)[A-a] misses '`'), \0123 reads three octal digits, and \<, \>,
 * \` and \' are assertions.  The translation spells each construct so
 * that Boost gives it PCRE2's meaning (bytes, C locale):
 *
 *   .                 -> [^\n], or (?s:.) under (?s) / ENGINE_DOTALL
 *   ^  $              -> \A  \z; in multiline mode Boost's own line
 *                        start narrowed, (?:^(?<![\r\f])(?!(?<=\n)\z))
 *                        (a line start Boost can search for quickly),
 *                        and (?:(?=\n|\z))
 *   \Z  \B            -> (?=\n?\z)  (?!\b)
 *   [...] \h \v \N    -> a class of the bytes PCRE2 means, caseless sets
 *                        folded here and written under (?-i:...)
 *   \n \xHH \x{..} \0dd \o{..} \cX \e, escaped punctuation, and any
 *   byte but a letter, digit or '_' -> \xHH
 *   {  not starting {n} {n,} {n,m}  -> a literal '{' (as PCRE)
 *   (?P<name> (?'name'  -> (?<name>;  (?#...) dropped
 *   (?i) (?-s) (?m:...) -> tracked here; only the i part reaches Boost
 *
 * and passes through what both read alike: \d \w \s and negations, \b,
 * \A, \z, \1..\9, groups, alternation, greedy, lazy and possessive
 * quantifiers, lookaround, atomic groups, (?|...).  It refuses (as
 * ENGINE_ERR_UNSUPPORTED) what it does not know to be alike: ENGINE_UTF8
 * (Boost's char regex is bytes), \Q...\E in a class, \g \k \K \G \R \X
 * \p \C and other letters, \10 and longer back-references, recursion,
 * conditions, callouts, (*VERB)s and the options x n U J.
 */
#ifndef RXB_BOOST_PATTERN_H
#define RXB_BOOST_PATTERN_H

#include "engines/engine.h"

#include <stddef.h>

/*
 * Translates pattern p (index `index` of its set) under engine `flags`
 * (enum engine_flag: ENGINE_CASELESS, _DOTALL and _MULTILINE set the
 * outermost options).  Returns 0 with a malloc'd Boost pattern in *out
 * (NUL-terminated, its length in *outlen; it never holds a raw NUL; the
 * caller frees it), or ENGINE_ERR_UNSUPPORTED, ENGINE_ERR_COMPILE (a
 * pattern PCRE2 also refuses) or ENGINE_ERR_NOMEM with err filled (the
 * byte offset in the pattern).
 */
int boost_pattern_translate(const struct engine_pattern *p, long index,
			    unsigned flags, char **out, size_t *outlen,
			    struct engine_error *err);

#endif

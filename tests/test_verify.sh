#!/usr/bin/env bash
# test_verify.sh - verification that cannot be outvoted (issue 11): each
# case where the old majority vote timed a wrong answer or flagged a right
# one, with the answer the reference gives (Python's re, the regex module
# in POSIX mode and GNU grep agree on each).  Usage: test_verify.sh rxbench
set -u
rx=$1
. "$(dirname "$0")/cli_expect.sh"

fast=(--benchtime=1x --no-alloc --no-results)
has() { "$rx" list | grep -q "^  $1 "; }

# timed "NAME ... N matches": the engine's answer was verified and timed
timed() { # engine pattern-name count
	grep -Eq "^BenchmarkScan/engine=$1/pattern=$2[[:space:]].* $3(\.0+)? matches" "$tmp/out" ||
		{ echo "FAIL: $1 /$2/ not timed with $3 matches"; grep "engine=$1/" "$tmp/out" | head -3; fail=$((fail + 1)); }
}
not_timed() { # engine pattern-name
	grep -Eq "^BenchmarkScan/engine=$1/pattern=$2[[:space:]]" "$tmp/out" &&
		{ echo "FAIL: $1 /$2/ was timed"; fail=$((fail + 1)); }
	return 0
}

# A tie goes to no one: TRE's 1 is a mismatch, glibc's 7 is timed.
printf 'ab\nab\n' >"$tmp/abab.txt"
engines=pcre2,posix,re2,onig
has tre && engines=$engines,tre
expect 1 "tre: pattern ^|x?: count 1, is_match 1; expected count 7, is_match 1 (reference, leftmost-longest)" -- scan --engines=$engines --pattern '^|x?' --corpus "$tmp/abab.txt" "${fast[@]}"
timed posix '\^\|x\?' 7
timed pcre2 '\^\|x\?' 7
not_timed tre '\^\|x\?'

if has tre; then
	# TRE's `$` before every NUL byte; nothing after the first ($)?
	printf 'a\0b\0c' >"$tmp/nul.txt"
	expect 1 "tre: pattern \$: count 3, is_match 1; expected count 1" -- scan --engines=tre,posix --pattern '$' --corpus "$tmp/nul.txt" "${fast[@]}"
	timed posix '\$' 1
	printf 'ab' >"$tmp/ab.txt"
	expect 1 "expected count 3, is_match 1" -- scan --engines=tre,posix --pattern '($)?' --corpus "$tmp/ab.txt" "${fast[@]}"
	timed posix '\(\$\)\?' 3
fi

# A class with one engine is checked too: glibc alone in its class for \b.
printf 'x\ny' >"$tmp/xy.txt"
expect 1 "posix: pattern \\bx\$\\n|y: count 2, is_match 1; expected count 1" -- scan --engines=posix,pcre2 --pattern '\bx$\n|y' --corpus "$tmp/xy.txt" "${fast[@]}"
timed pcre2 '\\bx\$\\n\|y' 1
if has hyperscan; then
	expect 0 "PASS" -- scan --engines=hyperscan --pattern 'ab' --pattern 'b$' --corpus "$tmp/abab.txt" "${fast[@]}"
	timed hyperscan ab 2
	timed hyperscan 'b\$' 1
fi

# Two engines that disagree: the first named is not the majority.  re2's
# `$` is the end of data only: unsupported where the corpus ends with a
# newline; pcre2's right 2 is timed.
printf 'b\na\n' >"$tmp/ba.txt"
expect 0 "re2: pattern a\$|b: \`\$\` is the end of data only in re2" -- scan --engines=re2,pcre2 --pattern 'a$|b' --corpus "$tmp/ba.txt" "${fast[@]}"
timed pcre2 'a\$\|b' 2
not_timed re2 'a\$\|b'
# ... and the same for posix and tre (PCRE syntax: `$` is Perl's)
expect 0 "posix: pattern a\$|b: \`\$\` is the end of data only in posix" -- scan --engines=posix,pcre2 --pattern 'a$|b' --corpus "$tmp/ba.txt" "${fast[@]}"
not_timed posix 'a\$\|b'
# without a final newline `$` means the same everywhere: timed
printf 'b\na' >"$tmp/ba2.txt"
expect 0 "PASS" -- scan --engines=re2,posix,pcre2 --pattern 'a$|b' --corpus "$tmp/ba2.txt" "${fast[@]}"
timed re2 'a\$\|b' 2
timed posix 'a\$\|b' 2

# RE2 resumed one byte past an empty match in UTF-8 mode (8, truth 4);
# its adapter now steps a character, so it is verified and timed
printf '\xe6\x97\xa5\xe6\x97\xa5\n' >"$tmp/nichi.txt"
expect 0 "PASS" -- scan --engines=re2,pcre2 --flags=u --pattern 'x*' --corpus "$tmp/nichi.txt" "${fast[@]}"
timed re2 'x\*' 4
timed pcre2 'x\*' 4

# --flags applies to every pattern, wherever it stands
printf 'ABC\n' >"$tmp/ABC.txt"
expect 0 "PASS" -- scan --engines=pcre2 --pattern abc --flags=i --corpus "$tmp/ABC.txt" "${fast[@]}"
timed pcre2 abc 1

# grep model: a CR stays in the line, as in GNU grep (`a$` on "a\r\n": 0)
printf 'a\r\nb\n' >"$tmp/crlf.txt"
expect 0 "PASS" -- scan --engines=pcre2 --model grep --pattern 'a$' --pattern 'a.$' --corpus "$tmp/crlf.txt" "${fast[@]}"
grep -Eq '^BenchmarkScan/engine=pcre2/pattern=a\$/model=grep[[:space:]].* 0 matches' "$tmp/out" || { echo "FAIL: grep a\$ on a CRLF line"; fail=$((fail + 1)); }
grep -Eq '^BenchmarkScan/engine=pcre2/pattern=a\.\$/model=grep[[:space:]].* 1(\.0+)? matches' "$tmp/out" || { echo "FAIL: grep a.\$ on a CRLF line"; fail=$((fail + 1)); }
[ "$(grep -c 'a$' "$tmp/crlf.txt")" -eq 0 ] || { echo "FAIL: GNU grep disagrees"; fail=$((fail + 1)); }

# Out of the reference's reach: a strict majority of 3 libraries among
# every engine built, whatever --engines says (engines outside the run
# vote, and are never timed nor reported), else unverified: no time,
# unless --allow-unverified, and then marked.
printf 'aa ab\n' >"$tmp/aa.txt"
expect 0 "PASS" -- scan --engines=pcre2 --pattern '(a)\1' --corpus "$tmp/aa.txt" --benchtime=1x --no-alloc -o "$tmp/vote.json"
timed pcre2 '\(a\)\\1' 1
grep -Eq '"verified": "the reference cannot check it \(backreference[^"]*majority of [3-9] of [3-9] libraries \([^"]*onig, pcre2[^"]*\): count 1, is_match 1"' "$tmp/vote.json" || { echo "FAIL: the vote of every engine built"; grep verified "$tmp/vote.json" | head -2; fail=$((fail + 1)); }
[ "$(grep -c '"name"' "$tmp/vote.json")" -eq 1 ] || { echo "FAIL: a voter was reported"; fail=$((fail + 1)); }
# a callout: only PCRE2 reads it
expect 1 "unverified: pcre2: pattern a(?C1)a: count 1, is_match 1; not verified: the reference cannot check it (callout" -- scan --engines=pcre2,onig --pattern 'a(?C1)a' --corpus "$tmp/aa.txt" "${fast[@]}"
not_timed pcre2 'a\(\?C1\)a'
expect 0 "--- UNVERIFIED: BenchmarkScan/engine=pcre2/pattern=a(?C1)a" -- scan --engines=pcre2 --pattern 'a(?C1)a' --corpus "$tmp/aa.txt" --allow-unverified --benchtime=1x --no-alloc -o "$tmp/unv.json"
timed pcre2 'a\(\?C1\)a' 1
grep -q '"unverified": true' "$tmp/unv.json" || { echo "FAIL: the JSON does not mark the unverified row"; fail=$((fail + 1)); }
"$rx" report "$tmp/unv.json" --format=text >"$tmp/unv.txt" 2>&1
grep -q -- '--- UNVERIFIED: BenchmarkScan/engine=pcre2/pattern=a(?C1)a' "$tmp/unv.txt" || { echo "FAIL: the text report does not mark the unverified row"; fail=$((fail + 1)); }
# pcre2 and pcre2-jit are one library
expect 1 "no strict majority of at least 3 libraries (1 answered: pcre2)" -- scan --engines=pcre2,pcre2-jit,onig --pattern 'a(?C1)a' --corpus "$tmp/aa.txt" "${fast[@]}"

# every timed row says what it was verified against
expect 0 "PASS" -- scan --engines=pcre2 --pattern 'ab' --corpus "$tmp/aa.txt" --benchtime=1x --no-alloc -o "$tmp/v.json"
grep -q '"verified": "reference, leftmost-first: count 1, is_match 1"' "$tmp/v.json" || { echo "FAIL: no verification recorded"; grep verified "$tmp/v.json" | head -2; fail=$((fail + 1)); }

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]

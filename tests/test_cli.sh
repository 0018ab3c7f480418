#!/usr/bin/env bash
# test_cli.sh - the command line as a user drives it: exit codes and the
# one-line messages for bad input.  Usage: test_cli.sh path/to/rxbench
set -u
rx=$1
. "$(dirname "$0")/cli_expect.sh"

fast=(--benchtime=3x --no-alloc)
expect 2 "unknown engine 'nope'" -- run scan --engines=nope
expect 2 "engines built:" -- run scan --engines=nope
expect 2 "unknown suite 'nosuch'" -- run nosuch
expect 2 "unknown command 'frob'" -- frob
expect 2 "--benchtime=abc" -- run scan --benchtime=abc
expect 2 "--count=-1" -- run scan --count=-1
expect 2 "--count=0" -- run scan --count=0
expect 2 "--count=99999999999999999999" -- run scan --count=99999999999999999999
expect 2 "$tmp/missing.txt: No such file or directory" -- scan --pattern x --corpus "$tmp/missing.txt"
expect 2 "$tmp: is a directory" -- scan --pattern x --corpus "$tmp"
expect 2 "unknown option --frobnicate" -- run scan --frobnicate=1
expect 2 "--model=lines" -- scan --model=lines
expect 0 "usage: rxbench run" -- run --help
expect 0 "engines:" -- list

# an empty corpus is valid: every engine agrees on 0
: >"$tmp/empty.txt"
expect 0 "PASS" -- scan --engines=pcre2 --pattern abc --corpus "$tmp/empty.txt" "${fast[@]}"

# an invalid pattern is an error row; the run goes on and exits 1
printf 'hello world\nabc abc\n' >"$tmp/c.txt"
expect 1 "pattern a(b: missing closing parenthesis (offset 3)" -- scan --engines=pcre2,pcre2-jit --pattern 'a(b' --pattern abc --corpus "$tmp/c.txt" "${fast[@]}"
grep -q 'Benchmark.*Scan/engine=pcre2/pattern=abc.* 2.000 matches' "$tmp/out" || { echo "FAIL: valid pattern not timed after an invalid one"; fail=$((fail + 1)); }

# grep model counts lines
expect 0 "1.000 matches" -- scan --engines=pcre2 --pattern abc --model grep --corpus "$tmp/c.txt" "${fast[@]}"

# the JSON results file is written
expect 0 "PASS" -- scan --engines=pcre2 --pattern abc --corpus "$tmp/c.txt" "${fast[@]}" -o "$tmp/r.json"
grep -q '"format": "rxbench-results"' "$tmp/r.json" || { echo "FAIL: no JSON results"; fail=$((fail + 1)); }

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]

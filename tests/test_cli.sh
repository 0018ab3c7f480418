#!/usr/bin/env bash
# test_cli.sh - the command line as a user drives it: exit codes and the
# one-line messages for bad input.  Usage: test_cli.sh path/to/rxbench
set -u
rx=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pass=0 fail=0

# expect CODE 'STDERR-SUBSTRING' -- ARGS...
expect() {
	local code=$1 want=$2; shift 3
	"$rx" "$@" >"$tmp/out" 2>"$tmp/err"
	local got=$?
	if [ "$got" -ne "$code" ] || ! grep -qF -- "$want" "$tmp/err" "$tmp/out"; then
		echo "FAIL: rxbench $* -> exit $got (want $code), output:"; cat "$tmp/err" "$tmp/out" | head -5
		fail=$((fail + 1))
	else
		pass=$((pass + 1))
	fi
}

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

# report: every format from the run's JSON; clear errors for bad input
for f in text csv md html json; do
	if ! "$rx" report "$tmp/r.json" --format=$f -o "$tmp/out.$f" || [ ! -s "$tmp/out.$f" ]; then
		echo "FAIL: report --format=$f"; fail=$((fail + 1))
	fi
done
grep -q 'BenchmarkScan/engine=pcre2/pattern=abc' "$tmp/out.text" || { echo "FAIL: report text"; fail=$((fail + 1)); }
"$rx" report "$tmp/r.json" -o "$tmp/again.json" && cmp -s "$tmp/r.json" "$tmp/again.json" ||
	{ echo "FAIL: JSON -> report -> JSON is not the same bytes"; fail=$((fail + 1)); }
expect 0 "suite,name,engine,pattern,metric,unit" -- report "$tmp/r.json" --format=csv
expect 2 "$tmp/none.json: No such file or directory" -- report "$tmp/none.json"
printf '{"format": "rxbench-results",\n "version": x}' >"$tmp/bad.json"
expect 2 "$tmp/bad.json:2:13: expected a number" -- report "$tmp/bad.json"
expect 2 "--format=xml" -- report "$tmp/r.json" --format=xml
expect 0 "usage: rxbench report" -- report --help

# compare: a 20% regression fails the threshold, identical runs pass,
# one-sided benchmarks are listed; Go text works as input too
d=data/report
expect 1 "FAIL: 1 regression beyond 5.0%" -- compare $d/old.json $d/new.json --threshold=5%
expect 1 "Only in $d/old.json (1)" -- compare $d/old.json $d/new.json --threshold=5%
expect 0 "ok: no regression beyond 5.0%" -- compare $d/old.json $d/old.json --threshold=5%
expect 0 "no --threshold, so no verdict" -- compare $d/old.json $d/new.json
expect 0 "regression" -- compare $d/old.json $d/new.json --threshold=50%
"$rx" report $d/old.json --format=text -o "$tmp/old.txt"
"$rx" report $d/new.json --format=text -o "$tmp/new.txt"
expect 1 "+19.41%" -- compare "$tmp/old.txt" "$tmp/new.txt" --threshold=5%
expect 1 "**FAIL: 1 regression" -- compare $d/old.json $d/new.json --threshold=5% --format=md
expect 2 "--threshold=abc" -- compare $d/old.json $d/new.json --threshold=abc
expect 2 "usage: rxbench compare" -- compare $d/old.json
expect 2 "$tmp/none.json: No such file" -- compare $d/old.json "$tmp/none.json"

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]

#!/usr/bin/env bash
# test_cli_newcomer.sh - what a newcomer meets first on the command line:
# repeated options, Windows line ends, a sample too short to time,
# compare's --col and --threshold, help's own help, and the one-line
# errors of report and compare.  Usage: test_cli_newcomer.sh rxbench
set -u
rx=$(realpath "$1")
. "$(dirname "$0")/cli_expect.sh"

fast=(--benchtime=1x --no-alloc --quiet)
# ok WHAT COMMAND...: a pass when COMMAND succeeds
ok() {
	local what=$1; shift
	if "$@"; then pass=$((pass + 1)); else echo "FAIL: $what"; fail=$((fail + 1)); fi
}
# seen SUBSTRING FILE: a check on an output saved earlier
seen() { ok "$2 lacks '$1'" grep -qF -- "$1" "$2"; }
# lines FILE N: FILE has exactly N Benchmark lines
lines() { [ "$(grep -c '^Benchmark' "$1")" -eq "$2" ]; }

# --- a sample too short to time: never inf or nan, in any format ------
# payload's base op takes 1.5 ns on 64 bytes: at --benchtime=1x its pair
# of runs of 1 and 2 ops read 0 ns apart, so it printed 0 ns/op and
# "inf Mpps"; the runs now grow until they resolve the op
expect 0 "BenchmarkPayload/scenario=base/size=64" -- run payload --engines=pcre2 --bench='Payload/scenario=base' "${fast[@]}" -o "$tmp/base.json"
cp "$tmp/out" "$tmp/base.txt"
ok "1x: every base row has a positive ns/op and an Mpps" \
	awk '/^BenchmarkPayload/ { n++; if ($3 + 0 <= 0 || $6 != "Mpps") bad++ } END { exit !(n == 6 && bad == 0) }' "$tmp/base.txt"
for f in csv md html; do
	ok "report -o base.$f" "$rx" report "$tmp/base.json" -o "$tmp/base.$f"
done
ok "1x: no inf or nan in text, JSON, CSV, Markdown or HTML" \
	bash -c '! grep -Eiw "inf|nan|-inf" "$@"' _ "$tmp/base.txt" "$tmp/base.json" "$tmp/base.csv" "$tmp/base.md" "$tmp/base.html"

# --- --patterns-file: repeatable, in order, after --pattern's ----------
printf 'foo\n' >"$tmp/a.pat"
printf 'bar\n' >"$tmp/b.pat"
printf 'xfoo bar\nfoo\n' >"$tmp/c.txt"
expect 0 "BenchmarkScan/engine=re2/pattern=bar" -- scan --engines=re2 --pattern o+ --patterns-file "$tmp/a.pat" --patterns-file "$tmp/b.pat" --corpus "$tmp/c.txt" "${fast[@]}" --no-results
ok "two --patterns-file: both files' patterns, in order" \
	test "$(grep -o 'pattern=[a-z+]*' "$tmp/out" | tr '\n' ' ')" = "pattern=o+ pattern=foo pattern=bar "
expect 0 "BenchmarkScan/engine=re2/patterns=a.pat+b.pat/model=set" -- scan --engines=re2 --model set --patterns-file "$tmp/a.pat" --patterns-file "$tmp/b.pat" --corpus "$tmp/c.txt" "${fast[@]}" -o "$tmp/set.json"
ok "the set records each file" grep -q '"patterns-file.2": ' "$tmp/set.json"
printf 'ok\nx[\n' >"$tmp/bad.pat"
expect 2 "rxbench: $tmp/bad.pat:2: pattern x[" -- scan --engines=re2 --patterns-file "$tmp/a.pat" --patterns-file "$tmp/bad.pat" --corpus "$tmp/c.txt" "${fast[@]}" --no-results
expect 2 "rxbench: --patterns-file=$tmp/none.pat: No such file or directory" -- scan --engines=re2 --patterns-file "$tmp/a.pat" --patterns-file "$tmp/none.pat" --corpus "$tmp/c.txt" "${fast[@]}" --no-results
: >"$tmp/empty.pat"
expect 2 "rxbench: --patterns-file=$tmp/empty.pat: no patterns in the file" -- scan --engines=re2 --patterns-file "$tmp/a.pat" --patterns-file "$tmp/empty.pat" --corpus "$tmp/c.txt" "${fast[@]}" --no-results
expect 2 "rxbench: --corpus=$tmp: is a directory, not a file" -- scan --engines=re2 --pattern x --corpus "$tmp" "${fast[@]}" --no-results

# --- a patterns file saved on Windows: CRLF line ends and a BOM -------
printf '\357\273\277foo\r\nbar\r\n' >"$tmp/win.pat"
expect 0 "BenchmarkScan/engine=re2/pattern=foo" -- scan --engines=re2 --model grep --patterns-file "$tmp/win.pat" --corpus "$tmp/c.txt" "${fast[@]}" --no-results
cp "$tmp/out" "$tmp/win.out"
expect 0 "BenchmarkScan/engine=re2/pattern=foo" -- scan --engines=re2 --model grep --pattern foo --pattern bar --corpus "$tmp/c.txt" "${fast[@]}" --no-results
ok "CRLF and BOM: the same patterns and matches as without" \
	test "$(grep -o 'pattern=[a-z]*.* [0-9.]* matches' "$tmp/win.out" | awk '{print $1, $(NF-1)}')" = \
	     "$(grep -o 'pattern=[a-z]*.* [0-9.]* matches' "$tmp/out" | awk '{print $1, $(NF-1)}')"
expect 0 'line ends at \n or \r\n (neither is part of' -- help scan

# --- --engines naming one twice runs it once ---------------------------
expect 0 "rxbench: --engines: re2 is named twice; it runs once" -- scan --engines=re2,pcre2,re2 --pattern foo --corpus "$tmp/c.txt" "${fast[@]}" --no-results
ok "re2 runs once" lines "$tmp/out" 2
# named four times: the note once
expect 0 "rxbench: --engines: re2 is named twice; it runs once" -- scan --engines=re2,re2,pcre2,re2,re2 --pattern foo --corpus "$tmp/c.txt" --list=.
ok "one note for re2 named four times" test "$(grep -c 'named twice' "$tmp/err")" -eq 1
expect 2 "rxbench: --engines=re2,all: all names every engine, so it stands alone (--engines=all)" -- scan --engines=re2,all --pattern foo --corpus "$tmp/c.txt" --list=.

# --- an option another leaves without effect says so -----------------
expect 0 "rxbench: warning: --timeout is unused under --no-fork" -- scan --engines=re2 --pattern foo --corpus "$tmp/c.txt" --no-fork --timeout=1s --list=.

# --- compare: --col, --threshold, one run, -o --------------------------
for r in 1 2; do
	"$rx" scan --engines=re2,pcre2 --pattern foo --pattern o+ --corpus "$tmp/c.txt" "${fast[@]}" -o "$tmp/r$r.json" >/dev/null 2>&1
	"$rx" scan --engines=re2 --pattern foo --corpus "$tmp/c.txt" "${fast[@]}" --count=4 -o "$tmp/q$r.json" >/dev/null 2>&1
done
# 4 samples, as advised: the U test runs, a median's interval stays open,
# and one line says why its cells read "± ∞"
expect 0 "± ∞: a median's 95% confidence interval needs 6 samples or more (these have 4 at most)" -- compare "$tmp/q1.json" "$tmp/q2.json"
expect 0 "pcre2 against re2, by ns/op (scan)" -- compare --col engine "$tmp/r1.json"
seen "Scan/pattern=foo" "$tmp/out"
# two runs under --col engine: the advice names the keys that part them
expect 2 "tell them apart with --row pattern,file" -- compare --col engine "$tmp/r1.json" "$tmp/r2.json"
expect 0 "pattern=foo/file=$tmp/r2.json" -- compare --col engine --row pattern,file "$tmp/r1.json" "$tmp/r2.json"
# benchstat's spelling: -col /engine, .file
expect 0 "pattern=foo/file=$tmp/r2.json" -- compare --col /engine --row /pattern,.file "$tmp/r1.json" "$tmp/r2.json"
# a key nothing has is a typo, not one column of everything
expect 2 "rxbench compare: --col engines: no benchmark or run has that key (the names' keys: engine,pattern;" -- compare --col engines "$tmp/r1.json" "$tmp/r2.json"
expect 2 "rxbench compare: --row patern: no benchmark or run has that key" -- compare --col engine --row patern "$tmp/r1.json"
# an empty key among --row's (or --col's) is refused, not one row of all
expect 2 "rxbench compare: --row ',': an empty key" -- compare "$tmp/r1.json" "$tmp/r2.json" --row=,
expect 2 "rxbench compare: --row 'pattern,,file': an empty key" -- compare "$tmp/r1.json" "$tmp/r2.json" --row pattern,,file
expect 2 "rxbench compare: --col ',': an empty key" -- compare "$tmp/r1.json" "$tmp/r2.json" --col=,
# two benchmarks of one run in one cell: both named, not one twice
expect 2 "(Scan/engine=re2/pattern=foo in $tmp/r1.json, and Scan/engine=pcre2/pattern=foo in $tmp/r1.json); tell them apart with --row engine,pattern" -- compare "$tmp/r1.json" "$tmp/r2.json" --row pattern
# the threshold as given: 0.004% was printed 0.0%
expect 0 "ok: no regression beyond 0.004%" -- compare "$tmp/r1.json" "$tmp/r2.json" --threshold=0.004
expect 0 "ok: no regression beyond 5.0%" -- compare "$tmp/r1.json" "$tmp/r2.json" --threshold 5%
expect 0 "ok: no regression beyond 12.345%" -- compare "$tmp/r1.json" "$tmp/r2.json" --threshold=12.345%
expect 0 "ok: no regression beyond 0.0%" -- compare "$tmp/r1.json" "$tmp/r2.json" --threshold=-0
expect 0 "ok: no regression beyond 1e-300%" -- compare "$tmp/r1.json" "$tmp/r2.json" --threshold=1e-300
# --alpha as given: 0.001 was printed "p < 0.00", 0.005 "p < 0.01"
expect 0 "significant (p < 0.001)" -- compare "$tmp/q1.json" "$tmp/q2.json" --alpha=0.001
expect 0 "significant (p < 0.005)" -- compare "$tmp/q1.json" "$tmp/q2.json" --alpha 0.005
expect 0 "significant (p < 0.05)" -- compare "$tmp/q1.json" "$tmp/q2.json"
expect 0 "significant (p &lt; 0.005)" -- compare "$tmp/q1.json" "$tmp/q2.json" --alpha=0.005 --format=html
expect 2 "rxbench compare: --threshold needs a value" -- compare "$tmp/r1.json" "$tmp/r2.json" --threshold
expect 2 "rxbench compare: $tmp/r1.json is one run: name another to compare it with" -- compare "$tmp/r1.json"
# one run under a --col key of one value: one column, nothing compared
# (it printed the columns' header alone and exited 0)
expect 2 "rxbench compare: --col file: every benchmark falls in one column, $tmp/r1.json: nothing to compare it with" -- compare "$tmp/r1.json" --col .file
expect 2 "rxbench compare: --col engine: every benchmark falls in one column, re2: nothing to compare it with" -- compare "$tmp/q1.json" --col engine
expect 2 "rxbench compare: -o $tmp/: is a directory; name a file in it (-o $tmp/FILE)" -- compare "$tmp/r1.json" "$tmp/r2.json" -o "$tmp/"
expect 2 "rxbench report: -o $tmp: is a directory" -- report "$tmp/r1.json" -o "$tmp"
expect 2 "rxbench: -o needs a value" -- report "$tmp/r1.json" -o
ok "-o without a file: said once" test "$(wc -l <"$tmp/err")" -eq 1
expect 2 "rxbench report: unexpected argument '--bogus' (see rxbench report --help)" -- report "$tmp/r1.json" --bogus
ok "report: one line for an unexpected argument" test "$(wc -l <"$tmp/err")" -eq 1

# --- help's own help --------------------------------------------------
expect 0 "usage: rxbench help [SUITE|COMMAND]" -- help help
expect 0 "usage: rxbench help [SUITE|COMMAND]" -- help --help
expect 2 "rxbench help: one command at a time: 'extra' after 'list'" -- help list extra
# a suite where a command goes: one line naming the command that runs it
# (was "unknown command 'payload'" and the whole usage)
expect 2 "rxbench: payload is a suite, not a command: rxbench run payload (its options: rxbench help payload)" -- payload --help
ok "a suite as a command: one line" test "$(wc -l <"$tmp/err")" -eq 1

echo "test_cli_newcomer: $pass passed, $fail failed"
[ "$fail" -eq 0 ]

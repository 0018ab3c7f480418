#!/usr/bin/env bash
# test_report_cli.sh - `rxbench report` and `rxbench compare` as a user
# drives them: every format from a run's JSON, the JSON round trip, exit
# codes (compare --threshold: 1 on a regression) and one-line messages.
# Usage: test_report_cli.sh path/to/rxbench
set -u
rx=$1
. "$(dirname "$0")/cli_expect.sh"

fast=(--benchtime=3x --no-alloc)
printf 'hello world\nabc abc\n' >"$tmp/c.txt"
expect 0 "PASS" -- scan --engines=pcre2 --pattern abc --corpus "$tmp/c.txt" "${fast[@]}" -o "$tmp/r.json"

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
expect 2 "$tmp/bad.json:2:13: invalid token near 'x'" -- report "$tmp/bad.json"
expect 2 "--format=xml" -- report "$tmp/r.json" --format=xml
# neither results nor Go benchmark text (prose that quotes benchmark
# lines, as a README does) is refused, naming it; so is an extension no
# writer has
printf '# notes\n\n    BenchmarkScan/engine=re2/pattern=abc 1 5 ns/op\n' >"$tmp/notes.md"
expect 2 "$tmp/notes.md:1: neither an rxbench results file (JSON) nor Go benchmark text" -- report "$tmp/notes.md"
[ -s "$tmp/out" ] && { echo "FAIL: report of a non-results file printed"; fail=$((fail + 1)); }
expect 2 "-o $tmp/x.xlsx: no format writes that extension" -- report "$tmp/r.json" -o "$tmp/x.xlsx"
expect 2 "-o $tmp/y.xlsx: no format writes that extension" -- compare "$tmp/r.json" "$tmp/r.json" -o "$tmp/y.xlsx"
"$rx" report "$tmp/r.json" --format=text -o "$tmp/go.txt" &&
	printf '\xef\xbb\xbf%s\n' "$(cat "$tmp/go.txt")" | "$rx" report - >/dev/null ||
	{ echo "FAIL: Go text after a UTF-8 byte order mark was refused"; fail=$((fail + 1)); }
"$rx" report "$tmp/r.json" --format=text -o "$tmp/go.txt" &&
	printf '\n%s\n' "$(cat "$tmp/go.txt")" | "$rx" report - >/dev/null ||
	{ echo "FAIL: Go text after a blank line was refused"; fail=$((fail + 1)); }
expect 0 "usage: rxbench report" -- report --help

# compare: a 20% regression fails the threshold, identical runs pass,
# one-sided benchmarks are listed; Go text works as input too
d=$(cd "$(dirname "$0")" && pwd)/data/report
expect 1 "FAIL: 1 benchmark regressed beyond 5.0% (1 metric)" -- compare $d/old.json $d/new.json --threshold=5%
expect 1 "Only in $d/old.json (1)" -- compare $d/old.json $d/new.json --threshold=5%
expect 0 "ok: no regression beyond 5.0%" -- compare $d/old.json $d/old.json --threshold=5%
expect 0 "no --threshold, so no verdict" -- compare $d/old.json $d/new.json
expect 0 "regression" -- compare $d/old.json $d/new.json --threshold=50%
"$rx" report $d/old.json --format=text -o "$tmp/old.txt"
"$rx" report $d/new.json --format=text -o "$tmp/new.txt"
expect 1 "+19.41%" -- compare "$tmp/old.txt" "$tmp/new.txt" --threshold=5%
expect 1 "**FAIL: 1 benchmark regressed" -- compare $d/old.json $d/new.json --threshold=5% --format=md
# benchstat's conventions: a base of 0 ns/op (a self-timed op the kernel
# rounds down) has no ratio, "?" (was "+∞%"), and counts as neither
# faster nor slower; a negative time is no time: Go text with one is
# refused naming its file and line (-2.5 -> 12.5 was "-600%", faster)
for i in 1 2 3 4; do printf 'BenchmarkZ\t100\t0 ns/op\nBenchmarkY\t100\t4 ns/op\n'; done >"$tmp/zero.txt"
for i in 1 2 3 4; do printf 'BenchmarkZ\t100\t5 ns/op\nBenchmarkY\t100\t4 ns/op\n'; done >"$tmp/five.txt"
expect 0 "of 2 benchmarks in both, 1 unchanged, 1 with no ratio (a base of 0 or less)" -- compare "$tmp/zero.txt" "$tmp/five.txt" --threshold=5%
if grep -q '∞' "$tmp/out"; then echo "FAIL: compare from a base of 0 printed an infinite change"; fail=$((fail + 1)); fi
grep -q '^Z .* ? ' "$tmp/out" || { echo "FAIL: no '?' for a base of 0"; fail=$((fail + 1)); }
printf 'BenchmarkZ\t100\t5 ns/op\nBenchmarkZ\t100\t-2.5 ns/op\n' >"$tmp/neg.txt"
expect 2 "rxbench: $tmp/neg.txt:2: ns/op of -2.5 is negative: a time is 0 or more" -- compare "$tmp/neg.txt" "$tmp/five.txt"
expect 2 "$tmp/neg.txt:2: ns/op of -2.5 is negative" -- report "$tmp/neg.txt"
[ "$(wc -l <"$tmp/err")" -eq 1 ] || { echo "FAIL: a negative time's error is not one line"; fail=$((fail + 1)); }
"$rx" report "$tmp/five.txt" -o "$tmp/five.json" &&
	sed 's/"samples": \[5, 5/"samples": [-5, 5/' "$tmp/five.json" >"$tmp/neg.json"
expect 2 "$tmp/neg.json: Z: metric ns/op: sample -5 is negative: a time is 0 or more" -- compare "$tmp/neg.json" "$tmp/five.json"
# an xdp row's kernel-ns/op (the kernel's mean of the runs its ns/op
# timed) and slope-timed (which of the two its ns/op is) are figures of
# its one timing: shown, never a regression of their own (slope-timed
# 1 -> 0 with ns/op unchanged failed --threshold, "-100.00%", and
# kernel-ns/op counted "1 worse" as a metric measured apart)
for s in 1 0; do
	for i in 1 2 3 4; do
		printf 'Unit slope-timed assume=exact
BenchmarkPayload/scenario=base/size=64/engine=xdp	100	25.5 ns/op	%s kernel-ns/op	%s slope-timed
' "25.$((1 + 4 * (1 - s)))" $s
	done >"$tmp/slope$s.txt"
	"$rx" report "$tmp/slope$s.txt" -o "$tmp/slope$s.json"
done
for x in txt json; do
	expect 0 "ok: no regression beyond 5.0%" -- compare "$tmp/slope1.$x" "$tmp/slope0.$x" --threshold=5%
	grep -qxF "kernel-ns/op and slope-timed (benchmarks): from the same measurement as the metric each benchmark is judged by; shown, not counted again." "$tmp/out" ||
		{ echo "FAIL: compare ($x) counts kernel-ns/op or slope-timed apart"; fail=$((fail + 1)); }
done

expect 2 "--threshold=abc" -- compare $d/old.json $d/new.json --threshold=abc
expect 2 "old.json is one run: name another to compare it with" -- compare $d/old.json
expect 2 "$tmp/none.json: No such file" -- compare $d/old.json "$tmp/none.json"

# N-way: three runs, one with --flags=i (an input that differs: refused,
# or shown); a directory of runs; --col engine; --col host merges machines
for x in a b; do
	"$rx" scan --engines=pcre2,re2 --pattern abc --corpus "$tmp/c.txt" "${fast[@]}" -o "$tmp/$x.json" >/dev/null
done
"$rx" scan --engines=pcre2,re2 --pattern abc --flags=i --corpus "$tmp/c.txt" "${fast[@]}" -o "$tmp/i.json" >/dev/null
expect 0 "change" -- compare "$tmp/a.json" "$tmp/b.json" "$tmp/r.json"
expect 2 "Scan/engine=pcre2/pattern=abc: input flags differs: \"\" in $tmp/a.json, \"i\" in $tmp/i.json" -- compare "$tmp/a.json" "$tmp/b.json" "$tmp/i.json"
expect 0 "Scan/engine=pcre2/pattern=abc in $tmp/i.json: flags \"\" -> \"i\"" -- compare "$tmp/a.json" "$tmp/b.json" "$tmp/i.json" --show-changed-inputs
# runs measured differently (time against wall) say so
"$rx" scan --engines=pcre2,re2 --pattern abc --corpus "$tmp/c.txt" "${fast[@]}" --measure=wall -o "$tmp/w.json" >/dev/null
expect 0 "config measure: time (CLOCK_MONOTONIC; a run preempted for over 50 us by its CPU time) -> wall time (CLOCK_MONOTONIC)" -- compare "$tmp/a.json" "$tmp/w.json"
mkdir "$tmp/runs" && cp "$tmp/a.json" "$tmp/b.json" "$tmp/runs/"
expect 0 "$tmp/runs/a.json" -- report "$tmp/runs"
expect 0 "Scan/pattern=abc" -- compare "$tmp/a.json" --col engine
sed 's/"host": "[^"]*"/"host": "other-host"/' "$tmp/b.json" >"$tmp/b2.json"
expect 0 "other-host: $tmp/b2.json, host=other-host" -- compare "$tmp/a.json" "$tmp/b2.json" --col host
expect 2 "two benchmarks in column pcre2" -- compare "$tmp/a.json" "$tmp/b.json" --col engine
expect 2 "--threshold is compare's" -- report "$tmp/a.json" "$tmp/b.json" --threshold=5%

# the summary counts benchmarks, each judged once by its suite's metric
# (MB/s is ns/op's timing again); with too few samples it says, once,
# what to run: the count make bench takes
check() { # check WHAT COMMAND...: count a pass when COMMAND succeeds
	local what=$1; shift
	if "$@"; then pass=$((pass + 1)); else echo "FAIL: $what"; fail=$((fail + 1)); fi
}
"$rx" compare "$tmp/a.json" "$tmp/b.json" >"$tmp/ab.txt"
advice='untested: 1 sample a side is too few for the U test; run with --count=4 or more (make bench does).'
check "not one line of advice on 1-sample runs: $(grep -c untested "$tmp/ab.txt")" \
	[ "$(grep -cxF "$advice" "$tmp/ab.txt")" = 1 ]
check "no summary of 1-sample runs: $(grep against "$tmp/ab.txt")" \
	grep -qxF "$tmp/b.json against $tmp/a.json, by ns/op (scan): of 2 benchmarks in both, 2 untested." "$tmp/ab.txt"
check "MB/s counted again" grep -qxF "MB/s (scan): from the same measurement as the metric each benchmark is judged by; shown, not counted again." "$tmp/ab.txt"
root=$(cd "$(dirname "$0")/.." && pwd)
made=$(sed -n 's/^BENCH_FLAGS ?=.*--count=\([0-9]*\).*/\1/p' "$root/Makefile")
check "make bench takes --count=$made, compare advises $advice" \
	grep -qF "run with --count=$made or more" "$tmp/ab.txt"
for x in a4 b4; do
	"$rx" scan --engines=pcre2,re2 --pattern abc --corpus "$tmp/c.txt" "${fast[@]}" --count=4 -o "$tmp/$x.json" >/dev/null
done
"$rx" compare "$tmp/a4.json" "$tmp/b4.json" >"$tmp/ab4.txt"
sum=$(grep -o '[0-9]* \(faster\|slower\|unchanged\)' "$tmp/ab4.txt" | awk '{s += $1} END {print s + 0}')
check "4 samples a side: every benchmark judged, once: $(grep against "$tmp/ab4.txt")" \
	[ "$sum" = 2 ]
check "advice given on 4-sample runs" eval '! grep -q untested "$tmp/ab4.txt"'
grep -q 'p=[0-9.]* n=4+4' "$tmp/ab4.txt" && pass=$((pass + 1)) || { echo "FAIL: no p-value at 4+4"; fail=$((fail + 1)); }
# the page: a change chart (dots at the change with their whiskers,
# a line at 0) and the summary first
"$rx" compare "$tmp/a4.json" "$tmp/b4.json" -o "$tmp/ab4.html"
for want in '<svg class="changes"' 'class="zero"' '<circle class="pt"' 'class="ci"' \
	'by ns/op (scan): of 2 benchmarks in both'; do
	check "the compare page lacks $want" grep -qF "$want" "$tmp/ab4.html"
done
check "the page draws absolute bars" eval '! grep -q "rect class=\"bar\"" "$tmp/ab4.html"'

# --col engine on a payload run: the base scenario (no engine, the
# harness floor) is neither the first column nor in every "Not in" list
pb=(run payload --engines=pcre2,re2 --scenarios=base,literal --pcap "$(dirname "$0")/data/payload/http.pcap" --benchtime=3x --quiet)
"$rx" "${pb[@]}" -o "$tmp/pbase.json" >/dev/null 2>&1
"$rx" compare "$tmp/pbase.json" --col engine >"$tmp/pcol.txt"
check "--col engine: the engine-less column first: $(sed -n 2p "$tmp/pcol.txt")" \
	grep -q '^  pcre2: ' <(sed -n 2p "$tmp/pcol.txt")
check "--col engine: base not listed apart" grep -qxF 'Without engine (compared with nothing) (1):' "$tmp/pcol.txt"
check "--col engine: base in a Not in list" eval '! grep -q "^Not in" "$tmp/pcol.txt"'
check "--col engine: re2 not judged by Mpps once: $(grep against "$tmp/pcol.txt")" \
	grep -qF 're2 against pcre2, by Mpps (payload): of 1 benchmark in both, 1 untested.' "$tmp/pcol.txt"
# sizes fixed by what was built and exact counts get no p-value
check "B/db tested" grep -q '^Payload/scenario=literal/size=pcap .*constant n=1+1' "$tmp/pcol.txt"
check "matches tested" grep -q '^Payload/scenario=literal/size=pcap .*exact n=1+1' "$tmp/pcol.txt"

# make bench: its samples, and the last run kept as previous.json (a
# stand-in rxbench records its arguments; deps and build are not made)
mkdir -p "$tmp/fake"
cat >"$tmp/fake/rxbench" <<'SH'
#!/bin/sh
case $1 in
run) for a; do [ "$prev" = -o ] && out=$a; prev=$a; done; echo "$*" >"$out" ;;
report) cp "$2" "$4" ;;
esac
SH
chmod +x "$tmp/fake/rxbench"
for i in 1 2; do
	make -s -C "$root" -o deps -o build bench BUILD="$tmp/fake" RESULTS="$tmp/mb" BENCH_FLAGS="--count=$i" >"$tmp/mb$i.out"
done
check "make bench does not say how to compare with the run before" \
	grep -qF "make bench: against the run before: $tmp/fake/rxbench compare $tmp/mb/previous.json $tmp/mb/latest.json" "$tmp/mb2.out"
check "make bench keeps the last run as previous.json" \
	[ "$(cat "$tmp/mb/previous.json" 2>&1)" = "run --count=1 -o $tmp/mb/latest.json" ]
check "make bench's run" [ "$(cat "$tmp/mb/latest.json")" = "run --count=2 -o $tmp/mb/latest.json" ]

# payload's inputs: the capture's size and sha256 (a copy elsewhere
# pairs, the same path with other bytes is refused or shown), the rules'
# counts and the sha256 of their conditions
pl=(run payload --engines=pcre2 --scenarios=literal,real-life --benchtime=3x --no-alloc --quiet)
pcap=$(cd "$(dirname "$0")" && pwd)/data/payload/http.pcap
cp "$pcap" "$tmp/a.pcap" && cp "$pcap" "$tmp/b.pcap"
printf 'private\nHost: [a-z]+\n' >"$tmp/p.rules"
"$rx" "${pl[@]}" --pcap "$tmp/a.pcap" --rules "$tmp/p.rules" -o "$tmp/pa.json" >/dev/null 2>&1
"$rx" "${pl[@]}" --pcap "$tmp/b.pcap" --rules "$tmp/p.rules" -o "$tmp/pb.json" >/dev/null 2>&1
sha=$(sha256sum "$pcap" | cut -d' ' -f1)
grep -q "\"pcap-sha256\": \"$sha\"" "$tmp/pa.json" && grep -q '"pcap-size": "825"' "$tmp/pa.json" &&
	grep -q '"rules-loaded": "2"' "$tmp/pa.json" && grep -q '"rules-sha256": "[0-9a-f]\{64\}"' "$tmp/pa.json" &&
	pass=$((pass + 1)) || { echo "FAIL: payload records no pcap sha256 or rules statistics"; fail=$((fail + 1)); }
expect 0 "Payload/scenario=literal/size=pcap/engine=pcre2" -- compare "$tmp/pa.json" "$tmp/pb.json"
sed 's/index/indey/' "$pcap" >"$tmp/a.pcap"
"$rx" "${pl[@]}" --pcap "$tmp/a.pcap" --rules "$tmp/p.rules" -o "$tmp/pc.json" >/dev/null 2>&1
expect 2 "Payload/scenario=literal/size=pcap/engine=pcre2: input pcap-sha256 differs: \"$sha\" in $tmp/pa.json" -- compare "$tmp/pa.json" "$tmp/pb.json" "$tmp/pc.json"
expect 0 "Payload/scenario=literal/size=pcap/engine=pcre2 in $tmp/pc.json: pcap-sha256 \"$sha\" ->" -- compare "$tmp/pa.json" "$tmp/pb.json" "$tmp/pc.json" --show-changed-inputs
printf 'private\nHost: [a-y]+\n' >"$tmp/p.rules"
"$rx" "${pl[@]}" --pcap "$tmp/b.pcap" --rules "$tmp/p.rules" -o "$tmp/pd.json" >/dev/null 2>&1
expect 2 "Payload/scenario=real-life/size=pcap/engine=pcre2: input rules-sha256 differs" -- compare "$tmp/pb.json" "$tmp/pd.json"

# budgets on run: the run's own verdict uses them, the results record
# them (a config pair), and report of that file shows the same verdict
# unless its own --compile-budget overrides it
budget() { tr '\n' ' ' <"$1" | grep -o 'Recommendation (budgets: [^;]*'; }
fq=(run fqdn --domains=20 --engines=re2,pcre2-jit --strategies=baseline,map+multi
	--benchtime=5x --no-alloc --quiet)
"$rx" "${fq[@]}" --compile-budget=1ms --heap-budget=64KiB -o "$tmp/f.json" >"$tmp/f.txt" 2>/dev/null
want='Recommendation (budgets: compile within 1 ms, compile B(heap)/op at most 0.0625 MiB'
"$rx" report "$tmp/f.json" -o "$tmp/fr.txt"
"$rx" report "$tmp/f.json" -o "$tmp/fr.md"
for f in "$tmp/f.txt" "$tmp/fr.txt" "$tmp/fr.md"; do
	[ "$(budget "$f")" = "$want" ] && pass=$((pass + 1)) ||
		{ echo "FAIL: the verdict's budgets are not the run's: '$(budget "$f")'"; fail=$((fail + 1)); }
done
grep -q '"compile-budget": "1ms"' "$tmp/f.json" && grep -q '"heap-budget": "64KiB"' "$tmp/f.json" &&
	grep -q '^compile-budget: 1ms$' "$tmp/f.txt" && pass=$((pass + 1)) ||
	{ echo "FAIL: the results do not record the run's budgets"; fail=$((fail + 1)); }
"$rx" report "$tmp/f.json" --compile-budget=2s >"$tmp/f2.txt"
[ "$(budget "$tmp/f2.txt")" = "${want/1 ms/2000 ms}" ] && pass=$((pass + 1)) ||
	{ echo "FAIL: report --compile-budget does not override the recorded one: $(budget "$tmp/f2.txt")"; fail=$((fail + 1)); }
expect 2 "rxbench: --compile-budget=abc: not a duration such as 50ms" -- "${fq[@]}" --compile-budget=abc --no-results
expect 2 "rxbench: --heap-budget=-1: not a size such as 16MiB" -- "${fq[@]}" --heap-budget=-1 --no-results
sed 's/"compile-budget": "1ms"/"compile-budget": "soon"/' "$tmp/f.json" >"$tmp/fbad.json"
expect 2 "rxbench: suite fqdn: configuration compile-budget: 'soon' is not a duration such as 50ms" -- report "$tmp/fbad.json"

# a run timed on a loaded machine (its context's "busy") is named once by compare
/usr/bin/python3 - "$tmp/r.json" "$tmp/busy.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
d["context"].pop("busy", None)  # this machine may have been loaded
json.dump(d, open(sys.argv[1] + ".idle", "w"))
d["context"]["busy"] = "load average 5.11 over 2 CPUs when the timing started: other work shares the machine"
json.dump(d, open(sys.argv[2], "w"))
PY
expect 0 "loaded: $tmp/busy.json was timed with load average 5.11 over 2 CPUs" -- compare "$tmp/r.json.idle" "$tmp/busy.json"
if "$rx" compare "$tmp/r.json.idle" "$tmp/r.json.idle" | grep -q '^loaded:'; then
	echo "FAIL: compare names a load no run recorded"; fail=$((fail + 1)); else pass=$((pass + 1)); fi

# progress: a line on stderr only when it is a terminal, never with --quiet
"$rx" scan --engines=pcre2 --pattern abc --corpus "$tmp/c.txt" --benchtime=3x --count=2 --no-alloc >/dev/null 2>"$tmp/err"
if grep -q elapsed "$tmp/err"; then echo "FAIL: progress on a stderr that is no terminal"; fail=$((fail + 1)); fi
if command -v script >/dev/null; then
	run="$rx scan --engines=pcre2 --pattern abc --corpus $tmp/c.txt --benchtime=3x --count=2 --no-alloc"
	script -qec "$run" /dev/null >"$tmp/tty" 2>&1 </dev/null
	grep -q '\[scan 2/2\] Scan/engine=pcre2/pattern=abc .*elapsed' "$tmp/tty" ||
		{ echo "FAIL: no progress line on a terminal"; fail=$((fail + 1)); }
	script -qec "$run --quiet" /dev/null >"$tmp/tty" 2>&1 </dev/null
	if grep -q elapsed "$tmp/tty"; then echo "FAIL: progress despite --quiet"; fail=$((fail + 1)); fi
fi

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]

#!/usr/bin/env bash
# test_text_report.sh - `rxbench report --format=text RESULTS.json` prints
# the tables the run printed, byte for byte:
#   1. golden: tests/golden/run.json, recorded with the run's own output,
#      whose tables are tests/golden/run_tables.txt;
#   2. live: a short run now, its stdout against the report of its file.
# The tables of a suite are the lines from "Report of suite" to "End of
# the report of suite" (report/text.h).
# usage: test_text_report.sh path/to/rxbench
set -u
rx=$1
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
tables() {
	awk '/^Report of suite/{p=1} p{print} /^End of the report of suite/{p=0}' "$1"
}
fail=0

"$rx" report --format=text "$here/golden/run.json" > "$tmp/golden.txt" || {
	echo "FAIL: rxbench report exited $?"; exit 1; }
tables "$tmp/golden.txt" > "$tmp/golden.tables"
if ! cmp -s "$tmp/golden.tables" "$here/golden/run_tables.txt"; then
	echo "FAIL: the report of golden/run.json differs from the run's tables:"
	diff "$here/golden/run_tables.txt" "$tmp/golden.tables" | head -20
	fail=1
fi
grep -q "^Report of suite fqdn" "$tmp/golden.tables" &&
grep -q "^Report of suite payload" "$tmp/golden.tables" &&
grep -q "^Report of suite scan" "$tmp/golden.tables" || {
	echo "FAIL: a suite's tables are missing"; fail=1; }

# (--no-fork: the tables are what is compared, not the isolation; a
# child per sample doubled the run, 21 s against 11 s at load 11)
"$rx" run scan payload fqdn --benchtime=1ms --sizes=64,256 --domains=10,20 \
	--engines=pcre2,re2 --no-fork -o "$tmp/live.json" > "$tmp/live.out" 2>/dev/null
rc=$?
if [ "$rc" -ne 0 ] && [ "$rc" -ne 1 ]; then
	echo "FAIL: the live run exited $rc"; exit 1
fi
"$rx" report --format=text "$tmp/live.json" > "$tmp/live.rep" || {
	echo "FAIL: rxbench report of the live run exited $?"; exit 1; }
tables "$tmp/live.out" > "$tmp/a"
tables "$tmp/live.rep" > "$tmp/b"
if [ ! -s "$tmp/a" ] || ! cmp -s "$tmp/a" "$tmp/b"; then
	echo "FAIL: the live run's tables and its report differ:"
	diff "$tmp/a" "$tmp/b" | head -20
	fail=1
fi
[ "$fail" -eq 0 ] && echo "ok: the report repeats the run's tables ($(wc -l < "$tmp/a") lines live, $(wc -l < "$here/golden/run_tables.txt") golden)"
exit "$fail"

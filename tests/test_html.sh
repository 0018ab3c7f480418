#!/usr/bin/env bash
# test_html.sh - write the HTML report of the test fixture and open it in
# headless Chromium (tests/html_check.js): charts rendered with data, no
# page errors, no network, tables sort, markup from the results shown as
# text, no chart of more than 12 series, no header cut, heatmaps coloured
# per row, the harness floor under its own name.  The page of a `make
# bench` run (data/report/bench.json: every suite, engine and strategy)
# and of the golden run, and rxbench compare's page of two such runs, must
# be at most 10 screens of 1,000 px tall as they open (1280 wide, nothing
# expanded).  Exits 77 (ctest: skipped)
# only when chromium is not installed.  A sanitizer build writes every
# page and leaves Chromium's checks to the release build's run: they read
# the page, whose bytes are the same, not rxbench's memory.
# usage: test_html.sh path/to/rxbench
set -u
rx=$1
here=$(cd "$(dirname "$0")" && pwd)
sanitized=0
grep -qa __asan_init "$rx" && sanitized=1
# browse PAGE ARGS...: html_check.js's verdict on PAGE (0 in a sanitizer build)
browse() {
	[ "$sanitized" = 1 ] && return 0
	node "$here/html_check.js" "$chromium" "$@"
}
[ "$sanitized" = 0 ] || echo "test_html: a sanitizer build: pages written, Chromium's checks are the release build's"
chromium=$(command -v chromium || command -v chromium-browser || true)
if [ -z "$chromium" ]; then
	echo "SKIP: chromium is not installed (make test-deps installs it)"
	exit 77
fi
if ! command -v node >/dev/null; then
	echo "FAIL: node is needed to drive chromium (make test-deps installs nodejs)"
	exit 1
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$rx" report "$here/data/report/mixed.json" --format=html -o "$tmp/report.html" || {
	echo "FAIL: rxbench report --format=html exited $?"; exit 1; }
if grep -Eq '(src|href)="(https?:)?//' "$tmp/report.html"; then
	echo "FAIL: the report refers to something online"; exit 1
fi
browse "$tmp/report.html" || exit 1
"$rx" report "$here/golden/run.json" --format=html -o "$tmp/run.html" || {
	echo "FAIL: rxbench report --format=html of golden/run.json exited $?"; exit 1; }
browse "$tmp/run.html" charts screens=10
[ $? -eq 0 ] || exit 1
"$rx" report "$here/data/report/bench.json" -o "$tmp/bench.html" || {
	echo "FAIL: rxbench report of data/report/bench.json exited $?"; exit 1; }
browse "$tmp/bench.html" charts screens=10
[ $? -eq 0 ] || exit 1

# Several runs: mixed.json, the same run on a second host with re2 25%
# slower, and a third host (a copy edited here, as a CI matrix would
# bring them): the page says per run what changed against the first
# (in the first screen), keeps each run's host, draws every chart with
# data and a colour per run, and shows the results' markup as text.
/usr/bin/python3 - "$here/data/report/mixed.json" "$tmp" <<'PY' || { echo "FAIL: could not write the second host's results"; exit 1; }
import json, sys
src, tmp = sys.argv[1], sys.argv[2]
for host, factor in (("host-b", 1.25), ("host-c", 0.8)):
    d = json.load(open(src))
    d["context"]["host"] = host
    for b in d["benchmarks"]:
        if b.get("keys", {}).get("engine") != "re2":
            continue
        for m in b.get("metrics", []):
            if m["unit"] == "ns/op":
                m["samples"] = [v * factor for v in m["samples"]]
    json.dump(d, open(f"{tmp}/{host}.json", "w"))
PY
"$rx" report "$here/data/report/mixed.json" "$tmp/host-b.json" "$tmp/host-c.json" -o "$tmp/runs.html" || {
	echo "FAIL: rxbench report of three runs --format=html exited $?"; exit 1; }
for want in 'host-b' 'host-c' 'against <b>'; do
	grep -q "$want" "$tmp/runs.html" || { echo "FAIL: the page of several runs lacks '$want'"; exit 1; }
done
browse "$tmp/runs.html" runs=3 || exit 1

# rxbench compare of two make bench runs (bench.json, and a copy with re2
# 25% slower and hyperscan 20% faster): at most 10 screens as it opens
/usr/bin/python3 - "$here/data/report/bench.json" "$tmp/bench-b.json" <<'PY' || { echo "FAIL: could not write the second make bench run"; exit 1; }
import json, sys
d = json.load(open(sys.argv[1]))
d["context"]["host"] = "host-b"
for b in d["benchmarks"]:
    factor = {"re2": 1.25, "hyperscan": 0.8}.get(b.get("keys", {}).get("engine"))
    for m in b.get("metrics", []) if factor else []:
        if m["unit"] == "ns/op":
            m["samples"] = [v * factor for v in m["samples"]]
json.dump(d, open(sys.argv[2], "w"))
PY
"$rx" compare "$here/data/report/bench.json" "$tmp/bench-b.json" -o "$tmp/compare.html" || {
	echo "FAIL: rxbench compare of two make bench runs -o FILE.html exited $?"; exit 1; }
browse "$tmp/compare.html" plain runs=2 screens=10

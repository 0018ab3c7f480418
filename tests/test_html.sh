#!/usr/bin/env bash
# test_html.sh - write the HTML report of the test fixture and open it in
# headless Chromium (tests/html_check.js): charts rendered with data, no
# page errors, no network, tables sort, markup from the results shown as
# text.  Exits 77 (ctest: skipped) only when chromium is not installed.
# usage: test_html.sh path/to/rxbench
set -u
rx=$1
here=$(cd "$(dirname "$0")" && pwd)
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
node "$here/html_check.js" "$chromium" "$tmp/report.html" || exit 1
"$rx" report "$here/golden/run.json" --format=html -o "$tmp/run.html" || {
	echo "FAIL: rxbench report --format=html of golden/run.json exited $?"; exit 1; }
node "$here/html_check.js" "$chromium" "$tmp/run.html" charts

#!/usr/bin/env bash
# test_fqdn_wire.sh - the fqdn suite's --query-form: a hand-made policy
# and query file whose allowed count differs between the query as
# written (text) and the query as the proxy unpacks it (wire), a line
# that cannot be packed, and a bad value.  Usage: test_fqdn_wire.sh
# path/to/rxbench
set -u
rx=$(realpath "$1")
. "$(dirname "$0")/cli_expect.sh"

fast=(--benchtime=3x --no-alloc --engines=pcre2 --strategies=cilium-l7,trie)
printf 'a.example.com\n*.example.org\n' >"$tmp/policy.txt"
# text allows lines 1 and 4; wire also 2 (\097 is 'a') and 3 (\119 is
# 'w'); a raw space and an escaped dot are escaped again when unpacked
# ("x\ y", "a\.b") and denied either way; b.example.com is not allowed
printf '%s\n' 'a.example.com' '\097.example.com' '\119ww.example.org' \
	'A.EXAMPLE.COM.' 'b.example.com' 'x y.example.org' \
	'a\.b.example.org' >"$tmp/q.txt"
# allowed N FORM CILIUM: the queries phase allows N under both strategies
allowed() {
	expect 0 "phase=queries" -- run fqdn --policy "$tmp/policy.txt" \
		--queries "$tmp/q.txt" --query-form="$2" --cilium="$3" \
		--out="$tmp/r.json" "${fast[@]}"
	for s in cilium-l7/engine=pcre2 trie/engine=none; do
		grep -q "BenchmarkFQDN/phase=queries/strategy=$s .* $1.000 allowed" "$tmp/out" ||
			{ echo "FAIL: --query-form=$2 --cilium=$3: $s does not allow $1"; fail=$((fail + 1)); }
	done
	grep -q "\"fqdn-query-form\": \"$2\"" "$tmp/r.json" ||
		{ echo "FAIL: the results do not say fqdn-query-form $2"; fail=$((fail + 1)); }
}
allowed 2 text 1.19
allowed 4 wire 1.19
allowed 4 wire 1.11
# the default is text
expect 0 "phase=queries" -- run fqdn --policy "$tmp/policy.txt" --queries "$tmp/q.txt" "${fast[@]}"
grep -q 'phase=queries/strategy=trie/engine=none .* 2.000 allowed' "$tmp/out" ||
	{ echo "FAIL: the default form is not text"; fail=$((fail + 1)); }

# a line that cannot be packed is a one-line error naming it and why
printf 'a.example.com\nb..example.com\n' >"$tmp/bad.txt"
expect 2 "$tmp/bad.txt:2: query 'b..example.com' cannot be sent (--query-form=wire): an empty label" -- \
	run fqdn --policy "$tmp/policy.txt" --queries "$tmp/bad.txt" --query-form=wire "${fast[@]}"
[ "$(wc -l <"$tmp/err")" -eq 1 ] || { echo "FAIL: the empty label is not a one-line error"; cat "$tmp/err"; fail=$((fail + 1)); }
printf 'x%.0s' $(seq 64) >"$tmp/long.txt"
expect 2 "$tmp/long.txt:1: query 'xxxx" -- \
	run fqdn --policy "$tmp/policy.txt" --queries "$tmp/long.txt" --query-form=wire "${fast[@]}"
grep -q "a label of 64 bytes on the wire (at most 63)" "$tmp/err" ||
	{ echo "FAIL: a 64-byte label: $(cat "$tmp/err")"; fail=$((fail + 1)); }
# Cilium 1.11's miekg/dns packs a leading dot (the root on the wire), 1.19's refuses it
printf '.example.com\n' >"$tmp/dot.txt"
expect 2 "$tmp/dot.txt:1: query '.example.com' cannot be sent (--query-form=wire): a leading dot" -- \
	run fqdn --policy "$tmp/policy.txt" --queries "$tmp/dot.txt" --query-form=wire "${fast[@]}"
expect 0 "phase=queries" -- run fqdn --policy "$tmp/policy.txt" --queries "$tmp/dot.txt" --query-form=wire --cilium=1.11 "${fast[@]}"
# text takes such a line as it is
expect 0 "phase=queries" -- run fqdn --policy "$tmp/policy.txt" --queries "$tmp/bad.txt" "${fast[@]}"

# a bad value is a one-line error
expect 2 "--query-form=binary: unknown query form (use text or wire)" -- run fqdn --query-form=binary
[ "$(wc -l <"$tmp/err")" -eq 1 ] || { echo "FAIL: a bad --query-form is not one line"; cat "$tmp/err"; fail=$((fail + 1)); }

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]

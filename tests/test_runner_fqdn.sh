#!/usr/bin/env bash
# test_runner_fqdn.sh - every runner engine built (go, python-re, v8)
# rewrites a query in its own timed op as the fqdn suite does (lower case
# as Go's strings.ToLower, a trailing dot, reversed for the reverse
# strategies: engines/runner.h, 'W' flags), and rxbench verifies that op
# ('V') against the reference: on data/fqdn/edge-queries.txt (upper case,
# U+212A and U+0130, NUL, a high byte, CR, a bare dot, a trailing dot) and
# every strategy, each runner's rows must verify (rxbench exits 0 only
# then) and time the queries phase.  Skipped (77) when none is built.
#
#   test_runner_fqdn.sh RXBENCH
set -u
rx=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0 ran=0

if ! "$rx" list >"$tmp/list.txt" 2>&1; then
	echo "FAIL: $rx list exited non-zero: $(head -1 "$tmp/list.txt")"
	exit 1
fi
built=$(sed '/^not built:/,$d' "$tmp/list.txt" | awk '$2 ~ /^runner/ {print $1}')
for e in $built; do
	ran=1
	if ! "$rx" run fqdn --engines="$e" --policy=data/fqdn/list.txt \
		--queries=data/fqdn/edge-queries.txt --strategies=all \
		--benchtime=1x --warmup=0 --no-alloc -o "$tmp/$e.json" \
		>"$tmp/$e.txt" 2>&1; then
		echo "FAIL: $e: rxbench exited non-zero:"
		grep -E 'mismatch|error|timeout' "$tmp/$e.txt" | head -5 ||
			tail -3 "$tmp/$e.txt"
		fail=1
		continue
	fi
	n=$(grep -c "^BenchmarkFQDN/phase=queries/.*engine=$e[ ,]" "$tmp/$e.txt")
	if [ "$n" -lt 5 ]; then
		echo "FAIL: $e: $n timed queries rows (want one per strategy it runs)"
		fail=1
	else
		echo "ok: $e: $n strategies verified and timed on the edge queries"
	fi
done
if [ $ran -eq 0 ]; then
	echo "test_runner_fqdn: SKIP: no runner engine built"
	exit 77
fi
exit $fail

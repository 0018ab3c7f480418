#!/usr/bin/env bash
# test_runner_fqdn.sh - every runner engine built (go, python-re, v8)
# rewrites a query in its own timed op as the fqdn suite does (lower case
# as Go's strings.ToLower, a trailing dot, reversed for the reverse
# strategies: engines/runner.h, 'W' flags), and rxbench verifies that op
# ('V') against the reference: on data/fqdn/edge-queries.txt (upper case,
# U+212A and U+0130, NUL, a high byte, CR, a bare dot, a trailing dot) and
# every strategy, each runner's rows must verify (rxbench exits 0 only
# then) and time the queries phase.  A runner with endpoints (go) does
# the same on --endpoints ('Q' and 'X' carry the same flags: its
# verdicts per endpoint and its timed op rewrite each query).  Skipped
# (77) when none is built.
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

# edge TAG ENGINE ROWS MIN WHAT [rxbench options...]: the edge queries on
# ENGINE must verify (exit 0) and time at least MIN rows matching ROWS.
edge() {
	local tag=$1 e=$2 rows=$3 min=$4 what=$5 n
	shift 5
	if ! "$rx" run fqdn --engines="$e" --policy=data/fqdn/list.txt \
		--queries=data/fqdn/edge-queries.txt --benchtime=1x --warmup=0 \
		--no-alloc -o "$tmp/$tag.json" "$@" >"$tmp/$tag.txt" 2>&1; then
		echo "FAIL: $tag: rxbench exited non-zero:"
		grep -E 'mismatch|error|timeout' "$tmp/$tag.txt" | head -5 ||
			tail -3 "$tmp/$tag.txt"
		fail=1
		return
	fi
	n=$(grep -c "^BenchmarkFQDN/phase=queries/.*engine=$e$rows" "$tmp/$tag.txt")
	if [ "$n" -lt "$min" ]; then
		echo "FAIL: $tag: $n timed queries rows (want $min or more)"
		fail=1
	else
		echo "ok: $tag: $n $what verified and timed on the edge queries"
	fi
}

for e in $built; do
	ran=1
	# every strategy measured in rxbench itself (--no-fork: the same
	# verification and rows; a forked child per row starts its own
	# runner, 85 rows 20 s against 1.2 s for python-re at load 10), then
	# a reversed and a map strategy in a forked child as a run measures,
	# the runner loaded again there
	edge "$e" "$e" '[ ,]' 5 strategies --strategies=all --no-fork
	edge "$e-fork" "$e" $'[ ,\t]' 2 "strategies in a forked child" \
		--strategies=reverse,map+cilium-l7 --bench=/phase=queries
	[ "$e" = go ] &&
		edge "$e-endpoints" "$e" /endpoints=4 2 "strategies on 4 endpoints" \
			--endpoints=4 --strategies=cilium-l7,map+cilium-l7 \
			--bench=/phase=queries
done
if [ $ran -eq 0 ]; then
	echo "test_runner_fqdn: SKIP: no runner engine built"
	exit 77
fi
exit $fail

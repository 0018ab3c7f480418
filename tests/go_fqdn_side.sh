#!/usr/bin/env bash
# go_fqdn_side.sh - rxbench's go rows beside `go test -bench` on one FQDN
# case (tests/go/fqdn_bench_test.go), in both go modes: warm and the
# seed's method (--engine-opt go.mode=seed).  Both read the same case:
# tests/fqdn_case_cli prints the strategy's regexes, name set and
# rewritten queries of the generated policy rxbench builds for
# --domains=N --seed=1.  Fails when rxbench does not verify and time
# every row, or when go test's verdicts differ from the reference's;
# prints the table (the times are for a person to compare: README,
# Engines, runners).
#
#   go_fqdn_side.sh RXBENCH GO GOCACHE_DIR FQDN_CASE_CLI \
#       [DOMAINS [WARM_BENCHTIME [SEED_BENCHTIME [STRATEGY...]]]]
#
# Defaults: 500 selectors (the seed's), 1s warm, 1000x seed (the seed's
# -benchtime), strategies map+reverse+sort and reverse+sort.
set -u
rx=$1 go=$2 cache=$3 cli=$4
domains=${5:-500} warm=${6:-1s} seedtime=${7:-1000x}
shift $(($# < 7 ? $# : 7))
strategies=${*:-map+reverse+sort reverse+sort}
. "$(dirname "$0")/go_env.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0

go_skip_unless_built go_fqdn_side

for s in $strategies; do
	if ! "$cli" "$s" "$domains" 1 >"$tmp/case.txt"; then
		echo "FAIL: fqdn_case_cli $s $domains 1"
		fail=1
		continue
	fi
	for mode in warm seed; do
		bt=$warm
		[ $mode = seed ] && bt=$seedtime
		if ! "$rx" run fqdn --engines=go --engine-opt=go.mode=$mode \
			--domains="$domains" --strategies="$s" --count=1 --timeout=10m \
			--bench="/phase=(compile|.*match)" --benchtime="$bt" \
			-o "$tmp/rx-$mode.json" >"$tmp/rx-$mode.txt" 2>&1; then
			echo "FAIL: $s: rxbench (go.mode=$mode) exited non-zero:"
			grep -E 'FAIL|MISMATCH|error' "$tmp/rx-$mode.txt" | head
			fail=1
		fi
		if ! go_in_tests RXB_FQDN_CASE="$tmp/case.txt" "$go" test \
			-run '^$' -bench "^BenchmarkFQDN\$/^mode=$mode\$" \
			-benchtime="$bt" -count=1 >"$tmp/go-$mode.txt" 2>&1; then
			echo "FAIL: $s: go test (mode=$mode):"
			grep -v '^Benchmark' "$tmp/go-$mode.txt" | head
			fail=1
		fi
	done
	/usr/bin/python3 - "$s" "$domains" "$tmp" <<'PY' || fail=1
import json, re, sys
strategy, domains, tmp = sys.argv[1:]
print(f"strategy={strategy} domains={domains}: rxbench go row / go test")
print(f"| mode | phase | ns/op rx | ns/op go | ratio | B/op rx | B/op go "
      f"| allocs/op rx | allocs/op go |")
print("|---|---|---|---|---|---|---|---|---|")
bad = 0
for mode in ("warm", "seed"):
    rx = {}
    try:
        for b in json.load(open(f"{tmp}/rx-{mode}.json"))["benchmarks"]:
            m = {x["unit"]: x["samples"][0] for x in b.get("metrics", [])}
            rx[b["keys"]["phase"]] = m
    except (OSError, ValueError, KeyError):
        pass
    gt = {}
    for line in open(f"{tmp}/go-{mode}.txt"):
        g = re.match(r"BenchmarkFQDN/mode=\w+/phase=([a-z-]+?)(?:-\d+)?\s+\d+\s+(.*)",
                     line)
        if g:
            f = g.group(2).split()
            gt[g.group(1)] = {f[i + 1]: float(f[i]) for i in range(0, len(f) - 1, 2)}
    for phase in sorted(set(rx) | set(gt)):
        r, g = rx.get(phase, {}), gt.get(phase, {})
        if not r or not g:
            print(f"missing: {mode} {phase} (rxbench {bool(r)}, go test {bool(g)})")
            bad = 1
            continue
        ratio = r["ns/op"] / g["ns/op"] if g.get("ns/op") else float("nan")
        print(f"| {mode} | {phase} | {r['ns/op']:.0f} | {g['ns/op']:.0f} | "
              f"{ratio:.2f} | {r.get('B/op', -1):.0f} | {g.get('B/op', -1):.0f} | "
              f"{r.get('allocs/op', -1):.0f} | {g.get('allocs/op', -1):.0f} |")
sys.exit(bad)
PY
done
exit $fail

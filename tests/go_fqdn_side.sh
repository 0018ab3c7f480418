#!/usr/bin/env bash
# go_fqdn_side.sh - rxbench's go rows beside `go test -bench` on one FQDN
# case (tests/go/fqdn_bench_test.go), in both go modes: warm and the
# seed's method (--engine-opt go.mode=seed).  Both read the same case:
# tests/fqdn_case_cli prints the strategy's regexes, name set and
# rewritten queries of the generated policy rxbench builds for
# --domains=N --seed=1.  Fails when rxbench does not verify and time
# every row, or when go test's verdicts differ from the reference's;
# prints the table (the times are for a person to compare:
# docs/engines.md, "A runner against go test").
#
#   go_fqdn_side.sh RXBENCH GO GOCACHE_DIR FQDN_CASE_CLI \
#       [DOMAINS [WARM_BENCHTIME [SEED_BENCHTIME [STRATEGY...]]]]
#
# Defaults: 500 selectors (the seed's), 1s warm, 1000x seed (the seed's
# -benchtime), strategies map+reverse+sort and reverse+sort.
#
# Each phase runs alone, rxbench's row then go test's, so the two sides
# of a row are timed seconds apart, not a whole suite apart: this host's
# speed drifts by tens of percent over tens of seconds.  ROUNDS=K in the
# environment (default 1) runs K such rounds, the side that goes first
# alternating; the table shows the medians of the K rounds, the ratio of
# the medians and the range of the per-round ratios (as benchstat
# compares a side-by-side -count=K).  CPUS="A B" runs the two sides of a
# phase at once instead, each pinned to its own CPU (taskset), swapping
# CPUs each round: both then see the same seconds of the host, and each
# Go process has one P.  MODES="warm seed" and PHASES="compile
# match-name ..." (default: both modes, every phase) choose the rows.
#
# The last line counts the rows whose ratio of medians is within 10% of 1
# ("agreement: 9 of 10 rows within 10%"); AGREE=F (a fraction, say 0.8)
# makes the script fail when fewer rows than that agree, so the
# figure in docs/engines.md is a check anyone can run again, not a one-off.
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
# go test's side: the benchmark binary, built once for every phase
if ! go_test_build "$tmp/go.test" >"$tmp/go-build.txt" 2>&1; then
	echo "FAIL: go test -c in tests/go:"
	head "$tmp/go-build.txt"
	exit 1
fi

pin=() # a command prefix for a side: taskset in both_at_once

# side_rx STRATEGY MODE ROUND PHASE: rxbench's go row into
# rx-MODE-ROUND-PHASE.json
side_rx() {
	local bt=$warm
	[ "$2" = seed ] && bt=$seedtime
	if ! "${pin[@]}" "$rx" run fqdn --engines=go --engine-opt=go.mode="$2" \
		--domains="$domains" --strategies="$1" --count=1 --timeout=10m \
		--bench="/phase=$4\$" --benchtime="$bt" \
		-o "$tmp/rx-$2-$3-$4.json" >"$tmp/rx-$2.txt" 2>&1; then
		echo "FAIL: $1: rxbench (go.mode=$2, phase $4) exited non-zero:"
		grep -E 'FAIL|MISMATCH|error' "$tmp/rx-$2.txt" | head
		return 1
	fi
}

# side_go STRATEGY MODE ROUND PHASE: go test's row into
# go-MODE-ROUND-PHASE.txt
side_go() {
	local bt=$warm
	[ "$2" = seed ] && bt=$seedtime
	if ! go_test_run RXB_FQDN_CASE="$tmp/case.txt" "${pin[@]}" "$tmp/go.test" \
		-test.run '^$' -test.bench "^BenchmarkFQDN\$/^mode=$2\$/^phase=$4\$" \
		-test.benchtime="$bt" -test.count=1 >"$tmp/go-$2-$3-$4.txt" 2>&1; then
		echo "FAIL: $1: go test (mode=$2, phase $4):"
		grep -v '^Benchmark' "$tmp/go-$2-$3-$4.txt" | head
		return 1
	fi
}

# both_at_once STRATEGY MODE ROUND PHASE: the two sides together on the
# two CPUs of $CPUS, rxbench on the first in odd rounds, on the second in
# even ones.
both_at_once() {
	local cpus=($CPUS) rc=0 a b
	[ $(($3 % 2)) -eq 0 ] && cpus=(${cpus[1]} ${cpus[0]})
	(pin=(taskset -c "${cpus[0]}"); side_rx "$@") &
	a=$!
	(pin=(taskset -c "${cpus[1]}"); side_go "$@") &
	b=$!
	wait $a || rc=1
	wait $b || rc=1
	return $rc
}

for s in $strategies; do
	if ! "$cli" "$s" "$domains" 1 >"$tmp/case.txt"; then
		echo "FAIL: fqdn_case_cli $s $domains 1"
		fail=1
		continue
	fi
	# the phases: compile and every query set of the case
	phases=${PHASES:-compile $(sed -n 's/^set\t//p' "$tmp/case.txt" | tr '\n' ' ')}
	for ((round = 1; round <= ${ROUNDS:-1}; round++)); do
		sides="rx go"
		[ $((round % 2)) -eq 0 ] && sides="go rx"
		for mode in ${MODES:-warm seed}; do
			for phase in $phases; do
				if [ -n "${CPUS:-}" ]; then
					both_at_once "$s" $mode $round $phase || fail=1
					continue
				fi
				for side in $sides; do
					side_$side "$s" $mode $round $phase || fail=1
				done
			done
		done
	done
	/usr/bin/python3 - "$s" "$domains" "$tmp" "${ROUNDS:-1}" <<'PY' || fail=1
import glob, json, os, re, statistics, sys
strategy, domains, tmp, rounds = sys.argv[1:]
rounds = int(rounds)


def rx_rows(pattern):
    """phase -> {unit: value} of a round's rxbench runs (one sample each)."""
    rows = {}
    for path in glob.glob(pattern):
        try:
            for b in json.load(open(path))["benchmarks"]:
                rows[b["keys"]["phase"]] = {x["unit"]: x["samples"][0]
                                            for x in b.get("metrics", [])}
        except (OSError, ValueError, KeyError):
            pass
    return rows


def go_rows(pattern):
    """phase -> {unit: value} of a round's go test -count=1 runs."""
    rows = {}
    lines = []
    for path in glob.glob(pattern):
        lines += open(path).readlines()
    for line in lines:
        g = re.match(r"BenchmarkFQDN/mode=\w+/phase=([a-z-]+?)(?:-\d+)?\s+\d+\s+(.*)",
                     line)
        if g:
            f = g.group(2).split()
            rows[g.group(1)] = {f[i + 1]: float(f[i]) for i in range(0, len(f) - 1, 2)}
    return rows


def med(runs, phase, unit):
    return statistics.median(r[phase].get(unit, -1) for r in runs)


what = "medians of %d interleaved rounds, " % rounds if rounds > 1 else ""
print(f"strategy={strategy} domains={domains}: rxbench go row / go test ({what}ns/op ratio rx/go)")
print("| mode | phase | ns/op rx | ns/op go | ratio | round ratios | B/op rx | B/op go "
      "| allocs/op rx | allocs/op go |")
print("|---|---|---|---|---|---|---|---|---|---|")
bad = 0
within = total = 0
for mode in os.environ.get("MODES", "warm seed").split():
    rx = [rx_rows(f"{tmp}/rx-{mode}-{k}-*.json") for k in range(1, rounds + 1)]
    gt = [go_rows(f"{tmp}/go-{mode}-{k}-*.txt") for k in range(1, rounds + 1)]
    for phase in sorted(set().union(*rx, *gt)):
        if not all(phase in r for r in rx) or not all(phase in g for g in gt):
            print(f"missing: {mode} {phase} in some round (rxbench "
                  f"{sum(phase in r for r in rx)}, go test "
                  f"{sum(phase in g for g in gt)} of {rounds})")
            bad = 1
            continue
        rn, gn = med(rx, phase, "ns/op"), med(gt, phase, "ns/op")
        each = sorted(r[phase]["ns/op"] / g[phase]["ns/op"]
                      for r, g in zip(rx, gt) if g[phase].get("ns/op"))
        span = f"{each[0]:.2f}..{each[-1]:.2f}" if each else "-"
        ratio = rn / gn if gn else float("nan")
        total += 1
        within += abs(ratio - 1) <= 0.10
        print(f"| {mode} | {phase} | {rn:.0f} | {gn:.0f} | {ratio:.2f} | {span} | "
              f"{med(rx, phase, 'B/op'):.0f} | {med(gt, phase, 'B/op'):.0f} | "
              f"{med(rx, phase, 'allocs/op'):.0f} | {med(gt, phase, 'allocs/op'):.0f} |")
print(f"agreement: {within} of {total} rows within 10% (ns/op, ratio of medians)")
agree = os.environ.get("AGREE")
if agree and total and within < float(agree) * total:
    print(f"FAIL: fewer than {float(agree):.0%} of the rows agree within 10%")
    bad = 1
sys.exit(bad)
PY
done
exit $fail

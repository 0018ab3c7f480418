#!/usr/bin/env bash
# test_go_runner.sh - the go engine (a runner, engines/runner.h) end to end:
# its answers pass every suite's verification (rxbench exits 0 only when
# every row is verified and measured), and the Go benchmark in tests/go
# (`go test -bench`, testing.B with ReportAllocs) counts the same matches
# on the same regex and corpus as the rxbench scan case it mirrors.
# Skipped (77) when the binary was built without the go runner.
#
#   test_go_runner.sh RXBENCH GO GOCACHE_DIR
set -u
rx=$1 go=$2 cache=$3
. "$(dirname "$0")/go_env.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0

go_skip_unless_built test_go_runner

# run NAME ARGS...: rxbench must exit 0 and time at least one go row.
run() {
	local name=$1
	shift
	if ! "$rx" run "$@" --engines=go --count=1 --warmup=0 \
		-o "$tmp/$name.json" >"$tmp/$name.txt" 2>&1; then
		echo "FAIL: $name: rxbench run $* exited non-zero:"
		grep -E 'FAIL|SKIP|MISMATCH|error|    ' "$tmp/$name.txt" | head -20
		fail=1
		return
	fi
	if ! grep -q '^Benchmark.*engine=go.* ns/op.*floor-ns/op' "$tmp/$name.txt"; then
		echo "FAIL: $name: no timed go row with its floor"
		fail=1
	fi
	echo "ok: $name: $(grep -c '^Benchmark.*engine=go' "$tmp/$name.txt") go rows"
}

# the runner's fqdn rewrite (engines/runners/go/fqdnop) against its slow
# spelling, the package the Go benchmark shares with the runner
if ! go_in_tests "$go" test rxbench/runners/go/fqdnop >"$tmp/fqdnop.txt" 2>&1; then
	echo "FAIL: go test fqdnop:"
	tail -5 "$tmp/fqdnop.txt"
	fail=1
fi

run scan scan --benchtime=1x
run scan-grep scan --model=grep --benchtime=1x
# 1,000 packets a size, not the default 4 MiB (65,536 of 64 bytes): each
# forked sample sends the runner every packet (8.9 s against 1.6 s)
run payload payload --sizes=64,1500 --packets=1000 --benchtime=1x
run fqdn fqdn --domains=50 --benchtime=1x
# a compile keeps what Go's heap says (B(heap)/op, as the C rows' retain)
if ! grep -q '^BenchmarkFQDN/phase=compile/.*engine=go .* [1-9][0-9]* B(heap)/op' "$tmp/fqdn.txt"; then
	echo "FAIL: fqdn: no go compile row with its B(heap)/op"
	fail=1
fi
run endpoints fqdn --domains=20 --endpoints=40 --benchtime=1x \
	--strategies=cilium-l7,map+cilium-l7

# Endpoints on go: every phase's row verified per endpoint, with the memory
# Go's runtime measured; the shared cache holds less than a compile per
# selector would (every 10th endpoint is identical, two selectors each).
/usr/bin/python3 - "$tmp/endpoints.json" <<'PY' || fail=1
import json, sys
rows = [b for b in json.load(open(sys.argv[1]))["benchmarks"]
        if b["keys"].get("engine") == "go" and "endpoints" in b["keys"]]
phases = {(b["keys"]["strategy"], b["keys"]["phase"]) for b in rows}
bad = []
for s in ("cilium-l7", "map+cilium-l7"):
    for ph in ("policy-update", "match-name", "match-pattern"):
        if (s, ph) not in phases:
            bad.append(f"no {s} {ph} row")
for b in rows:
    m = {x["unit"]: x["samples"][0] for x in b["metrics"]}
    what = b["name"]
    if b["status"] != "ok" or "per endpoint" not in (b["verified"] or ""):
        bad.append(f"{what}: {b['status']}, verified: {b['verified']}")
    for unit in ("ns/op", "B(heap)", "B(heap)/endpoint", "nocache-B(heap)",
                 "nocache-B(heap)/endpoint"):
        if not m.get(unit, 0) > 0:
            bad.append(f"{what}: no {unit}")
    if m.get("B(heap)", 0) >= m.get("nocache-B(heap)", 0):
        bad.append(f"{what}: cache {m.get('B(heap)')} >= nocache "
                   f"{m.get('nocache-B(heap)')}")
    if abs(m.get("B(heap)/endpoint", 0) * 40 - m.get("B(heap)", 0)) > 40:
        bad.append(f"{what}: B(heap)/endpoint is not B(heap) / 40")
for x in bad:
    print("FAIL: endpoints:", x)
print(f"ok: endpoints: {len(rows)} go rows verified per endpoint, "
      "cache < nocache" if not bad else "")
sys.exit(1 if bad else 0)
PY

# The Go benchmark's case, in rxbench and in go test: the same matches.
corpus=/usr/share/common-licenses/GPL-3
pattern='[Ll]icen[cs]e[a-z]*'
if [ ! -r "$corpus" ]; then
	echo "test_go_runner: SKIP part: no $corpus"
	exit $fail
fi
printf '%s\n' "$pattern" >"$tmp/pat.txt"
# go test's binary, linked once for both benchmarks
go_test_build "$tmp/go.test" >"$tmp/go-build.txt" 2>&1 || {
	echo "FAIL: go test -c in tests/go:"; head "$tmp/go-build.txt"; fail=1; }
for model in count grep; do
	"$rx" run scan --engines=go --model=$model --corpus=$corpus \
		--patterns-file="$tmp/pat.txt" --benchtime=1x --count=1 \
		--warmup=0 -o "$tmp/p.json" >"$tmp/p.txt" 2>&1 || {
		echo "FAIL: rxbench on the go test's case ($model)"; fail=1; }
	want=$(grep '^Benchmark' "$tmp/p.txt" | grep -o '[0-9.]* matches' | head -1)
	bench=Count
	[ $model = grep ] && bench=Grep
	got=$(go_test_run RXB_GO_CORPUS=$corpus RXB_GO_PATTERN=$pattern \
		"$tmp/go.test" -test.run '^$' -test.bench "^Benchmark$bench\$" \
		-test.benchtime=1x 2>&1 |
		grep "^Benchmark$bench" | grep -o '[0-9.]* matches')
	if [ -z "$want" ] || [ "$want" != "$got" ]; then
		echo "FAIL: $model: rxbench's go row says '$want', go test says '$got'"
		fail=1
	else
		echo "ok: $model: rxbench and go test agree: $got"
	fi
done
exit $fail

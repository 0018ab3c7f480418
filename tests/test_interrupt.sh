#!/usr/bin/env bash
# test_interrupt.sh - Ctrl-C and SIGTERM during a run lose nothing that
# finished (issue 7): a long run is started in the background, signalled
# once some benchmark lines have appeared, and must exit 130 (SIGINT) or
# 143 (SIGTERM) promptly, with a valid JSON results file that holds every
# finished benchmark, "interrupted": true, and a Go text that says so.
# Usage: test_interrupt.sh path/to/rxbench
set -u
# job control: each background run is its own process group (pgid = pid),
# so a signal can go to the run and its children as a terminal sends it
set -m
rx=$1
. "$(dirname "$0")/cli_expect.sh"
# Debian's python3 when there is one: a version manager's shim on PATH
# (pyenv's) costs a second or more a start on a loaded machine
py=/usr/bin/python3
[ -x "$py" ] || py=$(command -v python3)
python3() { "$py" "$@"; }

fail_msg() { echo "FAIL: $*"; fail=$((fail + 1)); }

# wait_lines FILE N: until FILE has N benchmark lines (at most 60 s)
wait_lines() {
	for _ in $(seq 600); do
		[ "$(grep -c '^Benchmark' "$1" 2>/dev/null)" -ge "$2" ] && return 0
		sleep 0.1
	done
	return 1
}

# check_json FILE TEXT: valid JSON, interrupted, one benchmark per
# finished line of TEXT (each with its samples), no error rows
check_json() {
	python3 - "$1" "$2" <<'EOF'
import json, re, sys
res = json.load(open(sys.argv[1]))
lines = [l.split()[0][len("Benchmark"):] for l in open(sys.argv[2])
         if l.startswith("Benchmark")]
names = [b["name"] for b in res.get("benchmarks", [])]
problems = []
if res.get("interrupted") is not True:
    problems.append("interrupted is not true")
if sorted(set(lines)) != sorted(names):
    problems.append("JSON %s != finished %s" % (names, sorted(set(lines))))
for b in res.get("benchmarks", []):
    if b["status"] != "ok" or not b["iterations"]:
        problems.append("%s: status %s, %d samples" % (b["name"], b["status"], len(b["iterations"])))
if problems:
    print("; ".join(problems))
    sys.exit(1)
EOF
}

# interrupt NAME SIGNAL WANT-STATUS LINES ARGS...: run rxbench ARGS in the
# background (its own process group: set -m), wait for LINES benchmark lines,
# send SIGNAL to the process ("-" prefix: to its whole group, as a
# terminal's Ctrl-C does), then check status, promptness, JSON and text.
interrupt() {
	local name=$1 sig=$2 want=$3 lines=$4; shift 4
	local out=$tmp/$name.txt json=$tmp/$name.json target t0 got
	echo '{"stale": true}' >"$json"
	"$rx" "$@" -o "$json" >"$out" 2>"$tmp/$name.err" &
	local pid=$!
	[ "$lines" -eq 0 ] && sleep 1 # still verifying: nothing printed yet
	if ! wait_lines "$out" "$lines"; then
		fail_msg "$name: no $lines benchmark lines within 60 s"
		kill -KILL "$pid"; wait "$pid"; return
	fi
	target=$pid
	[ "${sig:0:1}" = - ] && { sig=${sig:1}; target=-$pid; }
	t0=$(date +%s%N)
	if [ "$sig" = INTx2 ]; then # a burst: two SIGINTs back to back
		sig=INT
		kill -s INT -- "$target"
	fi
	kill -s "$sig" -- "$target"
	for _ in $(seq 100); do # 10 s at most, then it is a failure
		kill -0 "$pid" 2>/dev/null || break
		sleep 0.1
	done
	kill -0 "$pid" 2>/dev/null && kill -KILL -- -"$pid"
	wait "$pid"
	got=$?
	local ms=$((($(date +%s%N) - t0) / 1000000))
	[ "$got" -eq "$want" ] || fail_msg "$name: exit $got, want $want ($(head -2 "$tmp/$name.err"))"
	[ "$ms" -lt 5000 ] || fail_msg "$name: took ${ms} ms to stop after $sig"
	local why
	why=$(check_json "$json" "$out") || fail_msg "$name: $why"
	grep -q "^--- INTERRUPTED: SIG$sig" "$out" || fail_msg "$name: no '--- INTERRUPTED: SIG$sig' line in the Go text"
	grep -q "interrupted by SIG$sig; the finished benchmarks are in $json" "$tmp/$name.err" ||
		fail_msg "$name: no message on stderr"
	ls "$tmp" | grep -q '\.tmp\.' && fail_msg "$name: a temporary results file was left"
	[ "$fail" -eq "${fails_before:-0}" ] && pass=$((pass + 1))
	fails_before=$fail
}

# kill -9 at random moments: the journal beside the target holds every
# sample the Go text showed finished (it is written first), `report`
# reads it in the target's place, and nothing else is lost.  Six runs,
# each killed 0.3 to 2 s in: they wait more than they compute, so they
# run in the background beside the signal cases below (kill9_start) and
# are counted where they stood (kill9_join).
kill9_loop() {
	local pid n
	killed=0 lost=0
	for _ in 1 2 3 4 5 6; do
		rm -f "$tmp/k.json" "$tmp/k.json.journal"
		"$rx" scan --engines=pcre2,re2,onig --benchtime=100ms --count=3 --quiet \
			-o "$tmp/k.json" >"$tmp/k.txt" 2>"$tmp/k.err" &
		pid=$!
		sleep "$(python3 -c "import random; print(random.uniform(0.3, 2.0))")"
		kill -KILL "$pid" 2>/dev/null && killed=$((killed + 1))
		wait "$pid" 2>/dev/null
		[ -e "$tmp/k.json" ] && continue # it ended before the kill
		n=$(python3 - "$tmp/k.txt" "$tmp/k.json.journal" <<'EOF'
import collections, json, sys
shown = collections.Counter(l.split()[0][len("Benchmark"):] for l in open(sys.argv[1])
                            if l.startswith("Benchmark"))
try:
    text = open(sys.argv[2]).read()
except FileNotFoundError:
    text = ""
got = {}
for line in text.split("\n")[1:]:
    line = line.strip().rstrip(",")
    if line.startswith('{"name"'):
        b = json.loads(line)
        got[b["name"]] = len(b["iterations"])
print(sum(max(0, c - got.get(name, 0)) for name, c in shown.items()))
EOF
	)
		lost=$((lost + n))
		if grep -q '^Benchmark' "$tmp/k.txt"; then
			"$rx" report "$tmp/k.json" >"$tmp/k.report" 2>"$tmp/k.rerr" ||
				fail_msg "kill -9: report of the journal failed: $(head -1 "$tmp/k.rerr")"
			grep -q "did not finish; reading what it finished from $tmp/k.json.journal" "$tmp/k.rerr" ||
				fail_msg "kill -9: report did not say it read the journal"
		fi
	done
	echo "$killed $lost $fail" >"$tmp/kill9.count"
}
kill9_start() {
	fail=0 kill9_loop >"$tmp/kill9.log" 2>&1 &
	kill9_pid=$!
}
kill9_join() {
	local killed lost failed
	wait "$kill9_pid"
	cat "$tmp/kill9.log"
	read -r killed lost failed <"$tmp/kill9.count" || { killed=0 lost=0 failed=1; }
	fail=$((fail + failed))
	echo "kill -9: $killed runs killed, $lost finished samples lost"
	[ "$lost" -eq 0 ] || fail_msg "kill -9: $lost finished samples missing from the journal"
}

kill9_start
long=(scan --engines=pcre2,pcre2-jit,re2 --benchtime=200ms --quiet)
# SIGINT and SIGTERM to the process, while a forked child measures
interrupt sigint INT 130 3 "${long[@]}"
interrupt sigterm TERM 143 3 "${long[@]}"
# Ctrl-C from a terminal: the whole process group, children included;
# a child that dies of it is the interruption, not a crash row
interrupt group -INT 130 3 "${long[@]}"
# two SIGINTs a millisecond apart (timeout -s INT, a double Ctrl-C) are
# one interrupt: the run stops as after one, and writes its results
interrupt burst INTx2 130 3 "${long[@]}"
interrupt burstgroup -INTx2 130 3 "${long[@]}"
# in this process (--no-fork): the sample being measured finishes first
# (50 ms of it: on a loaded machine a preempted sample runs until it has
# had its benchtime of CPU, harness/bench.c)
interrupt nofork INT 130 2 "${long[@]}" --no-fork --benchtime=50ms
# a child stuck in an op is killed at once, not after --timeout
interrupt hang TERM 143 1 scan --engines=pcre2,hang --pattern abc --pattern hello \
	--corpus data/payload/regex.txt --benchtime=3x --count=50 --timeout=60s --quiet
grep -q 'engine=hang' "$tmp/hang.json" && fail_msg "hang: the unfinished sample has a row"

# while a suite still verifies (100,000 patterns): it stops there too
python3 -c "
for i in range(100000): print('w%dx[a-c]+' % i)" >"$tmp/100k.pat"
interrupt verify INT 130 0 scan --engines=posix,re2 --patterns-file "$tmp/100k.pat" --quiet

# while one case compiles for minutes (10,000 endpoints on Hyperscan):
# the build stops between endpoints, and the case cut short has no row
if "$rx" list | grep -q '^  hyperscan '; then
	interrupt endpoints INT 130 0 run fqdn --endpoints=10000 --domains=50 \
		--strategies=cilium-l7 --engines=hyperscan --quiet
	grep -q '"name": "[^"]*/endpoints=10000' "$tmp/endpoints.json" &&
		fail_msg "endpoints: the compile cut short has a row"
fi

# a reader of the Go text that goes away (rxbench run | grep -m1): SIGPIPE
# stops the run like a signal; what was measured reaches the JSON
echo '{"stale": true}' >"$tmp/pipe.json"
{ "$rx" "${long[@]}" -o "$tmp/pipe.json" 2>"$tmp/pipe.err"; echo $? >"$tmp/pipe.rc"; } |
	grep -m1 '^Benchmark' >"$tmp/pipe.txt"
got=$(cat "$tmp/pipe.rc")
[ "$got" -eq 141 ] || fail_msg "pipe: exit $got, want 141 ($(head -2 "$tmp/pipe.err"))"
grep -q "interrupted by SIGPIPE; the finished benchmarks are in $tmp/pipe.json" "$tmp/pipe.err" ||
	fail_msg "pipe: no message on stderr"
python3 - "$tmp/pipe.json" "$(cat "$tmp/pipe.txt")" <<'EOF' || fail_msg "pipe: JSON"
import json, sys
res = json.load(open(sys.argv[1]))
names = [b["name"] for b in res["benchmarks"]]
first = sys.argv[2][len("Benchmark"):].split()[0]
ok = res.get("interrupted") is True and first in names and 1 <= len(names) <= 3
if not ok:
    print("interrupted=%s, benchmarks %s, first line %s" % (res.get("interrupted"), names, first))
sys.exit(0 if ok else 1)
EOF
[ "$fail" -eq "${fails_before:-0}" ] && pass=$((pass + 1))
fails_before=$fail

kill9_join
[ "$fail" -eq "${fails_before:-0}" ] && pass=$((pass + 1))
fails_before=$fail

# what was written reads back as interrupted: JSON to Markdown, Go text
# to JSON, and compare takes the partial file
expect 0 "The run was interrupted" -- report "$tmp/sigint.json" --format=md
expect 0 '"interrupted": true' -- report "$tmp/sigint.txt" --format=json
expect 0 "--- INTERRUPTED: the run was stopped" -- report "$tmp/sigint.json" --format=text
expect 0 "" -- compare "$tmp/sigint.json" "$tmp/sigterm.json"

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]

#!/usr/bin/env bash
# test_sweep_cli.sh - --engine-opt on the command line (issue 25): an
# option for an engine the run does not run is said, not ignored, and a
# sweep too large for a run says what it counts against what.  Only
# --list and --help runs: nothing is timed.
# Usage: test_sweep_cli.sh path/to/rxbench
set -u
rx=$(realpath "$1")
. "$(dirname "$0")/cli_expect.sh"

lit=(run payload --scenarios=literal --sizes=64 --list=.)
if ! "$rx" "${lit[@]}" --engines=xdp >/dev/null 2>"$tmp/err"; then
	echo "test_sweep_cli: skipped: $(head -1 "$tmp/err")"
	exit 77 # xdp not built here (no libbpf)
fi
# xdp is opt-in: its option alone does not select it, list or value
expect 0 "rxbench: warning: --engine-opt xdp.action=drop,tx: xdp is not among the run's engines (--engines=xdp,... or all)" -- "${lit[@]}" --engine-opt xdp.action=drop,tx
expect 0 "rxbench: warning: --engine-opt xdp.action=tx: xdp is not among the run's engines" -- "${lit[@]}" --engine-opt xdp.action=tx
# selected: no warning, one entry per value
expect 0 "engine=xdp,action:tx" -- "${lit[@]}" --engines=xdp --engine-opt xdp.action=drop,tx
if grep -q warning "$tmp/err"; then echo "FAIL: a warning for a selected engine:"; cat "$tmp/err"; fail=$((fail + 1)); fi
# the cap counts every swept engine's entries, not the last one's
expect 2 "rxbench: --engine-opt: 9 entries of xdp and 8 of re2 make 17, more than the 16 a run holds" -- "${lit[@]}" --engines=xdp,re2 --engine-opt xdp.action=drop,tx,pass --engine-opt xdp.live=tx,all,off --engine-opt re2.max_mem=1M,2M,3M,4M,5M,6M,7M,8M
# the help says a list sweeps
expect 0 "a list V1,V2,... sweeps it" -- run --help

echo "test_sweep_cli: $pass passed, $fail failed"
[ "$fail" -eq 0 ]

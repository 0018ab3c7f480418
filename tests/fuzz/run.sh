#!/usr/bin/env bash
# run.sh - run every libFuzzer target for a bounded time on its seed corpus.
# Usage: tests/fuzz/run.sh BUILD_DIR [SECONDS] [TARGET...]
#   BUILD_DIR  configured with -DRXB_FUZZ=ON and built (`cmake --build
#              BUILD_DIR --target fuzz`); SECONDS per target (default 30).
# The seeds in corpus/<target>/ are copied to BUILD_DIR/fuzz-work/<target>/
# so new inputs never land in the repository; a crash, leak, UB report or
# timeout leaves its input in BUILD_DIR/fuzz-artifacts/ and fails the run.
# Prints one line per target, in order: executions, new corpus size,
# result.  FUZZ_JOBS targets run at a time (default 2: a 2-core machine's
# CI takes half the time).
set -u
build=$1
secs=${2:-30}
shift $(($# > 1 ? 2 : 1))
here=$(cd "$(dirname "$0")" && pwd)
jobs=${FUZZ_JOBS:-2}
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=($(cd "$here/corpus" && ls))
mkdir -p "$build/fuzz-artifacts" "$build/fuzz-work"

# fuzz_one TARGET: runs it; its summary lines go to fuzz-work/TARGET.result,
# its exit status (0 ok) to fuzz-work/TARGET.rc
fuzz_one() {
	local t=$1 bin=$build/tests/fuzz/$1 work=$build/fuzz-work/$1
	local log=$build/fuzz-work/$1.log res=$build/fuzz-work/$1.result
	if [ ! -x "$bin" ]; then
		echo "fuzz: $t: not built ($bin)" >"$res"; echo 1 >"$work.rc"; return
	fi
	mkdir -p "$work"
	cp -n "$here/corpus/$t"/* "$work"/ 2>/dev/null
	"$bin" -max_total_time="$secs" -timeout=10 -rss_limit_mb=2048 \
		-max_len=65536 -print_final_stats=1 \
		-artifact_prefix="$build/fuzz-artifacts/$t-" "$work" >"$log" 2>&1
	local rc=$?
	local execs units
	execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")
	units=$(ls "$work" | wc -l)
	if [ $rc -eq 0 ]; then
		echo "fuzz: $t: ${secs}s, ${execs:-?} executions, corpus $units: ok" >"$res"
	else
		{ echo "fuzz: $t: FAILED (exit $rc) after ${execs:-?} executions; see $log"
		  grep -m3 -E "ERROR:|SUMMARY:|runtime error" "$log"; } >"$res"
	fi
	echo $rc >"$work.rc"
}

for t in "${targets[@]}"; do
	rm -f "$build/fuzz-work/$t.rc" "$build/fuzz-work/$t.result"
	fuzz_one "$t" &
	while [ "$(jobs -rp | wc -l)" -ge "$jobs" ]; do wait -n; done
done
wait
fail=0
for t in "${targets[@]}"; do
	cat "$build/fuzz-work/$t.result" 2>/dev/null || echo "fuzz: $t: no result"
	[ "$(cat "$build/fuzz-work/$t.rc" 2>/dev/null)" = 0 ] || fail=1
done
exit $fail

#!/usr/bin/env bash
# run.sh - run every libFuzzer target for a bounded time on its seed corpus.
# Usage: tests/fuzz/run.sh BUILD_DIR [SECONDS] [TARGET...]
#   BUILD_DIR  configured with -DRXB_FUZZ=ON and built (`cmake --build
#              BUILD_DIR --target fuzz`); SECONDS per target (default 30).
# The seeds in corpus/<target>/ are copied to BUILD_DIR/fuzz-work/<target>/
# so new inputs never land in the repository; a crash, leak, UB report or
# timeout leaves its input in BUILD_DIR/fuzz-artifacts/ and fails the run.
# Prints one line per target: executions, new corpus size, result.
set -u
build=$1
secs=${2:-30}
shift $(($# > 1 ? 2 : 1))
here=$(cd "$(dirname "$0")" && pwd)
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=($(cd "$here/corpus" && ls))
mkdir -p "$build/fuzz-artifacts"
fail=0
for t in "${targets[@]}"; do
	bin=$build/tests/fuzz/$t
	work=$build/fuzz-work/$t
	log=$build/fuzz-work/$t.log
	if [ ! -x "$bin" ]; then
		echo "fuzz: $t: not built ($bin)"; fail=1; continue
	fi
	mkdir -p "$work"
	cp -n "$here/corpus/$t"/* "$work"/ 2>/dev/null
	"$bin" -max_total_time="$secs" -timeout=10 -rss_limit_mb=2048 \
		-max_len=65536 -print_final_stats=1 \
		-artifact_prefix="$build/fuzz-artifacts/$t-" "$work" >"$log" 2>&1
	rc=$?
	execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")
	units=$(ls "$work" | wc -l)
	if [ $rc -eq 0 ]; then
		echo "fuzz: $t: ${secs}s, ${execs:-?} executions, corpus $units: ok"
	else
		echo "fuzz: $t: FAILED (exit $rc) after ${execs:-?} executions; see $log"
		grep -m3 -E "ERROR:|SUMMARY:|runtime error" "$log"
		fail=1
	fi
done
exit $fail

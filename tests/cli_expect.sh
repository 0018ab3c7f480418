# cli_expect.sh - sourced by the CLI test scripts: a temporary directory
# ($tmp, removed on exit), the pass/fail counters and expect().
# The sourcing script sets rx (the rxbench binary) first.
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pass=0 fail=0

# expect CODE 'STDERR-SUBSTRING' -- ARGS...
expect() {
	local code=$1 want=$2; shift 3
	"$rx" "$@" >"$tmp/out" 2>"$tmp/err"
	local got=$?
	if [ "$got" -ne "$code" ] || ! grep -qF -- "$want" "$tmp/err" "$tmp/out"; then
		echo "FAIL: rxbench $* -> exit $got (want $code), output:"; cat "$tmp/err" "$tmp/out" | head -5
		fail=$((fail + 1))
	else
		pass=$((pass + 1))
	fi
}

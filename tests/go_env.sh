# go_env.sh - what the Go tests share (sourced by test_go_runner.sh and
# go_fqdn_side.sh, which set rx, go and cache first): their skip when
# rxbench has no go engine, and `go` run offline on tests/go.
#
#   go_skip_unless_built NAME   exit 77 (ctest's skip) naming NAME when
#                               rxbench ($rx) was built without go
#   go_in_tests VAR=V... CMD... CMD in tests/go with the build's Go cache
#                               ($cache, relative or not), no network,
#                               no module download
#   go_test_build OUT           tests/go's test binary (go test -c), linked
#                               once: each `go test -bench` links it again
#                               (1 to 2 s a run on a loaded machine)
#   go_test_run VAR=V... BIN ARGS...
#                               that binary run in tests/go as go test
#                               runs it (ARGS: -test.bench=... and so on)

go_here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)

go_skip_unless_built() {
	if "$rx" list | sed -n '/^not built:/,$p' | grep -q '^  go '; then
		echo "$1: SKIP: rxbench was built without go"
		exit 77
	fi
}

go_in_tests() {
	local abs # go wants both absolute; a caller may name a relative cache
	abs=$(mkdir -p "$cache" && cd "$cache" && pwd) || return 1
	(cd "$go_here/go" && env GOCACHE="$abs" GOPATH="$abs/path" \
		GOPROXY=off GO111MODULE=on GOFLAGS=-trimpath GOTOOLCHAIN=local "$@")
}

go_test_build() {
	go_in_tests "$go" test -c -o "$1" .
}

go_test_run() {
	(cd "$go_here/go" && env "$@")
}

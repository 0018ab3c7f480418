#!/usr/bin/env bash
# test_dns_wire_go.sh - corpora/dns_wire.c against the real miekg/dns:
# random names (tests/dns_wire_cli gen: dots, backslashes, \DDD, CR, NUL,
# 0xff and other high bytes, UTF-8, special characters, labels near 63
# bytes, names near 255) round-tripped by dns_wire_cli and by
# tests/dns_wire_go on Debian's golang-github-miekg-dns-dev, line by line
# the same.  Debian's 1.1.50 packs and unpacks as cilium/dns af788769,
# what Cilium's newest release builds, so the C side runs as 1.1.50.
# Skipped (77) without go, without the package, or with another version.
#
#   test_dns_wire_go.sh DNS_WIRE_CLI GO CACHE [NAMES [SEED]]
set -u
cli=$1 go=$2 cache=$3 names=${4:-20000} seed=${5:-20240611}
src=/usr/share/gocode/src/github.com/miekg/dns
here=$(cd "$(dirname "$0")" && pwd)

if [ -z "$go" ] || ! command -v "$go" >/dev/null; then
	echo "dns_wire_go: SKIP: no go"; exit 77
fi
if [ ! -f "$src/msg.go" ]; then
	echo "dns_wire_go: SKIP: no miekg/dns in $src (golang-github-miekg-dns-dev)"
	exit 77
fi
if ! grep -q 'Version = v{1, 1, 50}' "$src/version.go"; then
	echo "dns_wire_go: SKIP: $src is not miekg/dns 1.1.50, which this compares with"
	exit 77
fi
mkdir -p "$cache" && cache=$(cd "$cache" && pwd) || exit 1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

(cd "$here/dns_wire_go" && env GOPATH=/usr/share/gocode GO111MODULE=off \
	GOFLAGS= GOPROXY=off GOTOOLCHAIN=local GOCACHE="$cache" \
	"$go" build -o "$tmp/dns_wire_go" .) || { echo "FAIL: go build"; exit 1; }
"$cli" gen "$names" "$seed" >"$tmp/names" || exit 1
"$cli" trip 1.1.50 <"$tmp/names" >"$tmp/c" || exit 1
"$tmp/dns_wire_go" <"$tmp/names" >"$tmp/go" 2>"$tmp/go.err" || { cat "$tmp/go.err"; exit 1; }
# name, dns_wire's line, miekg/dns's line: tab-separated (a name may be "")
paste "$tmp/names" "$tmp/c" "$tmp/go" | awk -F'\t' '
	$2 != $3 { bad++; if (bad <= 5) print "FAIL: name \"" $1 "\" (hex): dns_wire " $2 ", miekg/dns " $3 }
	{ n++; split($2, w, " "); seen[w[1] == "ok" ? "ok" : w[2]]++ }
	END {
		printf "dns_wire_go: %d names: %d ok,", n, seen["ok"]
		for (k in seen) if (k != "ok") printf " %d %s", seen[k], k
		printf "; %d differ\n", bad
		exit bad > 0
	}' || exit 1
cat "$tmp/go.err"
echo "1 passed, 0 failed"

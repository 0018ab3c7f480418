#!/usr/bin/env bash
# test_xdp_engine.sh RXBENCH - the xdp engine in the payload suite (issue
# 25): the seed's scenarios give xdp rows that are verified (or
# unsupported with a reason), never an error; rules whose patterns use
# every assertion (tests/data/payload/xdp_anchors.rules: \b \B, multiline
# ^ and $, $ and \z) give xdp rows that are all verified, alone and as a
# set; as user nobody (no capabilities: bpf() refused) every xdp row is
# unsupported with the probe's one-line reason and the run still exits 0.
# Skipped (77) when rxbench was built without xdp.
set -u
rxb=$1
tmp=$(mktemp -d /tmp/test_xdp_engine.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
chmod 755 "$tmp"
fail=0

if ! "$rxb" list 2>/dev/null | grep -qE '^  xdp +in-process'; then
	echo "test_xdp_engine: SKIP: rxbench built without xdp" \
	     "($("$rxb" list 2>&1 | grep -m1 'xdp' || echo 'not listed'))"
	exit 77
fi

# check JSON WANT: every xdp row of the results file has the status WANT
# ("ok" verified, or "unsupported" with a reason; "verified": ok and
# verified; "refused": unsupported naming bpf()), and there is at least
# one.
check() {
	python3 - "$1" "$2" <<'EOF'
import json, sys
rows = [b for b in json.load(open(sys.argv[1]))["benchmarks"]
        if b.get("keys", {}).get("engine") == "xdp"]
want, bad = sys.argv[2], []
for b in rows:
    st, msg, ver = b["status"], b.get("message") or "", b.get("verified") or ""
    if want == "refused":
        good = st == "unsupported" and "bpf() refused" in msg
    elif want == "verified":
        good = st == "ok" and ver
    else:
        good = (st == "ok" and ver) or (st == "unsupported" and msg)
    if not good:
        bad.append("%s: %s %r %r" % (b["name"], st, msg[:120], ver[:60]))
print("%d xdp rows, %d not %s" % (len(rows), len(bad), want))
for line in bad:
    print("  " + line)
sys.exit(0 if rows and not bad else 1)
EOF
}

# run_check NAME WANT ARGS...: rxbench ARGS exits 0 and check WANT holds
# on its results ($tmp/NAME.json); else fail=1 with the run's last lines.
run_check() {
	local name=$1 want=$2 rc
	shift 2
	"$rxb" "$@" -o "$tmp/$name.json" >"$tmp/$name.txt" 2>&1
	rc=$?
	if [ "$rc" -ne 0 ]; then
		echo "test_xdp_engine: FAIL: $* exited $rc"
		tail -5 "$tmp/$name.txt"
		fail=1
	elif ! check "$tmp/$name.json" "$want"; then
		echo "test_xdp_engine: FAIL: $name: an xdp row not $want"
		fail=1
	fi
}

run=(run payload --engines=xdp --scenarios=base,literal,full-scan,real-life
     --benchtime=1x)
run_check root ok "${run[@]}"
# the assertions: every rule alone (per-rule) and the set (real-life)
run_check anchors verified run payload --engines=xdp --rules \
	"$(dirname "$0")/data/payload/xdp_anchors.rules" --rules-format=snort \
	--scenarios=real-life,per-rule --sizes=64,1500 --packets=4096 \
	--benchtime=1x

if [ "$(id -u)" -ne 0 ] || ! command -v setpriv >/dev/null; then
	echo "test_xdp_engine: not root or no setpriv: the run as nobody skipped"
	exit $fail
fi
# as nobody: 4,096 packets a size (the rows are refused at compile; the
# floors still run)
mkdir "$tmp/nobody" && chmod 777 "$tmp/nobody"
rxb_abs=$(readlink -f "$rxb")
(cd "$tmp/nobody" &&
 setpriv --reuid=65534 --regid=65534 --clear-groups --inh-caps=-all \
	--bounding-set=-all "$rxb_abs" "${run[@]}" --packets=4096 \
	-o "$tmp/nobody/nobody.json" >"$tmp/nobody.txt" 2>&1)
rc=$?
if [ "$rc" -ne 0 ]; then
	echo "test_xdp_engine: FAIL: as nobody, exited $rc"
	tail -5 "$tmp/nobody.txt"
	fail=1
elif ! check "$tmp/nobody/nobody.json" refused; then
	echo "test_xdp_engine: FAIL: as nobody, an xdp row not refused"
	fail=1
else
	grep -m1 'bpf() refused' "$tmp/nobody.txt"
fi
[ "$fail" -eq 0 ] && echo "test_xdp_engine: ok"
exit $fail

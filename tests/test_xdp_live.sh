#!/usr/bin/env bash
# test_xdp_live.sh RXBENCH - XDP_TX on live frames (issue 25): a payload
# literal run with --engine-opt xdp.action=tx times its rows on live
# frames on a veth pair in a netns of the run's own, and each row is ok
# and verified, which it is only when the veth peer received every frame
# that returned XDP_TX (engines/xdp.c: live_verify; a short count is an
# error row).  The version line says so.  Without CAP_SYS_ADMIN (root's
# bounding set less sys_admin: bpf() still works, unshare does not) the
# same run falls back to plain test_run with the reason in the version
# line and still exits 0.  Skipped (77) without xdp, where bpf() is
# refused, or where this kernel or process refuses the netns or live
# frames.
set -u
rxb=$1
tmp=$(mktemp -d /tmp/test_xdp_live.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
fail=0

if ! "$rxb" list 2>/dev/null | grep -qE '^  xdp +in-process'; then
	echo "test_xdp_live: SKIP: rxbench built without xdp"
	exit 77
fi

# check JSON WANT: WANT "live" every xdp row ok and verified, the version
# line naming live frames; "plain" the same rows with the version line
# naming the refusal.  Prints the version line; exit 77 when live frames
# were refused where WANT is live, 1 on a failure.
check() {
	python3 - "$1" "$2" <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
want = sys.argv[2]
ver = d.get("config", {}).get("xdp-version", "")
rows = [b for b in d["benchmarks"]
        if b.get("keys", {}).get("engine", "").startswith("xdp")]
print("xdp-version: " + ver)
live = "tx timed on live frames" in ver
if want == "live" and not live:
    print("SKIP: live frames refused here")
    sys.exit(77)
if want == "plain" and any("bpf() refused" in (b.get("message") or "")
                          for b in rows):
    print("bpf() refused without CAP_SYS_ADMIN: the fallback not tried")
    sys.exit(0)
if want == "plain" and "live frames refused (" not in ver:
    print("FAIL: the version line names no refusal")
    sys.exit(1)
bad = [b for b in rows
       if b["status"] != "ok" or not b.get("verified") or
       b["keys"]["engine"] != "xdp,action:tx"]
for b in bad:
    print("  %s: %s %r" % (b["name"], b["status"], b.get("message")))
print("%d xdp rows, %d not ok and verified" % (len(rows), len(bad)))
sys.exit(0 if rows and not bad else 1)
EOF
}

run=(run payload --engines=xdp --engine-opt xdp.action=tx --scenarios=literal
     --sizes=64,1500 --packets=4096 --benchtime=20ms --count=1)
"$rxb" "${run[@]}" -o "$tmp/live.json" >"$tmp/live.txt" 2>&1
rc=$?
if [ "$rc" -ne 0 ]; then
	echo "test_xdp_live: FAIL: ${run[*]} exited $rc"
	grep -m3 'rxbench:' "$tmp/live.txt"
	exit 1
fi
check "$tmp/live.json" live
rc=$?
if [ "$rc" -eq 77 ]; then
	echo "test_xdp_live: SKIP: bpf(), the netns or live frames refused"
	exit 77
fi
[ "$rc" -eq 0 ] || fail=1

if [ "$(id -u)" -ne 0 ] || ! command -v setpriv >/dev/null; then
	echo "test_xdp_live: not root or no setpriv: the fallback run skipped"
elif ! setpriv --bounding-set=-sys_admin true 2>/dev/null; then
	echo "test_xdp_live: setpriv cannot drop sys_admin: fallback skipped"
else
	setpriv --bounding-set=-sys_admin "$rxb" "${run[@]}" \
		-o "$tmp/plain.json" >"$tmp/plain.txt" 2>&1
	rc=$?
	if [ "$rc" -ne 0 ]; then
		echo "test_xdp_live: FAIL: without CAP_SYS_ADMIN, exited $rc"
		grep -m3 'rxbench:' "$tmp/plain.txt"
		fail=1
	elif ! check "$tmp/plain.json" plain; then
		echo "test_xdp_live: FAIL: without CAP_SYS_ADMIN, no fallback"
		fail=1
	fi
fi
[ "$fail" -eq 0 ] && echo "test_xdp_live: ok"
exit $fail

#!/usr/bin/env bash
# test_xdp_engine.sh RXBENCH - the xdp engine in the payload suite (issue
# 25): the seed's scenarios give xdp rows that are verified (or
# unsupported with a reason), never an error; rules whose patterns use
# every assertion (tests/data/payload/xdp_anchors.rules: \b \B, multiline
# ^ and $, $ and \z) give xdp rows that are all verified, alone and as a
# set; rules of different flags (tests/data/payload/xdp_flags.rules) are
# one set for xdp, its real-life rows verified and timed; under
# --mode=stream a flow whose reassembled payload is over the bound (3466
# bytes) is unsupported with the engine's reason, the flows and packets
# within it verified and timed; as user nobody (no capabilities: bpf()
# refused) every xdp row is unsupported with the probe's one-line
# reason and the run still exits 0.
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
# rules of different flags: one set for xdp, its real-life rows timed
run_check flags verified run payload --engines=xdp --rules \
	"$(dirname "$0")/data/payload/xdp_flags.rules" --rules-format=snort \
	--scenarios=real-life --sizes=64,1500 --packets=4096 --benchtime=1x
# ... and such a set past xdp's caps (40 patterns of 2^10 states or so
# each, one DFA apiece: more than 32) says each group's flags, not the
# first group's alone ("the set of 40 patterns (flags 0x1)" for 14 /i
# and 26 plain ones); skipped where bpf() is refused
awk 'BEGIN { for (i = 0; i < 40; i++)
	printf "alert tcp any any -> any any (msg:\"g%d\"; pcre:\"/%c%c[^\\n]{10}Z/%s\"; sid:%d;)\n",
	       i, 97 + i % 26, 97 + int(i / 26), i % 3 ? "" : "i", 900 + i }' >"$tmp/groups.rules"
"$rxb" run payload --engines=xdp --rules "$tmp/groups.rules" \
	--rules-format=snort --scenarios=real-life --sizes=64 --packets=4096 \
	--benchtime=1x >"$tmp/groups.txt" 2>&1
if ! grep -q 'bpf() refused' "$tmp/groups.txt" &&
   ! grep -q 'the set of 40 patterns (flags 0x1, 0) does not compile: pattern .*: the set needs more than 32 DFAs' "$tmp/groups.txt"; then
	echo "test_xdp_engine: FAIL: a set of two flag groups past the caps:"
	grep -m1 'does not compile' "$tmp/groups.txt"
	fail=1
fi

# Flows over the payload bound (3466 bytes): under --mode=stream xdp
# scans each flow reassembled, so at 1500 bytes a flow of 3 packets or
# more is over it; such a row says the engine's reason before anything
# compiles, in a packet's words, while every row within the bound (the
# flows at 256 bytes, the packets at both sizes) is verified and timed.
# Skipped with a message where bpf() is refused.
"$rxb" run payload --engines=xdp --scenarios=literal,real-life \
	--mode=block,stream --sizes=256,1500 --packets=4096 --benchtime=1x \
	-o "$tmp/flows.json" >"$tmp/flows.txt" 2>&1
rc=$?
if [ "$rc" -ne 0 ]; then
	echo "test_xdp_engine: FAIL: the flows' run exited $rc"
	tail -5 "$tmp/flows.txt"
	fail=1
elif ! python3 - "$tmp/flows.json" <<'EOF'
import json, re, sys
rows = {b["name"]: b for b in json.load(open(sys.argv[1]))["benchmarks"]
        if b.get("keys", {}).get("engine") == "xdp"}
if any("bpf() refused" in (b.get("message") or "") for b in rows.values()):
    print("flows over the bound: skipped: bpf() refused here")
    sys.exit(0)
bound = re.compile(r": xdp cannot time this op: payload of (\d+) bytes: "
                   r"test_run takes frames of at most 3520 bytes \(3466 of "
                   r"payload after the 54 bytes of headers\)$")
bad = []
for sc in ("literal", "real-life"):
    for size, mode in (("256", ""), ("1500", ""), ("256", "reassembled"),
                       ("1500", "reassembled")):
        name = "Payload/scenario=%s/size=%s%s/engine=xdp" % (
            sc, size, "/mode=" + mode if mode else "")
        b = rows.get(name)
        msg = (b or {}).get("message") or ""
        m = bound.search(msg)
        if b is None:
            bad.append("%s: no row" % name)
        elif size == "1500" and mode:
            if b["status"] != "unsupported" or not m or int(m.group(1)) <= 3466:
                bad.append("%s: %s %r" % (name, b["status"], msg[:160]))
        elif b["status"] != "ok" or not b.get("verified") or \
                not b.get("iterations"):
            bad.append("%s: %s %r, not verified and timed" % (
                name, b["status"], msg[:160]))
for line in bad:
    print("  " + line)
print("flows over the bound: %d xdp rows, %d wrong" % (len(rows), len(bad)))
sys.exit(1 if bad else 0)
EOF
then
	echo "test_xdp_engine: FAIL: the flows over the bound"
	fail=1
fi

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
# its version line says the refusal, not how rows it cannot run would be
# timed (it said "timed in the kernel ... the programs not held ...")
if ! grep -q '^xdp-version: libbpf .*, bpf() refused .*: no xdp row runs$' "$tmp/nobody.txt" ||
   grep -q '^xdp-version: .*timed in the kernel' "$tmp/nobody.txt"; then
	echo "test_xdp_engine: FAIL: as nobody, the version line: $(grep -m1 '^xdp-version' "$tmp/nobody.txt")"
	fail=1
fi
[ "$fail" -eq 0 ] && echo "test_xdp_engine: ok"
exit $fail

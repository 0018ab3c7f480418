#!/usr/bin/env bash
# test_xdp_unpriv.sh CLI - where bpf() is refused, the XDP probe says why
# in one line and exits 77 (what the tests and, in phase 2, the xdp rows
# show), never a crash: run as nobody (uid 65534, no capabilities) with
# setpriv when we are root, as ourselves otherwise.  Skipped (77) when
# setpriv is missing, or when even nobody may load BPF programs
# (kernel.unprivileged_bpf_disabled=0 and an unprivileged XDP load
# allowed: nothing to show).
set -u
cli=$1
if [ "$(id -u)" -eq 0 ]; then
	if ! command -v setpriv >/dev/null; then
		echo "test_xdp_unpriv: SKIP: no setpriv (util-linux)"
		exit 77
	fi
	run=(setpriv --reuid=65534 --regid=65534 --clear-groups
	     --inh-caps=-all --bounding-set=-all "$cli" probe)
else
	run=("$cli" probe)
fi
out=$("${run[@]}" 2>&1)
rc=$?
echo "$out"
if [ "$rc" -eq 0 ]; then
	echo "test_xdp_unpriv: SKIP: bpf() is allowed to this user here"
	exit 77
fi
if [ "$rc" -ne 77 ]; then
	echo "test_xdp_unpriv: FAIL: probe exited $rc, not 77"
	exit 1
fi
case $out in
"xdp: unsupported: bpf() refused"*) echo "test_xdp_unpriv: ok"; exit 0 ;;
*) echo "test_xdp_unpriv: FAIL: not the one-line refusal"; exit 1 ;;
esac

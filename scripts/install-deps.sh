#!/usr/bin/env bash
# install-deps.sh - install the Debian packages rxbench builds and tests
# with, only those missing.  Called by `make bench` and `make test`; safe to
# run again.  Needs root (or sudo) on Debian/Ubuntu; elsewhere it only
# reports what is missing.
#
#   scripts/install-deps.sh [build|test]   (test adds the test-only tools)
set -euo pipefail

arch=$(dpkg --print-architecture 2>/dev/null || uname -m)
pkgs=(cmake make gcc g++ pkg-config golang-go libre2-dev libpcre2-dev libtre-dev
      libonig-dev libboost-regex-dev libyaml-dev libpcap-dev libjansson-dev nettle-dev valgrind
      publicsuffix cargo librust-regex-dev librust-aho-corasick-dev
      librust-memchr-dev)
# clang (its BPF target) + libbpf-dev: the payload suite's XDP programs
# (bpf/, engines/xdp_load.c), left out without them
pkgs+=(clang libbpf-dev)
# Hyperscan is x86-only; Vectorscan is the drop-in fork for the others.
if [ "$arch" = amd64 ]; then pkgs+=(libhyperscan-dev); else pkgs+=(libvectorscan-dev); fi
if [ "${1:-build}" = test ]; then
	# chromium + node: the HTML report is checked in headless Chromium;
	# modsecurity-crs: real ModSecurity rules for the payload suite's --rules
	pkgs+=(libcriterion-dev chromium modsecurity-crs)
	# python3 + python3-regex: the differential fuzzer (tests/difffuzz.py)
	# and the reference matcher's oracle (tests/reference_oracle.py)
	pkgs+=(python3 python3-regex)
	# python3-jsonschema: results validated against docs/results.schema.json
	pkgs+=(python3-jsonschema)
	# golang-github-miekg-dns-dev: the fqdn suite's --query-form=wire
	# (corpora/dns_wire.c) checked against the real miekg/dns
	pkgs+=(golang-github-miekg-dns-dev)
	# libmodsecurity-dev: the --rules-target=variables reading checked
	# against the real libmodsecurity3 (tests/modsec_oracle.c)
	pkgs+=(libmodsecurity-dev)
	# apache2 + libapache2-mod-security2: the --modsec=2 reading checked
	# against the real mod_security2 (tests/modsec2_diff.py starts its own
	# apache2 -X on 127.0.0.1 and never uses the service).  Installing
	# apache2 sets up its service: with systemd it is started on port 80;
	# in a container without systemd invoke-rc.d starts /etc/init.d/apache2
	# unless /usr/sbin/policy-rc.d refuses (Debian's Docker images ship one
	# that does: then nothing listens).
	pkgs+=(apache2 libapache2-mod-security2)
	command -v node >/dev/null || pkgs+=(nodejs)
fi

missing=()
for p in "${pkgs[@]}"; do
	if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed'; then
		missing+=("$p")
	fi
done
[ ${#missing[@]} -eq 0 ] && exit 0

echo "install-deps: installing ${missing[*]}" >&2
if ! command -v apt-get >/dev/null; then
	echo "install-deps: no apt-get here; install these yourself: ${missing[*]}" >&2
	exit 1
fi
sudo=
if [ "$(id -u)" -ne 0 ]; then sudo=sudo; fi
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq
$sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"

#!/usr/bin/env bash
# test_cli.sh - the command line as a user drives it: exit codes and the
# one-line messages for bad input.  Usage: test_cli.sh path/to/rxbench
set -u
rx=$1
. "$(dirname "$0")/cli_expect.sh"

fast=(--benchtime=3x --no-alloc)
expect 2 "unknown engine 'nope'" -- run scan --engines=nope
expect 2 "engines built:" -- run scan --engines=nope
expect 2 "unknown suite 'nosuch'" -- run nosuch
expect 2 "unknown command 'frob'" -- frob
expect 2 "--benchtime=abc" -- run scan --benchtime=abc
expect 2 "--count=-1" -- run scan --count=-1
expect 2 "--count=0" -- run scan --count=0
expect 2 "--count=99999999999999999999" -- run scan --count=99999999999999999999
expect 2 "$tmp/missing.txt: No such file or directory" -- scan --pattern x --corpus "$tmp/missing.txt"
expect 2 "$tmp: is a directory" -- scan --pattern x --corpus "$tmp"
expect 2 "unknown option --frobnicate" -- run scan --frobnicate=1
expect 2 "--model=lines" -- scan --model=lines
expect 0 "usage: rxbench run" -- run --help
expect 0 "engines:" -- list

# an empty corpus is valid: every engine agrees on 0
: >"$tmp/empty.txt"
expect 0 "PASS" -- scan --engines=pcre2 --pattern abc --corpus "$tmp/empty.txt" "${fast[@]}"

# an invalid pattern is an error row; the run goes on and exits 1
printf 'hello world\nabc abc\n' >"$tmp/c.txt"
expect 1 "pattern a(b: missing closing parenthesis (offset 3)" -- scan --engines=pcre2,pcre2-jit --pattern 'a(b' --pattern abc --corpus "$tmp/c.txt" "${fast[@]}"
grep -q 'Benchmark.*Scan/engine=pcre2/pattern=abc.* 2.000 matches' "$tmp/out" || { echo "FAIL: valid pattern not timed after an invalid one"; fail=$((fail + 1)); }

# grep model counts lines
expect 0 "1.000 matches" -- scan --engines=pcre2 --pattern abc --model grep --corpus "$tmp/c.txt" "${fast[@]}"

# the JSON results file is written
expect 0 "PASS" -- scan --engines=pcre2 --pattern abc --corpus "$tmp/c.txt" "${fast[@]}" -o "$tmp/r.json"
grep -q '"format": "rxbench-results"' "$tmp/r.json" || { echo "FAIL: no JSON results"; fail=$((fail + 1)); }

# the payload suite: its options, inputs and verification
small=(--sizes=64 --packets=500 "${fast[@]}")
expect 2 "--sizes=64,abc: use packet sizes" -- run payload --sizes=64,abc
expect 2 "--sizes: '8' is not a number from 16 to 65535" -- run payload --sizes=8
expect 2 "--match-rate=abc: not a rate" -- run payload --match-rate=abc
expect 2 "--match-rate=101%: not a rate" -- run payload --match-rate=101%
expect 2 "--link=0: not a link speed" -- run payload --link=0
expect 2 "unknown scenario 'nope'" -- run payload --scenarios=base,nope
expect 2 "$tmp/missing.pcap: No such file or directory" -- run payload --pcap "$tmp/missing.pcap"
expect 2 "$tmp/c.txt: unknown file format" -- run payload --pcap "$tmp/c.txt"
expect 2 "exclude each other" -- run payload --pcap data/payload/http.pcap --sizes=64
expect 2 "data/payload/bad_flag.rules:2: pcre: unsupported flag 'Q'" -- run payload --rules data/payload/bad_flag.rules
expect 2 "$tmp/missing.rules: No such file or directory" -- run payload --rules "$tmp/missing.rules"
expect 0 "BenchmarkPayload/scenario=full-scan/size=64/engine=pcre2-jit" -- run payload --engines=pcre2,pcre2-jit "${small[@]}"
grep -q '^| *64 | *148.8 |' "$tmp/out" || { echo "FAIL: no payload table row for 64 bytes"; fail=$((fail + 1)); }
# the noop engine answers wrongly: MISMATCH rows, exit 1, the others still timed
expect 1 "mismatch: noop: /private/, size 64: 0 matching packets, reference 5 (= planted)" -- run payload --engines=pcre2,noop "${small[@]}"
grep -q 'BenchmarkPayload/scenario=literal/size=64/engine=pcre2 ' "$tmp/out" || { echo "FAIL: pcre2 not timed next to a mismatching engine"; fail=$((fail + 1)); }
expect 0 "BenchmarkPayload/scenario=real-life/size=pcap/engine=pcre2" -- run payload --engines=pcre2,pcre2-jit --pcap data/payload/http.pcap "${fast[@]}"
expect 0 "10.00 rules" -- run payload --engines=pcre2 --pcap data/payload/http.pcap --scenarios=real-life "${fast[@]}"
expect 0 "BenchmarkPayload/scenario=real-life/size=64/engine=pcre2" -- run payload --engines=pcre2 --rules data/payload/snort.rules --scenarios=real-life "${small[@]}"
expect 0 "ns/packet above touching its bytes" -- run payload --engines=pcre2 --scenarios=base,touch "${small[@]}"

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]

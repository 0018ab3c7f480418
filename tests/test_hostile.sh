#!/usr/bin/env bash
# test_hostile.sh - hostile inputs thrown at the built binary (issue 7):
# patterns engines must refuse or survive, broken and unreadable files for
# every file option, and junk numbers for every numeric option.  Each run
# is bounded in time (timeout) and, outside sanitizer builds, in address
# space (ulimit -v): a hang or a runaway allocation fails the test.
# Usage: test_hostile.sh path/to/rxbench
# RXB_HOSTILE_FULL=1: the full sizes (100,000 patterns and rules, a 10 MiB
# line, a pattern of 1 MiB, the bound) and, beside the 2 s run of every
# engine, one engine's catastrophic pattern at the default --timeout
# (ctest -L long's test_hostile_full); by default 10,000, 2 MiB and
# 256 KiB, the same edges (over the 1 MiB pattern bound, a pattern out of
# the reference's and PCRE2's reach, a pattern set all verified, a
# timeout row).
set -u
real=$1
. "$(dirname "$0")/cli_expect.sh"
# Debian's python3 when there is one: a version manager's shim on PATH
# (pyenv's) costs a second or more a start, and the wrapper below
# starts once per rxbench run
py=/usr/bin/python3
[ -x "$py" ] || py=$(command -v python3)
python3() { "$py" "$@"; }
npat=10000 long_mib=2 big_shift=18 full=0
if [ "${RXB_HOSTILE_FULL:-0}" = 1 ]; then
	npat=100000 long_mib=10 big_shift=20 full=1
fi
last=$((npat - 1))
long_bytes=$((long_mib << 20))

# Every rxbench below runs through this wrapper: at most 300 s, and a
# peak resident set of at most 2 GiB (6 GiB in sanitizer builds, whose
# shadow memory triples it).  Address-space limits (ulimit -v) cannot be
# used: PCRE2's JIT reserves a 1 MiB stack per pattern, ASan terabytes.
# It starts once per rxbench run, so it imports only os, signal and sys
# (-S: no site; subprocess doubled its start): fork, exec, and wait4 for
# the child's own rusage.  --batch FILE PREFIX runs FILE's command lines
# (one a line, arguments split by tabs) one after the other, each bound
# alike, the Nth with PREFIX.N.out, .err and .rc: one start for many.
limit_mb=2048
sanitized=0
if grep -qa __asan_init "$real"; then
	limit_mb=6144
	sanitized=1
fi
cat >"$tmp/rxbench" <<EOF
#!$py -S
import os, signal, sys
child = [0, False]  # pid, killed for its time
def too_long(sig, frame):
    os.kill(child[0], signal.SIGKILL)
    child[1] = True
signal.signal(signal.SIGALRM, too_long)
def bounded(args, out, err):
    pid = os.fork()
    if pid == 0:
        try:
            os.dup2(out, 1)
            os.dup2(err, 2)
            os.execv("$real", ["$real"] + args)
        finally:
            os._exit(127)
    child[:] = [pid, False]
    signal.alarm(300)
    _, status, usage = os.wait4(pid, 0)
    signal.alarm(0)
    if child[1]:
        os.write(err, b"rxbench: still running after 300 s: killed\\n")
        return 124
    peak = usage.ru_maxrss // 1024
    if peak > $limit_mb:
        os.write(err, b"rxbench: peak RSS %d MiB, over the %d MiB bound\\n" % (peak, $limit_mb))
        return 125
    return os.WEXITSTATUS(status) if os.WIFEXITED(status) else 128 + os.WTERMSIG(status)
if sys.argv[1:2] != ["--batch"]:
    sys.exit(bounded(sys.argv[1:], 1, 2))
for n, line in enumerate(open(sys.argv[2]).read().splitlines()):
    out = os.open("%s.%d.out" % (sys.argv[3], n), os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
    err = os.open("%s.%d.err" % (sys.argv[3], n), os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
    rc = bounded(line.split("\t"), out, err)
    os.close(out)
    os.close(err)
    open("%s.%d.rc" % (sys.argv[3], n), "w").write("%d\n" % rc)
EOF
chmod +x "$tmp/rxbench"
rx=$tmp/rxbench

fast=(--benchtime=1x --no-alloc)
engines=$("$real" list | awk '/^engines:/ {on = 1; next} /^$/ {on = 0}
	on && $1 != "name" && $1 != "noop" && $1 != "crash" && $1 != "hang" {print $1}')
all=$(echo $engines | tr ' ' ,)
# the engines with a count (scan's rows): xdp has none (issue 25)
counting=$(echo $engines | tr ' ' '\n' | grep -vx xdp)
t0=$SECONDS
section() { echo "== $1 (at ${SECONDS}s)"; }
check() { # check 'DESCRIPTION' COMMAND...: a shell condition on the output
	local what=$1; shift
	if "$@"; then pass=$((pass + 1)); else echo "FAIL: $what"; fail=$((fail + 1)); fi
}
lacks() { ! "$@"; }
# has ENGINE PATTERN-NAME: the engine has a timed line or a status row
has_row() { grep -qF -- "engine=$1/pattern=$2" "$tmp/out"; }

# ---- patterns -------------------------------------------------------------
section patterns
printf 'hello world\nabc abc\naaa!\n' >"$tmp/c.txt"

# invalid syntax (what the reference's parser, PCRE2's syntax, refuses):
# one line per pattern naming it and the offset, before any engine runs,
# and nothing on stdout (each engine's own compile error for such a
# pattern is tests/test_engines.c's invalid_pattern_is_a_compile_error)
bad=('a(b' '[z-a]' '*a' 'a{3,2}' '(?<' 'a\' '(?P<>x)' '[[:nope:]]')
args=()
for p in "${bad[@]}"; do args+=(--pattern "$p"); done
expect 2 "rxbench: --pattern: pattern a(b: missing closing parenthesis at offset 3 (no engine ran)" -- scan --engines="$all" "${args[@]}" --pattern abc --corpus "$tmp/c.txt" "${fast[@]}"
check "invalid patterns: one line each" test "$(grep -c '(no engine ran)$' "$tmp/err")" -eq ${#bad[@]}
check "invalid patterns: nothing on stdout" test ! -s "$tmp/out"

section catastrophic
# catastrophic backtracking: a match limit row, or linear time; never a
# hang: pcre2-dfa and python-re are timeout rows, here after 2 s rather
# than the default 60 s a sample (each row waits it out; the full run
# waits the default out once, on pcre2-dfa below)
python3 -c "print('a' * 5000 + '!')" >"$tmp/aaa.txt"
expect 1 "onig: pattern (a+)+\$: match limit" -- scan --engines="$all" --pattern '(a+)+$' --pattern 'aaa!' --corpus "$tmp/aaa.txt" "${fast[@]}" --timeout=2s
for e in $counting; do
	check "$e: (a+)+\$ neither timed nor a limit row" has_row "$e" '(a+)+$'
	check "$e: aaa! not timed after (a+)+\$" grep -q "^BenchmarkScan/engine=$e/pattern=aaa![[:space:]].* 1.000 matches" "$tmp/out"
done
if [ "$full" = 1 ]; then # the default --timeout kills it too
	expect 1 "timeout: pcre2-dfa: pattern (a+)+\$: no answer within 60s" -- scan --engines=pcre2-dfa --pattern '(a+)+$' --corpus "$tmp/aaa.txt" "${fast[@]}"
fi

# a 1 MiB pattern (256 KiB by default: re2 alone compiles 1 MiB in 30 s
# on a loaded machine; 256 KiB is as far out of the reference's and
# PCRE2's reach): compiled or refused with the engine's message.
# Oniguruma grows a literal 16 bytes at a time: glibc reallocs in place,
# ASan copies every time (0.06 s becomes minutes), so not under ASan:
# the pattern is out of the reference's reach (too large), and its vote
# asks every engine built, onig too, whatever --engines says.
if [ $sanitized -eq 1 ]; then
	echo "note: sanitizer build, the 1 MiB pattern case left out (onig votes)"
else
	python3 -c "
import random
random.seed(1)
print(''.join(random.choice('abcdefghij') for _ in range(1 << $big_shift)))" >"$tmp/big.pat"
	expect 1 "pcre2: pattern cjbebhhhgdbhaggjahedjbfaaaiagdga: regular expression is too large" -- scan --engines="$(echo $engines | tr ' ' ,)" --patterns-file "$tmp/big.pat" --corpus "$tmp/c.txt" "${fast[@]}"
	for e in $engines; do
		check "$e: no row for the 1 MiB pattern" has_row "$e" cjbebhhhgdbhaggjahedjbfaaaiagdga
	done
fi
# one byte more is refused at load, naming the file and line
{ echo abc; python3 -c "print('a' * ((1 << 20) + 1))"; } >"$tmp/bigger.pat"
expect 2 "$tmp/bigger.pat:2: pattern of 1048577 bytes, longer than 1048576 (1 MiB)" -- scan --patterns-file "$tmp/bigger.pat" --corpus "$tmp/c.txt" "${fast[@]}"

section "$npat patterns"
# $npat patterns: all compiled and verified, the last 10 timed
python3 -c "
for i in range($npat): print('w%dx[a-c]+' % i)" >"$tmp/100k.pat"
printf 'w%dxab w5xc\n' $last >"$tmp/w.txt"
expect 0 "BenchmarkScan/engine=onig/pattern=w${last}x[a-c]+" -- scan --engines=re2,pcre2-jit,onig --patterns-file "$tmp/100k.pat" --corpus "$tmp/w.txt" --bench "Scan/./pattern=w${last%?}[0-9]x" "${fast[@]}"
check "$npat patterns: not 30 timed lines" [ "$(grep -c '^BenchmarkScan/' "$tmp/out")" -eq 30 ]
check "$npat patterns: w${last}x did not match once" grep -q "^BenchmarkScan/engine=re2/pattern=w${last}x\\[a-c\\]+[[:space:]].* 1.000 matches" "$tmp/out"

# NUL bytes inside a pattern: engines that take C strings say so
printf 'a\0b\nabc\n' >"$tmp/nul.pat"
printf 'xa\0by abc\n' >"$tmp/nul.txt"
expect 0 "unsupported: hyperscan: pattern a_b: needs nul-in-pattern, which hyperscan lacks" -- scan --engines="$all" --patterns-file "$tmp/nul.pat" --corpus "$tmp/nul.txt" "${fast[@]}"
check "posix: no NUL message" grep -q 'unsupported: posix: pattern a_b: needs nul-in-pattern, which posix lacks' "$tmp/out"
check "pcre2: a\\0b not timed" grep -q '^BenchmarkScan/engine=pcre2/pattern=a_b[[:space:]].* 1.000 matches' "$tmp/out"

# bytes that are not UTF-8: plain bytes by default; in UTF-8 mode the
# pattern is refused before any engine runs (each engine's own refusal:
# tests/test_engines.c invalid_utf8_pattern_is_a_compile_error), and a
# corpus that is not UTF-8 is refused
printf 'x\xff\xfey\nabc\n' >"$tmp/bytes.pat"
printf 'x\xff\xfey abc\n' >"$tmp/bytes.txt"
printf 'x\xc3\xa9y abc\n' >"$tmp/utf8.txt"
expect 0 "PASS" -- scan --engines="$all" --patterns-file "$tmp/bytes.pat" --corpus "$tmp/bytes.txt" "${fast[@]}"
for e in $counting; do
	check "$e: x\\xff\\xfey not timed as bytes" grep -q "^BenchmarkScan/engine=$e/pattern=x__y[[:space:]].* 1.000 matches" "$tmp/out"
done
expect 2 "$tmp/bytes.txt: not UTF-8 at byte 1 (--flags=u needs a UTF-8 corpus)" -- scan --flags=u --patterns-file "$tmp/bytes.pat" --corpus "$tmp/bytes.txt" "${fast[@]}"
expect 2 "$tmp/bytes.pat:1: pattern x\\xff\\xfey: invalid UTF-8 in the pattern at offset 1 (no engine ran)" -- scan --flags=u --engines="$all" --patterns-file "$tmp/bytes.pat" --corpus "$tmp/utf8.txt" "${fast[@]}"
check "UTF-8 mode: nothing on stdout for an invalid pattern" test ! -s "$tmp/out"

section "payload rules"
# the payload suite: a rule every engine refuses is reported per engine
# and the real-life rows run the other rules; $npat rules load
printf 'a(b\nabc\n' >"$tmp/bad.rules"
small=(--scenarios=real-life --sizes=64 --packets=200 "${fast[@]}")
expect 0 "unsupported: pcre2 cannot compile rule bad.rules:1 (${tmp}/bad.rules:1): missing closing parenthesis (offset 3)" -- run payload --engines="$all" --rules "$tmp/bad.rules" "${small[@]}"
for e in $engines; do
	check "payload: $e not timed next to a bad rule" grep -q "^BenchmarkPayload/scenario=real-life/size=64/engine=$e[[:space:]]" "$tmp/out"
done
sed 's/^/w/' "$tmp/100k.pat" >"$tmp/100k.rules"
expect 0 "$npat rules" -- run payload --engines=re2,onig --rules "$tmp/100k.rules" "${small[@]}"

# ---- files ----------------------------------------------------------------
section files
python3 -c "
import random
random.seed(7)
open('$tmp/garbage.bin', 'wb').write(bytes(random.randrange(256) for _ in range(4096)))"
python3 -c "print('a' * $long_bytes)" >"$tmp/long.txt"
: >"$tmp/empty"
mkdir "$tmp/dir"
head -c 400 data/payload/http.pcap >"$tmp/trunc.pcap"
head -c 1500 data/report/old.json >"$tmp/trunc.json"
printf 'alert tcp any any -> any any (msg:"x"; pcre:"/a/' >"$tmp/trunc.rules"
printf 'spec:\n  egress:\n  - toFQDNs:\n    - matchName: "exa' >"$tmp/trunc.yaml"
head -c 30 data/fqdn/queries.txt >"$tmp/trunc.queries"
old=data/report/old.json

# --corpus: any bytes are a haystack, but not a directory
expect 0 "PASS" -- scan --engines=pcre2 --pattern abc --corpus "$tmp/empty" "${fast[@]}"
expect 0 "PASS" -- scan --engines=pcre2 --pattern abc --corpus "$tmp/garbage.bin" "${fast[@]}"
expect 0 "1.000 matches" -- scan --engines=pcre2 --pattern 'a$' --model grep --corpus "$tmp/long.txt" "${fast[@]}"
expect 2 "$tmp/dir: is a directory, not a file" -- scan --pattern abc --corpus "$tmp/dir"
# --patterns-file
expect 2 "$tmp/empty: no patterns in the file" -- scan --patterns-file "$tmp/empty"
expect 2 "$tmp/long.txt:1: pattern of $long_bytes bytes, longer than 1048576 (1 MiB)" -- scan --patterns-file "$tmp/long.txt"
expect 2 "$tmp/dir: is a directory, not a file" -- scan --patterns-file "$tmp/dir"
printf 'abc\n' >"$tmp/one.pat"
# --patterns-file is repeatable: both files are read, and each line of
# random bytes the parser refuses is one line naming the file and line,
# exit 2 before any engine runs
"$rx" scan --engines="$all" --patterns-file "$tmp/garbage.bin" --patterns-file "$tmp/one.pat" --corpus "$tmp/garbage.bin" "${fast[@]}" >"$tmp/out" 2>"$tmp/err"
check "garbage patterns: exit $? (want 2)" [ $? -eq 2 ]
check "garbage patterns: each message names garbage.bin:LINE" bash -c '! grep -v "^rxbench: $1:[0-9]*: pattern " "$2"' _ "$tmp/garbage.bin" "$tmp/err"
check "garbage patterns: nothing on stdout" [ ! -s "$tmp/out" ]
# --rules
expect 2 "$tmp/empty: no regex rules found" -- run payload --rules "$tmp/empty"
expect 2 "$tmp/trunc.rules:1: pcre: unterminated quote" -- run payload --rules "$tmp/trunc.rules"
expect 2 "$tmp/garbage.bin:1: NUL byte in a rule line" -- run payload --rules "$tmp/garbage.bin"
expect 2 "$tmp/long.txt:1: pattern of $long_bytes bytes, longer than 1048576 (1 MiB)" -- run payload --rules "$tmp/long.txt"
expect 2 "$tmp/dir: no regex rules found" -- run payload --rules "$tmp/dir"
# --pcap
expect 2 "$tmp/empty: truncated dump file" -- run payload --pcap "$tmp/empty"
expect 2 "$tmp/trunc.pcap: truncated dump file; tried to read 143 captured bytes, only got 85 (after 2 packets)" -- run payload --pcap "$tmp/trunc.pcap"
expect 2 "$tmp/garbage.bin: unknown file format" -- run payload --pcap "$tmp/garbage.bin"
expect 2 "$tmp/long.txt: unknown file format" -- run payload --pcap "$tmp/long.txt"
expect 2 "$tmp/dir: is a directory" -- run payload --pcap "$tmp/dir"
# --policy
expect 2 "$tmp/empty:1: empty policy" -- run fqdn --policy "$tmp/empty"
expect 2 "$tmp/trunc.yaml:4: invalid YAML" -- run fqdn --policy "$tmp/trunc.yaml"
expect 2 "$tmp/garbage.bin:1: invalid YAML" -- run fqdn --policy "$tmp/garbage.bin"
expect 2 "$tmp/long.txt:1: matchName 'aaaa" -- run fqdn --policy "$tmp/long.txt"
expect 2 "$tmp/dir: is a directory, not a file" -- run fqdn --policy "$tmp/dir"
# --queries
expect 2 "$tmp/empty:1: no query names in the file" -- run fqdn --queries "$tmp/empty"
# a query is any line a DNS message could carry (CheckAllowed has no limit)
expect 0 "phase=queries" -- run fqdn --engines=pcre2 --queries "$tmp/garbage.bin" --domains=20 "${fast[@]}"
expect 2 "$tmp/long.txt:1: query name of $long_bytes bytes: no DNS message can carry it" -- run fqdn --queries "$tmp/long.txt"
expect 2 "$tmp/dir: is a directory, not a file" -- run fqdn --queries "$tmp/dir"
"$rx" run fqdn --engines=pcre2 --queries "$tmp/trunc.queries" --domains=20 "${fast[@]}" >"$tmp/out" 2>&1
check "truncated queries: a cut name is still a query (exit $?)" [ $? -eq 0 ]
# report and compare: RESULTS, OLD and NEW
for cmd in "report" "compare $old" "compare"; do
	tail=(); [ "$cmd" = compare ] && tail=("$old")
	expect 2 "$tmp/empty: no benchmark results in it" -- $cmd "$tmp/empty" "${tail[@]}"
	expect 2 "$tmp/trunc.json:98:12: ':' expected near end of file" -- $cmd "$tmp/trunc.json" "${tail[@]}"
	expect 2 "$tmp/garbage.bin:1: neither an rxbench results file (JSON) nor Go benchmark text" -- $cmd "$tmp/garbage.bin" "${tail[@]}"
	expect 2 "$tmp/long.txt:1: neither an rxbench results file (JSON) nor Go benchmark text" -- $cmd "$tmp/long.txt" "${tail[@]}"
	# a directory stands for its *.json results (compare, report of runs)
	expect 2 "$tmp/dir: no *.json results in the directory" -- $cmd "$tmp/dir" "${tail[@]}"
done
# bytes quoted from a file cannot break the one-line error or drive the
# terminal: a newline in a JSON name, a newline and ESC in a YAML scalar
printf '{"format":"rxbench-results","version":1,"benchmarks":[{"name":"A\\nBenchmarkX 1 1 ns/op","suite":"a"}]}' >"$tmp/nl.json"
expect 2 'benchmark name "A\x0aBenchmarkX 1 1 ns/op" is empty or has blanks' -- report "$tmp/nl.json"
check "JSON name: the error is not one line" [ "$(wc -l <"$tmp/err")" -eq 1 ]
printf 'toFQDNs:\n  - matchName: "a\\nb\\x1b[31m.com"\n' >"$tmp/nl.yaml"
expect 2 "$tmp/nl.yaml:2: matchName 'a\x0ab\x1b[31m.com'" -- run fqdn --policy "$tmp/nl.yaml"
check "YAML scalar: the error is not one line" [ "$(wc -l <"$tmp/err")" -eq 1 ]
check "YAML scalar: an ESC reached the terminal" lacks grep -q $'\x1b' "$tmp/err"

# an output file that cannot be written: named, exit 2, before anything
# is measured (not after the whole run)
expect 2 "-o $tmp/dir/no/x.json: cannot write there: No such file or directory" -- scan --engines=pcre2 --pattern abc --corpus "$tmp/c.txt" "${fast[@]}" -o "$tmp/dir/no/x.json"
check "unwritable -o: measured before refusing it" lacks grep -q '^Benchmark' "$tmp/out"

# no read permission.  root reads a chmod 000 file anyway: run those cases
# as nobody (setpriv), or skip them with a message
pdir=$(mktemp -d)
chmod 755 "$pdir"
printf 'abc\n' >"$pdir/secret"
chmod 000 "$pdir/secret"
as=()
if [ "$(id -u)" -eq 0 ]; then
	if command -v setpriv >/dev/null && id nobody >/dev/null 2>&1; then
		as=(setpriv --reuid=nobody --regid=nogroup --clear-groups)
	else
		as=(skip)
	fi
fi
if [ "${as[0]:-}" = skip ]; then
	echo "SKIP: no-read-permission cases (root, and no setpriv or nobody user)"
else
	noread() { # noread 'MESSAGE' ARGS...: exit 2 and MESSAGE
		local want=$1; shift
		"${as[@]}" "$real" "$@" >"$tmp/out" 2>&1
		local got=$?
		if [ $got -ne 2 ] || ! grep -qF -- "$want" "$tmp/out"; then
			echo "FAIL: (unreadable) rxbench $* -> exit $got, output:"; head -3 "$tmp/out"
			fail=$((fail + 1))
		else
			pass=$((pass + 1))
		fi
	}
	denied="$pdir/secret: Permission denied"
	# (--no-results: nobody may not write results/ here either)
	noread "$denied" scan --pattern abc --corpus "$pdir/secret" --no-results
	noread "$denied" scan --patterns-file "$pdir/secret" --no-results
	noread "$denied" run payload --rules "$pdir/secret" --no-results
	noread "$denied" run payload --pcap "$pdir/secret" --no-results
	noread "$denied" run fqdn --policy "$pdir/secret" --no-results
	noread "$denied" run fqdn --queries "$pdir/secret" --no-results
	noread "$denied" report "$pdir/secret"
	noread "$denied" compare "$pdir/secret" "$PWD/$old"
	noread "$denied" compare "$PWD/$old" "$pdir/secret"
fi
rm -rf "$pdir"

# ---- numbers --------------------------------------------------------------
section numbers
# every numeric option: negative, zero (where it means nothing), overflow,
# hex, junk and empty are refused with a message quoting the value
big=99999999999999999999
: >"$tmp/numbers.tsv"
numbers() { # numbers SUITE OPTION VALUE...: queued for numbers_check
	local suite=$1 opt=$2; shift 2
	for v in "$@"; do
		printf 'run\t%s\t--%s=%s\n' "$suite" "$opt" "$v" >>"$tmp/numbers.tsv"
	done
}
# every queued run through one wrapper (--batch), then its checks: exit
# 2 and one line naming the option and quoting the value
numbers_check() {
	local n=0 cmd suite arg opt v got
	"$rx" --batch "$tmp/numbers.tsv" "$tmp/num"
	while IFS=$'\t' read -r cmd suite arg; do
		opt=${arg%%=*} v=${arg#*=}
		got=$(cat "$tmp/num.$n.rc")
		if [ "$got" -ne 2 ] || ! grep -qF -- "$opt" "$tmp/num.$n.err" ||
			! grep -qF -- "$v" "$tmp/num.$n.err" || [ "$(wc -l <"$tmp/num.$n.err")" -ne 1 ]; then
			echo "FAIL: run $suite $arg -> exit $got:"; head -3 "$tmp/num.$n.err"
			fail=$((fail + 1))
		else
			pass=$((pass + 1))
		fi
		n=$((n + 1))
	done <"$tmp/numbers.tsv"
}
numbers scan benchtime -1s 0s 0x -5x ${big}x 1e999s 1e-300s 0x1s 1.5x abc nan inf ''
numbers scan count -1 0 $big 1.5 abc ''
numbers scan timeout -1s 0s 1e999s 2h 0x10s abc ''
numbers scan cpu -1 $big abc ''
numbers fqdn domains -1 0 $big 1, abc ''
numbers fqdn seed -1 $big abc ''
numbers payload seed -1 $big abc ''
numbers payload sizes -1 0 $big abc
numbers payload packets -1 0 $big abc ''
numbers payload match-rate -1% 101% 1e999 0x0.1 abc nan inf ''
numbers payload link -1 0 1e999 0x10 abc inf ''
numbers_check
for v in -5% 1e999 0x5% abc nan inf ''; do
	expect 2 "--threshold=$v: use a number between 0 and 1000%" -- compare "$old" "$old" --threshold="$v"
done
for v in -1 0 1 abc ''; do
	expect 2 "--alpha=$v: use a number between 1e-09 and 0.5" -- compare "$old" "$old" --alpha="$v"
done

echo "$pass passed, $fail failed in $((SECONDS - t0))s"
[ "$fail" -eq 0 ]

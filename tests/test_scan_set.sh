#!/usr/bin/env bash
# test_scan_set.sh - the scan suite's set model (--model set: every
# pattern at once, as grep -f) and what a benchmark name holds of a
# pattern.  Random pattern sets over random corpora (CR, NUL, bytes above
# 0x7f, lines without a final newline, empty lines) run on every engine
# built but tre; each run must verify and time them all, and the
# reference's answer it records must be what GNU grep counts (grep -c -E -f
# for patterns ERE reads alike; grep -c -P on their alternation for PCRE
# syntax: grep 3.8's -P takes one pattern) and what Python's re finds,
# pattern by pattern and line by line.  Usage: test_scan_set.sh rxbench
# Exit 77 (skipped) without python3.
set -u
rx=$1
. "$(dirname "$0")/cli_expect.sh"

command -v python3 >/dev/null || { echo "scan_set: SKIP: no python3"; exit 77; }
fast=(--benchtime=1x --no-alloc --quiet)
has() { "$rx" list | grep -q "^  $1 "; }

# json FILE PYTHON-EXPRESSION-OF-d: prints the expression's value
json() { python3 -c "import json,sys; d=json.load(open(sys.argv[1])); print($2)" "$1"; }

# --- names: printable ASCII kept, blanks '_', '/' \x2f, the rest '_' ---
printf 'a b/c=d\nabc\nGPL-3\n' >"$tmp/names.txt"
expect 0 'BenchmarkScan/engine=pcre2/pattern=a_b\x2fc=d' -- scan --engines=pcre2 --pattern 'a b/c=d' --pattern abc --pattern abc --pattern 'GPL-3' --pattern "$(printf 'x\001y')" --pattern "$(printf 'z%.0s' {1..40})" --corpus "$tmp/names.txt" "${fast[@]}" -o "$tmp/names.json"
names=$(json "$tmp/names.json" "' '.join(b['name'] for b in d['benchmarks'])")
for want in 'pattern=abc' 'pattern=abc#3' 'pattern=GPL_3' 'pattern=x_y' "pattern=$(printf 'z%.0s' {1..32})"; do
	case " $names " in
	*"/$want "*) pass=$((pass + 1)) ;;
	*) echo "FAIL: no name ending $want in: $names"; fail=$((fail + 1)) ;;
	esac
done
[ "$(json "$tmp/names.json" "d['benchmarks'][0]['inputs']['pattern']")" = 'a b/c=d' ] &&
	[ "$(json "$tmp/names.json" "d['benchmarks'][0]['keys']['pattern']")" = 'a_b\x2fc=d' ] &&
	pass=$((pass + 1)) || { echo "FAIL: the pattern whole is not the input, or its key is not a_b\\x2fc=d"; fail=$((fail + 1)); }
# '=' in a value: the level still selects and reads as pattern=...
expect 0 'BenchmarkScan/engine=pcre2/pattern=a_b\x2fc=d' -- scan --engines=pcre2 --pattern 'a b/c=d' --corpus "$tmp/names.txt" --list='/engine=pcre2/pattern=a_b\\x2fc=d$'

# --- the set model: names, inputs, verdict, refusals ---
expect 2 "use count, grep or set" -- scan --model sets --no-results
printf 'Sherlock\nfoo/bar\n[0-9]+\n' >"$tmp/p.txt"
printf 'Sherlock Holmes\nfoo/bar 12\r\nnothing\nx\0y 7\n\xff\xfe\nlast 9' >"$tmp/c.txt"
expect 0 "BenchmarkScan/engine=pcre2/patterns=p.txt+1/model=set" -- scan --model set --engines=re2,pcre2 --patterns-file "$tmp/p.txt" --pattern 'a b' --corpus "$tmp/c.txt" "${fast[@]}" -o "$tmp/set.json"
# many patterns files: as many whole names as fit the level's 200 bytes,
# then a count of the rest, and the --pattern count kept (was cut at 200
# bytes in the middle of a name, its "+2" lost)
many=()
for i in $(seq -w 1 12); do
	printf 'abc%s\n' "$i" >"$tmp/patterns-of-the-app-$i.txt"
	many+=(--patterns-file "$tmp/patterns-of-the-app-$i.txt")
done
expect 0 "/patterns=patterns-of-the-app-01.txt+patterns-of-the-app-02.txt+patterns-of-the-app-03.txt+patterns-of-the-app-04.txt+patterns-of-the-app-05.txt+patterns-of-the-app-06.txt+6-more-files+2/model=set" -- scan --model set --engines=pcre2 "${many[@]}" --pattern xyz --pattern foo --corpus "$tmp/names.txt" "${fast[@]}" --no-results
check() { # what python-expression-of-d
	[ "$(json "$tmp/set.json" "$2")" = True ] && pass=$((pass + 1)) ||
		{ echo "FAIL: $1"; fail=$((fail + 1)); }
}
# --pattern's first, then the file's: pattern.1 is the one not in the file
check "set inputs" "[b['inputs'].get(k) for b in d['benchmarks'] for k in ('set','set-size','pattern.1','patterns-file')] == ['native','4','a b','$tmp/p.txt','in-turn','4','a b','$tmp/p.txt']"
check "set answer" "all('matching lines 4 (is_match 4, ' in b['verified'] and b['verified'].endswith('lines per pattern: 0,1,1,3') for b in d['benchmarks'])"
check "set metrics" "all([m['unit'] for m in b['metrics']][-2:] == ['matches','ids'] for b in d['benchmarks'])"
"$rx" report "$tmp/set.json" --format=text >"$tmp/report.txt" 2>&1
grep -q "Which engine runs the whole pattern set fastest" "$tmp/report.txt" &&
	! grep -q "per pattern and overall" "$tmp/report.txt" && pass=$((pass + 1)) ||
	{ echo "FAIL: the set verdict, alone, in the report"; fail=$((fail + 1)); }
expect 0 "PASS" -- scan --engines=pcre2 --pattern abc --corpus "$tmp/names.txt" "${fast[@]}" -o "$tmp/one.json"
"$rx" report "$tmp/one.json" --format=text >"$tmp/report.txt" 2>&1
grep -q "per pattern and overall" "$tmp/report.txt" && ! grep -q "whole pattern set" "$tmp/report.txt" &&
	pass=$((pass + 1)) || { echo "FAIL: a count run shows the set verdict"; fail=$((fail + 1)); }
# a set runs whole: a pattern an engine cannot run leaves it out
printf 'a+?b\nfoo\n' >"$tmp/lazy.txt"
expect 0 "pattern 1 ($tmp/lazy.txt:1: \`a+?b\`) needs lazy, which posix lacks (a set runs whole or not at all)" -- scan --model set --engines=posix,pcre2 --patterns-file "$tmp/lazy.txt" --corpus "$tmp/c.txt" "${fast[@]}" --no-results
# a wrong line is found: TRE reads `$` before a NUL byte
if has tre; then
	printf 'foo\na$\n' >"$tmp/dollar.txt"
	printf 'foo\nxa\0b\nba\n' >"$tmp/nul.txt"
	expect 1 "pattern 2 ($tmp/dollar.txt:2: \`a\$\`): 2 lines (digest 08395507b4f137f2) where 1 (digest af63be4c8601b992) were expected; first at line 2 (it says 1, the reference 0): \`xa\\x00b\`" -- scan --model set --engines=tre,pcre2 --patterns-file "$tmp/dollar.txt" --corpus "$tmp/nul.txt" "${fast[@]}" --no-results
fi
# out of the reference's reach: those parts by a vote of three libraries
printf 'Sherlock\n(o)\\1\n' >"$tmp/backref.txt"
expect 0 "PASS" -- scan --model set --engines=pcre2 --patterns-file "$tmp/backref.txt" --corpus "$tmp/c.txt" "${fast[@]}" -o "$tmp/set.json"
check "a backreference's lines by a vote" "'out of its reach: 1 pattern (pattern 2 ' in d['benchmarks'][0]['verified'] and 'majority of at least 3 libraries: 2 line counts' in d['benchmarks'][0]['verified']"

# --- random sets against GNU grep and Python's re ---
engines=$("$rx" list | awk '/^  [a-z0-9-]+ +(in-process|runner)/ && $1 != "tre" {printf "%s%s", sep, $1; sep=","}')
cat >"$tmp/oracle.py" <<'EOF'
import json, random, re, subprocess, sys

rx, tmp, engines, seeds = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
# no \x0b: RE2 leaves VT out of \s, which PCRE2 and Python put in (re2's
# mismatch rows there, in every model, are another issue's)
ALPHA = b'abcde01 \t\r\x00\xff\xfe\x0c_.'

ERE_ATOMS = list('abcde01') + ['.', '[a-c]', '[^ab]', '[0-9]']
PCRE_ATOMS = list('abcde01') + ['.', r'\d', r'\w', r'\s', r'\x00', r'\xff',
                                r'\r', r'[\x00-\x1f]', r'[^\r]', r'\b']

def ere_atom(r, d):
    if d < 2 and r.random() < 0.2:
        return '(' + ere_alt(r, d + 1) + ')'
    return r.choice(ERE_ATOMS)

def pcre_atom(r, d):
    if d < 2 and r.random() < 0.2:
        return r.choice(['(?:', '(']) + pcre_alt(r, d + 1) + ')'
    return r.choice(PCRE_ATOMS)

def piece(r, atom, d):
    # a group repeats a bounded number of times: (a+)+ backtracks for
    # minutes in Python's re and V8 (no match limit), a timeout row
    a = atom(r, d)
    qs = ['', '', '', '?', '{1,2}', '{2}'] + ([] if a.endswith(')') else ['*', '+'])
    return a if a == r'\b' else a + r.choice(qs)

def branch(r, atom, d):
    return ''.join(piece(r, atom, d) for _ in range(r.randint(1, 3)))

def ere_alt(r, d):
    return '|'.join(branch(r, ere_atom, d) for _ in range(r.randint(1, 2)))

def pcre_alt(r, d):
    return '|'.join(branch(r, pcre_atom, d) for _ in range(r.randint(1, 2)))

def pattern(r, ere):
    p = ere_alt(r, 0) if ere else pcre_alt(r, 0)
    return ('^' if r.random() < 0.15 else '') + p + ('$' if r.random() < 0.15 else '')

def corpus(r):
    lines = [bytes(r.choice(ALPHA) for _ in range(r.choice([0, 3, 8, 20, 40])))
             for _ in range(r.randint(0, 400))]
    lines = [l + b'\r' if r.random() < 0.1 else l for l in lines]
    data = b'\n'.join(lines)
    return data + b'\n' if lines and r.random() < 0.5 else data

def lines_of(data):  # grep's lines: without '\n', a last one without it counts
    out = data.split(b'\n')
    return out[:-1] if data.endswith(b'\n') or not data else out

def digest(lines):
    h = 0xcbf29ce484222325
    for i in lines:
        h = ((h ^ (i + 1)) * 0x100000001b3) & 0xffffffffffffffff
    return h

def text(v):  # a JSON text: a string, or {"hex": ...} when not UTF-8
    if isinstance(v, dict):
        return bytes.fromhex(v['hex']).decode('latin-1')
    return v or ''

def grep_count(ere, pats, pfile, cfile):
    if ere:
        argv = ['grep', '-a', '-c', '-E', '-f', pfile, cfile]
    else:
        argv = ['grep', '-a', '-c', '-P', '|'.join('(?:%s)' % p for p in pats), cfile]
    p = subprocess.run(argv, capture_output=True, env={'LC_ALL': 'C'})
    return int(p.stdout)

failures = sets = rows = grep_ok = py_ok = ids = 0
for seed in range(1, seeds + 1):
    r = random.Random(seed)
    ere = seed % 2 == 1
    pats = sorted({pattern(r, ere) for _ in range(r.randint(1, 12))})
    data = corpus(r)
    pfile, cfile, out = tmp + '/set.pat', tmp + '/set.txt', tmp + '/set.json'
    open(pfile, 'w').write(''.join(p + '\n' for p in pats))
    open(cfile, 'wb').write(data)
    # the first seed forks a child per sample as a run does; the others
    # measure in rxbench itself (--no-fork: the answers checked are the
    # same, and each forked child starts its own go, python and node
    # runner: 6 starts less a seed, a second or more on a loaded machine)
    fork = [] if seed == 1 else ['--no-fork']
    proc = subprocess.run([rx, 'scan', '--model', 'set', '--engines', engines,
                           '--patterns-file', pfile, '--corpus', cfile,
                           '--benchtime=1x', '--no-alloc', '--quiet', '-o', out]
                          + fork, capture_output=True)
    res = json.load(open(out))['benchmarks']
    # PCRE2's match limit on a pattern that backtracks is an error row
    # by design (CAP_MATCH_LIMIT), no wrong answer
    bad = [b['name'] + ': ' + text(b['message']) for b in res
           if b['status'] not in ('ok', 'unsupported') and
           not text(b['message']).endswith(': match limit')]
    ok = [b for b in res if b['status'] == 'ok']
    if proc.returncode not in (0, 1) or bad or len(ok) < 3:
        print('FAIL: seed %d: rxbench exit %d, %d timed: %r' % (seed, proc.returncode, len(ok), bad[:2]))
        failures += 1
        continue
    sets += 1
    rows += len(ok)
    # what the reference found, as each row records it (all alike)
    m = re.search(r'matching lines (\d+) \(is_match (\d+), digest ([0-9a-f]+)\).*'
                  r'lines per pattern: ([0-9,]+)$', ok[0]['verified'])
    if m is None or any(b['verified'] != ok[0]['verified'] for b in ok):
        print('FAIL: seed %d: verified texts differ or do not parse: %s' % (seed, ok[0]['verified']))
        failures += 1
        continue
    any_lines, per = int(m.group(1)), [int(x) for x in m.group(4).split(',')]
    ls = lines_of(data)
    hits = [[i for i, l in enumerate(ls) if re.search(p.encode('latin-1'), l)] for p in pats]
    union = sorted({i for h in hits for i in h})
    g = grep_count(ere, pats, pfile, cfile)
    if g == any_lines == int(m.group(2)):
        grep_ok += 1
    else:
        print('FAIL: seed %d: grep -c counts %d, the reference %d' % (seed, g, any_lines))
        failures += 1
    if per == [len(h) for h in hits] and len(union) == any_lines and \
       digest(union) == int(m.group(3), 16):
        py_ok += 1
        ids += len(pats)
    else:
        print('FAIL: seed %d: python re: per pattern %s, %d lines (digest %016x); '
              'the reference: %s, %d (%s)' % (seed, [len(h) for h in hits], len(union),
                                              digest(union), per, any_lines, m.group(3)))
        failures += 1
print('random sets: %d of %d ran (%d rows verified and timed); grep agreement: '
      '%d of %d; python agreement: %d of %d (%d per-pattern line counts)'
      % (sets, seeds, rows, grep_ok, seeds, py_ok, seeds, ids))
sys.exit(1 if failures else 0)
EOF
if python3 "$tmp/oracle.py" "$rx" "$tmp" "$engines" 10; then
	pass=$((pass + 1))
else
	fail=$((fail + 1))
fi

echo "scan_set: $pass passed, $fail failed"
[ "$fail" -eq 0 ]

#!/usr/bin/python3
"""
difffuzz.py - rxbench's end-to-end differential fuzzer.

rxbench promises that every timed number comes from a verified answer.
This fuzzer runs the real binary on random inputs and checks its timed
answers (and its MISMATCH verdicts) against oracles that share no code
with rxbench:

  scan     random patterns (PCRE syntax rxbench documents) x random
           corpora x every model and flag set.  Oracles per semantics
           class, under rxbench's count contract (engines/inturn.c):
             leftmost-first   Python `re`, pattern.search(data, pos) in a
                              loop (not finditer: it differs after an
                              empty match)
             leftmost-longest `regex` with regex.POSIX, the same loop
             all match ends   the number of offsets e in [0, len] where
                              some match ends: `regex`'s variable-length
                              lookbehind (?<=(?:P)) matched at e
             grep model       matching lines, split at '\\n' only (a CR
                              stays in its line, as GNU grep keeps it),
                              a final line without '\\n' counts; GNU grep
                              -P is a third oracle
  fqdn     random toFQDNs policies and queries; an oracle written label
           by label from Cilium v1.11's matchpattern (pkg/fqdn/
           matchpattern/matchpattern.go, pkg/fqdn/dns/dns.go), checked
           against Cilium's own regex construction
  payload  random regex rules x random packets in a pcap; the oracle
           counts, per rule and in all, the packets a rule matches

Assertions (each a failure, exit status 1):
  wrong answer timed  a row with status ok whose verified metric
                      (matches, allowed) contradicts the oracle
  false mismatch      a MISMATCH row whose engine answer (parsed from
                      its message) equals the oracle
  harness             a row missing, an exit status that does not fit
                      the rows, no JSON, a crash
Rows that are unsupported, error or timeout are counted, not failures.

Every failure prints a reproducer: the exact rxbench command line and
the pattern and corpus bytes (escaped; the files too under --keep DIR),
and a one-pattern re-run tells whether it reproduces alone.

Usage:
  tests/difffuzz.py [--rxbench build/rxbench] [--seed N] [--random]
                    [--seconds S] [--suites scan,fqdn,payload]
                    [--keep DIR] [--selftest] [--minimize] [-v]

Needs /usr/bin/python3 with the `regex` module (Debian: python3-regex);
exits 77 (skip) without it.  Only the standard library otherwise.
"""

import argparse
import collections
import ctypes
import ctypes.util
import json
import os
import random
import re
import shlex
import shutil
import signal
import struct
import subprocess
import sys
import tempfile
import time

try:
    import regex
except ImportError:  # pragma: no cover - checked in main()
    regex = None

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DEFAULT_SEED = 20240601
SKIP = 77

# ---------------------------------------------------------------- utilities


def esc(b, limit=400):
    """Bytes (or str) as a one-line printable, \\xNN escaped."""
    if isinstance(b, str):
        b = b.encode('utf-8', 'surrogatepass')
    out = []
    for c in b[:limit]:
        if c == 0x5c:
            out.append('\\\\')
        elif 0x20 <= c < 0x7f:
            out.append(chr(c))
        elif c == 10:
            out.append('\\n')
        elif c == 13:
            out.append('\\r')
        elif c == 9:
            out.append('\\t')
        else:
            out.append('\\x%02x' % c)
    s = ''.join(out)
    if len(b) > limit:
        s += '...(%d bytes)' % len(b)
    return s


def printf_arg(b):
    """A single-quoted printf(1) format that prints exactly bytes b."""
    out = []
    for c in b:
        if c == 0x25:
            out.append('%%')
        elif c == 0x5c:
            out.append('\\\\')
        elif 0x20 <= c < 0x7f and c != 0x27:
            out.append(chr(c))
        else:
            out.append('\\%03o' % c)
    return "'" + ''.join(out) + "'"


def bash_word(b):
    """bytes as one bash word ($'...' when needed). No NUL allowed."""
    if all(0x20 < c < 0x7f and chr(c) not in "'\"\\$`!&|;<>(){}[]*?~#" for c in b) and b:
        return b.decode('ascii')
    out = []
    for c in b:
        if c == 0x5c:
            out.append('\\\\')
        elif c == 0x27:
            out.append("\\'")
        elif 0x20 <= c < 0x7f:
            out.append(chr(c))
        else:
            out.append('\\x%02x' % c)
    return "$'" + ''.join(out) + "'"


class OracleTimeout(Exception):
    pass


def _alarm(signum, frame):
    raise OracleTimeout()


class time_limit:
    """Raise OracleTimeout in the block after `seconds` (SIGALRM)."""

    def __init__(self, seconds):
        self.seconds = seconds

    def __enter__(self):
        self.old = signal.signal(signal.SIGALRM, _alarm)
        signal.setitimer(signal.ITIMER_REAL, self.seconds)

    def __exit__(self, *exc):
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, self.old)
        return False


# ------------------------------------------------------------ rxbench itself


# Engines a run leaves out unless --engines names them (kind marked '*'
# in `rxbench list`): a case without --engines runs every other one.
OPT_IN = set()


def rxbench_engines(rxb):
    """{name: semantics} of the built engines (test-only ones left out);
    the opt-in ones are also put in OPT_IN."""
    out = subprocess.run([rxb, 'list'], capture_output=True, text=True,
                         timeout=60).stdout
    engines = {}
    section = None
    for line in out.splitlines():
        if line.endswith(':') and not line.startswith(' '):
            section = line[:-1]
            continue
        f = line.split()
        if section != 'engines' or len(f) < 4 or f[0] == 'name':
            continue
        if 'test-only' in line:
            continue
        if f[1].endswith('*'):
            OPT_IN.add(f[0])
        # name version... count sets caps: the semantics is the field
        # before the sets column ("native" / "in-turn")
        for i, w in enumerate(f):
            if w in ('native', 'in-turn') and i > 0:
                engines[f[0]] = f[i - 1]
                break
    return engines


def run_rxbench(argv, timeout=300):
    """Run rxbench; (returncode, stdout, stderr, seconds)."""
    t = time.time()
    try:
        p = subprocess.run(argv, capture_output=True, timeout=timeout,
                           cwd=ROOT)
        return p.returncode, p.stdout, p.stderr, time.time() - t
    except subprocess.TimeoutExpired as e:
        return 'timeout', e.stdout or b'', e.stderr or b'', time.time() - t


def load_rows(path):
    with open(path, 'rb') as f:
        d = json.load(f)
    return d.get('benchmarks', []), d


def metric(row, unit):
    for m in row.get('metrics', []):
        if m.get('unit') == unit and m.get('samples'):
            return m['samples'][0]
    return None


def scan_pattern_names(patterns):
    """The benchmark names suites/scan.c gives user patterns, in order
    (add_user_pattern: the first 32 bytes made name-safe by
    scan_name_part, printable ASCII as written, '/' as \\x2f, any other
    byte '_'; "empty" when empty, "#k" appended while taken)."""
    names, taken = [], set()
    for i, p in enumerate(patterns):
        base = ''.join('\\x2f' if c == 0x2f else
                       chr(c) if 0x20 < c < 0x7f else '_'
                       for c in p[:32])
        # a '-' before the digits that end it is '_' (benchstat reads
        # "GPL-3" as GOMAXPROCS 3)
        base = re.sub(r'-([0-9]+)$', r'_\1', base) or 'empty'
        name = base
        k = i + 1
        while name in taken:
            name = base + '#%d' % k
            k += 1
        taken.add(name)
        names.append(name)
    return names


# ------------------------------------------------------- PCRE2, for triage


class Pcre2Direct:
    """libpcre2-8 through ctypes: the count loop of engines/inturn.c run
    on PCRE2 itself.  Only for triage (is a disagreement the oracle's or
    the engine's?), never the oracle."""

    CASELESS, DOTALL, MULTILINE, ANCHORED, UTF = 0x8, 0x20, 0x400, 0x80000000, 0x80000

    def __init__(self):
        name = ctypes.util.find_library('pcre2-8') or 'libpcre2-8.so.0'
        self.lib = ctypes.CDLL(name)
        L = self.lib
        L.pcre2_compile_8.restype = ctypes.c_void_p
        L.pcre2_compile_8.argtypes = [ctypes.c_char_p, ctypes.c_size_t, ctypes.c_uint32,
                                      ctypes.POINTER(ctypes.c_int),
                                      ctypes.POINTER(ctypes.c_size_t), ctypes.c_void_p]
        L.pcre2_match_data_create_from_pattern_8.restype = ctypes.c_void_p
        L.pcre2_match_data_create_from_pattern_8.argtypes = [ctypes.c_void_p, ctypes.c_void_p]
        L.pcre2_match_8.restype = ctypes.c_int
        L.pcre2_match_8.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_size_t,
                                    ctypes.c_size_t, ctypes.c_uint32, ctypes.c_void_p,
                                    ctypes.c_void_p]
        L.pcre2_get_ovector_pointer_8.restype = ctypes.POINTER(ctypes.c_size_t)
        L.pcre2_get_ovector_pointer_8.argtypes = [ctypes.c_void_p]
        L.pcre2_code_free_8.argtypes = [ctypes.c_void_p]
        L.pcre2_match_data_free_8.argtypes = [ctypes.c_void_p]

    def _compile(self, pat, flags):
        o = 0
        o |= self.CASELESS if 'i' in flags else 0
        o |= self.DOTALL if 's' in flags else 0
        o |= self.MULTILINE if 'm' in flags else 0
        o |= self.ANCHORED if 'a' in flags else 0
        o |= self.UTF if 'u' in flags else 0
        err, off = ctypes.c_int(), ctypes.c_size_t()
        code = self.lib.pcre2_compile_8(pat, len(pat), o, ctypes.byref(err),
                                        ctypes.byref(off), None)
        return code

    def count(self, pat, data, flags):
        code = self._compile(pat, flags)
        if not code:
            return None
        md = self.lib.pcre2_match_data_create_from_pattern_8(code, None)
        n, start = 0, 0
        try:
            while start <= len(data):
                rc = self.lib.pcre2_match_8(code, data, len(data), start, 0, md, None)
                if rc < 0:
                    break
                ov = self.lib.pcre2_get_ovector_pointer_8(md)
                s, e = ov[0], ov[1]
                n += 1
                if 'a' in flags:
                    break
                if e > s:
                    start = e
                else:
                    start = e + 1
                    while 'u' in flags and start < len(data) and (data[start] & 0xc0) == 0x80:
                        start += 1
        finally:
            self.lib.pcre2_match_data_free_8(md)
            self.lib.pcre2_code_free_8(code)
        return n

    def lines(self, pat, data, flags):
        code = self._compile(pat, flags)
        if not code:
            return None
        md = self.lib.pcre2_match_data_create_from_pattern_8(code, None)
        hits = 0
        try:
            for line in split_lines(data):
                if self.lib.pcre2_match_8(code, line, len(line), 0, 0, md, None) >= 0:
                    hits += 1
        finally:
            self.lib.pcre2_match_data_free_8(md)
            self.lib.pcre2_code_free_8(code)
        return hits


_PCRE2 = None


def pcre2_direct():
    global _PCRE2
    if _PCRE2 is None:
        try:
            _PCRE2 = Pcre2Direct()
        except OSError:
            _PCRE2 = False
    return _PCRE2 or None


# ------------------------------------------------------- patterns as trees
#
# A pattern is generated as a tree and rendered twice: in PCRE syntax,
# with randomly chosen but equivalent spellings (raw bytes, \xHH, \x{..},
# escapes), for rxbench; and canonically in Python syntax for the oracle,
# where the few places PCRE2 and Python differ are rewritten (see
# py_render).  Nodes:
#   ('lit', c, style)          one byte (bytes mode) or code point (u)
#   ('cls', neg, items)        items: ('r', lo, hi, s1, s2) | ('p', 'd')
#   ('dot',)  ('perl', 'w')  ('anchor', '^' | '$' | 'b' | 'B')
#   ('group', 'cap' | 'nc', alts)    alts: list of sequences
#   ('rep', node, lo, hi, lazy, form)
#   ('flag',)                  (?i) inside a sequence

META = set(b'.[]()*+?{}|^$\\')
CLASS_SPECIAL = set(b'\\]^-[')

BYTE_LITS = (list(b'aaaabbbcxAB01 _-') + [10, 10, 13, 9, 0, 0x80, 0xe9, 0xff, 0xc3, 0xa9] +
             list(b'.*([{}|$^\\+?]/'))
BYTE_CORPUS = (list(b'aaaaaabbbbbcccxxAB01   _-.') + [10, 10, 10, 13, 13, 9, 0, 0x80, 0xe9,
                                                     0xff, 0xc3, 0xa9, 0x0b, 0x0c] +
               list(b'*([{|$^\\+?/'))
U_LITS = (list('aaaabbbcxAB01 _-') + ['\n', '\n', '\r', '\t', '\0'] +
          list('éÉ日😀ſ\u212aßk') + list('.*([{}|$^\\+?]'))
U_CORPUS = (list('aaaaaabbbbbcccxxAB01   _-.') + ['\n', '\n', '\n', '\r', '\r', '\t', '\0', '\x0b'] +
            list('éÉ日日😀ſ\u212aßkK') + list('*([{|$^\\+?'))


class Gen:
    def __init__(self, rng, u):
        self.r = rng
        self.u = u

    def char(self):
        c = self.r.choice(U_LITS if self.u else BYTE_LITS)
        return ord(c) if self.u else c

    def lit(self):
        c = self.char()
        return ('lit', c, self.r.random())

    def cls(self):
        items = []
        for _ in range(self.r.choice((1, 1, 2, 2, 3, 4))):
            k = self.r.random()
            if k < 0.15:
                items.append(('p', self.r.choice('dwsDWS')))
            elif k < 0.22:
                items.append(('x', self.r.choice(sorted(POSIX_CLASSES)), self.r.random() < 0.2))
            elif k < 0.45:
                a, b = self.char(), self.char()
                if a > b:
                    a, b = b, a
                if self.r.random() < 0.6:  # a range among related characters
                    a = self.r.choice(b'aA0' if not self.u else [ord('a'), ord('A'), ord('0'), 0xe0])
                    b = a + self.r.randrange(0, 26 if a != ord('0') else 10)
                items.append(('r', a, b, self.r.random(), self.r.random()))
            else:
                c = self.char()
                items.append(('r', c, c, self.r.random(), self.r.random()))
        return ('cls', self.r.random() < 0.3, items)

    def atom(self, depth):
        k = self.r.random()
        if k < 0.45:
            return self.lit()
        if k < 0.57:
            return self.cls()
        if k < 0.64:
            return ('dot',)
        if k < 0.69:
            return ('perl', self.r.choice('dwsDWS'))
        if k < 0.80:
            return ('anchor', self.r.choice('^^$$$bB'))
        if depth > 0:
            return ('group', 'cap' if self.r.random() < 0.5 else 'nc', self.alts(depth - 1))
        return self.lit()

    def quantify(self, node):
        r = self.r
        form = r.choice(('*', '*', '+', '+', '?', '?', '{n}', '{n,}', '{n,m}', '{n,m}'))
        lo, hi = {'*': (0, None), '+': (1, None), '?': (0, 1)}.get(form, (None, None))
        if form == '{n}':
            lo = hi = r.randrange(0, 4)
        elif form == '{n,}':
            lo, hi = r.randrange(0, 3), None
        elif form == '{n,m}':
            lo = r.randrange(0, 3)
            hi = lo + r.randrange(0, 4)
        return ('rep', node, lo, hi, r.random() < 0.25, form)

    def item(self, depth):
        node = self.atom(depth)
        if node[0] != 'anchor' and self.r.random() < 0.3:
            node = self.quantify(node)
            if self.r.random() < 0.05:  # a quantified quantifier, grouped
                node = self.quantify(('group', 'nc', [[node]]))
        return node

    def seq(self, depth):
        n = self.r.choice((0, 1, 1, 2, 2, 3, 3, 4, 5)) if depth < 3 else self.r.choice((1, 1, 2, 3, 4, 5, 6))
        s = [self.item(depth) for _ in range(n)]
        if self.r.random() < 0.04:
            s.insert(self.r.randrange(0, len(s) + 1), ('flag',))
        return s

    def alts(self, depth):
        n = self.r.choice((1, 1, 1, 1, 1, 1, 2, 2, 3))
        return [self.seq(depth) for _ in range(n)]

    def pattern(self):
        if self.r.random() < 0.15:  # the corners bugs live in, densely
            return parse_simple(self.r.choice(MICRO), self.u)
        return self.alts(3)


# Small patterns around anchors and empty matches (parse_simple syntax).
MICRO = ['^', '$', '\\b', '\\B', 'x*', '^$', '$^', '^|$', '^|x?', '$|a?', 'a?', '(?:)', '.?',
         '\\s*$', '^a*', 'a*$', '(^)*', '(?:^)?', '(?:$)?', '\\b|x*', '\\B|x?', '^.', '.$',
         'a$', '^a', '\\w*', '\\W*$', '(a|)', '(|a)', 'a|', '|a', '(?:a*)*', '.*', '.*$', '^.*$',
         '(?:\\b)?', '(?i)a', 'a(?i)b', '(?:a(?i)b|c)d', '[^a]*', '[^\\n]$', '\\n$', '^\\n', '\\r$']


def uhex(c, u):
    if not u or c < 0x100:
        return '\\x%02x' % c
    return '\\x{%x}' % c


def pcre_lit(c, style, u, in_class=False):
    """One character of a PCRE pattern, spelt as `style` (0..1) picks."""
    ch = chr(c)
    if c == 10:
        return '\\n'
    if c == 13:
        return '\\r' if style < 0.8 else uhex(c, u)
    if c == 9:
        return '\\t' if style < 0.5 else ('\t' if style < 0.8 else uhex(c, u))
    if c == 0:
        # octal as \000: PCRE reads \0 and up to two more octal digits,
        # so a \0 before a literal digit would swallow it (\00 is NUL)
        return '\\x00' if style < 0.4 else ('\\000' if style < 0.7 else ('\\x{0}' if style < 0.85 else '\0'))
    if c < 0x20 or c == 0x7f:
        return uhex(c, u)
    if c >= 0x80:
        if style < 0.5:
            return ch
        return uhex(c, u) if style < 0.8 else '\\x{%x}' % c
    if ch.isalnum():
        return ch if style < 0.85 else uhex(c, u)
    specials = CLASS_SPECIAL if in_class else META
    if c in specials:
        if not in_class and c in b']}' and style < 0.5:
            return ch  # a lone ] or } is a literal in PCRE
        return '\\' + ch if style < 0.85 else uhex(c, u)
    if style < 0.2:
        return '\\' + ch  # escaped punctuation is itself
    return ch if style < 0.9 else uhex(c, u)


def pcre_render(alts, u):
    def item(n):
        k = n[0]
        if k == 'lit':
            return pcre_lit(n[1], n[2], u)
        if k == 'dot':
            return '.'
        if k == 'perl':
            return '\\' + n[1]
        if k == 'anchor':
            return {'^': '^', '$': '$', 'b': '\\b', 'B': '\\B'}[n[1]]
        if k == 'flag':
            return '(?i)'
        if k == 'cls':
            out = ['[', '^' if n[1] else '']
            for it in n[2]:
                if it[0] == 'p':
                    out.append('\\' + it[1])
                elif it[0] == 'x':
                    out.append('[:%s%s:]' % ('^' if it[2] else '', it[1]))
                elif it[1] == it[2]:
                    out.append(pcre_lit(it[1], it[3], u, True))
                else:
                    out.append(pcre_lit(it[1], it[3], u, True) + '-' + pcre_lit(it[2], it[4], u, True))
            out.append(']')
            return ''.join(out)
        if k == 'group':
            return ('(' if n[1] == 'cap' else '(?:') + alternation(n[2]) + ')'
        if k == 'rep':
            inner = n[1]
            body = item(inner)
            if inner[0] == 'rep':
                body = '(?:' + body + ')'
            form = n[5]
            if form == '{n}':
                q = '{%d}' % n[2]
            elif form == '{n,}':
                q = '{%d,}' % n[2]
            elif form == '{n,m}':
                q = '{%d,%d}' % (n[2], n[3])
            else:
                q = form
            return body + q + ('?' if n[4] else '')
        raise ValueError(k)

    def alternation(a):
        return '|'.join(''.join(item(x) for x in s) for s in a)

    return alternation(alts)


# POSIX classes as PCRE2's default tables define them (ASCII, also in
# UTF mode without UCP), spelt as Python class members.
POSIX_CLASSES = {
    'alpha': 'A-Za-z', 'digit': '0-9', 'alnum': '0-9A-Za-z', 'upper': 'A-Z', 'lower': 'a-z',
    'xdigit': '0-9A-Fa-f', 'space': '\\t\\n\\x0b\\x0c\\r ', 'blank': '\\t ',
    'punct': '!-/:-@\\[-`{-~', 'cntrl': '\\x00-\\x1f\\x7f', 'print': ' -~', 'graph': '!-~',
    'word': '0-9A-Za-z_',
}

ASCII_PERL = {'d': '[0-9]', 'D': '[^0-9]', 'w': '[0-9A-Za-z_]', 'W': '[^0-9A-Za-z_]',
              's': '[\\t\\n\\x0b\\x0c\\r ]', 'S': '[^\\t\\n\\x0b\\x0c\\r ]'}


def py_char(c, u):
    if not u:
        return '\\x%02x' % c
    if c < 0x100:
        return '\\x%02x' % c
    if c < 0x10000:
        return '\\u%04x' % c
    return '\\U%08x' % c


def py_render(alts, u, flags, dialect, variant=()):
    """The Python spelling of a pattern tree, with PCRE2's semantics.

    Where PCRE2 and Python differ, PCRE2 wins (the syntax rxbench
    documents is PCRE's), rewritten here - never by loosening a check:
      * multiline `^`: PCRE2's does not match after a '\\n' that ends
        the data; Python's does.  Spelt (?:\\A|(?<=\\n)(?!\\Z)).
      * `\\B` on empty data: PCRE2 matches (no word on either side);
        Python's `re` (3.11) never matches \\B in an empty string.
        Spelt (?:\\B|\\A\\Z) for `re`; `regex` already agrees with PCRE2.
      * `(?i)` inside a pattern: PCRE2 applies it to the rest of the
        enclosing group, later alternatives included; Python 3.11 refuses
        global flags there.  Spelt as scoped (?i:...) groups.
      * `\\x{h..}`, raw bytes, `\\0`: spelt \\xHH / \\uHHHH canonically.
    """
    multiline = 'm' in flags
    # `variant` spells other semantics on purpose, only to explain a
    # failure (hints); the oracle itself never uses one

    def item(n, ci):
        k = n[0]
        if k == 'lit':
            return py_char(n[1], u)
        if k == 'dot':
            return '.'
        if k == 'perl':
            if 'unicode-caseless' in variant:
                return '(?-i:%s)' % ASCII_PERL[n[1]]
            return '\\' + n[1]
        if k == 'anchor':
            a = n[1]
            if a in 'bB' and 'unicode-caseless' in variant:
                w = '[0-9A-Za-z_]'
                b = '(?-i:(?:(?<=%s)(?!%s)|(?<!%s)(?=%s)))' % (w, w, w, w)
                return b if a == 'b' else '(?!%s)' % b
            if a == '^':
                if multiline and 'caret-after-final-newline' in variant:
                    return '(?:\\A|(?<=\\n))'
                return '(?:\\A|(?<=\\n)(?!\\Z))' if multiline else '\\A'
            if a == '$':
                if 'dollar-end-only' in variant and not multiline:
                    return '\\Z'
                if 'dollar-before-nul' in variant:
                    return '(?:$|(?=\\x00))'
                return '$'
            if a == 'b':
                return '\\b'
            return '(?:\\B|\\A\\Z)' if dialect == 're' else '\\B'
        if k == 'cls':
            out = ['[', '^' if n[1] else '']
            neg_posix = [it for it in n[2] if it[0] == 'x' and it[2]]
            if neg_posix:
                # [...[:^name:]...]: Python has no negated member; spelt as
                # an alternation of the rest and the negated set
                rest = ('cls', False, [it for it in n[2] if it not in neg_posix])
                alts = ['[^%s]' % POSIX_CLASSES[it[1]] for it in neg_posix]
                if rest[2]:
                    alts.append(item(rest, ci))
                body = '(?:%s)' % '|'.join(alts)
                if n[1]:  # negated class: one character matching none
                    return '(?:(?!%s)(?s:.))' % body
                return body
            for it in n[2]:
                if it[0] == 'p':
                    out.append('\\' + it[1])
                elif it[0] == 'x':
                    out.append(POSIX_CLASSES[it[1]])
                elif it[1] == it[2]:
                    out.append(py_char(it[1], u))
                else:
                    out.append(py_char(it[1], u) + '-' + py_char(it[2], u))
            out.append(']')
            return ''.join(out)
        if k == 'group':
            return ('(' if n[1] == 'cap' else '(?:') + alternation(n[2], ci) + ')'
        if k == 'rep':
            body = item(n[1], ci)
            if n[1][0] in ('rep', 'anchor'):
                body = '(?:' + body + ')'
            hi = n[3]
            if hi is None:
                q = {0: '*', 1: '+'}.get(n[2], '{%d,}' % n[2])
            else:
                q = '{%d,%d}' % (n[2], hi)
            return body + q + ('?' if n[4] else '')
        raise ValueError(k)

    def sequence(s, ci):
        """(text, whether an (?i) switched caseless on in this sequence)"""
        parts = []
        for k, x in enumerate(s):
            if x[0] == 'flag':
                if ci:
                    continue
                rest, _ = sequence(s[k + 1:], True)
                return ''.join(parts) + '(?i:' + rest + ')', True
            parts.append(item(x, ci))
        return ''.join(parts), False

    def alternation(a, ci):
        out, carry = [], False
        for s in a:
            if carry and not ci:
                text, _ = sequence(s, True)
                out.append('(?i:' + text + ')')
                continue
            text, switched = sequence(s, ci)
            carry = carry or switched
            out.append(text)
        return '|'.join(out)

    return alternation(alts, 'i' in flags)


def tree_has(alts, pred):
    def walk(n):
        if pred(n):
            return True
        if n[0] == 'group':
            return any(walk(x) for s in n[2] for x in s)
        if n[0] == 'rep':
            return walk(n[1])
        return False
    return any(walk(x) for s in alts for x in s)


def pattern_features(alts):
    f = set()
    tags = {'anchor': None, 'rep': None, 'cls': 'class', 'dot': 'dot', 'perl': 'perl',
            'flag': '(?i)', 'group': 'group'}

    def walk(n):
        k = n[0]
        if k == 'anchor':
            f.add({'^': '^', '$': '$', 'b': '\\b', 'B': '\\B'}[n[1]])
        elif k == 'rep':
            f.add('lazy' if n[4] else 'quant')
            if n[2] == 0:
                f.add('empty-able')
            walk(n[1])
        elif k == 'group':
            f.add('group')
            if len(n[2]) > 1:
                f.add('alt')
            for s in n[2]:
                if not s:
                    f.add('empty-alt')
                for x in s:
                    walk(x)
        elif tags.get(k):
            f.add(tags[k])
    for s in alts:
        if not s:
            f.add('empty-alt')
        for x in s:
            walk(x)
    if len(alts) > 1:
        f.add('alt')
    return f


# ---------------------------------------------------------------- corpora


def gen_corpus(rng, u):
    alpha = U_CORPUS if u else BYTE_CORPUS
    k = rng.random()

    def piece(n):
        return [rng.choice(alpha) for _ in range(n)]

    if k < 0.06:
        chars = list(rng.choice(['\n', '\r\n', '\0', 'a', '\n\n', 'ab\nab\n', 'a\r\n', ' ', '\r']))
        if not u:
            chars = [ord(c) for c in chars]
    elif k < 0.45:
        chars = piece(rng.randrange(1, 24))
    elif k < 0.85:
        chars = []
        for _ in range(rng.randrange(1, 8)):
            chars += piece(rng.randrange(0, 12))
            sep = rng.choice(['\n', '\n', '\r\n', '\n\n', '\r', '\0'])
            chars += list(sep) if u else [ord(c) for c in sep]
        if rng.random() < 0.4:  # no final newline
            chars += piece(rng.randrange(1, 6))
    elif k < 0.97:
        chars = piece(rng.randrange(40, 200))
    else:  # a long line
        chars = piece(rng.randrange(600, 2000))
    if chars and rng.random() < 0.3:  # the ends anchors look at
        end = rng.choice(['\n', '\r\n', '\0', '\r', '\n\n', 'a'])
        chars += list(end) if u else [ord(c) for c in end]
    if rng.random() < 0.02:
        chars = []
    if u:
        return ''.join(chars).encode('utf-8')
    return bytes(chars)


def split_lines(data):
    """The grep model's lines: split at '\\n'; a final line without one
    counts; a CR stays part of its line (GNU grep's behaviour)."""
    if not data:
        return []
    parts = data.split(b'\n' if isinstance(data, bytes) else '\n')
    if parts[-1] in (b'', ''):
        parts.pop()
    return parts


# ------------------------------------------------------------------ oracles


def py_flags(mod, flags, u, variant=()):
    f = 0
    if 'i' in flags:
        f |= mod.IGNORECASE
    if 's' in flags:
        f |= mod.DOTALL
    if 'm' in flags:
        f |= mod.MULTILINE
    if u and 'unicode-caseless' not in variant:
        f |= mod.ASCII  # ASCII \w \d \s \b and ASCII-only caseless (engine.h)
    return f


def rx_escape(b):
    """A name as rxbench's messages show it (corpora/file.c
    msg_escape_bytes): control bytes as \\xNN, every other byte as is."""
    return ''.join('\\x%02x' % c if c < 0x20 or c == 0x7f else chr(c) for c in b) \
        .encode('latin-1').decode('utf-8', 'replace')


def count_loop(search, anchored_match, data, anchored):
    """rxbench's count contract (engines/inturn.c) over Python matches."""
    if anchored:
        return 1 if anchored_match(data) else 0
    n, pos, end = 0, 0, len(data)
    while pos <= end:
        m = search(data, pos)
        if m is None:
            break
        n += 1
        s, e = m.span()
        pos = e if e > s else e + 1  # one character in str (UTF-8) mode
    return n


class Oracle:
    """Truth for one pattern under one flag set, lazily per class."""

    def __init__(self, alts, flags, budget=3.0, variant=()):
        self.alts = alts
        self.flags = flags
        self.u = 'u' in flags
        self.anchored = 'a' in flags
        self.budget = budget
        self.variant = variant
        self.py_re = py_render(alts, self.u, flags, 're', variant)
        self.py_regex = py_render(alts, self.u, flags, 'regex', variant)
        self._c = {}

    def _pat(self, text):
        return text if self.u else text.encode('latin-1')

    def _data(self, data):
        return data.decode('utf-8') if self.u else data

    def compiled(self, which):
        if which not in self._c:
            if which == 'first':
                self._c[which] = re.compile(self._pat(self.py_re), py_flags(re, self.flags, self.u,
                                                                            self.variant))
            elif which == 'first-regex':
                self._c[which] = regex.compile(self._pat(self.py_regex),
                                               py_flags(regex, self.flags, self.u, self.variant))
            elif which == 'longest':
                self._c[which] = regex.compile(self._pat(self.py_regex),
                                               py_flags(regex, self.flags, self.u, self.variant) | regex.POSIX)
            elif which == 'ends':
                self._c[which] = regex.compile(self._pat('(?<=(?:' + self.py_regex + '))'),
                                               py_flags(regex, self.flags, self.u, self.variant))
        return self._c[which]

    def is_match(self, data):
        p = self.compiled('first')
        d = self._data(data)
        with time_limit(self.budget):
            return int((p.match(d) if self.anchored else p.search(d)) is not None)

    def count(self, cls, data):
        d = self._data(data)
        if 'utf8-byte-steps' in self.variant and self.u:
            # hint only: a byte position inside a character becomes a
            # position of its own (a placeholder per continuation byte),
            # as an engine that resumes one byte past an empty match sees it
            d = ''.join(ch + '\udcff' * (len(ch.encode('utf-8')) - 1) for ch in d)
        with time_limit(self.budget):
            if cls == 'leftmost-first':
                p = self.compiled('first')
                return count_loop(p.search, p.match, d, self.anchored)
            if cls == 'leftmost-first-regex':
                p = self.compiled('first-regex')
                return count_loop(lambda s, pos: p.search(s, pos, timeout=self.budget),
                                  p.match, d, self.anchored)
            if cls == 'leftmost-longest':
                p = self.compiled('longest')
                return count_loop(lambda s, pos: p.search(s, pos, timeout=self.budget),
                                  p.match, d, self.anchored)
            if cls == 'all-match-ends':
                if self.anchored:
                    return 1 if self.compiled('first').match(d) else 0
                lb = self.compiled('ends')
                return sum(1 for e in range(len(d) + 1)
                           if lb.match(d, e, timeout=self.budget) is not None)
            if cls == 'all-match-ends-forward':
                return self.ends_forward(d)
        raise ValueError(cls)

    def ends_forward(self, d):
        """All match ends another way (self-test): for each e, does
        (?:P)(?<=\\A.{e}) match anywhere?  Python `re` backtracks through
        every way P can match until the assertion pins the end at e."""
        if self.anchored:
            return 1 if self.compiled('first').match(d) else 0
        n = 0
        f = py_flags(re, self.flags, self.u)
        for e in range(len(d) + 1):
            p = re.compile(self._pat('(?:%s)(?<=\\A(?s:.){%d})' % (self.py_re, e)), f)
            n += p.search(d) is not None
        return n

    def lines(self, data):
        p = self.compiled('first')
        d = self._data(data)
        lines = split_lines(d)
        if 'cr-stripped' in self.variant:
            lines = [l[:-1] if l[-1:] in (b'\r', '\r') else l for l in lines]
        with time_limit(self.budget):
            if self.anchored:
                return sum(1 for line in lines if p.match(line))
            return sum(1 for line in lines if p.search(line))


def gnu_grep_lines(pcre_pat, data, flags, tmp):
    """GNU grep -c -a -P (LC_ALL=C) as a third oracle for the grep model,
    or None where it does not apply (a NUL in the pattern, UTF-8 mode, or
    grep refusing the pattern)."""
    if b'\0' in pcre_pat or 'u' in flags:
        # not in UTF-8 mode: GNU grep 3.8 -P under a UTF-8 locale folds
        # Unicode caselessly and, in the self-test, disagreed with both
        # Python and PCRE2 itself on a few lines (\S$ after U+017F)
        return None
    pat = pcre_pat
    if 'a' in flags:
        pat = b'\\A(?:' + pat + b')'
    pf = os.path.join(tmp, 'grep.pat')
    cf = os.path.join(tmp, 'grep.txt')
    with open(pf, 'wb') as f:
        f.write(pat + b'\n')
    with open(cf, 'wb') as f:
        f.write(data)
    argv = ['grep', '-c', '-a', '-P']
    if 'i' in flags:
        argv.append('-i')
    argv += ['-f', pf, cf]
    env = dict(os.environ, LC_ALL='C.UTF-8' if 'u' in flags else 'C')
    try:
        p = subprocess.run(argv, capture_output=True, env=env, timeout=20)
    except (OSError, subprocess.TimeoutExpired):
        return None
    if p.returncode not in (0, 1):
        return None
    try:
        return int(p.stdout.split()[0])
    except (ValueError, IndexError):
        return None


# ------------------------------------------------------------- bookkeeping


class Stats:
    def __init__(self):
        self.invocations = 0
        self.checked = 0
        self.ok_checked = 0
        self.mismatch_checked = 0
        self.status = collections.Counter()
        self.msgs = collections.Counter()
        self.msg_example = {}
        self.printed = 0  # failures printed in full (the first of a signature)
        self.failures = []
        self.signatures = collections.OrderedDict()
        self.oracle_skipped = collections.Counter()
        self.oracle_conflicts = []
        self.notes = collections.Counter()

    def fail(self, f, opts):
        self.failures.append(f)
        if getattr(opts, 'current', None):
            f.setdefault('details', []).append('this invocation again: ' + opts.current)
        sig = f['signature']
        first = sig not in self.signatures
        if first and opts.minimize and f.get('case') is not None and f['kind'] in (
                'wrong answer timed', 'false mismatch'):
            m = minimize(f, opts, opts.engines_map)
            if m is not None:
                single = m.argv('build/rxbench', '/tmp/rxb-corpus', '/tmp/rxb-pattern', None, write=False)
                pre = 'printf %s > /tmp/rxb-corpus && ' % printf_arg(m.corpus)
                if m.form == 'file':
                    pre += 'printf %s > /tmp/rxb-pattern && ' % printf_arg(m.patterns[0] + b'\n')
                f['minimal'] = dict(pattern=esc(m.patterns[0]), corpus=esc(m.corpus))
                f['details'].append('minimal: pattern %s on corpus %s' % (esc(m.patterns[0]), esc(m.corpus)))
                f['details'].append('minimal reproducer: ' + pre + 'cd %s && ' % shlex.quote(ROOT) +
                                    argv_text(single))
        self.signatures.setdefault(sig, []).append(f)
        if first or opts.verbose:
            print_failure(f, first)
            sys.stdout.flush()
        if first:
            self.printed += 1


def print_failure(f, first):
    print('FAIL [%s] %s' % (f['kind'], f['title']))
    for line in f.get('details', []):
        print('    ' + line)
    if f.get('repro'):
        print('    reproduce: ' + f['repro'])
    if f.get('alone') is not None:
        print('    alone: ' + f['alone'])
    print()


class Workdir:
    """A directory for one invocation's files: kept under --keep, else
    kept only while a failure printed in full needs them."""

    stats = None  # set by main(): whose printed failures decide

    def __init__(self, opts, label):
        self.opts = opts
        self.printed_before = Workdir.stats.printed if Workdir.stats else 0
        if opts.keep:
            os.makedirs(opts.keep, exist_ok=True)
            self.path = tempfile.mkdtemp(prefix=label + '-', dir=opts.keep)
        else:
            self.path = tempfile.mkdtemp(prefix='difffuzz-' + label + '-')

    def file(self, name, data):
        p = os.path.join(self.path, name)
        with open(p, 'wb') as f:
            f.write(data)
        return p

    def done(self, failed):
        """Remove the files unless kept (--keep) or a failure needs them."""
        printed = Workdir.stats is not None and Workdir.stats.printed > self.printed_before
        if not self.opts.keep and not (failed and printed):
            shutil.rmtree(self.path, ignore_errors=True)


# ------------------------------------------------------------- scan suite

# "re2: pattern x*: count 8, is_match 1; expected count 4, is_match 1
#  (reference, leftmost-first)" (suites/case.c)
MSG_RE = re.compile(r'^(?P<engine>[\w-]+): pattern (?P<name>.*): (?P<what>count|matching lines) '
                    r'(?P<got>-?\d+), is_match (?P<im>-?\d+); expected (?:count|matching lines) '
                    r'(?P<want>-?\d+), is_match (?P<imw>-?\d+) \((?P<ref>.*)\)$', re.S)


class ScanCase:
    """One rxbench scan invocation: corpus, patterns, flags, model, argv."""

    def __init__(self, rng, engines, opts, forced=None):
        self.rng = rng
        if forced:
            self.__dict__.update(forced)
            self.trees = forced.get('trees')
            return
        r = rng
        self.u = r.random() < 0.2
        flags = [c for c in 'isma' if r.random() < 0.18]
        if self.u:
            flags.append('u')
        r.shuffle(flags)
        self.flags = ''.join(flags)
        self.model = 'grep' if r.random() < 0.3 else 'count'
        self.corpus = gen_corpus(r, self.u)
        g = Gen(r, self.u)
        n = r.randrange(5, opts.patterns + 1)
        self.trees = [g.pattern() for _ in range(n)]
        if r.random() < 0.1:  # the same pattern twice: names get "#k"
            self.trees.append(r.choice(self.trees))
        self.patterns = [pcre_render(t, self.u).encode('utf-8' if self.u else 'latin-1')
                         for t in self.trees]
        names = list(engines)
        self.engines = None
        if r.random() < 0.35:
            k = r.randrange(1, len(names) + 1)
            self.engines = r.sample(names, k)
        # how patterns reach rxbench: a file (flags apply to all), or
        # --pattern arguments with --flags somewhere among them
        self.form = 'file' if r.random() < 0.8 else 'args'
        if self.form == 'args' and any(b'\0' in p for p in self.patterns):
            self.form = 'file'
        self.flags_at = r.randrange(0, len(self.patterns) + 1) if self.form == 'args' else 0
        self.model_form = r.choice(('eq', 'eq', 'sep', 'omit')) if self.model == 'count' else r.choice(('eq', 'sep'))

    def argv(self, rxb, corpus, pattern_file, json_path, only=None, write=True):
        """rxbench's command line as bytes; `only`: the patterns to keep.
        With the file form the patterns go to pattern_file."""
        idx = list(range(len(self.patterns))) if only is None else list(only)
        a = [rxb.encode(), b'scan', b'--benchtime=1x', b'--warmup=0', b'--quiet']  # answers only: no warm-up
        a += [b'-o', json_path.encode()] if json_path else [b'--no-results']
        a += [b'--corpus', corpus.encode()]
        if self.model_form == 'eq':
            a.append(b'--model=' + self.model.encode())
        elif self.model_form == 'sep':
            a += [b'--model', self.model.encode()]
        if self.engines:
            a.append(b'--engines=' + ','.join(self.engines).encode())
        flag_arg = [b'--flags=' + self.flags.encode()] if self.flags else []
        if self.form == 'file':
            if write:
                with open(pattern_file, 'wb') as f:
                    f.write(b''.join(self.patterns[i] + b'\n' for i in idx))
            a += flag_arg + [b'--patterns-file', pattern_file.encode()]
        else:
            placed = False
            for i in idx:
                if i >= self.flags_at and not placed:
                    a += flag_arg
                    placed = True
                a.append(b'--pattern=' + self.patterns[i])
            if not placed:
                a += flag_arg
        return a

    def order(self, only=None):
        """The patterns in the order rxbench adds them."""
        return list(range(len(self.patterns))) if only is None else list(only)

    def flags_for(self, i):
        """The flags the documentation says pattern i gets: all of them,
        wherever --flags stands (what scan --help and docs/scan.md say)."""
        return self.flags


def argv_text(argv):
    """A command line (str or bytes words) as bash would take it."""
    out = []
    for w in argv:
        b = w if isinstance(w, bytes) else w.encode('utf-8', 'surrogateescape')
        out.append(bash_word(b) if b else "''")
    return ' '.join(out)


def run_scan_case(case, engines, opts, stats, label):
    """Run one scan invocation and check every row; returns failures."""
    wd = Workdir(opts, label)
    wd.file('corpus.bin', case.corpus)
    json_path = os.path.join(wd.path, 'out.json')
    argv = case.argv(opts.rxbench, os.path.join(wd.path, 'corpus.bin'),
                     os.path.join(wd.path, 'patterns.txt'), json_path)
    used = case.engines or [e for e in engines if e not in OPT_IN]
    order = case.order()
    names = scan_pattern_names([case.patterns[i] for i in order])
    by_name = dict(zip(names, order))
    suffix = '/model=grep' if case.model == 'grep' else ''

    # the oracles first (a pattern the oracle cannot answer is skipped)
    truth = {}
    for i in order:
        fl = case.flags_for(i)
        caseless = 'i' in fl or re.search(rb'\(\?[a-zA-Z^-]*i', case.patterns[i])
        if caseless and case.u and (any(b >= 0x80 for b in case.corpus) or
                                    any(b >= 0x80 for b in case.patterns[i])):
            # every engine folds Unicode case in UTF-8 mode (k and s with
            # U+212A and U+017F, as rxbench's reference does: a pattern's
            # U+212A matches the text's K); this oracle's caseless is ASCII
            # (re.ASCII), so it cannot judge either side being non-ASCII
            stats.oracle_skipped['caseless UTF-8 over non-ASCII text'] += 1
            continue
        o = Oracle(case.trees[i], fl)
        t = {}
        try:
            t['is_match'] = o.is_match(case.corpus)
            if case.model == 'grep':
                t['lines'] = o.lines(case.corpus)
                # rxbench's grep model: is_match is "some line matches"
                t['is_match'] = int(t['lines'] > 0)
            else:
                # 'none': an engine without count (xdp), whose rows are
                # unsupported in this model
                for cls in set(engines[e] for e in used) - {'none'}:
                    t[cls] = o.count(cls, case.corpus)
        except OracleTimeout:
            stats.oracle_skipped['timeout'] += 1
            continue
        except (re.error, regex.error) as e:
            stats.oracle_skipped['python cannot compile'] += 1
            if opts.verbose:
                print('oracle: cannot compile %r (%s): %s' % (o.py_re, esc(case.patterns[i]), e))
            continue
        except TimeoutError:
            stats.oracle_skipped['timeout'] += 1
            continue
        t['oracle'] = o
        if case.model == 'grep':
            g = gnu_grep_lines(case.patterns[i], case.corpus, case.flags_for(i), wd.path)
            if g is not None and g != t['lines']:
                stats.oracle_conflicts.append('GNU grep %d, Python %d: pattern %s flags %r corpus %s'
                                              % (g, t['lines'], esc(case.patterns[i]), case.flags,
                                                 esc(case.corpus)))
                if opts.verbose:
                    print('ORACLE CONFLICT ' + stats.oracle_conflicts[-1])
                continue
        truth[i] = t

    rc, out, err, secs = run_rxbench(argv)
    stats.invocations += 1
    failures = []

    def harness_fail(title, details):
        f = dict(kind='harness', title=title, details=details + ['command: ' + argv_text(argv)],
                 signature=('harness', title.split(':')[0]), repro=None)
        failures.append(f)
        stats.fail(f, opts)

    if rc == 'timeout' or (isinstance(rc, int) and rc < 0):
        harness_fail('rxbench did not finish: %s' % (rc if rc == 'timeout' else 'signal %d' % -rc),
                     ['stderr: ' + esc(err[-600:])])
        wd.done(True)
        return failures
    if rc == 2:
        harness_fail('rxbench refused the input (exit 2)', ['stderr: ' + esc(err[-600:])])
        wd.done(True)
        return failures
    try:
        rows, _ = load_rows(json_path)
    except (OSError, ValueError) as e:
        harness_fail('no JSON results: %s' % e, ['exit %s' % rc, 'stderr: ' + esc(err[-600:])])
        wd.done(True)
        return failures

    seen = {}
    for row in rows:
        keys = row.get('keys', {})
        seen[(keys.get('engine'), keys.get('pattern'))] = row
    bad_rows = 0
    for name, i in by_name.items():
        for e in used:
            row = seen.get((e, name))
            if row is None:
                harness_fail('row missing: Scan/engine=%s/pattern=%s%s' % (e, name, suffix),
                             ['pattern: ' + esc(case.patterns[i])])
                continue
            status = row.get('status')
            stats.status[status] += 1
            if status not in ('ok', 'unsupported', 'unverified'):
                bad_rows += 1
            if status in ('error', 'unsupported', 'timeout'):
                msg = (row.get('message') or '')
                msg = msg.replace('pattern %s: ' % name, '', 1).replace('%s: ' % e, '', 1)
                msg = re.sub(r' \(offset \d+\)', '', msg)
                key = '%s %s: %s' % (status, e, msg[:110])
                stats.msgs[key] += 1
                if key not in stats.msg_example:
                    stats.msg_example[key] = 'pattern %s flags %r' % (esc(case.patterns[i], 80), case.flags)
            if i not in truth:
                continue
            t = truth[i]
            cls = engines[e]
            want = t['lines'] if case.model == 'grep' else t.get(cls)
            if status == 'ok':
                got = metric(row, 'matches')
                stats.checked += 1
                stats.ok_checked += 1
                if got is None:
                    harness_fail('ok row without a matches metric: ' + row['name'], [])
                elif int(got) != want:
                    failures.append(scan_failure(case, i, e, cls, 'wrong answer timed', int(got), want,
                                                 t, argv, wd, opts, engines))
                    stats.fail(failures[-1], opts)
            elif status == 'mismatch':
                stats.checked += 1
                stats.mismatch_checked += 1
                m = MSG_RE.match(row.get('message') or '')
                if not m:
                    harness_fail('unparsable MISMATCH message: ' + row['name'],
                                 ['message: ' + esc(row.get('message') or '')])
                    continue
                got, im = int(m.group('got')), int(m.group('im'))
                if got == want and im == t['is_match']:
                    failures.append(scan_failure(case, i, e, cls, 'false mismatch', got, want, t,
                                                 argv, wd, opts, engines, wrong=int(m.group('want')),
                                                 extra='rxbench: %s %s %s; %s' % (
                                                     m.group('ref'), m.group('want'),
                                                     'is_match expected %s' % m.group('imw'),
                                                     (row.get('message') or '').split('; ', 1)[-1])))
                    stats.fail(failures[-1], opts)
                else:
                    stats.notes['mismatch rows rightly flagged'] += 1
    # a run that timed nothing fails too ("nothing was measured")
    nothing = bool(rows) and not any(r.get('status') == 'ok' for r in rows)
    want_rc = 1 if bad_rows or nothing else 0
    if rc != want_rc:
        harness_fail('exit status %s, the rows say %d' % (rc, want_rc), ['stderr: ' + esc(err[-300:])])
    wd.done(bool(failures))
    return failures


HINTS = [
    ('the same as without the flags', None),
    ('Unicode caseless (contract: ASCII caseless)', 'unicode-caseless'),
    ('$ only at the end of data', ('dollar-end-only',)),
    ('$ also before a NUL', ('dollar-before-nul',)),
    ('multiline ^ after a final newline', ('caret-after-final-newline',)),
    ('CR stripped from line ends', ('cr-stripped',)),
    ('UTF-8: an empty match resumed 1 byte later, inside a character', ('utf8-byte-steps',)),
]


def explain(case, i, cls, value, truth, engines):
    """Which other semantics give `value` (a wrong answer): hints that
    name the defect class.  Never used to decide pass or fail."""
    out = []
    tree = case.trees[i]
    for name, variant in HINTS:
        if name == 'CR stripped from line ends' and case.model != 'grep':
            continue
        if name == 'the same as without the flags':
            if not case.flags or case.u:
                continue
            o = Oracle(tree, '', budget=1.0)
        elif variant == 'unicode-caseless':
            if not ('u' in case.flags and ('i' in case.flags or tree_has(tree, lambda n: n[0] == 'flag'))):
                continue
            o = Oracle(tree, case.flags, budget=1.0, variant=('unicode-caseless',))
        else:
            if 'utf8-byte-steps' in variant and (not case.u or case.model != 'count'):
                continue
            o = Oracle(tree, case.flags, budget=1.0, variant=variant)
            if o.py_re == Oracle(tree, case.flags).py_re and variant[0] not in (
                    'cr-stripped', 'utf8-byte-steps'):
                continue
        try:
            v = o.lines(case.corpus) if case.model == 'grep' else o.count(cls, case.corpus)
        except Exception:
            continue
        if v == value and v != truth:
            out.append(name)
    if case.model == 'count':
        for other in ('leftmost-first', 'leftmost-longest', 'all-match-ends'):
            if other == cls:
                continue
            try:
                v = Oracle(tree, case.flags, budget=1.0).count(other, case.corpus)
            except Exception:
                continue
            if v == value and v != truth:
                out.append('answers like ' + other)
    return out


def scan_failure(case, i, engine, cls, kind, got, want, t, argv, wd, opts, engines, extra=None,
                 wrong=None):
    pat = case.patterns[i]
    tree = case.trees[i]
    feats = pattern_features(tree)
    before_flags = case.form == 'args' and case.flags and i < case.flags_at
    o = t['oracle']
    details = [
        'engine %s (%s), model %s, flags %r%s' % (engine, cls, case.model, case.flags,
                                                 ' (given BEFORE --flags on the command line)'
                                                 if before_flags else ''),
        'pattern: %s' % esc(pat),
        'corpus (%d bytes): %s' % (len(case.corpus), esc(case.corpus)),
        'expected %d (oracle: %s %r), got %d%s' % (
            want, 'grep lines' if case.model == 'grep' else cls, o.py_re, got,
            '' if kind != 'false mismatch' else ' - the right answer was flagged MISMATCH'),
    ]
    if extra:
        details.append(extra)
    # what explains the wrong answer: the engine's (timed) or the
    # majority's that flagged a right one
    bad_value = got if kind == 'wrong answer timed' else wrong
    hints = explain(case, i, cls, bad_value, want, engines) if bad_value is not None else []
    if kind == 'false mismatch' and wrong == want:
        hints = ['the is_match vote across all engines (a tie goes to the first) was wrong'] + hints
    if hints and hints[0].startswith('the is_match vote'):
        details.append('hint: the count was right and agreed with the majority; ' + hints[0])
    elif hints:
        details.append('hint: the wrong answer %d is what you get with: %s' % (bad_value, '; '.join(hints)))
    p2 = pcre2_direct()
    if p2 and case.model == 'count' and cls == 'leftmost-first':
        details.append('triage: PCRE2 direct (ctypes, inturn loop) says %s' % p2.count(pat, case.corpus, case.flags))
    elif p2 and case.model == 'grep':
        details.append('triage: PCRE2 direct per line says %s' % p2.lines(pat, case.corpus, case.flags))
    details.append('files: %s' % wd.path)
    details.append('full command: ' + argv_text(argv))
    # a reproducer of this one pattern, in the same argument form
    repro = 'printf %s > /tmp/rxb-corpus && ' % printf_arg(case.corpus)
    if case.form == 'file':
        repro += 'printf %s > /tmp/rxb-pattern && ' % printf_arg(pat + b'\n')
    single = case.argv('build/rxbench', '/tmp/rxb-corpus', '/tmp/rxb-pattern', None, only=[i],
                       write=False)
    repro += 'cd %s && ' % shlex.quote(ROOT) + argv_text(single)
    sig_feats = []
    if before_flags:
        sig_feats.append('pattern before --flags')
    elif hints:
        sig_feats.append(hints[0])
    else:
        sig_feats.append('unexplained')
    f = dict(kind=kind, title='%s: %s on %s' % (engine, esc(pat, 60), esc(case.corpus, 40)),
             details=details, repro=repro, engine=engine, cls=cls, model=case.model,
             flags=case.flags, pattern=pat, corpus=case.corpus, tree=tree, want=want, got=got,
             case=case, index=i, features=sorted(feats),
             signature=(kind, sig_feats[0], case.model, cls if case.model == 'count' else 'any',
                        engine if sig_feats[0] == 'unexplained' else ''))
    f['alone'] = confirm_alone(case, i, engine, kind, want, opts, engines) if opts.confirm else None
    return f


def confirm_alone(case, i, engine, kind, want, opts, engines):
    """Re-run pattern i alone (same flags, model, engines, argument form)
    and say whether the failure reproduces."""
    wd = Workdir(opts, 'alone')
    wd.file('corpus.bin', case.corpus)
    jp = os.path.join(wd.path, 'out.json')
    argv = case.argv(opts.rxbench, os.path.join(wd.path, 'corpus.bin'),
                     os.path.join(wd.path, 'pattern.txt'), jp, only=[i])
    rc, out, err, secs = run_rxbench(argv)
    name = scan_pattern_names([case.patterns[i]])[0]
    try:
        rows, _ = load_rows(jp)
    except (OSError, ValueError):
        wd.done(False)
        return 'no JSON (exit %s)' % rc
    wd.done(False)
    for row in rows:
        k = row.get('keys', {})
        if k.get('engine') == engine and k.get('pattern') == name:
            st = row.get('status')
            if st == 'ok':
                got = metric(row, 'matches')
                return ('reproduces (timed %d, expected %d)' % (got, want) if kind == 'wrong answer timed'
                        and got != want else 'does NOT reproduce alone (%s %s)' % (st, got))
            if st == 'mismatch':
                m = MSG_RE.match(row.get('message') or '')
                if kind == 'false mismatch' and m and int(m.group('got')) == want:
                    return 'reproduces (MISMATCH with the right answer %d)' % want
                return 'does NOT reproduce alone (%s: %s)' % (st, row.get('message'))
            return 'does NOT reproduce alone (%s: %s)' % (st, row.get('message'))
    return 'row not found alone'


def one_case(case, tree, corpus, before_flags):
    """A copy of `case` with one pattern (tree) and another corpus; the
    pattern stays before --flags on the command line if it was."""
    c = ScanCase.__new__(ScanCase)
    c.__dict__.update(case.__dict__)
    c.trees = [tree]
    c.patterns = [pcre_render(tree, case.u).encode('utf-8' if case.u else 'latin-1')]
    c.corpus = corpus
    c.flags_at = 1 if before_flags else 0
    return c


def still_fails(case, engine, kind, opts, engines):
    """Does `engine` still fail (the same kind) on this one-pattern case?"""
    cls = engines[engine]
    if case.form == 'args' and b'\0' in case.patterns[0]:
        return False
    if b'\n' in case.patterns[0] or b'\r' in case.patterns[0][-1:]:
        return False
    try:
        o = Oracle(case.trees[0], case.flags, budget=1.0)
        want = o.lines(case.corpus) if case.model == 'grep' else o.count(cls, case.corpus)
        im = o.is_match(case.corpus)
    except Exception:
        return False
    wd = Workdir(opts, 'min')
    wd.file('corpus.bin', case.corpus)
    jp = os.path.join(wd.path, 'out.json')
    argv = case.argv(opts.rxbench, os.path.join(wd.path, 'corpus.bin'),
                     os.path.join(wd.path, 'pattern.txt'), jp)
    rc, out, err, secs = run_rxbench(argv)
    name = scan_pattern_names(case.patterns)[0]
    try:
        rows, _ = load_rows(jp)
    except (OSError, ValueError):
        wd.done(False)
        return False
    wd.done(False)
    for row in rows:
        k = row.get('keys', {})
        if k.get('engine') != engine or k.get('pattern') != name:
            continue
        if kind == 'wrong answer timed' and row.get('status') == 'ok':
            return int(metric(row, 'matches')) != want
        if kind == 'false mismatch' and row.get('status') == 'mismatch':
            m = MSG_RE.match(row.get('message') or '')
            return bool(m) and int(m.group('got')) == want and int(m.group('im')) == im
    return False


def tree_shrinks(alts):
    """Smaller variants of a pattern tree, roughly smallest first."""
    out = []
    if len(alts) > 1:
        for k in range(len(alts)):
            out.append([alts[k]])
            out.append(alts[:k] + alts[k + 1:])
    for k, seq in enumerate(alts):
        for j, item in enumerate(seq):
            def put(new_items):
                a = [list(x) for x in alts]
                a[k] = seq[:j] + new_items + seq[j + 1:]
                return a
            out.append(put([]))
            if item[0] == 'rep':
                out.append(put([item[1]]))
                if item[4]:
                    out.append(put([item[:4] + (False,) + item[5:]]))
            if item[0] == 'group':
                if len(item[2]) == 1:
                    out.append(put(list(item[2][0])))
                for sub in tree_shrinks(item[2]):
                    out.append(put([('group', item[1], sub)]))
            if item[0] == 'rep' and item[1][0] == 'group':
                for sub in tree_shrinks(item[1][2]):
                    out.append(put([(item[0], ('group', item[1][1], sub)) + item[2:]]))
            if item[0] == 'cls' and len(item[2]) > 1:
                for q in range(len(item[2])):
                    out.append(put([('cls', item[1], item[2][:q] + item[2][q + 1:])]))
    return out


def minimize(f, opts, engines, budget=40.0):
    """Shrink a scan failure's corpus and pattern while it still fails."""
    case, i, engine, kind = f['case'], f['index'], f['engine'], f['kind']
    tree, corpus = case.trees[i], case.corpus
    before = case.form == 'args' and i < case.flags_at
    deadline = time.time() + budget
    cur = one_case(case, tree, corpus, before)
    if not still_fails(cur, engine, kind, opts, engines):
        return None
    changed = True
    while changed and time.time() < deadline:
        changed = False
        n = len(cur.corpus) // 2
        while n >= 1 and time.time() < deadline:  # delete chunks of the corpus
            k = 0
            while k < len(cur.corpus) and time.time() < deadline:
                cand = one_case(case, cur.trees[0], cur.corpus[:k] + cur.corpus[k + n:], before)
                if case.u:
                    try:
                        cand.corpus.decode('utf-8')
                    except UnicodeDecodeError:
                        k += n
                        continue
                if still_fails(cand, engine, kind, opts, engines):
                    cur, changed = cand, True
                else:
                    k += n
            n //= 2
        for t in tree_shrinks(cur.trees[0]):  # then the pattern
            if time.time() >= deadline:
                break
            cand = one_case(case, t, cur.corpus, before)
            if len(cand.patterns[0]) < len(cur.patterns[0]) and still_fails(cand, engine, kind, opts, engines):
                cur, changed = cand, True
                break
    return cur


# A fixed regression set: defects known on main, run first in every run so
# the fuzzer catches them whatever the seed.  Each is (pattern tree spelt
# as PCRE text via parse_simple, corpus, flags, model, engines, form).
KNOWN = [
    dict(pat='^|x?', corpus=b'ab\nab\n', flags='', model='count', engines=None, form='file'),
    dict(pat='$', corpus=b'a\0b\0c', flags='', model='count', engines=None, form='file'),
    dict(pat='a$|b', corpus=b'b\na\n', flags='', model='count', engines=['re2', 'pcre2'], form='file'),
    dict(pat='x*', corpus='日日\n'.encode(), flags='u', model='count', engines=['re2', 'pcre2'], form='file'),
    dict(pat='abc', corpus=b'ABC', flags='i', model='count', engines=None, form='args'),
    dict(pat='a$', corpus=b'a\r\n', flags='', model='grep', engines=None, form='file'),
    # found by this fuzzer (minimised):
    dict(pat='^', corpus=b'\n', flags='m', model='count', engines=None, form='file'),
    dict(pat='\\B|$[^1]*', corpus=b'\n\xc3', flags='', model='count', engines=None, form='file'),
    dict(pat='[^\\WB]', corpus=b'b_', flags='i', model='count', engines=None, form='file'),
    dict(pat='$^', corpus=b'\n', flags='s', model='count', engines=None, form='file'),
    dict(pat='^|', corpus=b'\n', flags='', model='count', engines=None, form='file'),
    dict(pat='\\S', corpus=b'\x0b', flags='', model='count', engines=['re2', 'onig'], form='file'),
    dict(pat='\\n^', corpus=b'\n', flags='', model='count', engines=['posix', 'tre'], form='file'),
]

# The same for the fqdn and payload suites.
KNOWN_FQDN = [
    dict(policy=[('pattern', b'*.'), ('name', b'k.com')], queries=[b'.', b'k.com', b'\xe2\x84\xaa.com']),
    dict(policy=[('name', b'--cba.example.com')], queries=[b'--cba.example.com'], form='list'),
]
KNOWN_PAYLOAD = [
    dict(rules=[b'a$'], payloads=[b'xa\n', b'ab'], engines=['re2', 'pcre2']),
]


def parse_simple(text, u):
    """A small PCRE parser for the regression set's patterns (literals,
    ^ $ \\b \\B, . classes, groups, | and quantifiers) into a tree."""
    pos = [0]

    def peek():
        return text[pos[0]] if pos[0] < len(text) else None

    def alts():
        out = [seq()]
        while peek() == '|':
            pos[0] += 1
            out.append(seq())
        return out

    def seq():
        s = []
        while peek() not in (None, '|', ')'):
            c = peek()
            pos[0] += 1
            if c == '(' and text.startswith('?i)', pos[0]):
                pos[0] += 3
                s.append(('flag',))
                continue
            if c == '(':
                kind = 'cap'
                if text.startswith('?:', pos[0]):
                    pos[0] += 2
                    kind = 'nc'
                node = ('group', kind, alts())
                pos[0] += 1
            elif c == '[':
                neg = peek() == '^'
                if neg:
                    pos[0] += 1
                items = []
                while peek() != ']':
                    a = text[pos[0]]
                    pos[0] += 1
                    if a == '\\':
                        a = {'n': '\n', 'r': '\r', 't': '\t'}.get(text[pos[0]], text[pos[0]])
                        pos[0] += 1
                    b = a
                    if peek() == '-' and text[pos[0] + 1] != ']':
                        b = text[pos[0] + 1]
                        pos[0] += 2
                    items.append(('r', ord(a), ord(b), 0.0, 0.0))
                pos[0] += 1
                node = ('cls', neg, items)
            elif c == '^' or c == '$':
                node = ('anchor', c)
            elif c == '.':
                node = ('dot',)
            elif c == '\\':
                d = text[pos[0]]
                pos[0] += 1
                esc_char = {'n': 10, 'r': 13, 't': 9}
                node = ('anchor', d) if d in 'bB' else (('perl', d) if d in 'dwsDWS' else (
                    'lit', esc_char.get(d, ord(d)), 0.0))
            else:
                node = ('lit', ord(c), 0.0)
            if peek() in ('*', '+', '?'):
                q = peek()
                pos[0] += 1
                lazy = peek() == '?'
                if lazy:
                    pos[0] += 1
                lo, hi = {'*': (0, None), '+': (1, None), '?': (0, 1)}[q]
                node = ('rep', node, lo, hi, lazy, q)
            s.append(node)
        return s

    return alts()


def known_cases(engines):
    out = []
    for k in KNOWN:
        u = 'u' in k['flags']
        engs = k['engines']
        if engs and not all(e in engines for e in engs):
            continue
        tree = parse_simple(k['pat'], u)
        out.append(dict(u=u, flags=k['flags'], model=k['model'], corpus=k['corpus'],
                        trees=[tree], patterns=[k['pat'].encode('utf-8')], engines=engs,
                        form=k['form'], flags_at=len([tree]) if k['form'] == 'args' else 0,
                        model_form='eq'))
    return out


# ---------------------------------------------------------------- fqdn suite
#
# Cilium v1.11 (pkg/fqdn/matchpattern/matchpattern.go, pkg/fqdn/dns/dns.go,
# the DNS proxy's CheckAllowed):
#   a name is lower-cased with Go's strings.ToLower and made fully
#   qualified (a trailing dot unless it ends with an unescaped one);
#   matchName n allows exactly FQDN(lower(n));
#   matchPattern "*" is (^([-a-zA-Z0-9_]+[.])+$)|(^[.]$): every label
#   non-empty and of the DNS class, or the root ".";
#   any other matchPattern p becomes ^ + p' + $ where p' is FQDN(lower(p))
#   with '*' -> [-a-zA-Z0-9_]* (within one label) and '.' -> [.].
# The oracle below is written label by label; Cilium's own regex
# construction (translated to Python: Go's $ is \Z) cross-checks it.

DNS_CLASS = set(b'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_')


def go_tolower(b):
    """Go's strings.ToLower on bytes: ASCII fast path; otherwise rune by
    rune with unicode.ToLower (simple mapping), each invalid byte
    becoming U+FFFD."""
    if all(c < 0x80 for c in b):
        return bytes(c + 32 if 65 <= c <= 90 else c for c in b)
    out = []
    i = 0
    while i < len(b):
        for n in (1, 2, 3, 4):
            try:
                ch = b[i:i + n].decode('utf-8')
                if len(ch) == 1:
                    break
            except UnicodeDecodeError:
                ch = None
        else:
            ch, n = '\ufffd', 1
        if ch is None:
            ch, n = '\ufffd', 1
        low = ch.lower()
        if len(low) != 1:  # full mapping; Go uses the simple one
            low = {'\u0130': 'i'}.get(ch, ch)
        out.append(low)
        i += n
    return ''.join(out).encode('utf-8', 'surrogatepass')


def go_isfqdn(s):
    if not s.endswith(b'.'):
        return False
    s2 = s[:-1]
    i = len(s2) - 1
    while i >= 0 and s2[i] == 0x5c:
        i -= 1
    return (len(s2) - i) % 2 != 0


def cilium_fqdn(s):
    s = go_tolower(s)
    return s if go_isfqdn(s) else s + b'.'


def label_glob(pat, name):
    """'*' takes any run of DNS-class bytes (none included)."""
    if not pat:
        return not name
    if pat[0] == 0x2a:
        for k in range(len(name) + 1):
            if label_glob(pat[1:], name[k:]):
                return True
            if k < len(name) and name[k] not in DNS_CLASS:
                return False
        return False
    return bool(name) and pat[0] == name[0] and label_glob(pat[1:], name[1:])


def cilium_allows(policy, query):
    """Label by label: does any selector allow the query?"""
    q = cilium_fqdn(query)
    qlabels = q.split(b'.')[:-1]  # FQDN: ends with '.', so the last is ''
    for kind, sel in policy:
        if kind == 'pattern' and sel.strip() == b'*':
            if q == b'.' or all(l and all(c in DNS_CLASS for c in l) for l in qlabels):
                return True
            continue
        p = cilium_fqdn(sel.strip())
        plabels = p.split(b'.')[:-1]
        if len(plabels) != len(qlabels):
            continue
        if kind == 'name':
            if p == q:
                return True
            continue
        if all(label_glob(pl, ql) for pl, ql in zip(plabels, qlabels)):
            return True
    return False


def cilium_allows_regex(policy, query):
    """The same through Cilium's regex construction (cross-check)."""
    q = cilium_fqdn(query)
    for kind, sel in policy:
        s = sel.strip()
        if kind == 'pattern' and s == b'*':
            r = rb'(\A([-a-zA-Z0-9_]+[.])+\Z)|(\A[.]\Z)'
        else:
            p = cilium_fqdn(s)
            body = re.escape(p).replace(rb'\*', rb'[-a-zA-Z0-9_]*').replace(rb'\.', rb'[.]')
            r = rb'\A' + body + rb'\Z'
        if re.search(r, q):
            return True
    return False


def gen_label(r, long_ok=True):
    k = r.random()
    if k < 0.1 and long_ok:
        return ''.join(r.choice('abcxyz019-_') for _ in range(r.randrange(40, 64)))
    n = r.randrange(1, 9)
    return ''.join(r.choice('abcdefxyz0123456789-_' if r.random() < 0.3 else 'abcxyz') for _ in range(n))


def mixcase(r, s):
    return ''.join(c.upper() if r.random() < 0.4 else c for c in s)


def gen_policy(r):
    sels = []
    tlds = ['com', 'io', 'co.uk', 'Org', 'x-y']
    for _ in range(r.randrange(1, 9)):
        kind = 'name' if r.random() < 0.45 else 'pattern'
        labels = [gen_label(r) for _ in range(r.randrange(1, 4))]
        labels += r.choice(tlds).split('.')
        if kind == 'pattern':
            k = r.random()
            if k < 0.1:
                text = '*'
            else:
                for _ in range(r.randrange(1, 3)):
                    j = r.randrange(len(labels))
                    form = r.random()
                    lab = labels[j]
                    if form < 0.35:
                        labels[j] = '*'
                    elif form < 0.5:
                        labels[j] = '**'
                    elif form < 0.75:
                        p = r.randrange(len(lab) + 1)
                        labels[j] = lab[:p] + '*' + lab[p:]
                    else:
                        labels[j] = '*' + lab + '*'
                text = '.'.join(labels)
                if r.random() < 0.1:
                    text = r.choice(['*.', '*.*', '**.', '*.' + text])
        else:
            text = '.'.join(labels)
        if r.random() < 0.3:
            text = mixcase(r, text)
        if r.random() < 0.15 and text != '*' and not text.endswith('.'):
            text += '.'
        if len(text) > 250:
            text = text[:250].rstrip('.')
        sels.append((kind, text.encode()))
    return sels


def gen_queries(r, policy):
    qs = []
    for _ in range(r.randrange(5, 40)):
        kind, sel = r.choice(policy)
        s = sel.decode()
        if s == '*':
            s = '.'.join(gen_label(r, False) for _ in range(r.randrange(1, 4)))
        k = r.random()
        out = []
        for c in s:
            if c == '*':
                kk = r.random()
                if kk < 0.5:
                    out.append(''.join(r.choice('abz09-_') for _ in range(r.randrange(0, 5))))
                elif kk < 0.65:
                    out.append('')
                elif kk < 0.8:
                    out.append('a.b')  # a dot where one label is expected
                else:
                    out.append(r.choice(['A', 'é', '\u212a', 'x y', '*', '\\', 'İ']))
            else:
                out.append(c)
        q = ''.join(out)
        if k < 0.2:
            q = mixcase(r, q)
        elif k < 0.3:
            q = q.rstrip('.') + '.'
        elif k < 0.35:
            q = q + '..'
        elif k < 0.4:
            q = '.' + q
        elif k < 0.45:
            q = r.choice(['.', '.', 'com', 'com.', '..', 'a..com', s.split('.')[-1]])
        elif k < 0.5:
            p = r.randrange(len(q) + 1)
            q = q[:p] + r.choice(['\u212a', 'İ', 'É', '\x00', '\x7f', '\xff', '_', '-', 'Z']) + q[p:]
        elif k < 0.55:
            q = gen_label(r) + '.' + q
        qb = q.encode('utf-8', 'surrogatepass')
        if '\xff' in q:
            qb = qb.replace('\xff'.encode(), b'\xff')
        qb = qb.strip(b' \t').replace(b'\n', b'').replace(b'\r', b'')
        if not qb or len(qb) > 250:
            continue
        qs.append(qb)
    return qs or [b'a.com']


def policy_text(r, policy):
    """A list (one selector per line) or CiliumNetworkPolicy YAML."""
    if r.random() < 0.5 and all(
            (k == 'pattern') == (b'*' in s) for k, s in policy):
        return b''.join(s + b'\n' for k, s in policy), 'list'
    out = ['apiVersion: cilium.io/v2', 'kind: CiliumNetworkPolicy', 'metadata:',
           '  name: fuzz', 'spec:', '  endpointSelector: {}', '  egress:']
    names = [(k, s) for k, s in policy]
    out.append('  - toFQDNs:')
    for k, s in names:
        out.append('    - %s: "%s"' % ('matchName' if k == 'name' else 'matchPattern', s.decode()))
    return ('\n'.join(out) + '\n').encode(), 'yaml'


def run_fqdn_case(r, engines, opts, stats, label, forced=None):
    policy = forced['policy'] if forced else gen_policy(r)
    queries = forced['queries'] if forced else gen_queries(r, policy)
    if forced and forced.get('form') == 'list':
        ptext, pform = b''.join(x + b'\n' for _, x in policy), 'list'
    else:
        ptext, pform = policy_text(r, policy)
    wd = Workdir(opts, label)
    pf = wd.file('policy.' + ('yaml' if pform == 'yaml' else 'txt'), ptext)
    qf = wd.file('queries.txt', b''.join(q + b'\n' for q in queries))
    jp = os.path.join(wd.path, 'out.json')
    # the oracle is Cilium v1.11's matchpattern: ask rxbench for 1.11
    argv = [opts.rxbench, 'run', 'fqdn', '--benchtime=1x', '--warmup=0', '--quiet', '-o', jp,
            '--cilium=1.11', '--policy', pf, '--queries', qf]
    if not forced and r.random() < 0.3:
        argv.append('--engines=' + ','.join(r.sample(list(engines), r.randrange(1, len(engines) + 1))))
    verdict = {}
    for q in queries:
        a = cilium_allows(policy, q)
        b = cilium_allows_regex(policy, q)
        if a != b:
            stats.oracle_conflicts.append('fqdn oracle: label-by-label %s, Cilium regex %s: query %s policy %s'
                                          % (a, b, esc(q), policy))
        verdict[q] = a
    allowed = sum(1 for q in queries if verdict[q])
    rc, out, err, secs = run_rxbench(argv)
    stats.invocations += 1
    failures = []
    repro = ('printf %s > /tmp/rxb-policy && printf %s > /tmp/rxb-queries && '
             'build/rxbench run fqdn --benchtime=1x --policy /tmp/rxb-policy --queries /tmp/rxb-queries --no-results'
             % (printf_arg(ptext), printf_arg(b''.join(q + b'\n' for q in queries))))

    def fail(kind, title, details, sig):
        f = dict(kind=kind, title=title, details=details + [
            'policy (%s): %s' % (pform, esc(ptext, 600)),
            'queries: %s' % esc(b''.join(q + b'\n' for q in queries), 600),
            'full command: ' + argv_text(argv)], repro=repro, signature=sig)
        failures.append(f)
        stats.fail(f, opts)

    if rc == 'timeout' or (isinstance(rc, int) and rc < 0) or rc == 2:
        fail('harness', 'fqdn: rxbench exit %s' % rc, ['stderr: ' + esc(err[-600:])], ('harness', 'fqdn exit'))
        wd.done(True)
        return failures
    try:
        rows, _ = load_rows(jp)
    except (OSError, ValueError) as e:
        fail('harness', 'fqdn: no JSON results (%s)' % e, [], ('harness', 'fqdn json'))
        wd.done(True)
        return failures
    missing_allowed = 0
    qrows = 0
    for row in rows:
        st = row.get('status')
        name = row.get('name', '')
        keys = row.get('keys', {})
        stats.status['fqdn ' + str(st)] += 1
        if st in ('error', 'unsupported', 'timeout'):
            stats.msgs['fqdn %s %s: %s' % (st, keys.get('engine'), (row.get('message') or '')[:100])] += 1
        if st == 'ok' and keys.get('phase') == 'queries':
            qrows += 1
            got = metric(row, 'allowed')
            if got is None:
                missing_allowed += 1
            else:
                stats.checked += 1
                stats.ok_checked += 1
            if got is None:
                pass
            elif int(got) != allowed:
                wrong = [q for q in queries if verdict[q]]
                fail('wrong answer timed', 'fqdn %s: allowed %d, Cilium allows %d of %d' % (
                    name, int(got), allowed, len(queries)),
                    ['allowed by Cilium: ' + ', '.join(esc(q) for q in wrong[:20])],
                    ('wrong answer timed', 'fqdn', keys.get('strategy')))
        if st == 'mismatch':
            stats.checked += 1
            stats.mismatch_checked += 1
            m = re.search(r"query '(.*?)' \((.*?)\): (allowed|denied), the reference says (allowed|denied)",
                          row.get('message') or '')
            if not m:
                continue
            qtext = m.group(1).encode('utf-8', 'surrogateescape')
            if m.group(2) != 'queries':
                stats.notes['fqdn mismatch on a generated query set'] += 1
                continue
            engine_says = m.group(3) == 'allowed'
            cands = [q for q in queries
                     if esc(q) == m.group(1) or q == qtext or rx_escape(q) == m.group(1)]
            if not cands:
                fail('harness', 'fqdn %s: MISMATCH names query %s, which is not in the file' % (
                    name, esc(qtext)), ['message: ' + esc(row.get('message') or ''),
                                       'a query with a NUL byte is cut there when stored (its '
                                       'length is not): verdicts on bytes past the copy'],
                     ('harness', 'fqdn query not in the file'))
                continue
            truth_v = verdict[cands[0]]
            if engine_says == truth_v:
                fail('false mismatch', 'fqdn %s: %s is %s (Cilium agrees), the reference says %s' % (
                    name, esc(cands[0]), m.group(3), m.group(4)),
                    ['message: ' + esc(row.get('message') or '')],
                    ('false mismatch', 'fqdn', 'reference %s' % m.group(4)))
            else:
                stats.notes['fqdn mismatch rows rightly flagged'] += 1
                if opts.verbose:
                    print('fqdn mismatch rightly flagged: %s (Cilium: %s)' % (
                        esc(row.get('message') or ''), 'allowed' if truth_v else 'denied'))
    if missing_allowed:
        stats.notes['fqdn queries rows without an `allowed` metric'] += missing_allowed
        if not opts.allow_missing_allowed:
            fail('unverifiable timed verdicts',
                 'fqdn: %d queries-phase rows timed with no `allowed` metric (Cilium allows %d of %d)'
                 % (missing_allowed, allowed, len(queries)),
                 ['the queries phase must report `allowed`, the verified number of allowed queries; '
                  'this check passes once that metric lands and agrees with Cilium'],
                 ('unverifiable', 'fqdn allowed metric missing'))
    bad = any(row.get('status') not in ('ok', 'unsupported', 'unverified') for row in rows)
    bad = bad or (bool(rows) and not any(row.get('status') == 'ok' for row in rows))
    if rc != (1 if bad else 0):
        fail('harness', 'fqdn: exit status %s, the rows say %d' % (rc, 1 if bad else 0), [],
             ('harness', 'fqdn exit status'))
    wd.done(bool(failures))
    return failures


# ------------------------------------------------------------- payload suite


def pcap_bytes(payloads, r, flows=None):
    """A classic pcap (Ethernet) of IPv4 TCP/UDP packets with these payloads.
    flows: per payload its flow (payloads of a flow share ports and
    protocol, TCP sequence numbers run on), else one flow per payload;
    returns the pcap and, per flow, (protocol, source port)."""
    out = [struct.pack('<IHHiIII', 0xa1b2c3d4, 2, 4, 0, 0, 65535, 1)]
    flows = flows if flows is not None else list(range(len(payloads)))
    kind, seq = {}, {}
    for i, p in enumerate(payloads):
        f = flows[i]
        if f not in kind:
            kind[f] = (17 if r.random() < 0.4 else 6, 1000 + f)
            seq[f] = r.randrange(1 << 32)
        proto, port = kind[f]
        if proto == 17:
            l4 = struct.pack('>HHHH', port, 53, 8 + len(p), 0)
        else:
            l4 = struct.pack('>HHIIBBHHH', port, 80, seq[f], 0, 5 << 4, 0x18, 65535, 0, 0)
            seq[f] = (seq[f] + len(p)) & 0xffffffff
        total = 20 + len(l4) + len(p)
        ip = struct.pack('>BBHHHBBH4s4s', 0x45, 0, total, i & 0xffff, 0, 64, proto, 0,
                         bytes([10, 0, 0, 1]), bytes([10, 0, 0, 2]))
        frame = b'\x00\x11\x22\x33\x44\x55\x66\x77\x88\x99\xaa\xbb\x08\x00' + ip + l4 + p
        out.append(struct.pack('<IIII', i, 0, len(frame), len(frame)) + frame)
    return b''.join(out), kind


def flow_streams(payloads, flows, kind):
    """Each flow's payloads joined, in the order rxbench lists flows (by
    5-tuple: TCP before UDP, then by source port)."""
    order = sorted(set(flows), key=lambda f: kind[f])
    return [b''.join(p for p, g in zip(payloads, flows) if g == f) for f in order]


SIMPLE_WORDS = [b'get', b'GET', b'admin', b'select', b'union', b'etc/passwd', b'../', b'<script',
                b'abc', b'x', b'%2e', b'cmd=', b'id']


def gen_rule(r):
    """A simple regex rule: words, classes, .*, alternation, anchors."""
    parts = []
    for _ in range(r.randrange(1, 4)):
        k = r.random()
        if k < 0.5:
            parts.append(re.escape(r.choice(SIMPLE_WORDS)))
        elif k < 0.65:
            parts.append(b'[a-z]+')
        elif k < 0.75:
            parts.append(b'.*')
        elif k < 0.85:
            parts.append(b'(' + re.escape(r.choice(SIMPLE_WORDS)) + b'|' + re.escape(r.choice(SIMPLE_WORDS)) + b')')
        else:
            parts.append(b'[0-9]{1,3}')
    rule = b''.join(parts)
    if r.random() < 0.15:
        rule = b'^' + rule
    return rule


def gen_payload(r):
    n = r.randrange(1, 120)
    words = []
    while sum(len(w) for w in words) < n:
        k = r.random()
        words.append(r.choice(SIMPLE_WORDS) if k < 0.4 else bytes(r.choice(b'ab /=?&.\n\r0123456789xyzGET')
                                                                  for _ in range(r.randrange(1, 6))))
    return b''.join(words)[:n] or b'x'


def payload_rules(r):
    """Rules for the regex-lines format: random PCRE trees (bytes mode) or
    simple WAF-like rules.  Lines the format would read differently are
    not generated: a NUL or CR byte, a '#' comment, nothing but flags."""
    out = []
    g = Gen(r, False)
    tries = 0
    while len(out) < r.randrange(1, 7) and tries < 100:
        tries += 1
        if r.random() < 0.3:
            tree = None
            text = gen_rule(r)
        else:
            tree = g.pattern()
            text = pcre_render(tree, False).encode('latin-1')
        t = text.lstrip(b' \t')
        if (not t or b'\0' in text or b'\r' in text or t.startswith(b'#') or
                re.fullmatch(rb'(\(\?i\))*', text) or any(text == x for x, _ in out)):
            continue
        out.append((text, tree))
    return out


def run_payload_case(r, engines, opts, stats, label, forced=None):
    """User rules (one regex a line) x the packets of a pcap.  The oracle:
    per rule and packet, does the rule match the payload (PCRE semantics
    as for scan, no flags); `matches` is the number of packets some rule
    the engine ran matches."""
    if forced:
        rules = [(x, parse_simple(x.decode('latin-1'), False)) for x in forced['rules']]
        payloads = forced['payloads']
    else:
        rules = payload_rules(r)
        payloads = [gen_payload(r) if r.random() < 0.4 else (gen_corpus(r, False)[:1400] or b'x')
                    for _ in range(r.randrange(1, 40))]
    wd = Workdir(opts, label)
    rtext = b''.join(x + b'\n' for x, _ in rules)
    rf = wd.file('rules.txt', rtext)
    # stream mode: payloads in flows of 1..4; the oracle runs on each flow
    flows = None
    if not forced and r.random() < 0.4:
        flows, f = [], 0
        while len(flows) < len(payloads):
            flows.extend([f] * r.randrange(1, 5))
            f += 1
        flows = flows[:len(payloads)]
    pcap, kind = pcap_bytes(payloads, r, flows)
    streams = flow_streams(payloads, flows, kind) if flows is not None else []
    pf = wd.file('traffic.pcap', pcap)
    jp = os.path.join(wd.path, 'out.json')
    argv = [opts.rxbench, 'run', 'payload', '--benchtime=1x', '--warmup=0', '--quiet', '-o', jp,
            '--scenarios=real-life', '--rules', rf, '--rules-format=regex', '--pcap', pf]
    if flows is not None:
        argv.append('--mode=block,stream')
    if forced and forced.get('engines'):
        argv.append('--engines=' + ','.join(forced['engines']))
    elif not forced and r.random() < 0.3:
        argv.append('--engines=' + ','.join(r.sample(list(engines), r.randrange(1, len(engines) + 1))))
    hit = []  # hit[rule][packet]
    fhit = []  # fhit[rule][flow]
    try:
        for x, tree in rules:
            if tree is None:
                p = re.compile(x)
                hit.append([p.search(pl) is not None for pl in payloads])
                fhit.append([p.search(pl) is not None for pl in streams])
            else:
                o = Oracle(tree, '')
                hit.append([bool(o.is_match(pl)) for pl in payloads])
                fhit.append([bool(o.is_match(pl)) for pl in streams])
    except (OracleTimeout, TimeoutError, re.error, regex.error):
        stats.oracle_skipped['payload rule'] += 1
        wd.done(False)
        return []
    per_rule = [sum(h) for h in hit]
    rc, out, err, secs = run_rxbench(argv)
    stats.invocations += 1
    failures = []
    repro = ('cd %s && build/rxbench run payload --benchtime=1x --scenarios=real-life --rules %s '
             '--rules-format=regex --pcap %s%s --no-results   (files kept in %s)'
             % (shlex.quote(ROOT), rf, pf, ' --mode=block,stream' if flows else '', wd.path))

    def fail(kind, title, details, sig, engine=None):
        f = dict(kind=kind, title=title, engine=engine, details=details + [
            'rules: %s' % esc(rtext),
            'payloads: ' + ' | '.join('%d: %s' % (k, esc(p, 80)) for k, p in enumerate(payloads[:16])),
            'oracle: packets per rule %s' % per_rule,
            'full command: ' + argv_text(argv)], repro=repro, signature=sig)
        failures.append(f)
        stats.fail(f, opts)

    if rc == 'timeout' or (isinstance(rc, int) and rc < 0) or rc == 2:
        fail('harness', 'payload: rxbench exit %s' % rc, ['stderr: ' + esc(err[-600:])],
             ('harness', 'payload exit %s' % rc))
        wd.done(True)
        return failures
    try:
        rows, _ = load_rows(jp)
    except (OSError, ValueError) as e:
        fail('harness', 'payload: no JSON (%s)' % e, [], ('harness', 'payload json'))
        wd.done(True)
        return failures
    refused = collections.defaultdict(set)  # engine -> rule indices it could not compile
    for row in rows:
        m = re.search(r'cannot compile rule rules\.txt:(\d+) ', row.get('message') or '')
        if m and row.get('status') in ('unsupported', 'error'):
            refused[row['keys'].get('engine')].add(int(m.group(1)) - 1)
    for row in rows:
        st = row.get('status')
        keys = row.get('keys', {})
        e = keys.get('engine')
        stats.status['payload ' + str(st)] += 1
        if st in ('error', 'unsupported', 'timeout'):
            msg = re.sub(r'rules\.txt:\d+ \(.*?\)', 'R', row.get('message') or '')
            msg = re.sub(r' \(offset \d+\)', '', msg)
            stats.msgs['payload %s %s: %s' % (st, e, msg[:100])] += 1
        if keys.get('scenario') != 'real-life' or 'rule' in keys:
            continue
        ran = [k for k in range(len(rules)) if k not in refused[e]]
        by_flow = keys.get('mode') in ('stream', 'reassembled')
        units, uhit = (streams, fhit) if by_flow else (payloads, hit)
        want = sum(1 for j in range(len(units)) if any(uhit[k][j] for k in ran))
        if st == 'ok':
            got = metric(row, 'matches')
            nrules = metric(row, 'rules')
            stats.checked += 1
            stats.ok_checked += 1
            if nrules is not None and int(nrules) != len(ran):
                fail('harness', 'payload %s: rules %d, but %d of %d compiled' % (
                    row['name'], int(nrules), len(ran), len(rules)), [], ('harness', 'payload rules metric'), e)
            if got is None:
                fail('unverifiable timed verdicts', 'payload %s: no matches metric' % row['name'], [],
                     ('unverifiable', 'payload matches missing'), e)
            elif int(got) != want:
                fail('wrong answer timed', 'payload %s: matches %d, the oracle says %d %s' % (
                    row['name'], int(got), want, 'flows' if by_flow else 'packets'),
                    ['rules run: %s' % [k + 1 for k in ran]],
                    ('wrong answer timed', 'payload', e), e)
        elif st == 'mismatch':
            stats.checked += 1
            stats.mismatch_checked += 1
            # "rule rules.txt:7 (rules.txt:7) matches ...; first: packet J,
            #  match G, reference W; rule /re/; packet ..." (payload_rules.c)
            m = re.search(r'rule rules\.txt:(\d+) \(.*?\) matches .*?; first: (?:packet|flow) (\d+), '
                          r'match (\d), ((?:planted|reference|majority) [01])',
                          row.get('message') or '', re.S)
            if not m:
                fail('harness', 'payload: unparsable MISMATCH message', ['message: ' + esc(row.get('message') or '')],
                     ('harness', 'payload mismatch message'), e)
                continue
            j, k, g = int(m.group(2)), int(m.group(1)) - 1, int(m.group(3))
            if 0 <= k < len(rules) and 0 <= j < len(units) and g == int(uhit[k][j]):
                fail('false mismatch', 'payload %s: rule %d on %s %d: %d is right, rxbench says %s' % (
                    row['name'], k + 1, 'flow' if by_flow else 'packet', j, g, m.group(4)),
                    ['rule: %s' % esc(rules[k][0]), 'packet: %s' % esc(units[j]),
                     'message: ' + esc(row.get('message') or '', 300)],
                    ('false mismatch', 'payload', 'tie' if 'tie' in m.group(4) else 'majority'), e)
            else:
                stats.notes['payload mismatch rows rightly flagged'] += 1
    bad = any(row.get('status') not in ('ok', 'unsupported', 'unverified') for row in rows)
    bad = bad or (bool(rows) and not any(row.get('status') == 'ok' for row in rows))
    if rc != (1 if bad else 0):
        fail('harness', 'payload: exit status %s, the rows say %d' % (rc, 1 if bad else 0), [],
             ('harness', 'payload exit status'))
    wd.done(bool(failures))
    return failures


# ---------------------------------------------------------------- self-test


def selftest(opts, rng, stats):
    """The oracles against each other and against PCRE2 itself, on random
    cases: re vs regex for leftmost-first, the lookbehind all-ends count
    vs a forward one, the Python grep model vs GNU grep, the Python
    leftmost-first count vs libpcre2 (ctypes).  Prints disagreements."""
    p2 = pcre2_direct()
    n = bad = 0
    deadline = time.time() + opts.seconds
    tmp = tempfile.mkdtemp(prefix='difffuzz-selftest-')
    while time.time() < deadline:
        u = rng.random() < 0.2
        flags = ''.join(c for c in 'isma' if rng.random() < 0.2) + ('u' if u else '')
        g = Gen(rng, u)
        tree = g.pattern()
        pat = pcre_render(tree, u).encode('utf-8' if u else 'latin-1')
        data = gen_corpus(rng, u)
        if len(data) > 300:
            continue
        o = Oracle(tree, flags)
        try:
            a = o.count('leftmost-first', data)
            b = o.count('leftmost-first-regex', data)
            c = o.count('all-match-ends', data)
            d = o.count('all-match-ends-forward', data)
            lines = o.lines(data)
        except (OracleTimeout, TimeoutError, re.error, regex.error):
            continue
        n += 1
        probs = []
        if a != b:
            probs.append('re %d vs regex %d (leftmost-first)' % (a, b))
        if c != d:
            probs.append('lookbehind %d vs forward %d (all ends)' % (c, d))
        if p2:
            pc = p2.count(pat, data, flags)
            if pc is not None and pc != a:
                probs.append('Python %d vs PCRE2 %d (leftmost-first count)' % (a, pc))
            pl = p2.lines(pat, data, flags)
            if pl is not None and pl != lines:
                probs.append('Python %d vs PCRE2 %d (grep lines)' % (lines, pl))
        gg = gnu_grep_lines(pat, data, flags, tmp)
        if gg is not None and gg != lines:
            probs.append('Python %d vs GNU grep %d (grep lines)' % (lines, gg))
        if probs:
            bad += 1
            print('SELFTEST %s; pattern %s (python %r) flags %r corpus %s'
                  % ('; '.join(probs), esc(pat), o.py_re, flags, esc(data)))
    shutil.rmtree(tmp, ignore_errors=True)
    print('selftest: %d cases, %d with disagreements' % (n, bad))
    return bad


# ------------------------------------------------------------------- main


def summary(stats, opts, seed):
    print('== difffuzz summary (seed %s)' % seed)
    print('rxbench invocations:               %d' % stats.invocations)
    print('engine x pattern answers checked:  %d (%d timed, %d MISMATCH rows)'
          % (stats.checked, stats.ok_checked, stats.mismatch_checked))
    kinds = collections.Counter(f['kind'] for f in stats.failures)
    print('wrong answers timed:               %d' % kinds['wrong answer timed'])
    print('false mismatches:                  %d' % kinds['false mismatch'])
    for k in sorted(kinds):
        if k not in ('wrong answer timed', 'false mismatch'):
            print('%-34s %d' % (k + ':', kinds[k]))
    print('rows by status:                    ' + ', '.join('%s %d' % kv for kv in sorted(stats.status.items())))
    if stats.oracle_skipped:
        print('patterns the oracle skipped:       ' + ', '.join('%s %d' % kv for kv in stats.oracle_skipped.items()))
    for k, v in stats.notes.items():
        print('note: %s: %d' % (k, v))
    if stats.oracle_conflicts:
        print('oracle conflicts (not counted as rxbench failures): %d' % len(stats.oracle_conflicts))
        for c in stats.oracle_conflicts[:5]:
            print('    ' + c)
    if opts.verbose and stats.msgs:
        print('rows not timed, by message:')
        for m, c in stats.msgs.most_common(40):
            print('  %5d  %s    e.g. %s' % (c, m, stats.msg_example.get(m, '')))
    if stats.signatures:
        print('distinct failure signatures: %d' % len(stats.signatures))
        for sig, fs in stats.signatures.items():
            engs = sorted(set(f.get('engine') or '-' for f in fs))
            print('  %4d x %s   [engines: %s]' % (len(fs), ' | '.join(str(s) for s in sig if s),
                                                ', '.join(engs)))
    nfail = len(stats.failures)
    print('%d passed, %d failed' % (max(stats.checked - nfail, 0), nfail))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n\n')[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument('--rxbench', default=os.path.join(ROOT, 'build', 'rxbench'))
    ap.add_argument('--seed', type=int, default=DEFAULT_SEED)
    ap.add_argument('--random', action='store_true', help='add a random seed (printed)')
    ap.add_argument('--seconds', type=float, default=60.0, help='time budget')
    ap.add_argument('--suites', default='scan,fqdn,payload')
    ap.add_argument('--patterns', type=int, default=40, help='most patterns per scan invocation')
    ap.add_argument('--keep', metavar='DIR', help='keep every case\'s files under DIR')
    ap.add_argument('--no-known', action='store_true', help='skip the regression set')
    ap.add_argument('--no-confirm', dest='confirm', action='store_false',
                    help='do not re-run failures alone')
    ap.add_argument('--allow-missing-allowed', action='store_true',
                    help='an fqdn queries row without `allowed` is a note, not a failure')
    ap.add_argument('--selftest', action='store_true', help='cross-check the oracles instead')
    ap.add_argument('--max-invocations', type=int, default=0)
    ap.add_argument('--only', type=int, metavar='K', help='run only invocation K of the seed')
    ap.add_argument('--from', dest='start', type=int, default=0, metavar='K',
                    help='skip the seed\'s first K invocations (another run checked them)')
    ap.add_argument('--minimize', action='store_true',
                    help='shrink the first scan failure of each signature (pattern and corpus)')
    ap.add_argument('--json', metavar='FILE', help='write every failure as JSON lines to FILE')
    ap.add_argument('-v', '--verbose', action='store_true')
    opts = ap.parse_args()

    if regex is None:
        print('difffuzz: SKIP: %s has no `regex` module (Debian: apt-get install python3-regex)'
              % sys.executable)
        return SKIP
    seeds = [opts.seed]
    if opts.random:  # the fixed seed, then a random one; each half the time
        seeds.append(random.SystemRandom().randrange(1, 2 ** 31))
    seed = seeds[0]
    for sd in seeds:
        print('difffuzz: seed %d (re-run: %s --seed %d --seconds %g --suites %s)'
              % (sd, sys.argv[0], sd, opts.seconds / len(seeds), opts.suites))
    sys.stdout.flush()
    rng = random.Random(seed)
    stats = Stats()
    Workdir.stats = stats
    if opts.selftest:
        return 1 if selftest(opts, rng, stats) else 0
    opts.rxbench = os.path.abspath(opts.rxbench)
    if not os.access(opts.rxbench, os.X_OK):
        print('difffuzz: %s is not built (cmake --build build)' % opts.rxbench)
        return 2
    engines = rxbench_engines(opts.rxbench)
    if not engines:
        print('difffuzz: rxbench list names no engines')
        return 2
    print('difffuzz: engines ' + ', '.join('%s (%s)' % kv for kv in engines.items()))
    opts.engines_map = engines
    suites = [s for s in opts.suites.split(',') if s]
    start = time.time()
    for n_seed, seed in enumerate(seeds):
        rng = random.Random(seed)
        deadline = start + opts.seconds * (n_seed + 1) / len(seeds)
        if n_seed == 0 and 'scan' in suites and not opts.no_known:
            for k, forced in enumerate(known_cases(engines)):
                opts.current = 'tests/difffuzz.py --suites scan --seconds 0 (the regression set runs first)'
                run_scan_case(ScanCase(rng, engines, opts, forced), engines, opts, stats, 'known%d' % k)
        if n_seed == 0 and not opts.no_known:
            for k, forced in enumerate(KNOWN_FQDN if 'fqdn' in suites else []):
                opts.current = 'tests/difffuzz.py --suites fqdn --seconds 0 (the regression set runs first)'
                run_fqdn_case(random.Random(k), engines, opts, stats, 'knownfqdn%d' % k, forced)
            for k, forced in enumerate(KNOWN_PAYLOAD if 'payload' in suites else []):
                if not all(e in engines for e in forced.get('engines') or []):
                    continue
                opts.current = 'tests/difffuzz.py --suites payload --seconds 0 (the regression set runs first)'
                run_payload_case(random.Random(k), engines, opts, stats, 'knownpayload%d' % k, forced)
        k = 0
        while time.time() < deadline:
            if opts.max_invocations and stats.invocations >= opts.max_invocations:
                break
            others = [x for x in suites if x != 'scan']
            if 'scan' not in suites:
                suite = others[k % len(others)]
            elif others and k % 4 == 3:
                suite = others[(k // 4) % len(others)]
            else:
                suite = 'scan'
            sub = random.Random(rng.randrange(2 ** 62))
            label = '%s%d-%d' % (suite, n_seed, k)
            opts.current = 'tests/difffuzz.py --seed %d --only %d --suites %s' % (seed, k, opts.suites)
            if (opts.only is not None and k != opts.only) or (n_seed == 0 and k < opts.start):
                k += 1
                continue
            if suite == 'scan':
                run_scan_case(ScanCase(sub, engines, opts), engines, opts, stats, label)
            elif suite == 'fqdn':
                run_fqdn_case(sub, engines, opts, stats, label)
            elif suite == 'payload':
                run_payload_case(sub, engines, opts, stats, label)
            k += 1
    seed = ','.join(str(x) for x in seeds)
    summary(stats, opts, seed)
    if opts.json:
        with open(opts.json, 'w') as f:
            for x in stats.failures:
                rec = {k: v for k, v in x.items() if k in ('kind', 'title', 'details', 'repro', 'alone', 'minimal',
                                                           'engine', 'cls', 'model', 'flags', 'want',
                                                           'got', 'features')}
                rec['signature'] = [str(v) for v in x['signature']]
                for k in ('pattern', 'corpus'):
                    if k in x:
                        rec[k] = esc(x[k], 100000)
                f.write(json.dumps(rec) + '\n')
            for m, c in stats.msgs.most_common():
                f.write(json.dumps({'kind': 'row-not-timed', 'message': m, 'count': c}) + '\n')
    return 1 if stats.failures else 0


if __name__ == '__main__':
    sys.exit(main())

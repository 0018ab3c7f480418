#!/usr/bin/python3
"""reference_oracle.py - the reference matcher against Python, at random.

Generates random patterns over the syntax subset suites/reference.h
promises (literals with high bytes and NUL, classes, `.`, anchors, groups,
alternation, greedy and lazy quantifiers, counted repetition, inline and
scoped options) and random corpora (CR, LF, CRLF, NUL, bytes >= 0x80, empty
lines, no final newline; valid UTF-8 in UTF-8 mode), under every flag
combination, and compares what tests/ref_cli prints with:

  leftmost-first    Python `re`, with the count contract of engines/inturn.c
                    (pattern.search(data, pos) from the end of each match,
                    one character on past an empty one; finditer differs);
  leftmost-longest  the `regex` module with regex.POSIX, the same way;
  all ends          for each offset e, `regex` tests (?<=(?:P)) at e, a
                    lookbehind that sees the data before e (checked first);
  is_match, grep    search() on the data and on each line;
  PCRE2             ref_cli -e pcre2 (when rxbench was built with PCRE2):
                    is_match and the leftmost-first count, exactly.

Each generated node is written twice, in PCRE syntax for the reference
and in Python syntax for re/regex, where PCRE2 and Python differ:

  ^ (multiline)  PCRE2 does not match after a '\\n' that ends the data,
                 Python does: written (?:\\A|(?<=\\n)(?!\\Z)).
  $ \\Z \\z       Python's \\Z is PCRE2's \\z; PCRE2's $ and \\Z are
                 (?=\\n?\\Z), multiline $ is (?=\\n|\\Z).
  \\B             Python's re does not match \\B in an empty string
                 (before 3.14): written with lookarounds.
  \\h \\v \\N      PCRE2's horizontal and vertical space and [^\\n]; in
                 Python \\v is VT alone: written as classes.
  [:alpha:]      Python has no POSIX classes: written as ranges.
  \\Q..\\E \\e \\cX \\o{} \\x{}: PCRE2 only; written as the characters.
  (?i) mid-group PCRE2 applies it to the rest of the group, later
                 alternatives included; Python only takes global flags at
                 the start: written as scoped (?i:...) groups.
  caseless UTF-8 PCRE2 folds k and s with U+212A and U+017F, Python's
                 re.ASCII does not: those never appear in the corpora.

The reference's multiline and dotall options are PCRE2's; Python gets the
anchors spelled out and scoped s/i flags.  A case the reference calls out
of reach is skipped and counted: caseless non-ASCII in UTF-8 mode, and two
PCRE2 10.42 bugs this test found ([\W[:blank:]] misses U+1F600 in UTF-8
mode; \S*\v does not match "a\x85", auto-possessification taking \S and
\v for disjoint; (?:a|^){0}c is compiled as anchored), where the
reference would have to copy PCRE2's mistake to agree with it.  Also skipped: cases Python takes over --case-seconds
for (exponential backtracking), where PCRE2 hits its match limit, and the
`regex` comparisons where the regex module disagrees with re about the
leftmost-first count (a regex bug: [^\]-\xff]|(?i:k) misses "A").

Fixed seed by default; --seed, --seconds.  On a disagreement it writes the
case to --artifacts and prints a reproducer.  Exit 0, 1 on a
disagreement, 77 when the regex module is missing.
"""
import argparse
import multiprocessing
import os
import random
import re
import subprocess
import sys
import tempfile
import time
import warnings

try:
    import regex
except ImportError:
    print("reference_oracle: skipped: the regex module is missing "
          "(Debian: python3-regex)")
    sys.exit(77)

warnings.simplefilter("error", FutureWarning)  # nested-set warnings: a bug

FLAG_LETTERS = "ismua"

BYTE_CHARS = ([ord(c) for c in "abcABkKsS01 -_.\n\r\t"] +
              [0x00, 0x0b, 0x0c, 0x80, 0x85, 0xa0, 0xc3, 0xe9, 0xff] +
              [ord(c) for c in "[](){}*+?|^$\\#"])
UTF_CHARS = ([ord(c) for c in "abcABkKsS01 -_.\n\r\t"] +
             [0x00, 0x0b, 0x85, 0xa0, 0xe9, 0xc9, 0xdf, 0x3a9, 0x65e5,
              0x2028, 0x1f600] +
             [ord(c) for c in "[](){}*+?|^$\\"])
# U+212A and U+017F fold with k and s in PCRE2's UTF-8 mode only
CORPUS_BYTES = [ord(c) for c in "abcABkKsS01 -_."] + [
    0x0a, 0x0a, 0x0d, 0x09, 0x0b, 0x00, 0x80, 0xa0, 0xe9, 0xff, 0x85]
CORPUS_UTF = [ord(c) for c in "abcABkKsS01 -_."] + [
    0x0a, 0x0a, 0x0d, 0x09, 0x0b, 0x00, 0x85, 0xa0, 0xe9, 0xc9, 0x65e5,
    0x2028, 0x1f600]

POSIX = {"alpha": "A-Za-z", "digit": "0-9", "alnum": "0-9A-Za-z",
         "upper": "A-Z", "lower": "a-z", "xdigit": "0-9A-Fa-f",
         "space": "\\t\\n\\x0b\\x0c\\r ", "blank": "\\t ",
         "word": "0-9A-Za-z_", "punct": "!-/:-@\\[-`{-~"}
H_BYTE, V_BYTE = "\\t \\xa0", "\\n\\x0b\\x0c\\r\\x85"
H_UTF = H_BYTE + "\\u1680\\u180e\\u2000-\\u200a\\u202f\\u205f\\u3000"
V_UTF = V_BYTE + "\\u2028\\u2029"
BOUNDARY_NOT = "(?:(?<=\\w)(?=\\w)|(?<!\\w)(?!\\w))"


class Gen:
    """A random pattern, as (pcre, python) text, under one flag set."""

    def __init__(self, rng, utf8):
        self.rng = rng
        self.utf8 = utf8
        self.chars = UTF_CHARS if utf8 else BYTE_CHARS
        self.groups = 0
        self.used = set()
        self.nested = False  # unbounded loops inside one: short data

    def pick(self, choices):
        return self.rng.choice(choices)

    # -- characters ------------------------------------------------------
    def char(self):
        c = self.pick(self.chars)
        self.used.add(c)
        return c

    def py_escape(self, c):
        if c < 0x20 or c == 0x7f or (0x80 <= c < 0x100 and not self.utf8):
            return "\\x%02x" % c
        if c >= 0x80:
            return chr(c) if self.rng.random() < 0.5 else (
                "\\u%04x" % c if c < 0x10000 else "\\U%08x" % c)
        ch = chr(c)
        return "\\" + ch if not ch.isalnum() and ch not in " _" else ch

    def pcre_escape(self, c):
        """One character for PCRE: raw, \\xHH, \\x{..}, \\o{..}, \\cX..."""
        r = self.rng.random()
        if c == 0:
            # not a bare \\0: a digit after it would extend the octal
            return self.pick(["\\x00", "\0", "\\000", "\\x{0}", "\\o{0}"])
        if c < 0x20 and r < 0.3:
            return "\\c" + chr(c + 0x40)
        if c == 0x1b:
            return "\\e"
        if c < 0x20 or c == 0x7f:
            names = {0x0a: "\\n", 0x0d: "\\r", 0x09: "\\t", 0x0c: "\\f"}
            return names.get(c, "\\x%02x" % c) if r < 0.8 else chr(c)
        if c >= 0x80:
            if r < 0.4:
                return chr(c)
            if r < 0.7 and c < 0x100:
                return "\\x%02x" % c
            return "\\x{%x}" % c if r < 0.9 else "\\o{%o}" % c
        ch = chr(c)
        if ch.isalnum() or ch in " _":
            return ch
        return "\\" + ch

    def literal(self):
        c = self.char()
        return self.pcre_escape(c), self.py_escape(c)

    def quoted(self):
        """\\Q...\\E: a run of characters taken literally."""
        cs = [self.char() for _ in range(self.rng.randint(1, 3))]
        cs = [c for c in cs if c != ord("\\")] or [ord("a")]
        pc = "\\Q" + "".join(chr(c) for c in cs) + "\\E"
        return pc, "".join(self.py_escape(c) for c in cs)

    # -- classes ---------------------------------------------------------
    def class_char(self):
        c = self.char()
        if c == 0:
            return 0, "\\x00", "\\x00"
        ch = chr(c)
        if c < 0x20 or c == 0x7f:
            t = "\\x%02x" % c
            return c, t, t
        if c >= 0x80:
            pc = chr(c) if self.rng.random() < 0.5 else "\\x{%x}" % c
            return c, pc, self.py_escape(c)
        t = ch if ch.isalnum() or ch == "_" else "\\" + ch
        return c, t, t

    def class_member(self):
        r = self.rng.random()
        if r < 0.4:
            _, pc, py = self.class_char()
            return pc, py
        if r < 0.65:
            a, pa, ya = self.class_char()
            b, pb, yb = self.class_char()
            if a > b:
                pa, ya, pb, yb = pb, yb, pa, ya
            return pa + "-" + pb, ya + "-" + yb
        if r < 0.8:
            e = self.pick(["\\d", "\\w", "\\s", "\\D", "\\W", "\\S"])
            return e, e
        if r < 0.9:
            name = self.pick(sorted(POSIX))
            return "[:%s:]" % name, POSIX[name]
        e = self.pick(["\\h", "\\v"])
        return e, (H_UTF if self.utf8 else H_BYTE) if e == "\\h" else (
            V_UTF if self.utf8 else V_BYTE)

    def char_class(self):
        neg = "^" if self.rng.random() < 0.3 else ""
        ms = [self.class_member() for _ in range(self.rng.randint(1, 3))]
        return ("[" + neg + "".join(m[0] for m in ms) + "]",
                "[" + neg + "".join(m[1] for m in ms) + "]")

    def perl_class(self):
        e = self.pick(["\\d", "\\w", "\\s", "\\D", "\\W", "\\S", "\\h",
                       "\\v", "\\H", "\\V", "\\N"])
        h = H_UTF if self.utf8 else H_BYTE
        v = V_UTF if self.utf8 else V_BYTE
        py = {"\\h": "[" + h + "]", "\\H": "[^" + h + "]",
              "\\v": "[" + v + "]", "\\V": "[^" + v + "]",
              "\\N": "[^\\n]"}.get(e, e)
        return e, py

    # -- anchors ---------------------------------------------------------
    def anchor(self, flags):
        a = self.pick(["^", "$", "\\A", "\\z", "\\Z", "\\b", "\\B"])
        ml = "m" in flags
        py = {"^": "(?:\\A|(?<=\\n)(?!\\Z))" if ml else "\\A",
              "$": "(?=\\n|\\Z)" if ml else "(?=\\n?\\Z)",
              "\\A": "\\A", "\\z": "\\Z", "\\Z": "(?=\\n?\\Z)",
              "\\b": "\\b", "\\B": BOUNDARY_NOT}[a]
        return a, py

    # -- options ---------------------------------------------------------
    @staticmethod
    def py_delta(old, new):
        """Python scoped-flag prefix from old to new ('' if none)."""
        on = "".join(f for f in "is" if f in new and f not in old)
        off = "".join(f for f in "is" if f in old and f not in new)
        if not on and not off:
            return ""
        return "(?" + on + ("-" + off if off else "") + ":"

    def option_change(self, flags):
        """A random option setting: its PCRE letters and the new flags."""
        if self.rng.random() < 0.1:
            return "^", flags - set("ims")
        f = self.pick("ism")
        if f in flags and self.rng.random() < 0.7:
            return "-" + f, flags - {f}
        return f, flags | {f}

    # -- structure -------------------------------------------------------
    def quantifier(self, star_depth):
        r = self.rng.random()
        if star_depth >= 2:
            q = self.pick(["?", "{0,1}", "{1,2}", "{2}"])
        elif star_depth == 1 and r < 0.45:
            self.nested = True
            q = self.pick(["*", "+"])
        elif r < 0.25:
            q = "*"
        elif r < 0.45:
            q = "+"
        elif r < 0.6:
            q = "?"
        else:
            n = self.rng.randint(0, 3)
            q = self.pick(["{%d}" % n, "{%d,}" % n,
                           "{%d,%d}" % (n, n + self.rng.randint(0, 3))])
        if self.rng.random() < 0.3:
            q += "?"
        return q

    def group(self, depth, flags, star_depth):
        r = self.rng.random()
        inner = flags
        if r < 0.3:
            open_pc, open_py = "(", "("
        elif r < 0.55:
            open_pc, open_py = "(?:", "(?:"
        elif r < 0.65:
            self.groups += 1
            name = "g%d" % self.groups
            open_pc = open_py = "(?P<%s>" % name
        else:
            letters, inner = self.option_change(flags)
            open_pc = "(?" + letters + ":"
            open_py = self.py_delta(flags, inner) or "(?:"
        pc, py = self.alt(depth + 1, inner, star_depth)
        if self.rng.random() < 0.25:
            # a body that can match empty first: PCRE2's rule for empty
            # iterations ((?:|a)* matches "" in "aa") decides these
            e_pc, e_py = self.pick([("", ""), ("\\b", "\\b")] +
                                   [self.anchor(inner)] * 2)
            pc, py = e_pc + "|" + pc, e_py + "|" + py
        return open_pc + pc + ")", open_py + py + ")"

    def atom(self, depth, flags, star_depth):
        """(pcre, python, repeatable)."""
        r = self.rng.random()
        if r < 0.4:
            return self.literal() + (True,)
        if r < 0.5:
            return ".", ".", True
        if r < 0.62:
            return self.char_class() + (True,)
        if r < 0.7:
            return self.perl_class() + (True,)
        if r < 0.82:
            return self.anchor(flags) + (False,)
        if r < 0.86:
            return self.quoted() + (True,)
        if depth < 3:
            return self.group(depth, flags, star_depth) + (True,)
        return self.literal() + (True,)

    def seq(self, depth, flags, star_depth):
        """(pcre, python, flags after): option settings carry on."""
        pc, py, closes = [], [], 0
        for _ in range(self.rng.choice([0, 1, 1, 2, 2, 3, 3, 4])):
            if self.rng.random() < 0.06:
                letters, new = self.option_change(flags)
                pc.append("(?" + letters + ")")
                delta = self.py_delta(flags, new)
                if delta:
                    py.append(delta)
                    closes += 1
                flags = new
                continue
            q = ""
            a_pc, a_py, rep = self.atom(depth, flags, star_depth)
            if rep and self.rng.random() < (0.6 if a_pc[:1] == "(" else
                                            0.35):
                q = self.quantifier(star_depth)
                if q[0] in "*+" or ",}" in q:
                    # nested unbounded loops stay shallow (Python's re
                    # backtracks exponentially on them)
                    a_pc, a_py, rep = self.requantify(a_pc, a_py, depth,
                                                      flags, star_depth)
            pc.append(a_pc + q)
            py.append(a_py + q)
        return "".join(pc), "".join(py) + ")" * closes, flags

    def requantify(self, a_pc, a_py, depth, flags, star_depth):
        """Regenerates a group atom under one more loop level."""
        if not a_pc.startswith("("):
            return a_pc, a_py, True
        pc, py = self.group(depth, flags, star_depth + 1)
        return pc, py, True

    def alt(self, depth, flags, star_depth=0):
        branches = self.rng.choice([1, 1, 1, 2, 2, 3])
        pcs, pys = [], []
        entry = flags
        for _ in range(branches):
            pc, py, after = self.seq(depth, flags, star_depth)
            delta = self.py_delta(entry, flags)
            pcs.append(pc)
            pys.append(delta + py + ")" if delta else py)
            flags = after
        return "|".join(pcs), "|".join(pys)


def corpus(rng, utf8, used, short):
    pool = (CORPUS_UTF if utf8 else CORPUS_BYTES) + [
        c for c in used if c not in (0x212a, 0x17f)]
    n = rng.choice([0, 1, 2, 3, 5, 8, 12] + ([] if short else [20, 30]))
    cs = [rng.choice(pool) for _ in range(n)]
    r = rng.random()
    if r < 0.15:
        cs.append(0x0a)
    elif r < 0.25:
        cs += [0x0d, 0x0a]
    elif r < 0.3:
        cs += [0x0a, 0x0a]
    if utf8:
        return "".join(chr(c) for c in cs).encode("utf-8")
    return bytes(cs)


def python_flags(flags, mod):
    """The compile flags for module mod (re and regex number them apart)."""
    f = 0
    if "i" in flags:
        f |= mod.I
    if "s" in flags:
        f |= mod.S
    if "u" in flags:
        f |= mod.A
    return f


def count_spans(p, data, anchored):
    if anchored:
        return 1 if p.match(data) else 0
    n = pos = 0
    while pos <= len(data):
        m = p.search(data, pos)
        if m is None:
            break
        n += 1
        pos = m.end() if m.end() > m.start() else m.end() + 1
    return n


def lines_of(data):
    nl = "\n" if isinstance(data, str) else b"\n"
    if not data:
        return []
    ls = data.split(nl)
    return ls[:-1] if data.endswith(nl) else ls


def python_answers(py, flags, data):
    """Python's answers, or None when Python refuses the pattern."""
    utf8 = "u" in flags
    anchored = "a" in flags
    behind = "(?<=(?:" + py + "))"
    if utf8:
        data = data.decode("utf-8")
    else:
        py, behind = py.encode("latin-1"), behind.encode("latin-1")
    try:
        first = re.compile(py, python_flags(flags, re))
        perl = regex.compile(py, python_flags(flags, regex))
        longest = regex.compile(py, python_flags(flags, regex) | regex.POSIX)
        ends_re = regex.compile(behind, python_flags(flags, regex))
    except (re.error, regex.error, OverflowError, FutureWarning):
        return None
    match = first.match(data) if anchored else first.search(data)
    if anchored:
        ends = 1 if match else 0
    else:
        ends = sum(1 for e in range(len(data) + 1) if ends_re.match(data, e))
    grep = sum(1 for ln in lines_of(data)
               if (first.match(ln) if anchored else first.search(ln)))
    n = count_spans(first, data, anchored)
    return {"match": int(match is not None), "first": n,
            "longest": count_spans(longest, data, anchored),
            "ends": ends, "grep": grep,
            # regex has bugs of its own ([^\]-\xff]|(?i:k) misses "A"):
            # its answers count only where it agrees with re
            "regex_ok": count_spans(perl, data, anchored) == n}


class PythonWorker:
    """python_answers() in a child process, each case with a time limit:
    Python's backtracking (POSIX mode most) can be exponential."""

    def __init__(self, limit):
        self.limit = limit
        self.pool = multiprocessing.get_context("fork").Pool(1)

    def answers(self, cases):
        out = []
        while len(out) < len(cases):
            jobs = [self.pool.apply_async(python_answers, (c["py"],
                                                           c["flags"],
                                                           c["data"]))
                    for c in cases[len(out):]]
            for j in jobs:
                try:
                    out.append(j.get(self.limit))
                except multiprocessing.TimeoutError:
                    out.append("timeout")
                    self.pool.terminate()
                    self.pool = multiprocessing.get_context("fork").Pool(1)
                    break
        return out

    def close(self):
        self.pool.terminate()


def check_python_assumptions():
    """What the translation relies on, so a new Python cannot fool it."""
    lb = regex.compile(r"(?<=(?:\Aab))")
    assert lb.match("abc", 2) and not regex.compile(
        r"(?<=(?:\bb))").match("ab", 2), "lookbehind must see before pos"
    assert not re.compile(r"\Aa").search("ba", 1), "\\A is the data start"
    assert re.compile(r"(?<=a)b").search("ab", 1), "re sees before pos"
    assert regex.compile(r"(?<=a)b").search("ab", 1), "regex sees before pos"
    assert regex.compile("a|ab", regex.POSIX).search("ab").end() == 2


def run_batch(cli, cases, engine):
    inp = bytearray()
    for c in cases:
        inp += b"%s %d %d\n" % (c["flags"].encode(), len(c["pcre"]),
                                len(c["data"]))
        inp += c["pcre"] + c["data"]
    args = [cli] + (["-e", engine] if engine else []) + ["--batch"]
    out = subprocess.run(args, input=bytes(inp), capture_output=True,
                         check=True, timeout=600)
    lines = out.stdout.decode("utf-8", "replace").splitlines()
    if len(lines) != len(cases):
        sys.exit("reference_oracle: ref_cli answered %d of %d cases: %s" % (
            len(lines), len(cases), out.stderr.decode(errors="replace")))
    return lines


def parse_answer(line):
    if not line.startswith("ok "):
        a = {"status": line.split(" ", 1)[0], "why": line}
        if " engine=" in line:
            a["why"], a["engine"] = line.rsplit(" engine=", 1)
        return a
    a = {"status": "ok"}
    for kv in line[3:].split():
        k, v = kv.split("=", 1)
        a[k] = v if k == "engine" else int(v)
    return a


TINY_ATOMS = ["a", "b", ".", "(?:|a)", "(?:a|)", "(?:|ab)", "(?:ab|a|)",
              "(?:|a|b)", "(?:\\b|a)", "(|.{2,3})", "(?:|.)", "(?:a?)",
              "(?:a*)", "(?:b?)"]


def make_tiny_case(rng):
    """Short loops over bodies that can match empty, on data of a and b:
    where PCRE2's rule for empty iterations and lazy loops decide."""
    pc = ""
    for _ in range(rng.randint(1, 3)):
        a = rng.choice(TINY_ATOMS)
        pc += a + rng.choice(["*", "*?", "+", "+?", "?", "??", "", "{2}",
                              "{1,2}?"] if a[0] == "(" else ["", "?", "*"])
    if rng.random() < 0.3:
        pc = "(?:" + pc + ")" + rng.choice(["*", "*?", "+", "+?"])
    tail = rng.choice(["", "a", "b", "ab", "$"])
    flags = rng.choice(["-", "-", "a", "m", "u"])
    dollar = "(?=\\n|\\Z)" if flags == "m" else "(?=\\n?\\Z)"
    py = pc + (dollar if tail == "$" else tail)
    data = "".join(rng.choice("aab\n") for _ in range(rng.randint(0, 7)))
    return {"flags": flags, "pcre": (pc + tail).encode(), "py": py,
            "data": data.encode()}


def make_case(rng):
    if rng.random() < 0.25:
        return make_tiny_case(rng)
    flags = "".join(f for f in FLAG_LETTERS if rng.random() < 0.3)
    utf8 = "u" in flags
    g = Gen(rng, utf8)
    f = set(flags) & set("ism")
    pc, py = g.alt(0, f)
    if rng.random() < 0.08:
        letters, new = g.option_change(f)
        pc2, py2 = g.alt(0, new)
        delta = Gen.py_delta(f, new)
        pc, py = "(?" + letters + ")" + pc2, (delta + py2 + ")") if delta \
            else py2
    enc = "utf-8" if utf8 else "latin-1"
    return {"flags": flags or "-", "pcre": pc.encode(enc), "py": py,
            "data": corpus(rng, utf8, g.used, g.nested)}


class Report:
    def __init__(self, artifacts):
        self.artifacts = artifacts
        self.failures = 0
        self.stats = {"cases": 0, "checked": 0, "out_of_reach": 0,
                      "python_refused": 0, "python_timeout": 0,
                      "pcre2_limit": 0, "regex_bug": 0,
                      "python_vs_pcre2": 0}
        self.examples = {}

    def reproducer(self, c, note):
        os.makedirs(self.artifacts, exist_ok=True)
        n = self.failures
        base = os.path.join(self.artifacts, "case-%d" % n)
        with open(base + ".pattern", "wb") as f:
            f.write(c["pcre"])
        with open(base + ".data", "wb") as f:
            f.write(c["data"])
        print("DISAGREEMENT %d: %s" % (n, note))
        print("  pattern %r flags %s data %r" % (c["pcre"], c["flags"],
                                                 c["data"]))
        print("  python pattern %r" % c["py"])
        print("  reproduce: ref_cli -e pcre2 %s.pattern %s %s.data" % (
            base, c["flags"], base))


def check(c, ans, py, rep, pcre2):
    rep.stats["cases"] += 1
    if ans["status"] == "out_of_reach":
        rep.stats["out_of_reach"] += 1
        return
    if py == "timeout":
        rep.stats["python_timeout"] += 1
        py = None
    elif py is None:
        rep.stats["python_refused"] += 1
    eng = ans.get("engine")
    if ans["status"] != "ok":
        if py is not None or (pcre2 and eng != "error"):
            rep.failures += 1
            rep.reproducer(c, "reference refused a valid pattern: " +
                           ans["why"])
        return
    if pcre2 and eng == "error":
        rep.failures += 1
        rep.reproducer(c, "reference accepted what PCRE2 refuses")
        return
    if pcre2:
        m, n = (int(x) for x in eng.split("/"))
        if m < 0 or n < 0:  # its match limit: the reference answers anyway
            rep.stats["pcre2_limit"] += 1
        elif (m, n) != (ans["match"], ans["first"]):
            rep.failures += 1
            rep.reproducer(c, "PCRE2 says match=%d first=%d, reference "
                           "%d %d" % (m, n, ans["match"], ans["first"]))
            return
    if py is None:
        return
    rep.stats["checked"] += 1
    keys = ("match", "first", "longest", "ends", "grep")
    if not py["regex_ok"]:
        rep.stats["regex_bug"] += 1
        keys = ("match", "first", "grep")
    diff = [k for k in keys if py[k] != ans[k]]
    if not diff:
        return
    if pcre2 and ("match" in diff or "first" in diff):
        # the reference agrees with PCRE2 above: Python differs from it
        rep.stats["python_vs_pcre2"] += 1
        key = tuple(diff)
        if len(rep.examples.setdefault(key, [])) < 3:
            rep.examples[key].append((c, py, ans))
        return
    rep.failures += 1
    rep.reproducer(c, "; ".join("%s: python %d, reference %d" % (
        k, py[k], ans[k]) for k in diff))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("ref_cli")
    ap.add_argument("--seed", type=int, default=11)
    ap.add_argument("--seconds", type=float, default=15)
    ap.add_argument("--batch", type=int, default=300)
    ap.add_argument("--case-seconds", type=float, default=2,
                    help="Python's time limit per case (then skipped)")
    ap.add_argument("--max-failures", type=int, default=10)
    ap.add_argument("--artifacts",
                    default=os.path.join(tempfile.gettempdir(),
                                         "reference_oracle"))
    args = ap.parse_args()
    check_python_assumptions()
    rng = random.Random(args.seed)
    probe = run_batch(args.ref_cli, [{"flags": "-", "pcre": b"a",
                                      "data": b"a"}], "pcre2")
    pcre2 = "engine=1/1" in probe[0]
    rep = Report(args.artifacts)
    deadline = time.monotonic() + args.seconds
    worker = PythonWorker(args.case_seconds)
    while time.monotonic() < deadline and rep.failures < args.max_failures:
        cases = [make_case(rng) for _ in range(args.batch)]
        answers = run_batch(args.ref_cli, cases, "pcre2" if pcre2 else None)
        pys = worker.answers(cases)
        for c, line, py in zip(cases, answers, pys):
            check(c, parse_answer(line), py, rep, pcre2)
            if rep.failures >= args.max_failures:
                break
    worker.close()
    for key, exs in sorted(rep.examples.items()):
        for c, py, ans in exs:
            print("python differs from PCRE2 (%s): pattern %r flags %s data "
                  "%r python %r reference %r" % (
                      ",".join(key), c["pcre"], c["flags"], c["data"],
                      {k: py[k] for k in key}, {k: ans[k] for k in key}))
    s = rep.stats
    print("reference_oracle: seed %d, %d cases, %d checked against Python%s,"
          " %d out of reach, %d Python refused, %d Python too slow, %d "
          "PCRE2 match limit, %d where regex and re differ, %d where "
          "Python differs from PCRE2" % (
              args.seed, s["cases"], s["checked"],
              " and PCRE2" if pcre2 else " (no PCRE2 engine)",
              s["out_of_reach"], s["python_refused"], s["python_timeout"],
              s["pcre2_limit"], s["regex_bug"], s["python_vs_pcre2"]))
    print("%d passed, %d failed" % (s["cases"] - rep.failures,
                                     rep.failures))
    return 1 if rep.failures else 0


if __name__ == "__main__":
    sys.exit(main())

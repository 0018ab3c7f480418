#!/usr/bin/python3
"""rxbench-python: rxbench's runner for Python 3's re (engines/runner.h).

rxbench starts it as its child (/usr/bin/python3 this-file) with a socket
as stdin and stdout and sends it length-prefixed requests; each gets one
reply.  Patterns and inputs are bytes: re on bytes (ASCII \\w, \\d, \\s, \\b
and ASCII case folding, as rxbench's byte mode), or in UTF-8 mode both
decoded and matched as str with re.ASCII.  Python has no allocation
counter cheap enough to leave on: B/op and allocs/op are reported as
unknown (-1).
"""
import gc
import re
import struct
import sys
import time
import warnings

from rxbench_fqdn import WORK_FQDN, WORK_REVERSE, fqdn_rewrite

CASELESS, DOTALL, ANCHORED, SINGLEMATCH, UTF8, MULTILINE = (1 << i for i in range(6))
KNOWN = (1 << 6) - 1
OP_NONE, OP_IS_MATCH, OP_COUNT, OP_MATCH_IDS, OP_COMPILE = range(5)
# WORK's flags: an op is one input (bits 1 and 2: rxbench_fqdn.py)
WORK_EACH = 1
ERR_COMPILE, ERR_UNSUPPORTED, ERR_MATCH = 1, 2, 5


# POSIX classes (Python has none: '[[:digit:]]' would be a set of ':',
# 'd', 'i', ...), spelt as the ASCII ranges PCRE2 gives them in byte mode.
POSIX = {"alpha": "a-zA-Z", "digit": "0-9", "alnum": "a-zA-Z0-9",
         "upper": "A-Z", "lower": "a-z", "space": "\\t\\n\\v\\f\\r ",
         "blank": " \\t", "xdigit": "0-9A-Fa-f", "word": "\\w",
         "cntrl": "\\x00-\\x1f\\x7f", "print": " -~", "graph": "!-~",
         "punct": "!-/:-@\\[-`{-~"}


def pcre_spelling(p, multiline, utf8):
    """p (str) with what Python reads otherwise than PCRE2 spelt its way:
    POSIX classes, \\x{...}, '{,n}' (literal in PCRE2 10.42), multiline
    '^' (not after a final newline in PCRE2); Refused where it cannot."""
    out, i, in_class = [], 0, False
    while i < len(p):
        c = p[i]
        if c == "\\" and i + 1 < len(p):
            e = p[i + 1]
            m = re.match(r"x\{([0-9a-fA-F]+)\}", p[i + 1:])
            if m:
                v = int(m.group(1), 16)
                if v > (0x10FFFF if utf8 else 0xFF):
                    raise Refused("\\x{%s} is beyond the mode's range" % m.group(1))
                out.append("\\x%02x" % v if v <= 0xFF else "\\U%08x" % v)
                i += 1 + m.end()
                continue
            if e == "B" and not in_class:  # Python's fails on ""
                out.append(r"(?:(?<=\w)(?=\w)|(?<!\w)(?!\w))")
                i += 2
                continue
            if e == "Z":
                raise Refused("Python's \\Z is the end of the text only "
                              "(PCRE's also before a final newline)")
            out.append(c + e)
            i += 2
            continue
        if in_class:
            m = re.match(r"\[:(\^?)([a-z]+):\]", p[i:])
            if m:
                if m.group(2) not in POSIX:
                    raise re.error("unknown POSIX class " + m.group(0))
                if m.group(1):
                    raise Refused("a negated POSIX class " + m.group(0))
                out.append(POSIX[m.group(2)])
                i += m.end()
                continue
            if c == "]":
                in_class = False
        elif c == "[":
            in_class = True
            out.append(c)
            i += 1
            if p[i:i + 1] == "^":
                out.append("^")
                i += 1
            if p[i:i + 1] == "]":
                out.append("\\]")
                i += 1
            continue
        elif c == "^" and multiline:
            c = r"(?:\A|(?<=\n)(?=[\s\S]))"
        elif c == "{":
            m = re.match(r"\{,[0-9]*\}", p[i:])
            if m:
                out.append("\\" + m.group(0)[:-1] + "\\}")
                i += m.end()
                continue
        out.append(c)
        i += 1
    return "".join(out)


class Refused(Exception):
    """Something Python's re reads otherwise than rxbench means it."""


class Body:
    """A request's fields, read in order."""

    def __init__(self, b):
        self.b, self.at = b, 0

    def take(self, n):
        if self.at + n > len(self.b):
            raise ValueError("truncated request")
        v = self.b[self.at:self.at + n]
        self.at += n
        return v

    def u8(self):
        return self.take(1)[0]

    def u32(self):
        return struct.unpack("<I", self.take(4))[0]

    def u64(self):
        return struct.unpack("<Q", self.take(8))[0]

    def bytes(self):
        return self.take(self.u32())


def pack_bytes(b):
    return struct.pack("<I", len(b)) + b


def error(status, msg, pattern=0xFFFFFFFF):
    return b"E" + struct.pack("<II", status, pattern) + pack_bytes(msg.encode()[:200])


class Set:
    """A compiled set: COMPILE's."""

    def __init__(self, pats, flags, at):
        """at[0] follows the pattern being compiled, for errors."""
        if flags & ~KNOWN:
            raise Refused("unknown flags %#x" % (flags & ~KNOWN))
        self.flags = flags
        self.utf8 = bool(flags & UTF8)
        f = 0
        if flags & CASELESS:
            f |= re.IGNORECASE
        if flags & DOTALL:
            f |= re.DOTALL
        if flags & MULTILINE:
            f |= re.MULTILINE
        self.src, self.re = [], []
        if self.utf8:
            f |= re.ASCII
            if flags & CASELESS:
                raise Refused("Python folds case either ASCII only or with "
                              "Unicode classes; PCRE2's UTF-8 caseless is "
                              "neither")
        for i, p in enumerate(pats):
            at[0] = i
            t = pcre_spelling(p.decode("utf-8" if self.utf8 else "latin-1"),
                              bool(flags & MULTILINE), self.utf8)
            if not self.utf8:
                t = t.encode("latin-1")
            with warnings.catch_warnings():
                warnings.simplefilter("error")  # '[[' a nested set
                try:
                    r = re.compile(t, f)
                except FutureWarning as w:
                    raise Refused(str(w))
                except re.error as e:
                    if "global flags not at the start" in str(e):
                        raise Refused("Python takes inline flags at the "
                                      "start only")
                    raise
            self.src.append((t, f))
            self.re.append(r)
        self.anchored = bool(flags & ANCHORED)

    def text(self, b):
        return b.decode("utf-8", "surrogateescape") if self.utf8 else b

    def do(self, op, data, ids=None):
        """One op on one input (already as text())."""
        n = 0
        for i, r in enumerate(self.re):
            if op == OP_COUNT:
                n += (r.match(data) is not None) if self.anchored \
                    else count(r, data)
                continue
            m = (r.match(data) if self.anchored else r.search(data)) is not None
            if ids is not None:
                ids[i] = m
            if op == OP_IS_MATCH and m:
                return 1
            n += m
        return n


def count(r, data):
    """rxbench's count: resume after each match, one past an empty one
    (finditer would not retry where an empty match ended a match)."""
    n, pos, end = 0, 0, len(data)
    search = r.search
    while pos <= end:
        m = search(data, pos)
        if m is None:
            break
        n += 1
        s, e = m.span()
        pos = e if e > s else e + 1
    return n


class Work:
    """WORK's: what BENCH times."""

    def __init__(self, op, flags, sets, names, inputs):
        self.op, self.sets = op, sets
        self.each = bool(flags & WORK_EACH)
        self.fqdn, self.reverse = flags & WORK_FQDN, flags & WORK_REVERSE
        self.names = set(names) if names else None
        self.inputs = inputs
        # each set reads the inputs as its mode spells them, made once
        # (a rewritten query is made per op, as the proxy does)
        self.text = None if self.fqdn else [[s.text(b) for b in inputs]
                                            for s in sets]
        self.next = 0

    def decide(self, op, i):
        if self.fqdn:
            q = fqdn_rewrite(self.inputs[i], self.reverse)
            if self.names is not None and q in self.names:
                return 1
            return sum(s.do(op, s.text(q)) for s in self.sets)
        if self.names is not None and self.inputs[i] in self.names:
            return 1
        return sum(s.do(op, t[i]) for s, t in zip(self.sets, self.text))

    def recompile(self):
        for s in self.sets:
            for p, f in s.src:
                re.compile(p, f)
                re.purge()  # or re's cache answers the next compile

    def run(self, op, n):
        sink = 0
        inputs = self.inputs
        for _ in range(n):
            if op == OP_COMPILE:
                self.recompile()
            elif self.each:
                i = self.next
                sink += self.decide(op, i) if op else len(inputs[i])
                self.next = i + 1 if i + 1 < len(inputs) else 0
            else:
                for i in range(len(inputs)):
                    sink += self.decide(op, i) if op else len(inputs[i])
        return sink

    def pass_n(self):
        return len(self.inputs) if self.each and self.op != OP_COMPILE else 1

    def timed(self, op, n):
        gc.collect()
        t0 = time.perf_counter_ns()
        self.run(op, n)
        return time.perf_counter_ns() - t0


def predict_n(goal, last, ns):
    """testing.B's (and rxbench's bench_predict_n)."""
    n = goal * last // max(ns, 1)
    n += n // 5
    return min(max(min(n, 100 * last), last + 1), 10**9)


class Runner:
    def __init__(self):
        self.sets, self.work = {}, None

    def compile(self, d):
        sid, flags, n = d.u32(), d.u32(), d.u32()
        pats = [d.bytes() for _ in range(n)]
        at = [0]
        try:
            s = Set(pats, flags, at)
        except Refused as e:
            return error(ERR_UNSUPPORTED, str(e), at[0])
        except (re.error, UnicodeDecodeError, OverflowError, RecursionError) as e:
            return error(ERR_COMPILE, str(e), at[0])
        self.sets[sid] = s
        return b"K"

    def match_set(self, d):
        """The set and op of a match or answers request (None: bad)."""
        s, op = self.sets.get(d.u32()), d.u8()
        if op not in (OP_IS_MATCH, OP_COUNT, OP_MATCH_IDS):
            s = None
        return s, op

    @staticmethod
    def answer(s, op, data):
        """One answer: the op's value on data, and its ids."""
        ids = [0] * len(s.re) if op == OP_MATCH_IDS else None
        v = s.do(op, s.text(data), ids)
        return struct.pack("<Q", v) + pack_bytes(bytes(ids or b""))

    def match(self, d):
        s, op = self.match_set(d)
        data = d.bytes()
        if s is None:
            return error(ERR_MATCH, "bad match request")
        return b"R" + self.answer(s, op, data)

    def answers(self, d):
        """match's op on every input, in one reply."""
        s, op = self.match_set(d)
        inputs = [d.bytes() for _ in range(d.u32())]
        if s is None:
            return error(ERR_MATCH, "bad answers request")
        return b"A" + struct.pack("<I", len(inputs)) + b"".join(
            self.answer(s, op, data) for data in inputs)

    def set_work(self, d):
        op, flags = d.u8(), d.u8()
        sets = [self.sets.get(d.u32()) for _ in range(d.u32())]
        names = [d.bytes() for _ in range(d.u32())]
        inputs = [d.bytes() for _ in range(d.u32())]
        if None in sets or not inputs or op > OP_COMPILE or flags > 7 or (
                flags & WORK_REVERSE and not flags & WORK_FQDN):
            return error(ERR_MATCH, "bad work request")
        self.work = Work(op, flags, sets, names, inputs)
        return b"K"

    def values(self, d):
        """The work's op on each of its inputs: what a bench computes."""
        w = self.work
        if w is None or not w.each or w.op == OP_COMPILE:
            return error(ERR_MATCH, "values before a work of one input per op")
        return b"A" + struct.pack("<I", len(w.inputs)) + b"".join(
            struct.pack("<Q", w.decide(w.op, i)) + pack_bytes(b"")
            for i in range(len(w.inputs)))

    def bench(self, d):
        benchtime, fixed, warmup, mode = d.u64(), d.u64(), d.u64(), d.u8()
        w = self.work
        if w is None:
            return error(ERR_MATCH, "bench before work")
        if mode != 0:
            return error(ERR_UNSUPPORTED, "bench mode %d: python-re times "
                         "warm only" % mode)
        t0 = time.perf_counter_ns()
        while True:
            w.run(w.op, w.pass_n())
            if time.perf_counter_ns() - t0 >= warmup:
                break
        n = fixed or 1
        while True:
            ns = w.timed(w.op, n)
            if fixed or ns >= benchtime or n >= 10**9:
                break
            n = predict_n(benchtime, n, ns)
        floor = w.timed(OP_NONE, n)
        return b"S" + struct.pack("<Qddddd", n, ns / n, -1.0, -1.0, floor / n,
                                  -1.0)

    def serve(self, inp, out):
        handlers = {ord("C"): self.compile, ord("M"): self.match,
                    ord("A"): self.answers,
                    ord("W"): self.set_work, ord("V"): self.values,
                    ord("B"): self.bench,
                    ord("P"): lambda d: error(
                        ERR_UNSUPPORTED, "python-re runs no endpoints world "
                        "(--endpoints): the go runner builds Cilium's"),
                    ord("F"): lambda d: (self.sets.pop(d.u32(), None), b"K")[1],
                    ord("H"): lambda d: b"H" + pack_bytes(
                        ("%d.%d.%d" % sys.version_info[:3]).encode())}
        while True:
            hdr = inp.read(4)
            if len(hdr) < 4:
                return
            (size,) = struct.unpack("<I", hdr)
            msg = inp.read(size)
            if len(msg) < size or size == 0:
                raise SystemExit("rxbench-python: truncated request")
            h = handlers.get(msg[0])
            try:
                r = h(Body(msg[1:])) if h else error(ERR_MATCH, "unknown request")
            except (ValueError, struct.error, RecursionError) as e:
                r = error(ERR_MATCH, str(e))
            out.write(struct.pack("<I", len(r)) + r)
            out.flush()


if __name__ == "__main__":
    sys.setrecursionlimit(10000)
    Runner().serve(sys.stdin.buffer, sys.stdout.buffer)

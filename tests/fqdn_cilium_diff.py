#!/usr/bin/env python3
"""fqdn_cilium_diff.py - rxbench's FQDN verdicts against an oracle of Cilium.

The oracle (tests/go/cilium_oracle, Go, built here offline) decides as
Cilium's own code does, on Go's regexp: the DNS proxy (L7: GeneratePattern
or 1.11's setPortRulesForID, CheckAllowed) and the name manager (L3:
ToAnchoredRegexp per toFQDNs selector).  Random policies over every
wildcard form and queries drawn from them (matching and near misses) plus
edge queries are asked, per version (1.11 and 1.19), of:

  (a) the reference:  fqdn_ref_cli V POLICY QUERIES        vs oracle L7
  (b) the trie:       fqdn_ref_cli --trie V POLICY QUERIES vs oracle L7
  (c) every strategy x engine: rxbench run fqdn --policy P --queries Q
      --cilium=V --strategies=all --engines=<every built one>, only the
      queries phase (--bench=/phase=queries$), one iteration, no warm-up,
      no allocation run: rxbench verifies each row against the reference
      (a mismatch row and exit 1 when one differs) and reports `allowed`.
      cilium-l3 and map+cilium-l3 are compared with the oracle's L3, every
      other strategy with its L7: a verified row gives the reference's
      verdicts, so it differs where the reference differs from that layer
      or where its `allowed` is not the oracle's count.  `unsupported`
      rows are counted, not differences.

Queries of any length and selectors past 255 bytes (Cilium's code
takes them) are asked as the others; rxbench refusing a selector the
oracle's code check accepts is a difference class too.

Every difference is put in a class (the first whose condition holds:
see CLASSES: the classes this test found before the reference, the trie
and the strategies followed Cilium's code, kept to name a regression),
prints a reproducer (the policy and query lines as Python bytes
literals, the commands) and fails the run (exit 1).
Exit 77 when go, the oracle's sources or the tools are missing.

  fqdn_cilium_diff.py --rxbench B --ref-cli C [--go GO] [--gocache DIR]
      [--seconds N] [--seed N | --random] [--strict] [--no-rxbench]
"""
import argparse
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
VERSIONS = ("1.11", "1.19")
L3_STRATEGIES = ("cilium-l3", "map+cilium-l3")

# --- what Cilium's dns.Fqdn does (cilium/dns IsFqdn) ---


def is_fqdn(q):
    """cilium/dns IsFqdn on bytes q: a final dot not escaped by an odd
    run of backslashes, the run measured in bytes from the start of the
    last rune that is not a backslash (Go's LastIndexFunc)."""
    if not q.endswith(b"."):
        return False
    s2 = q[:-1]
    i = len(s2)
    while i > 0 and s2[i - 1:i] == b"\\":
        i -= 1
    if i == 0:
        start = -1
    else:
        start = i - 1  # start of the last rune, as Go decodes it
        for width in (2, 3, 4):
            j = i - width
            if j < 0:
                break
            try:
                ch = s2[j:i].decode("utf-8")
            except UnicodeDecodeError:
                continue
            if len(ch) == 1:
                start = j
                break
    return (len(s2) - start) % 2 != 0


def stars_only(sel, dot_ok):
    s = sel[:-1] if dot_ok and sel.endswith(b".") else sel
    return len(s) > 0 and s.strip(b"*") == b""


def lead_stars(sel):
    return len(sel) - len(sel.lstrip(b"*"))


# A difference class: (name, known, condition(version, policy, query,
# layer)).  The first that holds names the difference.
CLASSES = [
    ("dns-wildcard: 1.19 reads stars with one trailing dot ('*.', '**.', "
     "'***.') as isDNSWildcard, GeneratePattern's (?:) (L7: every name) "
     "and ToAnchoredRegexp's match-all (L3: valid names)",
     False, lambda v, p, q, l: v == "1.19" and any(
         stars_only(s, True) and not stars_only(s, False) for s in p)),
    ("subdomain-stars: 1.19's escapeRegexpCharacters reads two or more "
     "leading stars then a dot ('***.x', '****.x') as one label or more",
     False, lambda v, p, q, l: v == "1.19" and any(
         lead_stars(s) >= 3 and s[lead_stars(s):lead_stars(s) + 1] == b"."
         for s in p)),
    ("l3-match-all: 1.19's name manager reads a stars-only pattern as "
     "valid names only (the proxy: every name)",
     False, lambda v, p, q, l: v == "1.19" and l == "L3" and any(
         stars_only(s, True) for s in p)),
    ("query-qualify: dns.Fqdn adds a second dot when the last rune before "
     "the final dot is 2 or 4 bytes or the dot follows an even run of "
     "backslashes (cilium/dns IsFqdn); rxbench looks at the last byte",
     False, lambda v, p, q, l: q.endswith(b".") and not is_fqdn(q)),
]

REFUSED_SELECTOR = ("selector-length: rxbench refuses a long selector "
                    "(Cilium 1.19: MaxFQDNLength and the CRD's MaxLength "
                    "are 255; 1.11 has no limit)")


def classify(v, policy, q, layer):
    for name, known, cond in CLASSES:
        if cond(v, policy, q, layer):
            return name, known
    return "unclassified", False


# --- random policies and queries ---

LABEL_CHARS = "abcdefghijklmnopqrstuvwxyz0123456789-_"


def rlabel(r, lo=1, hi=10):
    s = "".join(r.choice(LABEL_CHARS) for _ in range(r.randint(lo, hi)))
    if r.random() < 0.15:
        s = "".join(c.upper() if r.random() < 0.5 else c for c in s)
    return s


def long_name(r, total):
    """A name of exactly `total` bytes (no trailing dot), 63-byte labels."""
    labels, n = [], 0
    while n < total:
        room = total - n - (1 if labels else 0)
        k = min(63, room)
        if k <= 0:
            break
        labels.append("".join(r.choice("abcxyz") for _ in range(k)))
        n += k + (1 if len(labels) > 1 else 0)
    s = ".".join(labels)
    return s[:total]


WILD_FORMS = ["*", "*.", "**", "**.", "***", "***.", "****."]


# Selectors Cilium's code accepts and its CRD schema refuses (an empty
# label, a leading dot, the root alone; a matchName past 255 bytes, which
# 1.19's code does not measure): a policy applied past the CRD (an
# older CRD, a restored rule) reaches the proxy with them.
CRD_ONLY = ["a..b", "*..x.com", ".x.com", ".", "x.com..", "**..",
            "**.a..b", "*.x..*"]


def rselector(r):
    """One selector as bytes: CRD-valid, or now and then one only the
    code accepts (CRD_ONLY, a long matchName)."""
    x = r.random()
    base = ".".join(rlabel(r) for _ in range(r.randint(1, 3)))
    if r.random() < 0.06:
        s = r.choice(CRD_ONLY + [long_name(r, 300)])
        return s.encode()
    if x < 0.05:
        s = r.choice(WILD_FORMS)
    elif x < 0.30:
        s = base  # matchName
    elif x < 0.40:
        s = "*." + base
    elif x < 0.47:
        s = "*.*." + base
    elif x < 0.54:
        s = r.choice(["**.", "***.", "****."]) + base
    elif x < 0.60:
        s = "**." + base + ".**"
    elif x < 0.68:
        s = rlabel(r, 1, 4) + "*" + rlabel(r, 1, 4) + "." + base
    elif x < 0.74:
        s = "*" + base
    elif x < 0.78:
        s = base + ".*"
    elif x < 0.82:
        s = rlabel(r, 63, 63) + "." + base
    elif x < 0.85:
        s = "*." + rlabel(r, 64, 64) + ".com"
    elif x < 0.90:
        n = r.choice([253, 254, 254, 255])
        s = long_name(r, n)
        if r.random() < 0.5:
            s = "*" + s[1:]
    else:
        s = base + "." + rlabel(r, 2, 4) + ".*." + rlabel(r, 2, 3)
    if r.random() < 0.2 and not s.endswith(".") and len(s) < 255:
        s += "."
    return s.encode()


def fill(r, sel):
    """A name the selector should match: stars filled with label bytes."""
    out = []
    s = sel.decode()
    i = 0
    if lead_stars(sel) >= 2 and s[lead_stars(sel):lead_stars(sel) + 1] == ".":
        out.append(".".join(rlabel(r, 1, 5) for _ in range(r.randint(1, 3))))
        i = lead_stars(sel)
    while i < len(s):
        if s[i] == "*":
            while i + 1 < len(s) and s[i + 1] == "*":
                i += 1
            out.append(rlabel(r, 0, 5) if r.random() < 0.8 else "")
        else:
            out.append(s[i])
        i += 1
    return "".join(out).encode()


def near_miss(r, q):
    k = r.randrange(7)
    if k == 0:
        return b"x" + q
    if k == 1:
        return rlabel(r).encode() + b"." + q
    if k == 2 and b"." in q.rstrip(b"."):
        return q.split(b".", 1)[1]
    if k == 3 and q:
        i = r.randrange(len(q))
        return q[:i] + bytes([r.choice(b"._-xZ*")]) + q[i + 1:]
    if k == 4:
        return q.rstrip(b".") + b"..x"
    if k == 5:
        return q.upper()
    return b"." + q


EDGE = [b"", b".", b"..", b"...", b"a", b"a.", b"A.", b"a\r", b"a.\r",
        b"\x00", b"a\x00.", b"\xff", b"a\xff.", b"\xc4\xb0.", b"\xc4\xb0",
        b"\xe2\x84\xaa.", "\u212aube.io".encode(), "\u212aube.io.".encode(),
        "caf\xe9.".encode(), "caf\xe9".encode(), "\u0130stanbul.com".encode(),
        b"a\\.", b"\\.", b"a\\\\.", b"a b.", b"-.", b"_.", b"*.", b"*",
        "\U0001F600.".encode(), b"x.\xc3\xa9."]


def rqueries(r, policy):
    qs = list(EDGE)
    for sel in policy:
        for _ in range(3):
            m = fill(r, sel)
            if r.random() < 0.5:
                m = m.rstrip(b".") if r.random() < 0.5 else m
            qs.append(m)
            qs.append(near_miss(r, m))
            if r.random() < 0.2:
                # the matched name with a non-ASCII letter that lowers to
                # ASCII, or one that does not, or a 2-byte rune before the dot
                qs.append(m.replace(b"i", "\u0130".encode(), 1)
                          .replace(b"k", "\u212a".encode(), 1))
                qs.append(m.rstrip(b".") + "\xe9.".encode())
    for n in (253, 254, 255, 300):
        qs.append(long_name(r, n).encode())
        qs.append(long_name(r, n - 1).encode() + b".")
    r.shuffle(qs)
    return [q for q in qs if b"\n" not in q]


# --- running the tools ---

def run(cmd, **kw):
    return subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                          **kw)


def write_lines(path, lines):
    with open(path, "wb") as f:
        f.write(b"".join(x + b"\n" for x in lines))


class Tools:
    def __init__(self, a, tmp):
        self.a, self.tmp = a, tmp
        self.oracle = os.path.join(tmp, "cilium_oracle")
        self.engines = []

    def build_oracle(self):
        cache = os.path.abspath(self.a.gocache or os.path.join(self.tmp, "gocache"))
        os.makedirs(cache, exist_ok=True)
        env = dict(os.environ, GOCACHE=cache, GOPATH=os.path.join(cache, "path"),
                   GOPROXY="off", GO111MODULE="on", GOFLAGS="-trimpath",
                   GOTOOLCHAIN="local")
        p = run([self.a.go, "build", "-o", self.oracle, "./cilium_oracle"],
                cwd=os.path.join(HERE, "go"), env=env)
        if p.returncode != 0:
            sys.stdout.write(p.stderr.decode(errors="replace"))
            return False
        return True

    def list_engines(self):
        p = run([self.a.rxbench, "list"])
        out = p.stdout.decode(errors="replace").splitlines()
        names, not_built, sec = [], set(), None
        for line in out:
            if line.startswith("engines:"):
                sec = "e"
            elif line.startswith("not built"):
                sec = "n"
            elif not line.strip() or not line.startswith(" "):
                sec = None if sec == "e" and not line.strip() else sec
            elif sec == "e":
                f = line.split()
                if f[0] != "name" and len(f) > 1 and f[1] != "test-only":
                    names.append(f[0])
            elif sec == "n":
                not_built.add(line.split()[0])
        self.engines = [n for n in names if n not in not_built]
        return self.engines

    def oracle_verdicts(self, v, pol, qf):
        p = run([self.oracle, v, pol, qf])
        if p.returncode == 3:
            return None, p.stderr.decode(errors="replace").strip()
        if p.returncode != 0:
            raise RuntimeError("oracle: " + p.stderr.decode(errors="replace"))
        rows = [ln.split() for ln in p.stdout.decode().splitlines()]
        return ([int(x[0]) for x in rows], [int(x[1]) for x in rows]), None

    def oracle_check(self, v, pol):
        p = run([self.oracle, "-check", v, pol])
        return [ln.split(" ", 1)[0] for ln in p.stdout.decode().splitlines()]

    def ref(self, v, pol, qf, trie=False, nm=False):
        cmd = ([self.a.ref_cli] + (["--trie"] if trie else []) +
               (["--name-manager"] if nm else []) + [v, pol, qf])
        p = run(cmd)
        if p.returncode != 0:
            return None, p.stderr.decode(errors="replace").strip()
        return [int(x) for x in p.stdout.decode().split()], None

    def rxbench_cmd(self, v, pol, qf, out):
        return [self.a.rxbench, "run", "fqdn", "--policy", pol, "--queries", qf,
                "--cilium=" + v, "--strategies=all",
                "--engines=" + ",".join(self.engines), "--bench=/phase=queries$",
                "--benchtime=1x", "--count=1", "--warmup=0", "--no-alloc",
                # in rxbench itself: the same verdicts, and a forked child
                # per row starts its own go, python and node runner (a
                # round of every engine 13 s against 1.5 s at load 11)
                "--no-fork", "--quiet", "-o", out]

    def rxbench(self, v, pol, qf):
        out = os.path.join(self.tmp, "rx.json")
        if os.path.exists(out):
            os.remove(out)
        p = run(self.rxbench_cmd(v, pol, qf, out))
        rows = []
        if os.path.exists(out):
            with open(out) as f:
                for b in json.load(f).get("benchmarks", []):
                    keys = b.get("keys", {})
                    if keys.get("phase") not in (None, "queries"):
                        continue
                    allowed = None
                    for m in b.get("metrics") or []:
                        if m.get("unit") == "allowed" and m.get("samples"):
                            allowed = m["samples"][0]
                    rows.append((keys.get("strategy"), keys.get("engine"),
                                 b.get("status"), allowed, b.get("message")))
        return p.returncode, rows, p.stderr.decode(errors="replace")


# --- the run ---

def blit(x):
    return repr(bytes(x))


class Report:
    def __init__(self):
        self.stats = {v: {"ref": 0, "trie": 0, "rows": 0, "unsupported": 0,
                          "caught": 0, "diff": 0} for v in VERSIONS}
        self.caught = {}  # engine -> its first mismatch message
        self.classes = {}  # name -> (known, count, first reproducer)
        self.failed = False

    def add(self, cls, known, repro):
        k, n, first = self.classes.get(cls, (known, 0, None))
        self.classes[cls] = (known, n + 1, first or repro)


def repro_text(v, pol_lines, q, what, oracle_v, other_v):
    pl = "[" + ", ".join(blit(x) for x in pol_lines) + "]"
    return "\n".join([
        "  version %s, %s" % (v, what),
        "  policy lines: %s" % pl,
        "  query: %s" % blit(q),
        "  oracle: %s   %s: %s" % (oracle_v, what, other_v),
        "  reproduce (P, Q in the current directory):",
        "python3 - <<'EOF'",
        "open('P', 'wb').write(b''.join(x + b'\\n' for x in %s))" % pl,
        "open('Q', 'wb').write(%s + b'\\n')" % blit(q),
        "EOF",
        "    cilium_oracle %s P Q    # tests/go/cilium_oracle: '<l7> <l3>'" % v,
        "    fqdn_ref_cli %s P Q; fqdn_ref_cli --trie %s P Q" % (v, v),
        "    rxbench run fqdn --policy P --queries Q --cilium=%s "
        "--strategies=all --engines=all --bench='/phase=queries$' "
        "--benchtime=1x --count=1 --warmup=0 --no-alloc" % v])


def minimize(t, v, policy, qs, other_fn, layer):
    """Per query of qs, the first selector of policy alone on which the
    oracle's layer and other_fn still disagree: {index: ([sel], o, x)}."""
    qf = os.path.join(t.tmp, "min-q.txt")
    pf = os.path.join(t.tmp, "min-p.txt")
    write_lines(qf, qs)
    found = {}
    for s in policy:
        write_lines(pf, [s])
        o, _ = t.oracle_verdicts(v, pf, qf)
        other = other_fn(v, pf, qf)
        if o is None or other is None:
            continue
        ov = o[0] if layer == "L7" else o[1]
        for i in range(len(qs)):
            if i not in found and ov[i] != other[i]:
                found[i] = ([s], ov[i], other[i])
    return found


def compare(t, rep, v, policy, queries, what, other, layer_of_oracle,
            other_fn):
    """Count and classify the queries where the oracle's layer and other
    differ; each difference is classified on the one selector that shows
    it alone (when other_fn can ask one), else on the whole policy."""
    layer = "L3" if what == "name manager" or what.split("/")[0] in [
        "rxbench " + x for x in L3_STRATEGIES] else "L7"
    diff = [i for i, q in enumerate(queries) if layer_of_oracle[i] != other[i]]
    alone = minimize(t, v, policy, [queries[i] for i in diff], other_fn,
                     layer) if diff and other_fn else {}
    for k, i in enumerate(diff):
        pl, ov, xv = alone.get(k, (policy, layer_of_oracle[i], other[i]))
        cls, known = classify(v, pl, queries[i], layer)
        repro = None
        if cls not in rep.classes or rep.classes[cls][2] is None:
            repro = repro_text(v, pl, queries[i], what, ov, xv)
        rep.add(cls, known, repro)
    return len(diff)


def one_round(t, rep, r, v, use_rx):
    pol_path = os.path.join(t.tmp, "policy-%s.txt" % v)
    q_path = os.path.join(t.tmp, "queries-%s.txt" % v)
    policy = [rselector(r) for _ in range(r.randint(1, 6))]
    write_lines(pol_path, policy)
    checks = t.oracle_check(v, pol_path)
    policy = [s for s, c in zip(policy, checks) if c in ("ok", "crd")]
    if not policy:
        return
    write_lines(pol_path, policy)
    # selectors rxbench refuses though Cilium takes them (255 bytes)
    qprobe = os.path.join(t.tmp, "probe-q.txt")
    write_lines(qprobe, [b"a."])
    kept = []
    for s in policy:
        one = os.path.join(t.tmp, "one.txt")
        write_lines(one, [s])
        _, err = t.ref(v, one, qprobe)
        if err is None:
            kept.append(s)
            continue
        cls = REFUSED_SELECTOR if len(s) >= 255 else "refused-selector"
        rep.add(cls, cls in KNOWN_REFUSALS,
                "  version %s: fqdn_ref_cli says: %s\n  selector: %s"
                % (v, err, blit(s)))
    policy = kept
    if not policy:
        return
    write_lines(pol_path, policy)
    queries = rqueries(r, policy)  # long ones too: any length is read
    write_lines(q_path, queries)
    res, rejected = t.oracle_verdicts(v, pol_path, q_path)
    if res is None:
        raise RuntimeError("oracle rejects a CRD-valid policy: " + rejected)
    l7, l3 = res
    st = rep.stats[v]
    ref, err = t.ref(v, pol_path, q_path)
    if ref is None:
        rep.add("refused-queries", False, "  version %s: %s" % (v, err))
        return
    st["ref"] += len(queries)
    st["diff"] += compare(t, rep, v, policy, queries, "reference", ref, l7,
                          lambda vv, pp, qq: t.ref(vv, pp, qq)[0])
    trie, err = t.ref(v, pol_path, q_path, trie=True)
    st["trie"] += len(queries)
    st["diff"] += compare(t, rep, v, policy, queries, "trie", trie, l7,
                          lambda vv, pp, qq: t.ref(vv, pp, qq, True)[0])
    # the reference as the name manager reads toFQDNs: what cilium-l3
    # and map+cilium-l3 are verified against
    nm, err = t.ref(v, pol_path, q_path, nm=True)
    st["ref"] += len(queries)
    st["diff"] += compare(t, rep, v, policy, queries, "name manager", nm, l3,
                          lambda vv, pp, qq: t.ref(vv, pp, qq, nm=True)[0])
    if use_rx:
        rx_round(t, rep, v, policy, queries, pol_path, q_path, ref, nm, l7,
                 l3)


def rx_round(t, rep, v, policy, queries, pol_path, q_path, ref, nm, l7, l3):
    st = rep.stats[v]
    rc, rows, err = t.rxbench(v, pol_path, q_path)
    if not rows:
        rep.add("rxbench-failed", False, "  version %s: rxbench exit %d: %s"
                % (v, rc, err.strip()[-500:]))
        return
    for strategy, engine, status, allowed, msg in rows:
        layer = l3 if strategy in L3_STRATEGIES else l7
        mine = nm if strategy in L3_STRATEGIES else ref  # what verified it
        name = "rxbench %s/%s" % (strategy, engine)
        if status == "unsupported":
            st["unsupported"] += 1
            continue
        st["rows"] += 1
        if status == "mismatch" and list(mine) == list(layer):
            # the engine answered otherwise than the reference, which
            # agrees with the oracle: rxbench caught it and timed nothing
            # (TRE's '$' matches before a NUL byte, say)
            st["caught"] += 1
            rep.caught.setdefault(engine, msg)
            continue
        if status != "ok":
            rep.add("rxbench-row-" + str(status), False,
                    "  version %s: %s: %s: %s\n  policy lines: [%s]"
                    % (v, name, status, msg,
                       ", ".join(blit(x) for x in policy)))
            st["diff"] += 1
            continue
        # a verified row answered as the reference did
        d = compare(t, rep, v, policy, queries, name, mine, layer, None)
        if d == 0 and allowed is not None and allowed != sum(layer):
            rep.add("rxbench-allowed-count", False,
                    "  version %s: %s reports allowed=%s, the oracle %d"
                    % (v, name, allowed, sum(layer)))
            d = 1
        st["diff"] += d


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--rxbench", default=os.path.join(HERE, "..", "build", "rxbench"))
    ap.add_argument("--ref-cli", default=None)
    ap.add_argument("--go", default=shutil.which("go") or "go")
    ap.add_argument("--gocache", default=None)
    ap.add_argument("--seconds", type=float, default=20)
    ap.add_argument("--seed", type=int, default=20240610)
    ap.add_argument("--random", action="store_true",
                    help="after the fixed seed's half of the time, a random seed")
    ap.add_argument("--strict", action="store_true",
                    help="known difference classes fail the run too")
    ap.add_argument("--no-rxbench", action="store_true")
    ap.add_argument("--rx-share", type=float, default=0.5,
                    help="the share of the time rxbench runs may take")
    a = ap.parse_args()
    if a.ref_cli is None:
        a.ref_cli = os.path.join(os.path.dirname(a.rxbench), "tests", "fqdn_ref_cli")
    missing = [x for x in (a.rxbench, a.ref_cli) if not os.access(x, os.X_OK)]
    if missing or not shutil.which(a.go) and not os.access(a.go, os.X_OK):
        print("fqdn_cilium_diff: SKIP: missing %s" % (missing or [a.go]))
        return 77
    tmp = tempfile.mkdtemp(prefix="fqdn-cilium-diff-")
    try:
        return drive(a, tmp)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def drive(a, tmp):
    t = Tools(a, tmp)
    if not t.build_oracle():
        print("fqdn_cilium_diff: SKIP: the oracle did not build (go offline?)")
        return 77
    if not a.no_rxbench:
        print("engines: " + ",".join(t.list_engines()))
    rep = Report()
    seeds = [a.seed]
    if a.random:
        seeds.append(random.SystemRandom().randrange(1 << 31))
    per_seed = a.seconds / len(seeds)
    rounds = 0
    for seed in seeds:
        print("seed %d%s" % (seed, " (random)" if seed != a.seed else ""))
        sys.stdout.flush()
        r = random.Random(seed)
        start = time.monotonic()
        rx_time = 0.0
        while time.monotonic() - start < per_seed:
            for v in VERSIONS:
                elapsed = time.monotonic() - start
                use_rx = not a.no_rxbench and (
                    rounds < 1 or rx_time < a.rx_share * elapsed)
                t0 = time.monotonic()
                one_round(t, rep, r, v, use_rx)
                if use_rx:
                    rx_time += time.monotonic() - t0
            rounds += 1
    return summarize(a, rep, rounds)


def summarize(a, rep, rounds):
    print("%d rounds" % rounds)
    for v in VERSIONS:
        s = rep.stats[v]
        print("cilium %s: verdicts compared: reference (proxy and name "
              "manager) %d, trie %d; rxbench rows verified %d (unsupported %d; an engine's wrong answer "
              "caught, not timed: %d); differences %d"
              % (v, s["ref"], s["trie"], s["rows"] - s["caught"],
                 s["unsupported"], s["caught"], s["diff"]))
    for engine, msg in sorted(rep.caught.items()):
        print("caught on %s (the reference, which agrees with the oracle, "
              "kept it from being timed): %s" % (engine, msg))
    fail = False
    for cls, (known, n, repro) in sorted(rep.classes.items()):
        bad = not known or a.strict
        fail = fail or bad
        print("%s difference class (%d): %s" % ("NEW" if not known else "known",
                                                n, cls))
        if repro and (bad or n):
            print(repro)
    print("fqdn_cilium_diff: %s" % ("FAIL" if fail else "ok"))
    return 1 if fail else 0


if __name__ == "__main__":
    sys.exit(main())

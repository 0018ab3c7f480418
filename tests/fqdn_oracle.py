#!/usr/bin/python3
"""fqdn_oracle.py - the FQDN reference matcher against Python, at random.

The reference (suites/fqdn_ref.c) decides label by label, with no regex.
This script builds, for the same random policies, the regexes Cilium
itself builds, in Python from Cilium's own recipe, and asks Python's `re`:

  1.11  pkg/fqdn/dnsproxy setPortRulesForID: each selector's
        matchpattern.ToRegexp, grouped and joined with '|';
        ToRegexp("*") is (^([-a-zA-Z0-9_]+[.])+$)|(^[.]$), other
        patterns are Sanitize'd (lower case, dns.Fqdn) and get '*' ->
        [-a-zA-Z0-9_]*, '.' -> [.], anchored ^...$.
  1.19  GeneratePattern: ^(?:p1|p2|...)$ of ToUnAnchoredRegexp pieces; a
        DNS wildcard (stars only, with or without one final dot) is
        MatchAllUnAnchoredPattern, which makes the whole regex "(?:)";
        two or more leading stars and a dot ("**.", "****.") are
        ([-a-zA-Z0-9_]+([.][-a-zA-Z0-9_]+){0,})[.]; other runs of stars
        are one [-a-zA-Z0-9_]*.

A query is lower-cased and fully qualified (dns.Fqdn) and searched
(regexp.MatchString).  Queries here are ASCII (the reference's Unicode
lower case has its own tests).  Every disagreement is printed with the
policy, the query and both verdicts; exit 1 on any, else 0.
"""
import argparse
import os
import random
import re
import subprocess
import sys
import tempfile

CLASS = "[-a-zA-Z0-9_]"
MATCH_ALL_111 = "(^(" + CLASS + "+[.])+$)|(^[.]$)"
SUBDOMAINS = "(" + CLASS + "+([.]" + CLASS + "+){0,})[.]"


def fqdn(s):
    return s if s.endswith(".") else s + "."


def stars_only(p):
    return p != "" and p.strip("*") == ""


def to_regexp_111(p):
    """matchpattern.ToRegexp of v1.11."""
    p = p.strip().lower()
    if p == "*":
        return MATCH_ALL_111
    return "^" + p.replace("*", CLASS + "*").replace(".", "[.]") + "$"


def sanitize_111(p):
    """matchpattern.Sanitize of 1.11: only "*" itself is left alone."""
    return p if p == "*" else fqdn(p).lower()


def sanitize_119(p):
    """1.19 leaves every DNS wildcard alone (the match-all)."""
    return p if dns_wildcard_119(p) else fqdn(p).lower()


def selector_regex_111(sels):
    parts = []
    for kind, text in sels:
        t = fqdn(text).lower() if kind == "name" else sanitize_111(text)
        parts.append("(" + to_regexp_111(t) + ")")
    return "|".join(parts)


def escape_119(p):
    p = re.sub(r"\*+", "*", p)
    return p.replace(".", "[.]").replace("*", CLASS + "*")


def dns_wildcard_119(p):
    """isDNSWildcard of 1.19: stars only, with or without one final dot."""
    return stars_only(p[:-1] if p.endswith(".") else p)


def to_unanchored_119(p):
    """matchpattern.ToUnAnchoredRegexp of 1.19, or None for match-all."""
    p = p.strip().lower()
    if dns_wildcard_119(p):
        return None
    stars = len(p) - len(p.lstrip("*"))
    if stars >= 2 and p[stars:stars + 1] == ".":
        return SUBDOMAINS + escape_119(p[stars + 1:])
    return escape_119(p)


def generate_pattern_119(sels):
    pieces = []
    for kind, text in sels:
        t = fqdn(text).lower() if kind == "name" else sanitize_119(text)
        piece = to_unanchored_119(t)
        if piece is None:
            return "(?:)"
        pieces.append(piece)
    return "^(?:" + "|".join(pieces) + ")$"


LABELS = ["a", "b", "ab", "x-y", "q_1", "A", "Ab", "a*", "*b", "*", "**",
          "a*b", "***", "a**b", "*a*"]


def rand_selector(rng):
    n = rng.randint(1, 3)
    labels = [rng.choice(LABELS) for _ in range(n)]
    roll = rng.random()
    if roll < 0.08:
        return ("pattern", rng.choice(["*", "**", "***", "*.", "**.",
                                       "***."]))
    if roll < 0.3:
        labels = [rng.choice(["**", "**", "***", "****"])] + labels
    text = ".".join(labels)
    if rng.random() < 0.3:
        text += "."
    if "*" not in text:
        return (rng.choice(["name", "pattern"]), text)
    return ("pattern", text)


def fill(text, rng):
    out = []
    for c in text:
        if c != "*":
            out.append(c)
            continue
        out.append(rng.choice(["", "z", "zz", "Z-9", "_", "z.z", "z.", ".z",
                               "$", " ", "z.y.w"]))
    return "".join(out)


def rand_query(sels, rng):
    roll = rng.random()
    if roll < 0.05:
        return rng.choice(["", ".", "..", "a..b.", "a.", "A.B", "$.", " a."])
    if roll < 0.15:
        return ".".join(rng.choice(["a", "b", "z", "ab", "q_1", "x-y"])
                        for _ in range(rng.randint(1, 5)))
    kind, text = rng.choice(sels)
    q = fill(text, rng)
    if rng.random() < 0.2:
        q = rng.choice(["z.", "y.w.", "", "."]) + q
    if rng.random() < 0.2:
        q = q.upper()
    return q


def yaml_policy(sels):
    """The selectors as a CNP's DNS rules: the proxy's set, which the
    regexes built here (GeneratePattern, setPortRulesForID) model."""
    lines = ["apiVersion: cilium.io/v2", "kind: CiliumNetworkPolicy",
             "metadata:", "  name: oracle", "spec:", "  egress:",
             "  - toPorts:", "    - ports:", "      - port: '53'",
             "        protocol: ANY", "      rules:", "        dns:"]
    for kind, text in sels:
        key = "matchName" if kind == "name" else "matchPattern"
        lines.append("        - %s: '%s'" % (key, text))
    return "\n".join(lines) + "\n"


def verdicts(cli, version, sels, queries):
    with tempfile.TemporaryDirectory() as d:
        pol = os.path.join(d, "policy.yaml")
        qs = os.path.join(d, "queries.txt")
        with open(pol, "w") as f:
            f.write(yaml_policy(sels))
        with open(qs, "wb") as f:
            f.write(("\n".join(queries) + "\n").encode())
        out = subprocess.run([cli, version, pol, qs], capture_output=True,
                             check=True).stdout.decode().split()
    return [int(v) for v in out]


def oracle(version, sels, q):
    name = fqdn(q).lower()
    rx = (generate_pattern_119(sels) if version == "1.19"
          else selector_regex_111(sels))
    return int(re.search(rx, name) is not None), rx


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("cli")
    ap.add_argument("--rounds", type=int, default=300)
    ap.add_argument("--seed", type=int, default=20261201)
    args = ap.parse_args()
    rng = random.Random(args.seed)
    bad = checked = 0
    for r in range(args.rounds):
        sels = [rand_selector(rng) for _ in range(rng.randint(1, 4))]
        queries = [rand_query(sels, rng) for _ in range(40)]
        queries = [q for q in queries if "\n" not in q and len(q) < 200]
        for version in ("1.11", "1.19"):
            got = verdicts(args.cli, version, sels, queries)
            if len(got) != len(queries):
                print("round %d: %d verdicts for %d queries" %
                      (r, len(got), len(queries)))
                return 1
            for q, g in zip(queries, got):
                want, rx = oracle(version, sels, q)
                checked += 1
                if g != want:
                    bad += 1
                    if bad <= 10:
                        print("MISMATCH %s: policy %r query %r: reference %d,"
                              " Python re %d on %s" % (version, sels, q, g,
                                                       want, rx))
    print("fqdn_oracle: %d verdicts checked, %d differ" % (checked, bad))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())

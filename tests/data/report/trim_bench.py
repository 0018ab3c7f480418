#!/usr/bin/env python3
# trim_bench.py - writes bench.json, the HTML test's `make bench` run (all
# three suites, every default engine and strategy, --count=1), from a
# results file `make bench` wrote:
#   python3 tests/data/report/trim_bench.py results/latest.json \
#       > tests/data/report/bench.json
# Trimmed to what the report draws, so that the fixture stays small:
# no inputs (the page shows none), the `verified` text cut to 24
# characters, samples to 5 significant digits, and payload's metrics no
# table declares (Gbps, %linerate, B/op, allocs/op) left out.  The page's
# tables and charts come out the same, numbers rounded.
import json, sys

UNUSED = {"payload": {"Gbps", "%linerate", "B/op", "allocs/op"}}

def rounded(v):
    return float("%.5g" % v) if isinstance(v, float) else v

def trim(b):
    b.pop("inputs", None)
    if b.get("verified"):
        b["verified"] = b["verified"][:24]
    drop = UNUSED.get(b["suite"], set())
    b["metrics"] = [m for m in b["metrics"] if m["unit"] not in drop]
    for m in b["metrics"]:
        m["samples"] = [rounded(v) for v in m["samples"]]
    return b

d = json.load(open(sys.argv[1]))
d["benchmarks"] = [trim(b) for b in d["benchmarks"]]
json.dump(d, sys.stdout, separators=(",", ":"))
sys.stdout.write("\n")

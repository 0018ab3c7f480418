#!/usr/bin/python3
"""test_schema.py - real results validate against docs/results.schema.json.

Usage: test_schema.py RXBENCH SCHEMA
Runs rxbench (scan with a user pattern of raw bytes, so a {"hex"} text
appears; payload and fqdn at a small size) and validates each results
file, the golden file and the version 1 fixture with jsonschema's draft
2020-12 validator; a file the schema must refuse is refused.  Exits 77
(skipped) without python3-jsonschema.
"""
import json
import os
import subprocess
import sys
import tempfile

try:
    from jsonschema import Draft202012Validator
except ImportError:
    print("python3-jsonschema is not installed: skipped")
    sys.exit(77)

rx, schema_path = sys.argv[1], sys.argv[2]
here = os.path.dirname(os.path.abspath(__file__))
with open(schema_path) as f:
    schema = json.load(f)
Draft202012Validator.check_schema(schema)
validator = Draft202012Validator(schema)
failed = 0


def check(path, want_valid=True):
    global failed
    with open(path) as f:
        doc = json.load(f)
    errors = sorted(validator.iter_errors(doc), key=lambda e: e.path)
    if want_valid and errors:
        e = errors[0]
        print(f"FAIL: {path}: {list(e.absolute_path)}: {e.message}")
        failed += 1
    elif not want_valid and not errors:
        print(f"FAIL: {path}: the schema accepted a bad file")
        failed += 1
    else:
        print(f"ok: {path}")
    return doc


fast = ["--benchtime=3x", "--count=2", "--warmup=0", "--no-alloc"]
with tempfile.TemporaryDirectory() as tmp:
    corpus = os.path.join(tmp, "c.txt")
    with open(corpus, "wb") as f:
        f.write(b"hello world\nabc \xff abc\n")
    runs = {
        "scan": ["scan", "--engines=pcre2,re2", "--pattern=abc",
                 b"--pattern=\xff|abc", "--flags=i", "--corpus", corpus],
        "payload": ["run", "payload", "--engines=re2", "--sizes=64"],
        "fqdn": ["run", "fqdn", "--engines=re2", "--domains=20"],
    }
    for name, args in runs.items():
        out = os.path.join(tmp, name + ".json")
        subprocess.run([rx] + args + fast + ["-o", out], check=True,
                       stdout=subprocess.DEVNULL)
        doc = check(out)
        if not all("inputs" in b for b in doc["benchmarks"]):
            print(f"FAIL: {name}: a benchmark without inputs")
            failed += 1
        if name == "scan" and {"hex": "ff7c616263"} not in [
                b["inputs"]["pattern"] for b in doc["benchmarks"]]:
            print("FAIL: scan: the raw-byte pattern is not recorded as hex")
            failed += 1
    bad = os.path.join(tmp, "bad.json")
    with open(bad, "w") as f:
        json.dump({"format": "rxbench-results", "version": 2,
                   "benchmarks": [{"name": "A", "suite": "s",
                                   "status": "fine"}]}, f)
    check(bad, want_valid=False)
check(os.path.join(here, "golden", "results.json"))
check(os.path.join(here, "data", "report", "v1.json"))
print("failed" if failed else "passed")
sys.exit(1 if failed else 0)

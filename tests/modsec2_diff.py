#!/usr/bin/env python3
"""modsec2_diff.py - rxbench's --modsec=2 reading of ModSecurity rules
against the real mod_security2 (Debian's libapache2-mod-security2 2.9.7
in Apache httpd 2.4).

Two sides decide, rule by rule, whether each CRS rule matches each
request:

  modsec_ref_cli --modsec=2 RULES REQS   the payload suite's expected
      answer under --rules-target=variables (tests/modsec_ref_cli.c);
  Apache httpd with mod_security2, started here on 127.0.0.1 with a
      config of our own (a temporary ServerRoot), the requests sent to it
      as raw bytes over TCP, one connection each.

How a rule is fed to mod_security2 (as tests/modsec_oracle.c feeds
libmodsecurity3): each rule rxbench runs becomes one SecRule line whose
VARIABLES and operator words are the CRS file's bytes as written (the
logical line, continuation backslash-newlines joined, which Apache's
ap_cfg_getline does itself), so Apache's config reader (ap_getword_conf:
its quoting and backslashes) reads them as it reads CRS; its actions are
replaced by "id:N,phase:P,pass,log" and its t: actions in their order
(no disruptive action, nothing set: every rule runs on every request and
none changes what another sees).  A chain is not joined: each SecRule of
a chain is a rule of its own in the phase of the chain's first rule, as
rxbench reads chains (corpora/rules.h).  All rules share one config with
SecRuleEngine On, SecRequestBodyAccess On, modsecurity.conf-
recommended's body processor rules 200000 (XML) and 200001 (JSON) and
CRS's own 901340 (REQUEST-901-INITIALIZATION.conf: forceRequestBodyVariable
when no processor took the body; without it mod_security2 fills
REQUEST_BODY for form bodies only, msc_reqbody.c, where rxbench's reading
follows CRS, docs/payload.md: "raw, as CRS's rule 901340 forces it"); a
rule matched a request iff the error log shows a ModSecurity line with
its [id "N"] for that request.  Marker rules (SecAction, one per phase
used) log on every request whose phase ran: a rule is compared on a
request only when its phase ran in Apache and rxbench parses the request
(Apache refuses some requests before ModSecurity sees them, a 400 from
its own reader, and some after phase 1: counted by status and phase,
out of the comparison's reach).

Requests: tests/modsec_diff.py's (its handmade() set, then request(rng)
batches until --seconds are spent).  Each request goes over a fresh
connection, the write side shut after it; the server's close means the
request is done (a single process, -X, prefork), then the log's growth
is that request's.  Exit 1 on any differing decision (each printed with
a reproducer), 0 without, 77 when apache2 or mod_security2 is not
installed or Apache cannot start (the reason printed), 2 on a broken
feed (the self-check).

  modsec2_diff.py --ref-cli C [--rules DIR] [--seconds N]
      [--seed N | --random] [--batch N] [--max-print N] [--keep DIR]
      [--apache PATH] [--modules DIR]
"""
import argparse
import collections
import os
import re
import random
import shutil
import socket
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import modsec_diff as md  # noqa: E402  (the request generators)

FIRST_ID = 1000       # rule i of the run list gets id FIRST_ID + i
MARK_ID = 990000      # + phase: the marker that the phase ran
CHECK_IDS = (990101, 990102)

# --- the rules' text ---


def logical_lines(path):
    """(first line number, text) of each logical line of path, a '\\'
    before the line's end joining the next (as corpora/rules.c and
    Apache's ap_cfg_getline join them); bytes kept as they are."""
    with open(path, "rb") as f:
        lines = f.read().split(b"\n")
    if lines and lines[-1] == b"":
        lines.pop()
    i = 0
    while i < len(lines):
        first, text = i + 1, b""
        while True:
            l = lines[i]
            i += 1
            if l.endswith(b"\r"):
                l = l[:-1]
            if l.endswith(b"\\") and i < len(lines):
                text += l[:-1]
                continue
            text += l
            break
        yield first, text


def word_end(s, p):
    """End of the Apache word at s[p]: quoted ('\\' escapes the next
    byte) or bare up to a blank; None for an unterminated quote."""
    if s[p:p + 1] in (b'"', b"'"):
        q, p = s[p:p + 1], p + 1
        while p < len(s) and s[p:p + 1] != q:
            p += 2 if s[p:p + 1] == b"\\" and p + 1 < len(s) else 1
        return p + 1 if p < len(s) else None
    while p < len(s) and s[p:p + 1] not in (b" ", b"\t"):
        p += 1
    return p


def blanks(s, p):
    while p < len(s) and s[p:p + 1] in (b" ", b"\t"):
        p += 1
    return p


def split_actions(a):
    """The actions word's pieces (quotes dropped), split at commas
    outside '...' quoting, trimmed."""
    if a[:1] in (b'"', b"'"):
        a = a[1:-1]
    out, cur, inq, i = [], b"", False, 0
    while i < len(a):
        c = a[i:i + 1]
        if c == b"\\" and i + 1 < len(a):
            cur += a[i:i + 2]
            i += 2
            continue
        if c == b"'":
            inq = not inq
        if c == b"," and not inq:
            out.append(cur.strip())
            cur = b""
        else:
            cur += c
        i += 1
    out.append(cur.strip())
    return [x for x in out if x]


def file_secrules(path):
    """{line: (variables, operator, [t: actions], phase)} for each
    SecRule of path; phase is the chain's first rule's for a chained
    rule, "2" when none is named."""
    out, chain_phase = {}, None
    for first, text in logical_lines(path):
        p = blanks(text, 0)
        if text[p:p + 7].lower() != b"secrule" or \
                text[p + 7:p + 8] not in (b" ", b"\t"):
            continue
        v = blanks(text, p + 7)
        ve = word_end(text, v)
        o = blanks(text, ve) if ve is not None else None
        oe = word_end(text, o) if o is not None else None
        a = blanks(text, oe) if oe is not None else None
        ae = word_end(text, a) if a is not None else None
        if ae is None:
            continue
        acts = split_actions(text[a:ae])
        tr = [x for x in acts if x.startswith(b"t:")]
        phase = b""
        for x in acts:
            if x.startswith(b"phase:"):
                phase = x[6:].strip(b"'")
        chain = b"chain" in acts
        ph = chain_phase if chain_phase is not None else (phase or b"2")
        out[first] = (text[v:ve], text[o:oe], tr, ph.decode())
        if chain and chain_phase is None:
            chain_phase = phase or b"2"
        elif not chain:
            chain_phase = None
    return out


def phase_number(ph):
    return {"request": 2, "response": 4, "logging": 5}.get(ph) or int(ph)


# --- Apache ---

SETUP = r'''ServerRoot "{root}"
PidFile "{root}/httpd.pid"
ErrorLog "{root}/error.log"
LogLevel warn core:debug
Listen 127.0.0.1:{port}
ServerName 127.0.0.1
User {user}
Group {group}
LoadModule mpm_prefork_module {mods}/mod_mpm_prefork.so
LoadModule authz_core_module {mods}/mod_authz_core.so
LoadModule unique_id_module {mods}/mod_unique_id.so
LoadModule security2_module {mods}/mod_security2.so
DocumentRoot "{root}/htdocs"
<Directory "{root}/htdocs">
    Require all granted
</Directory>
SecRuleEngine On
SecRequestBodyAccess On
SecRule REQUEST_HEADERS:Content-Type "^(?:application(?:/soap\+|/)|text/)xml" \
     "id:'200000',phase:1,t:none,t:lowercase,pass,nolog,ctl:requestBodyProcessor=XML"
SecRule REQUEST_HEADERS:Content-Type "^application/json" \
     "id:'200001',phase:1,t:none,t:lowercase,pass,nolog,ctl:requestBodyProcessor=JSON"
SecRequestBodyLimit 13107200
SecRequestBodyNoFilesLimit 131072
SecRequestBodyInMemoryLimit 131072
SecRequestBodyLimitAction Reject
SecPcreMatchLimit 1000000
SecPcreMatchLimitRecursion 1000000
SecResponseBodyAccess Off
SecTmpDir "{root}/tmp"
SecDataDir "{root}/tmp"
SecAuditEngine Off
SecArgumentSeparator &
SecCookieFormat 0
SecRule REQBODY_PROCESSOR "!@rx (?:URLENCODED|MULTIPART|XML|JSON)" \
    "id:901340,phase:1,pass,nolog,ctl:forceRequestBodyVariable=On"
SecRule REQUEST_HEADERS:X-Rxb-Check "@rx ^evil$" "id:{c1},phase:1,pass,log"
SecRule ARGS_POST:rxbcheck "@rx evil" "id:{c2},phase:2,pass,log"
'''


def free_port():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


class Apache:
    """Our own httpd -X in a temporary ServerRoot."""

    def __init__(self, binary, mods, root, rules_text, phases):
        self.root, self.binary = root, binary
        self.port = free_port()
        os.makedirs(os.path.join(root, "htdocs"))
        os.makedirs(os.path.join(root, "tmp"))
        os.chmod(root, 0o755)
        os.chmod(os.path.join(root, "tmp"), 0o1777)
        with open(os.path.join(root, "htdocs", "index.html"), "w") as f:
            f.write("ok\n")
        user = group = "www-data" if os.geteuid() == 0 else ""
        conf = SETUP.format(root=root, port=self.port, mods=mods,
                            user=user or "#%d" % os.geteuid(),
                            group=group or "#%d" % os.getegid(),
                            c1=CHECK_IDS[0], c2=CHECK_IDS[1])
        if os.geteuid() != 0:  # User/Group only mean something to root
            conf = re.sub(r"(?m)^(User|Group) .*\n", "", conf)
        for ph in sorted(phases):
            conf += 'SecAction "id:%d,phase:%d,pass,log,msg:\'rxb mark\'"\n' % (
                MARK_ID + ph, ph)
        self.conf = os.path.join(root, "httpd.conf")
        with open(self.conf, "wb") as f:
            f.write(conf.encode() + rules_text)
        self.log = os.path.join(root, "error.log")
        self.proc = None
        self.pos = 0

    def start(self):
        """None, or why Apache cannot start."""
        p = subprocess.run([self.binary, "-t", "-f", self.conf, "-d",
                            self.root], stdout=subprocess.PIPE,
                           stderr=subprocess.STDOUT)
        if p.returncode != 0:
            return "apache2 -t: " + p.stdout.decode(errors="replace").strip()
        self.proc = subprocess.Popen(
            [self.binary, "-X", "-f", self.conf, "-d", self.root],
            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        end = time.monotonic() + 15
        while time.monotonic() < end:
            if self.proc.poll() is not None:
                err = self.proc.stderr.read().decode(errors="replace")
                return "apache2 -X exited %d: %s %s" % (
                    self.proc.returncode, err.strip(), self.log_tail())
            try:
                socket.create_connection(("127.0.0.1", self.port), 1).close()
                break
            except OSError:
                time.sleep(0.05)
        else:
            return "apache2 -X did not listen on %d within 15 s" % self.port
        # that probe connection carried no request; wait for its close
        time.sleep(0.1)
        self.pos = os.path.getsize(self.log)
        return None

    def log_tail(self):
        try:
            with open(self.log, "rb") as f:
                return f.read()[-600:].decode(errors="replace")
        except OSError:
            return ""

    def stop(self):
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()

    def send(self, req):
        """(status or None, [log lines]) of one request on its own
        connection."""
        status = None
        s = socket.create_connection(("127.0.0.1", self.port), 10)
        try:
            s.settimeout(10)
            try:
                s.sendall(req)
                s.shutdown(socket.SHUT_WR)
            except OSError:
                pass
            got = b""
            while True:
                try:
                    chunk = s.recv(65536)
                except OSError:
                    break
                if not chunk:
                    break
                got += chunk
            m = re.match(rb"HTTP/\d\.\d (\d{3})", got)
            status = int(m.group(1)) if m else None
        finally:
            s.close()
        return status, self.read_log()

    def read_log(self):
        with open(self.log, "rb") as f:
            f.seek(self.pos)
            data = f.read()
        # keep a last line without its newline for the next read
        cut = data.rfind(b"\n") + 1
        self.pos += cut
        return data[:cut].decode("utf-8", errors="replace").splitlines()


ID_RE = re.compile(r'\[id "(\d+)"\]')


def log_ids(lines):
    """The ids of ModSecurity's match lines; the PCRE-limit and other
    rule errors by id, separately."""
    ids, errors = set(), {}
    for line in lines:
        if "ModSecurity:" not in line:
            continue
        m = ID_RE.search(line)
        if not m:
            continue
        if "Warning." in line or "Access denied" in line:
            ids.add(int(m.group(1)))
        else:
            errors[int(m.group(1))] = line
    return ids, errors


def handmade2():
    """Round 0's further requests, on what Apache does before or around
    mod_security2: the path's normalisation and decoding before phase 2
    (/./, /../, //, %-escapes of unreserved and other bytes, %2f, %00),
    an absolute-form or CONNECT target beside a Host header, repeated
    headers (Apache merges them), a request without Host."""
    def get(t, extra=b"", proto=b"HTTP/1.1"):
        return b"GET " + t + b" " + proto + b"\r\nHost: a\r\n" + extra + \
            b"\r\n"
    return [
        get(b"/a/./b/../c.php"), get(b"//a//b.php"), get(b"/a/%2e%2e/b.php"),
        get(b"/%7e%41x.php"), get(b"/a%20b/%3cscript%3e.php"),
        get(b"/a%2fb.php"), get(b"/a%00b.php"), get(b"/a%zzb"),
        get(b"/a+b%2bc.php?x=%2e%2e/"), get(b"/index.php/%2e%2e/x"),
        get(b"/x/..%5c..%5cwin.ini"), get(b"/a.php?b=%3c/../"),
        get(b"http://1.2.3.4/x.php"), get(b"http://example.com:8080/x"),
        b"GET http://1.2.3.4/ HTTP/1.1\r\nHost: example.com\r\n\r\n",
        b"CONNECT 1.2.3.4:443 HTTP/1.1\r\nHost: example.com\r\n\r\n",
        get(b"/", b"X-A: one\r\nX-A: <script>\r\n"),
        get(b"/", b"Cookie: a=1\r\nCookie: b=' or 1=1--\r\n"),
        get(b"/", b"User-Agent: a\r\nUser-Agent: nikto\r\n"),
        b"GET /x.php HTTP/1.0\r\n\r\n",
        b"GET /x.php?a=1 HTTP/1.1\r\n\r\n",
    ]


def apache_why(lines):
    """Apache's own reason for refusing a request (its first AHnnnnn
    message, logged at level debug), without the specifics."""
    for line in lines:
        m = re.search(r"(AH\d{5}): (.*)", line)
        if m and "ModSecurity" not in line:
            why = re.sub(r"\b\d+\b", "N",
                         re.split(r": |, referer", m.group(2))[0])
            return "%s %s" % (m.group(1), why[:70])
    return "(no message)"


def self_check(ap):
    """A phase 1 header rule, a phase 2 form argument and a request that
    matches neither: a broken feed shows here, not as thousands of
    differences."""
    reqs = [b"GET / HTTP/1.1\r\nHost: a\r\nX-Rxb-Check: evil\r\n\r\n",
            b"POST / HTTP/1.1\r\nHost: a\r\nContent-Type: application/x-www-"
            b"form-urlencoded\r\nContent-Length: 13\r\n\r\nrxbcheck=evil",
            b"GET /?rxbcheck=evil HTTP/1.1\r\nHost: a\r\nX-Rxb-Check: e\r\n"
            b"\r\n"]
    want = [{CHECK_IDS[0]}, {CHECK_IDS[1]}, set()]
    for r, w in zip(reqs, want):
        status, lines = ap.send(r)
        ids, _ = log_ids(lines)
        got = {i for i in ids if i in CHECK_IDS}
        if got != w or MARK_ID + 1 not in ids or MARK_ID + 2 not in ids:
            sys.stderr.write("modsec2_diff: mod_security2 fails the self-"
                             "check on %r: status %r, ids %r, want %r and "
                             "the phase 1 and 2 markers; log:\n%s\n" % (
                                 r, status, sorted(ids), sorted(w),
                                 "\n".join(lines)))
            sys.exit(2)


def main():
    ap_ = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap_.add_argument("--ref-cli", required=True)
    ap_.add_argument("--rules", default="/usr/share/modsecurity-crs/rules")
    ap_.add_argument("--seconds", type=float, default=15)
    ap_.add_argument("--seed", type=int, default=22)
    ap_.add_argument("--random", action="store_true",
                     help="a random seed (printed) instead of --seed")
    ap_.add_argument("--batch", type=int, default=150,
                     help="random requests per round")
    ap_.add_argument("--max-print", type=int, default=0,
                     help="reproducers printed (0: every one)")
    ap_.add_argument("--keep", help="keep the ServerRoot (config, log) "
                     "and each round's requests here")
    ap_.add_argument("--requests", help="frames file: send only these "
                     "requests (a reproducer), no generated ones")
    ap_.add_argument("--apache", default=shutil.which("apache2") or
                     "/usr/sbin/apache2")
    ap_.add_argument("--modules", default="/usr/lib/apache2/modules")
    a = ap_.parse_args()
    if not os.access(a.apache, os.X_OK):
        print("modsec2_diff: SKIP: no apache2 at %s (apt-get install "
              "apache2)" % a.apache)
        return 77
    if not os.path.exists(os.path.join(a.modules, "mod_security2.so")):
        print("modsec2_diff: SKIP: no mod_security2.so in %s (apt-get "
              "install libapache2-mod-security2)" % a.modules)
        return 77
    if not os.path.exists(a.rules):
        print("modsec2_diff: SKIP: no rules at %s (apt-get install "
              "modsecurity-crs)" % a.rules)
        return 77
    if a.random:
        a.seed = int.from_bytes(os.urandom(4), "little")
    print("modsec2_diff: seed %d" % a.seed, flush=True)
    rng = random.Random(a.seed)
    start = time.monotonic()

    runs, skips, skipped = md.rules_of(a.ref_cli, 2, a.rules)
    where = {n: at for n, at in runs}
    texts, cache, phase_of, id_of = b"", {}, {}, {}
    for i, (name, at) in enumerate(runs):
        path, _, line = at.rpartition(":")
        if path not in cache:
            cache[path] = file_secrules(path)
        r = cache[path].get(int(line))
        if r is None:
            sys.stderr.write("modsec2_diff: %s: no SecRule starts there "
                             "(rule %s)\n" % (at, name))
            return 2
        vars_, op, tr, ph = r
        rid = FIRST_ID + i
        texts += b"SecRule " + vars_ + b" " + op + b' "id:%d,phase:%s,' \
            b'pass,log%s"\n' % (rid, ph.encode(),
                                b"".join(b"," + t for t in tr))
        phase_of[name] = phase_number(ph)
        id_of[name] = rid
    phases = set(phase_of.values()) | {1, 2}

    root = tempfile.mkdtemp(prefix="modsec2_diff.")
    ap = Apache(a.apache, a.modules, root, texts, phases)
    why = ap.start()
    if why is not None:
        print("modsec2_diff: SKIP: Apache cannot start: %s" % why)
        ap.stop()
        if not a.keep:
            shutil.rmtree(root, ignore_errors=True)
        return 77
    try:
        return compare(a, rng, start, ap, runs, skips, skipped, where,
                       phase_of, id_of, root)
    finally:
        ap.stop()
        if a.keep:
            os.makedirs(a.keep, exist_ok=True)
            for f in ("httpd.conf", "error.log"):
                shutil.copy(os.path.join(root, f), a.keep)
        shutil.rmtree(root, ignore_errors=True)


def read_frames(path):
    """The requests of a frames file ("<length>\\n" then the bytes)."""
    with open(path, "rb") as f:
        data = f.read()
    out, i = [], 0
    while i < len(data):
        nl = data.index(b"\n", i)
        n = int(data[i:nl])
        out.append(data[nl + 1:nl + 1 + n])
        i = nl + 1 + n
    return out


def compare(a, rng, start, ap, runs, skips, skipped, where, phase_of,
            id_of, root):
    self_check(ap)
    reqf = os.path.join(root, "reqs")
    ndiff = printed = compared = nreq = nparsed = 0
    apache_s = 0.0
    per_rule = collections.Counter()
    out_of_reach = collections.Counter()
    by_status = collections.Counter()
    example = {}
    phases_seen = collections.Counter()
    errors = collections.Counter()
    hits = collections.Counter()
    rounds = 0
    while rounds == 0 or time.monotonic() - start < a.seconds:
        if a.requests:
            if rounds:
                break
            reqs = read_frames(a.requests)
        elif rounds == 0:
            reqs = md.handmade() + handmade2()
        else:
            reqs = [md.request(rng) for _ in range(a.batch)]
        with open(reqf, "wb") as f:
            f.write(md.frames(reqs))
        if a.keep:
            os.makedirs(a.keep, exist_ok=True)
            shutil.copy(reqf, os.path.join(a.keep, "round%d" % rounds))
        ref_out, _ = md.run([a.ref_cli, "--modsec=2", a.rules, reqf])
        ref, notreq = md.req_lines(ref_out)
        for i, r in enumerate(reqs):
            nreq += 1
            t0 = time.monotonic()
            status, lines = ap.send(r)
            apache_s += time.monotonic() - t0
            ids, errs = log_ids(lines)
            uids = set(re.findall(r'\[unique_id "([^"]+)"\]', "\n".join(
                lines)))
            if len(uids) > 1:
                sys.stderr.write("modsec2_diff: the log lines after request "
                                 "%r name %d transactions (%s): the log is "
                                 "not attributed to one request\n" % (
                                     r, len(uids), " ".join(sorted(uids))))
                return 2
            ran = {p for p in range(1, 6) if MARK_ID + p in ids}
            by_status[(status, tuple(sorted(ran)))] += 1
            example.setdefault((status, tuple(sorted(ran))), r)
            if i in notreq:
                out_of_reach["rxbench: " + md.reason_class(notreq[i])] += 1
                continue
            if 1 not in ran:
                out_of_reach["Apache: status %s before ModSecurity's "
                             "phase 1: %s" % (status, apache_why(lines))] += 1
                continue
            nparsed += 1
            phases_seen[tuple(sorted(ran))] += 1
            rs = set(ref.get(i, []))
            for name, _ in runs:
                if phase_of[name] not in ran:
                    continue
                rid = id_of[name]
                if rid in errs:
                    errors[(name, re.sub(r"\[.*", "", errs[rid].split(
                        "ModSecurity:", 1)[1]).strip()[:80])] += 1
                    continue
                compared += 1
                om = rid in ids
                if om:
                    hits[name] += 1
                if (name in rs) == om:
                    continue
                ndiff += 1
                per_rule[(name, om)] += 1
                if a.max_print == 0 or printed < a.max_print:
                    printed += 1
                    print("DIFF %s (%s, phase %d): mod_security2 %s, "
                          "rxbench %s: %r" % (
                              name, where[name], phase_of[name],
                              "matches" if om else "no match",
                              "matches" if name in rs else "no match", r))
        rounds += 1
    sys.stdout.flush()
    print("modsec2_diff: seed %d, %d rounds in %.1f s (Apache %.1f s)" % (
        a.seed, rounds, time.monotonic() - start, apache_s))
    print("rules: %d run and compared, %d not run by rxbench, %d SecRules "
          "not read as rules (other operators, macros)" % (
              len(runs), len(skips), skipped))
    for why, n in collections.Counter(s[2] for s in skips).most_common():
        print("  not run: %3d  %s" % (n, why))
    print("requests: %d, %d compared (rxbench parses them, mod_security2 "
          "ran phase 1), %d not:" % (nreq, nparsed, nreq - nparsed))
    for why, n in out_of_reach.most_common():
        print("  out of reach: %4d  %s" % (n, why))
    print("Apache's answers (status, ModSecurity phases that ran):")
    for (st, ran), n in sorted(by_status.items(), key=lambda x: -x[1]):
        print("  %5d  status %s, phases %s, e.g. %s" % (
            n, st, ",".join(map(str, ran)) or "none",
            repr(example[(st, ran)])[:100]))
    for (name, err), n in errors.most_common():
        print("  rule error (not compared): %s %d: %s" % (name, n, err))
    print("decisions: %d rules x requests compared, %d differ; "
          "mod_security2 matched %d rules at least once" % (
              compared, ndiff, len(hits)))
    for (name, om), n in sorted(per_rule.items(), key=lambda x: -x[1]):
        print("  %-10s %5d  %s" % (name, n, "mod_security2 matches, "
                                    "rxbench not" if om else
                                    "rxbench matches, mod_security2 not"))
    return 1 if ndiff else 0


if __name__ == "__main__":
    sys.exit(main())

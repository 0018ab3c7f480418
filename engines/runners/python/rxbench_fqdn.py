"""rxbench_fqdn: the fqdn suite's part of rxbench-python (its wire:
suites/fqdn_runner.h): WORK's rewrite flags and the rewrite they ask for.
rxbench-python imports it from the directory it sits in."""

# WORK's flags of the fqdn suite: rewrite an input as the fqdn suite
# does; reverse it after
WORK_FQDN, WORK_REVERSE = 2, 4


def fqdn_rewrite(q, reverse):
    """A query as the fqdn suite rewrites it (suites/fqdn_strategies.h,
    fqdn_rewrite): lower case as Go's strings.ToLower as far as a verdict
    can tell (ASCII letters, U+0130 to 'i', U+212A to 'k', other bytes
    kept), a trailing dot unless IsFqdn takes it as qualified, reversed
    when asked.
    The two sequences share no byte, so replacing them first is the
    same as Go's left-to-right decoding."""
    fq = is_fqdn(q)
    q = q.replace(b"\xc4\xb0", b"i").replace(b"\xe2\x84\xaa", b"k").lower()
    if not fq:
        q += b"."
    return q[::-1] if reverse else q


def last_rune_width(b):
    """The width of b's last rune as Go's utf8.DecodeLastRune reads it:
    from the nearest rune start in its last four bytes, when that rune is
    valid UTF-8 and ends where b does; else 1."""
    if b[-1] < 0x80:
        return 1
    for start in range(len(b) - 1, max(len(b) - 4, 0) - 1, -1):
        if b[start] & 0xC0 != 0x80:
            break
    try:
        b[start:].decode("utf-8")
    except UnicodeDecodeError:
        return 1
    return len(b) - start


def is_fqdn(q):
    """The DNS library's IsFqdn (suites/fqdn_ref.h): q ends with '.', and
    the bytes from the last rune before it that is not a backslash to
    the dot are an odd count; a name ending in a two- or four-byte rune
    and a dot is not qualified."""
    if not q.endswith(b"."):
        return False
    if len(q) == 1 or (q[-2] < 0x80 and q[-2] != 0x5C):
        return True  # the usual name, decided at once
    body = q[:-1]
    end = len(body.rstrip(b"\\"))
    width = last_rune_width(body[:end]) if end > 0 else 1
    return (len(body) - end + width) % 2 != 0

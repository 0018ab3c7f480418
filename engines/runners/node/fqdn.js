// fqdn.js: the fqdn suite's part of rxbench-v8 (its wire:
// suites/fqdn_runner.h): WORK's rewrite flags and the rewrite they ask
// for.  rxbench-v8.js requires it from the directory it sits in.
'use strict';

// WORK's flags of the fqdn suite: rewrite an input as the fqdn suite
// does; reverse it after
const WORK_FQDN = 2, WORK_REVERSE = 4;

// A query as the fqdn suite rewrites it (suites/fqdn_strategies.h,
// fqdn_rewrite): lower case as Go's strings.ToLower as far as a verdict
// can tell (ASCII letters, U+0130 to 'i', U+212A to 'k', other bytes
// kept), a trailing dot unless isFqdn takes it as qualified, reversed
// when asked.  Bytes in, latin1 string out (one char per byte).
function fqdnRewrite(b, reverse) {
  let s = b.toString('latin1').replace(/\xc4\xb0/g, 'i')
    .replace(/\xe2\x84\xaa/g, 'k').replace(/[A-Z]+/g, (u) => u.toLowerCase());
  if (!isFqdn(b)) s += '.';
  return reverse ? s.split('').reverse().join('') : s;
}

// The width of the last rune of b[0..end) as Go's utf8.DecodeLastRune
// reads it: from the nearest rune start in its last four bytes, when that
// rune is valid UTF-8 and ends at end; else 1.
function lastRuneWidth(b, end) {
  if (b[end - 1] < 0x80) return 1;
  let start = end - 1;
  while (start > Math.max(end - 4, 0) && (b[start] & 0xc0) === 0x80) start--;
  const w = end - start;
  const r = b.subarray(start, end);
  // a valid sequence round-trips through UTF-8 unchanged
  return Buffer.from(r.toString('utf8'), 'utf8').equals(r) ? w : 1;
}

// The DNS library's IsFqdn (suites/fqdn_ref.h): b ends with '.', and the
// bytes from the last rune before it that is not a backslash to the dot
// are an odd count; a name ending in a two- or four-byte rune and a dot
// is not qualified.
function isFqdn(b) {
  const n = b.length;
  if (n === 0 || b[n - 1] !== 0x2e) return false;
  let end = n - 1;
  while (end > 0 && b[end - 1] === 0x5c) end--;
  const w = end > 0 ? lastRuneWidth(b, end) : 1;
  return (n - 1 - end + w) % 2 !== 0;
}

module.exports = { WORK_FQDN, WORK_REVERSE, fqdnRewrite };

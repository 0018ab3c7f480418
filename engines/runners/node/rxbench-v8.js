// rxbench-v8: rxbench's runner for JavaScript's RegExp (V8's Irregexp)
// through node, no npm packages (engines/runner.h).
//
// rxbench starts it as its child (node this-file) with a socket as fd 0
// and 1; requests and replies are read and written synchronously.  In
// rxbench's byte mode, patterns and inputs are Latin-1 strings (one char
// a byte); in UTF-8 mode they are decoded and the RegExp has the u flag.
// An anchored set uses the y (sticky) flag at index 0; count walks the
// matches with g, stepping one character past an empty one as Perl does
// (with u a character outside the BMP is two UTF-16 units).
//
// B/op is V8's: in an untimed pass after the sample, the growth of the
// heap's used bytes (v8.getHeapStatistics) over k ops started right after
// a full collection, less the same pass with no op, over k.  V8 allocates
// by bumping a pointer in its young generation, so while no scavenge runs
// (k is cut until the pass allocates under 1 MiB, far below a semi-space)
// the growth is what the ops allocated on V8's heap: the RegExp's results
// and strings, not memory outside the heap (Irregexp's backtrack stack,
// Buffers).  node counts no allocations: allocs/op is unknown (-1).
'use strict';
const fs = require('fs');
const v8 = require('v8');
const vm = require('vm');

v8.setFlagsFromString('--expose-gc');
const fullGC = vm.runInNewContext('gc');

const CASELESS = 1, DOTALL = 2, ANCHORED = 4, UTF8 = 16, MULTILINE = 32;
const KNOWN = 63;
const OP_NONE = 0, OP_IS_MATCH = 1, OP_COUNT = 2, OP_MATCH_IDS = 3,
  OP_COMPILE = 4;
const ERR_COMPILE = 1, ERR_UNSUPPORTED = 2, ERR_MATCH = 5;

function readFull(n) {
  const b = Buffer.alloc(n);
  let at = 0;
  while (at < n) {
    let r;
    try {
      r = fs.readSync(0, b, at, n - at, null);
    } catch (e) {
      if (e.code === 'EAGAIN') continue;
      throw e;
    }
    if (r === 0) return null;
    at += r;
  }
  return b;
}

function writeFull(b) {
  let at = 0;
  while (at < b.length) {
    try {
      at += fs.writeSync(1, b, at, b.length - at);
    } catch (e) {
      if (e.code !== 'EAGAIN') throw e;
    }
  }
}

class Body {
  constructor(b) { this.b = b; this.at = 0; }
  take(n) {
    if (this.at + n > this.b.length) throw new Error('truncated request');
    const v = this.b.subarray(this.at, this.at + n);
    this.at += n;
    return v;
  }
  u8() { return this.take(1)[0]; }
  u32() { return this.take(4).readUInt32LE(0); }
  u64() { return Number(this.take(8).readBigUInt64LE(0)); }
  bytes() { return this.take(this.u32()); }
}

function u32(v) { const b = Buffer.alloc(4); b.writeUInt32LE(v >>> 0); return b; }
function u64(v) { const b = Buffer.alloc(8); b.writeBigUInt64LE(BigInt(v)); return b; }
function f64(v) { const b = Buffer.alloc(8); b.writeDoubleLE(v); return b; }
function bytes(b) { return Buffer.concat([u32(b.length), b]); }
function error(status, msg, pattern) {
  return Buffer.concat([Buffer.from('E'), u32(status),
    u32(pattern === undefined ? 0xffffffff : pattern),
    bytes(Buffer.from(String(msg).slice(0, 200)))]);
}

class Refused extends Error {}

// What JavaScript reads otherwise than PCRE, refused rather than misread:
// escapes PCRE gives a meaning and JavaScript without its u flag reads as
// the letter (\a \e \g \o \C \E \N \Q \X; \x without two hex digits
// or braces, \k not before <name>, \c not before a letter), the anchors
// and classes it reads otherwise, inline flags.  Two such misreaders (v8
// and onig on \E) agreeing with a third would be a wrong majority.
const REFUSED = /\\(?:[AzZhHvVKRGaegoCENQX]|x(?![0-9a-fA-F]{2}|\{)|k(?!<)|c(?![A-Za-z]))|\(\?[a-zA-Z-]+[):]/;

// POSIX classes (JavaScript has none), as the ASCII ranges PCRE2 gives.
const POSIX = {
  alpha: 'a-zA-Z', digit: '0-9', alnum: 'a-zA-Z0-9', upper: 'A-Z',
  lower: 'a-z', space: '\\t\\n\\v\\f\\r ', blank: ' \\t',
  xdigit: '0-9A-Fa-f', word: '\\w', cntrl: '\\x00-\\x1f\\x7f',
  print: ' -~', graph: '!-~', punct: '!-\\/:-@\\[-`{-~',
};

function posixClasses(s) {
  return s.replace(/\[:(\^?)([a-z]+):\]/g, (m, neg, name) => {
    if (!(name in POSIX)) throw new SyntaxError('unknown POSIX class ' + m);
    if (neg) throw new Refused('a negated POSIX class ' + m);
    return POSIX[name];
  });
}

// JavaScript's ., ^ and $ (with m) and \s see more line ends and spaces
// than PCRE's (\r, U+2028, U+2029; U+00A0): spelt as PCRE means them,
// and the m flag is never given.  Throws Refused where that cannot be.
function translate(p, dotall, multiline, utf8) {
  const SPACE = '\\t\\n\\v\\f\\r ';
  let out = '', inClass = false;
  for (let i = 0; i < p.length; i++) {
    const c = p[i];
    if (c === '\\') {
      const e = p[++i];
      if (e === undefined) return out + c; // RegExp reports it
      const x = /^x\{([0-9a-fA-F]+)\}/.exec(p.slice(i));
      if (x) { // PCRE's \x{...}
        const v = parseInt(x[1], 16);
        if (v > (utf8 ? 0x10ffff : 0xff)) throw new Refused('\\x{' + x[1] + '} is beyond the mode');
        out += v <= 0xff ? '\\x' + v.toString(16).padStart(2, '0') : '\\u{' + v.toString(16) + '}';
        i += x[0].length - 1;
        continue;
      }
      if (e === 's') out += inClass ? SPACE : '[' + SPACE + ']';
      else if (e === 'S' && !inClass) out += '[^' + SPACE + ']';
      else if (e === 'S') throw new Refused('\\S inside a class');
      else out += c + e;
      continue;
    }
    if (inClass) {
      if (c === ']') inClass = false;
      out += c;
      continue;
    }
    if (c === '[') {
      inClass = true;
      out += c;
      if (p[i + 1] === '^') out += p[++i];
      if (p[i + 1] === ']') throw new Refused('a class opening with ]');
    } else if (c === '.') {
      out += dotall ? '[\\s\\S]' : '[^\\n]';
    } else if (c === '^' && multiline) {
      out += '(?:(?<![\\s\\S])|(?<=\\n)(?=[\\s\\S]))'; // not after a final \\n
    } else if (c === '$' && multiline) {
      out += '(?=\\n|(?![\\s\\S]))';
    } else {
      out += c;
    }
  }
  return out;
}

class RSet {
  // at.i follows the pattern being compiled, for errors
  constructor(pats, flags, at) {
    if (flags & ~KNOWN) throw new Refused('unknown flags');
    this.utf8 = (flags & UTF8) !== 0;
    this.anchored = (flags & ANCHORED) !== 0;
    let f = '';
    if (flags & CASELESS) f += 'i';
    if (this.utf8) f += 'u';
    this.test = [];  // is_match: y when anchored
    this.all = [];   // count: g (and y when anchored)
    pats.forEach((p, i) => {
      at.i = i;
      let s = this.text(p);
      if (this.utf8 && !Buffer.from(s, 'utf8').equals(p))
        throw new SyntaxError('pattern is not valid UTF-8');
      if (REFUSED.test(s))
        throw new Refused('syntax JavaScript reads otherwise (\\A \\z ' +
          '\\Z \\G, inline flags, \\h \\v \\K \\R, \\a \\e \\g \\o \\C \\E ' +
          '\\N \\Q \\X, \\x \\k \\c as PCRE spells them)');
      if ((flags & CASELESS) && /[^\x00-\x7f]/.test(s))
        throw new Refused('JavaScript folds non-ASCII letters; rxbench\'s ' +
          'caseless is ASCII');
      s = translate(posixClasses(s), (flags & DOTALL) !== 0,
        (flags & MULTILINE) !== 0, this.utf8);
      this.test.push(new RegExp(s, f + (this.anchored ? 'y' : '')));
      this.all.push(new RegExp(s, f + 'g' + (this.anchored ? 'y' : '')));
    });
  }
  text(b) { return b.toString(this.utf8 ? 'utf8' : 'latin1'); }
  count(i, s) {
    const re = this.all[i];
    let n = 0;
    re.lastIndex = 0;
    for (;;) {
      const m = re.exec(s);
      if (m === null) break;
      n++;
      if (this.anchored) break;
      if (m[0].length === 0) re.lastIndex = this.step(s, re.lastIndex);
    }
    return n;
  }
  // Past an empty match at i: one character, as JavaScript's
  // AdvanceStringIndex: with u a surrogate pair (a character outside
  // the BMP, 4 UTF-8 bytes) is one; exec from inside one would back up
  // to its start and match there again, for ever.
  step(s, i) {
    if (!this.utf8 || i + 1 >= s.length) return i + 1;
    const hi = s.charCodeAt(i), lo = s.charCodeAt(i + 1);
    const pair = hi >= 0xd800 && hi <= 0xdbff && lo >= 0xdc00 && lo <= 0xdfff;
    return i + (pair ? 2 : 1);
  }
  do(op, s, ids) {
    let n = 0;
    for (let i = 0; i < this.test.length; i++) {
      if (op === OP_COUNT) { n += this.count(i, s); continue; }
      const re = this.test[i];
      re.lastIndex = 0;
      const m = re.test(s) ? 1 : 0;
      if (ids) ids[i] = m;
      if (op === OP_IS_MATCH && m) return 1;
      n += m;
    }
    return n;
  }
}

// WORK's flags: an op is one input (bits 1 and 2: fqdn.js)
const WORK_EACH = 1;
const { WORK_FQDN, WORK_REVERSE, fqdnRewrite } = require('./fqdn.js');

class Work {
  constructor(op, flags, sets, names, inputs) {
    Object.assign(this, { op, sets, inputs, next: 0 });
    this.each = (flags & WORK_EACH) !== 0;
    this.fqdn = (flags & WORK_FQDN) !== 0;
    this.reverse = (flags & WORK_REVERSE) !== 0;
    this.names = names.length ? new Set(names.map((b) => b.toString('latin1'))) : null;
    // each set's text of the inputs, made once (a rewritten query is
    // made per op, as the proxy does)
    if (!this.fqdn) {
      this.keys = inputs.map((b) => b.toString('latin1'));
      this.text = sets.map((s) => inputs.map((b) => s.text(b)));
    }
  }
  decide(op, i) {
    if (this.fqdn) return this.decideRewritten(op, i);
    if (this.names !== null && this.names.has(this.keys[i])) return 1;
    let n = 0;
    for (let k = 0; k < this.sets.length; k++)
      n += this.sets[k].do(op, this.text[k][i], null);
    return n;
  }
  // the query rewritten per op, as the proxy does
  decideRewritten(op, i) {
    const key = fqdnRewrite(this.inputs[i], this.reverse);
    if (this.names !== null && this.names.has(key)) return 1;
    const b = Buffer.from(key, 'latin1');
    let n = 0;
    for (let k = 0; k < this.sets.length; k++)
      n += this.sets[k].do(op, this.sets[k].text(b), null);
    return n;
  }
  run(op, n) {
    let sink = 0;
    const len = this.inputs.length;
    for (let k = 0; k < n; k++) {
      if (this.each) {
        const i = this.next;
        sink += op ? this.decide(op, i) : this.inputs[i].length;
        this.next = i + 1 < len ? i + 1 : 0;
      } else {
        for (let i = 0; i < len; i++)
          sink += op ? this.decide(op, i) : this.inputs[i].length;
      }
    }
    return sink;
  }
  passN() { return this.each ? this.inputs.length : 1; }
  timed(op, n) {
    const t0 = process.hrtime.bigint();
    this.run(op, n);
    return Number(process.hrtime.bigint() - t0);
  }
}

// Heap bytes k ops of op allocate (untimed; see the top of the file).
function heapGrowth(w, op, k) {
  fullGC();
  const before = v8.getHeapStatistics().used_heap_size;
  w.run(op, k);
  return v8.getHeapStatistics().used_heap_size - before;
}

// B/op of w's op, or -1 when no pass stays small enough to trust; its k
// ops are at most a quarter of the sample's n, so it costs less than it.
function bytesPerOp(w, n) {
  for (let k = Math.max(1, Math.min(1000, Math.floor(n / 4))); k >= 1;
    k = Math.floor(k / 10)) {
    const grew = heapGrowth(w, w.op, k), floor = heapGrowth(w, OP_NONE, k);
    if (grew < (1 << 20) && grew >= 0)
      return Math.max(0, Math.floor((grew - Math.max(floor, 0)) / k));
  }
  return -1;
}

function predictN(goal, last, ns) {
  let n = Math.floor(goal * last / Math.max(ns, 1));
  n += Math.floor(n / 5);
  return Math.min(Math.max(Math.min(n, 100 * last), last + 1), 1e9);
}

const sets = new Map();
let work = null;

// One answer: the op's value on data, and its ids.
function answer(s, op, data) {
  const ids = op === OP_MATCH_IDS ? Buffer.alloc(s.test.length) : null;
  const v = s.do(op, s.text(data), ids);
  return Buffer.concat([u64(v), bytes(ids || Buffer.alloc(0))]);
}

const handlers = {
  H: () => Buffer.concat([Buffer.from('H'), bytes(Buffer.from(process.versions.v8))]),
  P: () => error(ERR_UNSUPPORTED, 'v8 runs no endpoints world (--endpoints): ' +
    "the go runner builds Cilium's"),
  C: (d) => {
    const id = d.u32(), flags = d.u32(), n = d.u32();
    const pats = [];
    for (let i = 0; i < n; i++) pats.push(d.bytes());
    const at = { i: 0 };
    let s;
    try {
      s = new RSet(pats, flags, at);
    } catch (e) {
      return error(e instanceof Refused ? ERR_UNSUPPORTED : ERR_COMPILE,
        e.message, at.i);
    }
    sets.set(id, s);
    return Buffer.from('K');
  },
  F: (d) => { sets.delete(d.u32()); return Buffer.from('K'); },
  M: (d) => {
    const s = sets.get(d.u32()), op = d.u8(), data = d.bytes();
    if (!s || op < OP_IS_MATCH || op > OP_MATCH_IDS) return error(ERR_MATCH, 'bad match request');
    return Buffer.concat([Buffer.from('R'), answer(s, op, data)]);
  },
  // match's op on every input, in one reply
  A: (d) => {
    const s = sets.get(d.u32()), op = d.u8(), parts = [Buffer.from('A'), null];
    const n = d.u32();
    if (!s || op < OP_IS_MATCH || op > OP_MATCH_IDS) return error(ERR_MATCH, 'bad answers request');
    for (let i = 0; i < n; i++) parts.push(answer(s, op, d.bytes()));
    parts[1] = u32(n);
    return Buffer.concat(parts);
  },
  W: (d) => {
    const op = d.u8(), flags = d.u8();
    const ws = [], names = [], inputs = [];
    for (let i = 0, n = d.u32(); i < n; i++) ws.push(sets.get(d.u32()));
    for (let i = 0, n = d.u32(); i < n; i++) names.push(d.bytes());
    for (let i = 0, n = d.u32(); i < n; i++) inputs.push(d.bytes());
    if (ws.includes(undefined) || inputs.length === 0 || op > OP_COMPILE ||
        flags > 7 || ((flags & WORK_REVERSE) && !(flags & WORK_FQDN)))
      return error(ERR_MATCH, 'bad work request');
    if (op === OP_COMPILE) // new RegExp would time V8's cache, not a compile
      return error(ERR_UNSUPPORTED, 'V8 compiles a RegExp lazily and caches ' +
        'it by source and flags: its compile cannot be timed from JavaScript');
    work = new Work(op, flags, ws, names, inputs);
    return Buffer.from('K');
  },
  // the work's op on each of its inputs: what a bench computes
  V: () => {
    if (work === null || !work.each)
      return error(ERR_MATCH, 'values before a work of one input per op');
    const parts = [Buffer.from('A'), u32(work.inputs.length)];
    for (let i = 0; i < work.inputs.length; i++)
      parts.push(u64(work.decide(work.op, i)), bytes(Buffer.alloc(0)));
    return Buffer.concat(parts);
  },
  B: (d) => {
    const benchtime = d.u64(), fixed = d.u64(), warmup = d.u64(), mode = d.u8();
    if (work === null) return error(ERR_MATCH, 'bench before work');
    if (mode !== 0) return error(ERR_UNSUPPORTED, `bench mode ${mode}: v8 times warm only`);
    const t0 = process.hrtime.bigint();
    do work.run(work.op, work.passN());
    while (Number(process.hrtime.bigint() - t0) < warmup);
    let n = fixed || 1, ns;
    for (;;) {
      ns = work.timed(work.op, n);
      if (fixed || ns >= benchtime || n >= 1e9) break;
      n = predictN(benchtime, n, ns);
    }
    const floor = work.timed(OP_NONE, n);
    return Buffer.concat([Buffer.from('S'), u64(n), f64(ns / n),
      f64(bytesPerOp(work, n)), f64(-1), f64(floor / n), f64(-1)]);
  },
};

for (;;) {
  const hdr = readFull(4);
  if (hdr === null) break;
  const msg = readFull(hdr.readUInt32LE(0));
  if (msg === null || msg.length === 0) process.exit(1);
  const h = handlers[String.fromCharCode(msg[0])];
  let r;
  try {
    r = h ? h(new Body(msg.subarray(1))) : error(ERR_MATCH, 'unknown request');
  } catch (e) {
    r = error(ERR_MATCH, e.message);
  }
  writeFull(Buffer.concat([u32(r.length), r]));
}

//! lib.rs - Rust's regex crate (1.7) as a C static library for rxbench's
//! `rust-regex` engine (engines/rust_regex.c, engines/rust_regex.h).
//!
//! Patterns arrive in rxbench's PCRE syntax as bytes and are spelt for the
//! crate first (`translate`): outside UTF-8 mode every byte is one
//! character (the crate's Unicode mode off, a byte >= 0x80 written
//! `\xHH`); in UTF-8 mode `\w \d \s \b` and their negations stay ASCII, as
//! in PCRE2 without UCP.  A set is one `Regex` per pattern (for extents:
//! the adapter counts with them) and, for two or more, a `RegexSet` (the
//! native is_match / which-patterns).  Nothing here panics across the C
//! boundary: compile runs under catch_unwind.

use regex::bytes::{Regex, RegexBuilder, RegexSet, RegexSetBuilder};
use std::os::raw::{c_char, c_int, c_long};
use std::panic::{catch_unwind, AssertUnwindSafe};

/// Compile flags: rxbench's enum engine_flag (engines/pattern.h), whose
/// values rust_regex.c asserts.
const F_CASELESS: u32 = 1;
const F_DOTALL: u32 = 2;
const F_ANCHORED: u32 = 4;
const F_UTF8: u32 = 16;
const F_MULTILINE: u32 = 32;

/// Statuses; the values of rxb_rust_status in rust_regex.h.
const ST_SYNTAX: c_int = -1;
const ST_TOO_BIG: c_int = -2;
const ST_BAD_UTF8: c_int = -3;
const ST_PANIC: c_int = -4;

/// struct engine_pattern's layout: bytes that may hold NUL.
#[repr(C)]
pub struct RxbPattern {
    re: *const u8,
    len: usize,
}

/// Limits of the crate's builders (RegexBuilder::size_limit and
/// dfa_size_limit): rxbench's engine options.
#[repr(C)]
pub struct RxbLimits {
    size_limit: usize,
    dfa_size_limit: usize,
}

pub struct RxbSet {
    res: Vec<Regex>,
    set: Option<RegexSet>,
    hits: Vec<bool>, // RegexSet::read_matches_at's output, made here
}

/// What went wrong compiling pattern `pattern` (-1: the whole set).
struct Failure {
    status: c_int,
    pattern: c_long,
    msg: String,
}

/// `\w` and friends as ASCII classes, spelt for inside (`[:word:]`) and
/// outside (`[[:word:]]`) a bracket expression; `\b \B` only outside.
fn ascii_class(c: u8, in_class: bool) -> Option<&'static str> {
    let (inside, outside) = match c {
        b'w' => ("[:word:]", "[[:word:]]"),
        b'W' => ("[:^word:]", "[^[:word:]]"),
        b'd' => ("[:digit:]", "[[:digit:]]"),
        b'D' => ("[:^digit:]", "[^[:digit:]]"),
        b's' => ("[:space:]", "[[:space:]]"),
        b'S' => ("[:^space:]", "[^[:space:]]"),
        b'b' if !in_class => ("", "(?-u:\\b)"),
        b'B' if !in_class => ("", "(?-u:\\B)"),
        _ => return None,
    };
    Some(if in_class { inside } else { outside })
}

/// Length of a POSIX class (`[:alpha:]`) starting at p[i..], inside a
/// bracket expression, or 0.
fn posix_class_len(p: &[u8], i: usize) -> usize {
    if p.get(i + 1) != Some(&b':') {
        return 0;
    }
    match p[i + 2..].windows(2).position(|w| w == b":]") {
        Some(k) if !p[i + 2..i + 2 + k].contains(&b']') => k + 4,
        _ => 0,
    }
}

/// Whether p[i..] is a counted repeat PCRE reads as one: `{n}`, `{n,}`
/// or `{n,m}`.  Any other `{` is a literal to PCRE, an error to the crate.
fn is_quantifier(p: &[u8], i: usize) -> bool {
    let digits = |mut j: usize| {
        let from = j;
        while j < p.len() && p[j].is_ascii_digit() {
            j += 1;
        }
        (j, j > from)
    };
    let (j, some) = digits(i + 1);
    if !some {
        return false;
    }
    match p.get(j) {
        Some(b'}') => true,
        Some(b',') => {
            let (k, _) = digits(j + 1);
            p.get(k) == Some(&b'}')
        }
        _ => false,
    }
}

/// The characters the crate reads escaped as themselves: regex-syntax
/// 0.6.27's `is_meta_character` (src/lib.rs), the escapes its parser
/// takes as punctuation literals (`\ ` only under `x`).
const CRATE_ESCAPABLE: &[u8] = b"\\.+*?()|[]{}^$#&-~";

/// Whether `\c` is a literal `c` to PCRE that the crate refuses: PCRE2
/// reads a backslash before any ASCII character that is no letter or
/// digit as that character (`\/` `\"` `\'` `\:` `\=` `\<` `\_` `\ `
/// and control bytes too), the crate only before its own metacharacters,
/// and any other is its error "unrecognized escape sequence".
fn crate_refuses_literal(c: u8) -> bool {
    c < 0x80 && !c.is_ascii_alphanumeric() && !CRATE_ESCAPABLE.contains(&c)
}

/// A byte for the crate: as itself, or `\xHH` outside UTF-8 mode when it
/// is not ASCII (the pattern must be a &str; `\xHH` is that byte when the
/// crate's Unicode mode is off).
fn push_byte(out: &mut Vec<u8>, c: u8, utf8: bool) {
    if c >= 0x80 && !utf8 {
        out.extend_from_slice(format!("\\x{:02X}", c).as_bytes());
    } else {
        out.push(c);
    }
}

/// The pattern spelt for the crate, or None when `utf8` and p is not
/// UTF-8.  Escapes are copied whole (a backslash before a non-ASCII
/// character is dropped: PCRE's `\é` is `é`), but for an escaped ASCII
/// punctuation or control character the crate does not take as one
/// (`\/`, Snort's spelling in `pcre:"/.../"`), spelt `\xHH`; in UTF-8
/// mode `\w \d \s \b` and negations become their ASCII classes; a `{`
/// that is no counted repeat is escaped.  `\Q...\E` is left as it is:
/// the crate refuses `\Q`, so such a pattern is an error row, never read
/// otherwise.  Bracket expressions are tracked (a `]` right after
/// `[` or `[^` is a member) so that inside one nothing but class escapes
/// changes.
fn translate(p: &[u8], utf8: bool) -> Option<String> {
    if utf8 && std::str::from_utf8(p).is_err() {
        return None;
    }
    let mut out = Vec::with_capacity(p.len() + 16);
    let mut in_class = false;
    let mut member_at = 0; // where a `]` would still be a member
    let mut i = 0;
    while i < p.len() {
        let c = p[i];
        if c == b'\\' && i + 1 < p.len() {
            let e = p[i + 1];
            match ascii_class(e, in_class).filter(|_| utf8) {
                Some(cls) => out.extend_from_slice(cls.as_bytes()),
                None if e >= 0x80 => push_byte(&mut out, e, utf8),
                // as \xHH: right in a class and under `x` (a bare space
                // or tab would be ignored there)
                None if crate_refuses_literal(e) => {
                    out.extend_from_slice(format!("\\x{:02X}", e).as_bytes())
                }
                None => out.extend_from_slice(&[b'\\', e]),
            }
            i += 2;
            continue;
        }
        let n = if in_class && c == b'[' { posix_class_len(p, i) } else { 0 };
        if n > 0 {
            out.extend_from_slice(&p[i..i + n]);
            i += n;
            continue;
        }
        if !in_class && c == b'[' {
            in_class = true;
            member_at = if p.get(i + 1) == Some(&b'^') { i + 2 } else { i + 1 };
        } else if in_class && c == b']' && i != member_at {
            in_class = false;
        } else if !in_class && c == b'{' && !is_quantifier(p, i) {
            out.push(b'\\');
        }
        push_byte(&mut out, c, utf8);
        i += 1;
    }
    String::from_utf8(out).ok()
}

/// The crate's reading of rxbench's flags for one builder.
macro_rules! configure {
    ($b:expr, $flags:expr, $lim:expr) => {
        $b.unicode($flags & F_UTF8 != 0)
            .case_insensitive($flags & F_CASELESS != 0)
            .dot_matches_new_line($flags & F_DOTALL != 0)
            .multi_line($flags & F_MULTILINE != 0)
            .size_limit($lim.size_limit)
            .dfa_size_limit($lim.dfa_size_limit)
    };
}

/// The crate's message on one line.  A syntax error is printed over
/// several (the pattern, a caret under the spot, "error: what"): it
/// becomes "what (offset N of the pattern as spelt for the crate: P)".
fn one_line(e: &regex::Error, spelled: &str) -> String {
    let text = e.to_string();
    let lines: Vec<&str> = text.lines().collect();
    let what = lines.iter().rev().find_map(|l| l.strip_prefix("error: "));
    let caret = lines.iter().find_map(|l| {
        let t = l.trim_start();
        (t.starts_with('^') && t.trim_end().chars().all(|c| c == '^'))
            .then(|| l.len() - t.len())
    });
    match (what, caret) {
        (Some(w), Some(c)) if !spelled.contains('\n') && c >= 4 => {
            format!("{} (offset {} of the pattern as spelt for the crate: {})", w, c - 4, spelled)
        }
        (Some(w), _) => w.to_string(),
        _ => text.split_whitespace().collect::<Vec<_>>().join(" "),
    }
}

fn error_status(e: &regex::Error) -> c_int {
    match e {
        regex::Error::CompiledTooBig(_) => ST_TOO_BIG,
        _ => ST_SYNTAX,
    }
}

fn fail(status: c_int, pattern: usize, msg: String) -> Failure {
    Failure { status, pattern: pattern as c_long, msg }
}

/// Compiles one pattern (already translated); under F_ANCHORED it is
/// checked alone first so that the \A(?:...) wrap cannot balance it.
fn compile_one(src: &str, i: usize, flags: u32, lim: &RxbLimits) -> Result<Regex, Failure> {
    let build = |s: &str| {
        configure!(RegexBuilder::new(s), flags, lim)
            .build()
            .map_err(|e| fail(error_status(&e), i, one_line(&e, s)))
    };
    if flags & F_ANCHORED == 0 {
        return build(src);
    }
    build(src)?;
    build(&format!("\\A(?:{})", src))
}

fn compile_all(pats: &[RxbPattern], flags: u32, lim: &RxbLimits) -> Result<RxbSet, Failure> {
    let mut srcs = Vec::with_capacity(pats.len());
    let mut res = Vec::with_capacity(pats.len());
    for (i, p) in pats.iter().enumerate() {
        let bytes = if p.len == 0 {
            &[][..]
        } else {
            unsafe { std::slice::from_raw_parts(p.re, p.len) }
        };
        let utf8 = flags & F_UTF8 != 0;
        let src = translate(bytes, utf8)
            .ok_or_else(|| fail(ST_BAD_UTF8, i, "pattern is not valid UTF-8".into()))?;
        res.push(compile_one(&src, i, flags, lim)?);
        srcs.push(if flags & F_ANCHORED != 0 { format!("\\A(?:{})", src) } else { src });
    }
    let set = if pats.len() > 1 {
        let s = configure!(RegexSetBuilder::new(&srcs), flags, lim)
            .build()
            .map_err(|e| {
                let msg = format!("RegexSet: {}", one_line(&e, ""));
                fail(error_status(&e), usize::MAX, msg)
            })?;
        Some(s)
    } else {
        None
    };
    Ok(RxbSet { res, set, hits: vec![false; pats.len()] })
}

/// Copies msg into buf[0..len), NUL-terminated and truncated.
fn copy_msg(msg: &str, buf: *mut c_char, len: usize) {
    if buf.is_null() || len == 0 {
        return;
    }
    let n = msg.len().min(len - 1);
    unsafe {
        std::ptr::copy_nonoverlapping(msg.as_ptr() as *const c_char, buf, n);
        *buf.add(n) = 0;
    }
}

/// See rust_regex.h.
#[no_mangle]
pub extern "C" fn rxb_rust_compile(
    pats: *const RxbPattern,
    n: usize,
    flags: u32,
    lim: *const RxbLimits,
    out: *mut *mut RxbSet,
    err_pattern: *mut c_long,
    err_msg: *mut c_char,
    err_len: usize,
) -> c_int {
    let r = catch_unwind(AssertUnwindSafe(|| {
        let pats = unsafe { std::slice::from_raw_parts(pats, n) };
        compile_all(pats, flags, unsafe { &*lim })
    }));
    let f = match r {
        Ok(Ok(set)) => {
            unsafe { *out = Box::into_raw(Box::new(set)) };
            return 0;
        }
        Ok(Err(f)) => f,
        Err(_) => Failure { status: ST_PANIC, pattern: -1, msg: "regex crate panicked".into() },
    };
    unsafe { *err_pattern = if f.pattern == usize::MAX as c_long { -1 } else { f.pattern } };
    copy_msg(&f.msg, err_msg, err_len);
    f.status
}

fn text<'a>(data: *const u8, len: usize) -> &'a [u8] {
    if len == 0 {
        &[]
    } else {
        unsafe { std::slice::from_raw_parts(data, len) }
    }
}

/// See rust_regex.h.
#[no_mangle]
pub extern "C" fn rxb_rust_find_at(
    s: *const RxbSet,
    i: usize,
    data: *const u8,
    len: usize,
    start: usize,
    so: *mut usize,
    eo: *mut usize,
) -> c_int {
    let s = unsafe { &*s };
    match s.res[i].find_at(text(data, len), start) {
        Some(m) => {
            if !so.is_null() {
                unsafe {
                    *so = m.start();
                    *eo = m.end();
                }
            }
            1
        }
        None => 0,
    }
}

/// See rust_regex.h.
#[no_mangle]
pub extern "C" fn rxb_rust_is_match(s: *const RxbSet, data: *const u8, len: usize) -> c_int {
    let s = unsafe { &*s };
    let t = text(data, len);
    let hit = match &s.set {
        Some(set) => set.is_match(t),
        None => s.res[0].is_match(t),
    };
    hit as c_int
}

/// See rust_regex.h.
#[no_mangle]
pub extern "C" fn rxb_rust_match_ids(s: *mut RxbSet, data: *const u8, len: usize, ids: *mut u8) -> c_long {
    let s = unsafe { &mut *s };
    let t = text(data, len);
    let ids = unsafe { std::slice::from_raw_parts_mut(ids, s.res.len()) };
    match &s.set {
        Some(set) => {
            s.hits.iter_mut().for_each(|h| *h = false);
            set.read_matches_at(&mut s.hits, t, 0);
            let mut n = 0;
            for (id, &h) in ids.iter_mut().zip(s.hits.iter()) {
                *id = h as u8;
                n += h as c_long;
            }
            n
        }
        None => {
            ids[0] = s.res[0].is_match(t) as u8;
            ids[0] as c_long
        }
    }
}

/// See rust_regex.h.
#[no_mangle]
pub extern "C" fn rxb_rust_free(s: *mut RxbSet) {
    if !s.is_null() {
        drop(unsafe { Box::from_raw(s) });
    }
}

// Package fqdnop is the fqdn suite's query rewrite as the Go runner's op
// does it (engines/runner.h, 'W' flags), shared with the Go benchmark in
// tests/go so that both time the same op.
package fqdnop

import (
	"encoding/binary"
	"math/bits"
	"unicode/utf8"
)

// Rewrite returns q as the DNS proxy matches it (suites/fqdn_strategies.h,
// fqdn_rewrite), in dst's storage: lower case as Go's strings.ToLower as
// far as a verdict can tell (ASCII letters, U+0130 to 'i', U+212A to 'k',
// other bytes kept), a trailing dot unless the DNS library takes q as
// qualified (isFqdn), then every byte reversed when reverse.  ascii says the result has no byte above
// 0x7f.  No allocation once dst has grown to the longest query.
func Rewrite(dst, q []byte, reverse bool) (out []byte, ascii bool) {
	out, ascii = append(dst[:0], q...), true
	if lowerASCII(out) {
		out = lowerNonASCII(out[:0], q)
		ascii = !hasHigh(out)
	}
	if !isFqdn(q) {
		out = append(out, '.')
	}
	if reverse {
		reverseBytes(out)
	}
	return out, ascii
}

// isFqdn is the DNS library's IsFqdn (dns.Fqdn's test, suites/fqdn_ref.h):
// q ends with '.', and the bytes from the start of the last rune before
// that dot which is not a backslash, to the dot, are an odd count.  Meant
// to count escaping backslashes, it counts that rune's bytes too: a name
// ending in a two- or four-byte rune and a dot is not qualified.
func isFqdn(q []byte) bool {
	n := len(q)
	if n == 0 || q[n-1] != '.' {
		return false
	}
	if n == 1 || (q[n-2] < utf8.RuneSelf && q[n-2] != '\\') {
		return true // the usual name, decided at once
	}
	end := n - 1
	for end > 0 && q[end-1] == '\\' {
		end--
	}
	w := 1
	if end > 0 {
		_, w = utf8.DecodeLastRune(q[:end])
	}
	return (n-1-end+w)%2 != 0
}

const high = 0x8080808080808080

// lower8 is eight bytes w with every ASCII 'A'-'Z' lowered: a byte is
// upper case when its low seven bits plus 0x3f carry into bit 7 ('A' and
// above) and plus 0x25 do not ('Z' and below), and its own bit 7 is
// clear; bit 5 is then set (as the C rewrite's lower8).
func lower8(w uint64) uint64 {
	low7 := w &^ high
	return w | ((low7+0x3f3f3f3f3f3f3f3f)^(low7+0x2525252525252525))&^w&high>>2
}

// lowerASCII lowers b's ASCII letters in place, eight bytes at a time
// (the last eight again: lowering twice changes nothing); true when b
// has a byte above 0x7f, which the caller lowers the slow way.
func lowerASCII(b []byte) bool {
	var any uint64
	i := 0
	for ; i+8 <= len(b); i += 8 {
		w := binary.LittleEndian.Uint64(b[i:])
		any |= w
		binary.LittleEndian.PutUint64(b[i:], lower8(w))
	}
	if i < len(b) && len(b) >= 8 {
		w := binary.LittleEndian.Uint64(b[len(b)-8:])
		any |= w
		binary.LittleEndian.PutUint64(b[len(b)-8:], lower8(w))
	} else {
		for ; i < len(b); i++ {
			any |= uint64(b[i])
			if b[i]-'A' < 26 {
				b[i] += 'a' - 'A'
			}
		}
	}
	return any&high != 0
}

// lowerNonASCII appends q lowered the slow way: the two runes Go lowers
// to ASCII found by their UTF-8 (C4 B0, E2 84 AA: lead bytes, never
// inside another sequence), ASCII letters lowered, other bytes kept.
func lowerNonASCII(dst, q []byte) []byte {
	for i := 0; i < len(q); i++ {
		c := q[i]
		switch {
		case c-'A' < 26:
			c += 'a' - 'A'
		case c == 0xc4 && i+1 < len(q) && q[i+1] == 0xb0:
			c, i = 'i', i+1
		case c == 0xe2 && i+2 < len(q) && q[i+1] == 0x84 && q[i+2] == 0xaa:
			c, i = 'k', i+2
		}
		dst = append(dst, c)
	}
	return dst
}

// reverseBytes reverses b in place: eight bytes from each end at a time
// while sixteen or more are left between them, then byte by byte.
func reverseBytes(b []byte) {
	i, j := 0, len(b)
	for ; j-i >= 16; i, j = i+8, j-8 {
		x := binary.LittleEndian.Uint64(b[i:])
		y := binary.LittleEndian.Uint64(b[j-8:])
		binary.LittleEndian.PutUint64(b[i:], bits.ReverseBytes64(y))
		binary.LittleEndian.PutUint64(b[j-8:], bits.ReverseBytes64(x))
	}
	for j--; i < j; i, j = i+1, j-1 {
		b[i], b[j] = b[j], b[i]
	}
}

func hasHigh(b []byte) bool {
	for _, c := range b {
		if c >= 0x80 {
			return true
		}
	}
	return false
}

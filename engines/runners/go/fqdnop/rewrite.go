// Package fqdnop is the fqdn suite's query rewrite as the Go runner's op
// does it (engines/runner.h, 'W' flags), shared with the Go benchmark in
// tests/go so that both time the same op.
package fqdnop

// Rewrite returns q as the DNS proxy matches it (suites/fqdn_strategies.h,
// fqdn_rewrite), in dst's storage: lower case as Go's strings.ToLower as
// far as a verdict can tell (ASCII letters, U+0130 to 'i', U+212A to 'k',
// other bytes kept), a trailing dot unless q ends with one, then every
// byte reversed when reverse.  ascii says the result has no byte above
// 0x7f.  No allocation once dst has grown to the longest query.
func Rewrite(dst, q []byte, reverse bool) (out []byte, ascii bool) {
	out, ascii = append(dst[:0], q...), true
	for i, c := range out {
		if c-'A' < 26 {
			out[i] = c + ('a' - 'A')
		} else if c >= 0x80 {
			out = lowerNonASCII(out[:0], q)
			ascii = !hasHigh(out)
			break
		}
	}
	if len(out) == 0 || out[len(out)-1] != '.' {
		out = append(out, '.')
	}
	if reverse {
		for i, j := 0, len(out)-1; i < j; i, j = i+1, j-1 {
			out[i], out[j] = out[j], out[i]
		}
	}
	return out, ascii
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

func hasHigh(b []byte) bool {
	for _, c := range b {
		if c >= 0x80 {
			return true
		}
	}
	return false
}

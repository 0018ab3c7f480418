package fqdnop

import (
	"bytes"
	"math/rand"
	"strings"
	"testing"
)

// slowIsFqdn is the DNS library's test spelled the slow way: the dot, and
// an odd count of bytes from the last rune that is not a backslash to it.
func slowIsFqdn(q []byte) bool {
	s := string(q)
	body := strings.TrimSuffix(s, ".")
	if body == s {
		return false
	}
	i := strings.LastIndexFunc(body, func(r rune) bool { return r != '\\' })
	return (len(body)-i)%2 == 1
}

// Against the slow spelling: bytes.ToLower (ASCII here), a dot unless
// slowIsFqdn, a byte-by-byte reversal; random ASCII names of every length
// to 40, dots and backslashes among them.
func TestRewriteASCII(t *testing.T) {
	r := rand.New(rand.NewSource(1))
	var buf []byte
	for k := 0; k < 100000; k++ {
		q := make([]byte, r.Intn(41))
		for i := range q {
			q[i] = byte(r.Intn(128))
			if r.Intn(8) == 0 {
				q[i] = "\\."[r.Intn(2)]
			}
		}
		want := bytes.ToLower(q)
		if !slowIsFqdn(q) {
			want = append(want, '.')
		}
		rev := k%2 == 1
		if rev {
			for i, j := 0, len(want)-1; i < j; i, j = i+1, j-1 {
				want[i], want[j] = want[j], want[i]
			}
		}
		var ascii bool
		buf, ascii = Rewrite(buf, q, rev)
		if !ascii || !bytes.Equal(buf, want) {
			t.Fatalf("%q (reverse %v): %q, want %q", q, rev, buf, want)
		}
	}
}

// The two runes Go lowers to ASCII, and bytes it keeps.
func TestRewriteNonASCII(t *testing.T) {
	for _, c := range []struct {
		q, want string
		ascii   bool
	}{
		{"\u212aUBE.s3.io", "kube.s3.io.", true},
		{"\u0130O.S3.IO.", "io.s3.io.", true},
		{"B\xc3\x84D.s3.io", "b\xc3\x84d.s3.io.", false},
		{"A\xc4", "a\xc4.", false},
		{"\xe2\x84", "\xe2\x84.", false},
		// a last rune of two or four bytes before the dot reads as an
		// escape (the DNS library's IsFqdn): a second dot
		{"\u0130.", "i..", true},
		{"x\U00010348.", "x\U00010348..", false},
		{"x\u212a.", "xk.", true},
		{"\xff.", "\xff.", false},
		{"a\\.", "a\\..", true},
		{"a\\\\.", "a\\\\.", true},
	} {
		got, ascii := Rewrite(nil, []byte(c.q), false)
		if string(got) != c.want || ascii != c.ascii {
			t.Errorf("%q: %q (ascii %v), want %q (%v)", c.q, got, ascii,
				c.want, c.ascii)
		}
	}
}

func BenchmarkRewrite(b *testing.B) {
	q := []byte("rgolzfesisha.this-very-long-super-long-domain.map.")
	var buf []byte
	for i := 0; i < b.N; i++ {
		buf, _ = Rewrite(buf, q, true)
	}
}

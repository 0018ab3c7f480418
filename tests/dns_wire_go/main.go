// Command dns_wire_go round-trips query names through miekg/dns as a
// client and Cilium's proxy do: the name qualified, put in a question
// (Msg.SetQuestion), packed (Msg.Pack), the message unpacked
// (Msg.Unpack) and its question's name printed.  tests/test_dns_wire_go.sh
// compares its output with tests/dns_wire_cli's (corpora/dns_wire.c).
//
// Input: one name a line, in hex.  Output, a line each: "ok HEX" (the
// unpacked name) or "error CLASS" (fqdn, rdata, long, buf, or other:MSG).
// On stderr, how many names needed the IsFqdn workaround below.
//
// Built offline on Debian's golang-github-miekg-dns-dev:
//
//	GOPATH=/usr/share/gocode GO111MODULE=off GOFLAGS= GOPROXY=off go build
package main

import (
	"bufio"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"strings"

	"github.com/miekg/dns"
)

// qualified says whether s ends with a dot no backslash escapes,
// counting the backslashes before it byte by byte.
func qualified(s string) bool {
	if !strings.HasSuffix(s, ".") {
		return false
	}
	k := 0
	for k+1 < len(s) && s[len(s)-2-k] == '\\' {
		k++
	}
	return k%2 == 0
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

// respell writes every byte of s at or above 0x80 that no backslash
// escapes as \DDD, which packs to the same byte.  dns.IsFqdn counts the
// backslashes before the final dot from the start of the last rune that
// is not one, so after a 2- or 4-byte UTF-8 rune it is wrong by one and
// PackDomainName refuses the name; with no such rune left it counts
// right.  Escapes are copied whole (\DDD as four bytes, \X as two).
func respell(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '\\' && i+3 < len(s) && isDigit(s[i+1]) &&
			isDigit(s[i+2]) && isDigit(s[i+3]):
			b.WriteString(s[i : i+4])
			i += 3
		case c == '\\' && i+1 < len(s):
			b.WriteString(s[i : i+2])
			i++
		case c >= 0x80:
			fmt.Fprintf(&b, "\\%03d", c)
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}

func class(err error) string {
	switch {
	case errors.Is(err, dns.ErrFqdn):
		return "fqdn"
	case errors.Is(err, dns.ErrRdata):
		return "rdata"
	case errors.Is(err, dns.ErrLongDomain):
		return "long"
	case errors.Is(err, dns.ErrBuf):
		return "buf"
	}
	return "other:" + strings.ReplaceAll(err.Error(), " ", "_")
}

// trip is name as the proxy's library hands it on, or an error class.
func trip(name string) (string, bool) {
	if !qualified(name) {
		name += "." // dns.Fqdn, with the count made byte by byte
	}
	m := new(dns.Msg)
	m.SetQuestion(name, dns.TypeA)
	wire, err := m.Pack()
	if err != nil {
		return "error " + class(err), false
	}
	got := new(dns.Msg)
	if err := got.Unpack(wire); err != nil {
		return "error " + class(err), false
	}
	return "ok " + hex.EncodeToString([]byte(got.Question[0].Name)), true
}

func main() {
	in := bufio.NewScanner(os.Stdin)
	in.Buffer(make([]byte, 1<<16), 1<<16)
	out := bufio.NewWriter(os.Stdout)
	workaround := 0
	for in.Scan() {
		raw, err := hex.DecodeString(in.Text())
		if err != nil {
			fmt.Fprintln(os.Stderr, "dns_wire_go: not a hex line:", in.Text())
			os.Exit(2)
		}
		name := string(raw)
		q := name
		if !qualified(q) {
			q += "."
		}
		if dns.IsFqdn(q) != qualified(q) {
			name = respell(name)
			workaround++
		}
		line, _ := trip(name)
		fmt.Fprintln(out, line)
	}
	out.Flush()
	fmt.Fprintf(os.Stderr, "dns_wire_go: %d names respelled for IsFqdn\n", workaround)
}

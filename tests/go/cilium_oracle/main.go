// cilium_oracle - an independent oracle of Cilium's FQDN allow/deny
// decision, for tests/fqdn_cilium_diff.py: what the DNS proxy (L7) and
// the name manager (L3) decide for a policy's selectors and a list of
// query names, written from reading Cilium's code (never pasted) and
// run on Go's own regexp, as Cilium runs it.
//
//	cilium_oracle [-v] 1.11|1.19 POLICY QUERIES   one "<l7> <l3>" line
//	                                             per query, 1 or 0
//	cilium_oracle -check 1.11|1.19 POLICY        one line per selector:
//	                                             "ok", "crd REASON" (only
//	                                             the CRD schema refuses
//	                                             it) or "code REASON"
//
// -v prints the regexes built to stderr.  Exit 0; 2 on usage or an
// unreadable or YAML policy; 3 when the agent's code refuses the policy
// (a selector of "code" class: Cilium rejects the whole rule).
//
// Inputs are read as rxbench reads them (corpora/fqdn_policy.c): the
// policy as a plain list (LF ends a line, a CR before it dropped, blanks
// around trimmed, blank and '#' lines skipped, a line holding '*' is a
// matchPattern, else a matchName; a line holding ':' would make rxbench
// read YAML, which this oracle refuses); queries as the exact bytes of
// each line (LF ends a line, a CR before it is part of the query, an
// empty line is the empty name, no query after a final LF).  Unlike
// rxbench no length is refused here: Cilium's own limits are modelled.
//
// What was read (stored copies in the search index, by repository, path,
// commit or file id where the index gave no commit):
//
// Cilium 1.11 (rxbench's "1.11"; the v1.11 layout: setPortRulesForID
// compiling one regexp per L7 selector, miekg/dns replaced by cilium/dns):
//   - pkg/fqdn/dnsproxy/proxy.go, index file id 3739598354 (setPortRulesForID
//     joins "(" + matchpattern.ToRegexp(x) + ")" with "|" and compiles it;
//     CheckAllowed: name = strings.ToLower(dns.Fqdn(name)), then
//     re.MatchString for each selector); GetSelectorRegexMap, the same join,
//     in id 1054388972 (the next layout).
//   - pkg/fqdn/matchpattern/matchpattern.go, id 182672576 (Sanitize: "*"
//     kept, else dns.FQDN; ToRegexp: TrimSpace, ToLower, "*" alone is
//     (^([-a-zA-Z0-9_]+[.])+$)|(^[.]$), else '*' -> [-a-zA-Z0-9_]* and '.'
//     -> [.], anchored); id 4001568645 holds the same with FQDN inside.
//   - pkg/policy/api/fqdn.go, id 124660976 (sanitize: matchName chars
//     ^[-a-zA-Z0-9_.]+$, matchPattern ^[-a-zA-Z0-9_.*]+$, then
//     matchpattern.Validate; ToRegex: matchName -> dns.FQDN, matchPattern
//     -> Sanitize, then Validate; CRD markers ^([-a-zA-Z0-9_]+[.]?)+$ and
//     ^([-a-zA-Z0-9_*]+[.]?)+$, no length marker).
//   - the name manager: deriveLabelsForName asks every selector's ToRegex
//     regexp of the name (pkg/fqdn/namemanager/manager.go, cilium/cilium
//     commit 0280146c3ed1ab7a753fb2dd04cc4728a4938fae, the same shape);
//     the name is the question name as ExtractMsgDetails lowers it.
//   - dns.Fqdn: the go.mod replace github.com/miekg/dns =>
//     github.com/cilium/dns v1.1.4-0.20190417235132-8e25ec9a0ff3
//     (defaults.go IsFqdn at that commit, fetched: the backslash count by
//     strings.LastIndexFunc over runes, compared with byte lengths).
//
// Cilium "1.19" (the newest code stored; no stored tree carried a release
// tag, so this is the newest code found, not a checked v1.19.x):
//   - pkg/fqdn/dnsproxy/proxy.go, mhofstetter/cilium commit
//     1910e132077a0f6fbb64799020d4185333af9c59 (GeneratePattern) and
//     index id 8018585339 (slog era; CheckAllowed: name =
//     strings.ToLower(dns.Fqdn(name)) with github.com/cilium/dns; allowed
//     when regex.String() == "(?:)" or regex.MatchString(name)).
//     GeneratePattern: matchName -> ToUnAnchoredRegexp(ToLower(dns.Fqdn)),
//     matchPattern -> ToUnAnchoredRegexp(Sanitize); a pattern giving ".*"
//     makes the whole selector "(?:)"; else "^(?:" + join "|" + ")$".
//   - pkg/fqdn/matchpattern/matchpattern.go, venk8/cilium commit
//     616d58a05a8a4f21337a541bf2a722d51edf9e6c (isDNSWildcard: stars only,
//     one trailing dot allowed; escapeRegexpCharacters: two or more leading
//     stars then '.' -> ([-a-zA-Z0-9_]+([.][-a-zA-Z0-9_]+){0,})[.], a run
//     of stars -> [-a-zA-Z0-9_]*, '.' -> [.]; MaxFQDNLength 255 checked in
//     prevalidate on the trimmed pattern) and id 7923214197 (the same by
//     regexps: dnsWildcardRegex ^[*]{1,}[.]?$).
//   - pkg/fqdn/dns/dns.go, cilium/cilium id 2761581364 (FQDN = isFQDN as
//     cilium/dns's IsFqdn, then strings.ToLower).
//   - pkg/policy/api/fqdn.go, venk8/cilium commit
//     56937116a5a615591df4acd5bbb1f5ddc24ffce8 (Validate: matchName bytes
//     in [-a-zA-Z0-9_.], no length check; matchPattern through
//     matchpattern.Validate; CRD markers MaxLength=255 and the patterns
//     above; ToRegex as in 1.11 but with ToAnchoredRegexp).
//   - the name manager: cilium/cilium commit 0280146c... (above):
//     RegisterFQDNSelector drops a selector whose ToRegex fails (logged,
//     "should never occur"), deriveLabelsForName matches the rest.
//     ToAnchoredRegexp's match-all is (^([-a-zA-Z0-9_]+[.])+$)|(^[.]$).
//   - github.com/cilium/dns defaults.go (fetched, HEAD 9e187d79): Fqdn and
//     IsFqdn as above.
package main

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"os"
	"regexp"
	"strings"
)

// selector is one line of the policy: a matchName or a matchPattern.
type selector struct {
	pattern bool
	text    string
}

// A version's deciders: the proxy's regex of the whole rule list (one L7
// selector holding every rule; a split across several L7 selectors gives
// the same verdicts, each being an alternation of rules), and the name
// manager's regex per selector (nil: dropped).
type world struct {
	l7All bool           // GeneratePattern gave "(?:)": CheckAllowed's short-cut
	l7    *regexp.Regexp // else the selector's regex
	l3    []*regexp.Regexp
}

const dnsChars = "[-a-zA-Z0-9_]"

// isFqdn is cilium/dns's IsFqdn: a final dot not escaped by an odd run of
// backslashes; the run is measured from the last rune that is not a
// backslash, in bytes, so a last rune of 2 or 4 bytes reads as an escape.
func isFqdn(s string) bool {
	s2 := strings.TrimSuffix(s, ".")
	if s2 == s {
		return false
	}
	i := strings.LastIndexFunc(s2, func(r rune) bool { return r != '\\' })
	return (len(s2)-i)%2 != 0
}

// fqdn is dns.Fqdn (no case change).
func fqdn(s string) string {
	if isFqdn(s) {
		return s
	}
	return s + "."
}

// ciliumFQDN is pkg/fqdn/dns.FQDN (and 1.11's matchpattern FQDN): dns.Fqdn
// then lower case.
func ciliumFQDN(s string) string {
	return strings.ToLower(fqdn(s))
}

// --- 1.11 ---

// toRegexp11 is 1.11's matchpattern.ToRegexp.
func toRegexp11(p string) string {
	p = strings.ToLower(strings.TrimSpace(p))
	if p == "*" {
		return "(^(" + dnsChars + "+[.])+$)|(^[.]$)"
	}
	p = strings.ReplaceAll(p, "*", dnsChars+"*")
	p = strings.ReplaceAll(p, ".", "[.]")
	return "^" + p + "$"
}

func sanitize11(p string) string {
	if p == "*" {
		return p
	}
	return ciliumFQDN(p)
}

// l7Piece11 is one rule of setPortRulesForID's join.
func l7Piece11(s selector) string {
	if s.pattern {
		return "(" + toRegexp11(sanitize11(s.text)) + ")"
	}
	return "(" + toRegexp11(strings.ToLower(fqdn(s.text))) + ")"
}

// l3Regex11 is FQDNSelector.ToRegex then Validate's compile.
func l3Regex11(s selector) string {
	if s.pattern {
		return toRegexp11(sanitize11(s.text))
	}
	return toRegexp11(ciliumFQDN(s.text))
}

// --- the newest ---

const maxFQDNLength = 255

// isDNSWildcard: stars only, with at most one trailing dot.
func isDNSWildcard(p string) bool {
	p = strings.TrimSuffix(p, ".")
	return p != "" && strings.Trim(p, "*") == ""
}

func sanitize19(p string) string {
	if isDNSWildcard(p) {
		return p
	}
	return ciliumFQDN(p)
}

// escape19 is escapeRegexpCharacters: a leading run of two or more stars
// then a dot is one label or more; any other run of stars one class star.
func escape19(p string) string {
	var b strings.Builder
	stars := len(p) - len(strings.TrimLeft(p, "*"))
	i := 0
	if stars >= 2 && stars < len(p) && p[stars] == '.' {
		b.WriteString("(" + dnsChars + "+([.]" + dnsChars + "+){0,})[.]")
		i = stars + 1
	}
	for ; i < len(p); i++ {
		switch p[i] {
		case '.':
			b.WriteString("[.]")
		case '*':
			for i+1 < len(p) && p[i+1] == '*' {
				i++
			}
			b.WriteString(dnsChars + "*")
		default:
			b.WriteByte(p[i])
		}
	}
	return b.String()
}

const matchAllUnanchored = ".*"

func toUnanchored19(p string) string {
	p = strings.ToLower(strings.TrimSpace(p))
	if isDNSWildcard(p) {
		return matchAllUnanchored
	}
	return escape19(p)
}

func toAnchored19(p string) string {
	p = strings.ToLower(strings.TrimSpace(p))
	if isDNSWildcard(p) {
		return "(^(" + dnsChars + "+[.])+$)|(^[.]$)"
	}
	return "^" + escape19(p) + "$"
}

// generatePattern19 is GeneratePattern over one selector's rules.
func generatePattern19(sels []selector) string {
	var res []string
	for _, s := range sels {
		if !s.pattern {
			res = append(res, toUnanchored19(strings.ToLower(fqdn(s.text))))
			continue
		}
		re := toUnanchored19(sanitize19(s.text))
		if re == matchAllUnanchored {
			return "(?:)"
		}
		res = append(res, re)
	}
	return "^(?:" + strings.Join(res, "|") + ")$"
}

// l3Regex19 is ToRegex: "" when matchpattern.Validate refuses the prepared
// selector (its length over MaxFQDNLength once qualified), and the name
// manager then drops it.
func l3Regex19(s selector) string {
	prep := sanitize19(s.text)
	if !s.pattern {
		prep = ciliumFQDN(s.text)
	}
	if len(strings.TrimSpace(prep)) > maxFQDNLength {
		return ""
	}
	return toAnchored19(prep)
}

// --- validation ---

func onlyBytes(s, extra string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		ok := (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
			(c >= '0' && c <= '9') || c == '-' || c == '_' || c == '.' ||
			strings.IndexByte(extra, c) >= 0
		if !ok {
			return false
		}
	}
	return true
}

var (
	crdName    = regexp.MustCompile(`^([-a-zA-Z0-9_]+[.]?)+$`)
	crdPattern = regexp.MustCompile(`^([-a-zA-Z0-9_*]+[.]?)+$`)
)

// check says whether version v's agent code refuses s ("code"), only the
// CRD schema does ("crd"), or neither ("ok"), and why.
func check(v string, s selector) (string, string) {
	what, extra, crd := "matchName", "", crdName
	if s.pattern {
		what, extra, crd = "matchPattern", "*", crdPattern
	}
	if !onlyBytes(s.text, extra) {
		return "code", what + " holds a byte outside the allowed characters"
	}
	if v == "1.19" && s.pattern && len(strings.TrimSpace(s.text)) > maxFQDNLength {
		return "code", "matchPattern longer than MaxFQDNLength (255)"
	}
	if v == "1.19" && len(s.text) > maxFQDNLength {
		return "crd", what + " longer than the CRD's MaxLength 255"
	}
	if !crd.MatchString(s.text) {
		return "crd", what + " does not match the CRD pattern " + crd.String()
	}
	return "ok", ""
}

// --- inputs ---

var errYAML = errors.New("the policy looks like YAML (a line holds ':'); give a plain list")

// readPolicy reads the list as corpora/fqdn_policy.c's parse_list does.
func readPolicy(path string) ([]selector, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var sels []selector
	for _, line := range splitLines(data) {
		line = bytes.TrimSuffix(line, []byte("\r"))
		line = bytes.Trim(line, " \t")
		if len(line) == 0 || line[0] == '#' {
			continue
		}
		if bytes.IndexByte(line, ':') >= 0 {
			return nil, errYAML
		}
		sels = append(sels, selector{
			pattern: bytes.IndexByte(line, '*') >= 0,
			text:    string(line),
		})
	}
	if len(sels) == 0 {
		return nil, errors.New("empty policy")
	}
	return sels, nil
}

// splitLines cuts at each LF; a last line without LF counts, a final LF
// makes no empty line after it.
func splitLines(data []byte) [][]byte {
	var out [][]byte
	for len(data) > 0 {
		i := bytes.IndexByte(data, '\n')
		if i < 0 {
			out = append(out, data)
			break
		}
		out = append(out, data[:i])
		data = data[i+1:]
	}
	return out
}

// --- building and deciding ---

func build(v string, sels []selector, verbose bool) (*world, error) {
	w := &world{}
	var l7 string
	if v == "1.11" {
		var pieces []string
		for _, s := range sels {
			pieces = append(pieces, l7Piece11(s))
		}
		l7 = strings.Join(pieces, "|")
	} else {
		l7 = generatePattern19(sels)
		w.l7All = l7 == "(?:)"
	}
	re, err := regexp.Compile(l7)
	if err != nil {
		return nil, fmt.Errorf("L7 regex: %v", err)
	}
	w.l7 = re
	if verbose {
		fmt.Fprintf(os.Stderr, "l7 %s\n", l7)
	}
	for _, s := range sels {
		src := l3Regex11(s)
		if v != "1.11" {
			src = l3Regex19(s)
		}
		if verbose {
			fmt.Fprintf(os.Stderr, "l3 %q %s\n", s.text, src)
		}
		if src == "" {
			w.l3 = append(w.l3, nil)
			continue
		}
		re, err := regexp.Compile(src)
		if err != nil {
			return nil, fmt.Errorf("L3 regex of %q: %v", s.text, err)
		}
		w.l3 = append(w.l3, re)
	}
	return w, nil
}

// rewrite is CheckAllowed's name: dns.Fqdn, then strings.ToLower (which
// turns each invalid UTF-8 byte into U+FFFD).  The name manager gets the
// same question name, lowered by ExtractMsgDetails.
func rewrite(q string) string {
	return strings.ToLower(fqdn(q))
}

func (w *world) decide(q string) (int, int) {
	name := rewrite(q)
	l7, l3 := 0, 0
	if w.l7All || w.l7.MatchString(name) {
		l7 = 1
	}
	for _, re := range w.l3 {
		if re != nil && re.MatchString(name) {
			l3 = 1
			break
		}
	}
	return l7, l3
}

func usage() {
	fmt.Fprintln(os.Stderr, "usage: cilium_oracle [-v] 1.11|1.19 POLICY QUERIES\n"+
		"       cilium_oracle -check 1.11|1.19 POLICY")
	os.Exit(2)
}

func main() {
	checkOnly := flag.Bool("check", false, "classify each selector")
	verbose := flag.Bool("v", false, "print the regexes to stderr")
	flag.Parse()
	args := flag.Args()
	if len(args) < 2 || (args[0] != "1.11" && args[0] != "1.19") ||
		(*checkOnly && len(args) != 2) || (!*checkOnly && len(args) != 3) {
		usage()
	}
	v := args[0]
	sels, err := readPolicy(args[1])
	if err != nil {
		fmt.Fprintf(os.Stderr, "cilium_oracle: %s: %v\n", args[1], err)
		os.Exit(2)
	}
	out := &bytes.Buffer{}
	if *checkOnly {
		for _, s := range sels {
			class, why := check(v, s)
			fmt.Fprintf(out, "%s %s\n", class, why)
		}
		os.Stdout.Write(out.Bytes())
		return
	}
	for i, s := range sels {
		if class, why := check(v, s); class == "code" {
			fmt.Fprintf(os.Stderr, "cilium_oracle: %s: line %d: %s: Cilium %s rejects the policy\n",
				args[1], i+1, why, v)
			os.Exit(3)
		}
	}
	w, err := build(v, sels, *verbose)
	if err != nil {
		fmt.Fprintf(os.Stderr, "cilium_oracle: %v\n", err)
		os.Exit(2)
	}
	data, err := os.ReadFile(args[2])
	if err != nil {
		fmt.Fprintf(os.Stderr, "cilium_oracle: %v\n", err)
		os.Exit(2)
	}
	for _, q := range splitLines(data) {
		l7, l3 := w.decide(string(q))
		fmt.Fprintf(out, "%d %d\n", l7, l3)
	}
	os.Stdout.Write(out.Bytes())
}

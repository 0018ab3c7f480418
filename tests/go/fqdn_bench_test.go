// The fqdn side of the go runner's proof (engines/runner.h): one FQDN
// case as rxbench's go engine runs it (tests/fqdn_case_cli prints it:
// the strategy's regexes compiled each alone, its name set, and every
// query as the strategy rewrites it), timed by `go test -bench` with
// b.ReportAllocs in the two modes rxbench's go.mode names:
//
//	BenchmarkFQDN/mode=warm/phase=P  the regexp machine pool stays warm
//	BenchmarkFQDN/mode=seed/phase=P  seed 000's method: runtime.GC()
//	                                 before every op with the timer
//	                                 stopped (4 before a query, 2 between
//	                                 compiles), StartTimer/StopTimer
//	                                 around the op alone
//
// A query op is the query lowered as strings.ToLower does and qualified
// (a trailing dot), reversed for the reverse strategies (the runner's own
// fqdnop.Rewrite: the op is the same code on both sides), then the name
// set's lookup (a Go map, as Cilium's), then the regexes: "one" and
// "first" until one matches, "all" every one.  The
// compile phase compiles every regex again.  Each query phase reports
// `allowed`, the verdicts it gave, which must be the reference's (the
// "v" lines): tests/go_fqdn_side.sh checks them and prints the table
// beside rxbench's rows.  The case file is $RXB_FQDN_CASE; without it
// the benchmarks skip.
package rxbtest

import (
	"bufio"
	"os"
	"regexp"
	"runtime"
	"strings"
	"testing"

	"rxbench/runners/go/fqdnop"
)

type fqdnSet struct {
	name    string
	queries [][]byte // as rxbench sends them to the runner
	want    []bool
}

type fqdnCase struct {
	op      string
	reverse bool
	buf     []byte // the rewritten query
	src     []string
	re      []*regexp.Regexp
	names   map[string]struct{}
	sets    []*fqdnSet
}

func loadCase(b *testing.B) *fqdnCase {
	path := os.Getenv("RXB_FQDN_CASE")
	if path == "" {
		b.Skip("RXB_FQDN_CASE not set")
	}
	f, err := os.Open(path)
	if err != nil {
		b.Fatal(err)
	}
	defer f.Close()
	c := &fqdnCase{names: map[string]struct{}{}}
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<26)
	var cur *fqdnSet
	for sc.Scan() {
		tag, text, _ := strings.Cut(sc.Text(), "\t")
		switch tag {
		case "op":
			c.op = text
		case "reverse":
			c.reverse = text == "1"
		case "re":
			c.src = append(c.src, text)
			c.re = append(c.re, regexp.MustCompile(text))
		case "name":
			c.names[text] = struct{}{}
		case "set":
			cur = &fqdnSet{name: text}
			c.sets = append(c.sets, cur)
		case "q":
			cur.queries = append(cur.queries, []byte(text))
		case "v":
			cur.want = append(cur.want, text == "1")
		}
	}
	if err := sc.Err(); err != nil {
		b.Fatal(err)
	}
	return c
}

// allows is the DNS proxy's verdict on a query, the op the runner times
// (engines/runners/go: decide, then set.do): the rewrite, the map, then
// the regexes on the rewritten bytes.
func (c *fqdnCase) allows(q []byte) bool {
	c.buf, _ = fqdnop.Rewrite(c.buf, q, c.reverse)
	q = c.buf
	if _, ok := c.names[string(q)]; ok {
		return true
	}
	any := false
	for _, re := range c.re {
		if re.Match(q) {
			if c.op != "all" {
				return true
			}
			any = true
		}
	}
	return any
}

func (c *fqdnCase) compile() {
	for _, s := range c.src {
		regexp.MustCompile(s)
	}
}

func collect(n int) {
	for ; n > 0; n-- {
		runtime.GC()
	}
}

func benchQueries(b *testing.B, c *fqdnCase, s *fqdnSet, seed bool) {
	allowed := 0
	for i, q := range s.queries { // the verdicts, once, untimed
		if c.allows(q) != s.want[i] {
			b.Fatalf("%s: query %q: allowed %v, the reference says %v",
				s.name, q, !s.want[i], s.want[i])
		}
		if s.want[i] {
			allowed++
		}
	}
	b.ReportAllocs()
	b.ResetTimer()
	// The queries in turn as the runner takes them: a counter that wraps,
	// not i%len, whose division was about 5 of a warm match-name op's 35 ns.
	next := 0
	for i := 0; i < b.N; i++ {
		if seed {
			b.StopTimer()
			collect(4)
			b.StartTimer()
		}
		c.allows(s.queries[next])
		if next++; next == len(s.queries) {
			next = 0
		}
	}
	b.StopTimer()
	b.ReportMetric(float64(allowed), "allowed")
}

func benchCompile(b *testing.B, c *fqdnCase, seed bool) {
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if seed {
			b.StopTimer()
			collect(2)
			b.StartTimer()
		}
		c.compile()
	}
}

func BenchmarkFQDN(b *testing.B) {
	c := loadCase(b)
	for _, mode := range []string{"warm", "seed"} {
		seed := mode == "seed"
		b.Run("mode="+mode+"/phase=compile", func(b *testing.B) {
			benchCompile(b, c, seed)
		})
		for _, s := range c.sets {
			s := s
			if len(s.queries) == 0 {
				continue
			}
			b.Run("mode="+mode+"/phase="+s.name, func(b *testing.B) {
				benchQueries(b, c, s, seed)
			})
		}
	}
}

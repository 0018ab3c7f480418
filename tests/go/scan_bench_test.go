// The proof of the go runner's timing (engines/runner.h): the same regex
// on the same corpus as an rxbench scan case, timed by `go test -bench`
// with b.ReportAllocs, so that the runner's ns/op, B/op and allocs/op can
// be read beside testing.B's.  tests/test_go_runner.sh runs both and
// checks that the matches agree; the times are for a person to compare
// (docs/engines.md: A runner against go test):
//
//	rxbench run scan --engines=go --corpus=$RXB_GO_CORPUS \
//	    --patterns-file=<a file holding $RXB_GO_PATTERN> [--model=grep]
//	RXB_GO_CORPUS=... RXB_GO_PATTERN=... go test -bench . -benchmem
//
// The corpus and the pattern come from the environment; without them the
// corpus is Debian's GPL-3 text (base-files) and the pattern below.
package rxbtest

import (
	"bytes"
	"os"
	"regexp"
	"testing"
)

const defaultCorpus = "/usr/share/common-licenses/GPL-3"
const defaultPattern = `[Ll]icen[cs]e[a-z]*`

func input(b *testing.B) ([]byte, *regexp.Regexp) {
	path := os.Getenv("RXB_GO_CORPUS")
	if path == "" {
		path = defaultCorpus
	}
	pat := os.Getenv("RXB_GO_PATTERN")
	if pat == "" {
		pat = defaultPattern
	}
	data, err := os.ReadFile(path)
	if err != nil {
		b.Skip(err)
	}
	return data, regexp.MustCompile(pat)
}

// lines splits as rxbench's grep model does: at '\n', the last line
// without one counted when it is not empty.
func lines(data []byte) [][]byte {
	l := bytes.Split(data, []byte("\n"))
	if len(l) > 0 && len(l[len(l)-1]) == 0 {
		l = l[:len(l)-1]
	}
	return l
}

// One op counts the matches in the corpus (rxbench's count model).
func BenchmarkCount(b *testing.B) {
	data, re := input(b)
	n := 0
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		n = len(re.FindAllIndex(data, -1))
	}
	b.ReportMetric(float64(n), "matches")
}

// One op counts the lines that match (rxbench's grep model).
func BenchmarkGrep(b *testing.B) {
	data, re := input(b)
	ls := lines(data)
	n := 0
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		n = 0
		for _, l := range ls {
			if re.Match(l) {
				n++
			}
		}
	}
	b.ReportMetric(float64(n), "matches")
}

// rxbench-go: rxbench's runner for Go's regexp (the standard library only).
//
// rxbench starts this program as its child and talks to it over stdin and
// stdout in the protocol engines/runner.h describes: length-prefixed
// binary messages, one reply per request.  The runner compiles pattern
// sets, answers ops on single inputs (rxbench verifies those answers like
// any engine's), and times a whole op loop itself, the way testing.B
// does, reporting ns/op and testing.B.ReportAllocs' B/op and allocs/op.
package main

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"regexp"
	"regexp/syntax"
	"runtime"
	"runtime/debug"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"
)

// Requests and replies (engines/runner.h).
const (
	reqHello   = 'H'
	reqCompile = 'C'
	reqFree    = 'F'
	reqMatch   = 'M'
	reqAnswers = 'A'
	reqWork    = 'W'
	reqValues  = 'V'
	reqBench   = 'B'

	repHello   = 'H'
	repOK      = 'K'
	repError   = 'E'
	repAnswer  = 'R'
	repAnswers = 'A'
	repSample  = 'S'
)

// Ops.
const (
	opNone     = 0 // the floor: the loop, no regex
	opIsMatch  = 1
	opCount    = 2
	opMatchIDs = 3
	opCompile  = 4
)

// rxbench's enum engine_flag.
const (
	flagCaseless    = 1 << 0
	flagDotall      = 1 << 1
	flagAnchored    = 1 << 2
	flagSingleMatch = 1 << 3
	flagUTF8        = 1 << 4
	flagMultiline   = 1 << 5
	flagKnown       = 1<<6 - 1
)

// Statuses rxbench knows (engines/status.h), as positive numbers.
const (
	errCompile     = 1
	errUnsupported = 2
	errMatch       = 5
)

// WORK's flags byte: bit 0; bits 1 and 2 are the fqdn suite's (fqdn.go).
const (
	workEach  = 1 << 0 // an op is one input, cycling
	workKnown = 1<<3 - 1
)

// A compiled set: what COMPILE built.
type set struct {
	src   []string // the Go expressions, for the compile op
	re    []*regexp.Regexp
	flags uint32
}

// What WORK describes: the op a BENCH times.
type work struct {
	op     byte
	each   bool   // an op is one input (cycling), else all of them
	flags  byte   // workFQDN, workReverse: what decide does to an input
	buf    []byte // decide's rewritten input
	sets   []*set
	names  map[string]struct{}
	inputs [][]byte
	lat    [][]byte // inputs as latin1 makes them, for byte-mode sets
	next   int
	sink   int
	world  *epWorld // an endpoints work ('X'): eps[i] asks inputs[i]
	eps    []int
	failed error // an op that failed while timed
}

type runner struct {
	in     *bufio.Reader
	out    *bufio.Writer
	sets   map[uint32]*set
	worlds map[uint32]*epWorld
	w      *work
}

// A request's body, read field by field; a short body is a protocol error.
type body struct {
	b   []byte
	err error
}

func (d *body) take(n int) []byte {
	if d.err != nil || n < 0 || n > len(d.b) {
		d.err = errors.New("truncated request")
		return nil
	}
	v := d.b[:n]
	d.b = d.b[n:]
	return v
}

func (d *body) u8() byte {
	v := d.take(1)
	if v == nil {
		return 0
	}
	return v[0]
}

func (d *body) u32() uint32 {
	v := d.take(4)
	if v == nil {
		return 0
	}
	return binary.LittleEndian.Uint32(v)
}

func (d *body) u64() uint64 {
	v := d.take(8)
	if v == nil {
		return 0
	}
	return binary.LittleEndian.Uint64(v)
}

func (d *body) bytes() []byte {
	n := d.u32()
	return d.take(int(n))
}

// A reply under construction.
type reply struct{ b []byte }

func (r *reply) u8(v byte) { r.b = append(r.b, v) }
func (r *reply) u32(v uint32) {
	r.b = binary.LittleEndian.AppendUint32(r.b, v)
}
func (r *reply) u64(v uint64) {
	r.b = binary.LittleEndian.AppendUint64(r.b, v)
}
func (r *reply) f64(v float64) { r.u64(math.Float64bits(v)) }
func (r *reply) bytes(v []byte) {
	r.u32(uint32(len(v)))
	r.b = append(r.b, v...)
}

func (rn *runner) send(r *reply) error {
	var n [4]byte
	binary.LittleEndian.PutUint32(n[:], uint32(len(r.b)))
	if _, err := rn.out.Write(n[:]); err != nil {
		return err
	}
	if _, err := rn.out.Write(r.b); err != nil {
		return err
	}
	return rn.out.Flush()
}

func errorReply(status uint32, pattern int32, msg string) *reply {
	r := &reply{}
	r.u8(repError)
	r.u32(status)
	r.u32(uint32(pattern))
	r.bytes([]byte(msg))
	return r
}

func okReply() *reply { return &reply{b: []byte{repOK}} }

// goExpr is pattern p under rxbench's flags as one Go expression, or an
// error naming what Go cannot do.  Go's regexp reads UTF-8 always, so
// rxbench's byte mode is Latin-1 here: a pattern's bytes above 0x7f and
// an input's become the runes U+0080..U+00FF (latin1), one rune a byte,
// and \xHH names the byte HH, as in a byte engine.  Go's (?i) folds
// those runes too (é and É): rxbench's caseless is ASCII, so a caseless
// byte-mode pattern that names one is refused.
func goExpr(p []byte, flags uint32) (string, error) {
	if flags&^flagKnown != 0 {
		return "", fmt.Errorf("unknown flags %#x", flags&^flagKnown)
	}
	if flags&flagUTF8 == 0 {
		if flags&flagCaseless != 0 && !asciiOnly(p) {
			return "", errors.New("Go's (?i) folds Latin-1 " +
				"letters; rxbench's caseless is ASCII only")
		}
		p = latin1(p)
	}
	inline := ""
	if flags&flagCaseless != 0 {
		inline += "i"
	}
	if flags&flagDotall != 0 {
		inline += "s"
	}
	if flags&flagMultiline != 0 {
		inline += "m"
	}
	p, err := pcreSpaces(p)
	if err != nil {
		return "", err
	}
	// [:space:] in Go is [\t\n\v\f\r ] already
	e := string(p)
	if inline != "" {
		e = "(?" + inline + ")" + "(?:" + e + ")"
	}
	if flags&flagAnchored != 0 {
		e = `\A(?:` + e + ")"
	}
	return e, nil
}

// pcreSpaces spells \s and \S as PCRE2 means them: Go's \s has no \v.
// A \S inside a class cannot be spelt there: refused.
func pcreSpaces(p []byte) ([]byte, error) {
	const space = `\t\n\v\f\r `
	var out []byte
	inClass := false
	for i := 0; i < len(p); i++ {
		c := p[i]
		switch {
		case c == '\\' && i+1 < len(p):
			i++
			switch e := p[i]; {
			case e == 's' && inClass:
				out = append(out, space...)
			case e == 's':
				out = append(out, "["+space+"]"...)
			case e == 'S' && inClass:
				return nil, errors.New(`a \S inside a class: Go's \s is not PCRE's`)
			case e == 'S':
				out = append(out, "[^"+space+"]"...)
			default:
				out = append(out, c, e)
			}
			continue
		case inClass && c == ']':
			inClass = false
		case !inClass && c == '[':
			inClass = true
			out = append(out, c)
			if i+1 < len(p) && p[i+1] == '^' {
				i++
				out = append(out, '^')
			}
			if i+1 < len(p) && p[i+1] == ']' {
				i++
				out = append(out, ']')
			}
			continue
		}
		out = append(out, c)
	}
	return out, nil
}

// latin1 is b with each byte above 0x7f as the UTF-8 of that code point;
// b itself when it has none.
func latin1(b []byte) []byte {
	high := 0
	for _, c := range b {
		if c > 0x7f {
			high++
		}
	}
	if high == 0 {
		return b
	}
	out := make([]byte, 0, len(b)+high)
	for _, c := range b {
		if c > 0x7f {
			out = utf8.AppendRune(out, rune(c))
		} else {
			out = append(out, c)
		}
	}
	return out
}

// asciiOnly: the pattern names no character above 0x7f (a literal, or a
// class bound; a negated class reaching the last rune is every byte).
func asciiOnly(p []byte) bool {
	for _, c := range p {
		if c > 0x7f {
			return false
		}
	}
	re, err := syntax.Parse(string(p), syntax.Perl)
	if err != nil {
		return true // regexp.Compile reports it
	}
	return asciiTree(re)
}

func asciiTree(re *syntax.Regexp) bool {
	switch re.Op {
	case syntax.OpLiteral:
		for _, r := range re.Rune {
			if r > 0x7f {
				return false
			}
		}
	case syntax.OpCharClass:
		for i := 0; i+1 < len(re.Rune); i += 2 {
			lo, hi := re.Rune[i], re.Rune[i+1]
			if (lo > 0x7f) || (hi > 0x7f && hi != unicode.MaxRune) {
				return false
			}
		}
	}
	for _, sub := range re.Sub {
		if !asciiTree(sub) {
			return false
		}
	}
	return true
}

func (rn *runner) compile(d *body) *reply {
	id := d.u32()
	flags := d.u32()
	n := d.u32()
	s := &set{flags: flags}
	for i := uint32(0); i < n && d.err == nil; i++ {
		p := d.bytes()
		if d.err != nil {
			break
		}
		e, err := goExpr(p, flags)
		if err != nil {
			return errorReply(errUnsupported, int32(i), err.Error())
		}
		re, err := regexp.Compile(e)
		if err != nil {
			return errorReply(errCompile, int32(i), err.Error())
		}
		s.src = append(s.src, e)
		s.re = append(s.re, re)
	}
	if d.err != nil {
		return errorReply(errMatch, -1, d.err.Error())
	}
	rn.sets[id] = s
	return okReply()
}

// One op on one input for set s: is_match, count or match_ids (into ids).
// in is as rxbench sent it, lat the same as latin1() makes it.
func (s *set) do(op byte, in, lat []byte, ids []byte) int {
	if s.flags&flagUTF8 == 0 {
		in = lat
	}
	switch op {
	case opIsMatch:
		for _, re := range s.re {
			if re.Match(in) {
				return 1
			}
		}
		return 0
	case opCount:
		n := 0
		for _, re := range s.re {
			n += len(re.FindAllIndex(in, -1))
		}
		return n
	case opMatchIDs:
		n := 0
		for i, re := range s.re {
			m := re.Match(in)
			if ids != nil {
				ids[i] = 0
				if m {
					ids[i] = 1
				}
			}
			if m {
				n++
			}
		}
		return n
	}
	return 0
}

// The set and op a match or answers request names, or an error reply.
func (rn *runner) matchSet(d *body) (*set, byte, *reply) {
	id := d.u32()
	op := d.u8()
	s := rn.sets[id]
	if d.err != nil || s == nil || op < opIsMatch || op > opMatchIDs {
		return nil, 0, errorReply(errMatch, -1, fmt.Sprintf(
			"bad match request (set %d, op %d)", id, op))
	}
	return s, op, nil
}

// One answer into r: the value of op on in, and its ids.
func (s *set) answer(r *reply, op byte, in []byte) {
	var ids []byte
	if op == opMatchIDs {
		ids = make([]byte, len(s.re))
	}
	r.u64(uint64(s.do(op, in, latin1(in), ids)))
	r.bytes(ids)
}

func (rn *runner) match(d *body) *reply {
	s, op, bad := rn.matchSet(d)
	if bad != nil {
		return bad
	}
	in := d.bytes()
	if d.err != nil {
		return errorReply(errMatch, -1, d.err.Error())
	}
	r := &reply{}
	r.u8(repAnswer)
	s.answer(r, op, in)
	return r
}

// answers: match's op on every input of the request, in one reply.
func (rn *runner) answers(d *body) *reply {
	s, op, bad := rn.matchSet(d)
	if bad != nil {
		return bad
	}
	n := d.u32()
	r := &reply{}
	r.u8(repAnswers)
	r.u32(n)
	for i := uint32(0); i < n && d.err == nil; i++ {
		in := d.bytes()
		if d.err == nil {
			s.answer(r, op, in)
		}
	}
	if d.err != nil {
		return errorReply(errMatch, -1, d.err.Error())
	}
	return r
}

func (rn *runner) setWork(d *body) *reply {
	w := &work{op: d.u8()}
	w.flags = d.u8()
	w.each = w.flags&workEach != 0
	if !flagsOK(w.flags, workKnown) {
		return errorReply(errMatch, -1, "bad work flags")
	}
	nsets := d.u32()
	for i := uint32(0); i < nsets && d.err == nil; i++ {
		s := rn.sets[d.u32()]
		if s == nil {
			return errorReply(errMatch, -1, "work names a set not compiled")
		}
		w.sets = append(w.sets, s)
	}
	nnames := d.u32()
	if nnames > 0 {
		w.names = make(map[string]struct{}, nnames)
	}
	for i := uint32(0); i < nnames && d.err == nil; i++ {
		w.names[string(d.bytes())] = struct{}{}
	}
	ninputs := d.u32()
	for i := uint32(0); i < ninputs && d.err == nil; i++ {
		w.addInput(d.bytes())
	}
	if d.err != nil || w.op > opCompile || len(w.inputs) == 0 {
		return errorReply(errMatch, -1, "bad work request")
	}
	rn.w = w
	return okReply()
}

// values: the work's op on each of its inputs in turn, the values a
// bench would compute (what rxbench verifies of a work that rewrites).
func (rn *runner) values() *reply {
	w := rn.w
	if w == nil || !w.each || w.op == opCompile || w.world != nil {
		return errorReply(errMatch, -1, "values before a work of one input per op")
	}
	r := &reply{}
	r.u8(repAnswers)
	r.u32(uint32(len(w.inputs)))
	for i := range w.inputs {
		r.u64(uint64(w.decide(w.op, i)))
		r.bytes(nil)
	}
	return r
}

// flagsOK: no bit outside known, and reverse (bit 2) only with the fqdn
// rewrite (bit 1).
func flagsOK(f, known byte) bool {
	return f&^known == 0 && (f&workReverse == 0 || f&workFQDN != 0)
}

// addInput appends an input, with its Latin-1 spelling when the op
// takes it as it is (a rewritten one gets its spelling per op).
func (w *work) addInput(in []byte) {
	w.inputs = append(w.inputs, in)
	if w.flags&workFQDN == 0 {
		w.lat = append(w.lat, latin1(in))
	}
}

// decide is one input through the work's op: rewritten when the work
// says so, then a name in the map is a match without the regex
// (Cilium's DNS proxy), then every set.
func (w *work) decide(op byte, i int) int {
	in, lat := w.rewrite(i)
	if w.names != nil {
		if _, ok := w.names[string(in)]; ok {
			return 1
		}
	}
	n := 0
	for _, s := range w.sets {
		n += s.do(op, in, lat, nil)
	}
	return n
}

// recompile is the compile op: every set's expressions compiled again.
func (w *work) recompile() int {
	n := 0
	for _, s := range w.sets {
		for _, e := range s.src {
			if _, err := regexp.Compile(e); err == nil {
				n++
			}
		}
	}
	return n
}

// heapPerOp is what one op keeps, as rxbench's B(heap)/op: for the
// compile op, the heap in use after a collection with every set's
// expressions compiled again and held, less the heap before it.  -1
// for the other ops (a match keeps nothing to measure).
func (w *work) heapPerOp() float64 {
	if w.op != opCompile {
		return -1
	}
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	var kept []*regexp.Regexp
	for _, s := range w.sets {
		for _, e := range s.src {
			if re, err := regexp.Compile(e); err == nil {
				kept = append(kept, re)
			}
		}
	}
	runtime.GC()
	runtime.ReadMemStats(&after)
	runtime.KeepAlive(kept)
	if after.HeapAlloc < before.HeapAlloc {
		return 0
	}
	return float64(after.HeapAlloc - before.HeapAlloc)
}

// run does n ops of kind op (opNone: the loop alone, the floor).
func (w *work) run(op byte, n int) {
	sink := 0
	for i := 0; i < n; i++ {
		switch {
		case op == opCompile:
			sink += w.recompile()
		case w.world != nil && op != opNone:
			sink += w.epOp(op, w.next)
			w.next++
			if w.next == len(w.inputs) {
				w.next = 0
			}
		case w.each:
			if op != opNone {
				sink += w.decide(op, w.next)
			} else {
				sink += len(w.inputs[w.next])
			}
			w.next++
			if w.next == len(w.inputs) {
				w.next = 0
			}
		default:
			for j, in := range w.inputs {
				if op != opNone {
					sink += w.decide(op, j)
				} else {
					sink += len(in)
				}
			}
		}
	}
	w.sink += sink
}

// passN: the ops of one pass over the inputs.
func (w *work) passN() int {
	if w.op == opEpUpdate {
		return 1 // a pass of updates would last seconds
	}
	if w.each && w.op != opCompile {
		return len(w.inputs)
	}
	return 1
}

// One timed run of n ops, as testing.B's runN: a GC first, then the
// clock and the memory statistics around the loop.
type timed struct {
	ns             int64
	mallocs, bytes uint64
}

func (w *work) timeRun(op byte, n int) timed {
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	t0 := time.Now()
	w.run(op, n)
	ns := time.Since(t0).Nanoseconds()
	runtime.ReadMemStats(&after)
	return timed{ns, after.Mallocs - before.Mallocs,
		after.TotalAlloc - before.TotalAlloc}
}

// Bench modes ('B', engines/runner.h).
const (
	modeWarm = 0 // the regexp machine pool stays warm between ops
	modeSeed = 1 // seed 000's method: runtime.GC() before every op
)

// seedGCs is how many collections seed 000's benchmark runs before an op
// with the clock stopped: four before a query (its match phases), two
// between compiles (its compile phase, after each).  Two are enough to
// empty a sync.Pool (its victim cache survives one), so regexp's machine
// pool is empty and each op builds its matcher again.
func seedGCs(op byte) int {
	if op == opCompile {
		return 2
	}
	return 4
}

// timeSeed is n ops the seed's way: the collections with the clock
// stopped, then the clock and the memory statistics read around the op
// alone (testing.B's StartTimer: ReadMemStats then time.Now; StopTimer:
// time.Since then ReadMemStats), summed over the ops.  wall is the
// whole run's, collections included.
func (w *work) timeSeed(op byte, n int) (t timed, wall int64) {
	var before, after runtime.MemStats
	start := time.Now()
	for i := 0; i < n; i++ {
		for k := seedGCs(w.op); op != opNone && k > 0; k-- {
			runtime.GC() // the floor's empty op has no pool to empty
		}
		runtime.ReadMemStats(&before)
		t0 := time.Now()
		w.run(op, 1)
		t.ns += time.Since(t0).Nanoseconds()
		runtime.ReadMemStats(&after)
		t.mallocs += after.Mallocs - before.Mallocs
		t.bytes += after.TotalAlloc - before.TotalAlloc
	}
	return t, time.Since(start).Nanoseconds()
}

// timeMode is one timed run of n ops in mode; wall its wall-clock time.
func (w *work) timeMode(mode byte, op byte, n int) (timed, int64) {
	if mode == modeSeed {
		return w.timeSeed(op, n)
	}
	t := w.timeRun(op, n)
	return t, t.ns
}

// predictN is testing.B's (and rxbench's bench_predict_n).
func predictN(goal, prevIters, prevNs int64) int64 {
	if prevNs <= 0 {
		prevNs = 1
	}
	n := goal * prevIters / prevNs
	n += n / 5
	if n > 100*prevIters {
		n = 100 * prevIters
	}
	if n < prevIters+1 {
		n = prevIters + 1
	}
	if n > 1e9 {
		n = 1e9
	}
	return n
}

// bench: the warm-up (whole passes for at least warmup, at least one),
// then n grown until a run lasts benchtime (or n fixed), then the floor:
// the same loop with no op, timed the same way at the same n.
func (rn *runner) bench(d *body) *reply {
	benchtime := int64(d.u64())
	fixed := int64(d.u64())
	warmup := int64(d.u64())
	mode := d.u8()
	w := rn.w
	if d.err != nil || w == nil {
		return errorReply(errMatch, -1, "bench before work")
	}
	if mode > modeSeed {
		return errorReply(errUnsupported, -1,
			fmt.Sprintf("unknown bench mode %d", mode))
	}
	if mode == modeSeed && w.world != nil {
		return errorReply(errUnsupported, -1, "the seed's method "+
			"collects the garbage before every op: with endpoints "+
			"that is gigabytes per op to mark")
	}
	t0 := time.Now()
	for {
		w.run(w.op, w.passN())
		if time.Since(t0).Nanoseconds() >= warmup {
			break
		}
	}
	n := int64(1)
	if fixed > 0 {
		n = fixed
	}
	var t timed
	for {
		var wall int64
		t, wall = w.timeMode(mode, w.op, int(n))
		if fixed > 0 || t.ns >= benchtime || n >= 1e9 ||
			(mode == modeSeed && wall >= benchtime) {
			break
		}
		n = predictN(benchtime, n, t.ns)
	}
	if w.failed != nil {
		return errorReply(errMatch, -1, w.failed.Error())
	}
	floor, _ := w.timeMode(mode, opNone, int(n))
	r := &reply{}
	r.u8(repSample)
	r.u64(uint64(n))
	r.f64(float64(t.ns) / float64(n))
	// testing.B.ReportAllocs: integer division over the timed run
	r.f64(float64(t.bytes / uint64(n)))
	r.f64(float64(t.mallocs / uint64(n)))
	r.f64(float64(floor.ns) / float64(n))
	r.f64(w.heapPerOp())
	return r
}

func (rn *runner) hello() *reply {
	r := &reply{}
	r.u8(repHello)
	r.bytes([]byte(strings.TrimPrefix(runtime.Version(), "go")))
	return r
}

func (rn *runner) serve() error {
	for {
		var hdr [4]byte
		if _, err := io.ReadFull(rn.in, hdr[:]); err != nil {
			if err == io.EOF {
				return nil
			}
			return err
		}
		msg := make([]byte, binary.LittleEndian.Uint32(hdr[:]))
		if _, err := io.ReadFull(rn.in, msg); err != nil {
			return err
		}
		if len(msg) == 0 {
			return errors.New("empty request")
		}
		d := &body{b: msg[1:]}
		var r *reply
		switch msg[0] {
		case reqHello:
			r = rn.hello()
		case reqCompile:
			r = rn.compile(d)
		case reqFree:
			id := d.u32()
			delete(rn.sets, id)
			if rn.worlds[id] != nil { // gigabytes: back to the system
				delete(rn.worlds, id)
				debug.FreeOSMemory()
			}
			r = okReply()
		case reqMatch:
			r = rn.match(d)
		case reqAnswers:
			r = rn.answers(d)
		case reqWork:
			r = rn.setWork(d)
		case reqValues:
			r = rn.values()
		case reqBench:
			r = rn.bench(d)
		case reqEndpoints:
			r = rn.endpoints(d)
		case reqEpAnswers:
			r = rn.epAnswers(d)
		case reqEpWork:
			r = rn.epWork(d)
		default:
			r = errorReply(errMatch, -1,
				fmt.Sprintf("unknown request %q", msg[0]))
		}
		if err := rn.send(r); err != nil {
			return err
		}
	}
}

func main() {
	rn := &runner{
		in:     bufio.NewReaderSize(os.Stdin, 1<<16),
		out:    bufio.NewWriterSize(os.Stdout, 1<<16),
		sets:   map[uint32]*set{},
		worlds: map[uint32]*epWorld{},
	}
	if err := rn.serve(); err != nil {
		fmt.Fprintln(os.Stderr, "rxbench-go:", err)
		os.Exit(1)
	}
}

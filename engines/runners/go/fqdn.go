// fqdn.go - the fqdn suite's part of the runner (suites/fqdn_runner.h):
// WORK's rewrite flags, and Cilium's DNS proxy with many endpoints (the
// fqdn suite's --endpoints, suites/fqdn_ep.h), in Go as Cilium holds it: one compiled
// regexp (and, for map+ strategies, a Go map of its matchNames) per L7
// selector of an endpoint, shared through a cache keyed by the pattern
// text and counted by reference, as Cilium's regex cache shares a
// regexp.  Requests 'P', 'Q' and 'X' of suites/fqdn_runner.h.
package main

import (
	"fmt"
	"regexp"
	"runtime"
	"sort"
	"strings"

	"rxbench/runners/go/fqdnop"
)

// The fqdn suite's requests and reply (suites/fqdn_runner.h).
const (
	reqEndpoints = 'P'
	reqEpAnswers = 'Q'
	reqEpWork    = 'X'
	repEndpoints = 'P'
)

// WORK's flags bits of the fqdn suite.
const (
	workFQDN    = 1 << 1 // rewrite each input as the fqdn suite does
	workReverse = 1 << 2 // and reverse its bytes after
)

// rewrite is input i as an op sees it: rewritten into w.buf when the
// work's flags say so, with its Latin-1 spelling for byte-mode sets
// (inputs made without lat get theirs here).
func (w *work) rewrite(i int) (in, lat []byte) {
	in = w.inputs[i]
	if w.flags&workFQDN == 0 {
		if i < len(w.lat) {
			return in, w.lat[i]
		}
		return in, latin1(in)
	}
	var ascii bool
	w.buf, ascii = fqdnop.Rewrite(w.buf, in, w.flags&workReverse != 0)
	if !ascii {
		return w.buf, latin1(w.buf)
	}
	return w.buf, w.buf
}

// Ops of an endpoints work ('X').
const (
	opEpMatch  = 5 // one query on its endpoint (CheckAllowed)
	opEpUpdate = 6 // replace one endpoint's rules (setPortRulesForID)
)

// One selector's rules as rxbench describes them: its regexes, each the
// first pre[i] bytes of the reference unit's regex i then suf[i]; its
// names, the reference's when withRef, then names.
type epDesc struct {
	pre     []int
	suf     []string
	withRef bool
	names   []string
}

// A compiled unit, held by the selectors whose rules make its key.
type epEntry struct {
	key   string
	re    []*regexp.Regexp
	names map[string]struct{}
	refs  int
}

// An endpoints world.
type epWorld struct {
	flags    uint32
	ref      epDesc // unit 0: the reference, its texts whole
	desc     []epDesc
	unitOf   []uint32 // [endpoint][generation][selector]
	n, nsel  int
	ngen     int
	gen      []uint8
	sel      []*epEntry // [endpoint][selector]: what each holds now
	cache    map[string]*epEntry
	heap     uint64 // bytes the world holds with the cache
	nocache  uint64 // ... had every selector compiled its own
	distinct int
}

// The regexes of unit d, as texts rebuilt from the reference (new
// strings: what a world keeps is its own), and the cache key: the
// pattern text itself for one regex and no names, as Cilium's regex
// cache, else the texts then a NUL and the names, each LF-ended.
func (w *epWorld) texts(d *epDesc) (re []string, names []string, key string) {
	for i := range d.suf {
		b := make([]byte, 0, d.pre[i]+len(d.suf[i]))
		if d.pre[i] > 0 {
			b = append(b, w.ref.suf[i][:d.pre[i]]...)
		}
		re = append(re, string(append(b, d.suf[i]...)))
	}
	if d.withRef {
		names = append(names, w.ref.names...)
	}
	names = append(names, d.names...)
	if len(re) == 1 && len(names) == 0 {
		return re, names, re[0]
	}
	var k strings.Builder
	for _, t := range re {
		k.WriteString(t)
		k.WriteByte('\n')
	}
	k.WriteByte(0)
	for _, s := range names {
		k.WriteString(s)
		k.WriteByte('\n')
	}
	return re, names, k.String()
}

// acquire is unit u through the cache: the entry held (one more
// reference), or a new one compiled.
func (w *epWorld) acquire(u uint32) (*epEntry, error) {
	re, names, key := w.texts(&w.desc[u])
	if e := w.cache[key]; e != nil {
		e.refs++
		return e, nil
	}
	e := &epEntry{key: key, refs: 1}
	for i, t := range re {
		expr, err := goExpr([]byte(t), w.flags)
		if err == nil {
			var r *regexp.Regexp
			r, err = regexp.Compile(expr)
			e.re = append(e.re, r)
		}
		if err != nil {
			return nil, fmt.Errorf("unit %d, regex %d: %v", u, i, err)
		}
	}
	if len(names) > 0 {
		e.names = make(map[string]struct{}, len(names))
		for _, s := range names {
			e.names[s] = struct{}{}
		}
	}
	w.cache[key] = e
	return e, nil
}

func (w *epWorld) release(e *epEntry) {
	if e.refs--; e.refs == 0 {
		delete(w.cache, e.key)
	}
}

// set points endpoint ep's selectors at the units of generation g: the
// new ones first (from the cache when held), then the old released.
func (w *epWorld) set(ep int, g int) error {
	var got [8]*epEntry
	row := w.unitOf[(ep*w.ngen+g)*w.nsel:]
	for k := 0; k < w.nsel; k++ {
		e, err := w.acquire(row[k])
		if err != nil {
			for j := 0; j < k; j++ {
				w.release(got[j])
			}
			return err
		}
		got[k] = e
	}
	for k := 0; k < w.nsel; k++ {
		if old := w.sel[ep*w.nsel+k]; old != nil {
			w.release(old)
		}
		w.sel[ep*w.nsel+k] = got[k]
	}
	w.gen[ep] = uint8(g)
	return nil
}

func heapNow() uint64 {
	var m runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&m)
	return m.HeapAlloc
}

// build makes every endpoint's generation 0 and measures it: the live
// heap (HeapAlloc after runtime.GC()) it adds, with the cache.  Without
// a cache every selector would compile its own unit: the selectors are
// built grouped by how many hold their unit (r), the heap a group adds
// measured, and a group's counted r times.
func (w *epWorld) build() error {
	unit := func(i int) uint32 { // selector i's unit in generation 0
		return w.unitOf[(i/w.nsel*w.ngen)*w.nsel+i%w.nsel]
	}
	refs := map[uint32]int{}
	for i := 0; i < w.n*w.nsel; i++ {
		refs[unit(i)]++
	}
	classes := map[int][]int{} // refs -> the selectors of that many
	for i := 0; i < w.n*w.nsel; i++ {
		classes[refs[unit(i)]] = append(classes[refs[unit(i)]], i)
	}
	order := make([]int, 0, len(classes))
	for r := range classes {
		order = append(order, r)
	}
	sort.Ints(order)
	before := heapNow()
	w.gen = make([]uint8, w.n)
	w.sel = make([]*epEntry, w.n*w.nsel)
	w.cache = map[string]*epEntry{}
	var extra uint64
	at := heapNow()
	for _, r := range order {
		for _, i := range classes[r] {
			e, err := w.acquire(unit(i))
			if err != nil {
				return err
			}
			w.sel[i] = e
		}
		now := heapNow()
		if now > at {
			extra += (now - at) * uint64(r-1)
		}
		at = now
	}
	w.heap = at - before
	w.nocache = w.heap + extra
	w.distinct = len(w.cache)
	return nil
}

// decide is CheckAllowed: endpoint ep's selectors in order until one
// allows (its map, then its regexes).  in as sent, lat as latin1 makes it.
func (w *epWorld) decide(ep int, in, lat []byte) int {
	if w.flags&flagUTF8 != 0 {
		lat = in
	}
	for _, e := range w.sel[ep*w.nsel : (ep+1)*w.nsel] {
		if e.names != nil {
			if _, ok := e.names[string(in)]; ok {
				return 1
			}
		}
		for _, r := range e.re {
			if r.Match(lat) {
				return 1
			}
		}
	}
	return 0
}

func (w *epWorld) update(ep int) error {
	return w.set(ep, int(1-w.gen[ep])%w.ngen)
}

// readDesc reads one unit: u32 nre, nre x (u32 prefix, bytes rest),
// u32 nnames, u8 with the reference's names, nnames x bytes.
func readDesc(d *body, ref *epDesc) (epDesc, error) {
	var u epDesc
	nre := int(d.u32())
	for i := 0; i < nre && d.err == nil; i++ {
		pre := int(d.u32())
		suf := string(d.bytes())
		if pre > 0 && (ref == nil || i >= len(ref.suf) ||
			pre > len(ref.suf[i])) {
			return u, fmt.Errorf("regex %d: prefix %d beyond the "+
				"reference", i, pre)
		}
		u.pre = append(u.pre, pre)
		u.suf = append(u.suf, suf)
	}
	nnames := int(d.u32())
	u.withRef = d.u8() != 0 && ref != nil
	for i := 0; i < nnames && d.err == nil; i++ {
		u.names = append(u.names, string(d.bytes()))
	}
	return u, d.err
}

// endpoints ('P'): the description, then the world built and measured.
func (rn *runner) endpoints(d *body) *reply {
	id := d.u32()
	w := &epWorld{flags: d.u32(), n: int(d.u32()), nsel: int(d.u32()),
		ngen: int(d.u32())}
	nunits := int(d.u32())
	if d.err != nil || w.n < 1 || w.nsel < 1 || w.nsel > 8 || w.ngen < 1 ||
		nunits < 1 {
		return errorReply(errMatch, -1, "bad endpoints request")
	}
	for u := 0; u < nunits; u++ {
		var ref *epDesc
		if u > 0 {
			ref = &w.ref
		}
		x, err := readDesc(d, ref)
		if err != nil {
			return errorReply(errMatch, -1, fmt.Sprintf("unit %d: %v", u, err))
		}
		if u == 0 {
			w.ref = x
		}
		w.desc = append(w.desc, x)
	}
	w.unitOf = make([]uint32, w.n*w.ngen*w.nsel)
	for i := range w.unitOf {
		if w.unitOf[i] = d.u32(); int(w.unitOf[i]) >= nunits {
			return errorReply(errMatch, -1, "a selector names no unit")
		}
	}
	if d.err != nil {
		return errorReply(errMatch, -1, d.err.Error())
	}
	if err := w.build(); err != nil {
		return errorReply(errCompile, -1, err.Error())
	}
	rn.worlds[id] = w
	r := &reply{}
	r.u8(repEndpoints)
	r.u64(w.heap)
	r.u64(w.nocache)
	r.u64(uint64(w.distinct))
	return r
}

// epQueries reads u32 n, n x (u32 endpoint, bytes input) of world w.
func epQueries(d *body, w *epWorld) (eps []int, in [][]byte, err error) {
	n := d.u32()
	for i := uint32(0); i < n && d.err == nil; i++ {
		ep := int(d.u32())
		q := d.bytes()
		if ep >= w.n {
			return nil, nil, fmt.Errorf("endpoint %d of %d", ep, w.n)
		}
		eps = append(eps, ep)
		in = append(in, q)
	}
	return eps, in, d.err
}

// epFlags reads the rewrite flags of a 'Q' or 'X' request: WORK's
// bits 1 and 2, nothing else.
func epFlags(d *body) (byte, bool) {
	f := d.u8()
	return f, flagsOK(f, workFQDN|workReverse)
}

// epAnswers ('Q'): each query's verdict on its endpoint, an 'A' reply,
// each query rewritten first as the flags say (the timed op's work).
func (rn *runner) epAnswers(d *body) *reply {
	w := rn.worlds[d.u32()]
	if w == nil {
		return errorReply(errMatch, -1, "no such endpoints world")
	}
	flags, ok := epFlags(d)
	eps, in, err := epQueries(d, w)
	if err != nil {
		return errorReply(errMatch, -1, err.Error())
	}
	if !ok {
		return errorReply(errMatch, -1, "bad endpoint answers flags")
	}
	wk := &work{flags: flags, world: w, eps: eps, inputs: in}
	r := &reply{}
	r.u8(repAnswers)
	r.u32(uint32(len(in)))
	for i := range in {
		r.u64(uint64(wk.epOp(opEpMatch, i)))
		r.bytes(nil)
	}
	return r
}

// epWork ('X'): what the next bench times on world w.
func (rn *runner) epWork(d *body) *reply {
	w := rn.worlds[d.u32()]
	op := d.u8()
	if w == nil || op != opEpMatch && op != opEpUpdate {
		return errorReply(errMatch, -1, "bad endpoints work request")
	}
	flags, ok := epFlags(d)
	eps, in, err := epQueries(d, w)
	if err != nil || len(eps) == 0 || !ok {
		return errorReply(errMatch, -1, "bad endpoints work request")
	}
	wk := &work{op: op, each: true, flags: flags, world: w, eps: eps}
	for _, q := range in {
		wk.addInput(q)
	}
	rn.w = wk
	return okReply()
}

// epOp is op (opEpMatch or opEpUpdate) on the work's i-th item; a
// match rewrites its query first when the work's flags say so, as the
// proxy lowercases and qualifies a name before CheckAllowed.
func (w *work) epOp(op byte, i int) int {
	if op == opEpMatch {
		in, lat := w.rewrite(i)
		return w.world.decide(w.eps[i], in, lat)
	}
	if err := w.world.update(w.eps[i]); err != nil {
		w.failed = err
	}
	return int(w.world.gen[w.eps[i]])
}

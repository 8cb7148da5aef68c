package goal

import (
	"errors"
	"fmt"
	"maps"
	"math"
	"slices"
	"strings"
	"weak"

	"commlab/engine/progress"
	"commlab/internal/errf"
	"commlab/internal/prefetch"
)

// pfDist is how far ahead prefetch looks, in items; pfMinOps the
// schedule size from which it does (a variable so that the tests can run
// small schedules both ways).
const pfDist = 3

var pfMinOps = 1 << 19

// pfEvery prefetches on every bucket, scattered or not (the tests, so
// that prefetching runs on small schedules too).
var pfEvery = false

// Options choose what a run records.
type Options struct {
	// Record fills Result.Timeline and Result.Critical: per operation and
	// per message times, noise stalls and the critical path. It costs
	// about 150 bytes an operation; sweeps and huge runs leave it off.
	Record bool
	// Progress, if set, hears the fraction of the run done (queue items
	// handled against operations plus messages) every progressEvery
	// items; an error it returns stops the run and Run returns it. The
	// browser builds a schedule in steps through it; the results never
	// depend on it.
	Progress progress.Func
}

// progressEvery is how many queue items pass between Progress calls: a
// few milliseconds of work, so a page stays responsive and the check
// costs nothing measurable.
const progressEvery = 1 << 15

// Result is the outcome of a run.
type Result struct {
	// End is LogGOPSim's "maximum finishing time": the latest time any
	// CPU of any rank is busy until (its last o, calc or noise), ns.
	End int64 `json:"end_ns"`
	// EndRank is the rank that sets End (the lowest such rank).
	EndRank int `json:"end_rank"`
	// RankEnd is each rank's finishing time, ns.
	RankEnd []int64 `json:"-"`
	// Ops and Messages count the operations run and the messages sent;
	// Events counts queue insertions as LogGOPSim's "Events" does
	// (operations and messages, not re-insertions); Pops counts every
	// item taken from the queue: operations, messages, an item waiting
	// alone for a busy CPU or NIC each time it is put back, as LogGOPSim
	// does, and the tokens of the items waiting together (wait.go:
	// LogGOPSim takes each of those again each time their clock moves on,
	// which this executor does not need to).
	Ops      int64 `json:"ops"`
	Messages int64 `json:"messages"`
	Events   int64 `json:"events"`
	Pops     int64 `json:"pops"`
	// Stall is the total CPU time noise took, ns.
	Stall int64 `json:"stall_ns"`
	// Timeline and Critical are set when Options.Record is.
	Timeline *Timeline  `json:"-"`
	Critical []CritStep `json:"-"`
}

// Timeline is the record of a run: what a scene draws.
type Timeline struct {
	// Ops[i] is operation i's record, in Schedule order.
	Ops []OpRecord
	// Messages, one per send, in the order they were sent.
	Messages []MsgRecord
}

// OpRecord is one operation in a run. Times in ns; -1 where an event
// did not happen.
type OpRecord struct {
	// Issue is when the operation was taken from the queue and began: a
	// send or calc starts its CPU time then, a recv is posted.
	Issue int64
	// Start and End bound its CPU time: o + (s-1)·O of a send, a calc's
	// duration, and for a recv the receive overhead o + max((s-1)·O,
	// (s-1)·G) of the message it took (spent when the message was taken
	// off the network, which may be before the recv was posted).
	Start, End int64
	// Stall is the noise that followed End on the same CPU.
	Stall int64
	// Done is when the operations that require it were released.
	Done int64
	// Msg is, for a send or recv, its index in Timeline.Messages (-1 if
	// none).
	Msg int32
}

// MsgRecord is one message.
type MsgRecord struct {
	Send, Recv int32 // operation indices; Recv is -1 if never matched
	From, To   int32
	Bytes      uint64
	Tag        uint32
	// Sent is the send's start; Arrive = Sent + o + L (+ network noise
	// Delay) is when its first byte reaches the receiver; Taken is when
	// the receiver's CPU and NIC took it off the network; Matched when it
	// met its recv.
	Sent, Arrive, Taken, Matched int64
	Delay                        int64
	// Stall is the noise on the receiver's CPU while it took the message.
	Stall int64
	// Rendezvous is true for a message of more than S bytes: its send
	// completed only when it matched.
	Rendezvous bool
	// Unexpected is true when it arrived before its recv was posted.
	Unexpected bool
}

// CritKind is a link of the critical path.
type CritKind uint8

const (
	CritCPU        CritKind = iota // an operation's CPU time (o, calc) and its noise
	CritReceive                    // a message's receive overhead at the receiver
	CritFlight                     // a message in flight (o + L and network noise after the send's start)
	CritGap                        // the NIC gap g + (s-1)·G after a send or receive
	CritRendezvous                 // a rendezvous send released when its message matched
)

func (k CritKind) String() string {
	return [...]string{"cpu", "receive", "flight", "gap", "rendezvous"}[k]
}

// MarshalText writes the kind's name.
func (k CritKind) MarshalText() ([]byte, error) { return []byte(k.String()), nil }

// UnmarshalText reads a kind's name.
func (k *CritKind) UnmarshalText(b []byte) error {
	for i := CritCPU; i <= CritRendezvous; i++ {
		if i.String() == string(b) {
			*k = i
			return nil
		}
	}
	return errf.Errorf("goal: unknown critical-path link %q", b)
}

// CritStep is one link of the critical path: on Rank, from Start to End,
// operation Op (for CritReceive, CritFlight and CritRendezvous the send
// whose message it is; Peer the other rank).
type CritStep struct {
	Kind  CritKind `json:"kind"`
	Rank  int      `json:"rank"`
	Peer  int      `json:"peer"`
	Op    int      `json:"op"`
	Start int64    `json:"start_ns"`
	End   int64    `json:"end_ns"`
}

// StuckError is a run that could not finish: operations whose
// dependencies never completed or messages that never matched.
type StuckError struct {
	NotRun    int      // operations never issued
	Unmatched []string // a few of the unmatched sends and recvs
}

func (e *StuckError) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "goal: schedule did not complete: %d operations never ran", e.NotRun)
	if len(e.Unmatched) > 0 {
		fmt.Fprintf(&b, "; unmatched: %s", strings.Join(e.Unmatched, "; "))
	}
	return b.String()
}

// Run executes s on p with noise n, as LogGOPSim does. It never hangs:
// every operation enters the queue at most once plus its re-insertions,
// each of which moves its time forward. A schedule that leaves messages
// unmatched or operations never issued returns the partial Result and a
// *StuckError.
func Run(s *Schedule, p Params, n Noise, opt Options) (*Result, error) {
	var x Executor
	return x.Run(s, p, n, opt)
}

// Executor runs schedules like Run, keeping its buffers from one run to
// the next: sweeps and scenes that rerun a schedule allocate little
// after the first run. Not safe for concurrent use.
type Executor struct{ e exec }

// Run is the package's Run on the executor's buffers. The Result (and its
// Timeline) belongs to the caller.
func (x *Executor) Run(s *Schedule, p Params, n Noise, opt Options) (*Result, error) {
	if err := p.Validate(); err != nil {
		return nil, err
	}
	if err := n.Validate(); err != nil {
		return nil, err
	}
	if err := p.zeroBytes(s); err != nil {
		return nil, err
	}
	nz, err := newCPUNoise(n, s.numRanks)
	if err != nil {
		return nil, err
	}
	x.e.reset(s, p, nz, opt.Record)
	x.e.pr, x.e.stopped = opt.Progress, nil
	x.e.checked = checkAll || timeBound(s, p, n) >= checkBelow
	x.e.run()
	if err := x.e.stopped; err != nil {
		x.e.tl, x.e.s, x.e.pr, x.e.stopped = nil, nil, nil, nil
		return nil, err
	}
	r, err := x.e.result()
	x.e.tl, x.e.s = nil, nil
	return r, err
}

type exec struct {
	pr      progress.Func // Options.Progress
	stopped error         // what pr returned to stop the run
	s       *Schedule
	o, O    uint64
	g, G    uint64
	L, S    uint64
	ncpu    int
	nnic    int
	w       int               // slots per rank: max(CPUs, NICs)
	hs      []hostSlot        // per rank, w slots: clocks, match queues
	pend    []uint8           // dependencies left per op; pendBig: in big
	big     map[uint32]uint32 // ops with ≥ pendBig dependencies
	// pend and big at the start of a run of pendOf, kept from its second
	// run on
	pend0  []uint8
	big0   map[uint32]uint32
	pendOf weak.Pointer[Schedule]
	q      queue
	aqtime uint32
	// match queues: rq holds each rank's posted recvs in posting order
	// (rank h's from recvStart[h] on), rqKey their match keys; uq
	// unexpected messages (send ops), linked lists in one pool
	rq, rqKey []uint32
	upool     []uqNode
	ufree     uint32
	// ranks whose posted recvs or unexpected messages are indexed
	// (match.go), the indexes, and the unexpected nodes' links in them
	pIndexed, uIndexed []uint64
	pidx               map[uint32]*postedIndex
	uidx               map[uint32]*uqIndex
	ulink              []uqLink
	useq               uint32
	freed              []freedOp
	batch              []uint32
	// items waiting for a busy CPU or NIC, in groups (wait.go)
	groups     chunked[waitGroup]
	gcause     []groupCause // recorded runs, per group
	waitAt     []uint32     // per kind and slot: group + 1, or 0
	soloN      []uint8      // per kind and slot: items put back, at most soloMax
	soloTS     []uint32     // per kind and slot, soloMax each: their stamps
	groupOf    map[uint64]uint32
	freeGroups []uint32
	nz         *cpuNoise
	// checked: the run's times could pass MaxLength (overflow.go), so
	// each is checked as it is computed
	checked   bool
	res       Result
	pfBuckets int // buckets prefetched (scattered), for the tests
	// recording
	rec         bool
	tl          *Timeline
	msgOf       []int32 // per send (by place): message index
	cause       []cause // per op (by place): what set its issue time
	mcause      []cause // per message: what set its taking time
	cpuBy, gsBy []cause // setter of nexto / nextgs, per slot
	grBy        []cause
	// ix is Schedule.index: the records are in file order, the run's
	// operations places (a cause's op id is a place)
	ix     []uint32
	issued int64
}

// hostSlot is slot k of a rank: CPU k's next free time (LogGOPSim's
// nexto), NIC k's for a send and a receive (nextgs, nextgr), and in slot
// 0 the rank's match queues (heads and tails of lists). One rank with one
// CPU and NIC is 40 bytes in one place: a message touches its receiver's
// clocks and queues with one cache miss, not three.
type hostSlot struct {
	o, gs, gr      uint64
	rqFirst, rqEnd uint32 // posted recvs: rq[rqFirst:rqEnd], from recvStart[h] on
	uqHead, uqTail uint32
}

// hq is rank h's slot 0, which holds its match queues.
func (e *exec) hq(h uint32) *hostSlot { return &e.hs[int(h)*e.w] }

type freedOp struct{ host, op uint32 }

const nilNode = ^uint32(0)

// cause names what set a time: an op's CPU interval, a message's receive
// overhead, flight, or rendezvous release; or the start (kind none).
type cause struct {
	kind CritKind
	none bool
	id   int32 // op (CritCPU, CritGap with send) or message index
	gapR bool  // CritGap of a receive (message id) rather than a send
}

var start0 = cause{none: true}

func newExec(s *Schedule, p Params, nz *cpuNoise, rec bool) *exec {
	e := &exec{}
	e.reset(s, p, nz, rec)
	return e
}

// reuse returns s[:n] cleared, reusing its array when it is big enough.
// A new array is backed by huge pages where it holds some.
func reuse[T any](s []T, n int) []T {
	if cap(s) < n {
		s = make([]T, n)
		prefetch.Huge(s)
		return s
	}
	s = s[:n]
	clear(s)
	return s
}

// reset prepares a run of s, keeping the buffers of an earlier run.
func (e *exec) reset(s *Schedule, p Params, nz *cpuNoise, rec bool) {
	*e = exec{s: s, o: uint64(p.Overhead), O: uint64(p.OverheadPerByte), g: uint64(p.Gap),
		G: uint64(p.GapPerByte), L: uint64(p.L), S: uint64(p.S), ncpu: s.CPUs(), nnic: s.NICs(), nz: nz, rec: rec,
		hs: e.hs, pend: e.pend, pend0: e.pend0, big0: e.big0, pendOf: e.pendOf, rq: e.rq, rqKey: e.rqKey, upool: e.upool[:0],
		freed: e.freed[:0], batch: e.batch[:0], q: e.q, groups: chunked[waitGroup]{c: e.groups.c}, gcause: e.gcause[:0], waitAt: e.waitAt, soloN: e.soloN, soloTS: e.soloTS, groupOf: e.groupOf, freeGroups: e.freeGroups[:0],
		ulink: e.ulink[:0]}
	clear(e.groupOf)
	P := s.numRanks
	e.w = max(e.ncpu, e.nnic)
	e.hs = reuse(e.hs, P*e.w)
	if cap(e.waitAt) >= 3*len(e.hs) {
		e.waitAt, e.soloN, e.soloTS = e.waitAt[:3*len(e.hs)], e.soloN[:3*len(e.hs)], e.soloTS[:soloMax*3*len(e.hs)]
		clear(e.waitAt)
		clear(e.soloN)
	} else {
		e.waitAt, e.soloN, e.soloTS = nil, nil, nil
	}
	for i := range e.hs {
		e.hs[i].uqHead, e.hs[i].uqTail = nilNode, nilNode
		if i%e.w == 0 {
			e.hs[i].rqFirst, e.hs[i].rqEnd = s.recvStart[i/e.w], s.recvStart[i/e.w]
		}
	}
	n := s.NumOps()
	e.initPend(s, n)
	e.ufree = nilNode
	e.q.reset()
	e.q.reserve(P)
	if nr := int(s.recvStart[P]); cap(e.rq) < nr {
		// address space: touched as recvs are posted
		e.rq, e.rqKey = make([]uint32, nr), make([]uint32, nr)
		prefetch.Huge(e.rq)
		prefetch.Huge(e.rqKey)
	}
	if rec {
		e.ix = s.inv.get(s)
		e.tl = &Timeline{Ops: make([]OpRecord, n), Messages: make([]MsgRecord, 0, s.sends)}
		for i := range e.tl.Ops {
			e.tl.Ops[i] = OpRecord{Issue: -1, Start: -1, End: -1, Done: -1, Msg: -1}
		}
		e.msgOf = make([]int32, n)
		e.cause = make([]cause, n)
		e.mcause = make([]cause, 0, s.sends)
		e.cpuBy = make([]cause, P*e.w)
		e.gsBy = make([]cause, P*e.w)
		e.grBy = make([]cause, P*e.w)
		for i := range e.cpuBy {
			e.cpuBy[i] = start0
		}
		for i := range e.gsBy {
			e.gsBy[i], e.grBy[i] = start0, start0
		}
		for i := range e.cause {
			e.cause[i] = start0
		}
	}
}

// initPend sets every op's count of dependencies left. An executor that
// runs the same schedule again (a sweep, a scene's rerun) keeps the
// counts of its second run and copies them from then on; a one-off run
// does not pay for the copy. The schedule is held weakly.
func (e *exec) initPend(s *Schedule, n int) {
	e.pend = reuse(e.pend, n)
	if e.pendOf.Value() == s && e.pend0 != nil {
		copy(e.pend, e.pend0)
		e.big = maps.Clone(e.big0)
		return
	}
	for _, d := range s.succ {
		j := d &^ startDep
		switch e.pend[j] {
		default:
			e.pend[j]++
		case pendBig - 1:
			if e.big == nil {
				e.big = map[uint32]uint32{}
			}
			e.pend[j], e.big[j] = pendBig, pendBig
		case pendBig:
			e.big[j]++
		}
	}
	if e.pendOf.Value() == s {
		e.pend0, e.big0 = slices.Clone(e.pend), maps.Clone(e.big)
		return
	}
	e.pendOf, e.pend0, e.big0 = weak.Make(s), nil, nil
}

// run is LogGOPSim's main loop. The initial operations (every rank's
// roots, time 0, stamps 0..roots-1 in rank order) are handled first
// without entering the queue: nothing pushed later can precede them.
func (e *exec) run() {
	s := e.s
	e.aqtime = uint32(s.roots)
	var ts uint32
	roots := make([]uint32, 0, 64)
	for h := 0; h < s.numRanks; h++ {
		roots = roots[:0]
		// in file order, which LogGOPSim's (unstable) sort starts from
		for i := s.rankStart[h]; i < s.rankStart[h+1]; i++ {
			if u := s.place(int(i)); e.pend[u] == 0 {
				roots = append(room(roots, 1), s.withKind(u))
			}
		}
		sortBy(roots, byKind{})
		for _, op := range roots {
			e.handle(item{time: 0, ts: ts, op: op & offMask, host: uint32(h)})
			ts++
		}
		if e.stopped != nil {
			return
		}
	}
	// Below half a million operations the schedule stays in the caches
	// and prefetching only costs.
	pf := prefetch.Works && s.NumOps() >= pfMinOps
	items := float64(s.NumOps() + s.sends)
	scattered, refills := false, -1
	for e.q.len() > 0 && e.stopped == nil {
		e.res.Pops++
		if e.pr != nil && e.res.Pops%progressEvery == 0 {
			if err := e.pr.Report(float64(e.res.Pops) / items); err != nil {
				e.stopped = err
				return
			}
		}
		if q := &e.q; pf && len(q.back) == 0 && q.head+4*pfDist < len(q.b0) {
			if q.refills != refills {
				refills, scattered = q.refills, pfEvery || e.scattered(q.b0[q.head:])
				if scattered {
					e.pfBuckets++
				}
			}
			if scattered {
				e.prefetch(q.b0[q.head : q.head+4*pfDist+1])
			}
		}
		e.handle(e.q.pop())
	}
}

// scattered reports whether the items of a bucket touch ranks far apart
// one after the other. The schedule's layout (places.go) makes a
// collective's stage a sweep: item after item reads the next rank's
// operations and state, or a near one's (a butterfly's partner r ^ 2^k,
// a dissemination's r + 2^k), and the CPU's own prefetcher streams them
// in; prefetching there only costs (some 12 % of a butterfly of 2^17
// ranks). Where ranks jump (random partners, or a stage's items in the
// order the previous stage's random messages freed them), each item is a
// chain of misses and prefetching halves the run. So a sample of the
// bucket's neighbouring items decides: the rank an item works at (a
// message's receiver), and whether it lies more than 64 ranks from its
// predecessor's, in a quarter of the pairs or more.
func (e *exec) scattered(b []item) bool {
	const samples, near = 32, 64
	rank := func(it item) uint32 {
		if it.op&msgBit != 0 {
			return e.s.ops[it.op&^msgBit].peer
		}
		return it.host
	}
	if len(b) < 2*samples {
		return false
	}
	jumps := 0
	for k := range samples {
		// golden-ratio spacing: regular positions fall on a butterfly's
		// power-of-two boundaries, the few places its partners jump
		i := int(uint64(k+1) * 0x9e3779b97f4a7c15 >> 32 * uint64(len(b)-1) >> 32)
		a, c := rank(b[i]), rank(b[i+1])
		if max(a, c)-min(a, c) > near {
			jumps++
		}
	}
	return jumps >= samples/4
}

// prefetch starts loading what items a few places ahead in the queue's
// current bucket will touch: in a large schedule's scattered bucket
// (exec.scattered) each item's operation, dependents, rank state and
// matching recv are cache misses in a chain, and the bucket (every item due at one instant) is known in advance. So
// the chain is walked in stages, each reading only what the stage before
// it requested for the same item pfDist items earlier: the operation's
// line; then its dependents and its rank's slot (for a message the
// receiver's clocks and match queues); then the first dependent's count,
// or the posted recv at the head of the receiver's queue; then that
// recv's operation, which a message most likely matches.
func (e *exec) prefetch(b []item) {
	s := e.s
	// a wait group's token (wait.go) is no operation: its stages skip it
	if op := b[4*pfDist].op; !isToken(op) {
		prefetch.Line(&s.ops[op&^msgBit])
	}
	if it := b[3*pfDist]; !isToken(it.op) {
		o := &s.ops[it.op&^msgBit]
		h := it.host
		if it.op&msgBit != 0 {
			h = o.peer
		} else if d := o.off & offMask; int(d) < len(s.succ) {
			prefetch.Line(&s.succ[d])
		}
		prefetch.Line(&e.hs[int(h)*e.w])
	}
	if it := b[2*pfDist]; it.op&msgBit != 0 {
		if hq := e.hq(s.ops[it.op&^msgBit].peer); hq.rqFirst < hq.rqEnd {
			prefetch.Line(&e.rqKey[hq.rqFirst])
		}
	} else if !isToken(it.op) {
		if d := s.ops[it.op].off & offMask; d < s.ops[it.op+1].off&offMask {
			prefetch.Line(&e.pend[s.succ[d]&^startDep])
		}
	}
	if it := b[pfDist]; it.op&msgBit != 0 {
		o := &s.ops[it.op&^msgBit]
		hq := e.hq(o.peer)
		k := rqKeyOf(it.host, o.tag)
		for i, x := range e.rqKey[hq.rqFirst:hq.rqEnd] {
			if keyMayMatch(x, k) {
				if r := e.rq[int(hq.rqFirst)+i]; r != taken {
					prefetch.Line(&s.ops[r])
					break
				}
			}
		}
	}
}

func (e *exec) newTS() uint32 {
	t := e.aqtime
	e.aqtime++
	return t
}

func (e *exec) handle(it item) {
	s := e.s
	h := it.host
	if it.op >= tokenBit {
		if it.op&msgBit != 0 {
			e.message(it)
		} else {
			e.token(it)
		}
		return
	}
	op := it.op
	c := int(h)*e.w + int(s.cpu(op))
	switch s.kind(op) {
	case Calc:
		if e.hs[c].o > it.time {
			it.time = e.hs[c].o
			if e.rec {
				e.cause[op] = e.cpuBy[c]
			}
			e.wait(it, waitCalc, c, c)
			return
		}
		size := s.size(op)
		if e.checked && !e.checkCalc(h, op, it.time, size, 0) {
			return
		}
		stall := e.stall(h, it.time, it.time+size)
		if e.checked && !e.checkCalc(h, op, it.time, size, stall) {
			return
		}
		e.hs[c].o = it.time + size + stall
		e.issued++
		if e.rec {
			r := &e.tl.Ops[e.ix[op]]
			r.Issue, r.Start, r.End, r.Stall, r.Done = int64(it.time), int64(it.time), int64(it.time+size), int64(stall), int64(it.time)
			e.cpuBy[c] = cause{kind: CritCPU, id: int32(op)}
		}
		for _, d := range s.deps(op) { // started and done at once
			e.dec(h, d&^startDep)
		}
		e.release()
	case Send:
		nc := int(h)*e.w + int(s.nic(op))
		if t := max(e.hs[c].o, e.hs[nc].gs); t > it.time {
			it.time = t
			if e.rec {
				e.cause[op] = e.bind(c, nc)
			}
			e.wait(it, waitSend, c, nc)
			return
		}
		e.markStarted(h, op)
		size := s.size(op)
		t := it.time
		stall := e.stall(h, t, t+e.o)
		delay := uint64(0)
		if e.nz.net != nil {
			delay = e.nz.flight(h, t+e.o, e.L)
		}
		if e.checked && !e.checkSend(h, op, t, size, stall, delay) {
			return
		}
		e.hs[c].o = t + e.o + (size-1)*e.O + stall
		e.hs[nc].gs = t + e.g + (size-1)*e.G
		peer := s.ops[op].peer
		arrive := t + e.o + e.L + delay
		e.issued++
		e.res.Messages++
		if e.rec {
			r := &e.tl.Ops[e.ix[op]]
			r.Issue, r.Start, r.End, r.Stall = int64(t), int64(t), int64(t+e.o+(size-1)*e.O), int64(stall)
			m := int32(len(e.tl.Messages))
			r.Msg = m
			e.msgOf[op] = m
			e.tl.Messages = append(e.tl.Messages, MsgRecord{Send: int32(e.ix[op]), Recv: -1, From: int32(h), To: int32(peer),
				Bytes: size, Tag: s.ops[op].tag, Sent: int64(t), Arrive: int64(arrive), Taken: -1, Matched: -1,
				Delay: int64(delay), Rendezvous: size > e.S})
			e.mcause = append(e.mcause, cause{kind: CritFlight, id: m})
			e.cpuBy[c] = cause{kind: CritCPU, id: int32(op)}
			e.gsBy[nc] = cause{kind: CritGap, id: int32(op)}
		}
		e.q.push(item{time: arrive, ts: e.newTS(), op: op | msgBit, host: h})
		if size <= e.S {
			if e.rec {
				e.tl.Ops[e.ix[op]].Done = int64(t)
			}
			e.markDone(h, op)
		}
		e.release()
	case Recv:
		e.markStarted(h, op)
		e.issued++
		if e.rec {
			e.tl.Ops[e.ix[op]].Issue = int64(it.time)
		}
		if q, ok := e.takeMsg(h, s.ops[op].peer, s.ops[op].tag); ok {
			// the message j (a send op) arrived before: match it now
			j, src := q.op, q.src
			if s.size(op) > e.S { // rendezvous, decided by the recv's size as in LogGOPSim
				e.markDone(src, j)
				sc := int(src)*e.w + int(s.cpu(op))
				sn := int(src)*e.w + int(s.nic(op))
				e.bump(sc, sn, it.time, j)
			}
			if e.rec {
				e.matchRecord(j, op, it.time, true)
			}
			e.markDone(h, op)
		} else {
			e.postRecv(h, op)
			if hasBit(e.pIndexed, h) {
				e.indexPost(h)
			}
		}
		e.release()
	}
}

// bind is what set max(nexto, nextgs): the CPU unless the NIC is later.
func (e *exec) bind(c, nc int) cause {
	if e.hs[nc].gs > e.hs[c].o {
		return e.gsBy[nc]
	}
	return e.cpuBy[c]
}

// bump is LogGOPSim's release of a rendezvous sender at time t: its
// clocks move up to t (at the CPU and NIC indices LogGOPSim uses).
func (e *exec) bump(sc, sn int, t uint64, send uint32) {
	if e.hs[sc].o < t {
		e.hs[sc].o = t
		if e.rec {
			e.cpuBy[sc] = cause{kind: CritRendezvous, id: e.msgOf[send]}
		}
	}
	if e.hs[sn].gs < t {
		e.hs[sn].gs = t
		if e.rec {
			e.gsBy[sn] = cause{kind: CritRendezvous, id: e.msgOf[send]}
		}
	}
	if e.rec {
		e.tl.Ops[e.ix[send]].Done = int64(t)
	}
}

// message handles a message item: the message of send op at its
// receiver, LogGOPSim's OP_MSG.
func (e *exec) message(it item) {
	s := e.s
	op := it.op &^ msgBit
	src := it.host
	dst := s.ops[op].peer
	// LogGOPSim charges the receive at the receiver's CPU and NIC with
	// the sender's indices (the item keeps the send's proc and nic).
	c := int(dst)*e.w + int(s.cpu(op))
	nc := int(dst)*e.w + int(s.nic(op))
	if t := max(e.hs[c].o, e.hs[nc].gr); t > it.time {
		it.time = t
		if e.rec {
			m := e.msgOf[op]
			if e.hs[nc].gr > e.hs[c].o {
				e.mcause[m] = e.grBy[nc]
			} else {
				e.mcause[m] = e.cpuBy[c]
			}
		}
		e.wait(it, waitMsg, c, nc)
		return
	}
	size := s.size(op)
	t := it.time
	stall := e.stall(dst, t, t+e.o)
	if e.checked && !e.checkTake(src, dst, op, t, size, stall) {
		return
	}
	busy := max((size-1)*e.O, (size-1)*e.G)
	e.hs[c].o = t + e.o + stall + busy
	e.hs[nc].gr = t + e.g + (size-1)*e.G
	if e.rec {
		m := e.msgOf[op]
		mr := &e.tl.Messages[m]
		mr.Taken, mr.Stall = int64(t), int64(stall)
		e.cpuBy[c] = cause{kind: CritReceive, id: m}
		e.grBy[nc] = cause{kind: CritGap, id: m, gapR: true}
	}
	if r, ok := e.takeRecv(dst, src, s.ops[op].tag); ok {
		if size > e.S {
			e.markDone(src, op)
			sc := int(src)*e.w + int(s.cpu(op))
			sn := int(src)*e.w + int(s.nic(op))
			e.bump(sc, sn, t, op)
		}
		if e.rec {
			e.matchRecord(op, r, t, false)
		}
		e.markDone(dst, r)
	} else {
		e.unexpected(dst, op, src)
	}
	e.release()
}

// matchRecord notes that message (send op j) met recv r at t.
func (e *exec) matchRecord(j, r uint32, t uint64, unexpected bool) {
	m := e.msgOf[j]
	mr := &e.tl.Messages[m]
	mr.Recv, mr.Matched, mr.Unexpected = int32(e.ix[r]), int64(t), unexpected
	rr := &e.tl.Ops[e.ix[r]]
	rr.Msg = m
	rr.Done = int64(t)
	size := e.s.size(j)
	rr.Start = mr.Taken
	rr.End = mr.Taken + int64(e.o+max((size-1)*e.O, (size-1)*e.G))
	rr.Stall = mr.Stall
}

func (e *exec) stall(h uint32, a, b uint64) uint64 {
	if !e.nz.on {
		return 0
	}
	st := e.nz.cpu(h, a, b)
	e.res.Stall += int64(st)
	return st
}

// markStarted releases what irequires op: in a schedule without
// irequires (most: Schedgen writes none for its collectives) nothing,
// without reading op's dependents.
func (e *exec) markStarted(h, op uint32) {
	if e.s.starts == 0 {
		return
	}
	for _, d := range e.s.deps(op) {
		if d&startDep != 0 {
			e.dec(h, d&^startDep)
		}
	}
}

func (e *exec) markDone(h, op uint32) {
	for _, d := range e.s.deps(op) {
		if d&startDep != 0 {
			continue
		}
		// the usual case in line: a count that stays above zero
		if p := e.pend[d]; p > 1 && p != pendBig {
			e.pend[d] = p - 1
			continue
		}
		e.dec(h, d)
	}
}

// pendBig marks an op whose dependency count lives in exec.big: one
// byte a count keeps 63 M operations' counters in 63 MB.
const pendBig = 255

func (e *exec) dec(h, j uint32) {
	if p := e.pend[j]; p != pendBig {
		if p == 0 {
			e.wrap(j)
			return
		}
		if p--; p == 0 {
			e.freed = append(room(e.freed, 1), freedOp{h, j})
		}
		e.pend[j] = p
		return
	}
	if c := e.big[j] - 1; c > 0 {
		e.big[j] = c
		return
	}
	delete(e.big, j)
	e.pend[j] = 0
	e.freed = append(room(e.freed, 1), freedOp{h, j})
}

// wrap is a dependency count going below zero: an eager send (done when
// issued) that a larger recv takes from the unexpected queue is marked
// done a second time (LogGOPSim decides rendezvous by the recv's size
// there), and LogGOPSim's unsigned 32-bit count wraps to 2^32-1, which
// no number of further dependencies brings back to zero: the op is never
// freed again.
func (e *exec) wrap(j uint32) {
	if e.big == nil {
		e.big = map[uint32]uint32{}
	}
	e.pend[j], e.big[j] = pendBig, math.MaxUint32
}

// release is LogGOPSim's check_hosts loop: per host in ascending order,
// its freed operations sorted by type with std::sort, each pushed with a
// new stamp at its CPU's (and for a send NIC's) next free time.
//
// Called after every item, it is small enough to be inlined: many items
// free nothing.
func (e *exec) release() {
	if len(e.freed) > 0 {
		e.releaseFreed()
	}
}

func (e *exec) releaseFreed() {
	if len(e.freed) == 1 { // the common case: no sort, one host
		e.push(e.freed[0].host, e.freed[0].op)
		e.freed = e.freed[:0]
		return
	}
	f := e.freed
	hosts := [2]uint32{f[0].host, f[0].host}
	for _, x := range f[1:] {
		if x.host != hosts[0] {
			hosts[1] = x.host
		}
	}
	if hosts[1] < hosts[0] {
		hosts[0], hosts[1] = hosts[1], hosts[0]
	}
	for k, h := range hosts {
		if k == 1 && h == hosts[0] {
			break
		}
		e.batch = e.batch[:0]
		for _, x := range f {
			if x.host == h {
				e.batch = append(room(e.batch, 1), e.s.withKind(x.op))
			}
		}
		sortBy(e.batch, byKind{})
		for _, op := range e.batch {
			e.push(h, op&offMask)
		}
	}
	e.freed = e.freed[:0]
}

// push queues a freed operation of host h at its CPU's (and for a send
// NIC's) next free time, with a new stamp.
func (e *exec) push(h, op uint32) {
	c := int(h)*e.w + int(e.s.cpu(op))
	t := e.hs[c].o
	if e.rec {
		e.cause[op] = e.cpuBy[c]
	}
	if e.s.kind(op) == Send {
		nc := int(h)*e.w + int(e.s.nic(op))
		if e.rec {
			e.cause[op] = e.bind(c, nc)
		}
		t = max(t, e.hs[nc].gs)
	}
	e.q.push(item{time: t, ts: e.newTS(), op: op, host: h})
}

func (e *exec) result() (*Result, error) {
	s := e.s
	res := e.res // a copy: the Executor's next run resets e.res
	r := &res
	r.Ops = e.issued
	r.Events = int64(e.aqtime)
	r.Pops += int64(s.roots)
	r.RankEnd = make([]int64, s.numRanks)
	var best uint64
	for h := range s.numRanks {
		var m uint64
		for c := range e.ncpu {
			m = max(m, e.hs[h*e.w+c].o)
		}
		r.RankEnd[h] = int64(m)
		if m > best {
			best, r.EndRank = m, h
		}
	}
	r.End = int64(best)
	if e.rec {
		r.Timeline = e.tl
		r.Critical = e.critical(r.EndRank)
	}
	var stuck *StuckError
	if int(e.issued) < s.NumOps() {
		stuck = &StuckError{NotRun: s.NumOps() - int(e.issued)}
	}
	for h := range s.numRanks {
		for i := e.hq(uint32(h)).rqFirst; i < e.hq(uint32(h)).rqEnd; i++ {
			if e.rq[i] == taken {
				continue
			}
			if stuck == nil {
				stuck = &StuckError{}
			}
			if len(stuck.Unmatched) < 5 {
				op := e.rq[i]
				stuck.Unmatched = append(stuck.Unmatched, fmt.Sprintf("rank %d %s: recv from %s tag %s", h, e.opName(op), wild(s.ops[op].peer), wild(s.ops[op].tag)))
			}
		}
		for n := e.hq(uint32(h)).uqHead; n != nilNode; n = e.upool[n].next {
			if stuck == nil {
				stuck = &StuckError{}
			}
			if len(stuck.Unmatched) < 5 {
				op := e.upool[n].op
				stuck.Unmatched = append(stuck.Unmatched, fmt.Sprintf("rank %d %s: send to %d tag %s never received", e.upool[n].src, e.opName(op), h, wild(s.ops[op].tag)))
			}
		}
	}
	if stuck != nil {
		return r, stuck
	}
	return r, nil
}

func (e *exec) opName(op uint32) string {
	i := e.s.index(op)
	if l := e.s.Label(i); l != "" {
		return l
	}
	first, _ := e.s.RankOps(e.s.RankOf(i))
	return fmt.Sprintf("op %d", i-first)
}

func wild(v uint32) string {
	if v == Any {
		return "-1"
	}
	return fmt.Sprint(v)
}

// IsStuck reports whether err is a *StuckError.
func IsStuck(err error) bool {
	var s *StuckError
	return errors.As(err, &s)
}

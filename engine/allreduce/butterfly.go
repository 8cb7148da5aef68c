package allreduce

import (
	"fmt"
	"math"
	"math/rand/v2"

	"commlab/engine/noise"
	"commlab/engine/trace"
)

// MaxTraceP is the largest P for which Run records a trace: a trace holds
// about 8·P·K records, and the animation draws P ≤ 64 in full and larger P
// as heat strips.
const MaxTraceP = 1 << 12

// blockBits sets the cache blocking: 2^13 processes of 32 bytes are 256 KiB,
// half of this machine's per-core L2, so a block stays resident while the
// kernel runs up to 13 stages over it.
const blockBits = 13

// proc is one process's state. 32 bytes: two processes per cache line.
type proc struct {
	f   float64      // f_i^(k) during the butterfly, g_i^(j) during the redundant exchanges
	w   float64      // start of the next OS-jitter window that may still matter
	net noise.Cursor // network-noise cursor of this process's port
}

// Result is one trial's outcome.
type Result struct {
	// ByT[T] is the allreduce time with T redundant exchanges,
	// max_i g_i^(T), for T = 0..Params.T. ByT[0] is the conventional
	// butterfly's time max_i f_i^(K).
	ByT []float64 `json:"by_T"`
	// StageEnd[k-1] is the time the last process finished butterfly stage k.
	StageEnd []float64 `json:"stage_end"`
}

// Conventional is the butterfly's allreduce time, ByT[0].
func (r Result) Conventional() float64 { return r.ByT[0] }

// Simulator runs trials and keeps its buffers between them, so a sweep
// worker allocates its process state once. The zero value is ready to use;
// a Simulator must not be used by two goroutines at once.
type Simulator struct {
	procs []proc
	stage []float64 // per-stage maxima: conventional 1..K, then redundant 1..T
}

// Run simulates one trial. The noise of the trial is drawn from rng (two
// words; everything else is a pure function of them). If rec is non-nil it
// is reset and filled with the trial's trace (P ≤ MaxTraceP); the numbers
// do not depend on whether a trace is recorded.
func (s *Simulator) Run(p Params, rng *rand.Rand, rec *trace.Trace) (Result, error) {
	if err := p.Validate(); err != nil {
		return Result{}, err
	}
	if rec != nil && p.P > MaxTraceP {
		return Result{}, &RangeError{"P", fmt.Sprint(p.P), fmt.Sprintf("at most %d when recording a trace", MaxTraceP)}
	}
	key := noise.NewKey(rng)
	var osn *noise.Periodic
	var net *noise.Poisson
	var err error
	if p.OSJitter {
		if osn, err = noise.NewPeriodic(p.Period, p.Duration, p.CoScheduled, key); err != nil {
			return Result{}, err
		}
	}
	if p.NetNoise {
		if net, err = noise.NewPoisson(p.Period, p.Duration, p.Tcomm(), key); err != nil {
			return Result{}, err
		}
	}
	return s.run(p, osn, net, rec), nil
}

// run is Run after validation, with the noise models given (nil = off).
// Tests call it with hand-placed OS windows.
func (s *Simulator) run(p Params, osn *noise.Periodic, net *noise.Poisson, rec *trace.Trace) Result {
	k := p.K()
	if cap(s.procs) < p.P {
		s.procs = make([]proc, p.P)
	}
	ps := s.procs[:p.P]
	for i := range ps {
		w := math.Inf(1) // no window ever
		if osn != nil {
			w = osn.FirstWindow(i)
		}
		c := noise.Quiet()
		if net != nil {
			c = net.Start(i)
		}
		ps[i] = proc{w: w, net: c}
	}
	s.stage = append(s.stage[:0], make([]float64, k+p.T)...) // zeroed maxima
	if rec != nil {
		*rec = *trace.New("allreduce", p.P, func(i int) string { return fmt.Sprintf("P%d", i) })
	}
	kern := kernel{ps: ps, osn: osn, net: net, rec: rec, tcomm: p.Tcomm(), work: p.Work(), overhead: p.SendOverhead, k: k}

	// Conventional stages 1..K, then redundant exchanges 1..T, each in
	// cache-sized blocks (see the package doc).
	kern.passes(1, k, 0, s.stage[:k])
	kern.passes(1, p.T, k, s.stage[k:])

	res := Result{ByT: make([]float64, p.T+1), StageEnd: append([]float64(nil), s.stage[:k]...)}
	res.ByT[0] = s.stage[k-1]
	copy(res.ByT[1:], s.stage[k:])
	if rec != nil {
		for i := range ps {
			rec.AddMarker(i, ps[i].f, "final result")
		}
		rec.Sort()
	}
	return res
}

// kernel carries one trial's constants through the stage loops.
type kernel struct {
	ps       []proc
	osn      *noise.Periodic // nil: no OS jitter
	net      *noise.Poisson  // nil: no network noise
	rec      *trace.Trace    // nil: no trace
	tcomm    float64
	work     float64
	overhead float64
	k        int
}

// passes runs stages lo..hi (partner i XOR 2^(stage-1)) of the butterfly
// (offset 0) or of the redundant exchanges (offset K), blocked: first the
// stages up to blockBits inside contiguous blocks, then the higher stages
// inside blocks that fix the middle bits and keep runs of 2^c consecutive
// processes together. maxima[stage-1] receives each stage's latest time.
func (kn *kernel) passes(lo, hi, offset int, maxima []float64) {
	n := len(kn.ps)
	low := min(hi, blockBits, kn.k)
	if lo <= low {
		size := min(n, 1<<blockBits)
		for base := 0; base < n; base += size {
			for st := lo; st <= low; st++ {
				// runs of m = 2^(st-1) processes every 2m
				m := 1 << (st - 1)
				kn.stage(st, offset, maxima, runs{base: base, nruns: size / (2 * m), len: m, zb: 0, sh: st - 1})
			}
		}
	}
	if hi <= low {
		return
	}
	// Stages low+1..hi flip bits low..hi-1. A block fixes bits c..low-1
	// and the bits ≥ hi, and lets the c lowest bits and the flipped bits
	// vary: 2^(c + hi-low) processes, at most 2^blockBits.
	flip := hi - low
	c := min(low, max(blockBits-flip, 0))
	for top := 0; top < n; top += 1 << hi {
		for mid := 0; mid < 1<<(low-c); mid++ {
			for st := low + 1; st <= hi; st++ {
				// runs of 2^c processes, one per value of the flipped
				// bits whose stage bit is clear
				kn.stage(st, offset, maxima, runs{base: top | mid<<c, nruns: 1 << (flip - 1), len: 1 << c, zb: st - 1 - low, sh: low})
			}
		}
	}
}

// runs describes where the lower members of a stage's pairs lie in a
// block: nruns runs of len consecutive processes; run r starts at
// base + insert0(r, zb)<<sh, where insert0 puts a zero bit at position zb
// (the stage bit, which the lower member of a pair has clear).
type runs struct{ base, nruns, len, zb, sh int }

func (rs runs) start(r int) int {
	return rs.base + ((r>>rs.zb)<<(rs.zb+1)|r&(1<<rs.zb-1))<<rs.sh
}

// stage runs one stage over the pairs (i, i+2^(st-1)) whose lower members
// rs lists.
func (kn *kernel) stage(st, offset int, maxima []float64, rs runs) {
	if offset == 0 {
		maxima[st-1] = kn.butterflyStage(st, maxima[st-1], rs)
	} else {
		maxima[st-1] = kn.redundantStage(st, maxima[st-1], rs)
	}
}

// butterflyStage is stage st of the butterfly. The loop is only the clean
// case (no network noise in either flight, no OS window in either
// reduction, no trace); every other pair goes through butterflyPair. mx is
// the latest finish so far; the new one is returned.
//
// A port's butterfly sends only move forward in time, and its cursor's At
// is one of its earlier sends (or 0), so checking the flight's end against
// the cursor's Next is enough here.
func (kn *kernel) butterflyStage(st int, mx float64, rs runs) float64 {
	ps := kn.ps
	m := 1 << (st - 1)
	work, tcomm := kn.work, kn.tcomm
	slow := kn.rec != nil
	for r := range rs.nruns {
		lo := rs.start(r)
		for i := lo; i < lo+rs.len; i++ {
			a, b := &ps[i], &ps[i+m]
			fa, fb := a.f, b.f
			// eq. (1) without noise, eq. (2) without jitter. max is the
			// builtin on purpose: it compiles to a branch-free MAXSD
			// sequence, where an if would mispredict once jitter makes
			// the times differ (that cost 2-3 ns/update).
			arrA, arrB := fb+tcomm, fa+tcomm
			ea, eb := max(fa, arrA)+work, max(fb, arrB)+work
			if slow || arrA > b.net.Next || arrB > a.net.Next || ea > a.w || eb > b.w {
				ea, eb = kn.butterflyPair(st, i, i+m)
			}
			a.f, b.f = ea, eb
			// New maxima are rare in a pass, so this branch predicts well
			// and is cheaper than two more builtin max.
			if ea > mx {
				mx = ea
			}
			if eb > mx {
				mx = eb
			}
		}
	}
	return mx
}

// butterflyPair is the general pair update of stage st: network noise on
// both messages, OS jitter on both reductions, and the trace when recording.
// It returns the pair's new finish times and leaves the noise cursors advanced.
//
//go:noinline
func (kn *kernel) butterflyPair(st, i, j int) (fi, fj float64) {
	a, b := &kn.ps[i], &kn.ps[j]
	tcomm := kn.tcomm
	var di, dj float64 // noise delays of the messages to i and to j
	if kn.net != nil {
		di = kn.net.FlightDelay(&b.net, j, b.f, tcomm)
		dj = kn.net.FlightDelay(&a.net, i, a.f, tcomm)
	}
	arrI, arrJ := b.f+tcomm+di, a.f+tcomm+dj
	si, sj := max(a.f, arrI), max(b.f, arrJ)
	if kn.rec != nil {
		kn.recordStage(st, i, j, a.f, b.f, arrI, arrJ, di, dj, si, sj)
		return a.f, b.f
	}
	if kn.osn == nil {
		return si + kn.work, sj + kn.work
	}
	return kn.osn.Finish(&a.w, si, kn.work), kn.osn.Finish(&b.w, sj, kn.work)
}

// redundantStage is redundant exchange st: every process forwards the
// earliest final result it holds and adopts the earliest it sees. No
// reduction and no OS jitter; network noise applies (paper 4.1.2 B).
// Unlike the butterfly's, these sends can go back in time (a process that
// adopted an early copy forwards it), so the cursor check is complete.
func (kn *kernel) redundantStage(st int, mx float64, rs runs) float64 {
	ps := kn.ps
	m := 1 << (st - 1)
	flight := kn.overhead + kn.tcomm
	slow := kn.rec != nil
	for r := range rs.nruns {
		lo := rs.start(r)
		for i := lo; i < lo+rs.len; i++ {
			a, b := &ps[i], &ps[i+m]
			ga, gb := a.f, b.f
			arrA, arrB := gb+flight, ga+flight
			if slow || !(gb >= b.net.At && arrA <= b.net.Next) || !(ga >= a.net.At && arrB <= a.net.Next) {
				arrA, arrB = kn.redundantPair(st, i, i+m)
			}
			na, nb := min(ga, arrA), min(gb, arrB)
			a.f, b.f = na, nb
			if na > mx {
				mx = na
			}
			if nb > mx {
				mx = nb
			}
		}
	}
	return mx
}

// redundantPair returns the arrival times of the two copies exchanged by
// the pair (i, j) with network noise, recording them when tracing.
//
//go:noinline
func (kn *kernel) redundantPair(st, i, j int) (arrI, arrJ float64) {
	a, b := &kn.ps[i], &kn.ps[j]
	flight := kn.overhead + kn.tcomm
	var di, dj float64
	if kn.net != nil {
		di = kn.net.FlightDelay(&b.net, j, b.f, flight)
		dj = kn.net.FlightDelay(&a.net, i, a.f, flight)
	}
	arrI, arrJ = b.f+flight+di, a.f+flight+dj
	if kn.rec != nil {
		kn.recordRedundant(st, i, j, a.f, b.f, arrI, arrJ, di, dj)
	}
	return arrI, arrJ
}

// recordStage finishes a butterfly stage for the pair (i, j) while
// recording it: the two messages, each side's wait for its partner, and its
// reduction split around OS-jitter stalls.
func (kn *kernel) recordStage(st, i, j int, fi, fj, arrI, arrJ, dI, dJ, si, sj float64) {
	rec := kn.rec
	rec.AddMessage(trace.Message{From: j, To: i, Send: fj, Arrive: arrI, Step: st, Class: "butterfly", Delay: dI, Used: true})
	rec.AddMessage(trace.Message{From: i, To: j, Send: fi, Arrive: arrJ, Step: st, Class: "butterfly", Delay: dJ, Used: true})
	for _, side := range [2]struct {
		p     int
		f, s0 float64
	}{{i, fi, si}, {j, fj, sj}} {
		pr := &kn.ps[side.p]
		rec.AddSpan(side.p, trace.Idle, side.f, side.s0, st, "wait for partner")
		seg := func(a, b float64, working bool) {
			if working {
				rec.AddSpan(side.p, trace.Compute, a, b, st, "reduce")
			} else {
				rec.AddSpan(side.p, trace.Stall, a, b, st, "OS jitter")
			}
		}
		if kn.osn != nil {
			pr.f = kn.osn.FinishSegments(&pr.w, side.s0, kn.work, seg)
		} else {
			pr.f = side.s0 + kn.work
			seg(side.s0, pr.f, true)
		}
	}
}

// recordRedundant records redundant exchange st for the pair (i, j), whose
// copies arrived at arrI and arrJ; a.f and b.f already hold the adopted times.
func (kn *kernel) recordRedundant(st, i, j int, gi, gj, arrI, arrJ, dI, dJ float64) {
	rec := kn.rec
	step := kn.k + st
	rec.AddMessage(trace.Message{From: j, To: i, Send: gj, Arrive: arrI, Step: step, Class: "redundant", Delay: dI, Used: arrI < gi})
	rec.AddMessage(trace.Message{From: i, To: j, Send: gi, Arrive: arrJ, Step: step, Class: "redundant", Delay: dJ, Used: arrJ < gj})
	if arrI < gi {
		rec.AddMarker(i, arrI, fmt.Sprintf("adopts copy from P%d (exchange %d)", j, st))
	}
	if arrJ < gj {
		rec.AddMarker(j, arrJ, fmt.Sprintf("adopts copy from P%d (exchange %d)", i, st))
	}
}

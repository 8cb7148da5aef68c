package allreduce

import (
	"fmt"
	"math"
	"math/rand/v2"

	"commlab/engine/noise"
	"commlab/engine/param"
	"commlab/engine/progress"
	"commlab/engine/trace"
)

// MaxTraceP is the largest P for which Run records a trace: a trace holds
// about 8·P·K records, and the animation draws P ≤ 64 in full and larger P
// as heat strips.
const MaxTraceP = 1 << 12

// blockBits sets the cache blocking: 2^13 processes of 24 bytes are 192 KiB,
// well inside this machine's 512 KiB per-core L2, so a block stays resident
// while the kernel runs up to 13 stages over it.
const blockBits = 13

// proc is the state the stage loops touch for every pair.
type proc struct {
	f float64 // f_i^(k) during the butterfly, g_i^(j) during the redundant exchanges
	// lim bounds where the fast path is exact. In the butterfly a message
	// sent at or before lim meets no network noise; in the redundant
	// exchanges a copy sent after w and arriving (without noise) at or
	// before lim met none. See kernel.
	lim float64
	// w is, in the butterfly, the start of the next OS-jitter window that
	// may still matter; in the redundant exchanges, the start (exclusive)
	// of the quiet interval that ends at lim.
	w float64
}

// noiseState is a process's network-noise bookkeeping, read only off the
// fast path (40 bytes; with proc, 64 bytes a process: 1 GiB at P = 2^24).
// The butterfly keeps its port's cursor in net; toRedundant reads it and
// then reuses the words (see events).
type noiseState struct {
	net   noise.Cursor // butterfly: network-noise cursor of this process's port
	reach float64      // redundant exchanges: see events
}

// events returns what the redundant exchanges know of the port: its first
// two noise events from l0 on, and reach, past the end of any flight the
// process can send. An event value at or past reach is only a bound: the
// port has no event before it.
func (ns *noiseState) events() (e1, e2, reach float64) { return ns.net.At, ns.net.Next, ns.reach }

func (ns *noiseState) setEvents(e1, e2, reach float64) {
	ns.net.At, ns.net.Next, ns.reach = e1, e2, reach
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
	// Progress, if set, hears the fraction of a trial done after each
	// stage of each cache block (2^blockBits processes at most, a
	// millisecond or so without noise), and stops the trial when it
	// returns an error, which Run returns. The numbers do not depend on
	// it.
	Progress progress.Func

	err   error // what Progress returned, for Run
	procs []proc
	noise []noiseState
	slow  []int32   // the kernel's list of deferred pairs, one block's worth
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
		return Result{}, &param.Error{Field: "P", Value: fmt.Sprint(p.P), Want: fmt.Sprintf("at most %d when recording a trace", MaxTraceP)}
	}
	osn, net, err := noiseModels(p, noise.NewKey(rng))
	if err != nil {
		return Result{}, err
	}
	res := s.run(p, osn, net, rec)
	if err := s.err; err != nil {
		s.err = nil
		return Result{}, err
	}
	return res, nil
}

// noiseModels builds a trial's jitter from its key (nil = off). Every
// reading of a trial draws from the same key in the same way: the OS
// phases are the same whatever os_phase and os_hits say, and the network
// events the same whatever the OS readings say (net_wait changes their
// rate, so their times), which is what lets the readings of a cell share
// their random numbers.
func noiseModels(p Params, key noise.Key) (osn *noise.Periodic, net *noise.Poisson, err error) {
	if p.OSJitter {
		if osn, err = noise.NewPeriodic(p.Period, p.Duration, onsets[p.OSPhase], p.CoScheduled, key); err != nil {
			return nil, nil, err
		}
		osn.Hits = osHits[p.OSHits]
	}
	if p.NetNoise {
		if net, err = noise.NewPoisson(p.NetMean(), p.Duration, p.NoJitterTime(), key); err != nil {
			return nil, nil, err
		}
	}
	return osn, net, nil
}

// onsets maps the model's OSPhase to the noise package's Onset.
var onsets = [...]noise.Onset{PhaseFirst: noise.FirstAtPhase, PhaseStationary: noise.Stationary}

// osHits maps the model's OSHits to the noise package's Hits.
var osHits = [...]noise.Hits{HitsWall: noise.HitsWall, HitsCompute: noise.HitsCompute}

// run is Run after validation, with the noise models given (nil = off).
// Tests call it with hand-placed OS windows.
func (s *Simulator) run(p Params, osn *noise.Periodic, net *noise.Poisson, rec *trace.Trace) Result {
	k := p.K()
	if cap(s.procs) < p.P {
		s.procs, s.noise = make([]proc, p.P), make([]noiseState, p.P)
	}
	if s.slow == nil {
		s.slow = make([]int32, 1<<(blockBits-1)) // pairs in one stage of one block
	}
	kn := kernel{ps: s.procs[:p.P], ns: s.noise[:p.P], osn: osn, net: net, rec: rec, slow: s.slow,
		tcomm: p.Tcomm(), work: p.Work(), overhead: p.SendOverhead, k: k,
		progress: s.Progress, updates: float64(p.P) * float64(k+p.T)}
	if rec != nil {
		// Sorting the trace takes longer than the stages that record it.
		kn.progress = s.Progress.Part(0, tracedStages)
	}
	// The jitter-free time bounds every finish from below; a few times it
	// is where the noise cursors stop looking ahead at the start.
	noJitter := p.NoJitterTime()
	kn.horizon = 4 * noJitter
	s.stage = append(s.stage[:0], make([]float64, k+p.T)...) // zeroed maxima
	if rec != nil {
		*rec = *trace.New("allreduce", p.P, func(i int) string { return fmt.Sprintf("P%d", i) })
		// Reserve what a run records (a message per process and stage or
		// exchange; a wait and a reduction per process and stage; the final
		// marks): growing these slices cost a third of a traced run.
		rec.Messages = make([]trace.Message, 0, p.P*(k+p.T))
		rec.Spans = make([]trace.Span, 0, spanCap(p))
		rec.Markers = make([]trace.Marker, 0, 2*p.P)
	}

	// Conventional stages 1..K, then redundant exchanges 1..T, each in
	// cache-sized blocks (see the package doc).
	// Each phase's setup runs block by block inside its first pass, while
	// the block is in cache, instead of as a pass of its own through memory.
	kn.passes(1, k, 0, s.stage[:k], kn.start)
	if p.T > 0 && kn.err == nil {
		kn.l0 = float64(noJitter * (1 - 1e-9))
		kn.passes(1, p.T, k, s.stage[k:], kn.toRedundant)
	}
	if kn.err != nil {
		s.err = kn.err
		return Result{}
	}

	res := Result{ByT: make([]float64, p.T+1), StageEnd: append([]float64(nil), s.stage[:k]...)}
	res.ByT[0] = s.stage[k-1]
	copy(res.ByT[1:], s.stage[k:])
	if rec != nil {
		for i, pr := range kn.ps {
			rec.AddMarker(i, pr.f, "final result")
		}
		if err := rec.SortProgress(s.Progress.Part(tracedStages, 1)); err != nil {
			s.err = err
			return Result{}
		}
	}
	return res
}

// tracedStages is the share of a traced trial's time in its stages, for
// Simulator.Progress; sorting the trace takes the rest.
const tracedStages = 0.4

// kernel carries one trial's constants through the stage loops.
//
// The loops do only the clean case, where neither message of a pair meets
// network noise and neither reduction meets an OS window, and check it
// against proc.lim and proc.w (two comparisons per process). Every other pair is
// collected and done afterwards by the general code, which is valid because
// a pair's update reads only the pair's own state; it also keeps the loops
// free of calls, so their values stay in registers.
type kernel struct {
	ps       []proc
	ns       []noiseState
	osn      *noise.Periodic // nil: no OS jitter
	net      *noise.Poisson  // nil: no network noise
	rec      *trace.Trace    // nil: no trace
	slow     []int32         // lower members of the pairs a stage left for the general path
	tcomm    float64
	work     float64
	overhead float64
	k        int
	horizon  float64 // how far the start-up cursors look ahead
	l0       float64 // lower bound of every finish (see toRedundant)

	progress progress.Func // Simulator.Progress
	updates  float64       // P·(K+T), the process-stages of a trial
	done     float64       // process-stages done so far
	err      error         // what progress returned; the passes stop
}

// advance counts n process-stages done and tells progress; false means
// the trial is to stop (kn.err says why).
func (kn *kernel) advance(n int) bool {
	if kn.progress == nil {
		return true
	}
	kn.done += float64(n)
	if err := kn.progress(kn.done / kn.updates); err != nil {
		kn.err = err
		return false
	}
	return true
}

// start sets up processes lo..hi-1 for the butterfly: no result yet, the
// first OS window, a network cursor from time 0. It runs once per process
// and trial, so it is kept lean: constants hoisted, sub-slices for the block.
func (kn *kernel) start(lo, hi int) {
	ps, ns := kn.ps[lo:hi], kn.ns[lo:hi]
	ns = ns[:len(ps)]
	quiet := noise.Quiet()
	inf := math.Inf(1)
	horizon := kn.horizon
	if kn.net != nil {
		// Look ahead a few buckets at most: when the run is much longer
		// than that, the slow path extends the cursor anyway.
		horizon = min(horizon, 4*kn.net.W)
	}
	for j := range ps {
		w, c := inf, quiet
		if kn.osn != nil {
			w = kn.osn.FirstWindow(lo + j)
		}
		if kn.net != nil {
			c = kn.net.QuietFrom(lo+j, 0, horizon)
		}
		ns[j].net = c
		ps[j] = proc{lim: sendLim(c.Next, kn.tcomm), w: w}
	}
}

// maxTime is max for the stage loops' times, which are never NaN, -0 or
// negative. For such floats the IEEE 754 bit patterns order as the values
// do, so an integer max (a compare and a conditional move) is exact; the
// builtin float max must also handle NaN and ±0, and on amd64 it compiles
// to about ten instructions (negations around two MINSDs), a fifth of the
// butterfly loop. The builtin min is only a few instructions and stays.
func maxTime(a, b float64) float64 {
	return math.Float64frombits(max(math.Float64bits(a), math.Float64bits(b)))
}

// sendLim is proc.lim during the butterfly: the latest send time whose
// message ends before the port's next noise event, next. Sends only move
// forward, so the cursor's At never matters here. The margin next·2^-50
// (more than four ulps of next) keeps f + Tcomm ≤ next exact despite
// rounding.
func sendLim(next, tcomm float64) float64 {
	if math.IsInf(next, 1) { // no noise ahead (Inf·2^-50 would make a NaN)
		return next
	}
	return next - tcomm - float64(next*0x1p-50)
}

// toRedundant prepares processes lo..hi-1 for the redundant exchanges.
// Every copy of the final result exists no earlier than l0 (the jitter-free
// time, less rounding), and process i sends copies only at times in
// [l0, f_i^K], so its port's first two noise events from l0 on decide every
// one of its flights short of bursts of three events. They are found here,
// once; (proc.w, proc.lim) becomes the quiet interval around the process's
// first send (see quietAround).
func (kn *kernel) toRedundant(lo, hi int) {
	ps, ns := kn.ps[lo:hi], kn.ns[lo:hi]
	ns = ns[:len(ps)]
	if kn.net == nil {
		for j := range ps {
			ps[j].w, ps[j].lim = math.Inf(-1), math.Inf(1)
		}
		return
	}
	net, l0 := kn.net, kn.l0
	// Far enough for a flight from a process's latest send and one extension.
	extra := kn.overhead + kn.tcomm + net.Delay
	for j := range ps {
		reach := ps[j].f + extra
		c := ns[j].net
		e1 := c.Next
		if !(c.At <= l0 && c.Next >= reach) { // the butterfly does not know enough
			from := l0
			if c.At <= l0 && c.Next > l0 {
				from = c.Next // quiet up to there already
			}
			e1 = net.Scan(lo+j, from, false, reach)
		}
		e2 := e1
		if e1 < reach {
			e2 = net.Scan(lo+j, e1, true, reach+net.Delay)
		}
		ns[j].setEvents(e1, e2, reach)
		ps[j].w, ps[j].lim = quietAround(ps[j].f, e1, e2)
	}
}

// passes runs stages lo..hi (partner i XOR 2^(stage-1)) of the butterfly
// (offset 0) or of the redundant exchanges (offset K), blocked: first the
// stages up to blockBits inside contiguous blocks, then the higher stages
// inside blocks that fix the middle bits and keep runs of 2^c consecutive
// processes together. maxima[stage-1] receives each stage's latest time.
// prepare(a, b) runs on each block of the first pass before its stages:
// the first pass visits every process once, block by block.
func (kn *kernel) passes(lo, hi, offset int, maxima []float64, prepare func(a, b int)) {
	n := len(kn.ps)
	low := min(hi, blockBits, kn.k)
	if lo <= low {
		size := min(n, 1<<blockBits)
		for base := 0; base < n; base += size {
			prepare(base, base+size)
			for st := lo; st <= low; st++ {
				m := 1 << (st - 1)
				if m < 8 { // one strided run over the block's lower members
					kn.stage(st, offset, maxima, runs{base: base, nruns: 1, len: size / 2, lowMask: m - 1})
				} else { // contiguous runs of m processes every 2m
					kn.stage(st, offset, maxima, runs{base: base, nruns: size / (2 * m), len: m, zb: 0, sh: st - 1, lowMask: -1})
				}
				if !kn.advance(size) {
					return
				}
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
				kn.stage(st, offset, maxima, runs{base: top | mid<<c, nruns: 1 << (flip - 1), len: 1 << c, zb: st - 1 - low, sh: low, lowMask: -1})
			}
			if !kn.advance(flip << (c + flip)) {
				return
			}
		}
	}
}

// runs describes where the lower members of a stage's pairs lie in a
// block: nruns runs, run r starting at base + insert0(r, zb)<<sh, where
// insert0 puts a zero bit at position zb (the stage bit, which the lower
// member of a pair has clear). Inside a run, pair q has its lower member at
// start + (q&lowMask | (q&^lowMask)<<1): with lowMask = m-1 that skips the
// upper members of a contiguous block (the first pass, one run per block),
// with lowMask = -1 the run is contiguous (the second pass).
type runs struct{ base, nruns, len, zb, sh, lowMask int }

func (rs runs) start(r int) int {
	zb, sh := uint(rs.zb)&63, uint(rs.sh)&63 // masked: no shift-range checks
	return rs.base + ((r>>zb)<<(zb+1)|r&(1<<zb-1))<<sh
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

// butterflyStage is stage st of the butterfly (see kernel for the fast
// path). mx is the latest finish so far; the new one is returned.
func (kn *kernel) butterflyStage(st int, mx float64, rs runs) float64 {
	m := 1 << (uint(st-1) & 63)
	n := 0
	for r := range rs.nruns {
		mx, n = butterflyRun(kn.ps, rs.start(r), rs.len, m, rs.lowMask, kn.tcomm, kn.work, mx, kn.slow, n, kn.rec != nil)
	}
	for _, i := range kn.slow[:n] {
		ea, eb := kn.butterflyPair(st, int(i), int(i)+m)
		mx = max(mx, ea, eb)
	}
	return mx
}

// butterflyRun is the fast path of a butterfly stage over one run of
// pairs (see runs): clean pairs are updated, the others appended to slow
// (n entries so far) for butterflyPair. It is a function of its own, with
// few live values, so that the compiler keeps the loop in registers.
func butterflyRun(ps []proc, start, npairs, m, lowMask int, tcomm, work, mx float64, slow []int32, n int, all bool) (float64, int) {
	if lowMask == -1 {
		return butterflyRunContiguous(ps[start:start+npairs], ps[start+m:start+m+npairs], start, tcomm, work, mx, slow, n, all)
	}
	if !all {
		if mx, n, ok := butterflyRunStrided(ps, start, npairs, m, tcomm, work, mx, slow, n); ok {
			return mx, n
		}
	}
	return butterflyRunStridedGo(ps, start, npairs, m, lowMask, tcomm, work, mx, slow, n, all)
}

// butterflyRunStridedGo is butterflyRun's loop over a strided run, the
// reference for the SSE2 sweeps on amd64 and the kernel elsewhere.
func butterflyRunStridedGo(ps []proc, start, npairs, m, lowMask int, tcomm, work, mx float64, slow []int32, n int, all bool) (float64, int) {
	for q := range npairs {
		i := start + (q&lowMask | (q&^lowMask)<<1)
		a, b := &ps[i], &ps[i+m]
		fa, fb := a.f, b.f
		// eq. (1) without noise, eq. (2) without jitter. max and min are
		// the builtins on purpose: they compile to branch-free sequences,
		// where an if on floats becomes a branch that mispredicts once
		// jitter makes the times differ (measured: 2-3 ns/update).
		arrA, arrB := fb+tcomm, fa+tcomm
		ea, eb := maxTime(fa, arrA)+work, maxTime(fb, arrB)+work
		if all || fa > a.lim || fb > b.lim || ea > a.w || eb > b.w {
			slow[n] = int32(i)
			n++
			continue
		}
		a.f, b.f = ea, eb
		// New maxima are rare in a pass: this branch predicts well and
		// costs a third of the builtin max.
		if ea > mx {
			mx = ea
		}
		if eb > mx {
			mx = eb
		}
	}
	return mx, n
}

// butterflyPair is the general pair update of stage st: network noise on
// both messages, OS jitter on both reductions, and the trace when recording.
// It stores the pair's new finish times and fast-path bounds and returns
// the finish times.
//
//go:noinline
func (kn *kernel) butterflyPair(st, i, j int) (fi, fj float64) {
	a, b := &kn.ps[i], &kn.ps[j]
	na, nb := &kn.ns[i], &kn.ns[j]
	tcomm := kn.tcomm
	var di, dj float64 // noise delays of the messages to i and to j
	if kn.net != nil {
		di = kn.net.FlightDelay(&nb.net, j, b.f, tcomm)
		dj = kn.net.FlightDelay(&na.net, i, a.f, tcomm)
	}
	arrI, arrJ := b.f+tcomm+di, a.f+tcomm+dj
	si, sj := max(a.f, arrI), max(b.f, arrJ)
	switch {
	case kn.rec != nil:
		fi, fj = kn.recordStage(st, i, j, a.f, b.f, arrI, arrJ, di, dj, si, sj)
	case kn.osn == nil:
		fi, fj = si+kn.work, sj+kn.work
	default:
		fi, fj = kn.osn.Finish(&a.w, si, kn.work), kn.osn.Finish(&b.w, sj, kn.work)
	}
	a.f, b.f = fi, fj
	// The processes' next sends are at fi and fj: the cursors may move
	// past the noise their last messages met.
	na.net.Advance(fi)
	nb.net.Advance(fj)
	a.lim, b.lim = sendLim(na.net.Next, kn.tcomm), sendLim(nb.net.Next, kn.tcomm)
	return fi, fj
}

// redundantStage is redundant exchange st: every process forwards the
// earliest final result it holds and adopts the earliest it sees. No
// reduction and no OS jitter; network noise applies (paper 4.1.2 B). See
// kernel for the fast path and toRedundant for lim.
func (kn *kernel) redundantStage(st int, mx float64, rs runs) float64 {
	m := 1 << (uint(st-1) & 63)
	n := 0
	for r := range rs.nruns {
		mx, n = redundantRun(kn.ps, rs.start(r), rs.len, m, rs.lowMask, kn.overhead+kn.tcomm, mx, kn.slow, n, kn.rec != nil)
	}
	ps := kn.ps
	for _, i := range kn.slow[:n] {
		a, b := &ps[i], &ps[int(i)+m]
		arrA, arrB := kn.redundantPair(st, int(i), int(i)+m)
		a.f, b.f = min(a.f, arrA), min(b.f, arrB)
		mx = max(mx, a.f, b.f)
	}
	return mx
}

// redundantRun is the fast path of a redundant exchange over one run of
// pairs, as butterflyRun is for the butterfly.
func redundantRun(ps []proc, start, npairs, m, lowMask int, flight, mx float64, slow []int32, n int, all bool) (float64, int) {
	if lowMask == -1 {
		return redundantRunContiguous(ps[start:start+npairs], ps[start+m:start+m+npairs], start, flight, mx, slow, n, all)
	}
	if !all {
		if mx, n, ok := redundantRunStrided(ps, start, npairs, m, flight, mx, slow, n); ok {
			return mx, n
		}
	}
	return redundantRunStridedGo(ps, start, npairs, m, lowMask, flight, mx, slow, n, all)
}

// redundantRunStridedGo is redundantRun's loop over a strided run, as
// butterflyRunStridedGo is butterflyRun's.
func redundantRunStridedGo(ps []proc, start, npairs, m, lowMask int, flight, mx float64, slow []int32, n int, all bool) (float64, int) {
	for q := range npairs {
		i := start + (q&lowMask | (q&^lowMask)<<1)
		a, b := &ps[i], &ps[i+m]
		ga, gb := a.f, b.f
		arrA, arrB := gb+flight, ga+flight
		if all || !(gb > b.w && arrA <= b.lim) || !(ga > a.w && arrB <= a.lim) {
			slow[n] = int32(i)
			n++
			continue
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
	return mx, n
}

// butterflyRunContiguousGo is butterflyRun over a contiguous run: pairs
// (pa[j], pb[j]), the lower member at index start+j. Sub-slices of equal
// length let the compiler drop the bounds checks and the index arithmetic.
// On amd64, butterflyRunContiguous runs it two pairs at a time in SSE2
// (butterfly_amd64.s); this is the reference, and the kernel elsewhere
// (wasm included).
//
// Its loop body repeats butterflyRun's on purpose, as redundantRunContiguous
// repeats redundantRun's: sharing the pair step through an inlined helper
// cost 4 % more instructions and 3-10 % more time (measured), and this loop
// is the one the benchmark targets. Change both bodies together;
// TestMatchesReference checks them against the plain recurrence.
func butterflyRunContiguousGo(pa, pb []proc, start int, tcomm, work, mx float64, slow []int32, n int, all bool) (float64, int) {
	pb = pb[:len(pa)]
	for j := range pa {
		a, b := &pa[j], &pb[j]
		fa, fb := a.f, b.f
		arrA, arrB := fb+tcomm, fa+tcomm
		ea, eb := maxTime(fa, arrA)+work, maxTime(fb, arrB)+work
		if all || fa > a.lim || fb > b.lim || ea > a.w || eb > b.w {
			slow[n] = int32(start + j)
			n++
			continue
		}
		a.f, b.f = ea, eb
		if ea > mx {
			mx = ea
		}
		if eb > mx {
			mx = eb
		}
	}
	return mx, n
}

// redundantRunContiguousGo is redundantRun over a contiguous run, as
// butterflyRunContiguousGo is for the butterfly.
func redundantRunContiguousGo(pa, pb []proc, start int, flight, mx float64, slow []int32, n int, all bool) (float64, int) {
	pb = pb[:len(pa)]
	for j := range pa {
		a, b := &pa[j], &pb[j]
		ga, gb := a.f, b.f
		arrA, arrB := gb+flight, ga+flight
		if all || !(gb > b.w && arrA <= b.lim) || !(ga > a.w && arrB <= a.lim) {
			slow[n] = int32(start + j)
			n++
			continue
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
	return mx, n
}

// redundantPair returns the arrival times of the two copies exchanged by
// the pair (i, j) with network noise, recording them when tracing. The
// cursors must keep knowing the ports from l0 on (see toRedundant): they
// are only extended forward, and a flight that meets an event is computed
// on a copy, since a query would move the copy to its own send time.
//
//go:noinline
func (kn *kernel) redundantPair(st, i, j int) (arrI, arrJ float64) {
	a, b := &kn.ps[i], &kn.ps[j]
	flight := kn.overhead + kn.tcomm
	var di, dj float64
	if kn.net != nil {
		di = kn.redundantDelay(j, b.f, flight)
		dj = kn.redundantDelay(i, a.f, flight)
	}
	arrI, arrJ = b.f+flight+di, a.f+flight+dj
	if kn.rec != nil {
		kn.recordRedundant(st, i, j, a.f, b.f, arrI, arrJ, di, dj)
	}
	return arrI, arrJ
}

// quietAround returns the quiet interval (lo, hi) of the port, known from
// its first two events e1 < e2 from l0 on, that holds a send at s: before
// e1 (lo = -Inf, every send is after l0) or between e1 and e2. A process's
// redundant sends only move back in time, so once its sends are before e1
// they stay there.
func quietAround(s, e1, e2 float64) (lo, hi float64) {
	if s > e1 {
		return e1, e2
	}
	return math.Inf(-1), e1
}

// redundantDelay is the noise delay of a redundant copy that process p
// sends at s, from the two events toRedundant found; only a flight that
// runs past both (a burst) scans the port again. It also moves the fast
// path's interval to the one around s.
func (kn *kernel) redundantDelay(p int, s, flight float64) float64 {
	e1, e2, reach := kn.ns[p].events()
	kn.ps[p].w, kn.ps[p].lim = quietAround(s, e1, e2)
	end, k := s+flight, 0
	for _, e := range [2]float64{e1, e2} {
		if e >= reach || e >= end { // a bound, or past the flight: done
			return float64(k) * kn.net.Delay
		}
		if e >= s {
			k++
			end += kn.net.Delay
		}
	}
	c := noise.Cursor{At: s, Next: s} // knows nothing: scans from s
	return kn.net.FlightDelay(&c, p, s, flight)
}

// recordStage finishes a butterfly stage for the pair (i, j) while
// recording it: the two messages, each side's wait for its partner, and its
// reduction split around OS-jitter stalls. It returns the finish times.
func (kn *kernel) recordStage(st, i, j int, fi, fj, arrI, arrJ, dI, dJ, si, sj float64) (float64, float64) {
	rec := kn.rec
	rec.AddMessage(trace.Message{From: j, To: i, Send: fj, Arrive: arrI, Step: st, Class: "butterfly", Delay: dI, Used: true})
	rec.AddMessage(trace.Message{From: i, To: j, Send: fi, Arrive: arrJ, Step: st, Class: "butterfly", Delay: dJ, Used: true})
	var ends [2]float64
	for n, side := range [2]struct {
		p     int
		f, s0 float64
	}{{i, fi, si}, {j, fj, sj}} {
		rec.AddSpan(side.p, trace.Idle, side.f, side.s0, st, "wait for partner")
		seg := func(a, b float64, working bool) {
			if working {
				rec.AddSpan(side.p, trace.Compute, a, b, st, "reduce")
			} else {
				rec.AddSpan(side.p, trace.Stall, a, b, st, "OS jitter")
			}
		}
		if kn.osn != nil {
			ends[n] = kn.osn.FinishSegments(&kn.ps[side.p].w, side.s0, kn.work, seg)
		} else {
			ends[n] = side.s0 + kn.work
			seg(side.s0, ends[n], true)
		}
	}
	return ends[0], ends[1]
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

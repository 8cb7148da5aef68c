package allreduce

import (
	"fmt"
	"math"
	"math/bits"
	"strconv"
	"strings"

	"commlab/engine/cost"
)

// Per-event engine times on the development machine (one core), measured
// by TestEstimateBoundsRun's timings (go test -run EstimateBounds -v
// ./engine/allreduce/ prints them):
//
//   - nsUpdate: one process-stage update on the fast path (the kernel's
//     2 ns, with the setup and the slow path's share of an ordinary run);
//   - nsWindow: one OS-jitter window the window cursor steps over;
//   - nsBucket: one noise bucket a flight scans, or one event it meets;
//   - nsRecord: one trace record (span, message or marker) written and
//     sorted;
//   - nsMet: one OS window met by a recorded reduction (split into a
//     stall and a compute span through a callback).
const (
	nsUpdate = 4
	nsWindow = 4
	nsBucket = 25
	nsRecord = 400
	nsMet    = 1000
)

// Sizes of what a run allocates, bytes.
const (
	procBytes    = 64 // proc + noiseState per process
	spanBytes    = 56 // trace.Span
	messageBytes = 72 // trace.Message
	markerBytes  = 32 // trace.Marker
)

// Estimate is the cost of one trial of p (recorded as a trace when traced),
// from p alone: it runs nothing. p must be valid.
//
// The work is the process-stage updates P·(K+T), plus the OS-jitter
// windows each process's cursor walks over (its run's length over period),
// plus the network-noise buckets and events the flights scan (a flight of
// length α+βN scans about flight/W buckets of width W ≥ mean/4 and meets
// flight/mean events); a trace keeps a message per process and stage,
// a wait and a reduction, and two spans per OS window that interrupts a
// reduction.
func Estimate(p Params, traced bool) cost.Cost {
	P, K, T := float64(p.P), float64(p.K()), float64(p.T)
	updates := P * (K + T)
	noJitter := p.NoJitterTime()
	var windows, met, buckets float64
	if p.OSJitter {
		// Every window up to the run's end (stretched by the stalls) is
		// stepped over once; the reductions meet (γN + d)/(period − d)
		// windows each (at most one when γN is short).
		gap := p.Period - p.Duration
		end := noJitter * p.Period / gap
		windows = P * (end/p.Period + K)
		met = P * K * (p.Work() + p.Duration) / gap
	}
	if p.NetNoise {
		mean := p.NetMean()
		w := min(max(noJitter/mean, 0.25), 1) * mean
		flight := p.Tcomm()
		red := flight + p.SendOverhead
		// A clean flight far shorter than the mean costs nothing extra; a
		// long one scans its buckets, and a delayed one its events too.
		buckets = P*K*(flight/w+flight/mean) + P*T*(red/w+red/mean)
	}
	events := updates + windows + buckets
	c := cost.Cost{
		Events:  events,
		Bytes:   procBytes*P + 64<<10,
		Seconds: (nsUpdate*updates + nsWindow*windows + nsBucket*buckets) * 1e-9,
	}
	if traced {
		msgs := P * (K + T)
		spans := 2*P*K + 2*met
		markers := P * (1 + T/2)
		c.Spans = msgs + spans + markers
		c.Bytes += messageBytes*msgs + spanBytes*float64(spanCap(p)) + (markerBytes+24)*markers
		c.Seconds += (nsRecord*c.Spans + nsMet*met) * 1e-9
	}
	c.Key, c.Why = explain(p, updates, windows, met, buckets, traced)
	c.Knobs = func() cost.Knobs { return Knobs(p, func(q Params) cost.Cost { return Estimate(q, traced) }) }
	return c
}

// explain names what drives the cost: the process-stage updates, or the
// jitter terms (OS windows stepped over, or recorded when traced, network
// noise scanned) when they outweigh them. The OS windows grow with
// 1/(period − duration), so with duration near period it is duration that
// drives them; the network noise grows with N (βN of flight) and with
// 1/period (or period, with net_wait=inverse).
func explain(p Params, updates, windows, met, buckets float64, traced bool) (key, why string) {
	pn := fmt.Sprintf("P = %d", p.P)
	recorded := 0.0
	if traced {
		recorded = 2 * met // a stall and a reduction span each
	}
	big := max(updates, windows, buckets, recorded)
	var parts []string
	osTerm := false
	switch {
	case recorded > updates && recorded >= windows:
		parts = append(parts, fmt.Sprintf("records about %s jitter windows", cost.Num(met)))
		osTerm = true
	case windows >= big/10 && windows > updates:
		parts = append(parts, fmt.Sprintf("steps over about %s jitter windows", cost.Num(windows)))
		osTerm = true
	}
	netTerm := buckets >= big/10 && buckets > updates
	if netTerm {
		parts = append(parts, fmt.Sprintf("scans about %s network-noise events and buckets (messages of α + βN = %s s, noise every %s s)", cost.Num(buckets), cost.Num(p.Tcomm()), cost.Num(p.NetMean())))
	}
	if len(parts) == 0 {
		why = fmt.Sprintf("%s (K = %d, T = %d) updates about %s process-stages", pn, p.K(), p.T, cost.Num(updates))
		if traced {
			why += " and records each"
		}
		return "P", why
	}
	why = fmt.Sprintf("%s with N = %s and period = %s %s", pn, cost.Num(p.N), cost.Num(p.Period), strings.Join(parts, " and "))
	gap := p.Period - p.Duration
	if osTerm && gap < p.Period/2 {
		// The windows come every period − duration of work: a duration
		// close to period is what makes them many.
		d := cost.Num(p.Duration)
		if r, err := strconv.ParseFloat(d, 64); err == nil && r >= p.Period {
			d = strconv.FormatFloat(p.Duration, 'g', -1, 64)
		}
		why = fmt.Sprintf("%s with duration = %s of period = %s (%s s apart) %s", pn, d, cost.Num(p.Period), cost.Num(gap), strings.Join(parts, " and "))
		return "duration", why
	}
	if osTerm || !((p.Beta+p.Gamma)*p.N > p.Alpha) {
		return "period", why
	}
	return "N", why
}

// Knobs are the parameters a refusal of est(p) may advise moving: P (a
// power of two), N, period (up, or down with net_wait=inverse and no OS
// jitter), T and duration, each in Validate's range and checked with
// Validate at the values advised. est is the estimate they move: a
// trial's, or a scene's that builds on it.
func Knobs(p Params, est func(Params) cost.Cost) cost.Knobs {
	return KnobsWith(p, nil, func(q Params, _ []float64) cost.Cost { return est(q) })
}

// KnobsWith is Knobs with more knobs of est's caller (the jitter scene's
// trials): est gets their values in extra's order.
func KnobsWith(p Params, extra []cost.Knob, est func(q Params, extra []float64) cost.Cost) cost.Knobs {
	periodDown := p.NetNoise && p.NetWait == WaitInverse && !p.OSJitter
	// T ≤ K = log2 P: with all K redundant exchanges, T follows P down;
	// with fewer, P goes down to 2^T at most.
	allT := p.T == p.K()
	pk := cost.Knob{Key: "P", Now: float64(p.P), Down: true, Min: max(2, float64(int(1)<<min(p.T, 62))), Max: MaxP, Pow2: true}
	if allT {
		pk.Min = 2
		pk.With = func(v float64) string { return fmt.Sprintf("and T to %d", bits.Len(uint(v))-1) }
	}
	ks := []cost.Knob{
		pk,
		{Key: "N", Now: p.N, Down: true, Min: 0, Max: 1e12},
		{Key: "period", Now: p.Period, Down: periodDown, Min: 1e-300, Max: 1e3},
		{Key: "T", Now: float64(p.T), Down: true, Min: 0, Max: float64(p.K()), Int: true},
	}
	if p.OSJitter || p.NetNoise {
		ks = append(ks, cost.Knob{Key: "duration", Now: p.Duration, Down: true, Min: 1e-300, Max: p.Period})
	}
	own := len(ks)
	return cost.Knobs{
		List: append(ks, extra...),
		Cost: func(at []float64) (cost.Cost, bool) {
			q := p
			q.P, q.N, q.Period, q.T = int(at[0]), at[1], at[2], int(at[3])
			if allT && q.T == p.T {
				q.T = q.K() // T follows P unless it is moved itself
			}
			if own == 5 {
				q.Duration = at[4]
			}
			if q.Validate() != nil {
				return cost.Cost{}, false
			}
			return est(q, at[own:]), true
		},
	}
}

// MaxStalls bounds the OS-jitter stalls a traced run records, for the
// reservation below and the scenes' tables: noise.Periodic's
// FinishSegments stalls a reduction of work W once if it is ready inside a
// window and then once for each window that starts before it is done, and
// the windows leave it period − duration of work between them, so at most
// ⌈W/(period − duration)⌉ times, and once when W is 0 — per process and
// stage.
func MaxStalls(p Params) float64 {
	if !p.OSJitter {
		return 0
	}
	return float64(p.P) * float64(p.K()) * max(1, math.Ceil(p.Work()/(p.Period-p.Duration)))
}

// spanCap is the spans a traced run reserves: a wait and a reduction per
// process and stage, and a stall and one more piece of the reduction for
// each stall (MaxStalls), so that a traced run never grows the slice by
// copies (growing by 1.25x allocates five times the final size in all)
// and Estimate's memory bounds it.
func spanCap(p Params) int {
	n := 2*float64(p.P)*float64(p.K()) + 2*MaxStalls(p)
	return int(min(n, 1<<31)) + 64
}

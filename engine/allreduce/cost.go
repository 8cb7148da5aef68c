package allreduce

import (
	"fmt"
	"math"
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
	c.Key, c.Why, c.Fit = explain(p, updates, windows, met, buckets, traced)
	return c
}

// explain names what drives the cost: the process-stage updates, or the
// jitter terms (OS windows recorded or stepped over, network noise scanned)
// when they outweigh them. The jitter terms grow with N (γN of work and
// βN of flight) and with 1/period.
func explain(p Params, updates, windows, met, buckets float64, traced bool) (key, why string, fit func(float64) string) {
	pn := fmt.Sprintf("P = %d", p.P)
	P, K := float64(p.P), float64(p.K())
	var parts []string
	big := max(updates, windows, buckets, 2*met)
	switch {
	case traced && 2*met > 2*P*K:
		// The stalls' spans outnumber the rest of the trace.
		parts = append(parts, fmt.Sprintf("records about %s jitter windows", cost.Num(met)))
	case windows >= big/10 && windows > updates:
		parts = append(parts, fmt.Sprintf("steps over about %s jitter windows", cost.Num(windows)))
	}
	if buckets >= big/10 && buckets > updates {
		parts = append(parts, fmt.Sprintf("scans about %s network-noise events and buckets (messages of α + βN = %s s, noise every %s s)", cost.Num(buckets), cost.Num(p.Tcomm()), cost.Num(p.NetMean())))
	}
	if len(parts) == 0 {
		why = fmt.Sprintf("%s (K = %d, T = %d) updates about %s process-stages", pn, p.K(), p.T, cost.Num(updates))
		if traced {
			why += " and records each"
		}
		return "P", why, func(over float64) string {
			return fmt.Sprintf("lower P to at most %d", pow2Below(float64(p.P)/cost.Scale(over, 1)))
		}
	}
	why = fmt.Sprintf("%s with N = %s and period = %s %s", pn, cost.Num(p.N), cost.Num(p.Period), strings.Join(parts, " and "))
	osTerm := p.OSJitter && (traced && 2*met > 2*P*K || windows >= big/10)
	// Lowering N helps only while βN and γN, not α, make the stages long.
	byN := (p.Beta+p.Gamma)*p.N > p.Alpha
	lowerN := func(over float64) string {
		return fmt.Sprintf("lower N to at most %s", cost.Num(p.N/cost.Scale(over, 1)))
	}
	switch {
	case osTerm || p.NetWait == WaitPeriod:
		key = "period"
		fit = func(over float64) string {
			s := fmt.Sprintf("raise period to at least %s", cost.Num(p.Period*cost.Scale(over, 1)))
			if byN {
				s += " or " + lowerN(over)
			}
			return s
		}
	case byN:
		key, fit = "N", lowerN
	default:
		key, fit = "period", func(float64) string { return "lower period (net_wait=inverse: the mean wait is 1/period)" }
	}
	if !osTerm { // network noise alone: N first
		key = "N"
	}
	return key, why, fit
}

// pow2Below is the largest power of two ≤ x (2 at least).
func pow2Below(x float64) int {
	if x < 2 {
		return 2
	}
	return 1 << int(math.Floor(math.Log2(x)))
}

// spanCap is the spans a traced run reserves: a wait and a reduction per
// process and stage, and two more for each OS window expected to interrupt
// a reduction (Estimate's count, with 10 % to spare), so a long traced run
// does not grow the slice by copies (growing by 1.25x allocates five times
// the final size in all).
func spanCap(p Params) int {
	n := 2 * float64(p.P) * float64(p.K())
	if p.OSJitter {
		n += 2.2 * float64(p.P) * float64(p.K()) * (p.Work() + p.Duration) / (p.Period - p.Duration)
	}
	return int(min(n, 1<<31)) + 64
}

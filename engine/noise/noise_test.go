package noise

import (
	"fmt"
	"math"
	"testing"
)

// within fails unless got is within k standard errors of want.
func within(t *testing.T, what string, got, want, stderr, k float64) {
	t.Helper()
	if math.Abs(got-want) > k*stderr {
		t.Errorf("%s = %.6g, want %.6g ± %d·%.3g (off by %.2f σ)", what, got, want, int(k), stderr, math.Abs(got-want)/stderr)
	}
}

// TestPeriodicExactCycles: work of n·(period−duration) started as a window
// ends meets n−1 windows (the n-th starts exactly as it completes, which
// does not delay it), so it ends at s + n·period − duration.
func TestPeriodicExactCycles(t *testing.T) {
	n := &Periodic{Period: 1, Duration: 0.25, Onset: Stationary, Phases: []float64{0}}
	for cycles := 1; cycles <= 5; cycles++ {
		w := n.FirstWindow(0) // window [0, 0.25) runs at time 0
		s := 0.25
		got := n.Finish(&w, s, float64(cycles)*0.75)
		if want := s + float64(cycles) - 0.25; got != want {
			t.Errorf("%d cycles of work: finish %v, want %v", cycles, got, want)
		}
	}
	// Ready inside a window: wait for its end, then work.
	w := n.FirstWindow(0)
	if got := n.Finish(&w, 0.1, 0.5); got != 0.75 {
		t.Errorf("work ready at 0.1 inside [0, 0.25): finish %v, want 0.75", got)
	}
	// A window starting exactly when the work ends does not delay it.
	w = n.FirstWindow(0)
	if got := n.Finish(&w, 0.25, 0.75); got != 1 {
		t.Errorf("work ending as a window starts: finish %v, want 1", got)
	}
}

// TestPeriodicExpectedDelay checks the closed form for short work
// (c < period − duration) started at a time uniform relative to the
// windows, which is what a random phase gives:
//
//	E[delay] = (duration²/2 + c·duration) / period
//
// (inside a window, probability duration/period, wait the rest of it; else
// the work meets the next window with probability c/period).
func TestPeriodicExpectedDelay(t *testing.T) {
	const period, dur, c = 1e-3, 1e-4, 3e-4
	n, err := NewPeriodic(period, dur, Stationary, false, KeyOf(11, 12))
	if err != nil {
		t.Fatal(err)
	}
	const procs = 200000
	var sum, sum2 float64
	for i := range procs {
		w := n.FirstWindow(i)
		s := 0.0123 // any fixed time; the phases make it uniform
		d := n.Finish(&w, s, c) - s - c
		sum += d
		sum2 += d * d
	}
	mean := sum / procs
	sd := math.Sqrt(sum2/procs - mean*mean)
	want := (dur*dur/2 + c*dur) / period
	within(t, "E[delay]", mean, want, sd/math.Sqrt(procs), 4)
}

// TestPeriodicOnset: with FirstAtPhase no window runs at t = 0 and work
// started at 0 meets a window only if one starts before it ends, so short
// work c (c < period − duration) started at 0 is delayed by
//
//	E[delay] = c·duration/period
//
// against (duration²/2 + c·duration)/period when the windows are
// stationary. Later in the run (s ≥ period) the two are the same windows.
func TestPeriodicOnset(t *testing.T) {
	// A phase near the end of the period: the window of m = -1 covers t = 0
	// only in the stationary reading.
	for _, tc := range []struct {
		onset Onset
		w0    float64
		end   float64 // 0.05 s of work from t = 0
	}{{FirstAtPhase, 0.875, 0.05}, {Stationary, -0.125, 0.175}} {
		n := &Periodic{Period: 1, Duration: 0.25, Onset: tc.onset, Phases: []float64{0.875}}
		w := n.FirstWindow(0)
		if w != tc.w0 {
			t.Errorf("onset %d: first window at %g, want %g", tc.onset, w, tc.w0)
		}
		if got := n.Finish(&w, 0, 0.05); got != tc.end {
			t.Errorf("onset %d: work [0, 0.05) ends at %g, want %g", tc.onset, got, tc.end)
		}
	}
	const period, dur, c = 1e-3, 1e-4, 3e-4
	const procs = 200000
	for _, tc := range []struct {
		onset Onset
		s     float64
		want  float64
	}{
		{FirstAtPhase, 0, c * dur / period},
		{Stationary, 0, (dur*dur/2 + c*dur) / period},
		{FirstAtPhase, 0.0123, (dur*dur/2 + c*dur) / period},
	} {
		n, err := NewPeriodic(period, dur, tc.onset, false, KeyOf(21, 22))
		if err != nil {
			t.Fatal(err)
		}
		var sum, sum2 float64
		running := 0
		for i := range procs {
			w := n.FirstWindow(i)
			if w <= 0 {
				running++
			}
			d := n.Finish(&w, tc.s, c) - tc.s - c
			sum += d
			sum2 += d * d
		}
		if tc.onset == FirstAtPhase && running > 0 {
			t.Errorf("first at phase: %d processes have a window running at t = 0", running)
		}
		mean := sum / procs
		sd := math.Sqrt(sum2/procs - mean*mean)
		within(t, fmt.Sprintf("onset %d at s = %g: E[delay]", tc.onset, tc.s), mean, tc.want, sd/math.Sqrt(procs), 4)
	}
}

// TestPeriodicLostFraction: over long work the fraction of wall time lost
// to the windows is duration/period.
func TestPeriodicLostFraction(t *testing.T) {
	const period, dur = 1e-3, 1e-5
	n, _ := NewPeriodic(period, dur, Stationary, false, KeyOf(5, 6))
	for i := range 100 {
		w := n.FirstWindow(i)
		const work = 1.0 // a thousand periods
		wall := n.Finish(&w, 0, work)
		lost := (wall - work) / wall
		if math.Abs(lost-dur/period) > 2*dur/wall { // at most one window more or less
			t.Fatalf("process %d: lost fraction %g, want %g", i, lost, dur/period)
		}
	}
}

func TestPeriodicCoScheduled(t *testing.T) {
	n, _ := NewPeriodic(1e-3, 1e-5, Stationary, true, KeyOf(1, 2))
	for i := 1; i < 100; i++ {
		if n.Phase(i) != n.Phase(0) {
			t.Fatalf("co-scheduled phases differ: φ_%d = %g, φ_0 = %g", i, n.Phase(i), n.Phase(0))
		}
	}
	m, _ := NewPeriodic(1e-3, 1e-5, Stationary, false, KeyOf(1, 2))
	if m.Phase(1) == m.Phase(0) {
		t.Fatal("independent phases are equal")
	}
	// Phases are uniform in [0, period): mean period/2.
	var sum float64
	for i := range 100000 {
		p := m.Phase(i)
		if p < 0 || p >= 1e-3 {
			t.Fatalf("phase %g outside [0, period)", p)
		}
		sum += p
	}
	within(t, "mean phase", sum/100000, 0.5e-3, 1e-3/math.Sqrt(12*100000), 4)
}

// TestPoissonCount: the number of events in a long window is Poisson with
// mean window/Mean (so its variance equals its mean too), for every bucket
// width the flight hint can choose.
func TestPoissonCount(t *testing.T) {
	const mean = 1e-3
	for _, flight := range []float64{1e-6, 1e-4, 5e-3} {
		n, err := NewPoisson(mean, 1e-5, flight, KeyOf(3, 4))
		if err != nil {
			t.Fatal(err)
		}
		const window, ports = 0.2, 400 // 200 events a port
		var sum, sum2 float64
		for i := range ports {
			k := 0
			for e := n.NextEvent(i, 0); e < window; e = n.NextAfter(i, e) {
				k++
			}
			sum += float64(k)
			sum2 += float64(k * k)
		}
		m := sum / ports
		v := sum2/ports - m*m
		want := window / mean
		within(t, "mean count", m, want, math.Sqrt(want/ports), 4)
		// The sample variance of a Poisson(λ) count has standard error
		// about λ·sqrt(2/n).
		within(t, "count variance", v, want, want*math.Sqrt(2.0/ports), 4)
	}
}

// TestPoissonGaps: inter-arrival times are exponential with mean Mean;
// P(gap > Mean) = e^-1.
func TestPoissonGaps(t *testing.T) {
	const mean = 2e-3
	n, _ := NewPoisson(mean, 1e-5, 1e-6, KeyOf(7, 8))
	var sum float64
	long, total := 0, 0
	for i := range 50 {
		prev := n.NextEvent(i, 0)
		for range 400 {
			e := n.NextAfter(i, prev)
			g := e - prev
			sum += g
			if g > mean {
				long++
			}
			total++
			prev = e
		}
	}
	within(t, "mean gap", sum/float64(total), mean, mean/math.Sqrt(float64(total)), 4)
	p := math.Exp(-1)
	within(t, "P(gap > Mean)", float64(long)/float64(total), p, math.Sqrt(p*(1-p)/float64(total)), 4)
}

// TestPoissonFlightDelay checks the extended-flight law: each unit of
// flight catches events at rate 1/Mean and each event extends the flight
// by Delay, so E[events] = (flight/Mean) / (1 − Delay/Mean).
func TestPoissonFlightDelay(t *testing.T) {
	const mean, delay, flight = 1e-3, 4e-4, 2e-3
	n, _ := NewPoisson(mean, delay, flight, KeyOf(9, 10))
	const msgs = 100000
	var sum, sum2 float64
	for i := range msgs {
		var c Cursor
		c.Reset()
		k := n.FlightDelay(&c, i, 0.05, flight) / delay
		sum += k
		sum2 += k * k
	}
	m := sum / msgs
	sd := math.Sqrt(sum2/msgs - m*m)
	want := (flight / mean) / (1 - delay/mean)
	within(t, "E[events per flight]", m, want, sd/math.Sqrt(msgs), 4)
}

// TestPoissonCursorOrder: with a shared cursor, queries out of time order
// give the same delays as fresh queries: the cursor is only a cache.
func TestPoissonCursorOrder(t *testing.T) {
	n, _ := NewPoisson(1e-4, 3e-5, 2e-5, KeyOf(13, 14))
	for port := range 50 {
		c := n.QuietFrom(port, 0, 1e-3)
		for q := range 200 {
			s := math.Mod(float64(q)*7.77e-5*float64(port+1), 5e-3) // jumps back and forth
			got := n.FlightDelay(&c, port, s, 2e-5)
			var fresh Cursor
			fresh.Reset()
			if want := n.FlightDelay(&fresh, port, s, 2e-5); got != want {
				t.Fatalf("port %d query %d at %g: cached delay %g, fresh %g", port, q, s, got, want)
			}
			if !(c.At <= s || c.At == 0) && c.Next < c.At {
				t.Fatalf("cursor went bad: %+v", c)
			}
		}
	}
}

func TestPoissonCDFTable(t *testing.T) {
	for _, l := range []float64{1.0 / 16, 0.3, 1} {
		tab := poissonCDF(l)
		p, cdf := math.Exp(-l), 0.0
		for n := range 6 {
			cdf += p
			if got := float64(tab[n]) * 0x1p-53; math.Abs(got-cdf) > 1e-15 {
				t.Errorf("λ=%g: P(N ≤ %d) = %.17g, want %.17g", l, n, got, cdf)
			}
			p *= l / float64(n+1)
		}
	}
}

func TestKeyStreamsDiffer(t *testing.T) {
	k := KeyOf(1, 2)
	seen := map[uint64]bool{}
	for a := range uint64(3) {
		for b := range uint64(64) {
			for c := range uint64(64) {
				u := k.Uint64(a, b, c)
				if seen[u] {
					t.Fatalf("collision at (%d, %d, %d)", a, b, c)
				}
				seen[u] = true
			}
		}
	}
	if KeyOf(1, 3).Uint64(0, 0, 0) == k.Uint64(0, 0, 0) {
		t.Fatal("different keys give the same word")
	}
}

// TestPoissonAdvance: after flights that meet noise, advancing the cursor
// to each next send time keeps every delay equal to a fresh query's.
func TestPoissonAdvance(t *testing.T) {
	n, _ := NewPoisson(1e-4, 3e-5, 5e-5, KeyOf(15, 16))
	moved := 0
	for port := range 200 {
		c := n.QuietFrom(port, 0, 1e-4)
		s := 0.0
		for range 100 {
			got := n.FlightDelay(&c, port, s, 5e-5)
			var fresh Cursor
			fresh.Reset()
			if want := n.FlightDelay(&fresh, port, s, 5e-5); got != want {
				t.Fatalf("port %d at %g: delay %g with an advanced cursor, %g fresh", port, s, got, want)
			}
			s += 2e-5 + got // the next send comes before this flight lands
			before := c.Next
			c.Advance(s)
			if c.Next != before {
				moved++
			}
		}
	}
	if moved == 0 {
		t.Fatal("Advance never moved a cursor: the test does not exercise it")
	}
}

// TestPeriodicHitsCompute: with HitsCompute a window that began before the
// work (while the process waited) is absorbed, even if it is still running
// when the work is ready; one that begins during the work delays it by its
// whole length, and further ones push it on as under HitsWall.
func TestPeriodicHitsCompute(t *testing.T) {
	for _, tc := range []struct {
		name     string
		s, c     float64
		wall, cp float64 // finish under HitsWall and HitsCompute
	}{
		{"ready inside a window", 0.1, 0.5, 0.75, 0.6},
		{"ready as a window begins", 0, 0.5, 0.75, 0.75},
		{"window begins during the work", 0.9, 0.2, 1.35, 1.35},
		{"window begins as the work ends", 0.5, 0.5, 1, 1},
		{"two windows met", 0.8, 1, 2.3, 2.3},
		{"ready inside a window, then one more", 0.1, 1, 1.5, 1.35},
	} {
		for _, hits := range []Hits{HitsWall, HitsCompute} {
			n := &Periodic{Period: 1, Duration: 0.25, Onset: Stationary, Hits: hits, Phases: []float64{0}}
			w := n.FirstWindow(0) // windows [m, m+0.25)
			want := tc.wall
			if hits == HitsCompute {
				want = tc.cp
			}
			if got := n.Finish(&w, tc.s, tc.c); got != want {
				t.Errorf("%s, hits %d: work [%g, +%g) ends at %g, want %g", tc.name, hits, tc.s, tc.c, got, want)
			}
			// The segments cover the same interval and add up to the work.
			w = n.FirstWindow(0)
			var work float64
			end := n.FinishSegments(&w, tc.s, tc.c, func(a, b float64, working bool) {
				if working {
					work += b - a
				}
			})
			if end != want || math.Abs(work-tc.c) > 1e-12 {
				t.Errorf("%s, hits %d: segments end at %g with %g of work, want %g and %g", tc.name, hits, end, work, want, tc.c)
			}
		}
	}
}

// TestPeriodicComputeExpectedDelay: under HitsCompute short work c (c <
// period − duration) started at a time uniform relative to the windows
// meets the start of one with probability c/period and is then delayed by
// the whole duration:
//
//	E[delay] = c·duration/period
//
// with either onset, since no window begins before time 0 that could
// matter (against (duration²/2 + c·duration)/period under HitsWall, see
// TestPeriodicExpectedDelay).
func TestPeriodicComputeExpectedDelay(t *testing.T) {
	const period, dur, c = 1e-3, 1e-4, 3e-4
	const procs = 200000
	for _, onset := range []Onset{FirstAtPhase, Stationary} {
		for _, s := range []float64{0, 0.0123} {
			n, err := NewPeriodic(period, dur, onset, false, KeyOf(31, 32))
			if err != nil {
				t.Fatal(err)
			}
			n.Hits = HitsCompute
			var sum, sum2 float64
			for i := range procs {
				w := n.FirstWindow(i)
				d := n.Finish(&w, s, c) - s - c
				if math.Abs(d) > 1e-15 && math.Abs(d-dur) > 1e-15 { // rounding of s + c − s − c
					t.Fatalf("onset %d, s = %g: process %d delayed by %g, want 0 or the duration %g", onset, s, i, d, dur)
				}
				sum += d
				sum2 += d * d
			}
			mean := sum / procs
			sd := math.Sqrt(sum2/procs - mean*mean)
			within(t, fmt.Sprintf("onset %d at s = %g: E[delay]", onset, s), mean, c*dur/period, sd/math.Sqrt(procs), 4)
		}
	}
}

// TestPeriodicHitsKeepPhases: Hits changes what a window does, not where it
// lies: the same key gives the same phases and first windows under both,
// so the readings of a trial share their random numbers.
func TestPeriodicHitsKeepPhases(t *testing.T) {
	a, _ := NewPeriodic(1e-3, 1e-5, FirstAtPhase, false, KeyOf(41, 42))
	b, _ := NewPeriodic(1e-3, 1e-5, FirstAtPhase, false, KeyOf(41, 42))
	b.Hits = HitsCompute
	for i := range 1000 {
		if a.Phase(i) != b.Phase(i) || a.FirstWindow(i) != b.FirstWindow(i) {
			t.Fatalf("process %d: phase %g / %g, first window %g / %g", i, a.Phase(i), b.Phase(i), a.FirstWindow(i), b.FirstWindow(i))
		}
	}
}

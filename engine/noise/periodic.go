package noise

import (
	"math"

	"commlab/internal/errf"
)

// Onset says when a process's OS-jitter windows begin.
type Onset uint8

const (
	// FirstAtPhase: windows for m ≥ 0 only, so process i's first window
	// starts at φ_i and nothing is running at t = 0. The paper draws the
	// time of each process's first jitter at random (4.1.3 A).
	FirstAtPhase Onset = iota
	// Stationary: windows for every integer m; the window of m = -1 may
	// still be running at t = 0, as if the processes had been up forever.
	Stationary
)

// Hits says which windows delay a piece of work.
type Hits uint8

const (
	// HitsWall: a window holds the CPU for its whole length, whatever the
	// process is doing. Work ready inside a window waits for its end, and a
	// window that starts during the work suspends it; only a window that
	// begins and ends while the process waits for a message costs nothing.
	HitsWall Hits = iota
	// HitsCompute: only a window that begins while the process computes
	// delays it, by its whole length. One that begins while the process
	// waits for a message is absorbed by the wait, even if it would still
	// be running when the message comes: the jitter is a term of the
	// computation's time (papers/000, eq. 2: γN + OS-jitter), the way a
	// page fault or a cache refill only costs a process that runs.
	HitsCompute
)

// Periodic is the OS jitter of specs/allreduce-jitter.md: process i is
// unavailable during [φ_i + m·Period, φ_i + m·Period + Duration) for every
// integer m ≥ 0 (Onset FirstAtPhase) or every integer m (Stationary). Work
// that meets such a window waits it out; with Hits = HitsCompute only the
// windows that begin during the work do.
type Periodic struct {
	Period   float64 // s, > 0
	Duration float64 // s, in (0, Period)
	Onset    Onset
	// Hits says which windows delay work; the zero value is HitsWall.
	// With HitsCompute the Onset makes no difference: a window that
	// began before time 0 never begins during work.
	Hits Hits
	// CoScheduled gives every process the same phase (the daemons are
	// synchronised; a standard comparison in the noise literature).
	CoScheduled bool
	// Phases, when set, fixes φ_i = Phases[i] instead of drawing it; tests
	// and scenes use it to force a stall where they want one.
	Phases []float64
	key    Key
}

// NewPeriodic returns periodic noise whose phases are drawn from key:
// φ_i uniform in [0, period), independently per process unless coScheduled.
func NewPeriodic(period, duration float64, onset Onset, coScheduled bool, key Key) (*Periodic, error) {
	if !(period > 0) || math.IsInf(period, 0) {
		return nil, errf.Errorf("noise: period %g must be finite and > 0", period)
	}
	if !(duration > 0) || !(duration < period) {
		return nil, errf.Errorf("noise: duration %g must be in (0, period=%g)", duration, period)
	}
	if onset > Stationary {
		return nil, errf.Errorf("noise: unknown onset %d", onset)
	}
	return &Periodic{Period: period, Duration: duration, Onset: onset, CoScheduled: coScheduled, key: key}, nil
}

// Phase returns φ_i, the start of process i's windows modulo Period.
func (n *Periodic) Phase(i int) float64 {
	if n.Phases != nil {
		return n.Phases[i]
	}
	if n.CoScheduled {
		i = 0
	}
	return n.Period * n.key.Float64(streamPhase, uint64(i), 0)
}

// FirstWindow returns the cursor for process i at time 0: the start of the
// first window that has not ended by time 0. With Onset Stationary that can
// be the window of index m = -1, which started before 0 and is still
// running; with FirstAtPhase it is φ_i.
func (n *Periodic) FirstWindow(i int) float64 {
	phi := n.Phase(i)
	if n.Onset == FirstAtPhase {
		return phi
	}
	if w := phi - n.Period; w+n.Duration > 0 {
		return w
	}
	return phi
}

// Finish returns the time at which c seconds of work started at s complete
// on a process whose next window starts at *w, and advances *w past the
// windows the work met. Calls for one process must come with non-decreasing
// s; the cursor makes the common case (no window in [s, s+c)) one compare,
// whatever Hits is.
func (n *Periodic) Finish(w *float64, s, c float64) float64 {
	end := s + c
	if end <= *w {
		return end
	}
	return n.finishSlow(w, s, c, nil)
}

// FinishSegments is Finish that also reports each piece of the interval:
// run(a, b, true) for work, run(a, b, false) for a stall. The animation
// uses it; the sweeps call Finish.
func (n *Periodic) FinishSegments(w *float64, s, c float64, run func(a, b float64, working bool)) float64 {
	return n.finishSlow(w, s, c, run)
}

func (n *Periodic) finishSlow(w *float64, s, c float64, run func(a, b float64, working bool)) float64 {
	p, d := n.Period, n.Duration
	if n.Hits == HitsCompute {
		for *w < s { // windows that began before the work: absorbed
			*w += p
		}
	} else {
		for *w+d <= s { // windows that ended before the work was ready
			*w += p
		}
		if *w <= s { // ready inside a window: wait for its end
			if run != nil {
				run(s, *w+d, false)
			}
			s = *w + d
			*w += p
		}
	}
	end := s + c
	// Each window that starts before the work is done pushes the end back
	// by its whole length (Duration < Period, so the work resumes before
	// the next window).
	for *w < end {
		if run != nil {
			run(s, *w, true)
			run(*w, *w+d, false)
			s = *w + d
		}
		end += d
		*w += p
	}
	if run != nil {
		run(s, end, true)
	}
	return end
}

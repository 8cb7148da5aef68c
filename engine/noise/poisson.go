package noise

import (
	"math"

	"commlab/internal/errf"
)

// Poisson is the network noise of specs/allreduce-jitter.md: each process's
// network port has an independent Poisson process of noise events with mean
// inter-arrival time Mean; every event inside a message's flight
// [send, send+flight) delays it by Delay, and a delayed flight is extended
// and can catch further events.
//
// The events are realised per time bucket of width W: bucket b of port i
// holds Poisson(W/Mean) events placed uniformly in [b·W, (b+1)·W), drawn
// from the key at coordinates (i, b). Independent Poisson counts on disjoint
// intervals with uniform positions are exactly a Poisson process, and the
// realisation is a pure function of (key, W, i, time), so queries may come
// in any order. W only sets how the process is realised, not its law: it
// follows the time span the port's queries cover (between Mean/4 and
// Mean): a scan costs about the same number of hashes whatever W is, and
// wider buckets make scans rarer over a long run.
type Poisson struct {
	Mean  float64 // mean time between noise events on one port, s
	Delay float64 // delay per event, s
	W     float64 // bucket width, s
	cdf   [maxPerBucket]uint64
	key   Key
}

// NewPoisson returns network noise with the given mean inter-arrival time
// and delay per event, its events drawn from key. span is the time the
// queries of one port are expected to cover (a run's length); it chooses
// the bucket width.
func NewPoisson(mean, delay, span float64, key Key) (*Poisson, error) {
	if !(mean > 0) || math.IsInf(mean, 0) {
		return nil, errf.Errorf("noise: mean inter-arrival %g must be finite and > 0", mean)
	}
	if !(delay > 0) || math.IsInf(delay, 0) {
		return nil, errf.Errorf("noise: delay %g must be finite and > 0", delay)
	}
	if !(span >= 0) || math.IsInf(span, 0) {
		return nil, errf.Errorf("noise: span %g must be finite and ≥ 0", span)
	}
	lambda := min(max(span/mean, 1.0/4), 1) // events per bucket
	n := &Poisson{Mean: mean, Delay: delay, W: float64(lambda * mean), key: key}
	n.cdf = poissonCDF(lambda)
	return n, nil
}

// maxPerBucket bounds the events of one bucket. P(Poisson(1) > 24) is about
// 1e-25: no run will meet the truncation.
const maxPerBucket = 24

// poissonCDF returns P(Poisson(λ) ≤ n) for n < maxPerBucket, scaled to
// 53-bit integers, computed with +, *, / only (λ ≤ 1) so every platform
// gets the same table.
func poissonCDF(lambda float64) (t [maxPerBucket]uint64) {
	// e^-λ by its alternating series; for λ ≤ 1, 25 terms reach the last bit.
	e, term := 1.0, 1.0
	for k := 1; k <= 25; k++ {
		term = float64(-term * lambda / float64(k))
		e += term
	}
	cdf, pk := 0.0, e
	for n := range t {
		cdf += pk
		t[n] = uint64(cdf * 0x1p53)
		pk = float64(pk * lambda / float64(n+1))
	}
	return t
}

// count returns the number of events in bucket b of port i.
func (n *Poisson) count(i int, b int64) int {
	u := n.key.Uint64(streamNetCount, uint64(i), uint64(b)) >> 11
	cnt := 0
	for cnt < maxPerBucket && u >= n.cdf[cnt] {
		cnt++
	}
	return cnt
}

// bucket writes the sorted event times of bucket b of port i into buf and
// returns them.
func (n *Poisson) bucket(i int, b int64, buf *[maxPerBucket]float64) []float64 {
	ev := buf[:n.count(i, b)]
	for k := range ev {
		x := n.eventAt(i, b, k)
		j := k // insertion sort: a bucket holds at most a few events
		for j > 0 && ev[j-1] > x {
			ev[j] = ev[j-1]
			j--
		}
		ev[j] = x
	}
	return ev
}

// eventAt is the time of event k (in drawing order) of bucket b of port i.
func (n *Poisson) eventAt(i int, b int64, k int) float64 {
	return float64(float64(b)+n.key.Float64(streamNetPos, uint64(i), uint64(b)<<5|uint64(k))) * n.W
}

// NextEvent returns the first noise event of port i at a time ≥ t (t ≥ 0).
func (n *Poisson) NextEvent(i int, t float64) float64 {
	return n.scan(i, t, false, math.Inf(1))
}

// NextAfter returns the first noise event of port i at a time > t.
func (n *Poisson) NextAfter(i int, t float64) float64 {
	return n.scan(i, t, true, math.Inf(1))
}

// scan returns the first event at a time ≥ t (> t if strict) when one lies
// before limit; otherwise it may stop early and return a time ≥ limit
// before which port i has no event after t.
func (n *Poisson) scan(i int, t float64, strict bool, limit float64) float64 {
	var buf [maxPerBucket]float64
	for b := n.bucketOf(t, strict); ; b++ {
		start := float64(b) * n.W
		if start >= limit && start > t {
			return start
		}
		for _, x := range n.bucket(i, b, &buf) {
			if x > t || (!strict && x == t) {
				return x
			}
		}
	}
}

// Cursor caches what is known of one port's noise: no event lies in
// [At, Next). Next may be the next event itself or only a bound below it
// (the end of an empty bucket). After a flight that met noise it also
// knows the quiet stretch (after, afterNext) past the last event the
// flight met, which Advance moves onto. The zero Cursor claims nothing
// wrong but covers nothing useful; Reset it.
type Cursor struct {
	At, Next         float64
	after, afterNext float64 // after is NaN when there is no such stretch
}

// Reset empties the cursor so the next query computes it.
func (c *Cursor) Reset() { *c = Cursor{At: math.Inf(1), after: math.NaN()} }

// Advance tells the cursor that no later query will start before t. When t
// is past the last event a flight met, the cursor moves onto the quiet
// stretch after it, so the sender's next message needs no scan.
func (c *Cursor) Advance(t float64) {
	if t > c.after { // false while after is NaN
		c.At, c.Next, c.after = t, c.afterNext, math.NaN()
	}
}

// QuietFrom returns a cursor for port i that knows the port from time t
// on: quiet up to its first event at or after t, or, when there is none
// before horizon, up to a bound at or past horizon. Scanning stops there, so
// a horizon near the end of the run keeps this to a hash or two; computing
// it for every port in one loop also lets the hashes of different ports
// overlap in the pipeline.
func (n *Poisson) QuietFrom(i int, t, horizon float64) Cursor {
	// At time 0 with an empty first bucket reaching the horizon (the common
	// start of a run), one hash settles it.
	if t == 0 {
		// The first event is the earliest of bucket 0's, if it has any:
		// drawn here directly, without scan's sort of the bucket.
		cnt := n.count(i, 0)
		if cnt == 0 && horizon <= n.W {
			return Cursor{At: 0, Next: n.W, after: math.NaN()}
		}
		if cnt > 0 {
			first := math.Inf(1)
			for k := range cnt {
				first = min(first, n.eventAt(i, 0, k))
			}
			return Cursor{At: 0, Next: first, after: math.NaN()}
		}
	}
	return Cursor{At: t, Next: n.scan(i, t, false, horizon), after: math.NaN()}
}

// Scan returns port i's first event at or after t (after t if strict)
// when one lies before limit; otherwise a time at or past limit before
// which the port has no event after t. It hashes one bucket of width W per
// step, so a near limit keeps it cheap.
func (n *Poisson) Scan(i int, t float64, strict bool, limit float64) float64 {
	return n.scan(i, t, strict, limit)
}

// Quiet is the cursor of a port with no noise: every flight is clean.
func Quiet() Cursor { return Cursor{At: math.Inf(-1), Next: math.Inf(1), after: math.NaN()} }

// FlightDelay returns the noise delay of a message that port i sends at s
// with a clean flight time of flight. The common case (the flight lies in
// the cursor's quiet interval) is one comparison; queries may come in any
// time order. The butterfly kernel inlines that comparison itself.
//
//go:noinline
func (n *Poisson) FlightDelay(c *Cursor, i int, s, flight float64) float64 {
	if s >= c.At && s+flight <= c.Next {
		return 0
	}
	return n.flightSlow(c, i, s, flight)
}

func (n *Poisson) flightSlow(c *Cursor, i int, s, flight float64) float64 {
	from := s
	if s >= c.At && s < c.Next { // quiet up to c.Next already
		from = c.Next
	}
	// One sweep over the buckets the flight can reach: every event at or
	// after from and before the (growing) end of the flight delays it. Four
	// buckets of lookahead past the end of a clean flight make the cursor's
	// quiet interval worth keeping: a hash per empty bucket is cheaper than
	// coming back here a few flights later.
	var buf [maxPerBucket]float64
	end := s + flight
	ahead := 4 * n.W
	first := math.NaN() // first event ≥ from, or a bound before which there is none
	last := math.NaN()  // the last event the flight met
	k := 0
	b := n.bucketOf(from, false)
	var next float64 // after the loop: first event ≥ end, or a bound
scan:
	for ; ; b++ {
		start := float64(b) * n.W
		if start >= end+ahead && start > from || start >= end && (k > 0 || first == first) {
			next = start
			break
		}
		for _, x := range n.bucket(i, b, &buf) {
			if x < from {
				continue
			}
			if first != first { // NaN: not yet found
				first = x
			}
			if x >= end {
				next = x
				break scan
			}
			k++
			last = x
			end += n.Delay
		}
	}
	if first != first {
		first = next
	}
	*c = Cursor{At: s, Next: first, after: last, afterNext: next}
	return float64(k) * n.Delay
}

// bucketOf returns the first bucket that can hold an event at or after t
// (after t if strict). Events of bucket b lie in [b·W, (b+1)·W] as
// computed, so an event of the previous bucket can only reach t when t is
// b·W exactly (or the division rounded up).
func (n *Poisson) bucketOf(t float64, strict bool) int64 {
	b := int64(t / n.W)
	if lo := float64(b) * n.W; b > 0 && (lo > t || (lo == t && !strict)) {
		b--
	}
	return b
}

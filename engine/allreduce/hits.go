package allreduce

import "math"

// A cell's trials are a rare-event process: most trials meet no noise, or
// none that the redundant exchanges cannot hide, and the few that do are
// late by a whole jitter duration, which can be tens of jitter-free run
// times. A mean over trials that have not yet seen the event has a small
// spread and is still wrong, so no precision rule can stop on the spread
// alone. The model knows how likely the event is: HitProbability computes
// it from the parameters and MinTrials turns it into the number of trials
// that must have been run before the spread means anything. docs/allreduce.md
// derives both and checks them against the engine.

// MinHits is how many times a cell's trials are expected to meet the rare
// event before their mean and its t-interval are trusted. For a mean of
// n trials of which a Binomial(n, π) number are late by D, the 95 %
// t-interval covers the true mean 63 % of the time when nπ = 1, 80 % at
// 3 (where P(no hit) = 5 %), 87 % at 5 and 93 % at 10, and no more than
// 93-95 % up to 50 (docs/allreduce.md has the table, summed over the
// binomial law): 10 is where more trials stop buying coverage.
const MinHits = 10

// HitProbability is how likely noise is to meet one trial of a Params, from
// the parameters alone (see Params.Hits).
type HitProbability struct {
	// Stage[k-1] is the probability that noise delays one process's
	// stage-k result in a jitter-free run: its reduction meets an OS
	// window (as os_hits and os_phase count them) or its partner's message
	// meets a network event. With co_scheduled the OS part is left out:
	// the shared window is in Shared.
	Stage []float64 `json:"stage"`
	// Shared is the probability that a co-scheduled OS window, which
	// meets every process at once, delays the run (0 unless co_scheduled).
	Shared float64 `json:"shared"`
	// Conventional is the probability that noise delays the conventional
	// time: some process is hit at some stage.
	Conventional float64 `json:"conventional"`
	// Proposed is the probability that noise delays every copy of the
	// final result some process can adopt with T redundant exchanges, so
	// that the proposed time is late by about a duration too.
	Proposed float64 `json:"proposed"`
}

// Hits returns the probabilities that noise meets one trial of p; p must
// be valid.
//
// In a jitter-free run every stage takes S = Tcomm + γN: at stage k each
// process's partner message arrives at s_k = (k−1)S + Tcomm and its
// reduction runs [s_k, s_k + γN). With phases uniform in [0, period) an OS
// window begins in a given interval of length L with probability
// min(1, L/period), and the windows that delay stage k (and no earlier
// one) begin in an interval of length
//
//	os_hits=wall:    min(duration, Tcomm) + γN (running when the reduction is
//	                 ready, or beginning during it); at stage 1 with
//	                 os_phase=stationary duration + γN, since a window may
//	                 have begun before t = 0
//	os_hits=compute: γN (beginning during the reduction)
//
// and the partner's message of flight Tcomm meets a network event with
// probability 1 − exp(−Tcomm/mean wait). Stage[k−1] = q_k combines the two.
//
// A hit on process j at stage k makes late, by the end of the butterfly,
// exactly the processes ≡ j (mod 2^k): j's partners from stage k+1 on
// wait for it, and no other process ever reads its result. Read the
// processes' bits from the lowest as a path in a binary trie: a hit marks
// the node at depth k on j's path, a node at depth k is marked with
// probability μ_k = 1 − (1 − q_k)^(2^(K−k)) (any of its 2^(K−k) processes
// hit at stage k), independently of the others, and a process is late when
// a node on its path is marked. So Conventional = 1 − Π_k (1 − q_k)^P.
//
// With T redundant exchanges process i adopts the earliest copy among the
// 2^T processes that differ from it in bits 0..T−1 (its block), so the
// proposed time is late only when a whole block is. Of the 2^T paths of
// depth T (the classes mod 2^T), let M be the number with no marked node:
// M = 0 makes every process late; otherwise a block b is late when each of
// the M open paths r has a marked node between depth T and the leaf (r, b).
// proposedHit computes the law of M over the top of the trie and, for each
// M, the probability that some block is late over the bottom (the open
// paths' subtrees are disjoint, so independent). For T = K, the sweeps'
// case, that is P(M = 0). The law of M is kept up to maxOpen open paths;
// more than that and no block is late (each would need its own marks on a
// common path), which the function counts as zero.
//
// The model takes one process's stages as independent and the schedule as
// jitter-free up to the first hit (a late process is late whatever hits it
// next). Everything is computed with +, −, ×, / only, each product rounded
// on its own (float64() keeps the compiler from fusing it into an FMA), so
// the numbers, and MinTrials, are the same natively and under WebAssembly.
func (p Params) Hits() HitProbability {
	k := p.K()
	h := HitProbability{Stage: make([]float64, k)}
	c := p.Work()
	netMiss := 1.0 // probability that a message's flight meets no network event
	if p.NetNoise {
		netMiss = expNeg(p.Tcomm() / p.NetMean())
	}
	osLen := func(stage int) float64 {
		if !p.OSJitter {
			return 0
		}
		if p.OSHits == HitsCompute {
			return c
		}
		if stage == 1 && p.OSPhase == PhaseStationary {
			return p.Duration + c
		}
		return min(p.Duration, p.Tcomm()) + c
	}
	var shared float64 // co-scheduled: the length in which the one shared window may begin
	for st := 1; st <= k; st++ {
		osHit := min(1, osLen(st)/p.Period)
		if p.CoScheduled {
			shared += osLen(st)
			osHit = 0
		}
		h.Stage[st-1] = 1 - float64((1-osHit)*netMiss)
	}
	h.Shared = min(1, shared/p.Period)

	conv := 1.0
	for st := 1; st <= k; st++ {
		conv *= missAmong(h.Stage[st-1], k)
	}
	h.Conventional = 1 - float64((1-h.Shared)*conv)
	if p.T == 0 {
		h.Proposed = h.Conventional
		return h
	}
	h.Proposed = 1 - float64((1-h.Shared)*(1-proposedHit(h.Stage, p.T)))
	return h
}

// missAmong is (1 − q)^(2^m): no hit among 2^m processes.
func missAmong(q float64, m int) float64 {
	x := 1 - q
	for range m {
		x *= x
	}
	return x
}

// maxOpen bounds the open paths proposedHit follows (see Params.Hits).
const maxOpen = 128

// proposedHit is the probability that some block of 2^t processes is
// late, given the per-stage hit probabilities q (q[k-1] for stage k,
// K = len(q)); see Params.Hits for the trie.
func proposedHit(q []float64, t int) float64 {
	k := len(q)
	mu := func(d int) float64 { return 1 - missAmong(q[d-1], k-d) } // a node at depth d marked
	// The law of the open paths under a node at depth d, from d = t up:
	// open[n] = P(n of its paths to depth t have no marked node).
	open := []float64{mu(t), 1 - mu(t)}
	for d := t - 1; d >= 0; d-- {
		both := convolve(open, open)
		if d == 0 { // the root: no stage 0, nothing marks it
			open = both
			break
		}
		m := mu(d)
		for n := range both {
			both[n] = float64(both[n] * (1 - m))
		}
		both[0] += m
		open = both
	}
	if t == k {
		return open[0]
	}
	// late[n]: the probability that, with n open paths entering a node at
	// depth d of the bottom part (d = t+1..k, its two children below),
	// some leaf under it has a marked node on each open path.
	var late []float64
	for d := k; d > t; d-- {
		m := mu(d)
		next := make([]float64, len(open))
		// binom[j] = P(j of n open paths stay open at this node), built
		// row by row: Pascal's rule with stay probability 1 − m.
		binom := []float64{1}
		for n := range next {
			if n > 0 {
				row := make([]float64, n+1)
				for j, b := range binom {
					row[j] += float64(b * m)
					row[j+1] += float64(b * (1 - m))
				}
				binom = row
			}
			var sum float64
			for j, b := range binom {
				switch {
				case j == 0:
					sum += b
				case d < k: // some leaf under one of the two children
					l := late[j]
					sum += float64(b * (1 - float64((1-l)*(1-l))))
				}
			}
			next[n] = sum
		}
		late = next
	}
	var sum float64
	for n, pn := range open {
		if n == 0 {
			sum += pn
			continue
		}
		l := late[n]
		sum += float64(pn * (1 - float64((1-l)*(1-l))))
	}
	return sum
}

// convolve returns the law of the sum of two independent counts, cut at
// maxOpen (the mass beyond is dropped: see Params.Hits).
func convolve(a, b []float64) []float64 {
	out := make([]float64, min(len(a)+len(b)-1, maxOpen+1))
	for i, x := range a {
		for j, y := range b {
			if i+j < len(out) {
				out[i+j] += float64(x * y)
			}
		}
	}
	return out
}

// MinTrials is the least number of trials after which a cell's mean times
// (conventional and proposed) have been expected to meet their rare event
// MinHits times, for every event that can move a mean by more than tol of
// itself: an event of probability π that delays a trial by the duration D
// moves the mean m₀ + πD by the share πD/(m₀ + πD), and when that share
// (with the rarer of π and 1 − π) is below tol, missing it cannot move the
// mean by more than tol and it sets no minimum. m₀ is the jitter-free time
// and D the duration, what one hit costs (a network event exactly, an OS
// window at most). Pass a quarter of the sweep's relative precision (0.005
// for 2 %): a skipped event then moves a mean by a quarter of its interval
// at most. The result is at least 2, the fewest a t-interval needs, and
// may exceed any cap: a cell that cannot afford it has not seen enough to
// be judged.
func (p Params) MinTrials(tol float64) int {
	h := p.Hits()
	m0, d := p.NoJitterTime(), p.Duration
	n := 2.0
	for _, pi := range []float64{h.Conventional, h.Proposed} {
		rare := min(pi, 1-pi)
		if !(rare > 0) || float64(rare*d) <= float64(tol*(m0+float64(pi*d))) {
			continue
		}
		n = max(n, math.Ceil(MinHits/rare))
	}
	if n > math.MaxInt32 {
		return math.MaxInt32
	}
	return int(n)
}

// expNeg returns e^−x for x ≥ 0 with +, −, ×, / only (math.Exp's assembly
// and Go versions may differ in the last bit): the series for x ≤ 1/2,
// halving and squaring above.
func expNeg(x float64) float64 {
	if !(x < 1e3) {
		return 0
	}
	halvings := 0
	for x > 0.5 {
		x /= 2
		halvings++
	}
	e, term := 1.0, 1.0
	for n := 1; n <= 20; n++ {
		term = float64(-term * x / float64(n))
		e += term
	}
	for range halvings {
		e *= e
	}
	return e
}

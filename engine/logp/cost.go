package logp

import (
	"fmt"
	"math"

	"commlab/engine/cost"
)

// Engine times on one core of the development machine, per operation:
// nsOp replayed in order (RunOrdered, with its noise drawn), nsPlanOp
// planned (the builder and the event-driven nominal run). TestEstimateBoundsRun
// logs what it measures: 35-37 ns per replayed operation at P = 32 and 256,
// about 1.2 µs per planned one at P = 1024; eval logp -P 1024 -n 100000
// -trials 1000 took 18.3 s, 82 ns per replayed operation, under a load of 10.
const (
	nsOp     = 60
	nsPlanOp = 1500
)

// opBytes is what planning costs per operation: the Op, its dependency and
// successor lists, the builder's and the nominal run's tables and the
// executor's (measured: 340 bytes per operation at P = 32 to 1024).
const opBytes = 400

// Used is how many processors the plan for p and ls uses (Schedule.Used),
// found the way Plan finds it, without building the program: the universal
// tree's P smallest offsets and the first m children that gain.
func Used(p Params, ls float64) int {
	o := p.O
	nodes := universalTree(p.P, ls+2*o+1, max(p.G, o+1))
	n := float64(p.N)
	sum, m, T := 0.0, 0, n-1
	for m+1 < len(nodes) {
		next := nodes[m+1]
		if !(T > next.off+o) {
			break
		}
		sum += next.off + o
		m++
		T = (n - 1 + sum) / float64(m+1)
	}
	return m + 1
}

// Ops bounds the operations of the plan for p and ls: per processor used
// its send, its parent's receive and addition, and at most two stretches
// of local additions.
func Ops(p Params, ls float64) int { return 5 * Used(p, ls) }

// OptimalEvaluations is how many times Optimal evaluates E[T]: 33 grid
// points and a golden-section search to 1e-4 of the spread; one without
// fluctuation.
func OptimalEvaluations(p Params) int {
	spread := p.Sigma + p.GapSigma
	if spread == 0 {
		return 1
	}
	lo := max(0, p.L-3*p.Sigma)
	hi := p.L + 5*p.Sigma + 3*p.GapSigma
	bracket := 2 * (hi - lo) / 32
	steps := math.Ceil(math.Log(bracket/(1e-4*spread))/math.Log(1/0.6180339887498949)) + 2
	return 33 + int(max(steps, 2))
}

// Estimate is the cost of replaying the plan for p and ls trials times in
// each of evals evaluations (Expected is one; Optimal is
// OptimalEvaluations). p must be valid.
func Estimate(p Params, ls float64, trials, evals int) cost.Cost {
	used := Used(p, ls)
	ops := float64(5 * used)
	replays := float64(trials) * float64(evals)
	events := ops * replays
	c := cost.Cost{
		Events:  events,
		Bytes:   opBytes*ops + 64<<10,
		Seconds: (nsOp*events + nsPlanOp*ops*float64(evals)) * 1e-9,
		Key:     "trials",
		Why: fmt.Sprintf("P = %d with n = %s (a plan on %d processors, about %s operations) and trials = %d replays about %s operations in %d evaluations of E[T]",
			p.P, cost.Num(float64(p.N)), used, cost.Num(ops), trials, cost.Num(events), evals),
	}
	c.Fit = func(over float64) string {
		t := int(float64(trials) / cost.Scale(over, 1))
		if t >= 1000 {
			return fmt.Sprintf("lower trials to at most %d", t)
		}
		return fmt.Sprintf("lower trials to at most %d, P or n (fewer processors take part when n is smaller)", max(t, 1))
	}
	return c
}

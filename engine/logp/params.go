package logp

import (
	"fmt"
	"math"

	"commlab/engine/param"
)

// MaxP is the largest processor count Params accepts: the report's sweep
// goes to P = 1024.
const MaxP = 1024

// MaxN is the largest count of numbers to sum.
const MaxN = 1_000_000_000

// maxTime bounds every time parameter, so schedules stay finite.
const maxTime = 1e9

// Params are the model's inputs (specs/logp-fluctuation.md). Times are in
// the spec's units, in which one addition costs 1.
type Params struct {
	P int `json:"P" help:"processors P, an integer in [2, 1024]"`
	N int `json:"n" help:"numbers to sum n, an integer in [1, 1000000000]"`
	// L is μ, the mean of the (untruncated) normal the latencies are drawn
	// from; the planning latency L_s is separate.
	L float64 `json:"L" help:"mean latency μ, in [0, 1e9] (one addition = 1)"`
	O float64 `json:"o" help:"send/receive overhead o, in [0, 1e9]"`
	G float64 `json:"g" help:"gap g between consecutive sends (receives) of one processor, in [0, 1e9]"`
	// Sigma is σ of the latency Normal(μ, σ²), truncated at 0.
	Sigma float64 `json:"sigma" help:"standard deviation σ of the latency, in [0, 1e9]"`
	// GapSigma is the gap fluctuation: each gap is g + GapSigma·max(0, Z)
	// with Z standard normal, i.e. max(g, g + N(0, GapSigma²)), so g stays
	// its lower bound (the slides' "gap fluctuates, with a lower bound").
	GapSigma float64 `json:"gap_sigma" help:"gap fluctuation: gap = max(g, g + N(0, gap_sigma²)); in [0, 1e9], 0 = none"`
}

// Default returns the evaluation example: P = 3, n = 1000, L = 10,
// o = 1, g = 1, σ = 2, no gap fluctuation.
func Default() Params {
	return Params{P: 3, N: 1000, L: 10, O: 1, G: 1, Sigma: 2}
}

// Validate reports the first parameter outside its range, naming it.
func (p Params) Validate() error {
	if p.P < 2 || p.P > MaxP {
		return &param.Error{Field: "P", Value: fmt.Sprint(p.P), Want: fmt.Sprintf("an integer in [2, %d]", MaxP)}
	}
	if p.N < 1 || p.N > MaxN {
		return &param.Error{Field: "n", Value: fmt.Sprint(p.N), Want: fmt.Sprintf("an integer in [1, %d]", MaxN)}
	}
	for _, c := range []struct {
		field string
		v     float64
	}{{"L", p.L}, {"o", p.O}, {"g", p.G}, {"sigma", p.Sigma}, {"gap_sigma", p.GapSigma}} {
		if err := timeRange(c.field, c.v); err != nil {
			return err
		}
	}
	return nil
}

// ValidateLs checks a planning latency L_s.
func ValidateLs(ls float64) error { return timeRange("Ls", ls) }

func timeRange(field string, v float64) error {
	if v >= 0 && v <= maxTime && !math.IsNaN(v) {
		return nil
	}
	return &param.Error{Field: field, Value: fmt.Sprint(v), Want: fmt.Sprintf("a number in [0, %g]", float64(maxTime))}
}

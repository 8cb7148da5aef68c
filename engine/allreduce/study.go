package allreduce

import (
	"fmt"
	"math"
	"slices"

	"commlab/internal/errf"
)

// XAxis is what a sweep set varies along its x axis.
type XAxis int

const (
	// TcommOverDuration varies the message size N so that
	// Tcomm/duration = (α + βN)/duration takes the axis value (sets A, B).
	TcommOverDuration XAxis = iota
	// DurationOverPeriod varies the jitter duration (sets C1, C2).
	DurationOverPeriod
)

func (x XAxis) String() string {
	if x == TcommOverDuration {
		return "Tcomm/duration"
	}
	return "duration/period"
}

// Set is one of the paper's sweeps (spec: "The paper's sweeps").
type Set struct {
	Name string
	// Base holds the fixed parameters; the x axis overrides N (sets A, B)
	// or Duration (sets C1, C2), the y axis P.
	Base Params
	X    XAxis
	// XExp are the x axis values as powers of ten.
	XExp []float64
	// K are the y axis values as P = 2^K.
	K []int
}

// Grid sizes of the paper's sweeps.
type Grid struct {
	Full   bool
	Trials int
}

// expRange returns lo, lo+step, ..., hi.
func expRange(lo, hi, step float64) []float64 {
	var e []float64
	for i := 0; ; i++ {
		x := lo + float64(i)*step
		if x > hi+1e-9 {
			return e
		}
		e = append(e, math.Round(x*1e9)/1e9)
	}
}

// PaperSets returns sets A, B, C1 and C2 of the paper. Full grids have P =
// 2^1..2^20 and x axes of 13 points a third of a decade apart:
// Tcomm/duration from 10^-3 to 10^1 (in set A the points below
// α/duration = 0.1 are infeasible) and duration/period from 10^-5 to
// 10^-1. The paper's axis ranges did not survive the text conversion; these
// cover what its text discusses (Tcomm/duration below 10^-2 in set B, the
// regime Tcomm > duration, duration/period around 10^-2). Quick grids keep
// the whole decades and P up to 2^12, for tests and CI.
func PaperSets(full bool) []Set {
	base := Default()
	base.T = 0 // set per point to K
	step, kmax := 1.0/3, 20
	if !full {
		step, kmax = 1, 12
	}
	var ks []int
	for k := 1; k <= kmax; k++ {
		ks = append(ks, k)
	}
	a := base
	b := base
	b.Alpha, b.Period, b.Duration = 1e-7, 1e-2, 1e-4
	c1 := base
	c2 := base
	c2.Period = 1e-2
	tcomm := expRange(-3, 1, step)
	dur := expRange(-5, -1, step)
	return []Set{
		{Name: "A", Base: a, X: TcommOverDuration, XExp: tcomm, K: ks},
		{Name: "B", Base: b, X: TcommOverDuration, XExp: tcomm, K: ks},
		{Name: "C1", Base: c1, X: DurationOverPeriod, XExp: dur, K: ks},
		{Name: "C2", Base: c2, X: DurationOverPeriod, XExp: dur, K: ks},
	}
}

// Point returns the parameters of the grid point (x index, K) with all K
// redundant exchanges, or ok = false when the point is infeasible
// (Tcomm/duration below α/duration would need a negative N).
func (s Set) Point(xi, k int) (p Params, ok bool) {
	p = s.Base
	p.P, p.T = 1<<k, k
	x := math.Pow(10, s.XExp[xi])
	switch s.X {
	case TcommOverDuration:
		tcomm := x * p.Duration
		// A relative tolerance of 1e-9 keeps the point where Tcomm = α
		// (set B's first column) feasible with N = 0 exactly, although
		// 10^-3·duration and α differ in the last bits.
		if tcomm < p.Alpha*(1-1e-9) {
			return p, false
		}
		p.N = 0
		if tcomm > p.Alpha*(1+1e-9) {
			p.N = (tcomm - p.Alpha) / p.Beta
		}
	case DurationOverPeriod:
		p.Duration = x * p.Period
	}
	return p, true
}

// Label is the axis label of x index xi, as the paper's log axes read:
// "10^-2", "10^-1.67".
func (s Set) Label(xi int) string { return ExpLabel(s.XExp[xi]) }

// ExpLabel formats 10^e with at most two decimals.
func ExpLabel(e float64) string {
	return "10^" + trimFloat(e)
}

func trimFloat(e float64) string {
	s := fmt.Sprintf("%.2f", e)
	for s[len(s)-1] == '0' {
		s = s[:len(s)-1]
	}
	if s[len(s)-1] == '.' {
		s = s[:len(s)-1]
	}
	if s == "-0" {
		s = "0"
	}
	return s
}

// Updates is the cost of one trial of p in process-stage updates.
func Updates(p Params) float64 { return float64(p.P) * float64(p.K()+p.T) }

// Summary reduces the trials of one grid point to what the paper plots.
type Summary struct {
	NoJitter float64 `json:"no_jitter"` // K·(Tcomm + γN), s
	// MeanByT[T] is the mean over trials of the allreduce time with T
	// redundant exchanges, T = 0..Params.T (K in the sweeps), s.
	MeanByT []float64 `json:"proposed_by_T"`
	// Conventional is MeanByT[0]; ConventionalSE its standard error.
	Conventional   float64 `json:"conventional"`
	ConventionalSE float64 `json:"conventional_stderr"`
	// Proposed is the paper's proposed time: the least mean over T = 1..K
	// (1..Params.T; the conventional time when Params.T = 0).
	Proposed   float64 `json:"proposed"`
	ProposedSE float64 `json:"proposed_stderr"`
	// OptimalT is the smallest T in 0..Params.T whose mean is within OptimalTol of
	// the best mean (settled in the spec: the redundant exchanges worth
	// doing; 0 when none is).
	OptimalT int `json:"optimal_T"`
	// Influence = Conventional/NoJitter; Effect = Proposed/Conventional.
	Influence float64 `json:"influence"`
	Effect    float64 `json:"effect"`
	Trials    int     `json:"trials"`
}

// OptimalTol is the spec's 1 %: a T whose mean time is within it of the
// best is as good as the best.
const OptimalTol = 0.01

// Summarize reduces per-trial results (each a Result.ByT with p.T
// redundant exchanges, so p.T+1 times) of the point p. Means are summed in
// trial order, so they do not depend on how the trials were scheduled.
// The sweeps run T = K, the paper's range; with T < K the proposed time is
// the least mean over 1..T, and with T = 0 it is the conventional time.
func Summarize(p Params, byT [][]float64) (Summary, error) {
	tmax := p.T
	if len(byT) == 0 {
		return Summary{}, errf.Errorf("allreduce: no trials to summarize")
	}
	sum := Summary{NoJitter: p.NoJitterTime(), MeanByT: make([]float64, tmax+1), Trials: len(byT)}
	for i, r := range byT {
		if len(r) != tmax+1 {
			return Summary{}, errf.Errorf("allreduce: trial %d has %d times, want T+1 = %d", i, len(r), tmax+1)
		}
		for t, v := range r {
			sum.MeanByT[t] += v
		}
	}
	n := float64(len(byT))
	for t := range sum.MeanByT {
		sum.MeanByT[t] /= n
	}
	best := min(1, tmax)
	for t := 2; t <= tmax; t++ {
		if sum.MeanByT[t] < sum.MeanByT[best] {
			best = t
		}
	}
	sum.Conventional, sum.Proposed = sum.MeanByT[0], sum.MeanByT[best]
	sum.ConventionalSE = stderr(byT, 0, sum.Conventional)
	sum.ProposedSE = stderr(byT, best, sum.Proposed)
	least := slices.Min(sum.MeanByT)
	for t, m := range sum.MeanByT {
		if m <= least*(1+OptimalTol) {
			sum.OptimalT = t
			break
		}
	}
	sum.Influence = sum.Conventional / sum.NoJitter
	sum.Effect = sum.Proposed / sum.Conventional
	return sum, nil
}

func stderr(byT [][]float64, t int, mean float64) float64 {
	if len(byT) < 2 {
		return 0
	}
	var ss float64
	for _, r := range byT {
		d := r[t] - mean
		ss += d * d
	}
	n := float64(len(byT))
	return math.Sqrt(ss / (n - 1) / n)
}

package stats

import (
	"fmt"
	"math"
)

// Running is a mean and variance kept in one pass (Welford's update, which
// stays accurate where the naive sum of squares cancels). The zero value
// is empty. Adding the same values in the same order gives the same bits.
type Running struct {
	n    int
	mean float64
	m2   float64 // Σ (x − mean)²
}

// Add takes one value.
func (r *Running) Add(x float64) {
	r.n++
	d := x - r.mean
	r.mean += d / float64(r.n)
	r.m2 += float64(d * (x - r.mean))
}

// N is the number of values added.
func (r *Running) N() int { return r.n }

// Mean is their mean (0 when empty).
func (r *Running) Mean() float64 { return r.mean }

// Var is their sample variance, with n − 1 in the denominator (NaN below
// two values).
func (r *Running) Var() float64 {
	if r.n < 2 {
		return math.NaN()
	}
	return r.m2 / float64(r.n-1)
}

// StdErr is the standard error of the mean, √(Var/n).
func (r *Running) StdErr() float64 { return math.Sqrt(r.Var() / float64(r.n)) }

// Interval is the mean's Student-t 95 % interval, mean ± t(0.975, n−1)·s/√n.
// It needs two values. It assumes the mean is near normal, which holds for
// the sweeps' means of many independent trials but not for a rare event
// seen a few times: see docs/statistics.md on minimum trial counts.
func (r *Running) Interval() (Interval, error) {
	if r.n < 2 {
		return Interval{}, fmt.Errorf("stats: a t interval needs at least 2 values, got %d", r.n)
	}
	h := float64(tq975(r.n-1) * r.StdErr())
	return Interval{Mean: r.mean, N: r.n, Lo: r.mean - h, Hi: r.mean + h, Level: Level, Method: MethodT}.finite()
}

// MeanT is the Student-t 95 % interval of the mean of xs (Running.Interval).
func MeanT(xs []float64) (Interval, error) {
	var r Running
	for _, x := range xs {
		r.Add(x)
	}
	return r.Interval()
}

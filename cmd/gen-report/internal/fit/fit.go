package fit

import (
	"errors"
	"fmt"
	"math"

	"gonum.org/v1/gonum/optimize"
)

// Param is one magnitude to calibrate: its name (for messages), its bounds
// and where the search starts, strictly inside them.
type Param struct {
	Name          string
	Lo, Hi, Start float64
}

// Result is a calibration: the values found, the sum of squared residuals
// there and the residuals themselves, and how many times the objective ran.
type Result struct {
	X         []float64
	Cost      float64
	Residuals []float64
	Evals     int
	Status    string
}

// Options bound the search. The zero value is usable.
type Options struct {
	// MaxEvals caps the objective's runs from each start (default 400).
	MaxEvals int
	// Starts are more points to start from besides the parameters' Start,
	// each strictly inside the box; the best result of all is kept. A
	// simplex walks down the slope it starts on, so an objective with
	// plateaus and cliffs needs starts on both sides of a cliff.
	Starts [][]float64
	// Tol: the search stops when the best cost has improved by less than
	// Tol over 30 iterations (default 1e-12).
	Tol float64
	// SimplexSize is the initial simplex's size in the unbounded
	// coordinates (default 0.5: about a factor 1.6 on a parameter near
	// its lower bound).
	SimplexSize float64
	// Restarts: after the search stops, it starts again from its best
	// point with a fresh simplex this many times (default 0), which gets a
	// collapsed simplex out of a flat region or off a cliff's edge.
	Restarts int
}

// residualsFunc computes a model's residuals at x (model − target).
type residualsFunc = func(x []float64) ([]float64, error)

// LeastSquares minimises Σ residuals(x)² over the box of ps.
func LeastSquares(ps []Param, residuals residualsFunc, o Options) (Result, error) {
	if len(ps) == 0 {
		return Result{}, errors.New("fit: no parameters")
	}
	for _, p := range ps {
		if !(p.Lo < p.Hi) || math.IsInf(p.Lo, 0) || math.IsInf(p.Hi, 0) {
			return Result{}, fmt.Errorf("fit: %s: bounds [%g, %g] are not a finite interval", p.Name, p.Lo, p.Hi)
		}
		if !(p.Start > p.Lo && p.Start < p.Hi) {
			return Result{}, fmt.Errorf("fit: %s: start %g is not strictly inside [%g, %g]", p.Name, p.Start, p.Lo, p.Hi)
		}
	}
	if o.MaxEvals <= 0 {
		o.MaxEvals = 400
	}
	if o.Tol <= 0 {
		o.Tol = 1e-12
	}
	if o.SimplexSize <= 0 {
		o.SimplexSize = 0.5
	}
	toX := func(u []float64) []float64 {
		x := make([]float64, len(ps))
		for i, p := range ps {
			x[i] = p.Lo + (p.Hi-p.Lo)/(1+math.Exp(-u[i]))
		}
		return x
	}
	toU := func(x []float64) []float64 {
		u := make([]float64, len(ps))
		for i, p := range ps {
			s := (x[i] - p.Lo) / (p.Hi - p.Lo)
			u[i] = math.Log(s / (1 - s))
		}
		return u
	}
	starts := [][]float64{make([]float64, len(ps))}
	for i, p := range ps {
		starts[0][i] = p.Start
	}
	for k, x := range o.Starts {
		if len(x) != len(ps) {
			return Result{}, fmt.Errorf("fit: start %d has %d values, want %d", k+1, len(x), len(ps))
		}
		for i, p := range ps {
			if !(x[i] > p.Lo && x[i] < p.Hi) {
				return Result{}, fmt.Errorf("fit: start %d: %s = %g is not strictly inside [%g, %g]", k+1, p.Name, x[i], p.Lo, p.Hi)
			}
		}
		starts = append(starts, x)
	}
	var firstErr error
	evals := 0
	cost := func(u []float64) float64 {
		evals++
		r, err := residuals(toX(u))
		if err != nil {
			if firstErr == nil {
				firstErr = err
			}
			return math.Inf(1)
		}
		var c float64
		for _, v := range r {
			c += v * v
		}
		if math.IsNaN(c) {
			return math.Inf(1)
		}
		return c
	}
	var best []float64
	bestF, status := math.Inf(1), ""
	for _, x0 := range starts {
		u, f, st := toU(x0), math.Inf(1), ""
		limit := evals + o.MaxEvals
		for range o.Restarts + 1 {
			if evals >= limit {
				break
			}
			res, err := optimize.Minimize(optimize.Problem{Func: cost}, u, &optimize.Settings{
				FuncEvaluations: limit - evals,
				Converger:       &optimize.FunctionConverge{Absolute: o.Tol, Iterations: 30},
			}, &optimize.NelderMead{SimplexSize: o.SimplexSize})
			if firstErr != nil {
				return Result{}, fmt.Errorf("fit: the objective failed: %w", firstErr)
			}
			if res == nil {
				return Result{}, fmt.Errorf("fit: %w", err)
			}
			u, f, st = res.X, res.F, res.Status.String()
		}
		if f < bestF {
			best, bestF, status = u, f, st
		}
	}
	u := best
	if u == nil { // every start stopped at +Inf
		u = toU(starts[0])
	}
	x := toX(u)
	r, rerr := residuals(x)
	if rerr != nil {
		return Result{}, fmt.Errorf("fit: the objective failed at the optimum: %w", rerr)
	}
	var c float64
	for _, v := range r {
		c += v * v
	}
	return Result{X: x, Cost: c, Residuals: r, Evals: evals, Status: status}, nil
}

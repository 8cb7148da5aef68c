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
	// MaxEvals caps the objective's runs (default 400).
	MaxEvals int
	// Tol: the search stops when the best cost has improved by less than
	// Tol over 30 iterations (default 1e-12).
	Tol float64
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
	toX := func(u []float64) []float64 {
		x := make([]float64, len(ps))
		for i, p := range ps {
			x[i] = p.Lo + (p.Hi-p.Lo)/(1+math.Exp(-u[i]))
		}
		return x
	}
	u0 := make([]float64, len(ps))
	for i, p := range ps {
		s := (p.Start - p.Lo) / (p.Hi - p.Lo)
		u0[i] = math.Log(s / (1 - s))
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
	res, err := optimize.Minimize(optimize.Problem{Func: cost}, u0, &optimize.Settings{
		FuncEvaluations: o.MaxEvals,
		Converger:       &optimize.FunctionConverge{Absolute: o.Tol, Iterations: 30},
	}, &optimize.NelderMead{SimplexSize: 1})
	if firstErr != nil {
		return Result{}, fmt.Errorf("fit: the objective failed: %w", firstErr)
	}
	if err != nil && res == nil {
		return Result{}, fmt.Errorf("fit: %w", err)
	}
	x := toX(res.X)
	r, rerr := residuals(x)
	if rerr != nil {
		return Result{}, fmt.Errorf("fit: the objective failed at the optimum: %w", rerr)
	}
	var c float64
	for _, v := range r {
		c += v * v
	}
	return Result{X: x, Cost: c, Residuals: r, Evals: evals, Status: res.Status.String()}, nil
}

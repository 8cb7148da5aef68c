package fit

import (
	"math"
	"testing"
)

// TestRecoversKnownMinimum: residuals of a model with known parameters are
// fitted back to them, one of them near its bound.
func TestRecoversKnownMinimum(t *testing.T) {
	want := []float64{0.3, 2.5e-4, 9.9}
	model := func(x []float64, k float64) float64 { return x[0]*k + x[1]*1e3*k*k + x[2]/(1+k) }
	ks := []float64{0, 0.5, 1, 2, 3, 5}
	res, err := LeastSquares([]Param{
		{"a", 0, 1, 0.5}, {"b", 0, 1e-3, 5e-4}, {"c", 0, 10, 5},
	}, func(x []float64) ([]float64, error) {
		r := make([]float64, len(ks))
		for i, k := range ks {
			r[i] = model(x, k) - model(want, k)
		}
		return r, nil
	}, Options{MaxEvals: 4000})
	if err != nil {
		t.Fatal(err)
	}
	for i := range want {
		if math.Abs(res.X[i]-want[i]) > 1e-3*math.Abs(want[i]) {
			t.Errorf("x[%d] = %g, want %g (cost %g, %d evals, %s)", i, res.X[i], want[i], res.Cost, res.Evals, res.Status)
		}
	}
}

// TestStaysInBounds: a minimum outside the box ends at its edge, and no
// point outside the box is ever evaluated.
func TestStaysInBounds(t *testing.T) {
	res, err := LeastSquares([]Param{{"a", 1, 2, 1.5}}, func(x []float64) ([]float64, error) {
		if x[0] < 1 || x[0] > 2 {
			t.Fatalf("evaluated outside the bounds: %g", x[0])
		}
		return []float64{x[0] - 5}, nil
	}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if res.X[0] < 1.99 {
		t.Errorf("x = %g, want near the upper bound 2", res.X[0])
	}
}

func TestDeterministic(t *testing.T) {
	f := func(x []float64) ([]float64, error) { return []float64{x[0] - 0.2, x[0]*x[1] - 0.7}, nil }
	ps := []Param{{"a", 0, 1, 0.5}, {"b", 0, 10, 1}}
	a, _ := LeastSquares(ps, f, Options{})
	b, _ := LeastSquares(ps, f, Options{})
	for i := range a.X {
		if a.X[i] != b.X[i] {
			t.Fatalf("two runs differ: %v vs %v", a.X, b.X)
		}
	}
}

func TestBadInput(t *testing.T) {
	ok := func(x []float64) ([]float64, error) { return []float64{x[0]}, nil }
	for _, ps := range [][]Param{nil, {{"a", 1, 1, 1}}, {{"a", 0, 1, 0}}, {{"a", 0, math.Inf(1), 1}}} {
		if _, err := LeastSquares(ps, ok, Options{}); err == nil {
			t.Errorf("%v: no error", ps)
		}
	}
}

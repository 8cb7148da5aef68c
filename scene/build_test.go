package scene

import (
	"errors"
	"fmt"
	"testing"

	"commlab/engine/cost"
	"commlab/engine/param"
	"commlab/engine/progress"
)

// TestEngineError: an engine's range error, bare or wrapped, becomes the
// page's FieldError on the same key with the page's value, or the engine's
// for a parameter the scene does not show; anything else is unchanged.
func TestEngineError(t *testing.T) {
	v := Values{"sigma": "3e0"}
	for _, tc := range []struct {
		err  error
		want FieldError
	}{
		{&param.Error{Field: "sigma", Value: "3", Want: "a number in [0, 20]"}, FieldError{Key: "sigma", Value: "3e0", Want: "a number in [0, 20]"}},
		{fmt.Errorf("replay 3: %w", &param.Error{Field: "sigma", Value: "3", Want: "a number in [0, 20]"}), FieldError{Key: "sigma", Value: "3e0", Want: "a number in [0, 20]"}},
		{&param.Error{Field: "sockets", Value: "3", Want: "an integer in [1, 2]"}, FieldError{Key: "sockets", Value: "3", Want: "an integer in [1, 2]"}},
	} {
		var fe *FieldError
		if err := EngineError(tc.err, v); !errors.As(err, &fe) || *fe != tc.want {
			t.Errorf("EngineError(%v) = %#v, want %+v", tc.err, err, tc.want)
		}
	}
	other := errors.New("something else")
	if got := EngineError(other, v); got != other {
		t.Errorf("EngineError(%v) = %v, want it unchanged", other, got)
	}
	if EngineError(nil, v) != nil {
		t.Error("EngineError(nil) is not nil")
	}
}

// checkedRun is a Run for the Checked tests.
type checkedRun struct{ Run }

// testModel is a model of one parameter n that refuses n = 9 in Run (as an
// engine would, with its range error), fails n = 8 in Run with another
// error and costs n seconds; ran counts its runs.
type testModel struct {
	n   int
	ran *int
}

func (m testModel) Cost(Values) (cost.Cost, error) { return cost.Cost{Seconds: float64(m.n)}, nil }

func (m testModel) Run(v Values, seed uint64, pr progress.Func) (Run, error) {
	*m.ran++
	switch m.n {
	case 8:
		return nil, errors.New("the sort took 0 s")
	case 9:
		return nil, fmt.Errorf("replay 1: %w", &param.Error{Field: "n", Value: "9", Want: "less than 9"})
	}
	return checkedRun{}, pr.Report(1)
}

// testChecked is a scene's checked build over one field n in [1, 10]
// whose model refuses n = 7 when read.
func testChecked(ran *int) Checked {
	return Checked{
		Fields: func() []Field {
			return []Field{{Key: "n", Kind: Int, Type: "int", Min: 1, Max: 10, Default: "2"}}
		},
		Model: func(v Values) (Model, error) {
			if n := v.Int("n"); n != 7 {
				return testModel{n, ran}, nil
			}
			return nil, &param.Error{Field: "n", Value: "7", Want: "not 7"}
		},
		Errors: EngineError,
	}
}

// TestChecked: values are checked before the model sees them, engine
// range errors from Params and Run come back as FieldErrors, other errors
// (a canceled build's included) come back as they are, with no prefix, and
// Estimate prices the parameters without running the model.
func TestChecked(t *testing.T) {
	ran := 0
	c := testChecked(&ran)
	for _, tc := range []struct {
		v       Values
		key     string // the FieldError's, "" for none
		err     string // the error's text
		running bool   // the model ran
	}{
		{Values{"n": "3"}, "", "", true},
		{Values{}, "n", `n: "" is not allowed; want a whole number in [1, 10]`, false},
		{Values{"n": "11"}, "n", `n: "11" is not allowed; want a whole number in [1, 10]`, false},
		{Values{"n": "7"}, "n", `n: "7" is not allowed; want not 7`, false},
		{Values{"n": "9"}, "n", `n: "9" is not allowed; want less than 9`, true},
		{Values{"n": "8"}, "", "the sort took 0 s", true},
	} {
		ran = 0
		r, err := c.Build(tc.v, 1)
		var fe *FieldError
		switch {
		case tc.err == "" && (err != nil || r == nil):
			t.Errorf("Build(%v) = %v, %v; want a run", tc.v, r, err)
		case tc.err != "" && (err == nil || err.Error() != tc.err || r != nil):
			t.Errorf("Build(%v) = %v, %v; want the error %q", tc.v, r, err, tc.err)
		case tc.key != "" && (!errors.As(err, &fe) || fe.Key != tc.key):
			t.Errorf("Build(%v) error %#v, want a FieldError on %s", tc.v, err, tc.key)
		case (ran > 0) != tc.running:
			t.Errorf("Build(%v): the model ran %d times", tc.v, ran)
		}
	}
	stop := errors.New("stop")
	if _, err := c.BuildProgress(Values{"n": "3"}, 1, func(float64) error { return stop }); err != stop {
		t.Errorf("BuildProgress stopped by its Func: %v, want that Func's error as it is", err)
	}
	ran = 0
	if est, err := c.Estimate(Values{"n": "4"}); err != nil || est.Seconds != 4 || ran != 0 {
		t.Errorf("Estimate = %+v, %v after %d runs; want 4 s and no run", est, err, ran)
	}
	var fe *FieldError
	if _, err := c.Estimate(Values{"n": "7"}); !errors.As(err, &fe) || fe.Key != "n" {
		t.Errorf("Estimate of a refused n: %v, want a FieldError on n", err)
	}
}

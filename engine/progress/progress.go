package progress

import "errors"

// Func is told the fraction of the run done so far, in [0, 1],
// nondecreasing. A non-nil error stops the run, which returns it (wrapped
// or as is; errors.Is finds it).
type Func func(done float64) error

// ErrCanceled is what a Func returns when its caller no longer wants the
// run (a newer request replaced it, or the user pressed cancel).
var ErrCanceled = errors.New("canceled")

// Report calls f with done if f is non-nil; a nil Func never stops a run.
//
//go:noinline
func (f Func) Report(done float64) error {
	if f == nil {
		return nil
	}
	return f(min(max(done, 0), 1))
}

// Part is f for one part of a run that spans [lo, hi] of the whole: the
// part reports its own fraction in [0, 1] and f hears lo + (hi-lo)·done.
// A nil f gives a nil Func.
//
//go:noinline
func (f Func) Part(lo, hi float64) Func {
	if f == nil {
		return nil
	}
	return func(done float64) error {
		return f(lo + (hi-lo)*min(max(done, 0), 1))
	}
}

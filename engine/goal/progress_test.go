package goal

import (
	"errors"
	"reflect"
	"testing"

	"commlab/engine/progress"
)

// TestRunProgress: Options.Progress hears a rising fraction and changes
// nothing in the result; an error from it stops the run and comes back
// from Run; the executor then runs the schedule to the same result.
func TestRunProgress(t *testing.T) {
	s := butterfly(t, 1<<12, 2)
	want, err := Run(s, Default(), Noise{}, Options{Record: true})
	if err != nil {
		t.Fatal(err)
	}
	var seen []float64
	var x Executor
	got, err := x.Run(s, Default(), Noise{}, Options{Record: true, Progress: func(done float64) error {
		seen = append(seen, done)
		return nil
	}})
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, want) {
		t.Error("the run with Progress differs from the run without")
	}
	if len(seen) < 2 {
		t.Fatalf("Progress heard %d times on %d operations, want several", len(seen), s.NumOps())
	}
	for i := 1; i < len(seen); i++ {
		if seen[i] < seen[i-1] || seen[i] > 1 {
			t.Fatalf("fractions %v: want nondecreasing in [0, 1]", seen)
		}
	}
	calls := 0
	_, err = x.Run(s, Default(), Noise{}, Options{Progress: func(float64) error {
		if calls++; calls == 2 {
			return progress.ErrCanceled
		}
		return nil
	}})
	if !errors.Is(err, progress.ErrCanceled) || calls != 2 {
		t.Fatalf("a Progress that cancels: Run returned %v after %d calls", err, calls)
	}
	again, err := x.Run(s, Default(), Noise{}, Options{Record: true})
	if err != nil || !reflect.DeepEqual(again, want) {
		t.Errorf("the executor after a canceled run: %v, same result %v", err, reflect.DeepEqual(again, want))
	}
}

package overlay

import (
	"errors"
	"reflect"
	"testing"

	"commlab/engine/progress"
	"commlab/engine/trace"
)

// TestRunISProgress checks that the progress of an IS run rises to the
// end of its iterations without changing what it measures, and that a
// Func that cancels stops it.
func TestRunISProgress(t *testing.T) {
	p := Default()
	p.Iterations = 2
	want, err := RunIS(p, rng(3), nil)
	if err != nil {
		t.Fatal(err)
	}
	var seen []float64
	got, err := RunISProgress(p, rng(3), new(trace.Trace), func(done float64) error {
		seen = append(seen, done)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("with progress %+v\nwithout %+v", got, want)
	}
	if len(seen) < 2 {
		t.Fatalf("progress heard %d times, want several", len(seen))
	}
	for i := 1; i < len(seen); i++ {
		if seen[i] < seen[i-1] || seen[i] > 1 {
			t.Fatalf("fraction %v after %v", seen[i], seen[i-1])
		}
	}
	if _, err := RunISProgress(p, rng(3), nil, func(float64) error { return progress.ErrCanceled }); !errors.Is(err, progress.ErrCanceled) {
		t.Errorf("canceled run returned %v, want progress.ErrCanceled", err)
	}
}

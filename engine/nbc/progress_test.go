package nbc

import (
	"errors"
	"reflect"
	"testing"

	"commlab/engine/progress"
)

// TestRunProgress checks that RunProgress measures what Run does, hears a
// fraction that never goes back, and stops when told.
func TestRunProgress(t *testing.T) {
	p := Default()
	want, err := Run(p, nil)
	if err != nil {
		t.Fatal(err)
	}
	var seen []float64
	got, err := RunProgress(p, nil, func(done float64) error { seen = append(seen, done); return nil })
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("with progress %+v\nwithout %+v", got, want)
	}
	if len(seen) == 0 {
		t.Fatal("progress heard nothing")
	}
	for i := 1; i < len(seen); i++ {
		if seen[i] < seen[i-1] {
			t.Fatalf("fraction %v after %v", seen[i], seen[i-1])
		}
	}
	if _, err := RunProgress(p, nil, func(float64) error { return progress.ErrCanceled }); !errors.Is(err, progress.ErrCanceled) {
		t.Errorf("canceled run returned %v, want progress.ErrCanceled", err)
	}
}

package progress

import (
	"errors"
	"testing"
)

func TestNilFuncNeverStops(t *testing.T) {
	var f Func
	if err := f.Report(0.5); err != nil {
		t.Errorf("nil Func: Report = %v, want nil", err)
	}
	if f.Part(0, 0.5) != nil {
		t.Error("nil Func: Part is not nil")
	}
}

func TestPartMapsOntoTheWhole(t *testing.T) {
	var got []float64
	f := Func(func(done float64) error { got = append(got, done); return nil })
	p := f.Part(0.25, 0.75)
	for _, x := range []float64{0, 0.5, 1, 2, -1} {
		if err := p.Report(x); err != nil {
			t.Fatal(err)
		}
	}
	want := []float64{0.25, 0.5, 0.75, 0.75, 0.25}
	if len(got) != len(want) {
		t.Fatalf("got %v, want %v", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("report %d: got %v, want %v", i, got[i], want[i])
		}
	}
}

func TestErrorStops(t *testing.T) {
	f := Func(func(float64) error { return ErrCanceled })
	if err := f.Part(0, 1).Report(0.1); !errors.Is(err, ErrCanceled) {
		t.Errorf("Report = %v, want ErrCanceled", err)
	}
}

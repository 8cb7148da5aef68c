package allreduce

import (
	"errors"
	"math/rand/v2"
	"testing"

	"commlab/engine/progress"
	"commlab/engine/trace"
)

// TestProgress checks that Simulator.Progress hears a rising fraction that
// ends at 1, leaves the numbers and the trace as they are without it, and
// stops a trial with its error.
func TestProgress(t *testing.T) {
	for _, P := range []int{64, 1 << 14} {
		p := Default()
		p.P, p.T = P, 3
		var plain Simulator
		want, err := plain.Run(p, rand.New(rand.NewPCG(1, 2)), nil)
		if err != nil {
			t.Fatal(err)
		}
		var seen []float64
		sim := Simulator{Progress: func(done float64) error { seen = append(seen, done); return nil }}
		got, err := sim.Run(p, rand.New(rand.NewPCG(1, 2)), nil)
		if err != nil {
			t.Fatal(err)
		}
		if !equalFloats(got.ByT, want.ByT) || !equalFloats(got.StageEnd, want.StageEnd) {
			t.Errorf("P = %d: with Progress %+v, without %+v", P, got, want)
		}
		if len(seen) < p.K()+p.T {
			t.Errorf("P = %d: Progress heard %d times, want at least K+T = %d", P, len(seen), p.K()+p.T)
		}
		for i := 1; i < len(seen); i++ {
			if !(seen[i] > seen[i-1]) {
				t.Fatalf("P = %d: fraction %v after %v, want rising", P, seen[i], seen[i-1])
			}
		}
		if last := seen[len(seen)-1]; last != 1 {
			t.Errorf("P = %d: last fraction %v, want 1", P, last)
		}

		// Stopped half way, the trial returns the error; the Simulator
		// then runs the next trial as if nothing happened.
		stop := errors.New("stop")
		sim.Progress = func(done float64) error {
			if done >= 0.5 {
				return stop
			}
			return nil
		}
		if _, err := sim.Run(p, rand.New(rand.NewPCG(1, 2)), new(trace.Trace)); !errors.Is(err, stop) && P <= MaxTraceP {
			t.Errorf("P = %d: stopped Run returned %v, want %v", P, err, stop)
		}
		sim.Progress = progress.Func(nil)
		again, err := sim.Run(p, rand.New(rand.NewPCG(1, 2)), nil)
		if err != nil || !equalFloats(again.ByT, want.ByT) {
			t.Errorf("P = %d: after a stopped trial, Run = %+v, %v; want %+v", P, again, err, want)
		}
	}
}

func equalFloats(a, b []float64) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

package allreduce

import (
	"math"
	"math/rand/v2"
	"testing"

	"commlab/engine/trace"
)

func TestSetsAndFeasibility(t *testing.T) {
	sets := PaperSets(true)
	if len(sets) != 4 {
		t.Fatalf("%d sets, want A, B, C1, C2", len(sets))
	}
	for _, s := range sets {
		if len(s.XExp) < 13 || s.K[0] != 1 || s.K[len(s.K)-1] != 20 {
			t.Errorf("set %s: %d x points, P = 2^%d..2^%d; the issue asks ≥ 13 and 2^1..2^20", s.Name, len(s.XExp), s.K[0], s.K[len(s.K)-1])
		}
	}
	a, b := sets[0], sets[1]
	// Set A: Tcomm/duration below α/duration = 0.1 needs N < 0.
	for xi, e := range a.XExp {
		_, ok := a.Point(xi, 4)
		if want := e >= -1; ok != want {
			t.Errorf("set A at %s: feasible = %v, want %v", a.Label(xi), ok, want)
		}
	}
	// Set B's first column is Tcomm = α exactly: N = 0, feasible.
	p, ok := b.Point(0, 4)
	if !ok || p.N != 0 {
		t.Errorf("set B at 10^-3: ok=%v N=%g, want feasible with N = 0", ok, p.N)
	}
	// The x value is what the axis says.
	p, _ = b.Point(6, 4) // 10^-1
	if got := p.Tcomm() / p.Duration; math.Abs(got-0.1) > 1e-12 {
		t.Errorf("set B at 10^-1: Tcomm/duration = %g", got)
	}
	c1 := sets[2]
	p, _ = c1.Point(9, 4) // 10^-2
	if got := p.Duration / p.Period; math.Abs(got-0.01) > 1e-15 || p.N != 8 {
		t.Errorf("set C1 at 10^-2: duration/period = %g, N = %g", got, p.N)
	}
	for _, s := range sets {
		for xi := range s.XExp {
			if p, ok := s.Point(xi, 20); ok {
				if err := p.Validate(); err != nil {
					t.Errorf("set %s x %s: %v", s.Name, s.Label(xi), err)
				}
			}
		}
	}
}

func TestSummarize(t *testing.T) {
	p := Params{P: 8, Alpha: 1, Beta: 0, Gamma: 0, N: 0, Period: 10, Duration: 1, T: 3}
	// no-jitter time K·Tcomm = 3
	trials := [][]float64{
		{10, 6, 5.02, 5},
		{12, 8, 7.02, 7},
	}
	s, err := Summarize(p, trials)
	if err != nil {
		t.Fatal(err)
	}
	if s.NoJitter != 3 || s.Conventional != 11 || s.Proposed != 6 || s.Trials != 2 {
		t.Fatalf("got %+v", s)
	}
	// means 11, 7, 6.02, 6: T = 2 is within 1 % of the best (6.0602).
	if s.OptimalT != 2 {
		t.Errorf("optimal T = %d, want 2", s.OptimalT)
	}
	if math.Abs(s.Influence-11.0/3) > 1e-15 || math.Abs(s.Effect-6.0/11) > 1e-15 {
		t.Errorf("influence %g, effect %g", s.Influence, s.Effect)
	}
	if want := 1.0; math.Abs(s.ConventionalSE-want) > 1e-12 { // sd √2, n 2: √2/√2
		t.Errorf("conventional stderr %g, want %g", s.ConventionalSE, want)
	}
	// Redundancy not worth it: T = 0 is within 1 % of the best.
	s, _ = Summarize(p, [][]float64{{3, 3, 3, 2.99}})
	if s.OptimalT != 0 {
		t.Errorf("optimal T = %d, want 0 when no exchange saves 1 %%", s.OptimalT)
	}
	if _, err := Summarize(p, [][]float64{{1, 2}}); err == nil {
		t.Error("a trial with the wrong number of times was accepted")
	}
	if _, err := Summarize(p, nil); err == nil {
		t.Error("no trials accepted")
	}
}

// TestSummarizeFewerExchanges: a point run with T < K redundant exchanges
// has T+1 times per trial (the bug was to demand K+1), the proposed time is
// the best of 1..T, and T = 0 leaves only the conventional time.
func TestSummarizeFewerExchanges(t *testing.T) {
	p := Params{P: 8, Alpha: 1, Period: 10, Duration: 1, T: 1} // K = 3
	s, err := Summarize(p, [][]float64{{10, 6}, {12, 8}})
	if err != nil {
		t.Fatalf("T = 1 < K = 3: %v", err)
	}
	if len(s.MeanByT) != 2 || s.Conventional != 11 || s.Proposed != 7 || s.OptimalT != 1 {
		t.Errorf("T = 1: got %+v", s)
	}
	p.T = 0
	s, err = Summarize(p, [][]float64{{10}, {12}})
	if err != nil {
		t.Fatalf("T = 0: %v", err)
	}
	if s.Proposed != s.Conventional || s.Effect != 1 || s.OptimalT != 0 {
		t.Errorf("T = 0: got %+v", s)
	}
	if _, err := Summarize(p, [][]float64{{10, 6}}); err == nil {
		t.Error("T = 0 accepted a trial with two times")
	}
}

// TestRedundantStagesRun: a trial with T redundant exchanges simulates K + T
// stages, not 2K: the trace holds exactly P·T redundant messages, and the
// result T+1 times, for every T in [0, K].
func TestRedundantStagesRun(t *testing.T) {
	var s Simulator
	for _, pw := range []int{2, 16, 256} {
		p := Default()
		p.P = pw
		for T := 0; T <= p.K(); T++ {
			p.T = T
			var tr trace.Trace
			res, err := s.Run(p, rand.New(rand.NewPCG(5, uint64(T))), &tr)
			if err != nil {
				t.Fatal(err)
			}
			if len(res.ByT) != T+1 {
				t.Fatalf("P = %d, T = %d: %d times, want T+1", pw, T, len(res.ByT))
			}
			n := 0
			for _, m := range tr.Messages {
				if m.Class == "redundant" {
					n++
				}
			}
			if n != pw*T {
				t.Errorf("P = %d, T = %d: %d redundant messages, want P·T = %d", pw, T, n, pw*T)
			}
			if _, err := Summarize(p, [][]float64{res.ByT}); err != nil {
				t.Errorf("P = %d, T = %d: %v", pw, T, err)
			}
		}
	}
}

func TestExpLabel(t *testing.T) {
	for e, want := range map[float64]string{-3: "10^-3", -2.333333333: "10^-2.33", 0: "10^0", 1.6666667: "10^1.67", -0.0000001: "10^0"} {
		if got := ExpLabel(e); got != want {
			t.Errorf("ExpLabel(%g) = %q, want %q", e, got, want)
		}
	}
}

package mmdl

import (
	"errors"
	"math"
	"testing"

	"commlab/engine/param"
)

// paperTable5 is the paper's Table 5, simulated column (s): ProcSet 2,
// Load 2, calibrated parameters, R = 1 … 20.
var paperTable5 = []float64{
	11.996034, 15.506518, 13.798204, 12.944644, 12.431613, 12.090941, 11.846690, 11.665072, 11.522636, 11.408744,
	11.316546, 11.238737, 11.173820, 11.118194, 11.070093, 11.029194, 10.989639, 10.956554, 10.928810, 10.900142,
}

// The paper's schedule reproduces Table 5's simulated column. The paper
// prints 7 digits (1 µs); it does not give its flows, the order of its
// transfers or how it rounds tasks to whole vectors, and the residuals
// (−2.7 … +0.2 ms, no trend in R) are of the size of a few tasks' compute
// (122.5 µs each) or one α (100 µs) per round. So the test holds each R to
// 0.03 % and the sum of the residuals over R = 2 … 20 to 15 ms (it is
// −12.5 ms: −0.66 ms on average; one α per round more or less would move
// it by ±21 ms).
func TestPaperTable5(t *testing.T) {
	in, _ := Preset(2, "2", true)
	st, err := SteadyState(in)
	if err != nil {
		t.Fatal(err)
	}
	var sum float64
	for R := 2; R <= 20; R++ {
		s, err := Rounds(in, st, R, Paper)
		if err != nil {
			t.Fatal(err)
		}
		d := s.Makespan - paperTable5[R-1]
		sum += d
		if math.Abs(d) > 3e-4*paperTable5[R-1] {
			t.Errorf("R = %d: makespan %.6f, the paper %.6f (%.3f ms apart, above 0.03 %%)", R, s.Makespan, paperTable5[R-1], 1e3*d)
		}
		// The pipeline: R rounds of T/R + D·α (D = 4 messages of P7 per
		// round), then P4's last quota. This is what the paper's formula
		// T + T/R + α·R bounds.
		if want := st.T/float64(R) + 4*in.Latency; !near(s.Period, want, 1e-12) {
			t.Errorf("R = %d: period %.9f, want T/R + 4α = %.9f", R, s.Period, want)
		}
	}
	if math.Abs(sum) > 15e-3 {
		t.Errorf("residuals over R = 2 … 20 sum to %.3f ms, want within 15 ms", 1e3*sum)
	}
}

// R = 1 is one round that is both the first and the last: every processor
// sends or receives, then computes. P4 receives last (after P7's three
// larger messages), then computes its 83,701 tasks: 11.996138 s against the
// paper's 11.996034, one α (100 µs) apart.
func TestPaperOneRound(t *testing.T) {
	in, _ := Preset(2, "2", true)
	st, _ := SteadyState(in)
	s, err := Rounds(in, st, 1, Paper)
	if err != nil {
		t.Fatal(err)
	}
	if d := s.Makespan - paperTable5[0]; math.Abs(d) > 1.5*in.Latency {
		t.Errorf("R = 1: makespan %.6f, the paper %.6f (%.3f ms apart, want within 1.5 α)", s.Makespan, paperTable5[0], 1e3*d)
	}
	// And it is far from the pipeline's 2T + α, the formula's R = 1.
	if s.Makespan > 1.5*st.T {
		t.Errorf("R = 1: makespan %g is not one round's transfers then computation (T = %g)", s.Makespan, st.T)
	}
}

// Table 4's simulated columns at R = 5: the cases whose paper values the
// pipeline reproduces (Load 1, 2 and 4) within 0.02 % on ProcSet 1 and
// ProcSet 2 / Load 2 and 4, 0.7 % on ProcSet 2 / Load 1; Load 3-a and 3-b
// are the known misses (the paper's simulation lies near T there; the
// report shows them).
func TestPaperTable4(t *testing.T) {
	cases := []struct {
		ps             int
		load           string
		before, after  float64
		tolB, tolAfter float64
	}{
		{1, "1", 3.125000, 9.187500, 1e-12, 1e-12},
		{1, "2", 4.589715, 11.845532, 2e-4, 2e-4},
		{1, "4", 5.238346, 12.886128, 2e-4, 2e-4},
		{2, "1", 4.159893, 11.724372, 7e-3, 3e-3},
		{2, "2", 4.883831, 12.431613, 2e-4, 2e-4},
		{2, "4", 5.287006, 13.214013, 2e-4, 2e-4},
	}
	for _, c := range cases {
		for _, cal := range []bool{false, true} {
			in, _ := Preset(c.ps, c.load, cal)
			st, _ := SteadyState(in)
			s, err := Rounds(in, st, 5, Paper)
			if err != nil {
				t.Fatal(err)
			}
			want, tol := c.before, c.tolB
			if cal {
				want, tol = c.after, c.tolAfter
			}
			if math.Abs(s.Makespan-want) > tol*want {
				t.Errorf("ProcSet %d, Load %s, calibrated %v: %.6f, the paper %.6f (want within %g %%)", c.ps, c.load, cal, s.Makespan, want, 100*tol)
			}
		}
	}
}

// The overlapped schedule never loses to the paper's on the presets, and
// gains where tasks move.
func TestOverlapGains(t *testing.T) {
	for _, ps := range []int{1, 2} {
		for _, l := range Loads {
			in, _ := Preset(ps, l, true)
			st, _ := SteadyState(in)
			p, _ := Rounds(in, st, 5, Paper)
			o, _ := Rounds(in, st, 5, Overlap)
			if o.Makespan > p.Makespan*(1+1e-12) {
				t.Errorf("ProcSet %d, Load %s: overlap %g loses to paper %g", ps, l, o.Makespan, p.Makespan)
			}
			if len(st.Transfers) > 0 && o.Makespan > p.Makespan*0.95 {
				t.Errorf("ProcSet %d, Load %s: overlap %g gains under 5 %% on paper %g", ps, l, o.Makespan, p.Makespan)
			}
		}
	}
}

// Execute keeps the plan's flows and takes the machine's durations: a
// plan made with the machine's own parameters is the plain schedule, and a
// plan made with the first guess is never faster on the calibrated
// machine than the recalibrated plan, at the same R, on the presets
// where tasks move both times.
func TestExecute(t *testing.T) {
	machine, _ := Preset(2, "2", true)
	guess, _ := Preset(2, "2", false)
	own, _ := SteadyState(machine)
	plan, _ := SteadyState(guess)
	a, _ := Rounds(machine, own, 5, Paper)
	b, err := Execute(machine, own, 5, Paper)
	if err != nil || a.Makespan != b.Makespan {
		t.Fatalf("Execute with the machine's own plan: %v, %v (want %v)", b.Makespan, err, a.Makespan)
	}
	e, err := Execute(machine, plan, 5, Paper)
	if err != nil {
		t.Fatal(err)
	}
	checkSchedule(t, "executed plan", machine, plan, e)
	if e.Makespan <= a.Makespan {
		t.Errorf("the first guess's plan runs in %g on the calibrated machine, the recalibrated plan in %g", e.Makespan, a.Makespan)
	}
	// The guessed plan balances for γ and β of the guess, not the machine:
	// its final loads differ from the machine's own.
	if near(e.Final[0], a.Final[0], 1e-6) {
		t.Errorf("the guessed plan's final load of P0 %g equals the machine's own %g", e.Final[0], a.Final[0])
	}
}

func TestParseSched(t *testing.T) {
	for i, n := range Scheds {
		s, err := ParseSched(n)
		if err != nil || s != Sched(i) || s.String() != n {
			t.Errorf("ParseSched(%q) = %v, %v", n, s, err)
		}
		b, err := s.MarshalText()
		var back Sched
		if err != nil || back.UnmarshalText(b) != nil || back != s {
			t.Errorf("%v does not round-trip through text: %q, %v", s, b, err)
		}
	}
	_, err := ParseSched("overlapped")
	var re *param.Error
	if !errors.As(err, &re) || re.Field != "schedule" {
		t.Errorf(`ParseSched("overlapped"): %v, want a *param.Error on schedule`, err)
	}
	in, _ := Preset(2, "2", true)
	st, _ := SteadyState(in)
	if _, err := Rounds(in, st, 5, Sched(7)); !errors.As(err, &re) || re.Field != "schedule" {
		t.Errorf("Rounds(Sched(7)): %v, want a *param.Error on schedule", err)
	}
}

package logp

import (
	"errors"
	"math"
	"testing"

	"commlab/engine/param"
	"commlab/engine/sweep"
	"commlab/engine/trace"
)

func near(a, b, tol float64) bool { return math.Abs(a-b) <= tol }

// P = 2: the slides' T_s = (n + 3o + L_s)/2, half units included: n=1000,
// o=1, L_s=10 gives 506.5. P1 (root) adds T_s - o numbers (505.5), P2 the
// other 494.5; P2 sends at 493.5, the message lands at 504.5 = T_s - o - 1.
func TestPlanP2(t *testing.T) {
	p := Default()
	p.P = 2
	for _, c := range []struct{ n, o, ls, want float64 }{
		{1000, 1, 10, 506.5}, {1000, 1, 11, 507}, {1000, 0, 0, 500}, {101, 2, 7.25, 57.125},
	} {
		p.N, p.O = int(c.n), c.o
		s, err := Plan(p, c.ls)
		if err != nil {
			t.Fatal(err)
		}
		if s.Used != 2 || !near(s.Planned(), c.want, 1e-9) || c.want != (c.n+3*c.o+c.ls)/2 {
			t.Errorf("n=%g o=%g Ls=%g: used %d, T_s = %g, want %g", c.n, c.o, c.ls, s.Used, s.Planned(), c.want)
		}
		if !near(s.Numbers[0]+s.Numbers[1], c.n, 1e-9) || !near(s.Numbers[0], c.want-c.o, 1e-9) {
			t.Errorf("n=%g: numbers %v", c.n, s.Numbers)
		}
	}
	// Too few numbers for a message to pay: n ≤ L_s + o + 1 → one
	// processor, T = n - 1.
	p.N, p.O = 12, 1
	s, _ := Plan(p, 10)
	if s.Used != 1 || s.Planned() != 11 {
		t.Errorf("n=12: used %d, T %g; want 1, 11", s.Used, s.Planned())
	}
}

// P = 3 with the slides' parameters: both partial sums go to P1 (a star),
// h = max(g, o+1) = 2 apart, so n = 3T - 2L_s - 6o - 1 - h and
// T_s = (1000 + 20 + 6 + 1 + 2)/3 = 343.
func TestPlanP3Star(t *testing.T) {
	s, err := Plan(Default(), 10)
	if err != nil {
		t.Fatal(err)
	}
	if s.Used != 3 || s.Parent[1] != 0 || s.Parent[2] != 0 || !near(s.Planned(), 343, 1e-9) {
		t.Fatalf("used %d parents %v T_s %g; want a star of 3 and 343", s.Used, s.Parent, s.Planned())
	}
	if d := s.Deadline; !near(d[1], 343-13, 1e-9) || !near(d[2], 343-15, 1e-9) {
		t.Fatalf("deadlines %v, want [343 330 328]", d)
	}
}

// Larger P: the plan sums exactly n, every processor's deadline leaves
// room for its receptions, and the nominal run equals the plan.
func TestPlanGeneral(t *testing.T) {
	for _, p := range []Params{
		{P: 8, N: 1000, L: 10, O: 1, G: 1},
		{P: 64, N: 100000, L: 6, O: 2, G: 4},
		{P: 1024, N: 1000000, L: 10, O: 1, G: 1},
		{P: 1024, N: 500, L: 10, O: 1, G: 1},
	} {
		s, err := Plan(p, p.L)
		if err != nil {
			t.Fatal(err)
		}
		var sum float64
		for _, x := range s.Numbers {
			sum += x
		}
		if !near(sum, float64(p.N), 1e-6*float64(p.N)) {
			t.Errorf("%+v: numbers sum to %g", p, sum)
		}
		if !near(s.Planned(), s.Deadline[0], 1e-9*s.Planned()) {
			t.Errorf("%+v: nominal run %g, plan's T %g", p, s.Planned(), s.Deadline[0])
		}
		for q := 1; q < s.Used; q++ {
			if s.Deadline[q] <= p.O || s.Numbers[q] < 1 {
				t.Errorf("%+v: processor %d deadline %g numbers %g", p, q, s.Deadline[q], s.Numbers[q])
			}
		}
		// More processors never hurt, and beat one processor.
		if s.Planned() > float64(p.N-1) {
			t.Errorf("%+v: T_s %g worse than sequential", p, s.Planned())
		}
	}
}

// A brute-force check of optimality for P = 3: over every two-child
// arrangement (star, or chain P3 → P2 → P1), with the numbers balanced so
// all deadlines are tight, none beats the plan.
func TestPlanP3BeatsChain(t *testing.T) {
	for _, g := range []float64{1, 5, 20, 40} {
		p := Params{P: 3, N: 1000, L: 10, O: 1, G: g}
		s, _ := Plan(p, 10)
		a := p.L + 2*p.O + 1
		// chain: offsets a and 2a.
		chain := (float64(p.N) - 1 + (a + p.O) + (2*a + p.O)) / 3
		if s.Planned() > chain+1e-9 {
			t.Errorf("g=%g: plan %g slower than the chain %g", g, s.Planned(), chain)
		}
	}
}

func TestReplayNoFluctuation(t *testing.T) {
	p := Default()
	p.Sigma = 0
	s, _ := Plan(p, 10)
	r, err := Replay(s, p, sweep.RNG(1, 0, 0), nil)
	if err != nil {
		t.Fatal(err)
	}
	if r.T != s.Planned() || r.Stall != 0 || r.Late != 0 {
		t.Fatalf("σ=0 replay %+v, want T = T_s = %g exactly", r, s.Planned())
	}
	// Planned with L_s = 12 but latency 10: early messages do not help.
	s12, _ := Plan(p, 12)
	r, _ = Replay(s12, p, sweep.RNG(1, 0, 0), nil)
	if r.T != s12.Planned() {
		t.Fatalf("early messages changed T: %g vs T_s %g", r.T, s12.Planned())
	}
	// Planned with L_s = 8 but latency 10: both messages 2 late, T_s + 2.
	s8, _ := Plan(p, 8)
	r, _ = Replay(s8, p, sweep.RNG(1, 0, 0), nil)
	if !near(r.T, s8.Planned()+2, 1e-9) || r.Late != 2 {
		t.Fatalf("late messages: %+v, want T_s + 2 = %g", r, s8.Planned()+2)
	}
}

// In a star T = T_s + max(0, δ_max) with δ the lateness of each message,
// replay by replay, with and without the event core.
func TestReplayStarIdentity(t *testing.T) {
	p := Default()
	p.Sigma = 3
	s, _ := Plan(p, 11)
	var nz Noise
	var e Executor
	for trial := range 200 {
		drawNoise(s.Prog, p, sweep.RNG(7, 0, trial), &nz)
		T := e.Run(s.Prog, s.machine(), nz)
		var late float64
		for i, op := range s.Prog.Ops {
			if op.Kind == Send {
				late = max(late, nz.Latency[i]-s.Ls)
			}
		}
		if !near(T, s.Planned()+late, 1e-9) {
			t.Fatalf("trial %d: T = %g, want T_s + %g = %g", trial, T, late, s.Planned()+late)
		}
		if T2 := e.RunOrdered(s.Prog, s.machine(), nz); T2 != T {
			t.Fatalf("trial %d: RunOrdered %g, Run %g", trial, T2, T)
		}
	}
}

func TestReplayTraceValid(t *testing.T) {
	for _, p := range []Params{
		{P: 3, N: 1000, L: 10, O: 1, G: 1, Sigma: 2},
		{P: 16, N: 5000, L: 10, O: 1, G: 3, Sigma: 4, GapSigma: 2},
		{P: 2, N: 50, L: 10, O: 1, G: 1, Sigma: 8},
	} {
		s, err := Plan(p, p.L)
		if err != nil {
			t.Fatal(err)
		}
		for trial := range 20 {
			var rec trace.Trace
			r, err := Replay(s, p, sweep.RNG(3, 0, trial), &rec)
			if err != nil {
				t.Fatal(err)
			}
			if err := trace.Validate(&rec); err != nil {
				t.Fatalf("%+v trial %d: %v", p, trial, err)
			}
			if rec.End() != r.T {
				t.Fatalf("trace ends %g, T %g", rec.End(), r.T)
			}
			var stall float64
			for _, sp := range rec.Spans {
				if sp.Kind == trace.Stall && sp.Lane == 0 {
					stall += sp.End - sp.Start
				}
			}
			// The root's stalls add up to the completion delay.
			if !near(stall, r.Stall, 1e-9) {
				t.Fatalf("%+v trial %d: root stalls %g, T - T_s = %g", p, trial, stall, r.Stall)
			}
		}
	}
}

func TestValidate(t *testing.T) {
	bad := map[string]func(*Params){
		"P":         func(p *Params) { p.P = 1 },
		"n":         func(p *Params) { p.N = 0 },
		"L":         func(p *Params) { p.L = -1 },
		"o":         func(p *Params) { p.O = math.NaN() },
		"g":         func(p *Params) { p.G = math.Inf(1) },
		"sigma":     func(p *Params) { p.Sigma = -0.5 },
		"gap_sigma": func(p *Params) { p.GapSigma = -1 },
	}
	for field, f := range bad {
		p := Default()
		f(&p)
		var re *param.Error
		if err := p.Validate(); !errors.As(err, &re) || re.Field != field {
			t.Errorf("%s: got %v, want a *param.Error on %s", field, err, field)
		}
	}
	p := Default()
	p.P = MaxP + 1
	if err := p.Validate(); err == nil {
		t.Error("P = 1025 accepted")
	}
	if _, err := Plan(Default(), -1); err == nil {
		t.Error("Ls = -1 accepted")
	}
	if _, _, err := Expected(Default(), 10, 0, 1); err == nil {
		t.Error("trials = 0 accepted")
	}
	if err := Default().Validate(); err != nil {
		t.Fatal(err)
	}
}

func BenchmarkReplay(b *testing.B) {
	p := Params{P: 1024, N: 1000000, L: 10, O: 1, G: 1, Sigma: 2, GapSigma: 0.5}
	s, err := Plan(p, p.L)
	if err != nil {
		b.Fatal(err)
	}
	var nz Noise
	drawNoise(s.Prog, p, sweep.RNG(1, 0, 0), &nz)
	var e Executor
	b.Run("events", func(b *testing.B) {
		for b.Loop() {
			e.Run(s.Prog, s.machine(), nz)
		}
		b.ReportMetric(float64(len(s.Prog.Ops))*float64(b.N)/b.Elapsed().Seconds(), "ops/s")
	})
	b.Run("ordered", func(b *testing.B) {
		for b.Loop() {
			e.RunOrdered(s.Prog, s.machine(), nz)
		}
		b.ReportMetric(float64(len(s.Prog.Ops))*float64(b.N)/b.Elapsed().Seconds(), "ops/s")
	})
}

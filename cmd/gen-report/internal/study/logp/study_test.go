package logp

import (
	"context"
	"math"
	"strings"
	"testing"

	"commlab/cmd/gen-report/internal/clitest"
	engine "commlab/engine/logp"
)

// TestEvalLogp pins `eval logp` for P = 3 (the example, fewer
// trials), P = 2 (with the closed form) and one planning latency.
func TestEvalLogp(t *testing.T) {
	for _, tc := range []struct{ name, args string }{
		{"eval_logp_p3.stdout", "eval logp -P 3 -n 1000 -L 10 -o 1 -g 1 -sigma 2 -trials 2000 -seed 1"},
		{"eval_logp_p2.stdout", "eval logp -P 2 -n 1000 -L 10 -o 1 -g 1 -sigma 2 -trials 2000 -seed 1"},
		{"eval_logp_ls.stdout", "eval logp -P 3 -sigma 2 -Ls 11 -trials 500 -seed 7"},
		{"eval_logp_p64.stdout", "eval logp -P 64 -n 20000 -sigma 1 -trials 100 -seed 1"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out, _, err := clitest.Run(t, cmd, strings.Fields(tc.args)...)
			if err != nil {
				t.Fatal(err)
			}
			clitest.Golden(t, tc.name, []byte(out))
			if again, _, _ := clitest.Run(t, cmd, strings.Fields(tc.args)...); again != out {
				t.Fatal("same seed, different output")
			}
		})
	}
}

// TestEvalLogpClosedForm checks the P = 2 closed-form fields against the
// spec by hand: optimum at μ, excess σ/√(2π), and the Monte Carlo within
// four standard errors of the closed form.
func TestEvalLogpClosedForm(t *testing.T) {
	p := logpDefaultForTest()
	p.P = 2
	ev, err := evaluateLogp(p, p.L, 20000, 3)
	if err != nil {
		t.Fatal(err)
	}
	if ev.PlannedT != (1000+3*1+10)/2.0 {
		t.Errorf("planned_T = %g, want (n + 3o + L_s)/2 = 506.5", ev.PlannedT)
	}
	if math.Abs(*ev.OptimalLsClosedForm-10) > 1e-5 {
		t.Errorf("optimal_Ls_closed_form = %g, want μ = 10", *ev.OptimalLsClosedForm)
	}
	// The truncation of L at 0 adds a relative Φ(−μ/σ) = Φ(−5) ≈ 3e-7.
	if want := 2 / math.Sqrt(2*math.Pi); math.Abs(*ev.ExcessClosedForm-want) > 1e-6 {
		t.Errorf("excess_closed_form = %.12g, want σ/√(2π) = %.12g", *ev.ExcessClosedForm, want)
	}
	if d := math.Abs(ev.ExpectedT - *ev.ExpectedClosedForm); d > 4*ev.ExpectedStderr {
		t.Errorf("Monte Carlo %g ± %g vs closed form %g", ev.ExpectedT, ev.ExpectedStderr, *ev.ExpectedClosedForm)
	}
}

func TestEvalLogpBadInput(t *testing.T) {
	for _, tc := range []struct{ args, want string }{
		{"eval logp -P 1", "eval logp: -P = 1 is out of range: want an integer in [2, 1024]"},
		{"eval logp -P 1025", "-P = 1025 is out of range"},
		{"eval logp -n 0", "-n = 0 is out of range: want an integer in [1, 1000000000]"},
		{"eval logp -L -1", "-L = -1 is out of range: want a number in [0, 1e+09]"},
		{"eval logp -o -0.5", "-o = -0.5 is out of range"},
		{"eval logp -g NaN", "-g = NaN is out of range"},
		{"eval logp -sigma -2", "-sigma = -2 is out of range"},
		{"eval logp -gap_sigma -1", "-gap_sigma = -1 is out of range"},
		{"eval logp -trials 0", "eval logp: -trials = 0 is out of range: want an integer in [1, 1000000]"},
		{"eval logp -trials 1000001", "-trials = 1000001 is out of range"},
		{"eval logp -Ls -1", "eval logp: -Ls = -1 is out of range: want a number in [0, 1e+09]"},
		{"eval logp -Ls 2e9", "-Ls = 2e+09 is out of range"},
		{"eval logp -Ls x", `invalid value "x" for flag -Ls`},
		{"eval logp -P x", `invalid value "x" for flag -P`},
		{"eval logp -bogus", "flag provided but not defined: -bogus"},
		{"eval logp extra", `unexpected argument "extra"`},
	} {
		t.Run(tc.args, func(t *testing.T) { clitest.BadInput(t, cmd, tc.args, tc.want) })
	}
}

// BenchmarkLogpStudy times the LogP page's computation, quick and full:
// the budget for the full page is 30 s on two cores.
func BenchmarkLogpStudy(b *testing.B) {
	for _, mode := range []struct {
		name string
		full bool
	}{{"quick", false}, {"full", true}} {
		b.Run(mode.name, func(b *testing.B) {
			st := newLogpStudy(mode.full, 1)
			for b.Loop() {
				raw, err := st.Run(context.Background(), nil, nil)
				if err != nil {
					b.Fatal(err)
				}
				r, err := st.results(raw)
				if err != nil {
					b.Fatal(err)
				}
				_ = st.page(r)
			}
			b.ReportMetric(b.Elapsed().Seconds()/float64(b.N), "s/page")
		})
	}
}

func logpDefaultForTest() engine.Params { return engine.Default() }

// cmd is eval logp as gen-report's main runs it.
var cmd = clitest.Eval(Study{})

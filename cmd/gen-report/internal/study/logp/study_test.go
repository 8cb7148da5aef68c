package logp

import (
	"context"
	"math"
	"strings"
	"testing"

	"commlab/cmd/gen-report/internal/clitest"
	"commlab/cmd/gen-report/internal/report"
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

func TestCrossing(t *testing.T) {
	xs := []float64{1, 2, 3, 4}
	for _, tc := range []struct {
		ys     []float64
		target float64
		want   float64
	}{
		{[]float64{0, 1, 2, 3}, 1.5, 2.5},
		{[]float64{0, 1, 2, 3}, 1, 2},
		{[]float64{3, 2, 1, 0}, 0.5, 3.5}, // falling
		{[]float64{0, 1, 2, 3}, 5, math.NaN()},
		{[]float64{0, 2, 0, 2}, 1, 1.5}, // the first crossing
	} {
		got := crossing(xs, tc.ys, tc.target)
		if !(got == tc.want || math.IsNaN(got) && math.IsNaN(tc.want)) {
			t.Errorf("crossing(%v, %g) = %g, want %g", tc.ys, tc.target, got, tc.want)
		}
	}
	if c := slopeThroughOrigin([]float64{1, 2, 3}, []float64{2, 4, 6}); c != 2 {
		t.Errorf("slope = %g, want 2", c)
	}
}

// synthetic builds results whose P = 3 sweep has L_s* − μ = a·σ and
// E[T*] − T_s(μ) = b·σ (closed form and Monte Carlo alike), a P = 2
// curve whose Monte Carlo is z2 standard errors off the closed form, and
// a P = 3 saving of the given share of the excess.
func synthetic(a, b, z2, share float64) *logpResults {
	const mu, sigma, ts = 10.0, 2.0, 100.0
	opt := func(P int, sg, off, exc float64) logpOptimum {
		e := ts + exc
		return logpOptimum{P: P, Mu: mu, Sigma: sg, Ls: mu + off, Expected: e, PlannedMu: ts,
			ExpectedMu: e + share*exc, SEMu: 0.01, StarLs: mu + off, StarExpected: e, StarMu: e + share*exc}
	}
	r := &logpResults{Trials: 100, OptTrials3: 100}
	c2 := logpCurve{P: 2, Opt: opt(2, sigma, 0, sigma/sqrt2Pi)}
	c2.Opt.ExpectedMu, c2.Opt.StarMu = c2.Opt.Expected, c2.Opt.Expected
	for _, ls := range []float64{8, 10, 12} {
		cf := ts + (ls-mu)/2 + 1
		c2.Ls, c2.Closed, c2.Planned = append(c2.Ls, ls), append(c2.Closed, cf), append(c2.Planned, ts+(ls-mu)/2)
		c2.Mean, c2.SE = append(c2.Mean, cf+z2*0.01), append(c2.SE, 0.01)
	}
	c3 := logpCurve{P: 3, Ls: []float64{10}, Mean: []float64{ts}, SE: []float64{0.01}, Planned: []float64{ts}, Closed: []float64{ts},
		Opt: opt(3, sigma, a*sigma, b*sigma)}
	r.Curves = []logpCurve{c2, c3}
	for _, sg := range []float64{1, 2, 3, 4} {
		r.Sigma = append(r.Sigma, opt(3, sg, a*sg, b*sg))
	}
	r.ByP = [][]logpOptimum{{opt(4, 1, 0.3, 0.5), opt(8, 1, 0.4, 0.8)}}
	return r
}

// TestSlidesSigmaP2: the σ the P = 2 plot is drawn at is 1.755, and in the
// engine's own closed form (independent of the derivation on the page) it
// puts the optimum at μ with the slides' excess of 0.7 over T_s(μ).
func TestSlidesSigmaP2(t *testing.T) {
	sg := slidesSigmaP2()
	if math.Abs(sg-1.755) > 5e-4 {
		t.Errorf("slidesSigmaP2 = %.6f, want 1.755", sg)
	}
	st := newLogpStudy(false, 1)
	p := st.params(2, st.curveSigma(2))
	if p.Sigma != sg {
		t.Fatalf("the P = 2 plot is drawn at σ = %g, want %g", p.Sigma, sg)
	}
	ls, e, err := engine.OptimalStar(p)
	if err != nil {
		t.Fatal(err)
	}
	sch, err := engine.Plan(p, p.L)
	if err != nil {
		t.Fatal(err)
	}
	if math.Abs(ls-p.L) > 1e-6*p.Sigma || math.Abs(e-sch.Planned()-slidesExcessP2) > 1e-6 {
		t.Errorf("σ = %g: optimum at L_s = %.9g (μ = %g), excess %.9g, want μ and %g", sg, ls, p.L, e-sch.Planned(), slidesExcessP2)
	}
}

// TestLogpFindingsSynthetic checks that the verdicts follow the numbers.
func TestLogpFindingsSynthetic(t *testing.T) {
	for _, tc := range []struct {
		name            string
		r               *logpResults
		p2, p3, sig, pl report.Verdict
	}{
		// The slides' numbers at σ = 2 exactly: 0.38σ and 0.435σ.
		{"slides", synthetic(0.38, 0.435, 1, 0.2), report.Reproduced, report.Reproduced, report.Reproduced, report.Reproduced},
		// This engine's shape: 0.195σ and 0.673σ: no single σ.
		{"engine-like", synthetic(0.195, 0.673, 1, 0.012), report.Reproduced, report.Reproduced, report.PartlyReproduced, report.PartlyReproduced},
		// Optimum at μ, nothing reaches the slides' numbers within σ ≤ 4,
		// P = 2 Monte Carlo far off, nothing saved.
		{"nothing", synthetic(0, 0.1, 9, 0), report.PartlyReproduced, report.NotReproduced, report.NotReproduced, report.NotReproduced},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := logpFindings(tc.r)
			for i, want := range []report.Verdict{tc.p2, tc.p3, tc.sig, tc.pl} {
				if f[i].Verdict != want {
					t.Errorf("finding %d: %s, want %s (%s)", i+1, f[i].Verdict, want, f[i].Evidence)
				}
				if f[i].Paper == "" || f[i].Ours == "" {
					t.Errorf("finding %d lacks the paper's number (%q) or ours (%q)", i+1, f[i].Paper, f[i].Ours)
				}
			}
		})
	}
	if f := logpFindings(&logpResults{}); f[0].Verdict != report.NotCheckable || f[2].Verdict != report.NotCheckable {
		t.Errorf("empty results: %v", f)
	}
}

// TestLogpQuickPage builds the quick page and checks what the numbers
// must say: the P = 2 Monte Carlo agrees with its closed form and the
// P = 3 optimum lies above μ.
func TestLogpQuickPage(t *testing.T) {
	st := newLogpStudy(false, 1)
	raw, err := st.Run(context.Background(), nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	r, err := st.results(raw)
	if err != nil {
		t.Fatal(err)
	}
	pg := st.page(r)
	ids := map[string]bool{}
	for _, sec := range pg.Sections {
		for _, it := range sec.Items {
			switch v := it.(type) {
			case *report.LineChart:
				ids[v.ID] = true
			case *report.Table:
				ids[v.ID] = true
			case report.Findings:
				if v.Items[0].Verdict != report.Reproduced || v.Items[1].Verdict != report.Reproduced {
					t.Errorf("quick findings 1, 2: %s, %s", v.Items[0].Verdict, v.Items[1].Verdict)
				}
			}
		}
	}
	for _, id := range []string{"logp-p2", "logp-p3", "logp-optima", "logp-sigma", "logp-offset", "logp-excess"} {
		if !ids[id] {
			t.Errorf("page lacks %s", id)
		}
	}
	if o := r.Curves[1].Opt; !(o.StarOffset() > 0.19*o.Sigma && o.StarOffset() < 0.2*o.Sigma) {
		t.Errorf("P = 3 closed-form offset %g, want about 0.195σ", o.StarOffset())
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

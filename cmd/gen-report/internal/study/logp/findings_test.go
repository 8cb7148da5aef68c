package logp

import (
	"context"
	"math"
	"strings"
	"testing"

	"commlab/cmd/gen-report/internal/report"
	"commlab/cmd/gen-report/internal/verdict"
	engine "commlab/engine/logp"
)

// synth describes synthetic results: a model in which the P = 3 optimum
// lies a·σ above μ with an excess of b·σ, planning with it saves share of
// the excess, and the P = 2 optimum lies p2 above μ. With star unset the
// closed forms are NaN and the findings fall back to the Monte Carlo,
// whose replicate searches scatter by ±spread around those values.
type synth struct {
	a, b, share, p2 float64
	star            bool
	spread          float64
}

// scatter is logpReplicates values with mean m, spread ±d (a fixed
// pattern, so the t interval's half-width is about 0.9·d).
func scatter(m, d float64) []float64 {
	pat := []float64{-1, 1, -0.5, 0.5, -1, 1, 0, 0}
	out := make([]float64, len(pat))
	for i, x := range pat {
		out[i] = m + d*x
	}
	return out
}

func (c synth) optimum(P int, sigma, off, exc float64) logpOptimum {
	const mu, ts = 10.0, 100.0
	sav := c.share * exc
	o := logpOptimum{P: P, Mu: mu, Sigma: sigma, PlannedMu: ts, Trials: 100,
		StarLs: math.NaN(), StarExpected: math.NaN(), StarMu: math.NaN()}
	if c.star {
		o.StarLs, o.StarExpected, o.StarMu = mu+off, ts+exc, ts+exc+sav
	}
	o.Ls = scatter(mu+off, c.spread)
	o.Expected = scatter(ts+exc, c.spread)
	// The saving scatters by the same spread, in another order than E[T].
	o.ExpectedMu = make([]float64, len(o.Ls))
	d := scatter(sav, c.spread)
	for k := range o.ExpectedMu {
		o.ExpectedMu[k] = o.Expected[k] + d[(k+1)%len(d)]
	}
	return o
}

func (c synth) results() *logpResults {
	r := &logpResults{Trials: 100, SigmaTrials: 100}
	c2 := logpCurve{P: 2, Trials: 100, Opt: c.optimum(2, 1.755, c.p2, 0.7)}
	c3 := logpCurve{P: 3, Trials: 100, Opt: c.optimum(3, 2, c.a*2, c.b*2)}
	for _, cv := range []*logpCurve{&c2, &c3} {
		cv.Ls, cv.Mean, cv.SE, cv.Planned, cv.Closed = []float64{10}, []float64{100}, []float64{0.01}, []float64{100}, []float64{100}
	}
	r.Curves = []logpCurve{c2, c3}
	sp2 := slidesSigmaP2()
	r.P3AtP2Sigma = c.optimum(3, sp2, c.a*sp2, c.b*sp2)
	for _, sg := range []float64{1, 2, 4} {
		r.Sigma = append(r.Sigma, c.optimum(3, sg, c.a*sg, c.b*sg))
	}
	r.ByP = [][]logpOptimum{{c.optimum(4, 1, 0.3, 0.5), c.optimum(8, 1, 0.4, 0.8)}}
	// The fit, as the closed form would give it for offsets a·σ and
	// excesses b·σ.
	f := &r.Fit
	f.OK = c.star
	p2, o76, e87 := rounded(slidesExcessP2, 0.05), rounded(slidesOffsetP3, 0.005), rounded(slidesExcessP3, 0.005)
	solve := func(target, coef float64) float64 {
		if s := target / coef; coef > 0 && s <= fitSigmaMax {
			return s
		}
		return math.NaN()
	}
	for k := range 3 {
		f.SigmaP2[k] = p2[k] * sqrt2Pi
		f.OffsetAtP2[k], f.ExcessAtP2[k] = c.a*f.SigmaP2[k], c.b*f.SigmaP2[k]
		f.Sigma76[k] = solve(o76[k], c.a)
		f.ExcessAt76[k] = c.b * f.Sigma76[k]
		f.Sigma87[k] = solve(e87[k], c.b)
		f.OffsetAt87[k] = c.a * f.Sigma87[k]
	}
	return r
}

// The slides' own numbers: at σ = 1.755 the optimum 0.76 above μ, and the
// excess 0.87 at the same σ.
const slidesA, slidesB = slidesOffsetP3 / 1.7546397922417, slidesExcessP3 / 1.7546397922417

// TestLogpFindingsSynthetic: every finding can come out reproduced and
// not reproduced (and, on the Monte Carlo's intervals, inconclusive):
// the verdicts follow the numbers.
func TestLogpFindingsSynthetic(t *testing.T) {
	const R, P, N, I, C = report.Reproduced, report.PartlyReproduced, report.NotReproduced, report.Inconclusive, report.NotCheckable
	for _, tc := range []struct {
		name string
		c    synth
		want [4]report.Verdict
	}{
		// The slides' numbers exactly, in closed form.
		{"slides", synth{a: slidesA, b: slidesB, share: 0.2, star: true}, [4]report.Verdict{R, R, R, R}},
		// This engine's shape: 0.195σ and 0.673σ, a saving of 1.2 % of the excess.
		{"engine-like", synth{a: 0.195, b: 0.673, share: 0.012, star: true}, [4]report.Verdict{R, P, N, R}},
		// Nothing the slides say: the P = 2 optimum off μ, the P = 3
		// optimum at μ, no excess, no saving.
		{"nothing", synth{a: 0, b: 0.001, share: 0, p2: 0.1, star: true}, [4]report.Verdict{N, N, N, N}},
		// A saving too small to show, an excess that shows.
		{"saving-small", synth{a: 0.195, b: 0.673, share: 0.001, star: true}, [4]report.Verdict{R, P, N, P}},
		// No closed form: the Monte Carlo decides where its intervals
		// are narrow (slides' numbers, tight replicates) ...
		{"mc-narrow", synth{a: slidesA, b: slidesB, share: 0.2, spread: 0.001}, [4]report.Verdict{R, R, C, R}},
		// ... and cannot where they reach across a bound: the P = 2
		// optimum within ±0.05 of μ against ±0.005, the P = 3 one
		// 0.005 above μ give or take 0.05, a saving of 0.004 ± 0.05.
		{"mc-wide", synth{a: 0.005 / 2, b: 0.673, share: 0.003, spread: 0.05}, [4]report.Verdict{I, I, C, I}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := logpFindings(tc.c.results())
			for i, want := range tc.want {
				if f[i].Verdict != want {
					t.Errorf("finding %d: %s, want %s (%s)", i+1, f[i].Verdict, want, f[i].Evidence)
				}
				if want == C {
					continue
				}
				if f[i].Paper == "" || f[i].Ours == "" || f[i].Tolerance == "" || len(f[i].Figures) == 0 {
					t.Errorf("finding %d lacks the paper's number (%q), ours (%q), the tolerance (%q) or figures (%v)", i+1, f[i].Paper, f[i].Ours, f[i].Tolerance, f[i].Figures)
				}
				if want == I && !strings.Contains(f[i].Evidence, "trials would decide it") {
					t.Errorf("finding %d is inconclusive but does not say the trials that would decide it: %s", i+1, f[i].Evidence)
				}
			}
		})
	}
	if f := logpFindings(&logpResults{}); f[0].Verdict != report.NotCheckable || f[1].Verdict != report.NotCheckable || f[3].Verdict != report.NotCheckable {
		t.Errorf("empty results: %v", f)
	}
}

// TestFitSlides: the σ each of the slides' numbers needs, solved in
// closed form, gives that number back when the engine's closed form is
// evaluated there, and the two σ are the ones the issue quotes (0.76
// needs σ ≈ 3.8, 0.87 needs σ ≈ 1.29).
func TestFitSlides(t *testing.T) {
	st := newLogpStudy(false, 1)
	f := st.fitSlides()
	if !f.OK {
		t.Fatal(f.Why)
	}
	at := func(sigma float64) (float64, float64) {
		p := st.params(3, sigma)
		ls, e, err := engine.OptimalStar(p)
		if err != nil {
			t.Fatal(err)
		}
		sch, err := engine.Plan(p, p.L)
		if err != nil {
			t.Fatal(err)
		}
		return ls - p.L, e - sch.Planned()
	}
	for k, want := range rounded(slidesOffsetP3, 0.005) {
		if off, exc := at(f.Sigma76[k]); math.Abs(off-want) > 1e-7 || math.Abs(exc-f.ExcessAt76[k]) > 1e-9 {
			t.Errorf("σ76[%d] = %.9g: offset %.9g (want %g), excess %.9g (fit %.9g)", k, f.Sigma76[k], off, want, exc, f.ExcessAt76[k])
		}
	}
	for k, want := range rounded(slidesExcessP3, 0.005) {
		if off, exc := at(f.Sigma87[k]); math.Abs(exc-want) > 1e-7 || math.Abs(off-f.OffsetAt87[k]) > 1e-9 {
			t.Errorf("σ87[%d] = %.9g: excess %.9g (want %g), offset %.9g (fit %.9g)", k, f.Sigma87[k], exc, want, off, f.OffsetAt87[k])
		}
	}
	if math.Abs(f.Sigma76[1]-3.8) > 0.05 || math.Abs(f.Sigma87[1]-1.29) > 0.01 {
		t.Errorf("0.76 needs σ = %.4g, 0.87 needs σ = %.4g; want about 3.8 and 1.29", f.Sigma76[1], f.Sigma87[1])
	}
	if f.SigmaP2[1] != slidesSigmaP2() || !(f.SigmaP2[0] < f.SigmaP2[1] && f.SigmaP2[1] < f.SigmaP2[2]) {
		t.Errorf("σ of the P = 2 plot: %v", f.SigmaP2)
	}
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

// TestReplicateIntervals holds the replicate searches' intervals to what
// they claim: over 20 seeds, the 95 % intervals of L_s* − μ, of the
// excess and of the saving at P = 3, σ = 2 (the quick page's trials)
// each hold the closed form's number at least 16 times (a 95 % interval
// misses more than 4 of 20 with probability 0.016). Replicates that
// shared their draws, whose spread would say nothing, fail here (0 of 20).
// The bias of E[T] taken over the draws a search minimised is below what
// 20 seeds can see at these trials; the out-of-sample replays remove it
// by construction.
func TestReplicateIntervals(t *testing.T) {
	if testing.Short() {
		t.Skip("20 replicated searches")
	}
	const seeds = 20
	var hit [3]int
	for seed := range uint64(seeds) {
		st := newLogpStudy(false, seed+1)
		var j logpJob
		for _, x := range st.jobs {
			if x.kind == logpJobOptimum && x.p.P == 3 && x.p.Sigma == 2 {
				j = x
				break
			}
		}
		r, err := st.job(j)
		if err != nil {
			t.Fatal(err)
		}
		o := optimumOf(j, r)
		for i, c := range []struct {
			iv     func() bool
			closed float64
		}{
			{func() bool { return o.OffsetIv().Contains(o.StarOffset()) }, o.StarOffset()},
			{func() bool { return o.ExcessIv().Contains(o.StarExcess()) }, o.StarExcess()},
			{func() bool { return o.SavingIv().Contains(o.StarSaving()) }, o.StarSaving()},
		} {
			if c.iv() {
				hit[i]++
			}
		}
	}
	for i, name := range []string{"L_s* − μ", "excess", "saving"} {
		t.Logf("%s: the closed form inside %d of %d intervals", name, hit[i], seeds)
		if hit[i] < 16 {
			t.Errorf("%s: the closed form inside only %d of %d replicate intervals", name, hit[i], seeds)
		}
	}
}

// TestLogpQuickPage builds the quick page and checks what the numbers
// must say: the findings' verdicts, every Monte Carlo point with its
// interval, and the closed form inside most of the curves' intervals.
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
				for _, sr := range v.Series {
					if sr.Lo == nil {
						continue
					}
					for i, x := range sr.Values {
						if !(sr.Lo[i] <= x && x <= sr.Hi[i]) {
							t.Errorf("%s, %s, point %d: %g outside its interval [%g, %g]", v.ID, sr.Name, i, x, sr.Lo[i], sr.Hi[i])
						}
					}
				}
			case *report.Table:
				ids[v.ID] = true
			case report.Findings:
				want := []report.Verdict{report.Reproduced, report.PartlyReproduced, report.NotReproduced, report.Reproduced}
				for i, w := range want {
					if v.Items[i].Verdict != w {
						t.Errorf("quick finding %d: %s, want %s", i+1, v.Items[i].Verdict, w)
					}
				}
			}
		}
	}
	for _, id := range []string{"logp-p2", "logp-p3", "logp-optima", "logp-sigma", "logp-offset", "logp-excess"} {
		if !ids[id] {
			t.Errorf("page lacks %s", id)
		}
	}
	for _, c := range r.Curves {
		if in, of := c.covered(); of == 0 || 4*in < 3*of {
			t.Errorf("P = %d: the closed form inside %d of %d Monte Carlo intervals", c.P, in, of)
		}
	}
	if o := r.Curves[1].Opt; !(o.StarOffset() > 0.19*o.Sigma && o.StarOffset() < 0.2*o.Sigma) {
		t.Errorf("P = 3 closed-form offset %g, want about 0.195σ", o.StarOffset())
	}
	// The intervals the findings compare do not decide the verdicts on
	// their estimates: moved by a half-width either way, none flips.
	base := logpFindings(r)
	for _, frac := range []float64{-1, 1} {
		verdict.Perturbed(frac, func() {
			for i, f := range logpFindings(r) {
				if verdict.Opposite(base[i].Verdict, f.Verdict) {
					t.Errorf("finding %d: %s, but %s moved by %+g half-widths", i+1, base[i].Verdict, f.Verdict, frac)
				}
			}
		})
	}
}

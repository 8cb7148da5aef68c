package nbc

import (
	"context"
	"math"
	"strings"
	"testing"

	"commlab/cmd/gen-report/internal/fit"
	"commlab/cmd/gen-report/internal/report"
	engine "commlab/engine/nbc"
)

func TestSizeLabel(t *testing.T) {
	for _, tc := range []struct {
		b    float64
		want string
	}{
		{5e6, "5 MB"}, {500e3, "500 KB"}, {262144, "256 KiB"}, {1 << 20, "1 MiB"},
		{16 << 20, "16 MiB"}, {4096, "4 KiB"}, {512, "512 B"}, {1, "1 B"},
	} {
		if got := sizeLabel(tc.b); got != tc.want {
			t.Errorf("sizeLabel(%g) = %q, want %q", tc.b, got, tc.want)
		}
	}
}

// syntheticNbc gives every point of the study the run f makes of it, so
// that the page's logic can be checked against numbers chosen by hand.
func syntheticNbc(s *nbcStudy, f func(p engine.Params) nbcRun) *nbcResults {
	r := &nbcResults{runs: make([]nbcRun, len(s.jobs)), index: s.index}
	for i, p := range s.jobs {
		r.runs[i] = f(p)
	}
	return r
}

// machine is a synthetic machine: the baselines take 10 ms (16 threads,
// no overlap), each overlapping case 10/S ms for its overlap speedup S,
// NBCF-notest notest[nodes] times NBCF-test's time, and with k collectives
// in flight TCC's time grows by tcc(k) and NBCT's by nbct(k) (the others'
// by k). An oversubscribed run takes 10 % longer.
type machine struct {
	speedup   func(nodes int, m engine.Method) float64
	notest    map[int]float64
	tcc, nbct func(k float64) float64
}

// paperSpeedup is the paper's speedup of m (the overlapping cases).
func paperSpeedup(nodes int, m engine.Method) float64 { return paperSpeedups[nodes][m] }

// paperMachine gives exactly the paper's speedups; NBCF-notest matches
// NBCF-test at 32 nodes and is 25 % slower at 2; with k collectives in
// flight TCC's time grows as k and NBCT's as 1 + (k−1)/2.
var paperMachine = machine{
	speedup: paperSpeedup,
	notest:  map[int]float64{2: 1.25, 32: 1},
	tcc:     func(k float64) float64 { return k },
	nbct:    func(k float64) float64 { return 1 + (k-1)/2 },
}

func (mc machine) run(p engine.Params) nbcRun {
	const base = 10e-3
	k := float64(p.Collectives)
	var sp float64
	scale := k
	switch p.Method {
	case engine.NBCFNoOvlp, engine.MPI:
		sp = 1
	case engine.NBCFNoTest:
		sp = mc.speedup(p.Nodes, engine.NBCFTest) / mc.notest[p.Nodes]
	case engine.TCC:
		sp, scale = mc.speedup(p.Nodes, p.Method), mc.tcc(k)
	case engine.NBCT:
		sp, scale = mc.speedup(p.Nodes, p.Method), mc.nbct(k)
	default:
		sp = mc.speedup(p.Nodes, p.Method)
	}
	t := base / sp * scale
	if p.Oversubscribe {
		t *= 1.1
	}
	return nbcRun{Total: t, Compute: 4e-3, Comm: 6e-3 * k, Overlap: 4e-3 + 6e-3*k - t, Overhead: 0,
		Baseline: base * k, Speedup: base * k / t}
}

// paperLike is paperMachine's run.
func paperLike(p engine.Params) nbcRun { return paperMachine.run(p) }

// handCalibration is a calibration made by hand (the hardware defaults
// in every variant), for tests that give every run by hand.
func handCalibration() map[string]*nbcCalibration {
	d := engine.Default()
	cs := map[string]*nbcCalibration{}
	for _, v := range nbcVariants {
		c := &nbcCalibration{Variant: v, Unknowns: v.unknowns(), Fit: fit.Result{Residuals: make([]float64, len(nbcCalibMethods))}}
		for _, u := range c.Unknowns {
			c.Values = append(c.Values, u.Get(d))
		}
		cs[v.Key] = c
	}
	return cs
}

// TestCalibrationSees2NodesOnly: the 32-node speedups never enter the
// calibration. Perturbed, the calibrated values stay bit-identical; the
// 2-node speedups perturbed, they move (so the check can fail).
func TestCalibrationSees2NodesOnly(t *testing.T) {
	calib := func() map[string]*nbcCalibration {
		s := newNbcStudy(false)
		if err := s.calibrate(); err != nil {
			t.Fatal(err)
		}
		return s.calib
	}
	a := calib() // the memo's, if another test calibrated first
	nbcCalibMemo.Lock()
	nbcCalibMemo.off = true
	nbcCalibMemo.Unlock()
	defer func() {
		nbcCalibMemo.Lock()
		nbcCalibMemo.off = false
		nbcCalibMemo.Unlock()
	}()
	saved := paperSpeedups[32]
	paperSpeedups[32] = map[engine.Method]float64{engine.NBCFTest: 1.9, engine.NBCT: 1.6, engine.TCC: 1.05}
	b := calib()
	paperSpeedups[32] = saved
	for _, v := range nbcVariants {
		for i, u := range a[v.Key].Unknowns {
			if a[v.Key].Values[i] != b[v.Key].Values[i] {
				t.Errorf("%s, %s: %.17g with the paper's 32-node speedups, %.17g with others: the 32-node figure entered the calibration",
					v.Label, u.Field, a[v.Key].Values[i], b[v.Key].Values[i])
			}
		}
	}
	moved := map[engine.Method]float64{}
	for m, v := range paperSpeedups[2] {
		moved[m] = v * 1.03
	}
	c, err := calibrateNbc(nbcSetups[0].params, moved, nbcVariants[1])
	if err != nil {
		t.Fatal(err)
	}
	same := true
	for i := range c.Values {
		same = same && c.Values[i] == a[nbcVariants[1].Key].Values[i]
	}
	if same {
		t.Errorf("the 2-node speedups moved by 3 %% and the calibrated values did not: %v", c.Values)
	}
}

// TestCalibrationFits2Nodes: the calibration in the wide box meets the
// 2-node speedups it was given (to a few thousandths: the paper gives three
// decimals), but only with values outside their sourced ranges; held to
// the ranges every variant stays inside them, the default reading too.
func TestCalibrationFits2Nodes(t *testing.T) {
	for _, v := range nbcVariants {
		c, err := calibrateNbc(nbcSetups[0].params, paperSpeedups[2], v)
		if err != nil {
			t.Fatal(err)
		}
		for i, m := range nbcCalibMethods {
			if !v.Plausible && math.Abs(c.Fit.Residuals[i]) > 2e-3 {
				t.Errorf("%s: %s off the paper's %.3f by %.4f (values %v)", v.Label, m, paperSpeedups[2][m], c.Fit.Residuals[i], c.Values)
			}
		}
		for i, u := range c.Unknowns {
			if lo, hi := v.box(u); c.Values[i] < lo || c.Values[i] > hi {
				t.Errorf("%s: %s = %g outside [%g, %g]", v.Label, u.Field, c.Values[i], lo, hi)
			}
		}
		// The page's story: the default reading keeps every value in its
		// sourced range, the wide box's fit does not.
		if bad := c.implausible(); v.Key == nbcVarDefault && len(bad) > 0 || v.Key == nbcVarWide && len(bad) == 0 {
			t.Errorf("%s: implausible values %v", v.Label, bad)
		}
	}
}

// TestNbcFindingsSynthetic: every finding follows the numbers. The
// paper's own numbers reproduce every finding; for each finding a machine
// made to contradict it makes it not reproduced, so no verdict is one that
// cannot fail.
func TestNbcFindingsSynthetic(t *testing.T) {
	s := newNbcStudy(false)
	s.setCalibration(handCalibration())
	f := nbcFindings(s, syntheticNbc(s, paperLike))
	for i, x := range f {
		if x.Verdict != report.Reproduced {
			t.Errorf("paper-like finding %d: %s (%s)", i+1, x.Verdict, x.Evidence)
		}
		if x.Paper == "" || x.Ours == "" || x.Tolerance == "" || len(x.Figures) == 0 {
			t.Errorf("finding %d lacks the paper's number (%q), ours (%q), its tolerance (%q) or figures (%v)", i+1, x.Paper, x.Ours, x.Tolerance, x.Figures)
		}
	}
	with := func(change func(*machine)) func(engine.Params) nbcRun {
		mc := paperMachine
		change(&mc)
		return mc.run
	}
	const (
		F1 = iota // overlap pays
		F2        // function beats thread
		F3        // test and notest
		F4        // TCC overlaps, beats NBCT
		F5        // the six speedups
		F6        // collectives in flight
		F7        // the 32-node prediction
	)
	for _, tc := range []struct {
		name string
		run  func(engine.Params) nbcRun
		want map[int]report.Verdict
	}{
		{"overlap 10 % slower everywhere", with(func(m *machine) {
			m.speedup = func(int, engine.Method) float64 { return 0.9 }
		}), map[int]report.Verdict{F1: report.NotReproduced, F2: report.NotReproduced, F4: report.NotReproduced, F5: report.NotReproduced, F7: report.NotReproduced}},
		{"overlap at the tie band's edge", with(func(m *machine) {
			m.speedup = func(int, engine.Method) float64 { return 1 - nbcTie/2 }
			m.notest = map[int]float64{2: 1, 32: 1}
		}), map[int]report.Verdict{F1: report.Reproduced}},
		{"notest the other way round", with(func(m *machine) { m.notest = map[int]float64{2: 1, 32: 1.25} }),
			map[int]report.Verdict{F3: report.NotReproduced}},
		{"notest 10 % slower at 2 nodes: not the paper's large difference", with(func(m *machine) { m.notest = map[int]float64{2: 1.1, 32: 1} }),
			map[int]report.Verdict{F3: report.PartlyReproduced}},
		{"TCC no faster than MPI, scaling as NBCT", with(func(m *machine) {
			m.speedup = func(n int, x engine.Method) float64 {
				if x == engine.TCC {
					return 1 + nbcTie/2
				}
				return paperSpeedup(n, x)
			}
			m.tcc = m.nbct
		}), map[int]report.Verdict{F4: report.NotReproduced, F6: report.NotReproduced, F5: report.PartlyReproduced}},
		{"every speedup 0.01 above the paper's", with(func(m *machine) {
			m.speedup = func(n int, x engine.Method) float64 { return paperSpeedup(n, x) + 2*nbcAbout }
		}), map[int]report.Verdict{F5: report.NotReproduced, F7: report.NotReproduced, F1: report.Reproduced}},
		{"every speedup 0.0025 above the paper's", with(func(m *machine) {
			m.speedup = func(n int, x engine.Method) float64 { return paperSpeedup(n, x) + nbcAbout/2 }
		}), map[int]report.Verdict{F5: report.Reproduced, F7: report.Reproduced}},
	} {
		f := nbcFindings(s, syntheticNbc(s, tc.run))
		for i, want := range tc.want {
			if f[i].Verdict != want {
				t.Errorf("%s: finding %d %s, want %s (%s)", tc.name, i+1, f[i].Verdict, want, f[i].Evidence)
			}
		}
	}
}

// TestNbcOneTie: TCC and NBCT 0.05 % apart are a tie wherever the page
// compares them (the speedup ratio of finding 4, the time ratio with one
// collective in flight of finding 6, the recommender), and 0.2 % apart a
// win everywhere: one tie band, used alike.
func TestNbcOneTie(t *testing.T) {
	s := newNbcStudy(false)
	s.setCalibration(handCalibration())
	for _, tc := range []struct {
		margin float64
		want   report.Verdict
		tie    bool
	}{{nbcTie / 2, report.PartlyReproduced, true}, {2 * nbcTie, report.Reproduced, false}} {
		mc := paperMachine
		mc.notest = map[int]float64{2: 2, 32: 2} // out of the recommender's way
		mc.speedup = func(n int, x engine.Method) float64 {
			if x == engine.TCC {
				return paperSpeedup(n, engine.NBCT) * (1 + tc.margin)
			}
			return paperSpeedup(n, x)
		}
		r := syntheticNbc(s, mc.run)
		f := nbcFindings(s, r)
		if f[3].Verdict != tc.want || f[5].Verdict != tc.want {
			t.Errorf("TCC %g %% above NBCT: findings 4 and 6 %s and %s, want %s (%s | %s)", 100*tc.margin, f[3].Verdict, f[5].Verdict, tc.want, f[3].Evidence, f[5].Evidence)
		}
		// A regime where NBCT and TCC are the two best candidates.
		g := nbcRegime{Setup: 1, Msg: 500e3, Collectives: 1, Tunable: false}
		c := s.choose(r, g)
		if got := strings.Contains(c.reason(), "a tie"); got != tc.tie {
			t.Errorf("TCC %g %% above NBCT: the recommender's reason %q (best %s, runner-up %s), want a tie: %t", 100*tc.margin, c.reason(), c.Best.Name, c.Runner.Name, tc.tie)
		}
	}
}

// TestNbcWhy checks the speedup table's explanations on hand-made runs.
func TestNbcWhy(t *testing.T) {
	base := nbcRun{Total: 10e-3, Compute: 4e-3, Comm: 6e-3}
	p := engine.Paper2Nodes(engine.TCC)
	// Agrees: only the parts.
	run := nbcRun{Total: 10e-3 / 1.166, Compute: 4.2e-3, Comm: 6e-3, Overlap: 2e-3}
	run.Overhead = run.Total - (run.Compute + run.Comm - run.Overlap)
	sp := nbcSpeedup{Nodes: 2, Method: engine.TCC, Paper: 1.166, Sim: 1.166, Run: run, Base: base, P: p}
	if w := sp.why(); !strings.HasPrefix(w, "Against MPI: the overlap hides 2 ms of 6 ms of communication (33 %); 0.2 ms more computation (15 compute threads against 16);") || strings.Contains(w, "would need") {
		t.Errorf("agreeing row: %q", w)
	}
	// The paper asks for more than perfect overlap can give: 10 / max(4, 6) = 1.667.
	sp.Paper = 1.8
	if w := sp.why(); !strings.Contains(w, "at most 1.667") || !strings.Contains(w, "60 % of its time") || !strings.Contains(w, "44 % of the baseline's time") {
		t.Errorf("beyond the bound: %q", w)
	}
	// The simulation overlaps more than the paper: the paper's time 10/1.02
	// with these parts means 4 + 6 + overhead − 9.80 ms hidden.
	sp.Paper = 1.02
	hid := run.Compute + run.Comm + run.Overhead - 10e-3/1.02
	if w := sp.why(); !strings.Contains(w, "hid only "+fmtMs(hid)) {
		t.Errorf("simulation above the paper: %q (want it to say %s hidden)", w, fmtMs(hid))
	}
}

// TestNbcChoose checks the recommender on made-up runs: the fastest
// candidate wins, the runner-up is another implementation, and a regime
// where nothing beats the blocking collective says so.
func TestNbcChoose(t *testing.T) {
	s := newNbcStudy(false)
	g := nbcRegime{Setup: 1, Msg: 500e3, Collectives: 1, Tunable: true}
	times := func(p engine.Params) nbcRun {
		t := map[engine.Method]float64{engine.MPI: 10, engine.NBCFTest: 6 + float64(p.TestEvery)/1000, engine.NBCFNoTest: 9, engine.NBCT: 8, engine.TCC: 7}[p.Method] * 1e-3
		if p.Oversubscribe {
			t += 1e-3
		}
		return nbcRun{Total: t, Compute: 4e-3, Comm: 6e-3, Overlap: 4e-3 + 6e-3 - t}
	}
	c := s.choose(syntheticNbc(s, times), g)
	if c.Best.P.Method != engine.NBCFTest || c.Best.P.TestEvery != 1 || c.Runner.P.Method != engine.TCC || c.Runner.P.Oversubscribe {
		t.Errorf("best %q, runner-up %q; want NBCF-test every iteration, then TCC 15 + 1", c.Best.Name, c.Runner.Name)
	}
	// (7 − 6.001) / 6.001: the same computation and overheads, so the
	// reason is the unhidden communication alone.
	if want := "16.6 % faster than TCC-ovlp, 15 + 1 threads: 0.999 ms less unhidden communication."; c.reason() != want {
		t.Errorf("reason %q, want %q", c.reason(), want)
	}
	g.Tunable = false
	c = s.choose(syntheticNbc(s, times), g)
	if c.Best.P.Method != engine.TCC || c.Runner.P.Method != engine.NBCT {
		t.Errorf("not tunable: best %q, runner-up %q; want TCC, then NBCT", c.Best.Name, c.Runner.Name)
	}
	slow := func(p engine.Params) nbcRun {
		r := times(p)
		if p.Method != engine.MPI {
			r.Total += 10e-3
		}
		return r
	}
	if c := s.choose(syntheticNbc(s, slow), g); !c.NoCandidateOK || !strings.Contains(c.reason(), "No candidate beats the blocking MPI_Alltoall") {
		t.Errorf("nothing beats MPI: %q", c.reason())
	}
}

// TestNbcQuickPage builds the quick page from the engine and checks what
// must hold whatever the model's numbers: every chart and table is there,
// each Fig. 1/2 bar stacks up to the case's total, and each recommendation
// is no slower than any of its candidates.
func TestNbcQuickPage(t *testing.T) {
	st := newNbcStudy(false)
	if err := st.calibrate(); err != nil {
		t.Fatal(err)
	}
	raw, err := st.Run(context.Background(), nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	r, err := st.results(raw)
	if err != nil {
		t.Fatal(err)
	}
	pg, err := st.page(r)
	if err != nil {
		t.Fatal(err)
	}
	ids := map[string]bool{}
	for _, sec := range pg.Sections {
		for _, it := range sec.Items {
			switch v := it.(type) {
			case *report.BarChart:
				ids[v.ID] = true
			case *report.LineChart:
				ids[v.ID] = true
			case *report.HeatMap:
				ids[v.ID] = true
			case *report.Table:
				ids[v.ID] = true
			}
		}
	}
	for _, id := range []string{"nbc-fig1", "nbc-fig2", "nbc-speedups", "nbc-inflight-2", "nbc-inflight-32", "nbc-msgsize-2", "nbc-msgsize-32",
		"nbc-testfreq", "nbc-threads", "nbc-slice", "nbc-switch", "nbc-recommend", "nbc-calibrated", "nbc-predict", "nbc-calib", "nbc-missing",
		"nbc-sens-2-nbcf-test", "nbc-sens-32-tcc"} {
		if !ids[id] {
			t.Errorf("page lacks %s", id)
		}
	}
	for si := range nbcSetups {
		fig, err := st.figChart(r, si)
		if err != nil {
			t.Fatal(err)
		}
		for i, c := range paperCases {
			var sum float64
			for _, s := range fig.Series {
				if s.Stack == "time" {
					sum += s.Values[i]
				}
			}
			if tot := ms(r.at(st.paperCase(si, c.Method)).Total); math.Abs(sum-tot) > 1e-9*tot {
				t.Errorf("%s, %d nodes: parts stack to %.12g ms, total %.12g ms", c.Name, nbcSetups[si].Nodes, sum, tot)
			}
		}
	}
	if len(st.regimes) != 16 {
		t.Errorf("%d regimes, want 16", len(st.regimes))
	}
	for _, g := range st.regimes {
		c := st.choose(r, g)
		for _, k := range st.candidates(g) {
			if r.at(k.P).Total < c.BestR.Total {
				t.Errorf("regime %+v: %q (%g) beats the recommended %q (%g)", g, k.Name, r.at(k.P).Total, c.Best.Name, c.BestR.Total)
			}
		}
	}
}

// BenchmarkNbcStudy times the NBC page's computation, quick and full: the
// issue's budget for the full page is 60 s.
func BenchmarkNbcStudy(b *testing.B) {
	for _, mode := range []struct {
		name string
		full bool
	}{{"quick", false}, {"full", true}} {
		b.Run(mode.name, func(b *testing.B) {
			st := newNbcStudy(mode.full)
			if err := st.calibrate(); err != nil {
				b.Fatal(err)
			}
			for b.Loop() {
				raw, err := st.Run(context.Background(), nil, nil)
				if err != nil {
					b.Fatal(err)
				}
				r, err := st.results(raw)
				if err != nil {
					b.Fatal(err)
				}
				if _, err := st.page(r); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(b.Elapsed().Seconds()/float64(b.N), "s/page")
			b.ReportMetric(float64(len(st.jobs)), "runs/page")
		})
	}
}

// BenchmarkNbcCalibration times one calibration on the 2-node figure under
// each reading (the memo off): the report runs both once.
func BenchmarkNbcCalibration(b *testing.B) {
	nbcCalibMemo.Lock()
	nbcCalibMemo.off = true
	nbcCalibMemo.Unlock()
	defer func() {
		nbcCalibMemo.Lock()
		nbcCalibMemo.off = false
		nbcCalibMemo.Unlock()
	}()
	for _, v := range nbcVariants {
		b.Run(v.Key, func(b *testing.B) {
			evals := 0
			for b.Loop() {
				c, err := calibrateNbc(nbcSetups[0].params, paperSpeedups[2], v)
				if err != nil {
					b.Fatal(err)
				}
				evals = c.Fit.Evals
			}
			b.ReportMetric(b.Elapsed().Seconds()/float64(b.N), "s/calibration")
			b.ReportMetric(float64(evals), "evals")
		})
	}
}

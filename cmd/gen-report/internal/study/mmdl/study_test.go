package mmdl

import (
	"context"
	"math"
	"os"
	"strings"
	"testing"

	"commlab/cmd/gen-report/internal/report"
)

// TestMain puts a deterministic stand-in for the live calibration loop in
// place for every test of the package: pages compared with goldens must be
// byte-stable, and measured times are not.
// The live loop itself is internal/calibrate's to test;
// TestMmdlLiveCalibration runs it once through the page's adapter.
func TestMain(m *testing.M) {
	UseStandIn()
	os.Exit(m.Run())
}

func runMmdlQuick(t *testing.T) (*mmdlStudy, *mmdlResults) {
	t.Helper()
	s := newMmdlStudy(false)
	raw, err := s.Run(context.Background(), nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	r, err := s.results(raw)
	if err != nil {
		t.Fatal(err)
	}
	return s, r
}

// TestMmdlBalanced checks a row of Table 4 by hand: ProcSet 1 / Load 1 is
// balanced (eight 2400 MHz processors, 75,000 tasks each), so nothing
// moves and T = makespan = 75,000 × compute / 2400 MHz, the paper's
// 3.125 s and 9.1875 s exactly.
func TestMmdlBalanced(t *testing.T) {
	_, r := runMmdlQuick(t)
	c := r.Cases[0]
	if c.Case != (mmdlCase{1, "1"}) {
		t.Fatalf("first case %v", c.Case)
	}
	for _, tc := range []struct {
		p    mmdlPoint
		want float64
	}{{c.Before, 75000 * 0.1 / 2400}, {c.After, 75000 * 0.294 / 2400}} {
		if math.Abs(tc.p.T-tc.want) > 1e-9 || math.Abs(tc.p.Makespan-tc.want) > 1e-9 {
			t.Errorf("T %v makespan %v, want %v", tc.p.T, tc.p.Makespan, tc.want)
		}
	}
	if paperTable4[0][0] != 3.125 || paperTable4[0][1] != 9.1875 {
		t.Error("Table 4's first row is mistyped")
	}
	// The formula charges T/R + α·R even where nothing moves.
	if want := c.After.T*1.2 + 5*100e-6; math.Abs(c.After.Formula-want) > 1e-12 {
		t.Errorf("formula %v, want T + T/5 + 5α = %v", c.After.Formula, want)
	}
}

// TestMmdlPage builds the quick page and checks its parts and the
// findings that do not depend on the machine.
func TestMmdlPage(t *testing.T) {
	s, r := runMmdlQuick(t)
	if len(r.Cases) != 9 || len(r.Rounds) != 20 || len(r.Gantts) != 3 || !r.CalibOK {
		t.Fatalf("%d cases, %d rounds, %d gantts, calibration %v %s", len(r.Cases), len(r.Rounds), len(r.Gantts), r.CalibOK, r.CalibEr)
	}
	pg := s.page(r)
	ids := map[string]bool{}
	var findings, live []report.Finding
	for _, sec := range pg.Sections {
		for _, it := range sec.Items {
			switch v := it.(type) {
			case *report.LineChart:
				ids[v.ID] = true
			case *report.BarChart:
				ids[v.ID] = true
			case *report.Table:
				ids[v.ID] = true
			case *report.Gantt:
				ids[v.ID] = true
				if len(v.Bars) == 0 || len(v.Lanes) != 8 {
					t.Errorf("%s: %d bars on %d lanes", v.ID, len(v.Bars), len(v.Lanes))
				}
			case report.Findings:
				if sec.Live {
					live = v.Items
				} else {
					findings = v.Items
				}
			}
		}
		// The live loop's charts, tables and findings are in the one
		// Live section, and only there.
		if strings.Contains(sec.Title, "calibration loop") != sec.Live {
			t.Errorf("section %q: Live is %v", sec.Title, sec.Live)
		}
	}
	for _, id := range []string{"mmdl-table4", "mmdl-table4-before", "mmdl-table4-after", "mmdl-fig8", "mmdl-table5", "mmdl-rounds-wide",
		"mmdl-fig4", "mmdl-fig6", "mmdl-fig6-overlap", "live-mmdl-calibration", "live-mmdl-before", "live-mmdl-after"} {
		if !ids[id] {
			t.Errorf("page lacks %s", id)
		}
	}
	if len(findings) != 9 || len(live) != 3 {
		t.Fatalf("%d findings, %d live; want 9 and 3", len(findings), len(live))
	}
	findings = append(findings, live...)
	// Every finding puts the paper's number beside ours.
	for i, f := range findings {
		if f.Paper == "" || f.Ours == "" {
			t.Errorf("finding %d (%s) lacks the paper's or our number: %q, %q", i+1, f.Claim, f.Paper, f.Ours)
		}
	}
	// Table 5 (R = 2 … 20 and R = 1), the rounds falling, the overlap's
	// gain and the bounds are the model's and reproduce.
	for _, i := range []int{0, 1, 5, 7, 8} {
		if findings[i].Verdict != report.Reproduced {
			t.Errorf("finding %d (%s): %s (%s)", i+1, findings[i].Claim, findings[i].Verdict, findings[i].Evidence)
		}
	}
	// Table 4's simulated columns: Load 3-a and 3-b are the known misses.
	if findings[2].Verdict != report.PartlyReproduced || !strings.Contains(findings[2].Evidence, "PS1 L3-a") {
		t.Errorf("Table 4 simulated: %s (%s)", findings[2].Verdict, findings[2].Evidence)
	}
	// The stand-in machine: error 1 % after, far more before.
	if findings[9].Verdict != report.Reproduced {
		t.Errorf("calibration finding with the stand-in: %s (%s)", findings[9].Verdict, findings[9].Evidence)
	}
	// T ≤ overlapped ≤ formula at the paper's round counts (R ≤ 20); the
	// paper's schedule at T + max γ_i·f_i/R + D·α·R.
	const slack = 1e-9 // relative: the simulation adds up thousands of float64 durations
	for _, p := range append(append([]mmdlPoint(nil), r.Rounds...), r.Cases[4].Before, r.Cases[4].After) {
		if p.Overlap < p.T*(1-slack) || p.Overlap > p.Formula*(1+slack) {
			t.Errorf("R = %d: overlapped makespan %v outside [T %v, formula %v]", p.R, p.Overlap, p.T, p.Formula)
		}
		if p.Makespan < p.Overlap {
			t.Errorf("R = %d: the paper's schedule %v beats the overlapped one %v", p.R, p.Makespan, p.Overlap)
		}
	}
	if err := report.Write(t.TempDir()+"/r", report.Index{}, pg); err != nil {
		t.Fatal(err)
	}
}

// TestMmdlFindingsSynthetic checks that the verdicts follow the numbers.
func TestMmdlFindingsSynthetic(t *testing.T) {
	_, r := runMmdlQuick(t)

	// A makespan above the formula breaks the bounds finding.
	bad := *r
	bad.Rounds = append([]mmdlPoint(nil), r.Rounds...)
	bad.Rounds[3].Makespan = bad.Rounds[3].Formula * 1.01
	if f := findingBounds(&bad); f.Verdict != report.PartlyReproduced || !strings.Contains(f.Evidence, "Not reproduced: R = 4") {
		t.Errorf("bounds with one outlier: %s (%s)", f.Verdict, f.Evidence)
	}

	// Table 5: one value 0.5 % off is no longer reproduced.
	off := *r
	off.Rounds = append([]mmdlPoint(nil), r.Rounds...)
	off.Rounds[9].Makespan *= 1.005
	if f := findingTable5(&off); f.Verdict != report.PartlyReproduced || !strings.Contains(f.Ours, "R = 10") {
		t.Errorf("Table 5 with R = 10 0.5 %% off: %s (%s)", f.Verdict, f.Ours)
	}

	// Calibration: error rising is not reproduced; no loop is not checkable.
	worse := *r
	c := *r.Calib
	c.After.Predicted = c.After.Measured * 2
	worse.Calib = &c
	if f := findingCalibration(&worse); f.Verdict != report.NotReproduced {
		t.Errorf("calibration that made things worse: %s", f.Verdict)
	}
	none := *r
	none.CalibOK, none.Calib, none.CalibEr = false, nil, "no cores"
	for _, f := range []report.Finding{findingCalibration(&none), findingRecalibratedFaster(&none), findingBytes(&none)} {
		if f.Verdict != report.NotCheckable || !strings.Contains(f.Evidence, "no cores") {
			t.Errorf("no calibration: %s (%s)", f.Verdict, f.Evidence)
		}
	}
	// The page still builds, saying why the live section holds only its
	// findings, not checkable.
	pg := newMmdlStudy(false).page(&none)
	if sec := pg.Sections[3]; !sec.Live || len(sec.Items) != 1 || !strings.Contains(sec.Intro, "could not run") {
		t.Errorf("calibration section without a loop: %+v", sec)
	}

	// Eq. (2): the stand-in fits 0.0032 MB, the bytes moved exactly.
	if f := findingBytes(r); f.Verdict != report.Reproduced {
		t.Errorf("bytes: %s (%s)", f.Verdict, f.Evidence)
	}
	far := *r
	c2 := *r.Calib
	c2.Before.FitComm = 0.01
	far.Calib = &c2
	if f := findingBytes(&far); f.Verdict != report.NotReproduced {
		t.Errorf("bytes 3× off: %s", f.Verdict)
	}
}

// TestMmdlLiveCalibration runs the real loop once, at a small scale,
// through the page's adapter: the executed Gantt charts have every
// operation and the numbers are sane. Skipped with -short.
func TestMmdlLiveCalibration(t *testing.T) {
	if testing.Short() {
		t.Skip("executes real work")
	}
	cfg := quickCalib
	cfg.Scale = 1.0 / 1000
	res, err := mmdlLiveCalibration(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	for i, p := range []mmdlCalibPass{res.Before, res.After} {
		if !(p.Measured > 0 && p.Predicted > 0 && p.FitCompute > 0 && p.FitComm > 0) {
			t.Errorf("pass %d: %+v", i, p)
		}
		g := calibGantt("x", "x", p)
		sends := 0
		for _, b := range g.Bars {
			if g.Kinds[b.Kind] == "send" {
				sends++
			}
		}
		// Round boundaries are where transfers start: none if nothing moves.
		if len(g.Bars) == 0 || (sends > 0) != (len(g.Marks) > 0) {
			t.Errorf("pass %d: executed Gantt with %d bars, %d sends, %d marks", i, len(g.Bars), sends, len(g.Marks))
		}
		for _, b := range g.Bars {
			if b.End > p.Measured*(1+1e-9) {
				t.Errorf("pass %d: a bar ends at %v, after the measured makespan %v", i, b.End, p.Measured)
				break
			}
		}
	}
	if res.After.Compute != res.Before.FitCompute || res.After.Comm != res.Before.FitComm {
		t.Errorf("the second pass did not use the first one's refit: %+v", res)
	}
	t.Logf("live: before %+v", []float64{res.Before.Compute, res.Before.Comm, res.Before.Predicted, res.Before.Measured, res.Before.FitCompute, res.Before.FitComm})
	t.Logf("live: after  %+v", []float64{res.After.Compute, res.After.Comm, res.After.Predicted, res.After.Measured, res.After.FitCompute, res.After.FitComm})
}

// BenchmarkMmdlStudy times the MMDL page, quick and full, with the live
// calibration loop: the budget for a full page is 30 s.
func BenchmarkMmdlStudy(b *testing.B) {
	for _, mode := range []struct {
		name string
		full bool
	}{{"quick", false}, {"full", true}} {
		b.Run(mode.name, func(b *testing.B) {
			st := newMmdlStudy(mode.full)
			st.runner = mmdlLiveCalibration
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

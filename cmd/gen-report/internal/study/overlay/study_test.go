package overlay

import (
	"context"
	"math"
	"strings"
	"testing"

	"commlab/cmd/gen-report/internal/report"
	engine "commlab/engine/overlay"
	"commlab/engine/topology"
)

func TestFirstJump(t *testing.T) {
	for _, tc := range []struct {
		xs   []float64
		want int
	}{
		{nil, 0},
		{[]float64{5}, 0},
		{[]float64{5, 5, 5}, 0},
		// The paper's shape: flat, one jump after the 3rd.
		{[]float64{60, 60.2, 60.3, 70, 70.1}, 3},
		// Two levels of equal jumps: the first one, not the largest by a hair.
		{[]float64{60, 60.1, 70, 70.2, 80.1, 80.2}, 2},
		// Noise steps under half the jump do not count.
		{[]float64{60, 63, 64, 70}, 3},
	} {
		if got := firstJump(tc.xs); got != tc.want {
			t.Errorf("firstJump(%v) = %d, want %d", tc.xs, got, tc.want)
		}
	}
}

func TestOrdinal(t *testing.T) {
	for n, want := range map[int]string{1: "1st", 2: "2nd", 3: "3rd", 4: "4th", 11: "11th", 12: "12th", 13: "13th", 14: "14th", 21: "21st", 112: "112th", 123: "123rd"} {
		if got := ordinal(n); got != want {
			t.Errorf("ordinal(%d) = %q, want %q", n, got, want)
		}
	}
}

// TestTreeTable checks the side-by-side table on a hand-made case: s1
// groups a–c, which the "inferred" tree misses, and s2 has one child, so
// it and s5 have the same nodes below and both match the inferred leaf
// d–f; the roots match whatever their children.
func TestTreeTable(t *testing.T) {
	tru := &topology.Tree{Nodes: []string{"a", "b", "c", "d", "e", "f"}, Switches: []topology.Switch{
		{ID: 0, Parent: -1}, {ID: 1, Parent: 0}, {ID: 2, Parent: 0},
		{ID: 3, Parent: 1, Nodes: []int{0, 1}}, {ID: 4, Parent: 1, Nodes: []int{2}},
		{ID: 5, Parent: 2, Nodes: []int{3, 4, 5}},
	}}
	inf := &topology.Tree{Nodes: tru.Nodes, Switches: []topology.Switch{
		{ID: 0, Parent: 3, Nodes: []int{0, 1}}, {ID: 1, Parent: 3, Nodes: []int{2}},
		{ID: 2, Parent: 3, Nodes: []int{3, 4, 5}}, {ID: 3, Parent: -1},
	}}
	for _, tr := range []*topology.Tree{tru, inf} {
		if err := tr.Validate(); err != nil {
			t.Fatal(err)
		}
	}
	tb := treeTable("t", ovlTree{Name: "hand", True: tru, Inferred: inf})
	want := [][]string{
		{"s0", "root", "switches s1, s2", "s3", "root", "switches s0, s1, s2", "yes"},
		{"s1", "s0", "switches s3, s4", "—", "", "", "no"},
		{"s2", "s0", "switches s5", "s2", "s3", "d–f", "yes"},
		{"s3", "s1", "a–b", "s0", "s3", "a–b", "yes"},
		{"s4", "s1", "c", "s1", "s3", "c", "yes"},
		{"s5", "s2", "d–f", "s2", "s3", "d–f", "yes"},
	}
	if len(tb.Rows) != len(want) {
		t.Fatalf("%d rows, want %d: %q", len(tb.Rows), len(want), tb.Rows)
	}
	for i := range want {
		if strings.Join(tb.Rows[i], "|") != strings.Join(want[i], "|") {
			t.Errorf("row %d:\n got %q\nwant %q", i, tb.Rows[i], want[i])
		}
	}
}

// syntheticFig5 builds Fig. 5's runs with times chosen by hand.
func syntheticFig5(s *overlayStudy, time func(c ovlCase) float64) []ovlRun {
	var out []ovlRun
	for _, c := range s.cases() {
		r := ovlRun{Case: c, Time: time(c)}
		switch c.Policy {
		case engine.All:
			r.ConnMean, r.StaticMax = 127, 127
		case engine.Random:
			r.ConnMean, r.StaticMax = 64, 64
		default:
			r.ConnMean, r.StaticMax = 26+float64(c.Cache), 28
		}
		out = append(out, r)
	}
	return out
}

// TestOverlayFindingsSynthetic: the Fig. 5 verdicts follow the numbers.
func TestOverlayFindingsSynthetic(t *testing.T) {
	s := newOverlayStudy(false, 1)
	paperLike := func(c ovlCase) float64 {
		switch c.Policy {
		case engine.All:
			return 1.2
		case engine.Random:
			return 1.3
		}
		return 1 - 0.01*float64(c.Cache) // shortcuts help
	}
	r := &overlayResults{Fig5: syntheticFig5(s, paperLike), Readings: []ovlReading{{Name: "6 leaves", StaticMax: 28}, {Name: "5 leaves of 14", StaticMax: 31}}}
	if v := ovlFindingTopologyBeats(s, r).Verdict; v != report.Reproduced {
		t.Errorf("paper-like: topology beats: %s", v)
	}
	if f := ovlFindingShortcuts(s, r); f.Verdict != report.Reproduced {
		t.Errorf("paper-like: shortcuts: %s (%s)", f.Verdict, f.Evidence)
	}
	if v := ovlFindingStatic(r).Verdict; v != report.Reproduced {
		t.Errorf("paper-like: static: %s", v)
	}
	r.Readings[1].StaticMax = 29 // neither reading gives exactly 31
	if v := ovlFindingStatic(r).Verdict; v != report.PartlyReproduced {
		t.Errorf("no reading with 31: static: %s, want partial", v)
	}
	allWins := func(c ovlCase) float64 {
		if c.Policy == engine.All {
			return 0.5
		}
		return paperLike(c)
	}
	r.Fig5 = syntheticFig5(s, allWins)
	if v := ovlFindingTopologyBeats(s, r).Verdict; v != report.NotReproduced {
		t.Errorf("all fastest: topology beats: %s", v)
	}
	onlyBig := func(c ovlCase) float64 { // beats both at C = 16 only
		if c.Policy == engine.Topology {
			return 1.25 - 0.1*float64(c.Cache/16)
		}
		return paperLike(c)
	}
	r.Fig5 = syntheticFig5(s, onlyBig)
	if v := ovlFindingTopologyBeats(s, r).Verdict; v != report.PartlyReproduced {
		t.Errorf("beats both at C = 16 only: %s, want partial", v)
	}
	flat := func(c ovlCase) float64 { return 1 }
	r.Fig5 = syntheticFig5(s, flat)
	if v := ovlFindingShortcuts(s, r).Verdict; v != report.NotReproduced {
		t.Errorf("no gain: shortcuts: %s", v)
	}
}

// TestOverlayFindingsCosts: the cost sweep's verdict follows the cells.
func TestOverlayFindingsCosts(t *testing.T) {
	s := newOverlayStudy(false, 1)
	def := ovlCost{Poll: s.is.PollPerConn, Handshake: s.is.HandshakeCPU, All: 1, Topo: 0.9}
	far := ovlCost{Poll: 2.4e-6, Handshake: s.is.HandshakeCPU, All: 2, Topo: 1.5}
	r := &overlayResults{Costs: []ovlCost{def, far}}
	if v := ovlFindingCosts(s, r).Verdict; v != report.Reproduced {
		t.Errorf("wins at the defaults: %s", v)
	}
	r.Costs[0].Topo = 1.1
	if f := ovlFindingCosts(s, r); f.Verdict != report.PartlyReproduced || !strings.Contains(f.Evidence, "2.4 µs / 60 µs (whole)") {
		t.Errorf("wins far from the defaults only: %s: %s", f.Verdict, f.Evidence)
	}
	r.Costs[1].Topo = 2.5
	if v := ovlFindingCosts(s, r).Verdict; v != report.NotReproduced {
		t.Errorf("no win: %s", v)
	}
}

// TestOverlayFindingsPlans: the scaling verdict on hand-made plans.
func TestOverlayFindingsPlans(t *testing.T) {
	mk := func(n, naive, scal int) ovlScale {
		return ovlScale{N: n, Naive: topology.MeasurePlan{Count: naive, Time: float64(naive)}, Scalable: topology.MeasurePlan{Count: scal, Time: float64(scal)}}
	}
	r := &overlayResults{Scale: []ovlScale{mk(32, 1000, 100), mk(64, 4000, 200), mk(128, 16000, 400)}}
	f := ovlFindingPlans(r)
	if f.Verdict != report.Reproduced || !strings.Contains(f.Evidence, "naive count k = 2.00") || !strings.Contains(f.Evidence, "scalable count k = 1.00") {
		t.Errorf("%s: %s", f.Verdict, f.Evidence)
	}
	r.Scale = []ovlScale{mk(32, 1000, 100), mk(64, 4000, 400)} // same ratio: no growing advantage
	if v := ovlFindingPlans(r).Verdict; v != report.PartlyReproduced {
		t.Errorf("constant ratio: %s", v)
	}
}

// TestOverlayQuickPage builds the quick page from the engines and checks
// what must hold whatever the model's numbers.
func TestOverlayQuickPage(t *testing.T) {
	s := newOverlayStudy(false, 1)
	raw, err := s.Run(context.Background(), nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	r, err := s.results(raw)
	if err != nil {
		t.Fatal(err)
	}
	pg := s.page(r)
	ids := map[string]bool{}
	var findings int
	for _, sec := range pg.Sections {
		for _, it := range sec.Items {
			switch v := it.(type) {
			case *report.BarChart:
				ids[v.ID] = true
			case *report.LineChart:
				ids[v.ID] = true
			case *report.Table:
				ids[v.ID] = true
			case report.Findings:
				findings = len(v.Items)
			}
		}
	}
	for _, id := range []string{"overlay-fig4", "overlay-fig5", "overlay-fig5-conns", "overlay-fig5-table", "overlay-reuse", "overlay-costs", "overlay-readings", "overlay-trees", "overlay-tree-1", "overlay-tree-2", "overlay-tree-3", "overlay-scale-count", "overlay-scale-time"} {
		if !ids[id] {
			t.Errorf("page lacks %s", id)
		}
	}
	if findings != 7 {
		t.Errorf("%d findings, want 7", findings)
	}
	for _, f := range overlayFindings(s, r) {
		if f.Verdict != report.NotCheckable && (f.Paper == "" || f.Ours == "") {
			t.Errorf("finding %q lacks the paper's number or ours", f.Claim)
		}
	}
	if len(r.Readings) != 2 || r.Readings[1].StaticMax != paperStaticMax {
		t.Errorf("readings of \"6 switches\": %+v; the 5-switch one must give exactly %d static connections", r.Readings, paperStaticMax)
	}
	f := r.Fig4
	if len(f.Sorted) != 111 || f.PerLeaf != 14 {
		t.Errorf("Fig. 4: %d RTTs, %d per switch", len(f.Sorted), f.PerLeaf)
	}
	for i := 1; i < len(f.Sorted); i++ {
		if f.Sorted[i] < f.Sorted[i-1] {
			t.Fatalf("Fig. 4 not sorted at %d", i)
		}
	}
	// The jump marked is where the node's own switch ends: its 13 peers
	// come first (min of 5 pings of noise 2 µs stays far below one 10 µs
	// hop pair).
	if f.GapAfter != 13 {
		t.Errorf("Fig. 4 jump after the %d-th node, want 13", f.GapAfter)
	}
	for _, tr := range r.Trees {
		if !tr.Iso {
			t.Errorf("%s: inferred tree not isomorphic", tr.Name)
		}
	}
	if len(r.Fig5) != len(s.caches)+2 {
		t.Errorf("%d Fig. 5 bars, want %d", len(r.Fig5), len(s.caches)+2)
	}
	for _, x := range r.Fig5 {
		if !(x.Time > 0) || math.IsInf(x.Time, 0) {
			t.Errorf("Fig. 5 %s: time %g", x.Case.Label, x.Time)
		}
		if x.Case.Policy == engine.All && x.Relayed != 0 {
			t.Errorf("all-to-all relayed %g messages", x.Relayed)
		}
		if x.Case.Policy == engine.Topology && x.Case.Cache == 0 && x.Opened != 0 {
			t.Errorf("cache 0 opened %g shortcuts", x.Opened)
		}
	}
	for i, p := range r.Scale {
		if p.Scalable.Count > p.Naive.Count {
			t.Errorf("N = %d: scalable plan takes more measurements (%d) than the naive (%d)", p.N, p.Scalable.Count, p.Naive.Count)
		}
		if i > 0 && p.N != 2*r.Scale[i-1].N {
			t.Errorf("N axis does not double: %d after %d", p.N, r.Scale[i-1].N)
		}
	}
}

// BenchmarkOverlayStudy times the overlay page's computation, quick and
// full.
func BenchmarkOverlayStudy(b *testing.B) {
	for _, mode := range []struct {
		name string
		full bool
	}{{"quick", false}, {"full", true}} {
		b.Run(mode.name, func(b *testing.B) {
			s := newOverlayStudy(mode.full, 1)
			for b.Loop() {
				raw, err := s.Run(context.Background(), nil, nil)
				if err != nil {
					b.Fatal(err)
				}
				r, err := s.results(raw)
				if err != nil {
					b.Fatal(err)
				}
				_ = s.page(r)
			}
			b.ReportMetric(b.Elapsed().Seconds()/float64(b.N), "s/page")
		})
	}
}

package report

import (
	"flag"
	"fmt"
	"math"
	"testing"
)

var (
	update = flag.Bool("update", false, "rewrite the testdata/golden files from the current output")
	out    = flag.String("out", "", "TestDemo writes a demonstration report into this directory (for a look in a browser)")
)

// tiny is the small report of the golden test: one page with one of everything, a NaN in
// each chart, a value beyond ZMax, and text that needs escaping.
func tiny() (Index, []Page) {
	nan := math.NaN()
	page := Page{
		File:     "tiny.html",
		Title:    "Tiny report",
		Subtitle: "A. Author and B. Author, Some Conference 2010",
		Intro:    "First paragraph of the intro.\n\nSecond paragraph, with <angle brackets> & an ampersand.",
		Sections: []Section{
			{
				Title: "Charts",
				Intro: "Two charts.",
				Items: []any{
					&HeatMap{
						ID:         "fig1",
						Title:      "Fig. 1  Runtime",
						Caption:    "Paper Fig. 1. The empty cell is infeasible; 7 is above ZMax and drawn in the end colour.",
						X:          Axis{Name: "P", Labels: []string{"2^2", "2^4", "2^6"}, Values: []float64{4, 16, 64}},
						Y:          Axis{Name: "jitter", Labels: []string{"10^-1", "10^0"}},
						Z:          [][]float64{{1.5, 0.1 + 0.2, nan}, {1e-300, 7, 3}},
						ZName:      "runtime (µs)",
						ZMax:       Float(5),
						Digits:     2,
						CellLabels: true,
						// (0, 1) is wide: ±0.25 of 0.3; (2, 1) has none.
						Lo: [][]float64{{1.4, 0.05, nan}, {1e-300, 6.5, nan}},
						Hi: [][]float64{{1.6, 0.55, nan}, {2e-300, 7.5, nan}},
						Links: [][]*Link{
							{{Path: "scene.html?scene=butterfly&P=4", Title: "the butterfly scene at P = 4"}, nil, nil},
							{nil, {Path: "scene.html?scene=jitter&P=16", Title: `the jitter scene at P = 16 ("quoted")`}, nil},
						},
					},
					&LineChart{
						ID:      "fig2",
						Title:   "Fig. 2  Scaling",
						Caption: "Log scale; the butterfly has a gap at 2^6.",
						X:       Axis{Name: "P", Labels: []string{"2^2", "2^4", "2^6", "2^8"}},
						YName:   "time (µs)",
						YLog:    true,
						Series: []Series{
							{Name: "butterfly", Values: []float64{1, 10, nan, 1000},
								Lo: []float64{0.9, 8, nan, 990}, Hi: []float64{1.2, 12, nan, 1010}},
							{Name: "redundant, 2x", Values: []float64{2, 20, 200, 2000},
								Links: []*Link{nil, {Path: "scene.html?scene=butterfly&P=16&T=2", Title: "the butterfly scene at P = 16, T = 2"}, nil, nil}},
						},
					},
				},
			},
			{
				Title: "Numbers",
				Items: []any{
					&Table{
						ID:      "tab1",
						Title:   "Table 1  Paper vs simulation",
						Caption: "The paper's numbers beside ours.",
						Header:  []string{"P", "paper", "simulated", "note"},
						Rows: [][]string{
							{"16", "1.2", "1.25", "close"},
							{"64", "3.5", "3.4", `quote " and comma ,`},
						},
						RowLinks: []*Link{{Path: "scene.html?scene=butterfly&P=16", Title: "the butterfly scene at P = 16"}, nil},
					},
					Findings{
						Title: "Findings",
						Items: []Finding{
							{Claim: "Redundant exchanges hide jitter.", Verdict: Reproduced, Paper: "2x (Fig. 1)", Ours: "2.1x [1.9, 2.3]",
								Tolerance: `[1.5, 3]: "about twice"`, Evidence: "Fig. 1: 2x faster at P = 2^6.", Figures: []string{"fig1", "tab1"}},
							{Claim: "The gain grows with P.", Verdict: PartlyReproduced, Evidence: "Only up to 2^8.", Figures: []string{"fig2"}},
							{Claim: "Noise never helps.", Verdict: NotReproduced, Evidence: "At 10^-1 it does."},
							{Claim: "The peak is at 2^4.", Verdict: Inconclusive, Paper: "2^4", Ours: "2^4 or 2^6", Evidence: "The interval reaches across both; 300 trials would decide."},
						},
					},
				},
			},
			{
				Title: "Measured here",
				Intro: "Timed on the machine that wrote the report.",
				Live:  true,
				Items: []any{
					&Table{ID: "live-tab", Title: "Table 2  Measured", Header: []string{"run", "time (s)"}, Rows: [][]string{{"1", "0.51"}}},
					Findings{Items: []Finding{
						{Claim: "It runs in half a second.", Verdict: Reproduced, Paper: "0.5 s", Ours: "0.51 s (live)", Figures: []string{"live-tab", "fig2"}},
					}},
				},
			},
		},
	}
	return Index{Title: "Reports", Intro: "The reproduced figures."}, []Page{page}
}

// demo is a report the size of a real one, for looking at in a browser: go test -run
// TestDemo -out /tmp/demo, then open /tmp/demo/index.html.
func demo() (Index, []Page) {
	nan := math.NaN()
	xs, ys := make([]string, 16), make([]string, 12)
	for i := range xs {
		xs[i] = fmt.Sprintf("2^%d", i+4)
	}
	for j := range ys {
		ys[j] = fmt.Sprintf("10^%.1f", -3+0.5*float64(j))
	}
	z, d := make([][]float64, len(ys)), make([][]float64, len(ys))
	zlo, zhi, links := make([][]float64, len(ys)), make([][]float64, len(ys)), make([][]*Link, len(ys))
	for j := range ys {
		z[j], d[j] = make([]float64, len(xs)), make([]float64, len(xs))
		zlo[j], zhi[j], links[j] = make([]float64, len(xs)), make([]float64, len(xs)), make([]*Link, len(xs))
		for i := range xs {
			z[j][i] = 0.3 * float64(i) * math.Pow(1.25, float64(j)) / 4
			// Half-widths of 5 % but 30 % in the top right quarter:
			// hatched there.
			hw := 0.05
			if i >= len(xs)/2 && j >= len(ys)/2 {
				hw = 0.3
			}
			zlo[j][i], zhi[j][i] = z[j][i]*(1-hw), z[j][i]*(1+hw)
			if i+j < 4 { // the infeasible corner
				z[j][i], zlo[j][i], zhi[j][i] = nan, nan, nan
			} else {
				P := 1 << (i + 4)
				links[j][i] = &Link{Path: fmt.Sprintf("scene.html?scene=butterfly&P=%d", min(P, 1024)),
					Title: fmt.Sprintf("the butterfly scene at P = %d", min(P, 1024))}
				if P > 1024 {
					links[j][i].Title += fmt.Sprintf(" (the cell's %d capped to what the scene draws)", P)
				}
			}
			d[j][i] = math.Sin(float64(i)/3) * math.Cos(float64(j)/4) * 2
		}
	}
	lx := make([]string, 12)
	s1, s2, s3 := make([]float64, 12), make([]float64, 12), make([]float64, 12)
	lo1, hi1, lo2, hi2 := make([]float64, 12), make([]float64, 12), make([]float64, 12), make([]float64, 12)
	l2 := make([]*Link, 12)
	for i := range lx {
		lx[i] = fmt.Sprintf("2^%d", 2*i)
		s1[i] = math.Pow(2, float64(i)) * 3
		s2[i] = math.Pow(1.7, float64(i)) * 10
		s3[i] = 50 * float64(i+1)
		lo1[i], hi1[i] = s1[i]/1.4, s1[i]*1.4
		lo2[i], hi2[i] = s2[i]*0.9, s2[i]*1.15
		l2[i] = &Link{Path: fmt.Sprintf("scene.html?scene=jitter&P=%d", min(1<<(2*i), 1024)), Title: fmt.Sprintf("the jitter scene at P = %d", min(1<<(2*i), 1024))}
	}
	s1[5], s1[6] = nan, nan
	lo1[5], lo1[6], hi1[5], hi1[6] = nan, nan, nan, nan
	page := Page{
		File:     "demo.html",
		Title:    "Demo: allreduce under jitter",
		Subtitle: "A look at every kind of item",
		Intro:    "This page shows what the report package draws.\n\nIt is written by go test -run TestDemo -out DIR.",
		Sections: []Section{
			{Title: "Heat maps", Intro: "A sequential and a diverging scale.", Items: []any{
				&HeatMap{ID: "demo-heat", Title: "Fig. 5  Influence of jitter", Caption: "The lower left corner is infeasible (empty). Values above 5 are drawn in the top colour.",
					X: Axis{Name: "processes", Labels: xs}, Y: Axis{Name: "jitter (s)", Labels: ys}, Z: z, ZName: "slowdown", ZMin: Float(0), ZMax: Float(5), Digits: 3,
					Lo: zlo, Hi: zhi, Links: links},
				&HeatMap{ID: "demo-div", Title: "Fig. 6  Diverging", Caption: "Speed-up minus one, centred at 0.", Palette: Diverging, CellLabels: false,
					X: Axis{Name: "processes", Labels: xs}, Y: Axis{Name: "jitter (s)", Labels: ys}, Z: d, ZName: "gain", ZMin: Float(-2), ZMax: Float(2)},
			}},
			{Title: "Lines", Items: []any{
				&LineChart{ID: "demo-line", Title: "Fig. 7  Runtime (log scale)", Caption: "The butterfly has a gap at 2^10 and 2^12.", X: Axis{Name: "processes", Labels: lx},
					YName: "time (µs)", YLog: true, Series: []Series{{Name: "butterfly", Values: s1, Lo: lo1, Hi: hi1}, {Name: "redundant", Values: s2, Lo: lo2, Hi: hi2, Links: l2}, {Name: "linear", Values: s3}}},
			}},
			{Title: "Bars", Items: []any{
				&BarChart{ID: "demo-bar", Title: "Fig. 8  Time and its parts", Caption: "Each bar is the total time, stacked from its parts; the overlap is a bar of its own. The third case has no overlap (NaN).",
					X: Axis{Name: "case", Labels: []string{"blocking", "progress function", "progress thread"}}, YName: "time (ms)",
					Series: []BarSeries{
						{Name: "compute", Stack: "time", Values: []float64{30, 30, 32}},
						{Name: "communication", Stack: "time", Values: []float64{12, 3, 1}},
						{Name: "overheads", Stack: "time", Values: []float64{0.5, 1.5, 2}},
						{Name: "overlap", Values: []float64{0, 9, nan}},
					}},
			}},
			{Title: "Summary", Items: []any{
				&Table{ID: "demo-table", Title: "Table 2  Paper vs simulation", Header: []string{"P", "paper (µs)", "simulated (µs)"},
					Rows:     [][]string{{"1024", "12.5", "12.9"}, {"4096", "20.1", "19.4"}},
					RowLinks: []*Link{{Path: "scene.html?scene=butterfly&P=1024", Title: "the butterfly scene at P = 1024"}, nil}},
				Findings{Title: "Findings", Items: []Finding{
					{Claim: "Redundant exchanges hide jitter.", Verdict: Reproduced, Paper: "below 2", Ours: "1.7 [1.6, 1.8]", Tolerance: `[0, 2]: "below 2"`,
						Evidence: "Fig. 5: the slowdown stays below 2 for jitter up to 10^-1.", Figures: []string{"demo-heat", "demo-table"}},
					{Claim: "The gain grows with P.", Verdict: PartlyReproduced, Paper: "up to 2^14", Ours: "up to 2^12", Evidence: "Up to 2^12 only; beyond, the network noise dominates.", Figures: []string{"demo-line"}},
					{Claim: "Noise never helps.", Verdict: NotReproduced, Evidence: "Fig. 6 has positive gains at small P.", Figures: []string{"demo-div"}},
					{Claim: "The peak lies at 2^11.", Verdict: Inconclusive, Paper: "2^11", Ours: "2^11 or 2^12", Evidence: "The two intervals overlap; about 300 trials would tell them apart.", Figures: []string{"demo-heat"}},
				}},
			}},
			{Title: "Measured on this machine", Live: true, Intro: "A live measurement: it differs from run to run.", Items: []any{
				&BarChart{ID: "live-demo-bar", Title: "Measured: time of one pass", X: Axis{Name: "pass", Labels: []string{"before", "after"}}, YName: "time (s)",
					Series: []BarSeries{{Name: "predicted", Values: []float64{1.2, 1.0}}, {Name: "measured", Values: []float64{1.5, 1.05}}}},
				Findings{Items: []Finding{
					{Claim: "Calibrating makes the prediction nearly equal the measurement.", Verdict: Reproduced, Paper: "within 2 %", Ours: "5 % (live)", Figures: []string{"live-demo-bar", "demo-line"}},
				}},
			}},
		},
		Thumbnail: "demo-heat",
	}
	return Index{Intro: "Reports of the reproduced papers."}, []Page{page}
}

func TestDemo(t *testing.T) {
	if *out == "" {
		t.Skip("no -out directory")
	}
	idx, pages := demo()
	_, more := tiny()
	if err := Write(*out, idx, append(pages, more...)...); err != nil {
		t.Fatal(err)
	}
}

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
					},
					&LineChart{
						ID:      "fig2",
						Title:   "Fig. 2  Scaling",
						Caption: "Log scale; the butterfly has a gap at 2^6.",
						X:       Axis{Name: "P", Labels: []string{"2^2", "2^4", "2^6", "2^8"}},
						YName:   "time (µs)",
						YLog:    true,
						Series: []Series{
							{Name: "butterfly", Values: []float64{1, 10, nan, 1000}},
							{Name: "redundant, 2x", Values: []float64{2, 20, 200, 2000}},
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
					},
					Findings{
						Title: "Findings",
						Items: []Finding{
							{Claim: "Redundant exchanges hide jitter.", Verdict: Reproduced, Evidence: "Fig. 1: 2x faster at P = 2^6."},
							{Claim: "The gain grows with P.", Verdict: PartlyReproduced, Evidence: "Only up to 2^8."},
							{Claim: "Noise never helps.", Verdict: NotReproduced, Evidence: "At 10^-1 it does."},
						},
					},
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
	for j := range ys {
		z[j], d[j] = make([]float64, len(xs)), make([]float64, len(xs))
		for i := range xs {
			z[j][i] = 0.3 * float64(i) * math.Pow(1.25, float64(j)) / 4
			if i+j < 4 { // the infeasible corner
				z[j][i] = nan
			}
			d[j][i] = math.Sin(float64(i)/3) * math.Cos(float64(j)/4) * 2
		}
	}
	lx := make([]string, 12)
	s1, s2, s3 := make([]float64, 12), make([]float64, 12), make([]float64, 12)
	for i := range lx {
		lx[i] = fmt.Sprintf("2^%d", 2*i)
		s1[i] = math.Pow(2, float64(i)) * 3
		s2[i] = math.Pow(1.7, float64(i)) * 10
		s3[i] = 50 * float64(i+1)
	}
	s1[5], s1[6] = nan, nan
	page := Page{
		File:     "demo.html",
		Title:    "Demo: allreduce under jitter",
		Subtitle: "A look at every kind of item",
		Intro:    "This page shows what the report package draws.\n\nIt is written by go test -run TestDemo -out DIR.",
		Sections: []Section{
			{Title: "Heat maps", Intro: "A sequential and a diverging scale.", Items: []any{
				&HeatMap{ID: "demo-heat", Title: "Fig. 5  Influence of jitter", Caption: "The lower left corner is infeasible (empty). Values above 5 are drawn in the top colour.",
					X: Axis{Name: "processes", Labels: xs}, Y: Axis{Name: "jitter (s)", Labels: ys}, Z: z, ZName: "slowdown", ZMin: Float(0), ZMax: Float(5), Digits: 3},
				&HeatMap{ID: "demo-div", Title: "Fig. 6  Diverging", Caption: "Speed-up minus one, centred at 0.", Palette: Diverging, CellLabels: false,
					X: Axis{Name: "processes", Labels: xs}, Y: Axis{Name: "jitter (s)", Labels: ys}, Z: d, ZName: "gain", ZMin: Float(-2), ZMax: Float(2)},
			}},
			{Title: "Lines", Items: []any{
				&LineChart{ID: "demo-line", Title: "Fig. 7  Runtime (log scale)", Caption: "The butterfly has a gap at 2^10 and 2^12.", X: Axis{Name: "processes", Labels: lx},
					YName: "time (µs)", YLog: true, Series: []Series{{Name: "butterfly", Values: s1}, {Name: "redundant", Values: s2}, {Name: "linear", Values: s3}}},
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
					Rows: [][]string{{"1024", "12.5", "12.9"}, {"4096", "20.1", "19.4"}}},
				Findings{Title: "Findings", Items: []Finding{
					{Claim: "Redundant exchanges hide jitter.", Verdict: Reproduced, Paper: "below 2", Ours: "1.7", Evidence: "Fig. 5: the slowdown stays below 2 for jitter up to 10^-1."},
					{Claim: "The gain grows with P.", Verdict: PartlyReproduced, Evidence: "Up to 2^12 only; beyond, the network noise dominates."},
					{Claim: "Noise never helps.", Verdict: NotReproduced, Evidence: "Fig. 6 has positive gains at small P."},
				}},
			}},
		},
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

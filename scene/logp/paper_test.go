package logp

import (
	"math"
	"testing"

	"commlab/engine/logp"
	"commlab/scene"
)

// TestPaperPoint: at the slides' two optima, with the σ they imply, the
// scene shows the slides' excess beside the run's Monte Carlo excess,
// which agrees with the engine's closed form within four standard errors,
// for the report's n = 1000 and the scene's default n = 100 alike.
func TestPaperPoint(t *testing.T) {
	info := New().Info()
	for _, c := range []struct {
		P     string
		Ls    string
		paper float64
	}{{"2", "10", 0.7}, {"3", "10.76", 0.87}} {
		for _, n := range []string{"100", "1000"} {
			set := map[string]string{"P": c.P, "Ls": c.Ls, "sigma": "1.755", "n": n}
			r := build(t, set, 1)
			got := scene.PaperPoint(New(), values(set), r.Numbers())
			if len(got) != 1 {
				t.Fatalf("%v: %d paper numbers, want 1", set, len(got))
			}
			p, ls, err := Params(values(set))
			if err != nil {
				t.Fatal(err)
			}
			mu, err := logp.Plan(p, p.L)
			if err != nil {
				t.Fatal(err)
			}
			closed, err := logp.ExpectedStar(p, ls)
			if err != nil {
				t.Fatal(err)
			}
			g, num := got[0], r.Numbers()
			if g.Paper != c.paper || g.Ours != num["expected"]-mu.Planned() || g.OursSE != num["expected_stderr"] || g.OursSE <= 0 {
				t.Errorf("%v: %+v; want paper %v, ours %v ± %v", set, g, c.paper, num["expected"]-mu.Planned(), num["expected_stderr"])
			}
			if cf := closed - mu.Planned(); math.Abs(g.Ours-cf) > 4*g.OursSE {
				t.Errorf("%v: Monte Carlo excess %v ± %v, closed form %v", set, g.Ours, g.OursSE, cf)
			}
			t.Logf("%v: paper %s · commlab %s (closed form %.4f)", set, g.PaperText(info), g.OursText(info), closed-mu.Planned())
		}
	}
}

// TestNotPaperPoint: another σ, L_s, P or machine is no paper point.
func TestNotPaperPoint(t *testing.T) {
	for _, set := range []map[string]string{
		nil, // the scene's defaults: σ = 2
		{"P": "3", "Ls": "10", "sigma": "1.755"},
		{"P": "2", "Ls": "10.76", "sigma": "1.755"},
		{"P": "2", "Ls": "10", "sigma": "1.76"},
		{"P": "4", "Ls": "10.76", "sigma": "1.755"},
		{"P": "2", "Ls": "10", "sigma": "1.755", "o": "2"},
		{"P": "2", "Ls": "10", "sigma": "1.755", "gap_sigma": "0.5"},
		{"P": "2", "Ls": "10", "sigma": "1.755", "n": "5"}, // the plan uses one processor
	} {
		if got := scene.PaperPoint(New(), values(set), build(t, set, 1).Numbers()); got != nil {
			t.Errorf("%v: paper numbers %+v, want none", set, got)
		}
	}
}

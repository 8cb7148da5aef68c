package scene

import (
	"testing"

	"commlab/engine/cost"
)

// paperFake is a scene with an estimate (so Within wraps it) and a paper
// point at P = 16.
type paperFake struct{ fake }

func (paperFake) Estimate(Values) (cost.Cost, error) { return cost.Cost{}, nil }
func (paperFake) PaperPoint(v Values, numbers map[string]float64) []PaperNumber {
	if v["P"] != "16" {
		return nil
	}
	return []PaperNumber{{What: "x", Paper: 1.5, Ours: numbers["x"], Digits: 2}}
}

// TestPaperPointThroughWithin: the page's scenes are wrapped in a budget;
// PaperPoint finds the scene's own through it, and a scene without one
// gives none.
func TestPaperPointThroughWithin(t *testing.T) {
	sc := Within(paperFake{fake{"p"}}, cost.Page)
	if _, ok := sc.(PaperPointer); ok {
		t.Fatal("the budget wrapper itself is a PaperPointer: this test no longer tests the unwrapping")
	}
	got := PaperPoint(sc, Values{"P": "16"}, map[string]float64{"x": 1.25})
	if len(got) != 1 || got[0].Ours != 1.25 || got[0].Paper != 1.5 {
		t.Errorf("through Within: %+v", got)
	}
	if got := PaperPoint(sc, Values{"P": "8"}, nil); got != nil {
		t.Errorf("off the point: %+v", got)
	}
	if got := PaperPoint(fake{"f"}, Values{"P": "16"}, nil); got != nil {
		t.Errorf("a scene with no paper point: %+v", got)
	}
}

// TestPaperNumberText: both numbers with the paper's decimals and the
// unit, ours with its standard error's when it has one.
func TestPaperNumberText(t *testing.T) {
	secs, adds := Info{}, Info{TimeUnit: "additions"}
	for _, c := range []struct {
		n           PaperNumber
		info        Info
		paper, ours string
		by          string
	}{
		{PaperNumber{Paper: 1.271, Ours: 1.87349, Unit: UnitRatio, Digits: 3}, secs, "1.271×", "1.873×", "paper"},
		{PaperNumber{Paper: 12.431613, Ours: 12.4318891, Unit: UnitTime, Digits: 6}, secs, "12.431613 s", "12.431889 s", "paper"},
		{PaperNumber{Paper: 55684, Ours: 55684, Unit: UnitTime, By: "LogGOPSim"}, Info{TimeUnit: "ns"}, "55684 ns", "55684 ns", "LogGOPSim"},
		{PaperNumber{Paper: 0.7, Ours: 0.70049, OursSE: 0.0068, Unit: UnitTime, Digits: 1, By: "slides"}, adds, "0.7 additions", "0.700 ± 0.007 additions", "slides"},
		{PaperNumber{Paper: 0.87, Ours: 1.2, OursSE: 0.5, Unit: UnitTime, Digits: 2}, adds, "0.87 additions", "1.20 ± 0.50 additions", "paper"},
		{PaperNumber{Paper: 31, Ours: 30, Unit: UnitCount}, secs, "31", "30", "paper"},
	} {
		if got := c.n.PaperText(c.info); got != c.paper {
			t.Errorf("%+v: paper %q, want %q", c.n, got, c.paper)
		}
		if got := c.n.OursText(c.info); got != c.ours {
			t.Errorf("%+v: ours %q, want %q", c.n, got, c.ours)
		}
		if got := c.n.ByText(); got != c.by {
			t.Errorf("%+v: by %q, want %q", c.n, got, c.by)
		}
	}
}

package nbc

import (
	"strings"
	"testing"

	enbc "commlab/engine/nbc"
	"commlab/scene"
)

// paperURL is the scene's values at the paper's setup for nodes nodes.
func paperURL(nodes int) map[string]string {
	set := map[string]string{"nodes": "32", "msg": "500000", "matrix": "30000"}
	if nodes == 2 {
		set = map[string]string{"nodes": "2", "msg": "5000000", "matrix": "4000"}
	}
	set["collectives"], set["cores"], set["oversubscribe"], set["test_every"] = "1", "16", "0", "1"
	return set
}

// TestPaperPoint: at Fig. 1's and Fig. 2's setups the scene shows the
// paper's TCC and NBCF-ovlp-test speedups beside the engine's, which are
// the report's: the engine run on enbc.Paper2Nodes / Paper32Nodes.
func TestPaperPoint(t *testing.T) {
	for _, nodes := range []int{2, 32} {
		set := paperURL(nodes)
		r := build(t, set)
		got := scene.PaperPoint(New(), values(set), r.Numbers())
		if len(got) != 2 {
			t.Fatalf("%d nodes: %d paper numbers, want 2: %+v", nodes, len(got), got)
		}
		for i, m := range []enbc.Method{enbc.TCC, enbc.NBCFTest} {
			p, _ := enbc.PaperSetup(nodes, m)
			res, err := enbc.Run(p, nil)
			if err != nil {
				t.Fatal(err)
			}
			s, _ := enbc.PaperSpeedupOf(nodes, m)
			n := got[i]
			if n.Paper != s.Speedup || n.Ours != res.Speedup || n.Source != s.Source || !strings.HasPrefix(n.What, m.PaperName()) {
				t.Errorf("%d nodes, %s: %+v; want paper %v (%s), ours %v", nodes, m, n, s.Speedup, s.Source, res.Speedup)
			}
			t.Logf("%d nodes, %s: paper %s · commlab %s", nodes, m, n.PaperText(New().Info()), n.OursText(New().Info()))
		}
	}
}

// TestPaperPointQueue: the queue does not change a paper point's numbers
// (one collective never waits for a slot), so any queue size is the
// paper's point; any other change is not.
func TestPaperPointQueue(t *testing.T) {
	base := paperURL(2)
	want := scene.PaperPoint(New(), values(base), build(t, base).Numbers())
	for _, q := range []string{"1", "3", "16"} {
		set := paperURL(2)
		set["queue"] = q
		got := scene.PaperPoint(New(), values(set), build(t, set).Numbers())
		if len(got) != len(want) || len(got) == 0 {
			t.Fatalf("queue %s: %d paper numbers, want %d", q, len(got), len(want))
		}
		for i := range got {
			if got[i] != want[i] {
				t.Errorf("queue %s: %+v, want %+v", q, got[i], want[i])
			}
		}
	}
}

// TestNotPaperPoint: off the paper's setups, no paper number.
func TestNotPaperPoint(t *testing.T) {
	for _, change := range []map[string]string{
		nil, // the scene's defaults: 8 nodes, 6 collectives
		{"collectives": "2"},
		{"cores": "8"},
		{"oversubscribe": "1"},
		{"test_every": "2"},
		{"msg": "500001"},
		{"matrix": "4000"}, // 32 nodes with Fig. 1's matrix
	} {
		set := paperURL(32)
		if change == nil {
			set = nil
		}
		for k, v := range change {
			set[k] = v
		}
		if got := scene.PaperPoint(New(), values(set), build(t, set).Numbers()); got != nil {
			t.Errorf("%v: paper numbers %+v, want none", set, got)
		}
	}
}

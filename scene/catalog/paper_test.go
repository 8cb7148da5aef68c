package catalog

import (
	"math"
	"strings"
	"testing"

	"commlab/scene"
)

// paperScenes are the scenes whose paper publishes numbers at a
// configuration the scene runs. The others: the allreduce paper gives no
// number at a single configuration (its findings are trends over its
// grids, "about 10x at most"), so neither butterfly nor jitter has a
// point; the overlay paper's numbers are for its 128-process cluster
// (engine/overlay/paper.go), which the overlay scene, at most 48
// processes, never runs.
var paperScenes = map[string]bool{"tcc": true, "mmdl": true, "logp": true, "schedule": true}

// TestPaperPoints: exactly paperScenes have paper points, through the
// page's budget; at the defaults the mmdl and schedule scenes are at one
// (Table 4's ProcSet 2 / Load 2, LogGOPSim's allreduce), the others not;
// every number says what, where and both values.
func TestPaperPoints(t *testing.T) {
	atDefaults := map[string]bool{"mmdl": true, "schedule": true}
	for _, sc := range All() {
		name := sc.Info().Name
		_, is := Unchecked()[indexOf(name)].(scene.PaperPointer)
		if is != paperScenes[name] {
			t.Errorf("%s: a PaperPointer %v, want %v", name, is, paperScenes[name])
		}
		st := scene.Default(sc)
		run, err := sc.Build(st.Values, st.Seed)
		if err != nil {
			t.Fatal(err)
		}
		got := scene.PaperPoint(sc, st.Values, run.Numbers())
		if (len(got) > 0) != atDefaults[name] {
			t.Errorf("%s at its defaults: %d paper numbers; want some: %v", name, len(got), atDefaults[name])
		}
		for _, n := range got {
			if strings.TrimSpace(n.What) == "" || strings.TrimSpace(n.Source) == "" || math.IsNaN(n.Paper) || math.IsNaN(n.Ours) || n.Digits < 0 {
				t.Errorf("%s: %+v: want what, source and both numbers", name, n)
			}
		}
	}
}

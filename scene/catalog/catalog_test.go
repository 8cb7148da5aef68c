package catalog

import (
	"testing"

	"commlab/scene"
)

// TestScenes checks what every shipped scene promises the page: a unique
// name, well-formed fields, and that its defaults build a run whose steps
// lie inside it and whose first and last frames lay out.
func TestScenes(t *testing.T) {
	seen := map[string]bool{}
	for _, sc := range All() {
		info := sc.Info()
		if info.Name == "" || info.Title == "" || info.Paper == "" || info.Summary == "" || seen[info.Name] {
			t.Errorf("scene %+v: empty or duplicate name, title, paper or summary", info)
		}
		seen[info.Name] = true
		if err := scene.CheckFields(sc.Fields()); err != nil {
			t.Errorf("%s: %v", info.Name, err)
		}
		st := scene.Default(sc)
		run, err := sc.Build(st.Values, st.Seed)
		if err != nil {
			t.Errorf("%s: defaults do not build: %v", info.Name, err)
			continue
		}
		end := run.End()
		if !(end > 0) {
			t.Errorf("%s: End() = %v, want > 0", info.Name, end)
		}
		for _, s := range run.Steps() {
			if s < 0 || s > end {
				t.Errorf("%s: step %v outside [0, %v]", info.Name, s, end)
			}
		}
		for _, at := range []float64{0, end} {
			if l := run.Frame(at, scene.View{W: 960, H: 540}); len(l.Items) == 0 {
				t.Errorf("%s: empty frame at t = %v", info.Name, at)
			}
		}
	}
}

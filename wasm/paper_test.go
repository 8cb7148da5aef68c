package main

import (
	"testing"

	"commlab/scene/catalog"
)

// TestStatePaper: state().paper follows the run shown: the mmdl scene
// opens on Table 4's ProcSet 2 / Load 2 (both of the paper's numbers
// beside the run's makespan), loses them at R = 21, which no table has,
// and finds Table 5's at R = 12; a scene off its paper's points has [].
func TestStatePaper(t *testing.T) {
	a, err := newApp(catalog.All(), "scene=mmdl")
	if err != nil {
		t.Fatal(err)
	}
	check := func(what string, want int, paper float64) {
		t.Helper()
		st := a.State(960, 540)
		got, ok := st["paper"].([]any)
		if !ok || len(got) != want {
			t.Fatalf("%s: paper %v, want %d numbers", what, st["paper"], want)
		}
		if want == 0 {
			return
		}
		first := got[0].(map[string]any)
		ours := st["numbers"].(map[string]any)["makespan"]
		if first["paper"] != paper || first["ours"] != ours || first["by"] != "paper" || first["paperText"] == "" || first["source"] == "" {
			t.Errorf("%s: %v; want paper %v, ours %v (the run's makespan)", what, first, paper, ours)
		}
	}
	check("the defaults", 2, 12.431613)
	if errs := a.SetParams(map[string]string{"rounds": "21"}); errs != nil {
		t.Fatal(errs)
	}
	check("R = 21", 0, 0)
	if errs := a.SetParams(map[string]string{"rounds": "12"}); errs != nil {
		t.Fatal(errs)
	}
	check("R = 12", 2, 11.238737)

	b, err := newApp(catalog.All(), "scene=butterfly")
	if err != nil {
		t.Fatal(err)
	}
	if got, ok := b.State(960, 540)["paper"].([]any); !ok || len(got) != 0 {
		t.Errorf("butterfly: paper %v, want []", b.State(960, 540)["paper"])
	}
}

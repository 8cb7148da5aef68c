package schedule

import (
	"testing"

	"commlab/engine/cost"
	"commlab/scene"
)

// TestEstimateBoundsBuild holds the scene's Estimate to what Build
// allocates (cost.Holds: within [1, 2]x, 64 kB aside; in the wasm a little
// under, see cost.Under) on the shipped default, a 1024-rank dissemination
// as a page adds it, that one with OS and network noise, and two files side
// by side, and logs both (the constants in cost.go come from these lines).
func TestEstimateBoundsBuild(t *testing.T) {
	sc := Scene{}
	for _, c := range []struct {
		name string
		set  map[string]string
	}{
		{"defaults", nil},
		{"1024 ranks", map[string]string{"file": bigKey}},
		{"1024 ranks os+net", map[string]string{"file": bigKey, "noise": "os+net"}},
		{"1024 ranks beside a file", map[string]string{"file": bigKey, "compare": "file", "file2": "dissemination_16"}},
	} {
		v := scene.Default(sc).Values
		for k, x := range c.set {
			v[k] = x
		}
		est, err := sc.Estimate(v)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		got := cost.Allocated(func() {
			if _, err := sc.Build(v, 1); err != nil {
				t.Fatalf("%s: %v", c.name, err)
			}
		})
		t.Logf("%-26s est %9.3g B got %9.3g B ratio %.2f", c.name, est.Bytes, got, est.Bytes/got)
		if !cost.Holds(est.Bytes, got, 64<<10) {
			t.Errorf("%s: estimate %s, allocated %s: want within [1, 2]x", c.name, cost.Bytes(est.Bytes), cost.Bytes(got))
		}
	}
}

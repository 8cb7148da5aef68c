package schedule

import (
	"testing"

	"commlab/engine/cost"
	"commlab/scene"
)

// buildMemFactor is how far above what a build allocates its memory
// estimate may be.
const buildMemFactor = 6

// TestEstimateBoundsBuild holds the scene's Estimate to what Build
// allocates (at least cost.Under times it, at most buildMemFactor times:
// goal.EstimateSchedule bounds the queue by everything that can wait at
// once, which a lock-step dissemination never holds) on the shipped
// default, a 1024-rank dissemination as a page adds it, that one with OS
// and network noise, and two files side by side, and logs both.
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
		if est.Bytes < cost.Under*got || est.Bytes > buildMemFactor*got {
			t.Errorf("%s: estimate %s, allocated %s: want within [1, %d]x", c.name, cost.Bytes(est.Bytes), cost.Bytes(got), buildMemFactor)
		}
	}
}

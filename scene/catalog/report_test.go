package catalog

import (
	"testing"

	"commlab/scene"
)

// TestReportsDescribeEveryNumber holds every scene's numbers panel to its
// Numbers: each scene labels its numbers itself (scene.Reporter), every key
// has a label in words and a unit, and the list has no key twice.
func TestReportsDescribeEveryNumber(t *testing.T) {
	for _, sc := range All() {
		name := sc.Info().Name
		run, err := sc.Build(scene.Defaults(sc.Fields()), scene.DefaultSeed)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if _, ok := run.(scene.Reporter); !ok {
			t.Errorf("%s: the run does not label its numbers (no Report method)", name)
			continue
		}
		nums := run.Numbers()
		rep := scene.Report(run)
		seen := map[string]bool{}
		for _, n := range rep {
			if seen[n.Key] {
				t.Errorf("%s: %s listed twice", name, n.Key)
			}
			seen[n.Key] = true
			if x, ok := nums[n.Key]; !ok || x != n.Value && !(x != x && n.Value != n.Value) {
				t.Errorf("%s: Report's %s = %v, Numbers' %v (present %v)", name, n.Key, n.Value, x, ok)
			}
			if n.Label == n.Key && len(n.Key) > 1 {
				t.Errorf("%s: %s has no label in words (add it to the scene's numberSpecs)", name, n.Key)
			}
		}
		if len(rep) != len(nums) {
			t.Errorf("%s: Report lists %d numbers, Numbers has %d", name, len(rep), len(nums))
		}
	}
}

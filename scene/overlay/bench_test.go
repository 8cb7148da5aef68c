package overlay

import (
	"testing"

	"commlab/render"
	"commlab/scene"
	"commlab/scene/scenetest"
)

// BenchmarkFrame lays out one 960x540 frame mid-run, what the page does
// every animation tick: the target is well under 2 ms.
func BenchmarkFrame(b *testing.B) {
	for _, c := range []struct {
		name string
		set  map[string]string
	}{
		{"defaults", nil},
		{"all/48-procs", map[string]string{"policy": "all", "procs": "48", "nodes": "24", "switches": "8"}},
		{"topology/48-procs/C=16", map[string]string{"procs": "48", "nodes": "24", "switches": "8", "cache": "16"}},
	} {
		b.Run(c.name, func(b *testing.B) {
			r := build(b, c.set)
			v := scene.View{W: 960, H: 540, Theme: render.Light()}
			t := r.End() * 0.3
			scenetest.LoopMs(b, "ms/frame", func() {
				r.Frame(t, v)
			})
		})
	}
}

// BenchmarkBuild is the page's cost of a slider move: one Integer Sort
// run with its trace and the replay of its events. The target is well
// under 100 ms natively.
func BenchmarkBuild(b *testing.B) {
	for _, c := range []struct {
		name string
		set  map[string]string
	}{
		{"defaults", nil},
		{"48-procs/4-iterations", map[string]string{"procs": "48", "nodes": "24", "switches": "8", "iterations": "4"}},
		{"all/48-procs/4-iterations", map[string]string{"policy": "all", "procs": "48", "nodes": "24", "switches": "8", "iterations": "4"}},
	} {
		b.Run(c.name, func(b *testing.B) {
			v := values(c.set)
			sc := New()
			scenetest.LoopMs(b, "ms/build", func() {
				if _, err := sc.Build(v, 1); err != nil {
					b.Fatal(err)
				}
			})
		})
	}
}

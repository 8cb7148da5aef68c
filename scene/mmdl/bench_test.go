package mmdl

import (
	"testing"

	"commlab/render"
	"commlab/scene"
	"commlab/scene/scenetest"
)

// BenchmarkFrame lays out one 960x540 frame late in the run, what the page
// does every animation tick: the target is well under 2 ms.
func BenchmarkFrame(b *testing.B) {
	for _, c := range []struct {
		name string
		set  map[string]string
	}{
		{"defaults", nil},
		{"R=100", map[string]string{"rounds": "100"}},
		{"R=auto", map[string]string{"rounds": "0"}},
	} {
		b.Run(c.name, func(b *testing.B) {
			r := build(b, c.set)
			v := scene.View{W: 960, H: 540, Theme: render.Light()}
			t := r.End() * 0.9
			scenetest.LoopMs(b, "ms/frame", func() { r.Frame(t, v) })
		})
	}
}

// BenchmarkBuild is the page's cost of a slider move: the steady state
// and the simulated round schedule. The target is well under 100 ms
// natively.
func BenchmarkBuild(b *testing.B) {
	for _, c := range []struct {
		name string
		set  map[string]string
	}{
		{"defaults", nil},
		{"R=100", map[string]string{"rounds": "100"}},
		{"R=auto", map[string]string{"rounds": "0"}},
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

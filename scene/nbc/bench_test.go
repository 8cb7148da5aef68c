package nbc

import (
	"testing"

	"commlab/render"
	"commlab/scene"
	"commlab/scene/scenetest"
)

// BenchmarkFrame lays out one 960x540 frame, what the page does every
// animation tick: the target is well under 2 ms.
func BenchmarkFrame(b *testing.B) {
	for _, c := range []struct {
		name string
		set  map[string]string
	}{
		{"defaults", nil},
		{"both/16-collectives/32-cores", map[string]string{"view": "both", "collectives": "16", "cores": "32", "queue": "16"}},
	} {
		b.Run(c.name, func(b *testing.B) {
			r := build(b, c.set)
			v := scene.View{W: 960, H: 540, Theme: render.Light()}
			t := r.End() * 0.9
			scenetest.LoopMs(b, "ms/frame", func() {
				r.Frame(t, v)
			})
		})
	}
}

// BenchmarkBuild is the page's cost of a slider move: two engine runs
// (TCC and NBCF-ovlp-test) with traces. The target is well under 100 ms
// natively.
func BenchmarkBuild(b *testing.B) {
	for _, c := range []struct {
		name string
		set  map[string]string
	}{
		{"defaults", nil},
		{"32-nodes/16-collectives", map[string]string{"nodes": "32", "collectives": "16", "queue": "16"}},
		{"32-nodes/32-cores/n=200000", map[string]string{"nodes": "32", "collectives": "16", "cores": "32", "matrix": "200000"}},
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

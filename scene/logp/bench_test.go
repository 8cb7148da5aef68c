package logp

import (
	"testing"

	"commlab/render"
	"commlab/scene"
	"commlab/scene/scenetest"
)

// BenchmarkFrame lays out one 960x540 frame mid-replay, what the page does
// every animation tick: the target is well under 2 ms.
func BenchmarkFrame(b *testing.B) {
	for _, c := range []struct {
		name string
		set  map[string]string
	}{
		{"defaults", nil},
		{"P=32/replays=2000", map[string]string{"P": "32", "n": "10000", "replays": "2000"}},
	} {
		b.Run(c.name, func(b *testing.B) {
			r := build(b, c.set, 1)
			v := scene.View{W: 960, H: 540, Theme: render.Light()}
			t := r.End() * 0.9
			scenetest.LoopMs(b, "ms/frame", func() {
				r.Frame(t, v)
			})
		})
	}
}

// BenchmarkBuild is the page's cost of a slider move: the plan, the two
// traced runs, the replays and the Monte Carlo E[T]. The target is well
// under 100 ms natively.
func BenchmarkBuild(b *testing.B) {
	for _, c := range []struct {
		name string
		set  map[string]string
	}{
		{"defaults", nil},
		{"P=32/replays=200", map[string]string{"P": "32", "n": "10000"}},
		{"P=32/replays=2000", map[string]string{"P": "32", "n": "10000", "replays": "2000"}},
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

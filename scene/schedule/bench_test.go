package schedule

import (
	"testing"

	"commlab/render"
	"commlab/scene"
	"commlab/scene/scenetest"
)

// BenchmarkFrame lays out one 960x540 frame late in the run, what the page
// does every animation tick (target: well under 2 ms).
func BenchmarkFrame(b *testing.B) {
	for _, c := range layoutCases {
		b.Run(c.name, func(b *testing.B) {
			r := scenetest.Build(b, New(), c.set, 1)
			v := scene.View{W: 960, H: 540, Theme: render.Light()}
			t := r.End() * 0.9
			scenetest.LoopMs(b, "ms/frame", func() { r.Frame(t, v) })
		})
	}
}

// BenchmarkBuild is the cost of a control change: running both sides with
// their timelines recorded.
func BenchmarkBuild(b *testing.B) {
	for _, c := range layoutCases {
		b.Run(c.name, func(b *testing.B) {
			sc := New()
			v := scenetest.Values(sc, c.set)
			scenetest.LoopMs(b, "ms/build", func() {
				if _, err := sc.Build(v, 1); err != nil {
					b.Fatal(err)
				}
			})
		})
	}
}

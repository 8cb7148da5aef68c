package jitter

import (
	"fmt"
	"testing"

	"commlab/render"
	"commlab/scene"
	"commlab/scene/scenetest"
)

// BenchmarkFrame lays out one 960x540 frame mid-run (both runs stacked),
// what the page does every animation tick: the target is well under 2 ms.
func BenchmarkFrame(b *testing.B) {
	for _, c := range []struct{ P, T string }{{"16", "4"}, {"64", "6"}, {"4096", "12"}} {
		b.Run("P="+c.P, func(b *testing.B) {
			r := build(b, map[string]string{"P": c.P, "T": c.T, "trials": "10"}, 2)
			v := scene.View{W: 960, H: 540, Theme: render.Light()}
			t := r.End() / 2
			scenetest.LoopMs(b, "ms/frame", func() {
				r.Frame(t, v)
			})
		})
	}
}

// BenchmarkBuild is the page's cost of a parameter change: the traced run
// plus the histogram's trials. The target is well under 100 ms natively.
func BenchmarkBuild(b *testing.B) {
	for _, c := range []struct{ P, T, trials string }{{"64", "6", "200"}, {"64", "6", "1000"}, {"4096", "12", "200"}} {
		b.Run(fmt.Sprintf("P=%s/trials=%s", c.P, c.trials), func(b *testing.B) {
			v := values(map[string]string{"P": c.P, "T": c.T, "trials": c.trials})
			sc := New()
			scenetest.LoopMs(b, "ms/build", func() {
				if _, err := sc.Build(v, 2); err != nil {
					b.Fatal(err)
				}
			})
		})
	}
}

// BenchmarkFrameStormy is the worst case for the hatching: OS-jitter
// windows three quarters of every period, so most of every lane is a
// hatched stall.
func BenchmarkFrameStormy(b *testing.B) {
	r := build(b, map[string]string{"P": "64", "period": "2e-05", "duration": "1.5e-05", "trials": "10"}, 2)
	v := scene.View{W: 960, H: 540, Theme: render.Light()}
	scenetest.LoopMs(b, "ms/frame", func() {
		r.Frame(r.End()*0.9, v)
	})
}

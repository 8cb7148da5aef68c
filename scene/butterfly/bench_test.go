package butterfly

import (
	"fmt"
	"image"
	"testing"

	"commlab/render"
	"commlab/scene"
	"commlab/scene/scenetest"
)

// BenchmarkFrame is the display-list target: a frame of the full
// drawing at P = 64 mid-run and of the heat-strip at P = 4096, at 960x540,
// each under 2 ms. The layout for the canvas size is cached by the first
// frame, as it is while a page plays; Resize measures a frame after the
// canvas changed size, which lays everything out again.
func BenchmarkFrame(b *testing.B) {
	v := scene.View{W: 960, H: 540, Theme: render.Light()}
	for _, p := range []int{64, 4096} {
		run := build(b, values("P", fmt.Sprint(p), "T", fmt.Sprint(min(6, p))), 1)
		t := run.End() / 2
		b.Run(fmt.Sprintf("P=%d", p), func(b *testing.B) {
			run.Frame(t, v)
			scenetest.LoopMs(b, "ms/frame", func() {
				run.Frame(t, v)
			})
		})
		b.Run(fmt.Sprintf("P=%d/Resize", p), func(b *testing.B) {
			w := 960.0
			scenetest.LoopMs(b, "ms/frame", func() {
				w = 1921 - w // 961, 960, 961…: every frame lays out anew
				run.Frame(t, scene.View{W: w, H: 540, Theme: v.Theme})
			})
		})
	}
}

// BenchmarkBuild is what the page waits for after a parameter change: the
// traced engine run and the scene's precomputation. P = 4096 is the
// largest run the page accepts.
func BenchmarkBuild(b *testing.B) {
	for _, p := range []int{64, 4096} {
		v := values("P", fmt.Sprint(p), "T", fmt.Sprint(min(6, p)))
		b.Run(fmt.Sprintf("P=%d", p), func(b *testing.B) {
			scenetest.LoopMs(b, "ms/build", func() {
				build(b, v, 1)
			})
		})
	}
}

// BenchmarkDamage is what the page's painter spends each frame finding
// what changed (render.Damage) while P = 64 plays: frames a 60th of a
// second of the page's clock apart, as the browser paints them.
func BenchmarkDamage(b *testing.B) {
	v := scene.View{W: 960, H: 540, Theme: render.Light()}
	run := build(b, values("P", "64", "T", "6"), 1)
	const frames = scene.PlaySeconds * 60
	lists := make([]render.List, frames)
	for i := range lists {
		lists[i] = run.Frame(run.End()*float64(i)/frames, v)
	}
	var d render.Damage
	i := 0
	scenetest.LoopMs(b, "ms/frame", func() {
		d.Next(lists[i%len(lists)], 1, image.Pt(960, 540))
		i++
	})
}

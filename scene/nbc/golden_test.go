package nbc

import (
	"flag"
	"image/color"
	"path/filepath"
	"testing"

	"commlab/render"
	"commlab/render/raster"
	"commlab/render/raster/rastertest"
	"commlab/scene"
	"commlab/scene/scenetest"
)

var update = flag.Bool("update", false, "rewrite the golden images in testdata/")

// goldenCases: the defaults while the main thread is blocked on the full
// queue (light and dark), TCC finished, LibNBC's timeline mid-run, and
// both on one axis.
var goldenCases = []struct {
	set  map[string]string
	th   render.Theme
	at   func(r *run) float64
	name string
}{
	{nil, render.Light(), blockedAt, "tcc-blocked-light.png"},
	{nil, render.Dark(), blockedAt, "tcc-blocked-dark.png"},
	{nil, render.Light(), func(r *run) float64 { return r.End() }, "tcc-end-light.png"},
	{map[string]string{"view": "nbcf"}, render.Dark(), func(r *run) float64 { return r.End() / 2 }, "nbcf-dark.png"},
	{map[string]string{"view": "both"}, render.Light(), func(r *run) float64 { return r.End() * 0.6 }, "both-light.png"},
}

// blockedAt is a time when the main thread waits for a slot: halfway
// through the last blocked enqueue.
func blockedAt(r *run) float64 {
	t := 0.0
	for _, h := range r.tl[iTCC].handles {
		if h.block >= 0 {
			t = (h.block + h.enqueue) / 2
		}
	}
	return t
}

func TestGolden(t *testing.T) {
	for _, c := range goldenCases {
		t.Run(c.name, func(t *testing.T) {
			r := build(t, c.set)
			got := raster.Image(r.Frame(c.at(r), scene.View{W: 960, H: 540, Theme: c.th}), 1)
			rastertest.Golden(t, filepath.Join("testdata", c.name), got, *update, "go test ./scene/nbc -run Golden -update")
		})
	}
}

// TestGoldenNotBlank guards the goldens themselves: the blocked frame
// paints many pixels in the colours it is about (the
// blocked hatch, the running collective, the done flag, the wire), so a
// golden regenerated from a broken layout cannot pass unnoticed.
func TestGoldenNotBlank(t *testing.T) {
	r := build(t, nil)
	for _, th := range []render.Theme{render.Light(), render.Dark()} {
		img := raster.Image(r.Frame(blockedAt(r), scene.View{W: 960, H: 540, Theme: th}), 1)
		scenetest.NotBlank(t, img, map[string]color.Color{
			"stall": th.Stall, "running": th.Redundant, "done": th.Receive, "ink": th.Ink,
		}, 24, 50, th.Name) // within 24 levels, so thin anti-aliased strokes (the hatching) count
	}
}

package jitter

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

// TestGolden paints the scene at 960x540 (both runs stacked, P = 16, the
// stalled seed 2 at two thirds of the run, so a message is in flight, the
// redundant run has completed and the conventional one has not) in both
// themes, and the finished frame in light.
func TestGolden(t *testing.T) {
	r := build(t, map[string]string{"P": "16", "T": "4"}, 14)
	for _, c := range []struct {
		th   render.Theme
		frac float64
		name string
	}{
		{render.Light(), 2.0 / 3, "both-p16-light.png"},
		{render.Dark(), 2.0 / 3, "both-p16-dark.png"},
		{render.Light(), 1, "both-p16-light-end.png"},
	} {
		t.Run(c.name, func(t *testing.T) {
			got := raster.Image(r.Frame(r.End()*c.frac, scene.View{W: 960, H: 540, Theme: c.th}), 1)
			rastertest.Golden(t, filepath.Join("testdata", c.name), got, *update, "go test ./scene/jitter -run Golden -update")
		})
	}
}

// TestGoldenNotBlank guards the goldens themselves: each frame paints
// thousands of pixels in span, message and stall colours, so a golden
// regenerated from a broken layout (an empty list) cannot pass unnoticed.
func TestGoldenNotBlank(t *testing.T) {
	r := build(t, map[string]string{"P": "16", "T": "4"}, 14)
	for _, th := range []render.Theme{render.Light(), render.Dark()} {
		img := raster.Image(r.Frame(r.End()*2/3, scene.View{W: 960, H: 540, Theme: th}), 1)
		scenetest.NotBlank(t, img, map[string]color.Color{
			"compute": th.Compute, "stall": th.Stall, "redundant": th.Redundant, "adopted": th.Adopted,
		}, 0, 40, th.Name) // 47 stall pixels in light since the playhead is no longer the stall colour
	}
}

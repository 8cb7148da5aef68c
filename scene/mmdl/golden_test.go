package mmdl

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

// goldenCases: the defaults (the paper's Fig. 6 case) mid-run in both
// themes and finished, and ProcSet 1 / Load 4 before calibration in a
// single round, where three processors start empty.
var goldenCases = []struct {
	set  map[string]string
	th   render.Theme
	frac float64
	name string
}{
	{nil, render.Light(), 0.45, "r5-light.png"},
	{nil, render.Dark(), 0.45, "r5-dark.png"},
	{nil, render.Light(), 1, "r5-light-end.png"},
	{map[string]string{"procset": "1", "load": "4", "calibrated": "0", "rounds": "20"}, render.Light(), 0.6, "load4-r20-light.png"},
}

func TestGolden(t *testing.T) {
	for _, c := range goldenCases {
		t.Run(c.name, func(t *testing.T) {
			r := build(t, c.set)
			got := raster.Image(r.Frame(r.End()*c.frac, scene.View{W: 960, H: 540, Theme: c.th}), 1)
			rastertest.Golden(t, filepath.Join("testdata", c.name), got, *update, "go test ./scene/mmdl -run Golden -update")
		})
	}
}

// TestGoldenNotBlank guards the goldens themselves: the mid-run frame
// paints many pixels in the send, receive, compute and curve colours.
func TestGoldenNotBlank(t *testing.T) {
	r := build(t, nil)
	for _, th := range []render.Theme{render.Light(), render.Dark()} {
		img := raster.Image(r.Frame(r.End()*0.45, scene.View{W: 960, H: 540, Theme: th}), 1)
		scenetest.NotBlank(t, img, map[string]color.Color{
			"send": th.Send, "receive": th.Receive, "compute": th.Compute,
			"T/R": th.Redundant, "α·R": th.Adopted, "held": render.Mix(th.Panel, th.Compute, heldTint),
		}, 0, 50, th.Name)
	}
}

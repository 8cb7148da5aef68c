package logp

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

// goldenCases are the defaults (seed 1: P3's partial sum is late and
// stalls the root) mid-stall in both themes and finished in light, and a
// P = 16 tree finished.
var goldenCases = []struct {
	set  map[string]string
	th   render.Theme
	frac float64
	name string
}{
	{nil, render.Light(), 0.88, "p3-light.png"},
	{nil, render.Dark(), 0.88, "p3-dark.png"},
	{nil, render.Light(), 1, "p3-light-end.png"},
	{map[string]string{"P": "16", "n": "1000"}, render.Light(), 1, "p16-light-end.png"},
}

func TestGolden(t *testing.T) {
	for _, c := range goldenCases {
		t.Run(c.name, func(t *testing.T) {
			r := build(t, c.set, stallSeed)
			got := raster.Image(r.Frame(r.End()*c.frac, scene.View{W: 960, H: 540, Theme: c.th}), 1)
			rastertest.Golden(t, filepath.Join("testdata", c.name), got, *update, "go test ./scene/logp -run Golden -update")
		})
	}
}

// TestGoldenNotBlank guards the goldens themselves: the mid-stall frame
// paints many pixels in the addition, o, stall and mean-curve colours, so
// a golden regenerated from a broken layout cannot pass unnoticed.
func TestGoldenNotBlank(t *testing.T) {
	r := build(t, nil, stallSeed)
	for _, th := range []render.Theme{render.Light(), render.Dark()} {
		img := raster.Image(r.Frame(r.End()*0.88, scene.View{W: 960, H: 540, Theme: th}), 1)
		scenetest.NotBlank(t, img, map[string]color.Color{
			"compute": th.Compute, "send": th.Send, "receive": th.Receive,
			"stall": th.Stall, "mean": th.Redundant, "expected": th.Adopted,
		}, 0, 50, th.Name)
	}
}

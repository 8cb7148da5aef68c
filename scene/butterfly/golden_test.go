package butterfly

import (
	"flag"
	"fmt"
	"path/filepath"
	"testing"

	"commlab/render"
	"commlab/render/raster"
	"commlab/render/raster/rastertest"
	"commlab/scene"
)

var update = flag.Bool("update", false, "rewrite the golden images in testdata/")

// TestGolden renders, at 960x540 in both themes, the full drawing of eight
// processes mid-run (OS jitter has stalled P3 and P6, copies are being
// adopted) and the heat-strip of 4096 processes at the end.
func TestGolden(t *testing.T) {
	for _, c := range []struct {
		name string
		v    scene.Values
		frac float64
	}{
		{"p8-mid", jittery("8", "3"), 0.5},
		{"p4096-end", values("P", "4096", "T", "12"), 1},
	} {
		run := build(t, c.v, 1)
		for _, th := range []render.Theme{render.Light(), render.Dark()} {
			name := fmt.Sprintf("%s-%s.png", c.name, th.Name)
			t.Run(name, func(t *testing.T) {
				l := run.Frame(c.frac*run.End(), scene.View{W: 960, H: 540, Theme: th})
				got := raster.Image(l, 1)
				rastertest.Golden(t, filepath.Join("testdata", name), got, *update, "go test ./scene/butterfly -run Golden -update")
			})
		}
	}
}

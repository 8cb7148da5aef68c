package raster

import (
	"flag"
	"fmt"
	"path/filepath"
	"testing"

	"commlab/render"
	"commlab/render/raster/rastertest"
)

var update = flag.Bool("update", false, "rewrite the golden images in testdata/")

func TestGolden(t *testing.T) {
	for _, th := range []render.Theme{render.Light(), render.Dark()} {
		for _, scale := range []float64{1, 2} {
			name := fmt.Sprintf("sampler-%s-x%g.png", th.Name, scale)
			t.Run(name, func(t *testing.T) {
				got := Image(sampler(th), scale)
				rastertest.Golden(t, filepath.Join("testdata", name), got, *update, "go test ./render/raster -update")
			})
		}
	}
}

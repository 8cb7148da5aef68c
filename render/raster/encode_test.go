package raster

import (
	"bytes"
	"image/png"
	"testing"

	"commlab/render"
	"commlab/render/raster/rastertest"
)

func TestEncodePNG(t *testing.T) {
	var buf bytes.Buffer
	l := sampler(render.Dark())
	if err := EncodePNG(&buf, l, 2); err != nil {
		t.Fatal(err)
	}
	img, err := png.Decode(&buf)
	if err != nil {
		t.Fatal(err)
	}
	if bad, at := rastertest.Compare(Image(l, 2), img, 0); bad > 0 {
		t.Errorf("decoded PNG differs from Image at %v", at)
	}
}

//go:build !(js && wasm)

package raster

import (
	"bytes"
	"image/png"
	"math"
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

// TestEncodePNGRejects checks that EncodePNG refuses what Bounds refuses
// (TestBoundsRejects' lists), writing nothing.
func TestEncodePNGRejects(t *testing.T) {
	for _, tt := range []struct{ w, h, scale float64 }{
		{0, 10, 1}, {10, -1, 1}, {math.NaN(), 10, 1}, {10, 10, 0}, {10, 10, -2},
		{10, 10, math.Inf(1)}, {10, 10, math.NaN()}, {20000, 10, 1}, {9000, 10, 2},
	} {
		if err := EncodePNG(nil, render.List{W: tt.w, H: tt.h}, tt.scale); err == nil {
			t.Errorf("EncodePNG(%vx%v at %v) accepted", tt.w, tt.h, tt.scale)
		}
	}
}

//go:build !(js && wasm)

package main

import (
	"image/color"
	"io"
	"testing"
	"time"

	"commlab/engine/cost"
	"commlab/render"
	"commlab/render/raster"
	"commlab/scene"
	"commlab/scene/catalog"
)

// TestExportCostBounds holds exportCost to what an export allocates beyond
// the build (laying out every frame, painting and encoding): measured ≤
// estimate, and at most exportFactor times it where every frame changes,
// over shapes that stress each term: many small frames (the display lists
// and the encoder's tables), few large ones (the pictures), a scale of 2
// on dashed strokes (the painting's garbage), heat strips of 4096
// processes, and a PNG. A GIF keeps nothing for a frame that did not
// change, where the estimate keeps a whole one: the small butterfly, still
// for most of its frames, is held to the lower bound only.
func TestExportCostBounds(t *testing.T) {
	reg := catalog.All()
	for _, c := range []struct {
		query string
		w, h  int
		scale float64
		fps   int
		secs  float64
		png   bool
		still bool // most frames repeat the last: the upper bound does not hold
	}{
		{"scene=butterfly", 960, 540, 1, 10, 2, false, false},
		{"scene=butterfly", 240, 135, 1, 50, 20, false, true},
		{"scene=butterfly", 1536, 1536, 1, 1, 2, false, false},
		{"scene=overlay", 960, 540, 2, 2, 1, false, false},
		{"scene=schedule", 960, 540, 1, 2, 2, false, false},
		{"scene=butterfly&P=4096", 960, 540, 0.5, 5, 2, false, false},
		{"scene=mmdl", 960, 540, 1, 5, 2, false, false},
		{"scene=butterfly", 2048, 2048, 1, 0, 0, true, false},
	} {
		st, errs := scene.ParseQuery(c.query, reg)
		if len(errs) > 0 {
			t.Fatalf("%s: %v", c.query, errs)
		}
		sc, _ := reg.Lookup(st.Scene)
		r, err := sc.Build(st.Values, st.Seed)
		if err != nil {
			t.Fatal(err)
		}
		th, _ := render.ThemeByName(render.ThemeNames[0])
		view := scene.View{W: float64(c.w), H: float64(c.h), Theme: th}
		o := options{w: c.w, h: c.h, scale: c.scale, fps: c.fps}
		fc := sample(r, view, c.scale)
		est := exportCost(cost.Cost{}, o, !c.png, c.secs, c.fps, c.scale, fc)
		var took time.Duration
		got := cost.Allocated(func() {
			t0 := time.Now()
			if c.png {
				raster.EncodePNG(io.Discard, r.Frame(r.End(), view), c.scale)
			} else {
				frames, delays := play(r, scene.NewPlayer(r), view, c.secs, c.fps)
				if err := raster.EncodeGIFDelays(io.Discard, frames, delays, c.scale); err != nil {
					t.Fatal(err)
				}
			}
			took = time.Since(t0)
		})
		t.Logf("%-24s %4dx%-4d s%-4g %3d fps %3g s  est %9.3g B got %9.3g B ratio %5.2f  est %7.3g s took %7.3g s",
			c.query, c.w, c.h, c.scale, c.fps, c.secs, est.Bytes, got, est.Bytes/got, est.Seconds, took.Seconds())
		if !(est.Bytes >= got && (c.still || est.Bytes <= exportFactor*got)) {
			t.Errorf("%s %dx%d: estimate %s, allocated %s: want within [1, %d]x", c.query, c.w, c.h, cost.Bytes(est.Bytes), cost.Bytes(got), exportFactor)
		}
	}
}

// exportFactor is how far over an export's allocation its estimate may
// be: the estimate keeps every GIF frame whole, where a frame keeps only
// the rectangle that changed.
const exportFactor = 4

// TestPictureBytes: a picture whose shapes cover it whole (a circle around
// it, filled and stroked, and a polyline across it, at two sizes so both
// of the rasteriser's buffers grow) allocates within pictureBytes a pixel,
// the bound exportCost counts whatever the scene draws.
func TestPictureBytes(t *testing.T) {
	const side = 1024
	big := render.Circle{Center: render.Point{X: side / 2, Y: side / 2}, R: side, Style: render.Style{Fill: color.RGBA{200, 0, 0, 255}, Stroke: color.RGBA{0, 0, 200, 255}, Width: 3}}
	small := render.Circle{Center: render.Point{X: 100, Y: 100}, R: 60, Style: render.Style{Fill: color.RGBA{0, 200, 0, 255}}}
	line := render.Polyline{Points: []render.Point{{X: 0, Y: 0}, {X: side, Y: side / 3}, {X: 0, Y: side}}, Style: render.Style{Stroke: color.RGBA{0, 0, 0, 255}, Width: 5}}
	l := render.List{W: side, H: side, Background: color.RGBA{255, 255, 255, 255}, Items: []render.Item{big, small, line}}
	got := cost.Allocated(func() {
		if err := raster.EncodePNG(io.Discard, l, 1); err != nil {
			t.Fatal(err)
		}
	})
	px := float64(side * side)
	t.Logf("%.2f bytes a pixel (bound %d)", got/px, pictureBytes)
	if got > pictureBytes*px+fixedBytes {
		t.Errorf("a %dx%d PNG allocated %s, over %d bytes a pixel", side, side, cost.Bytes(got), pictureBytes)
	}
}

package main

import (
	"image"
	"math"
	"testing"

	"commlab/render"
	"commlab/render/font"
)

func TestAtlasWhiteBlock(t *testing.T) {
	a := newGlyphAtlas()
	if !whiteTexel.In(whiteRect) {
		t.Fatal("the white texel is outside the white block")
	}
	for y := whiteRect.Min.Y; y < whiteRect.Max.Y; y++ {
		for x := whiteRect.Min.X; x < whiteRect.Max.X; x++ {
			if c := a.img.RGBAAt(x, y); c.R != 255 || c.A != 255 {
				t.Fatalf("white block pixel (%d,%d) = %v", x, y, c)
			}
		}
	}
	if d := a.Dirty(); len(d) != 1 || d[0] != a.img.Bounds() {
		t.Errorf("a new atlas must upload whole once, dirty %v", d)
	}
	if d := a.Dirty(); len(d) != 0 {
		t.Errorf("dirty again: %v", d)
	}
}

func TestAtlasLayoutWidthAndCache(t *testing.T) {
	a := newGlyphAtlas()
	const s = "P = 64, T = 6"
	for _, scale := range []float64{1, 2} {
		text := render.Text{At: render.Point{X: 100, Y: 50}, S: s, Size: 14}
		qs, full := a.Layout(text, scale, nil)
		if full {
			t.Fatal("atlas full")
		}
		if len(qs) != 8 { // spaces have no quad
			t.Errorf("%d quads, want 8 (the non-blank runes)", len(qs))
		}
		// The ink spans about the measured width.
		x0, x1 := qs[0].X, qs[len(qs)-1].X+float32(qs[len(qs)-1].Src.Dx())
		w := font.Width(s, 14, false) * scale
		if math.Abs(float64(x1-x0)-w) > 3*scale {
			t.Errorf("scale %v: ink %v..%v wide %v, measured width %v", scale, x0, x1, x1-x0, w)
		}
		if x0 < float32(100*scale) || x0 > float32(100*scale+3*scale) {
			t.Errorf("scale %v: first glyph at %v, anchor %v", scale, x0, 100*scale)
		}
		// Glyphs sit on whole pixels, apart from each other in the atlas.
		for i, q := range qs {
			if q.X != float32(math.Round(float64(q.X))) || q.Y != float32(math.Round(float64(q.Y))) {
				t.Errorf("glyph %d at (%v, %v), not on a whole pixel", i, q.X, q.Y)
			}
			if q.Src.Overlaps(whiteRect) {
				t.Errorf("glyph %d overlaps the white block", i)
			}
		}
	}
	n := len(a.glyphs)
	a.Dirty()
	a.Layout(render.Text{S: s, Size: 14}, 1, nil)
	if len(a.glyphs) != n || len(a.Dirty()) != 0 {
		t.Error("laying out the same text again rasterised glyphs again")
	}
	right, _ := a.Layout(render.Text{At: render.Point{X: 200}, S: "abc", Size: 14, Align: render.AlignRight}, 1, nil)
	if end := right[2].X + float32(right[2].Src.Dx()); math.Abs(float64(end)-200) > 2 {
		t.Errorf("right-aligned text ends at %v, want about 200", end)
	}
}

func TestAtlasFillsUpAndResets(t *testing.T) {
	a := newGlyphAtlas()
	var full bool
	for size := 40.0; !full && size < 400; size += 1 {
		_, full = a.Layout(render.Text{S: "ABCDEFGHIJKLMNOPQRSTUVWXYZ", Size: size}, 1, nil)
	}
	if !full {
		t.Fatal("the atlas never filled up")
	}
	a.Reset()
	qs, full := a.Layout(render.Text{S: "after", Size: 40}, 1, nil)
	if full || len(qs) != 5 {
		t.Errorf("after Reset: %d quads, full %v", len(qs), full)
	}
	for _, q := range qs {
		if !q.Src.In(image.Rect(0, 0, atlasSize, atlasSize)) {
			t.Errorf("glyph %v outside the atlas", q.Src)
		}
	}
}

package main

import (
	"math"
	"testing"

	"commlab/render"
)

// stripAlpha is the coverage of strip s at texel x of its pattern, on row
// dy (0, 1, 2) of the profile.
func stripAlpha(a *glyphAtlas, s dashStrip, x, dy int) float64 {
	return float64(a.img.Pix[a.img.PixOffset(int(s.x0)+x, int(s.v0)+dy)+3]) / 255
}

// TestDashStrip checks a strip against the pattern it stands for: along
// the middle row, the coverage sums to the pattern's drawn share of each
// period, a texel in the middle of a dash is opaque and one in the middle
// of a gap clear, the ends ramp, whole periods fill the strip with a
// periodic texel either side, the rows above and below are clear, and the
// same pattern is laid out once.
func TestDashStrip(t *testing.T) {
	a := newGlyphAtlas()
	a.Dirty()
	s, ok, full := a.Dash([]float64{5, 3.5}, 1)
	if !ok || full {
		t.Fatalf("Dash(5, 3.5) = ok %v, full %v", ok, full)
	}
	const period = 34 // (5 + 3.5) x dashTexels texels
	if want := (atlasSize - 2) / period * period; s.span != float32(want) || s.x0 != 1 {
		t.Errorf("span %v texels from %v, want %v from 1 (whole periods, a margin texel)", s.span, s.x0, want)
	}
	if d := a.Dirty(); len(d) != 1 || d[0].Dx() != int(s.span)+2 || d[0].Dy() != stripRows {
		t.Errorf("dirty %v after laying out a strip of %v texels", d, s.span)
	}
	sum := 0.0
	for x := range period {
		sum += stripAlpha(a, s, x, 1)
	}
	if want := 5.0 * dashTexels; math.Abs(sum-want) > 0.05*want {
		t.Errorf("coverage over a period %.2f texels, want %v", sum, want)
	}
	if m, g := stripAlpha(a, s, 10, 1), stripAlpha(a, s, 26, 1); m != 1 || g != 0 {
		t.Errorf("mid-dash %v, mid-gap %v; want 1 and 0", m, g)
	}
	// The ends ramp over a device pixel: about half at the dash's end.
	if e := stripAlpha(a, s, 20, 1); e < 0.3 || e > 0.7 {
		t.Errorf("at the dash's end %v, want about a half", e)
	}
	for x := -1; x <= int(s.span); x++ {
		if got, want := stripAlpha(a, s, x, 1), stripAlpha(a, s, ((x%period)+period)%period, 1); got != want {
			t.Fatalf("texel %d breaks the pattern: %v, want %v", x, got, want)
		}
		if stripAlpha(a, s, x, 0) != 0 || stripAlpha(a, s, x, 2) != 0 {
			t.Fatalf("texel %d: the profile's outer rows are not clear", x)
		}
	}
	again, _, _ := a.Dash([]float64{5, 3.5}, 1)
	if again != s || len(a.Dirty()) != 0 {
		t.Error("the same pattern was laid out twice")
	}
	// An odd pattern repeats twice (drawn and skipped alternate).
	odd, ok, _ := a.Dash([]float64{2}, 1)
	if !ok || odd.v0 == s.v0 {
		t.Fatalf("Dash(2) = %+v, %v", odd, ok)
	}
	if x := stripAlpha(a, odd, 4, 1); x != 1 {
		t.Errorf("an odd pattern's first dash: %v", x)
	}
	if x := stripAlpha(a, odd, 12, 1); x != 0 {
		t.Errorf("an odd pattern's first gap: %v", x)
	}
}

// TestStrokeProfile: the plain profile beside the white block is clear,
// opaque, clear from top to bottom at the column solid strokes sample, and
// survives Reset.
func TestStrokeProfile(t *testing.T) {
	a := newGlyphAtlas()
	a.Reset()
	for _, x := range []int{int(profileU) - 1, int(profileU)} {
		for dy, want := range []uint8{0, 255, 0} {
			if got := a.img.Pix[a.img.PixOffset(x, int(profileV0)+dy)+3]; got != want {
				t.Errorf("profile texel (%d, %d) = %d, want %d", x, int(profileV0)+dy, got, want)
			}
		}
	}
	if !profileRect.In(a.img.Bounds()) || profileRect.Overlaps(whiteRect) {
		t.Errorf("profile %v against the white block %v", profileRect, whiteRect)
	}
	qs, _ := a.Layout(render.Text{S: "g", Size: 14}, 1, nil)
	if len(qs) == 1 && qs[0].Src.Overlaps(profileRect) {
		t.Errorf("a glyph at %v covers the profile %v", qs[0].Src, profileRect)
	}
}

// TestDashStripRefuses: the patterns a strip cannot draw as render.Dashes
// does are the caller's to cut.
func TestDashStripRefuses(t *testing.T) {
	a := newGlyphAtlas()
	for _, p := range [][]float64{nil, {0, 0}, {-1, 2}, {math.NaN(), 1}, {math.Inf(1), 1}, {1, 1, 1, 1, 1, 1, 1, 1, 1, 1}, {200, 100}} {
		if _, ok, full := a.Dash(p, 1); ok || full {
			t.Errorf("Dash(%v) = ok %v, full %v; want the caller to cut it", p, ok, full)
		}
	}
}

// TestDashStripFillsUp: strips take shelves of their own; a full atlas
// says so, and after Reset the pattern is laid out again.
func TestDashStripFillsUp(t *testing.T) {
	a := newGlyphAtlas()
	full := false
	n := 0
	for i := 1; !full && i < 1000; i++ {
		_, _, full = a.Dash([]float64{float64(i) / dashTexels, 1}, 1) // i texels: a new pattern each
		n++
	}
	if !full {
		t.Fatal("the atlas never filled up with strips")
	}
	if want := atlasSize / (stripRows + glyphPad); n < want-2 {
		t.Errorf("filled up after %d strips, want about %d", n, want)
	}
	a.Reset()
	if _, ok, full := a.Dash([]float64{3, 2}, 1); !ok || full {
		t.Errorf("after Reset: ok %v, full %v", ok, full)
	}
}

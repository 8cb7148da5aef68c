package font

import (
	"math"
	"testing"
)

func TestWidth(t *testing.T) {
	if w := Width("", 16, false); w != 0 {
		t.Errorf("Width(\"\") = %v, want 0", w)
	}
	a, b := Width("P0", 16, false), Width("P0", 32, false)
	if a <= 0 || math.Abs(b-2*a) > 0.1 {
		t.Errorf("Width at 16 px = %v and at 32 px = %v; want positive and doubling", a, b)
	}
	if Width("WWW", 16, false) <= Width("iii", 16, false) {
		t.Error("Go Regular is proportional: WWW must be wider than iii")
	}
	if Width("stage", 16, true) <= Width("stage", 16, false) {
		t.Error("bold must be wider than regular")
	}
}

func TestFaceAgreesWithWidth(t *testing.T) {
	f, err := NewFace(20, false)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	const s = "T = 3, P = 64"
	var w float64
	prev := rune(-1)
	for _, r := range s {
		if prev >= 0 {
			w += float64(f.Kern(prev, r)) / 64
		}
		adv, _ := f.GlyphAdvance(r)
		w += float64(adv) / 64
		prev = r
	}
	if got := Width(s, 20, false); math.Abs(got-w) > 0.5 {
		t.Errorf("Width = %v, the face advances %v", got, w)
	}
}

func TestMetrics(t *testing.T) {
	a, d := Ascent(16), Descent(16)
	if a < 10 || a > 16 || d < 2 || d > 6 {
		t.Errorf("ascent %v, descent %v at 16 px: out of any sane range", a, d)
	}
}

package rastertest

import (
	"image"
	"image/color"
	"testing"
)

func TestCompare(t *testing.T) {
	a := image.NewRGBA(image.Rect(0, 0, 4, 3))
	b := image.NewRGBA(image.Rect(0, 0, 4, 3))
	if bad, _ := Compare(a, b, 0); bad != 0 {
		t.Fatalf("equal images: %d bad pixels", bad)
	}
	b.SetRGBA(2, 1, color.RGBA{R: Tolerance})
	if bad, _ := Compare(a, b, Tolerance); bad != 0 {
		t.Errorf("a difference of exactly the tolerance fails")
	}
	b.SetRGBA(3, 2, color.RGBA{G: Tolerance + 1})
	if bad, at := Compare(a, b, Tolerance); bad != 1 || at != image.Pt(3, 2) {
		t.Errorf("Compare = %d at %v, want 1 at (3,2)", bad, at)
	}
	if bad, _ := Compare(a, image.NewRGBA(image.Rect(0, 0, 4, 4)), 0); bad != 12 {
		t.Errorf("different sizes: %d bad, want all 12", bad)
	}
}

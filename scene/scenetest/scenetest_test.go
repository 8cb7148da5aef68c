package scenetest

import (
	"fmt"
	"image"
	"image/color"
	"strings"
	"testing"

	"commlab/render"
	"commlab/scene/butterfly"
)

// recorder keeps the errors a check reports instead of failing the test.
type recorder struct {
	testing.TB
	errs []string
}

func (r *recorder) Helper() {}
func (r *recorder) Errorf(format string, a ...any) {
	r.errs = append(r.errs, fmt.Sprintf(format, a...))
}

func text(x, y float64, s string, size float64) render.Text {
	return render.Text{At: render.Point{X: x, Y: y}, S: s, Size: size}
}

func TestTextChecks(t *testing.T) {
	for _, tc := range []struct {
		name    string
		items   []render.Item
		canvas  int // errors from TextOnCanvas
		overlap int // errors from NoOverlappingText
	}{
		{"apart", []render.Item{text(10, 20, "a label", 14), text(10, 60, "another", 14)}, 0, 0},
		{"overlapping", []render.Item{text(10, 20, "a label", 14), text(14, 24, "another", 14)}, 0, 1},
		{"off the right edge", []render.Item{text(950, 20, "a label", 14)}, 1, 0},
		{"too small", []render.Item{text(10, 20, "tiny", 12)}, 1, 0},
		{"not text", []render.Item{render.Rect{Max: render.Point{X: 2000, Y: 2000}}}, 0, 0},
	} {
		l := render.List{W: 960, H: 540, Items: tc.items}
		var r recorder
		TextOnCanvas(&r, l, 13, tc.name)
		if len(r.errs) != tc.canvas {
			t.Errorf("%s: TextOnCanvas reported %q, want %d errors", tc.name, r.errs, tc.canvas)
		}
		r.errs = nil
		NoOverlappingText(&r, l, tc.name)
		if len(r.errs) != tc.overlap {
			t.Errorf("%s: NoOverlappingText reported %q, want %d errors", tc.name, r.errs, tc.overlap)
		}
	}
	// The minimum size applies at 960x540 only.
	var r recorder
	TextOnCanvas(&r, render.List{W: 640, H: 360, Items: []render.Item{text(10, 20, "tiny", 9)}}, 13, "embed")
	if len(r.errs) != 0 {
		t.Errorf("640x360: %q", r.errs)
	}
}

func TestNotBlank(t *testing.T) {
	img := image.NewRGBA(image.Rect(0, 0, 20, 10))
	red := color.RGBA{200, 0, 0, 255}
	for x := range 8 {
		for y := range 10 {
			img.SetRGBA(x, y, red)
		}
	}
	img.SetRGBA(19, 9, color.RGBA{210, 10, 5, 255}) // near red, not equal
	var r recorder
	NotBlank(&r, img, map[string]color.Color{"red": red}, 0, 80, "exact")
	if len(r.errs) != 0 {
		t.Errorf("80 red pixels: %q", r.errs)
	}
	NotBlank(&r, img, map[string]color.Color{"red": red}, 0, 81, "exact")
	NotBlank(&r, img, map[string]color.Color{"blue": color.RGBA{0, 0, 200, 255}}, 24, 1, "blue")
	if len(r.errs) != 2 || !strings.Contains(r.errs[0], "80 pixels in the red colour") {
		t.Errorf("errors %q, want two, the first counting 80 red pixels", r.errs)
	}
	r.errs = nil
	NotBlank(&r, img, map[string]color.Color{"red": red}, 24, 81, "near")
	if len(r.errs) != 0 {
		t.Errorf("within 24 levels: %q", r.errs)
	}
}

func TestValuesAndBuild(t *testing.T) {
	sc := butterfly.New()
	v := Values(sc, map[string]string{"P": "8"})
	if v["P"] != "8" || len(v) != len(sc.Fields()) {
		t.Fatalf("Values = %v, want the defaults with P = 8", v)
	}
	if r := Build(t, sc, map[string]string{"P": "8", "T": "3"}, 2); !(r.End() > 0) {
		t.Errorf("built run ends at %v", r.End())
	}
}

package scenetest

import (
	"fmt"
	"image"
	"image/color"
	"testing"
	"time"

	"commlab/render"
	"commlab/render/font"
	"commlab/scene"
	"commlab/scene/chart"
)

// TextBox is the box a text item covers, measured with the fonts every
// backend draws with.
func TextBox(tx render.Text) chart.Box {
	w := font.Width(tx.S, tx.FontSize(), tx.Bold)
	x := tx.At.X
	switch tx.Align {
	case render.AlignCenter:
		x -= w / 2
	case render.AlignRight:
		x -= w
	}
	return chart.Box{X0: x, Y0: tx.At.Y - font.Ascent(tx.FontSize()), X1: x + w, Y1: tx.At.Y + font.Descent(tx.FontSize())}
}

// Inside says whether pt lies in b, give or take eps pixels.
func Inside(pt render.Point, b chart.Box, eps float64) bool {
	return pt.X >= b.X0-eps && pt.X <= b.X1+eps && pt.Y >= b.Y0-eps && pt.Y <= b.Y1+eps
}

// RectBox is the box a rectangle item covers.
func RectBox(r render.Rect) chart.Box {
	return chart.Box{X0: r.Min.X, Y0: r.Min.Y, X1: r.Max.X, Y1: r.Max.Y}
}

// TextOnCanvas checks that every text item of l lies on its canvas (half a
// pixel of slack) and, on a 960x540 canvas, is at least minAt960 px; what
// names the frame in the errors.
func TextOnCanvas(t testing.TB, l render.List, minAt960 float64, what string) {
	t.Helper()
	for _, it := range l.Items {
		tx, ok := it.(render.Text)
		if !ok {
			continue
		}
		b := TextBox(tx)
		if b.X0 < -0.5 || b.Y0 < -0.5 || b.X1 > l.W+0.5 || b.Y1 > l.H+0.5 {
			t.Errorf("%s %vx%v: %q at %v leaves the canvas", what, l.W, l.H, tx.S, b)
		}
		if l.W == 960 && l.H == 540 && tx.FontSize() < minAt960 {
			t.Errorf("%s 960x540: %q at %v px, want at least %v", what, tx.S, tx.FontSize(), minAt960)
		}
	}
}

// NoOverlappingText checks that no two text items of l overlap; a shared
// pixel row or column at the edge is not an overlap.
func NoOverlappingText(t testing.TB, l render.List, what string) {
	t.Helper()
	var boxes []chart.Box
	var items []render.Text
	for _, it := range l.Items {
		tx, ok := it.(render.Text)
		if !ok {
			continue
		}
		b := TextBox(tx)
		for j, o := range boxes {
			if b.X0 < o.X1-1 && o.X0 < b.X1-1 && b.Y0 < o.Y1-1 && o.Y0 < b.Y1-1 {
				t.Errorf("%s %vx%v: %q overlaps %q", what, l.W, l.H, tx.S, items[j].S)
			}
		}
		boxes = append(boxes, b)
		items = append(items, tx)
	}
}

// NotBlank guards a golden frame: img must have at least least pixels
// within tol levels per channel of each of the named colours, so a golden
// regenerated from a broken layout (an empty list) cannot pass unnoticed.
// what names the frame in the errors.
func NotBlank(t testing.TB, img *image.RGBA, colours map[string]color.Color, tol, least int, what string) {
	t.Helper()
	counts := map[string]int{}
	b := img.Bounds()
	for name, c := range colours {
		want := rgba(c)
		counts[name] = 0 // a colour with no pixels at all is reported too
		for y := b.Min.Y; y < b.Max.Y; y++ {
			for x := b.Min.X; x < b.Max.X; x++ {
				i := img.PixOffset(x, y)
				if near([4]uint8(img.Pix[i:i+4]), want, tol) {
					counts[name]++
				}
			}
		}
	}
	for name, n := range counts {
		if n < least {
			t.Errorf("%s: %d pixels in the %s colour, want at least %d (%v)", what, n, name, least, fmt.Sprint(counts))
		}
	}
}

func near(a, b [4]uint8, tol int) bool {
	for i := range a {
		if d := int(a[i]) - int(b[i]); d > tol || d < -tol {
			return false
		}
	}
	return true
}

func rgba(c color.Color) [4]uint8 {
	r, g, b, a := c.RGBA()
	return [4]uint8{uint8(r >> 8), uint8(g >> 8), uint8(b >> 8), uint8(a >> 8)}
}

// LoopMs runs f in b's loop and reports its mean wall time in
// milliseconds per call as unit (say "ms/frame").
func LoopMs(b *testing.B, unit string, f func()) {
	b.Helper()
	start := time.Now()
	for b.Loop() {
		f()
	}
	b.ReportMetric(float64(time.Since(start).Nanoseconds())/1e6/float64(b.N), unit)
}

// Values returns sc's default values with the keys in set changed: the
// starting point of every scene test.
func Values(sc scene.Scene, set map[string]string) scene.Values {
	v := scene.Defaults(sc.Fields())
	for k, x := range set {
		v[k] = x
	}
	return v
}

// Build builds sc with Values(sc, set) and seed, failing t if it does not
// build.
func Build(t testing.TB, sc scene.Scene, set map[string]string, seed uint64) scene.Run {
	t.Helper()
	r, err := sc.Build(Values(sc, set), seed)
	if err != nil {
		t.Fatalf("%s: Build(%v, %d): %v", sc.Info().Name, set, seed, err)
	}
	return r
}

// CheckInfo checks what the index page and the controls need of sc: the
// name, every text filled, the time unit ("" for seconds), well-formed
// fields whose keys are exactly keys, in order. It returns the fields.
func CheckInfo(t testing.TB, sc scene.Scene, name, timeUnit string, keys ...string) []scene.Field {
	t.Helper()
	if in := sc.Info(); in.Name != name || in.Title == "" || in.Paper == "" || in.Summary == "" || in.TimeUnit != timeUnit {
		t.Errorf("Info = %+v, want name %s, every text filled, time unit %q", in, name, timeUnit)
	}
	fs := sc.Fields()
	if err := scene.CheckFields(fs); err != nil {
		t.Fatal(err)
	}
	got := make([]string, len(fs))
	for i, f := range fs {
		got[i] = f.Key
	}
	if fmt.Sprint(got) != fmt.Sprint(keys) {
		t.Errorf("%s: field keys %v, want %v", name, got, keys)
	}
	return fs
}

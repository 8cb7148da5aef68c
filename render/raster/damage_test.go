package raster

import (
	"bytes"
	"fmt"
	"image"
	"image/color"
	"math/rand/v2"
	"testing"

	"commlab/render"
)

// TestRepaintMatchesDraw animates random lists by random edits (items
// changed, inserted, removed, moved to the top) and checks after every
// frame that repainting only what render.Damage finds changed leaves the
// same pixels as painting the frame afresh. A bound that misses part of
// what an item paints leaves stale pixels behind and fails here.
func TestRepaintMatchesDraw(t *testing.T) {
	for _, scale := range []float64{1, 2, 1.25} {
		for seed := range uint64(6) {
			t.Run(fmt.Sprintf("scale=%v/seed=%d", scale, seed), func(t *testing.T) {
				rng := rand.New(rand.NewPCG(seed, 7))
				l := render.List{W: 320, H: 200, Background: color.RGBA{250, 248, 240, 255}}
				for range 60 {
					l.Items = append(l.Items, randomItem(rng, l.W, l.H))
				}
				var d render.Damage
				var p Painter
				img, _ := newSurface(l, scale)
				p.Repaint(img, l, scale, &d)
				partial := 0
				for frame := range 40 {
					l = edit(rng, l)
					regions, full := p.Repaint(img, l, scale, &d)
					if !full && len(regions) > 0 {
						partial++
					}
					want := Image(l, scale)
					if !bytes.Equal(img.Pix, want.Pix) {
						t.Fatalf("frame %d: repainting %v (full %v) differs from a fresh picture at %v: %v, want %v", frame, regions, full, firstDiff(img, want), img.RGBAAt(firstDiff(img, want).X, firstDiff(img, want).Y), want.RGBAAt(firstDiff(img, want).X, firstDiff(img, want).Y))
					}
				}
				if partial < 20 {
					t.Errorf("only %d of 40 frames were repainted in part; the test means to check partial repaints", partial)
				}
			})
		}
	}
}

func newSurface(l render.List, scale float64) (*image.RGBA, error) {
	r, err := Bounds(l, scale)
	return image.NewRGBA(r), err
}

var prevList render.List

func firstDiff(a, b *image.RGBA) image.Point {
	for y := a.Rect.Min.Y; y < a.Rect.Max.Y; y++ {
		for x := a.Rect.Min.X; x < a.Rect.Max.X; x++ {
			if a.RGBAAt(x, y) != b.RGBAAt(x, y) {
				return image.Pt(x, y)
			}
		}
	}
	return image.Point{-1, -1}
}

func randomItem(rng *rand.Rand, w, h float64) render.Item {
	pt := func() render.Point { return render.Point{X: rng.Float64() * w, Y: rng.Float64() * h} }
	col := func() color.RGBA {
		a := uint8(128 + rng.IntN(128))
		if rng.IntN(3) == 0 {
			a = 255
		}
		c := color.RGBA{uint8(rng.IntN(256)), uint8(rng.IntN(256)), uint8(rng.IntN(256)), 255}
		return render.Fade(c, float64(a)/255)
	}
	style := func() render.Style {
		s := render.Style{Stroke: col(), Width: 0.5 + 3*rng.Float64()}
		if rng.IntN(2) == 0 {
			s.Fill = col()
		}
		if rng.IntN(4) == 0 {
			s.Dash = []float64{2 + 4*rng.Float64(), 1 + 3*rng.Float64()}
		}
		return s
	}
	switch rng.IntN(7) {
	case 0:
		a := pt()
		return render.Rect{Min: a, Max: render.Point{X: a.X + rng.Float64()*60, Y: a.Y + rng.Float64()*40}, Style: style()}
	case 1:
		return render.Line{From: pt(), To: pt(), Style: style()}
	case 2:
		return render.Polyline{Points: []render.Point{pt(), pt(), pt()}, Style: style()}
	case 3:
		return render.Arrow{From: pt(), To: pt(), Style: style()}
	case 4:
		return render.Circle{Center: pt(), R: 1 + 20*rng.Float64(), Style: style()}
	case 5:
		texts := []string{"t = 1.25 ms", "P = 64", "(a+b)·c", "Wg", "stage 3"}
		return render.Text{At: pt(), S: texts[rng.IntN(len(texts))], Size: 8 + 14*rng.Float64(),
			Align: render.Align(rng.IntN(3)), Bold: rng.IntN(2) == 0, Color: col()}
	default:
		a := pt()
		g := render.Grid{Min: a, Max: render.Point{X: a.X + 10 + rng.Float64()*80, Y: a.Y + 3 + rng.Float64()*20}, Cols: 1 + rng.IntN(12), Rows: 1 + rng.IntN(3)}
		for range g.Cols * g.Rows {
			g.Cells = append(g.Cells, col())
		}
		return g
	}
}

// edit returns a copy of l with a few random edits.
func edit(rng *rand.Rand, l render.List) render.List {
	items := append([]render.Item(nil), l.Items...)
	for range 1 + rng.IntN(4) {
		i := rng.IntN(len(items))
		switch rng.IntN(5) {
		case 4: // a polyline's head moved and points added (a growing trace)
			if pl, ok := items[i].(render.Polyline); ok {
				n := len(pl.Points)
				pts := append([]render.Point(nil), pl.Points[:n-1]...)
				for range 1 + rng.IntN(3) {
					last := pts[len(pts)-1]
					pts = append(pts, render.Point{X: last.X + 30*rng.Float64() - 15, Y: last.Y + 30*rng.Float64() - 15})
				}
				pl.Points = pts
				items[i] = pl
			} else {
				items[i] = randomItem(rng, l.W, l.H)
			}
		case 0: // changed
			items[i] = randomItem(rng, l.W, l.H)
		case 1: // inserted
			items = append(items[:i], append([]render.Item{randomItem(rng, l.W, l.H)}, items[i:]...)...)
		case 2: // removed
			if len(items) > 1 {
				items = append(items[:i], items[i+1:]...)
			}
		case 3: // raised to the top
			it := items[i]
			items = append(append(items[:i], items[i+1:]...), it)
		}
	}
	l.Items = items
	return l
}

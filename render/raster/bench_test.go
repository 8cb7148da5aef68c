package raster

import (
	"fmt"
	"image"
	"testing"

	"commlab/render"
)

// sceneSized is a list like a scene's frame at 960x540: a butterfly of 16
// processes over 4 stages and 2 redundant exchanges (boxes with labels,
// arrows between rows), a Gantt strip of the same run, a heat-strip, axes
// and a legend; about 500 items, a fifth of them text.
func sceneSized(th render.Theme) render.List {
	l := render.List{W: 960, H: 540, Background: th.Background}
	l.Add(render.Rect{Min: pt(12, 12), Max: pt(948, 330), Style: render.Style{Fill: th.Panel, Stroke: th.Rule}})
	const P, rows = 16, 7
	x := func(i int) float64 { return 40 + float64(i)*56 }
	y := func(r int) float64 { return 40 + float64(r)*40 }
	for r := range rows {
		for i := range P {
			st := render.Style{Fill: th.Panel, Stroke: th.Ink, Width: 1.5}
			if r > 4 {
				st.Stroke, st.Dash = th.Redundant, []float64{4, 2}
			}
			l.Add(render.Rect{Min: pt(x(i), y(r)), Max: pt(x(i)+44, y(r)+22), Style: st},
				render.Text{At: pt(x(i)+22, y(r)+16), S: fmt.Sprintf("s%d", i*(r+1)), Size: 12, Align: render.AlignCenter, Color: th.Ink})
			if r+1 < rows {
				j := i ^ (1 << (r % 4))
				c := th.Butterfly
				if r >= 4 {
					c = th.Redundant
				}
				l.Add(render.Arrow{From: pt(x(i)+22, y(r)+22), To: pt(x(j)+22, y(r+1)), Style: render.Style{Stroke: c, Fill: c, Width: 1.5}})
			}
		}
	}
	for i := range P {
		lane := 350 + float64(i)*9
		l.Add(render.Text{At: pt(36, lane+7), S: fmt.Sprintf("P%d", i), Size: 9, Align: render.AlignRight, Color: th.Muted})
		t := 40.0
		for k := range 7 {
			w := 30 + float64((i*7+k*13)%40)
			kind := []render.Style{{Fill: th.Compute}, {Fill: th.Idle}, {Fill: render.Fade(th.Stall, 0.8)}}[(i+k)%3]
			l.Add(render.Rect{Min: pt(t, lane), Max: pt(t+w, lane+8), Style: kind})
			t += w + 6
		}
	}
	g := render.Grid{Min: pt(40, 500), Max: pt(920, 520), Cols: 4096, Rows: 1}
	for i := range g.Cols {
		g.Cells = append(g.Cells, th.HeatAt(float64(i*i%4096)/4096))
	}
	l.Add(g)
	for k := range 11 {
		tx := 40 + float64(k)*88
		l.Add(render.Line{From: pt(tx, 490), To: pt(tx, 495), Style: render.Style{Stroke: th.Muted}},
			render.Text{At: pt(tx, 535), S: fmt.Sprintf("%d µs", k*10), Size: 10, Align: render.AlignCenter, Color: th.Muted})
	}
	l.Add(render.Line{From: pt(500, 340), To: pt(500, 500), Style: render.Style{Stroke: th.Playhead, Width: 2}},
		render.Polyline{Points: []render.Point{pt(600, 480), pt(650, 420), pt(700, 460), pt(760, 380), pt(820, 400)}, Style: render.Style{Stroke: th.Critical, Width: 2}},
		render.Circle{Center: pt(760, 380), R: 5, Style: render.Style{Fill: th.Adopted, Stroke: th.Ink}},
		render.Text{At: pt(940, 30), S: "completion 41.2 µs (conventional) · 33.0 µs (T = 2)", Size: 14, Bold: true, Align: render.AlignRight, Color: th.Ink},
	)
	return l
}

func TestSceneSizedIsTypical(t *testing.T) {
	l := sceneSized(render.Light())
	texts := 0
	for _, it := range l.Items {
		if _, ok := it.(render.Text); ok {
			texts++
		}
	}
	if n := len(l.Items); n < 450 || n > 550 || texts < 100 {
		t.Errorf("%d items, %d texts; the benchmark wants about 500 with text", n, texts)
	}
}

// BenchmarkDraw paints a scene-sized list into a reused 960x540 image (and
// at scale 2, as a high-DPI export would), reporting milliseconds a frame.
func BenchmarkDraw(b *testing.B) {
	for _, scale := range []float64{1, 2} {
		b.Run(fmt.Sprintf("960x540/scale=%g", scale), func(b *testing.B) {
			l := sceneSized(render.Dark())
			r, err := Bounds(l, scale)
			if err != nil {
				b.Fatal(err)
			}
			dst := image.NewRGBA(r)
			var p Painter
			for b.Loop() {
				p.Draw(dst, l, scale)
			}
			b.ReportMetric(float64(b.Elapsed().Microseconds())/1000/float64(b.N), "ms/frame")
		})
	}
}

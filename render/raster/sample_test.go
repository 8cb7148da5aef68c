package raster

import (
	"fmt"
	"image/color"

	"commlab/render"
)

// sampler is a small list with every item type, solid and dashed, thick
// and thin, opaque and translucent, in theme th: the golden images' input.
func sampler(th render.Theme) render.List {
	l := render.List{W: 240, H: 160, Background: th.Background}
	pt := func(x, y float64) render.Point { return render.Point{X: x, Y: y} }
	l.Add(
		// A panel, and a translucent stall window across its edge.
		render.Rect{Min: pt(8, 8), Max: pt(116, 76), Style: render.Style{Fill: th.Panel, Stroke: th.Rule, Width: 1}},
		render.Rect{Min: pt(90.5, 20), Max: pt(130.25, 40.5), Style: render.Style{Fill: render.Fade(th.Stall, 0.5)}},
		// Dashed outline, odd pattern, thick: corners and restarts per edge.
		render.Rect{Min: pt(124, 8), Max: pt(232, 52), Style: render.Style{Stroke: th.Redundant, Width: 3, Dash: []float64{7, 3, 2}}},
		// Lines: hairline, thick, diagonal, dashed.
		render.Line{From: pt(14, 20.5), To: pt(80, 20.5), Style: render.Style{Stroke: th.Ink}},
		render.Line{From: pt(14, 30), To: pt(80, 30), Style: render.Style{Stroke: th.Compute, Width: 4}},
		render.Line{From: pt(14, 70), To: pt(80, 38), Style: render.Style{Stroke: th.Receive, Width: 2.5}},
		render.Line{From: pt(14, 60), To: pt(110, 60), Style: render.Style{Stroke: th.Muted, Width: 1.5, Dash: []float64{4, 3}}},
		// Polylines: a sharp turn (bevel), right angles (miters), dashed.
		render.Polyline{Points: []render.Point{pt(130, 110), pt(150, 64), pt(156, 110)}, Style: render.Style{Stroke: th.Critical, Width: 3}},
		render.Polyline{Points: []render.Point{pt(166, 110), pt(166, 70), pt(196, 70), pt(196, 100), pt(226, 100)}, Style: render.Style{Stroke: th.Adopted, Width: 4}},
		render.Polyline{Points: []render.Point{pt(166, 120), pt(196, 140), pt(226, 116)}, Style: render.Style{Stroke: th.Noise, Width: 2, Dash: []float64{5, 2}}},
		// Arrows: solid, dashed shaft, thick with a default head.
		render.Arrow{From: pt(16, 90), To: pt(70, 90), Style: render.Style{Stroke: th.Butterfly, Fill: th.Butterfly, Width: 2}},
		render.Arrow{From: pt(16, 130), To: pt(60, 100), Head: 9, Style: render.Style{Stroke: th.Redundant, Fill: th.Redundant, Width: 1.5, Dash: []float64{3, 2}}},
		render.Arrow{From: pt(110, 150), To: pt(80, 100), Style: render.Style{Stroke: th.Adopted, Fill: th.Adopted, Width: 3}},
		// Circles: filled and outlined, dashed outline, a dot.
		render.Circle{Center: pt(200, 30), R: 12, Style: render.Style{Fill: th.Send, Stroke: th.Ink, Width: 1.5}},
		render.Circle{Center: pt(140, 136), R: 14.5, Style: render.Style{Stroke: th.Playhead, Width: 2, Dash: []float64{5, 4}}},
		render.Circle{Center: pt(120.5, 96.5), R: 2.5, Style: render.Style{Fill: th.Critical}},
	)
	// A heat-strip on fractional bounds, one cell left unpainted.
	g := render.Grid{Min: pt(10.3, 140.6), Max: pt(105.7, 156.2), Cols: 12, Rows: 2}
	for i := range g.Cols * g.Rows {
		g.Cells = append(g.Cells, th.HeatAt(float64(i)/float64(g.Cols*g.Rows-1)))
	}
	g.Cells[5] = color.RGBA{}
	l.Add(g,
		render.Text{At: pt(14, 50), S: "P0 stage 3", Size: 11, Color: th.Ink},
		render.Text{At: pt(178, 50), S: "T = 2", Size: 14, Bold: true, Align: render.AlignCenter, Color: th.Ink},
		render.Text{At: pt(232, 154), S: fmt.Sprintf("%.1f µs", 12.3), Size: 12, Align: render.AlignRight, Color: th.Muted},
		render.Text{At: pt(120, 128), S: "Wy", Size: 20, Align: render.AlignRight, Color: render.Fade(th.Compute, 0.7)},
	)
	return l
}

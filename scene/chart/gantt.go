package chart

import (
	"image/color"
	"math"

	"commlab/render"
	"commlab/render/font"
)

// Gantt is a frame with Gantt charts: lanes of spans against one time
// axis from 0 at Lanes.X0 to End at Lanes.X1, lane labels right-aligned at
// LabelX, and the axis drawn under the lowest lanes at AxisY. A scene's
// painter embeds it; the scene draws its spans, its messages and its own
// marks with X.
type Gantt struct {
	Frame
	Lanes  Box     // the lanes' column: its width is the time axis
	End    float64 // the time at Lanes.X1
	LabelX float64 // right edge of the lane labels
	AxisY  float64 // the time axis, under the lowest lanes

	// TickX, when set, places a time tick's label of width w whose tick is
	// at x (the jitter scene keeps its labels on the canvas instead); nil
	// keeps it within the lanes' extent, 2·S over either end.
	TickX func(x, w float64) float64
}

// X maps a time onto the time axis.
//
//go:noinline
func (g *Gantt) X(t float64) float64 { return g.Lanes.X0 + t/g.End*g.Lanes.W() }

// Panel is one Gantt chart of a stack: its header's baseline and its
// lanes' box.
type Panel struct {
	Header float64
	Plot   Box
}

// Split divides body into the Gantt charts' column and a side box for a
// plot of the run's trials: beside the column, wFrac of the width, on
// landscape canvases (w ≥ 1.3 h), under it, a third of the height, on
// tall ones; 2·Pad apart.
func (g *Gantt) Split(body Box, wFrac float64) (col, side Box) {
	col = body
	if g.L.W >= 1.3*g.L.H {
		sw := math.Round(wFrac * body.W())
		col.X1 = body.X1 - sw - 2*g.Pad
		return col, Box{X0: col.X1 + 2*g.Pad, Y0: body.Y0, X1: body.X1, Y1: body.Y1}
	}
	sh := math.Round(0.34 * body.H())
	col.Y1 = body.Y1 - sh - 2*g.Pad
	return col, Box{X0: body.X0, Y0: col.Y1 + 2*g.Pad, X1: body.X1, Y1: body.Y1}
}

// Stack lays n Gantt charts out in col, one above the other on one time
// axis: each a header row over its lanes, all of one height, with the
// lanes from x0 (right of the lane labels) to 4·S inside col's right edge,
// and room under the last for the time axis' ticks, labels and caption.
// It sets Lanes, LabelX and AxisY, and returns the panels (appended to
// dst[:0]) and their lanes' height.
func (g *Gantt) Stack(col Box, x0 float64, n int, dst []Panel) ([]Panel, float64) {
	s := g.S
	g.Lanes = Box{X0: x0, Y0: col.Y0, X1: col.X1 - 4*s, Y1: col.Y1}
	g.LabelX = g.Lanes.X0 - 4*s
	axisH := 4*s + g.FSSmall*1.4 + g.FSSmall*1.5
	headerH := g.FS * 1.6
	gap := 6 * s
	k := float64(n)
	ph := max((col.H()-axisH-k*headerH-(k-1)*gap)/k, 1)
	panels := dst[:0]
	y := col.Y0
	for range n {
		pl := Panel{Header: Baseline(y, headerH, g.FS), Plot: Box{X0: g.Lanes.X0, Y0: y + headerH, X1: g.Lanes.X1, Y1: y + headerH + ph}}
		panels = append(panels, pl)
		y = pl.Plot.Y1 + gap
	}
	g.AxisY = panels[n-1].Plot.Y1
	return panels, ph
}

// TimeTicks are the time axis' ticks for this canvas: one per widest
// label's width times spacing, at least one.
func (g *Gantt) TimeTicks(widest string, spacing float64) (ticks []float64, step float64) {
	lw := font.Width(widest, g.FSSmall, false)
	n := int(g.Lanes.W() / (lw * spacing))
	return NiceTicks(0, g.End, max(n, 1))
}

// Plot draws a panel's lanes' box with a quiet rule at each tick inside
// the time axis.
func (g *Gantt) Plot(b Box, ticks []float64) {
	g.Rect(b, render.Style{Fill: g.Th.Panel, Stroke: g.Th.Rule, Width: 1})
	for _, tk := range ticks {
		if tk > 0 && tk < g.End {
			g.VLine(g.X(tk), b.Y0, b.Y1, render.Style{Stroke: g.Th.Rule, Width: 1})
		}
	}
}

// TimeAxis draws the time axis at AxisY: a tick and its label (label(t))
// at each of ticks, and under them the first of captions that fits the
// axis. It returns the caption's baseline, for a scene that writes more
// on that row.
func (g *Gantt) TimeAxis(ticks []float64, label func(t float64) string, captions ...string) float64 {
	s, y := g.S, g.AxisY
	ly := y + 4*s + font.Ascent(g.FSSmall) + 2*s
	for _, tk := range ticks {
		x := g.X(tk)
		g.VLine(x, y, y+4*s, render.Style{Stroke: g.Th.Muted, Width: 1})
		if g.TickX != nil {
			l := label(tk)
			g.Text(g.TickX(x, font.Width(l, g.FSSmall, false)), ly, l, g.FSSmall, render.AlignCenter, false, g.Th.Muted)
			continue
		}
		g.TickLabel(x, ly, label(tk), g.Lanes.X0, g.Lanes.X1)
	}
	capY := y + 4*s + g.FSSmall*1.4 + font.Ascent(g.FSSmall) + 2*s
	g.Text(g.Lanes.X0, capY, Fit(g.Lanes.W(), g.FSSmall, false, captions...), g.FSSmall, render.AlignLeft, false, g.Th.Muted)
	return capY
}

// Playhead draws the playhead across the Gantt charts, from y0 down to the
// time axis' ticks.
func (g *Gantt) Playhead(y0 float64) {
	g.VLine(g.X(g.Now), y0, g.AxisY+4*g.S, render.Style{Stroke: g.Th.Playhead, Width: 2 * g.S})
}

// LaneStride is every how many'th of n lanes laneH tall gets a label: all
// of them where a lane is at least a line of small text high, else every
// second, fourth, ...
func (g *Gantt) LaneStride(laneH float64, n int) int {
	need := g.FSSmall * 1.05
	stride := 1
	for float64(stride)*laneH < need && stride < n {
		stride *= 2
	}
	return stride
}

// LaneLabel names the lane whose centre is at y, in small text right-
// aligned at LabelX.
func (g *Gantt) LaneLabel(y float64, name string, bold bool, c color.RGBA) {
	g.Text(g.LabelX, y+font.Ascent(g.FSSmall)/2-1, name, g.FSSmall, render.AlignRight, bold, c)
}

// BarH is the height of the bars in a lane laneH tall: most of the lane,
// all of it when lanes are a couple of pixels, and no taller than most (a
// thick bar: arrows between few lanes need room).
func BarH(laneH, most float64) float64 {
	if laneH < 3 {
		return laneH
	}
	return min(laneH*0.72, most)
}

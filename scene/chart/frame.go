package chart

import (
	"image/color"

	"commlab/render"
	"commlab/render/font"
)

// Frame is one frame being laid out: the display list, the theme, the
// playhead and the text sizes every scene's painter starts from. A scene's
// painter embeds it (or Gantt, which embeds it), so that the drawing
// helpers below read as the painter's own: p.Text, p.Title, p.Legend.
type Frame struct {
	L   *render.List // the frame's display list
	Th  render.Theme
	Now float64 // the playhead, in the run's time unit
	Sizes
}

// Begin starts a w x h frame in theme th at playhead now, with room for
// items display items so that the list never grows while it is laid out,
// and picks the text sizes from the canvas. It reports false for a canvas
// of no area: the list is then empty and there is nothing to lay out.
func (f *Frame) Begin(w, h float64, th render.Theme, now float64, items int) bool {
	f.Th, f.Now = th, now
	f.L = &render.List{W: w, H: h, Background: th.Background}
	if !(w > 0 && h > 0) {
		return false
	}
	f.L.Items = make([]render.Item, 0, items)
	f.Sizes = SizesFor(w, h)
	return true
}

// Text adds text s at (x, y), y being its baseline.
//
//go:noinline
func (f *Frame) Text(x, y float64, s string, size float64, align render.Align, bold bool, c color.RGBA) {
	f.L.Add(render.Text{At: render.Point{X: x, Y: y}, S: s, Size: size, Align: align, Bold: bold, Color: c})
}

// Rect adds box b drawn in style st.
//
//go:noinline
func (f *Frame) Rect(b Box, st render.Style) { Rect(f.L, b, st) }

// Line adds the line from (x0, y0) to (x1, y1).
//
//go:noinline
func (f *Frame) Line(x0, y0, x1, y1 float64, st render.Style) {
	f.L.Add(render.Line{From: render.Point{X: x0, Y: y0}, To: render.Point{X: x1, Y: y1}, Style: st})
}

// VLine adds a vertical line at x from y0 to y1.
//
//go:noinline
func (f *Frame) VLine(x, y0, y1 float64, st render.Style) { f.Line(x, y0, x, y1, st) }

// HLine adds a horizontal line at y from x0 to x1.
//
//go:noinline
func (f *Frame) HLine(x0, x1, y float64, st render.Style) { f.Line(x0, y, x1, y, st) }

// Body is the canvas inside the margin from top (where the legend ends)
// down.
func (f *Frame) Body(top float64) Box {
	return Box{X0: f.Pad, Y0: top, X1: f.L.W - f.Pad, Y1: f.L.H - f.Pad}
}

// Title draws the frame's top row: right (the run's parameters and the
// playhead's time, which a scene fits to the room with Fit) right-aligned
// and quiet, and the first of titles that fits beside it, bold, on the
// left.
func (f *Frame) Title(right string, titles ...string) {
	rowH := f.FSTitle * 1.5
	y := Baseline(f.Pad*0.6, rowH, f.FSTitle)
	rw := font.Width(right, f.FS, false)
	f.Text(f.L.W-f.Pad, y, right, f.FS, render.AlignRight, false, f.Th.Muted)
	room := f.L.W - 2*f.Pad - rw - 2*f.FS
	f.Text(f.Pad, y, Fit(room, f.FSTitle, true, titles...), f.FSTitle, render.AlignLeft, true, f.Th.Ink)
}

// Legend draws the key under the title (see Legend) and returns the y
// where the frame's body starts.
//
//go:noinline
func (f *Frame) Legend(entries []LegendEntry) float64 {
	return Legend(f.L, f.Sizes, f.Th.Ink, entries)
}

// Header draws a panel's header at baseline y from x: the first of heads
// that fits in w, bold.
func (f *Frame) Header(x, y, w float64, heads ...string) {
	f.Text(x, y, Fit(w, f.FS, true, heads...), f.FS, render.AlignLeft, true, f.Th.Ink)
}

// TickLabel centres an axis label under its tick at x, shifted inward
// where it would leave the axis' extent [x0, x1] by more than a few
// pixels (the first tick of a time axis sits on its left edge, next to
// the lane labels).
func (f *Frame) TickLabel(x, y float64, label string, x0, x1 float64) {
	w := font.Width(label, f.FSSmall, false)
	x = min(max(x, x0-2*f.S+w/2), x1+2*f.S-w/2)
	f.Text(x, y, label, f.FSSmall, render.AlignCenter, false, f.Th.Muted)
}

// ValueLabel writes a plot's value label right-aligned at x, centred on
// the grid line (or lane) at y.
func (f *Frame) ValueLabel(x, y float64, label string) {
	f.Text(x, y+font.Ascent(f.FSSmall)/2-1, label, f.FSSmall, render.AlignRight, false, f.Th.Muted)
}

// Fill is the style of a bar of colour c, outlined in ink when outline is
// set (a send or receive whose colour is hard to tell from compute's:
// see OutlineComm).
//
//go:noinline
func (f *Frame) Fill(c color.RGBA, outline bool) render.Style {
	st := render.Style{Fill: c}
	if outline {
		st.Stroke, st.Width = f.Th.Ink, max(1, 0.8*f.S)
	}
	return st
}

// OutlineComm says whether th's send or receive colour is too close to its
// compute colour to read as another kind (the dark theme's blues), so that
// sends and receives need an outline.
func OutlineComm(th render.Theme) bool {
	return CloseColours(th.Compute, th.Send) || CloseColours(th.Compute, th.Receive)
}

// Stalled draws time lost (a stall, a blocked call) in b: a tint fill
// crossed by Hatch in colour c, so that it reads as lost, not as work,
// even printed in grey; outlined in c when outline is set and b is at
// least 7·S tall.
func (f *Frame) Stalled(b Box, tint, c color.RGBA, outline bool) {
	f.Rect(b, render.Style{Fill: tint})
	Hatch(f.L, b, f.S, c)
	if outline && b.H() >= 7*f.S {
		f.Rect(b, render.Style{Stroke: c, Width: max(1, f.S)})
	}
}

// Swatch is a legend swatch filled (and stroked) in st.
//
//go:noinline
func (f *Frame) Swatch(st render.Style) func(Box) {
	return func(b Box) { f.Rect(b, st) }
}

// Mark is a legend swatch for a vertical mark (a completion time, a rule):
// a line in st through the swatch's middle, 2·S past its top and bottom.
func (f *Frame) Mark(st render.Style) func(Box) {
	return func(b Box) { f.VLine((b.X0+b.X1)/2, b.Y0-2*f.S, b.Y1+2*f.S, st) }
}

// Stroke is a legend swatch for a line kind: a line in st across the
// swatch's middle.
func (f *Frame) Stroke(st render.Style) func(Box) {
	return func(b Box) { f.HLine(b.X0, b.X1, (b.Y0+b.Y1)/2, st) }
}

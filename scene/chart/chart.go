package chart

import (
	"image/color"
	"math"

	"commlab/render"
	"commlab/render/font"
)

// Box is an axis-aligned rectangle in canvas pixels.
type Box struct{ X0, Y0, X1, Y1 float64 }

func (b Box) W() float64 { return b.X1 - b.X0 }
func (b Box) H() float64 { return b.Y1 - b.Y0 }

// Sizes are a frame's text sizes and margin, picked from the canvas.
type Sizes struct {
	S                    float64 // scale against a 960x540 canvas
	FS, FSSmall, FSTitle float64 // body, small and title text
	Pad                  float64 // the canvas margin
}

// SizesFor scales text with the canvas (14 px at 960x540, so 18.7 px at
// 1280x720 projected), with floors for small embeds.
func SizesFor(w, h float64) Sizes {
	s := min(w/960, h/540)
	return Sizes{
		S:       s,
		FS:      max(10, 14*s),
		FSSmall: max(9, 13*s),
		FSTitle: max(11, 16*s),
		Pad:     10 * s,
	}
}

// Baseline returns the baseline of text of size fs centred in a row of
// height rowH whose top is y.
func Baseline(y, rowH, fs float64) float64 {
	return y + (rowH+font.Ascent(fs)-font.Descent(fs))/2
}

// Fit returns the first candidate that fits in width w at size fs (the
// last if none does): long labels give way to short ones on small canvases
// instead of overlapping.
//
//go:noinline
func Fit(w, fs float64, bold bool, candidates ...string) string {
	for _, c := range candidates {
		if font.Width(c, fs, bold) <= w {
			return c
		}
	}
	return candidates[len(candidates)-1]
}

// Rect adds box b drawn in style st to l.
func Rect(l *render.List, b Box, st render.Style) {
	l.Add(render.Rect{Min: render.Point{X: b.X0, Y: b.Y0}, Max: render.Point{X: b.X1, Y: b.Y1}, Style: st})
}

// Hatch crosses b with diagonal lines in colour c, s being the frame's
// scale: how the scenes draw time lost to a stall or a block, so it reads
// as lost, not as work, even printed in grey. The lines sit on a grid fixed
// to the canvas, so they stay put while the box grows with the playhead.
func Hatch(l *render.List, b Box, s float64, c color.RGBA) {
	sp := max(4, 5*s)
	st := render.Style{Stroke: c, Width: max(1, 1.1*s)}
	// Lines x + y = k·sp ("/" with y down), clipped to the box.
	for k := math.Ceil((b.X0 + b.Y0) / sp); k*sp < b.X1+b.Y1; k++ {
		c := k * sp
		xa, xb := max(b.X0, c-b.Y1), min(b.X1, c-b.Y0)
		if xb <= xa {
			continue
		}
		l.Add(render.Line{From: render.Point{X: xa, Y: c - xa}, To: render.Point{X: xb, Y: c - xb}, Style: st})
	}
}

// LegendEntry is one swatch of a legend and its label.
type LegendEntry struct {
	Label string
	Draw  func(b Box) // draws the swatch into b
}

// Legend draws the key under a frame's title, wrapping onto more rows on
// narrow canvases, with labels in colour ink, and returns the y where the
// frame's body starts.
func Legend(l *render.List, z Sizes, ink color.RGBA, entries []LegendEntry) float64 {
	s := z.S
	sw := 20 * s
	rowH := z.FSSmall * 1.6
	y := z.Pad*0.6 + z.FSTitle*1.5
	x := z.Pad
	for _, e := range entries {
		w := sw + 5*s + font.Width(e.Label, z.FSSmall, false)
		if x > z.Pad && x+w > l.W-z.Pad {
			x, y = z.Pad, y+rowH
		}
		sh := z.FSSmall * 0.75
		mid := y + rowH/2
		e.Draw(Box{x, mid - sh/2, x + sw, mid + sh/2})
		l.Add(render.Text{At: render.Point{X: x + sw + 5*s, Y: Baseline(y, rowH, z.FSSmall)}, S: e.Label, Size: z.FSSmall, Align: render.AlignLeft, Color: ink})
		x += w + 14*s
	}
	return y + rowH + 4*s
}

// CloseColours says whether two colours are hard to tell apart side by
// side: the dark theme's compute blue and send sky blue differ by less
// than 30 levels in every channel.
//
//go:noinline
func CloseColours(a, b color.RGBA) bool {
	d := func(x, y uint8) int { return max(int(x)-int(y), int(y)-int(x)) }
	return d(a.R, b.R)+d(a.G, b.G)+d(a.B, b.B) < 90
}

// OnFill is the text colour that reads on fill c: ink or background,
// whichever differs more from c in luminance (Rec. 709 weights).
func OnFill(c, ink, background color.RGBA) color.RGBA {
	lum := func(c color.RGBA) float64 { return 0.2126*float64(c.R) + 0.7152*float64(c.G) + 0.0722*float64(c.B) }
	if math.Abs(lum(c)-lum(ink)) >= math.Abs(lum(c)-lum(background)) {
		return ink
	}
	return background
}

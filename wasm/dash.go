package main

import (
	"image"
	"math"
)

// A diagonal stroke is one quad: four vertices, two triangles, its
// coverage across the stroke (a tent, full on the centre line, nothing
// half a pixel beyond either side) sampled from three texel rows of the
// atlas, clear, opaque, clear, with linear filtering, and along it from
// the same rows: a plain column for a solid stroke, a dash strip for a
// dashed one (the pattern laid out once along the middle row). A stroke
// drawn as a tent of vertex colours took six vertices, and one cut into
// a stroke per dash (render.Dashes) twice as many again; the overlay
// scene's arcs are hundreds of such strokes a frame, and in software WebGL
// the vertices were a tenth of its frame's CPU time.

// profileRect holds the plain profile, beside the white block: columns of
// clear, opaque, clear.
var profileRect = image.Rect(whiteRect.Max.X+glyphPad, 0, whiteRect.Max.X+glyphPad+4, 3)

// profileU is the column a solid stroke samples, between two of
// profileRect's, so that linear filtering along it mixes equal texels.
var profileU = float32(profileRect.Min.X + 2)

// profileV0 is the centre of the profile's first row; the last row's is
// profileV0 + 2.
var profileV0 = float32(profileRect.Min.Y) + 0.5

// dashTexels is how many texels of a strip make one device pixel along a
// stroke: a dash's ends land within an eighth of a pixel of where
// render.Dashes puts them.
const dashTexels = 4

// maxDash is the most entries a pattern drawn from a strip may have; a
// longer one is cut into dashes as before.
const maxDash = 8

// dashStrip is where a pattern's strip lies in the atlas: whole periods of
// it from texel column x0 over span texels, its rows centred on v0, v0+1
// and v0+2. A texel of periodic margin lies on either side, so that linear
// filtering at a stretch's ends mixes in the pattern, not the neighbours.
type dashStrip struct {
	x0, v0, span float32
}

// dashKey is a pattern in texels, its entries after the last zero.
type dashKey [maxDash]int32

// stripRows is a strip's height: the profile's three rows.
const stripRows = 3

// Dash returns the strip of a dash pattern given in device pixels, laying
// it out on first use. ok is false when the pattern is one a strip cannot
// draw as render.Dashes would (no usable entry, more than maxDash entries,
// a period longer than the atlas is wide); the caller then cuts the dashes
// itself. full says the atlas has no room: the caller draws what it has,
// Resets and asks again.
//
// As in render.Dashes (and canvas setLineDash), an odd-length pattern
// repeats twice, and a pattern whose entries sum to nothing, or with a
// negative or non-finite entry, draws solid, which is not a strip's job
// either.
func (a *glyphAtlas) Dash(pattern []float64, scale float64) (s dashStrip, ok, full bool) {
	n := len(pattern)
	if n%2 == 1 {
		n *= 2
	}
	if n == 0 || n > maxDash {
		return dashStrip{}, false, false
	}
	var k dashKey
	period := 0
	for i := range n {
		d := pattern[i%len(pattern)] * scale * dashTexels
		if !(d >= 0) || math.IsInf(d, 0) {
			return dashStrip{}, false, false
		}
		k[i] = int32(math.Round(d))
		period += int(k[i])
	}
	if period == 0 || period > atlasSize-2 {
		return dashStrip{}, false, false
	}
	if s, ok := a.dashes[k]; ok {
		return s, true, false
	}
	w := (atlasSize-2)/period*period + 2 // whole periods and the margins
	// A strip is a shelf of its own.
	if a.x > 0 {
		a.x, a.y, a.shelfH = 0, a.y+a.shelfH+glyphPad, 0
	}
	if a.y+stripRows > atlasSize {
		return dashStrip{}, false, true
	}
	r := image.Rect(0, a.y, w, a.y+stripRows)
	fillStrip(a.img, r, k[:n], period)
	a.dirty = append(a.dirty, r)
	a.y += stripRows + glyphPad
	s = dashStrip{x0: 1, v0: float32(r.Min.Y) + 0.5, span: float32(w - 2)}
	a.dashes[k] = s
	return s, true, false
}

// fillStrip writes the pattern (texel lengths, drawn first) along the
// middle row of r, from its second column on and periodic into both
// margins, as premultiplied white whose alpha is the pattern's coverage of
// a device pixel centred on each texel: a dash's ends come out
// antialiased along the stroke, as its sides are across it. The rows above
// and below are clear (the profile's).
func fillStrip(img *image.RGBA, r image.Rectangle, pattern []int32, period int) {
	on := make([]bool, period)
	pos := 0
	for i, d := range pattern {
		for range d {
			on[pos] = i%2 == 0
			pos++
		}
	}
	// The box of a device pixel centred on a texel j: dashTexels-1 texels
	// whole, and half of each one beyond.
	const h = dashTexels / 2
	px := img.Pix[img.PixOffset(r.Min.X, r.Min.Y+1):]
	for x := range r.Dx() {
		j := x - 1 // the pattern starts at the second column
		var c float64
		for k := j - h; k <= j+h; k++ {
			if on[((k%period)+period)%period] {
				if k == j-h || k == j+h {
					c += 0.5
				} else {
					c++
				}
			}
		}
		a := uint8(math.Round(c / dashTexels * 255))
		px[4*x], px[4*x+1], px[4*x+2], px[4*x+3] = a, a, a, a
	}
}

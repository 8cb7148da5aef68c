package main

import (
	"image"
	"image/color"
	"image/draw"
	"math"

	xfont "golang.org/x/image/font"
	"golang.org/x/image/math/fixed"

	"commlab/render"
	"commlab/render/font"
)

// atlasSize is the side of the glyph atlas in pixels. Scenes use a handful
// of sizes of about a hundred characters; at 2x device scale that fills
// well under a quarter of it. When it does fill up, it is emptied and
// refilled with what the current frame needs.
const atlasSize = 1024

// whiteRect is a block of opaque white at the atlas's corner: shapes are
// drawn from it, so that shapes and text share one source image and Ebiten
// merges them into very few draw calls.
var whiteRect = image.Rect(0, 0, 4, 4)

// whiteTexel is a point inside whiteRect, away from its edges.
var whiteTexel = image.Point{2, 2}

// glyphPad keeps glyphs apart in the atlas, so that no sampling of one
// reaches its neighbour.
const glyphPad = 1

// glyphAtlas rasterises glyphs of the render/font faces once, at device
// pixel sizes, into one image (premultiplied white with the glyph's
// coverage as alpha, so a vertex colour tints it). It is pure Go; the Ebiten
// backend uploads the regions it reports as Dirty.
type glyphAtlas struct {
	img    *image.RGBA
	x, y   int // next free position on the current shelf
	shelfH int // height of the current shelf

	faces  map[faceKey]xfont.Face
	glyphs map[glyphKey]glyph
	dashes map[dashKey]dashStrip // see dash.go
	dirty  []image.Rectangle
}

type faceKey struct {
	size float64 // device pixels
	bold bool
}

type glyphKey struct {
	face faceKey
	r    rune
}

// glyph is one rasterised glyph: where it sits in the atlas, and where its
// top-left corner sits relative to the pen on the baseline.
type glyph struct {
	src image.Rectangle // empty for blanks (space)
	off image.Point
	adv fixed.Int26_6
}

func newGlyphAtlas() *glyphAtlas {
	a := &glyphAtlas{
		img:   image.NewRGBA(image.Rect(0, 0, atlasSize, atlasSize)),
		faces: map[faceKey]xfont.Face{},
	}
	a.Reset()
	return a
}

// Reset empties the atlas (glyphs and dash strips) but for the white block
// and the stroke profile (dash.go). The backend must have
// drawn everything it queued from the old contents first.
func (a *glyphAtlas) Reset() {
	clear(a.img.Pix)
	draw.Draw(a.img, whiteRect, image.NewUniform(color.White), image.Point{}, draw.Src)
	mid := profileRect
	mid.Min.Y, mid.Max.Y = mid.Min.Y+1, mid.Min.Y+2
	draw.Draw(a.img, mid, image.NewUniform(color.White), image.Point{}, draw.Src)
	a.glyphs = map[glyphKey]glyph{}
	a.dashes = map[dashKey]dashStrip{}
	a.x, a.y, a.shelfH = profileRect.Max.X+glyphPad, 0, whiteRect.Max.Y
	a.dirty = append(a.dirty[:0], a.img.Bounds())
}

// Dirty returns the regions changed since the last call.
func (a *glyphAtlas) Dirty() []image.Rectangle {
	d := a.dirty
	a.dirty = a.dirty[len(d):]
	return d
}

// face returns the cached face of size device pixels.
func (a *glyphAtlas) face(k faceKey) (xfont.Face, error) {
	if f, ok := a.faces[k]; ok {
		return f, nil
	}
	f, err := font.NewFace(k.size, k.bold)
	if err != nil {
		return nil, err
	}
	a.faces[k] = f
	return f, nil
}

// Glyph returns r in face k, rasterising it on first use. full says the
// atlas has no room: the caller draws what it has, Resets and asks again.
func (a *glyphAtlas) Glyph(k faceKey, r rune) (g glyph, full bool) {
	gk := glyphKey{k, r}
	if g, ok := a.glyphs[gk]; ok {
		return g, false
	}
	f, err := a.face(k)
	if err != nil {
		return glyph{}, false
	}
	dr, mask, mp, adv, ok := f.Glyph(fixed.Point26_6{}, r)
	if !ok {
		// Not in the font: draw the font's notdef box, as other backends do.
		dr, mask, mp, adv, ok = f.Glyph(fixed.Point26_6{}, '\ufffd')
		if !ok {
			a.glyphs[gk] = glyph{}
			return glyph{}, false
		}
	}
	g = glyph{off: dr.Min, adv: adv}
	w, h := dr.Dx(), dr.Dy()
	if w > 0 && h > 0 {
		if w+glyphPad > atlasSize || h+glyphPad > atlasSize {
			a.glyphs[gk] = glyph{adv: adv} // larger than the atlas: advance only
			return a.glyphs[gk], false
		}
		if a.x+w > atlasSize {
			a.x, a.y, a.shelfH = 0, a.y+a.shelfH+glyphPad, 0
		}
		if a.y+h > atlasSize {
			return glyph{}, true
		}
		g.src = image.Rect(a.x, a.y, a.x+w, a.y+h)
		copyCoverage(a.img, g.src, mask, mp)
		a.dirty = append(a.dirty, g.src)
		a.x += w + glyphPad
		a.shelfH = max(a.shelfH, h)
	}
	a.glyphs[gk] = g
	return g, false
}

// copyCoverage writes mask's alpha from mp into dst's rectangle r as
// premultiplied white.
func copyCoverage(dst *image.RGBA, r image.Rectangle, mask image.Image, mp image.Point) {
	for y := 0; y < r.Dy(); y++ {
		row := dst.Pix[dst.PixOffset(r.Min.X, r.Min.Y+y):]
		for x := 0; x < r.Dx(); x++ {
			var c uint8
			if m, ok := mask.(*image.Alpha); ok {
				c = m.AlphaAt(mp.X+x, mp.Y+y).A
			} else {
				_, _, _, a := mask.At(mp.X+x, mp.Y+y).RGBA()
				c = uint8(a >> 8)
			}
			row[4*x], row[4*x+1], row[4*x+2], row[4*x+3] = c, c, c, c
		}
	}
}

// Kern is the kerning between two runes in face k, in device pixels x 64.
func (a *glyphAtlas) Kern(k faceKey, prev, r rune) fixed.Int26_6 {
	f, err := a.face(k)
	if err != nil {
		return 0
	}
	return f.Kern(prev, r)
}

// Pixels returns the bytes of region r of the atlas, row after row, for
// upload.
func (a *glyphAtlas) Pixels(r image.Rectangle, buf []byte) []byte {
	buf = buf[:0]
	for y := r.Min.Y; y < r.Max.Y; y++ {
		i := a.img.PixOffset(r.Min.X, y)
		buf = append(buf, a.img.Pix[i:i+4*r.Dx()]...)
	}
	return buf
}

// quad is one glyph placed on the canvas: its atlas rectangle drawn 1:1
// with its top-left corner at (X, Y) in device pixels.
type quad struct {
	Src  image.Rectangle
	X, Y float32
}

// Layout places the glyphs of t at device scale scale, appending to out.
// Glyphs sit on whole device pixels (sharp, and drawn 1:1 from the atlas);
// the pen advances in 1/64 pixels with kerning, so widths are those of
// font.Width. full says the atlas filled up: draw, Reset, lay out again.
func (a *glyphAtlas) Layout(t render.Text, scale float64, out []quad) ([]quad, bool) {
	k := faceKey{size: t.FontSize() * scale, bold: t.Bold}
	var width fixed.Int26_6
	prev := rune(-1)
	for _, r := range t.S {
		g, full := a.Glyph(k, r)
		if full {
			return out, true
		}
		if prev >= 0 {
			width += a.Kern(k, prev, r)
		}
		width += g.adv
		prev = r
	}
	x := t.At.X * scale
	switch t.Align {
	case render.AlignCenter:
		x -= float64(width) / 128
	case render.AlignRight:
		x -= float64(width) / 64
	}
	pen := fixed.Int26_6(math.Round(x * 64))
	base := int(math.Round(t.At.Y * scale))
	prev = -1
	for _, r := range t.S {
		g, _ := a.Glyph(k, r) // cached by the loop above
		if prev >= 0 {
			pen += a.Kern(k, prev, r)
		}
		if !g.src.Empty() {
			out = append(out, quad{Src: g.src, X: float32(pen.Round() + g.off.X), Y: float32(base + g.off.Y)})
		}
		pen += g.adv
		prev = r
	}
	return out, false
}

package raster

import (
	"image"
	"image/draw"
	"math"

	xfont "golang.org/x/image/font"
	"golang.org/x/image/math/fixed"

	"commlab/render"
	"commlab/render/font"
)

// maxFontPx bounds the device size of text: far beyond any legible label,
// and below sizes whose glyph masks would take megabytes each.
const maxFontPx = 1024

func (p *Painter) text(t render.Text) {
	if t.Color.A == 0 || t.S == "" {
		return
	}
	size := t.FontSize() * p.scale
	x, y := t.At.X*p.scale, t.At.Y*p.scale
	if !(size <= maxFontPx) || !(math.Abs(x) < farAway && math.Abs(y) < farAway) {
		return
	}
	face := p.face(size, t.Bold)
	if face == nil {
		return
	}
	// The face measures what it will draw (kerning included), which is
	// what render/font.Width reports to layouts at the same size.
	switch t.Align {
	case render.AlignCenter:
		x -= float64(xfont.MeasureString(face, t.S)) / 64 / 2
	case render.AlignRight:
		x -= float64(xfont.MeasureString(face, t.S)) / 64
	}
	// As font.Drawer.DrawString, with each glyph's mask cached.
	k := faceKey{int32(math.Round(size * 64)), t.Bold}
	src := image.NewUniform(t.Color)
	dot := fixed.Point26_6{X: fixed.Int26_6(math.Round(x * 64)), Y: fixed.Int26_6(math.Round(y * 64))}
	prev := rune(-1)
	for _, r := range t.S {
		if prev >= 0 {
			dot.X += face.Kern(prev, r)
		}
		g := p.glyph(k, face, dot, r)
		if g.mask != nil {
			dr := g.dr.Add(image.Pt(dot.X.Floor(), dot.Y.Floor()))
			draw.DrawMask(p.dst, dr, src, image.Point{}, g.mask, image.Point{}, draw.Over)
		}
		dot.X += g.advance
		prev = r
	}
}

// maxGlyphs bounds the glyph cache; a frame's labels need a few hundred.
const maxGlyphs = 8192

type glyphKey struct {
	face faceKey
	r    rune
	fx   fixed.Int26_6 // the dot's position within its pixel
	fy   fixed.Int26_6
}

// glyph is a rendered glyph for a dot within pixel (0, 0).
type glyph struct {
	dr      image.Rectangle // where the mask goes, relative to the dot's pixel
	mask    *image.Alpha    // nil when the glyph draws nothing
	advance fixed.Int26_6
}

// glyph renders r with face at dot, or reuses an earlier rendering. A
// glyph's pixels depend only on where the dot lies within its pixel, not
// on which pixel, so the cache is exact: text repeated frame after frame
// is rasterised once.
func (p *Painter) glyph(k faceKey, face xfont.Face, dot fixed.Point26_6, r rune) glyph {
	gk := glyphKey{k, r, dot.X & 63, dot.Y & 63}
	if g, ok := p.glyphs[gk]; ok {
		return g
	}
	if p.glyphs == nil || len(p.glyphs) >= maxGlyphs {
		p.glyphs = make(map[glyphKey]glyph)
	}
	dr, mask, mp, advance, ok := face.Glyph(fixed.Point26_6{X: gk.fx, Y: gk.fy}, r)
	g := glyph{advance: advance}
	if ok && !dr.Empty() {
		// The face reuses its mask buffer: keep a copy.
		m := image.NewAlpha(image.Rect(0, 0, dr.Dx(), dr.Dy()))
		draw.Draw(m, m.Rect, mask, mp, draw.Src)
		g.dr, g.mask = dr, m
	}
	p.glyphs[gk] = g
	return g
}

// face returns the cached face for a device pixel size, made on first use.
func (p *Painter) face(size float64, bold bool) xfont.Face {
	k := faceKey{int32(math.Round(size * 64)), bold}
	if f, ok := p.faces[k]; ok {
		return f
	}
	if p.faces == nil || len(p.faces) >= maxFaces {
		for _, f := range p.faces {
			f.Close()
		}
		p.faces = make(map[faceKey]xfont.Face)
		p.glyphs = nil
	}
	f, err := font.NewFace(float64(k.size64)/64, bold)
	if err != nil {
		// Only a size opentype rejects gets here; the text is skipped
		// and the next call tries again.
		return nil
	}
	p.faces[k] = f
	return f
}

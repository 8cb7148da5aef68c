//go:build js && wasm

package main

import (
	"image"
	"image/color"

	"github.com/hajimehoshi/ebiten/v2"
	"github.com/hajimehoshi/ebiten/v2/ebitenutil"
	"github.com/hajimehoshi/ebiten/v2/vector"

	"commlab/render"
)

// white is the 1x1 source texture for filled paths, cut from the middle of a
// 3x3 image so that linear filtering never samples a transparent edge (the
// same trick as Ebiten's vector package).
var white = func() *ebiten.Image {
	img := ebiten.NewImage(3, 3)
	img.Fill(color.White)
	return img.SubImage(image.Rect(1, 1, 2, 2)).(*ebiten.Image)
}()

// paint draws a display list onto dst, scaling scene pixels by scale (the
// device pixel ratio, so lines stay crisp on high-DPI screens).
//
// Text is drawn with Ebiten's built-in debug font, which has one size and one
// colour; proper fonts come with the first real scene.
func paint(dst *ebiten.Image, l render.List, scale float64) {
	dst.Fill(l.Background)
	s := float32(scale)
	pt := func(p render.Point) (float32, float32) { return float32(p.X) * s, float32(p.Y) * s }
	stroke := func(a, b render.Point, st render.Style) {
		w := float32(st.StrokeWidth()) * s
		for _, seg := range render.Dashes(a, b, st.Dash) {
			x0, y0 := pt(seg[0])
			x1, y1 := pt(seg[1])
			vector.StrokeLine(dst, x0, y0, x1, y1, w, st.Stroke, true)
		}
	}
	for _, it := range l.Items {
		switch it := it.(type) {
		case render.Rect:
			x0, y0 := pt(it.Min)
			x1, y1 := pt(it.Max)
			if it.Fill.A != 0 {
				vector.DrawFilledRect(dst, x0, y0, x1-x0, y1-y0, it.Fill, true)
			}
			if it.Stroke.A != 0 {
				c := [4]render.Point{it.Min, {X: it.Max.X, Y: it.Min.Y}, it.Max, {X: it.Min.X, Y: it.Max.Y}}
				for i := range c {
					stroke(c[i], c[(i+1)%4], it.Style)
				}
			}
		case render.Line:
			if it.Stroke.A != 0 {
				stroke(it.From, it.To, it.Style)
			}
		case render.Polyline:
			// Dashes restart at every vertex; the scenes use dashed
			// polylines only for short guides, where that is invisible.
			if it.Stroke.A != 0 {
				for i := 1; i < len(it.Points); i++ {
					stroke(it.Points[i-1], it.Points[i], it.Style)
				}
			}
		case render.Arrow:
			if it.Stroke.A != 0 {
				sh := it.Shaft()
				stroke(sh.From, sh.To, it.Style)
			}
			head := it.Fill
			if head.A == 0 {
				head = it.Stroke
			}
			if head.A != 0 {
				fillTriangle(dst, it.HeadPoints(), scale, head)
			}
		case render.Circle:
			cx, cy := pt(it.Center)
			r := float32(it.R) * s
			if it.Fill.A != 0 {
				vector.DrawFilledCircle(dst, cx, cy, r, it.Fill, true)
			}
			if it.Stroke.A != 0 {
				vector.StrokeCircle(dst, cx, cy, r, float32(it.StrokeWidth())*s, it.Stroke, true)
			}
		case render.Text:
			// The debug font's glyphs are 6x16 with the baseline near 12.
			x, y := pt(it.At)
			w := 6 * len(it.S)
			switch it.Align {
			case render.AlignCenter:
				x -= float32(w) / 2
			case render.AlignRight:
				x -= float32(w)
			}
			ebitenutil.DebugPrintAt(dst, it.S, int(x), int(y)-12)
		}
	}
}

// fillTriangle fills a triangle given in scene pixels.
func fillTriangle(dst *ebiten.Image, p [3]render.Point, scale float64, c color.RGBA) {
	var path vector.Path
	path.MoveTo(float32(p[0].X*scale), float32(p[0].Y*scale))
	path.LineTo(float32(p[1].X*scale), float32(p[1].Y*scale))
	path.LineTo(float32(p[2].X*scale), float32(p[2].Y*scale))
	path.Close()
	vs, is := path.AppendVerticesAndIndicesForFilling(nil, nil)
	r, g, b, a := c.RGBA()
	for i := range vs {
		vs[i].SrcX, vs[i].SrcY = 1, 1 // the centre texel of white, in its parent's coordinates
		vs[i].ColorR = float32(r) / 0xffff
		vs[i].ColorG = float32(g) / 0xffff
		vs[i].ColorB = float32(b) / 0xffff
		vs[i].ColorA = float32(a) / 0xffff
	}
	op := &ebiten.DrawTrianglesOptions{AntiAlias: true}
	op.ColorScaleMode = ebiten.ColorScaleModePremultipliedAlpha
	dst.DrawTriangles(vs, is, white, op)
}

package render

import (
	"image"
	"math"

	"commlab/render/font"
)

// ItemBounds returns a rectangle in device pixels at scale that holds every
// pixel any backend may paint for it: the shape, its stroke, mitred joins
// (up to canvas's limit of ten widths), arrow heads, glyphs with their
// overhang, and two pixels of antialiasing. An item with coordinates that
// are not finite paints nothing and has empty bounds.
func ItemBounds(it Item, scale float64) image.Rectangle {
	var bb bbox
	switch it := it.(type) {
	case Rect:
		bb.point(it.Min)
		bb.point(it.Max)
		if it.Stroke.A != 0 {
			bb.grow(it.StrokeWidth() / 2)
		}
	case Line:
		bb.point(it.From)
		bb.point(it.To)
		bb.grow(it.StrokeWidth())
	case Polyline:
		for _, p := range it.Points {
			bb.point(p)
		}
		bb.grow(polylinePad(it))
	case Arrow:
		bb.point(it.From)
		bb.point(it.To)
		for _, p := range it.HeadPoints() {
			bb.point(p)
		}
		bb.grow(it.StrokeWidth())
	case Circle:
		r := it.R
		if it.Stroke.A != 0 {
			r += it.StrokeWidth() / 2
		}
		bb.point(Point{it.Center.X - r, it.Center.Y - r})
		bb.point(Point{it.Center.X + r, it.Center.Y + r})
	case Text:
		if it.S == "" {
			return image.Rectangle{}
		}
		size := it.FontSize()
		w := font.Width(it.S, size, it.Bold)
		x := it.At.X
		switch it.Align {
		case AlignCenter:
			x -= w / 2
		case AlignRight:
			x -= w
		}
		bb.point(Point{x, it.At.Y - font.Ascent(size)})
		bb.point(Point{x + w, it.At.Y + font.Descent(size)})
		bb.grow(size / 4) // side bearings, accents and parentheses
	case Grid:
		bb.point(it.Min)
		bb.point(it.Max)
	}
	return bb.device(scale)
}

// miterLimit bounds a mitred join: one whose mitre (from the inner to the
// outer corner) is longer than this many stroke widths is bevelled
// (canvas's default, which the backends follow).
const miterLimit = 10

// polylinePad is how far a polyline's stroke may reach beyond its points:
// a stroke width, or further at a sharp mitred join, h/cos(θ/2) for a half
// width h and a turn of θ. A smooth curve's joins add next to nothing,
// where the limit alone (ten widths) would pad every curve by twenty
// pixels.
func polylinePad(pl Polyline) float64 {
	w := pl.StrokeWidth()
	pad := w
	for i := 1; i+1 < len(pl.Points); i++ {
		pad = max(pad, joinPad(pl.Points[i-1], pl.Points[i], pl.Points[i+1], w))
	}
	return pad
}

// joinPad is how far the join at v of the segments a–v and v–b, stroked w
// wide, reaches beyond v: h/cos(θ/2) for a mitre within the limit, else
// (bevelled) no further than the stroke's half width.
func joinPad(a, v, b Point, w float64) float64 {
	ux, uy := v.X-a.X, v.Y-a.Y
	wx, wy := b.X-v.X, b.Y-v.Y
	n1, n2 := math.Hypot(ux, uy), math.Hypot(wx, wy)
	if !(n1 > 0 && n2 > 0) {
		return 0
	}
	cosHalf := math.Sqrt(max(0, (1+(ux*wx+uy*wy)/(n1*n2))/2))
	if cosHalf > 1/float64(miterLimit) {
		return w / 2 / cosHalf
	}
	return 0
}

// antialias is the margin, in device pixels, for edges that backends
// feather or snap to the pixel grid.
const antialias = 2

// bbox is a bounding box in scene pixels, being built.
type bbox struct {
	x0, y0, x1, y1 float64
	some, bad      bool
}

//go:noinline
func (b *bbox) point(p Point) {
	if !(math.Abs(p.X) <= math.MaxFloat32 && math.Abs(p.Y) <= math.MaxFloat32) {
		b.bad = true
		return
	}
	if !b.some {
		b.x0, b.y0, b.x1, b.y1, b.some = p.X, p.Y, p.X, p.Y, true
		return
	}
	b.x0, b.y0 = min(b.x0, p.X), min(b.y0, p.Y)
	b.x1, b.y1 = max(b.x1, p.X), max(b.y1, p.Y)
}

//go:noinline
func (b *bbox) grow(d float64) {
	if d > 0 && !math.IsInf(d, 0) {
		b.x0, b.y0, b.x1, b.y1 = b.x0-d, b.y0-d, b.x1+d, b.y1+d
	}
}

// device converts to whole device pixels, outward, with the antialiasing
// margin; coordinates are clamped to ±2^30 so that the conversion to int
// cannot overflow (a shape that far out is clipped away by the surface).
func (b *bbox) device(scale float64) image.Rectangle {
	if !b.some || b.bad || !(scale > 0) {
		return image.Rectangle{}
	}
	const far = 1 << 30
	c := func(v float64) int { return int(max(-far, min(far, v))) }
	return image.Rect(
		c(math.Floor(b.x0*scale)-antialias), c(math.Floor(b.y0*scale)-antialias),
		c(math.Ceil(b.x1*scale)+antialias), c(math.Ceil(b.y1*scale)+antialias),
	)
}

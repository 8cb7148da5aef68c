package render

import (
	"image/color"
	"math"
)

// Point is a position in scene pixels, y pointing down.
type Point struct{ X, Y float64 }

// Style says how a shape is painted. The zero Style paints nothing, so a
// shape must ask for a fill, an outline or both.
type Style struct {
	// Fill paints the inside of closed shapes (Rect, Circle) and the head of
	// an Arrow. A zero alpha means no fill.
	Fill color.RGBA
	// Stroke paints outlines and open shapes. A zero alpha means no outline.
	Stroke color.RGBA
	// Width is the stroke width in pixels; 0 means 1.
	Width float64
	// Dash alternates lengths drawn and skipped, starting with drawn, as in
	// canvas setLineDash. Nil or all zero means a solid stroke.
	Dash []float64
}

// StrokeWidth is the width a backend should use: Width, or 1 when unset.
func (s Style) StrokeWidth() float64 {
	if s.Width <= 0 {
		return 1
	}
	return s.Width
}

// Item is one entry of a display list. The set of items is closed: a backend
// handles exactly the types in this file with a type switch.
type Item interface {
	isItem()
}

// Rect is an axis-aligned rectangle from Min (top left) to Max (bottom right).
type Rect struct {
	Min, Max Point
	Style
}

// Line is a straight segment.
type Line struct {
	From, To Point
	Style
}

// Polyline is an open chain of segments through Points. It is stroked only.
type Polyline struct {
	Points []Point
	Style
}

// Arrow is a segment with a filled triangular head at To, the way a message
// between two lanes is drawn. Head is the head's length in pixels; 0 means
// four times the stroke width plus four.
type Arrow struct {
	From, To Point
	Head     float64
	Style
}

// Circle is a circle around Center with radius R.
type Circle struct {
	Center Point
	R      float64
	Style
}

// Grid is a heat map: Cols x Rows cells filling the rectangle Min–Max,
// colours in row-major order (len(Cells) == Cols*Rows). Backends draw every
// cell as a sharp-edged block, without smoothing between cells, so a
// heat-strip of thousands of processes is one item rather than thousands of
// rectangles. A zero-alpha cell is left unpainted.
type Grid struct {
	Min, Max   Point
	Cols, Rows int
	Cells      []color.RGBA
}

// Align says where text sits relative to its anchor point.
type Align uint8

// Text anchors.
const (
	AlignLeft Align = iota
	AlignCenter
	AlignRight
)

// Text is a single line of text whose baseline starts, centres or ends at At.
// Size is the font size in pixels; 0 means 12. Every backend draws it with
// the fonts in render/font, so widths measured there hold on every backend.
type Text struct {
	At    Point
	S     string
	Size  float64
	Align Align
	Bold  bool
	Color color.RGBA
}

// FontSize is the size a backend should use: Size, or 12 when unset.
func (t Text) FontSize() float64 {
	if t.Size <= 0 {
		return 12
	}
	return t.Size
}

func (Rect) isItem()     {}
func (Line) isItem()     {}
func (Polyline) isItem() {}
func (Arrow) isItem()    {}
func (Circle) isItem()   {}
func (Text) isItem()     {}
func (Grid) isItem()     {}

// List is a display list: a canvas size, a background and the items in
// painting order (later items cover earlier ones).
//
// Base, when above zero, says that the first Base items are a base layer:
// they lie under every later item and change seldom from frame to frame
// (the overlay's static connections, against the shortcuts and messages
// that change over them every frame). A backend that paints frame after frame may keep the base
// painted in a layer of its own and repaint a changed region from it
// instead of painting every base item crossing the region again; one that
// paints a list once ignores it. The picture is the same either way. A
// Base past the end of Items means them all.
type List struct {
	W, H       float64
	Background color.RGBA
	Items      []Item
	Base       int
}

// Add appends items in painting order.
//
// Not inlined: the scenes call it at some sixty places, and each inlined
// variadic append (with its growth path) was code in the browser's wasm:
// 151 kB of it, 33 kB gzip -9 (2026-11-25). A call per item costs
// nothing beside laying the item out.
//
//go:noinline
func (l *List) Add(items ...Item) {
	l.Items = append(l.Items, items...)
}

// Dashes cuts the segment from a to b into the pieces a dash pattern draws,
// so that every backend dashes the same way, including those whose line
// primitive has no dash support. The pattern starts afresh at a. With no
// usable pattern (nil, or no positive length) it returns the whole segment.
func Dashes(a, b Point, dash []float64) [][2]Point {
	total := 0.0
	for _, d := range dash {
		if d < 0 || math.IsNaN(d) || math.IsInf(d, 0) {
			return [][2]Point{{a, b}}
		}
		total += d
	}
	length := math.Hypot(b.X-a.X, b.Y-a.Y)
	if total == 0 || length == 0 {
		return [][2]Point{{a, b}}
	}
	// As in canvas setLineDash, an odd-length pattern repeats twice so that
	// drawn and skipped alternate on every cycle.
	if len(dash)%2 == 1 {
		dash = append(dash[:len(dash):len(dash)], dash...)
	}
	at := func(t float64) Point {
		return Point{a.X + (b.X-a.X)*t/length, a.Y + (b.Y-a.Y)*t/length}
	}
	var out [][2]Point
	for pos, i := 0.0, 0; pos < length; i = (i + 1) % len(dash) {
		end := min(pos+dash[i], length)
		if i%2 == 0 && end > pos {
			out = append(out, [2]Point{at(pos), at(end)})
		}
		pos = end
	}
	return out
}

// HeadLength is the arrow head length a backend should use.
func (a Arrow) HeadLength() float64 {
	if a.Head > 0 {
		return a.Head
	}
	return 4*a.StrokeWidth() + 4
}

// HeadPoints returns the arrow head triangle: the tip (To) and the two back
// corners. The head is as wide as it is long, with its base at right angles
// to the shaft. For a zero-length arrow all three points are To.
func (a Arrow) HeadPoints() [3]Point {
	dx, dy := a.To.X-a.From.X, a.To.Y-a.From.Y
	n := math.Hypot(dx, dy)
	if n == 0 {
		return [3]Point{a.To, a.To, a.To}
	}
	ux, uy := dx/n, dy/n
	h := a.HeadLength()
	bx, by := a.To.X-ux*h, a.To.Y-uy*h
	// The half-width is h/2 along the normal (-uy, ux).
	return [3]Point{
		a.To,
		{bx - uy*h/2, by + ux*h/2},
		{bx + uy*h/2, by - ux*h/2},
	}
}

// Shaft returns the part of the arrow a backend strokes: From up to the
// base of the head, so a wide stroke does not poke through the tip.
func (a Arrow) Shaft() Line {
	dx, dy := a.To.X-a.From.X, a.To.Y-a.From.Y
	n := math.Hypot(dx, dy)
	h := a.HeadLength()
	if n <= h {
		return Line{From: a.From, To: a.From, Style: a.Style}
	}
	return Line{From: a.From, To: Point{a.To.X - dx/n*h, a.To.Y - dy/n*h}, Style: a.Style}
}

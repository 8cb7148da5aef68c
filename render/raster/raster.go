package raster

import (
	"image"
	"image/color"
	"image/draw"
	"math"
	"sync"

	xfont "golang.org/x/image/font"
	"golang.org/x/image/vector"

	"commlab/internal/errf"
	"commlab/render"
)

// MaxSide is the largest image side, in pixels, that Bounds accepts: 16384
// keeps one frame under a gigabyte, and is more than a 4K slide at scale 4.
const MaxSide = 16384

// farAway bounds device coordinates: the rasteriser's fixed-point path holds
// about ±4 million pixels, and nothing legible lies beyond a few thousand, so
// a shape reaching past this is a layout bug and is skipped rather than
// drawn wrongly.
const farAway = 1 << 21

// Bounds is the pixel rectangle a list occupies at scale: ceil(W*scale) by
// ceil(H*scale), from the origin. It fails for a size or scale that is not
// finite and positive, or a side beyond MaxSide.
func Bounds(l render.List, scale float64) (image.Rectangle, error) {
	if !(scale > 0) || math.IsInf(scale, 0) {
		return image.Rectangle{}, errf.Errorf("raster: scale %v, want a finite number above 0", scale)
	}
	w, h := math.Ceil(l.W*scale), math.Ceil(l.H*scale)
	if !(w >= 1 && h >= 1) || w > MaxSide || h > MaxSide {
		return image.Rectangle{}, errf.Errorf("raster: a %vx%v list at scale %v is %vx%v pixels; want each side in [1, %d]", l.W, l.H, scale, w, h, MaxSide)
	}
	return image.Rect(0, 0, int(w), int(h)), nil
}

// Image paints l into a new image of Bounds(l, scale). For a list Bounds
// rejects it returns an empty image; EncodePNG and EncodeGIF report the
// error instead.
func Image(l render.List, scale float64) *image.RGBA {
	r, err := Bounds(l, scale)
	if err != nil {
		return image.NewRGBA(image.Rectangle{})
	}
	dst := image.NewRGBA(r)
	Draw(dst, l, scale)
	return dst
}

// pool lends Painters to the package-level functions, so repeated calls
// (frame after frame of a GIF) reuse buffers and faces.
var pool = sync.Pool{New: func() any { return new(Painter) }}

// Draw paints l over dst at scale (device pixels per scene pixel): first the
// background, then the items in order, each composited source-over.
func Draw(dst *image.RGBA, l render.List, scale float64) {
	p := pool.Get().(*Painter)
	p.Draw(dst, l, scale)
	pool.Put(p)
}

// Painter paints display lists. It keeps the rasteriser's buffers and the
// font faces (one per pixel size) between lists, so that painting frame
// after frame allocates little. A Painter must be used by one goroutine at a
// time; the zero value is ready to use.
type Painter struct {
	z      vector.Rasterizer
	mask   image.Alpha // the coverage of the shape being painted
	cols   []float64   // box's per-column coverage
	run    []byte      // box's row of opaque pixels
	path   path
	faces  map[faceKey]xfont.Face
	glyphs map[glyphKey]glyph

	// per Draw call
	dst     *image.RGBA
	surface image.Rectangle // dst's bounds, or the whole of what dst is a region of
	scale   float64
}

// maxFaces bounds the face cache: a scene uses a handful of sizes, so
// anything beyond this is churn, and the cache starts over.
const maxFaces = 32

type faceKey struct {
	size64 int32 // pixel size in 1/64 px
	bold   bool
}

// Draw paints l over dst at scale; see the package-level Draw.
func (p *Painter) Draw(dst *image.RGBA, l render.List, scale float64) {
	if dst == nil || !(scale > 0) || math.IsInf(scale, 0) {
		return
	}
	p.dst, p.surface, p.scale = dst, dst.Bounds(), scale
	defer func() { p.dst = nil }()
	if l.Background.A > 0 {
		// Go's draw has a fast path for a uniform colour over RGBA.
		draw.Draw(dst, dst.Bounds(), image.NewUniform(l.Background), image.Point{}, draw.Over)
	}
	p.items(l.Items, nil, image.Rectangle{})
}

// Repaint brings dst up to date with l, where dst holds the list last
// given to d, painted by Repaint at the same scale (or nothing, if d is
// new): only the regions d finds changed are cleared and painted again,
// which gives the pixels a clear and a Draw would. dst's bounds must start
// at the origin, as Image makes them; otherwise everything is repainted.
//
// It returns what it repainted, as Damage.Next does: the regions, or full.
func (p *Painter) Repaint(dst *image.RGBA, l render.List, scale float64, d *render.Damage) (regions []image.Rectangle, full bool) {
	if dst == nil || !(scale > 0) || math.IsInf(scale, 0) {
		return nil, false
	}
	// Its coverage sums start at each shape's box (paint), so a polyline
	// that grew changes its earlier pixels in their last bits.
	d.WholePolylines = true
	regions, full = d.Next(l, scale, dst.Bounds().Size())
	if full || dst.Bounds().Min != (image.Point{}) {
		draw.Draw(dst, dst.Bounds(), image.Transparent, image.Point{}, draw.Src)
		p.Draw(dst, l, scale)
		return nil, true
	}
	defer func() { p.dst = nil }()
	for _, r := range regions {
		sub := dst.SubImage(r).(*image.RGBA)
		draw.Draw(sub, r, image.NewUniform(l.Background), image.Point{}, draw.Src)
		p.dst, p.surface, p.scale = sub, dst.Bounds(), scale
		p.items(l.Items, d, r)
	}
	return regions, false
}

// items paints items in order; with d, only those whose bounds meet r.
func (p *Painter) items(items []render.Item, d *render.Damage, r image.Rectangle) {
	for i, it := range items {
		if d != nil && !d.Bounds(i).Overlaps(r) {
			continue
		}
		switch it := it.(type) {
		case render.Rect:
			p.rect(it)
		case render.Line:
			p.line(it.From, it.To, it.Style)
		case render.Polyline:
			p.polyline(it)
		case render.Arrow:
			p.arrow(it)
		case render.Circle:
			p.circle(it)
		case render.Text:
			p.text(it)
		case render.Grid:
			p.grid(it)
		}
	}
}

// dev converts a scene point to device pixels.
func (p *Painter) dev(q render.Point) vec { return vec{q.X * p.scale, q.Y * p.scale} }

func (p *Painter) rect(r render.Rect) {
	a, b := p.dev(r.Min), p.dev(r.Max)
	x0, x1 := math.Min(a.x, b.x), math.Max(a.x, b.x)
	y0, y1 := math.Min(a.y, b.y), math.Max(a.y, b.y)
	if r.Fill.A > 0 && x1 > x0 && y1 > y0 {
		p.box(box{x0, y0, x1, y1}, box{}, r.Fill)
	}
	if r.Stroke.A == 0 {
		return
	}
	h := r.StrokeWidth() * p.scale / 2
	if !dashed(r.Dash) {
		// A solid outline is the ring between the rectangle grown and
		// shrunk by half the width: mitred corners, as canvas strokeRect.
		var hole box
		if x1-x0 > 2*h && y1-y0 > 2*h {
			hole = box{x0 + h, y0 + h, x1 - h, y1 - h}
		}
		p.box(box{x0 - h, y0 - h, x1 + h, y1 + h}, hole, r.Stroke)
		return
	}
	// Dashed: each edge is cut on its own, clockwise from the top left as
	// canvas strokeRect runs; a dash that reaches a corner is carried on
	// by half the width, so corners stay square instead of notched.
	s := p.scale
	corners := [4]render.Point{
		{X: x0 / s, Y: y0 / s}, {X: x1 / s, Y: y0 / s}, {X: x1 / s, Y: y1 / s}, {X: x0 / s, Y: y1 / s},
	}
	for i := range corners {
		from, to := corners[i], corners[(i+1)%4]
		for _, d := range p.dashes(from, to, r.Dash) {
			p.path.segment(p.dev(d[0]), p.dev(d[1]), h, near(d[0], from), near(d[1], to))
		}
	}
	p.paint(r.Stroke)
}

func (p *Painter) line(from, to render.Point, st render.Style) {
	if st.Stroke.A == 0 {
		return
	}
	h := st.StrokeWidth() * p.scale / 2
	pieces := p.dashes(from, to, st.Dash)
	if len(pieces) == 1 && (from.X == to.X) != (from.Y == to.Y) {
		// A whole horizontal or vertical line (rules, ticks, lane
		// separators) is a box.
		a, b := p.dev(from), p.dev(to)
		if a.x == b.x {
			p.box(box{a.x - h, min(a.y, b.y), a.x + h, max(a.y, b.y)}, box{}, st.Stroke)
		} else {
			p.box(box{min(a.x, b.x), a.y - h, max(a.x, b.x), a.y + h}, box{}, st.Stroke)
		}
		return
	}
	for _, d := range pieces {
		p.path.segment(p.dev(d[0]), p.dev(d[1]), h, false, false)
	}
	p.paint(st.Stroke)
}

func (p *Painter) polyline(pl render.Polyline) {
	if pl.Stroke.A == 0 || len(pl.Points) < 2 {
		return
	}
	h := pl.StrokeWidth() * p.scale / 2
	// Where a drawn piece runs into a vertex and the next segment's first
	// piece leaves it, the two are joined with a miter (canvas's default
	// lineJoin), falling back to a bevel past canvas's miter limit of 10.
	joinable := false
	for i := 0; i+1 < len(pl.Points); i++ {
		a, b := pl.Points[i], pl.Points[i+1]
		pieces := p.dashes(a, b, pl.Dash)
		if joinable && len(pieces) > 0 && near(pieces[0][0], a) && i > 0 {
			p.path.join(p.dev(pl.Points[i-1]), p.dev(a), p.dev(b), h)
		}
		for _, d := range pieces {
			p.path.segment(p.dev(d[0]), p.dev(d[1]), h, false, false)
		}
		joinable = len(pieces) > 0 && near(pieces[len(pieces)-1][1], b) && (a != b)
	}
	p.paint(pl.Stroke)
}

func (p *Painter) arrow(a render.Arrow) {
	sh := a.Shaft()
	if sh.From != sh.To {
		p.line(sh.From, sh.To, sh.Style)
	}
	if a.Fill.A == 0 || a.From == a.To {
		return
	}
	hp := a.HeadPoints()
	p.path.polygon([]vec{p.dev(hp[0]), p.dev(hp[1]), p.dev(hp[2])}, +1)
	p.paint(a.Fill)
}

func (p *Painter) circle(c render.Circle) {
	if !(c.R > 0 && c.R*p.scale < farAway) {
		return
	}
	ctr, r := p.dev(c.Center), c.R*p.scale
	if c.Fill.A > 0 {
		p.path.arc(ctr, r, 0, 0, 2*math.Pi)
		p.paint(c.Fill)
	}
	if c.Stroke.A == 0 {
		return
	}
	h := c.StrokeWidth() * p.scale / 2
	inner := max(r-h, 0)
	if !dashed(c.Dash) {
		p.path.arc(ctr, r+h, inner, 0, 2*math.Pi)
		p.paint(c.Stroke)
		return
	}
	// The circumference, unrolled from three o'clock clockwise on screen
	// (canvas arc's start and direction with y down), is cut by Dashes like
	// any segment; each piece becomes a sector of the ring.
	circ := 2 * math.Pi * c.R
	for _, d := range p.dashes(render.Point{}, render.Point{X: circ}, c.Dash) {
		p.path.arc(ctr, r+h, inner, d[0].X/c.R, d[1].X/c.R)
	}
	p.paint(c.Stroke)
}

// paint fills the path built so far with c (premultiplied, source-over) and
// clears it. Only the path's bounding box is rasterised, so a small shape
// costs a small area however large the canvas.
func (p *Painter) paint(c color.RGBA) {
	defer p.path.reset()
	pts := p.path.pts
	if len(pts) == 0 {
		return
	}
	minX, minY, maxX, maxY := math.Inf(1), math.Inf(1), math.Inf(-1), math.Inf(-1)
	for _, q := range pts {
		if !(math.Abs(q.x) < farAway && math.Abs(q.y) < farAway) {
			return // not finite, or far beyond any canvas: see farAway
		}
		minX, maxX = math.Min(minX, q.x), math.Max(maxX, q.x)
		minY, maxY = math.Min(minY, q.y), math.Max(maxY, q.y)
	}
	// The rasteriser covers the shape within the whole surface, even when
	// only a region of it is being repainted: its coverage sums depend on
	// where its box starts, and a region must get the very pixels a full
	// paint gives it.
	box := image.Rect(int(math.Floor(minX)), int(math.Floor(minY)), int(math.Ceil(maxX)), int(math.Ceil(maxY))).Intersect(p.surface)
	vis := box.Intersect(p.dst.Bounds())
	if vis.Empty() {
		return
	}
	w, h := box.Dx(), box.Dy()
	p.z.Reset(w, h)
	ox, oy := float64(box.Min.X), float64(box.Min.Y)
	start := 0
	for _, end := range p.path.ends {
		p.z.MoveTo(float32(pts[start].x-ox), float32(pts[start].y-oy))
		for _, q := range pts[start+1 : end] {
			p.z.LineTo(float32(q.x-ox), float32(q.y-oy))
		}
		p.z.ClosePath()
		start = end
	}
	// Coverage goes into an 8-bit mask first (x/image/vector's fast path
	// for an opaque source into the whole of an Alpha image), and is then
	// composited here, skipping uncovered pixels and writing covered ones
	// of an opaque colour straight through: most of a shape's bounding box
	// is one or the other, and x/image/vector's own RGBA path blends every
	// pixel of the box.
	if n := w * h; cap(p.mask.Pix) < n {
		p.mask.Pix = make([]uint8, n)
	} else {
		p.mask.Pix = p.mask.Pix[:n]
	}
	p.mask.Stride, p.mask.Rect = w, image.Rect(0, 0, w, h)
	p.z.DrawOp = draw.Src
	p.z.Draw(&p.mask, p.mask.Rect, image.Opaque, image.Point{})
	for y := vis.Min.Y; y < vis.Max.Y; y++ {
		row := p.mask.Pix[(y-box.Min.Y)*w+vis.Min.X-box.Min.X : (y-box.Min.Y)*w+vis.Max.X-box.Min.X]
		pix := p.dst.Pix[p.dst.PixOffset(vis.Min.X, y):]
		for x, m := range row {
			switch {
			case m == 0:
			case m == 0xff && c.A == 0xff:
				px := pix[4*x : 4*x+4 : 4*x+4]
				px[0], px[1], px[2], px[3] = c.R, c.G, c.B, 0xff
			default:
				overMasked(pix[4*x:4*x+4:4*x+4], c, uint32(m))
			}
		}
	}
}

// box is an axis-aligned rectangle in device pixels, x0 <= x1, y0 <= y1.
type box struct{ x0, y0, x1, y1 float64 }

// cover is how much of the pixel span [i, i+1) lies within [lo, hi).
func cover(i int, lo, hi float64) float64 {
	return max(0, min(float64(i+1), hi)-max(float64(i), lo))
}

// box paints the axis-aligned rectangle b less the hole (a zero box for
// none; it must lie inside b) in c, with exact area coverage: the same
// picture the rasteriser makes of these shapes, without rasterising them
// (panels, spans, rectangle outlines and rules are most of a frame's
// area).
func (p *Painter) box(b, hole box, c color.RGBA) {
	for _, v := range [4]float64{b.x0, b.y0, b.x1, b.y1} {
		if !(math.Abs(v) < farAway) {
			return
		}
	}
	bounds := p.dst.Bounds()
	px0, px1 := max(int(math.Floor(b.x0)), bounds.Min.X), min(int(math.Ceil(b.x1)), bounds.Max.X)
	py0, py1 := max(int(math.Floor(b.y0)), bounds.Min.Y), min(int(math.Ceil(b.y1)), bounds.Max.Y)
	if px0 >= px1 || py0 >= py1 {
		return
	}
	n := px1 - px0
	if cap(p.cols) < 2*n {
		p.cols = make([]float64, 2*n)
	}
	cx, hx := p.cols[:n], p.cols[n:2*n]
	full0, full1 := n, 0 // the columns b covers fully
	for i := range n {
		cx[i], hx[i] = cover(px0+i, b.x0, b.x1), cover(px0+i, hole.x0, hole.x1)
		if cx[i] == 1 {
			full0, full1 = min(full0, i), i+1
		}
	}
	// An opaque row of the colour, copied over the fully covered middle of
	// fully covered rows: most of a panel's pixels.
	var run []byte
	if c.A == 0xff && full1 > full0 {
		if cap(p.run) < 4*(full1-full0) {
			p.run = make([]byte, 4*(full1-full0))
		}
		run = p.run[:4*(full1-full0)]
		for i := 0; i < len(run); i += 4 {
			run[i], run[i+1], run[i+2], run[i+3] = c.R, c.G, c.B, 0xff
		}
	}
	// Columns the hole covers fully.
	hx0, hx1 := max(int(math.Ceil(hole.x0))-px0, 0), min(int(math.Floor(hole.x1))-px0, n)
	for y := py0; y < py1; y++ {
		cy, hy := cover(y, b.y0, b.y1), cover(y, hole.y0, hole.y1)
		pix := p.dst.Pix[p.dst.PixOffset(px0, y):]
		lo, hi := n, n // a span of columns to skip (hole) or copy (run)
		switch {
		case hy == 1 && hx1 > hx0:
			lo, hi = hx0, hx1
		case cy == 1 && hy == 0 && run != nil:
			lo, hi = full0, full1
			copy(pix[4*lo:4*hi], run)
		}
		for i := 0; i < n; i++ {
			if i == lo {
				i = hi - 1
				continue
			}
			m := uint32((cx[i]*cy-hx[i]*hy)*255 + 0.5)
			switch {
			case m == 0:
			case m >= 0xff && c.A == 0xff:
				px := pix[4*i : 4*i+4 : 4*i+4]
				px[0], px[1], px[2], px[3] = c.R, c.G, c.B, 0xff
			default:
				overMasked(pix[4*i:4*i+4:4*i+4], c, min(m, 0xff))
			}
		}
	}
}

// overMasked composites the premultiplied colour c, at coverage m/255, over
// one RGBA pixel.
func overMasked(px []byte, c color.RGBA, m uint32) {
	const full = 255 * 255
	k := full - uint32(c.A)*m // what is left of the pixel below, over 255²
	px[0] = uint8((uint32(c.R)*m*255 + uint32(px[0])*k + full/2) / full)
	px[1] = uint8((uint32(c.G)*m*255 + uint32(px[1])*k + full/2) / full)
	px[2] = uint8((uint32(c.B)*m*255 + uint32(px[2])*k + full/2) / full)
	px[3] = uint8((uint32(c.A)*m*255 + uint32(px[3])*k + full/2) / full)
}

func (p *Painter) grid(g render.Grid) {
	if g.Cols <= 0 || g.Rows <= 0 || len(g.Cells) != g.Cols*g.Rows {
		return
	}
	a, b := p.dev(g.Min), p.dev(g.Max)
	if !(b.x > a.x && b.y > a.y) || !(math.Abs(a.x) < farAway && math.Abs(a.y) < farAway && math.Abs(b.x) < farAway && math.Abs(b.y) < farAway) {
		return
	}
	// A pixel belongs to the cell under its centre: pixels x with
	// a.x <= x+0.5 < b.x, likewise in y.
	bounds := p.dst.Bounds()
	px0, px1 := max(int(math.Ceil(a.x-0.5)), bounds.Min.X), min(int(math.Ceil(b.x-0.5)), bounds.Max.X)
	py0, py1 := max(int(math.Ceil(a.y-0.5)), bounds.Min.Y), min(int(math.Ceil(b.y-0.5)), bounds.Max.Y)
	if px0 >= px1 || py0 >= py1 {
		return
	}
	cw, ch := (b.x-a.x)/float64(g.Cols), (b.y-a.y)/float64(g.Rows)
	col := make([]int, px1-px0)
	for x := px0; x < px1; x++ {
		col[x-px0] = min(int((float64(x)+0.5-a.x)/cw), g.Cols-1)
	}
	for y := py0; y < py1; y++ {
		row := min(int((float64(y)+0.5-a.y)/ch), g.Rows-1)
		cells := g.Cells[row*g.Cols : (row+1)*g.Cols]
		pix := p.dst.Pix[p.dst.PixOffset(px0, y):]
		for i, c := range col {
			over(pix[4*i:4*i+4:4*i+4], cells[c])
		}
	}
}

// over composites the premultiplied colour c over one RGBA pixel.
func over(px []byte, c color.RGBA) {
	switch c.A {
	case 0:
		return
	case 0xff:
		px[0], px[1], px[2], px[3] = c.R, c.G, c.B, c.A
		return
	}
	k := 255 - uint32(c.A)
	px[0] = c.R + uint8((uint32(px[0])*k+127)/255)
	px[1] = c.G + uint8((uint32(px[1])*k+127)/255)
	px[2] = c.B + uint8((uint32(px[2])*k+127)/255)
	px[3] = c.A + uint8((uint32(px[3])*k+127)/255)
}

// maxDashCycles bounds how often a dash pattern may repeat along one
// segment. Past it the dashes are far below a pixel (or the segment is far
// off the canvas) and the stroke is drawn solid, which is what it looks
// like anyway, instead of cutting millions of invisible pieces.
const maxDashCycles = 1 << 16

// dashes is render.Dashes for a segment that can be drawn: none for a
// segment with an end that is not finite or lies beyond farAway, and the
// whole segment for a pattern finer than maxDashCycles allows.
func (p *Painter) dashes(a, b render.Point, dash []float64) [][2]render.Point {
	for _, v := range [4]float64{a.X, a.Y, b.X, b.Y} {
		if !(math.Abs(v*p.scale) < farAway) {
			return nil
		}
	}
	if dashed(dash) {
		total := 0.0
		for _, d := range dash {
			total += d
		}
		if math.Hypot(b.X-a.X, b.Y-a.Y)/total > maxDashCycles {
			return [][2]render.Point{{a, b}}
		}
	}
	return render.Dashes(a, b, dash)
}

// dashed says whether render.Dashes would cut with this pattern (the same
// test it makes): every length finite and non-negative, some positive.
func dashed(dash []float64) bool {
	total := 0.0
	for _, d := range dash {
		if !(d >= 0) || math.IsInf(d, 0) {
			return false
		}
		total += d
	}
	return total > 0
}

// near says whether two points Dashes computed are the same point, up to
// the rounding of its arithmetic.
func near(a, b render.Point) bool {
	return math.Abs(a.X-b.X) <= 1e-9*(1+math.Abs(b.X)) && math.Abs(a.Y-b.Y) <= 1e-9*(1+math.Abs(b.Y))
}

//go:build js && wasm

package main

import (
	"image"
	"image/color"
	"math"

	"github.com/hajimehoshi/ebiten/v2"

	"commlab/render"
)

// painter is the Ebiten backend of render.List.
//
// Speed comes from how few draw calls a frame costs: the browser's WebGL
// may be software (SwiftShader, in the browser tests and on machines
// without a GPU), where every call and every offscreen pass counts. So
// every shape and every glyph is a set of triangles drawn from one source
// image, the glyph atlas, whose corner is a white block for shapes: Ebiten
// merges consecutive DrawTriangles with the same source into one call. Only
// a heat map (render.Grid) has its own image and breaks the batch.
//
// And from how few pixels: a frame repaints only the regions that changed
// since the last (render.Damage), on a screen that keeps its pixels.
//
// Edges are antialiased by feathering (a half-pixel ramp on either side of
// every edge: vertex alpha for fills and circles, the atlas's profile rows
// for strokes, see dash.go) rather than with DrawTrianglesOptions
// .AntiAlias, which renders through an offscreen buffer on each call.
type painter struct {
	atlas    *glyphAtlas
	atlasImg *ebiten.Image
	upload   []byte

	vs    []ebiten.Vertex
	is    []uint16
	quads []quad
	opts  ebiten.DrawTrianglesOptions
	dst   *ebiten.Image
	scale float32

	grids   []*ebiten.Image // one per Grid item, by order in the list, reused
	gridBuf []byte
	nGrid   int      // Grid items met so far in this region's pass
	gridGen []uint64 // the Paint that last uploaded each grid's cells
	gen     uint64   // Paints so far

	damage render.Damage
	whole  []image.Rectangle

	// The base layer of a list that has one (render.List.Base): its
	// pixels, the damage that keeps them up to date, and in how many
	// Paints it changed (the page's state reports it as baseDraws, so a
	// measurement can tell a base that keeps changing).
	base       *ebiten.Image
	baseDamage render.Damage
	baseDraws  int64
	// clip is the region being painted, in device pixels: strokes cull
	// their segments against it (see visible).
	clip [4]float32
}

func newPainter() *painter {
	p := &painter{atlas: newGlyphAtlas()}
	// Unmanaged: its own texture, so that Ebiten never moves it between its
	// internal atlases while glyphs are being added.
	p.atlasImg = ebiten.NewImageWithOptions(image.Rect(0, 0, atlasSize, atlasSize), &ebiten.NewImageOptions{Unmanaged: true})
	p.opts.ColorScaleMode = ebiten.ColorScaleModePremultipliedAlpha
	// Linear, for the strokes' profile and dash strips (dash.go). Glyphs
	// and the white block are sampled at texel centres, where linear
	// filtering gives the texel itself.
	p.opts.Filter = ebiten.FilterLinear
	return p
}

// Paint brings dst up to date with l at scale device pixels per CSS pixel.
// The screen keeps its pixels between frames (main turns Ebiten's clearing
// off), so only the regions damage finds changed since the last Paint are
// filled and painted again, each through a sub-image that clips to it. An
// animation frame changes a few messages and labels; repainting the whole
// canvas cost half of a frame's time in software WebGL.
//
// A list with a base layer (render.List.Base) keeps the base in an image
// of its own, brought up to date the same way; a changed region of the
// screen is then a copy of the base's pixels there and the items above
// it. The overlay's static connections span the canvas and cross every
// region a moving message or a changing shortcut damages: painting them
// again in each region cost the scene 18 frames/s against 21-22 from the
// base.
func (p *painter) Paint(dst *ebiten.Image, l render.List, scale float64) {
	p.scale = float32(scale)
	p.gen++
	if l.Base <= 0 {
		if p.base != nil {
			p.base.Deallocate()
			p.base = nil
		}
		p.layer(dst, l, 0, &p.damage, nil)
		return
	}
	from := min(l.Base, len(l.Items))
	size := dst.Bounds().Size()
	if p.base == nil || p.base.Bounds().Size() != size {
		if p.base != nil {
			p.base.Deallocate()
		}
		// Unmanaged, so that Ebiten keeps it out of its atlases: the
		// copies sample it texel for texel.
		p.base = ebiten.NewImageWithOptions(image.Rectangle{Max: size}, &ebiten.NewImageOptions{Unmanaged: true})
		p.baseDamage.Reset()
	}
	base := l
	base.Items, base.Base = l.Items[:from], 0
	if p.layer(p.base, base, 0, &p.baseDamage, nil) > 0 {
		p.baseDraws++
	}
	p.layer(dst, l, from, &p.damage, p.base)
}

// layer brings dst up to date with the items of l from index from on,
// painted over the background or, when under is not nil, over under's
// pixels (the base layer, which holds l's items before from). It returns
// how many regions it repainted.
func (p *painter) layer(dst *ebiten.Image, l render.List, from int, d *render.Damage, under *ebiten.Image) int {
	regions, full := d.Next(l, float64(p.scale), dst.Bounds().Size())
	if full {
		regions = append(p.whole[:0], dst.Bounds())
	}
	if under != nil {
		p.copyFrom(dst, under, regions)
	} else {
		p.clear(dst, regions, l.Background)
	}
	grids := 0 // grids keep their images by order in the whole list
	for _, it := range l.Items[:from] {
		if _, ok := it.(render.Grid); ok {
			grids++
		}
	}
	for _, r := range regions {
		p.dst = dst.SubImage(r).(*ebiten.Image)
		p.clip = [4]float32{float32(r.Min.X), float32(r.Min.Y), float32(r.Max.X), float32(r.Max.Y)}
		p.nGrid = grids
		for i := from; i < len(l.Items); i++ {
			it := l.Items[i]
			if _, ok := it.(render.Grid); ok {
				p.nGrid++
			}
			if full || d.Bounds(i).Overlaps(r) {
				p.item(it)
			}
		}
		p.flush()
	}
	return len(regions)
}

// copyFrom replaces the regions of dst with src's pixels there (same size,
// texel for texel): one draw call for all of them.
func (p *painter) copyFrom(dst, src *ebiten.Image, regions []image.Rectangle) {
	p.flush() // whatever is queued samples the atlas
	white := rgba{1, 1, 1, 1}
	opts := ebiten.DrawTrianglesOptions{ColorScaleMode: ebiten.ColorScaleModePremultipliedAlpha, Blend: ebiten.BlendCopy}
	for k, r := range regions {
		x0, y0, x1, y1 := float32(r.Min.X), float32(r.Min.Y), float32(r.Max.X), float32(r.Max.Y)
		p.quadIdx(p.vertexUV(x0, y0, x0, y0, white), p.vertexUV(x1, y0, x1, y0, white),
			p.vertexUV(x1, y1, x1, y1, white), p.vertexUV(x0, y1, x0, y1, white))
		if k == len(regions)-1 || len(p.vs)+4 > math.MaxUint16 {
			dst.DrawTriangles(p.vs, p.is, src, &opts)
			p.vs, p.is = p.vs[:0], p.is[:0]
		}
	}
}

// clear fills the regions with the background before any is painted. An
// opaque background is drawn as one batch of quads (the same pixels a Fill
// gives), so that the regions' own draws, all from the glyph atlas onto
// one screen, merge into one draw call however many regions there are: a
// Fill per region would split the batch at every region.
func (p *painter) clear(dst *ebiten.Image, regions []image.Rectangle, bg color.RGBA) {
	if bg.A != 255 {
		for _, r := range regions {
			dst.SubImage(r).(*ebiten.Image).Fill(bg)
		}
		return
	}
	p.dst = dst
	b := dst.Bounds()
	p.clip = [4]float32{float32(b.Min.X), float32(b.Min.Y), float32(b.Max.X), float32(b.Max.Y)}
	for _, r := range regions {
		p.fillRect(float32(r.Min.X), float32(r.Min.Y), float32(r.Max.X), float32(r.Max.Y), bg)
	}
	// Opaque quads replace what they cover: a copy, which software WebGL
	// does without reading the canvas first.
	p.opts.Blend = ebiten.BlendCopy
	p.flush()
	p.opts.Blend = ebiten.Blend{} // back to the default, source over
}

func (p *painter) item(it render.Item) {
	switch it := it.(type) {
	case render.Rect:
		p.rect(it)
	case render.Line:
		if it.Stroke.A != 0 {
			p.stroke(it.From, it.To, it.Style)
		}
	case render.Polyline:
		if it.Stroke.A == 0 {
			break
		}
		// Dashes restart at every vertex; the scenes dash only short
		// guides and arcs, where that does not show.
		for k := 1; k < len(it.Points); k++ {
			p.stroke(it.Points[k-1], it.Points[k], it.Style)
		}
	case render.Arrow:
		if it.Stroke.A != 0 {
			sh := it.Shaft()
			p.stroke(sh.From, sh.To, it.Style)
		}
		head := it.Fill
		if head.A == 0 {
			head = it.Stroke
		}
		if head.A != 0 {
			p.triangle(it.HeadPoints(), head)
		}
	case render.Circle:
		p.circle(it)
	case render.Text:
		p.text(it)
	case render.Grid:
		p.grid(it, p.nGrid-1)
	}
}

// flush uploads new glyphs and draws the queued triangles.
func (p *painter) flush() {
	for _, r := range p.atlas.Dirty() {
		p.upload = p.atlas.Pixels(r, p.upload)
		p.atlasImg.SubImage(r).(*ebiten.Image).WritePixels(p.upload)
	}
	if len(p.is) > 0 {
		p.dst.DrawTriangles(p.vs, p.is, p.atlasImg, &p.opts)
	}
	p.vs, p.is = p.vs[:0], p.is[:0]
}

// reserve makes room for n more vertices in this batch (indices are 16
// bits).
//
//go:noinline
func (p *painter) reserve(n int) {
	if len(p.vs)+n > math.MaxUint16 {
		p.flush()
	}
}

// rgba is a premultiplied colour scaled by coverage a.
type rgba [4]float32

func premul(c color.RGBA, a float32) rgba {
	return rgba{float32(c.R) / 255 * a, float32(c.G) / 255 * a, float32(c.B) / 255 * a, float32(c.A) / 255 * a}
}

// vertex appends a vertex sampling the white block and returns its index.
func (p *painter) vertex(x, y float32, c rgba) uint16 {
	return p.vertexUV(x, y, float32(whiteTexel.X), float32(whiteTexel.Y), c)
}

// vertexUV is not inlined: its append of a vertex, inlined at each of the
// painter's forty-odd call sites, was 17.5 kB of the wasm's code (4 kB
// gzip -9, and quadIdx's 2 kB more), for a call that costs next to
// nothing beside the triangles it feeds.
//
//go:noinline
func (p *painter) vertexUV(x, y, u, v float32, c rgba) uint16 {
	p.vs = append(p.vs, ebiten.Vertex{DstX: x, DstY: y, SrcX: u, SrcY: v, ColorR: c[0], ColorG: c[1], ColorB: c[2], ColorA: c[3]})
	return uint16(len(p.vs) - 1)
}

//go:noinline
func (p *painter) quadIdx(a, b, c, d uint16) {
	p.is = append(p.is, a, b, c, a, c, d)
}

func (p *painter) pt(q render.Point) (float32, float32) {
	return float32(q.X) * p.scale, float32(q.Y) * p.scale
}

func (p *painter) rect(r render.Rect) {
	x0, y0 := p.pt(r.Min)
	x1, y1 := p.pt(r.Max)
	if x1 < x0 {
		x0, x1 = x1, x0
	}
	if y1 < y0 {
		y0, y1 = y1, y0
	}
	solid := r.Stroke.A != 0 && len(r.Dash) == 0
	if solid && r.Fill.A == 255 && r.Stroke.A == 255 {
		// An opaque box with an opaque outline: the outline's outer
		// rectangle, then the fill inside it (four triangles, not ten).
		ox0, oy0, ox1, oy1, ix0, iy0, ix1, iy1, hole := frame(x0, y0, x1, y1, float32(r.StrokeWidth())*p.scale)
		p.fillRect(ox0, oy0, ox1, oy1, r.Stroke)
		if hole {
			p.fillRect(ix0, iy0, ix1, iy1, r.Fill)
		}
		return
	}
	if r.Fill.A != 0 {
		p.fillRect(x0, y0, x1, y1, r.Fill)
	}
	if r.Stroke.A == 0 {
		return
	}
	if len(r.Dash) > 0 {
		c := [4]render.Point{r.Min, {X: r.Max.X, Y: r.Min.Y}, r.Max, {X: r.Min.X, Y: r.Max.Y}}
		for i := range c {
			p.stroke(c[i], c[(i+1)%4], r.Style)
		}
		return
	}
	p.frameRect(x0, y0, x1, y1, float32(r.StrokeWidth())*p.scale, r.Stroke)
}

// snap rounds to the nearest device pixel edge.
//
//go:noinline
func snap(x float32) float32 { return float32(math.Round(float64(x))) }

// Axis-aligned rectangles and lines are snapped to whole device pixels:
// that keeps boxes and rules crisp, and costs two triangles a fill and
// eight an outline, against ten and twenty-four feathered. (Software WebGL
// pays per triangle, and a butterfly at P = 64 has some 800 boxes.) Only a
// rectangle that snapping would erase, being thinner than a pixel, is
// drawn feathered at its coverage, so that a short jitter window still
// shows.

// fillRect fills an axis-aligned rectangle given in device pixels.
func (p *painter) fillRect(x0, y0, x1, y1 float32, c color.RGBA) {
	if x1-x0 <= 0 || y1-y0 <= 0 {
		return
	}
	sx0, sy0, sx1, sy1 := snap(x0), snap(y0), snap(x1), snap(y1)
	if sx1 > sx0 && sy1 > sy0 {
		p.reserve(4)
		col := premul(c, 1)
		p.quadIdx(p.vertex(sx0, sy0, col), p.vertex(sx1, sy0, col), p.vertex(sx1, sy1, col), p.vertex(sx0, sy1, col))
		return
	}
	p.featherRect(x0, y0, x1, y1, c)
}

// frameRect strokes the outline of an axis-aligned rectangle (device
// pixels) with width w centred on its edges: a ring between the snapped
// outer and inner rectangles, at least a pixel thick.
func (p *painter) frameRect(x0, y0, x1, y1, w float32, c color.RGBA) {
	ox0, oy0, ox1, oy1, ix0, iy0, ix1, iy1, hole := frame(x0, y0, x1, y1, w)
	if !hole {
		p.fillRect(ox0, oy0, ox1, oy1, c) // too small for a hole
		return
	}
	col := premul(c, 1)
	p.reserve(8)
	o0, o1, o2, o3 := p.vertex(ox0, oy0, col), p.vertex(ox1, oy0, col), p.vertex(ox1, oy1, col), p.vertex(ox0, oy1, col)
	i0, i1, i2, i3 := p.vertex(ix0, iy0, col), p.vertex(ix1, iy0, col), p.vertex(ix1, iy1, col), p.vertex(ix0, iy1, col)
	p.quadIdx(o0, o1, i1, i0)
	p.quadIdx(o1, o2, i2, i1)
	p.quadIdx(o2, o3, i3, i2)
	p.quadIdx(o3, o0, i0, i3)
}

// frame returns the snapped outer and inner rectangles of an outline of
// width w on the rectangle x0..x1, y0..y1 (device pixels), and whether the
// inner one is not empty.
func frame(x0, y0, x1, y1, w float32) (ox0, oy0, ox1, oy1, ix0, iy0, ix1, iy1 float32, hole bool) {
	h := w / 2
	ox0, oy0, ox1, oy1 = snap(x0-h), snap(y0-h), snap(x1+h), snap(y1+h)
	if ox1 <= ox0 {
		ox1 = ox0 + 1
	}
	if oy1 <= oy0 {
		oy1 = oy0 + 1
	}
	ix0, iy0 = max(snap(x0+h), ox0+1), max(snap(y0+h), oy0+1)
	ix1, iy1 = min(snap(x1-h), ox1-1), min(snap(y1-h), oy1-1)
	return ox0, oy0, ox1, oy1, ix0, iy0, ix1, iy1, ix1 > ix0 && iy1 > iy0
}

// featherRect fills a rectangle thinner than a pixel (device pixels):
// its edges ramp over a pixel, and a side under a pixel long becomes a
// pixel-wide ramp at its coverage.
func (p *painter) featherRect(x0, y0, x1, y1 float32, c color.RGBA) {
	inner := func(lo, hi float32) (float32, float32, float32) {
		if hi-lo >= 1 {
			return lo + 0.5, hi - 0.5, 1
		}
		m := (lo + hi) / 2
		return m, m, hi - lo
	}
	ix0, ix1, ax := inner(x0, x1)
	iy0, iy1, ay := inner(y0, y1)
	in, out := premul(c, ax*ay), rgba{}
	p.reserve(8)
	o0, o1, o2, o3 := p.vertex(x0-0.5, y0-0.5, out), p.vertex(x1+0.5, y0-0.5, out), p.vertex(x1+0.5, y1+0.5, out), p.vertex(x0-0.5, y1+0.5, out)
	i0, i1, i2, i3 := p.vertex(ix0, iy0, in), p.vertex(ix1, iy0, in), p.vertex(ix1, iy1, in), p.vertex(ix0, iy1, in)
	p.quadIdx(i0, i1, i2, i3)
	p.quadIdx(o0, o1, i1, i0)
	p.quadIdx(o1, o2, i2, i1)
	p.quadIdx(o2, o3, i3, i2)
	p.quadIdx(o3, o0, i0, i3)
}

// stroke draws a segment in scene pixels with the style's width and dashes.
func (p *painter) stroke(a, b render.Point, st render.Style) {
	w := float32(st.StrokeWidth()) * p.scale
	ax, ay := p.pt(a)
	bx, by := p.pt(b)
	if !p.visible(ax, ay, bx, by, w) {
		return
	}
	// A diagonal dashed stroke from a dash strip; an axis-aligned one is
	// cut into dashes below, each a snapped, crisp rectangle.
	if len(st.Dash) > 0 && ax != bx && ay != by {
		if ds, ok := p.strip(st.Dash); ok {
			p.stroked(ax, ay, bx, by, w, st.Stroke, ds)
			return
		}
	}
	for _, seg := range render.Dashes(a, b, st.Dash) {
		x0, y0 := p.pt(seg[0])
		x1, y1 := p.pt(seg[1])
		if p.visible(x0, y0, x1, y1, w) {
			p.segment(x0, y0, x1, y1, w, st.Stroke)
		}
	}
}

// visible reports whether a stroke of width w from (x0, y0) to (x1, y1)
// (device pixels) can touch the region being painted. A damaged region is
// small, but the curves crossing it (the overlay's arcs span the canvas)
// are painted whole; their pieces outside it would only be clipped, and
// software WebGL pays for every triangle it clips. The margin covers the
// half width, the half-pixel feather and the snapping of axis-aligned
// strokes, so a culled piece would not have changed a pixel.
func (p *painter) visible(x0, y0, x1, y1, w float32) bool {
	m := w/2 + 2
	return min(x0, x1)-m < p.clip[2] && max(x0, x1)+m > p.clip[0] &&
		min(y0, y1)-m < p.clip[3] && max(y0, y1)+m > p.clip[1]
}

// segment draws a straight stroke of width w in device pixels with butt
// ends: an axis-aligned one as a snapped rectangle, any other feathered
// along its sides (stroked).
func (p *painter) segment(x0, y0, x1, y1, w float32, c color.RGBA) {
	dx, dy := x1-x0, y1-y0
	n := float32(math.Hypot(float64(dx), float64(dy)))
	if n == 0 {
		return
	}
	if dx == 0 || dy == 0 {
		// A rule or an axis: a snapped rectangle, w wide across.
		h := w / 2
		if dy == 0 {
			p.fillRect(min(x0, x1), y0-h, max(x0, x1), y0+h, c)
		} else {
			p.fillRect(x0-h, min(y0, y1), x0+h, max(y0, y1), c)
		}
		return
	}
	p.stroked(x0, y0, x1, y1, w, c, dashStrip{x0: profileU, v0: profileV0})
}

// strip returns the atlas's strip for a dash pattern in scene pixels,
// emptying a full atlas as text does.
func (p *painter) strip(dash []float64) (dashStrip, bool) {
	ds, ok, full := p.atlas.Dash(dash, float64(p.scale))
	if full {
		p.flush()
		p.atlas.Reset()
		ds, ok, _ = p.atlas.Dash(dash, float64(p.scale))
	}
	return ds, ok
}

// stroked draws a diagonal stroke of width w (device pixels) as one quad
// whose coverage across comes from the atlas's profile rows (dash.go): a
// tent, full colour on the centre line, at the stroke's coverage when it
// is thinner than a pixel, nothing half a pixel beyond either side. Along
// it, ds gives the texels: a plain column (span 0) for a solid stroke, or
// a dash strip whose pattern starts afresh at (x0, y0), as render.Dashes
// starts it; a stroke longer than the strip takes one stretch of whole
// periods after another.
func (p *painter) stroked(x0, y0, x1, y1, w float32, c color.RGBA, ds dashStrip) {
	dx, dy := x1-x0, y1-y0
	n := float32(math.Hypot(float64(dx), float64(dy)))
	if n == 0 {
		return
	}
	nx, ny := -dy/n*(w/2+0.5), dx/n*(w/2+0.5) // the normal, to the feather's edge
	col := premul(c, min(w, 1))
	length := n * dashTexels // in texels of a strip
	step := ds.span
	if step == 0 {
		step = length // solid: one stretch
	}
	for from := float32(0); from < length; from += step {
		to := min(from+step, length)
		sx, sy := x0+dx*from/length, y0+dy*from/length
		ex, ey := x0+dx*to/length, y0+dy*to/length
		u0, u1 := ds.x0, ds.x0
		if ds.span > 0 {
			u1 += to - from
		}
		p.reserve(4)
		p.quadIdx(
			p.vertexUV(sx-nx, sy-ny, u0, ds.v0, col),
			p.vertexUV(ex-nx, ey-ny, u1, ds.v0, col),
			p.vertexUV(ex+nx, ey+ny, u1, ds.v0+2, col),
			p.vertexUV(sx+nx, sy+ny, u0, ds.v0+2, col),
		)
	}
}

// triangle fills an arrow head: one triangle, not feathered (a head is
// small and its colour is that of the feathered shaft it sits on; seven
// triangles each would double an arrow's cost).
func (p *painter) triangle(t [3]render.Point, c color.RGBA) {
	col := premul(c, 1)
	p.reserve(3)
	a := p.vertex(float32(t[0].X)*p.scale, float32(t[0].Y)*p.scale, col)
	b := p.vertex(float32(t[1].X)*p.scale, float32(t[1].Y)*p.scale, col)
	d := p.vertex(float32(t[2].X)*p.scale, float32(t[2].Y)*p.scale, col)
	p.is = append(p.is, a, b, d)
}

// circleSegments is how many straight pieces a circle of radius r device
// pixels is drawn with: about one every 3 pixels of circumference.
func circleSegments(r float32) int {
	return min(max(int(2*math.Pi*float64(r)/3), 12), 180)
}

func (p *painter) circle(c render.Circle) {
	cx, cy := p.pt(c.Center)
	r := float32(c.R) * p.scale
	if r <= 0 {
		return
	}
	n := circleSegments(r + float32(c.StrokeWidth())*p.scale/2)
	ring := func(rad []float32, cols []rgba, fillCentre bool) {
		p.reserve(n*len(rad) + 1)
		base := uint16(len(p.vs))
		for i := range n {
			s, co := math.Sincos(2 * math.Pi * float64(i) / float64(n))
			for k, rr := range rad {
				p.vertex(cx+rr*float32(co), cy+rr*float32(s), cols[k])
			}
		}
		m := uint16(len(rad))
		idx := func(i, k int) uint16 { return base + uint16(i%n)*m + uint16(k) }
		for i := range n {
			for k := 0; k+1 < len(rad); k++ {
				p.quadIdx(idx(i, k), idx(i+1, k), idx(i+1, k+1), idx(i, k+1))
			}
		}
		if fillCentre {
			centre := p.vertex(cx, cy, cols[0])
			for i := range n {
				p.is = append(p.is, centre, idx(i, 0), idx(i+1, 0))
			}
		}
	}
	if c.Fill.A != 0 {
		in, cov := max(r-0.5, 0), float32(1)
		if r < 0.5 {
			cov = 2 * r
		}
		col := premul(c.Fill, cov)
		ring([]float32{in, r + 0.5}, []rgba{col, {}}, true)
	}
	if c.Stroke.A != 0 {
		h := float32(c.StrokeWidth()) * p.scale / 2
		col := premul(c.Stroke, min(2*h, 1))
		if h < 0.5 {
			ring([]float32{max(r-h-0.5, 0), r, r + h + 0.5}, []rgba{{}, col, {}}, false)
		} else {
			ring([]float32{max(r-h-0.5, 0), max(r-h+0.5, 0), r + h - 0.5, r + h + 0.5}, []rgba{{}, col, col, {}}, false)
		}
	}
}

// text draws glyph quads from the atlas, tinted by the vertex colour.
func (p *painter) text(t render.Text) {
	if t.S == "" || t.Color.A == 0 {
		return
	}
	var full bool
	p.quads, full = p.atlas.Layout(t, float64(p.scale), p.quads[:0])
	if full {
		// Draw what uses the old glyphs, then start the atlas afresh.
		p.flush()
		p.atlas.Reset()
		p.quads, _ = p.atlas.Layout(t, float64(p.scale), p.quads[:0])
	}
	col := premul(t.Color, 1)
	for _, q := range p.quads {
		p.reserve(4)
		w, h := float32(q.Src.Dx()), float32(q.Src.Dy())
		u0, v0 := float32(q.Src.Min.X), float32(q.Src.Min.Y)
		p.quadIdx(
			p.vertexUV(q.X, q.Y, u0, v0, col),
			p.vertexUV(q.X+w, q.Y, u0+w, v0, col),
			p.vertexUV(q.X+w, q.Y+h, u0+w, v0+h, col),
			p.vertexUV(q.X, q.Y+h, u0, v0+h, col),
		)
	}
}

// grid draws a heat map: its cells uploaded as Cols x Rows pixels into a
// reused image and scaled up with nearest filtering, so that cells stay
// sharp blocks and a strip of 4096 processes costs one draw.
func (p *painter) grid(g render.Grid, i int) {
	if g.Cols <= 0 || g.Rows <= 0 || len(g.Cells) != g.Cols*g.Rows {
		return
	}
	p.flush()
	for len(p.grids) <= i {
		p.grids = append(p.grids, nil)
		p.gridGen = append(p.gridGen, 0)
	}
	img := p.grids[i]
	if img == nil || img.Bounds().Dx() != g.Cols || img.Bounds().Dy() != g.Rows {
		if img != nil {
			img.Deallocate()
		}
		img = ebiten.NewImage(g.Cols, g.Rows)
		p.grids[i] = img
		p.gridGen[i] = 0
	}
	if p.gridGen[i] != p.gen { // once a Paint, however many regions it meets
		buf := p.gridBuf[:0]
		for _, c := range g.Cells {
			buf = append(buf, c.R, c.G, c.B, c.A)
		}
		p.gridBuf = buf
		img.WritePixels(buf)
		p.gridGen[i] = p.gen
	}
	x0, y0 := p.pt(g.Min)
	x1, y1 := p.pt(g.Max)
	var op ebiten.DrawImageOptions
	op.GeoM.Scale(float64(x1-x0)/float64(g.Cols), float64(y1-y0)/float64(g.Rows))
	op.GeoM.Translate(float64(x0), float64(y0))
	op.Filter = ebiten.FilterNearest
	p.dst.DrawImage(img, &op)
}

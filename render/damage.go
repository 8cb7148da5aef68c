package render

import (
	"hash/maphash"
	"image"
	"image/color"
	"math"
	"slices"

	"commlab/render/font"
)

// Damage finds the parts of a surface that change from one display list to
// the next, so that a backend painting frame after frame onto a surface
// that keeps its pixels (the browser canvas) repaints only those parts.
//
// An animation frame differs from the one before in a few items: messages
// that moved, boxes that changed colour, the playhead's time. Painting the
// whole list again costs every item's triangles and a fill of the whole
// canvas; in software WebGL that was half of a frame's time.
//
// Next matches the new list against the last one with Myers' diff over the
// items' hashes. Items that keep their order in both lists paint the same
// pixels in the same order, so the picture can differ only where an item
// was removed or inserted: the union of those items' bounds. Repainting a
// region means filling it with the background and painting, clipped to it,
// every item of the new list whose bounds meet it, in order.
//
// Bounds are conservative (stroke widths, arrow heads, mitres, glyph
// overhang and two pixels of antialiasing included), so a repainted region
// has the same pixels a full repaint gives it.
type Damage struct {
	seed maphash.Seed
	ok   bool    // prev describes the surface's pixels
	surf surface // the surface prev was painted on
	prev []sig
	cur  []sig

	// scratch for diff
	keepOld, keepNew []bool
	v, trace         []int
	regions          []image.Rectangle
}

// sig is what Damage keeps of a painted item: its hash and its bounds.
type sig struct {
	h uint64
	b image.Rectangle
}

// surface is what, besides the items, decides every pixel.
type surface struct {
	size  image.Point
	scale float64
	bg    color.RGBA
}

// Tuning. Regions are merged when painting their union costs little more
// than painting both: a region's fixed cost (a draw call, a fill) is worth
// about regionCost pixels.
const (
	maxEdits     = 256     // more inserted or removed items: repaint all
	maxRegions   = 16      // at most this many regions from Next
	regionCost   = 64 * 64 // pixels
	fullFraction = 0.6     // regions covering more of the surface: repaint all
)

// Reset forgets what the surface shows: the next call to Next asks for a
// full repaint. A backend calls it when its surface loses its pixels.
func (d *Damage) Reset() { d.ok = false }

// Next records l as painted at scale on a surface of size device pixels and
// returns the regions to repaint, in device pixels, disjoint and inside the
// surface; or full, when the whole surface must be repainted: the first
// list, a new size, scale or background, or changes spread over most of the
// surface. No regions and not full means the picture did not change.
//
// After Next, Bounds(i) is the bounds of l.Items[i].
func (d *Damage) Next(l List, scale float64, size image.Point) (regions []image.Rectangle, full bool) {
	if d.seed == (maphash.Seed{}) {
		d.seed = maphash.MakeSeed()
	}
	surf := surface{size, scale, l.Background}
	d.cur = d.cur[:0]
	for _, it := range l.Items {
		d.cur = append(d.cur, sig{h: hashItem(d.seed, it)})
	}
	defer func() { d.prev, d.cur, d.ok, d.surf = d.cur, d.prev, true, surf }()
	if !d.ok || surf != d.surf || !d.diff() {
		d.boundAll(l, scale, size)
		return nil, true
	}
	d.regions = d.regions[:0]
	for i, k := range d.keepOld {
		if !k {
			d.add(d.prev[i].b)
		}
	}
	for i, k := range d.keepNew {
		if !k {
			d.cur[i].b = clip(ItemBounds(l.Items[i], scale), size)
			d.add(d.cur[i].b)
		}
	}
	area := 0
	for _, r := range d.regions {
		area += r.Dx() * r.Dy()
	}
	if float64(area) > fullFraction*float64(size.X*size.Y) {
		return nil, true
	}
	return d.regions, false
}

// Bounds is the device-pixel bounds, within the surface, of item i of the
// list last given to Next.
func (d *Damage) Bounds(i int) image.Rectangle { return d.prev[i].b }

func (d *Damage) boundAll(l List, scale float64, size image.Point) {
	for i, it := range l.Items {
		d.cur[i].b = clip(ItemBounds(it, scale), size)
	}
}

func clip(r image.Rectangle, size image.Point) image.Rectangle {
	return r.Intersect(image.Rectangle{Max: size})
}

// add puts r into the regions, merged with every region it overlaps or
// whose union with it costs little more than both apart, so that regions
// stay disjoint (each pixel is repainted once); past maxRegions, the two
// regions cheapest to merge are merged.
func (d *Damage) add(r image.Rectangle) {
	if r.Empty() {
		return
	}
	for i := 0; i < len(d.regions); {
		if q := d.regions[i]; q.Overlaps(r) || area(q.Union(r)) <= area(q)+area(r)+regionCost {
			r = r.Union(q)
			d.regions = slices.Delete(d.regions, i, i+1)
			i = 0 // the union may now reach regions already passed
			continue
		}
		i++
	}
	d.regions = append(d.regions, r)
	if len(d.regions) <= maxRegions {
		return
	}
	bi, bj, best := 0, 1, math.MaxInt
	for i, a := range d.regions {
		for j := i + 1; j < len(d.regions); j++ {
			b := d.regions[j]
			if c := area(a.Union(b)) - area(a) - area(b); c < best {
				bi, bj, best = i, j, c
			}
		}
	}
	u := d.regions[bi].Union(d.regions[bj])
	d.regions = slices.Delete(d.regions, bj, bj+1) // bj > bi: bi stays put
	d.regions = slices.Delete(d.regions, bi, bi+1)
	d.add(u)
}

func area(r image.Rectangle) int { return r.Dx() * r.Dy() }

// diff matches d.prev against d.cur with Myers' algorithm, marking in
// keepOld and keepNew the items of a longest common subsequence of their
// hashes; matched items carry their bounds over. It reports false when the
// lists differ by more than maxEdits insertions and removals.
func (d *Damage) diff() bool {
	a, b := d.prev, d.cur
	d.keepOld = resize(d.keepOld, len(a))
	d.keepNew = resize(d.keepNew, len(b))
	// The common prefix and suffix, which is most of a frame, directly.
	lo := 0
	for lo < len(a) && lo < len(b) && a[lo].h == b[lo].h {
		d.match(lo, lo)
		lo++
	}
	ea, eb := len(a), len(b)
	for ea > lo && eb > lo && a[ea-1].h == b[eb-1].h {
		ea, eb = ea-1, eb-1
		d.match(ea, eb)
	}
	a, b = a[lo:ea], b[lo:eb]
	n, m := len(a), len(b)
	if n == 0 || m == 0 {
		return n+m <= maxEdits
	}
	// V[k] is the furthest x reached on diagonal k = x - y; trace keeps V
	// as it was before each round d, for the walk back.
	width := 2*maxEdits + 3
	off := maxEdits + 1
	d.v = resizeInts(d.v, width)
	d.trace = d.trace[:0]
	v := d.v
	v[off+1] = 0
	for e := 0; e <= maxEdits; e++ {
		d.trace = append(d.trace, v...)
		for k := -e; k <= e; k += 2 {
			var x int
			if k == -e || (k != e && v[off+k-1] < v[off+k+1]) {
				x = v[off+k+1] // down: b[y] inserted
			} else {
				x = v[off+k-1] + 1 // right: a[x] removed
			}
			y := x - k
			for x < n && y < m && a[x].h == b[y].h {
				x, y = x+1, y+1
			}
			v[off+k] = x
			if x >= n && y >= m {
				d.walkBack(e, n, m, lo, width, off)
				return true
			}
		}
	}
	return false
}

// walkBack follows the diff of e edits back from (n, m), marking the
// diagonal moves (matched items) of the middle part that starts at lo.
func (d *Damage) walkBack(e, n, m, lo, width, off int) {
	x, y := n, m
	for ; e > 0; e-- {
		v := d.trace[e*width : (e+1)*width]
		k := x - y
		var pk int
		if k == -e || (k != e && v[off+k-1] < v[off+k+1]) {
			pk = k + 1
		} else {
			pk = k - 1
		}
		px := v[off+pk]
		py := px - pk
		// The snake after the edit: from the point the edit reached.
		sx, sy := px, py
		if pk == k+1 {
			sy++
		} else {
			sx++
		}
		for x > sx && y > sy {
			x, y = x-1, y-1
			d.match(lo+x, lo+y)
		}
		x, y = px, py
	}
	for x > 0 && y > 0 {
		x, y = x-1, y-1
		d.match(lo+x, lo+y)
	}
}

func (d *Damage) match(i, j int) {
	d.keepOld[i], d.keepNew[j] = true, true
	d.cur[j].b = d.prev[i].b
}

func resize(s []bool, n int) []bool {
	if cap(s) < n {
		return make([]bool, n)
	}
	s = s[:n]
	clear(s)
	return s
}

func resizeInts(s []int, n int) []int {
	if cap(s) < n {
		return make([]int, n)
	}
	s = s[:n]
	clear(s)
	return s
}

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
		bb.grow(it.StrokeWidth() * miterLimit)
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

// miterLimit is how far past a polyline's vertex a mitre may reach, in
// stroke widths (canvas's default, which the backends follow).
const miterLimit = 10

// antialias is the margin, in device pixels, for edges that backends
// feather or snap to the pixel grid.
const antialias = 2

// bbox is a bounding box in scene pixels, being built.
type bbox struct {
	x0, y0, x1, y1 float64
	some, bad      bool
}

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

// hashItem hashes everything about an item that decides its pixels.
func hashItem(seed maphash.Seed, it Item) uint64 {
	var h hasher
	switch it := it.(type) {
	case Rect:
		h.word(1)
		h.points(it.Min, it.Max)
		h.style(it.Style)
	case Line:
		h.word(2)
		h.points(it.From, it.To)
		h.style(it.Style)
	case Polyline:
		h.word(3)
		h.word(uint64(len(it.Points)))
		h.points(it.Points...)
		h.style(it.Style)
	case Arrow:
		h.word(4)
		h.points(it.From, it.To)
		h.float(it.Head)
		h.style(it.Style)
	case Circle:
		h.word(5)
		h.points(it.Center)
		h.float(it.R)
		h.style(it.Style)
	case Text:
		h.word(6)
		h.points(it.At)
		h.word(maphash.String(seed, it.S))
		h.float(it.Size)
		h.word(uint64(it.Align))
		if it.Bold {
			h.word(1)
		}
		h.colour(it.Color)
	case Grid:
		h.word(7)
		h.points(it.Min, it.Max)
		h.word(uint64(it.Cols)<<32 | uint64(uint32(it.Rows)))
		for _, c := range it.Cells {
			h.colour(c)
		}
	default:
		h.word(0)
	}
	return h.sum
}

// hasher mixes 64-bit words (a multiply-xorshift chain, as in wyhash's
// final mix): fast, and collisions between a frame's items are a matter of
// 2^-64.
type hasher struct{ sum uint64 }

func (h *hasher) word(w uint64) {
	x := (h.sum ^ w) * 0x9e3779b97f4a7c15
	h.sum = x ^ x>>32 + 0x632be59bd9b4e019
}

func (h *hasher) float(f float64) { h.word(math.Float64bits(f)) }

func (h *hasher) points(ps ...Point) {
	for _, p := range ps {
		h.float(p.X)
		h.float(p.Y)
	}
}

func (h *hasher) colour(c color.RGBA) {
	h.word(uint64(c.R)<<24 | uint64(c.G)<<16 | uint64(c.B)<<8 | uint64(c.A))
}

func (h *hasher) style(s Style) {
	h.colour(s.Fill)
	h.colour(s.Stroke)
	h.float(s.Width)
	h.word(uint64(len(s.Dash)))
	for _, x := range s.Dash {
		h.float(x)
	}
}

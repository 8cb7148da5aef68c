package render

import (
	"hash/maphash"
	"image"
	"image/color"
	"math"
	"slices"
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
// Next matches the new list against the last one with a patience diff over
// the items' hashes. Items that keep their order in both lists paint the same
// pixels in the same order, so the picture can differ only where an item
// was removed or inserted: the union of those items' bounds. Repainting a
// region means filling it with the background and painting, clipped to it,
// every item of the new list whose bounds meet it, in order.
//
// Bounds are conservative (stroke widths, arrow heads, mitres, glyph
// overhang and two pixels of antialiasing included), so a repainted region
// has the same pixels a full repaint gives it.
type Damage struct {
	// WholePolylines repaints a changed polyline whole. A backend sets it
	// when the pixels of a polyline's first segments depend on the points
	// after them: the software rasteriser's coverage sums start at the
	// shape's bounding box, so a longer polyline shifts every pixel's sum
	// in its last bits. The browser's painter draws each segment and join
	// as triangles of its own, so by default a polyline that kept its
	// points but the last (and moved that one or added more: a message's
	// trace following the playhead) damages only its old and new heads.
	WholePolylines bool

	seed maphash.Seed
	ok   bool    // prev describes the surface's pixels
	surf surface // the surface prev was painted on
	prev []sig
	cur  []sig

	// scratch for diff
	keepOld, keepNew []bool
	count            map[uint64]occurrence
	anchors, kept    []anchor
	tails, back      []int
	regions          []image.Rectangle
	usedOld, usedNew []bool
}

// sig is what Damage keeps of a painted item: its hash and its bounds.
type sig struct {
	h uint64
	b image.Rectangle
	// For a rectangle without dashes: its corners and a hash of its style,
	// so that one that only grew (a Gantt bar following the playhead)
	// damages the strip it grew by, not its whole length.
	box  [4]float64 // Min.X, Min.Y, Max.X, Max.Y
	look uint64     // 0 for anything else
	half float64    // half its stroke width, 0 without one
	// For a stroked polyline without fill or dashes (a fill's polygon
	// and a dash pattern's phase follow every point): a hash of its style and of its
	// points but the last, how many points it has, its last segment's box
	// (in box) and the reach of its last join, so that one that only grew
	// or moved its head (a message's trace following the playhead, its
	// earlier points where they were) damages its old and new heads, not
	// its whole length.
	line  uint64 // 0 for anything else
	n     int
	first Point
	joinR float64
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
		var sg sig
		var pre uint64
		if pl, ok := it.(Polyline); ok {
			sg.h, pre = hashPolyline(pl)
		} else {
			sg.h = hashItem(d.seed, it)
		}
		if r, ok := it.(Rect); ok && len(r.Dash) == 0 && r.Min.X <= r.Max.X && r.Min.Y <= r.Max.Y {
			var h hasher
			h.style(r.Style)
			sg.box, sg.look = [4]float64{r.Min.X, r.Min.Y, r.Max.X, r.Max.Y}, h.sum|1
			if r.Stroke.A != 0 {
				sg.half = r.StrokeWidth() / 2
			}
		}
		if pl, ok := it.(Polyline); ok && len(pl.Dash) == 0 && pl.Fill.A == 0 && len(pl.Points) >= 2 {
			n := len(pl.Points)
			sg.line, sg.n, sg.first = pre, n, pl.Points[0]
			a, b := pl.Points[n-2], pl.Points[n-1]
			sg.box = [4]float64{min(a.X, b.X), min(a.Y, b.Y), max(a.X, b.X), max(a.Y, b.Y)}
			if n >= 3 {
				sg.joinR = joinPad(pl.Points[n-3], a, b, pl.StrokeWidth())
			}
		}
		d.cur = append(d.cur, sg)
	}
	defer func() { d.prev, d.cur, d.ok, d.surf = d.cur, d.prev, true, surf }()
	if !d.ok || surf != d.surf {
		d.boundAll(l, scale, size)
		return nil, true
	}
	d.diff()
	d.regions = d.regions[:0]
	// Walk the hunks between matched items: the old items a hunk removes
	// and the new ones it inserts (hunk). A pair of a removed and an
	// inserted item keeps its place among the matched items; its order
	// among the hunk's other items can change, but those are repainted
	// whole, and pairs keep their order among themselves.
	for i, j := 0, 0; i < len(d.prev) || j < len(d.cur); {
		if i < len(d.prev) && j < len(d.cur) && d.keepOld[i] && d.keepNew[j] {
			i, j = i+1, j+1
			continue
		}
		hi, hj := i, j
		for hi < len(d.prev) && !d.keepOld[hi] {
			hi++
		}
		for hj < len(d.cur) && !d.keepNew[hj] {
			hj++
		}
		d.hunk(l, i, hi, j, hj, scale, size)
		i, j = hi, hj
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

// hunk damages what the hunk d.prev[i0:i1] → l.Items[j0:j1] changes.
// First every inserted polyline that starts with the points but the last
// of a removed one (a trace that grew) is paired with it, the first such
// after the last pair, so that pairs keep their order: each damages its
// old and new heads only (extended). Wherever a pair's pixels and another
// item's overlap, that item is repainted whole. Then, when no polyline
// was paired, the rest pair in order and a removed and an inserted
// rectangle that differ in one edge alone damage only the strip that edge
// swept (grown). Whatever else the hunk holds damages its bounds, old and
// new.
func (d *Damage) hunk(l List, i0, i1, j0, j1 int, scale float64, size image.Point) {
	d.usedOld = resize(d.usedOld, i1-i0)
	d.usedNew = resize(d.usedNew, j1-j0)
	paired := false
	if !d.WholePolylines {
		from := i0
		for y := j0; y < j1; y++ {
			if d.cur[y].line == 0 {
				continue
			}
			pl := l.Items[y].(Polyline)
			for x := from; x < i1; x++ {
				a := d.prev[x]
				if a.line == 0 || a.first != pl.Points[0] || len(pl.Points) < a.n-1 {
					continue
				}
				if head, ok := extended(a, pl, scale); ok {
					d.cur[y].b = clip(ItemBounds(pl, scale), size)
					d.add(clip(head, size))
					d.usedOld[x-i0], d.usedNew[y-j0] = true, true
					from, paired = x+1, true
					break
				}
			}
		}
	}
	x, y := i0, j0
	for {
		for x < i1 && d.usedOld[x-i0] {
			x++
		}
		for y < j1 && d.usedNew[y-j0] {
			y++
		}
		if x == i1 && y == j1 {
			return
		}
		if y < j1 {
			d.cur[y].b = clip(ItemBounds(l.Items[y], scale), size)
		}
		switch {
		case x < i1 && y < j1:
			if strip, ok := grown(d.prev[x], d.cur[y], scale); ok && !paired {
				d.add(clip(strip, size))
			} else {
				d.add(d.prev[x].b)
				d.add(d.cur[y].b)
			}
			x, y = x+1, y+1
		case x < i1:
			d.add(d.prev[x].b)
			x++
		default:
			d.add(d.cur[y].b)
			y++
		}
	}
}

// Bounds is the device-pixel bounds, within the surface, of item i of the
// list last given to Next.
func (d *Damage) Bounds(i int) image.Rectangle { return d.prev[i].b }

// grown returns the device-pixel strip where rectangles a and b differ,
// when they have one style and differ in a single edge: the band between
// that edge's two positions, as long as the other side, widened by the
// stroke and the antialiasing margin.
func grown(a, b sig, scale float64) (image.Rectangle, bool) {
	if a.look == 0 || a.look != b.look || a.half != b.half {
		return image.Rectangle{}, false
	}
	edge := -1
	for k := range 4 {
		if a.box[k] != b.box[k] {
			if edge >= 0 {
				return image.Rectangle{}, false
			}
			edge = k
		}
	}
	if edge < 0 {
		return image.Rectangle{}, false // same geometry and style: not a growth
	}
	var bb bbox
	lo, hi := min(a.box[edge], b.box[edge]), max(a.box[edge], b.box[edge])
	if edge%2 == 0 { // a vertical edge moved: x in [lo, hi], y along it
		bb.point(Point{lo, a.box[1]})
		bb.point(Point{hi, a.box[3]})
	} else {
		bb.point(Point{a.box[0], lo})
		bb.point(Point{a.box[2], hi})
	}
	bb.grow(a.half)
	return bb.device(scale), true
}

// extended returns the device-pixel region where polyline a (as Next
// recorded it) and item b differ, when b is a polyline of a's style that
// starts with every point of a but its last (then it may have moved that
// last point and added more): the box of a's last segment and of b's
// points from the last one they share on, widened by the stroke, the
// joins there and the antialiasing margin. Every join before the shared
// point's is between the same two segments in both, so the pixels outside
// that box are the same.
func extended(a sig, b Item, scale float64) (image.Rectangle, bool) {
	pl, ok := b.(Polyline)
	m := a.n - 1
	if !ok || a.line == 0 || len(pl.Dash) != 0 || pl.Fill.A != 0 || len(pl.Points) < max(m, 2) || prefixHash(pl, m) != a.line {
		return image.Rectangle{}, false
	}
	var bb bbox
	bb.point(Point{a.box[0], a.box[1]})
	bb.point(Point{a.box[2], a.box[3]})
	for _, p := range pl.Points[m-1:] {
		bb.point(p)
	}
	// The stroke and b's joins (its shared ones included: the join at the
	// shared point changes, the others are no wider than polylinePad), and
	// a's join at the shared point.
	bb.grow(max(polylinePad(pl), a.joinR))
	return bb.device(scale), true
}

func (d *Damage) boundAll(l List, scale float64, size image.Point) {
	for i, it := range l.Items {
		d.cur[i].b = clip(ItemBounds(it, scale), size)
	}
}

//go:noinline
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

// diff matches d.prev against d.cur, marking in keepOld and keepNew the
// items of a common subsequence of their hashes (matched items carry their
// bounds over). It is patience diff: the items found once in each list
// anchor the match, the longest run of anchors in the same order in both
// is kept, and the gaps between kept anchors are matched from both ends.
// That takes O(n log n) however many items changed, where Myers' diff,
// minimal but O(n·edits), had to give up (and repaint everything) on a
// Gantt chart whose every bar grows each frame.
func (d *Damage) diff() {
	a, b := d.prev, d.cur
	d.keepOld = resize(d.keepOld, len(a))
	d.keepNew = resize(d.keepNew, len(b))
	if d.count == nil {
		d.count = map[uint64]occurrence{}
	}
	clear(d.count)
	for i, s := range a {
		o := d.count[s.h]
		o.old, o.at = min(o.old+1, 2), int32(i)
		d.count[s.h] = o
	}
	for _, s := range b {
		o := d.count[s.h]
		o.new = min(o.new+1, 2)
		d.count[s.h] = o
	}
	d.anchors = d.anchors[:0]
	for j, s := range b {
		if o := d.count[s.h]; o.old == 1 && o.new == 1 {
			d.anchors = append(d.anchors, anchor{int(o.at), j})
		}
	}
	x, y := 0, 0 // where the gap before the next kept anchor starts
	for _, an := range append(d.increasing(), anchor{len(a), len(b)}) {
		// The gap a[x:an.i], b[y:an.j]: equal items from its start, then
		// from its end.
		for x < an.i && y < an.j && a[x].h == b[y].h {
			d.match(x, y)
			x, y = x+1, y+1
		}
		for ex, ey := an.i, an.j; ex > x && ey > y && a[ex-1].h == b[ey-1].h; ex, ey = ex-1, ey-1 {
			d.match(ex-1, ey-1)
		}
		if an.i < len(a) {
			d.match(an.i, an.j)
		}
		x, y = an.i+1, an.j+1
	}
}

// occurrence counts a hash in the old and the new list (up to 2: once or
// more), with its index in the old one.
type occurrence struct {
	old, new uint8
	at       int32
}

// anchor is an item found once in each list: at i in the old, j in the new.
type anchor struct{ i, j int }

// increasing returns the longest subsequence of d.anchors (in new-list
// order) whose old indices increase too: patience sorting, O(k log k).
func (d *Damage) increasing() []anchor {
	an := d.anchors
	d.tails, d.back = d.tails[:0], resizeInts(d.back, len(an))
	for k, a := range an {
		// The first pile whose top has an old index at or above a's.
		lo, hi := 0, len(d.tails)
		for lo < hi {
			mid := (lo + hi) / 2
			if an[d.tails[mid]].i < a.i {
				lo = mid + 1
			} else {
				hi = mid
			}
		}
		d.back[k] = -1
		if lo > 0 {
			d.back[k] = d.tails[lo-1]
		}
		if lo == len(d.tails) {
			d.tails = append(d.tails, k)
		} else {
			d.tails[lo] = k
		}
	}
	d.kept = d.kept[:0]
	if len(d.tails) > 0 {
		for k := d.tails[len(d.tails)-1]; k >= 0; k = d.back[k] {
			d.kept = append(d.kept, an[k])
		}
	}
	slices.Reverse(d.kept)
	return d.kept
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

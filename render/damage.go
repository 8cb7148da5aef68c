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
		sg := sig{h: hashItem(d.seed, it)}
		if r, ok := it.(Rect); ok && len(r.Dash) == 0 && r.Min.X <= r.Max.X && r.Min.Y <= r.Max.Y {
			var h hasher
			h.style(r.Style)
			sg.box, sg.look = [4]float64{r.Min.X, r.Min.Y, r.Max.X, r.Max.Y}, h.sum|1
			if r.Stroke.A != 0 {
				sg.half = r.StrokeWidth() / 2
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
	// and the new ones it inserts. Paired in order, a removed and an
	// inserted rectangle that differ in one edge alone damage only the
	// strip that edge swept; whatever else the hunk holds damages its
	// bounds, old and new. (Inside a hunk, the pair keeps its place among
	// the matched items; its order among the hunk's others can change, but
	// those are repainted whole.)
	for i, j := 0, 0; i < len(d.prev) || j < len(d.cur); {
		if i < len(d.prev) && j < len(d.cur) && d.keepOld[i] && d.keepNew[j] {
			i, j = i+1, j+1
			continue
		}
		for i < len(d.prev) && !d.keepOld[i] {
			if j < len(d.cur) && !d.keepNew[j] {
				d.cur[j].b = clip(ItemBounds(l.Items[j], scale), size)
				if strip, ok := grown(d.prev[i], d.cur[j], scale); ok {
					d.add(clip(strip, size))
				} else {
					d.add(d.prev[i].b)
					d.add(d.cur[j].b)
				}
				i, j = i+1, j+1
				continue
			}
			d.add(d.prev[i].b)
			i++
		}
		for j < len(d.cur) && !d.keepNew[j] {
			d.cur[j].b = clip(ItemBounds(l.Items[j], scale), size)
			d.add(d.cur[j].b)
			j++
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

//go:build !(js && wasm)

// The GIF palette, like gif.go, is left out of the browser's wasm.

package raster

import (
	"cmp"
	"image"
	"image/color"
	"slices"
)

// A colour key is an opaque colour packed as 0xRRGGBB, or transparentKey.
const transparentKey = 1 << 24

// key folds a premultiplied pixel into what a GIF can show: transparent
// below half opacity, else the colour at full opacity.
func key(r, g, b, a uint8) uint32 {
	switch {
	case a < 0x80:
		return transparentKey
	case a < 0xff:
		un := func(c uint8) uint32 { return min((uint32(c)*255+uint32(a)/2)/uint32(a), 255) }
		return un(r)<<16 | un(g)<<8 | un(b)
	}
	return uint32(r)<<16 | uint32(g)<<8 | uint32(b)
}

// histogram counts the pixels of every colour over all frames.
type histogram struct {
	n     map[uint32]uint64
	total uint64
}

func newHistogram() *histogram { return &histogram{n: make(map[uint32]uint64)} }

func (h *histogram) add(img *image.RGBA) {
	// Pictures are mostly flat areas: count runs of one colour, not pixels.
	pix := img.Pix
	run, last := uint64(0), uint32(0)
	for i := 0; i+3 < len(pix); i += 4 {
		k := key(pix[i], pix[i+1], pix[i+2], pix[i+3])
		if k != last && run > 0 {
			h.n[last] += run
			run = 0
		}
		last = k
		run++
	}
	if run > 0 {
		h.n[last] += run
	}
	h.total += uint64(len(pix) / 4)
}

// maxColours is a GIF colour table's size.
const maxColours = 256

// bucket is one distinct colour and its pixel count.
type bucket struct {
	c [3]uint8
	n uint64
}

// quantizer maps pixels to a palette chosen from a histogram.
type quantizer struct {
	palette        color.Palette
	rgb            [][3]int32
	hasTransparent bool  // some pixel is transparent
	transparent    uint8 // the transparent entry, if the palette has one
	cache          map[uint32]uint8
}

// newQuantizer picks the palette: every colour when there are few enough;
// otherwise the colours covering at least 1/2000 of all pixels (flat areas:
// background, panels, spans, text ink), at most a quarter of the table,
// kept exactly, and median cut over the rest (the anti-aliased edges
// between them), each box represented by its pixel-weighted mean.
//
// With keep, a transparent entry is reserved even when no pixel is
// transparent: an animation marks the pixels a frame leaves as they were
// with it, which compresses far better than repeating them.
func newQuantizer(h *histogram, keep bool) *quantizer {
	q := &quantizer{cache: make(map[uint32]uint8)}
	budget := maxColours
	q.hasTransparent = h.n[transparentKey] > 0
	if q.hasTransparent || keep {
		budget--
	}
	all := make([]bucket, 0, len(h.n))
	for k, n := range h.n {
		if k != transparentKey {
			all = append(all, bucket{[3]uint8{uint8(k >> 16), uint8(k >> 8), uint8(k)}, n})
		}
	}
	// Map order is random; sorting makes the palette, and so the file,
	// depend only on the pictures.
	slices.SortFunc(all, func(a, b bucket) int {
		return cmp.Or(cmp.Compare(b.n, a.n), cmp.Compare(a.c[0], b.c[0]), cmp.Compare(a.c[1], b.c[1]), cmp.Compare(a.c[2], b.c[2]))
	})
	var colours [][3]uint8
	if len(all) <= budget {
		for _, b := range all {
			colours = append(colours, b.c)
		}
	} else {
		kept := 0
		for kept < len(all) && kept < budget/4 && all[kept].n*2000 >= h.total {
			colours = append(colours, all[kept].c)
			kept++
		}
		colours = append(colours, medianCut(all[kept:], budget-kept)...)
	}
	for _, c := range colours {
		q.palette = append(q.palette, color.RGBA{c[0], c[1], c[2], 0xff})
		q.rgb = append(q.rgb, [3]int32{int32(c[0]), int32(c[1]), int32(c[2])})
	}
	if budget < maxColours {
		q.transparent = uint8(len(q.palette))
		q.palette = append(q.palette, color.RGBA{})
		q.cache[transparentKey] = q.transparent
	}
	return q
}

// index writes the palette index of every pixel of img into dst.
func (q *quantizer) index(dst []uint8, img *image.RGBA) {
	pix := img.Pix
	last, li := uint32(1<<32-1), uint8(0)
	for i := range dst {
		k := key(pix[4*i], pix[4*i+1], pix[4*i+2], pix[4*i+3])
		if k != last {
			last, li = k, q.nearest(k)
		}
		dst[i] = li
	}
}

// nearest is the palette index closest to colour k (Euclidean in RGB).
func (q *quantizer) nearest(k uint32) uint8 {
	if i, ok := q.cache[k]; ok {
		return i
	}
	r, g, b := int32(k>>16&0xff), int32(k>>8&0xff), int32(k&0xff)
	best, bestD := 0, int32(1<<31-1)
	for i, c := range q.rgb {
		dr, dg, db := c[0]-r, c[1]-g, c[2]-b
		if d := dr*dr + dg*dg + db*db; d < bestD {
			best, bestD = i, d
			if d == 0 {
				break
			}
		}
	}
	q.cache[k] = uint8(best)
	return uint8(best)
}

// cutBox is a set of colours median cut will split or represent by its mean.
type cutBox struct {
	b    []bucket
	n    float64    // pixels
	sum  [3]float64 // pixel-weighted sums per channel
	sse  float64    // pixel-weighted squared distance from the mean
	axis int        // the channel of largest spread
}

func newCutBox(b []bucket) cutBox {
	x := cutBox{b: b}
	var sq [3]float64
	for _, e := range b {
		w := float64(e.n)
		x.n += w
		for ch := range 3 {
			v := float64(e.c[ch])
			x.sum[ch] += w * v
			sq[ch] += w * v * v
		}
	}
	best := -1.0
	for ch := range 3 {
		v := sq[ch] - x.sum[ch]*x.sum[ch]/x.n
		x.sse += v
		if v > best {
			best, x.axis = v, ch
		}
	}
	return x
}

func (x cutBox) mean() [3]uint8 {
	var m [3]uint8
	for ch := range 3 {
		m[ch] = uint8(min(x.sum[ch]/x.n+0.5, 255))
	}
	return m
}

// medianCut splits the colours into at most k boxes, always splitting the
// cutBox with the largest pixel-weighted squared error along its widest
// channel at the pixel-weighted median, and returns each cutBox's mean.
func medianCut(b []bucket, k int) [][3]uint8 {
	if len(b) == 0 || k <= 0 {
		return nil
	}
	boxes := []cutBox{newCutBox(b)}
	for len(boxes) < k {
		i := -1
		for j, x := range boxes {
			if len(x.b) > 1 && (i < 0 || x.sse > boxes[i].sse) {
				i = j
			}
		}
		if i < 0 {
			break
		}
		x := boxes[i]
		ax := x.axis
		slices.SortFunc(x.b, func(a, b bucket) int {
			return cmp.Or(cmp.Compare(a.c[ax], b.c[ax]), cmp.Compare(a.c[0], b.c[0]), cmp.Compare(a.c[1], b.c[1]), cmp.Compare(a.c[2], b.c[2]))
		})
		cut, acc := 1, float64(x.b[0].n)
		for cut < len(x.b)-1 && acc < x.n/2 {
			acc += float64(x.b[cut].n)
			cut++
		}
		boxes[i] = newCutBox(x.b[:cut])
		boxes = append(boxes, newCutBox(x.b[cut:]))
	}
	out := make([][3]uint8, len(boxes))
	for i, x := range boxes {
		out[i] = x.mean()
	}
	return out
}

package render

import (
	"hash/maphash"
	"image/color"
	"math"
)

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
		sum, _ := hashPolyline(it)
		return sum
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

// hashPolyline is hashItem of a polyline, and in the same pass the hash of
// its style and its points but the last (prefixHash of n−1 points), which
// Damage keeps to tell a polyline that grew at its head.
func hashPolyline(pl Polyline) (sum, prefix uint64) {
	var h hasher
	h.word(3)
	h.style(pl.Style)
	n := len(pl.Points)
	if n > 0 {
		h.points(pl.Points[:n-1]...)
	}
	prefix = h.sum | 1
	if n > 0 {
		h.points(pl.Points[n-1])
	}
	h.word(uint64(n))
	return h.sum, prefix
}

// prefixHash hashes pl's style and its first m points, as hashPolyline
// does for all but the last.
func prefixHash(pl Polyline, m int) uint64 {
	var h hasher
	h.word(3)
	h.style(pl.Style)
	h.points(pl.Points[:m]...)
	return h.sum | 1
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

//go:noinline
func (h *hasher) points(ps ...Point) {
	for _, p := range ps {
		h.float(p.X)
		h.float(p.Y)
	}
}

//go:noinline
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

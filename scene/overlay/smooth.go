package overlay

import (
	"math"
	"sync"
)

// maxSag is the largest distance, in CSS pixels, between an arc and the
// straight segments that draw it: a quarter pixel, so that even at two
// device pixels per CSS pixel (a high-DPI screen, a PNG export) a long arc
// shows no corners (issue 14: the widest arcs were 14 visible segments).
const maxSag = 0.25

// maxArcSegs bounds the segments of one arc: enough for an arc 5,000 CSS
// pixels wide.
const maxArcSegs = 160

// arcSegsFor is how many segments draw half an ellipse with semi-axes r
// and h within maxSag. A chord over a parameter step Δθ strays from the
// curve by at most Δθ²·max(r, h)/8 (the curve's second derivative is
// bounded by max(r, h)), so Δθ = π/n needs n ≥ π·√(max(r, h)/(8·maxSag)).
// Short arcs, most of the "all" policy's, keep few segments.
func arcSegsFor(r, h float64) int {
	R := max(math.Abs(r), math.Abs(h))
	n := int(math.Ceil(math.Pi * math.Sqrt(R/(8*maxSag))))
	return min(max(n, 6), maxArcSegs)
}

// arcTable(n) holds the cosines and sines of πi/n for i in 0..n: a whole
// arc's points without trigonometry per frame. Each n's table is computed
// on its first use, not at package init: all 160 tables cost tens of
// milliseconds of the wasm's start, before the first frame of any scene
// (GODEBUG=inittrace=1 showed scene/overlay's init at 45 ms under node).
func arcTable(n int) [2][]float64 {
	arcOnce[n].Do(func() {
		c, s := make([]float64, n+1), make([]float64, n+1)
		for i := range c {
			th := math.Pi * (float64(i) / float64(n))
			c[i], s[i] = math.Cos(th), math.Sin(th)
		}
		arcTables[n] = [2][]float64{c, s}
	})
	return arcTables[n]
}

var (
	arcOnce   [maxArcSegs + 1]sync.Once
	arcTables [maxArcSegs + 1][2][]float64
)

package jitter

import "math"

// Bins is the number of histogram bins: at 960x540 each is about ten pixels
// wide, room for the two series side by side.
const Bins = 20

// The two series of the histogram.
const (
	seriesConventional = 0
	seriesRedundant    = 1
)

// histogram holds the completion times of n trials, conventional and with
// T redundant exchanges, binned on one shared range so the bars compare.
type histogram struct {
	n      int
	lo, hi float64      // the bins cover [lo, hi]; the last includes hi
	counts [2][Bins]int // per series
	mean   [2]float64   // per series
	values [2][]float64 // per series, trial order
	max    int          // the tallest bar
}

func newHistogram(conv, red []float64) histogram {
	h := histogram{n: len(conv), values: [2][]float64{conv, red}}
	h.lo, h.hi = math.Inf(1), math.Inf(-1)
	for _, xs := range h.values {
		for _, x := range xs {
			h.lo, h.hi = min(h.lo, x), max(h.hi, x)
		}
	}
	if !(h.hi > h.lo) {
		// Every trial took the same time (no jitter): one bar in the middle
		// of a range 10 % either side, rather than a zero-width range.
		w := math.Max(math.Abs(h.lo)*0.1, 1e-12)
		h.lo, h.hi = h.lo-w, h.hi+w
	}
	for s, xs := range h.values {
		sum := 0.0
		for _, x := range xs {
			h.counts[s][h.bin(x)]++
			sum += x
		}
		if len(xs) > 0 {
			h.mean[s] = sum / float64(len(xs))
		}
	}
	for s := range h.counts {
		for _, c := range h.counts[s] {
			h.max = max(h.max, c)
		}
	}
	return h
}

// bin is the bin that holds x.
func (h *histogram) bin(x float64) int {
	b := int((x - h.lo) / (h.hi - h.lo) * Bins)
	return min(max(b, 0), Bins-1)
}

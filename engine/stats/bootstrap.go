package stats

import (
	"fmt"
	"hash/fnv"
	"math"
	"math/rand/v2"
	"slices"
)

// Resamples is the bootstrap's default number of resamples: with
// (B+1)·0.025 = 50 the percentile interval's ends are the 50th and the
// 1950th of the sorted replicates, no interpolation needed (Davison and
// Hinkley 1997, §5.2).
const Resamples = 1999

// DataSeed is a seed drawn from the data themselves (FNV-1a over the
// lengths and the bits of every value): the same sample gives the same
// resamples on every run and machine, and no clock is involved.
func DataSeed(xs ...[]float64) uint64 {
	h := fnv.New64a()
	var b [8]byte
	put := func(v uint64) {
		for i := range b {
			b[i] = byte(v >> (8 * i))
		}
		h.Write(b[:])
	}
	for _, x := range xs {
		put(uint64(len(x)))
		for _, v := range x {
			put(math.Float64bits(v))
		}
	}
	return h.Sum64()
}

// Bootstrap is the 95 % percentile bootstrap interval of a statistic of n
// observations: b resamples of n indices drawn with replacement from a PCG
// seeded with seed (DataSeed makes one from the data), stat evaluated on
// each (it sees the indices, so paired observations stay paired), and the
// replicates' (b+1)·0.025-th and (b+1)·0.975-th order statistics. b must
// be at least 39 so that both ends are replicates; a NaN or infinite
// replicate is an error (a resample whose denominator is 0, say).
func Bootstrap(n, b int, seed uint64, stat func(idx []int) float64) (lo, hi float64, err error) {
	if n < 2 || b < 39 {
		return 0, 0, fmt.Errorf("stats: a bootstrap needs n ≥ 2 observations and b ≥ 39 resamples, got n = %d, b = %d", n, b)
	}
	rng := rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))
	idx := make([]int, n)
	reps := make([]float64, b)
	for r := range reps {
		for i := range idx {
			idx[i] = rng.IntN(n)
		}
		v := stat(idx)
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return 0, 0, fmt.Errorf("stats: bootstrap resample %d of %d gives %v", r+1, b, v)
		}
		reps[r] = v
	}
	slices.Sort(reps)
	k := int(float64(b+1) * (1 - Level) / 2) // 1-based rank of the lower end
	k = max(k, 1)
	return reps[k-1], reps[b-k], nil
}

// RatioBootstrap is the percentile bootstrap interval (Resamples
// resamples, seeded by DataSeed(num, den)) of mean(num)/mean(den) over
// pairs (num[i], den[i]), resampling pairs together so that their common
// random numbers stay matched. Unlike the delta method it makes no
// normal assumption about the ratio, at 2,000 times the cost.
func RatioBootstrap(num, den []float64) (Interval, error) {
	if len(num) != len(den) {
		return Interval{}, fmt.Errorf("stats: a paired ratio needs as many denominators as numerators, got %d and %d", len(den), len(num))
	}
	var sx, sy float64
	for i := range num {
		sx += num[i]
		sy += den[i]
	}
	if sy == 0 {
		return Interval{}, fmt.Errorf("stats: a %s interval for a ratio: the denominator's mean is 0", MethodBootstrap)
	}
	lo, hi, err := Bootstrap(len(num), Resamples, DataSeed(num, den), func(idx []int) float64 {
		var a, b float64
		for _, i := range idx {
			a += num[i]
			b += den[i]
		}
		return a / b
	})
	if err != nil {
		return Interval{}, err
	}
	r := sx / sy
	return Interval{Mean: r, N: len(num), Lo: min(lo, r), Hi: max(hi, r), Level: Level, Method: MethodBootstrap}.finite()
}

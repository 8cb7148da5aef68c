package logp

import (
	"math"
	"math/rand/v2"
)

// The latency draws must be bit-identical natively and under js/wasm.
// rand.NormFloat64 calls math.Exp on its rare path and math.Log has amd64
// assembly that differs from the pure-Go code in the last bit, so the
// sampler here uses only exactly rounded operations (+ - * / and Sqrt,
// which IEEE 754 rounds exactly everywhere) and a logarithm of our own.
// Every product that feeds a sum is wrapped in float64(...): the Go spec
// lets compilers fuse x*y + z into an FMA on some architectures unless the
// product is explicitly converted, which would change the last bit.

// logOne is ln x for x in (0, 1], from math.Frexp (exact bit manipulation)
// and the atanh series ln m = 2·atanh((m-1)/(m+1)) on m in [√½, √2), where
// |f| ≤ 0.1716 and 11 terms leave an error below 1e-17.
func logOne(x float64) float64 {
	m, e := math.Frexp(x) // x = m·2^e, m in [0.5, 1)
	if m < math.Sqrt2/2 {
		m *= 2
		e--
	}
	f := (m - 1) / (m + 1)
	s := float64(f * f)
	// Horner for 1 + s/3 + s²/5 + … + s^11/23.
	p := 1.0 / 23
	for k := 21; k >= 1; k -= 2 {
		p = float64(p*s) + 1/float64(k)
	}
	const ln2hi, ln2lo = 6.93147180369123816490e-01, 1.90821492927058770002e-10
	fe := float64(e)
	return float64(fe*ln2hi) + (float64(fe*ln2lo) + float64(2*f)*p)
}

// stdNormal draws a standard normal with Marsaglia's polar method. It uses
// both of rng's uniforms per attempt and keeps the first variate only, so
// each draw is a pure function of the stream position.
func stdNormal(rng *rand.Rand) float64 {
	for {
		u := 2*rng.Float64() - 1
		v := 2*rng.Float64() - 1
		s := float64(u*u) + float64(v*v)
		if s >= 1 || s == 0 {
			continue
		}
		return u * math.Sqrt(-2*logOne(s)/s)
	}
}

// drawLatency draws from Normal(mu, sigma²) truncated at 0 (redrawn while
// negative, the spec's truncation). With sigma = 0 it draws nothing.
func drawLatency(rng *rand.Rand, mu, sigma float64) float64 {
	if sigma == 0 {
		return mu
	}
	for {
		if l := mu + float64(sigma*stdNormal(rng)); l >= 0 {
			return l
		}
	}
}

// drawGap draws a gap max(g, g + N(0, gs²)) = g + gs·max(0, Z): g is the
// lower bound of the slides' gap fluctuation. With gs = 0 it draws nothing.
func drawGap(rng *rand.Rand, g, gs float64) float64 {
	if gs == 0 {
		return g
	}
	return g + float64(gs*max(0, stdNormal(rng)))
}

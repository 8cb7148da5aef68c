package logp

import (
	"math"
	"math/rand/v2"

	"commlab/engine/detmath"
)

// The latency draws must be bit-identical natively and under js/wasm.
// rand.NormFloat64 calls math.Exp on its rare path and math.Log has amd64
// assembly that differs from the pure-Go code in the last bit, so the
// sampler here uses only exactly rounded operations (+ - * / and Sqrt,
// which IEEE 754 rounds exactly everywhere) and engine/detmath's
// logarithm. Every product that feeds a sum is wrapped in float64(...):
// the Go spec lets compilers fuse x*y + z into an FMA on some
// architectures unless the product is explicitly converted, which would
// change the last bit.

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
		return u * math.Sqrt(-2*detmath.Log(s)/s)
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

package detmath

import (
	"hash/fnv"
	"math"
	"math/rand/v2"
	"testing"
)

// ulps is how many representable doubles lie between a and b.
func ulps(a, b float64) int64 {
	d := int64(math.Float64bits(a)) - int64(math.Float64bits(b))
	if d < 0 {
		d = -d
	}
	return d
}

// TestLogAgainstMath: within 2 ulps of math.Log from subnormals to the
// largest double, on a spread of random inputs and on the edges of the
// reduction (√½, 1, 2).
func TestLogAgainstMath(t *testing.T) {
	xs := []float64{1, 0.5, 2, math.Sqrt2 / 2, math.Nextafter(math.Sqrt2/2, 0), math.Nextafter(1, 0), math.Nextafter(1, 2),
		0.1, 1e-300, 0x1p-1074, 0x1p-1022, math.MaxFloat64, 3e5, 0.999999, 0x1p-106}
	rng := rand.New(rand.NewPCG(1, 2))
	for range 200000 {
		xs = append(xs, math.Ldexp(0.5+rng.Float64()/2, rng.IntN(2098)-1074), rng.Float64())
	}
	worst := int64(0)
	for _, x := range xs {
		if x == 0 {
			continue
		}
		got, want := Log(x), math.Log(x)
		if x < 0x1p-1022 {
			// math.Log's amd64 assembly is wrong below the normal range
			// (it gives about −709 for 5e-324): scale into it exactly.
			want = math.Log(x*0x1p64) - 64*math.Ln2
			if math.Abs(got-want) > 1e-15*math.Abs(want) {
				t.Errorf("Log(%v) = %v, want %v", x, got, want)
			}
			continue
		}
		if u := ulps(got, want); u > worst {
			worst = u
			if u > 2 {
				t.Errorf("Log(%v) = %v, math.Log %v: %d ulps apart", x, got, want, u)
			}
		}
	}
	t.Logf("worst: %d ulp", worst)
}

// TestLogPinned pins the bits of Log on a million inputs: the same hash
// natively and under js/wasm (run the package's tests with
// GOOS=js GOARCH=wasm), and unchanged since engine/logp and
// engine/topology each kept a copy. A change here changes every sampled
// latency and delay. Do not edit the expected value.
func TestLogPinned(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	h := fnv.New64a()
	var b [8]byte
	for range 1 << 20 {
		v := math.Float64bits(Log(1 - rng.Float64()))
		for i := range b {
			b[i] = byte(v >> (8 * i))
		}
		h.Write(b[:])
	}
	const want = 0x38da590c69323b82
	if got := h.Sum64(); got != want {
		t.Fatalf("the bits of Log changed: hash %#x, want %#x", got, want)
	}
}

package topology

import (
	"math/rand/v2"
	"testing"
)

// failures runs trials random trees (2 … maxNodes nodes) through both
// inference steps with DefaultNet at the given per-ping noise mean (µs) and
// counts the inferred trees that are not isomorphic to the true ones.
func failures(noise float64, trials, maxNodes int, seed uint64) int {
	n := DefaultNet()
	n.Noise = noise
	rng := rand.New(rand.NewPCG(seed, 99))
	fails := 0
	for range trials {
		tr := Random(rng, 2+rng.IntN(maxNodes-1))
		rtt := MeasureRTT(tr, n, rng)
		groups, err := InferLeaves(rtt)
		if err != nil {
			fails++
			continue
		}
		got, _, err := InferTree(tr.Nodes, groups, Measured{tr})
		if err != nil || !Isomorphic(got, tr) {
			fails++
		}
	}
	return fails
}

// noiseThreshold is the smallest per-ping noise mean (µs, in steps of
// 0.25) at which any of trials random trees is inferred wrong; 0 if none
// up to 40 µs.
func noiseThreshold(trials, maxNodes int, seed uint64) float64 {
	for noise := 0.25; noise <= 40; noise += 0.25 {
		if failures(noise, trials, maxNodes, seed) > 0 {
			return noise
		}
	}
	return 0
}

// TestNoiseThreshold finds where inference starts to fail: the property
// test's noise (DefaultNet's 2 µs per ping) must be well inside, and the
// sweep must find a failure (so the property test could fail too).
// DefaultNet: 5 µs per link, so neighbouring switches are 10 µs apart in
// RTT; 5 pings per measurement.
func TestNoiseThreshold(t *testing.T) {
	if testing.Short() {
		t.Skip("sweep")
	}
	th := noiseThreshold(40, 120, 3)
	t.Logf("inference starts to fail at %.2f µs mean per-ping noise (hop latency 5 µs, 5 pings)", th)
	if th == 0 {
		t.Fatal("no failure up to 40 µs of noise: the sweep cannot see the limit")
	}
	if th < 1.5*DefaultNet().Noise {
		t.Errorf("fails from %.2f µs, within 1.5× of DefaultNet's %.2f µs", th, DefaultNet().Noise)
	}
	// Well past the threshold most trees come out wrong.
	if f := failures(2*th, 40, 120, 4); f < 20 {
		t.Errorf("at %.2f µs only %d/40 trees wrong", 2*th, f)
	}
}

// BenchmarkNoiseThreshold reports the same level as a metric.
func BenchmarkNoiseThreshold(b *testing.B) {
	var th float64
	for b.Loop() {
		th = noiseThreshold(40, 120, 3)
	}
	b.ReportMetric(th, "µs-noise-at-first-failure")
	b.ReportMetric(th/DefaultNet().HopLatency, "noise/hop-latency")
}

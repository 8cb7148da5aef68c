package lp

import (
	"math/rand/v2"
	"testing"

	"commlab/engine/mmdl"
)

// The target: the LP for 64 processors in under 1 s. Two clusters
// of 32: β inside a cluster is the paper's 34 µs, across it is four times
// that.
func BenchmarkPairwise64(b *testing.B) {
	const p = 64
	r := rand.New(rand.NewPCG(6, p))
	in := mmdl.Instance{MHz: make([]float64, p), Tasks: make([]float64, p),
		Compute: mmdl.ComputeAfter, Comm: mmdl.CommAfter, Latency: mmdl.PaperLatency, Throughput: mmdl.PaperBitRate}
	for i := range p {
		in.MHz[i] = float64(2000 + 100*r.IntN(5))
		in.Tasks[i] = float64(r.IntN(150000))
	}
	beta := Uniform(p, in.Beta())
	for i := range p {
		for j := range p {
			if i != j && i/32 != j/32 {
				beta[i][j] *= 4
			}
		}
	}
	for b.Loop() {
		if _, err := SteadyStatePairwise(in, beta); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Milliseconds())/float64(b.N), "ms/solve")
}

package mmdl

import (
	"math/rand/v2"
	"testing"
)

func benchInstance(p int) Instance {
	r := rand.New(rand.NewPCG(6, uint64(p)))
	in := Instance{MHz: make([]float64, p), Tasks: make([]float64, p),
		Compute: ComputeAfter, Comm: CommAfter, Latency: PaperLatency, Throughput: PaperBitRate}
	for i := range p {
		in.MHz[i] = float64(2000 + 100*r.IntN(5))
		in.Tasks[i] = float64(r.IntN(150000))
	}
	return in
}

// The target: the closed form for 10,000 processors in under 10 ms.
func BenchmarkSteadyState10000(b *testing.B) {
	in := benchInstance(10000)
	for b.Loop() {
		if _, err := SteadyStateSparse(in); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Milliseconds())/float64(b.N), "ms/solve")
}

// The target: the schedule of 64 processors and R = 100 simulated
// in under 100 ms.
func BenchmarkRounds64R100(b *testing.B) {
	in := benchInstance(64)
	st, err := SteadyState(in)
	if err != nil {
		b.Fatal(err)
	}
	var ops int
	for b.Loop() {
		s, err := Rounds(in, st, 100, Paper)
		if err != nil {
			b.Fatal(err)
		}
		ops = len(s.Ops)
	}
	b.ReportMetric(float64(ops), "ops")
}

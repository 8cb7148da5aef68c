package allreduce

import (
	"fmt"
	"math/rand/v2"
	"testing"
)

// BenchmarkButterfly measures one trial (K butterfly stages and K redundant
// exchanges, both jitters on, the paper's defaults) and reports ns per
// process-stage update: one process through one stage, conventional or
// redundant. The target is ≤ 2.5 ns at P = 2^20 on one core.
func BenchmarkButterfly(b *testing.B) {
	for _, k := range []int{10, 16, 20} {
		b.Run(fmt.Sprintf("P=2^%d", k), func(b *testing.B) {
			p := Default()
			p.P, p.T = 1<<k, k
			var s Simulator
			rng := rand.New(rand.NewPCG(1, 1))
			if _, err := s.Run(p, rng, nil); err != nil { // allocate outside the loop
				b.Fatal(err)
			}
			for b.Loop() {
				if _, err := s.Run(p, rng, nil); err != nil {
					b.Fatal(err)
				}
			}
			updates := float64(b.N) * float64(2*k) * float64(p.P)
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/updates, "ns/update")
			b.ReportMetric(updates/b.Elapsed().Seconds(), "updates/s")
		})
	}
}

// BenchmarkTrialMemory runs one trial at P = 2^24 (the memory
// target: under 2 GB) and reports the bytes the simulator holds.
func BenchmarkTrialMemory(b *testing.B) {
	p := Default()
	p.P, p.T = 1<<24, 24
	var s Simulator
	rng := rand.New(rand.NewPCG(1, 1))
	for b.Loop() {
		if _, err := s.Run(p, rng, nil); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(cap(s.procs))*32/(1<<20), "MiB-state")
}

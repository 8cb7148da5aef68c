package allreduce

import (
	"math/rand/v2"
	"testing"
)

func BenchmarkQuiet(b *testing.B) {
	for _, mode := range []string{"none", "os", "net", "both"} {
		b.Run(mode, func(b *testing.B) {
			p := Default()
			p.P, p.T = 1<<16, 16
			p.OSJitter = mode == "os" || mode == "both"
			p.NetNoise = mode == "net" || mode == "both"
			var s Simulator
			rng := rand.New(rand.NewPCG(1, 1))
			for b.Loop() {
				s.Run(p, rng, nil)
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/(float64(b.N)*32*float64(p.P)), "ns/update")
		})
	}
}

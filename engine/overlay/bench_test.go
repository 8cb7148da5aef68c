package overlay

import (
	"fmt"
	"testing"
)

// BenchmarkRunIS is one Integer Sort run of the paper's experiment (128
// processes, 64 nodes, 6 switches, NPB class A: 2^23 keys, 10 iterations)
// per policy; the issue asks for under 1 s.
func BenchmarkRunIS(b *testing.B) {
	for _, c := range []struct {
		pol   Policy
		cache int
	}{{Topology, 0}, {Topology, 8}, {All, 0}, {Random, 0}} {
		b.Run(fmt.Sprintf("procs=128/%s/cache=%d", c.pol, c.cache), func(b *testing.B) {
			p := Default()
			p.Policy, p.Cache = c.pol, c.cache
			var msgs int
			for b.Loop() {
				r, err := RunIS(p, rng(1), nil)
				if err != nil {
					b.Fatal(err)
				}
				msgs = r.Messages + r.Relayed
			}
			b.ReportMetric(float64(msgs)*float64(b.N)/b.Elapsed().Seconds(), "hops/s")
		})
	}
}

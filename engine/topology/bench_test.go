package topology

import (
	"fmt"
	"math/rand/v2"
	"testing"
)

// BenchmarkInfer1024 is the number: inference for 1,024 nodes from
// measurements in under 2 s (both steps, from the RTT matrix and the
// measured interference oracle). The tree: 4 levels, fan-out 4, 16 nodes
// per leaf switch (64 leaf switches).
func BenchmarkInfer(b *testing.B) {
	for _, nodes := range []int{256, 1024} {
		levels := map[int]int{256: 3, 1024: 4}[nodes]
		tr, err := Generate(levels, 4, 16)
		if err != nil {
			b.Fatal(err)
		}
		rtt := MeasureRTT(tr, DefaultNet(), rand.New(rand.NewPCG(1, 1)))
		b.Run(fmt.Sprintf("nodes=%d", nodes), func(b *testing.B) {
			for b.Loop() {
				groups, err := InferLeaves(rtt)
				if err != nil {
					b.Fatal(err)
				}
				got, _, err := InferTree(tr.Nodes, groups, Measured{tr})
				if err != nil {
					b.Fatal(err)
				}
				if !Isomorphic(got, tr) {
					b.Fatal("wrong tree")
				}
			}
			b.ReportMetric(b.Elapsed().Seconds()/float64(b.N), "s/infer")
		})
	}
}

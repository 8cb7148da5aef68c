package topology

import (
	"fmt"
	"math/rand/v2"
	"testing"
)

// BenchmarkInfer is the number: inference for 1,024 nodes in under
// 2 s (both steps, from the RTT matrix and the measured interference
// oracle), from either matrix kind: asymmetric (each node's own
// measurements, DefaultNet) and symmetric (each pair pinged once, the
// value written both ways; 0.5 µs mean delay). The tree: 4 levels, fan-out 4, 16 nodes per
// leaf switch (64 leaf switches).
func BenchmarkInfer(b *testing.B) {
	for _, nodes := range []int{256, 1024} {
		levels := map[int]int{256: 3, 1024: 4}[nodes]
		tr, err := Generate(levels, 4, 16)
		if err != nil {
			b.Fatal(err)
		}
		asym := MeasureRTT(tr, DefaultNet(), rand.New(rand.NewPCG(1, 1)))
		one := DefaultNet()
		one.Pings = 1
		one.Noise = 0.5 // a single ping of mean delay 2 µs is past the limit (TestOutsideThresholds)
		sym := MeasureRTT(tr, one, rand.New(rand.NewPCG(1, 2)))
		for u := range sym {
			for v := range u {
				sym[u][v] = sym[v][u]
			}
		}
		for _, kind := range []struct {
			name string
			rtt  [][]float64
		}{{"asymmetric", asym}, {"symmetric", sym}} {
			b.Run(fmt.Sprintf("nodes=%d/%s", nodes, kind.name), func(b *testing.B) {
				for b.Loop() {
					groups, err := InferLeaves(kind.rtt)
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
}

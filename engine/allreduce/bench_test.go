package allreduce

import (
	"fmt"
	"math/rand/v2"
	"runtime"
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

// BenchmarkTrialMemory runs one trial at P = 2^24 (the target:
// under 2 GB) and reports the heap the Go runtime holds from the system
// at the end (HeapSys: every live and freed-but-kept span).
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
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	b.ReportMetric(float64(ms.HeapSys)/(1<<20), "MiB-heap")
}

// BenchmarkQuiet splits the noise cost: one trial at P = 2^16 with no
// jitter, OS jitter only, network noise only, and both; "stationary" is
// both with os_phase=stationary (the model before os_phase, bit for bit),
// "compute" both with os_hits=compute.
func BenchmarkQuiet(b *testing.B) {
	for _, mode := range []string{"none", "os", "net", "both", "stationary", "compute"} {
		b.Run(mode, func(b *testing.B) {
			p := Default()
			p.P, p.T = 1<<16, 16
			both := mode == "both" || mode == "stationary" || mode == "compute"
			p.OSJitter = mode == "os" || both
			p.NetNoise = mode == "net" || both
			if mode == "stationary" {
				p.OSPhase = PhaseStationary
			}
			if mode == "compute" {
				p.OSHits = HitsCompute
			}
			var s Simulator
			rng := rand.New(rand.NewPCG(1, 1))
			for b.Loop() {
				s.Run(p, rng, nil)
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/(float64(b.N)*32*float64(p.P)), "ns/update")
		})
	}
}

// BenchmarkSweepCorners runs one trial at P = 2^16 at the corners of the
// paper's sweeps, where the noise is heaviest, and reports ns per update.
func BenchmarkSweepCorners(b *testing.B) {
	for _, set := range PaperSets(true) {
		for _, xi := range []int{0, len(set.XExp) - 1} {
			p, ok := set.Point(xi, 16)
			if !ok {
				continue
			}
			b.Run(fmt.Sprintf("set=%s/x=%s", set.Name, set.Label(xi)), func(b *testing.B) {
				var s Simulator
				rng := rand.New(rand.NewPCG(1, 1))
				for b.Loop() {
					if _, err := s.Run(p, rng, nil); err != nil {
						b.Fatal(err)
					}
				}
				b.ReportMetric(float64(b.Elapsed().Nanoseconds())/(float64(b.N)*Updates(p)), "ns/update")
			})
		}
	}
}

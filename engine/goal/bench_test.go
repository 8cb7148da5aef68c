package goal

import (
	"bytes"
	"fmt"
	"io"
	"math/rand/v2"
	"testing"
)

// butterflyText writes a butterfly allreduce of P = 2^k ranks as GOAL,
// the shape of export.Butterfly (which this package cannot import): per
// stage a send, a recv and a reduction, three requires.
func butterflyText(w io.Writer, P int, T int) error {
	K := 0
	for 1<<K < P {
		K++
	}
	gw := NewWriter(w, P)
	for i := range P {
		gw.StartRank(i)
		var last Label
		for k := 1; k <= K; k++ {
			peer := uint32(i ^ 1<<(k-1))
			s := gw.Send(8, peer, uint32(k))
			if last > 0 {
				gw.Requires(s, last)
			}
			r := gw.Recv(8, peer, uint32(k))
			c := gw.Calc(100)
			gw.Requires(c, r)
			if last > 0 {
				gw.Requires(c, last)
			}
			last = c
		}
		for j := 1; j <= T; j++ {
			peer := uint32(i ^ 1<<(j-1))
			s := gw.Send(8, peer, uint32(K+j))
			gw.Requires(s, last)
			gw.Recv(8, peer, uint32(K+j))
		}
		gw.EndRank()
	}
	return gw.Close()
}

// butterfly reads butterflyText(P, T) as a schedule, without labels.
func butterfly(t testing.TB, P, T int) *Schedule {
	t.Helper()
	var buf bytes.Buffer
	if err := butterflyText(&buf, P, T); err != nil {
		t.Fatal(err)
	}
	s, err := Read(&buf, "butterfly.goal", ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// BenchmarkRead is the reader's speed on a butterfly allreduce's text
// (target: 200 MB/s on one core).
func BenchmarkRead(b *testing.B) {
	for _, P := range []int{1 << 10, 1 << 14} {
		var buf bytes.Buffer
		if err := butterflyText(&buf, P, 0); err != nil {
			b.Fatal(err)
		}
		text := buf.Bytes()
		b.Run(fmt.Sprintf("butterfly/P=%d", P), func(b *testing.B) {
			b.SetBytes(int64(len(text)))
			c0 := cpuSeconds()
			for b.Loop() {
				if _, err := Read(bytes.NewReader(text), "b", ReadOptions{SizeHint: int64(len(text))}); err != nil {
					b.Fatal(err)
				}
			}
			reportCPU(b, c0, float64(len(text))/1e6, "MB/s")
		})
	}
}

// BenchmarkRun is the executor's speed in schedule operations a second
// (target: 20 M on one core), on butterflies, and on random partners
// (no target: beyond the caches every message is a miss at a random
// rank; it shows what prefetching, exec.scattered, is for).
func BenchmarkRun(b *testing.B) {
	for _, c := range []struct {
		name   string
		P, T   int
		rec    bool
		random bool
	}{
		{"butterfly/P=1024", 1 << 10, 0, false, false},
		{"butterfly/P=16384", 1 << 14, 0, false, false},
		{"butterfly/P=16384/T=4", 1 << 14, 4, false, false},
		{"butterfly/P=131072", 1 << 17, 0, false, false},
		{"butterfly/P=1024/record", 1 << 10, 0, true, false},
		{"random-pairs/P=131072", 1 << 17, 0, false, true},
	} {
		b.Run(c.name, func(b *testing.B) {
			// built here, so that -bench picks one case without the others' texts
			var buf bytes.Buffer
			write := func() error { return butterflyText(&buf, c.P, c.T) }
			if c.random {
				write = func() error { return randomPairsText(&buf, c.P, 17) }
			}
			if err := write(); err != nil {
				b.Fatal(err)
			}
			s, err := Read(&buf, "b", ReadOptions{SizeHint: int64(buf.Len())})
			if err != nil {
				b.Fatal(err)
			}
			buf = bytes.Buffer{}
			var x Executor // reused, as a sweep or a scene would
			c0 := cpuSeconds()
			for b.Loop() {
				if _, err := x.Run(s, Default(), Noise{}, Options{Record: c.rec}); err != nil {
					b.Fatal(err)
				}
			}
			reportCPU(b, c0, float64(s.NumOps()), "ops/s")
			reportEstimate(b, c0, EstimateSchedule(s, c.rec).Seconds)
		})
	}
}

// reportCPU reports work per second of wall time (unit) and of the
// process's CPU time (cpu-unit), work being per iteration.
func reportCPU(b *testing.B, c0, work float64, unit string) {
	total := work * float64(b.N)
	b.ReportMetric(total/b.Elapsed().Seconds(), unit)
	if c := cpuSeconds() - c0; c > 0 {
		b.ReportMetric(total/c, "cpu-"+unit)
	}
}

// randomPairsText writes K stages of exchanges between random partners
// as GOAL: in stage k rank r sends to perm_k(r) and receives from its
// inverse (permutations seeded), then reduces, like the butterfly's
// stages. Beyond the caches every message lands at a random rank: the
// case prefetching is for (exec.scattered).
func randomPairsText(w io.Writer, P, K int) error {
	rng := rand.New(rand.NewPCG(uint64(P), uint64(K)))
	to, from := make([][]int, K), make([][]int, K)
	for k := range K {
		to[k], from[k] = rng.Perm(P), make([]int, P)
		for r, q := range to[k] {
			from[k][q] = r
		}
	}
	gw := NewWriter(w, P)
	for r := range P {
		gw.StartRank(r)
		var last Label
		for k := range K {
			s := gw.Send(8, uint32(to[k][r]), uint32(k+1))
			if last > 0 {
				gw.Requires(s, last)
			}
			rv := gw.Recv(8, uint32(from[k][r]), uint32(k+1))
			c := gw.Calc(100)
			gw.Requires(c, rv)
			if last > 0 {
				gw.Requires(c, last)
			}
			last = c
		}
		gw.EndRank()
	}
	return gw.Close()
}

package overlay

import (
	"context"
	"flag"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"strings"
	"testing"

	"commlab/engine/sweep"
)

// The Fig. 5 grid (docs/overlay.md): go test ./engine/overlay/ -run
// '^TestFig5Grid$' -v -timeout 0 -fig5 [-fig5.seeds 5] [-fig5.iterations
// 10] [-fig5.chunks 0,1024,512,256,128] [-fig5.out fig5.csv]. The defaults
// take about 25 CPU-minutes, most of them the 128 B and 256 B chunks.
var (
	fig5       = flag.Bool("fig5", false, "run the Fig. 5 grid (policies × caches × chunk sizes × seeds) and print its table")
	fig5Seeds  = flag.Int("fig5.seeds", 5, "seeds per cell of the Fig. 5 grid, in [2, 30]")
	fig5Iters  = flag.Int("fig5.iterations", 10, "IS iterations per run of the Fig. 5 grid")
	fig5Out    = flag.String("fig5.out", "", "write the Fig. 5 grid's runs as CSV to this file")
	fig5Chunks = intList{0, 1024, 512, 256, 128}
	fig5Caches = []int{0, 1, 2, 4, 8, 16, 32}
)

func init() {
	flag.Var(&fig5Chunks, "fig5.chunks", "chunk sizes of the Fig. 5 grid in bytes, comma-separated (0: whole messages)")
}

// intList is a comma-separated flag of integers.
type intList []int

func (l *intList) String() string { return strings.Trim(fmt.Sprint([]int(*l)), "[]") }

func (l *intList) Set(s string) error {
	*l = nil
	for _, f := range strings.Split(s, ",") {
		var v int
		if _, err := fmt.Sscan(strings.TrimSpace(f), &v); err != nil || v < 0 {
			return fmt.Errorf("%q is not a chunk size (an integer ≥ 0)", f)
		}
		*l = append(*l, v)
	}
	return nil
}

// fig5Case is one bar of Fig. 5 at one chunk size.
type fig5Case struct {
	label string
	pol   Policy
	cache int
	hs    Handshake
	chunk int
}

func fig5Cases() []fig5Case {
	var cs []fig5Case
	for _, ch := range fig5Chunks {
		for _, hs := range Handshakes {
			for _, c := range fig5Caches {
				if c == 0 && hs != HandshakeKernel {
					continue // no shortcut: the handshake does not matter
				}
				cs = append(cs, fig5Case{fmt.Sprintf("topology C=%d", c), Topology, c, hs, ch})
			}
		}
		cs = append(cs, fig5Case{"all", All, 0, HandshakeKernel, ch}, fig5Case{"random", Random, 0, HandshakeKernel, ch})
	}
	return cs
}

// t975 is Student's t quantile 0.975 for 1 … 29 degrees of freedom.
var t975 = [...]float64{0, 12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179, 2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086, 2.080, 2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048, 2.045}

// meanCI is the mean of xs and the half-width of its 95 % t-interval.
func meanCI(xs []float64) (mean, half float64) {
	n := float64(len(xs))
	for _, x := range xs {
		mean += x / n
	}
	var ss float64
	for _, x := range xs {
		ss += (x - mean) * (x - mean)
	}
	return mean, t975[len(xs)-1] * math.Sqrt(ss/(n-1)/n)
}

// TestFig5Grid runs Fig. 5 again: topology-aware connections with shortcut
// caches of 0 … 32 under both handshakes, "all" and "random", for whole key
// messages and chunks of 1024 … 128 bytes, each cell over several seeds.
// One seed gives every cell the same keys (common random numbers), so the
// differences between cells are paired by seed. It checks what must hold
// whatever the numbers: "all" never relays, and C = 0 is the same run
// under both handshakes.
func TestFig5Grid(t *testing.T) {
	if !*fig5 {
		t.Skip("the Fig. 5 grid takes about 25 CPU-minutes: run with -fig5")
	}
	if *fig5Seeds < 2 || *fig5Seeds >= len(t975) {
		t.Fatalf("-fig5.seeds = %d: want an integer in [2, %d]", *fig5Seeds, len(t975)-1)
	}
	cases := fig5Cases()
	params := func(c fig5Case) Params {
		p := Default()
		p.Iterations = *fig5Iters
		p.Policy, p.Cache, p.Handshake, p.ChunkBytes = c.pol, c.cache, c.hs, c.chunk
		return p
	}
	const seed = 2004
	res, err := sweep.Run(context.Background(), sweep.Plan{Points: len(cases), Trials: *fig5Seeds, Seed: seed,
		Cost: func(i int) float64 { return Messages(params(cases[i])) }},
		func() struct{} { return struct{}{} },
		func(_ struct{}, i, trial int, _ *rand.Rand) (Result, error) {
			// The same source for every cell of a trial.
			r, err := RunIS(params(cases[i]), sweep.RNG(seed, 0, trial), nil)
			r.Events = nil
			return r, err
		})
	if err != nil {
		t.Fatal(err)
	}
	var csv strings.Builder
	csv.WriteString("chunk_bytes,policy,cache,handshake,seed,time_s,messages,relayed,shortcuts_opened,evicted,conn_mean,conn_max\n")
	for i, c := range cases {
		for s, r := range res[i] {
			fmt.Fprintf(&csv, "%d,%s,%d,%s,%d,%.9g,%d,%d,%d,%d,%.4g,%.4g\n", c.chunk, c.pol, c.cache, c.hs, s, r.Time, r.Messages, r.Relayed, r.ShortcutsOpened, r.Evicted, r.ConnMean, r.ConnMax)
		}
	}
	if *fig5Out != "" {
		if err := os.WriteFile(*fig5Out, []byte(csv.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	// The table: per chunk size, every bar with its interval, and the
	// paired differences against "all" and against C = 0.
	find := func(label string, hs Handshake, chunk int) int {
		for i, c := range cases {
			if c.label == label && c.hs == hs && c.chunk == chunk {
				return i
			}
		}
		return -1
	}
	times := func(i int) []float64 {
		xs := make([]float64, len(res[i]))
		for s, r := range res[i] {
			xs[s] = r.Time
		}
		return xs
	}
	diff := func(i, j int) []float64 { // relative, paired by seed
		xs := times(i)
		for s, y := range times(j) {
			xs[s] = xs[s]/y - 1
		}
		return xs
	}
	fmt.Printf("Fig. 5 grid: %d seeds per cell, %d iterations, mean ± 95 %% t-interval half-width; differences paired by seed\n\n", *fig5Seeds, *fig5Iters)
	fmt.Println("| chunk | connections | handshake | time (ms) | relayed (k) | conn. mean | vs all | vs C = 0 |")
	fmt.Println("|---|---|---|---|---|---|---|---|")
	for i, c := range cases {
		m, h := meanCI(times(i))
		all, c0 := find("all", HandshakeKernel, c.chunk), find("topology C=0", HandshakeKernel, c.chunk)
		var rel, conn float64
		for _, r := range res[i] {
			rel += float64(r.Relayed) / float64(len(res[i]))
			conn += r.ConnMean / float64(len(res[i]))
		}
		vsAll, vs0 := "", ""
		if i != all {
			dm, dh := meanCI(diff(i, all))
			vsAll = fmt.Sprintf("%+.1f ± %.1f %%", 100*dm, 100*dh)
		}
		if c.pol == Topology && c.cache > 0 {
			dm, dh := meanCI(diff(i, c0))
			vs0 = fmt.Sprintf("%+.1f ± %.1f %%", 100*dm, 100*dh)
		}
		chunk := "whole"
		if c.chunk > 0 {
			chunk = fmt.Sprintf("%d B", c.chunk)
		}
		hs := string(c.hs)
		if c.pol != Topology || c.cache == 0 {
			hs = "–"
		}
		fmt.Printf("| %s | %s | %s | %.1f ± %.1f | %.0f | %.1f | %s | %s |\n", chunk, c.label, hs, 1e3*m, 1e3*h, rel/1e3, conn, vsAll, vs0)
		if c.pol == All && rel != 0 {
			t.Errorf("chunk %d: all relayed %g messages", c.chunk, rel)
		}
	}
	for _, ch := range fig5Chunks {
		k, a := times(find("topology C=0", HandshakeKernel, ch)), res[find("topology C=0", HandshakeKernel, ch)]
		p := params(cases[find("topology C=0", HandshakeKernel, ch)])
		p.Handshake = HandshakeApplication
		r, err := RunIS(p, sweep.RNG(seed, 0, 0), nil)
		if err != nil {
			t.Fatal(err)
		}
		if r.Time != k[0] || r.Relayed != a[0].Relayed {
			t.Errorf("chunk %d, C = 0: %v s under the application's handshake, %v s under the kernel's", ch, r.Time, k[0])
		}
	}
}

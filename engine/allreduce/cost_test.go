package allreduce

import (
	"math/rand/v2"
	"testing"
	"time"

	"commlab/engine/cost"
	"commlab/engine/trace"
)

// TestEstimateBoundsRun holds Estimate's memory to what a trial allocates
// (within 2x: measured ≤ estimate ≤ 2·measured, plus the fixed 64 kB) across
// P, message sizes, jitter periods and tracing, and logs the time per event
// (the constants of cost.go come from these lines).
func TestEstimateBoundsRun(t *testing.T) {
	base := Default()
	type tc struct {
		name   string
		edit   func(*Params)
		traced bool
	}
	cases := []tc{
		{"P=2^10", func(p *Params) { p.P, p.T = 1<<10, 10 }, false},
		{"P=2^16", func(p *Params) { p.P, p.T = 1<<16, 16 }, false},
		{"P=2^17 quiet", func(p *Params) { p.P, p.T, p.OSJitter, p.NetNoise = 1<<17, 17, false, false }, false},
		{"P=2^12 traced", func(p *Params) { p.P = 1 << 12 }, true},
		{"P=64 traced", func(p *Params) { p.P, p.T = 64, 6 }, true},
		{"P=64 N=1e7 period=1e-5 traced", func(p *Params) { p.P, p.T, p.N, p.Period, p.Duration = 64, 6, 1e7, 1e-5, 1e-6 }, true},
		{"P=128 N=1e8 period=1e-4 traced", func(p *Params) { p.P, p.T, p.N, p.Period, p.Duration = 128, 7, 1e8, 1e-4, 1e-6 }, true},
		{"P=64 N=1e7 period=1e-6", func(p *Params) { p.P, p.T, p.N, p.Period, p.Duration = 64, 6, 1e7, 1e-6, 1e-7 }, false},
		{"P=256 N=1e9 net", func(p *Params) { p.P, p.T, p.N, p.OSJitter = 256, 8, 1e9, false }, false},
	}
	for _, c := range cases {
		p := base
		c.edit(&p)
		if err := p.Validate(); err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		est := Estimate(p, c.traced)
		var s Simulator
		var rec *trace.Trace
		if c.traced {
			rec = new(trace.Trace)
		}
		var took time.Duration
		got := cost.Allocated(func() {
			t0 := time.Now()
			if _, err := s.Run(p, rand.New(rand.NewPCG(1, 2)), rec); err != nil {
				t.Fatal(err)
			}
			took = time.Since(t0)
		})
		t.Logf("%-32s est %10.3g B  got %10.3g B  ratio %.2f   est %8.3g s  took %8.3g s  (%.3g events, %.3g records)",
			c.name, est.Bytes, got, est.Bytes/got, est.Seconds, took.Seconds(), est.Events, est.Spans)
		if !cost.Holds(est.Bytes, got, 64<<10) {
			t.Errorf("%s: estimate %s, allocated %s: want within [1, 2]x", c.name, cost.Bytes(est.Bytes), cost.Bytes(got))
		}
	}
}

package overlay

import (
	"math/rand/v2"
	"testing"
	"time"

	"commlab/engine/cost"
	"commlab/engine/trace"
)

// TestEstimateBoundsRun holds Estimate's memory to what RunIS allocates
// (within 2x) across process counts, iterations, chunking and tracing
// (512 processes, 1 iteration: 574 MB estimated, 555 MB allocated; too slow
// to keep here),
// and logs the time per message (nsMessage comes from these lines).
func TestEstimateBoundsRun(t *testing.T) {
	for _, c := range []struct {
		name   string
		edit   func(*Params)
		traced bool
	}{
		{"it=1", func(p *Params) { p.Iterations = 1 }, false},
		{"procs=192 it=1", func(p *Params) { p.Nodes, p.Procs, p.Iterations = 96, 192, 1 }, false},
		{"all it=2", func(p *Params) { p.Iterations, p.Policy = 2, All }, false},
		{"all procs=64 it=2", func(p *Params) { p.Nodes, p.Procs, p.Iterations, p.Policy = 32, 64, 2, All }, false},
		{"C=0 it=4", func(p *Params) { p.Iterations, p.Cache = 4, 0 }, false},
		{"chunks", func(p *Params) { p.ChunkBytes, p.Iterations = 4096, 1 }, false},
		{"traced", func(p *Params) { p.Iterations = 1 }, true},
	} {
		p := Default()
		c.edit(&p)
		if err := p.Validate(); err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		est := Estimate(p, c.traced)
		var rec *trace.Trace
		if c.traced {
			rec = new(trace.Trace)
		}
		var took time.Duration
		got := cost.Allocated(func() {
			t0 := time.Now()
			if _, err := RunIS(p, rand.New(rand.NewPCG(1, 2)), rec); err != nil {
				t.Fatal(err)
			}
			took = time.Since(t0)
		})
		t.Logf("%-20s est %9.3g B got %9.3g B ratio %.2f  est %7.3g s took %7.3g s (%.3g messages, %.0f ns/message)",
			c.name, est.Bytes, got, est.Bytes/got, est.Seconds, took.Seconds(), Messages(p), (took.Seconds()-nsKey*1e-9*float64(p.Keys))*1e9/Messages(p))
		if !cost.Holds(est.Bytes, got, 64<<10) {
			t.Errorf("%s: estimate %s, allocated %s: want within [1, 2]x", c.name, cost.Bytes(est.Bytes), cost.Bytes(got))
		}
	}
}

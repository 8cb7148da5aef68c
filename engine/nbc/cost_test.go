package nbc

import (
	"testing"
	"time"

	"commlab/engine/cost"
)

// TestEstimateBoundsRun holds Estimate's memory to what Run allocates
// (within 2x, plus the fixed 128 kB) across nodes, collectives, methods and progress-call rates,
// and logs the times (the constants of cost.go come from these lines).
func TestEstimateBoundsRun(t *testing.T) {
	for _, c := range []struct {
		name string
		edit func(*Params)
	}{
		{"default", func(p *Params) {}},
		{"nodes=128 coll=4 tcc", func(p *Params) { p.Nodes, p.Collectives = 128, 4 }},
		{"nodes=64 coll=16 mpi", func(p *Params) { p.Nodes, p.Collectives, p.Method = 64, 16, MPI }},
		{"nodes=64 nbct", func(p *Params) { p.Nodes, p.Method = 64, NBCT }},
		{"nbcf-test matrix=200000", func(p *Params) { p.Method, p.Matrix = NBCFTest, 200000 }},
		{"nbcf-test nodes=128 coll=4", func(p *Params) { p.Method, p.Nodes, p.Collectives = NBCFTest, 128, 4 }},
	} {
		p := Default()
		c.edit(&p)
		if err := p.Validate(); err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		est := Estimate(p)
		var took time.Duration
		got := cost.Allocated(func() {
			t0 := time.Now()
			if _, err := Run(p, nil); err != nil {
				t.Fatal(err)
			}
			took = time.Since(t0)
		})
		t.Logf("%-28s est %9.3g B got %9.3g B ratio %.2f  est %7.3g s took %7.3g s (%.3g messages, %.3g calls)",
			c.name, est.Bytes, got, est.Bytes/got, est.Seconds, took.Seconds(), Messages(p), Calls(p))
		if !cost.Holds(est.Bytes, got, fixedBytes) {
			t.Errorf("%s: estimate %s, allocated %s: want within [1, 2]x", c.name, cost.Bytes(est.Bytes), cost.Bytes(got))
		}
	}
}

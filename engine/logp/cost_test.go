package logp

import (
	"testing"
	"time"

	"commlab/engine/cost"
)

// TestEstimateBoundsRun holds Estimate to what Plan and Expected allocate
// and take: Used and Ops as the plan has them, memory within 2x, and logs
// the time per operation (nsOp comes from these lines).
func TestEstimateBoundsRun(t *testing.T) {
	for _, c := range []struct{ P, n, trials int }{
		{3, 1000, 2000}, {32, 1000, 2000}, {256, 100_000, 200}, {1024, 1_000_000, 20}, {1024, 1_000_000_000, 5},
	} {
		p := Default()
		p.P, p.N = c.P, c.n
		est := Estimate(p, p.L, c.trials, 1)
		var took time.Duration
		got := cost.Allocated(func() {
			t0 := time.Now()
			if _, _, err := Expected(p, p.L, c.trials, 1); err != nil {
				t.Fatal(err)
			}
			took = time.Since(t0)
		})
		s, err := Plan(p, p.L)
		if err != nil {
			t.Fatal(err)
		}
		if u := Used(p, p.L); u != s.Used {
			t.Errorf("P=%d n=%d: Used = %d, the plan uses %d", c.P, c.n, u, s.Used)
		}
		if ops := Ops(p, p.L); len(s.Prog.Ops) > ops || 2*len(s.Prog.Ops) < ops {
			t.Errorf("P=%d n=%d: Ops = %d, the plan has %d: want within 2x above", c.P, c.n, ops, len(s.Prog.Ops))
		}
		t.Logf("P=%-5d n=%-10d trials=%-5d est %9.3g B got %9.3g B ratio %.2f  est %8.3g s took %8.3g s (%d ops)",
			c.P, c.n, c.trials, est.Bytes, got, est.Bytes/got, est.Seconds, took.Seconds(), len(s.Prog.Ops))
		if !cost.Holds(est.Bytes, got, 64<<10) {
			t.Errorf("P=%d n=%d: estimate %s, allocated %s: want within [1, 2]x", c.P, c.n, cost.Bytes(est.Bytes), cost.Bytes(got))
		}
	}
}

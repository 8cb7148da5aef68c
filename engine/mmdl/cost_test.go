package mmdl

import (
	"testing"
	"time"

	"commlab/engine/cost"
)

// TestEstimateBoundsRun holds Estimate's memory to what Rounds allocates
// (within 2x) across processors, rounds and both schedules, and logs the
// time per operation (nsOp and opBytes come from these lines).
func TestEstimateBoundsRun(t *testing.T) {
	for _, c := range []struct {
		p, R  int
		sched Sched
	}{
		{16, 100, Paper}, {64, 400, Paper}, {256, 100, Paper}, {64, 400, Overlap}, {256, 100, Overlap}, {1024, 10, Paper},
	} {
		in := benchInstance(c.p)
		st, err := SteadyState(in)
		if err != nil {
			t.Fatal(err)
		}
		var s *Schedule
		var took time.Duration
		got := cost.Allocated(func() {
			t0 := time.Now()
			if s, err = Rounds(in, st, c.R, c.sched); err != nil {
				t.Fatal(err)
			}
			took = time.Since(t0)
		})
		est := Estimate(c.p, len(st.Transfers), c.R)
		if float64(len(s.Ops)) > Ops(c.p, len(st.Transfers), c.R) {
			t.Errorf("p=%d R=%d: %d ops, over the bound %v", c.p, c.R, len(s.Ops), Ops(c.p, len(st.Transfers), c.R))
		}
		t.Logf("p=%-5d R=%-5d %-7v flows %-5d ops %-8d (bound %8.0f) est %9.3g B got %9.3g B ratio %.2f  est %7.3g s took %7.3g s",
			c.p, c.R, c.sched, len(st.Transfers), len(s.Ops), Ops(c.p, len(st.Transfers), c.R), est.Bytes, got, est.Bytes/got, est.Seconds, took.Seconds())
		if !cost.Holds(est.Bytes, got, 64<<10) {
			t.Errorf("p=%d R=%d %v: estimate %s, allocated %s: want within [1, 2]x", c.p, c.R, c.sched, cost.Bytes(est.Bytes), cost.Bytes(got))
		}
	}
}

package mmdl

import (
	"strings"
	"testing"
	"time"

	"commlab/engine/cost"
	"commlab/engine/cost/costtest"
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

// TestAdviceFits: a refusal's rounds fit, and when even one round is over
// the refusal says it is the processors.
func TestAdviceFits(t *testing.T) {
	b := cost.Budget{Name: "the command", Bytes: 4e9, Seconds: 600, Force: "-force"}
	est := Estimate(512, 511, 10000)
	if ways := costtest.AdviceFits(t, est, b); len(ways) != 1 || !strings.HasPrefix(ways[0], "lower rounds to at most ") {
		t.Errorf("512 processors, 10000 rounds: %v", est.Check(b))
	}
	msg := Estimate(1e7, 1e7, 100).Check(b).Error()
	if !strings.Contains(msg, "use fewer processors: rounds = 1 alone schedules 5e7 operations") {
		t.Errorf("ten million processors: %s", msg)
	}
}

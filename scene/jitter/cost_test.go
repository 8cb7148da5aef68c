package jitter

import (
	"regexp"
	"strconv"
	"testing"

	"commlab/engine/allreduce"
	"commlab/engine/cost"
)

// TestTrialsFitIsAccepted: when too many trials are refused, the number
// the message suggests is one the page accepts, and not far below the
// largest that fits (it once said 77 where 64 was the most, because only
// the trials scale with their number).
func TestTrialsFitIsAccepted(t *testing.T) {
	atMost := regexp.MustCompile(`lower trials to at most (\d+)`)
	for _, c := range []struct{ P, trials int }{{4096, 1000}, {4096, 200}, {1024, 5000}} {
		p := allreduce.Default()
		p.P, p.T, p.N = c.P, 12, 1e6
		if c.P == 1024 {
			p.T = 10
		}
		err := Estimate(p, c.trials).Check(cost.Page)
		if err == nil {
			t.Fatalf("P=%d trials=%d: not refused; pick a heavier case", c.P, c.trials)
		}
		m := atMost.FindStringSubmatch(err.Error())
		if m == nil {
			t.Fatalf("P=%d trials=%d: %v: no trials suggested", c.P, c.trials, err)
		}
		n, _ := strconv.Atoi(m[1])
		if err := Estimate(p, n).Check(cost.Page); err != nil {
			t.Errorf("P=%d: the suggested %d trials are refused: %v", c.P, n, err)
		}
		if err := Estimate(p, n*5/4+1).Check(cost.Page); err == nil {
			t.Errorf("P=%d: %d trials suggested, but %d fit too", c.P, n, n*5/4+1)
		}
	}
}

package topology

import (
	"math/rand/v2"
	"testing"
	"time"

	"commlab/engine/cost"
)

// unknown answers no question: InferTree lists every one as needed.
type unknown struct{}

func (unknown) Interferes(a, b, c, d int) (bool, bool) { return false, false }

// TestEstimateBoundsRun holds the estimates to what measuring and inferring
// flat trees allocates (within 2x): the RTT matrix and leaf groups, the
// questions a measured tree answers and those an unobserved one lists as
// needed, whose count Questions gives exactly for a flat tree.
func TestEstimateBoundsRun(t *testing.T) {
	for _, c := range []struct{ n, s int }{{256, 4}, {512, 8}, {256, 32}, {512, 48}} {
		tr, err := Spread(c.n, c.s)
		if err != nil {
			t.Fatal(err)
		}
		var leaves [][]int
		var plan Plan
		t0 := time.Now()
		got := cost.Allocated(func() {
			rtt := MeasureRTT(tr, DefaultNet(), rand.New(rand.NewPCG(1, 2)))
			if leaves, err = InferLeaves(rtt); err != nil {
				t.Fatal(err)
			}
			if _, plan, err = InferTree(tr.Nodes, leaves, Measured{T: tr}); err != nil {
				t.Fatal(err)
			}
		})
		took := time.Since(t0)
		est := EstimateMeasure(tr)
		if q := Questions(len(leaves)); float64(len(plan.Used)) != q {
			t.Errorf("n=%d s=%d: %d questions asked, Questions = %v", c.n, c.s, len(plan.Used), q)
		}
		t.Logf("measure n=%-4d s=%-3d est %9.3g B got %9.3g B ratio %.2f  est %7.3g s took %7.3g s (%d questions)",
			c.n, c.s, est.Bytes, got, est.Bytes/got, est.Seconds, took.Seconds(), len(plan.Used))
		if !cost.Holds(est.Bytes, got, 64<<10) {
			t.Errorf("measure n=%d s=%d: estimate %s, allocated %s: want within [1, 2]x", c.n, c.s, cost.Bytes(est.Bytes), cost.Bytes(got))
		}
		t0 = time.Now()
		got = cost.Allocated(func() {
			_, plan, _ = InferTree(tr.Nodes, leaves, unknown{})
		})
		took = time.Since(t0)
		est = EstimateTree(len(leaves), false)
		if q := Questions(len(leaves)); float64(len(plan.Needed)) != q {
			t.Errorf("n=%d s=%d: %d questions needed, Questions = %v", c.n, c.s, len(plan.Needed), q)
		}
		t.Logf("infer   n=%-4d s=%-3d est %9.3g B got %9.3g B ratio %.2f  est %7.3g s took %7.3g s",
			c.n, c.s, est.Bytes, got, est.Bytes/got, est.Seconds, took.Seconds())
		if !cost.Holds(est.Bytes, got, 64<<10) {
			t.Errorf("infer n=%d s=%d: estimate %s, allocated %s: want within [1, 2]x", c.n, c.s, cost.Bytes(est.Bytes), cost.Bytes(got))
		}
	}
}

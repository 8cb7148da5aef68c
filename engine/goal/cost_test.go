package goal

import (
	"bytes"
	"testing"
	"time"

	"commlab/engine/cost"
)

// TestEstimateBoundsRun holds EstimateText to what reading and running a
// butterfly allreduce's GOAL text allocates (within 2x), with and without
// recording, and logs the time per byte (the constants come from these
// lines).
func TestEstimateBoundsRun(t *testing.T) {
	for _, c := range []struct {
		P, T   int
		record bool
	}{{1 << 8, 0, true}, {1 << 10, 0, false}, {1 << 12, 4, false}, {1 << 12, 0, true}} {
		var buf bytes.Buffer
		if err := butterflyText(&buf, c.P, c.T); err != nil {
			t.Fatal(err)
		}
		text := buf.Bytes()
		est := EstimateText(int64(len(text)), c.record)
		var took time.Duration
		got := cost.Allocated(func() {
			t0 := time.Now()
			s, err := Read(bytes.NewReader(text), "b", ReadOptions{SizeHint: int64(len(text))})
			if err != nil {
				t.Fatal(err)
			}
			if _, err := Run(s, Default(), Noise{}, Options{Record: c.record}); err != nil {
				t.Fatal(err)
			}
			took = time.Since(t0)
		})
		t.Logf("P=%-5d T=%d record=%-5v %9d bytes of text  est %9.3g B got %9.3g B ratio %.2f  est %7.3g s took %7.3g s",
			c.P, c.T, c.record, len(text), est.Bytes, got, est.Bytes/got, est.Seconds, took.Seconds())
		if !cost.Holds(est.Bytes, got, 1<<20) {
			t.Errorf("P=%d record=%v: estimate %s, allocated %s: want within [1, 2]x", c.P, c.record, cost.Bytes(est.Bytes), cost.Bytes(got))
		}
		// The run alone, on a schedule read before.
		s, err := Read(bytes.NewReader(text), "b", ReadOptions{SizeHint: int64(len(text))})
		if err != nil {
			t.Fatal(err)
		}
		est = EstimateRun(s.NumOps(), c.record)
		got = cost.Allocated(func() {
			t0 := time.Now()
			if _, err := Run(s, Default(), Noise{}, Options{Record: c.record}); err != nil {
				t.Fatal(err)
			}
			took = time.Since(t0)
		})
		t.Logf("P=%-5d T=%d record=%-5v %9d operations run       est %9.3g B got %9.3g B ratio %.2f  est %7.3g s took %7.3g s",
			c.P, c.T, c.record, s.NumOps(), est.Bytes, got, est.Bytes/got, est.Seconds, took.Seconds())
		if !cost.Holds(est.Bytes, got, 64<<10) {
			t.Errorf("P=%d record=%v: run estimate %s, allocated %s: want within [1, 2]x", c.P, c.record, cost.Bytes(est.Bytes), cost.Bytes(got))
		}
	}
}

package topology

import (
	"fmt"
	"testing"
)

// Two switches of two nodes, by hand. Naive: 12 RTT measurements (4 on a
// switch of 5 pings × 60 µs, 8 across of 5 × 70 µs: 4,000 µs) and one
// lone transfer of the one switch pair (10 ms). Scalable: node 1 pings 0
// (joins), 2 pings 1 (new group), 3 pings 0 then 2 (joins): 4
// measurements; 2's waits for node 1 (free at 300), 3's first for the
// links 2's uses (free at 650), its second runs 1,000 … 1,300. Two leaf
// switches need no interference question.
func TestPlansByHand(t *testing.T) {
	tr, _ := Generate(2, 2, 2)
	n := DefaultNet()
	if got, want := NaivePlan(tr, n), (MeasurePlan{Count: 13, Time: 14000, RTT: 12, Interference: 1, RTTTime: 4000, InterferenceTime: 10000}); got != want {
		t.Errorf("naive %+v\nwant  %+v", got, want)
	}
	if got, want := ScalablePlan(tr, n), (MeasurePlan{Count: 4, Time: 1300, RTT: 4, RTTTime: 1300}); got != want {
		t.Errorf("scalable %+v\nwant     %+v", got, want)
	}
}

// (AB)(CD): the naive plan's pair-pairs are 4·3·2·1/8 = 3 and its lone
// pairs 6; the scalable plan asks InferTree's 3 questions and the 6 lone
// transfers of the pairs in them. The first question and the lone
// transfers of its pairs share no link, so they run together; the other
// two questions cross the root and wait.
func TestPlansQuartet(t *testing.T) {
	tr, _ := Generate(3, 2, 2)
	n := DefaultNet()
	if p := NaivePlan(tr, n); p.Interference != 9 {
		t.Errorf("naive interference %d, want 9", p.Interference)
	}
	p := ScalablePlan(tr, n)
	if p.Interference != 3+6 {
		t.Errorf("scalable interference %d, want 9", p.Interference)
	}
	if p.InterferenceTime <= n.Probe || p.InterferenceTime >= 9*n.Probe {
		t.Errorf("scalable interference time %v, want between one and nine probes", p.InterferenceTime)
	}
}

// The scalable plan stays below the naive one and its advantage grows
// with N.
func TestPlansScale(t *testing.T) {
	n := DefaultNet()
	prevGain := 1.0
	for l := 2; l <= 4; l++ { // 4,096 nodes: BenchmarkPlans
		tr, _ := Generate(l, 4, 16)
		naive, scal := NaivePlan(tr, n), ScalablePlan(tr, n)
		t.Logf("N=%5d naive %12d meas %12.3g s, scalable %8d meas %9.3g s", len(tr.Nodes), naive.Count, naive.Time/1e6, scal.Count, scal.Time/1e6)
		if scal.Count >= naive.Count || scal.Time >= naive.Time {
			t.Errorf("N=%d: scalable %+v not below naive %+v", len(tr.Nodes), scal, naive)
		}
		gain := float64(naive.Count) / float64(scal.Count)
		if gain <= prevGain {
			t.Errorf("N=%d: naive/scalable count %.1f, not above %.1f at N/4", len(tr.Nodes), gain, prevGain)
		}
		prevGain = gain
	}
}

// BenchmarkPlans reports both plans vs N up to 4,096 (Generate(l, 4, 16)):
// the report page's numbers.
func BenchmarkPlans(b *testing.B) {
	n := DefaultNet()
	for l := 2; l <= 6; l++ {
		tr, _ := Generate(l, 4, 16)
		b.Run(fmt.Sprintf("nodes=%d", len(tr.Nodes)), func(b *testing.B) {
			var naive, scal MeasurePlan
			for b.Loop() {
				naive, scal = NaivePlan(tr, n), ScalablePlan(tr, n)
			}
			b.ReportMetric(float64(naive.Count), "naive-meas")
			b.ReportMetric(naive.Time/1e6, "naive-s")
			b.ReportMetric(float64(scal.Count), "scalable-meas")
			b.ReportMetric(scal.Time/1e6, "scalable-s")
		})
	}
}

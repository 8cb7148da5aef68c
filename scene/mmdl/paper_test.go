package mmdl

import (
	"maps"
	"strconv"
	"strings"
	"testing"

	"commlab/engine/mmdl"
	"commlab/scene"
)

func paperPoint(t *testing.T, set map[string]string) []scene.PaperNumber {
	t.Helper()
	return scene.PaperPoint(New(), values(set), build(t, set).Numbers())
}

// TestPaperPoint: every row of Table 4 (after calibration: simulated and
// measured; before: simulated) and of Table 5 shows the paper's makespan
// beside the run's, which is the engine's on the same instance.
func TestPaperPoint(t *testing.T) {
	type point struct {
		set        map[string]string
		sim, meas  float64
		cal        bool
		sourceHint string
	}
	var points []point
	for _, r := range mmdl.Table4() {
		base := map[string]string{"procset": strconv.Itoa(r.ProcSet), "load": r.Load, "rounds": "5"}
		after, before := maps.Clone(base), maps.Clone(base)
		after["calibrated"], before["calibrated"] = "1", "0"
		points = append(points, point{after, r.SimulatedAfter, r.MeasuredAfter, true, "Table 4"}, point{before, r.SimulatedBefore, 0, false, "Table 4"})
	}
	for _, r := range mmdl.Table5() {
		points = append(points, point{map[string]string{"rounds": strconv.Itoa(r.R)}, r.Simulated, r.Measured, true, "Table 5"})
	}
	info := New().Info()
	for _, p := range points {
		run := build(t, p.set)
		got := scene.PaperPoint(New(), values(p.set), run.Numbers())
		want := 2
		if !p.cal {
			want = 1
		}
		if len(got) != want {
			t.Errorf("%v: %d paper numbers, want %d", p.set, len(got), want)
			continue
		}
		in, err := Instance(values(p.set))
		if err != nil {
			t.Fatal(err)
		}
		st, err := mmdl.SteadyState(in)
		if err != nil {
			t.Fatal(err)
		}
		R, _ := strconv.Atoi(p.set["rounds"])
		sch, err := mmdl.Rounds(in, st, R, mmdl.Paper)
		if err != nil {
			t.Fatal(err)
		}
		if got[0].Paper != p.sim || got[0].Ours != sch.Makespan || !strings.Contains(got[0].Source, p.sourceHint) {
			t.Errorf("%v: %+v; want paper %v (%s), ours %v", p.set, got[0], p.sim, p.sourceHint, sch.Makespan)
		}
		if p.cal && (got[1].Paper != p.meas || got[1].Ours != sch.Makespan) {
			t.Errorf("%v: measured %+v; want paper %v, ours %v", p.set, got[1], p.meas, sch.Makespan)
		}
		if p.set["procset"] == "" && p.set["rounds"] == "5" {
			t.Logf("%v: paper %s (%s) · commlab %s", p.set, got[0].PaperText(info), got[0].Source, got[0].OursText(info))
		}
	}
}

// TestNotPaperPoint: another schedule, link, round count or case is no
// paper point.
func TestNotPaperPoint(t *testing.T) {
	for _, set := range []map[string]string{
		{"schedule": "overlap"},
		{"latency": "0.0002"},
		{"throughput": "1e9"},
		{"rounds": "21"},
		{"rounds": "6", "procset": "1"},    // Table 5 is ProcSet 2 / Load 2 only
		{"rounds": "6", "calibrated": "0"}, // and after calibration
		{"procset": "1", "load": "3-b"},    // Table 4 has no such row
	} {
		if got := paperPoint(t, set); got != nil {
			t.Errorf("%v: paper numbers %+v, want none", set, got)
		}
	}
}

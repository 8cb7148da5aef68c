package mmdl

import (
	"strconv"

	"commlab/engine/mmdl"
	"commlab/scene"
)

// PaperPoint shows the paper's makespans (engine/mmdl's Table4 and
// Table5) when the values are one of its runs: the paper's schedule on a
// ProcSet and Load of Table 4 with R = 5 rounds (before or after
// calibration), or ProcSet 2 / Load 2 after calibration with R = 1 … 20
// (Table 5), each on the paper's link (100 µs, 800 Mbit/s). R is the
// run's, so R = 0 (the scheduler's choice) counts when it chooses one of
// these. Ours is the run's simulated makespan; the paper gives its
// simulation's and its cluster's (scene.PaperPointer).
func (Scene) PaperPoint(v scene.Values, numbers map[string]float64) []scene.PaperNumber {
	if v[KeySchedule] != mmdl.Paper.String() || v.Float(KeyLatency) != mmdl.PaperLatency || v.Float(KeyThroughput) != mmdl.PaperBitRate {
		return nil
	}
	ours, ok := numbers["makespan"]
	R := int(numbers["rounds"])
	if !ok || R < 1 {
		return nil
	}
	ps, load, cal := v.Int(KeyProcSet), v[KeyLoad], v.Bool(KeyCalibrated)
	var sim, meas float64
	row, in4 := mmdl.Table4Of(ps, load)
	in4 = in4 && R == mmdl.Table4Rounds
	in5 := ps == mmdl.Table5ProcSet && load == mmdl.Table5Load && cal && R <= len(mmdl.Table5())
	where := ", ProcSet " + v[KeyProcSet] + ", Load " + load + ", after calibration, R = " + strconv.Itoa(R)
	switch {
	case in4 && in5:
		sim, meas, where = row.SimulatedAfter, row.MeasuredAfter, "Table 4 and Table 5"+where
	case in4 && cal:
		sim, meas, where = row.SimulatedAfter, row.MeasuredAfter, "Table 4"+where
	case in4:
		return []scene.PaperNumber{{
			What: "makespan, the paper's simulation", Paper: row.SimulatedBefore, Ours: ours, Unit: scene.UnitTime, Digits: 6,
			Source: "Table 4, ProcSet " + v[KeyProcSet] + ", Load " + load + ", before calibration, R = " + strconv.Itoa(R),
			Note:   "Table 4's measured column before calibration is this plan run on the paper's cluster, whose task costs are the calibrated ones: not comparable with this run",
		}}
	case in5:
		r := mmdl.Table5()[R-1]
		sim, meas, where = r.Simulated, r.Measured, "Table 5"+where
	default:
		return nil
	}
	source := where
	return []scene.PaperNumber{
		{What: "makespan, the paper's simulation", Paper: sim, Source: source, Ours: ours, Unit: scene.UnitTime, Digits: 6},
		{What: "makespan, measured on the paper's cluster", Paper: meas, Source: source, Ours: ours, Unit: scene.UnitTime, Digits: 6,
			Note: "commlab's number is the simulation's: the paper's cluster ran the same schedule"},
	}
}

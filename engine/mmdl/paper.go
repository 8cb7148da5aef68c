package mmdl

// The paper's published numbers (papers/003), in one place: the report's
// study, this package's tests and the MMDL scene all read them from here.
// Every time is in seconds, as the paper prints it (to the microsecond),
// for the paper's schedule (Paper) on Preset's instances, with the paper's
// link (PaperLatency, PaperBitRate).

// Table4Rounds is the round count of the paper's Table 4 (its caption:
// "ラウンド数:5").
const Table4Rounds = 5

// Table4Row is one row of the paper's Table 4, "Comparison of the
// predicted and observed execution time (round: 5)": the makespan
// simulated by the paper's scheduler and measured on its cluster, each
// with the parameters before calibration (ComputeBefore, CommBefore) and
// after (ComputeAfter, CommAfter). MeasuredBefore is the schedule planned
// with the first guess run on the real machine, so it has no simulated
// counterpart on an instance of this package.
type Table4Row struct {
	ProcSet                         int
	Load                            string
	SimulatedBefore, SimulatedAfter float64
	MeasuredBefore, MeasuredAfter   float64
}

// Table4 returns the paper's Table 4, its nine rows in its order (ProcSet
// 1 has no Load 3-b).
func Table4() []Table4Row {
	return []Table4Row{
		{1, "1", 3.125000, 9.187500, 9.217236, 9.208515},
		{1, "2", 4.589715, 11.845532, 12.633339, 11.835162},
		{1, "3-a", 4.626095, 10.888976, 10.884279, 10.941214},
		{1, "4", 5.238346, 12.886128, 13.015991, 12.822947},
		{2, "1", 4.159893, 11.724372, 11.839234, 11.712632},
		{2, "2", 4.883831, 12.431613, 13.245593, 12.474350},
		{2, "3-a", 4.712693, 11.253531, 11.591924, 11.417429},
		{2, "3-b", 5.045411, 11.501171, 12.467642, 11.568004},
		{2, "4", 5.287006, 13.214013, 13.520686, 13.477915},
	}
}

// Table4Of is Table 4's row for procset and load, if it has one.
func Table4Of(procset int, load string) (Table4Row, bool) {
	for _, r := range Table4() {
		if r.ProcSet == procset && r.Load == load {
			return r, true
		}
	}
	return Table4Row{}, false
}

// Table5ProcSet and Table5Load are the case of the paper's Table 5 (and
// of its Fig. 4-8); its schedules use the parameters after calibration.
const (
	Table5ProcSet = 2
	Table5Load    = "2"
)

// Table5Row is one row of the paper's Table 5, "The number of rounds and
// the execution time (ProcSet 2, Load 2)": R rounds, simulated and
// measured, after calibration.
type Table5Row struct {
	R                   int
	Simulated, Measured float64
}

// Table5 returns the paper's Table 5, R = 1 … 20 in order (row R is at
// index R − 1). Its R = 5 row is Table 4's ProcSet 2 / Load 2 after
// calibration.
func Table5() []Table5Row {
	return []Table5Row{
		{1, 11.996034, 11.895846}, {2, 15.506518, 15.542628}, {3, 13.798204, 13.837349}, {4, 12.944644, 12.993227},
		{5, 12.431613, 12.474350}, {6, 12.090941, 12.117615}, {7, 11.846690, 11.878990}, {8, 11.665072, 11.691494},
		{9, 11.522636, 11.542078}, {10, 11.408744, 11.440548}, {11, 11.316546, 11.331306}, {12, 11.238737, 11.271751},
		{13, 11.173820, 11.198440}, {14, 11.118194, 11.113453}, {15, 11.070093, 11.078544}, {16, 11.029194, 11.019053},
		{17, 10.989639, 10.986812}, {18, 10.956554, 10.957962}, {19, 10.928810, 10.924403}, {20, 10.900142, 10.918454},
	}
}

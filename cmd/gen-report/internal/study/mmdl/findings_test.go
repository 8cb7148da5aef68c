package mmdl

import (
	"testing"

	"commlab/cmd/gen-report/internal/report"
)

// TestMmdlModelFindingsEachWay: each of the model's findings comes out as
// its numbers say, and can come out reproduced and not reproduced (the
// engine is deterministic, so no verdict of these is inconclusive). Each
// case changes the quick results the way a wrong model would.
func TestMmdlModelFindingsEachWay(t *testing.T) {
	_, base := runMmdlQuick(t)
	clone := func() *mmdlResults {
		r := *base
		r.Cases = append([]mmdlCaseResult(nil), base.Cases...)
		r.Rounds = append([]mmdlPoint(nil), base.Rounds...)
		r.Wide = append([]mmdlPoint(nil), base.Wide...)
		return &r
	}
	const R, P, N, C = report.Reproduced, report.PartlyReproduced, report.NotReproduced, report.NotCheckable
	for _, tc := range []struct {
		name    string
		finding func(*mmdlResults) report.Finding
		change  func(r *mmdlResults)
		want    report.Verdict
	}{
		{"Table 5 as computed", findingTable5, nil, R},
		{"Table 5 1 % off", findingTable5, func(r *mmdlResults) {
			for i := range r.Rounds {
				r.Rounds[i].Makespan *= 1.01
			}
		}, N},
		{"R = 1 as computed", findingOneRound, nil, R},
		{"R = 1 a millisecond off", findingOneRound, func(r *mmdlResults) { r.Rounds[0].Makespan += 1e-3 }, N},
		{"Table 4 as computed", findingTable4Sim, nil, P},
		{"Table 4 the paper's", findingTable4Sim, func(r *mmdlResults) {
			for i := range r.Cases {
				r.Cases[i].Before.Makespan, r.Cases[i].After.Makespan = paperTable4[i][0], paperTable4[i][1]
			}
		}, R},
		{"Table 4 1 % off", findingTable4Sim, func(r *mmdlResults) {
			for i := range r.Cases {
				r.Cases[i].Before.Makespan, r.Cases[i].After.Makespan = paperTable4[i][0]*1.01, paperTable4[i][1]*1.01
			}
		}, N},
		{"measured before as computed", findingMeasuredBefore, nil, P},
		{"measured before the paper's", findingMeasuredBefore, func(r *mmdlResults) {
			for i := range r.Cases {
				r.Cases[i].Executed = paperTable4[i][2]
			}
		}, R},
		{"measured before 5 % off", findingMeasuredBefore, func(r *mmdlResults) {
			for i := range r.Cases {
				r.Cases[i].Executed = paperTable4[i][2] * 1.05
			}
		}, N},
		{"rescheduling as computed", findingRescheduleShortens, nil, R},
		{"rescheduling never pays", findingRescheduleShortens, func(r *mmdlResults) {
			for i := range r.Cases {
				r.Cases[i].Executed = r.Cases[i].After.Makespan * 0.9
			}
		}, N},
		{"rescheduling pays in 6 of 9", findingRescheduleShortens, func(r *mmdlResults) { r.Cases[8].Executed = r.Cases[8].After.Makespan }, N},
		{"rounds as computed", findingRoundsFall, nil, R},
		{"rounds rising", findingRoundsFall, func(r *mmdlResults) {
			for i := range r.Rounds {
				r.Rounds[i].Makespan = 10 + float64(i)
			}
		}, N},
		{"optimum as computed", findingOptimalR, nil, R},
		{"optimum 0.1 s above", findingOptimalR, func(r *mmdlResults) { r.Cases[caseIndex(mmdlFigCase)].ChosenMakespan += 0.1 }, N},
		{"optimum beyond the grid", findingOptimalR, func(r *mmdlResults) { r.Wide = r.Wide[:5] }, C},
		{"overlap as computed", findingOverlap, nil, R},
		{"overlap saves nothing", findingOverlap, func(r *mmdlResults) {
			for i := range r.Cases {
				r.Cases[i].Before.Overlap, r.Cases[i].After.Overlap = r.Cases[i].Before.Makespan, r.Cases[i].After.Makespan
			}
		}, N},
		{"bounds as computed", findingBounds, nil, R},
		{"bounds below T", findingBounds, func(r *mmdlResults) {
			for i := range r.Cases {
				for _, p := range []*mmdlPoint{&r.Cases[i].Before, &r.Cases[i].After} {
					p.Makespan, p.Overlap = 0.9*p.T, 0.9*p.T
				}
			}
			for _, ps := range [][]mmdlPoint{r.Rounds, r.Wide} {
				for i := range ps {
					ps[i].Makespan, ps[i].Overlap = 0.9*ps[i].T, 0.9*ps[i].T
				}
			}
		}, N},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := clone()
			if tc.change != nil {
				tc.change(r)
			}
			f := tc.finding(r)
			if f.Verdict != tc.want {
				t.Errorf("%s, want %s (%s)", f.Verdict, tc.want, f.Evidence)
			}
			if tc.want != C && (f.Paper == "" || f.Ours == "" || f.Tolerance == "" || len(f.Figures) == 0) {
				t.Errorf("lacks the paper's number (%q), ours (%q), the tolerance (%q) or figures (%v)", f.Paper, f.Ours, f.Tolerance, f.Figures)
			}
		})
	}
}

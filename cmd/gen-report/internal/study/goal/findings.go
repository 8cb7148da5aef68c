package goal

import (
	"fmt"
	"strings"

	"commlab/cmd/gen-report/internal/report"
	"commlab/cmd/gen-report/internal/verdict"
)

// finding holds every answer to LogGOPSim's: each row is a check of our
// maximum finishing time, an exact number, against LogGOPSim's under a
// tolerance of 0 ns, and the finding is reproduced when every row is,
// partly when some are.
func (g *goalSweep) finding(res []answer) report.Finding {
	var checks []verdict.Check
	var theirs, rows []string
	equal, worst := 0, int64(0)
	for i, ex := range g.examples {
		a := res[i]
		lg := float64(ex.LogGOPSim)
		c := verdict.Compare(verdict.Claim{
			What:  fmt.Sprintf("%s under %s", ex.File, ex.Flags),
			Paper: fmt.Sprintf("%d ns", ex.LogGOPSim),
			Lo:    lg, Hi: lg,
			Words: "expected.tsv, LogGOPSim's own output in whole nanoseconds: equal to the nanosecond (0 ns)",
		}, verdict.Exact(float64(a.End)))
		checks = append(checks, c)
		theirs = append(theirs, fmt.Sprint(ex.LogGOPSim))
		// Written here rather than by Check.String, whose numbers have
		// four significant digits: a nanosecond would not show.
		rows = append(rows, fmt.Sprintf("%s under %s: LogGOPSim %d ns, ours %d ns (%s)", ex.File, ex.Flags, ex.LogGOPSim, a.End, c.Verdict))
		if a.End == ex.LogGOPSim {
			equal++
		}
		worst = max(worst, abs(a.End-ex.LogGOPSim))
	}
	var figures []string
	for i := range g.sets() {
		figures = append(figures, answersID(i))
	}
	return report.Finding{
		Claim:     fmt.Sprintf("Every answer equals LogGOPSim's to the nanosecond: the maximum finishing time of each of the %d shipped GOAL examples under each parameter set of expected.tsv.", len(g.examples)/len(g.sets())),
		Verdict:   verdict.Combine(checks...),
		Paper:     strings.Join(theirs, ", ") + " ns (expected.tsv: LogGOPSim's own output)",
		Ours:      fmt.Sprintf("%d of %d equal; the largest difference %d ns", equal, len(g.examples), worst),
		Tolerance: "0 ns: LogGOPSim prints whole nanoseconds and computes in integers, so the same rules give the same number, and any difference is a rule read differently",
		Evidence:  strings.Join(rows, ". ") + ". Reproduced means every row equal; partly, some.",
		Figures:   figures,
	}
}

func abs(x int64) int64 {
	if x < 0 {
		return -x
	}
	return x
}

package goal

import (
	"fmt"
	"strconv"
	"strings"

	"commlab/cmd/gen-report/internal/report"
)

// The speed of engine/goal against LogGOPSim's, as measured. These are
// dated measurements taken on the development machine, kept here once:
// the GOAL page shows them (the report is byte for byte the same from run
// to run, so nothing on it is timed live) and docs/goal.md points here.
// Measure them again with each row's command, and change the row, its
// date and its conditions together.

// speedCase is one input a speed was measured on: the range of what the
// runs gave, in the row's unit.
type speedCase struct {
	Case   string
	Lo, Hi float64
}

// speed is one row of the GOAL page's speed table.
type speed struct {
	What       string // what was timed
	Unit       string // of the cases' numbers and LogGOPSim's
	Cases      []speedCase
	Date       string // the day
	Conditions string // how: the hours, CPU or wall time, cores, the load, what was interleaved
	Command    string // what measures it again
	// LogGOPSim is LogGOPSim's figure in Unit, 0 where there is none, and
	// LogGOPSimFrom where it comes from: a figure not measured here says
	// so.
	LogGOPSim     float64
	LogGOPSimFrom string
}

// logGOPSimFigures is where LogGOPSim's speeds come from: LogGOPSim is not
// built on this machine (no network beyond the Go module proxy and the
// package mirrors), so they were never measured here.
const logGOPSimFigures = "as reported in issue 15, which set the targets (\"For scale, LogGOPSim converts text to its binary format at about 60 MB/s and simulates about 1 M events/s here\"); never measured in this repository: LogGOPSim is not built on the development machine"

// speeds are the measured rows, in the page's order.
var speeds = []speed{
	{
		What: "reading GOAL text into a schedule (engine/goal.Read; LogGOPSim: txt2bin, text to its binary format)",
		Unit: "MB/s",
		Cases: []speedCase{
			{"butterfly allreduce text, P = 2^10 (kept in file order)", 587, 604},
			{"P = 2^14 (laid out by level)", 425, 472},
			{"P = 2^20, one read of 2.6 GB", 255, 420},
		},
		Date:          "2026-11-27",
		Conditions:    "04:45-04:50, CPU time on one core, two binaries (6016fcd and the layout by level) interleaved; load about 1, the machine's speed moving 2x within minutes",
		Command:       "go test -count 2 -run '^$' -bench 'Read/' -cpu 1 ./engine/goal/ (cpu-MB/s); P = 2^20: COMMLAB_GOAL_BIG=1 COMMLAB_GOAL_BIG_DIR=/tmp/g go test -run '^$' -bench Butterfly2e20 -benchtime 1x -cpu 1 ./engine/goal/",
		LogGOPSim:     60,
		LogGOPSimFrom: logGOPSimFigures,
	},
	{
		What: "executing, in events as LogGOPSim counts them (operations and messages put in the queue)",
		Unit: "M events/s",
		Cases: []speedCase{
			{"butterfly allreduce, P = 2^20: 84 M events (63 M operations, 21 M messages), first and later runs of an executor", 15, 25},
		},
		Date:          "2026-11-27",
		Conditions:    "04:30-04:50, CPU time on one core, two binaries interleaved; load about 1, the machine's speed moving 2x within minutes",
		Command:       "COMMLAB_GOAL_BIG=1 COMMLAB_GOAL_BIG_DIR=/tmp/g go test -run '^$' -bench Butterfly2e20 -benchtime 1x -cpu 1 ./engine/goal/ (84 M events over its run's CPU seconds); smaller sizes in operations a second: go test -count 2 -run '^$' -bench 'Run/' -benchtime 5x -cpu 1 ./engine/goal/",
		LogGOPSim:     1,
		LogGOPSimFrom: logGOPSimFigures,
	},
}

// span is the range over the cases.
func (s speed) span() (lo, hi float64) {
	lo, hi = s.Cases[0].Lo, s.Cases[0].Hi
	for _, c := range s.Cases[1:] {
		lo, hi = min(lo, c.Lo), max(hi, c.Hi)
	}
	return lo, hi
}

// rangeText prints lo-hi with up to three significant digits, and
// rangeText2 a ratio of them with two.
func rangeText(lo, hi float64) string { return rangeDigits(lo, hi, 3) }

func rangeText2(lo, hi float64) string { return rangeDigits(lo, hi, 2) }

func rangeDigits(lo, hi float64, digits int) string {
	f := func(v float64) string { return strconv.FormatFloat(v, 'g', digits, 64) }
	if f(lo) == f(hi) {
		return f(lo)
	}
	return f(lo) + "-" + f(hi)
}

// speedTable is the page's table of the measured speeds.
func speedTable() *report.Table {
	t := &report.Table{
		ID:    "goal-speed",
		Title: "Speed against LogGOPSim, as measured",
		Caption: "Dated measurements from the development sessions, not timed while this report was written (a report is byte for byte the same from run to run): each row says when and how it was measured and the command that measures it again. " +
			"The ratio is ours divided by LogGOPSim's figure. The numbers live in one place, the goal study's measured.go (cmd/gen-report/internal/study/goal), which docs/goal.md points to.",
		Header: []string{"what", "ours", "LogGOPSim", "ratio", "cases", "measured", "re-measure", "LogGOPSim's figure"},
	}
	for _, s := range speeds {
		lo, hi := s.span()
		theirs, ratio := "—", "—"
		if s.LogGOPSim > 0 {
			theirs = fmt.Sprintf("about %s %s", strconv.FormatFloat(s.LogGOPSim, 'g', 3, 64), s.Unit)
			ratio = rangeText2(lo/s.LogGOPSim, hi/s.LogGOPSim) + "x"
		}
		var cases []string
		for _, c := range s.Cases {
			cases = append(cases, fmt.Sprintf("%s: %s %s", c.Case, rangeText(c.Lo, c.Hi), s.Unit))
		}
		t.Rows = append(t.Rows, []string{
			s.What, rangeText(lo, hi) + " " + s.Unit, theirs, ratio,
			strings.Join(cases, "; "), s.Date + ", " + s.Conditions, s.Command, s.LogGOPSimFrom,
		})
	}
	return t
}

package sweep

import (
	"fmt"
	"math"
	"strings"
)

// Status is how far a sharded run has come, from the parts written so far.
type Status struct {
	Shards  int   // the shard count
	Done    []int // shard indices with a part
	Missing []int // shard indices without one
	Points  int   // points in the parts present
	Trials  int   // trials in the parts present
	// CostDone and CostLeft are the plan's estimates (Plan.Costs) of the
	// shards present and missing, in the plan's cost units.
	CostDone, CostLeft float64
	// Seconds is the parts' own times (Partial.Seconds), summed.
	Seconds float64
	// Estimated says whether the times left are known: some part
	// carries its time.
	Estimated bool
	// SecondsLeft is the missing shards' time one after another, at the
	// seconds per cost unit the timed parts ran (so an adaptive rule that
	// ran more trials than the plan expected raises it); LongestLeft is
	// the longest missing shard's, the time left if they all run at once.
	SecondsLeft, LongestLeft float64
}

// PlanStatus reads the parts present of a sharded run of plan p (Info of
// each Partial) and says how far it has come. The parts are checked as
// MergePlan checks them, but missing shards are what it reports, not an
// error.
func PlanStatus(p Plan, parts []PartInfo) (Status, error) {
	s, err := checkParts(p, parts)
	if err != nil {
		return Status{}, err
	}
	costs := pointCosts(s.pts)
	loads := Loads(costs, s.owners, s.count)
	st := Status{Shards: s.count, Missing: s.missing()}
	var timedCost float64
	for i, k := range s.part {
		if k < 0 {
			st.CostLeft += loads[i]
			continue
		}
		st.Done = append(st.Done, i+1)
		st.CostDone += loads[i]
		st.Points += len(parts[k].Trials)
		for _, n := range parts[k].Trials {
			st.Trials += n
		}
		if sec := parts[k].Seconds; sec > 0 && !math.IsInf(sec, 1) {
			st.Seconds += sec
			timedCost += loads[i]
		}
	}
	if st.Seconds > 0 && timedCost > 0 {
		st.Estimated = true
		rate := st.Seconds / timedCost
		st.SecondsLeft = rate * st.CostLeft
		for _, i := range st.Missing {
			st.LongestLeft = max(st.LongestLeft, rate*loads[i-1])
		}
	}
	return st, nil
}

// String prints the status in three lines, e.g.
//
//	shards: 5 of 8 done; missing: 2, 6-7 of 8
//	points: 410 done, 13,120 trials
//	time left: about 12 min 30 s one after another, 4 min 10 s if the 3 missing run at once (from 5 shards' 20 min 50 s)
func (s Status) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "shards: %d of %d done", len(s.Done), s.Shards)
	if len(s.Missing) > 0 {
		fmt.Fprintf(&b, "; missing: %s", ranges(s.Missing, s.Shards))
	}
	fmt.Fprintf(&b, "\npoints: %s done, %s trials\n", thousands(s.Points), thousands(s.Trials))
	switch {
	case len(s.Missing) == 0:
		b.WriteString("time left: none, every shard is done: merge them")
	case !s.Estimated:
		b.WriteString("time left: unknown (no part records its time)")
	default:
		shards := "shards'"
		if len(s.Done) == 1 {
			shards = "shard's"
		}
		fmt.Fprintf(&b, "time left: about %s one after another, %s if the %d missing run at once (from %d %s %s)",
			duration(s.SecondsLeft), duration(s.LongestLeft), len(s.Missing), len(s.Done), shards, duration(s.Seconds))
	}
	return b.String()
}

// duration prints seconds as "1 h 05 min", "4 min 10 s" or "42 s" (the
// engine has no time package).
func duration(sec float64) string {
	s := int64(math.Round(sec))
	switch {
	case s >= 3600:
		return fmt.Sprintf("%d h %02d min", s/3600, s%3600/60)
	case s >= 60:
		return fmt.Sprintf("%d min %02d s", s/60, s%60)
	}
	return fmt.Sprintf("%d s", s)
}

// thousands prints n with commas: 13,120.
func thousands(n int) string {
	s := fmt.Sprint(n)
	for i := len(s) - 3; i > 0 && s[i-1] != '-'; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

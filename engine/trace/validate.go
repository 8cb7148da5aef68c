package trace

import (
	"errors"
	"math"

	"commlab/internal/errf"
)

// Validate checks the invariants every model's traces keep:
//
//   - every time is finite and not negative, and no span or message runs
//     backwards (end ≥ start, arrive ≥ send);
//   - lanes referenced by spans, messages and markers exist;
//   - spans on one lane do not overlap: a lane does one thing at a time;
//   - every message's sender and receiver are distinct lanes.
//
// It reports up to the first ten problems, each naming the offending record.
// Models add their own checks on top (e.g. allreduce: every butterfly
// message is used); this one is what a renderer can rely on.
func Validate(t *Trace) error {
	var errs problems
	report := errs.add
	badTime := func(x float64) bool { return math.IsNaN(x) || math.IsInf(x, 0) || x < 0 }
	n := len(t.Lanes)
	lastEnd := make([]float64, n)
	lastSpan := make([]int, n)
	for i := range lastSpan {
		lastSpan[i] = -1
	}
	for i, s := range t.Spans {
		switch {
		case s.Lane < 0 || s.Lane >= n:
			report("span %d: lane %d out of range [0, %d)", i, s.Lane, n)
			continue
		case s.Kind >= numKinds:
			report("span %d: unknown kind %d", i, s.Kind)
		case badTime(s.Start) || badTime(s.End):
			report("span %d: times [%g, %g] must be finite and ≥ 0", i, s.Start, s.End)
			continue
		case s.End < s.Start:
			report("span %d on lane %d: ends (%g) before it starts (%g)", i, s.Lane, s.End, s.Start)
			continue
		}
		if j := lastSpan[s.Lane]; j >= 0 && s.Start < lastEnd[s.Lane] {
			report("span %d (%s [%g, %g]) overlaps span %d ending at %g on lane %d: spans must be sorted and disjoint per lane",
				i, s.Kind, s.Start, s.End, j, lastEnd[s.Lane], s.Lane)
		}
		lastEnd[s.Lane] = max(lastEnd[s.Lane], s.End)
		lastSpan[s.Lane] = i
	}
	for i, m := range t.Messages {
		switch {
		case m.From < 0 || m.From >= n || m.To < 0 || m.To >= n:
			report("message %d: lanes %d -> %d out of range [0, %d)", i, m.From, m.To, n)
		case m.From == m.To:
			report("message %d: sender and receiver are both lane %d", i, m.From)
		case badTime(m.Send) || badTime(m.Arrive):
			report("message %d: times %g -> %g must be finite and ≥ 0", i, m.Send, m.Arrive)
		case m.Arrive < m.Send:
			report("message %d from lane %d: arrives (%g) before it is sent (%g)", i, m.From, m.Arrive, m.Send)
		case m.Delay < 0 || m.Delay > m.Arrive-m.Send:
			report("message %d: noise delay %g outside [0, flight time %g]", i, m.Delay, m.Arrive-m.Send)
		}
	}
	for i, m := range t.Markers {
		switch {
		case m.Lane < 0 || m.Lane >= n:
			report("marker %d: lane %d out of range [0, %d)", i, m.Lane, n)
		case badTime(m.Time):
			report("marker %d: time %g must be finite and ≥ 0", i, m.Time)
		}
	}
	return errors.Join(errs...)
}

// problems collects the first ten problems a check finds. add is not
// inlined: the check reports from many places, and a copy of
// fmt.Errorf at each is wasm the page pays for (docs/visualizer.md).
type problems []error

//go:noinline
func (p *problems) add(format string, args ...any) {
	if len(*p) < 10 {
		*p = append(*p, errf.Errorf(format, args...))
	}
}

package trace

import (
	"cmp"
	"fmt"

	"commlab/internal/errf"
	"commlab/internal/permsort"
)

// Kind is what a lane is doing during a span.
type Kind uint8

const (
	// Compute is useful work: a reduction, an addition, a task.
	Compute Kind = iota
	// Send is CPU time spent handing a message to the network (an overhead o).
	Send
	// Receive is CPU time spent taking a message from the network.
	Receive
	// Stall is time taken away by noise: an OS jitter window, a context switch.
	Stall
	// Idle is waiting: for a partner's message, for a queue slot, for a round.
	Idle
	numKinds
)

var kindNames = [numKinds]string{"compute", "send", "receive", "stall", "idle"}

func (k Kind) String() string {
	if k < numKinds {
		return kindNames[k]
	}
	return fmt.Sprintf("Kind(%d)", k)
}

// MarshalText writes the kind's name, so JSON traces read as words.
func (k Kind) MarshalText() ([]byte, error) {
	if k >= numKinds {
		return nil, errf.Errorf("trace: unknown kind %d", k)
	}
	return []byte(kindNames[k]), nil
}

// UnmarshalText reads a kind's name.
func (k *Kind) UnmarshalText(b []byte) error {
	for i, n := range kindNames {
		if n == string(b) {
			*k = Kind(i)
			return nil
		}
	}
	return errf.Errorf("trace: unknown span kind %q (want one of %v)", b, kindNames)
}

// Lane is one row of a timeline: a process, a thread, a link.
type Lane struct {
	Name string `json:"name"`
}

// Span is an interval on one lane.
type Span struct {
	Lane  int     `json:"lane"`
	Kind  Kind    `json:"kind"`
	Start float64 `json:"start"`
	End   float64 `json:"end"`
	// Step is the model's own step the span belongs to (a butterfly stage,
	// a round), or -1 when it has none.
	Step  int    `json:"step"`
	Label string `json:"label,omitempty"`
}

// Message is one point-to-point transfer from lane From to lane To.
type Message struct {
	From   int     `json:"from"`
	To     int     `json:"to"`
	Send   float64 `json:"send"`
	Arrive float64 `json:"arrive"`
	Step   int     `json:"step"`
	// Class separates messages a scene draws differently, e.g.
	// "butterfly" and "redundant".
	Class string `json:"class,omitempty"`
	// Delay is the part of the flight time caused by noise (0 if none).
	Delay float64 `json:"delay,omitempty"`
	// Used is false for a message that arrived but was not needed (a
	// redundant copy later than what its receiver already had).
	Used bool `json:"used"`
}

// Marker is a labelled instant on one lane.
type Marker struct {
	Lane  int     `json:"lane"`
	Time  float64 `json:"time"`
	Label string  `json:"label"`
}

// Trace is the whole record of one run.
type Trace struct {
	// Model names what produced the trace, e.g. "allreduce".
	Model string `json:"model"`
	// Unit names the unit of every time in the trace when it is not the
	// second: a model's own unit, such as LogP's "addition" (one addition
	// takes 1). Empty means seconds. WriteChrome says which in the file.
	Unit     string    `json:"unit,omitempty"`
	Lanes    []Lane    `json:"lanes"`
	Spans    []Span    `json:"spans"`
	Messages []Message `json:"messages"`
	Markers  []Marker  `json:"markers"`
}

// New returns an empty trace of the given model with n lanes named by name(i).
//
//go:noinline
func New(model string, n int, name func(i int) string) *Trace {
	t := &Trace{Model: model, Lanes: make([]Lane, n)}
	for i := range t.Lanes {
		t.Lanes[i].Name = name(i)
	}
	return t
}

// AddSpan records a span. Zero-length spans are dropped: they draw nothing
// and would only clutter the record.
func (t *Trace) AddSpan(lane int, k Kind, start, end float64, step int, label string) {
	if end == start {
		return
	}
	t.Spans = append(t.Spans, Span{Lane: lane, Kind: k, Start: start, End: end, Step: step, Label: label})
}

// AddMessage records a message.
func (t *Trace) AddMessage(m Message) { t.Messages = append(t.Messages, m) }

// AddMarker records a marker.
func (t *Trace) AddMarker(lane int, time float64, label string) {
	t.Markers = append(t.Markers, Marker{Lane: lane, Time: time, Label: label})
}

// Sort puts spans in (lane, start) order and messages and markers in time
// order, so that a trace recorded in any traversal order reads the same.
//
// Each comparison runs through every field (returning at the first that
// differs), so only identical records compare equal and an unstable sort
// gives the same result as a stable one; pdqsort moves these wide structs
// far less than a stable merge does.
func (t *Trace) Sort() {
	permsort.SortFunc(t.Spans, compareSpans)
	permsort.SortFunc(t.Messages, compareMessages)
	permsort.SortFunc(t.Markers, func(a, b Marker) int {
		if c := cmp.Compare(a.Time, b.Time); c != 0 {
			return c
		}
		if c := cmp.Compare(a.Lane, b.Lane); c != 0 {
			return c
		}
		return cmp.Compare(a.Label, b.Label)
	})
}

func compareSpans(a, b Span) int {
	switch {
	case a.Lane != b.Lane:
		return cmp.Compare(a.Lane, b.Lane)
	case a.Start != b.Start:
		return cmp.Compare(a.Start, b.Start)
	case a.End != b.End:
		return cmp.Compare(a.End, b.End)
	case a.Kind != b.Kind:
		return cmp.Compare(a.Kind, b.Kind)
	case a.Step != b.Step:
		return cmp.Compare(a.Step, b.Step)
	}
	return cmp.Compare(a.Label, b.Label)
}

func compareMessages(a, b Message) int {
	switch {
	case a.Send != b.Send:
		return cmp.Compare(a.Send, b.Send)
	case a.From != b.From:
		return cmp.Compare(a.From, b.From)
	case a.Step != b.Step:
		return cmp.Compare(a.Step, b.Step)
	case a.To != b.To:
		return cmp.Compare(a.To, b.To)
	case a.Arrive != b.Arrive:
		return cmp.Compare(a.Arrive, b.Arrive)
	case a.Delay != b.Delay:
		return cmp.Compare(a.Delay, b.Delay)
	case a.Used != b.Used:
		if a.Used {
			return 1
		}
		return -1
	}
	return cmp.Compare(a.Class, b.Class)
}

// End is the latest time anything in the trace happens.
func (t *Trace) End() float64 {
	var end float64
	for _, s := range t.Spans {
		end = max(end, s.End)
	}
	for _, m := range t.Messages {
		end = max(end, m.Arrive)
	}
	for _, m := range t.Markers {
		end = max(end, m.Time)
	}
	return end
}

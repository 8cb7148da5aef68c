package trace

import (
	"encoding/json"
	"io"
)

// chromeEvent is one record of the Chrome trace-event format
// (https://docs.google.com/document/d/1CvAClvFfyA5R-PhYUmn5OOQtYMH4h6I0nSsKchNAySU),
// the JSON that Perfetto and chrome://tracing import. Field order is fixed
// by the struct, so the output is byte-stable.
type chromeEvent struct {
	Name  string         `json:"name"`
	Cat   string         `json:"cat,omitempty"`
	Ph    string         `json:"ph"`
	Ts    float64        `json:"ts"`
	Dur   *float64       `json:"dur,omitempty"`
	Pid   int            `json:"pid"`
	Tid   int            `json:"tid"`
	ID    *int           `json:"id,omitempty"`
	BP    string         `json:"bp,omitempty"`
	Scope string         `json:"s,omitempty"`
	Args  map[string]any `json:"args,omitempty"`
}

// WriteChrome writes t as Chrome trace-event JSON. Each lane is a thread of
// one process named after the model; spans are complete ("X") events,
// messages are flow arrows ("s"/"f") from the sender's lane to the
// receiver's, markers are thread-scoped instants. Timestamps are in
// microseconds, as the format requires.
func WriteChrome(w io.Writer, t *Trace) error {
	const us = 1e6
	ev := make([]chromeEvent, 0, 1+len(t.Lanes)+len(t.Spans)+4*len(t.Messages)+len(t.Markers))
	ev = append(ev, chromeEvent{Name: "process_name", Ph: "M", Pid: 1, Args: map[string]any{"name": "commlab " + t.Model}})
	for i, l := range t.Lanes {
		ev = append(ev,
			chromeEvent{Name: "thread_name", Ph: "M", Pid: 1, Tid: i, Args: map[string]any{"name": l.Name}},
			chromeEvent{Name: "thread_sort_index", Ph: "M", Pid: 1, Tid: i, Args: map[string]any{"sort_index": i}})
	}
	for _, s := range t.Spans {
		d := (s.End - s.Start) * us
		name := s.Kind.String()
		if s.Label != "" {
			name = s.Label
		}
		ev = append(ev, chromeEvent{Name: name, Cat: s.Kind.String(), Ph: "X", Ts: s.Start * us, Dur: &d, Pid: 1, Tid: s.Lane,
			Args: map[string]any{"step": s.Step}})
	}
	for i, m := range t.Messages {
		// A flow needs a slice at each end to attach to: a zero-length
		// slice marks the send and the arrival on their lanes.
		id := i + 1
		zero := 0.0
		name := "message"
		if m.Class != "" {
			name = m.Class
		}
		args := map[string]any{"step": m.Step, "from": m.From, "to": m.To, "noise_delay_us": m.Delay * us, "used": m.Used}
		ev = append(ev,
			chromeEvent{Name: name + " send", Cat: "message", Ph: "X", Ts: m.Send * us, Dur: &zero, Pid: 1, Tid: m.From, Args: args},
			chromeEvent{Name: name, Cat: "message", Ph: "s", Ts: m.Send * us, Pid: 1, Tid: m.From, ID: &id},
			chromeEvent{Name: name + " arrive", Cat: "message", Ph: "X", Ts: m.Arrive * us, Dur: &zero, Pid: 1, Tid: m.To, Args: args},
			chromeEvent{Name: name, Cat: "message", Ph: "f", BP: "e", Ts: m.Arrive * us, Pid: 1, Tid: m.To, ID: &id})
	}
	for _, m := range t.Markers {
		ev = append(ev, chromeEvent{Name: m.Label, Cat: "marker", Ph: "i", Scope: "t", Ts: m.Time * us, Pid: 1, Tid: m.Lane})
	}
	enc := json.NewEncoder(w)
	return enc.Encode(struct {
		TraceEvents     []chromeEvent `json:"traceEvents"`
		DisplayTimeUnit string        `json:"displayTimeUnit"`
	}{ev, "ns"})
}

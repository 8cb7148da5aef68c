package trace

import (
	"bytes"
	"encoding/json"
	"math"
	"math/rand/v2"
	"strings"
	"testing"
)

// TestChromeMatchesEncodingJSON checks WriteChrome, which writes its JSON
// by hand, byte for byte against encoding/json encoding the same events,
// on a sample and on random traces with awkward names (quotes, HTML,
// control characters, invalid UTF-8, U+2028) and times from 1e-12 to 1e25.
func TestChromeMatchesEncodingJSON(t *testing.T) {
	traces := []*Trace{sample()}
	rng := rand.New(rand.NewPCG(1, 2))
	names := []string{"P0", `say "hi"`, "<b>&amp;</b>", "tab\there\nnl\r\x01\x1f", "bad \xff utf8", "line\u2028sep\u2029", "π σ µs", `back\slash`}
	for range 20 {
		n := 1 + rng.IntN(4)
		tr := New(names[rng.IntN(len(names))], n, func(i int) string { return names[rng.IntN(len(names))] })
		at := 0.0
		for range 10 {
			lane := rng.IntN(n)
			d := math.Pow(10, -12+37*rng.Float64())
			tr.AddSpan(lane, Kind(rng.IntN(5)), at, at+d, rng.IntN(9)-2, names[rng.IntN(len(names))])
			tr.AddMessage(Message{From: rng.IntN(n), To: rng.IntN(n), Send: at, Arrive: at + d, Step: rng.IntN(5),
				Class: names[rng.IntN(len(names))], Delay: d * rng.Float64(), Used: rng.IntN(2) == 0})
			tr.AddMarker(lane, at, names[rng.IntN(len(names))])
			at += d
		}
		traces = append(traces, tr)
	}
	for i, tr := range traces {
		var got bytes.Buffer
		if err := WriteChrome(&got, tr); err != nil {
			t.Fatal(err)
		}
		want := chromeByEncodingJSON(t, tr)
		if !bytes.Equal(got.Bytes(), want) {
			g, w := got.String(), string(want)
			k := 0
			for k < len(g) && k < len(w) && g[k] == w[k] {
				k++
			}
			t.Fatalf("trace %d: WriteChrome and encoding/json differ at byte %d:\n got …%.80s\nwant …%.80s", i, k, g[max(0, k-20):], w[max(0, k-20):])
		}
	}
}

func TestChromeRejectsNonFinite(t *testing.T) {
	tr := sample()
	tr.Spans[0].End = math.Inf(1)
	if err := WriteChrome(new(bytes.Buffer), tr); err == nil || !strings.Contains(err.Error(), "not finite") {
		t.Fatalf("WriteChrome of an infinite span: err = %v, want one that says the time is not finite", err)
	}
}

// chromeByEncodingJSON is the reference: the events WriteChrome documents,
// encoded by encoding/json (as WriteChrome itself did before it wrote the
// JSON by hand).
func chromeByEncodingJSON(t *testing.T, tr *Trace) []byte {
	type event struct {
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
	const us = 1e6
	ev := []event{{Name: "process_name", Ph: "M", Pid: 1, Args: map[string]any{"name": "commlab " + tr.Model}}}
	for i, l := range tr.Lanes {
		ev = append(ev,
			event{Name: "thread_name", Ph: "M", Pid: 1, Tid: i, Args: map[string]any{"name": l.Name}},
			event{Name: "thread_sort_index", Ph: "M", Pid: 1, Tid: i, Args: map[string]any{"sort_index": i}})
	}
	for _, s := range tr.Spans {
		d := (s.End - s.Start) * us
		name := s.Kind.String()
		if s.Label != "" {
			name = s.Label
		}
		ev = append(ev, event{Name: name, Cat: s.Kind.String(), Ph: "X", Ts: s.Start * us, Dur: &d, Pid: 1, Tid: s.Lane,
			Args: map[string]any{"step": s.Step}})
	}
	for i, m := range tr.Messages {
		id, zero, name := i+1, 0.0, "message"
		if m.Class != "" {
			name = m.Class
		}
		args := map[string]any{"step": m.Step, "from": m.From, "to": m.To, "noise_delay_us": m.Delay * us, "used": m.Used}
		ev = append(ev,
			event{Name: name + " send", Cat: "message", Ph: "X", Ts: m.Send * us, Dur: &zero, Pid: 1, Tid: m.From, Args: args},
			event{Name: name, Cat: "message", Ph: "s", Ts: m.Send * us, Pid: 1, Tid: m.From, ID: &id},
			event{Name: name + " arrive", Cat: "message", Ph: "X", Ts: m.Arrive * us, Dur: &zero, Pid: 1, Tid: m.To, Args: args},
			event{Name: name, Cat: "message", Ph: "f", BP: "e", Ts: m.Arrive * us, Pid: 1, Tid: m.To, ID: &id})
	}
	for _, m := range tr.Markers {
		ev = append(ev, event{Name: m.Label, Cat: "marker", Ph: "i", Scope: "t", Ts: m.Time * us, Pid: 1, Tid: m.Lane})
	}
	var b bytes.Buffer
	if err := json.NewEncoder(&b).Encode(struct {
		TraceEvents     []event `json:"traceEvents"`
		DisplayTimeUnit string  `json:"displayTimeUnit"`
	}{ev, "ns"}); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

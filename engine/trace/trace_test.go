package trace

import (
	"bytes"
	"encoding/json"
	"math"
	"strings"
	"testing"
)

func sample() *Trace {
	t := New("test", 2, func(i int) string { return []string{"P0", "P1"}[i] })
	t.AddSpan(0, Idle, 0, 1, 1, "wait")
	t.AddSpan(0, Compute, 1, 2, 1, "reduce")
	t.AddSpan(1, Compute, 0, 0.5, 1, "")
	t.AddSpan(1, Stall, 0.5, 0.7, 1, "OS jitter")
	t.AddMessage(Message{From: 1, To: 0, Send: 0, Arrive: 1, Step: 1, Class: "butterfly", Delay: 0.2, Used: true})
	t.AddMarker(0, 2, "final result")
	return t
}

func TestValidateAccepts(t *testing.T) {
	if err := Validate(sample()); err != nil {
		t.Fatal(err)
	}
}

func TestValidateRejects(t *testing.T) {
	for _, tc := range []struct {
		name, want string
		edit       func(*Trace)
	}{
		{"overlap", "overlaps", func(t *Trace) { t.Spans[1].Start = 0.5 }},
		{"backwards span", "ends", func(t *Trace) { t.Spans[2].Start = 0.6 }},
		{"NaN", "finite", func(t *Trace) { t.Spans[0].End = math.NaN() }},
		{"bad lane", "out of range", func(t *Trace) { t.Spans[0].Lane = 5 }},
		{"message backwards", "arrives", func(t *Trace) { t.Messages[0].Send = 1.5 }},
		{"self message", "both lane", func(t *Trace) { t.Messages[0].To = 1 }},
		{"delay too long", "noise delay", func(t *Trace) { t.Messages[0].Delay = 2 }},
		{"marker lane", "marker", func(t *Trace) { t.Markers[0].Lane = -1 }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tr := sample()
			tc.edit(tr)
			err := Validate(tr)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("got %v, want an error mentioning %q", err, tc.want)
			}
		})
	}
}

func TestSortMakesOrderIrrelevant(t *testing.T) {
	a, b := sample(), sample()
	b.Spans[0], b.Spans[3] = b.Spans[3], b.Spans[0]
	b.Sort()
	a.Sort()
	ja, _ := json.Marshal(a)
	jb, _ := json.Marshal(b)
	if !bytes.Equal(ja, jb) {
		t.Fatalf("sorted traces differ:\n%s\n%s", ja, jb)
	}
	if a.End() != 2 {
		t.Fatalf("End() = %g, want 2", a.End())
	}
}

func TestJSONRoundTrip(t *testing.T) {
	a := sample()
	j, err := json.Marshal(a)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(j), `"kind":"stall"`) {
		t.Fatalf("kinds are not written as words: %s", j)
	}
	var b Trace
	if err := json.Unmarshal(j, &b); err != nil {
		t.Fatal(err)
	}
	j2, _ := json.Marshal(&b)
	if !bytes.Equal(j, j2) {
		t.Fatalf("round trip changed the trace:\n%s\n%s", j, j2)
	}
	if err := json.Unmarshal([]byte(`{"spans":[{"kind":"nap"}]}`), &b); err == nil {
		t.Fatal("unknown kind accepted")
	}
}

// TestChrome checks the export has what Perfetto needs: thread names, one
// complete event per span with ts/dur in µs, a matched flow per message.
func TestChrome(t *testing.T) {
	var buf bytes.Buffer
	if err := WriteChrome(&buf, sample()); err != nil {
		t.Fatal(err)
	}
	var doc struct {
		TraceEvents []map[string]any `json:"traceEvents"`
	}
	if err := json.Unmarshal(buf.Bytes(), &doc); err != nil {
		t.Fatalf("not JSON: %v", err)
	}
	count := map[string]int{}
	for _, e := range doc.TraceEvents {
		count[e["ph"].(string)]++
		if e["ph"] == "X" && e["cat"] == "compute" && e["tid"].(float64) == 0 {
			if e["ts"].(float64) != 1e6 || e["dur"].(float64) != 1e6 {
				t.Errorf("span times not in µs: %v", e)
			}
		}
	}
	if count["X"] != 4+2 || count["s"] != 1 || count["f"] != 1 || count["i"] != 1 || count["M"] != 1+2*2 {
		t.Fatalf("event counts %v", count)
	}
	var again bytes.Buffer
	WriteChrome(&again, sample())
	if !bytes.Equal(buf.Bytes(), again.Bytes()) {
		t.Fatal("export is not byte-stable")
	}
}

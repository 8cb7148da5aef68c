package trace

import (
	"bytes"
	"encoding/json"
	"math"
	"math/big"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"
)

// TestChromeMatchesEncodingJSON checks WriteChrome, which writes its JSON
// by hand, byte for byte against encoding/json encoding the same events,
// on a sample and on random traces with awkward names (quotes, HTML,
// control characters, invalid UTF-8, U+2028), times from 1e-12 to 1e4 and
// both scales (seconds, a model's unit).
func TestChromeMatchesEncodingJSON(t *testing.T) {
	traces := []*Trace{sample()}
	rng := rand.New(rand.NewPCG(1, 2))
	names := []string{"P0", `say "hi"`, "<b>&amp;</b>", "tab\there\nnl\r\x01\x1f", "bad \xff utf8", "line\u2028sep\u2029", "π σ µs", `back\slash`}
	for range 20 {
		n := 1 + rng.IntN(4)
		tr := New(names[rng.IntN(len(names))], n, func(i int) string { return names[rng.IntN(len(names))] })
		if rng.IntN(2) == 0 {
			tr.Unit = "addition"
		}
		at := 0.0
		for range 10 {
			lane := rng.IntN(n)
			d := math.Pow(10, -12+16*rng.Float64())
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
// encoded by encoding/json, with every time rounded to whole nanoseconds of
// the file's scale first.
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
	perNS, unit, scale, process := 1e9, "second", "ts and dur in µs of simulated time", "commlab "+tr.Model
	if tr.Unit != "" {
		perNS, unit, scale = 1e3, tr.Unit, "1 µs in ts and dur = 1 "+tr.Unit
		process += " (times in " + tr.Unit + "s: 1 µs = 1 " + tr.Unit + ")"
	}
	ns := func(x float64) float64 { return math.Round(x * perNS) }
	us := func(n float64) float64 { return n / 1e3 }
	dur := func(a, b float64) *float64 { d := us(ns(b) - ns(a)); return &d }
	ev := []event{{Name: "process_name", Cat: "__metadata", Ph: "M", Pid: 1, Args: map[string]any{"name": process}}}
	for i, l := range tr.Lanes {
		ev = append(ev,
			event{Name: "thread_name", Cat: "__metadata", Ph: "M", Pid: 1, Tid: i + 1, Args: map[string]any{"name": l.Name}},
			event{Name: "thread_sort_index", Cat: "__metadata", Ph: "M", Pid: 1, Tid: i + 1, Args: map[string]any{"sort_index": i + 1}})
	}
	for _, s := range tr.Spans {
		name := s.Kind.String()
		if s.Label != "" {
			name = s.Label
		}
		ev = append(ev, event{Name: name, Cat: s.Kind.String(), Ph: "X", Ts: us(ns(s.Start)), Dur: dur(s.Start, s.End), Pid: 1, Tid: s.Lane + 1,
			Args: map[string]any{"step": s.Step}})
	}
	for i, m := range tr.Messages {
		id, zero, name := i+1, 0.0, "message"
		if m.Class != "" {
			name = m.Class
		}
		args := map[string]any{"step": m.Step, "from": m.From, "to": m.To, "noise_delay_us": m.Delay * perNS / 1e3, "used": m.Used}
		ev = append(ev,
			event{Name: name + " send", Cat: "message", Ph: "X", Ts: us(ns(m.Send)), Dur: &zero, Pid: 1, Tid: m.From + 1, Args: args},
			event{Name: name, Cat: "message", Ph: "s", Ts: us(ns(m.Send)), Pid: 1, Tid: m.From + 1, ID: &id},
			event{Name: name + " arrive", Cat: "message", Ph: "X", Ts: us(ns(m.Arrive)), Dur: &zero, Pid: 1, Tid: m.To + 1, Args: args},
			event{Name: name, Cat: "message", Ph: "f", BP: "e", Ts: us(ns(m.Arrive)), Pid: 1, Tid: m.To + 1, ID: &id})
	}
	for _, m := range tr.Markers {
		ev = append(ev, event{Name: m.Label, Cat: "marker", Ph: "i", Scope: "t", Ts: us(ns(m.Time)), Pid: 1, Tid: m.Lane + 1})
	}
	var b bytes.Buffer
	if err := json.NewEncoder(&b).Encode(struct {
		TraceEvents     []event           `json:"traceEvents"`
		DisplayTimeUnit string            `json:"displayTimeUnit"`
		OtherData       map[string]string `json:"otherData"`
	}{ev, "ns", map[string]string{"model": tr.Model, "time_unit": unit, "scale": scale}}); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// chromeFile is the part of an exported file the viewer checks read, with
// ts and dur kept as the decimals written.
type chromeFile struct {
	TraceEvents []struct {
		Name string          `json:"name"`
		Cat  string          `json:"cat"`
		Ph   string          `json:"ph"`
		Ts   json.Number     `json:"ts"`
		Dur  *json.Number    `json:"dur"`
		Tid  int             `json:"tid"`
		Args json.RawMessage `json:"args"`
	} `json:"traceEvents"`
	OtherData map[string]string `json:"otherData"`
}

func readChrome(t *testing.T, tr *Trace) chromeFile {
	t.Helper()
	var b bytes.Buffer
	if err := WriteChrome(&b, tr); err != nil {
		t.Fatal(err)
	}
	var f chromeFile
	dec := json.NewDecoder(&b)
	dec.UseNumber()
	if err := dec.Decode(&f); err != nil {
		t.Fatal(err)
	}
	return f
}

// decimalNS reads a ts or dur exactly, as integer nanoseconds.
func decimalNS(t *testing.T, n json.Number) int64 {
	t.Helper()
	r, ok := new(big.Rat).SetString(string(n))
	if !ok {
		t.Fatalf("%q is not a decimal number", n)
	}
	r.Mul(r, big.NewRat(1000, 1))
	if !r.IsInt() {
		t.Fatalf("%q µs is not a whole number of nanoseconds", n)
	}
	return r.Num().Int64()
}

// TestChromeSlicesNest checks that slices which touch in the trace touch
// exactly in the file (ts + dur = next ts, read as decimals), and that
// none reaches into the next slice of its lane: speedscope and Perfetto
// nest a slice under another whose end lies even a rounding error past its
// start. Random back-to-back spans at times whose decimal products with 1e6
// are inexact (0.1 + 0.2 and the like) make the old float µs fail this.
func TestChromeSlicesNest(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for _, unit := range []string{"", "addition"} {
		tr := New("nest", 3, func(i int) string { return "P" + strconv.Itoa(i) })
		tr.Unit = unit
		for lane := range 3 {
			at := rng.Float64() * 1e-3
			for range 200 {
				d := rng.Float64() * 1e-5
				if unit != "" {
					d *= 1e6
				}
				tr.AddSpan(lane, Kind(rng.IntN(5)), at, at+d, 0, "")
				at += d
				if rng.IntN(4) == 0 {
					at += d / 3 // a gap
				}
			}
		}
		tr.Sort()
		f := readChrome(t, tr)
		type slice struct{ start, end int64 }
		lanes := map[int][]slice{}
		for _, ev := range f.TraceEvents {
			if ev.Ph != "X" {
				continue
			}
			if ev.Dur == nil {
				t.Fatalf("X event %q has no dur", ev.Name)
			}
			s := decimalNS(t, ev.Ts)
			lanes[ev.Tid] = append(lanes[ev.Tid], slice{s, s + decimalNS(t, *ev.Dur)})
		}
		spans := 0
		for lane := range 3 {
			got := lanes[lane+1]
			for i, sp := range tr.Spans[spans : spans+len(got)] {
				if i+1 == len(got) {
					break
				}
				next := tr.Spans[spans+i+1]
				switch {
				case sp.End == next.Start && got[i].end != got[i+1].start:
					t.Fatalf("unit %q, lane %d: spans %d and %d touch in the trace, but in the file ts + dur = %d ns and the next ts = %d ns",
						unit, lane, i, i+1, got[i].end, got[i+1].start)
				case got[i].end > got[i+1].start:
					t.Fatalf("unit %q, lane %d: span %d ends at %d ns, past the next one's start %d ns", unit, lane, i, got[i].end, got[i+1].start)
				}
			}
			spans += len(got)
		}
		if spans != len(tr.Spans) {
			t.Fatalf("unit %q: %d X events for %d spans", unit, spans, len(tr.Spans))
		}
	}
}

// TestChromeLanesAndMetadata checks what viewers key on: lanes start at
// tid 1 (tid 0 is the process), every metadata event has cat "__metadata",
// and the file says which unit its times are in.
func TestChromeLanesAndMetadata(t *testing.T) {
	f := readChrome(t, sample())
	threads := 0
	for _, ev := range f.TraceEvents {
		switch {
		case ev.Ph == "M" && ev.Cat != "__metadata":
			t.Errorf("metadata event %q has cat %q, want __metadata", ev.Name, ev.Cat)
		case ev.Name == "thread_name":
			threads++
			if ev.Tid < 1 {
				t.Errorf("thread_name at tid %d: lanes start at tid 1", ev.Tid)
			}
		case ev.Ph != "M" && ev.Tid < 1:
			t.Errorf("event %q (ph %s) on tid %d: lanes start at tid 1", ev.Name, ev.Ph, ev.Tid)
		}
	}
	if threads != len(sample().Lanes) {
		t.Errorf("%d thread_name events for %d lanes", threads, len(sample().Lanes))
	}
	if f.OtherData["time_unit"] != "second" {
		t.Errorf("otherData = %v, want time_unit second for a trace in seconds", f.OtherData)
	}
}

// TestChromeModelUnits checks a trace in a model's unit: written at one unit
// per microsecond, and saying so in the process name and otherData.
func TestChromeModelUnits(t *testing.T) {
	tr := New("logp", 2, func(i int) string { return "P" + strconv.Itoa(i+1) })
	tr.Unit = "addition"
	tr.AddSpan(0, Compute, 5, 12.5, 0, "add")
	f := readChrome(t, tr)
	if f.OtherData["time_unit"] != "addition" || !strings.Contains(f.OtherData["scale"], "1 µs in ts and dur = 1 addition") {
		t.Errorf("otherData = %v, want time_unit addition and the scale", f.OtherData)
	}
	for _, ev := range f.TraceEvents {
		if ev.Name == "process_name" && !strings.Contains(string(ev.Args), "1 µs = 1 addition") {
			t.Errorf("process name %s does not say the unit", ev.Args)
		}
		if ev.Name == "add" && (decimalNS(t, ev.Ts) != 5000 || decimalNS(t, *ev.Dur) != 7500) {
			t.Errorf("span 5–12.5 additions written as ts %s dur %s µs, want 5 and 7.5", ev.Ts, *ev.Dur)
		}
	}
}

func TestChromeRejectsHugeTimes(t *testing.T) {
	tr := sample()
	tr.Spans[0].End = 2e6 // seconds: 2e15 ns
	if err := WriteChrome(new(bytes.Buffer), tr); err == nil || !strings.Contains(err.Error(), "beyond") {
		t.Fatalf("WriteChrome of a span ending at 2e6 s: err = %v, want one naming the limit", err)
	}
}

package trace

import (
	"bufio"
	"fmt"
	"io"
	"math"
	"strconv"
	"unicode/utf8"

	"commlab/internal/errf"
)

// WriteChrome writes t as Chrome trace-event JSON
// (https://docs.google.com/document/d/1CvAClvFfyA5R-PhYUmn5OOQtYMH4h6I0nSsKchNAySU),
// the format Perfetto, chrome://tracing and speedscope import. Each lane is a
// thread of one process named after the model, lane i being tid i+1 (viewers
// treat tid 0 as the process itself); spans are complete ("X") events,
// messages are flow arrows ("s"/"f") from the sender's lane to the
// receiver's, markers are thread-scoped instants. Metadata events (process
// and thread names, sort order) carry cat "__metadata", as Chrome writes them.
//
// Scale. The format's ts and dur are microseconds. A trace in seconds
// (Unit "") is written in microseconds of simulated time. A trace in a
// model's own unit (LogP's "addition") is written at one unit per
// microsecond, so a viewer's "µs" reads as that unit; the process name and
// the file's otherData (time_unit, scale) say so.
//
// Nesting. Every time is first rounded to a whole nanosecond of the file's
// scale, and ts and dur are written as exact decimals of those integers
// (dur = end − start in nanoseconds), so a slice that ends where the next
// begins has ts + dur equal to the next ts, and one that ends before it
// never reaches past it, whatever a viewer's arithmetic. Times beyond
// ±10¹⁵ ns (about 11.6 days of seconds) cannot keep that exactness in a
// float64 and fail, as does a time that is not finite.
//
// The JSON is written as it goes, without encoding/json: the export runs in
// the browser too, where encoding/json's reflection costs the wasm some
// 160 kB, and a run of a million events need not be held twice. The bytes
// are those encoding/json writes for the same events (a test keeps it so):
// fixed key order, args keys sorted, floats as encoding/json formats them.
func WriteChrome(w io.Writer, t *Trace) error {
	e := chromeWriter{w: bufio.NewWriter(w), perNS: 1e9}
	unit, scale := "second", "ts and dur in µs of simulated time"
	process := "commlab " + t.Model
	if t.Unit != "" {
		e.perNS = 1e3
		unit = t.Unit
		scale = "1 µs in ts and dur = 1 " + t.Unit
		process += " (times in " + t.Unit + "s: 1 µs = 1 " + t.Unit + ")"
	}
	e.raw(`{"traceEvents":[`)
	e.meta("process_name", 0, "name", process)
	for i, l := range t.Lanes {
		e.meta("thread_name", i+1, "name", l.Name)
		e.begin("thread_sort_index", metaCat, "M", 0, -1, i+1)
		e.raw(`,"args":{"sort_index":`)
		e.int(i + 1)
		e.raw(`}}`)
	}
	for _, s := range t.Spans {
		name := s.Kind.String()
		if s.Label != "" {
			name = s.Label
		}
		start := e.ns(s.Start)
		e.begin(name, s.Kind.String(), "X", start, e.ns(s.End)-start, s.Lane+1)
		e.raw(`,"args":{"step":`)
		e.int(s.Step)
		e.raw(`}}`)
	}
	for i, m := range t.Messages {
		// A flow needs a slice at each end to attach to: a zero-length
		// slice marks the send and the arrival on their lanes.
		id := i + 1
		name := "message"
		if m.Class != "" {
			name = m.Class
		}
		send, arrive := e.ns(m.Send), e.ns(m.Arrive)
		// The keys in the order encoding/json writes a map's: sorted.
		args := func() {
			e.raw(`,"args":{"from":`)
			e.int(m.From)
			e.raw(`,"noise_delay_us":`)
			e.float(m.Delay * e.perNS / 1e3)
			e.raw(`,"step":`)
			e.int(m.Step)
			e.raw(`,"to":`)
			e.int(m.To)
			e.raw(`,"used":` + strconv.FormatBool(m.Used) + `}}`)
		}
		e.begin(name+" send", "message", "X", send, 0, m.From+1)
		args()
		e.begin(name, "message", "s", send, -1, m.From+1)
		e.raw(`,"id":`)
		e.int(id)
		e.raw(`}`)
		e.begin(name+" arrive", "message", "X", arrive, 0, m.To+1)
		args()
		e.begin(name, "message", "f", arrive, -1, m.To+1)
		e.raw(`,"id":`)
		e.int(id)
		e.raw(`,"bp":"e"}`)
	}
	for _, m := range t.Markers {
		e.begin(m.Label, "marker", "i", e.ns(m.Time), -1, m.Lane+1)
		e.raw(`,"s":"t"}`)
	}
	e.raw(`],"displayTimeUnit":"ns","otherData":{"model":`)
	e.string(t.Model)
	e.raw(`,"scale":`)
	e.string(scale)
	e.raw(`,"time_unit":`)
	e.string(unit)
	e.raw("}}\n")
	if e.err != nil {
		return e.err
	}
	return e.w.Flush()
}

// metaCat is the category Chrome gives its metadata events; some viewers
// (speedscope) skip only metadata events that carry it.
const metaCat = "__metadata"

// maxNS bounds the times the export takes, in nanoseconds of the file's
// scale: below it a float64 holds every microsecond value with three
// decimals apart from its neighbours (ulp < 0.0005), so the decimals a
// viewer reads back are exactly those written.
const maxNS = 1e15

// chromeWriter writes the events' JSON, keeping the first error.
type chromeWriter struct {
	w      *bufio.Writer
	perNS  float64 // nanoseconds of the file's scale per unit of the trace's times
	buf    []byte
	events int
	err    error
}

//go:noinline
func (e *chromeWriter) raw(s string) {
	if e.err == nil {
		_, e.err = e.w.WriteString(s)
	}
}

// flush writes what the appenders left in buf.
//
//go:noinline
func (e *chromeWriter) flush() {
	if e.err == nil {
		_, e.err = e.w.Write(e.buf)
	}
	e.buf = e.buf[:0]
}

func (e *chromeWriter) int(i int) {
	e.buf = strconv.AppendInt(e.buf, int64(i), 10)
	e.flush()
}

// float writes f as encoding/json does: the shortest decimal that reads
// back as f, in exponent form below 1e-6 and from 1e21, with a two-digit
// exponent trimmed (1e-07 becomes 1e-7).
func (e *chromeWriter) float(f float64) {
	if math.IsInf(f, 0) || math.IsNaN(f) {
		if e.err == nil {
			e.err = errf.Errorf("trace: Chrome export: time %v is not finite", f)
		}
		return
	}
	format := byte('f')
	if a := math.Abs(f); a != 0 && (a < 1e-6 || a >= 1e21) {
		format = 'e'
	}
	b := strconv.AppendFloat(e.buf, f, format, -1, 64)
	if n := len(b); format == 'e' && n >= 4 && b[n-4] == 'e' && b[n-3] == '-' && b[n-2] == '0' {
		b[n-2] = b[n-1]
		b = b[:n-1]
	}
	e.buf = b
	e.flush()
}

// string writes s quoted as encoding/json does by default: HTML-safe (<, >
// and & escaped), invalid UTF-8 as U+FFFD, and U+2028 and U+2029 escaped
// for JavaScript.
func (e *chromeWriter) string(s string) {
	const hex = "0123456789abcdef"
	b := append(e.buf, '"')
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			switch {
			case c == '"' || c == '\\':
				b = append(b, '\\', c)
			case c == '\n':
				b = append(b, '\\', 'n')
			case c == '\r':
				b = append(b, '\\', 'r')
			case c == '\t':
				b = append(b, '\\', 't')
			case c < 0x20 || c == '<' || c == '>' || c == '&':
				b = append(b, '\\', 'u', '0', '0', hex[c>>4], hex[c&0xf])
			default:
				b = append(b, c)
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			b = append(b, `\ufffd`...)
		case r == '\u2028' || r == '\u2029':
			b = append(b, '\\', 'u', '2', '0', '2', hex[r&0xf])
		default:
			b = append(b, s[i:i+size]...)
		}
		i += size
	}
	e.buf = append(b, '"')
	e.flush()
}

// ns rounds a time of the trace to whole nanoseconds of the file's scale,
// failing (once, as the writer's error) on a time it cannot write exactly.
func (e *chromeWriter) ns(t float64) int64 {
	v := math.Round(t * e.perNS)
	if math.IsInf(t, 0) || math.IsNaN(t) || math.Abs(v) > maxNS {
		if e.err == nil {
			what := "is not finite"
			if !math.IsInf(t, 0) && !math.IsNaN(t) {
				what = fmt.Sprintf("is beyond the %g ns the export writes exactly", float64(maxNS))
			}
			e.err = errf.Errorf("trace: Chrome export: time %v %s", t, what)
		}
		return 0
	}
	return int64(v)
}

// micros writes n nanoseconds as an exact decimal number of microseconds,
// trailing zeros trimmed: the digits encoding/json writes for the float64
// nearest n/1000, since |n| ≤ maxNS.
func (e *chromeWriter) micros(n int64) {
	b := e.buf
	if n < 0 {
		b = append(b, '-')
		n = -n
	}
	b = strconv.AppendInt(b, n/1000, 10)
	if frac := n % 1000; frac != 0 {
		d := []byte{'.', byte('0' + frac/100), byte('0' + frac/10%10), byte('0' + frac%10)}
		for d[len(d)-1] == '0' {
			d = d[:len(d)-1]
		}
		b = append(b, d...)
	}
	e.buf = b
	e.flush()
}

// begin opens an event with the fields every event has, in the order
// encoding/json wrote them (name, cat, ph, ts, dur, pid, tid), leaving out
// an empty cat and a negative dur; ts and dur are in nanoseconds of the
// file's scale. The caller writes the rest and closes it.
func (e *chromeWriter) begin(name, cat, ph string, ts, dur int64, tid int) {
	if e.events > 0 {
		e.raw(",")
	}
	e.events++
	e.raw(`{"name":`)
	e.string(name)
	if cat != "" {
		e.raw(`,"cat":`)
		e.string(cat)
	}
	e.raw(`,"ph":`)
	e.string(ph)
	e.raw(`,"ts":`)
	e.micros(ts)
	if dur >= 0 {
		e.raw(`,"dur":`)
		e.micros(dur)
	}
	e.raw(`,"pid":1,"tid":`)
	e.int(tid)
}

// meta writes a metadata event with one string argument.
func (e *chromeWriter) meta(name string, tid int, key, value string) {
	e.begin(name, metaCat, "M", 0, -1, tid)
	e.raw(`,"args":{`)
	e.string(key)
	e.raw(`:`)
	e.string(value)
	e.raw(`}}`)
}

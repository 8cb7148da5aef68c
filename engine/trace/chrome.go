package trace

import (
	"bufio"
	"fmt"
	"io"
	"math"
	"strconv"
	"unicode/utf8"
)

// WriteChrome writes t as Chrome trace-event JSON
// (https://docs.google.com/document/d/1CvAClvFfyA5R-PhYUmn5OOQtYMH4h6I0nSsKchNAySU),
// the format Perfetto and chrome://tracing import. Each lane is a thread of
// one process named after the model; spans are complete ("X") events,
// messages are flow arrows ("s"/"f") from the sender's lane to the
// receiver's, markers are thread-scoped instants. Timestamps are in
// microseconds, as the format requires.
//
// The JSON is written as it goes, without encoding/json: the export runs in
// the browser too, where encoding/json's reflection costs the wasm some
// 160 kB, and a run of a million events need not be held twice. The bytes
// are those encoding/json writes for the same events (a test keeps it so):
// fixed key order, args keys sorted, floats as encoding/json formats them.
// A time that is not finite fails, as it does in encoding/json.
func WriteChrome(w io.Writer, t *Trace) error {
	const us = 1e6
	e := chromeWriter{w: bufio.NewWriter(w)}
	e.raw(`{"traceEvents":[`)
	e.meta("process_name", 0, "name", "commlab "+t.Model)
	for i, l := range t.Lanes {
		e.meta("thread_name", i, "name", l.Name)
		e.begin("thread_sort_index", "", "M", 0, nil, i)
		e.raw(`,"args":{"sort_index":`)
		e.int(i)
		e.raw(`}}`)
	}
	for _, s := range t.Spans {
		d := (s.End - s.Start) * us
		name := s.Kind.String()
		if s.Label != "" {
			name = s.Label
		}
		e.begin(name, s.Kind.String(), "X", s.Start*us, &d, s.Lane)
		e.raw(`,"args":{"step":`)
		e.int(s.Step)
		e.raw(`}}`)
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
		// The keys in the order encoding/json writes a map's: sorted.
		args := func() {
			e.raw(`,"args":{"from":`)
			e.int(m.From)
			e.raw(`,"noise_delay_us":`)
			e.float(m.Delay * us)
			e.raw(`,"step":`)
			e.int(m.Step)
			e.raw(`,"to":`)
			e.int(m.To)
			e.raw(`,"used":` + strconv.FormatBool(m.Used) + `}}`)
		}
		e.begin(name+" send", "message", "X", m.Send*us, &zero, m.From)
		args()
		e.begin(name, "message", "s", m.Send*us, nil, m.From)
		e.raw(`,"id":`)
		e.int(id)
		e.raw(`}`)
		e.begin(name+" arrive", "message", "X", m.Arrive*us, &zero, m.To)
		args()
		e.begin(name, "message", "f", m.Arrive*us, nil, m.To)
		e.raw(`,"id":`)
		e.int(id)
		e.raw(`,"bp":"e"}`)
	}
	for _, m := range t.Markers {
		e.begin(m.Label, "marker", "i", m.Time*us, nil, m.Lane)
		e.raw(`,"s":"t"}`)
	}
	e.raw(`],"displayTimeUnit":"ns"}` + "\n")
	if e.err != nil {
		return e.err
	}
	return e.w.Flush()
}

// chromeWriter writes the events' JSON, keeping the first error.
type chromeWriter struct {
	w      *bufio.Writer
	buf    []byte
	events int
	err    error
}

func (e *chromeWriter) raw(s string) {
	if e.err == nil {
		_, e.err = e.w.WriteString(s)
	}
}

// flush writes what the appenders left in buf.
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
			e.err = fmt.Errorf("trace: Chrome export: time %v is not finite", f)
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

// begin opens an event with the fields every event has, in the order
// encoding/json wrote them (name, cat, ph, ts, dur, pid, tid), leaving out
// an empty cat and a nil dur; the caller writes the rest and closes it.
func (e *chromeWriter) begin(name, cat, ph string, ts float64, dur *float64, tid int) {
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
	e.float(ts)
	if dur != nil {
		e.raw(`,"dur":`)
		e.float(*dur)
	}
	e.raw(`,"pid":1,"tid":`)
	e.int(tid)
}

// meta writes a metadata event with one string argument.
func (e *chromeWriter) meta(name string, tid int, key, value string) {
	e.begin(name, "", "M", 0, nil, tid)
	e.raw(`,"args":{`)
	e.string(key)
	e.raw(`:`)
	e.string(value)
	e.raw(`}}`)
}

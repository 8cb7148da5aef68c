package goal

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"strconv"
	"strings"

	"commlab/engine/cost"
	"commlab/engine/noise"
	"commlab/engine/param"
	"commlab/internal/errf"
	"commlab/internal/shown"
)

// Noise is what disturbs a run. The zero value is a quiet machine.
type Noise struct {
	// Trace is a LogGOPSim noise trace: each CPU operation (o, calc) is
	// stretched by the trace's events it meets, rank r reading the trace
	// from its own random offset (or, CoScheduled, all from one).
	Trace       *NoiseTrace
	CoScheduled bool
	// OS is commlab's periodic OS jitter (engine/noise.Periodic): CPU work
	// that meets a window waits it out.
	OS *OSJitter
	// Net is commlab's Poisson network noise (engine/noise.Poisson): each
	// event on the sender's port during a message's flight delays it.
	Net *NetNoise
	// Rand draws the offsets, phases and noise keys; required when any
	// model is on.
	Rand *rand.Rand
}

// OSJitter is periodic OS noise: rank r is unavailable during
// [φ_r + m·Period, φ_r + m·Period + Duration), m ≥ 0, φ_r uniform in
// [0, Period) (one φ for all when CoScheduled). Times in ns.
type OSJitter struct {
	Period      int64 `json:"period"`
	Duration    int64 `json:"duration"`
	CoScheduled bool  `json:"co_scheduled"`
}

// NetNoise is Poisson network noise: events with mean spacing Mean ns on
// each sender's port, each delaying a message in flight by Delay ns.
type NetNoise struct {
	Mean  int64 `json:"mean"`
	Delay int64 `json:"delay"`
}

// maxNoiseTime bounds noise times (ns): about 11.6 days.
const maxNoiseTime = 1e15

// Validate names the first noise parameter out of range (as a
// *param.Error whose Field is the eval flag) or a missing random source.
func (n Noise) Validate() error {
	if (n.Trace != nil || n.OS != nil || n.Net != nil) && n.Rand == nil {
		return errors.New("goal: noise needs a random source (Noise.Rand)")
	}
	return n.validModels()
}

// validModels is Validate without the random source.
func (n Noise) validModels() error {
	if t := n.Trace; t != nil && (len(t.Start) < 2 || len(t.Duration) != len(t.Start)) {
		return errors.New("goal: a noise trace needs at least two events, each with a duration")
	}
	if o := n.OS; o != nil {
		if o.Period < 1 || o.Period > maxNoiseTime {
			return &param.Error{Field: "os-period", Value: fmt.Sprint(o.Period), Want: fmt.Sprintf("an integer number of ns in [1, %g]", float64(maxNoiseTime))}
		}
		if o.Duration < 1 || o.Duration >= o.Period {
			return &param.Error{Field: "os-duration", Value: fmt.Sprint(o.Duration), Want: fmt.Sprintf("an integer number of ns in [1, os-period = %d)", o.Period)}
		}
	}
	if w := n.Net; w != nil {
		if w.Mean < 1 || w.Mean > maxNoiseTime {
			return &param.Error{Field: "net-mean", Value: fmt.Sprint(w.Mean), Want: fmt.Sprintf("an integer number of ns in [1, %g]", float64(maxNoiseTime))}
		}
		if w.Delay < 1 || w.Delay > maxNoiseTime {
			return &param.Error{Field: "net-delay", Value: fmt.Sprint(w.Delay), Want: fmt.Sprintf("an integer number of ns in [1, %g]", float64(maxNoiseTime))}
		}
		// Each event in a flight delays it by Delay, during which more
		// events come, one every Mean on average: with Delay ≥ Mean a
		// flight's expected delay is infinite (and some flights never end).
		if w.Delay >= w.Mean {
			return &param.Error{Field: "net-delay", Value: fmt.Sprint(w.Delay), Want: fmt.Sprintf("an integer number of ns in [1, net-mean = %d): each noise event delays a flight by net-delay and another comes every net-mean on average, so a flight could grow without end", w.Mean)}
		}
	}
	return nil
}

// NoiseTrace is a noise trace in LogGOPSim's format: one event a line,
// "start<TAB>duration" in ns (decimals are rounded, as LogGOPSim does),
// lines starting with # ignored.
type NoiseTrace struct {
	Start, Duration []uint64
	sumAfterFirst   uint64 // durations of events 1..n-1: one wrap of the trace
}

// ReadNoiseTrace reads a noise trace; errors name the file, line and
// column. Starts must increase and the trace needs at least two events
// (the last event's start is the trace's length, as in LogGOPSim).
func ReadNoiseTrace(r io.Reader, name string) (*NoiseTrace, error) {
	return ReadNoiseTraceWithin(r, name, Limits{})
}

// ReadNoiseTraceWithin is ReadNoiseTrace within limits: a trace whose
// text or events pass them is a *LimitError (a trace from an endless pipe
// grew to 1.4 GB before).
func ReadNoiseTraceWithin(r io.Reader, name string, lim Limits) (*NoiseTrace, error) {
	sc := bufio.NewScanner(lim.reader(r))
	t := &NoiseTrace{}
	line := 0
	for sc.Scan() {
		if sc.Err() != nil {
			break // the text stopped mid-line (at the limit): not a line
		}
		line++
		if line&memCheckLines == 0 && lim.Memory > 0 {
			if held := 8 * float64(cap(t.Start)+cap(t.Duration)); 2*held > lim.Memory {
				return nil, &LimitError{Input: name, What: "memory", Limit: lim.Memory, Line: line, By: lim.By,
					Why: fmt.Sprintf("%s events in %s, and as much again as its arrays grow", cost.Num(float64(len(t.Start))), cost.Bytes(held))}
			}
		}
		s := strings.TrimRight(sc.Text(), "\r")
		bom := 0
		if line == 1 && strings.HasPrefix(s, "\uFEFF") { // a UTF-8 byte-order mark
			s, bom = s[3:], 3
		}
		if strings.TrimSpace(s) == "" || s[0] == '#' {
			continue
		}
		f, col := traceFields(s, bom)
		if len(f) != 2 {
			at := len(s) + bom + 1 // a field is missing: after the line's end
			if len(f) > 2 {
				at = col[2]
			}
			return nil, errf.Errorf("%s:%d:%d: want \"start<TAB>duration\" (ns), found %q", name, line, at, shown.Cut(s))
		}
		var v [2]uint64
		for i, x := range f {
			fv, err := strconv.ParseFloat(x, 64)
			if err != nil || !(fv >= 0) || fv > maxNoiseTime {
				return nil, errf.Errorf("%s:%d:%d: %s %q out of range: want a number of ns in [0, %g]", name, line, col[i], [2]string{"start", "duration"}[i], shown.Cut(x), float64(maxNoiseTime))
			}
			v[i] = uint64(math.Round(fv))
		}
		if n := len(t.Start); n > 0 && v[0] <= t.Start[n-1] {
			return nil, errf.Errorf("%s:%d:%d: start %d is not after the previous event's start %d", name, line, col[0], v[0], t.Start[n-1])
		}
		t.Start = append(t.Start, v[0])
		t.Duration = append(t.Duration, v[1])
	}
	if err := sc.Err(); errors.Is(err, errTextLimit) {
		return nil, &LimitError{Input: name, What: "text", Limit: float64(lim.Bytes), Line: line + 1, By: lim.By, Seconds: lim.Seconds}
	} else if errors.Is(err, bufio.ErrTooLong) {
		return nil, errf.Errorf("%s:%d: line longer than %d bytes", name, line+1, bufio.MaxScanTokenSize)
	} else if err != nil {
		return nil, errf.Errorf("%s: %w", name, err)
	}
	if len(t.Start) < 2 {
		return nil, errf.Errorf("%s: a noise trace needs at least two events, found %d", name, len(t.Start))
	}
	for _, d := range t.Duration[1:] {
		t.sumAfterFirst += d
	}
	return t, nil
}

// traceFields splits a line at tabs and blanks, with each field's
// 1-based column in bytes (after skip bytes already cut off the line).
func traceFields(s string, skip int) (f []string, col []int) {
	for i := 0; i < len(s); {
		if s[i] == '\t' || s[i] == ' ' {
			i++
			continue
		}
		j := i
		for j < len(s) && s[j] != '\t' && s[j] != ' ' {
			j++
		}
		f, col = append(f, s[i:j]), append(col, skip+i+1)
		i = j
	}
	return f, col
}

// stall is LogGOPSim's Noise::get_noise for an operation [start, end) of
// a rank whose trace offset is off: the part of the event before it that
// reaches into it plus every event that starts inside it, the trace read
// cyclically. Its quirks are kept (the position is taken modulo the
// trace's length minus the operation's; the first event counts only when
// the operation starts after it); what LogGOPSim leaves undefined (an
// operation as long as the trace) takes the trace's length as modulus,
// and many wraps are added up at once instead of looped.
func (t *NoiseTrace) stall(off, start, end uint64) uint64 {
	n := len(t.Start)
	length := end - start
	span := t.Start[n-1]
	mod := span - length
	if length >= span {
		mod = span
	}
	at := (start + off) % mod
	var noise uint64
	pos := 0
	if at > t.Start[0] {
		// the last event starting at or before at
		lo, hi := 0, n-1
		for hi-lo > 1 {
			m := (lo + hi) / 2
			if t.Start[m] <= at {
				lo = m
			} else {
				hi = m
			}
		}
		pos = lo
		if e := t.Start[pos] + t.Duration[pos]; e > at {
			noise += e - at
		}
	}
	stop := at + length
	for stop > t.Start[pos+1] {
		pos++
		noise += t.Duration[pos]
		if pos == n-1 {
			stop -= span
			pos = 0
			if stop > span { // whole further wraps at once
				k := (stop - 1) / span
				noise += k * t.sumAfterFirst
				stop -= k * span
			}
		}
	}
	return noise
}

// cpuNoise is the noise a run applies to CPU work.
type cpuNoise struct {
	trace   *NoiseTrace
	offsets []uint64 // per rank (one entry when co-scheduled)
	os      *OSJitter
	phases  []uint64 // per rank (one when co-scheduled)
	net     *noise.Poisson
	cursors []noise.Cursor
	delay   uint64
	on      bool
}

func newCPUNoise(n Noise, ranks int) (*cpuNoise, error) {
	c := &cpuNoise{}
	if n.Trace != nil {
		c.trace = n.Trace
		span := n.Trace.Start[len(n.Trace.Start)-1]
		k := ranks
		if n.CoScheduled {
			k = 1
		}
		c.offsets = make([]uint64, k)
		for i := range c.offsets {
			c.offsets[i] = n.Rand.Uint64N(span)
		}
		c.on = true
	}
	if n.OS != nil {
		c.os = n.OS
		p, err := noise.NewPeriodic(float64(n.OS.Period), float64(n.OS.Duration), noise.FirstAtPhase, n.OS.CoScheduled, noise.NewKey(n.Rand))
		if err != nil {
			return nil, err
		}
		k := ranks
		if n.OS.CoScheduled {
			k = 1
		}
		c.phases = make([]uint64, k)
		for i := range c.phases {
			c.phases[i] = min(uint64(p.Phase(i)), uint64(n.OS.Period-1))
		}
		c.on = true
	}
	if n.Net != nil {
		p, err := noise.NewPoisson(float64(n.Net.Mean), float64(n.Net.Delay), float64(n.Net.Mean), noise.NewKey(n.Rand))
		if err != nil {
			return nil, err
		}
		c.net = p
		c.cursors = make([]noise.Cursor, ranks)
		for i := range c.cursors {
			c.cursors[i].Reset()
		}
	}
	return c, nil
}

// cpu returns the stall of CPU work [start, end) on rank r.
func (c *cpuNoise) cpu(r uint32, start, end uint64) uint64 {
	var s uint64
	if c.trace != nil {
		off := c.offsets[0]
		if len(c.offsets) > 1 {
			off = c.offsets[r]
		}
		s = c.trace.stall(off, start, end)
	}
	if c.os != nil && end > start {
		ph := c.phases[0]
		if len(c.phases) > 1 {
			ph = c.phases[r]
		}
		e := start + s
		s += osFinish(ph, uint64(c.os.Period), uint64(c.os.Duration), e, end-start) - (e + end - start)
	}
	return s
}

// osFinish is when work of c ns started at t completes on a process
// unavailable during [ph + m·p, ph + m·p + d), m ≥ 0 (noise.Periodic's
// Finish in integer ns).
func osFinish(ph, p, d, t, c uint64) uint64 {
	var m uint64 // the first window that ends after t
	if t >= ph {
		m = (t - ph) / p
		if t >= ph+m*p+d {
			m++
		}
	}
	w := p - d // work that fits between two windows
	for {
		ws := ph + m*p
		if t < ws {
			if c <= ws-t {
				return t + c
			}
			c -= ws - t
		}
		t = ws + d
		m++
		if c > w { // whole periods of work at once
			k := (c - 1) / w
			t += k * p
			c -= k * w
			m += k
		}
	}
}

// flight returns the network-noise delay of a message from rank r whose
// flight of l ns starts at s.
func (c *cpuNoise) flight(r uint32, s, l uint64) uint64 {
	if c.net == nil {
		return 0
	}
	d := c.net.FlightDelay(&c.cursors[r], int(r), float64(s), float64(l))
	return uint64(math.Round(d))
}

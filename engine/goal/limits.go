package goal

import (
	"errors"
	"fmt"
	"io"
	"math"

	"commlab/engine/cost"
)

// Limits bound what a reader (Read, ReadNoiseTraceWithin) takes from its
// input, counted as it streams: the text it reads and the memory what it
// builds holds. A regular file's size is known before reading it (and
// EstimateRead bounds it); a pipe, a device or a socket says nothing
// until it ends, or never ends (eval goal -f from a pipe writing "calc 1"
// forever grew to 1.8 GB), so the reader refuses it at the limit instead,
// naming the input. The zero value limits nothing.
type Limits struct {
	// Bytes is the most text read.
	Bytes int64
	// Memory is the most what the reader builds may hold, in bytes, its
	// arrays' next growth included.
	Memory float64
	// By names whose limits they are, for messages: "the command"; Seconds
	// is the time Bytes stands for (LimitsFor: the budget's).
	By      string
	Seconds float64
}

// LimitsFor is what a budget lets a reader take: as much text as the
// budget's time reads at the slowest rate measured (nsTextMax a byte,
// times the budget's slowdown), and its memory. A budget without limits
// gives none.
func LimitsFor(b cost.Budget) Limits {
	l := Limits{By: b.Name, Seconds: b.Seconds}
	if b.Seconds > 0 && !math.IsInf(b.Seconds, 1) {
		slow := b.Slowdown
		if slow <= 0 {
			slow = 1
		}
		l.Bytes = int64(b.Seconds / (slow * nsTextMax * 1e-9))
	}
	if b.Bytes > 0 && !math.IsInf(b.Bytes, 1) {
		l.Memory = b.Bytes
	}
	return l
}

// LimitError is an input refused at a reader's limit.
type LimitError struct {
	Input   string // the input's name
	What    string // "text" or "memory"
	Limit   float64
	Line    int     // the line reached
	By      string  // whose limit
	Seconds float64 // the time a text limit stands for
	Why     string  // what it holds at the limit, for memory
}

func (e *LimitError) Error() string {
	by := ""
	if e.By != "" {
		by = " of " + e.By
	}
	if e.What == "text" {
		why := ""
		if e.Seconds > 0 {
			why = fmt.Sprintf(": %s of reading at the slowest rate", cost.Duration(e.Seconds))
		}
		return fmt.Sprintf("%s: more than %s of text (line %d), the limit%s%s; a shorter input fits",
			e.Input, cost.Bytes(e.Limit), e.Line, by, why)
	}
	return fmt.Sprintf("%s: by line %d, what it holds (%s) would pass %s, the memory limit%s; a smaller input fits",
		e.Input, e.Line, e.Why, cost.Bytes(e.Limit), by)
}

// errTextLimit is what a limitedReader returns at its limit.
var errTextLimit = errors.New("text limit")

// limitedReader reads at most n bytes of r, then fails with errTextLimit
// (io.LimitReader would end the text there, as if it were complete).
type limitedReader struct {
	r io.Reader
	n int64
}

func (l *limitedReader) Read(p []byte) (int, error) {
	if l.n <= 0 {
		// one more byte says whether the text goes on past the limit
		var one [1]byte
		k, err := l.r.Read(one[:])
		if k > 0 {
			return 0, errTextLimit
		}
		return 0, err
	}
	if int64(len(p)) > l.n {
		p = p[:l.n]
	}
	k, err := l.r.Read(p)
	l.n -= int64(k)
	return k, err
}

// limitReader wraps r in the text limit, if any.
func (l Limits) reader(r io.Reader) io.Reader {
	if l.Bytes <= 0 {
		return r
	}
	return &limitedReader{r: r, n: l.Bytes}
}

// nsTextMax bounds reading a byte of GOAL text, of any shape (the
// densest operations, labels, dependencies, cycles): see EstimateRead.
const nsTextMax = 50

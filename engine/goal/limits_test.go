package goal

import (
	"errors"
	"io"
	"strconv"
	"strings"
	"testing"

	"commlab/engine/cost"
)

// endless is a stream that repeats line, counting what was read of it,
// "forever": it ends after streamMax bytes, so that a reader that does
// not stop at its limit fails the test instead of hanging it.
type endless struct {
	line string
	read int64
}

const streamMax = 256 << 20

func (e *endless) Read(p []byte) (int, error) {
	if e.read > streamMax {
		return 0, io.EOF
	}
	n := 0
	for n < len(p) {
		k := copy(p[n:], e.line[int(e.read%int64(len(e.line))):])
		n += k
		e.read += int64(k)
	}
	return n, nil
}

// TestReadLimits: a schedule or noise trace from an endless stream is
// refused at its limit, with a message naming the input and the limit,
// having read no more than the limit (and a few buffers) of it and held
// no more than its memory limit (before, eval goal -f from a pipe
// writing "calc 1" forever grew to 1.8 GB, a noise trace from an endless
// pipe to 1.4 GB).
func TestReadLimits(t *testing.T) {
	head := "num_ranks 1\nrank 0 {\n"
	for _, c := range []struct {
		name string
		lim  Limits
		line string
		what string
		says []string
	}{
		{"text", Limits{Bytes: 4 << 20, By: "the command"}, "calc 1\n", "text",
			[]string{"pipe.goal: more than 4.19 MB of text (line 599186), the limit of the command; a shorter input fits"}},
		{"memory", Limits{Memory: 8 << 20, By: "the page"}, "calc 1\n", "memory",
			[]string{"pipe.goal: by line ", "the memory limit of the page", "operations and 0 dependencies in"}},
		{"memory, labels", Limits{Memory: 8 << 20}, "", "memory", nil},
	} {
		var src io.Reader = &endless{line: c.line}
		if c.line == "" {
			i := 0
			src = &countingLines{next: func() string { i++; return "a_long_label_" + itoa(i) + ": calc 1\n" }}
		}
		r := io.MultiReader(strings.NewReader(head), src)
		var got float64
		var err error
		got = cost.Allocated(func() { _, err = Read(r, "pipe.goal", ReadOptions{Labels: true, Limits: c.lim}) })
		var le *LimitError
		if !errors.As(err, &le) || le.What != c.what {
			t.Errorf("%s: %v, want a *LimitError on %s", c.name, err, c.what)
			continue
		}
		saysAll(t, c.name, err, c.says)
		if e, ok := src.(*endless); ok && c.lim.Bytes > 0 && e.read > c.lim.Bytes+2<<20 {
			t.Errorf("%s: read %d bytes past a limit of %d", c.name, e.read, c.lim.Bytes)
		}
		// what it held stayed under the limit; what it allocated in all
		// (arrays grown by a quarter at a time, each copied: about 5
		// times what they hold) is bounded too
		if c.lim.Memory > 0 && got > 8*c.lim.Memory {
			t.Errorf("%s: allocated %s in all under a memory limit of %s", c.name, cost.Bytes(got), cost.Bytes(c.lim.Memory))
		}
		t.Logf("%s: %v (allocated %s in all)", c.name, err, cost.Bytes(got))
	}
	// noise traces
	for _, c := range []struct {
		name string
		lim  Limits
		what string
	}{
		{"trace text", Limits{Bytes: 1 << 20}, "text"},
		{"trace memory", Limits{Memory: 4 << 20}, "memory"},
	} {
		i := 0
		src := &countingLines{next: func() string { i++; return itoa(i) + "\t1\n" }}
		var err error
		got := cost.Allocated(func() { _, err = ReadNoiseTraceWithin(src, "noise.txt", c.lim) })
		var le *LimitError
		if !errors.As(err, &le) || le.What != c.what || le.Input != "noise.txt" {
			t.Errorf("%s: %v, want a *LimitError on %s", c.name, err, c.what)
			continue
		}
		if c.lim.Memory > 0 && got > 8*c.lim.Memory {
			t.Errorf("%s: allocated %s in all under a memory limit of %s", c.name, cost.Bytes(got), cost.Bytes(c.lim.Memory))
		}
		t.Logf("%s: %v (allocated %s in all)", c.name, err, cost.Bytes(got))
	}
	// a budget's limits say what they stand for
	_, err := Read(io.MultiReader(strings.NewReader(head), &endless{line: "calc 1\n"}), "stdin", ReadOptions{Limits: LimitsFor(cost.Page)})
	saysAll(t, "the page's limits", err, []string{"stdin: more than 10 MB of text (line ", "the limit of the page: 2 s of reading at the slowest rate; a shorter input fits"})
	// within the limits, the same schedule
	text := head + "a: calc 1\nb: calc 2\nb requires a\n}\n"
	s, err := Read(strings.NewReader(text), "ok.goal", ReadOptions{Limits: Limits{Bytes: int64(len(text)), Memory: 1 << 30}})
	if err != nil || s.NumOps() != 2 {
		t.Errorf("a schedule of exactly the limit: %v", err)
	}
	if _, err := Read(strings.NewReader(text), "ok.goal", ReadOptions{Limits: Limits{Bytes: int64(len(text)) - 1}}); err == nil {
		t.Errorf("a schedule a byte over the limit: accepted")
	}
}

// countingLines streams the lines next returns, "forever" (streamMax
// bytes).
type countingLines struct {
	next func() string
	buf  string
	read int64
}

func (c *countingLines) Read(p []byte) (int, error) {
	if c.read > streamMax {
		return 0, io.EOF
	}
	c.read += int64(len(p))
	n := 0
	for n < len(p) {
		if c.buf == "" {
			c.buf = c.next()
		}
		k := copy(p[n:], c.buf)
		c.buf = c.buf[k:]
		n += k
	}
	return n, nil
}

func itoa(i int) string { return strconv.Itoa(i) }

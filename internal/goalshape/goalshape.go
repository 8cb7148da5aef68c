package goalshape

import (
	"bufio"
	"fmt"
	"io"
	"strconv"
)

// A Shape writes a schedule of about n operations.
type Shape struct {
	// Name is the shape's name, as tests and benchmarks call it.
	Name string
	// What says what the shape does and what it stresses.
	What string
	// Write writes the schedule for size n (n ≥ 2).
	Write func(w io.Writer, n int) error
	// Cycle is true for shapes a reader must refuse (a dependency cycle).
	Cycle bool
}

// Shapes are the adversarial shapes, in a fixed order.
var Shapes = []Shape{
	{"linbcast", "rank 0 sends to each of n-1 ranks with no dependency between the sends: n-1 sends wait for one CPU at once", linBcast, false},
	{"fanout", "one calc that n-1 sends (to n-1 ranks) require: all freed at once onto one CPU", fanOut, false},
	{"fanout-calc", "one calc that n-1 calcs of the same rank require: all freed at once onto one CPU", fanOutCalc, false},
	{"fanin", "n-1 ranks send to rank 0 at once, where one calc requires all n-1 recvs: n-1 messages wait for one CPU", fanIn, false},
	{"chain", "n calcs on one rank, each requiring the one before: the longest critical path", chain, false},
	{"unexpected", "n-1 ranks send to rank 0 while it computes; its recvs are posted afterwards in the reverse order of the messages' arrival", unexpected, false},
	{"posted", "rank 0 posts n-1 recvs at once; their messages arrive in the reverse order of posting", posted, false},
	{"wildcard", "posted and unexpected walks with recvs from any source or with any tag mixed among exact ones", wildcard, false},
	{"cycle", "one rank of n calcs whose dependencies form one cycle through all of them", cycle, true},
}

// Find returns the shape called name.
func Find(name string) (Shape, bool) {
	for _, s := range Shapes {
		if s.Name == name {
			return s, true
		}
	}
	return Shape{}, false
}

// writer writes GOAL text with labels l0, l1, ... per rank.
type writer struct {
	w   *bufio.Writer
	buf []byte
	err error
}

func newWriter(w io.Writer, ranks int) *writer {
	g := &writer{w: bufio.NewWriterSize(w, 1<<16)}
	g.line("num_ranks " + strconv.Itoa(ranks))
	return g
}

func (g *writer) line(s string) {
	if g.err == nil {
		_, g.err = g.w.WriteString(s + "\n")
	}
}

func (g *writer) linef(format string, args ...any) {
	if g.err == nil {
		g.buf = fmt.Appendf(g.buf[:0], format, args...)
		g.buf = append(g.buf, '\n')
		_, g.err = g.w.Write(g.buf)
	}
}

func (g *writer) close() error {
	if g.err != nil {
		return g.err
	}
	return g.w.Flush()
}

func (g *writer) rank(r int)            { g.linef("rank %d {", r) }
func (g *writer) end()                  { g.line("}") }
func (g *writer) send(l, to, tag int)   { g.linef("l%d: send 8b to %d tag %d", l, to, tag) }
func (g *writer) recv(l, from, tag int) { g.linef("l%d: recv 8b from %d tag %d", l, from, tag) }
func (g *writer) calc(l int, ns int)    { g.linef("l%d: calc %d", l, ns) }
func (g *writer) requires(a, b int)     { g.linef("l%d requires l%d", a, b) }
func (g *writer) receivers(n, tag int)  { g.receiversFrom(1, n, tag) }
func (g *writer) receiversFrom(lo, n, tag int) {
	for r := lo; r < n; r++ {
		g.rank(r)
		g.recv(0, 0, tag)
		g.end()
	}
}

func linBcast(w io.Writer, n int) error {
	g := newWriter(w, n)
	g.rank(0)
	for r := 1; r < n; r++ {
		g.send(r, r, 0)
	}
	g.end()
	g.receivers(n, 0)
	return g.close()
}

func fanOut(w io.Writer, n int) error {
	g := newWriter(w, n)
	g.rank(0)
	g.calc(0, 1)
	for r := 1; r < n; r++ {
		g.send(r, r, 0)
		g.requires(r, 0)
	}
	g.end()
	g.receivers(n, 0)
	return g.close()
}

func fanOutCalc(w io.Writer, n int) error {
	g := newWriter(w, 1)
	g.rank(0)
	g.calc(0, 1)
	for i := 1; i < n; i++ {
		g.calc(i, 1)
		g.requires(i, 0)
	}
	g.end()
	return g.close()
}

func fanIn(w io.Writer, n int) error {
	g := newWriter(w, n)
	g.rank(0)
	for r := 1; r < n; r++ {
		g.recv(r, r, 0)
	}
	g.calc(n, 1)
	for r := 1; r < n; r++ {
		g.requires(n, r)
	}
	g.end()
	for r := 1; r < n; r++ {
		g.rank(r)
		g.send(0, 0, 0)
		g.end()
	}
	return g.close()
}

func chain(w io.Writer, n int) error {
	g := newWriter(w, 1)
	g.rank(0)
	g.calc(0, 1)
	for i := 1; i < n; i++ {
		g.calc(i, 1)
		g.requires(i, i-1)
	}
	g.end()
	return g.close()
}

// longCalc outlasts every message of a shape of n ranks under any
// parameters within LogGOPSim's defaults' order (o + L a message, each
// taken in o + g): the recvs after it find their messages waiting.
func longCalc(n int) int { return 10_000*n + 1_000_000 }

func unexpected(w io.Writer, n int) error {
	g := newWriter(w, n)
	g.rank(0)
	g.calc(0, longCalc(n))
	// the messages arrive from rank 1 up (their stamps' order); the recvs
	// are posted from rank n-1 down, each walking past all the others
	for r := n - 1; r >= 1; r-- {
		g.recv(r, r, 0)
		g.requires(r, 0)
	}
	g.end()
	for r := 1; r < n; r++ {
		g.rank(r)
		g.send(0, 0, 0)
		g.end()
	}
	return g.close()
}

func posted(w io.Writer, n int) error {
	g := newWriter(w, n)
	g.rank(0)
	for r := 1; r < n; r++ {
		g.recv(r, r, 0)
	}
	g.end()
	// rank r sends after (n-r) steps of 10 µs: rank n-1 first, whose recv
	// was posted last
	for r := 1; r < n; r++ {
		g.rank(r)
		g.calc(0, 10_000*(n-r))
		g.send(1, 0, 0)
		g.requires(1, 0)
		g.end()
	}
	return g.close()
}

// wildcard: rank 0 posts a third of its recvs at once (from any source
// with the sender's tag, or from the sender with any tag, or exact),
// computes, then posts the rest; rank r sends after r steps of 10 µs,
// so that the messages arrive from rank 1 up, against the posting order
// (from rank n-1 down) of both parts. Each message matches
// exactly one recv, so the run completes under any parameters.
func wildcard(w io.Writer, n int) error {
	g := newWriter(w, n)
	g.rank(0)
	third := (n - 1) / 3
	g.calc(0, longCalc(n))
	for r := n - 1; r >= 1; r-- {
		from, tag := strconv.Itoa(r), strconv.Itoa(r)
		switch r % 4 {
		case 1:
			from = "-1"
		case 2:
			tag = "-1"
		}
		g.linef("l%d: recv 8b from %s tag %s", r, from, tag)
		if r <= n-1-third {
			g.requires(r, 0)
		}
	}
	g.end()
	for r := 1; r < n; r++ {
		g.rank(r)
		g.calc(0, 10_000*r)
		g.send(1, 0, r)
		g.requires(1, 0)
		g.end()
	}
	return g.close()
}

func cycle(w io.Writer, n int) error {
	g := newWriter(w, 1)
	g.rank(0)
	for i := range n {
		g.calc(i, 1)
	}
	for i := range n {
		g.requires(i, (i+1)%n)
	}
	g.end()
	return g.close()
}

package goal

import (
	"bufio"
	"io"
	"strconv"

	"commlab/internal/errf"
)

// Writer writes GOAL text as it goes, rank by rank, the way Schedgen
// does: "num_ranks N", then per rank "rank r {", labelled operations
// l1, l2, ... with their dependencies, "}". It keeps nothing but the
// current rank's count, so exporters can write schedules of any size.
// Errors stick; Close returns the first.
type Writer struct {
	w        *bufio.Writer
	numRanks int
	rank     int
	next     int
	n        int // ops so far in the rank
	buf      []byte
	err      error
}

// Label is an operation of the current rank, as its GOAL label l<n>.
type Label int

// NewWriter starts a GOAL file of numRanks ranks on w.
func NewWriter(w io.Writer, numRanks int) *Writer {
	wr := &Writer{w: bufio.NewWriterSize(w, 1<<16), numRanks: numRanks, rank: -1}
	if numRanks < 1 || numRanks > MaxRanks {
		wr.err = errf.Errorf("goal: num_ranks %d out of range [1, %d]", numRanks, MaxRanks)
		return wr
	}
	wr.buf = append(wr.buf[:0], "num_ranks "...)
	wr.buf = strconv.AppendInt(wr.buf, int64(numRanks), 10)
	wr.buf = append(wr.buf, '\n')
	wr.flush()
	return wr
}

//go:noinline
func (w *Writer) flush() {
	if w.err == nil {
		_, w.err = w.w.Write(w.buf)
	}
	w.buf = w.buf[:0]
}

// StartRank opens rank r's block; ranks must come in order.
func (w *Writer) StartRank(r int) {
	if w.err == nil && (w.rank >= 0 || r != w.next) {
		w.err = errf.Errorf("goal: rank %d opened out of order (expected %d)", r, w.next)
	}
	w.rank, w.n = r, 0
	w.buf = append(w.buf, "\nrank "...)
	w.buf = strconv.AppendInt(w.buf, int64(r), 10)
	w.buf = append(w.buf, " {\n"...)
	w.flush()
}

// EndRank closes the block.
func (w *Writer) EndRank() {
	if w.err == nil && w.rank < 0 {
		w.err = errf.Errorf("goal: EndRank without StartRank")
	}
	w.rank = -1
	w.next++
	w.buf = append(w.buf, "}\n"...)
	w.flush()
}

func (w *Writer) label() Label {
	if w.err == nil && w.rank < 0 {
		w.err = errf.Errorf("goal: operation outside a rank block")
	}
	w.n++
	w.buf = append(w.buf, 'l')
	w.buf = strconv.AppendInt(w.buf, int64(w.n), 10)
	w.buf = append(w.buf, ": "...)
	return Label(w.n)
}

func (w *Writer) peer(p uint32) {
	if p == Any {
		w.buf = append(w.buf, "-1"...)
	} else {
		w.buf = strconv.AppendUint(w.buf, uint64(p), 10)
	}
}

func (w *Writer) cpuNIC(cpu, nic uint8, withNIC bool) {
	if cpu != 0 {
		w.buf = append(w.buf, " cpu "...)
		w.buf = strconv.AppendUint(w.buf, uint64(cpu), 10)
	}
	if withNIC && nic != 0 {
		w.buf = append(w.buf, " nic "...)
		w.buf = strconv.AppendUint(w.buf, uint64(nic), 10)
	}
	w.buf = append(w.buf, '\n')
	w.flush()
}

// Send writes "send <size>b to <peer> tag <tag>" on CPU 0 and NIC 0.
func (w *Writer) Send(size uint64, peer, tag uint32) Label { return w.SendOn(size, peer, tag, 0, 0) }

// SendOn is Send on a given CPU and NIC.
func (w *Writer) SendOn(size uint64, peer, tag uint32, cpu, nic uint8) Label {
	if w.err == nil && (peer == Any || int64(peer) >= int64(w.numRanks)) {
		w.err = errf.Errorf("goal: send to %d out of range [0, %d)", int32(peer), w.numRanks)
	}
	l := w.label()
	w.buf = append(w.buf, "send "...)
	w.buf = strconv.AppendUint(w.buf, size, 10)
	w.buf = append(w.buf, "b to "...)
	w.peer(peer)
	w.buf = append(w.buf, " tag "...)
	w.peer(tag)
	w.cpuNIC(cpu, nic, true)
	return l
}

// Recv writes "recv <size>b from <peer> tag <tag>" (Any: -1).
func (w *Writer) Recv(size uint64, peer, tag uint32) Label { return w.RecvOn(size, peer, tag, 0, 0) }

// RecvOn is Recv on a given CPU and NIC.
func (w *Writer) RecvOn(size uint64, peer, tag uint32, cpu, nic uint8) Label {
	if w.err == nil && peer != Any && int64(peer) >= int64(w.numRanks) {
		w.err = errf.Errorf("goal: recv from %d out of range [0, %d)", peer, w.numRanks)
	}
	l := w.label()
	w.buf = append(w.buf, "recv "...)
	w.buf = strconv.AppendUint(w.buf, size, 10)
	w.buf = append(w.buf, "b from "...)
	w.peer(peer)
	w.buf = append(w.buf, " tag "...)
	w.peer(tag)
	w.cpuNIC(cpu, nic, true)
	return l
}

// Calc writes "calc <ns>".
func (w *Writer) Calc(dur uint64) Label { return w.CalcOn(dur, 0) }

// CalcOn is Calc on a given CPU.
func (w *Writer) CalcOn(dur uint64, cpu uint8) Label {
	l := w.label()
	w.buf = append(w.buf, "calc "...)
	w.buf = strconv.AppendUint(w.buf, dur, 10)
	w.cpuNIC(cpu, 0, false)
	return l
}

// Requires writes "a requires b": a starts once b is done.
func (w *Writer) Requires(a, b Label) { w.dep(a, b, " requires l") }

// IRequires writes "a irequires b": a starts once b has started.
func (w *Writer) IRequires(a, b Label) { w.dep(a, b, " irequires l") }

func (w *Writer) dep(a, b Label, kw string) {
	if w.err == nil && (a < 1 || int(a) > w.n || b < 1 || int(b) > w.n) {
		w.err = errf.Errorf("goal: dependency on an undefined label in rank %d", w.rank)
	}
	w.buf = append(w.buf, 'l')
	w.buf = strconv.AppendInt(w.buf, int64(a), 10)
	w.buf = append(w.buf, kw...)
	w.buf = strconv.AppendInt(w.buf, int64(b), 10)
	w.buf = append(w.buf, '\n')
	w.flush()
}

// Close flushes and checks that every rank was written.
func (w *Writer) Close() error {
	if w.err == nil && (w.rank >= 0 || w.next != w.numRanks) {
		w.err = errf.Errorf("goal: %d of %d ranks written", w.next, w.numRanks)
	}
	if w.err == nil {
		w.err = w.w.Flush()
	}
	return w.err
}

// Write writes s as GOAL text: per rank its operations in order, then its
// dependencies grouped by the operation depended on, in the order s keeps
// them, so that Read gives back the same Schedule.
func Write(out io.Writer, s *Schedule) error {
	w := NewWriter(out, s.numRanks)
	for r := range s.numRanks {
		w.StartRank(r)
		first, end := s.RankOps(r)
		for i := first; i < end; i++ {
			u := s.place(i)
			switch s.kind(u) {
			case Send:
				w.SendOn(s.size(u), s.ops[u].peer, s.ops[u].tag, s.cpu(u), s.nic(u))
			case Recv:
				w.RecvOn(s.size(u), s.ops[u].peer, s.ops[u].tag, s.cpu(u), s.nic(u))
			default:
				w.CalcOn(s.size(u), s.cpu(u))
			}
		}
		for i := first; i < end; i++ {
			for _, d := range s.deps(s.place(i)) {
				a := Label(s.index(d&^startDep) - first + 1)
				if d&startDep != 0 {
					w.IRequires(a, Label(i-first+1))
				} else {
					w.Requires(a, Label(i-first+1))
				}
			}
		}
		w.EndRank()
	}
	return w.Close()
}

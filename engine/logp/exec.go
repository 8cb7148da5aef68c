package logp

import (
	"fmt"

	"commlab/engine/des"
	"commlab/internal/errf"
)

// OpKind is what an operation does with its processor's CPU.
type OpKind uint8

const (
	// Compute keeps the CPU busy for Dur (additions: one per time unit).
	Compute OpKind = iota
	// Send hands a message to the network: the CPU is busy for o, the
	// message arrives L (plus (Size-1)·G in LogGP) later.
	Send
	// Recv takes a message off the network once it has arrived: the CPU
	// is busy for o.
	Recv
)

func (k OpKind) String() string {
	switch k {
	case Compute:
		return "compute"
	case Send:
		return "send"
	case Recv:
		return "recv"
	}
	return fmt.Sprintf("OpKind(%d)", k)
}

// Op is one operation of a Program. Build programs with a Builder, which
// fills in the wiring.
type Op struct {
	Kind OpKind
	// Proc is the processor whose CPU runs the operation.
	Proc int32
	// Peer is the destination of a Send and the source of a Recv.
	Peer int32
	// Match is, for a Recv, the index of the Send whose message it takes,
	// and for a Send, the index of that Recv. -1 for Compute.
	Match int32
	// Dur is a Compute's duration.
	Dur float64
	// Size is a message's size in bytes (LogGP: the (Size-1)·G term);
	// 1 for plain LogP messages.
	Size int32
	// Step is the schedule's own round or tree level, for traces.
	Step int32
	// NotBefore is the earliest start: a fixed schedule's timetable, so
	// that an early message does not make its receiver start early.
	NotBefore float64
}

// Machine is the LogGP machine a Program runs on. Gap is the minimum time
// between the starts of two consecutive sends (or two consecutive
// receives) of one processor.
type Machine struct {
	L   float64 // latency of a message in flight
	O   float64 // CPU overhead of a send or a receive
	Gap float64 // g
	// PerByte is LogGP's G, the time per byte of a long message after the
	// first; 0 for LogP.
	PerByte float64
}

// Noise overrides the machine's L and g per operation, for replays under
// fluctuation. A nil slice means the machine's value for every op.
type Noise struct {
	// Latency[i] is the latency of Send i's message.
	Latency []float64
	// Gap[i] is the gap Send or Recv i imposes before its processor's next
	// send (or receive).
	Gap []float64
}

// Program is a LogGP schedule: operations with dependencies, each on one
// processor. Every dependency points to an earlier operation and every
// Recv to an earlier Send, so a Program is acyclic by construction and
// always runs to completion.
type Program struct {
	P   int
	Ops []Op
	// dependents of op i: succ[succOff[i]:succOff[i+1]]
	succ, succOff []int32
	// deps of op i: deps[depOff[i]:depOff[i+1]]
	deps, depOff []int32
}

// Deps returns the operations op i waits for (not counting a Recv's message).
func (g *Program) Deps(i int) []int32 { return g.deps[g.depOff[i]:g.depOff[i+1]] }

// Builder assembles a Program.
type Builder struct {
	prog    Program
	pending []int32 // recvs declared per send: -1 none yet
	err     error
}

// NewBuilder starts a program on P processors.
func NewBuilder(P int) *Builder {
	b := &Builder{prog: Program{P: P, depOff: []int32{0}}}
	if P < 1 {
		b.err = errf.Errorf("logp: program needs at least one processor, got P = %d", P)
	}
	return b
}

func (b *Builder) add(op Op, deps []int32) int32 {
	id := int32(len(b.prog.Ops))
	if b.err != nil {
		return id
	}
	if op.Proc < 0 || int(op.Proc) >= b.prog.P {
		b.err = errf.Errorf("logp: op %d: processor %d out of range [0, %d)", id, op.Proc, b.prog.P)
	}
	for _, d := range deps {
		if d < 0 || d >= id {
			b.err = errf.Errorf("logp: op %d: dependency %d is not an earlier op", id, d)
		}
	}
	if op.Size < 1 {
		op.Size = 1
	}
	b.prog.Ops = append(b.prog.Ops, op)
	b.prog.deps = append(b.prog.deps, deps...)
	b.prog.depOff = append(b.prog.depOff, int32(len(b.prog.deps)))
	return id
}

// Compute adds dur units of work on proc after deps; it returns the op's index.
func (b *Builder) Compute(proc int, dur float64, step int, deps ...int32) int32 {
	if b.err == nil && !(dur >= 0) {
		b.err = errf.Errorf("logp: op %d: compute duration %g must be ≥ 0", len(b.prog.Ops), dur)
	}
	return b.add(Op{Kind: Compute, Proc: int32(proc), Peer: -1, Match: -1, Dur: dur, Step: int32(step)}, deps)
}

// Send adds a message of size bytes from proc to peer after deps. The
// message must be taken by exactly one Recv on peer.
func (b *Builder) Send(proc, peer, size, step int, deps ...int32) int32 {
	if b.err == nil && (peer < 0 || peer >= b.prog.P || peer == proc) {
		b.err = errf.Errorf("logp: op %d: send from %d to %d: peer out of range or self", len(b.prog.Ops), proc, peer)
	}
	id := b.add(Op{Kind: Send, Proc: int32(proc), Peer: int32(peer), Match: -1, Size: int32(size), Step: int32(step)}, deps)
	b.pending = append(b.pending, -1)
	for len(b.pending) < len(b.prog.Ops) {
		b.pending = append(b.pending, -1)
	}
	return id
}

// Recv adds the receipt on proc of the message of Send op send, after deps.
func (b *Builder) Recv(proc int, send int32, step int, deps ...int32) int32 {
	id := int32(len(b.prog.Ops))
	if b.err == nil {
		switch {
		case send < 0 || send >= id || b.prog.Ops[send].Kind != Send:
			b.err = errf.Errorf("logp: op %d: recv of op %d, which is not an earlier send", id, send)
		case int(b.prog.Ops[send].Peer) != proc:
			b.err = errf.Errorf("logp: op %d: recv on %d of a message sent to %d", id, proc, b.prog.Ops[send].Peer)
		case b.prog.Ops[send].Match >= 0:
			b.err = errf.Errorf("logp: op %d: message of op %d already received by op %d", id, send, b.prog.Ops[send].Match)
		}
	}
	if b.err != nil {
		return b.add(Op{Kind: Recv, Proc: int32(proc), Match: -1}, deps)
	}
	s := &b.prog.Ops[send]
	s.Match = id
	return b.add(Op{Kind: Recv, Proc: int32(proc), Peer: s.Proc, Match: send, Size: s.Size, Step: int32(step)}, deps)
}

// Program checks that every message is received and returns the program.
func (b *Builder) Program() (*Program, error) {
	if b.err != nil {
		return nil, b.err
	}
	g := &b.prog
	for i, op := range g.Ops {
		if op.Kind == Send && op.Match < 0 {
			return nil, errf.Errorf("logp: op %d: message from %d to %d is never received", i, op.Proc, op.Peer)
		}
	}
	// Dependents in CSR form, so the executor walks them without maps.
	n := len(g.Ops)
	g.succOff = make([]int32, n+1)
	for _, d := range g.deps {
		g.succOff[d+1]++
	}
	for i := range n {
		g.succOff[i+1] += g.succOff[i]
	}
	g.succ = make([]int32, len(g.deps))
	fill := append([]int32(nil), g.succOff[:n]...)
	for i := range n {
		for _, d := range g.Deps(i) {
			g.succ[fill[d]] = int32(i)
			fill[d]++
		}
	}
	out := *g
	b.prog = Program{}
	return &out, nil
}

// Event kinds of the executor.
const (
	evDone   int32 = iota // an op's CPU time ended
	evArrive              // a message reached its receiver (ID = the recv)
)

// Executor runs Programs. It keeps its state between runs, so replaying a
// program many times allocates nothing after the first run. Not safe for
// concurrent use; give each goroutine its own.
//
// Semantics (LogGP, as LogGOPSim runs GOAL schedules): an op is ready when
// its dependencies have ended and, for a Recv, its message has arrived. A
// processor's CPU runs one op at a time, in the order they become ready
// (ties: in the order the events that readied them were scheduled). An op
// starts at the latest of: ready, CPU free, NotBefore, and for a Send
// (Recv) the previous send's (receive's) start plus its gap. A Send keeps
// the CPU for o and its message arrives at start + o + (Size-1)·G + L; the
// next send may start g + (Size-1)·G after it. A Recv keeps the CPU for o;
// the next receive may start g after it. A Compute keeps it for Dur.
type Executor struct {
	sim      des.Sim
	prog     *Program
	m        Machine
	noise    Noise
	pending  []int32
	start    []float64
	end      []float64
	arrive   []float64 // per Send: arrival of its message
	cpuFree  []float64
	nextSend []float64
	nextRecv []float64
	readyAt  []float64 // per op: when it became ready
	makespan float64
}

// Run executes prog on m with per-op noise (the zero Noise for none) and
// returns the completion time: the end of the last op. Start, End and
// Arrive then read the run's times.
func (e *Executor) Run(prog *Program, m Machine, noise Noise) float64 {
	n := len(prog.Ops)
	if noise.Latency != nil && len(noise.Latency) < n || noise.Gap != nil && len(noise.Gap) < n {
		panic(fmt.Sprintf("logp: noise for %d ops, program has %d", min(len(noise.Latency), len(noise.Gap)), n))
	}
	e.prog, e.m, e.noise = prog, m, noise
	e.pending = resize(e.pending, n)
	e.start = resize(e.start, n)
	e.end = resize(e.end, n)
	e.arrive = resize(e.arrive, n)
	e.readyAt = resize(e.readyAt, n)
	e.cpuFree = resize(e.cpuFree, prog.P)
	e.nextSend = resize(e.nextSend, prog.P)
	e.nextRecv = resize(e.nextRecv, prog.P)
	clear(e.cpuFree)
	clear(e.nextSend)
	clear(e.nextRecv)
	e.makespan = 0
	e.sim.Reset()
	e.sim.Grow(n)
	for i := range n {
		k := prog.depOff[i+1] - prog.depOff[i]
		if prog.Ops[i].Kind == Recv {
			k++
		}
		e.pending[i] = k
	}
	for i := range n {
		if e.pending[i] == 0 {
			e.ready(int32(i), 0)
		}
	}
	e.sim.Run(e)
	return e.makespan
}

func resize[T any](s []T, n int) []T {
	if cap(s) < n {
		return make([]T, n)
	}
	return s[:n]
}

// ready reserves the op's processor (ops start in the order they become
// ready) and schedules the events its end and its message cause.
func (e *Executor) ready(i int32, now float64) {
	end := e.place(i, now)
	op := &e.prog.Ops[i]
	if op.Kind == Send {
		e.sim.Schedule(e.arrive[i], evArrive, op.Match)
	}
	if e.prog.succOff[i+1] > e.prog.succOff[i] {
		e.sim.Schedule(end, evDone, i)
	}
}

// place sets the times of op i, ready at now, and returns its end.
func (e *Executor) place(i int32, now float64) float64 {
	op := &e.prog.Ops[i]
	p := op.Proc
	e.readyAt[i] = now
	t := max(now, e.cpuFree[p], op.NotBefore)
	var busy float64
	switch op.Kind {
	case Compute:
		busy = op.Dur
	case Send:
		t = max(t, e.nextSend[p])
		busy = e.m.O
		long := float64(op.Size-1) * e.m.PerByte
		lat, gap := e.m.L, e.m.Gap
		if e.noise.Latency != nil {
			lat = e.noise.Latency[i]
		}
		if e.noise.Gap != nil {
			gap = e.noise.Gap[i]
		}
		e.nextSend[p] = t + gap + long
		at := t + e.m.O + long + lat
		e.arrive[i] = at
	case Recv:
		t = max(t, e.nextRecv[p])
		busy = e.m.O
		gap := e.m.Gap
		if e.noise.Gap != nil {
			gap = e.noise.Gap[i]
		}
		e.nextRecv[p] = t + gap
	}
	end := t + busy
	e.start[i], e.end[i], e.cpuFree[p] = t, end, end
	e.makespan = max(e.makespan, end)
	return end
}

// Handle is the executor's event handler (des.Handler).
func (e *Executor) Handle(s *des.Sim, ev des.Event) {
	now := s.Now()
	if ev.Kind == evArrive {
		if e.pending[ev.ID]--; e.pending[ev.ID] == 0 {
			e.ready(ev.ID, now)
		}
		return
	}
	g := e.prog
	for _, j := range g.succ[g.succOff[ev.ID]:g.succOff[ev.ID+1]] {
		if e.pending[j]--; e.pending[j] == 0 {
			e.ready(j, now)
		}
	}
}

// Start is op i's start time in the last run.
func (e *Executor) Start(i int) float64 { return e.start[i] }

// End is op i's end time in the last run.
func (e *Executor) End(i int) float64 { return e.end[i] }

// Ready is when op i became ready (dependencies done, message arrived).
func (e *Executor) Ready(i int) float64 { return e.readyAt[i] }

// Arrive is when Send i's message reached its receiver in the last run.
func (e *Executor) Arrive(i int) float64 { return e.arrive[i] }

// RunOrdered executes prog like Run but visits the ops in index order
// instead of event order, in O(ops) without the event list. It gives
// Run's times exactly when the ops of each processor become ready in
// index order (Plan's programs chain them), which is what makes Monte
// Carlo over a fixed schedule cheap.
func (e *Executor) RunOrdered(prog *Program, m Machine, noise Noise) float64 {
	n := len(prog.Ops)
	if noise.Latency != nil && len(noise.Latency) < n || noise.Gap != nil && len(noise.Gap) < n {
		panic(fmt.Sprintf("logp: noise for %d ops, program has %d", min(len(noise.Latency), len(noise.Gap)), n))
	}
	e.start = resize(e.start, n)
	e.end = resize(e.end, n)
	e.arrive = resize(e.arrive, n)
	e.readyAt = resize(e.readyAt, n)
	e.cpuFree = resize(e.cpuFree, prog.P)
	e.nextSend = resize(e.nextSend, prog.P)
	e.nextRecv = resize(e.nextRecv, prog.P)
	clear(e.cpuFree)
	clear(e.nextSend)
	clear(e.nextRecv)
	e.prog, e.m, e.noise = prog, m, noise
	e.makespan = 0
	for i := range n {
		var r float64
		for _, d := range prog.deps[prog.depOff[i]:prog.depOff[i+1]] {
			r = max(r, e.end[d])
		}
		if op := &prog.Ops[i]; op.Kind == Recv {
			r = max(r, e.arrive[op.Match])
		}
		e.place(int32(i), r)
	}
	return e.makespan
}

package des

import "fmt"

// Event is one entry of the future-event list. Kind and ID are the model's
// own: what happens and to whom (an operation's index, a processor).
type Event struct {
	Time float64
	// Seq is the event's position in scheduling order; it breaks ties in
	// Time so equal-time events run first-scheduled, first-handled.
	Seq  uint64
	Kind int32
	ID   int32
}

// before is the heap order: earlier time first, then earlier scheduling.
func (e Event) before(f Event) bool {
	if e.Time != f.Time {
		return e.Time < f.Time
	}
	return e.Seq < f.Seq
}

// Handler interprets events; it may schedule more.
type Handler interface {
	Handle(s *Sim, e Event)
}

// Sim is the clock and the future-event list. The zero value is an empty
// simulation at time 0.
type Sim struct {
	now  float64
	seq  uint64
	heap []Event
	// runs[k] holds events of kind k (k < numRuns) scheduled in
	// nondecreasing time: such events are already in (time, seq) order, so
	// they wait in a FIFO instead of the heap. An event of kind k earlier
	// than the tail of runs[k] goes to the heap. Models whose events of
	// one kind mostly come in time order (a message's arrival, an op's
	// end) skip most of the heap's work; the order handled is exactly the
	// heap's, because Step takes the least (time, seq) of all heads.
	runs [numRuns]run

	// Checkpoint, if set, is called by Run after every CheckEvery events
	// it handles: a model that runs for seconds reports its progress
	// there and can be stopped. An error it returns stops Run; Err then
	// returns it, until Reset.
	Checkpoint func() error
	err        error
}

// CheckEvery is how many events Run handles between two Checkpoint
// calls: a millisecond or so of most models' work.
const CheckEvery = 1 << 12

// Err is what Checkpoint returned to stop Run, or nil.
func (s *Sim) Err() error { return s.err }

// numRuns is how many event kinds get a FIFO run.
const numRuns = 4

// compactFrom is how many taken events a run keeps before it moves its
// pending ones down: small runs never copy.
const compactFrom = 1 << 10

type run struct {
	ev   []Event
	head int
}

// Now is the simulated time: the time of the last event taken by Step
// (0 before the first).
func (s *Sim) Now() float64 { return s.now }

// Len is the number of pending events.
func (s *Sim) Len() int {
	n := len(s.heap)
	for i := range s.runs {
		n += len(s.runs[i].ev) - s.runs[i].head
	}
	return n
}

// Reset empties the event list and sets the clock and sequence to 0,
// keeping the storage for the next run.
func (s *Sim) Reset() {
	s.now, s.seq, s.heap, s.err = 0, 0, s.heap[:0], nil
	for i := range s.runs {
		s.runs[i].ev, s.runs[i].head = s.runs[i].ev[:0], 0
	}
}

// Grow makes room for n more pending events without reallocating.
func (s *Sim) Grow(n int) {
	if need := len(s.heap) + n; need > cap(s.heap) {
		h := make([]Event, len(s.heap), need)
		copy(h, s.heap)
		s.heap = h
	}
}

// Schedule adds an event at time t ≥ Now. Scheduling into the past (or at
// NaN) is a bug in the model, not bad input, and panics.
func (s *Sim) Schedule(t float64, kind, id int32) {
	if !(t >= s.now) {
		panic(fmt.Sprintf("des: event (kind %d, id %d) scheduled at %g, before now = %g", kind, id, t, s.now))
	}
	e := Event{Time: t, Seq: s.seq, Kind: kind, ID: id}
	s.seq++
	if uint32(kind) < numRuns {
		r := &s.runs[kind]
		if r.head == len(r.ev) {
			r.ev, r.head = r.ev[:0], 0
		} else if r.head >= compactFrom && 2*r.head >= len(r.ev) {
			// A run that never empties (a stream of arrivals that
			// overlap) would otherwise keep every event it ever held:
			// once half of it is taken, the pending half moves down.
			// Each event moves at most once per doubling, so this is
			// amortised O(1), and the order is unchanged.
			n := copy(r.ev, r.ev[r.head:])
			r.ev, r.head = r.ev[:n], 0
		}
		if len(r.ev) == r.head || r.ev[len(r.ev)-1].Time <= t {
			r.ev = append(r.ev, e)
			return
		}
	}
	s.heap = append(s.heap, e)
	s.up(len(s.heap) - 1)
}

// next returns the source of the least pending event: a run index, or
// numRuns for the heap, or -1 when nothing is pending.
func (s *Sim) next() int {
	src := -1
	var best Event
	if len(s.heap) > 0 {
		src, best = numRuns, s.heap[0]
	}
	for i := range s.runs {
		r := &s.runs[i]
		if r.head < len(r.ev) && (src < 0 || r.ev[r.head].before(best)) {
			src, best = i, r.ev[r.head]
		}
	}
	return src
}

// Peek returns the next event without taking it; ok is false when none is
// pending.
func (s *Sim) Peek() (e Event, ok bool) {
	switch src := s.next(); {
	case src < 0:
		return Event{}, false
	case src < numRuns:
		return s.runs[src].ev[s.runs[src].head], true
	}
	return s.heap[0], true
}

// Step takes the next event off the list and advances the clock to it; ok
// is false when none is pending.
func (s *Sim) Step() (e Event, ok bool) {
	src := s.next()
	if src < 0 {
		return Event{}, false
	}
	if src < numRuns {
		r := &s.runs[src]
		e = r.ev[r.head]
		r.head++
		s.now = e.Time
		return e, true
	}
	n := len(s.heap)
	e = s.heap[0]
	n--
	s.heap[0] = s.heap[n]
	s.heap = s.heap[:n]
	if n > 1 {
		s.down(0)
	}
	s.now = e.Time
	return e, true
}

// RunUntil handles events in order while the next one is at time ≤ t, and
// returns how many it handled. Events the handler schedules at ≤ t run in
// the same call. The clock ends at the last handled event, not at t.
func (s *Sim) RunUntil(t float64, h Handler) int {
	n := 0
	for {
		if e, ok := s.Peek(); !ok || e.Time > t {
			return n
		}
		e, _ := s.Step()
		h.Handle(s, e)
		n++
	}
}

// Run handles events until none is pending and returns how many it
// handled; or until Checkpoint returns an error (see Err).
func (s *Sim) Run(h Handler) int {
	n := 0
	for {
		e, ok := s.Step()
		if !ok {
			return n
		}
		h.Handle(s, e)
		n++
		if n%CheckEvery == 0 && s.Checkpoint != nil {
			if s.err = s.Checkpoint(); s.err != nil {
				return n
			}
		}
	}
}

// The heap is 4-ary: half the depth of a binary heap, and a node's four
// children share a cache line or two, which matters more than the extra
// comparisons when the list holds thousands of events.
const arity = 4

func (s *Sim) up(j int) {
	h := s.heap
	e := h[j]
	for j > 0 {
		i := (j - 1) / arity
		if !e.before(h[i]) {
			break
		}
		h[j] = h[i]
		j = i
	}
	h[j] = e
}

func (s *Sim) down(i int) {
	h := s.heap
	n := len(h)
	e := h[i]
	for {
		c := arity*i + 1
		if c >= n {
			break
		}
		j := c
		end := min(c+arity, n)
		for k := c + 1; k < end; k++ {
			if h[k].before(h[j]) {
				j = k
			}
		}
		if !h[j].before(e) {
			break
		}
		h[i] = h[j]
		i = j
	}
	h[i] = e
}

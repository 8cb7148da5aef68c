package des

import (
	"math/rand/v2"
	"slices"
	"testing"
)

type recorder struct {
	got []Event
	// spawn, if set, schedules a follow-up from the event with ID 0.
	spawn func(s *Sim, e Event)
}

func (r *recorder) Handle(s *Sim, e Event) {
	r.got = append(r.got, e)
	if r.spawn != nil {
		r.spawn(s, e)
	}
}

func ids(es []Event) []int32 {
	var out []int32
	for _, e := range es {
		out = append(out, e.ID)
	}
	return out
}

func TestOrderByTime(t *testing.T) {
	var s Sim
	for i, at := range []float64{5, 1, 4, 2, 3, 0.5, 10, 7} {
		s.Schedule(at, 0, int32(i))
	}
	r := &recorder{}
	if n := s.Run(r); n != 8 {
		t.Fatalf("Run handled %d events, want 8", n)
	}
	if want := []int32{5, 1, 3, 4, 2, 0, 7, 6}; !slices.Equal(ids(r.got), want) {
		t.Fatalf("order %v, want %v", ids(r.got), want)
	}
	if s.Now() != 10 {
		t.Fatalf("Now = %g after the last event at 10", s.Now())
	}
}

// Equal times run in scheduling order, however many and however the heap
// arranges them.
func TestTiesBySequence(t *testing.T) {
	var s Sim
	const n = 1000
	for i := range n {
		// Three distinct times, interleaved, many ties at each.
		s.Schedule(float64(i%3), int32(i%3), int32(i))
	}
	r := &recorder{}
	s.Run(r)
	var want []int32
	for k := range 3 {
		for i := k; i < n; i += 3 {
			want = append(want, int32(i))
		}
	}
	if !slices.Equal(ids(r.got), want) {
		t.Fatalf("ties not in scheduling order: first got %v", ids(r.got)[:10])
	}
	for i, e := range r.got {
		if e.Seq != uint64(e.ID) {
			t.Fatalf("event %d: Seq %d, want %d (scheduling order)", i, e.Seq, e.ID)
		}
	}
}

// An event scheduled by a handler at the current time runs after the
// events already pending at that time (it has a later sequence number).
func TestScheduleFromHandler(t *testing.T) {
	var s Sim
	s.Schedule(1, 0, 0)
	s.Schedule(1, 0, 1)
	s.Schedule(2, 0, 2)
	r := &recorder{spawn: func(s *Sim, e Event) {
		if e.ID == 0 {
			s.Schedule(s.Now(), 1, 10)
			s.Schedule(s.Now()+0.5, 1, 11)
		}
	}}
	s.Run(r)
	if want := []int32{0, 1, 10, 11, 2}; !slices.Equal(ids(r.got), want) {
		t.Fatalf("order %v, want %v", ids(r.got), want)
	}
}

func TestRunUntilAndStep(t *testing.T) {
	var s Sim
	for i := range 10 {
		s.Schedule(float64(i), 0, int32(i))
	}
	r := &recorder{}
	if n := s.RunUntil(4, r); n != 5 {
		t.Fatalf("RunUntil(4) handled %d, want 5 (times 0..4)", n)
	}
	if s.Now() != 4 || s.Len() != 5 {
		t.Fatalf("after RunUntil(4): now %g, %d pending; want 4, 5", s.Now(), s.Len())
	}
	if n := s.RunUntil(4.5, r); n != 0 || s.Now() != 4 {
		t.Fatalf("RunUntil(4.5) handled %d, now %g; want 0, 4", n, s.Now())
	}
	e, ok := s.Peek()
	if !ok || e.ID != 5 {
		t.Fatalf("Peek = %v, %v; want ID 5", e, ok)
	}
	e, ok = s.Step()
	if !ok || e.ID != 5 || s.Now() != 5 {
		t.Fatalf("Step = %v, %v, now %g; want ID 5 at 5", e, ok, s.Now())
	}
	s.Reset()
	if _, ok := s.Step(); ok || s.Now() != 0 || s.Len() != 0 {
		t.Fatal("Reset left events or time behind")
	}
}

func TestScheduleInPastPanics(t *testing.T) {
	var s Sim
	s.Schedule(3, 0, 0)
	s.Step()
	defer func() {
		if recover() == nil {
			t.Fatal("scheduling at 2 with now = 3 did not panic")
		}
	}()
	s.Schedule(2, 0, 1)
}

// A reused Sim allocates nothing per event.
func TestNoAllocsAfterWarmup(t *testing.T) {
	var s Sim
	r := &recorder{got: make([]Event, 0, 256)}
	run := func() {
		s.Reset()
		r.got = r.got[:0]
		for i := range 200 {
			s.Schedule(float64((i*37)%101), 0, int32(i))
		}
		s.Run(r)
	}
	run()
	if a := testing.AllocsPerRun(20, run); a != 0 {
		t.Fatalf("%g allocations per run, want 0", a)
	}
}

func BenchmarkScheduleStep(b *testing.B) {
	var s Sim
	const n = 4096
	s.Grow(n)
	for b.Loop() {
		s.Reset()
		for i := range n {
			s.Schedule(float64((i*7919)%n), 0, int32(i))
		}
		for {
			if _, ok := s.Step(); !ok {
				break
			}
		}
	}
	b.ReportMetric(float64(n)*float64(b.N)/b.Elapsed().Seconds(), "events/s")
}

// Whatever the mix of kinds (FIFO runs or heap) and the scheduling order,
// events come out in (time, seq) order, including events scheduled by the
// handler while running.
func TestMatchesSortedOrder(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for trial := range 50 {
		var s Sim
		var want []Event
		h := &recorder{}
		h.spawn = func(s *Sim, e Event) {
			if e.ID < 300 && rng.IntN(3) == 0 {
				at := s.Now() + float64(rng.IntN(4))
				kind := int32(rng.IntN(6))
				want = append(want, Event{Time: at, Seq: uint64(len(want)), Kind: kind, ID: int32(1000 + len(want))})
				s.Schedule(at, kind, int32(1000+len(want)-1))
			}
		}
		for i := range 300 {
			at := float64(rng.IntN(20))
			if trial%2 == 0 {
				at = float64(i / 7) // mostly monotone: exercises the runs
			}
			kind := int32(rng.IntN(6))
			want = append(want, Event{Time: at, Seq: uint64(len(want)), Kind: kind, ID: int32(i)})
			s.Schedule(at, kind, int32(i))
		}
		s.Run(h)
		// The handled sequence is nondecreasing in (time, seq) and holds
		// every scheduled event once.
		for i := 1; i < len(h.got); i++ {
			if h.got[i].before(h.got[i-1]) {
				t.Fatalf("trial %d: event %d %+v handled after %+v", trial, i, h.got[i], h.got[i-1])
			}
		}
		if len(h.got) != len(want) {
			t.Fatalf("trial %d: handled %d of %d events", trial, len(h.got), len(want))
		}
	}
}

// A run that never empties (each step schedules one more event of the
// same kind later than all pending: overlapping arrivals) keeps its
// storage bounded by what is pending, not by what it ever held, and
// still hands events out in (time, seq) order.
func TestRunStaysBounded(t *testing.T) {
	var s Sim
	const pending, steps = 10, 1_000_000
	for i := range pending {
		s.Schedule(float64(i), 0, int32(i))
	}
	last := Event{Time: -1}
	for i := range steps {
		e, ok := s.Step()
		if !ok {
			t.Fatalf("step %d: nothing pending", i)
		}
		if e.before(last) {
			t.Fatalf("step %d: %+v after %+v", i, e, last)
		}
		last = e
		s.Schedule(float64(pending+i), 0, int32(pending+i))
	}
	if s.Len() != pending {
		t.Fatalf("%d pending, want %d", s.Len(), pending)
	}
	// Room for a few thousand: the taken events a run keeps before it
	// compacts (compactFrom) and append's slack, never the million.
	const most = 8192
	if c := cap(s.runs[0].ev); c > most {
		t.Errorf("the run holds room for %d events after %d steps with %d pending; want at most %d", c, steps, pending, most)
	}
}

package nbc

import (
	"slices"
	"strings"

	enbc "commlab/engine/nbc"
	"commlab/engine/trace"
	"commlab/internal/permsort"
)

// handle is one non-blocking collective's life cycle, from the engine's
// events: the times of each step (-1 where it has none, e.g. Block when
// the queue had room, or every queue step under LibNBC).
type handle struct {
	issue, block, enqueue, dequeue, start, done, waitCall, waitReturn float64
	slot                                                              int
}

// timeline is one method's run as a frame draws it: the handles, the
// progress calls, and rank 0's threads as lanes.
type timeline struct {
	method  enbc.Method
	res     enbc.Result
	tr      *trace.Trace
	handles []handle
	// progress holds the times of the main thread's progress calls
	// (NBC_Test), finalize the call and return of TCC's Finalize (-1 if
	// none).
	progress []float64
	finalize [2]float64

	names []string
	spans [][]trace.Span // per lane, in time order
	main  int            // the main thread's lane (it issues and waits)
	prog  int            // the progress thread's lane, -1 without one
	// net is the lane that stands for the other ranks (-1 if none): rank
	// 0's messages run between it and a thread, so its row shows when
	// rank 0's data is on the wire.
	net      int
	computes []int     // lanes that compute, in lane order
	work     []float64 // per lane: its whole compute time
	end      float64
}

// newTimeline sorts a run's events and trace into what frames need.
func newTimeline(m enbc.Method, res enbc.Result, tr *trace.Trace) *timeline {
	tl := &timeline{method: m, res: res, tr: tr, prog: -1, net: -1, finalize: [2]float64{-1, -1}}
	for _, e := range res.Events {
		if e.Handle >= 0 {
			for e.Handle >= len(tl.handles) {
				tl.handles = append(tl.handles, handle{-1, -1, -1, -1, -1, -1, -1, -1, -1})
			}
		}
		var h *handle
		if e.Handle >= 0 {
			h = &tl.handles[e.Handle]
		}
		switch e.Kind {
		case enbc.Issue:
			h.issue = e.Time
		case enbc.Block:
			h.block = e.Time
		case enbc.Enqueue:
			h.enqueue, h.slot = e.Time, e.Slot
		case enbc.Dequeue:
			h.dequeue = e.Time
		case enbc.Start:
			h.start = e.Time
		case enbc.Done:
			h.done = e.Time
		case enbc.WaitCall:
			h.waitCall = e.Time
		case enbc.WaitReturn:
			h.waitReturn = e.Time
		case enbc.Progress:
			tl.progress = append(tl.progress, e.Time)
		case enbc.FinalizeCall:
			tl.finalize[0] = e.Time
		case enbc.FinalizeReturn:
			tl.finalize[1] = e.Time
		}
	}

	n := len(tr.Lanes)
	tl.names = make([]string, n)
	for i, l := range tr.Lanes {
		tl.names[i] = l.Name
		low := strings.ToLower(l.Name)
		switch {
		case strings.Contains(low, "progress"):
			tl.prog = i
		case strings.Contains(low, "main"):
			tl.main = i
		case strings.Contains(low, "other ranks"):
			tl.net = i
		}
	}
	tl.spans = make([][]trace.Span, n)
	tl.work = make([]float64, n)
	for _, s := range tr.Spans {
		tl.spans[s.Lane] = append(tl.spans[s.Lane], s)
		if s.Kind == trace.Compute {
			tl.work[s.Lane] += s.End - s.Start
		}
	}
	for i := range tl.spans {
		permsort.SortFunc(tl.spans[i], func(a, b trace.Span) int {
			switch {
			case a.Start < b.Start:
				return -1
			case a.Start > b.Start:
				return 1
			}
			return 0
		})
		if tl.work[i] > 0 && i != tl.prog {
			tl.computes = append(tl.computes, i)
		}
	}
	tl.end = max(res.Total, tr.End())
	return tl
}

// computed is the compute time lane li has done by t.
func (tl *timeline) computed(li int, t float64) float64 {
	sum := 0.0
	for _, s := range tl.spans[li] {
		if s.Start >= t {
			break
		}
		if s.Kind == trace.Compute {
			sum += min(s.End, t) - s.Start
		}
	}
	return sum
}

// fraction is the share of lane li's matrix-vector rows done by t (its
// compute time so far over its whole compute time: a thread's rows cost
// alike).
func (tl *timeline) fraction(li int, t float64) float64 {
	if tl.work[li] == 0 {
		return 0
	}
	return min(1, tl.computed(li, t)/tl.work[li])
}

// at reports whether an event at time e (-1: never) has happened by t.
// An event at exactly t has: the step keys land on events, and the frame
// there shows what they did.
func at(e, t float64) bool { return e >= 0 && e <= t }

// queued returns, per slot, the handle in it at t (-1 if empty): a handle
// holds its slot from its Enqueue until the progress thread's Dequeue.
func (tl *timeline) queued(t float64, slots int) []int {
	q := make([]int, slots)
	for i := range q {
		q[i] = -1
	}
	for id, h := range tl.handles {
		if at(h.enqueue, t) && !at(h.dequeue, t) && h.slot >= 0 && h.slot < slots {
			q[h.slot] = id
		}
	}
	return q
}

// blocked returns the handle whose enqueue waits for a free slot at t (the
// main thread is blocked in I<collective>), or -1.
func (tl *timeline) blocked(t float64) int {
	for id, h := range tl.handles {
		if at(h.block, t) && !at(h.enqueue, t) {
			return id
		}
	}
	return -1
}

// running returns the handle whose collective the progress thread runs at
// t (TCC runs one at a time), or -1.
func (tl *timeline) running(t float64) int {
	for id, h := range tl.handles {
		if at(h.start, t) && !at(h.done, t) {
			return id
		}
	}
	return -1
}

// headTail are the ring's pointers at t: head is the slot the progress
// thread dequeues next, tail the slot the next enqueue fills. Each moves
// one slot on (modulo the capacity) past the slot of the last dequeue or
// enqueue, as a ring queue's indices do.
func (tl *timeline) headTail(t float64, slots int) (head, tail int) {
	for _, h := range tl.handles {
		if at(h.dequeue, t) {
			head = (h.slot + 1) % slots
		}
		if at(h.enqueue, t) {
			tail = (h.slot + 1) % slots
		}
	}
	return head, tail
}

// progressCalls counts the progress calls made by t.
func (tl *timeline) progressCalls(t float64) int {
	n, _ := slices.BinarySearch(tl.progress, t)
	for n < len(tl.progress) && tl.progress[n] <= t {
		n++
	}
	return n
}

// blockedSpan reports whether sp is the main thread waiting in an
// enqueue for a free slot (the engine records it as Idle, "queue full";
// the scene draws it as blocked).
func (tl *timeline) blockedSpan(sp trace.Span) bool {
	if sp.Lane != tl.main || sp.Kind != trace.Idle {
		return false
	}
	for _, h := range tl.handles {
		if h.block >= 0 && sp.Start >= h.block && sp.End <= h.enqueue {
			return true
		}
	}
	return false
}

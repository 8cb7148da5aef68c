package nbc

import (
	"errors"
	"fmt"

	"commlab/internal/errf"
)

// Result is one run of the experiment. Times are in seconds.
//
// The parts: Compute is the matrix-vector product alone (this method's
// compute threads, no communication); Comm is the collectives alone (issued
// and waited on at once, no computation); Overlap is the time rank 0's
// network was moving its data while its compute threads computed; Overhead
// is the rest, Total − (Compute + Comm − Overlap): library and thread costs
// and the time the data waited for a thread to enter the library.
type Result struct {
	Total, Compute, Comm, Overlap, Overhead float64
	// Baseline is the total time of the method's non-overlapped baseline
	// (Method.Baseline) with the same parameters.
	Baseline float64
	// Speedup is Baseline / Total: the paper's overlap speedup.
	Speedup float64
	// Events is rank 0's handle life cycle, in time order.
	Events []HandleEvent
}

// EventKind is one step of a handle's life cycle (or of the main thread's
// calls that concern all handles).
type EventKind uint8

const (
	// Issue: the main thread calls the non-blocking collective (TCC's
	// I<collective>, NBC_Ialltoall), or the blocking MPI_Alltoall.
	Issue EventKind = iota
	// Block: TCC's enqueue finds the HandleQueue full and waits on the
	// condition variable.
	Block
	// Enqueue: the handle enters the HandleQueue at Slot.
	Enqueue
	// Dequeue: the progress thread takes the head (Slot) of the queue.
	Dequeue
	// Start: the collective starts running: the progress thread calls the
	// blocking collective (TCC), or the schedule's first round is posted
	// (LibNBC), or MPI_Alltoall starts.
	Start
	// Done: the handle's done flag is set (TCC), or the schedule's last
	// round is found complete (LibNBC), or MPI_Alltoall returns.
	Done
	// WaitCall: the main thread calls Wait on the handle.
	WaitCall
	// WaitReturn: Wait returns.
	WaitReturn
	// Progress: the main thread calls the progress function (NBC_Test);
	// Handle is −1 (it progresses every active handle).
	Progress
	// FinalizeCall: TCC's Finalize is called (Handle −1).
	FinalizeCall
	// FinalizeReturn: the queue is empty, the progress thread has been
	// told to stop and joined (Handle −1).
	FinalizeReturn
	numEventKinds
)

var eventNames = [numEventKinds]string{"issue", "block", "enqueue", "dequeue", "start", "done",
	"wait", "wait-return", "progress", "finalize", "finalize-return"}

func (k EventKind) String() string {
	if k < numEventKinds {
		return eventNames[k]
	}
	return fmt.Sprintf("EventKind(%d)", k)
}

// MarshalText writes the kind's name, so JSON events read as words.
func (k EventKind) MarshalText() ([]byte, error) {
	if k >= numEventKinds {
		return nil, errf.Errorf("nbc: unknown event kind %d", k)
	}
	return []byte(eventNames[k]), nil
}

// HandleEvent is one event of rank 0's handles.
type HandleEvent struct {
	Time   float64   `json:"time"`
	Handle int       `json:"handle"` // issue order from 0; −1 for Progress and Finalize*
	Kind   EventKind `json:"kind"`
	// Slot is the HandleQueue slot for Enqueue and Dequeue (TCC), −1
	// otherwise.
	Slot int `json:"slot"`
}

// ValidateHandles checks a handle life cycle:
//
//   - times never go back;
//   - handles are numbered 0, 1, … in issue order;
//   - every handle is issued, started, done, waited on and returned from
//     exactly once, in that order (Issue ≤ Start ≤ Done ≤ WaitReturn,
//     WaitCall ≤ WaitReturn);
//   - if any handle is enqueued (TCC), every one is enqueued and dequeued
//     once, Issue ≤ Block ≤ Enqueue ≤ Dequeue ≤ Start, dequeued from the
//     slot it was enqueued in, the queue is served in issue order and one
//     collective runs at a time (Start of h+1 after Done of h);
//   - Finalize, if called, is called once, returns once, after every Done.
func ValidateHandles(evs []HandleEvent) error {
	type life struct {
		at    [numEventKinds]float64
		count [numEventKinds]int
		slot  [2]int // enqueue, dequeue
	}
	var hs []life
	var errs problems
	report := errs.add
	last := 0.0
	fin := [2]int{}
	finAt := [2]float64{}
	for i, e := range evs {
		if e.Time < last || e.Time != e.Time {
			report("event %d (%s of handle %d) at %g goes back from %g", i, e.Kind, e.Handle, e.Time, last)
		}
		last = max(last, e.Time)
		if e.Kind >= numEventKinds {
			report("event %d: unknown kind %d", i, e.Kind)
			continue
		}
		switch e.Kind {
		case Progress:
			continue
		case FinalizeCall, FinalizeReturn:
			j := int(e.Kind - FinalizeCall)
			fin[j]++
			finAt[j] = e.Time
			continue
		}
		if e.Handle < 0 || e.Handle > len(hs) {
			report("event %d (%s): handle %d out of order (handles so far: %d)", i, e.Kind, e.Handle, len(hs))
			continue
		}
		if e.Handle == len(hs) {
			if e.Kind != Issue {
				report("event %d: handle %d's first event is %s, want issue", i, e.Handle, e.Kind)
			}
			hs = append(hs, life{})
		}
		h := &hs[e.Handle]
		h.count[e.Kind]++
		h.at[e.Kind] = e.Time
		switch e.Kind {
		case Enqueue:
			h.slot[0] = e.Slot
		case Dequeue:
			h.slot[1] = e.Slot
		}
	}
	queued := false
	for _, h := range hs {
		queued = queued || h.count[Enqueue] > 0
	}
	order := []EventKind{Issue, Start, Done, WaitReturn}
	if queued {
		order = []EventKind{Issue, Enqueue, Dequeue, Start, Done, WaitReturn}
	}
	for id, h := range hs {
		for _, k := range append([]EventKind{WaitCall}, order...) {
			if h.count[k] != 1 {
				report("handle %d: %d %s events, want exactly 1", id, h.count[k], k)
			}
		}
		if h.count[Block] > 1 || !queued && h.count[Block] > 0 {
			report("handle %d: %d block events", id, h.count[Block])
		}
		for j := 1; j < len(order); j++ {
			if h.at[order[j]] < h.at[order[j-1]] {
				report("handle %d: %s at %g before %s at %g", id, order[j], h.at[order[j]], order[j-1], h.at[order[j-1]])
			}
		}
		if h.at[WaitReturn] < h.at[WaitCall] {
			report("handle %d: wait returns at %g before it is called at %g", id, h.at[WaitReturn], h.at[WaitCall])
		}
		if queued {
			if h.count[Block] == 1 && (h.at[Block] < h.at[Issue] || h.at[Block] > h.at[Enqueue]) {
				report("handle %d: block at %g outside [issue %g, enqueue %g]", id, h.at[Block], h.at[Issue], h.at[Enqueue])
			}
			if h.slot[0] != h.slot[1] {
				report("handle %d: enqueued in slot %d, dequeued from slot %d", id, h.slot[0], h.slot[1])
			}
			if id > 0 {
				p := hs[id-1]
				if h.at[Dequeue] < p.at[Dequeue] || h.at[Enqueue] < p.at[Enqueue] {
					report("handle %d: queue not served in issue order", id)
				}
				if h.at[Start] < p.at[Done] {
					report("handle %d starts at %g before handle %d is done at %g: the progress thread runs one collective at a time", id, h.at[Start], id-1, p.at[Done])
				}
			}
		}
	}
	if fin[0] > 1 || fin[1] > 1 || fin[0] != fin[1] {
		report("finalize called %d times, returned %d times, want once each", fin[0], fin[1])
	} else if fin[0] == 1 {
		if finAt[1] < finAt[0] {
			report("finalize returns at %g before it is called at %g", finAt[1], finAt[0])
		}
		for id, h := range hs {
			if h.at[Done] > finAt[1] {
				report("finalize returns at %g before handle %d is done at %g", finAt[1], id, h.at[Done])
			}
		}
	}
	if len(hs) == 0 && len(evs) > 0 {
		report("no handle issued")
	}
	return errors.Join(errs...)
}

// problems collects the first ten problems a check finds. add is not
// inlined: the check reports from many places, and a copy of
// fmt.Errorf at each is wasm the page pays for (docs/visualizer.md).
type problems []error

//go:noinline
func (p *problems) add(format string, args ...any) {
	if len(*p) < 10 {
		*p = append(*p, errf.Errorf(format, args...))
	}
}

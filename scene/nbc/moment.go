package nbc

import "math"

// Moment is where a link without t opens (scene.Moment): the middle of a
// wait of the main thread on a full HandleQueue, when the picture shows
// what TCC is about (a full ring, the progress thread running the head's
// collective, the main thread blocked), rather than the end, when the
// queue is empty. Without a block it is the instant the queue holds the
// most handles; in the LibNBC-only view, the end.
func (r *run) Moment() float64 {
	if r.view == ViewNBCF {
		return r.end
	}
	tl := r.tl[iTCC]
	// Of the waits on a full queue while the progress thread runs a
	// collective, the one nearest the middle of the run, so that the
	// timeline below is half drawn and the compute threads under way.
	best, found := 0.0, false
	for _, h := range tl.handles {
		if h.block < 0 || !(h.enqueue > h.block) {
			continue
		}
		// The queue is full from the block until the progress thread
		// dequeues the head; then the main thread is waking up.
		wake := h.enqueue
		for _, o := range tl.handles {
			if o.dequeue > h.block && o.dequeue < wake {
				wake = o.dequeue
			}
		}
		mid := (h.block + wake) / 2
		if tl.running(mid) < 0 {
			continue
		}
		if !found || math.Abs(mid-r.end/2) < math.Abs(best-r.end/2) {
			best, found = mid, true
		}
	}
	if found {
		return best
	}
	best, most := r.end, -1
	for _, h := range tl.handles {
		// The queue only grows at an enqueue.
		n := 0
		for _, s := range tl.queued(h.enqueue, r.p.QueueCap) {
			if s >= 0 {
				n++
			}
		}
		if n > most {
			best, most = h.enqueue, n
		}
	}
	return best
}

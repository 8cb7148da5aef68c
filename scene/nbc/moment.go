package nbc

// Moment is where a link without t opens (scene.Moment): the middle of the
// main thread's first wait on a full HandleQueue, when the picture shows
// what TCC is about (a full ring, the progress thread running the head's
// collective, the main thread blocked), rather than the end, when the
// queue is empty. Without a block it is the instant the queue holds the
// most handles; in the LibNBC-only view, the end.
func (r *run) Moment() float64 {
	if r.view == ViewNBCF {
		return r.end
	}
	tl := r.tl[iTCC]
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
		return (h.block + wake) / 2
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

package goal

import (
	"container/heap"
	"math/bits"
	"slices"
)

// item is an entry of LogGOPSim's active queue: an operation (or, with
// msgBit, the message of a send) of a host, due at time, with the stamp
// ts that orders equal times (the insertion order; a re-inserted item
// keeps its stamp).
type item struct {
	time uint64
	ts   uint32
	op   uint32 // msgBit: the message of send op&^msgBit
	host uint32 // the op's own rank (for a message: the sender)
}

const msgBit = 1 << 31

func itemLess(a, b item) bool { return a.time < b.time || a.time == b.time && a.ts < b.ts }

// queue is a radix heap on time. It pops items in (time, ts) order as
// LogGOPSim's std::priority_queue does, in amortised O(1) instead of
// O(log n): LogGOPSim pushes nothing earlier than the item it is
// handling except when an operation is freed onto another, idle CPU of
// the host (that CPU's clock may lag); such items go to a small binary
// heap that is served first. Bucket 0 holds the items at exactly the
// current time in stamp order.
type queue struct {
	last    uint64
	buckets [65][]item
	head    int // next item of bucket 0
	n       int
	back    backHeap
}

func (q *queue) reset() {
	for i := range q.buckets {
		q.buckets[i] = q.buckets[i][:0]
	}
	q.last, q.head, q.n = 0, 0, 0
	q.back = q.back[:0]
}

func (q *queue) len() int { return q.n + len(q.back) }

func (q *queue) push(it item) {
	if it.time < q.last {
		heap.Push(&q.back, it)
		return
	}
	q.n++
	b := bits.Len64(it.time ^ q.last)
	if b == 0 {
		// A new item (largest stamp yet) goes last; a re-inserted one
		// (only when the clock went back) into its place.
		b0 := q.buckets[0]
		if len(b0) > q.head && b0[len(b0)-1].ts > it.ts {
			i, _ := slices.BinarySearchFunc(b0[q.head:], it, func(x, y item) int {
				if x.ts < y.ts {
					return -1
				}
				return 1
			})
			q.buckets[0] = slices.Insert(b0, q.head+i, it)
			return
		}
	}
	q.buckets[b] = append(q.buckets[b], it)
}

func (q *queue) pop() item {
	if len(q.back) > 0 {
		return heap.Pop(&q.back).(item)
	}
	if q.head == len(q.buckets[0]) {
		q.buckets[0] = q.buckets[0][:0]
		q.head = 0
		b := 1
		for len(q.buckets[b]) == 0 {
			b++
		}
		src := q.buckets[b]
		m := src[0].time
		for _, it := range src[1:] {
			m = min(m, it.time)
		}
		q.last = m
		for _, it := range src {
			k := bits.Len64(it.time ^ m)
			q.buckets[k] = append(q.buckets[k], it)
		}
		q.buckets[b] = src[:0]
		b0 := q.buckets[0]
		if !slices.IsSortedFunc(b0, cmpTS) {
			slices.SortFunc(b0, cmpTS)
		}
	}
	q.n--
	it := q.buckets[0][q.head]
	q.head++
	return it
}

func cmpTS(a, b item) int {
	if a.ts < b.ts {
		return -1
	}
	if a.ts > b.ts {
		return 1
	}
	return 0
}

type backHeap []item

func (h backHeap) Len() int           { return len(h) }
func (h backHeap) Less(i, j int) bool { return itemLess(h[i], h[j]) }
func (h backHeap) Swap(i, j int)      { h[i], h[j] = h[j], h[i] }
func (h *backHeap) Push(x any)        { *h = append(*h, x.(item)) }
func (h *backHeap) Pop() any {
	old := *h
	it := old[len(old)-1]
	*h = old[:len(old)-1]
	return it
}

package goal

import (
	"container/heap"
	"math/bits"
	"slices"

	"commlab/internal/permsort"
	"commlab/internal/prefetch"
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
// current time in stamp order; buckets 1..64 are lists of fixed-size
// chunks from one arena, so the queue's memory follows the items it
// holds, not the most any bucket ever held.
type queue struct {
	last   uint64
	b0     []item // time == last, stamp order
	head   int    // next item of b0
	bk     [65]bucket
	chunks []chunk
	free   int32 // free chunk list
	n      int   // items in buckets 1..64
	// refills counts the buckets moved to b0 (the executor samples
	// each new one: exec.scattered)
	refills int
	back    backHeap
}

const chunkItems = 256

// reserveMin is the least number of items queue.reserve makes room for.
const reserveMin = 1 << 16

type chunk struct {
	items [chunkItems]item
	n     int32
	next  int32
}

// bucket is a list of chunks. Its items' common time t (when not mixed)
// and whether they were added in stamp order (not unsorted) let refill
// move a bucket of one time, the usual case, to b0 in bulk: every rank's
// message of a collective's stage arrives at one instant.
type bucket struct {
	head, tail int32
	lastTS     uint32 // stamp of the item added last
	mixed      bool   // items of more than one time
	unsorted   bool   // a stamp smaller than the one before it
	t          uint64 // the time of the first item
}

var emptyBucket = bucket{head: -1, tail: -1}

func (q *queue) reset() {
	q.last, q.head, q.n = 0, 0, 0
	q.b0 = q.b0[:0]
	// The chunks of an earlier run go on the free list as they are: a
	// chunk appended anew is 6 KB to zero.
	q.free = -1
	for i := range q.chunks {
		q.chunks[i].next = q.free
		q.free = int32(i)
	}
	for i := range q.bk {
		q.bk[i] = emptyBucket
	}
	q.back = q.back[:0]
}

// reserve makes room for about items queued at once without growing the
// chunk arena or b0 (each growth copies the arena and faults fresh
// memory in): one item per rank is what a collective's stage queues.
// Small runs grow as they go, allocating only what they use.
func (q *queue) reserve(items int) {
	if items < reserveMin {
		return
	}
	if cap(q.b0) < items {
		q.b0 = make([]item, 0, items)
		prefetch.Huge(q.b0)
	}
	if n := items / chunkItems; cap(q.chunks) < n {
		c := make([]chunk, len(q.chunks), n)
		prefetch.Huge(c)
		copy(c, q.chunks)
		q.chunks = c
	}
}

func (q *queue) len() int { return len(q.b0) - q.head + q.n + len(q.back) }

func (q *queue) newChunk() int32 {
	if c := q.free; c >= 0 {
		q.free = q.chunks[c].next
		q.chunks[c].n, q.chunks[c].next = 0, -1
		return c
	}
	// the arena doubles: append's quarter at a time would copy it about
	// five times over in all (EstimateSchedule counts twice)
	q.chunks = append(room(q.chunks, 1), chunk{next: -1})
	return int32(len(q.chunks) - 1)
}

func (q *queue) add(b int, it item) {
	bk := &q.bk[b]
	if bk.tail < 0 || q.chunks[bk.tail].n == chunkItems {
		q.addToNewChunk(bk, it)
		return
	}
	bk.mixed = bk.mixed || it.time != bk.t
	bk.unsorted = bk.unsorted || it.ts < bk.lastTS
	bk.lastTS = it.ts
	ch := &q.chunks[bk.tail]
	ch.items[ch.n] = it
	ch.n++
	q.n++
}

// addToNewChunk is add where bucket bk is empty or its last chunk full,
// once in 256 adds. Apart, and called last: with the chunks' growth in
// add, every add saved the item on the stack before its test (2
// instructions an add, callgrind).
func (q *queue) addToNewChunk(bk *bucket, it item) {
	c := q.newChunk()
	if bk.tail < 0 {
		bk.head = c
		bk.t, bk.mixed, bk.unsorted = it.time, false, false
	} else {
		q.chunks[bk.tail].next = c
		bk.mixed = bk.mixed || it.time != bk.t
		bk.unsorted = bk.unsorted || it.ts < bk.lastTS
	}
	bk.tail = c
	bk.lastTS = it.ts
	ch := &q.chunks[c]
	ch.items[0] = it
	ch.n = 1
	q.n++
}

func (q *queue) push(it item) {
	if it.time < q.last {
		heap.Push(&q.back, it)
		return
	}
	b := bits.Len64(it.time ^ q.last)
	if b > 0 {
		q.add(b, it)
		return
	}
	// A new item (largest stamp yet) goes last; a re-inserted one (only
	// when a clock went back) into its place.
	if len(q.b0) > q.head && q.b0[len(q.b0)-1].ts > it.ts {
		i, _ := slices.BinarySearchFunc(q.b0[q.head:], it, func(x, y item) int {
			if x.ts < y.ts {
				return -1
			}
			return 1
		})
		q.b0 = slices.Insert(room(q.b0, 1), q.head+i, it)
		return
	}
	q.b0 = append(room(q.b0, 1), it)
}

func (q *queue) pop() item {
	if len(q.back) > 0 {
		return heap.Pop(&q.back).(item)
	}
	if q.head == len(q.b0) {
		q.refill()
	}
	it := q.b0[q.head]
	q.head++
	return it
}

// refill empties the lowest non-empty bucket: its least time becomes
// last, its items at that time go to b0 (sorted by stamp), the others to
// lower buckets.
func (q *queue) refill() {
	q.refills++
	q.b0, q.head = q.b0[:0], 0
	b := 1
	for q.bk[b].head < 0 {
		b++
	}
	bk := q.bk[b]
	q.bk[b] = emptyBucket
	// b0 grows once to what the bucket holds, a quarter more: appended
	// chunk by chunk it doubled (a stage of a large collective moves
	// every rank's item at once), leaving twice its size behind
	total := 0
	for c := bk.head; c >= 0; c = q.chunks[c].next {
		total += int(q.chunks[c].n)
	}
	if cap(q.b0) < total {
		q.b0 = make([]item, 0, max(total+total/4, 2*cap(q.b0)))
	}
	if !bk.mixed {
		// all at one time: the bucket becomes b0 as it is, in bulk
		q.last = bk.t
		for c := bk.head; c >= 0; {
			ch := &q.chunks[c]
			q.b0 = append(q.b0, ch.items[:ch.n]...)
			q.n -= int(ch.n)
			next := ch.next
			ch.next = q.free
			q.free = c
			c = next
		}
		if bk.unsorted {
			permsort.SortFunc(q.b0, cmpTS)
		}
		return
	}
	m := ^uint64(0)
	for c := bk.head; c >= 0; c = q.chunks[c].next {
		ch := &q.chunks[c]
		for _, it := range ch.items[:ch.n] {
			m = min(m, it.time)
		}
	}
	q.last = m
	for c := bk.head; c >= 0; {
		// q.add may grow q.chunks: index it afresh, hold no pointer
		n, next := q.chunks[c].n, q.chunks[c].next
		q.n -= int(n)
		for k := range n {
			it := q.chunks[c].items[k]
			if it.time == m {
				q.b0 = append(q.b0, it)
			} else {
				q.add(bits.Len64(it.time^m), it)
			}
		}
		q.chunks[c].next = q.free
		q.free = c
		c = next
	}
	if !slices.IsSortedFunc(q.b0, cmpTS) {
		permsort.SortFunc(q.b0, cmpTS)
	}
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

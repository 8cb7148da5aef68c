package goal

import (
	"container/heap"
	"math/rand/v2"
	"testing"
)

// TestQueueOrder drives the radix queue and a plain binary heap with the
// same pushes (new items at or after the last popped time with growing
// stamps, re-insertions later with their old stamps, a few earlier than
// the last pop, as a lagging CPU clock makes) and checks they pop the
// same sequence.
func TestQueueOrder(t *testing.T) {
	for seed := range uint64(20) {
		rng := rand.New(rand.NewPCG(seed, 99))
		var q queue
		q.reset()
		var ref backHeap
		var ts uint32
		var now uint64
		spread := uint64(1) << (2 + seed%40)
		push := func(it item) {
			q.push(it)
			heap.Push(&ref, it)
		}
		for range 50 + int(seed%4)*1000 { // some runs fill buckets with several chunks
			push(item{time: spread + rng.Uint64N(spread), ts: ts, op: ts}) // one bucket: its refill grows the chunk arena
			ts++
		}
		for n := 0; n < 20000 && ref.Len() > 0; n++ {
			got, want := q.pop(), heap.Pop(&ref).(item)
			if got != want {
				t.Fatalf("seed %d pop %d: got %+v, want %+v", seed, n, got, want)
			}
			now = got.time
			for range rng.IntN(3) {
				switch r := rng.IntN(10); {
				case r < 6:
					push(item{time: now + rng.Uint64N(spread), ts: ts, op: ts})
					ts++
				case r < 8:
					push(item{time: now + 1 + rng.Uint64N(spread), ts: got.ts, op: got.op}) // re-insertion
				case now > 0:
					push(item{time: rng.Uint64N(now), ts: ts, op: ts}) // a lagging clock
					ts++
				}
			}
			if q.len() != ref.Len() {
				t.Fatalf("seed %d: len %d, want %d", seed, q.len(), ref.Len())
			}
		}
	}
}

package goal

import "slices"

// Operations that wait for a busy CPU or NIC.
//
// LogGOPSim takes an operation (or a message) from its queue at time t
// and, when the CPU or NIC it needs is busy until a later time T, puts it
// back at T with its stamp, to be taken again then. Nothing orders the
// waiting operations but their stamps: n sends that a rank issues at once
// (a linear broadcast's root, or one calc's n dependents) are taken and
// put back n-1 times, then n-2 times, and so on: n²/2 re-insertions, 32 s
// for a broadcast to 30,000 ranks.
//
// What LogGOPSim computes does not need them. Its clocks only move
// forward (every duration is at least 0: exec.reset refuses the 0-byte
// messages whose g - G or o - O would be negative), so an item's time
// when it is finally handled is max(t0, C) for its first time t0 and the
// current value C of the clocks it waits for; and the item handled next
// is always the one with the least (max(t0, C), stamp), as the queue
// holds every item at a time no later than that. So an item found
// waiting joins a group of the items that wait for the same clocks (a
// CPU; a CPU and the NIC a send uses; a receiver's CPU and NIC for a
// message), ordered by stamp, and only the group's least stamp stands in
// the queue, as a token at (C, stamp). When the token is taken and the
// clocks have moved on, it goes back at their new time (what LogGOPSim
// does with that one item); when they have not, its item is handled, and
// the token of the next one goes in. The order of everything handled,
// and every time, is LogGOPSim's; the work is O(log n) per wait instead
// of O(n). An item that waits alone for its clocks (the usual case) goes
// back into the queue as in LogGOPSim, and so do a few (soloMax) waiting
// together, which costs less than a group; one more makes one. (Result.Pops
// counts the items and tokens taken, not the re-insertions LogGOPSim
// would have made for the items in groups.)
//
// Recorded runs name what set each waiting item's time (its cause): the
// clock's setter when the item last found it busy, as LogGOPSim's
// re-insertions would; an item that joined before the clock moved on
// takes the setter the group saw when its token went back at the new
// time.

// The kinds of wait groups: the clocks they wait for.
const (
	waitCalc = iota // a CPU
	waitSend        // a CPU and the NIC's send side
	waitMsg         // a receiver's CPU and its NIC's receive side
)

// tokenBit marks a queue item that is a wait group's token: op is
// tokenBit | the group's index, host the group's token sequence number.
// Operations' places are below 2^30 and messages carry msgBit, so no
// other item has it.
const tokenBit = 1 << 30

// isToken reports whether an item's op is a wait group's token.
func isToken(op uint32) bool { return op&(msgBit|tokenBit) == tokenBit }

// parked is an item waiting in a group: its stamp, op and host, and the
// group's clock when it joined (recorded runs: whether the clock moved on
// since).
type parked struct {
	at           uint64
	ts, op, host uint32
}

// waitGroup is the items waiting for the same clocks, by stamp: those
// that joined in stamp order (the usual case: a fan-out's dependents,
// freed and found waiting one after the other) in a queue, run, and the
// others in a heap.
// A group lives while items wait in it (exec.waitAt or, for a send or
// message on a NIC of another index than its CPU, exec.groupOf names
// it); an emptied one goes on exec.freeGroups, to be taken again, so
// there are as many as clocks waited for at once.
type waitGroup struct {
	c, nc uint32 // slots (hostSlot indices) of the CPU and the NIC
	seq   uint32 // the live token's number; older tokens are stale (a group taken again goes on counting)
	min   uint32 // the live token's stamp
	kind  uint8
	run   []parked // from head on, in stamp order
	head  int
	heap  []parked
}

// groupCause is, in a recorded run, what set the clock value at when a
// group last saw its clocks change.
type groupCause struct {
	cause cause
	at    uint64
}

// literalWaits makes waiting items go back into the queue one by one, as
// in LogGOPSim: the tests compare both.
var literalWaits = false

// clock is the time the group's clocks allow.
func (e *exec) clock(g *waitGroup) uint64 {
	switch g.kind {
	case waitCalc:
		return e.hs[g.c].o
	case waitSend:
		return max(e.hs[g.c].o, e.hs[g.nc].gs)
	}
	return max(e.hs[g.c].o, e.hs[g.nc].gr)
}

// setter is what set the group's clock (recorded runs), as the executor
// names it where an item finds it busy.
func (e *exec) setter(g *waitGroup) cause {
	switch g.kind {
	case waitCalc:
		return e.cpuBy[g.c]
	case waitSend:
		return e.bind(int(g.c), int(g.nc))
	}
	if e.hs[g.nc].gr > e.hs[g.c].o {
		return e.grBy[g.nc]
	}
	return e.cpuBy[g.c]
}

// wait parks item it, found waiting for the clocks of kind on slots c and
// nc until it.time (set by the caller, with its cause), or puts it back
// into the queue where it waits alone.
func (e *exec) wait(it item, kind uint8, c, nc int) {
	if literalWaits {
		e.q.push(it)
		return
	}
	if nc == c || kind == waitCalc {
		// A few items waiting for the same clocks (the usual case: a
		// rank's next send, two messages at a busy receiver) go back into
		// the queue as in LogGOPSim, their stamps noted: a group costs
		// more than it saves there. One more makes the group, and the
		// others join it when they next find the clocks busy.
		if e.waitAt == nil {
			e.waitAt = make([]uint32, 3*len(e.hs))
			e.soloN, e.soloTS = make([]uint8, 3*len(e.hs)), make([]uint32, soloMax*3*len(e.hs))
		}
		k := int(kind)*len(e.hs) + c
		if e.waitAt[k] == 0 {
			n := int(e.soloN[k])
			ts := e.soloTS[k*soloMax : k*soloMax+n]
			if slices.Contains(ts, it.ts) {
				e.q.push(it)
				return
			}
			if n < soloMax {
				e.soloTS[k*soloMax+n] = it.ts
				e.soloN[k]++
				e.q.push(it)
				return
			}
			e.soloN[k] = 0 // the group below takes over
		}
	}
	gi, ok := e.findGroup(kind, c, nc)
	if !ok {
		if n := len(e.freeGroups); n > 0 {
			gi = e.freeGroups[n-1]
			e.freeGroups = e.freeGroups[:n-1]
		} else {
			gi = e.groups.add()
			g := e.groups.at(gi)
			g.run, g.head, g.heap = g.run[:0], 0, g.heap[:0]
			if e.rec {
				e.gcause = append(room(e.gcause, 1), groupCause{})
			}
		}
		e.setGroup(kind, c, nc, gi+1)
		g := e.groups.at(gi)
		g.kind, g.c, g.nc = kind, uint32(c), uint32(nc)
	}
	g := e.groups.at(gi)
	g.push(parked{at: it.time, ts: it.ts, op: it.op, host: it.host})
	if g.len() == 1 || it.ts < g.min {
		g.seq++
		g.min = it.ts
		e.q.push(item{time: it.time, ts: it.ts, op: tokenBit | gi, host: g.seq})
	}
}

// token handles a group's token taken from the queue at it.time.
func (e *exec) token(it item) {
	gi := it.op &^ tokenBit
	g := e.groups.at(gi)
	if it.host != g.seq {
		return // a newer token stands for the group
	}
	if c := e.clock(g); c > it.time {
		it.time = c
		if e.rec {
			e.gcause[gi] = groupCause{e.setter(g), c}
		}
		e.q.push(it)
		return
	}
	p := g.pop()
	if e.rec && p.at != it.time {
		// the clock moved on after p joined: p's cause is what the group
		// saw set it
		if p.op&msgBit != 0 {
			e.mcause[e.msgOf[p.op&^msgBit]] = e.gcause[gi].cause
		} else {
			e.cause[p.op] = e.gcause[gi].cause
		}
	}
	e.handle(item{time: it.time, ts: p.ts, op: p.op, host: p.host})
	if g.len() == 0 {
		e.setGroup(g.kind, int(g.c), int(g.nc), 0)
		if e.soloN != nil && (g.nc == g.c || g.kind == waitCalc) {
			e.soloN[int(g.kind)*len(e.hs)+int(g.c)] = 0
		}
		e.freeGroups = append(room(e.freeGroups, 1), gi)
		return
	}
	g.seq++
	g.min = g.least().ts
	c := e.clock(g)
	if e.rec {
		e.gcause[gi] = groupCause{e.setter(g), c}
	}
	e.q.push(item{time: c, ts: g.min, op: tokenBit | gi, host: g.seq})
}

// soloMax is how many items waiting for the same clocks go back into
// the queue one by one before they make a group (exec.soloN counts them
// per clocks, exec.soloTS notes their stamps). Some may have run since:
// the group then forms a little early, no harm done; and no more than
// soloMax of them are put back each time the clocks move on, so the work
// stays linear.
const soloMax = 3

// findGroup returns the group of the items waiting for the clocks of
// kind on slots c and nc, if items wait for them.
func (e *exec) findGroup(kind uint8, c, nc int) (uint32, bool) {
	if nc == c || kind == waitCalc {
		if e.waitAt == nil {
			return 0, false
		}
		gi := e.waitAt[int(kind)*len(e.hs)+c]
		return gi - 1, gi != 0
	}
	gi, ok := e.groupOf[uint64(kind)<<62|uint64(c)<<8|uint64(nc%e.w)]
	return gi, ok
}

// setGroup makes gi the group of kind on slots c and nc (a group index
// plus 1, or 0: none).
func (e *exec) setGroup(kind uint8, c, nc int, gi1 uint32) {
	if nc == c || kind == waitCalc {
		if e.waitAt == nil {
			e.waitAt = make([]uint32, 3*len(e.hs))
		}
		e.waitAt[int(kind)*len(e.hs)+c] = gi1
		return
	}
	key := uint64(kind)<<62 | uint64(c)<<8 | uint64(nc%e.w)
	if gi1 == 0 {
		delete(e.groupOf, key)
		return
	}
	if e.groupOf == nil {
		e.groupOf = map[uint64]uint32{}
	}
	e.groupOf[key] = gi1 - 1
}

// chunked is a slice kept in chunks: it grows without copying what it
// holds (a group is 48 bytes, and each rank of a butterfly keeps two at
// once), and keeps its chunks for the next run.
type chunked[T any] struct {
	c [][]T
	n int
}

const chunkLen = 256

func (p *chunked[T]) at(i uint32) *T { return &p.c[i/chunkLen][i%chunkLen] }

// add makes room for one more and returns its index.
func (p *chunked[T]) add() uint32 {
	if p.n == len(p.c)*chunkLen {
		p.c = append(p.c, make([]T, chunkLen))
	}
	p.n++
	return uint32(p.n - 1)
}

// len is how many items wait in the group.
func (g *waitGroup) len() int { return len(g.run) - g.head + len(g.heap) }

// least is the item with the least stamp.
func (g *waitGroup) least() parked {
	if len(g.heap) > 0 && (g.head == len(g.run) || g.heap[0].ts < g.run[g.head].ts) {
		return g.heap[0]
	}
	return g.run[g.head]
}

// push adds p: at the end of run if it comes after everything there,
// else into the heap.
func (g *waitGroup) push(p parked) {
	if n := len(g.run); n == g.head || p.ts > g.run[n-1].ts {
		if n == g.head {
			g.run, g.head = g.run[:0], 0
		}
		g.run = append(room(g.run, 1), p)
		return
	}
	g.heapPush(p)
}

// pop removes and returns the item with the least stamp.
func (g *waitGroup) pop() parked {
	if len(g.heap) > 0 && (g.head == len(g.run) || g.heap[0].ts < g.run[g.head].ts) {
		return g.heapPop()
	}
	p := g.run[g.head]
	g.head++
	return p
}

// heapPush adds p to the heap (least stamp first).
func (g *waitGroup) heapPush(p parked) {
	h := append(room(g.heap, 1), p)
	i := len(h) - 1
	for i > 0 {
		up := (i - 1) / 2
		if h[up].ts <= p.ts {
			break
		}
		h[i] = h[up]
		i = up
	}
	h[i] = p
	g.heap = h
}

// heapPop removes and returns the heap's least stamp.
func (g *waitGroup) heapPop() parked {
	h := g.heap
	top := h[0]
	last := h[len(h)-1]
	h = h[:len(h)-1]
	i := 0
	for {
		l := 2*i + 1
		if l >= len(h) {
			break
		}
		if r := l + 1; r < len(h) && h[r].ts < h[l].ts {
			l = r
		}
		if last.ts <= h[l].ts {
			break
		}
		h[i] = h[l]
		i = l
	}
	if len(h) > 0 {
		h[i] = last
	}
	g.heap = h
	return top
}

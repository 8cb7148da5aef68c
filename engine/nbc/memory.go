package nbc

import "math"

// Memory sharing (Params.MemoryShare): the matrix-vector product is bound
// by memory bandwidth, so whatever else streams from a socket's memory at
// the same time slows it, and is slowed by it: the alltoall's local copy
// (LibNBC's in the issuing thread before the product starts, MPI's in
// TCC's progress thread while it runs) and the NIC's DMA of the data on
// the wire. The DMA is paced by the link and served first (a Gen3 x8 HCA
// keeps enough reads in flight to move at link rate while the cores queue
// behind it); the cores (compute threads and the copy) share what is left
// max-min fairly: each gets an equal share unless it wants less (its cap),
// and what a capped stream leaves goes to the others. A DMA demand above
// half the socket's bandwidth (a link faster than half a socket's memory,
// far outside the paper's machine) is held to half, without slowing the
// link.

// bufferSocket is where the communication buffers live: the main thread
// allocates and first touches them, and Linux places a page on the node
// of the thread that first touches it. The NIC's DMA and the local copy
// load this socket's memory.
const bufferSocket = 0

// fairShare is the rate of one stream of each of two groups (n streams
// that each want at most a bytes per second, m that want at most b) when
// they share capacity max-min fairly (water-filling): a group whose cap is
// under the equal share gets its cap, and what it leaves goes to the
// other.
func fairShare(capacity float64, n int, a float64, m int, b float64) (ra, rb float64) {
	if n+m == 0 {
		return 0, 0
	}
	level := capacity / float64(n+m)
	switch {
	case n > 0 && a <= level && a <= b:
		ra = a
		if m > 0 {
			rb = min(b, (capacity-float64(n)*a)/float64(m))
		}
	case m > 0 && b <= level:
		rb = b
		if n > 0 {
			ra = min(a, (capacity-float64(m)*b)/float64(n))
		}
	default:
		if n > 0 {
			ra = min(a, level)
		}
		if m > 0 {
			rb = min(b, level)
		}
	}
	return ra, rb
}

// socketOf is the socket of compute thread t: threads fill the sockets in
// order, ceil(Cores/Sockets) a socket (as rowTimes places them).
func (m *model) socketOf(t int) int {
	perSocket := (m.p.Cores + m.p.Sockets - 1) / m.p.Sockets
	return t / perSocket
}

// shares returns the rate of one compute stream and of the copy on socket
// s of rank r now.
func (m *model) shares(r, s int) (compute, copyTraffic float64) {
	rk := &m.ranks[r]
	p := &m.p
	capacity, copies := p.SocketBandwidth, 0
	if s == bufferSocket {
		if rk.cp.active {
			copies = 1
		}
		dma := float64(rk.dmaStreams(m.sim.Now())) * p.DMATraffic * p.Bandwidth
		capacity -= min(dma, capacity/2)
	}
	return fairShare(capacity, rk.streams[s], p.CoreBandwidth, copies, 2*p.CopyBandwidth)
}

// rowDur is how long n rows of compute thread t of rank r take if they
// start now: at its static rate, or at its share of its socket's memory
// now; times 1 + PollInterference while a progress thread polls.
func (m *model) rowDur(r, t, n int) float64 {
	d := m.rowTime[t]
	if m.memShare {
		bw, _ := m.shares(r, m.socketOf(t))
		d = float64(m.p.Matrix) * m.p.ElemBytes / bw
	}
	return float64(n) * d * m.slowdown(r)
}

// streamStart counts rank r's compute threads as streaming from their
// sockets' memory (the product's fork).
func (m *model) streamStart(r int, now float64) {
	if !m.memShare {
		return
	}
	for t := range m.T {
		m.ranks[r].streams[m.socketOf(t)]++
	}
	m.rerateCopy(r, now)
}

// streamEnd: compute thread t of rank r has computed its share.
func (m *model) streamEnd(r, t int, now float64) {
	if !m.memShare {
		return
	}
	m.ranks[r].streams[m.socketOf(t)]--
	m.rerateCopy(r, now)
}

// copyState is the alltoall's local copy of the block to itself while it
// runs (with MemoryShare; without, its time is fixed when it starts).
type copyState struct {
	active   bool
	h, lane  int
	left     float64 // bytes still to copy at time at
	rate     float64 // bytes per second since at
	at, end  float64
	wakeMain bool // the main thread waits for the copy and the posts after it (NBC_Ialltoall)
}

// startCopy begins rank r's local copy for collective h at time t (≥ now:
// it may wait for the library), at the copy's share of socket 0's memory.
func (m *model) startCopy(r, h, lane int, t float64) {
	rk := &m.ranks[r]
	rk.cp = copyState{active: true, h: h, lane: lane, left: m.p.Msg, at: t}
	m.rerateCopy(r, m.sim.Now())
}

// rerateCopy sets the running copy's rate to its share now and schedules
// its end (an earlier scheduled end goes stale: evCopy checks the time).
func (m *model) rerateCopy(r int, now float64) {
	cp := &m.ranks[r].cp
	if !cp.active {
		return
	}
	if now > cp.at {
		cp.left = math.Max(0, cp.left-cp.rate*(now-cp.at))
		cp.at = now
	}
	_, traffic := m.shares(r, bufferSocket)
	rate := traffic / 2 // it reads and writes every byte
	if rate == cp.rate && cp.end != 0 {
		return
	}
	cp.rate = rate
	cp.end = cp.at + cp.left/rate
	m.sim.Schedule(cp.end, evCopy, int32(r))
}

// copyDone: the copy finished at now; the round's requests are posted
// after it, and the main thread, if it issued the collective, goes on
// when they are.
func (m *model) copyDone(r int, now float64) {
	rk := &m.ranks[r]
	cp := rk.cp
	if !cp.active || now != cp.end {
		return // stale: the rate changed since
	}
	rk.cp = copyState{}
	end := m.postOps(r, cp.h, 0, cp.lane, now)
	if cp.wakeMain {
		m.sim.Schedule(end, evMain, int32(r))
	}
}

// ivQueue holds one direction of a rank's link's transfers as intervals,
// in time order (a link moves one transfer at a time), so that whether it
// is busy can be asked at nondecreasing times.
type ivQueue struct {
	iv   [][2]float64
	head int
}

func (q *ivQueue) push(a, b float64) {
	if q.head == len(q.iv) {
		q.iv, q.head = q.iv[:0], 0
	} else if q.head >= 64 && 2*q.head >= len(q.iv) {
		n := copy(q.iv, q.iv[q.head:])
		q.iv, q.head = q.iv[:n], 0
	}
	q.iv = append(q.iv, [2]float64{a, b})
}

// busy reports whether a transfer is on the link at now (never called
// with a time before an earlier call's).
func (q *ivQueue) busy(now float64) bool {
	for q.head < len(q.iv) && q.iv[q.head][1] <= now {
		q.head++
	}
	return q.head < len(q.iv) && q.iv[q.head][0] <= now
}

// dmaStreams is how many directions of the rank's link move data now.
func (rk *rank) dmaStreams(now float64) int {
	return b2n(rk.dma[0].busy(now)) + b2n(rk.dma[1].busy(now))
}

func b2n(b bool) int {
	if b {
		return 1
	}
	return 0
}

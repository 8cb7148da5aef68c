package overlay

// conn is one connection between processes a and b; a opened it.
type conn struct {
	a, b     int32
	shortcut bool
	// readyA and readyB say whether a, and b, may send on the connection:
	// both false during a shortcut's handshake, and they need not turn
	// true together (the opener can send once its kernel has the
	// connection, the far end once it has accepted it: HandshakeKernel).
	// open turns false when it is closed. pending is true from
	// OpenShortcut until SetReady: the record of a shortcut closed during
	// its handshake stays until then, so that the late handshake events
	// can tell.
	readyA, readyB, open, pending bool
	// use orders connections by their last send or receive (a counter,
	// not a time, so LRU never ties).
	use    uint64
	buffer float64
}

// Connections is the overlay's connection state: the static connections,
// the shortcuts, and every process's shortcut cache with LRU eviction
// (Section 3.2). It knows no time; RunIS and a scene drive it.
//
// A shortcut takes a slot in the cache of both its ends, so no process
// ever has more than its static connections plus C open; when either end's
// cache is full, that end's least recently used shortcut (sent or received
// on, by either end) is closed to make room.
type Connections struct {
	procs int
	cache int
	pair  []int32 // a·procs+b → index in conns of the open connection, or -1
	conns []conn
	// free lists the records of closed connections that no handshake
	// refers to any more, for reuse: a run opens hundreds of thousands of
	// shortcuts (Default: 258,000) but holds at most P·C/2 at once.
	free []int32
	// slots[p] lists the open shortcuts p is an end of.
	slots [][]int32
	open  []int
	peak  []int
	buf   []float64
	peakB []float64
	use   uint64
	// buffer is the buffer memory of a connection between two processes.
	buffer func(a, b int) float64
}

// NewConnections sets up the static connections adj (adj[a] lists a's
// partners; both directions present) with a shortcut cache of c per
// process. buffer gives a connection's buffer memory per end; nil means 0.
func NewConnections(adj [][]int, c int, buffer func(a, b int) float64) *Connections {
	n := len(adj)
	if buffer == nil {
		buffer = func(int, int) float64 { return 0 }
	}
	cs := &Connections{procs: n, cache: c, pair: make([]int32, n*n), slots: make([][]int32, n),
		open: make([]int, n), peak: make([]int, n), buf: make([]float64, n), peakB: make([]float64, n), buffer: buffer}
	for i := range cs.pair {
		cs.pair[i] = -1
	}
	for a, ns := range adj {
		for _, b := range ns {
			if a < b && cs.pair[a*n+b] < 0 {
				cs.add(a, b, false)
			}
		}
	}
	return cs
}

func (cs *Connections) add(a, b int, shortcut bool) int32 {
	cs.use++
	c := conn{a: int32(a), b: int32(b), shortcut: shortcut, readyA: !shortcut, readyB: !shortcut, open: true, pending: shortcut, use: cs.use, buffer: cs.buffer(a, b)}
	var id int32
	if n := len(cs.free); n > 0 {
		id = cs.free[n-1]
		cs.free = cs.free[:n-1]
		cs.conns[id] = c
	} else {
		id = int32(len(cs.conns))
		cs.conns = append(cs.conns, c)
	}
	cs.pair[a*cs.procs+b], cs.pair[b*cs.procs+a] = id, id
	for _, p := range [2]int{a, b} {
		cs.open[p]++
		cs.peak[p] = max(cs.peak[p], cs.open[p])
		cs.buf[p] += c.buffer
		cs.peakB[p] = max(cs.peakB[p], cs.buf[p])
		if shortcut {
			cs.slots[p] = append(cs.slots[p], id)
		}
	}
	return id
}

// Open is the number of connections open at p (static and shortcuts,
// handshaking ones included: their sockets are polled too).
func (cs *Connections) Open(p int) int { return cs.open[p] }

// Peak is the most connections p has had open at once.
func (cs *Connections) Peak(p int) int { return cs.peak[p] }

// PeakBuffer is the most buffer memory p has held at once.
func (cs *Connections) PeakBuffer(p int) float64 { return cs.peakB[p] }

// Shortcuts lists the open shortcuts p is an end of, as partner processes,
// least recently used first.
func (cs *Connections) Shortcuts(p int) []int {
	ids := append([]int32(nil), cs.slots[p]...)
	// Insertion sort: at most C entries.
	for i := 1; i < len(ids); i++ {
		for j := i; j > 0 && cs.conns[ids[j]].use < cs.conns[ids[j-1]].use; j-- {
			ids[j], ids[j-1] = ids[j-1], ids[j]
		}
	}
	out := make([]int, len(ids))
	for i, id := range ids {
		out[i] = cs.other(id, p)
	}
	return out
}

func (cs *Connections) other(id int32, p int) int {
	if c := cs.conns[id]; int(c.a) == p {
		return int(c.b)
	}
	return int(cs.conns[id].a)
}

// Connected reports whether a and b have a connection open (ready or in
// its handshake).
func (cs *Connections) Connected(a, b int) bool { return cs.pair[a*cs.procs+b] >= 0 }

// Ready reports whether a message from a to b can go direct now: a and b
// have a connection open and a's end of it is ready.
func (cs *Connections) Ready(a, b int) bool {
	id := cs.pair[a*cs.procs+b]
	if id < 0 {
		return false
	}
	c := &cs.conns[id]
	if int(c.a) == a {
		return c.readyA
	}
	return c.readyB
}

// Touch marks the connection a–b used (a send or a receive on it), for
// LRU. It does nothing when none is open.
func (cs *Connections) Touch(a, b int) {
	if id := cs.pair[a*cs.procs+b]; id >= 0 {
		cs.use++
		cs.conns[id].use = cs.use
	}
}

// Eviction is a shortcut closed to make room: the connection From–To,
// evicted by the cache of By.
type Eviction struct{ From, To, By int }

// OpenShortcut starts a shortcut between a and b (a opens it) and returns
// its id and the shortcuts evicted to make room in either end's cache. It
// returns -1 and opens nothing when C is 0 or a and b are connected
// already. The shortcut is not ready until SetReady.
func (cs *Connections) OpenShortcut(a, b int) (int32, []Eviction) {
	if cs.cache == 0 || a == b || cs.Connected(a, b) {
		return -1, nil
	}
	var ev []Eviction
	for _, p := range [2]int{a, b} {
		if len(cs.slots[p]) < cs.cache {
			continue
		}
		lru := cs.slots[p][0]
		for _, id := range cs.slots[p][1:] {
			if cs.conns[id].use < cs.conns[lru].use {
				lru = id
			}
		}
		c := cs.conns[lru]
		ev = append(ev, Eviction{From: int(c.a), To: int(c.b), By: p})
		cs.close(lru)
	}
	return cs.add(a, b, true), ev
}

// SetReady completes shortcut id's handshake: both ends may send on it.
// It reports false when the shortcut was closed meanwhile. A driver that
// abandons the handshake of a shortcut closed meanwhile calls it too: from
// then on (or from its close, for a shortcut closed after SetReady) id may
// name a new connection.
func (cs *Connections) SetReady(id int32) bool {
	c := &cs.conns[id]
	c.pending = false
	if !c.open {
		cs.free = append(cs.free, id)
		return false
	}
	c.readyA, c.readyB = true, true
	return true
}

// SetOpenerReady lets shortcut id's opener send on it while the handshake
// goes on at the far end (its kernel has the connection established; the
// far end has yet to accept it). It reports false, and changes nothing,
// when the shortcut was closed meanwhile; the handshake still ends with
// SetReady either way.
func (cs *Connections) SetOpenerReady(id int32) bool {
	c := &cs.conns[id]
	if !c.open {
		return false
	}
	c.readyA = true
	return true
}

func (cs *Connections) close(id int32) {
	c := &cs.conns[id]
	c.open, c.readyA, c.readyB = false, false, false
	if !c.pending {
		cs.free = append(cs.free, id)
	}
	a, b := int(c.a), int(c.b)
	cs.pair[a*cs.procs+b], cs.pair[b*cs.procs+a] = -1, -1
	for _, p := range [2]int{a, b} {
		cs.open[p]--
		cs.buf[p] -= c.buffer
		s := cs.slots[p]
		for i, x := range s {
			if x == id {
				cs.slots[p] = append(s[:i], s[i+1:]...)
				break
			}
		}
	}
}

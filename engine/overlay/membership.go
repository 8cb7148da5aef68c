package overlay

import (
	"slices"

	"commlab/internal/errf"
	"commlab/internal/permsort"
)

// Membership keeps the topology policy's static connections (Section 3.1)
// up to date while processes join and leave, the dynamic membership the
// paper leaves to future work (Section 6). Processes keep their ids; a
// process that left leaves a hole.
//
// A joining process connects to every process of its leaf switch and to
// one process of every other switch (the one with the fewest connections
// from the joiner's switch, so the load stays spread); nobody else
// changes: every other process already reaches the joiner's switch
// through its connection into it. A leaving process closes its
// connections, and every process that reached its switch through it picks
// another process of that switch. Routes follow the connections: direct
// when connected, else through the sender's connection into the
// destination's switch.
type Membership struct {
	leaf []int          // process → leaf switch, -1 when gone
	conn []map[int]bool // process → its connections
}

// NewMembership starts from the static connections of processes on the
// given leaf switches (procLeaf[p] ≥ 0), as RunIS makes them.
func NewMembership(procLeaf []int) *Membership {
	m := &Membership{leaf: slices.Clone(procLeaf), conn: make([]map[int]bool, len(procLeaf))}
	for p, ns := range staticTopology(procLeaf) {
		m.conn[p] = map[int]bool{}
		for _, q := range ns {
			m.conn[p][q] = true
		}
	}
	return m
}

// Live says whether process p is a member.
func (m *Membership) Live(p int) bool { return p >= 0 && p < len(m.leaf) && m.leaf[p] >= 0 }

// Connections lists p's connections, ascending.
func (m *Membership) Connections(p int) []int {
	if !m.Live(p) {
		return nil
	}
	out := make([]int, 0, len(m.conn[p]))
	for q := range m.conn[p] {
		out = append(out, q)
	}
	permsort.Sort(out)
	return out
}

// Pair is one connection, the smaller end first.
type Pair [2]int

func pairOf(a, b int) Pair { return Pair{min(a, b), max(a, b)} }

func (m *Membership) link(a, b int) Pair {
	m.conn[a][b], m.conn[b][a] = true, true
	return pairOf(a, b)
}

// members lists the live processes of switch s, ascending.
func (m *Membership) members(s int) []int {
	var out []int
	for p, l := range m.leaf {
		if l == s {
			out = append(out, p)
		}
	}
	return out
}

// switches lists the switches with live processes, ascending.
func (m *Membership) switches() []int {
	var out []int
	for _, l := range m.leaf {
		if l >= 0 && !slices.Contains(out, l) {
			out = append(out, l)
		}
	}
	permsort.Sort(out)
	return out
}

// pick is the process of switch s that processes of switch from should
// connect to: the one with the fewest connections from switch from (ties:
// the smallest id).
func (m *Membership) pick(s, from int) int {
	best, load := -1, 0
	for _, q := range m.members(s) {
		n := 0
		for r := range m.conn[q] {
			if m.leaf[r] == from {
				n++
			}
		}
		if best < 0 || n < load {
			best, load = q, n
		}
	}
	return best
}

// Join adds process p (a new id, or one that left) on leaf switch leaf and
// returns the connections it opened.
func (m *Membership) Join(p, leaf int) ([]Pair, error) {
	if p < 0 || leaf < 0 {
		return nil, errf.Errorf("overlay: join: process %d on switch %d, want both ≥ 0", p, leaf)
	}
	if m.Live(p) {
		return nil, errf.Errorf("overlay: join: process %d is already a member", p)
	}
	for len(m.leaf) <= p {
		m.leaf = append(m.leaf, -1)
		m.conn = append(m.conn, nil)
	}
	m.conn[p] = map[int]bool{}
	var opened []Pair
	for _, s := range m.switches() {
		if s == leaf {
			for _, q := range m.members(s) {
				opened = append(opened, m.link(p, q))
			}
			continue
		}
		opened = append(opened, m.link(p, m.pick(s, leaf)))
	}
	m.leaf[p] = leaf
	return opened, nil
}

// Leave removes process p and returns the connections closed (all of p's)
// and opened (into p's switch, for the processes that reached it through
// p).
func (m *Membership) Leave(p int) (closed, opened []Pair, err error) {
	if !m.Live(p) {
		return nil, nil, errf.Errorf("overlay: leave: process %d is not a member", p)
	}
	s := m.leaf[p]
	var lost []int // processes of other switches whose way into s was p
	for q := range m.conn[p] {
		closed = append(closed, pairOf(p, q))
		delete(m.conn[q], p)
		if m.leaf[q] != s && !m.reaches(q, s, p) {
			lost = append(lost, q)
		}
	}
	permsort.SortFunc(closed, func(a, b Pair) int {
		if a[0] != b[0] {
			return a[0] - b[0]
		}
		return a[1] - b[1]
	})
	permsort.Sort(lost)
	m.leaf[p], m.conn[p] = -1, nil
	for _, q := range lost {
		if t := m.pick(s, m.leaf[q]); t >= 0 {
			opened = append(opened, m.link(q, t))
		}
	}
	return closed, opened, nil
}

// reaches says whether q has a connection into switch s other than to
// process but.
func (m *Membership) reaches(q, s, but int) bool {
	for r := range m.conn[q] {
		if r != but && m.leaf[r] == s {
			return true
		}
	}
	return false
}

// Next is the next hop of a message from src to dst: dst itself when
// connected, else src's connection into dst's switch; ok is false when
// either is not a member or no such connection exists.
func (m *Membership) Next(src, dst int) (next int, ok bool) {
	if !m.Live(src) || !m.Live(dst) || src == dst {
		return -1, false
	}
	if m.conn[src][dst] {
		return dst, true
	}
	best := -1
	for r := range m.conn[src] {
		if m.leaf[r] == m.leaf[dst] && m.conn[r][dst] && (best < 0 || r < best) {
			best = r
		}
	}
	return best, best >= 0
}

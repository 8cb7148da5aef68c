package overlay

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"

	eoverlay "commlab/engine/overlay"
	"commlab/engine/topology"
	"commlab/internal/permsort"
	"commlab/render"
	"commlab/render/font"
)

// membership is the dynamic membership the scene shows after the sort
// (the paper's subject, Section 3; eoverlay.Membership): a node cabled to
// one leaf switch joins, measuring its RTT to one node per switch
// (topology.MeasureJoin) and placed from those alone (topology.Join), and
// opens the topology policy's connections; then a node leaves, its
// processes' connections close, and every process that reached its
// switch through them connects to another process there. Times are in
// seconds on the sort's clock: the join starts when the sort ends.
type membership struct {
	start float64 // the sort's end

	// The join (joinLeaf < 0: none).
	joinLeaf  int       // the leaf switch it is cabled to
	joinProc  int       // its process: the sort's Procs
	joinNode  int       // its node: the sort's Nodes
	reps      []int     // the processes it measures: one per leaf switch
	rtt, took []float64 // each measurement's RTT and duration, µs
	probeAt   []float64 // each measurement's start
	placedAt  float64   // the measurements done: placed or refused
	placed    int       // the switch inferred (-1: refused)
	refusal   string    // why it was refused
	direct    int       // after the join, processes it reaches directly
	relayed   int       // and through a relay
	joinDone  float64   // its last connection ready

	// The leave (leaveNode < 0: none).
	leaveNode  int
	leaveProcs []int
	leaveAt    float64
	closed     int // connections closed (static, and the sort's shortcuts)
	opened     int // replacements opened
	rerouted   int // ordered pairs of remaining processes whose next hop changed

	conns []memberConn // connections the join and the leave open
	end   float64
}

// memberConn is a connection the join or the leave opens: the opener's
// connect starts at open, the handshake (connect, accept, reply: a round
// trip plus a one-way trip, HandshakeCPU at each end, as the engine's
// shortcuts) ends at ready.
type memberConn struct {
	a, b        int
	open, ready float64
}

// membershipOff is no join and no leave.
var membershipOff = membership{joinLeaf: -1, leaveNode: -1, placed: -1}

func (m *membership) on() bool { return m.joinLeaf >= 0 || m.leaveNode >= 0 }

// newMembership plays the join on the joinIdx-th leaf switch from the left
// (-1: none) and the leave of node leaveNode (-1: none) on the sort's
// cluster t under p, from time start on. rng draws the measurements'
// noise. It returns the tree the picture lays out: t with the joining
// node on the switch it is cabled to.
func newMembership(p eoverlay.Params, t *topology.Tree, joinIdx, leaveNode int, start float64, rng *rand.Rand) (*membership, *topology.Tree, []int, error) {
	m := membershipOff
	m.start, m.leaveNode = start, leaveNode
	P, N := p.Procs, p.Nodes
	procLeaf := make([]int, P)
	procNode := make([]int, P)
	for q := range P {
		procNode[q] = eoverlay.ProcNode(q, P, N)
		procLeaf[q] = t.Leaf(procNode[q])
	}
	ms := eoverlay.NewMembership(procLeaf)
	phys := t
	now := start
	lat := func(tr *topology.Tree, u, v int) float64 {
		if u == v {
			return p.Latency
		}
		return p.Latency + float64(tr.Hops(u, v)-1)*p.HopLatency
	}
	handshake := func(tr *topology.Tree, a, b int, at float64, nodeOf func(int) int) float64 {
		return at + 2*p.HandshakeCPU + 2*lat(tr, nodeOf(a), nodeOf(b))
	}
	if joinIdx >= 0 {
		leaves := t.LeafSwitches()
		m.joinLeaf, m.joinProc, m.joinNode = leaves[joinIdx], P, N
		phys = withNode(t, m.joinLeaf)
		procNode = append(procNode, N)
		nodeOf := func(q int) int { return procNode[q] }
		net := topology.DefaultNet()
		var err error
		m.rtt, m.took, err = topology.MeasureJoin(t, m.joinLeaf, net, rng)
		if err != nil {
			return nil, nil, nil, err
		}
		for _, v := range t.Representatives() {
			m.reps = append(m.reps, firstProc(procNode[:P], v))
		}
		for _, d := range m.took {
			m.probeAt = append(m.probeAt, now)
			now += d * 1e-6
		}
		m.placedAt = now
		m.joinDone = now
		// The thresholds come from the cluster's own RTT matrix, measured
		// and inferred before the sort (specs/connections.md, Section 2).
		_, nz, err := topology.InferLeavesNoise(topology.MeasureRTT(t, net, rng))
		if err == nil {
			_, m.placed, err = topology.Join(t, fmt.Sprintf("n%d", N), m.rtt, nz.Neighbour, nz.Threshold)
		}
		if err != nil {
			m.placed, m.refusal = -1, err.Error()
		} else {
			opened, err := ms.Join(m.joinProc, m.placed)
			if err != nil {
				return nil, nil, nil, err
			}
			at := now
			for _, pr := range opened {
				// The joiner connects, one connect after another.
				c := memberConn{a: pr[0], b: pr[1], open: at, ready: handshake(phys, pr[0], pr[1], at, nodeOf)}
				m.conns = append(m.conns, c)
				at += p.HandshakeCPU
				m.joinDone = max(m.joinDone, c.ready)
			}
			for q := range P {
				if h, ok := ms.Next(m.joinProc, q); ok && h == q {
					m.direct++
				} else if ok {
					m.relayed++
				}
			}
		}
		now = m.joinDone
	}
	m.end = now
	if leaveNode >= 0 {
		m.leaveAt = now
		nodeOf := func(q int) int { return procNode[q] }
		for q := range P {
			if procNode[q] == leaveNode {
				m.leaveProcs = append(m.leaveProcs, q)
			}
		}
		live := func(q int) bool { return ms.Live(q) && !slices.Contains(m.leaveProcs, q) }
		before := nextHops(ms, len(procNode), live)
		opener := map[int]float64{} // a replacement's opener → when its CPU is free
		for _, q := range m.leaveProcs {
			_, opened, err := ms.Leave(q)
			if err != nil {
				return nil, nil, nil, err
			}
			for _, pr := range opened {
				// The opener is the end on another switch: it lost its way
				// into the leaver's switch.
				a, b := pr[0], pr[1]
				if procLeaf[a] == procLeaf[q] {
					a, b = b, a
				}
				at := max(now, opener[a])
				opener[a] = at + p.HandshakeCPU
				c := memberConn{a: min(a, b), b: max(a, b), open: at, ready: handshake(phys, a, b, at, nodeOf)}
				m.conns = append(m.conns, c)
				m.opened++
				m.end = max(m.end, c.ready)
			}
		}
		after := nextHops(ms, len(procNode), live)
		for i := range before {
			if before[i] != after[i] {
				m.rerouted++
			}
		}
	}
	return &m, phys, procNode, nil
}

// nextHops is every ordered pair's next hop among the processes live says
// are members (-1 for the rest).
func nextHops(ms *eoverlay.Membership, n int, live func(int) bool) []int {
	out := make([]int, n*n)
	for a := range n {
		for b := range n {
			out[a*n+b] = -1
			if a != b && live(a) && live(b) {
				if h, ok := ms.Next(a, b); ok {
					out[a*n+b] = h
				}
			}
		}
	}
	return out
}

// firstProc is the first process on node v.
func firstProc(procNode []int, v int) int {
	for q, n := range procNode {
		if n == v {
			return q
		}
	}
	return -1
}

// withNode is t with one more node (id len(t.Nodes)) on switch leaf.
func withNode(t *topology.Tree, leaf int) *topology.Tree {
	nt := &topology.Tree{Nodes: append(slices.Clone(t.Nodes), fmt.Sprintf("n%d", len(t.Nodes))), Switches: make([]topology.Switch, len(t.Switches))}
	for i, s := range t.Switches {
		nt.Switches[i] = topology.Switch{ID: s.ID, Parent: s.Parent, Nodes: slices.Clone(s.Nodes)}
	}
	nt.Switches[leaf].Nodes = append(nt.Switches[leaf].Nodes, len(t.Nodes))
	return nt
}

// applyMembership adds the membership's changes to the history: the
// joiner's and the replacements' connections, and the leaving processes'
// connections closed at the leave (drawn fading out as evicted ones are,
// but not counted as evictions).
func (h *history) applyMembership(m *membership, fade float64) {
	if !m.on() {
		return
	}
	type change struct {
		t     float64
		p     int
		dOpen int
		dShrt int
	}
	var ch []change
	if m.leaveNode >= 0 {
		for i := range h.links {
			ln := &h.links[i]
			if ln.close > m.leaveAt && (slices.Contains(m.leaveProcs, ln.a) || slices.Contains(m.leaveProcs, ln.b)) {
				ln.close, ln.by, ln.left = m.leaveAt, -1, true
				m.closed++
				s := b2i(ln.shortcut)
				ch = append(ch, change{m.leaveAt, ln.a, -1, -s}, change{m.leaveAt, ln.b, -1, -s})
			}
		}
	}
	for _, c := range m.conns {
		cl := math.Inf(1)
		if m.leaveNode >= 0 && c.open < m.leaveAt && (slices.Contains(m.leaveProcs, c.a) || slices.Contains(m.leaveProcs, c.b)) {
			cl = m.leaveAt
			m.closed++
			ch = append(ch, change{m.leaveAt, c.a, -1, 0}, change{m.leaveAt, c.b, -1, 0})
		}
		h.links = append(h.links, link{a: c.a, b: c.b, member: true, open: c.open, ready: c.ready, close: cl, by: -1, left: !math.IsInf(cl, 1)})
		ch = append(ch, change{c.open, c.a, 1, 0}, change{c.open, c.b, 1, 0})
	}
	permsort.SortStableFunc(ch, func(x, y change) int {
		switch {
		case x.t < y.t:
			return -1
		case x.t > y.t:
			return 1
		}
		return 0
	})
	for _, c := range ch {
		s := h.steps[c.p]
		var cur openStep
		if n := len(s); n > 0 {
			cur = s[n-1]
		}
		cur.t, cur.open, cur.short = c.t, cur.open+c.dOpen, cur.short+c.dShrt
		cur.peak = max(cur.peak, cur.open)
		h.maxOpen = max(h.maxOpen, cur.open)
		if n := len(s); n > 0 && s[n-1].t == c.t {
			s[n-1] = cur
		} else {
			h.steps[c.p] = append(s, cur)
		}
	}
	h.keySteps = append(h.keySteps, m.start, m.placedAt, m.leaveAt, m.end)
	h.keySteps = append(h.keySteps, m.probeAt...)
	for _, c := range m.conns {
		h.keySteps = append(h.keySteps, c.open, c.ready)
	}
	if m.leaveNode >= 0 {
		h.keySteps = append(h.keySteps, m.leaveAt+fade)
	}
	permsort.Sort(h.keySteps)
	h.keySteps = slices.Compact(h.keySteps)
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// What a node is at the playhead, for the picture.
const (
	nodePresent   = iota
	nodeAbsent    // the joiner before its measurements, or refused
	nodeMeasuring // the joiner measuring its RTTs
	nodeGone      // the leaver after its leave
)

func (p *painter) nodeState(n int) int {
	mb, t := p.r.mb, p.Now
	switch {
	case mb.joinLeaf >= 0 && n == mb.joinNode:
		switch {
		case t < mb.start:
			return nodeAbsent
		case t < mb.placedAt:
			return nodeMeasuring
		case mb.placed < 0:
			return nodeAbsent
		}
	case mb.leaveNode >= 0 && n == mb.leaveNode && t >= mb.leaveAt:
		return nodeGone
	}
	return nodePresent
}

// probeStyle is an RTT measurement's arc: dotted, in the joining colour.
func (p *painter) probeStyle() render.Style {
	return render.Style{Stroke: p.Th.Receive, Width: max(1, 1.2*p.S), Dash: []float64{1.5 * p.S, 2.5 * p.S}}
}

// probes draws the joiner's RTT measurements: the one under way as an arc
// to its representative with a ping going back and forth, the finished
// ones dotted with their RTT, until the joiner's connections are ready.
func (p *painter) probes() {
	mb, t, s := p.r.mb, p.Now, p.S
	if mb.joinLeaf < 0 || t < mb.start || t >= mb.joinDone && mb.placed >= 0 || t >= mb.placedAt && mb.placed < 0 && t >= mb.placedAt+evictFade*p.r.res.Time {
		return
	}
	fs := p.FSSmall
	for i, at := range mb.probeAt {
		if t < at {
			break
		}
		a, b := mb.joinProc, mb.reps[i]
		end := at + mb.took[i]*1e-6
		p.arc(a, b, 0, 1, p.probeStyle())
		if t < end {
			// The pings: one round trip per ping, out and back.
			pings := float64(topology.DefaultNet().Pings)
			ph := math.Mod((t-at)/(end-at)*pings, 1) * 2
			f := min(ph, 2-ph)
			x, y := p.g.arcPoint(a, b, f)
			p.L.Add(render.Circle{Center: render.Point{X: x, Y: y}, R: max(2, min(p.dotR*0.8, 3.5*s)), Style: render.Style{Fill: p.Th.Receive, Stroke: p.Th.Panel, Width: max(1, 0.8*s)}})
			continue
		}
		// The RTT under the arc's lowest point, on a plate: arcs cross it.
		x, y := p.g.arcPoint(a, b, 0.5)
		lbl := fmt.Sprintf("%.0f µs", mb.rtt[i])
		w := font.Width(lbl, fs, false)
		by := y + font.Ascent(fs) + 3*s
		p.Rect(box{X0: x - w/2 - 2*s, Y0: by - font.Ascent(fs) - s, X1: x + w/2 + 2*s, Y1: by + font.Descent(fs) + s}, render.Style{Fill: p.Th.Panel})
		p.Text(x, by, lbl, fs, render.AlignCenter, false, p.Th.Receive)
	}
}

// memberRows are the panel's lines on the join and the leave (none when
// neither is asked for): what is planned, under way, or done.
func (p *painter) memberRows() [][]string {
	mb, t := p.r.mb, p.Now
	var rows [][]string
	if mb.joinLeaf >= 0 {
		S, N := len(mb.reps), p.r.p.Nodes
		switch {
		case t < mb.start:
			rows = append(rows, []string{fmt.Sprintf("join after the sort: node on switch %d", mb.joinLeaf), "join after the sort", "join next"})
		case t < mb.placedAt:
			k := 0
			for k < len(mb.probeAt) && mb.probeAt[k] <= t {
				k++
			}
			rows = append(rows, []string{fmt.Sprintf("join: RTT %d of %d (not %d)", k, S, N), fmt.Sprintf("join: RTT %d of %d", k, S)})
		case mb.placed < 0:
			rows = append(rows, []string{fmt.Sprintf("join refused after %d RTTs", S), "join refused"})
		default:
			rows = append(rows, []string{fmt.Sprintf("joined switch %d from %d RTTs (not %d)", mb.placed, S, N), fmt.Sprintf("joined s%d, %d RTTs", mb.placed, S), "joined"},
				[]string{fmt.Sprintf("P%d routes: %d direct, %d relayed", mb.joinProc, mb.direct, mb.relayed), fmt.Sprintf("%d direct, %d relayed", mb.direct, mb.relayed)})
		}
	}
	if mb.leaveNode >= 0 {
		if t < mb.leaveAt {
			rows = append(rows, []string{fmt.Sprintf("node %d leaves after the sort", mb.leaveNode), fmt.Sprintf("node %d leaves next", mb.leaveNode), "leave next"})
		} else {
			rows = append(rows, []string{fmt.Sprintf("node %d left: %d closed, %d opened", mb.leaveNode, mb.closed, mb.opened), fmt.Sprintf("left: %d closed, %d opened", mb.closed, mb.opened), "left"},
				[]string{fmt.Sprintf("routes changed: %d", mb.rerouted), fmt.Sprintf("rerouted: %d", mb.rerouted)})
		}
	}
	return rows
}

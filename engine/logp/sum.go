package logp

import (
	"cmp"
	"slices"

	"commlab/internal/errf"
)

// Schedule is the optimal LogP summation schedule for n numbers on P
// processors, planned with latency Ls (Karp, Sahay, Santos, Schauser 1993),
// as a Program whose operations carry their planned start times as
// NotBefore: replayed under other latencies it is a fixed timetable.
//
// Work is divisible: a processor that computes for time t adds t + 1
// numbers (t additions), and t need not be an integer. This is the
// continuous relaxation the slides' T_s = (n + 3o + L_s)/2 is written in
// (it has half units whenever n + 3o + L_s is odd); with whole numbers per
// processor T_s would be a step function of L_s and E[T](L_s) would have
// no well-defined optimum.
type Schedule struct {
	Params Params
	Ls     float64
	// Prog is the schedule as executor operations; on each processor they
	// are chained by dependencies in program order.
	Prog *Program
	// Parent[q] is the processor q sends its partial sum to, -1 for the
	// root (processor 0) and for processors the plan leaves idle.
	Parent []int
	// Slot[q] is q's reception slot at its parent: 1 is the last message
	// the parent receives, 2 the one before (a gap h earlier), …
	Slot []int
	// Deadline[q] is when q's partial sum is complete (root: T_s).
	Deadline []float64
	// Numbers[q] is how many of the n numbers q adds locally (real, see
	// above); they sum to n.
	Numbers []float64
	// Used is the number of processors that take part (≤ P): one more
	// processor only pays when its deadline exceeds o.
	Used int
	// Depth[q] is q's distance from the root in the tree.
	Depth   []int
	planned float64
	recvOf  []int32 // per processor: its receive ops, program order
}

// Planned is the fluctuation-free completion time T_s(L_s): the schedule
// run with every latency equal to L_s.
func (s *Schedule) Planned() float64 { return s.planned }

// machine is the LogP machine the plan assumes.
func (s *Schedule) machine() Machine {
	return Machine{L: s.Ls, O: s.Params.O, Gap: s.Params.G}
}

// node of the universal summation tree: its deadline is T - off.
type node struct {
	off    float64
	parent int
	slot   int
	depth  int
}

// Plan builds the optimal summation schedule for p.N numbers on p.P
// processors under latency ls.
//
// In time T the root ends with an addition; before it, its k-th last
// reception starts at T - (o+1) - (k-1)·h with h = max(g, o+1) (receptions
// are g apart and each is followed by its addition). The child in that
// slot must finish its partial sum by T - (L+2o+1) - (k-1)·h, and so on
// recursively: every processor's deadline is T minus an offset fixed by
// L, o and g alone. A processor with deadline d adds d + 1 numbers of
// its own minus o + 1 per child, so one more child with deadline d gains
// d - o numbers; the plan takes the P - 1 smallest offsets of this
// universal tree (a closed set: parents and earlier slots have smaller
// offsets) and the T at which the numbers summed reach n:
//
//	n = T + 1 + Σ_used (T - off_i - o).
func Plan(p Params, ls float64) (*Schedule, error) {
	if err := p.Validate(); err != nil {
		return nil, err
	}
	if err := ValidateLs(ls); err != nil {
		return nil, err
	}
	o := p.O
	a := ls + 2*o + 1
	h := max(p.G, o+1)
	nodes := universalTree(p.P, a, h)
	// Find m, the number of children used: T_m solves the equation with
	// the m smallest offsets; the next node joins while it gains.
	n := float64(p.N)
	sum := 0.0
	m := 0
	T := n - 1
	for m+1 < len(nodes) {
		next := nodes[m+1]
		if !(T > next.off+o) {
			break
		}
		sum += next.off + o
		m++
		T = (n - 1 + sum) / float64(m+1)
	}
	s := &Schedule{
		Params: p, Ls: ls, Used: m + 1,
		Parent:   make([]int, p.P),
		Slot:     make([]int, p.P),
		Deadline: make([]float64, p.P),
		Numbers:  make([]float64, p.P),
		Depth:    make([]int, p.P),
		recvOf:   make([]int32, 0, m),
	}
	children := make([][]int, p.P) // by slot, 1 first
	for q := range p.P {
		s.Parent[q] = -1
		if q <= m {
			nd := nodes[q]
			s.Parent[q], s.Slot[q], s.Depth[q] = nd.parent, nd.slot, nd.depth
			s.Deadline[q] = T - nd.off
			if nd.parent >= 0 {
				children[nd.parent] = append(children[nd.parent], q)
			}
		}
	}
	// Emit the program deepest deadline first so every send precedes the
	// receive of its message (children have larger offsets than parents).
	order := make([]int, m+1)
	for i := range order {
		order[i] = m - i
	}
	b := NewBuilder(p.P)
	sendOf := make([]int32, p.P)
	for _, q := range order {
		d := s.Deadline[q]
		ch := children[q]
		slices.SortFunc(ch, func(x, y int) int { return cmp.Compare(s.Slot[y], s.Slot[x]) }) // earliest reception first
		last := int32(-1)
		chain := func(id int32) { last = id }
		deps := func() []int32 {
			if last < 0 {
				return nil
			}
			return []int32{last}
		}
		local := 0.0
		t := 0.0
		for _, c := range ch {
			r := d - (o + 1) - float64(s.Slot[c]-1)*h
			if w := r - t; w > 0 {
				chain(b.Compute(q, w, s.Depth[q], deps()...))
				local += w
			}
			chain(b.Recv(q, sendOf[c], s.Depth[c], append(deps(), sendOf[c])...))
			chain(b.Compute(q, 1, s.Depth[c], deps()...))
			t = r + o + 1
		}
		if w := d - t; w > 0 {
			chain(b.Compute(q, w, s.Depth[q], deps()...))
			local += w
		}
		s.Numbers[q] = local + 1
		if pq := s.Parent[q]; pq >= 0 {
			sendOf[q] = b.Send(q, pq, 1, s.Depth[q], deps()...)
		}
	}
	prog, err := b.Program()
	if err != nil {
		return nil, errf.Errorf("logp: plan P=%d n=%d Ls=%g: %w", p.P, p.N, ls, err)
	}
	s.Prog = prog
	// The timetable is the nominal run itself, so a replay whose latencies
	// all equal L_s reproduces Planned bit for bit.
	var e Executor
	s.planned = e.Run(prog, s.machine(), Noise{})
	for i := range prog.Ops {
		prog.Ops[i].NotBefore = e.Start(i)
	}
	for i, op := range prog.Ops {
		if op.Kind == Recv && op.Proc == 0 {
			s.recvOf = append(s.recvOf, int32(i))
		}
	}
	return s, nil
}

// universalTree lists the P nodes with the smallest offsets of the
// universal summation tree (root first, by offset, ties in discovery
// order): the k-th slot's child of a node at offset c sits at
// c + a + (k-1)·h.
func universalTree(P int, a, h float64) []node {
	nodes := []node{{off: 0, parent: -1}}
	// Frontier: for every chosen node, its next unfilled slot. The next
	// node is the frontier entry of smallest offset; P ≤ 1024 keeps a
	// linear scan cheap and its tie order (lowest node index) explicit.
	type slot struct {
		parent, k int
		off       float64
	}
	frontier := []slot{{parent: 0, k: 1, off: a}}
	for len(nodes) < P {
		bi := 0
		for i, f := range frontier {
			if f.off < frontier[bi].off {
				bi = i
			}
		}
		f := frontier[bi]
		q := len(nodes)
		nodes = append(nodes, node{off: f.off, parent: f.parent, slot: f.k, depth: nodes[f.parent].depth + 1})
		frontier[bi] = slot{parent: f.parent, k: f.k + 1, off: f.off + h}
		frontier = append(frontier, slot{parent: q, k: 1, off: f.off + a})
	}
	return nodes
}

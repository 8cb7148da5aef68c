package goal

import (
	"slices"
	"sync"

	"commlab/internal/prefetch"
)

// gatherAhead is how many operations ahead layoutBlock prefetches.
const gatherAhead = 8

// A Schedule keeps its operations in places, not in file order. The ranks
// are cut into blocks (layoutRanks ranks, fewer when their operations
// pass layoutOps), and inside a block the operations lie by level, then
// rank, then file order: level 0 of every rank of the block, then level
// 1, and so on. An operation's level is the longest chain of
// dependencies before it; an operation that waits for nothing (a
// butterfly's recvs, all posted at time 0) takes the level of its first
// dependent, beside which it is used.
//
// Why: a collective's stage runs every rank's operations of one level,
// rank after rank. In file order a rank's operations of one stage are a
// rank's whole block of operations away from the next rank's (816 bytes
// in a butterfly of 2^17 ranks), so beyond the caches each stage missed
// a line per rank three times over (sends, messages, reductions); by
// level they follow one another, and the CPU streams them in. A
// butterfly of 2^17 ranks runs 1.4-1.6x as fast (BenchmarkRun; README,
// Numbers).
//
// Only the executor and the package's own accessors see places; every
// exported index (Op, Label, Dependents, RankOps, Timeline.Ops,
// CritStep.Op, MsgRecord.Send and Recv) is the file-order index. A block
// is laid out when its last rank is closed, while its operations are
// still in the cache, within the schedule's own arrays, with scratch the
// size of one block; a rank of layoutOps operations or more is a block
// of its own and stays in file order.
//
// The browser's build (layout_js.go) lays out nothing: it runs schedules
// of at most 2 M operations, where the layout gains little, and its code
// would cost the page 8 kB of gzip (with the prefetch stages, which do
// nothing there: prefetch.Works).
//
// A schedule known to be small (the Builder's opsHint, from the reader's
// SizeHint, under layoutMinOps: the size from which the executor
// prefetches too) stays in file order and keeps no pos: in the caches
// the layout gains nothing, and it adds some 40 % to the reader's time. (Variables so that the tests can cut small schedules into many
// blocks, or lay out none.)
var (
	layoutRanks  = 4096
	layoutOps    = 1 << 18
	layoutMinOps = 1 << 19
)

// place is where operation i (file order) lies.
func (s *Schedule) place(i int) uint32 {
	if s.pos == nil {
		return uint32(i)
	}
	return s.pos[i]
}

// index is the file-order index of the operation in place u: the inverse
// of pos, built on first use (recording runs, Dependents, Write, naming
// an operation in an error) and kept; a run without records never needs
// it, which saves 4 bytes an operation on the largest schedules.
func (s *Schedule) index(u uint32) int {
	if s.pos == nil {
		return int(u)
	}
	return int(s.inv.get(s)[u])
}

// invIndex is the lazily built inverse of Schedule.pos (the identity
// where there is no pos: the executor's records index it either way),
// shared by copies of the Schedule value (the Builder hands out a copy).
type invIndex struct {
	once sync.Once
	inv  []uint32
}

func (x *invIndex) get(s *Schedule) []uint32 {
	x.once.Do(func() {
		x.inv = make([]uint32, s.NumOps())
		for i := range x.inv {
			x.inv[s.place(i)] = uint32(i)
		}
	})
	return x.inv
}

// levels appends the levels of the current rank's n operations (from
// first on, file order; its dependents already laid out in succ) to
// b.lvl. The file order of Schedgen's and Writer's files is a
// topological order; otherwise the levels follow Kahn's order.
func (b *Builder) levels(first, n uint32) {
	base := len(b.lvl)
	b.lvl = slices.Grow(b.lvl, int(n))[:base+int(n)]
	lvl := b.lvl[base:]
	clear(lvl)
	if len(b.edges) == 0 {
		return
	}
	indeg, forward := b.indegrees(n)
	deps := func(i uint32) []uint32 { return b.rankDeps(first, n, i) }
	visit := func(i uint32) {
		for _, d := range deps(i) {
			j := d&^startDep - first
			lvl[j] = max(lvl[j], lvl[i]+1)
		}
	}
	if forward {
		for i := range n {
			visit(i)
		}
	} else {
		// Kahn's algorithm on a copy of the counts (the rank has no
		// cycle: checkCycle passed)
		left := append(b.stack[:0], indeg[:n]...)
		queue := make([]uint32, 0, n)
		for i := range n {
			if left[i] == 0 {
				queue = append(queue, i)
			}
		}
		for k := 0; k < len(queue); k++ {
			i := queue[k]
			visit(i)
			for _, d := range deps(i) {
				j := d&^startDep - first
				if left[j]--; left[j] == 0 {
					queue = append(queue, j)
				}
			}
		}
		b.stack = left[:0]
	}
	// an operation that waits for nothing lies beside its first dependent
	for i := range n {
		if indeg[i] != 0 {
			continue
		}
		m := ^uint32(0)
		for _, d := range deps(i) {
			m = min(m, lvl[d&^startDep-first])
		}
		if m != ^uint32(0) {
			lvl[i] = m
		}
	}
}

// layoutBlock lays out the operations of the ranks closed since the last
// block, [b.blockOp, hi), by level (see Schedule.place), within the
// schedule's arrays; their dependents move with them and are renamed to
// places. A block of one rank stays in file order: its operations are
// one rank's, together already.
func (b *Builder) layoutBlock(hi int) {
	s := &b.s
	lo := int(b.blockOp)
	s.pos = room(s.pos, hi-lo)
	defer func() {
		b.blockOp, b.blockRanks, b.lvl = uint32(hi), 0, b.lvl[:0]
	}()
	if b.blockRanks <= 1 || hi-lo < 2 {
		for i := lo; i < hi; i++ {
			s.pos = append(s.pos, uint32(i))
		}
		return
	}
	// counting sort by level, stable: within a level, rank then file order
	lvl := b.lvl
	top := uint32(0)
	for _, l := range lvl {
		top = max(top, l)
	}
	cnt := grow(b.cnt, int(top)+2)
	for _, l := range lvl {
		cnt[l+1]++
	}
	for l := range top + 1 {
		cnt[l+1] += cnt[l]
	}
	n := hi - lo
	b.perm = slices.Grow(b.perm[:0], n)[:n] // block-local: perm[place-lo] = file index - lo, every place written
	for k, l := range lvl {
		u := cnt[l]
		cnt[l]++
		s.pos = append(s.pos, uint32(lo)+u)
		b.perm[u] = uint32(k)
	}
	b.cnt = cnt
	slo, shi := s.ops[lo].off&offMask, uint32(len(s.succ))
	if hi < len(s.ops) {
		shi = s.ops[hi].off & offMask
	}
	b.tmpOps = append(b.tmpOps[:0], s.ops[lo:hi]...)
	pos := s.pos[lo:hi]
	// the dependents renamed to places in file order, where an
	// operation's and its dependents' places are near in pos
	b.tmpSucc = b.tmpSucc[:0]
	for _, d := range s.succ[slo:shi] {
		b.tmpSucc = append(b.tmpSucc, d&startDep|pos[d&^startDep-uint32(lo)])
	}
	at := slo
	perm := b.perm[:n]
	for u, k := range perm {
		// the operations are gathered a rank's length apart: ask for
		// the line a few places ahead (waiting for these lines was a
		// tenth of reading a butterfly of 2^14 ranks)
		if u+gatherAhead < n {
			prefetch.Line(&b.tmpOps[perm[u+gatherAhead]])
		}
		o := b.tmpOps[k]
		from := o.off&offMask - slo
		end := shi - slo
		if int(k)+1 < n {
			end = b.tmpOps[k+1].off&offMask - slo
		}
		o.off = o.off&^offMask | at
		s.ops[lo+u] = o
		at += uint32(copy(s.succ[at:], b.tmpSucc[from:end]))
	}
	if s.cpuNIC != nil {
		b.tmpCN = append(b.tmpCN[:0], s.cpuNIC[lo:hi]...)
		for u, k := range b.perm[:n] {
			s.cpuNIC[lo+u] = b.tmpCN[k]
		}
	}
	if len(s.big) > 0 {
		moved := map[uint32]uint64{}
		for i, v := range s.big {
			if int(i) >= lo && int(i) < hi {
				delete(s.big, i)
				moved[pos[int(i)-lo]] = v
			}
		}
		for u, v := range moved {
			s.big[u] = v
		}
	}
}

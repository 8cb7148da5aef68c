package goal

import (
	"fmt"
	"math"
	"strings"

	"commlab/internal/errf"
	"commlab/internal/prefetch"
)

// Kind is what an operation does. The values are LogGOPSim's OP_SEND,
// OP_RECV and OP_LOCOP: operations freed at the same instant enter the
// queue sorted by them (sends first).
type Kind uint8

const (
	Send Kind = 1
	Recv Kind = 2
	Calc Kind = 3
)

func (k Kind) String() string {
	switch k {
	case Send:
		return "send"
	case Recv:
		return "recv"
	case Calc:
		return "calc"
	}
	return fmt.Sprintf("Kind(%d)", k)
}

// Any is the wildcard peer (a recv from any source) and tag, written -1
// in GOAL.
const Any = math.MaxUint32

// MaxRanks bounds num_ranks; MaxOps bounds the operations of a schedule
// (op indices and queue stamps are 32-bit; the dependency offsets carry
// the kind in their top two bits).
const (
	MaxRanks = 1 << 30
	MaxOps   = 1<<30 - 1
	maxEdges = 1<<30 - 1
)

// Op is an operation as a Schedule stores it: 16 bytes, so that 2^20
// ranks of a butterfly allreduce (63 M operations) fit in about 1 GB.
type op struct {
	// off is the start of the op's dependents in Schedule.succ; its top
	// two bits are the Kind.
	off  uint32
	size uint32 // bytes or calc ns; bigSize: see Schedule.big
	peer uint32 // send: destination; recv: source or Any; calc: 0
	tag  uint32
}

const (
	offMask  = 1<<30 - 1
	bigSize  = math.MaxUint32
	startDep = 1 << 31 // in succ: an irequires edge
)

// Op describes one operation of a Schedule.
type Op struct {
	Rank int
	Kind Kind
	// Peer is the destination of a send, the source of a recv (Any for
	// any source); 0 for calc.
	Peer uint32
	// Size is the message size in bytes, or a calc's duration in ns.
	Size uint64
	Tag  uint32 // Any for any tag
	CPU  uint8
	NIC  uint8
}

// Schedule is a parsed GOAL schedule: NumRanks ranks, each with its
// operations (indexed globally, rank by rank, in the order the file
// defines them) and their dependencies. It is immutable; Run may execute
// it any number of times, concurrently.
type Schedule struct {
	numRanks  int
	rankStart []uint32 // ops of rank r: [rankStart[r], rankStart[r+1])
	ops       []op     // plus a sentinel whose off ends the last op's dependents
	succ      []uint32 // dependents; startDep marks irequires
	starts    int      // irequires edges
	big       map[uint32]uint64
	cpuNIC    []uint16 // cpu | nic<<8 per op; nil when all are 0
	maxCPU    uint8
	maxNIC    uint8
	labels    []string // per op, when kept
	roots     int      // ops without dependencies
	sends     int
	// what bounds the run's times (exec.overflowCheck): the sends of 0
	// bytes, the bytes past the first of the others, the calcs' ns
	zeroSends           int
	sendBytes, calcTime float64
	// wildcards: sends with tag Any, recvs from any source, with any tag
	// (the match indexes keep the lists they need: match.go)
	anyTagSends, anyPeerRecvs, anyTagRecvs int
	// recvs without dependencies (posted before any message arrives), ops
	// with pendBig dependencies or more (exec.big)
	rootRecvs, bigPend int
	stats              *statsOnce
	// recvStart[r] counts the recvs of the ranks before r: the executor
	// gives each rank as many places for posted recvs
	recvStart []uint32
	// pos[i] is the place of operation i (file order): see places.go
	pos []uint32
	inv *invIndex
}

// NumRanks is the schedule's num_ranks.
func (s *Schedule) NumRanks() int { return s.numRanks }

// NumOps is the number of operations.
func (s *Schedule) NumOps() int { return len(s.ops) - 1 }

// NumDeps is the number of requires and irequires edges.
func (s *Schedule) NumDeps() int { return len(s.succ) }

// Bytes is the memory the schedule holds: its arrays (at their
// capacity), labels, and the file-order index once built. A command's
// budget holds it beside EstimateSchedule's run.
func (s *Schedule) Bytes() float64 {
	const fixed = 64 << 10 // the Schedule, its index and stats holders, rounding
	n := fixed + 16*cap(s.ops) + 4*cap(s.succ) + 2*cap(s.cpuNIC) + 4*(cap(s.pos)+cap(s.rankStart)+cap(s.recvStart)) + bigBytes*len(s.big)
	for _, l := range s.labels {
		// its header, and its text: a block of 16 bytes at least
		n += 16 + max(16, (len(l)+7)&^7)
	}
	if s.inv != nil && s.inv.inv != nil {
		n += 4 * cap(s.inv.inv)
	}
	return float64(n)
}

// NumSends is the number of sends, which is the number of messages.
func (s *Schedule) NumSends() int { return s.sends }

// CPUs and NICs are the CPU and NIC counts per rank (highest index + 1).
func (s *Schedule) CPUs() int { return int(s.maxCPU) + 1 }

// NICs is the number of NICs per rank (highest index + 1).
func (s *Schedule) NICs() int { return int(s.maxNIC) + 1 }

// RankOps returns the range [first, end) of rank r's operation indices.
func (s *Schedule) RankOps(r int) (first, end int) {
	return int(s.rankStart[r]), int(s.rankStart[r+1])
}

// RankOf returns the rank of operation i.
func (s *Schedule) RankOf(i int) int {
	lo, hi := 0, s.numRanks
	for hi-lo > 1 {
		m := (lo + hi) / 2
		if int(s.rankStart[m]) <= i {
			lo = m
		} else {
			hi = m
		}
	}
	return lo
}

// kind, size, cpu, nic and deps read the operation in place u (places.go);
// deps are places too.
func (s *Schedule) kind(u uint32) Kind { return Kind(s.ops[u].off >> 30) }

func (s *Schedule) size(i uint32) uint64 {
	if v := s.ops[i].size; v != bigSize {
		return uint64(v)
	}
	return s.big[i]
}

func (s *Schedule) cpu(i uint32) uint8 {
	if s.cpuNIC == nil {
		return 0
	}
	return uint8(s.cpuNIC[i])
}

func (s *Schedule) nic(i uint32) uint8 {
	if s.cpuNIC == nil {
		return 0
	}
	return uint8(s.cpuNIC[i] >> 8)
}

func (s *Schedule) deps(i uint32) []uint32 {
	return s.succ[s.ops[i].off&offMask : s.ops[i+1].off&offMask]
}

// Op returns operation i.
func (s *Schedule) Op(i int) Op {
	u := s.place(i)
	return Op{Rank: s.RankOf(i), Kind: s.kind(u), Peer: s.ops[u].peer, Size: s.size(u),
		Tag: s.ops[u].tag, CPU: s.cpu(u), NIC: s.nic(u)}
}

// Label returns operation i's label in the file it was read from, or ""
// when labels were not kept.
func (s *Schedule) Label(i int) string {
	if s.labels == nil {
		return ""
	}
	return s.labels[i]
}

// Dependents calls f for every operation that requires (start = false) or
// irequires (start = true) operation i, in the order the file states them.
func (s *Schedule) Dependents(i int, f func(j int, start bool)) {
	for _, d := range s.deps(s.place(i)) {
		f(s.index(d&^startDep), d&startDep != 0)
	}
}

// Builder assembles a Schedule rank by rank: StartRank(0), its operations
// and dependencies, EndRank, StartRank(1), and so on. The reader and the
// exporters' tests use it; errors stick and Schedule returns the first.
type Builder struct {
	s     Schedule
	rank  int // current rank, -1 between ranks
	next  int // next rank expected
	edges []edge
	keep  bool
	recvs uint32 // recvs so far
	err   error
	// nameOf names local ops in cycle errors (the reader's labels).
	nameOf func(locals []uint32) []string
	// scratch reused rank after rank
	cnt, indeg, stack []uint32
	labelBytes        int // the labels' text kept
	// whether operations are laid out by level (places.go); the block
	// of ranks not laid out yet: its first operation, its ranks, their
	// operations' levels
	layout     bool
	blockOp    uint32
	blockRanks int
	lvl, perm  []uint32
	tmpOps     []op
	tmpSucc    []uint32
	tmpCN      []uint16
}

type edge struct {
	from, to uint32 // local indices in the rank
	start    bool
}

// NewBuilder starts a schedule of numRanks ranks. labels keeps a label
// per operation (for display); opsHint, if > 0, sizes the storage for
// that many operations up front (the reader passes the file size / 24),
// which avoids copying gigabytes while a huge schedule grows.
func NewBuilder(numRanks int, labels bool, opsHint int) *Builder {
	b := &Builder{rank: -1, keep: labels}
	if numRanks < 1 || numRanks > MaxRanks {
		b.err = errf.Errorf("num_ranks %d out of range: want an integer in [1, %d]", numRanks, MaxRanks)
		return b
	}
	b.s.numRanks = numRanks
	b.s.rankStart = make([]uint32, 1, min(numRanks+1, 1<<16)) // grows with the blocks actually read
	b.s.recvStart = make([]uint32, 1, min(numRanks+1, 1<<16))
	if opsHint > 0 {
		opsHint = min(opsHint, MaxOps)
		b.s.ops = make([]op, 0, opsHint+1)
		b.s.succ = make([]uint32, 0, opsHint)
		// fresh and untouched: faulted in 2 MB at a time as they fill
		prefetch.Huge(b.s.ops)
		prefetch.Huge(b.s.succ)
		if layoutBuild && opsHint >= layoutMinOps {
			b.s.pos = make([]uint32, 0, opsHint)
			prefetch.Huge(b.s.pos)
		}
	}
	b.layout = layoutBuild && (opsHint == 0 || opsHint >= layoutMinOps)
	return b
}

// footprint is the memory the schedule and the Builder's scratch hold,
// in bytes (the arrays' capacities: what a reader's memory limit counts).
func (b *Builder) footprint() float64 {
	s := &b.s
	n := 16*cap(s.ops) + 4*cap(s.succ) + 2*cap(s.cpuNIC) + 16*cap(s.labels) + b.labelBytes + 4*cap(s.pos) +
		4*(cap(s.rankStart)+cap(s.recvStart)) + 12*cap(b.edges) +
		4*(cap(b.cnt)+cap(b.indeg)+cap(b.stack)+cap(b.lvl)+cap(b.perm)+cap(b.tmpSucc)) + 16*cap(b.tmpOps) + 2*cap(b.tmpCN) +
		bigBytes*len(s.big)
	return float64(n)
}

// bigBytes is what an entry of a map of sizes or counts costs.
const bigBytes = 48

// Err returns the first error so far.
func (b *Builder) Err() error { return b.err }

// StartRank begins rank r's block; ranks come in order 0, 1, 2, ...
func (b *Builder) StartRank(r int) error {
	if b.err != nil {
		return b.err
	}
	switch {
	case b.rank >= 0:
		b.err = errf.Errorf("rank %d starts before rank %d's block is closed", r, b.rank)
	case r != b.next:
		if r >= b.s.numRanks {
			b.err = errf.Errorf("rank %d out of range: num_ranks is %d", r, b.s.numRanks)
		} else {
			b.err = errf.Errorf("rank %d out of order: expected rank %d (blocks come in rank order, as LogGOPSim's txt2bin needs)", r, b.next)
		}
	}
	if b.err != nil {
		return b.err
	}
	b.rank = r
	b.edges = b.edges[:0]
	return nil
}

// OpID identifies an operation while its rank is being built.
type OpID uint32

func (b *Builder) add(k Kind, peer uint32, size uint64, tag uint32, cpu, nic uint8, label string) OpID {
	if b.err == nil && b.rank < 0 {
		b.err = errf.Errorf("%s outside a rank block", k)
	}
	if b.err == nil && len(b.s.ops) >= MaxOps {
		b.err = errf.Errorf("more than %d operations", MaxOps)
	}
	if b.err != nil {
		return 0
	}
	id := uint32(len(b.s.ops))
	o := op{off: uint32(k) << 30, peer: peer, tag: tag}
	if size < bigSize {
		o.size = uint32(size)
	} else {
		o.size = bigSize
		if b.s.big == nil {
			b.s.big = map[uint32]uint64{}
		}
		b.s.big[id] = size
	}
	b.s.ops = append(room(b.s.ops, 1), o)
	if cpu != 0 || nic != 0 || b.s.cpuNIC != nil {
		if b.s.cpuNIC == nil {
			b.s.cpuNIC = make([]uint16, id, cap(b.s.ops))
		}
		b.s.cpuNIC = append(room(b.s.cpuNIC, 1), uint16(cpu)|uint16(nic)<<8)
		b.s.maxCPU = max(b.s.maxCPU, cpu)
		b.s.maxNIC = max(b.s.maxNIC, nic)
	}
	if b.keep {
		b.s.labels = append(room(b.s.labels, 1), label)
		b.labelBytes += (len(label) + 7) &^ 7
	}
	switch k {
	case Send:
		b.s.sends++
		if size == 0 {
			b.s.zeroSends++
		} else {
			b.s.sendBytes += float64(size - 1)
		}
		if tag == Any {
			b.s.anyTagSends++
		}
	case Recv:
		b.recvs++
		if peer == Any {
			b.s.anyPeerRecvs++
		}
		if tag == Any {
			b.s.anyTagRecvs++
		}
	case Calc:
		b.s.calcTime += float64(size)
	}
	return OpID(id)
}

// Send adds a send of size bytes to rank peer with tag.
func (b *Builder) Send(size uint64, peer, tag uint32, cpu, nic uint8, label string) OpID {
	if b.err == nil && (peer == Any || int64(peer) >= int64(b.s.numRanks)) {
		b.err = errf.Errorf("send to %d: peer out of range [0, %d)", int32(peer), b.s.numRanks)
	}
	return b.add(Send, peer, size, tag, cpu, nic, label)
}

// Recv adds a receive of size bytes from rank peer (or Any) with tag (or Any).
func (b *Builder) Recv(size uint64, peer, tag uint32, cpu, nic uint8, label string) OpID {
	if b.err == nil && peer != Any && int64(peer) >= int64(b.s.numRanks) {
		b.err = errf.Errorf("recv from %d: peer out of range [0, %d) (or -1 for any source)", peer, b.s.numRanks)
	}
	return b.add(Recv, peer, size, tag, cpu, nic, label)
}

// Calc adds dur ns of local computation on cpu.
func (b *Builder) Calc(dur uint64, cpu uint8, label string) OpID {
	return b.add(Calc, 0, dur, 0, cpu, 0, label)
}

// Requires makes a wait until b is done ("a requires b").
func (b *Builder) Requires(a, c OpID) { b.dep(a, c, false) }

// IRequires makes a wait until c has started ("a irequires c").
func (b *Builder) IRequires(a, c OpID) { b.dep(a, c, true) }

func (b *Builder) dep(a, c OpID, start bool) {
	if b.err != nil {
		return
	}
	first := b.s.rankStart[len(b.s.rankStart)-1]
	n := uint32(len(b.s.ops))
	if b.rank < 0 || uint32(a) < first || uint32(a) >= n || uint32(c) < first || uint32(c) >= n {
		b.err = errf.Errorf("dependency between operations outside the current rank")
		return
	}
	b.edges = append(room(b.edges, 1), edge{from: uint32(c) - first, to: uint32(a) - first, start: start})
}

// EndRank closes the current rank's block. It lays out the rank's
// dependents in the order LogGOPSim keeps them (statement order per kind)
// and refuses a dependency cycle, naming the operations on it.
func (b *Builder) EndRank() error {
	if b.err != nil {
		return b.err
	}
	if b.rank < 0 {
		b.err = errf.Errorf("} without an open rank block")
		return b.err
	}
	first := b.s.rankStart[len(b.s.rankStart)-1]
	n := uint32(len(b.s.ops)) - first
	if len(b.s.succ)+len(b.edges) > maxEdges {
		b.err = errf.Errorf("more than %d dependencies", maxEdges)
		return b.err
	}
	// Counting sort of the edges by source, stable: each op's dependents
	// stay in statement order, as LogGOPSim's DependOnMe and
	// StartDependOnMe vectors are.
	b.cnt = grow(b.cnt, int(n)+1)
	cnt := b.cnt
	for _, e := range b.edges {
		cnt[e.from+1]++
	}
	for i := uint32(0); i < n; i++ {
		cnt[i+1] += cnt[i]
	}
	base := uint32(len(b.s.succ))
	for i := uint32(0); i < n; i++ {
		o := &b.s.ops[first+i]
		o.off = o.off&^offMask | (base + cnt[i])
	}
	b.s.succ = room(b.s.succ, len(b.edges))
	b.s.succ = b.s.succ[:len(b.s.succ)+len(b.edges)]
	fill := cnt[:n]
	for _, e := range b.edges {
		v := first + e.to
		if e.start {
			v |= startDep
			b.s.starts++
		}
		b.s.succ[base+fill[e.from]] = v
		fill[e.from]++
	}
	if err := b.checkCycle(first, n); err != nil {
		b.err = errf.Errorf("rank %d: %w", b.rank, err)
		return b.err
	}
	// layoutBuild is spelled out beside b.layout (which implies it) so
	// that the js build, where it is the constant false, drops the
	// layout's code (layout_js.go)
	switch {
	case !layoutBuild || !b.layout: // a small schedule stays in file order
	case int(n) >= layoutOps:
		// a rank this large is a block of its own (the scratch stays
		// one block's size)
		if b.blockRanks > 0 {
			b.layoutBlock(int(first))
		}
		b.blockRanks = 1
		b.layoutBlock(len(b.s.ops))
	default:
		b.levels(first, n)
		if b.blockRanks++; b.blockRanks == layoutRanks || len(b.s.ops)-int(b.blockOp) >= layoutOps {
			b.layoutBlock(len(b.s.ops))
		}
	}
	b.s.rankStart = append(b.s.rankStart, uint32(len(b.s.ops)))
	b.s.recvStart = append(b.s.recvStart, b.recvs)
	b.rank = -1
	b.next++
	return nil
}

// indegrees counts the dependencies of each of the current rank's n
// operations (in b.indeg) and reports whether every edge points forward
// in the file.
func (b *Builder) indegrees(n uint32) (indeg []uint32, forward bool) {
	b.indeg = grow(b.indeg, int(n))
	forward = true
	for _, e := range b.edges {
		b.indeg[e.to]++
		forward = forward && e.from < e.to
	}
	return b.indeg, forward
}

// rankDeps are the dependents of the current rank's operation i (of n,
// from first on), laid out by EndRank: global indices.
func (b *Builder) rankDeps(first, n, i uint32) []uint32 {
	end := uint32(len(b.s.succ))
	if i+1 < n {
		end = b.s.ops[first+i+1].off & offMask
	}
	return b.s.succ[b.s.ops[first+i].off&offMask : end]
}

// checkCycle runs Kahn's algorithm over the rank's ops [first, first+n)
// (dependencies never leave a rank); ops left over lie on or behind a cycle.
func (b *Builder) checkCycle(first, n uint32) error {
	if len(b.edges) == 0 {
		b.s.roots += int(n)
		for i := range n {
			if b.s.kind(first+i) == Recv {
				b.s.rootRecvs++
			}
		}
		return nil
	}
	indeg, forward := b.indegrees(n)
	for i, d := range indeg[:n] {
		switch {
		case d == 0 && b.s.kind(first+uint32(i)) == Recv:
			b.s.rootRecvs++
		case d >= pendBig:
			b.s.bigPend++
		}
	}
	if forward {
		// Every edge goes to a later operation (Schedgen's and Writer's
		// files): the file's order is a topological order, no cycle.
		for _, d := range indeg[:n] {
			if d == 0 {
				b.s.roots++
			}
		}
		return nil
	}
	stack := b.stack[:0]
	defer func() { b.stack = stack[:0] }()
	for i := range n {
		if indeg[i] == 0 {
			stack = append(stack, i)
		}
	}
	b.s.roots += len(stack)
	done := 0
	for len(stack) > 0 {
		i := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		done++
		for _, d := range b.rankDeps(first, n, i) {
			j := d&^startDep - first
			if indeg[j]--; indeg[j] == 0 {
				stack = append(stack, j)
			}
		}
	}
	if done == int(n) {
		return nil
	}
	return b.cycleError(first, n, indeg)
}

// cycleShown is how many operations of a dependency cycle its error
// names: the first ones, then the last, which closes it.
const cycleShown = 6

// cycleError names a dependency cycle among the rank's ops that Kahn's
// algorithm left with dependencies (indeg > 0): it walks from the first
// of them to an op it requires that is left too, and on, until an op
// repeats, in time and scratch linear in the rank (a cycle through a
// million operations is found at once), and names a few of its
// operations and how many more.
func (b *Builder) cycleError(first, n uint32, indeg []uint32) error {
	// req[i] is an op left over that i requires (one suffices: every op
	// left over requires one, or Kahn's algorithm would have freed it)
	req := grow(b.cnt, int(n))
	for i := range req {
		req[i] = nilNode
	}
	for _, e := range b.edges {
		if indeg[e.to] > 0 && indeg[e.from] > 0 {
			req[e.to] = e.from
		}
	}
	at := uint32(0)
	for indeg[at] == 0 {
		at++
	}
	// seen[i] is i's position in the walk + 1 (0: not yet)
	seen := grow(b.stack[:0], int(n))
	var path []uint32
	for seen[at] == 0 {
		path = append(path, at)
		seen[at] = uint32(len(path))
		at = req[at]
	}
	path = path[seen[at]-1:] // the cycle: each requires the next, the last the first
	b.cnt, b.stack = req, seen[:0]
	shown := path
	if len(path) > cycleShown+1 {
		shown = append(append([]uint32(nil), path[:cycleShown]...), path[len(path)-1])
	}
	shown = append(shown, path[0])
	names := b.names(first, shown)
	var msg strings.Builder
	for k, nm := range names {
		if k > 0 {
			msg.WriteString(" -> ")
		}
		if k == cycleShown && len(path) > cycleShown+1 {
			fmt.Fprintf(&msg, "… (%d more) -> ", len(path)-cycleShown-1)
		}
		msg.WriteString(nm)
	}
	return errf.Errorf("dependency cycle through %d operations: %s (each waits for the next)", len(path), msg.String())
}

// names are the labels of the rank's local ops, for a cycle error: the
// reader's (nameOf), the labels kept, or "op N".
func (b *Builder) names(first uint32, locals []uint32) []string {
	if b.nameOf != nil {
		return b.nameOf(locals)
	}
	out := make([]string, len(locals))
	for k, i := range locals {
		if b.keep && b.s.labels[first+i] != "" {
			out[k] = b.s.labels[first+i]
		} else {
			out[k] = fmt.Sprintf("op %d", i)
		}
	}
	return out
}

// Schedule checks that every rank was given and returns the schedule.
func (b *Builder) Schedule() (*Schedule, error) {
	if b.err != nil {
		return nil, b.err
	}
	if b.rank >= 0 {
		return nil, errf.Errorf("rank %d's block is not closed (missing })", b.rank)
	}
	if b.next != b.s.numRanks {
		return nil, errf.Errorf("%s", missingRanks(b.s.numRanks, b.next))
	}
	if layoutBuild && b.layout && int(b.blockOp) < len(b.s.ops) {
		b.layoutBlock(len(b.s.ops))
	}
	s := b.s
	s.ops = append(s.ops, op{off: uint32(len(s.succ))})
	s.inv = &invIndex{}
	s.stats = &statsOnce{}
	b.s = Schedule{}
	b.err = errf.Errorf("Schedule already called")
	return &s, nil
}

// room returns s with room for extra more elements, its capacity at
// least doubled when it grows: an array grown by append's quarter at a
// time is copied about five times over in all, doubled only about twice
// (what a reader allocates is bounded by what it holds: EstimateRead).
//
// Only the check is inlined: the executor appends through room on its
// hot paths, where the growth's code inlined made the compiler save
// registers on the common path too (callgrind, docs/goal.md).
func room[T any](s []T, extra int) []T {
	if len(s)+extra <= cap(s) {
		return s
	}
	return grown(s, extra)
}

// grown is room's growth.
//
//go:noinline
func grown[T any](s []T, extra int) []T {
	t := make([]T, len(s), max(2*cap(s), len(s)+extra, 16))
	copy(t, s)
	return t
}

// grow returns s with length n, zeroed.
func grow(s []uint32, n int) []uint32 {
	if cap(s) < n {
		return make([]uint32, n)
	}
	s = s[:n]
	clear(s)
	return s
}

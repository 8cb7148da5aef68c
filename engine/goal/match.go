package goal

// Matching, LogGOPSim's rule: a message takes the first recv its
// receiver posted (in posting order) whose source and tag match it, -1
// matching any on either side; a recv takes the first message that
// arrived unexpected (in arrival order) that it matches.
//
// A message takes the first posted recv of its receiver that matches
// it, walking the receiver's posted recvs in posting order. Beyond 16
// roots a rank (a butterfly from P = 2^17, or 2^14 with T = 4) that walk
// is the usual case, not a match at the head: LogGOPSim's std::sort of
// the roots by kind, reproduced, leaves the recvs out of file order. So
// a rank's posted recvs lie together (a rank posts each of its recvs at
// most once: it has as many places as recvs), each with a 4-byte key of
// its source and tag beside it (rqKey): the walk reads keys, a line for
// 16 recvs, and an operation's line only where a key matches (or the
// recv has a wildcard, key wildKey). 8 bytes a recv: a butterfly at P =
// 2^20 posts 21 M at once.
//
// A walk is short where a rank has few recvs or takes them near the
// head, as collectives do; where it is not (a rank that posts 100,000
// recvs and takes them last first: 31 s at 300,000 before), its cost
// grows as the square of the recvs. So a walk that passes more than
// walkMax entries turns its rank's queue into an index (postedIndex): a
// list of the posted recvs per (source, tag), wildcards included, and
// per source, in posting order, where a message finds the first match
// among the heads of the four lists that can hold it (exact, any source,
// any tag, both) or, for a message sent with any tag, of two. The
// unexpected messages of a rank whose walk passes walkMax are indexed
// the same way (uqIndex): per (source, tag), per source, per tag, in
// arrival order. The first match is the same either way (TestMatchIndex
// drives both against a plain list); the work is at most walkMax entries
// a message or recv, plus a few map lookups on an indexed rank.

// walkMax is how many entries a walk passes before its rank's queue is
// indexed: more than a butterfly's recvs a rank (20 at 2^20 ranks). (A
// variable so that the tests can index every queue, or none.)
var walkMax = 32

func rqKeyOf(peer, tag uint32) uint32 {
	if peer == Any || tag == Any {
		return wildKey
	}
	return peer*0x9e3779b1 ^ tag
}

// keyMayMatch reports whether a posted recv with key x may match a
// message with key k: equal keys, or a wildcard on either side. Only
// then is the recv's operation read and compared in full.
func keyMayMatch(x, k uint32) bool { return x == k || x == wildKey || k == wildKey }

// wildKey is the key of a recv from any source or with any tag. A recv
// without wildcards whose key happens to be wildKey is compared in full
// too, as every key match is.
const wildKey = 0

// uqNode is an unexpected message: the send op and its rank; next links
// its rank's messages in arrival order.
type uqNode struct{ op, src, next uint32 }

// taken marks an entry of rq whose recv was matched; takenKey is its
// key, which a message's key meets only by chance (the entry is then
// checked and passed over).
const (
	taken    = ^uint32(0)
	takenKey = ^uint32(0)
)

// matches is LogGOPSim's rule for a recv from peer with tag and a
// message from src with tag t.
func matches(peer, tag, src, t uint32) bool {
	return (peer == Any || peer == src) && (tag == Any || t == Any || t == tag)
}

// mlist is a list of an index: its first and last node (nilNode when
// empty). An index keeps its lists, empty or not, for the run: taking a
// node changes no map.
type mlist struct{ head, tail uint32 }

var emptyList = mlist{nilNode, nilNode}

// pair is a map key of two 32-bit values.
func pair(a, b uint32) uint64 { return uint64(a)<<32 | uint64(b) }

// hasBit reports whether a set of ranks (nil: none) holds rank h; setBit
// adds h.
func hasBit(set []uint64, h uint32) bool { return set != nil && set[h>>6]&(1<<(h&63)) != 0 }

func (e *exec) setBit(set *[]uint64, h uint32) {
	if *set == nil {
		*set = make([]uint64, (e.s.numRanks+63)/64)
	}
	(*set)[h>>6] |= 1 << (h & 63)
}

// takeRecv removes and returns the first posted recv of a rank that
// matches a message from src with tag.
func (e *exec) takeRecv(h, src, tag uint32) (uint32, bool) {
	if hasBit(e.pIndexed, h) {
		return e.takeRecvIndexed(h, src, tag)
	}
	i, passed := e.findRecv(h, src, tag)
	if i < 0 {
		if passed > walkMax {
			e.indexPosted(h)
		}
		return 0, false
	}
	r := e.rq[i]
	e.takeAt(h, i)
	if passed > walkMax {
		e.indexPosted(h)
	}
	return r, true
}

// takeRecvIndexed is takeRecv on an indexed rank (apart: the walk, on
// every message of a collective, runs faster without it).
func (e *exec) takeRecvIndexed(h, src, tag uint32) (uint32, bool) {
	i := e.pidx[h].find(e, src, tag)
	if i < 0 {
		return 0, false
	}
	e.pidx[h].remove(e, uint32(i))
	r := e.rq[i]
	e.takeAt(h, i)
	return r, true
}

// takeAt takes rank h's posted recv at place i of rq (inlined).
func (e *exec) takeAt(h uint32, i int) {
	hq := e.hq(h)
	// A recv taken from the middle leaves a gap (taken) that walks step
	// over, rather than the rest moving up (a copy at every match where
	// the roots' sort scrambled the posting order: 8 % of a butterfly of
	// 2^20 ranks); the ends close over their gaps.
	e.rq[i], e.rqKey[i] = taken, takenKey
	switch i {
	case int(hq.rqFirst):
		for hq.rqFirst < hq.rqEnd && e.rq[hq.rqFirst] == taken {
			hq.rqFirst++
		}
	case int(hq.rqEnd) - 1:
		for hq.rqEnd > hq.rqFirst && e.rq[hq.rqEnd-1] == taken {
			hq.rqEnd--
		}
	}
}

// findRecv returns where rq holds rank h's first posted recv that
// matches a message from src with tag, or -1, and how many entries the
// walk passed.
func (e *exec) findRecv(h, src, tag uint32) (int, int) {
	hq := e.hq(h)
	k := rqKeyOf(src, tag)
	for i, x := range e.rqKey[hq.rqFirst:hq.rqEnd] {
		if keyMayMatch(x, k) {
			j := int(hq.rqFirst) + i
			if e.rq[j] == taken {
				continue
			}
			o := &e.s.ops[e.rq[j]]
			if matches(o.peer, o.tag, src, tag) {
				return j, i
			}
		}
	}
	return -1, int(hq.rqEnd - hq.rqFirst)
}

// postRecv posts recv op of rank h. It is inlined where the executor
// posts; the caller adds it to the rank's index, if any (indexPost).
func (e *exec) postRecv(h, op uint32) {
	hq := e.hq(h)
	e.rq[hq.rqEnd], e.rqKey[hq.rqEnd] = op, rqKeyOf(e.s.ops[op].peer, e.s.ops[op].tag)
	hq.rqEnd++
}

// indexPost adds the recv rank h posted last to its index.
func (e *exec) indexPost(h uint32) { e.pidx[h].add(e, e.hq(h).rqEnd-1) }

// postedIndex is an indexed rank's posted recvs (entries of rq, by their
// place in it: the posting order): a list per (source, tag) of the recv,
// either possibly Any, and, where the schedule sends with any tag, a list
// per source. A recv's links name its lists, so that taking it costs no
// lookup; a message looks up its own (source, tag) list, and the
// wildcard lists only while recvs with wildcards are posted.
type postedIndex struct {
	base  uint32 // the rank's first place in rq
	key   map[uint64]uint32
	peer  map[uint32]uint32 // nil: no message has tag Any
	lists []mlist
	link  []plink // per place - base
	// posted recvs from any source with a tag, from a source with any
	// tag, from any source with any tag
	anyPeer, anyTag, anyBoth int
}

type plink struct {
	keyPrev, keyNext, peerPrev, peerNext uint32
	keyList, peerList                    uint32
}

// list returns the id of m's list k, making it if need be.
func list[K comparable](m map[K]uint32, lists *[]mlist, k K) uint32 {
	id, ok := m[k]
	if !ok {
		id = uint32(len(*lists))
		*lists = append(room(*lists, 1), emptyList)
		m[k] = id
	}
	return id
}

// headOf is the head of m's list k, or nilNode.
func headOf[K comparable](m map[K]uint32, lists []mlist, k K) uint32 {
	if id, ok := m[k]; ok {
		return lists[id].head
	}
	return nilNode
}

// link appends node n to list id, whose nodes' next links next gives.
func (l *mlist) link(n uint32, next func(uint32) *uint32) (prev uint32) {
	prev = l.tail
	if prev != nilNode {
		*next(prev) = n
	} else {
		l.head = n
	}
	l.tail = n
	return prev
}

// unlink removes node n, between prev and nxt, from the list.
func (l *mlist) unlink(prev, nxt uint32, prevOf, nextOf func(uint32) *uint32) {
	if prev != nilNode {
		*nextOf(prev) = nxt
	} else {
		l.head = nxt
	}
	if nxt != nilNode {
		*prevOf(nxt) = prev
	} else {
		l.tail = prev
	}
}

// indexPosted indexes rank h's posted recvs, in posting order.
func (e *exec) indexPosted(h uint32) {
	if e.pidx == nil {
		e.pidx = map[uint32]*postedIndex{}
	}
	base := e.s.recvStart[h]
	x := &postedIndex{base: base, key: map[uint64]uint32{}, link: make([]plink, e.s.recvStart[h+1]-base)}
	if e.s.anyTagSends > 0 {
		x.peer = map[uint32]uint32{}
	}
	e.pidx[h] = x
	e.setBit(&e.pIndexed, h)
	hq := e.hq(h)
	for j := hq.rqFirst; j < hq.rqEnd; j++ {
		if e.rq[j] != taken {
			x.add(e, j)
		}
	}
}

func (x *postedIndex) add(e *exec, j uint32) {
	o := &e.s.ops[e.rq[j]]
	x.count(o, 1)
	l := &x.link[j-x.base]
	l.keyList = list(x.key, &x.lists, pair(o.peer, o.tag))
	l.keyPrev = x.lists[l.keyList].link(j, func(m uint32) *uint32 { return &x.link[m-x.base].keyNext })
	l.keyNext = nilNode
	if x.peer != nil {
		l.peerList = list(x.peer, &x.lists, o.peer)
		l.peerPrev = x.lists[l.peerList].link(j, func(m uint32) *uint32 { return &x.link[m-x.base].peerNext })
		l.peerNext = nilNode
	}
}

// count adds d to the counts of posted recvs with wildcards.
func (x *postedIndex) count(o *op, d int) {
	switch {
	case o.peer == Any && o.tag == Any:
		x.anyBoth += d
	case o.peer == Any:
		x.anyPeer += d
	case o.tag == Any:
		x.anyTag += d
	}
}

func (x *postedIndex) remove(e *exec, j uint32) {
	x.count(&e.s.ops[e.rq[j]], -1)
	l := x.link[j-x.base]
	prev := func(m uint32) *uint32 { return &x.link[m-x.base].keyPrev }
	next := func(m uint32) *uint32 { return &x.link[m-x.base].keyNext }
	x.lists[l.keyList].unlink(l.keyPrev, l.keyNext, prev, next)
	if x.peer != nil {
		prev = func(m uint32) *uint32 { return &x.link[m-x.base].peerPrev }
		next = func(m uint32) *uint32 { return &x.link[m-x.base].peerNext }
		x.lists[l.peerList].unlink(l.peerPrev, l.peerNext, prev, next)
	}
}

// find returns the place of the first posted recv that matches a message
// from src (never Any) with tag, or -1: the earliest head of the lists
// that can hold one.
func (x *postedIndex) find(e *exec, src, tag uint32) int {
	best := nilNode // places are below 2^30: nilNode is later than any
	if tag == Any {
		best = min(headOf(x.peer, x.lists, src), headOf(x.peer, x.lists, Any))
	} else {
		best = headOf(x.key, x.lists, pair(src, tag))
		if x.anyTag > 0 {
			best = min(best, headOf(x.key, x.lists, pair(src, Any)))
		}
		if x.anyPeer > 0 {
			best = min(best, headOf(x.key, x.lists, pair(Any, tag)))
		}
		if x.anyBoth > 0 {
			best = min(best, headOf(x.key, x.lists, pair(Any, Any)))
		}
	}
	if best == nilNode {
		return -1
	}
	return int(best)
}

// takeMsg removes and returns the first unexpected message of rank h
// that a recv from peer with tag matches, in arrival order.
func (e *exec) takeMsg(h, peer, tag uint32) (uqNode, bool) {
	if hasBit(e.uIndexed, h) {
		return e.takeMsgIndexed(h, peer, tag)
	}
	prev := nilNode
	passed := 0
	for n := e.hq(h).uqHead; n != nilNode; n = e.upool[n].next {
		q := e.upool[n]
		if matches(peer, tag, q.src, e.s.ops[q.op].tag) {
			if prev == nilNode {
				e.hq(h).uqHead = q.next
			} else {
				e.upool[prev].next = q.next
			}
			if e.hq(h).uqTail == n {
				e.hq(h).uqTail = prev
			}
			e.upool[n].next = e.ufree
			e.ufree = n
			if passed > walkMax {
				e.indexUnexpected(h)
			}
			return q, true
		}
		prev = n
		passed++
	}
	if passed > walkMax {
		e.indexUnexpected(h)
	}
	return uqNode{}, false
}

// takeMsgIndexed is takeMsg on an indexed rank.
func (e *exec) takeMsgIndexed(h, peer, tag uint32) (uqNode, bool) {
	n := e.uidx[h].find(e, h, peer, tag)
	if n == nilNode {
		return uqNode{}, false
	}
	q := e.upool[n]
	e.uidx[h].remove(e, h, n)
	e.upool[n].next = e.ufree
	e.ufree = n
	return q, true
}

func (e *exec) unexpected(h, op, src uint32) {
	n := e.ufree
	if n == nilNode {
		n = uint32(len(e.upool))
		e.upool = append(room(e.upool, 1), uqNode{})
	} else {
		e.ufree = e.upool[n].next
	}
	e.upool[n] = uqNode{op: op, src: src, next: nilNode}
	hq := e.hq(h)
	tail := hq.uqTail
	if tail == nilNode {
		hq.uqHead = n
	} else {
		e.upool[tail].next = n
	}
	hq.uqTail = n
	if hasBit(e.uIndexed, h) {
		e.uidx[h].add(e, n, tail)
	}
}

// uqIndex is an indexed rank's unexpected messages (nodes of upool): a
// list per (source, tag) of the message (the tag possibly Any), and,
// where the schedule has recvs with wildcards, per source and per tag,
// in arrival order; the rank's own list (uqHead, next) stays the list of
// all of them, made doubly linked by uqLink.allPrev.
type uqIndex struct {
	key      map[uint64]uint32
	src, tag map[uint32]uint32 // nil: no recv has any tag, any source
	lists    []mlist
	anyTag   int // messages with tag Any waiting
}

// uqLink is a node's links in its rank's index, the ids of its lists,
// and its arrival number (the heads of different lists compare by it).
type uqLink struct {
	allPrev                   uint32
	keyPrev, keyNext, keyList uint32
	srcPrev, srcNext, srcList uint32
	tagPrev, tagNext, tagList uint32
	seq                       uint32
}

// indexUnexpected indexes rank h's unexpected messages, in arrival order.
func (e *exec) indexUnexpected(h uint32) {
	if e.uidx == nil {
		e.uidx = map[uint32]*uqIndex{}
	}
	x := &uqIndex{key: map[uint64]uint32{}}
	if e.s.anyTagRecvs > 0 {
		x.src = map[uint32]uint32{}
	}
	if e.s.anyPeerRecvs > 0 {
		x.tag = map[uint32]uint32{}
	}
	e.uidx[h] = x
	e.setBit(&e.uIndexed, h)
	prev := nilNode
	for n := e.hq(h).uqHead; n != nilNode; n = e.upool[n].next {
		x.add(e, n, prev)
		prev = n
	}
}

// add links node n, the last of its rank's list after prev, into the
// index's lists.
func (x *uqIndex) add(e *exec, n, prev uint32) {
	if len(e.ulink) < len(e.upool) {
		e.ulink = room(e.ulink, len(e.upool)-len(e.ulink))[:len(e.upool)]
	}
	q := e.upool[n]
	t := e.s.ops[q.op].tag
	if t == Any {
		x.anyTag++
	}
	u := e.ulink
	l := &u[n]
	l.allPrev, l.seq = prev, e.useq
	e.useq++
	l.keyList = list(x.key, &x.lists, pair(q.src, t))
	l.keyPrev, l.keyNext = x.lists[l.keyList].link(n, func(m uint32) *uint32 { return &u[m].keyNext }), nilNode
	if x.src != nil {
		l.srcList = list(x.src, &x.lists, q.src)
		l.srcPrev, l.srcNext = x.lists[l.srcList].link(n, func(m uint32) *uint32 { return &u[m].srcNext }), nilNode
	}
	if x.tag != nil {
		l.tagList = list(x.tag, &x.lists, t)
		l.tagPrev, l.tagNext = x.lists[l.tagList].link(n, func(m uint32) *uint32 { return &u[m].tagNext }), nilNode
	}
}

func (x *uqIndex) remove(e *exec, h, n uint32) {
	q := e.upool[n]
	if e.s.ops[q.op].tag == Any {
		x.anyTag--
	}
	u := e.ulink
	l := u[n]
	x.lists[l.keyList].unlink(l.keyPrev, l.keyNext, func(m uint32) *uint32 { return &u[m].keyPrev }, func(m uint32) *uint32 { return &u[m].keyNext })
	if x.src != nil {
		x.lists[l.srcList].unlink(l.srcPrev, l.srcNext, func(m uint32) *uint32 { return &u[m].srcPrev }, func(m uint32) *uint32 { return &u[m].srcNext })
	}
	if x.tag != nil {
		x.lists[l.tagList].unlink(l.tagPrev, l.tagNext, func(m uint32) *uint32 { return &u[m].tagPrev }, func(m uint32) *uint32 { return &u[m].tagNext })
	}
	// the rank's list of all
	hq := e.hq(h)
	if l.allPrev != nilNode {
		e.upool[l.allPrev].next = q.next
	} else {
		hq.uqHead = q.next
	}
	if q.next != nilNode {
		u[q.next].allPrev = l.allPrev
	} else {
		hq.uqTail = l.allPrev
	}
}

// find returns the node of the first unexpected message a recv from peer
// with tag matches, or nilNode: the earliest head of the lists that can
// hold one.
func (x *uqIndex) find(e *exec, h, peer, tag uint32) uint32 {
	best, seq := nilNode, ^uint32(0)
	consider := func(n uint32) {
		if n != nilNode && e.ulink[n].seq < seq {
			best, seq = n, e.ulink[n].seq
		}
	}
	switch {
	case peer == Any && tag == Any: // every message: the rank's list of all
		return e.hq(h).uqHead
	case peer == Any:
		consider(headOf(x.tag, x.lists, tag))
		consider(headOf(x.tag, x.lists, Any))
	case tag == Any:
		consider(headOf(x.src, x.lists, peer))
	default:
		consider(headOf(x.key, x.lists, pair(peer, tag)))
		if x.anyTag > 0 {
			consider(headOf(x.key, x.lists, pair(peer, Any)))
		}
	}
	return best
}

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
// empty).
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
	indexed := hasBit(e.pIndexed, h)
	var i, passed int
	if indexed {
		i = e.pidx[h].find(e, src, tag)
	} else {
		i, passed = e.findRecv(h, src, tag)
	}
	if i < 0 {
		if passed > walkMax {
			e.indexPosted(h)
		}
		return 0, false
	}
	r := e.rq[i]
	if indexed {
		e.pidx[h].remove(e, uint32(i))
	}
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
	if passed > walkMax {
		e.indexPosted(h)
	}
	return r, true
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

func (e *exec) postRecv(h, op uint32) {
	hq := e.hq(h)
	j := hq.rqEnd
	e.rq[j], e.rqKey[j] = op, rqKeyOf(e.s.ops[op].peer, e.s.ops[op].tag)
	hq.rqEnd++
	if hasBit(e.pIndexed, h) {
		e.pidx[h].add(e, j)
	}
}

// postedIndex is an indexed rank's posted recvs (entries of rq, by their
// place in it: the posting order): a list per (source, tag) of the recv,
// either possibly Any, and a list per source.
type postedIndex struct {
	base uint32 // the rank's first place in rq
	key  map[uint64]mlist
	peer map[uint32]mlist
	link []plink // per place - base
}

type plink struct{ keyPrev, keyNext, peerPrev, peerNext uint32 }

// indexPosted indexes rank h's posted recvs, in posting order.
func (e *exec) indexPosted(h uint32) {
	if e.pidx == nil {
		e.pidx = map[uint32]*postedIndex{}
	}
	base := e.s.recvStart[h]
	x := &postedIndex{base: base, key: map[uint64]mlist{}, peer: map[uint32]mlist{},
		link: make([]plink, e.s.recvStart[h+1]-base)}
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
	l := &x.link[j-x.base]
	k := pair(o.peer, o.tag)
	kl, ok := x.key[k]
	if !ok {
		kl = emptyList
	}
	l.keyPrev, l.keyNext = kl.tail, nilNode
	if kl.tail != nilNode {
		x.link[kl.tail-x.base].keyNext = j
	} else {
		kl.head = j
	}
	kl.tail = j
	x.key[k] = kl
	pl, ok := x.peer[o.peer]
	if !ok {
		pl = emptyList
	}
	l.peerPrev, l.peerNext = pl.tail, nilNode
	if pl.tail != nilNode {
		x.link[pl.tail-x.base].peerNext = j
	} else {
		pl.head = j
	}
	pl.tail = j
	x.peer[o.peer] = pl
}

func (x *postedIndex) remove(e *exec, j uint32) {
	o := &e.s.ops[e.rq[j]]
	l := x.link[j-x.base]
	k := pair(o.peer, o.tag)
	kl := x.key[k]
	if l.keyPrev != nilNode {
		x.link[l.keyPrev-x.base].keyNext = l.keyNext
	} else {
		kl.head = l.keyNext
	}
	if l.keyNext != nilNode {
		x.link[l.keyNext-x.base].keyPrev = l.keyPrev
	} else {
		kl.tail = l.keyPrev
	}
	if kl.head == nilNode {
		delete(x.key, k)
	} else {
		x.key[k] = kl
	}
	pl := x.peer[o.peer]
	if l.peerPrev != nilNode {
		x.link[l.peerPrev-x.base].peerNext = l.peerNext
	} else {
		pl.head = l.peerNext
	}
	if l.peerNext != nilNode {
		x.link[l.peerNext-x.base].peerPrev = l.peerPrev
	} else {
		pl.tail = l.peerPrev
	}
	if pl.head == nilNode {
		delete(x.peer, o.peer)
	} else {
		x.peer[o.peer] = pl
	}
}

// find returns the place of the first posted recv that matches a message
// from src (never Any) with tag, or -1: the earliest head of the lists
// that can hold one.
func (x *postedIndex) find(e *exec, src, tag uint32) int {
	best := nilNode // places are below 2^30: nilNode is later than any
	if tag == Any {
		for _, p := range [2]uint32{src, Any} {
			if l, ok := x.peer[p]; ok {
				best = min(best, l.head)
			}
		}
	} else {
		for _, k := range [4]uint64{pair(src, tag), pair(src, Any), pair(Any, tag), pair(Any, Any)} {
			if l, ok := x.key[k]; ok {
				best = min(best, l.head)
			}
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

func (e *exec) unexpected(h, op, src uint32) {
	n := e.ufree
	if n == nilNode {
		n = uint32(len(e.upool))
		e.upool = append(e.upool, uqNode{})
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
// list per (source, tag) of the message (the tag possibly Any), per
// source, and per tag, in arrival order; the rank's own list (uqHead,
// next) stays the list of all of them, made doubly linked by
// uqLink.allPrev.
type uqIndex struct {
	key map[uint64]mlist
	src map[uint32]mlist
	tag map[uint32]mlist
}

// uqLink is a node's links in its rank's index, and its arrival number
// (the heads of different lists compare by it).
type uqLink struct {
	allPrev          uint32
	keyPrev, keyNext uint32
	srcPrev, srcNext uint32
	tagPrev, tagNext uint32
	seq              uint32
}

// indexUnexpected indexes rank h's unexpected messages, in arrival order.
func (e *exec) indexUnexpected(h uint32) {
	if e.uidx == nil {
		e.uidx = map[uint32]*uqIndex{}
	}
	x := &uqIndex{key: map[uint64]mlist{}, src: map[uint32]mlist{}, tag: map[uint32]mlist{}}
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
		e.ulink = append(e.ulink, make([]uqLink, len(e.upool)-len(e.ulink))...)
	}
	q := e.upool[n]
	t := e.s.ops[q.op].tag
	l := &e.ulink[n]
	l.allPrev, l.seq = prev, e.useq
	e.useq++
	l.keyPrev, l.keyNext = appendTo(e, x.key, pair(q.src, t), n, func(m uint32) *uint32 { return &e.ulink[m].keyNext })
	l.srcPrev, l.srcNext = appendTo(e, x.src, q.src, n, func(m uint32) *uint32 { return &e.ulink[m].srcNext })
	l.tagPrev, l.tagNext = appendTo(e, x.tag, t, n, func(m uint32) *uint32 { return &e.ulink[m].tagNext })
}

// appendTo appends node n to list k of m (next names a node's link to
// the next in that list), returning n's links.
func appendTo[K comparable](e *exec, m map[K]mlist, k K, n uint32, next func(uint32) *uint32) (prev, nxt uint32) {
	l, ok := m[k]
	if !ok {
		l = emptyList
	}
	prev = l.tail
	if prev != nilNode {
		*next(prev) = n
	} else {
		l.head = n
	}
	l.tail = n
	m[k] = l
	return prev, nilNode
}

// unlinkFrom removes node n (whose links in list k of m are prev and nxt)
// from that list.
func unlinkFrom[K comparable](m map[K]mlist, k K, prev, nxt uint32, prevOf, nextOf func(uint32) *uint32) {
	l := m[k]
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
	if l.head == nilNode {
		delete(m, k)
	} else {
		m[k] = l
	}
}

func (x *uqIndex) remove(e *exec, h, n uint32) {
	q := e.upool[n]
	t := e.s.ops[q.op].tag
	l := e.ulink[n]
	u := e.ulink
	unlinkFrom(x.key, pair(q.src, t), l.keyPrev, l.keyNext, func(m uint32) *uint32 { return &u[m].keyPrev }, func(m uint32) *uint32 { return &u[m].keyNext })
	unlinkFrom(x.src, q.src, l.srcPrev, l.srcNext, func(m uint32) *uint32 { return &u[m].srcPrev }, func(m uint32) *uint32 { return &u[m].srcNext })
	unlinkFrom(x.tag, t, l.tagPrev, l.tagNext, func(m uint32) *uint32 { return &u[m].tagPrev }, func(m uint32) *uint32 { return &u[m].tagNext })
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
	head := func(l mlist, ok bool) {
		if ok && e.ulink[l.head].seq < seq {
			best, seq = l.head, e.ulink[l.head].seq
		}
	}
	switch {
	case peer == Any && tag == Any: // every message: the rank's list of all
		return e.hq(h).uqHead
	case peer == Any:
		l, ok := x.tag[tag]
		head(l, ok)
		l, ok = x.tag[Any]
		head(l, ok)
	case tag == Any:
		l, ok := x.src[peer]
		head(l, ok)
	default:
		l, ok := x.key[pair(peer, tag)]
		head(l, ok)
		l, ok = x.key[pair(peer, Any)]
		head(l, ok)
	}
	return best
}

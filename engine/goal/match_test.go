package goal

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// TestPostedRecvs drives the executor's posted-recv queues (keys beside
// each rank's recvs, taken by a walk) and a plain list with the same
// posts and messages, LogGOPSim's rule for both: the first posted recv
// whose source and tag match, -1 matching any. The peers and tags are
// few, so that walks skip and take from the middle; wildcards on either
// side, two recvs whose keys collide, a recv whose key is wildKey and
// one whose key is that of a taken entry (takenKey) are among them.
func TestPostedRecvs(t *testing.T) {
	orig := walkMax
	defer func() { walkMax = orig }()
	// walked, indexed from the first message, indexed past walkMax
	for _, walkMax = range []int{1 << 30, -1, orig} {
		postedRecvs(t)
	}
}

func postedRecvs(t *testing.T) {
	mul := uint32(0x9e3779b1) // rqKeyOf's multiplier
	// (1, t1) and (2, t1 ^ 1*mul ^ 2*mul) share a key; (3, 3*mul) has key 0
	t1 := uint32(7)
	type pt struct{ peer, tag uint32 }
	// (1, takenKey ^ mul) has the key of a taken entry
	special := []pt{{1, t1}, {2, t1 ^ 1*mul ^ 2*mul}, {3, 3 * mul}, {Any, 2}, {1, Any}, {Any, Any}, {1, takenKey ^ mul}}
	if rqKeyOf(1, t1) != rqKeyOf(2, t1^1*mul^2*mul) || rqKeyOf(3, 3*mul) != wildKey || rqKeyOf(1, takenKey^mul) != takenKey {
		t.Fatal("the colliding keys do not collide")
	}
	for seed := range uint64(30) {
		rng := rand.New(rand.NewPCG(seed, 7))
		// rank 0 receives; rank 2 has recvs too (rank 1 none, so rank 2's
		// entries start where rank 0's end)
		b := NewBuilder(4, false, 0)
		var want []pt
		for r := range 4 {
			b.StartRank(r)
			if r%2 == 0 {
				for range 20 + rng.IntN(40) {
					p := pt{uint32(rng.IntN(4)), uint32(rng.IntN(3))}
					if rng.IntN(4) == 0 {
						p = special[rng.IntN(len(special))]
					}
					b.Recv(8, p.peer, p.tag, 0, 0, "")
					if r == 0 {
						want = append(want, p)
					}
				}
			}
			b.EndRank()
		}
		s, err := b.Schedule()
		if err != nil {
			t.Fatal(err)
		}
		// the messages below come from no send of s, some with tag Any: a
		// schedule of theirs would have such sends (the index keeps lists
		// per source for them only then)
		s.anyTagSends++
		nz, _ := newCPUNoise(Noise{}, 4)
		e := newExec(s, Default(), nz, false)
		first, end := s.RankOps(0)
		order := rng.Perm(end - first)
		var posted []uint32 // the reference: rank 0's posted recvs (places) in order
		wantOf := map[uint32]pt{}
		for i := first; i < end; i++ {
			wantOf[s.place(i)] = want[i-first]
		}
		matches := 0
		for len(order) > 0 || len(posted) > 0 {
			if len(order) > 0 && rng.IntN(3) > 0 {
				op := s.place(first + order[0])
				order = order[1:]
				e.postRecv(0, op) // as Recv in exec.handle posts
				if hasBit(e.pIndexed, 0) {
					e.indexPost(0)
				}
				posted = append(posted, op)
				continue
			}
			src, tag := uint32(rng.IntN(4)), uint32(rng.IntN(3))
			switch rng.IntN(6) {
			case 3:
				src, tag = 1, takenKey^mul
			case 0:
				src, tag = 2, t1^1*mul^2*mul
			case 1:
				src, tag = 3, 3*mul
			case 2:
				tag = Any
			}
			got, ok := e.takeRecv(0, src, tag)
			wantOp, wantOK := uint32(0), false
			for i, op := range posted {
				p := wantOf[op]
				if (p.peer == Any || p.peer == src) && (p.tag == Any || tag == Any || p.tag == tag) {
					wantOp, wantOK = op, true
					posted = append(posted[:i], posted[i+1:]...)
					break
				}
			}
			if got != wantOp || ok != wantOK {
				t.Fatalf("seed %d: message from %d tag %s took %d %v, want %d %v", seed, src, wild(tag), got, ok, wantOp, wantOK)
			}
			if ok {
				matches++
			}
			if len(order) == 0 && !ok && rng.IntN(8) == 0 {
				break
			}
		}
		if matches == 0 {
			t.Fatalf("seed %d: no message matched", seed)
		}
		// what stays posted is listed in posting order, between the
		// entries of recvs taken
		hq := e.hq(0)
		var left []uint32
		for _, op := range e.rq[hq.rqFirst:hq.rqEnd] {
			if op != taken {
				left = append(left, op)
			}
		}
		if !slices.Equal(left, posted) {
			t.Fatalf("seed %d: left posted %v, want %v", seed, left, posted)
		}
		if hq.rqFirst < hq.rqEnd && (e.rq[hq.rqFirst] == taken || e.rq[hq.rqEnd-1] == taken) {
			t.Fatalf("seed %d: the queue [%d, %d) starts or ends with a taken entry", seed, hq.rqFirst, hq.rqEnd)
		}
		if walkMax < 0 && e.pIndexed == nil {
			t.Fatalf("seed %d: walkMax %d, and no rank indexed", seed, walkMax)
		}
	}
}

// TestUnexpectedMsgs drives a rank's unexpected messages (a list in
// arrival order, walked, or indexed: match.go) and a plain list with the
// same arrivals and recvs, LogGOPSim's rule for both: a recv takes the
// first message to arrive whose source and tag it matches, -1 matching
// any on either side (a send may have tag -1 too).
func TestUnexpectedMsgs(t *testing.T) {
	orig := walkMax
	defer func() { walkMax = orig }()
	for _, walkMax = range []int{1 << 30, -1, orig, 3} {
		for seed := range uint64(40) {
			rng := rand.New(rand.NewPCG(seed, 8))
			// ranks 1..4 send to rank 0 (and rank 5 to rank 2, whose
			// messages interleave in the pool); tags 0..2 or Any
			b := NewBuilder(6, false, 0)
			type snd struct{ src, op uint32 }
			var pool []snd
			for r := range 6 {
				b.StartRank(r)
				if r > 0 {
					for range 10 + rng.IntN(30) {
						tag := uint32(rng.IntN(3))
						if rng.IntN(6) == 0 {
							tag = Any
						}
						to := uint32(0)
						if r == 5 {
							to = 2
						}
						b.Send(8, to, tag, 0, 0, "")
					}
				}
				b.EndRank()
			}
			s, err := b.Schedule()
			if err != nil {
				t.Fatal(err)
			}
			// the recvs below, some from any source or with any tag, are no
			// recvs of s: a schedule of theirs would have such recvs
			s.anyPeerRecvs++
			s.anyTagRecvs++
			for r := 1; r < 6; r++ {
				first, end := s.RankOps(r)
				for i := first; i < end; i++ {
					pool = append(pool, snd{uint32(r), s.place(i)})
				}
			}
			rng.Shuffle(len(pool), func(i, j int) { pool[i], pool[j] = pool[j], pool[i] })
			nz, _ := newCPUNoise(Noise{}, 6)
			e := newExec(s, Default(), nz, false)
			var want []snd // rank 0's unexpected messages in arrival order
			matched := 0
			for len(pool) > 0 || len(want) > 0 {
				if len(pool) > 0 && rng.IntN(3) > 0 {
					m := pool[0]
					pool = pool[1:]
					if m.src == 5 {
						e.unexpected(2, m.op, m.src)
						continue
					}
					e.unexpected(0, m.op, m.src)
					want = append(want, m)
					continue
				}
				peer, tag := uint32(1+rng.IntN(4)), uint32(rng.IntN(3))
				switch rng.IntN(5) {
				case 0:
					peer = Any
				case 1:
					tag = Any
				case 2:
					peer, tag = Any, Any
				}
				got, ok := e.takeMsg(0, peer, tag)
				wantOK := false
				var w snd
				for i, m := range want {
					if matches(peer, tag, m.src, s.ops[m.op].tag) {
						w, wantOK = m, true
						want = append(want[:i], want[i+1:]...)
						break
					}
				}
				if ok != wantOK || ok && (got.op != w.op || got.src != w.src) {
					t.Fatalf("walkMax %d seed %d: recv from %s tag %s took %+v %v, want %+v %v", walkMax, seed, wild(peer), wild(tag), got, ok, w, wantOK)
				}
				if ok {
					matched++
				}
				if len(pool) == 0 && !ok && rng.IntN(8) == 0 {
					break
				}
			}
			if matched == 0 {
				t.Fatalf("seed %d: nothing matched", seed)
			}
			// what is left is listed in arrival order
			var left []snd
			for n := e.hq(0).uqHead; n != nilNode; n = e.upool[n].next {
				left = append(left, snd{e.upool[n].src, e.upool[n].op})
			}
			if !slices.Equal(left, want) {
				t.Fatalf("walkMax %d seed %d: left %v, want %v", walkMax, seed, left, want)
			}
			if walkMax < 0 && e.uIndexed == nil {
				t.Fatalf("seed %d: walkMax %d, and no rank indexed", seed, walkMax)
			}
		}
	}
}

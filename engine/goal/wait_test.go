package goal

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"regexp"
	"testing"

	"commlab/internal/goalshape"
)

// shapeSchedule reads goalshape's shape name at size n.
func shapeSchedule(t testing.TB, name string, n int) *Schedule {
	t.Helper()
	sh, ok := goalshape.Find(name)
	if !ok {
		t.Fatalf("no shape %q", name)
	}
	var buf bytes.Buffer
	if err := sh.Write(&buf, n); err != nil {
		t.Fatal(err)
	}
	s, err := Read(&buf, name+".goal", ReadOptions{Labels: true})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// matchSchedule is a few ranks exchanging many messages over few sources
// and tags: recvs from any source or with any tag, sends with any tag,
// some recvs posted at once and others after a calc, so that posted and
// unexpected queues grow long and are taken from the middle. Many runs
// end stuck (a wildcard takes another's message): what is left unmatched
// is part of the result too.
func matchSchedule(t testing.TB, seed uint64) *Schedule {
	rng := rand.New(rand.NewPCG(seed, 777))
	P := 2 + rng.IntN(3)
	b := NewBuilder(P, false, 0)
	type msg struct{ peer, tag uint32 }
	sends := make([][]msg, P)
	recvs := make([][]msg, P)
	for range 100 + rng.IntN(300) {
		src := rng.IntN(P)
		dst := (src + 1 + rng.IntN(P-1)) % P
		tag := uint32(rng.IntN(4))
		st, rp, rt := tag, uint32(src), tag
		switch rng.IntN(10) {
		case 0:
			st = Any
		case 1:
			rp = Any
		case 2:
			rt = Any
		case 3:
			rp, rt = Any, Any
		}
		sends[src] = append(sends[src], msg{uint32(dst), st})
		recvs[dst] = append(recvs[dst], msg{rp, rt})
	}
	for r := range P {
		b.StartRank(r)
		gate := b.Calc(uint64(rng.IntN(200_000)), 0, "")
		for _, m := range sends[r] {
			s := b.Send(8, m.peer, m.tag, 0, 0, "")
			if rng.IntN(2) == 0 {
				b.Requires(s, gate)
			}
		}
		for _, m := range recvs[r] {
			rv := b.Recv(8, m.peer, m.tag, 0, 0, "")
			if rng.IntN(3) == 0 {
				b.Requires(rv, gate)
			}
		}
		if err := b.EndRank(); err != nil {
			t.Fatal(err)
		}
	}
	s, err := b.Schedule()
	if err != nil {
		t.Fatal(err)
	}
	return s
}

var popsField = regexp.MustCompile(`pops=\d+ `)

// diffCases are the pinned runs' schedules, the adversarial shapes at
// two small sizes and matchSchedule's.
func diffCases(t *testing.T) []pinnedCase {
	cs := pinnedCases(t)
	perByte := Params{L: 900, Overhead: 300, Gap: 400, GapPerByte: 2, OverheadPerByte: 3, S: 100}
	for _, sh := range goalshape.Shapes {
		if sh.Cycle {
			continue
		}
		for _, n := range []int{40, 300} {
			s := shapeSchedule(t, sh.Name, n)
			cs = append(cs, pinnedCase{fmt.Sprintf("%s-%d", sh.Name, n), s, Default()},
				pinnedCase{fmt.Sprintf("%s-%d perbyte", sh.Name, n), s, perByte})
		}
	}
	for seed := range uint64(30) {
		cs = append(cs, pinnedCase{fmt.Sprintf("match %d", seed), matchSchedule(t, seed), Default()})
	}
	return cs
}

// TestWaitGroups runs every case with items that wait for a busy CPU or
// NIC grouped (wait.go) and put back one by one as LogGOPSim does: the
// runs, recorded, quiet and under every noise, are the same but for the
// count of items taken from the queue.
func TestWaitGroups(t *testing.T) {
	defer func() { literalWaits = false }()
	groupsMet := 0
	for _, c := range diffCases(t) {
		for _, nz := range pinnedNoise() {
			var fp [2]string
			var pops [2]int64
			for k, lit := range []bool{false, true} {
				literalWaits = lit
				r, err := Run(c.s, c.p, n2(nz), Options{Record: true})
				fp[k] = fingerprint(r, err)
				if r != nil {
					pops[k] = r.Pops
				}
			}
			if popsField.ReplaceAllString(fp[0], "") != popsField.ReplaceAllString(fp[1], "") {
				t.Errorf("%s %s: grouped waits\n %s\nput back one by one\n %s", c.name, nz.name, fp[0], fp[1])
			}
			if pops[0] < pops[1] {
				groupsMet++
			}
			if pops[0] > pops[1] {
				t.Errorf("%s %s: grouped waits took %d items from the queue, one by one %d", c.name, nz.name, pops[0], pops[1])
			}
		}
	}
	if groupsMet < 50 {
		t.Errorf("only %d runs had several items waiting for one clock", groupsMet)
	}
}

// TestWaitGroupsLinear: on a linear broadcast and a fan-in, the items
// taken from the queue grow as the schedule (LogGOPSim's re-insertions
// as its square).
func TestWaitGroupsLinear(t *testing.T) {
	defer func() { literalWaits = false }()
	for _, name := range []string{"linbcast", "fanout", "fanout-calc", "fanin"} {
		for _, n := range []int{500, 2000} {
			s := shapeSchedule(t, name, n)
			items := int64(s.NumOps() + s.NumSends())
			literalWaits = false
			r, err := Run(s, Default(), Noise{}, Options{})
			if err != nil {
				t.Fatal(err)
			}
			if r.Pops > 3*items {
				t.Errorf("%s-%d: %d items taken from the queue for %d operations and messages: want at most 3 each", name, n, r.Pops, items)
			}
			literalWaits = true
			rl, err := Run(s, Default(), Noise{}, Options{})
			if err != nil {
				t.Fatal(err)
			}
			if rl.Pops < int64(n)*int64(n)/4 {
				t.Errorf("%s-%d: one by one, %d items taken: the shape does not make items wait", name, n, rl.Pops)
			}
			t.Logf("%s-%d: %d items taken (one by one %d) for %d operations and messages", name, n, r.Pops, rl.Pops, items)
		}
	}
}

// TestMatchIndex runs every case with every rank's posted recvs and
// unexpected messages indexed from the first entry, walked only, and
// indexed past walkMax: the runs are the same to the last counter.
func TestMatchIndex(t *testing.T) {
	orig := walkMax
	defer func() { walkMax = orig }()
	indexed := 0
	for _, c := range diffCases(t) {
		for _, nz := range pinnedNoise()[:2] {
			var fp []string
			for _, w := range []int{orig, -1, 1 << 30} {
				walkMax = w
				var x Executor
				r, err := x.Run(c.s, c.p, n2(nz), Options{Record: true})
				fp = append(fp, fingerprint(r, err))
				if w == -1 && (x.e.pIndexed != nil || x.e.uIndexed != nil) {
					indexed++
				}
			}
			if fp[0] != fp[1] || fp[0] != fp[2] {
				t.Errorf("%s %s: runs differ\n past walkMax %s\n     indexed %s\n      walked %s", c.name, nz.name, fp[0], fp[1], fp[2])
			}
		}
	}
	if indexed < 100 {
		t.Errorf("only %d runs indexed a queue", indexed)
	}
}

package goal

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"commlab/internal/prefetch"
)

// TestPlacesKeepRuns: the layout moves operations, never a result. Every
// pinned case and a ring stated backwards (dependencies on operations
// further down the file, so levels follow Kahn's order) is built four
// ways: kept in file order (blocks of one rank), cut into blocks of 3
// ranks or 40 operations (many blocks, ranks alone in theirs, the
// large-rank path), as Read lays it out, and written out by Write and
// read back with its size known to be small (no layout, no pos). All
// must give the same schedule through the exported accessors and the
// same runs, recorded timelines and critical paths included
// (fingerprint), quiet and under every noise model.
func TestPlacesKeepRuns(t *testing.T) {
	defer func(r, o int) { layoutRanks, layoutOps = r, o }(layoutRanks, layoutOps)
	build := func(ranks, ops int) []pinnedCase {
		layoutRanks, layoutOps = ranks, ops
		return append(pinnedCases(t), backwardRing(t, 7), backwardRing(t, 40))
	}
	kept := build(1, 1<<30)
	for _, c := range kept {
		for i := range c.s.NumOps() {
			if c.s.place(i) != uint32(i) {
				t.Fatalf("%s: blocks of one rank moved op %d to place %d", c.name, i, c.s.place(i))
			}
		}
	}
	laid := build(4096, 1<<18)
	small := make([]pinnedCase, len(laid))
	for k, c := range laid {
		var buf bytes.Buffer
		if err := Write(&buf, c.s); err != nil {
			t.Fatal(err)
		}
		s, err := Read(&buf, "w.goal", ReadOptions{SizeHint: int64(buf.Len())})
		if err != nil {
			t.Fatal(err)
		}
		if s.pos != nil {
			t.Fatalf("%s: a schedule of %d bytes of text was laid out", c.name, buf.Len())
		}
		small[k] = pinnedCase{c.name, s, c.p}
	}
	for _, v := range []struct {
		name  string
		cases []pinnedCase
	}{{"blocks of 3 ranks/40 ops", build(3, 40)}, {"as read", laid}, {"written, read small", small}} {
		moved := 0
		for k, c := range kept {
			d := v.cases[k]
			for i := range d.s.NumOps() {
				if d.s.place(i) != uint32(i) {
					moved++
				}
			}
			if !equalSchedules(c.s, d.s) {
				t.Errorf("%s: %s reads back differently", v.name, c.name)
				continue
			}
			for i := range c.s.NumOps() {
				if l := d.s.Label(i); l != c.s.Label(i) && d.s.labels != nil {
					t.Fatalf("%s: %s: label %d %q, kept in order %q", v.name, c.name, i, l, c.s.Label(i))
				}
			}
			for _, nz := range pinnedNoise() {
				for _, rec := range []bool{false, true} {
					want := fingerprint(Run(c.s, c.p, n2(nz), Options{Record: rec}))
					if got := fingerprint(Run(d.s, d.p, n2(nz), Options{Record: rec})); got != want {
						t.Errorf("%s: %s %s record=%v:\n got %s\nwant %s", v.name, c.name, nz.name, rec, got, want)
					}
				}
			}
		}
		if moved == 0 && layoutBuild && v.cases[0].s.pos != nil {
			t.Fatalf("%s moved nothing: the test tests nothing", v.name)
		}
	}
}

// backwardRing is a ring of P ranks whose GOAL text states every rank's
// operations in the reverse of the order they run (a send that requires
// the calc after it, which requires the recv after that, one irequires),
// with labels: a file order that is not a topological order.
func backwardRing(t *testing.T, P int) pinnedCase {
	var b strings.Builder
	fmt.Fprintf(&b, "num_ranks %d\n", P)
	rng := rand.New(rand.NewPCG(uint64(P), 7))
	for r := range P {
		fmt.Fprintf(&b, "rank %d {\nout: send %db to %d tag 1\nwork: calc %d\n", r, 8+rng.IntN(2000), (r+1)%P, rng.IntN(500))
		fmt.Fprintf(&b, "in: recv 8b from %d tag 1\nnote: calc 5\nout requires work\nnote irequires out\n", (r+P-1)%P)
		if r != 0 { // rank 0 starts the ring
			b.WriteString("work requires in\n")
		}
		b.WriteString("}\n")
	}
	return pinnedCase{fmt.Sprintf("backward ring P=%d", P), mustRead(t, b.String()), Default()}
}

// TestPlacesByLevel: in a butterfly allreduce each rank's send, recv and
// reduction of a stage lie together, and the next rank's of the same
// stage right after them (the recv, posted at time 0, beside the
// reduction that waits for it): a stage's sweep over the ranks reads the
// operations in order. Stage 1's sends wait for nothing and nothing
// waits for them: level 0, every rank's, before stage 1's recvs and
// reductions (level 1).
func TestPlacesByLevel(t *testing.T) {
	if !layoutBuild {
		t.Skip("this build keeps schedules in file order (layout_js.go)")
	}
	const P, K = 16, 4
	s := butterfly(t, P, 0)
	for r := range P {
		first, _ := s.RankOps(r)
		for k := 1; k <= K; k++ {
			i := first + 3*(k-1) // send, recv, calc of stage k
			want := [3]uint32{uint32(r), uint32(P + 2*r), uint32(P + 2*r + 1)}
			if k > 1 {
				u := uint32(3*P*(k-1) + 3*r)
				want = [3]uint32{u, u + 1, u + 2}
			}
			if got := [3]uint32{s.place(i), s.place(i + 1), s.place(i + 2)}; got != want {
				t.Fatalf("rank %d stage %d: send, recv, calc in places %v, want %v", r, k, got, want)
			}
		}
	}
}

// TestScattered: prefetching is left to the CPU where a stage sweeps the
// ranks in order (a butterfly: no bucket prefetched) and done where
// messages land at random ranks (random partners: most buckets).
func TestScattered(t *testing.T) {
	if !prefetch.Works {
		t.Skip("prefetching does nothing on this architecture, and the executor skips it")
	}
	defer func(v int) { pfMinOps = v }(pfMinOps)
	pfMinOps = 0
	const P, K = 4096, 12
	var bf, rp strings.Builder
	if err := butterflyText(&bf, P, 0); err != nil {
		t.Fatal(err)
	}
	if err := randomPairsText(&rp, P, K); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name      string
		text      string
		scattered bool
	}{{"butterfly", bf.String(), false}, {"random pairs", rp.String(), true}} {
		var x Executor
		if _, err := x.Run(mustRead(t, c.text), Default(), Noise{}, Options{}); err != nil {
			t.Fatal(err)
		}
		n, of := x.e.pfBuckets, x.e.q.refills
		t.Logf("%s: %d of %d buckets prefetched", c.name, n, of)
		if c.scattered && n < of/2 || !c.scattered && n > 0 {
			t.Errorf("%s: %d of %d buckets prefetched, want %s", c.name, n, of, map[bool]string{true: "most", false: "none"}[c.scattered])
		}
	}
}

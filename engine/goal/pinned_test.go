package goal

import (
	"bufio"
	"bytes"
	"flag"
	"fmt"
	"hash/fnv"
	"math/rand/v2"
	"os"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite testdata/pinned.golden from the current executor")

// TestPinnedRuns pins everything a run produces (end, per-rank ends,
// counters, the recorded timeline and the critical path, as a hash) on
// the examples, butterflies and seeded random schedules (wildcards,
// irequires, several CPUs and NICs, rendezvous, stuck runs, many ops freed
// at once), quiet and under each noise model. Results past the eight
// LogGOPSim answers of expected.tsv were taken from the executor that
// matched them, so a faster executor has to give the same runs, event by
// event. Do not edit testdata/pinned.golden; rewrite it with -update only
// for an intended change of semantics, and say why in the commit.
func TestPinnedRuns(t *testing.T) {
	var out bytes.Buffer
	// Recorded runs prefetch (as large schedules do), the others do not:
	// prefetching must not change a run.
	defer func(v int) { pfMinOps, pfEvery = v, false }(pfMinOps)
	pfEvery = true
	for _, c := range pinnedCases(t) {
		for _, nz := range pinnedNoise() {
			var x Executor
			for _, rec := range []bool{false, true} {
				n := nz.n
				if nz.seed != 0 {
					n.Rand = rand.New(rand.NewPCG(nz.seed, 99))
				}
				pfMinOps = 1 << 40
				if rec {
					pfMinOps = 0
				}
				r, err := x.Run(c.s, c.p, n, Options{Record: rec})
				if rec {
					fp := fingerprint(r, err)
					fmt.Fprintf(&out, "%s\t%s\t%s\n", c.name, nz.name, fp)
					// A third run of the schedule on x starts from the
					// dependency counts x kept.
					r3, err3 := x.Run(c.s, c.p, n2(nz), Options{Record: true})
					if fp3 := fingerprint(r3, err3); fp3 != fp {
						t.Errorf("%s %s: a rerun on the same Executor gives %s, the run before %s", c.name, nz.name, fp3, fp)
					}
				} else if r2, err2 := Run(c.s, c.p, n2(nz), Options{Record: true}); fingerprint(r, err) != fingerprint(stripRecord(r2), err2) {
					t.Errorf("%s %s: the run without Record differs from the recorded one", c.name, nz.name)
				}
			}
		}
	}
	const path = "testdata/pinned.golden"
	if *update {
		if err := os.WriteFile(path, out.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	got := strings.Split(out.String(), "\n")
	exp := strings.Split(string(want), "\n")
	if len(got) != len(exp) {
		t.Fatalf("%d runs, %s has %d", len(got)-1, path, len(exp)-1)
	}
	bad := 0
	for i := range got {
		if got[i] != exp[i] {
			if bad++; bad <= 10 {
				t.Errorf("run differs:\n got %s\nwant %s", got[i], exp[i])
			}
		}
	}
	if bad > 0 {
		t.Errorf("%d of %d runs differ from %s", bad, len(got)-1, path)
	}
}

func n2(nz pinnedNz) Noise {
	n := nz.n
	if nz.seed != 0 {
		n.Rand = rand.New(rand.NewPCG(nz.seed, 99))
	}
	return n
}

func stripRecord(r *Result) *Result {
	if r == nil {
		return nil
	}
	c := *r
	c.Timeline, c.Critical = nil, nil
	return &c
}

// fingerprint is a run's counters in clear and a hash of the rest.
func fingerprint(r *Result, err error) string {
	if r == nil {
		return fmt.Sprintf("error %v", err)
	}
	h := fnv.New64a()
	fmt.Fprint(h, r.RankEnd, err)
	if r.Timeline != nil {
		fmt.Fprint(h, r.Timeline.Ops, r.Timeline.Messages, r.Critical)
	}
	st := "ok"
	if err != nil {
		st = "stuck"
	}
	return fmt.Sprintf("%s end=%d rank=%d ops=%d msgs=%d events=%d pops=%d stall=%d hash=%016x",
		st, r.End, r.EndRank, r.Ops, r.Messages, r.Events, r.Pops, r.Stall, h.Sum64())
}

type pinnedCase struct {
	name string
	s    *Schedule
	p    Params
}

type pinnedNz struct {
	name string
	n    Noise
	seed uint64
}

func pinnedNoise() []pinnedNz {
	tr, err := ReadNoiseTrace(strings.NewReader("0\t0\n1000\t800\n5000\t300\n9000\t2000\n20000\t0\n"), "n")
	if err != nil {
		panic(err)
	}
	return []pinnedNz{
		{name: "quiet"},
		{"trace", Noise{Trace: tr}, 1},
		{"trace-cosched", Noise{Trace: tr, CoScheduled: true}, 2},
		{"os", Noise{OS: &OSJitter{Period: 7000, Duration: 900}}, 3},
		{"os+net", Noise{OS: &OSJitter{Period: 7000, Duration: 900, CoScheduled: true}, Net: &NetNoise{Mean: 3000, Delay: 700}}, 4},
	}
}

func pinnedCases(t *testing.T) []pinnedCase {
	setB := Params{L: 3000, Overhead: 1000, Gap: 2000, GapPerByte: 4, OverheadPerByte: 0, S: 1024}
	perByte := Params{L: 900, Overhead: 300, Gap: 400, GapPerByte: 2, OverheadPerByte: 3, S: 100}
	var cs []pinnedCase
	f, err := os.Open("testdata/examples/expected.tsv")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		cols := strings.Split(sc.Text(), "\t")
		s := readFile(t, "testdata/examples/"+cols[0], false)
		cs = append(cs, pinnedCase{cols[0] + " " + cols[1], s, parseFlags(t, cols[1])})
	}
	for _, c := range []struct{ P, T int }{{64, 0}, {256, 3}} {
		var b strings.Builder
		if err := butterflyText(&b, c.P, c.T); err != nil {
			t.Fatal(err)
		}
		s := mustRead(t, b.String())
		cs = append(cs, pinnedCase{fmt.Sprintf("butterfly P=%d T=%d", c.P, c.T), s, Default()},
			pinnedCase{fmt.Sprintf("butterfly P=%d T=%d perbyte", c.P, c.T), s, perByte})
	}
	for seed := range uint64(40) {
		s := randomSchedule(t, seed)
		p := [...]Params{Default(), setB, perByte}[seed%3]
		cs = append(cs, pinnedCase{fmt.Sprintf("random %d", seed), s, p})
	}
	return cs
}

// randomSchedule builds a schedule from a seed: messages between random
// ranks (some recvs from any source or with any tag, sizes on both sides
// of every S used), calcs, shuffled per rank, with forward requires and
// irequires edges and now and then one op that many others wait for.
func randomSchedule(t *testing.T, seed uint64) *Schedule {
	rng := rand.New(rand.NewPCG(seed, 12345))
	P := 2 + rng.IntN(9)
	type o struct {
		k         Kind
		peer, tag uint32
		size      uint64
		cpu, nic  uint8
	}
	ops := make([][]o, P)
	sizes := []uint64{1, 8, 100, 101, 1024, 1025, 65535, 65536, 200000}
	for m := range 5 + rng.IntN(60) {
		src := rng.IntN(P)
		dst := (src + 1 + rng.IntN(P-1)) % P
		tag := uint32(rng.IntN(3))
		if seed%2 == 0 {
			tag = uint32(m)
		}
		size := sizes[rng.IntN(len(sizes))]
		var cpu, nic uint8
		if seed%4 == 1 {
			cpu, nic = uint8(rng.IntN(3)), uint8(rng.IntN(2))
		}
		ops[src] = append(ops[src], o{Send, uint32(dst), tag, size, cpu, nic})
		rp, rt := uint32(src), tag
		if rng.IntN(7) == 0 && seed%2 == 1 {
			rp = Any
		}
		if rng.IntN(7) == 0 && seed%2 == 1 {
			rt = Any
		}
		ops[dst] = append(ops[dst], o{Recv, rp, rt, size, cpu, nic})
	}
	// Odd seeds shuffle each rank's ops (and mostly deadlock); even seeds
	// keep the messages' global order, which forward edges cannot
	// deadlock (short of a wildcard taking another's message).
	for r := range P {
		for range rng.IntN(8) {
			var cpu uint8
			if seed%4 == 1 {
				cpu = uint8(rng.IntN(3))
			}
			i := rng.IntN(len(ops[r]) + 1)
			ops[r] = append(ops[r][:i], append([]o{{k: Calc, size: uint64(rng.IntN(3000)), cpu: cpu}}, ops[r][i:]...)...)
		}
		if seed%2 == 1 {
			rng.Shuffle(len(ops[r]), func(i, j int) { ops[r][i], ops[r][j] = ops[r][j], ops[r][i] })
		}
	}
	b := NewBuilder(P, false, 0)
	for r := range P {
		b.StartRank(r)
		ids := make([]OpID, len(ops[r]))
		for i, x := range ops[r] {
			switch x.k {
			case Send:
				ids[i] = b.Send(x.size, x.peer, x.tag, x.cpu, x.nic, "")
			case Recv:
				ids[i] = b.Recv(x.size, x.peer, x.tag, x.cpu, x.nic, "")
			default:
				ids[i] = b.Calc(x.size, x.cpu, "")
			}
		}
		hub := -1
		if len(ids) > 20 && rng.IntN(2) == 0 {
			hub = rng.IntN(3)
		}
		for j := 1; j < len(ids); j++ {
			if hub >= 0 && j > hub {
				b.Requires(ids[j], ids[hub])
				continue
			}
			for range rng.IntN(3) {
				i := rng.IntN(j)
				if rng.IntN(4) == 0 {
					b.IRequires(ids[j], ids[i])
				} else {
					b.Requires(ids[j], ids[i])
				}
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

package overlay

import (
	"math"
	"slices"
	"testing"

	"commlab/engine/trace"
)

// A send pays select()'s scan of the connections open when the CPU gets to
// it, not of those open when it was posted: under the kernel's handshake
// shortcuts open in the middle of an exchange whose chunks were all posted
// at its start, and the later chunks pay for them. Every send span's
// length is MsgCPU + PollPerConn × the connections its process had open at
// the span's start (replayed from the connection events; at a time with
// several events, any count between them).
func TestSelectScanAtStart(t *testing.T) {
	p := small()
	p.Nodes, p.Procs, p.Switches, p.Cache = 8, 16, 3, 2
	p.ChunkBytes = 16
	var rec trace.Trace
	r, err := RunIS(p, rng(11), &rec)
	if err != nil {
		t.Fatal(err)
	}
	// open[q] after each event, in order, with its time.
	type step struct {
		time float64
		open int
	}
	hist := make([][]step, p.Procs)
	open, static := make([]int, p.Procs), make([]int, p.Procs)
	add := func(q int32, d int, at float64) {
		open[q] += d
		hist[q] = append(hist[q], step{at, open[q]})
	}
	for _, e := range r.Events {
		switch e.Kind {
		case Open:
			static[e.From]++
			static[e.To]++
			fallthrough
		case ShortcutOpen:
			add(e.From, 1, e.Time)
			add(e.To, 1, e.Time)
		case Evict:
			add(e.From, -1, e.Time)
			add(e.To, -1, e.Time)
		}
	}
	// counts is the range of q's open connections at time x.
	counts := func(q int, x float64) (lo, hi int) {
		lo, hi, cur := math.MaxInt, -1, 0
		for _, s := range hist[q] {
			if s.time > x {
				break
			}
			if s.time == x {
				lo, hi = min(lo, cur, s.open), max(hi, cur, s.open)
			}
			cur = s.open
		}
		return min(lo, cur), max(hi, cur)
	}
	checked, moved := 0, 0
	for _, sp := range rec.Spans {
		if sp.Label != "send" {
			continue
		}
		n := (sp.End - sp.Start - p.MsgCPU) / p.PollPerConn
		lo, hi := counts(sp.Lane, sp.Start)
		if n < float64(lo)-1e-6 || n > float64(hi)+1e-6 {
			t.Fatalf("P%d's send at %g scans %.3f connections, it had %d…%d open", sp.Lane, sp.Start, n, lo, hi)
		}
		checked++
		if lo > static[sp.Lane] {
			moved++
		}
	}
	if checked == 0 || moved == 0 {
		t.Fatalf("%d sends checked, %d with a shortcut open; the case must open shortcuts during exchanges", checked, moved)
	}
}

// One seed gives every policy and pattern the same keys, and every policy
// the same random orders (common random numbers): the random policy draws
// its connections last.
func TestCommonKeys(t *testing.T) {
	p := small()
	p.Nodes, p.Procs, p.Switches, p.RandomDegree = 8, 16, 3, 6
	tree, err := Cluster(p)
	if err != nil {
		t.Fatal(err)
	}
	cl, err := fromTree(tree, p.Procs)
	if err != nil {
		t.Fatal(err)
	}
	var counts0, perm0 []int32
	for i, pol := range Policies {
		for _, pat := range Patterns {
			q := p
			q.Policy, q.Pattern = pol, pat
			_, counts, perm := draw(q, cl, rng(5))
			if i == 0 && pat == PatternShift {
				counts0 = counts
			}
			if i == 0 && pat == PatternRandom {
				perm0 = perm
			}
			if !slices.Equal(counts, counts0) {
				t.Errorf("%s, %s: other keys than the topology policy's", pol, pat)
			}
			if pat == PatternRandom && !slices.Equal(perm, perm0) {
				t.Errorf("%s: other random orders than the topology policy's", pol)
			}
		}
	}
}

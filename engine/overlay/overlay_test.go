package overlay

import (
	"errors"
	"math/rand/v2"
	"reflect"
	"slices"
	"testing"

	"commlab/engine/topology"
	"commlab/engine/trace"
)

func rng(seed uint64) *rand.Rand { return rand.New(rand.NewPCG(seed, 7)) }

// small is a quick sort: 4 processes on 4 nodes over 2 switches.
func small() Params {
	p := Default()
	p.Nodes, p.Procs, p.Switches, p.Cache = 4, 4, 2, 1
	p.RandomDegree = 2
	p.Keys, p.MaxKey, p.Buckets, p.Iterations = 4000, 1<<12, 256, 2
	return p
}

// With switches {0, 1} and {2, 3} the k-th process of one switch picks the
// k-th of the other, and the two picks coincide: 0–2 and 1–3.
func TestStaticTopologyHand(t *testing.T) {
	got := staticTopology([]int{1, 1, 2, 2})
	want := [][]int{{1, 2}, {0, 3}, {0, 3}, {1, 2}}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("static = %v, want %v", got, want)
	}
	next := routes(got, []int{1, 1, 2, 2}, Topology)
	// 0 reaches 3 through its own connection into 3's switch, 2.
	if next[0*4+3] != 2 || next[1*4+2] != 3 || next[0*4+1] != 1 {
		t.Errorf("routes 0→3 via %d, 1→2 via %d, 0→1 via %d; want 2, 3, 1", next[3], next[6], next[1])
	}
}

// The paper's experiment: 128 processes, 64 nodes, 6 switches. Static
// connections stay at most 31 (the paper's count), "all" is 127 and
// "random" 64 for every process.
func TestConnectionCountsPaper(t *testing.T) {
	p := Default()
	tree, err := Cluster(p)
	if err != nil {
		t.Fatal(err)
	}
	cl, err := fromTree(tree, p.Procs)
	if err != nil {
		t.Fatal(err)
	}
	topo, err := Static(topology.PaperExperiment(), p.Procs)
	if err != nil {
		t.Fatal(err)
	}
	if again := staticTopology(cl.procLeaf); !reflect.DeepEqual(topo, again) {
		t.Fatal("Cluster(Default()) is not the paper's experiment")
	}
	groups, _ := leafGroups(cl.procLeaf)
	for a, ns := range topo {
		own := len(groups[cl.procLeaf[a]]) - 1
		// All of its own switch, and at least one of each of the 5 others.
		if len(ns) > 31 || len(ns) < own+p.Switches-1 {
			t.Errorf("topology: process %d has %d static connections, want in [%d, 31]", a, len(ns), own+p.Switches-1)
		}
		perSwitch := map[int]int{}
		for _, b := range ns {
			perSwitch[cl.procLeaf[b]]++
		}
		if len(perSwitch) != p.Switches {
			t.Errorf("topology: process %d reaches %d switches, want %d", a, len(perSwitch), p.Switches)
		}
	}
	// Spread: no process is the contact of more than ⌈|A|/|S|⌉ of another
	// switch A's processes.
	for s, g := range groups {
		for _, b := range g {
			from := map[int]int{}
			for _, a := range topo[b] {
				if l := cl.procLeaf[a]; l != s {
					from[l]++
				}
			}
			for l, n := range from {
				if limit := (len(groups[l]) + len(g) - 1) / len(g); n > limit {
					t.Errorf("process %d serves %d processes of switch %d, want at most %d", b, n, l, limit)
				}
			}
		}
	}
	for _, a := range staticAll(p.Procs) {
		if len(a) != 127 {
			t.Fatalf("all: %d connections, want 127", len(a))
		}
	}
	for i, a := range staticRandom(p.Procs, 64, rng(1)) {
		if len(a) != 64 || slices.Contains(a, i) {
			t.Fatalf("random: process %d has %d connections (self included: %v), want 64", i, len(a), slices.Contains(a, i))
		}
	}
	// The same through RunIS, with the shortcuts on top: a shortcut takes
	// a slot at both ends, so no process exceeds static + C.
	for _, c := range []struct {
		pol         Policy
		static, max float64
	}{{Topology, 31, 31 + 8}, {All, 127, 127}, {Random, 64, 64 + 8}} {
		p := Default()
		p.Policy, p.Iterations, p.Keys = c.pol, 1, 1<<16
		r, err := RunIS(p, rng(2), nil)
		if err != nil {
			t.Fatal(err)
		}
		if r.StaticMax > c.static || r.ConnMax > c.max {
			t.Errorf("%s: static max %g, open max %g; want ≤ %g and ≤ %g", c.pol, r.StaticMax, r.ConnMax, c.static, c.max)
		}
		if c.pol != Topology && r.StaticMean != c.static {
			t.Errorf("%s: static mean %g, want %g", c.pol, r.StaticMean, c.static)
		}
	}
}

// A relayed message opens a shortcut, and once both shortcuts of the small
// case are ready nothing is relayed again: a third iteration relays no more
// than two did.
func TestRelayOpensShortcut(t *testing.T) {
	p := small()
	r2, err := RunIS(p, rng(3), nil)
	if err != nil {
		t.Fatal(err)
	}
	// 0→3, 3→0, 1→2, 2→1 have no static connection; 0–3 and 1–2 are the
	// shortcuts, whichever end opens them.
	// Each such pair sees a send count and a key message per iteration:
	// until a shortcut is ready (a round trip after the first relay under
	// the kernel's handshake), at most those of the first iteration are
	// relayed.
	if r2.ShortcutsOpened != 2 || r2.Evicted != 0 || r2.Relayed < 2 || r2.Relayed > 8 {
		t.Errorf("shortcuts %d, evicted %d, relayed %d; want 2, 0, 2…8", r2.ShortcutsOpened, r2.Evicted, r2.Relayed)
	}
	var open, ready []ConnEvent
	for _, e := range r2.Events {
		switch e.Kind {
		case ShortcutOpen:
			open = append(open, e)
		case ShortcutReady:
			ready = append(ready, e)
		case Relay:
			if e.Via != 2 && e.Via != 3 && e.Via != 0 && e.Via != 1 {
				t.Errorf("relay through %d", e.Via)
			}
		}
	}
	if len(open) != 2 || len(ready) != 2 {
		t.Fatalf("%d shortcut opens, %d ready; want 2 and 2", len(open), len(ready))
	}
	for _, e := range open {
		if pair := [2]int32{min(e.From, e.To), max(e.From, e.To)}; pair != [2]int32{0, 3} && pair != [2]int32{1, 2} {
			t.Errorf("shortcut %d–%d, want 0–3 or 1–2", e.From, e.To)
		}
	}
	p.Iterations = 3
	r3, err := RunIS(p, rng(3), nil)
	if err != nil {
		t.Fatal(err)
	}
	if r3.Relayed != r2.Relayed || r3.ShortcutsOpened != 2 {
		t.Errorf("3 iterations relayed %d (opened %d), 2 iterations %d: shortcuts must end relaying", r3.Relayed, r3.ShortcutsOpened, r2.Relayed)
	}
	// Without a cache everything without a static connection is relayed:
	// 4 such pairs, a send count and a key message each, per iteration.
	p.Cache = 0
	r0, err := RunIS(p, rng(3), nil)
	if err != nil {
		t.Fatal(err)
	}
	if r0.Relayed != 8*p.Iterations || r0.ShortcutsOpened != 0 {
		t.Errorf("cache 0: relayed %d, shortcuts %d; want %d, 0", r0.Relayed, r0.ShortcutsOpened, 8*p.Iterations)
	}
}

// C = 1 evicts the only shortcut for the next; C = 2 evicts the least
// recently used, sent or received on; a full far end evicts its own LRU.
func TestShortcutCacheLRU(t *testing.T) {
	none := make([][]int, 6)
	cs := NewConnections(none, 1, nil)
	if id, ev := cs.OpenShortcut(0, 2); id < 0 || len(ev) != 0 || cs.Ready(0, 2) || !cs.Connected(2, 0) {
		t.Fatalf("first shortcut: id %d, evictions %v, ready %v", id, ev, cs.Ready(0, 2))
	}
	_, ev := cs.OpenShortcut(0, 3)
	if want := []Eviction{{From: 0, To: 2, By: 0}}; !reflect.DeepEqual(ev, want) || cs.Connected(0, 2) || cs.Open(2) != 0 {
		t.Fatalf("C=1: evictions %v, want %v", ev, want)
	}

	cs = NewConnections(none, 2, nil)
	a, _ := cs.OpenShortcut(0, 2)
	cs.OpenShortcut(0, 3)
	if !cs.SetReady(a) || !cs.Ready(2, 0) {
		t.Fatal("SetReady on an open shortcut")
	}
	cs.Touch(2, 0) // 0–2 received on: now 0–3 is the least recently used
	if got := cs.Shortcuts(0); !reflect.DeepEqual(got, []int{3, 2}) {
		t.Errorf("LRU order %v, want [3 2]", got)
	}
	_, ev = cs.OpenShortcut(0, 4)
	if want := []Eviction{{From: 0, To: 3, By: 0}}; !reflect.DeepEqual(ev, want) {
		t.Errorf("C=2: evictions %v, want %v", ev, want)
	}
	if cs.Open(0) != 2 || cs.Peak(0) != 2 {
		t.Errorf("process 0: %d open, peak %d; want 2, 2", cs.Open(0), cs.Peak(0))
	}
	// 5's cache is empty but 4's holds 0–4 only (C=2, room for one more):
	// 1–4 evicts nothing; then 5–4 finds 4 full and evicts its LRU, 0–4.
	cs.OpenShortcut(1, 4)
	_, ev = cs.OpenShortcut(5, 4)
	if want := []Eviction{{From: 0, To: 4, By: 4}}; !reflect.DeepEqual(ev, want) {
		t.Errorf("far end full: evictions %v, want %v", ev, want)
	}
	if id, _ := cs.OpenShortcut(5, 4); id >= 0 {
		t.Error("opened a second shortcut between connected processes")
	}
	if !cs.Connected(0, 2) || cs.Connected(0, 4) {
		t.Error("0–2 must stay open (only 0–3 and 0–4 were evicted)")
	}
	c0 := NewConnections(none, 0, nil)
	if id, _ := c0.OpenShortcut(0, 1); id >= 0 {
		t.Error("C=0 opened a shortcut")
	}
}

// All connects every pair: nothing is ever relayed, no shortcut opened.
func TestAllNeverRelays(t *testing.T) {
	p := small()
	p.Policy = All
	r, err := RunIS(p, rng(4), nil)
	if err != nil {
		t.Fatal(err)
	}
	if r.Relayed != 0 || r.ShortcutsOpened != 0 || r.ConnMax != 3 {
		t.Errorf("relayed %d, shortcuts %d, max connections %g; want 0, 0, 3", r.Relayed, r.ShortcutsOpened, r.ConnMax)
	}
	for _, e := range r.Events {
		if e.Kind == Relay {
			t.Fatalf("relay event %+v", e)
		}
	}
}

// Relaying under the topology policy spreads over the processes: none
// relays more than twice the mean.
func TestRelaySpread(t *testing.T) {
	p := Default()
	p.Cache, p.Iterations, p.Keys = 0, 1, 1<<16
	r, err := RunIS(p, rng(5), nil)
	if err != nil {
		t.Fatal(err)
	}
	load := make([]int, p.Procs)
	n := 0
	for _, e := range r.Events {
		if e.Kind == Relay {
			load[e.Via]++
			n++
		}
	}
	if n != r.Relayed || n == 0 {
		t.Fatalf("%d relay events, %d relayed messages", n, r.Relayed)
	}
	if mx, mean := slices.Max(load), float64(n)/float64(p.Procs); float64(mx) > 2*mean {
		t.Errorf("busiest relay forwards %d messages, mean %g", mx, mean)
	}
}

// Every key drawn is sent to exactly one process, and NPB's split gives
// every process about Keys/P of them (within the largest bucket).
func TestCountsPartitionKeys(t *testing.T) {
	p := Default()
	p.Keys = 1 << 18
	c := drawCounts(p, rng(6))
	var total int64
	recv := make([]int64, p.Procs)
	for i, n := range c {
		total += int64(n)
		recv[i%p.Procs] += int64(n)
	}
	if total != int64(p.Keys) {
		t.Fatalf("%d keys counted, want %d", total, p.Keys)
	}
	for j, n := range recv[:p.Procs-1] {
		if n < int64(p.Keys/p.Procs)/2 || n > 2*int64(p.Keys/p.Procs) {
			t.Errorf("process %d receives %d keys, want about %d", j, n, p.Keys/p.Procs)
		}
	}
}

func TestTraceValid(t *testing.T) {
	for _, pol := range Policies {
		p := small()
		p.Policy = pol
		p.Nodes, p.Procs, p.Switches, p.Cache, p.RandomDegree = 6, 12, 3, 2, 4
		var rec trace.Trace
		r, err := RunIS(p, rng(8), &rec)
		if err != nil {
			t.Fatal(err)
		}
		if err := trace.Validate(&rec); err != nil {
			t.Errorf("%s: %v", pol, err)
		}
		if len(rec.Lanes) != p.Procs || len(rec.Messages) < r.Messages+r.Relayed {
			t.Errorf("%s: %d lanes, %d message hops for %d messages (%d relayed)", pol, len(rec.Lanes), len(rec.Messages), r.Messages, r.Relayed)
		}
		// The sort ends with the last ranking (handshakes started late may
		// finish after it).
		var end float64
		for _, sp := range rec.Spans {
			if sp.Label == "rank" {
				end = max(end, sp.End)
			}
		}
		if end != r.Time || rec.End() < r.Time {
			t.Errorf("%s: last ranking ends at %g, trace at %g, sort at %g", pol, end, rec.End(), r.Time)
		}
		if !slices.IsSortedFunc(r.Events, func(a, b ConnEvent) int {
			switch {
			case a.Time < b.Time:
				return -1
			case a.Time > b.Time:
				return 1
			}
			return 0
		}) {
			t.Errorf("%s: events out of time order", pol)
		}
	}
}

func TestDeterministic(t *testing.T) {
	for _, pol := range Policies {
		p := small()
		p.Policy = pol
		p.Nodes, p.Procs, p.Switches, p.Cache, p.RandomDegree = 8, 16, 3, 2, 6
		a, err := RunIS(p, rng(9), nil)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := RunIS(p, rng(9), nil)
		if !reflect.DeepEqual(a, b) {
			t.Errorf("%s: same seed, different results", pol)
		}
	}
}

func TestBadParams(t *testing.T) {
	for field, f := range map[string]func(*Params){
		"nodes":           func(p *Params) { p.Nodes = 0 },
		"procs":           func(p *Params) { p.Procs = 63 },
		"switches":        func(p *Params) { p.Switches = 65 },
		"policy":          func(p *Params) { p.Policy = "mesh" },
		"cache":           func(p *Params) { p.Cache = -1 },
		"random_degree":   func(p *Params) { p.Policy, p.RandomDegree = Random, 63 },
		"keys":            func(p *Params) { p.Keys = 1 << 28 },
		"max_key":         func(p *Params) { p.MaxKey = 1 },
		"buckets":         func(p *Params) { p.Buckets = 0 },
		"iterations":      func(p *Params) { p.Iterations = 101 },
		"key_bytes":       func(p *Params) { p.KeyBytes = 0 },
		"key_time":        func(p *Params) { p.KeyTime = -1 },
		"latency":         func(p *Params) { p.Latency = 2 },
		"hop_latency":     func(p *Params) { p.HopLatency = -1e-6 },
		"bandwidth":       func(p *Params) { p.Bandwidth = 0 },
		"msg_cpu":         func(p *Params) { p.MsgCPU = -1 },
		"poll_per_conn":   func(p *Params) { p.PollPerConn = 1.5 },
		"relay_cpu":       func(p *Params) { p.RelayCPU = -1 },
		"relay_bandwidth": func(p *Params) { p.RelayBandwidth = -1 },
		"handshake_cpu":   func(p *Params) { p.HandshakeCPU = -1 },
		"handshake":       func(p *Params) { p.Handshake = "user" },
		"teardown_cpu":    func(p *Params) { p.TeardownCPU = 2 },
	} {
		p := Default()
		f(&p)
		_, err := RunIS(p, rng(1), nil)
		var re *RangeError
		if !errors.As(err, &re) || re.Field != field {
			t.Errorf("%s: got %v, want a RangeError on %s", field, err, field)
		}
	}
	if err := Default().Validate(); err != nil {
		t.Errorf("Default: %v", err)
	}
	if _, err := RunIS(Default(), nil, nil); err == nil {
		t.Error("nil random source accepted")
	}
}

// On a three-level tree (root, 2 middle switches, 4 leaves of 2 nodes) a
// message between the two halves crosses 5 switches and 6 links: node up,
// leaf up, middle up, middle down, leaf down, node down.
func TestPathDeepTree(t *testing.T) {
	tree, err := topology.Generate(3, 2, 2)
	if err != nil {
		t.Fatal(err)
	}
	cl, err := fromTree(tree, 8)
	if err != nil {
		t.Fatal(err)
	}
	u, v := tree.Switches[tree.LeafSwitches()[0]].Nodes[0], tree.Switches[tree.LeafSwitches()[3]].Nodes[0]
	links, hops := cl.path(u, v, nil)
	if hops != 5 || len(links) != 6 || cl.hops(u, v) != 5 || links[0] != 2*u || links[5] != 2*v+1 {
		t.Errorf("path %d→%d: links %v, %d switches; want 6 links, 5 switches", u, v, links, hops)
	}
	if w := tree.Switches[tree.LeafSwitches()[0]].Nodes[1]; cl.hops(u, w) != 1 || cl.hops(u, u) != 0 {
		t.Errorf("same switch %d switches, same node %d; want 1, 0", cl.hops(u, w), cl.hops(u, u))
	}
	// A whole sort on the paper's 112-node cluster records a valid trace.
	p := small()
	p.Nodes, p.Procs, p.Cache = 112, 112, 4
	p.Keys = 1 << 14
	var rec trace.Trace
	r, err := RunISOn(p, topology.PaperCluster(), rng(10), &rec)
	if err != nil {
		t.Fatal(err)
	}
	if err := trace.Validate(&rec); err != nil {
		t.Error(err)
	}
	// 14 per switch and 7 other switches: 13 + 7 connections each.
	if r.StaticMax != 20 || r.StaticMean != 20 {
		t.Errorf("static connections mean %g, max %g; want 20", r.StaticMean, r.StaticMax)
	}
	p.Nodes = 64
	var re *RangeError
	if _, err := RunISOn(p, topology.PaperCluster(), rng(10), nil); !errors.As(err, &re) || re.Field != "nodes" {
		t.Errorf("node count mismatch: %v", err)
	}
}

package overlay

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"testing"

	"commlab/engine/overlay"
	"commlab/scene"
	"commlab/scene/scenetest"
)

// values returns the scene's defaults with some keys changed.
func values(set map[string]string) scene.Values { return scenetest.Values(New(), set) }

func build(t testing.TB, set map[string]string) *run {
	t.Helper()
	return scenetest.Build(t, New(), set, 1).(*run)
}

func TestInfoAndFields(t *testing.T) {
	sc := New()
	fs := scenetest.CheckInfo(t, sc, "overlay", "", "cache", "policy", "nodes", "procs", "switches", "iterations", "handshake", "chunk_bytes", "join", "leave")
	// Every constant the scene does not show is the engine's default.
	p, err := Params(scene.Defaults(fs))
	if err != nil {
		t.Fatal(err)
	}
	d := overlay.Default()
	d.Cache, d.Nodes, d.Procs, d.Switches, d.Iterations = DefaultCache, DefaultNodes, DefaultProcs, DefaultSwitches, DefaultIterations
	d.Keys, d.RandomDegree = Keys, 10
	if p != d {
		t.Errorf("params %+v, want %+v", p, d)
	}
	// The handshake and the chunk size reach the engine.
	q, err := Params(values(map[string]string{KeyHandshake: "application", KeyChunk: "96"}))
	if err != nil {
		t.Fatal(err)
	}
	if q.Handshake != overlay.HandshakeApplication || q.ChunkBytes != 96 {
		t.Errorf("handshake %q, chunk_bytes %d: want application, 96", q.Handshake, q.ChunkBytes)
	}
}

// TestRandomDegree: half the possible connections, even, as the engine
// needs, for every process count the scene allows.
func TestRandomDegree(t *testing.T) {
	for procs, want := range map[int]int{4: 2, 5: 2, 16: 8, 31: 14, 32: 16, 48: 24} {
		if got := randomDegree(procs); got != want {
			t.Errorf("randomDegree(%d) = %d, want %d", procs, got, want)
		}
	}
	for procs := MinProcs; procs <= MaxProcs; procs++ {
		if _, err := Params(values(map[string]string{"procs": itoa(procs), "nodes": "2", "switches": "2", "policy": "random", "cache": "3"})); err != nil {
			t.Errorf("procs %d: %v", procs, err)
		}
	}
}

// TestNumbersAreTheEngines: every number is the engine's, run directly
// with the same parameters and seed.
func TestNumbersAreTheEngines(t *testing.T) {
	for _, set := range []map[string]string{
		nil, {"policy": "all"}, {"policy": "random"}, {"cache": "0"}, {"cache": "16"}, {"cache": "15", "procs": "16", "nodes": "16"},
		{"procs": "48", "nodes": "24", "switches": "8", "iterations": "1"},
		{"procs": "5", "nodes": "3", "switches": "1"},
		// The report's Fig. 5 links set the handshake and the chunks.
		{"handshake": "application", "chunk_bytes": "128"},
		{"chunk_bytes": "64", "cache": "8", "procs": "48", "nodes": "24", "switches": "6", "iterations": "1"},
	} {
		r := build(t, set)
		p, err := Params(values(set))
		if err != nil {
			t.Fatal(err)
		}
		res, err := overlay.RunIS(p, scene.RNG(1, 0), nil)
		if err != nil {
			t.Fatal(err)
		}
		want := map[string]float64{
			"time": res.Time, "conn_mean": res.ConnMean, "conn_max": res.ConnMax,
			"relayed": float64(res.Relayed), "shortcuts": float64(res.ShortcutsOpened), "evicted": float64(res.Evicted),
		}
		got := r.Numbers()
		for k, w := range want {
			if g, ok := got[k]; !ok || math.Float64bits(g) != math.Float64bits(w) {
				t.Errorf("%v: %s = %v, engine %v", set, k, g, w)
			}
		}
		if len(got) != len(want) {
			t.Errorf("%v: numbers %v, want the keys of %v", set, got, want)
		}
		if r.End() != res.Time || !(r.End() > 0) {
			t.Errorf("%v: End %v, engine's time %v", set, r.End(), res.Time)
		}
	}
	// The defaults relay, open shortcuts and evict; "all" does none of it.
	if n := build(t, nil).Numbers(); !(n["relayed"] > 0 && n["shortcuts"] > 0 && n["evicted"] > 0) {
		t.Errorf("defaults: %v, want relays, shortcuts and evictions", n)
	}
	if n := build(t, map[string]string{"policy": "all"}).Numbers(); n["relayed"] != 0 || n["shortcuts"] != 0 || n["conn_max"] != DefaultProcs-1 {
		t.Errorf("all: %v, want no relays or shortcuts and P-1 connections", n)
	}
}

// TestReplayAgreesWithEngine: the counters the panel replays from the
// events end where the engine's Result does: the peak open connections
// (mean and max over processes), the relayed messages, the shortcuts
// opened and evicted.
func TestReplayAgreesWithEngine(t *testing.T) {
	for _, set := range []map[string]string{nil, {"policy": "random"}, {"cache": "1", "iterations": "4"}, {"procs": "48", "nodes": "24", "switches": "8"}} {
		r := build(t, set)
		h, end := r.h, r.End()
		sum, mx := 0, 0
		for q := range r.p.Procs {
			pk := h.at(q, end).peak
			sum += pk
			mx = max(mx, pk)
		}
		if m := float64(sum) / float64(r.p.Procs); m != r.res.ConnMean || float64(mx) != r.res.ConnMax {
			t.Errorf("%v: replayed peaks mean %v max %v, engine %v %v", set, m, mx, r.res.ConnMean, r.res.ConnMax)
		}
		if upTo(h.relays, end) != r.res.Relayed || upTo(h.opens, end) != r.res.ShortcutsOpened || upTo(h.evicts, end) != r.res.Evicted {
			t.Errorf("%v: replayed relayed %d opened %d evicted %d, engine %d %d %d", set,
				upTo(h.relays, end), upTo(h.opens, end), upTo(h.evicts, end), r.res.Relayed, r.res.ShortcutsOpened, r.res.Evicted)
		}
		if len(h.hops) != len(r.tr.Messages) {
			t.Errorf("%v: %d hops from %d trace messages", set, len(h.hops), len(r.tr.Messages))
		}
	}
}

// TestClusterIsTheEngines: the picture's cluster is the one the engine
// ran: under the topology policy a process's static connections are all
// the processes of its own leaf switch and one of every other.
func TestClusterIsTheEngines(t *testing.T) {
	for _, set := range []map[string]string{nil, {"procs": "48", "nodes": "24", "switches": "8"}, {"procs": "7", "nodes": "5", "switches": "3"}, {"switches": "1"}} {
		r := build(t, set)
		cl := r.cl
		leaf := func(q int) int {
			for sw, ns := range cl.nodesOf {
				if slices.Contains(ns, cl.procNode[q]) {
					return sw
				}
			}
			return -1
		}
		P := r.p.Procs
		adj := make([][]bool, P)
		for i := range adj {
			adj[i] = make([]bool, P)
		}
		for _, e := range r.res.Events {
			if e.Kind == overlay.Open {
				adj[e.From][e.To], adj[e.To][e.From] = true, true
			}
		}
		for a := range P {
			other := map[int]int{}
			for b := range P {
				if a == b {
					continue
				}
				if leaf(a) == leaf(b) && !adj[a][b] {
					t.Errorf("%v: P%d and P%d share switch %d but have no static connection", set, a, b, leaf(a))
				}
				if leaf(a) != leaf(b) && adj[a][b] {
					other[leaf(b)]++
				}
			}
			if want := len(cl.leaves) - 1; len(other) != want {
				t.Errorf("%v: P%d connects to %d other switches, want %d", set, a, len(other), want)
			}
		}
		if len(cl.leaves) != r.p.Switches || len(cl.nodeRow) != r.p.Nodes {
			t.Errorf("%v: %d leaf switches and %d nodes in the row", set, len(cl.leaves), len(cl.nodeRow))
		}
	}
}

// TestDeterministic: two builds with one seed give the same numbers and
// steps; the random policy's connections follow the seed.
func TestDeterministic(t *testing.T) {
	a, b := build(t, map[string]string{"policy": "random"}), build(t, map[string]string{"policy": "random"})
	if !slices.Equal(a.Steps(), b.Steps()) || a.End() != b.End() {
		t.Error("two builds differ in steps or end")
	}
	for k, x := range a.Numbers() {
		if b.Numbers()[k] != x {
			t.Errorf("%s: %v then %v", k, x, b.Numbers()[k])
		}
	}
	c, err := New().Build(values(map[string]string{"policy": "random"}), 2)
	if err != nil {
		t.Fatal(err)
	}
	if slices.Equal(c.Steps(), a.Steps()) {
		t.Error("seeds 1 and 2 give the same run")
	}
}

// TestEndAndSteps: the steps run from 0 to the sort's end and hold every
// shortcut open, ready and eviction up to it (a handshake may complete
// after the last process has finished sorting).
func TestEndAndSteps(t *testing.T) {
	for _, set := range []map[string]string{nil, {"policy": "all"}, {"policy": "random"}} {
		r := build(t, set)
		st := r.Steps()
		if !slices.IsSorted(st) || len(st) < 2 || st[0] != 0 || st[len(st)-1] != r.End() {
			t.Errorf("%v: steps %v not sorted from 0 to End %v", set, st, r.End())
		}
		for _, e := range r.res.Events {
			switch e.Kind {
			case overlay.ShortcutOpen, overlay.ShortcutReady, overlay.Evict:
				if e.Time > r.End() {
					continue
				}
				if _, ok := slices.BinarySearch(st, e.Time); !ok {
					t.Errorf("%v: %s of P%d–P%d at %v is not a step", set, e.Kind, e.From, e.To, e.Time)
				}
			}
		}
	}
}

func TestBadValuesNameTheField(t *testing.T) {
	for _, tc := range []struct {
		set  map[string]string
		want string
	}{
		{map[string]string{"cache": "-1"}, "cache"},
		{map[string]string{"cache": "17"}, "cache"},
		{map[string]string{"cache": "2.5"}, "cache"},
		{map[string]string{"cache": "8", "procs": "5", "nodes": "4"}, "cache"}, // the engine: C ≤ procs−1
		{map[string]string{"policy": "ring"}, "policy"},
		{map[string]string{"nodes": "1"}, "nodes"},
		{map[string]string{"nodes": "25"}, "nodes"},
		{map[string]string{"procs": "3"}, "procs"},
		{map[string]string{"procs": "49"}, "procs"},
		{map[string]string{"procs": "8", "nodes": "12"}, "procs"}, // the engine: at least one per node
		{map[string]string{"switches": "0"}, "switches"},
		{map[string]string{"switches": "9"}, "switches"},
		{map[string]string{"switches": "5", "nodes": "4"}, "switches"}, // the engine: at most one per node
		{map[string]string{"iterations": "0"}, "iterations"},
		{map[string]string{"iterations": "NaN"}, "iterations"},
	} {
		_, err := New().Build(values(tc.set), 1)
		var fe *scene.FieldError
		if !errors.As(err, &fe) || fe.Key != tc.want {
			t.Errorf("Build(%v) = %v, want a FieldError on %q", tc.set, err, tc.want)
		}
	}
	v := values(nil)
	delete(v, "policy")
	var fe *scene.FieldError
	if _, err := New().Build(v, 1); !errors.As(err, &fe) || fe.Key != "policy" {
		t.Errorf("Build without policy = %v, want a FieldError on policy", err)
	}
}

// TestEngineErrorsMapToFields: the scene's build maps its engine's range
// errors (overlay.RangeError) onto the page's FieldError on the same key,
// with the value as the page holds it.
func TestEngineErrorsMapToFields(t *testing.T) {
	v := scenetest.Values(New(), nil)
	err := checked.Errors(fmt.Errorf("wrapped: %w", &overlay.RangeError{Field: "cache", Value: "4", Want: "a test range"}), v)
	var fe *scene.FieldError
	if !errors.As(err, &fe) || *fe != (scene.FieldError{Key: "cache", Value: v["cache"], Want: "a test range"}) {
		t.Errorf("checked.Errors = %#v, want a FieldError on cache", err)
	}
}

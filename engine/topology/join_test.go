package topology

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// A node leaves and joins again: measured against one node per switch
// only, it is placed on its own switch, and the tree is the one it left.
func TestJoinLeave(t *testing.T) {
	rng := rand.New(rand.NewPCG(4, 13))
	n := DefaultNet()
	for i := range 60 {
		tr := Random(rng, 4+rng.IntN(120))
		rtt := MeasureRTT(tr, n, rng)
		_, nz, err := InferLeavesNoise(rtt)
		if err != nil {
			t.Fatal(err)
		}
		v := rng.IntN(len(tr.Nodes))
		if len(tr.Switches[tr.Leaf(v)].Nodes) < 3 {
			continue // its switch must keep a representative and a pair
		}
		left, ids, err := Leave(tr, v)
		if err != nil {
			t.Fatal(err)
		}
		if len(left.Nodes) != len(tr.Nodes)-1 || ids[v] != -1 {
			t.Fatalf("tree %d: leave kept %d of %d nodes", i, len(left.Nodes), len(tr.Nodes))
		}
		// The joining node's RTTs: one ping set per representative.
		reps := left.Representatives()
		meas := make([]float64, len(reps))
		for k, r := range reps {
			old := slices.Index(ids, r)
			best := 1e300
			for range n.Pings {
				best = min(best, n.RTT(tr, v, old)+expDelay(rng, n.Noise))
			}
			meas[k] = best
		}
		joined, leaf, err := Join(left, tr.Nodes[v], meas, nz.Neighbour, nz.Threshold)
		if err != nil {
			t.Fatalf("tree %d: %v", i, err)
		}
		if !slices.Contains(joined.Switches[leaf].Nodes, len(left.Nodes)) || !Isomorphic(joined, tr) {
			t.Errorf("tree %d: %s joined switch %d, the tree is not the one it left", i, tr.Nodes[v], leaf)
		}
		if len(meas) >= len(tr.Nodes)-1 && len(tr.Switches) > 2 {
			t.Errorf("tree %d: the join measured %d RTTs for %d nodes", i, len(meas), len(tr.Nodes))
		}
	}
	// A new switch is refused, with the reason.
	tr, _ := Generate(2, 3, 3)
	far := []float64{200, 200, 200}
	if _, _, err := Join(tr, "x", far, 60, 5); err == nil {
		t.Error("a node far from every switch joined one")
	}
	if _, _, err := Join(tr, "x", []float64{60, 60.5, 80}, 60, 5); err == nil {
		t.Error("a node as near to two switches joined one")
	}
	if _, _, err := Join(tr, "n0", []float64{60, 80, 80}, 60, 5); err == nil {
		t.Error("a taken name joined")
	}
	// The last node of a switch takes the switch with it.
	two, _ := Generate(2, 2, 1)
	one, _, err := Leave(two, 0)
	if err != nil || len(one.Switches) != 2 || len(one.Nodes) != 1 {
		t.Errorf("leave of a switch's last node: %v, %d switches", err, len(one.Switches))
	}
}

// A node measured with MeasureJoin on the paper's experiment is placed on
// the switch it is cabled to, from one RTT per switch; the measurement
// lasts its pings' RTTs, and a switch that is not a leaf is refused.
func TestMeasureJoin(t *testing.T) {
	tr := PaperExperiment()
	n := DefaultNet()
	rng := rand.New(rand.NewPCG(7, 13))
	_, nz, err := InferLeavesNoise(MeasureRTT(tr, n, rng))
	if err != nil {
		t.Fatal(err)
	}
	for _, leaf := range tr.LeafSwitches() {
		rtt, took, err := MeasureJoin(tr, leaf, n, rng)
		if err != nil {
			t.Fatal(err)
		}
		if len(rtt) != len(tr.LeafSwitches()) {
			t.Fatalf("switch %d: %d RTTs for %d switches", leaf, len(rtt), len(tr.LeafSwitches()))
		}
		for i, x := range rtt {
			if !(took[i] >= float64(n.Pings)*x) {
				t.Errorf("switch %d: measurement %d took %v µs for %d pings of at least %v", leaf, i, took[i], n.Pings, x)
			}
		}
		_, got, err := Join(tr, "new", rtt, nz.Neighbour, nz.Threshold)
		if err != nil || got != leaf {
			t.Errorf("cabled to switch %d, placed on %d (%v)", leaf, got, err)
		}
	}
	if _, _, err := MeasureJoin(tr, tr.Switches[tr.LeafSwitches()[0]].Parent, n, rng); err == nil {
		t.Error("a join on the core switch was measured")
	}
}

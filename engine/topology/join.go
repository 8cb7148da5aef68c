package topology

import (
	"fmt"
	"math/rand/v2"
	"slices"

	"commlab/internal/errf"
)

// Representatives are the nodes a joining node measures its RTT to: one
// per leaf switch (its smallest node), in LeafSwitches order. A join costs
// S measurements instead of the N − 1 of measuring everything again.
func (t *Tree) Representatives() []int {
	ix := t.index()
	out := make([]int, len(ix.leaves))
	for i, s := range ix.leaves {
		out[i] = slices.Min(t.Switches[s].Nodes)
	}
	return out
}

// MeasureJoin simulates a new node cabled to leaf switch leaf measuring
// its RTT to each of t's Representatives, as MeasureRTT measures one pair
// (the minimum of n.Pings pings, each the noise-free RTT plus an
// exponential delay of mean n.Noise): rtt[i] is the i-th's, µs. took[i]
// is how long the i-th measurement lasts, µs: its pings one after
// another, each as long as its own RTT. Draws go representative by
// representative, ping by ping.
func MeasureJoin(t *Tree, leaf int, n Net, rng *rand.Rand) (rtt, took []float64, err error) {
	if err := n.Validate(); err != nil {
		return nil, nil, err
	}
	leaves := t.LeafSwitches()
	if !slices.Contains(leaves, leaf) {
		return nil, nil, errf.Errorf("topology: join on switch %d, want a leaf switch (one of %v)", leaf, leaves)
	}
	nt := t.clone()
	v := len(nt.Nodes)
	nt.Nodes = append(nt.Nodes, fmt.Sprintf("n%d", v))
	nt.Switches[leaf].Nodes = append(nt.Switches[leaf].Nodes, v)
	reps := t.Representatives()
	rtt, took = make([]float64, len(reps)), make([]float64, len(reps))
	for i, r := range reps {
		base := n.RTT(nt, v, r)
		best := 0.0
		for k := range n.Pings {
			x := base + expDelay(rng, n.Noise)
			if k == 0 || x < best {
				best = x
			}
			took[i] += x
		}
		rtt[i] = best
	}
	return rtt, took, nil
}

// Join places a new node from its RTTs to the Representatives (rtt[i] to
// the i-th, in µs) and returns the tree with the node added (its id
// len(t.Nodes)) and the leaf switch it joined. The node joins the switch
// of its nearest representative, when that RTT is a switch neighbour's
// (at most neighbour + 2·threshold: one measurement against the median
// of many; neighbour is the RTT between two nodes of one switch,
// threshold the jump that ends a switch, both as InferLeavesNoise reads
// them into Noise) and no other representative is as near (within
// threshold): otherwise the node is on a switch the tree does not
// have yet, or the RTTs do not tell, and the error says so (then its
// switch's place needs interference measurements: infer again).
func Join(t *Tree, name string, rtt []float64, neighbour, threshold float64) (*Tree, int, error) {
	reps := t.Representatives()
	if len(rtt) != len(reps) {
		return nil, -1, errf.Errorf("topology: join %q: %d RTTs for %d leaf switches (want one to each representative)", name, len(rtt), len(reps))
	}
	if name == "" || slices.Contains(t.Nodes, name) {
		return nil, -1, errf.Errorf("topology: join: name %q is empty or taken", name)
	}
	best := -1
	for i, x := range rtt {
		if x < 0 || x != x {
			return nil, -1, errf.Errorf("topology: join %q: RTT to %s = %v, want a number ≥ 0", name, t.Nodes[reps[i]], x)
		}
		if best < 0 || x < rtt[best] {
			best = i
		}
	}
	if rtt[best] > neighbour+2*threshold {
		return nil, -1, errf.Errorf("topology: join %q: the nearest representative (%s, %.4g µs) is farther than a switch neighbour (%.4g µs + 2 × %.4g): a new switch, whose place needs interference measurements", name, t.Nodes[reps[best]], rtt[best], neighbour, threshold)
	}
	for i, x := range rtt {
		if i != best && x <= rtt[best]+threshold {
			return nil, -1, errf.Errorf("topology: join %q: %s (%.4g µs) and %s (%.4g µs) are both as near: the RTTs do not tell its switch", name, t.Nodes[reps[best]], rtt[best], t.Nodes[reps[i]], x)
		}
	}
	leaf := t.LeafSwitches()[best]
	nt := t.clone()
	v := len(nt.Nodes)
	nt.Nodes = append(nt.Nodes, name)
	nt.Switches[leaf].Nodes = append(nt.Switches[leaf].Nodes, v)
	if err := nt.Validate(); err != nil {
		return nil, -1, err
	}
	return nt, leaf, nil
}

// Leave returns the tree without node v: nodes after it move down one id,
// a leaf switch left empty goes, and so does a switch left with no child
// (switch ids are renumbered in order). The map old → new node id (-1 for
// v) comes with it.
func Leave(t *Tree, v int) (*Tree, []int, error) {
	if v < 0 || v >= len(t.Nodes) {
		return nil, nil, errf.Errorf("topology: leave: node %d, want [0, %d)", v, len(t.Nodes))
	}
	if len(t.Nodes) == 1 {
		return nil, nil, errf.Errorf("topology: leave: %s is the last node", t.Nodes[v])
	}
	ids := make([]int, len(t.Nodes))
	nt := &Tree{}
	for u, name := range t.Nodes {
		if u == v {
			ids[u] = -1
			continue
		}
		ids[u] = len(nt.Nodes)
		nt.Nodes = append(nt.Nodes, name)
	}
	// Which switches stay: those with a node below them.
	keep := make([]bool, len(t.Switches))
	for s, sw := range t.Switches {
		if len(sw.Nodes) > 1 || len(sw.Nodes) == 1 && sw.Nodes[0] != v {
			for x := s; x >= 0 && !keep[x]; x = t.Switches[x].Parent {
				keep[x] = true
			}
		}
	}
	sid := make([]int, len(t.Switches))
	for s := range t.Switches {
		sid[s] = -1
		if keep[s] {
			sid[s] = len(nt.Switches)
			nt.Switches = append(nt.Switches, Switch{ID: sid[s]})
		}
	}
	for s, sw := range t.Switches {
		if !keep[s] {
			continue
		}
		n := &nt.Switches[sid[s]]
		n.Parent = -1
		if sw.Parent >= 0 {
			n.Parent = sid[sw.Parent]
		}
		for _, u := range sw.Nodes {
			if u != v {
				n.Nodes = append(n.Nodes, ids[u])
			}
		}
	}
	if err := nt.Validate(); err != nil {
		return nil, nil, errf.Errorf("topology: leave: %w", err)
	}
	return nt, ids, nil
}

func (t *Tree) clone() *Tree {
	nt := &Tree{Nodes: slices.Clone(t.Nodes), Switches: make([]Switch, len(t.Switches))}
	for i, s := range t.Switches {
		nt.Switches[i] = Switch{ID: s.ID, Parent: s.Parent, Nodes: slices.Clone(s.Nodes)}
	}
	return nt
}

package topology

import (
	"fmt"
	"math/rand/v2"
	"slices"

	"commlab/internal/errf"
	"commlab/internal/permsort"
)

// MaxNodes bounds generated trees: the report goes to 4,096 nodes and an
// RTT matrix of MaxNodes² entries still fits in memory.
const MaxNodes = 1 << 14

// Generate builds a symmetric tree: levels levels of switches (1: a single
// switch), every non-leaf switch with fanout children, perLeaf nodes on every
// leaf switch. Switches are numbered breadth first from the root, nodes left
// to right and named n0, n1, ….
func Generate(levels, fanout, perLeaf int) (*Tree, error) {
	if levels < 1 || levels > 16 {
		return nil, errf.Errorf("topology: levels = %d, want 1 … 16", levels)
	}
	if fanout < 1 || fanout > MaxNodes {
		return nil, errf.Errorf("topology: fanout = %d, want 1 … %d", fanout, MaxNodes)
	}
	if perLeaf < 1 || perLeaf > MaxNodes {
		return nil, errf.Errorf("topology: perLeaf = %d, want 1 … %d", perLeaf, MaxNodes)
	}
	leaves := 1
	for range levels - 1 {
		leaves *= fanout
		if leaves*perLeaf > MaxNodes {
			return nil, errf.Errorf("topology: %d levels × fanout %d × %d per leaf exceed %d nodes", levels, fanout, perLeaf, MaxNodes)
		}
	}
	if leaves*perLeaf > MaxNodes {
		return nil, errf.Errorf("topology: %d nodes per leaf exceed %d nodes", perLeaf, MaxNodes)
	}
	t := &Tree{}
	t.Switches = append(t.Switches, Switch{ID: 0, Parent: -1})
	level := []int{0}
	for range levels - 1 {
		var next []int
		for _, p := range level {
			for range fanout {
				id := len(t.Switches)
				t.Switches = append(t.Switches, Switch{ID: id, Parent: p})
				next = append(next, id)
			}
		}
		level = next
	}
	for _, s := range level {
		for range perLeaf {
			v := len(t.Nodes)
			t.Nodes = append(t.Nodes, fmt.Sprintf("n%d", v))
			t.Switches[s].Nodes = append(t.Switches[s].Nodes, v)
		}
	}
	return t, t.Validate()
}

// Spread puts nodes nodes evenly on switches leaf switches under one root
// (the first nodes%switches leaf switches get one more), nodes in order.
func Spread(nodes, switches int) (*Tree, error) {
	if switches < 1 || switches > MaxNodes {
		return nil, errf.Errorf("topology: switches = %d, want 1 … %d", switches, MaxNodes)
	}
	if nodes < switches || nodes > MaxNodes {
		return nil, errf.Errorf("topology: nodes = %d, want %d (one per switch) … %d", nodes, switches, MaxNodes)
	}
	if switches == 1 {
		return Generate(1, 1, nodes)
	}
	t := &Tree{Switches: []Switch{{ID: 0, Parent: -1}}}
	for s := range switches {
		sw := Switch{ID: s + 1, Parent: 0}
		k := nodes / switches
		if s < nodes%switches {
			k++
		}
		for range k {
			v := len(t.Nodes)
			t.Nodes = append(t.Nodes, fmt.Sprintf("n%d", v))
			sw.Nodes = append(sw.Nodes, v)
		}
		t.Switches = append(t.Switches, sw)
	}
	return t, t.Validate()
}

// PaperCluster is the cluster of the paper's Section 4.1: 112 nodes, 14 on
// each of 8 leaf switches. The text says the switches are connected
// hierarchically but its Fig. 3 (the drawing) is not in the text; Fig. 4
// shows one RTT jump only (between the 13th and 14th node), which a root
// switch over the 8 leaf switches reproduces, so that is the model.
func PaperCluster() *Tree {
	t, err := Generate(2, 8, 14)
	if err != nil {
		panic("topology: " + err.Error())
	}
	return t
}

// PaperExperiment is the cluster of the paper's Section 4.2: 64 nodes (128
// processes) over 6 switches, taken here as 6 leaf switches under one root
// with the nodes spread evenly (11, 11, 11, 11, 10, 10), as engine/overlay's
// Switches parameter reads it. The paper's "at most 31 static connections"
// per process holds: 2·11 − 1 on the switch plus 5 others is 26.
func PaperExperiment() *Tree {
	t, err := Spread(64, 6)
	if err != nil {
		panic("topology: " + err.Error())
	}
	return t
}

// Random grows a random tree of at most maxNodes nodes (maxNodes ≥ 2) for
// property tests: starting from one switch it splits random leaf switches
// into 2–4 children, so leaves end at different depths, then puts 2–6
// nodes on every leaf switch (at least 2: a lone node's switch cannot be
// told from its neighbours' by RTT gaps). Node ids are shuffled over the
// leaves so groups are not contiguous ranges.
func Random(rng *rand.Rand, maxNodes int) *Tree {
	if maxNodes < 2 {
		panic(fmt.Sprintf("topology: Random with maxNodes = %d, want ≥ 2", maxNodes))
	}
	maxNodes = min(maxNodes, MaxNodes)
	parent := []int{-1}
	leaves := []int{0}
	splits := rng.IntN(maxNodes/2) + 1
	for range splits {
		c := 2 + rng.IntN(3)
		if 2*(len(leaves)-1+c) > maxNodes {
			break
		}
		k := rng.IntN(len(leaves))
		p := leaves[k]
		leaves = slices.Delete(leaves, k, k+1)
		for range c {
			leaves = append(leaves, len(parent))
			parent = append(parent, p)
		}
	}
	permsort.Sort(leaves)
	count := make([]int, len(leaves))
	total := 0
	for i := range count {
		count[i] = 2
		total += 2
	}
	for i := range count {
		extra := min(rng.IntN(5), maxNodes-total)
		count[i] += extra
		total += extra
	}
	t := &Tree{Nodes: make([]string, total), Switches: make([]Switch, len(parent))}
	for i, p := range parent {
		t.Switches[i] = Switch{ID: i, Parent: p}
	}
	ids := rng.Perm(total)
	k := 0
	for i, s := range leaves {
		for range count[i] {
			t.Switches[s].Nodes = append(t.Switches[s].Nodes, ids[k])
			k++
		}
		permsort.Sort(t.Switches[s].Nodes)
	}
	for v := range t.Nodes {
		t.Nodes[v] = fmt.Sprintf("n%d", v)
	}
	if err := t.Validate(); err != nil {
		panic("topology: Random built an invalid tree: " + err.Error())
	}
	return t
}

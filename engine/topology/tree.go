package topology

import (
	"slices"

	"commlab/internal/errf"
	"commlab/internal/permsort"
	"commlab/internal/shown"
)

// Tree is a cluster: switches connected as a tree, nodes on the leaf
// switches. Node ids index Nodes; switch ids index Switches (Switches[i].ID
// == i). A switch with child switches carries no nodes and every leaf switch
// carries at least one: in the paper's clusters nodes hang off leaf switches.
//
// Call Validate once after building a Tree by hand (the constructors and
// UnmarshalJSON do): it checks the tree and builds the index that makes
// Leaf, Hops and Path cheap. A Tree is not changed after that.
type Tree struct {
	Nodes    []string // node names, index = node id
	Switches []Switch

	ix *index // built by Validate; nil: built on every query
}

// Switch is one switch of a Tree.
type Switch struct {
	ID     int   // its index in Tree.Switches
	Parent int   // parent switch, -1 for the root
	Nodes  []int // nodes on this switch (leaf switches only), ascending
}

// Link is the link between switch Child and its parent. Links between a node
// and its switch are not Links: a path's node links are its own, shared only
// with paths from or to the same nodes.
type Link struct{ Child int }

type index struct {
	parent   []int
	depth    []int
	children [][]int
	leafOf   []int // node → its switch
	leaves   []int // leaf switches, ascending
}

// Validate checks the tree's shape and builds its index.
//
//go:noinline
func (t *Tree) Validate() error {
	ix, err := t.build()
	if err != nil {
		return err
	}
	t.ix = ix
	return nil
}

func (t *Tree) index() *index {
	if t.ix != nil {
		return t.ix
	}
	ix, err := t.build()
	if err != nil {
		panic("topology: invalid tree: " + err.Error())
	}
	return ix
}

func (t *Tree) build() (*index, error) {
	n, s := len(t.Nodes), len(t.Switches)
	if n == 0 {
		return nil, errf.Errorf("topology: tree has no nodes")
	}
	if s == 0 {
		return nil, errf.Errorf("topology: tree has no switches")
	}
	names := make(map[string]int, n)
	for i, name := range t.Nodes {
		if name == "" {
			return nil, errf.Errorf("topology: node %d has an empty name", i)
		}
		if j, dup := names[name]; dup {
			return nil, errf.Errorf("topology: nodes %d and %d are both named %q", j, i, shown.Cut(name))
		}
		names[name] = i
	}
	ix := &index{
		parent:   make([]int, s),
		depth:    make([]int, s),
		children: make([][]int, s),
		leafOf:   make([]int, n),
	}
	for i := range ix.leafOf {
		ix.leafOf[i] = -1
	}
	root := -1
	for i, sw := range t.Switches {
		if sw.ID != i {
			return nil, errf.Errorf("topology: switch %d has id %d (want its index %d)", i, sw.ID, i)
		}
		if sw.Parent < -1 || sw.Parent >= s || sw.Parent == i {
			return nil, errf.Errorf("topology: switch %d has parent %d (want -1 for the root or another switch in [0, %d))", i, sw.Parent, s)
		}
		ix.parent[i] = sw.Parent
		if sw.Parent == -1 {
			if root >= 0 {
				return nil, errf.Errorf("topology: switches %d and %d are both roots (parent -1)", root, i)
			}
			root = i
		} else {
			ix.children[sw.Parent] = append(ix.children[sw.Parent], i)
		}
		for _, v := range sw.Nodes {
			if v < 0 || v >= n {
				return nil, errf.Errorf("topology: switch %d lists node %d (want [0, %d))", i, v, n)
			}
			if ix.leafOf[v] >= 0 {
				return nil, errf.Errorf("topology: node %d (%s) is on switches %d and %d", v, t.Nodes[v], ix.leafOf[v], i)
			}
			ix.leafOf[v] = i
		}
	}
	if root < 0 {
		return nil, errf.Errorf("topology: no root switch (parent -1)")
	}
	// Depths from the root; a switch never reached is on a cycle.
	ix.depth[root] = 0
	order := []int{root}
	for k := 0; k < len(order); k++ {
		for _, c := range ix.children[order[k]] {
			ix.depth[c] = ix.depth[order[k]] + 1
			order = append(order, c)
		}
	}
	if len(order) != s {
		return nil, errf.Errorf("topology: %d switches are not connected to the root (a parent cycle)", s-len(order))
	}
	for i, sw := range t.Switches {
		leaf := len(ix.children[i]) == 0
		if leaf && len(sw.Nodes) == 0 {
			return nil, errf.Errorf("topology: leaf switch %d has no nodes", i)
		}
		if !leaf && len(sw.Nodes) > 0 {
			return nil, errf.Errorf("topology: switch %d has both child switches and nodes (nodes go on leaf switches)", i)
		}
		if leaf {
			ix.leaves = append(ix.leaves, i)
		}
	}
	for v, l := range ix.leafOf {
		if l < 0 {
			return nil, errf.Errorf("topology: node %d (%s) is on no switch", v, t.Nodes[v])
		}
	}
	return ix, nil
}

// Leaf returns the switch that node is on.
func (t *Tree) Leaf(node int) int { return t.index().leafOf[node] }

// LeafSwitches returns the leaf switches in ascending order.
//
//go:noinline
func (t *Tree) LeafSwitches() []int { return slices.Clone(t.index().leaves) }

// Groups returns the nodes of every leaf switch, ordered by their smallest
// node: the form InferLeaves returns and InferTree takes.
func (t *Tree) Groups() [][]int {
	ix := t.index()
	g := make([][]int, 0, len(ix.leaves))
	for _, s := range ix.leaves {
		m := slices.Clone(t.Switches[s].Nodes)
		permsort.Sort(m)
		g = append(g, m)
	}
	permsort.SortFunc(g, func(a, b []int) int { return a[0] - b[0] })
	return g
}

// Hops is the number of links on the path from node u to node v, counting
// both node links: 0 for u == v, 2 on the same switch, 2 plus the links
// between switches otherwise.
func (t *Tree) Hops(u, v int) int {
	if u == v {
		return 0
	}
	ix := t.index()
	return 2 + ix.switchDist(ix.leafOf[u], ix.leafOf[v])
}

func (ix *index) switchDist(a, b int) int {
	d := 0
	for a != b {
		if ix.depth[a] >= ix.depth[b] {
			a = ix.parent[a]
		} else {
			b = ix.parent[b]
		}
		d++
	}
	return d
}

// Path lists the links between switches on the path from node u to node v,
// in order from u's side; empty on the same switch.
func (t *Tree) Path(u, v int) []Link {
	ix := t.index()
	return ix.appendPath(nil, ix.leafOf[u], ix.leafOf[v])
}

// appendPath appends the links from switch a to switch b.
//
//go:noinline
func (ix *index) appendPath(dst []Link, a, b int) []Link {
	var buf [16]Link // the way down, on the stack for trees up to 16 deep
	down := buf[:0]
	for a != b {
		if ix.depth[a] >= ix.depth[b] {
			dst = append(dst, Link{a})
			a = ix.parent[a]
		} else {
			down = append(down, Link{b})
			b = ix.parent[b]
		}
	}
	for i := len(down) - 1; i >= 0; i-- {
		dst = append(dst, down[i])
	}
	return dst
}

package overlay

import (
	"fmt"

	"commlab/engine/param"
	"commlab/engine/topology"
	"commlab/internal/errf"
)

// cluster is the switch tree as the overlay sees it: switches with their
// parents, nodes on leaf switches, processes on nodes.
type cluster struct {
	nodes    int
	parent   []int // switch → parent switch, -1 at the root
	depth    []int // switch → distance from the root
	nodeLeaf []int // node → its leaf switch
	procNode []int // process → node
	procLeaf []int // process → leaf switch
}

// Cluster is the switch tree RunIS simulates for p: topology.Spread's
// Nodes nodes spread evenly over Switches leaf switches (the first
// Nodes mod Switches take one more), all under one core switch, which is
// the only switch when Switches is 1. For the paper's 64 nodes over 6
// switches it is topology.PaperExperiment.
//
// With Fill > 0 the leaf switches are filled in order, Fill nodes each,
// the last taking the rest, all under one core switch.
func Cluster(p Params) (*topology.Tree, error) {
	if err := p.Validate(); err != nil {
		return nil, err
	}
	if p.Fill == 0 || p.Switches == 1 {
		return topology.Spread(p.Nodes, p.Switches)
	}
	t := &topology.Tree{Switches: []topology.Switch{{ID: 0, Parent: -1}}}
	for s := range p.Switches {
		sw := topology.Switch{ID: s + 1, Parent: 0}
		for v := s * p.Fill; v < min(p.Nodes, (s+1)*p.Fill); v++ {
			t.Nodes = append(t.Nodes, fmt.Sprintf("n%d", v))
			sw.Nodes = append(sw.Nodes, v)
		}
		t.Switches = append(t.Switches, sw)
	}
	return t, t.Validate()
}

// ProcNode is the node process proc runs on when procs processes share
// nodes nodes: blocks in rank order, so with procs = k·nodes ranks k·i …
// k·i+k−1 share node i (mpirun's fill of a machine file with k slots per
// node).
func ProcNode(proc, procs, nodes int) int { return proc * nodes / procs }

// Static returns the topology policy's static connections for procs
// processes on tree t (placed as ProcNode places them): adj[a] lists a's
// partners in ascending order, each connection under both ends.
func Static(t *topology.Tree, procs int) ([][]int, error) {
	cl, err := fromTree(t, procs)
	if err != nil {
		return nil, err
	}
	return staticTopology(cl.procLeaf), nil
}

// fromTree is the cluster of tree t with procs processes.
func fromTree(t *topology.Tree, procs int) (*cluster, error) {
	if err := t.Validate(); err != nil {
		return nil, err
	}
	if procs < len(t.Nodes) {
		return nil, &param.Error{Field: "procs", Value: fmt.Sprint(procs), Want: fmt.Sprintf("at least the tree's %d nodes", len(t.Nodes))}
	}
	parent := make([]int, len(t.Switches))
	on := make([][]int, len(t.Switches))
	for i, s := range t.Switches {
		parent[i], on[i] = s.Parent, s.Nodes
	}
	return treeCluster(len(t.Nodes), parent, on, procs)
}

// treeCluster builds a cluster from a switch tree given as parents and the
// nodes on each switch (the shape of topology.Tree).
func treeCluster(nodes int, parent []int, switchNodes [][]int, procs int) (*cluster, error) {
	c := &cluster{nodes: nodes, parent: parent, depth: make([]int, len(parent)), nodeLeaf: make([]int, nodes)}
	for s := range parent {
		d, x := 0, s
		for parent[x] >= 0 {
			if x = parent[x]; x >= len(parent) || d > len(parent) {
				return nil, errf.Errorf("overlay: switch %d: parent chain is broken or cyclic", s)
			}
			d++
		}
		c.depth[s] = d
	}
	for n := range c.nodeLeaf {
		c.nodeLeaf[n] = -1
	}
	for s, ns := range switchNodes {
		for _, n := range ns {
			if n < 0 || n >= nodes || c.nodeLeaf[n] >= 0 {
				return nil, errf.Errorf("overlay: switch %d: node %d is out of range or on two switches", s, n)
			}
			c.nodeLeaf[n] = s
		}
	}
	for n, s := range c.nodeLeaf {
		if s < 0 {
			return nil, errf.Errorf("overlay: node %d is on no switch", n)
		}
	}
	c.place(procs)
	return c, nil
}

// place puts processes on nodes as ProcNode does.
func (c *cluster) place(procs int) {
	c.procNode, c.procLeaf = make([]int, procs), make([]int, procs)
	for p := range procs {
		c.procNode[p] = ProcNode(p, procs, c.nodes)
		c.procLeaf[p] = c.nodeLeaf[c.procNode[p]]
	}
}

// Links are numbered per direction: node n's link to its switch is 2n (up)
// and 2n+1 (down); switch s's link to its parent is 2·nodes+2s (up) and
// 2·nodes+2s+1 (down).
func (c *cluster) numLinks() int { return 2*c.nodes + 2*len(c.parent) }

// path appends to buf the links a message from node u to node v crosses,
// in order, and returns them with the number of switches crossed. Two
// processes of one node talk through memory: no link, no switch.
func (c *cluster) path(u, v int, buf []int) ([]int, int) {
	buf = buf[:0]
	if u == v {
		return buf, 0
	}
	buf = append(buf, 2*u)
	a, b := c.nodeLeaf[u], c.nodeLeaf[v]
	var down []int
	hops := 1
	for a != b {
		if c.depth[a] >= c.depth[b] {
			buf = append(buf, 2*c.nodes+2*a)
			a = c.parent[a]
		} else {
			down = append(down, 2*c.nodes+2*b+1)
			b = c.parent[b]
		}
		hops++
	}
	for i := len(down) - 1; i >= 0; i-- {
		buf = append(buf, down[i])
	}
	return append(buf, 2*v+1), hops
}

// hops is the number of switches between nodes u and v.
//
//go:noinline
func (c *cluster) hops(u, v int) int {
	if u == v {
		return 0
	}
	a, b := c.nodeLeaf[u], c.nodeLeaf[v]
	h := 1
	for a != b {
		if c.depth[a] >= c.depth[b] {
			a = c.parent[a]
		} else {
			b = c.parent[b]
		}
		h++
	}
	return h
}

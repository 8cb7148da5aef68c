package overlay

import (
	"math"
	"slices"

	"commlab/internal/permsort"
	"commlab/scene/chart"
)

// cluster is the picture's view of the network: the switch tree, the
// nodes in the order the row draws them (leaf switch by leaf switch, in
// the tree's depth-first order, so that every switch sits above a
// contiguous stretch of the row and no tree edge crosses another), and
// the processes on each node.
type cluster struct {
	parent   []int   // per switch: its parent (-1: a root)
	children [][]int // per switch: its child switches, by id
	nodesOf  [][]int // per switch: the nodes on it
	depth    []int   // per switch: edges up to its root
	maxDepth int
	leaves   []int // switches with nodes, in row order

	nodeRow  []int   // nodes in row order
	procsOf  [][]int // per node: its processes, by id
	procNode []int   // per process: its node
	procSlot []int   // per process: its position in the row (0 …)
}

// newCluster sorts a switch tree (parent[s] is switch s's parent, -1 at
// a root; switchNodes[s] the nodes on it, in the shape of topology.Tree)
// and the processes' placement (procNode[p] is the node process p runs
// on) into row order.
func newCluster(nodes int, parent []int, switchNodes [][]int, procNode []int) *cluster {
	ns := len(parent)
	c := &cluster{
		parent:   make([]int, ns),
		children: make([][]int, ns),
		nodesOf:  make([][]int, ns),
		depth:    make([]int, ns),
		procsOf:  make([][]int, nodes),
		procNode: procNode,
		procSlot: make([]int, len(procNode)),
	}
	var roots []int
	for i, par := range parent {
		c.parent[i] = par
		c.nodesOf[i] = switchNodes[i]
		if par < 0 {
			roots = append(roots, i)
		} else {
			c.children[par] = append(c.children[par], i)
		}
	}
	var walk func(sw, d int)
	walk = func(sw, d int) {
		c.depth[sw] = d
		c.maxDepth = max(c.maxDepth, d)
		if len(c.nodesOf[sw]) > 0 {
			c.leaves = append(c.leaves, sw)
			c.nodeRow = append(c.nodeRow, c.nodesOf[sw]...)
		}
		for _, ch := range c.children[sw] {
			walk(ch, d+1)
		}
	}
	for _, r := range roots {
		walk(r, 0)
	}
	for p, n := range procNode {
		c.procsOf[n] = append(c.procsOf[n], p)
	}
	slot := 0
	for _, n := range c.nodeRow {
		for _, p := range c.procsOf[n] {
			c.procSlot[p] = slot
			slot++
		}
	}
	return c
}

// Gaps in the row, in units of one process's width: between two nodes of
// a switch, and between two leaf switches' groups (wider, so the groups
// read as groups).
const (
	nodeGap   = 0.35
	switchGap = 1.4
)

// geometry is the cluster laid out in a box: where every process, node
// and switch is drawn.
type geometry struct {
	unit     float64     // one process's width in the row
	procX    []float64   // per process: centre x
	rowY     float64     // the processes' centre line
	node     []chart.Box // per node: its box
	sw       []chart.Box // per switch: its box
	swMid    []float64   // per switch: centre x
	groupX   [][2]float64
	arcTop   float64 // where the arcs start (the node boxes' bottom)
	arcDepth float64 // the deepest arc's depth below arcTop
	span     float64 // the widest possible arc's half-width
}

// layout places the cluster in b: the switch tree in the top part (one row
// per depth, rowH high, boxes swH high), the node row under it and the
// arcs in the rest.
func (c *cluster) layout(b chart.Box, rowH, swH, nodeH float64) geometry {
	g := geometry{
		procX: make([]float64, len(c.procNode)),
		node:  make([]chart.Box, len(c.procsOf)),
		sw:    make([]chart.Box, len(c.parent)),
		swMid: make([]float64, len(c.parent)),
	}
	units := float64(len(c.procNode)) + nodeGap*float64(len(c.nodeRow)-len(c.leaves)) + switchGap*float64(len(c.leaves)-1)
	g.unit = b.W() / units
	treeH := float64(c.maxDepth)*rowH + swH
	g.rowY = b.Y0 + treeH + rowH*0.8 + nodeH/2
	x := b.X0
	inset := min(g.unit*0.08, 2)
	for li, sw := range c.leaves {
		if li > 0 {
			x += switchGap * g.unit
		}
		x0 := x
		for ni, n := range c.nodesOf[sw] {
			if ni > 0 {
				x += nodeGap * g.unit
			}
			nx := x
			for _, p := range c.procsOf[n] {
				g.procX[p] = x + g.unit/2
				x += g.unit
			}
			if len(c.procsOf[n]) == 0 {
				x += g.unit // a node without processes still shows
			}
			g.node[n] = chart.Box{X0: nx + inset, Y0: g.rowY - nodeH/2, X1: x - inset, Y1: g.rowY + nodeH/2}
		}
		g.groupX = append(g.groupX, [2]float64{x0, x})
	}
	// Switches: a leaf over its nodes, an inner switch over the middle of
	// its children (and its own nodes, when it has both), bottom-up.
	var place func(sw int) float64
	place = func(sw int) float64 {
		var xs []float64
		for _, ch := range c.children[sw] {
			xs = append(xs, place(ch))
		}
		if ns := c.nodesOf[sw]; len(ns) > 0 {
			xs = append(xs, (g.node[ns[0]].X0+g.node[ns[len(ns)-1]].X1)/2)
		}
		mid := b.X0 + b.W()/2
		if len(xs) > 0 {
			mid = (slices.Min(xs) + slices.Max(xs)) / 2
		}
		g.swMid[sw] = mid
		return mid
	}
	for sw, par := range c.parent {
		if par < 0 {
			place(sw)
		}
	}
	w := c.switchWidth(g, b)
	for sw := range c.parent {
		y := b.Y0 + float64(c.depth[sw])*rowH
		g.sw[sw] = chart.Box{X0: g.swMid[sw] - w/2, Y0: y, X1: g.swMid[sw] + w/2, Y1: y + swH}
	}
	g.arcTop = g.rowY + nodeH/2
	g.arcDepth = max(b.Y1-g.arcTop-2, 1)
	g.span = b.W() / 2
	return g
}

// switchWidth is the switches' box width: as wide as the narrowest gap
// between two switches of one row allows, and no wider than a label needs.
func (c *cluster) switchWidth(g geometry, b chart.Box) float64 {
	w := b.W() / 8
	rows := make(map[int][]float64)
	for sw, d := range c.depth {
		rows[d] = append(rows[d], g.swMid[sw])
	}
	for _, xs := range rows {
		permsort.Sort(xs)
		for i := 1; i < len(xs); i++ {
			w = min(w, (xs[i]-xs[i-1])*0.8)
		}
	}
	return max(w, 6)
}

// arcSegs is a typical arc's segments, for sizing the point buffer; each
// arc has as many as arcSegsFor says it needs to look smooth.
const arcSegs = 14

// arcDepth is how far below the row an arc between x0 and x1 dips: the
// widest arc uses the whole arc area, shorter ones less, but never so
// flat that neighbours' arcs merge into the row.
func (g geometry) arcDepthFor(x0, x1 float64) float64 {
	r := math.Abs(x1-x0) / 2
	return g.arcDepth * math.Sqrt(min(r/g.span, 1))
}

// arcPoint is the point a fraction f (0 at a, 1 at b) along the arc
// between processes a and b.
func (g geometry) arcPoint(a, b int, f float64) (x, y float64) {
	x0, x1 := g.procX[a], g.procX[b]
	h := g.arcDepthFor(x0, x1)
	th := math.Pi * f
	mid, r := (x0+x1)/2, (x1-x0)/2
	return mid - r*math.Cos(th), g.arcTop + h*math.Sin(th)
}

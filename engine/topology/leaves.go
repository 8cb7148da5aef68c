package topology

import (
	"cmp"
	"math"
	"slices"
	"strconv"
	"strings"

	"commlab/internal/errf"
	"commlab/internal/permsort"
)

// JumpFactor is how many noise scales a jump in a node's sorted RTTs must
// exceed to count as the step to the next switch (see Noise). For
// exponential delays of mean m the noise scale is 0.60 m, so the threshold
// is 3 m: the top spacing among one switch's RTTs (exponential of mean m)
// exceeds it in about 5 % of the views, a stray view the vote of
// InferLeaves absorbs. 5 was chosen on the independent generator's sweep
// (outside_test.go): 4 splits switches at 0.5 µs of noise, 6 misses jumps
// sooner; TestOutsideThresholds measures where each noise family starts to
// fail.
const JumpFactor = 5

// Noise is what InferLeaves read from the RTT matrix alone, with no
// knowledge of how it was measured.
type Noise struct {
	// Scale is the measurement noise: the mean of the lower 80 % of
	// |rtt[u][w] − rtt[v][w]| over every node u, the node v nearest to it
	// and all other nodes w, pooled with |rtt[u][v] − rtt[v][u]| when the
	// matrix is not symmetric. It includes what hosts add (one host's
	// stack slower than another's), which spreads a switch's RTTs in a
	// view just as well. Nodes on one switch see
	// every other node at the same noise-free RTT, so this is the spread of
	// two independent measurements; it needs neither two measurements per
	// pair (a symmetric matrix works) nor a known noise family. When u's
	// nearest node is on another switch, only the few nodes on the two
	// switches differ, which the trimmed mean drops.
	Scale float64 `json:"scale"`
	// Quantum is the values' resolution: 1 when every value is a whole
	// number (whole µs), 0.1 for tenths and so on down to 0.001, 0 when the
	// values are not on such a grid. Rounding moves a spacing by up to one
	// quantum.
	Quantum float64 `json:"quantum"`
	// Threshold is the jump that ends a node's switch: JumpFactor·Scale +
	// 1.5·Quantum.
	Threshold float64 `json:"threshold"`
	// Symmetric: every pair's two entries are equal (each pair measured
	// once).
	Symmetric bool `json:"symmetric"`
	// Neighbour is the typical RTT between two nodes of one switch: the
	// median over nodes of their smallest RTT (Join compares a joining
	// node's nearest RTT with it).
	Neighbour float64 `json:"neighbour"`
	// Outliers counts the pairs whose RTT broke the tree's triangle
	// inequality (a single ping far slower than the others, say) and were
	// repaired before the views; see InferLeaves.
	Outliers int `json:"outliers"`
}

// InferLeaves finds which nodes share a leaf switch from the RTT matrix
// (rtt[u][v] is u's measurement of v, in µs or any unit; the diagonal is
// ignored). See InferLeavesNoise.
func InferLeaves(rtt [][]float64) ([][]int, error) {
	g, _, err := InferLeavesNoise(rtt)
	return g, err
}

// InferLeavesNoise is the paper's Section 2.1 made robust for matrices
// written by any tool, and also returns the noise it read from the data:
//
//  1. The pair's RTT is the smaller of its two entries (the paper keeps the
//     minimum of several pings, 2.1 (1); a symmetric matrix gives the
//     entry itself).
//  2. The noise scale and the values' resolution are estimated from the
//     matrix (Noise), which sets the jump threshold.
//  3. Outliers: in a tree, the path u–v is never longer than u–w plus w–v,
//     and an RTT is the path plus the hosts' constant part, so RTT(u, v) ≤
//     RTT(u, w) + RTT(w, v) holds with that constant to spare. A pair that
//     breaks it by more than the threshold for one of the three nodes
//     nearest to u or to v is an outlier (one slow ping). It is repaired:
//     when u's and v's rows agree on every other node (at most one entry
//     apart by more than the threshold), the two are on one switch and the
//     pair gets the typical RTT to a switch neighbour (the median over
//     nodes of their smallest RTT); otherwise it gets the RTT from u's
//     nearest other node to v.
//  4. Each node's view: it sorts its RTTs to the others, r(0) ≤ … ≤
//     r(N−2), and takes the first jump d(i) = r(i+1) − r(i) larger than the
//     threshold as the edge of its switch: the paper takes the largest
//     change of d, but in a deeper tree every level adds a similar jump
//     (each level with its own hop latency) and the first one is the
//     switch. No such jump: all nodes are on its switch.
//  5. A view keeps only the nodes whose own views hold it back: a node
//     that missed its switch's jump (its view ran on into the next level)
//     keeps its switch, since the next level's nodes do not see it as one
//     of theirs.
//  6. The views are combined by vote. A view proposes its group (the node
//     and those before the jump); a group proposed by more nodes is taken
//     first (ties: the larger group, then the smaller first node), and a
//     group overlapping one already taken is dropped. One wrong view then
//     loses against the other members' views whenever its switch has at
//     least three nodes (with two, the larger of the two proposals wins).
//     Nodes left over (only when several views are wrong) form groups from
//     their own views' remaining nodes.
//
// Groups come back ordered by their smallest node, each ascending.
func InferLeavesNoise(rtt [][]float64) ([][]int, Noise, error) {
	m, nz, err := cleanRTT(rtt)
	if err != nil {
		return nil, nz, err
	}
	proposal := viewsOf(len(rtt), m, nz.Threshold)
	return combineViews(len(rtt), proposal), nz, nil
}

// views is every node's own proposal of its group (step 4 of
// InferLeavesNoise).
func views(rtt [][]float64) ([][]int, error) {
	m, nz, err := cleanRTT(rtt)
	if err != nil {
		return nil, err
	}
	return viewsOf(len(rtt), m, nz.Threshold), nil
}

// cleanRTT checks the matrix and returns the pairs' RTTs (steps 1–3 of
// InferLeavesNoise) as a flat n×n matrix, with the noise it read.
func cleanRTT(rtt [][]float64) ([]float64, Noise, error) {
	var nz Noise
	n := len(rtt)
	if n == 0 {
		return nil, nz, errf.Errorf("topology: empty RTT matrix")
	}
	for u, row := range rtt {
		if len(row) != n {
			return nil, nz, errf.Errorf("topology: RTT row %d has %d entries, want %d", u, len(row), n)
		}
		for v, x := range row {
			if u != v && (math.IsNaN(x) || math.IsInf(x, 0) || x < 0) {
				return nil, nz, errf.Errorf("topology: RTT[%d][%d] = %v, want a finite number ≥ 0", u, v, x)
			}
		}
	}
	m := make([]float64, n*n)
	nz.Symmetric = true
	for u := range n {
		for v := u + 1; v < n; v++ {
			a, b := rtt[u][v], rtt[v][u]
			if a != b {
				nz.Symmetric = false
			}
			m[u*n+v], m[v*n+u] = min(a, b), min(a, b)
		}
	}
	if n <= 2 {
		return m, nz, nil
	}
	nz.Quantum = quantum(rtt)
	// The three nearest nodes of each.
	const k = 3
	near := make([]int, n*k)
	for u := range n {
		nearest(m[u*n:(u+1)*n], u, near[u*k:(u+1)*k])
	}
	// The noise scale from each node's nearest neighbour's row, pooled
	// with the two entries of every pair when they were measured apart.
	per := make([]float64, 0, n*n)
	if !nz.Symmetric {
		for u := range n {
			for v := u + 1; v < n; v++ {
				per = append(per, math.Abs(rtt[u][v]-rtt[v][u]))
			}
		}
	}
	diffs := make([]float64, 0, n)
	for u := range n {
		v := near[u*k]
		if v < 0 {
			continue
		}
		diffs = diffs[:0]
		for w := range n {
			if w != u && w != v {
				diffs = append(diffs, rtt[u][w]-rtt[v][w])
			}
		}
		if len(diffs) == 0 {
			continue
		}
		for _, d := range diffs {
			per = append(per, math.Abs(d))
		}
	}
	nz.Scale = lowerMean(per)
	nz.Threshold = JumpFactor*nz.Scale + 1.5*nz.Quantum
	if nz.Threshold == 0 {
		top := 0.0
		for _, x := range m {
			top = max(top, x)
		}
		nz.Threshold = 1e-9 * (1 + top) // noise-free values off any grid: every increase is a jump
	}
	tau := nz.Threshold
	{
		mins := make([]float64, n)
		for u := range n {
			mins[u] = m[u*n+near[u*k]]
		}
		nz.Neighbour = median(mins)
	}
	// Outliers (step 3).
	type pair struct{ u, v int }
	var bad []pair
	isBad := map[pair]bool{}
	for u := range n {
		for v := u + 1; v < n; v++ {
			x := m[u*n+v]
			for j := range 2 * k {
				w := near[u*k+j]
				if j >= k {
					w = near[v*k+j-k]
				}
				if w >= 0 && w != u && w != v && x > m[u*n+w]+m[w*n+v]+tau {
					bad = append(bad, pair{u, v})
					isBad[pair{u, v}] = true
					break
				}
			}
		}
	}
	nz.Outliers = len(bad)
	if len(bad) == 0 {
		return m, nz, nil
	}
	flagged := func(a, b int) bool { return isBad[pair{min(a, b), max(a, b)}] }
	mins := make([]float64, 0, n)
	for u := range n {
		best := math.Inf(1)
		for w := range n {
			if w != u && !flagged(u, w) {
				best = min(best, m[u*n+w])
			}
		}
		if !math.IsInf(best, 1) {
			mins = append(mins, best)
		}
	}
	neighbour := median(mins)
	fixed := make([]float64, len(bad))
	for i, p := range bad {
		u, v := p.u, p.v
		off := 0
		for w := range n {
			if w == u || w == v || flagged(u, w) || flagged(v, w) {
				continue
			}
			if math.Abs(m[u*n+w]-m[v*n+w]) > tau {
				off++
			}
		}
		if off <= 1 {
			fixed[i] = neighbour
			continue
		}
		fixed[i] = m[u*n+v]
		for _, w := range near[u*k : (u+1)*k] {
			if w >= 0 && w != v && !flagged(w, v) {
				fixed[i] = m[w*n+v]
				break
			}
		}
	}
	for i, p := range bad {
		m[p.u*n+p.v], m[p.v*n+p.u] = fixed[i], fixed[i]
	}
	return m, nz, nil
}

// mutual keeps in each proposal the nodes whose own proposals hold its
// node (proposals are ascending).
func mutual(proposal [][]int) [][]int {
	out := make([][]int, len(proposal))
	for u, g := range proposal {
		k := make([]int, 0, len(g))
		for _, v := range g {
			if _, ok := slices.BinarySearch(proposal[v], u); ok {
				k = append(k, v)
			}
		}
		out[u] = k
	}
	return out
}

// nearest fills out with the nodes of the smallest RTTs in row (u's),
// nearest first (ties: the smaller node); -1 where there are fewer.
func nearest(row []float64, u int, out []int) {
	for i := range out {
		out[i] = -1
	}
	for w, x := range row {
		if w == u {
			continue
		}
		for i := range out {
			if out[i] < 0 || x < row[out[i]] {
				copy(out[i+1:], out[i:len(out)-1])
				out[i] = w
				break
			}
		}
	}
}

// quantum is the grid the values lie on: the largest of 1, 0.1, 0.01 and
// 0.001 of which every off-diagonal value is a whole multiple, or 0.
func quantum(rtt [][]float64) float64 {
	for _, q := range []float64{1, 0.1, 0.01, 0.001} {
		on := true
		for u, row := range rtt {
			for v, x := range row {
				if u == v {
					continue
				}
				if r := x / q; math.Abs(r-math.Round(r)) > 1e-6*max(1, math.Abs(r)) {
					on = false
					break
				}
			}
			if !on {
				break
			}
		}
		if on {
			return q
		}
	}
	return 0
}

// viewsOf is every node's own proposal of its group (step 4).
func viewsOf(n int, m []float64, tau float64) [][]int {
	proposal := make([][]int, n)
	o := make([]int, 0, n)
	for u := range n {
		o = o[:0]
		for v := range n {
			if v != u {
				o = append(o, v)
			}
		}
		row := m[u*n : (u+1)*n]
		slices.SortFunc(o, func(a, b int) int {
			if c := cmp.Compare(row[a], row[b]); c != 0 {
				return c
			}
			return a - b
		})
		cut := len(o) - 1 // index of the last node on u's switch
		for i := 0; i+1 < len(o); i++ {
			if row[o[i+1]]-row[o[i]] > tau {
				cut = i
				break
			}
		}
		g := make([]int, 0, cut+2)
		g = append(g, u)
		g = append(g, o[:cut+1]...)
		permsort.Sort(g)
		proposal[u] = g
	}
	return proposal
}

// combineViews takes the proposed groups by vote (see InferLeaves).
func combineViews(n int, proposal [][]int) [][]int {
	type cand struct {
		members []int
		support int
	}
	byKey := map[string]*cand{}
	var cands []*cand
	var sb strings.Builder
	for _, g := range proposal {
		sb.Reset()
		for _, v := range g {
			sb.WriteString(strconv.Itoa(v))
			sb.WriteByte(',')
		}
		k := sb.String()
		c, ok := byKey[k]
		if !ok {
			c = &cand{members: g}
			byKey[k] = c
			cands = append(cands, c)
		}
		c.support++
	}
	permsort.SortStableFunc(cands, func(a, b *cand) int {
		if a.support != b.support {
			return b.support - a.support
		}
		if len(a.members) != len(b.members) {
			return len(b.members) - len(a.members)
		}
		return a.members[0] - b.members[0]
	})
	taken := make([]bool, n)
	var groups [][]int
	for _, c := range cands {
		free := true
		for _, v := range c.members {
			if taken[v] {
				free = false
				break
			}
		}
		if !free {
			continue
		}
		for _, v := range c.members {
			taken[v] = true
		}
		groups = append(groups, c.members)
	}
	for u := range n {
		if taken[u] {
			continue
		}
		var g []int
		for _, v := range proposal[u] {
			if !taken[v] {
				taken[v] = true
				g = append(g, v)
			}
		}
		groups = append(groups, g)
	}
	permsort.SortFunc(groups, func(a, b []int) int { return a[0] - b[0] })
	return groups
}

// lowerMean is the mean of the lower 80 % of xs (reordered in place): a
// spread that ignores the few large values (the nodes of the two switches
// when the nearest node is on another one, outliers) and, unlike a median,
// moves smoothly when the values are whole µs. For an exponential spread
// of mean m it is 0.60 m.
func lowerMean(xs []float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	permsort.Sort(xs)
	k := max(1, len(xs)*8/10)
	s := 0.0
	for _, x := range xs[:k] {
		s += x
	}
	return s / float64(k)
}

// median of xs (reordered in place); 0 for none.
func median(xs []float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	permsort.Sort(xs)
	m := len(xs) / 2
	if len(xs)%2 == 1 {
		return xs[m]
	}
	return (xs[m-1] + xs[m]) / 2
}

package topology

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
)

// JumpFactor is how many noise scales a jump in a node's sorted RTTs must
// exceed to count as the step to the next switch. The noise scale is the
// median difference between the two measurements of a pair (u's of v and
// v's of u); for the exponential ping delays of Net that is ln 2 ≈ 0.69
// times the mean delay m of a measurement, and the largest spacing among
// one switch's RTTs exceeds 10 × 0.69 m with probability about e^-6.9 ≈
// 10⁻³: a stray view now and then, which the vote of InferLeaves absorbs.
// A larger factor misses real jumps sooner: with DefaultNet, 16 fails
// between 3 and 4 µs of per-ping noise, 10 from 4 µs (TestNoiseThreshold).
const JumpFactor = 10

// InferLeaves finds which nodes share a leaf switch from the RTT matrix
// (rtt[u][v] is u's measurement of v, in any unit; the diagonal is
// ignored), the paper's Section 2.1 made robust:
//
//  1. Each node's view: it sorts its RTTs to the others, r(0) ≤ … ≤
//     r(N−2), and takes the first jump d(i) = r(i+1) − r(i) that stands out
//     from the measurement noise (larger than JumpFactor noise scales) as
//     the edge of its switch: the paper takes the largest change of d, but
//     in a deeper tree every level adds a similar jump and the first one is
//     the switch. No such jump: all nodes are on its switch.
//  2. The views are combined by vote. A view proposes its group (the node
//     and those before the jump); a group proposed by more nodes is taken
//     first (ties: the larger group, then the smaller first node), and a
//     group overlapping one already taken is dropped. One wrong view then
//     loses against the other members' views whenever its switch has at
//     least three nodes (with two, the larger of the two proposals wins).
//     Nodes left over (only when several views are wrong) form groups from
//     their own views' remaining nodes.
//
// The noise scale needs the two independent measurements of each pair. When
// every pair's two entries are equal (a symmetrised matrix), it cannot be
// estimated: if most spacings are exactly 0 the data are taken as
// noise-free (every increase is a jump), otherwise the paper's own rule
// (the largest d(i) − d(i−1)) picks the jump.
//
// Groups come back ordered by their smallest node, each ascending.
func InferLeaves(rtt [][]float64) ([][]int, error) {
	proposal, err := views(rtt)
	if err != nil {
		return nil, err
	}
	return combineViews(len(rtt), proposal), nil
}

// views is every node's own proposal of its group (step 1 of InferLeaves).
func views(rtt [][]float64) ([][]int, error) {
	n := len(rtt)
	if n == 0 {
		return nil, fmt.Errorf("topology: empty RTT matrix")
	}
	for u, row := range rtt {
		if len(row) != n {
			return nil, fmt.Errorf("topology: RTT row %d has %d entries, want %d", u, len(row), n)
		}
		for v, x := range row {
			if u != v && (math.IsNaN(x) || math.IsInf(x, 0) || x < 0) {
				return nil, fmt.Errorf("topology: RTT[%d][%d] = %v, want a finite number ≥ 0", u, v, x)
			}
		}
	}
	if n == 1 {
		return [][]int{{0}}, nil
	}
	// The sorted views.
	order := make([][]int, n)
	for u := range order {
		o := make([]int, 0, n-1)
		for v := range n {
			if v != u {
				o = append(o, v)
			}
		}
		row := rtt[u]
		slices.SortFunc(o, func(a, b int) int {
			if c := cmp.Compare(row[a], row[b]); c != 0 {
				return c
			}
			return a - b
		})
		order[u] = o
	}
	// The noise scale.
	diffs := make([]float64, 0, n*(n-1)/2)
	top := 0.0
	for u := range n {
		for v := u + 1; v < n; v++ {
			diffs = append(diffs, math.Abs(rtt[u][v]-rtt[v][u]))
			top = max(top, rtt[u][v], rtt[v][u])
		}
	}
	scale := median(diffs)
	eps := 1e-9 * (1 + top)
	rule := jumpNoise
	if scale == 0 {
		zero, all := 0, 0
		for u, o := range order {
			for i := 0; i+1 < len(o); i++ {
				if rtt[u][o[i+1]] == rtt[u][o[i]] {
					zero++
				}
				all++
			}
		}
		if 2*zero <= all {
			rule = jumpPaper
		}
	}
	tau := JumpFactor*scale + eps
	// Each view's group.
	proposal := make([][]int, n)
	for u, o := range order {
		row := rtt[u]
		cut := len(o) - 1 // index of the last node on u's switch
		switch rule {
		case jumpNoise:
			for i := 0; i+1 < len(o); i++ {
				if row[o[i+1]]-row[o[i]] > tau {
					cut = i
					break
				}
			}
		case jumpPaper:
			best, prev := math.Inf(-1), 0.0
			for i := 0; i+1 < len(o); i++ {
				d := row[o[i+1]] - row[o[i]]
				if d-prev > best {
					best, cut = d-prev, i
				}
				prev = d
			}
		}
		g := append([]int{u}, o[:cut+1]...)
		slices.Sort(g)
		proposal[u] = g
	}
	return proposal, nil
}

const (
	jumpNoise = iota
	jumpPaper
)

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
	slices.SortStableFunc(cands, func(a, b *cand) int {
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
	slices.SortFunc(groups, func(a, b []int) int { return a[0] - b[0] })
	return groups
}

// median of xs (reordered in place); 0 for none.
func median(xs []float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	slices.Sort(xs)
	m := len(xs) / 2
	if len(xs)%2 == 1 {
		return xs[m]
	}
	return (xs[m-1] + xs[m]) / 2
}

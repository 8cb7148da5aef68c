package topology

import (
	"bytes"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// This file is a second generator of measurements, written apart from
// net.go and gen.go (it shares none of their code): its own random trees,
// its own RTT model and its own interference rule, so that the inference
// is tested on data it was not tuned to, as a user's tool would write
// them.
//
// The RTT model: a message's one-way time is the two hosts' own overheads
// (per node, 20 … 20.5 µs: hosts differ a little), its two node links
// (LinkNode each) and, per link between switches, that level's latency
// (the link from a switch at depth d to its parent costs lat[d], drawn per
// tree in 2 … 5 µs, so every level adds a different jump). A ping's RTT is
// twice that plus a delay from the noise family at the given mean. A
// symmetric matrix pings each pair once and writes the value both ways; an
// asymmetric one lets each node ping every other node three times and keep
// the minimum. Values may be rounded to whole µs, and a few entries are
// outliers: one slow ping, ten times the RTT.

// otree is the generator's own cluster.
type otree struct {
	parent, depth []int   // per switch
	leafOf        []int   // node → switch
	members       [][]int // switch → its nodes (leaf switches only)
	host          []float64
	lat           []float64 // per depth: the link to the parent
}

const linkNode = 1.5 // µs one-way, node to its leaf switch

// growTree draws a tree of at most maxNodes nodes and at most maxDepth
// switch levels: a target size log-uniform in [4, maxNodes], a mean leaf
// size in 2 … 16, then random leaf switches split into 2–4 children until
// there are enough leaves, then 2 nodes on every leaf and the rest spread
// at random. Node numbers are shuffled.
func growTree(rng *rand.Rand, maxNodes, maxDepth int) *otree {
	target := int(math.Exp(math.Log(4) + rng.Float64()*(math.Log(float64(maxNodes))-math.Log(4))))
	target = max(4, min(target, maxNodes))
	per := 2 + rng.IntN(15)
	want := max(2, target/per)
	want = min(want, target/2)
	t := &otree{parent: []int{-1}, depth: []int{0}}
	leaves := []int{0}
	for len(leaves) < want {
		var open []int
		for i, s := range leaves {
			if t.depth[s] < maxDepth-1 {
				open = append(open, i)
			}
		}
		if len(open) == 0 {
			break
		}
		i := open[rng.IntN(len(open))]
		s := leaves[i]
		c := min(2+rng.IntN(3), want-len(leaves)+1)
		c = max(c, 2)
		leaves = slices.Delete(leaves, i, i+1)
		for range c {
			leaves = append(leaves, len(t.parent))
			t.parent = append(t.parent, s)
			t.depth = append(t.depth, t.depth[s]+1)
		}
	}
	count := make([]int, len(leaves))
	total := 0
	for i := range count {
		count[i] = 2
		total += 2
	}
	for total < target {
		count[rng.IntN(len(count))]++
		total++
	}
	perm := rng.Perm(total)
	t.leafOf = make([]int, total)
	t.members = make([][]int, len(t.parent))
	k := 0
	for i, s := range leaves {
		for range count[i] {
			v := perm[k]
			k++
			t.leafOf[v] = s
			t.members[s] = append(t.members[s], v)
		}
		slices.Sort(t.members[s])
	}
	t.host = make([]float64, total)
	for v := range t.host {
		t.host[v] = 20 + 0.5*rng.Float64()
	}
	t.lat = make([]float64, maxDepth+1)
	for d := range t.lat {
		t.lat[d] = 2 + 3*rng.Float64()
	}
	return t
}

// links lists the switch links (by child switch) between nodes u and v.
func (t *otree) links(u, v int) []int {
	a, b := t.leafOf[u], t.leafOf[v]
	var out []int
	for a != b {
		if t.depth[a] >= t.depth[b] {
			out = append(out, a)
			a = t.parent[a]
		} else {
			out = append(out, b)
			b = t.parent[b]
		}
	}
	return out
}

// oneWay is the noise-free one-way time from u to v, µs.
func (t *otree) oneWay(u, v int) float64 {
	d := t.host[u] + t.host[v] + 2*linkNode
	for _, s := range t.links(u, v) {
		d += t.lat[t.depth[s]]
	}
	return d
}

// interferes is the generator's own rule: two transfers slow each other
// down when they share a node or a link between switches.
func (t *otree) interferes(a, b, c, d int) bool {
	if a == c || a == d || b == c || b == d {
		return true
	}
	p := t.links(a, b)
	for _, l := range t.links(c, d) {
		if slices.Contains(p, l) {
			return true
		}
	}
	return false
}

// asTree is the cluster as a Tree, for Isomorphic.
func (t *otree) asTree() *Tree {
	tr := &Tree{Nodes: make([]string, len(t.leafOf)), Switches: make([]Switch, len(t.parent))}
	for v := range tr.Nodes {
		tr.Nodes[v] = fmt.Sprintf("h%d", v)
	}
	for s := range t.parent {
		tr.Switches[s] = Switch{ID: s, Parent: t.parent[s], Nodes: t.members[s]}
	}
	if err := tr.Validate(); err != nil {
		panic(err)
	}
	return tr
}

// groups are the leaf switches' nodes in InferLeaves' order.
func (t *otree) groups() [][]int {
	var g [][]int
	for _, m := range t.members {
		if len(m) > 0 {
			g = append(g, m)
		}
	}
	slices.SortFunc(g, func(a, b []int) int { return a[0] - b[0] })
	return g
}

type noiseFamily int

const (
	expNoise noiseFamily = iota
	lognormalNoise
)

func (f noiseFamily) String() string { return [...]string{"exponential", "lognormal"}[f] }

// delay draws one ping's extra delay of the given mean.
func (f noiseFamily) delay(rng *rand.Rand, mean float64) float64 {
	if mean == 0 {
		return 0
	}
	switch f {
	case lognormalNoise:
		const sigma = 1.0 // a heavy tail: the 99th percentile is 6.2 × the mean
		return mean * math.Exp(sigma*rng.NormFloat64()-sigma*sigma/2)
	}
	return mean * rng.ExpFloat64()
}

// measureOpts is how the other tool measures.
type measureOpts struct {
	family    noiseFamily
	noise     float64 // mean extra delay of one ping, µs
	symmetric bool    // one ping per pair, written both ways; else 3 pings each way, minimum kept
	round     bool    // whole µs
	outliers  int     // entries (pairs when symmetric) ten times too slow
}

func (t *otree) measure(rng *rand.Rand, o measureOpts) [][]float64 {
	n := len(t.leafOf)
	rtt := make([][]float64, n)
	for u := range rtt {
		rtt[u] = make([]float64, n)
	}
	for u := range n {
		for v := u + 1; v < n; v++ {
			base := 2 * t.oneWay(u, v)
			if o.symmetric {
				x := base + o.family.delay(rng, o.noise)
				rtt[u][v], rtt[v][u] = x, x
				continue
			}
			for _, e := range [][2]int{{u, v}, {v, u}} {
				best := math.Inf(1)
				for range 3 {
					best = min(best, base+o.family.delay(rng, o.noise))
				}
				rtt[e[0]][e[1]] = best
			}
		}
	}
	// "A few": at most one in 30 pairs (on a 4-node matrix three slow
	// pings of six would be the measurement, not outliers).
	for range min(o.outliers, n*(n-1)/2/30) {
		u, v := rng.IntN(n), rng.IntN(n-1)
		if v >= u {
			v++
		}
		rtt[u][v] *= 10
		if o.symmetric {
			rtt[v][u] = rtt[u][v]
		}
	}
	if o.round {
		for _, row := range rtt {
			for v := range row {
				row[v] = math.Round(row[v])
			}
		}
	}
	return rtt
}

// outsideOracle answers interference questions from the generator's own
// rule.
type outsideOracle struct{ t *otree }

func (o outsideOracle) Interferes(a, b, c, d int) (bool, bool) {
	return o.t.interferes(a, b, c, d), true
}

// outsideTrial measures one tree the other tool's way, infers it from the
// RTTs and from interference, and says what went wrong ("" when nothing).
// When files is set the interference goes through a file: the questions
// the inference asks, answered through other nodes of the same groups,
// written as CSV and read back, must settle the tree alone.
func outsideTrial(rng *rand.Rand, tr *otree, o measureOpts, files bool) string {
	rtt := tr.measure(rng, o)
	groups, err := InferLeaves(rtt)
	if err != nil {
		return err.Error()
	}
	if want := tr.groups(); !sameGroups(groups, want) {
		return fmt.Sprintf("leaf groups: %d inferred, %d true", len(groups), len(want))
	}
	truth := tr.asTree()
	got, plan, err := InferTree(truth.Nodes, groups, outsideOracle{tr})
	if err != nil {
		return "tree: " + err.Error()
	}
	if !Isomorphic(got, truth) {
		return "tree: not isomorphic"
	}
	if !files {
		return ""
	}
	// Every question answered through random other nodes of its groups.
	obs := make([]Observation, 0, len(plan.Used))
	other := func(v int) int {
		m := tr.members[tr.leafOf[v]]
		return m[rng.IntN(len(m))]
	}
	for _, q := range plan.Used {
		a, b, c, d := other(q.A), other(q.B), other(q.C), other(q.D)
		if a == b || c == d {
			continue // cannot happen: the pairs join different groups
		}
		obs = append(obs, Observation{a, b, c, d, tr.interferes(a, b, c, d)})
	}
	var buf bytes.Buffer
	if err := WriteInterferenceCSV(&buf, truth.Nodes, obs); err != nil {
		return err.Error()
	}
	oracle, err := ReadInterferenceCSV(&buf, truth.Nodes)
	if err != nil {
		return err.Error()
	}
	got, plan, err = InferTree(truth.Nodes, groups, oracle)
	if err != nil {
		return fmt.Sprintf("from the file: %v (%d needed)", err, len(plan.Needed))
	}
	if !Isomorphic(got, truth) {
		return "from the file: not isomorphic"
	}
	return ""
}

// TestOutsideGenerator: 240 random trees (depth ≤ 5, ≤ 1,024 nodes, the
// largest ones included) measured by the other tool in every way it
// knows, at a noise well inside the limits TestOutsideThresholds finds:
// every leaf group and every tree must come out right, also when the
// interference comes from a file through other nodes of the groups.
func TestOutsideGenerator(t *testing.T) {
	trees := 240
	if testing.Short() {
		trees = 60
	}
	rng := rand.New(rand.NewPCG(2026, 13))
	for i := range trees {
		maxNodes := 1024
		if i%4 != 0 {
			maxNodes = 300 // most trees smaller, so the test stays quick
		}
		tr := growTree(rng, maxNodes, 1+rng.IntN(5))
		o := measureOpts{
			family:    noiseFamily(i % 2),
			noise:     0.5,
			symmetric: i%3 != 2,
			round:     i%5 < 2,
			outliers:  3 * (i % 2),
		}
		if msg := outsideTrial(rng, tr, o, i%2 == 0); msg != "" {
			t.Errorf("tree %d (%d nodes, %d switches, %+v): %s", i, len(tr.leafOf), len(tr.parent), o, msg)
		}
	}
}

// TestOutsideNeededList: without observations the inference names what it
// needs as pairs of groups; answering exactly that list (through any
// nodes of the groups) and asking again settles the tree in a few rounds.
func TestOutsideNeededList(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 5))
	for i := range 30 {
		tr := growTree(rng, 200, 2+rng.IntN(4))
		truth := tr.asTree()
		groups := tr.groups()
		var obs []Observation
		rounds := 0
		for ; rounds < 50; rounds++ {
			got, plan, err := InferTree(truth.Nodes, groups, NewObserved(obs))
			if err == nil {
				if !Isomorphic(got, truth) {
					t.Fatalf("tree %d: not isomorphic after %d rounds", i, rounds)
				}
				break
			}
			if len(plan.Needed) == 0 {
				t.Fatalf("tree %d: %v with nothing needed", i, err)
			}
			for _, g := range plan.NeededGroups {
				pick := func(gi int) int { return groups[gi][rng.IntN(len(groups[gi]))] }
				a, b, c, d := pick(g[0]), pick(g[1]), pick(g[2]), pick(g[3])
				obs = append(obs, Observation{a, b, c, d, tr.interferes(a, b, c, d)})
			}
		}
		if rounds == 50 {
			t.Fatalf("tree %d: not settled after 50 rounds of answering the list", i)
		}
	}
}

// outsideFailures counts the trees of one sweep cell that come out wrong.
func outsideFailures(family noiseFamily, symmetric bool, noise float64, trees int, seed uint64) (int, string) {
	rng := rand.New(rand.NewPCG(seed, uint64(family)))
	fails, first := 0, ""
	for range trees {
		tr := growTree(rng, 300, 1+rng.IntN(5))
		o := measureOpts{family: family, noise: noise, symmetric: symmetric, round: true, outliers: 3}
		if msg := outsideTrial(rng, tr, o, false); msg != "" {
			if fails == 0 {
				first = msg
			}
			fails++
		}
	}
	return fails, first
}

// outsideLevels is the noise grid of the sweep (mean extra delay of one
// ping, µs).
var outsideLevels = []float64{0.25, 0.5, 0.75, 1, 1.25, 1.5, 2, 2.5, 3, 4, 5, 6, 8}

// TestOutsideThresholds finds, per noise family and matrix kind, the
// smallest mean ping delay on the grid at which any of 40 random trees
// (rounded to whole µs, three outliers) is inferred wrong. The smallest
// RTT jump in these trees is 8 µs (two links of at least 2 µs, both ways).
// The levels are logged as the README's table; the test fails when any
// cell fails at the noise TestOutsideGenerator uses or never fails at all
// (then the sweep could not see a limit).
func TestOutsideThresholds(t *testing.T) {
	if testing.Short() {
		t.Skip("sweep")
	}
	var sb strings.Builder
	sb.WriteString("\n| noise family | matrix | first failing mean ping delay (µs) | first failure |\n| --- | --- | --- | --- |\n")
	for _, fam := range []noiseFamily{expNoise, lognormalNoise} {
		for _, sym := range []bool{true, false} {
			kind := "asymmetric, min of 3"
			if sym {
				kind = "symmetric, 1 ping"
			}
			at, why := 0.0, ""
			for _, lv := range outsideLevels {
				if f, msg := outsideFailures(fam, sym, lv, 40, 77); f > 0 {
					at, why = lv, fmt.Sprintf("%d/40: %s", f, msg)
					break
				}
			}
			fmt.Fprintf(&sb, "| %s | %s | %g | %s |\n", fam, kind, at, why)
			if at == 0 {
				t.Errorf("%s %s: no failure up to %g µs", fam, kind, outsideLevels[len(outsideLevels)-1])
			} else if at <= 0.5 {
				t.Errorf("%s %s: fails at %g µs, within TestOutsideGenerator's 0.5 µs", fam, kind, at)
			}
		}
	}
	t.Log(sb.String())
}

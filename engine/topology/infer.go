package topology

import (
	"fmt"
	"slices"

	"commlab/internal/errf"
	"commlab/internal/permsort"
)

// Query is one interference question: do transfers A↔B and C↔D interfere?
type Query struct{ A, B, C, D int }

// Plan is what InferTree measured and what it still needs.
type Plan struct {
	// Used are the questions the Oracle answered, in the order asked;
	// Round[i] is the merge round Used[i] was asked in (questions of one
	// round do not depend on each other's answers and may run in parallel).
	Used  []Observation
	Round []int
	// Needed are the questions the Oracle could not answer whose answers
	// would settle the tree (unique, in the order first asked).
	// NeededGroups[i] are the leaf groups (indices into the groups in the
	// order of their smallest nodes) of Needed[i]'s four nodes: any node of
	// each group gives the same answer, so a measurement through other
	// nodes of those groups will do. Questions of later rounds depend on
	// these answers, so the list may grow once they are given.
	Needed       []Query
	NeededGroups [][4]int
}

// IncompleteError says the observations do not settle the tree; the Plan
// returned with it lists the measurements needed.
type IncompleteError struct{ Needed int }

func (e *IncompleteError) Error() string {
	return fmt.Sprintf("topology: the interference observations do not settle the tree: %d more measurements needed", e.Needed)
}

// InferTree builds the switch tree over the leaf-switch groups (as
// InferLeaves returns them) from interference observations, with the
// algorithm of the paper's Fig. 1. It returns the tree (leaf switch i holds
// the i-th group in the order of their smallest nodes; fresh switches
// follow) and the Plan of measurements. When the Oracle cannot answer
// questions the tree depends on, it returns a nil tree, the Plan listing
// them and an *IncompleteError.
//
// Fig. 1 keeps X (switches not yet placed), R (non-interfering pair-pairs)
// and builds bottom-up: merge(X, R) finds sibling groups S_i, each gets a
// fresh parent switch, f maps every member to its parent and R is updated
// through f. Here R is kept at the level of X (the observations mapped
// through f, as update(R, T) does) and a question about elements of X is
// asked with representative nodes (the smallest node of the smallest leaf
// below each), which in a tree gives the same answer as any other choice.
//
// How the paper's rules are made exact:
//
//   - Siblings. The paper's condition (every two disjoint pairs of S_i do
//     not interfere) also accepts a sibling group plus an outsider. Here u
//     and v of X are siblings when (uv, wx) ∈ R for every pair w, x of X
//     disjoint from them (the spec's rule). In a tree that holds exactly
//     when every other element of X reaches the path u–v at the same
//     switch, so it suffices that the graph on X∖{u, v} joining w and x
//     whenever (uv, wx) ∈ R is connected: known observations join it, and
//     each remaining part is asked once against an anchor (the smallest
//     other element), |X|−3 questions at most instead of (|X|−2)(|X|−3)/2.
//     One interfering answer settles "not siblings". Sibling groups are the
//     connected parts of the sibling relation.
//   - Fewer than four. |X| = 2: one edge. |X| = 3: Fig. 1's lines 5–13; a
//     can join b and c itself only if a is a switch built earlier (a leaf
//     switch has one link), and (ab, ac) is asked with a's two nodes in
//     different branches below a. One leaf switch: the tree is that switch.
//   - Leaves at different depths. A switch P whose children are placed in
//     different rounds (some are leaves, some deeper subtrees) is built
//     more than once: a fresh switch for the children ready first, another
//     one above it later. Such a chain of fresh switches is one switch in
//     truth, and an edge c–p between two built switches is real exactly when
//     paths across it always share it: two nodes in different branches
//     below c talking to two nodes in different branches beyond p do not
//     interfere iff c and p are the same switch. So after the loop every
//     such edge is tested once and contracted when the test says so.
//
// Nothing needs the tree's root: interference cannot tell where it is (nor
// see switches with a single child), so the root returned is the switch
// built last, and Isomorphic compares trees without roots.
func InferTree(nodes []string, leaves [][]int, o Oracle) (*Tree, Plan, error) {
	groups, err := canonicalGroups(len(nodes), leaves)
	if err != nil {
		return nil, Plan{}, err
	}
	in := newInference(groups, o)
	in.run()
	in.contract()
	if len(in.plan.Needed) > 0 {
		return nil, in.plan, &IncompleteError{Needed: len(in.plan.Needed)}
	}
	if in.err != nil {
		return nil, in.plan, in.err
	}
	t := in.tree(nodes)
	if err := t.Validate(); err != nil {
		return nil, in.plan, errf.Errorf("topology: inferred tree invalid (observations inconsistent with a tree?): %w", err)
	}
	return t, in.plan, nil
}

// canonicalGroups checks the groups partition the nodes and sorts them.
func canonicalGroups(n int, leaves [][]int) ([][]int, error) {
	if n == 0 {
		return nil, errf.Errorf("topology: no nodes")
	}
	seen := make([]int, n)
	for i := range seen {
		seen[i] = -1
	}
	groups := make([][]int, 0, len(leaves))
	for gi, g := range leaves {
		if len(g) == 0 {
			return nil, errf.Errorf("topology: leaf group %d is empty", gi)
		}
		for _, v := range g {
			if v < 0 || v >= n {
				return nil, errf.Errorf("topology: leaf group %d lists node %d (want [0, %d))", gi, v, n)
			}
			if seen[v] >= 0 {
				return nil, errf.Errorf("topology: node %d is in leaf groups %d and %d", v, seen[v], gi)
			}
			seen[v] = gi
		}
		c := slices.Clone(g)
		permsort.Sort(c)
		groups = append(groups, c)
	}
	for v, g := range seen {
		if g < 0 {
			return nil, errf.Errorf("topology: node %d is in no leaf group", v)
		}
	}
	permsort.SortFunc(groups, func(a, b []int) int { return a[0] - b[0] })
	return groups, nil
}

type inference struct {
	groups   [][]int
	o        Oracle
	obs      []Observation // the Observer's observations, if any
	leafOf   []int         // node → leaf switch (group index)
	children [][]int       // element → its children (nil for leaf switches)
	parent   []int
	top      []int // element → the element of X above it (f, composed)
	x        []int // X, ascending
	r        map[[4]int]bool
	byPair   map[[2]int][]pairFact
	asked    map[[4]int]bool // node-level questions already asked
	needed   map[[4]int]bool
	plan     Plan
	round    int
	err      error
	root     int
}

type pairFact struct {
	other      [2]int
	interferes bool
}

func newInference(groups [][]int, o Oracle) *inference {
	n := 0
	for _, g := range groups {
		n += len(g)
	}
	in := &inference{
		groups: groups, o: o, leafOf: make([]int, n),
		r: map[[4]int]bool{}, asked: map[[4]int]bool{}, needed: map[[4]int]bool{},
	}
	for i, g := range groups {
		for _, v := range g {
			in.leafOf[v] = i
		}
		in.children = append(in.children, nil)
		in.parent = append(in.parent, -1)
		in.top = append(in.top, i)
		in.x = append(in.x, i)
	}
	if ob, ok := o.(Observer); ok {
		in.obs = ob.Observations()
		for _, x := range in.obs {
			if min(x.A, x.B, x.C, x.D) < 0 || max(x.A, x.B, x.C, x.D) >= n {
				continue // an Observed from another node list; ReadInterferenceCSV never makes one
			}
			in.note(in.leafOf[x.A], in.leafOf[x.B], in.leafOf[x.C], in.leafOf[x.D], x.Interferes)
		}
	}
	return in
}

// note records an answer about elements (ab, cd) in R: a non-interfering
// answer wins over interfering ones (R only grows).
func (in *inference) note(a, b, c, d int, interferes bool) {
	if a == b || c == d {
		return // a path inside one element: no question about X
	}
	k := quadKey(a, b, c, d)
	if prev, ok := in.r[k]; ok {
		interferes = prev && interferes
	}
	in.r[k] = interferes
}

// update maps R through f (Fig. 1's update(R, T)) after a round.
func (in *inference) update() {
	old := in.r
	in.r = make(map[[4]int]bool, len(old))
	for k, v := range old {
		in.note(in.top[k[0]], in.top[k[1]], in.top[k[2]], in.top[k[3]], v)
	}
}

// rep is the representative node of element e: the smallest node of the
// smallest leaf below it.
func (in *inference) rep(e int) int {
	for in.children[e] != nil {
		e = in.children[e][0]
	}
	return in.groups[e][0]
}

// ask asks the Oracle about nodes (ab, cd) and records the answer in R
// under elements (ea eb, ec ed).
func (in *inference) ask(a, b, c, d, ea, eb, ec, ed int) (interferes, known bool) {
	k := quadKey(a, b, c, d)
	if v, ok := in.asked[k]; ok {
		return v, true
	}
	if in.needed[k] {
		return true, false
	}
	v, ok := in.o.Interferes(a, b, c, d)
	if !ok {
		in.needed[k] = true
		in.plan.Needed = append(in.plan.Needed, Query{a, b, c, d})
		in.plan.NeededGroups = append(in.plan.NeededGroups, [4]int{in.leafOf[a], in.leafOf[b], in.leafOf[c], in.leafOf[d]})
		return true, false
	}
	in.asked[k] = v
	in.plan.Used = append(in.plan.Used, Observation{a, b, c, d, v})
	in.plan.Round = append(in.plan.Round, in.round)
	in.note(ea, eb, ec, ed, v)
	return v, true
}

// question answers (uv, wx) for elements of X: from R, else by asking.
func (in *inference) question(u, v, w, x int) (interferes, known bool) {
	if r, ok := in.r[quadKey(u, v, w, x)]; ok {
		return r, true
	}
	return in.ask(in.rep(u), in.rep(v), in.rep(w), in.rep(x), u, v, w, x)
}

func (in *inference) fresh(kids []int) int {
	s := len(in.children)
	in.children = append(in.children, slices.Clone(kids))
	in.parent = append(in.parent, -1)
	in.top = append(in.top, s)
	for _, k := range kids {
		in.parent[k] = s
	}
	for e := range in.top {
		if slices.Contains(kids, in.top[e]) {
			in.top[e] = s
		}
	}
	return s
}

func (in *inference) run() {
	for {
		switch len(in.x) {
		case 1:
			in.root = in.x[0]
			return
		case 2:
			in.edge(in.x[0], in.x[1])
			return
		case 3:
			in.three()
			return
		}
		groups := in.merge()
		if len(groups) == 0 {
			if len(in.plan.Needed) == 0 {
				in.err = errf.Errorf("topology: no two of the %d remaining switches are siblings: the observations are not those of a tree", len(in.x))
			}
			return
		}
		for _, g := range groups {
			in.fresh(g)
		}
		next := in.x[:0:0]
		for _, e := range in.x {
			if in.parent[e] < 0 {
				next = append(next, e)
			}
		}
		for _, g := range groups {
			next = append(next, in.parent[g[0]])
		}
		in.x = next
		in.update()
		in.round++
	}
}

// edge joins the last two elements (Fig. 1 line 3). The tree keeps nodes on
// leaf switches only, so a built switch takes the other as its child, and
// two leaf switches get a parent (one switch with two links: invisible to
// interference and to Isomorphic).
func (in *inference) edge(a, b int) {
	switch {
	case in.children[a] != nil:
		in.adopt(a, b)
		in.root = a
	case in.children[b] != nil:
		in.adopt(b, a)
		in.root = b
	default:
		in.root = in.fresh([]int{a, b})
	}
}

func (in *inference) adopt(p, c int) {
	in.children[p] = append(in.children[p], c)
	in.parent[c] = p
}

// three settles |X| = 3 (Fig. 1 lines 5–13).
func (in *inference) three() {
	x := in.x
	for i, a := range x {
		if in.children[a] == nil {
			continue // a leaf switch has one link: it cannot join two others
		}
		b, c := x[(i+1)%3], x[(i+2)%3]
		if r, ok := in.r[quadKey(a, b, a, c)]; ok && !r {
			in.adopt(a, b)
			in.adopt(a, c)
			in.root = a
			return
		}
		if joins, known := in.observedAcross(a, b, c); known {
			if joins {
				in.adopt(a, b)
				in.adopt(a, c)
				in.root = a
				return
			}
			continue
		}
		a1, a2 := in.rep(in.children[a][0]), in.rep(in.children[a][1])
		if r, ok := in.ask(a1, in.rep(b), a2, in.rep(c), a, b, a, c); ok && !r {
			in.adopt(a, b)
			in.adopt(a, c)
			in.root = a
			return
		}
	}
	in.root = in.fresh(x)
}

// observedAcross looks for an observation of whether a joins b and c: one
// pair from below a to below b, the other from below a to below c, the
// two a-ends in different branches of a; a joins them iff the two do not
// interfere. Any nodes of the groups will do; R cannot hold this fact,
// since update maps both a-ends to a and a same-branch observation of the
// same elements always interferes. A non-interfering one wins.
func (in *inference) observedAcross(a, b, c int) (joins, known bool) {
	end := func(x, y int) (br, far int, ok bool) {
		lx, ly := in.leafOf[x], in.leafOf[y]
		if in.below(lx, a) && !in.below(ly, a) {
			lx, ly = ly, lx
		} else if !in.below(ly, a) || in.below(lx, a) {
			return 0, 0, false
		}
		// ly is below a, lx is not.
		switch {
		case in.below(lx, b):
			far = b
		case in.below(lx, c):
			far = c
		default:
			return 0, 0, false
		}
		return in.branch(ly, a), far, true
	}
	for _, ob := range in.obs {
		b1, f1, ok1 := end(ob.A, ob.B)
		b2, f2, ok2 := end(ob.C, ob.D)
		if ok1 && ok2 && b1 != b2 && f1 != f2 {
			if !ob.Interferes {
				return true, true
			}
			known = true
		}
	}
	return false, known
}

// merge finds the sibling groups of X (Fig. 1's merge(X, R), made exact).
func (in *inference) merge() [][]int {
	x := in.x
	pos := make(map[int]int, len(x))
	for i, e := range x {
		pos[e] = i
	}
	// Index R by pair so each pair sees its known facts.
	in.byPair = make(map[[2]int][]pairFact)
	for k, v := range in.r {
		p, q := [2]int{k[0], k[1]}, [2]int{k[2], k[3]}
		in.byPair[p] = append(in.byPair[p], pairFact{q, v})
		if p != q {
			in.byPair[q] = append(in.byPair[q], pairFact{p, v})
		}
	}
	for _, fs := range in.byPair {
		permsort.SortFunc(fs, func(a, b pairFact) int {
			if a.other[0] != b.other[0] {
				return a.other[0] - b.other[0]
			}
			return a.other[1] - b.other[1]
		})
	}
	uf := newUnionFind(len(x))
	comp := newUnionFind(len(x))
	for i := range x {
		for j := i + 1; j < len(x); j++ {
			if in.siblings(x[i], x[j], i, j, pos, comp) {
				uf.union(i, j)
			}
		}
	}
	byRoot := map[int][]int{}
	var roots []int
	for i, e := range x {
		r := uf.find(i)
		if _, ok := byRoot[r]; !ok {
			roots = append(roots, r)
		}
		byRoot[r] = append(byRoot[r], e)
	}
	var groups [][]int
	for _, r := range roots {
		if len(byRoot[r]) >= 2 {
			groups = append(groups, byRoot[r])
		}
	}
	return groups
}

// siblings decides whether u = x[i] and v = x[j] are siblings: the graph on
// X∖{u, v} joined by (uv, wx) ∈ R must be connected, with no interfering
// (uv, wx) known.
func (in *inference) siblings(u, v, i, j int, pos map[int]int, comp *unionFind) bool {
	comp.reset()
	for _, f := range in.byPair[[2]int{u, v}] {
		w, x := f.other[0], f.other[1]
		if w == u || w == v || x == u || x == v {
			continue
		}
		if f.interferes {
			return false
		}
		comp.union(pos[w], pos[x])
	}
	anchor := -1
	for k := range in.x {
		if k != i && k != j {
			anchor = k
			break
		}
	}
	settled := true
	for k, w := range in.x {
		if k == i || k == j || k == anchor || comp.find(k) == comp.find(anchor) {
			continue
		}
		r, ok := in.question(u, v, w, in.x[anchor])
		switch {
		case !ok:
			settled = false
		case r:
			return false
		default:
			comp.union(k, anchor)
		}
	}
	return settled
}

// contract removes the edges between built switches that are not real
// (leaves at different depths; see InferTree).
func (in *inference) contract() {
	if in.err != nil || len(in.plan.Needed) > 0 {
		return
	}
	for changed := true; changed; {
		changed = false
		for c := len(in.groups); c < len(in.children); c++ {
			p := in.parent[c]
			if in.children[c] == nil || p < 0 || in.children[p] == nil {
				continue
			}
			if in.sameSwitch(c, p) {
				for _, k := range in.children[c] {
					in.parent[k] = p
				}
				in.children[p] = slices.DeleteFunc(in.children[p], func(k int) bool { return k == c })
				in.children[p] = append(in.children[p], in.children[c]...)
				in.children[c] = []int{} // removed: no parent, not a leaf switch
				in.parent[c] = -2
				changed = true
			}
		}
	}
}

// sameSwitch tests the edge c–p (c a child of p): do two nodes in different
// branches below c, talking to two nodes in different branches beyond p,
// stay clear of each other?
func (in *inference) sameSwitch(c, p int) bool {
	var beyond []int // one representative leaf per branch of p other than c
	for _, k := range in.children[p] {
		if k != c {
			beyond = append(beyond, in.leafBelow(k))
		}
	}
	if in.parent[p] >= 0 {
		for l := range in.groups {
			if !in.below(l, p) {
				beyond = append(beyond, l)
				break
			}
		}
	}
	if len(beyond) < 2 {
		return false // p is a root with two links: nothing to test, nothing to gain
	}
	// Any observation already given settles it.
	branchC := func(l int) int { return in.branch(l, c) }
	branchP := func(l int) int {
		if in.below(l, c) {
			return -1
		}
		if !in.below(l, p) {
			return len(in.children[p]) // the branch above p
		}
		return in.branch(l, p)
	}
	// orient gives the branches below c and beyond p of a pair that crosses
	// the edge, or ok = false.
	orient := func(a, b int) (bc, bp int, ok bool) {
		la, lb := in.leafOf[a], in.leafOf[b]
		if bc, bp = branchC(la), branchP(lb); bc >= 0 && bp >= 0 {
			return bc, bp, true
		}
		if bc, bp = branchC(lb), branchP(la); bc >= 0 && bp >= 0 {
			return bc, bp, true
		}
		return 0, 0, false
	}
	seen := false
	for _, ob := range in.obs {
		c1, p1, ok1 := orient(ob.A, ob.B)
		c2, p2, ok2 := orient(ob.C, ob.D)
		if ok1 && ok2 && c1 != c2 && p1 != p2 {
			if !ob.Interferes {
				return true
			}
			seen = true
		}
	}
	if seen {
		return false // observed interfering (and never clear): a real edge
	}
	a1, a2 := in.rep(in.children[c][0]), in.rep(in.children[c][1])
	r, ok := in.ask(a1, in.groups[beyond[0]][0], a2, in.groups[beyond[1]][0], -1, -1, -1, -1)
	return ok && !r
}

// leafBelow is the smallest leaf switch below element e.
func (in *inference) leafBelow(e int) int {
	for in.children[e] != nil {
		e = in.children[e][0]
	}
	return e
}

// below says whether leaf l is below element e.
func (in *inference) below(l, e int) bool {
	for ; l >= 0; l = in.parent[l] {
		if l == e {
			return true
		}
	}
	return false
}

// branch is the index of e's child whose subtree holds leaf l, or -1.
//
//go:noinline
func (in *inference) branch(l, e int) int {
	for ; l >= 0; l = in.parent[l] {
		if in.parent[l] == e {
			return slices.Index(in.children[e], l)
		}
	}
	return -1
}

// tree renumbers the surviving switches: leaf switches first (in group
// order), then the built ones in the order they were built.
func (in *inference) tree(nodes []string) *Tree {
	id := make([]int, len(in.children))
	t := &Tree{Nodes: slices.Clone(nodes)}
	for e := range in.children {
		id[e] = -1
		if e < len(in.groups) || (in.parent[e] != -2 && len(in.children[e]) > 0) {
			id[e] = len(t.Switches)
			t.Switches = append(t.Switches, Switch{ID: id[e]})
		}
	}
	for e := range in.children {
		if id[e] < 0 {
			continue
		}
		sw := &t.Switches[id[e]]
		sw.Parent = -1
		if in.parent[e] >= 0 {
			sw.Parent = id[in.parent[e]]
		}
		if e < len(in.groups) {
			sw.Nodes = slices.Clone(in.groups[e])
		}
	}
	return t
}

type unionFind struct{ p []int }

func newUnionFind(n int) *unionFind {
	u := &unionFind{p: make([]int, n)}
	u.reset()
	return u
}

func (u *unionFind) reset() {
	for i := range u.p {
		u.p[i] = i
	}
}

func (u *unionFind) find(i int) int {
	for u.p[i] != i {
		u.p[i] = u.p[u.p[i]]
		i = u.p[i]
	}
	return i
}

func (u *unionFind) union(i, j int) {
	a, b := u.find(i), u.find(j)
	if a < b {
		a, b = b, a
	}
	u.p[a] = b
}

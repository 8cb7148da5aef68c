package topology

import (
	"errors"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// pipeline measures t, infers it back and reports whether the result is
// isomorphic.
func pipeline(t *testing.T, tr *Tree, n Net, rng *rand.Rand) (*Tree, error) {
	t.Helper()
	rtt := MeasureRTT(tr, n, rng)
	groups, err := InferLeaves(rtt)
	if err != nil {
		return nil, err
	}
	got, _, err := InferTree(tr.Nodes, groups, Measured{tr})
	return got, err
}

func TestPaperClusterRoundTrip(t *testing.T) {
	for _, tr := range []*Tree{PaperCluster(), PaperExperiment()} {
		got, err := pipeline(t, tr, DefaultNet(), rand.New(rand.NewPCG(1, 2)))
		if err != nil {
			t.Fatal(err)
		}
		if !Isomorphic(got, tr) {
			t.Errorf("inferred tree not isomorphic to the true one")
		}
	}
}

func TestRandomTreesRoundTrip(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 7))
	for i := range 300 {
		tr := Random(rng, 2+rng.IntN(120))
		got, err := pipeline(t, tr, DefaultNet(), rng)
		if err != nil {
			t.Fatalf("tree %d: %v", i, err)
		}
		if !Isomorphic(got, tr) {
			t.Fatalf("tree %d: not isomorphic\ntrue %+v\ngot  %+v", i, tr.Switches, got.Switches)
		}
	}
}

func TestInferTreeSmall(t *testing.T) {
	one, _ := Generate(1, 1, 3)
	got, plan, err := InferTree(one.Nodes, one.Groups(), Measured{one})
	if err != nil || len(got.Switches) != 1 || len(plan.Used) != 0 {
		t.Errorf("one switch: %v, %d switches, %d measurements", err, len(got.Switches), len(plan.Used))
	}
	two, _ := Generate(2, 2, 2)
	got, plan, err = InferTree(two.Nodes, two.Groups(), Measured{two})
	if err != nil || len(got.Switches) != 3 || len(plan.Used) != 0 || !Isomorphic(got, two) {
		t.Errorf("two switches: %v, %d switches, %d measurements", err, len(got.Switches), len(plan.Used))
	}
	star, _ := Generate(2, 3, 2)
	got, plan, err = InferTree(star.Nodes, star.Groups(), Measured{star})
	// Fig. 1 lines 5–13: no leaf switch can join the others: a fresh switch.
	if err != nil || len(got.Switches) != 4 || len(plan.Used) != 0 || !Isomorphic(got, star) {
		t.Errorf("three switches: %v, %d switches, %d measurements", err, len(got.Switches), len(plan.Used))
	}
}

// (AB)(CD) by hand (leaf switches 0–3, representative nodes 0, 2, 4, 6):
// 0-1 are siblings after one question against anchor 2; 0-2 and 0-3 are
// refuted by one question each; 1-2 asks (12, 30), which is (03, 12)
// already answered, 1-3 likewise, 2-3 is (01, 23) from R. The last two
// elements join by an edge (the fresh switch of 0-1 takes the other as its
// child: 6 switches, the true tree's degree-2 root not among them), and the
// edge test (nodes 4-0 with 6-2) is (02, 46) again: real.
func TestInferTreeQuartet(t *testing.T) {
	tr, _ := Generate(3, 2, 2)
	got, plan, err := InferTree(tr.Nodes, tr.Groups(), Measured{tr})
	if err != nil {
		t.Fatal(err)
	}
	want := []Observation{
		{0, 2, 6, 4, false}, // (01, 32)
		{0, 4, 6, 2, true},  // (02, 31)
		{0, 6, 4, 2, true},  // (03, 21)
	}
	if !slices.Equal(plan.Used, want) {
		t.Errorf("used %v\nwant %v", plan.Used, want)
	}
	if len(got.Switches) != 6 || !Isomorphic(got, tr) {
		t.Errorf("%d switches, isomorphic %v", len(got.Switches), Isomorphic(got, tr))
	}
}

// Leaves at different depths: P has leaf switches a1, a2 and three deeper
// subtrees B (b1, b2), C (c1, c2) and D (d1, d2) as children. Round 1
// builds a fresh switch for a1, a2 and one for each of B, C, D; round 2
// finds all four siblings and builds P again above the first: that edge
// is not real (it would split {a1, a2} from the rest) and is contracted.
// With only B and C, Fig. 1's |X| = 3 case finds a1, a2's switch joining
// the other two itself.
func TestInferTreeUnevenDepth(t *testing.T) {
	for _, deep := range []int{2, 3} {
		tr := &Tree{Switches: []Switch{{0, -1, nil}, {1, 0, []int{0, 1}}, {2, 0, []int{2, 3}}}}
		for range deep {
			s := len(tr.Switches)
			tr.Switches = append(tr.Switches, Switch{s, 0, nil})
		}
		node := 4
		for i := range deep {
			for range 2 {
				s := len(tr.Switches)
				tr.Switches = append(tr.Switches, Switch{s, 3 + i, []int{node, node + 1}})
				node += 2
			}
		}
		for i := range node {
			tr.Nodes = append(tr.Nodes, "n"+strconv.Itoa(i))
		}
		if err := tr.Validate(); err != nil {
			t.Fatal(err)
		}
		got, _, err := InferTree(tr.Nodes, tr.Groups(), Measured{tr})
		if err != nil {
			t.Fatal(err)
		}
		if !Isomorphic(got, tr) || len(got.Switches) != len(tr.Switches) {
			t.Errorf("got %d switches (want %d), isomorphic %v: %+v", len(got.Switches), len(tr.Switches), Isomorphic(got, tr), got.Switches)
		}
	}
}

// From a file: all the observations Observe lists settle the tree; a part
// of them does not, InferTree says which it needs, and measuring those
// (again and again) settles it.
func TestInferTreeIncomplete(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for range 20 {
		tr := Random(rng, 80)
		obs, err := Observe(tr)
		if err != nil {
			t.Fatal(err)
		}
		got, plan, err := InferTree(tr.Nodes, tr.Groups(), NewObserved(obs))
		if err != nil || len(plan.Needed) != 0 || !Isomorphic(got, tr) {
			t.Fatalf("all observations: %v, %d needed", err, len(plan.Needed))
		}
		if len(obs) < 2 {
			continue
		}
		part := slices.Clone(obs[:len(obs)/2])
		for rounds := 0; ; rounds++ {
			got, plan, err = InferTree(tr.Nodes, tr.Groups(), NewObserved(part))
			if err == nil {
				break
			}
			var inc *IncompleteError
			if !errors.As(err, &inc) || inc.Needed != len(plan.Needed) || len(plan.Needed) == 0 || got != nil {
				t.Fatalf("partial: %v, %d needed", err, len(plan.Needed))
			}
			if rounds > 100 {
				t.Fatal("never settles")
			}
			for _, q := range plan.Needed {
				part = append(part, Observation{q.A, q.B, q.C, q.D, Interferes(tr, q.A, q.B, q.C, q.D)})
			}
		}
		if !Isomorphic(got, tr) {
			t.Fatal("settled on a wrong tree")
		}
	}
}

// The anchored sibling test gives the spec's rule: (uv, wx) ∈ R for every
// pair w, x of X disjoint from u, v, checked by brute force.
func TestSiblingRuleMatchesSpec(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	for range 100 {
		tr := Random(rng, 60)
		groups := tr.Groups()
		if len(groups) < 4 {
			continue
		}
		in := newInference(groups, Measured{tr})
		fast := in.merge()
		uf := newUnionFind(len(groups))
		rep := func(l int) int { return groups[l][0] }
		S := len(groups)
		for u := range S {
			for v := u + 1; v < S; v++ {
				sib := true
				for w := 0; w < S && sib; w++ {
					for x := w + 1; x < S; x++ {
						if w == u || w == v || x == u || x == v {
							continue
						}
						if Interferes(tr, rep(u), rep(v), rep(w), rep(x)) {
							sib = false
							break
						}
					}
				}
				if sib {
					uf.union(u, v)
				}
			}
		}
		var slow [][]int
		byRoot := map[int]int{}
		for l := range S {
			r := uf.find(l)
			if k, ok := byRoot[r]; ok {
				slow[k] = append(slow[k], l)
			} else {
				byRoot[r] = len(slow)
				slow = append(slow, []int{l})
			}
		}
		slow = slices.DeleteFunc(slow, func(g []int) bool { return len(g) < 2 })
		if !slices.EqualFunc(fast, slow, slices.Equal) {
			t.Fatalf("anchored %v, spec's rule %v", fast, slow)
		}
	}
}

// Observations no tree gives (everything interferes) end in an error.
func TestInferTreeInconsistent(t *testing.T) {
	tr, _ := Generate(2, 5, 2)
	var obs []Observation
	reps := []int{0, 2, 4, 6, 8}
	for _, a := range reps {
		for _, b := range reps {
			for _, c := range reps {
				for _, d := range reps {
					if a != b && c != d {
						obs = append(obs, Observation{a, b, c, d, true})
					}
				}
			}
		}
	}
	if _, _, err := InferTree(tr.Nodes, tr.Groups(), NewObserved(obs)); err == nil || !strings.Contains(err.Error(), "not those of a tree") {
		t.Errorf("err = %v", err)
	}
	for _, c := range []struct {
		g    [][]int
		want string
	}{
		{[][]int{{0, 1}, {}}, "leaf group 1 is empty"},
		{[][]int{{0, 1, 2, 3, 4, 5, 6, 7, 8, 9}, {0}}, "in leaf groups 0 and 1"},
		{[][]int{{0, 1, 2, 3, 4, 5, 6, 7, 8}}, "node 9 is in no leaf group"},
		{[][]int{{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10}}, "lists node 10"},
	} {
		if _, _, err := InferTree(tr.Nodes, c.g, Measured{tr}); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("groups %v: %v, want %q", c.g, err, c.want)
		}
	}
}

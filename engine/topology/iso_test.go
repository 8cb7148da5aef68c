package topology

import "testing"

// Four leaf switches A, B, C, D (two nodes each) paired as (A,B)(C,D).
func quartet(pairs [2][2]int, extraRoot bool) *Tree {
	tr := &Tree{Nodes: []string{"a0", "a1", "b0", "b1", "c0", "c1", "d0", "d1"}}
	tr.Switches = []Switch{{0, -1, nil}, {1, 0, nil}, {2, 0, nil}}
	for i, p := range pairs {
		for _, l := range p {
			id := len(tr.Switches)
			tr.Switches = append(tr.Switches, Switch{id, 1 + i, []int{2 * l, 2*l + 1}})
		}
	}
	if extraRoot { // a new root above the old one: a two-link switch
		for i := range tr.Switches {
			tr.Switches[i].ID++
			tr.Switches[i].Parent++
		}
		tr.Switches = append([]Switch{{0, -1, nil}}, tr.Switches...)
		tr.Switches[1].Parent = 0
	}
	if err := tr.Validate(); err != nil {
		panic(err)
	}
	return tr
}

func TestIsomorphic(t *testing.T) {
	ab := quartet([2][2]int{{0, 1}, {2, 3}}, false)
	ba := quartet([2][2]int{{2, 3}, {1, 0}}, false)
	abRoot := quartet([2][2]int{{0, 1}, {2, 3}}, true)
	ac := quartet([2][2]int{{0, 2}, {1, 3}}, false)
	if !Isomorphic(ab, ba) || !Isomorphic(ab, abRoot) {
		t.Error("same splits, other order or extra root: want isomorphic")
	}
	if Isomorphic(ab, ac) {
		t.Error("(AB)(CD) vs (AC)(BD): want not isomorphic")
	}
	// Rerooted: the (AB) switch as root with C, D under a child switch.
	re := &Tree{Nodes: ab.Nodes, Switches: []Switch{
		{0, -1, nil}, {1, 0, []int{0, 1}}, {2, 0, []int{2, 3}}, {3, 0, nil}, {4, 3, []int{4, 5}}, {5, 3, []int{6, 7}},
	}}
	if err := re.Validate(); err != nil {
		t.Fatal(err)
	}
	if !Isomorphic(ab, re) {
		t.Error("rerooted: want isomorphic")
	}
	// A star over the four: no split.
	star, _ := Generate(2, 4, 2)
	star.Nodes = ab.Nodes
	if Isomorphic(ab, star) {
		t.Error("star vs (AB)(CD): want not isomorphic")
	}
	// Same shape, one node moved to another switch.
	moved := quartet([2][2]int{{0, 1}, {2, 3}}, false)
	moved.Switches[3].Nodes, moved.Switches[4].Nodes = []int{0, 2}, []int{1, 3}
	moved.ix = nil
	if err := moved.Validate(); err != nil {
		t.Fatal(err)
	}
	if Isomorphic(ab, moved) {
		t.Error("nodes on other switches: want not isomorphic")
	}
	renamed := quartet([2][2]int{{0, 1}, {2, 3}}, false)
	renamed.Nodes = []string{"x", "a1", "b0", "b1", "c0", "c1", "d0", "d1"}
	if Isomorphic(ab, renamed) || Isomorphic(ab, nil) {
		t.Error("other names or nil: want not isomorphic")
	}
}

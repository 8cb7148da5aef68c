package topology

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// Generate(3, 2, 2): root 0; switches 1, 2; leaf switches 3, 4 (under 1)
// and 5, 6 (under 2); nodes 0,1 on 3; 2,3 on 4; 4,5 on 5; 6,7 on 6.
func TestGenerateHopsPath(t *testing.T) {
	tr, err := Generate(3, 2, 2)
	if err != nil {
		t.Fatal(err)
	}
	if len(tr.Nodes) != 8 || len(tr.Switches) != 7 {
		t.Fatalf("%d nodes, %d switches; want 8, 7", len(tr.Nodes), len(tr.Switches))
	}
	for _, c := range []struct{ u, v, hops, leafU int }{
		{0, 0, 0, 3}, {0, 1, 2, 3}, {0, 2, 4, 3}, {0, 4, 6, 3}, {7, 2, 6, 6}, {5, 4, 2, 5},
	} {
		if h := tr.Hops(c.u, c.v); h != c.hops {
			t.Errorf("Hops(%d, %d) = %d, want %d", c.u, c.v, h, c.hops)
		}
		if l := tr.Leaf(c.u); l != c.leafU {
			t.Errorf("Leaf(%d) = %d, want %d", c.u, l, c.leafU)
		}
	}
	if p := tr.Path(0, 7); !slices.Equal(p, []Link{{3}, {1}, {2}, {6}}) {
		t.Errorf("Path(0, 7) = %v, want [{3} {1} {2} {6}]", p)
	}
	if p := tr.Path(2, 0); !slices.Equal(p, []Link{{4}, {3}}) {
		t.Errorf("Path(2, 0) = %v, want [{4} {3}]", p)
	}
	if p := tr.Path(0, 1); len(p) != 0 {
		t.Errorf("Path(0, 1) = %v, want none", p)
	}
	if g := tr.Groups(); !slices.EqualFunc(g, [][]int{{0, 1}, {2, 3}, {4, 5}, {6, 7}}, slices.Equal) {
		t.Errorf("Groups = %v", g)
	}
}

func TestGenerateErrors(t *testing.T) {
	for _, c := range []struct {
		l, f, k int
		want    string
	}{
		{0, 2, 2, "levels = 0"}, {3, 0, 2, "fanout = 0"}, {3, 2, 0, "perLeaf = 0"}, {9, 8, 16, "exceed"},
	} {
		if _, err := Generate(c.l, c.f, c.k); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("Generate(%d, %d, %d) = %v, want %q", c.l, c.f, c.k, err, c.want)
		}
	}
	if _, err := Spread(5, 6); err == nil || !strings.Contains(err.Error(), "nodes = 5") {
		t.Errorf("Spread(5, 6) = %v", err)
	}
}

func TestPaperTrees(t *testing.T) {
	c := PaperCluster()
	if len(c.Nodes) != 112 || len(c.LeafSwitches()) != 8 {
		t.Errorf("cluster: %d nodes on %d leaf switches, want 112 on 8", len(c.Nodes), len(c.LeafSwitches()))
	}
	for _, s := range c.LeafSwitches() {
		if len(c.Switches[s].Nodes) != 14 {
			t.Errorf("cluster switch %d has %d nodes, want 14", s, len(c.Switches[s].Nodes))
		}
	}
	e := PaperExperiment()
	var sizes []int
	for _, s := range e.LeafSwitches() {
		sizes = append(sizes, len(e.Switches[s].Nodes))
	}
	if len(e.Nodes) != 64 || !slices.Equal(sizes, []int{11, 11, 11, 11, 10, 10}) {
		t.Errorf("experiment: %d nodes, leaf sizes %v; want 64, [11 11 11 11 10 10]", len(e.Nodes), sizes)
	}
}

func TestRandomTrees(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	uneven := 0
	for range 200 {
		max := 2 + rng.IntN(200)
		tr := Random(rng, max)
		if err := tr.Validate(); err != nil {
			t.Fatal(err)
		}
		if len(tr.Nodes) > max {
			t.Fatalf("%d nodes > max %d", len(tr.Nodes), max)
		}
		depths := map[int]bool{}
		for _, s := range tr.LeafSwitches() {
			d := 0
			for p := tr.Switches[s].Parent; p >= 0; p = tr.Switches[p].Parent {
				d++
			}
			depths[d] = true
			if len(tr.Switches[s].Nodes) < 2 {
				t.Fatalf("leaf switch with %d nodes", len(tr.Switches[s].Nodes))
			}
		}
		if len(depths) > 1 {
			uneven++
		}
	}
	if uneven < 50 {
		t.Errorf("only %d/200 random trees have leaves at different depths", uneven)
	}
}

func TestValidateErrors(t *testing.T) {
	for _, c := range []struct {
		tr   Tree
		want string
	}{
		{Tree{}, "no nodes"},
		{Tree{Nodes: []string{"a"}}, "no switches"},
		{Tree{Nodes: []string{"a", "a"}, Switches: []Switch{{0, -1, []int{0, 1}}}}, "both named"},
		{Tree{Nodes: []string{"a"}, Switches: []Switch{{1, -1, []int{0}}}}, "has id 1"},
		{Tree{Nodes: []string{"a"}, Switches: []Switch{{0, -1, []int{0}}, {1, -1, nil}}}, "both roots"},
		{Tree{Nodes: []string{"a"}, Switches: []Switch{{0, 1, []int{0}}, {1, 0, nil}}}, "no root"},
		{Tree{Nodes: []string{"a", "b"}, Switches: []Switch{{0, -1, []int{0}}}}, "on no switch"},
		{Tree{Nodes: []string{"a", "b"}, Switches: []Switch{{0, -1, []int{0}}, {1, 0, []int{1}}}}, "both child switches and nodes"},
		{Tree{Nodes: []string{"a"}, Switches: []Switch{{0, -1, nil}, {1, 0, []int{0}}, {2, 0, nil}}}, "leaf switch 2 has no nodes"},
		{Tree{Nodes: []string{"a"}, Switches: []Switch{{0, -1, []int{0, 0}}}}, "on switches 0 and 0"},
		{Tree{Nodes: []string{"a"}, Switches: []Switch{{0, -1, []int{3}}}}, "lists node 3"},
	} {
		if err := c.tr.Validate(); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("Validate(%+v) = %v, want %q", c.tr, err, c.want)
		}
	}
}

package topology

import (
	"slices"
	"strconv"
	"strings"

	"commlab/internal/permsort"
)

// Isomorphic says whether two trees are the same cluster as far as RTT
// groups and interference can tell: the same node names on the same leaf
// switches, and the same switch tree up to where its root is and up to
// switches with only two links (a root with two children, a switch with one
// child), which no concurrent transfer can see. Two such trees are the same
// exactly when every link splits the leaf switches in the same way (the
// splits of a tree without two-link switches determine it).
func Isomorphic(a, b *Tree) bool {
	if a == nil || b == nil || len(a.Nodes) != len(b.Nodes) || a.build2() != nil || b.build2() != nil {
		return false
	}
	la, lb := leafLabels(a), leafLabels(b)
	if !slices.Equal(la, lb) {
		return false
	}
	sa, sb := splits(a), splits(b)
	return slices.Equal(sa, sb)
}

func (t *Tree) build2() error {
	_, err := t.build()
	return err
}

// leafLabels names every leaf switch by its sorted node names, in sorted
// order.
func leafLabels(t *Tree) []string {
	ix := t.index()
	out := make([]string, 0, len(ix.leaves))
	for _, s := range ix.leaves {
		out = append(out, leafLabel(t, s))
	}
	permsort.Sort(out)
	return out
}

func leafLabel(t *Tree, s int) string {
	names := make([]string, 0, len(t.Switches[s].Nodes))
	for _, v := range t.Switches[s].Nodes {
		names = append(names, t.Nodes[v])
	}
	permsort.Sort(names)
	return strings.Join(names, "\x00")
}

// splits lists the non-trivial splits of the leaf switches (both sides at
// least two leaves), each as the sorted labels of the side without the
// smallest label, in sorted order without repeats.
func splits(t *Tree) []string {
	ix := t.index()
	labels := leafLabels(t)
	rank := make(map[string]int, len(labels))
	for i, l := range labels {
		rank[l] = i
	}
	L := len(labels)
	below := make([][]bool, len(t.Switches)) // leaf ranks below each switch
	var fill func(s int) []bool
	fill = func(s int) []bool {
		m := make([]bool, L)
		if len(ix.children[s]) == 0 {
			m[rank[leafLabel(t, s)]] = true
		}
		for _, c := range ix.children[s] {
			for i, x := range fill(c) {
				m[i] = m[i] || x
			}
		}
		below[s] = m
		return m
	}
	root := slices.Index(ix.parent, -1)
	fill(root)
	var out []string
	for s := range t.Switches {
		if s == root {
			continue
		}
		m := below[s]
		k := 0
		for _, x := range m {
			if x {
				k++
			}
		}
		if k < 2 || L-k < 2 {
			continue
		}
		side := m[0] // normalise to the side without leaf 0
		var sb strings.Builder
		for i, x := range m {
			if x != side {
				sb.WriteString(strconv.Itoa(i))
				sb.WriteByte(',')
			}
		}
		out = append(out, sb.String())
	}
	permsort.Sort(out)
	return slices.Compact(out)
}

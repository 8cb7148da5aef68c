//go:build !js

package topology

// The tree's JSON form is the native commands' (gen-report reads and writes
// tree files); the browser never reads one. It is left out of the js build
// because a method stays linked whenever its type does (Ebiten's
// text/template calls reflect's MethodByName, which keeps every exported
// method of every type the program can reach), and these two would link
// encoding/json into the wasm: 80 kB gzip -9 of the page's budget.
// wasm/deps_test.go fails when encoding/json is back in the wasm.

import (
	"bytes"
	"encoding/json"

	"commlab/internal/errf"
	"commlab/internal/permsort"
	"commlab/internal/shown"
)

// treeJSON is the file form: switches list their nodes by name, and the
// edges between switches are spelled out for readers that want a graph.
type treeJSON struct {
	Nodes    []string     `json:"nodes"`
	Switches []switchJSON `json:"switches"`
	Edges    [][2]int     `json:"edges"` // [parent, child]
}

type switchJSON struct {
	ID     int      `json:"id"`
	Parent int      `json:"parent"`
	Nodes  []string `json:"nodes,omitempty"`
}

// MarshalJSON writes {"nodes": [...], "switches": [{"id", "parent",
// "nodes": [names]}], "edges": [[parent, child], ...]}.
func (t *Tree) MarshalJSON() ([]byte, error) {
	out := treeJSON{Nodes: t.Nodes, Switches: make([]switchJSON, len(t.Switches)), Edges: [][2]int{}}
	for i, sw := range t.Switches {
		js := switchJSON{ID: sw.ID, Parent: sw.Parent}
		for _, v := range sw.Nodes {
			if v < 0 || v >= len(t.Nodes) {
				return nil, errf.Errorf("topology: switch %d lists node %d (want [0, %d))", i, v, len(t.Nodes))
			}
			js.Nodes = append(js.Nodes, t.Nodes[v])
		}
		out.Switches[i] = js
		if sw.Parent >= 0 {
			out.Edges = append(out.Edges, [2]int{sw.Parent, sw.ID})
		}
	}
	return json.Marshal(out)
}

// UnmarshalJSON reads the form MarshalJSON writes ("edges" is optional and,
// when present, must match the parents) and validates the tree.
func (t *Tree) UnmarshalJSON(b []byte) error {
	// Strict: a misspelt key ("switchs", "parnet") is an error, not a
	// field silently left empty. (A decoder's DisallowUnknownFields does
	// not reach into an UnmarshalJSON method, so it is set here.)
	var in treeJSON
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&in); err != nil {
		if msg := err.Error(); len(msg) > 200 { // a long unknown key, quoted whole
			return errf.Errorf("topology: tree JSON: %s", shown.Quoted(msg))
		}
		return errf.Errorf("topology: tree JSON: %w", err)
	}
	ids := make(map[string]int, len(in.Nodes))
	for i, name := range in.Nodes {
		if _, dup := ids[name]; dup {
			return errf.Errorf("topology: tree JSON: \"nodes\"[%d]: name %q appears twice", i, shown.Cut(name))
		}
		ids[name] = i
	}
	nt := Tree{Nodes: in.Nodes, Switches: make([]Switch, len(in.Switches))}
	for i, js := range in.Switches {
		sw := Switch{ID: js.ID, Parent: js.Parent}
		for _, name := range js.Nodes {
			v, ok := ids[name]
			if !ok {
				return errf.Errorf("topology: tree JSON: \"switches\"[%d]: node %q is not in \"nodes\"", i, shown.Cut(name))
			}
			sw.Nodes = append(sw.Nodes, v)
		}
		permsort.Sort(sw.Nodes)
		nt.Switches[i] = sw
	}
	if in.Edges != nil {
		want := 0
		for _, sw := range nt.Switches {
			if sw.Parent >= 0 {
				want++
			}
		}
		if len(in.Edges) != want {
			return errf.Errorf("topology: tree JSON: \"edges\" has %d edges, the parents give %d", len(in.Edges), want)
		}
		for k, e := range in.Edges {
			if e[1] < 0 || e[1] >= len(nt.Switches) || nt.Switches[e[1]].Parent != e[0] {
				return errf.Errorf("topology: tree JSON: \"edges\"[%d] = [%d, %d] does not match switch %d's parent", k, e[0], e[1], e[1])
			}
		}
	}
	if err := nt.Validate(); err != nil {
		return errf.Errorf("topology: tree JSON: %w", err)
	}
	*t = nt
	return nil
}

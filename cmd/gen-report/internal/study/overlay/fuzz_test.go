package overlay

import (
	"commlab/engine/topology"
	"encoding/json"
	"testing"
)

// FuzzParseTreeJSON: --tree's reader (Tree JSON, or what topology infer
// prints) never panics, keeps its messages short, and what it accepts is a
// valid tree that the engine's Tree JSON reads back the same.
func FuzzParseTreeJSON(f *testing.F) {
	f.Add([]byte(`{"nodes":["a","b"],"switches":[{"id":0,"parent":-1,"nodes":["a","b"]}]}`))
	f.Add([]byte(`{"nodes":["a","b"],"switches":[{"id":0,"parent":-1},{"id":1,"parent":0,"nodes":["a"]},{"id":2,"parent":0,"nodes":["b"]}],"edges":[[0,1],[0,2]],"leaf_groups":[["a"],["b"]],"settled":true,"interference_asked":0,"interference_needed":[]}`))
	f.Add([]byte(`{"nodes":["a"],"switches":[{"id":0,"parnet":-1}]}`))
	f.Add([]byte("{\n  \"nodes\": [1]\n}"))
	f.Fuzz(func(t *testing.T, data []byte) {
		tr, err := parseTreeJSON("fuzz.json", data)
		if err != nil {
			if len(err.Error()) > 600 {
				t.Fatalf("message of %d bytes: %.200s", len(err.Error()), err)
			}
			return
		}
		if err := tr.Validate(); err != nil {
			t.Fatalf("accepted a tree Validate refuses: %v", err)
		}
		b, err := json.Marshal(tr)
		if err != nil {
			t.Fatal(err)
		}
		var back topology.Tree
		if err := json.Unmarshal(b, &back); err != nil || !topology.Isomorphic(tr, &back) {
			t.Fatalf("written tree does not read back the same: %v\n%s", err, b)
		}
	})
}

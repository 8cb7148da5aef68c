//go:build !js

package topology

// The tree's JSON form is native only (tree_json.go says why).

import (
	"encoding/json"
	"strings"
	"testing"
)

func TestTreeJSON(t *testing.T) {
	tr, _ := Generate(2, 2, 2)
	b, err := json.Marshal(tr)
	if err != nil {
		t.Fatal(err)
	}
	const want = `{"nodes":["n0","n1","n2","n3"],"switches":[{"id":0,"parent":-1},{"id":1,"parent":0,"nodes":["n0","n1"]},{"id":2,"parent":0,"nodes":["n2","n3"]}],"edges":[[0,1],[0,2]]}`
	if string(b) != want {
		t.Errorf("JSON\n%s\nwant\n%s", b, want)
	}
	var back Tree
	if err := json.Unmarshal(b, &back); err != nil {
		t.Fatal(err)
	}
	if back.Hops(0, 3) != 4 || !Isomorphic(&back, tr) {
		t.Error("round trip changed the tree")
	}
	for _, c := range []struct{ in, want string }{
		{`{"nodes":["a"],"switches":[{"id":0,"parent":-1,"nodes":["b"]}]}`, `node "b" is not in "nodes"`},
		{`{"nodes":["a","a"],"switches":[]}`, `appears twice`},
		{`{"nodes":["a","b"],"switches":[{"id":0,"parent":-1},{"id":1,"parent":0,"nodes":["a","b"]}],"edges":[[1,0]]}`, `"edges"[0]`},
		{`{"nodes":["a"],"switches":[{"id":0,"parent":-1,"nodes":["a"]},{"id":1,"parent":5}]}`, `parent 5`},
		{`{"nodes":1}`, `tree JSON`},
	} {
		var tr Tree
		if err := json.Unmarshal([]byte(c.in), &tr); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("Unmarshal(%s) = %v, want %q", c.in, err, c.want)
		}
	}
}

// Unknown keys in a tree JSON are errors, at any level: a misspelt
// "parent" must not leave every switch a root.
func TestTreeJSONUnknownFields(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{`{"nodes":["a"],"switches":[{"id":0,"parent":-1,"nodes":["a"]}],"extra":1}`, `tree JSON: json: unknown field "extra"`},
		{`{"nodes":["a"],"switches":[{"id":0,"parnet":-1,"nodes":["a"]}]}`, `unknown field "parnet"`},
		{`{"nodes":["a"],"switchs":[]}`, `unknown field "switchs"`},
	} {
		var tr Tree
		if err := json.Unmarshal([]byte(c.in), &tr); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("Unmarshal(%s) = %v, want %q", c.in, err, c.want)
		}
	}
	var tr Tree
	if err := json.Unmarshal([]byte(`{"nodes":["a"],"switches":[{"id":0,"parent":-1,"nodes":["a"]}]}`), &tr); err != nil {
		t.Errorf("known fields only: %v", err)
	}
}

// TestTreeJSONLongValuesCut: a long name or key in a tree JSON is cut in
// the message, as TestCSVLongValuesCut holds the CSV readers to.
func TestTreeJSONLongValuesCut(t *testing.T) {
	long := strings.Repeat("x", 100000)
	for name, in := range map[string]string{
		"tree name": `{"nodes":["a"],"switches":[{"id":0,"parent":-1,"nodes":["` + long + `"]}]}`,
		"tree key":  `{"nodes":["a"],"` + long + `":1}`,
	} {
		var tr Tree
		err := json.Unmarshal([]byte(in), &tr)
		if err == nil || len(err.Error()) > 300 || !strings.Contains(err.Error(), "… (100000 characters)") {
			t.Errorf("%s: %.300v", name, err)
		}
	}
}

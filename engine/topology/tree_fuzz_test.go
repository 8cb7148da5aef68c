//go:build !js

package topology

import (
	"bytes"
	"encoding/json"
	"testing"
)

// FuzzTreeJSON round-trips: whatever Tree JSON reads is a valid tree that
// writes and reads back as the same tree, byte for byte the second time.
func FuzzTreeJSON(f *testing.F) {
	tr, _ := Generate(3, 2, 2)
	b, _ := json.Marshal(tr)
	f.Add(b)
	f.Add([]byte(`{"nodes":["a","b"],"switches":[{"id":0,"parent":-1,"nodes":["a","b"]}]}`))
	f.Add([]byte(`{"nodes":["a","b"],"switches":[{"id":0,"parent":-1},{"id":1,"parent":0,"nodes":["a"]},{"id":2,"parent":0,"nodes":["b"]}],"edges":[[0,1],[0,2]]}`))
	f.Add([]byte(`{"nodes":["a"],"switches":[{"id":0,"parnet":-1}]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		var t1 Tree
		if err := json.Unmarshal(data, &t1); err != nil {
			if len(err.Error()) > 600 {
				t.Fatalf("message of %d bytes: %.200s", len(err.Error()), err)
			}
			return
		}
		if err := t1.Validate(); err != nil {
			t.Fatalf("Unmarshal accepted a tree Validate refuses: %v", err)
		}
		b1, err := json.Marshal(&t1)
		if err != nil {
			t.Fatal(err)
		}
		var t2 Tree
		if err := json.Unmarshal(b1, &t2); err != nil {
			t.Fatalf("written tree does not read back: %v\n%s", err, b1)
		}
		b2, _ := json.Marshal(&t2)
		if !bytes.Equal(b1, b2) || !Isomorphic(&t1, &t2) {
			t.Fatalf("round trip changed the tree:\n%s\n%s", b1, b2)
		}
	})
}

package main

import (
	"encoding/json"
	"math"
	"slices"
	"strings"
	"testing"

	"commlab/engine/topology"
	"commlab/internal/shown"
)

// FuzzSizeFlag: -msg takes what it says (bytes, KB, MB, GB, KiB, MiB, GiB)
// and its text reads back as the same size.
func FuzzSizeFlag(f *testing.F) {
	for _, s := range []string{"500KB", "5MB", "64KiB", "1MiB", "500000", "5e6", "1.5kb", "2GB", "300B", "KB", "5x", " 1 gib ", "NaNmb", "-1e400"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		var a sizeFlag
		if err := a.Set(s); err != nil {
			if len(err.Error()) > 200 {
				t.Fatalf("message of %d bytes", len(err.Error()))
			}
			return
		}
		var b sizeFlag
		if err := b.Set(a.String()); err != nil || !(b == a || math.IsNaN(float64(a)) && math.IsNaN(float64(b))) {
			t.Fatalf("%q reads as %v, written %q, read back %v (%v)", s, a, a.String(), b, err)
		}
	})
}

// FuzzFloatList: -mhz and -tasks read comma-separated numbers, and their
// text reads back as the same list; a bad entry is named by its index.
func FuzzFloatList(f *testing.F) {
	for _, s := range []string{"2400,2400,2000", "1", "1,,2", " 1 , 2 ", "x", "1e400,2"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		var a floatList
		if err := a.Set(s); err != nil {
			if !strings.Contains(err.Error(), "entry ") {
				t.Fatalf("error names no entry: %v", err)
			}
			return
		}
		var b floatList
		if err := b.Set(a.String()); err != nil || !slices.EqualFunc(a.v, b.v, func(x, y float64) bool { return x == y || math.IsNaN(x) && math.IsNaN(y) }) {
			t.Fatalf("%q reads as %v, written %q, read back %v (%v)", s, a.v, a.String(), b.v, err)
		}
	})
}

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

// FuzzCutQuoted: however long the quoted values in a message, cutQuoted
// leaves each at most 40 characters and its length, and changes nothing
// in a message without long quoted values.
func FuzzCutQuoted(f *testing.F) {
	f.Add(`invalid value "` + strings.Repeat("x", 100) + `" for flag -msg: not a size`)
	f.Add(`a "b" c "\"" d`)
	f.Add(`unterminated "abc`)
	f.Fuzz(func(t *testing.T, msg string) {
		out := shown.Quoted(msg)
		if len(out) > len(msg)+60*strings.Count(msg, `"`) {
			t.Fatalf("cutQuoted grew %d bytes to %d", len(msg), len(out))
		}
		if !strings.Contains(out, "characters)") && out != msg {
			t.Fatalf("nothing cut, yet %q became %q", msg, out)
		}
	})
}

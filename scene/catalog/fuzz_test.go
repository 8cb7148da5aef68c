package catalog

import (
	"errors"
	"reflect"
	"strings"
	"testing"

	"commlab/scene"
)

// FuzzParseQuery: any URL query gives a state whose every value its field
// accepts (bad ones fall back, with an error each), messages that stay
// short however long the query, and a state that writes as a query and
// reads back unchanged, without errors.
func FuzzParseQuery(f *testing.F) {
	reg := Unchecked()
	for _, sc := range reg {
		f.Add(scene.Default(sc).Query(sc))
	}
	f.Add("scene=butterfly&P=64&P=32&t=1e-3&speed=2&theme=dark&embed=1")
	f.Add("?scene=jitter&trials=0x10&N=1e9&seed=-1&scale=2")
	f.Add("scene=logp&n=%zz&L=NaN&sigma=1e400")
	f.Add("scene=nope&" + strings.Repeat("x", 100) + "=1")
	f.Fuzz(func(t *testing.T, query string) {
		st, errs := scene.ParseQuery(query, reg)
		sc, ok := reg.Lookup(st.Scene)
		if !ok {
			t.Fatalf("state names scene %q, not in the registry", st.Scene)
		}
		if err := scene.CheckValues(sc.Fields(), st.Values); err != nil {
			t.Fatalf("ParseQuery(%q) kept a bad value: %v", query, err)
		}
		for _, err := range errs {
			var fe *scene.FieldError
			if !errors.As(err, &fe) {
				t.Fatalf("error %v is not a FieldError", err)
			}
			// The key and the value are cut to scene.MaxShown characters;
			// what is left is the field's own words.
			if n := len(err.Error()); n > 2000 {
				t.Fatalf("message of %d bytes: %.200s", n, err)
			}
		}
		q := st.Query(sc)
		st2, errs2 := scene.ParseQuery(q, reg)
		if len(errs2) > 0 {
			t.Fatalf("ParseQuery(%q) -> %q, which reads back with errors %v", query, q, errs2)
		}
		if !reflect.DeepEqual(st, st2) {
			t.Fatalf("round trip changed the state:\n%+v\n%+v\nquery %q", st, st2, q)
		}
	})
}

package mmdl

import (
	"math"
	"slices"
	"strings"
	"testing"
)

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

package nbc

import (
	"math"
	"testing"
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

package permsort

import (
	"cmp"
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// rec has a key with many ties and a tag that tells equal keys apart, so
// a sort that ordered ties differently from slices would show.
type rec struct {
	key int
	tag string
	f   float64
}

func byKey(a, b rec) int { return cmp.Compare(a.key, b.key) }

// TestSameAsSlices checks that sorting through the permutation gives
// slices.SortFunc's and slices.SortStableFunc's result element for
// element, ties included, for lengths around pdqsort's thresholds (12 for
// insertion sort, 50 for the ninther, 20 for the stable sort's blocks).
func TestSameAsSlices(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for _, n := range []int{0, 1, 2, 3, 11, 12, 13, 20, 21, 49, 50, 51, 100, 257, 1000, 5000} {
		for _, keys := range []int{1, 3, n/4 + 1, 1 << 30} {
			for trial := 0; trial < 3; trial++ {
				x := make([]rec, n)
				for i := range x {
					x[i] = rec{key: r.IntN(keys), tag: string(rune('a' + i%26)), f: float64(i)}
				}
				if trial == 1 {
					slices.SortFunc(x, byKey) // sorted input
				}
				if trial == 2 {
					slices.SortFunc(x, byKey) // reversed input
					slices.Reverse(x)
				}
				for _, stable := range []bool{false, true} {
					want := slices.Clone(x)
					if stable {
						slices.SortStableFunc(want, byKey)
					} else {
						slices.SortFunc(want, byKey)
					}
					got := slices.Clone(x)
					byPerm(got, byKey, stable)
					if !slices.Equal(got, want) {
						t.Fatalf("n=%d keys=%d trial=%d stable=%v: the permutation sort differs from slices", n, keys, trial, stable)
					}
					// SortFunc and SortStableFunc: the permutation sort
					// under js/wasm (make test-wasm runs it on node), slices
					// natively.
					got = slices.Clone(x)
					if stable {
						SortStableFunc(got, byKey)
					} else {
						SortFunc(got, byKey)
					}
					if !slices.Equal(got, want) {
						t.Fatalf("n=%d keys=%d trial=%d stable=%v: SortFunc/SortStableFunc differ from slices", n, keys, trial, stable)
					}
				}
			}
		}
	}
}

// TestPermute checks Permute against building the result in a new slice.
func TestPermute(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for _, n := range []int{0, 1, 2, 7, 100} {
		perm := r.Perm(n)
		x := make([]int, n)
		for i := range x {
			x[i] = 10 * i
		}
		want := make([]int, n)
		for i, p := range perm {
			want[i] = x[p]
		}
		p := slices.Clone(perm)
		Permute(x, p)
		if !slices.Equal(x, want) {
			t.Fatalf("n=%d: Permute(%v) = %v, want %v", n, perm, x, want)
		}
		for i, v := range p {
			if v != i {
				t.Fatalf("n=%d: perm left as %v, want the identity", n, p)
			}
		}
	}
}

// TestSortSameAsSlices checks Sort against slices.Sort bit for bit on
// floats with ties, NaNs and both zeros (equal to each other), whose order
// among themselves only the same sequence of comparisons and swaps keeps.
func TestSortSameAsSlices(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	vals := []float64{math.NaN(), math.Copysign(0, -1), 0, 1, -1, 2.5, math.Inf(1), math.Inf(-1)}
	for _, n := range []int{0, 1, 2, 12, 13, 50, 51, 300, 3000} {
		x := make([]float64, n)
		for i := range x {
			if r.IntN(2) == 0 {
				x[i] = vals[r.IntN(len(vals))]
			} else {
				x[i] = float64(r.IntN(10))
			}
		}
		want := slices.Clone(x)
		slices.Sort(want)
		for _, sorted := range []func([]float64){Sort[float64], func(x []float64) { byPerm(x, cmp.Compare[float64], false) }} {
			got := slices.Clone(x)
			sorted(got)
			for i := range got {
				if math.Float64bits(got[i]) != math.Float64bits(want[i]) {
					t.Fatalf("n=%d: at %d got %v, slices.Sort has %v", n, i, got[i], want[i])
				}
			}
		}
	}
}

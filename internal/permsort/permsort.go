// Package permsort sorts slices as slices.SortFunc and
// slices.SortStableFunc do, with the same result element for element
// (ties included), at a smaller cost to the browser's wasm.
//
// Go compiles slices.SortFunc once per element shape: every struct type a
// program sorts brings its own copy of pdqsort (about 20 KB of wasm code,
// 4-5 KB gzip), and the stable sort another. In the js/wasm build, SortFunc
// and SortStableFunc sort a permutation of indices ([]int, whose copy the
// program links anyway) by comparing the elements it points at, then move
// the elements into that order: one copy of the sort serves every type.
// The sorts decide what to compare and swap from comparison results and
// the length alone, so sorting the indices makes the same decisions as
// sorting the elements and ends in the same order, equal elements
// included. Natively, where size matters less than the extra indirection,
// they are slices.SortFunc and slices.SortStableFunc.
package permsort

import "slices"

// byPerm sorts x by cmp through a permutation of its indices, with the
// result of slices.SortFunc(x, cmp), or of slices.SortStableFunc when
// stable.
func byPerm[E any](x []E, cmp func(a, b E) int, stable bool) {
	if len(x) < 2 {
		return
	}
	perm := make([]int, len(x))
	for i := range perm {
		perm[i] = i
	}
	c := func(i, j int) int { return cmp(x[i], x[j]) }
	if stable {
		slices.SortStableFunc(perm, c)
	} else {
		slices.SortFunc(perm, c)
	}
	permute(x, perm)
}

// permute moves x[perm[i]] to x[i] for every i, in place, following each
// cycle of perm once; it leaves perm as the identity.
func permute[E any](x []E, perm []int) {
	for i := range perm {
		if perm[i] == i {
			continue
		}
		t := x[i]
		j := i
		for {
			k := perm[j]
			perm[j] = j
			if k == i {
				x[j] = t
				break
			}
			x[j] = x[k]
			j = k
		}
	}
}

// Package permsort sorts slices as slices.SortFunc and
// slices.SortStableFunc do, with the same result element for element
// (ties included), at a smaller cost to the browser's wasm.
//
// Go compiles slices.SortFunc once per element shape: every struct type a
// program sorts brings its own copy of pdqsort (about 20 KB of wasm code),
// and the stable sort another; moving 13 such types here saved the wasm
// 40 KB gzip (2026-11-25). In the js/wasm build, SortFunc, SortStableFunc
// and Sort sort a permutation of indices ([]int, whose copy the program
// links anyway) by comparing the elements it points at, then move the
// elements into that order: one copy of the sort serves every type. The
// sorts decide what to compare and swap from comparison results and the
// length alone, so sorting the indices makes the same decisions as sorting
// the elements and ends in the same order, equal elements included.
// Natively, where size matters less than the extra indirection, they are
// slices.SortFunc, slices.SortStableFunc and slices.Sort.
package permsort

import "slices"

// byPerm sorts x by cmp through a permutation of its indices, with the
// result of slices.SortFunc(x, cmp), or of slices.SortStableFunc when
// stable. All but the comparison and the moves is in Perm, which is not
// generic: each element type adds only this little to the program.
func byPerm[E any](x []E, cmp func(a, b E) int, stable bool) {
	if len(x) < 2 {
		return
	}
	Permute(x, Perm(len(x), func(i, j int) int { return cmp(x[i], x[j]) }, stable))
}

// Perm returns the permutation of 0..n-1 that sorts n elements whose
// comparison by index is cmp: slices.SortFunc's order of the indices, or
// slices.SortStableFunc's when stable.
func Perm(n int, cmp func(i, j int) int, stable bool) []int {
	perm := make([]int, n)
	for i := range perm {
		perm[i] = i
	}
	if stable {
		slices.SortStableFunc(perm, cmp)
	} else {
		slices.SortFunc(perm, cmp)
	}
	return perm
}

// Permute moves x[perm[i]] to x[i] for every i, in place, following each
// cycle of perm once; it leaves perm as the identity. perm must be a
// permutation of 0..len(x)-1.
func Permute[E any](x []E, perm []int) {
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

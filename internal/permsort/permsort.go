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

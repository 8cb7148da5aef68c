//go:build js && wasm

package permsort

import "cmp"

// SortFunc sorts x in ascending order as determined by cmp, with the
// result of slices.SortFunc(x, cmp).
func SortFunc[E any](x []E, cmp func(a, b E) int) { byPerm(x, cmp, false) }

// SortStableFunc sorts x as determined by cmp keeping equal elements in
// their original order, with the result of slices.SortStableFunc(x, cmp).
func SortStableFunc[E any](x []E, cmp func(a, b E) int) { byPerm(x, cmp, true) }

// Sort sorts x in ascending order, with the result of slices.Sort(x):
// the same algorithm compares by cmp.Compare, which orders as slices.Sort
// does (NaNs first).
func Sort[E cmp.Ordered](x []E) { byPerm(x, cmp.Compare[E], false) }

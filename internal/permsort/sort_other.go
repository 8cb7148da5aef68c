//go:build !(js && wasm)

package permsort

import (
	"cmp"
	"slices"
)

// SortFunc sorts x in ascending order as determined by cmp: natively,
// slices.SortFunc(x, cmp).
func SortFunc[E any](x []E, cmp func(a, b E) int) { slices.SortFunc(x, cmp) }

// SortStableFunc sorts x as determined by cmp keeping equal elements in
// their original order: natively, slices.SortStableFunc(x, cmp).
func SortStableFunc[E any](x []E, cmp func(a, b E) int) { slices.SortStableFunc(x, cmp) }

// Sort sorts x in ascending order: natively, slices.Sort(x).
func Sort[E cmp.Ordered](x []E) { slices.Sort(x) }

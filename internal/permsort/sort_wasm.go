//go:build js && wasm

package permsort

// SortFunc sorts x in ascending order as determined by cmp, with the
// result of slices.SortFunc(x, cmp).
func SortFunc[E any](x []E, cmp func(a, b E) int) { byPerm(x, cmp, false) }

// SortStableFunc sorts x as determined by cmp keeping equal elements in
// their original order, with the result of slices.SortStableFunc(x, cmp).
func SortStableFunc[E any](x []E, cmp func(a, b E) int) { byPerm(x, cmp, true) }

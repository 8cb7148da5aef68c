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

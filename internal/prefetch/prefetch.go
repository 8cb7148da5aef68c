package prefetch

import "unsafe"

// Line asks for the cache line holding *p. p must point into memory the
// caller holds; nothing is read or written.
func Line[T any](p *T) { line(unsafe.Pointer(p)) }

// Huge asks the kernel to back the whole 2 MB pages inside s's array (up
// to its capacity) with transparent huge pages: madvise(MADV_HUGEPAGE)
// on Linux, nothing elsewhere. Called on a fresh, still untouched array
// (a large make), it makes the kernel fault the array in 2 MB at a time:
// a schedule of a gigabyte costs some 500 page faults instead of 250,000
// (each one a few microseconds in a virtual machine), and a run striding
// over it misses the TLB far less. Like Line it is a hint: no value
// changes, and where THP is off it does nothing.
func Huge[T any](s []T) {
	var z T
	if n := uintptr(cap(s)) * unsafe.Sizeof(z); n >= 2*hugePageMin {
		huge(unsafe.Pointer(unsafe.SliceData(s)), n)
	}
}

// hugePageMin is the smallest huge page of any platform: arrays under
// two of them never hold a whole aligned one.
const hugePageMin = 2 << 20

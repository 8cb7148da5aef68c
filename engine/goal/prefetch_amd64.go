package goal

import "unsafe"

// prefetch asks the CPU to bring the cache line at p in, without waiting
// for it (PREFETCHT0).
//
//go:noescape
func prefetch(p unsafe.Pointer)

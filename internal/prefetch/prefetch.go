package prefetch

import "unsafe"

// Line asks for the cache line holding *p. p must point into memory the
// caller holds; nothing is read or written.
func Line[T any](p *T) { line(unsafe.Pointer(p)) }

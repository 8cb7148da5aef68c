package prefetch

import "unsafe"

// line issues PREFETCHT0 on p without waiting for the line.
//
//go:noescape
func line(p unsafe.Pointer)

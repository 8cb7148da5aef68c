package prefetch

import "unsafe"

// Works reports whether Line does anything on this architecture.
const Works = true

// line issues PREFETCHT0 on p without waiting for the line.
//
//go:noescape
func line(p unsafe.Pointer)

//go:build !amd64

package prefetch

import "unsafe"

// Works is false here: Line does nothing, and a caller may skip the work
// of finding what to prefetch.
const Works = false

func line(p unsafe.Pointer) {}

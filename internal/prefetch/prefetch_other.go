//go:build !amd64

package prefetch

import "unsafe"

func line(p unsafe.Pointer) {}

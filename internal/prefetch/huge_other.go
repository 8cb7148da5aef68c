//go:build !linux

package prefetch

import "unsafe"

func huge(p unsafe.Pointer, n uintptr) {}

//go:build !amd64

package goal

import "unsafe"

func prefetch(p unsafe.Pointer) {}

//go:build linux

package prefetch

import (
	"syscall"
	"unsafe"
)

// hugePage is the size of a transparent huge page where Go runs Linux
// with THP (x86-64; arm64 with 4 KB base pages).
const hugePage = 2 << 20

// madvHugepage is MADV_HUGEPAGE (not in package syscall for every
// architecture).
const madvHugepage = 14

func huge(p unsafe.Pointer, n uintptr) {
	a := (uintptr(p) + hugePage - 1) &^ (hugePage - 1)
	b := (uintptr(p) + n) &^ (hugePage - 1)
	if b <= a {
		return
	}
	// The error is ignored on purpose: a kernel without THP refuses
	// (EINVAL) and the memory works as before, with 4 KB pages.
	syscall.Syscall(syscall.SYS_MADVISE, a, b-a, madvHugepage)
}

//go:build linux

package calibrate

import (
	"syscall"
	"time"
	"unsafe"
)

// clockThreadCPUTime is Linux's CLOCK_THREAD_CPUTIME_ID: the CPU time the
// calling thread has used, in nanoseconds, advancing only while the thread
// runs.
const clockThreadCPUTime = 3

// threadCPU reads the calling thread's CPU clock; ok is false if the
// kernel refuses. Callers lock their goroutine to its thread, so two reads
// bracket exactly the work in between.
func threadCPU() (time.Duration, bool) {
	var ts syscall.Timespec
	_, _, errno := syscall.RawSyscall(syscall.SYS_CLOCK_GETTIME, clockThreadCPUTime, uintptr(unsafe.Pointer(&ts)), 0)
	if errno != 0 {
		return 0, false
	}
	return time.Duration(ts.Nano()), true
}

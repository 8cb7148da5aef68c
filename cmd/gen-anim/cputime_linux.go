//go:build !(js && wasm)

package main

import (
	"syscall"
	"time"
)

// rusageThread is Linux's RUSAGE_THREAD: the calling thread's times.
const rusageThread = 1

// cpuClock reads the calling thread's CPU time, so that a sample's time
// does not count other jobs on the machine (the caller locks its thread);
// the wall clock where it cannot.
func cpuClock() time.Duration {
	var r syscall.Rusage
	if err := syscall.Getrusage(rusageThread, &r); err != nil {
		return time.Duration(time.Now().UnixNano())
	}
	return time.Duration(r.Utime.Nano() + r.Stime.Nano())
}

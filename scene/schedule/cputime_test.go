//go:build !js && !wasip1 && !windows

package schedule

import "syscall"

// cpuSeconds is the process's user + system CPU time: on a shared machine
// wall time counts the other jobs' turns on the cores too.
func cpuSeconds() float64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return float64(ru.Utime.Sec+ru.Stime.Sec) + float64(ru.Utime.Usec+ru.Stime.Usec)/1e6
}

//go:build unix

package overlay

import "syscall"

// cpuSeconds is the process's CPU time so far (user and system), so a
// benchmark can report CPU time per run on a loaded machine, where wall
// time counts other processes' turns too.
func cpuSeconds() (float64, bool) {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0, false
	}
	tv := func(t syscall.Timeval) float64 { return float64(t.Sec) + float64(t.Usec)/1e6 }
	return tv(ru.Utime) + tv(ru.Stime), true
}

package main

import "syscall"

// usage is what this process has used so far: the most memory it held
// resident, in bytes (getrusage's ru_maxrss, which Linux gives in KiB),
// and its CPU time, user and system, in seconds; zeros if unknown.
func usage() (maxRSS int64, cpu float64) {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0, 0
	}
	sec := func(tv syscall.Timeval) float64 { return float64(tv.Sec) + float64(tv.Usec)*1e-6 }
	return int64(ru.Maxrss) * 1024, sec(ru.Utime) + sec(ru.Stime)
}

//go:build !linux

package calibrate

import "time"

// threadCPU has no portable implementation outside Linux: operations are
// then timed by the wall clock (Result.Clock says so).
func threadCPU() (time.Duration, bool) { return 0, false }

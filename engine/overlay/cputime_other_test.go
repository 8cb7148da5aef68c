//go:build !unix

package overlay

// cpuSeconds is not measured off Unix.
func cpuSeconds() (float64, bool) { return 0, false }

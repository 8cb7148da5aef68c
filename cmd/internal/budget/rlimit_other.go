//go:build !linux

package budget

// rlimit: only Linux enforces RLIMIT_AS and RLIMIT_DATA on the Go heap as
// this package assumes; elsewhere the budget reads none.
func rlimit(string) (uint64, bool) { return 0, false }

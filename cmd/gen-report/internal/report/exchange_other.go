//go:build !linux

package report

// exchange is renameat2's RENAME_EXCHANGE, which only Linux has: elsewhere
// swap replaces the report with two renames.
func exchange(a, b string) bool { return false }

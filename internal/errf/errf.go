package errf

import "fmt"

// Errorf is fmt.Errorf: the same message, and %w wraps as it does.
//
//go:noinline
func Errorf(format string, a ...any) error { return fmt.Errorf(format, a...) }

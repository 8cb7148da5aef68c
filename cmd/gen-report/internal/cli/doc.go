// Package cli holds what every gen-report command shares: a flag set that
// reports a bad flag in one line, flags bound from a parameter struct's
// json and help tags, a model's range error turned into a message about
// the flag, JSON output that names a non-finite result, the budget check,
// progress lines and atomic file writes. The studies' eval commands and
// package main are built from it.
package cli

//go:build !unix

package main

// openFileLimit: no descriptor limit to read here; a common default.
func openFileLimit() int { return 1024 }

//go:build !(js && wasm)

package main

import (
	"fmt"
	"os"
)

// The visualizer needs a browser canvas; natively this binary exists only so
// that the package builds, vets and tests (its pure-Go parts) on any machine.
func main() {
	fmt.Fprintln(os.Stderr, "commlab's visualizer runs in the browser: make serve")
	os.Exit(1)
}

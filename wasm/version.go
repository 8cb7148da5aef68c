package main

import "runtime"

// revision is the VCS revision the binary was built from, set at link time
// (-ldflags=-X main.revision=...: `make wasm` and `serve -build` stamp
// `git describe --always --dirty`). It is not read from the build info the
// go command embeds: runtime/debug's parser of it cost the wasm 9.7 kB
// gzip -9 (2026-11-25), for one string.
var revision = "devel"

// buildVersion identifies the binary for window.commlab.version(): the
// revision it was stamped with ("devel" when none), then the Go version.
// It is never empty, so a page can tell that the wasm it loaded is the one
// it expects.
func buildVersion() string {
	rev := revision
	if rev == "" {
		rev = "devel"
	}
	return "commlab " + rev + " (" + runtime.Version() + ")"
}

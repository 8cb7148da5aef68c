package main

import (
	"runtime"
	"runtime/debug"
)

// buildVersion identifies the binary for window.commlab.version(): the VCS
// revision the go command stamped (with "+dirty" for uncommitted changes),
// or "devel" when there is none, then the Go version. It is never empty, so
// a page can tell that the wasm it loaded is the one it expects.
func buildVersion() string {
	rev, dirty := "devel", false
	if bi, ok := debug.ReadBuildInfo(); ok {
		for _, s := range bi.Settings {
			switch s.Key {
			case "vcs.revision":
				rev = s.Value
				if len(rev) > 12 {
					rev = rev[:12]
				}
			case "vcs.modified":
				dirty = s.Value == "true"
			}
		}
	}
	if dirty {
		rev += "+dirty"
	}
	return "commlab " + rev + " (" + runtime.Version() + ")"
}

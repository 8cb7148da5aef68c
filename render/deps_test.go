package render

import (
	"go/build"
	"strings"
	"testing"
)

// TestImportPolicy keeps the display list pure: scenes are laid out and
// tested natively, so nothing here may pull in a backend or the browser.
// (Go's own go/build deps_test.go states its import policy the same way.)
func TestImportPolicy(t *testing.T) {
	for _, target := range [][2]string{{build.Default.GOOS, build.Default.GOARCH}, {"js", "wasm"}} {
		ctxt := build.Default
		ctxt.GOOS, ctxt.GOARCH = target[0], target[1]
		pkg, err := ctxt.ImportDir(".", 0)
		if err != nil {
			t.Fatal(err)
		}
		for _, imp := range append(pkg.Imports, pkg.TestImports...) {
			if strings.Contains(imp, "ebiten") || imp == "syscall/js" || strings.HasPrefix(imp, "github.com/go-echarts/") {
				t.Errorf("render imports %s for %s/%s; backends import render, not the other way", imp, ctxt.GOOS, ctxt.GOARCH)
			}
		}
	}
}

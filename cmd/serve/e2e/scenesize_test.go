//go:build !(js && wasm)

package e2e

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"go/ast"
	"go/parser"
	"go/printer"
	"go/token"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"text/tabwriter"
)

// catalogFile is the source that lists the scenes the wasm links.
const catalogFile = "scene/catalog/catalog.go"

// TestWasmSizePerScene prints what each scene costs the wasm: the wasm is
// built once in full and once per scene without it (go build -overlay
// swaps scene/catalog's source for a copy that neither imports the scene
// nor lists it, and leaves out wasm files that import the scene), and a
// scene's cost is the difference, raw and gzip -9 (Go's compress/gzip at
// level 9, whose output runs about 1 % larger than the gzip tool's).
// That counts its engine and whatever else only it pulls in; code two
// scenes share counts for neither. A measurement, so it runs only under
// COMMLAB_BENCH=1 (`make bench`); it takes one wasm link per scene.
func TestWasmSizePerScene(t *testing.T) {
	if os.Getenv("COMMLAB_BENCH") != "1" {
		t.Skip("wasm size per scene runs under COMMLAB_BENCH=1 (make bench)")
	}
	dir := t.TempDir()
	src, err := os.ReadFile(filepath.Join(repoDir, catalogFile))
	if err != nil {
		t.Fatal(err)
	}
	pkgs, err := catalogScenes(src)
	if err != nil {
		t.Fatal(err)
	}
	fullRaw, fullGz := buildSized(t, dir, "full", nil)
	type row struct {
		pkg      string
		raw, gz  int
		buildErr string
	}
	var rows []row
	for _, pkg := range pkgs {
		without, err := catalogWithout(src, pkg)
		if err != nil {
			rows = append(rows, row{pkg: pkg, buildErr: err.Error()})
			continue
		}
		drop, err := wasmFilesImporting(pkg)
		if err != nil {
			t.Fatal(err)
		}
		raw, gz := buildSized(t, dir, filepath.Base(pkg), without, drop...)
		rows = append(rows, row{pkg, fullRaw - raw, fullGz - gz, ""})
	}
	fmt.Printf("\ncommlab wasm size per scene (each scene's cost: the full wasm minus one built without it)\n\n")
	w := tabwriter.NewWriter(os.Stdout, 0, 8, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(w, "scene package\traw\tgzip -9\t")
	fmt.Fprintf(w, "(full wasm, %d scenes)\t%d B\t%d B\t\n", len(pkgs), fullRaw, fullGz)
	for _, r := range rows {
		if r.buildErr != "" {
			fmt.Fprintf(w, "%s\tnot measured: %s\t\t\n", r.pkg, r.buildErr)
			continue
		}
		fmt.Fprintf(w, "%s\t%d B\t%d B\t\n", r.pkg, r.raw, r.gz)
	}
	w.Flush()
	fmt.Println()
}

// wasmFilesImporting lists the wasm program's files that import pkg (a
// scene's own hook into the page, such as the schedule scene's
// commlab.loadGOAL), as absolute paths: a build without the scene leaves
// them out too.
func wasmFilesImporting(pkg string) ([]string, error) {
	paths, err := filepath.Glob(filepath.Join(repoDir, "wasm", "*.go"))
	if err != nil {
		return nil, err
	}
	var out []string
	for _, p := range paths {
		src, err := os.ReadFile(p)
		if err != nil {
			return nil, err
		}
		f, err := parser.ParseFile(token.NewFileSet(), p, src, parser.ImportsOnly)
		if err != nil {
			return nil, err
		}
		for _, im := range f.Imports {
			if q, _ := strconv.Unquote(im.Path.Value); q == pkg {
				abs, err := filepath.Abs(p)
				if err != nil {
					return nil, err
				}
				out = append(out, abs)
			}
		}
	}
	return out, nil
}

// buildSized builds the wasm as `make wasm` does, with catalog's source
// replaced by catalog when it is not nil and the files drop left out, and
// returns its size raw and gzip -9.
func buildSized(t *testing.T, dir, name string, catalog []byte, drop ...string) (raw, gz int) {
	t.Helper()
	args := []string{"build", "-trimpath", "-ldflags=-s -w", "-o", filepath.Join(dir, name+".wasm")}
	if catalog != nil {
		cat := filepath.Join(dir, name+"-catalog.go")
		if err := os.WriteFile(cat, catalog, 0o644); err != nil {
			t.Fatal(err)
		}
		// The go command runs in repoDir: the overlay's paths are absolute.
		orig, err := filepath.Abs(filepath.Join(repoDir, catalogFile))
		if err != nil {
			t.Fatal(err)
		}
		// An empty replacement deletes a file from the build.
		overlay := fmt.Sprintf(`{"Replace": {%q: %q`, orig, cat)
		for _, d := range drop {
			overlay += fmt.Sprintf(`, %q: ""`, d)
		}
		overlay += "}}"
		ov := filepath.Join(dir, name+"-overlay.json")
		if err := os.WriteFile(ov, []byte(overlay), 0o644); err != nil {
			t.Fatal(err)
		}
		args = append(args, "-overlay", ov)
	}
	args = append(args, "./wasm/")
	if err := runGo(t.Context(), []string{"GOOS=js", "GOARCH=wasm"}, args...); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(filepath.Join(dir, name+".wasm"))
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&buf, gzip.BestCompression)
	zw.Write(data)
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return len(data), buf.Len()
}

// catalogScenes returns the scene packages catalog.go imports.
func catalogScenes(src []byte) ([]string, error) {
	f, err := parser.ParseFile(token.NewFileSet(), catalogFile, src, parser.ImportsOnly)
	if err != nil {
		return nil, err
	}
	var pkgs []string
	for _, im := range f.Imports {
		p, _ := strconv.Unquote(im.Path.Value)
		if strings.HasPrefix(p, "commlab/scene/") {
			pkgs = append(pkgs, p)
		}
	}
	if len(pkgs) == 0 {
		return nil, fmt.Errorf("%s imports no scene package", catalogFile)
	}
	return pkgs, nil
}

// catalogWithout returns catalog.go without the import of pkg and without
// the pkg.New() entries of its lists.
func catalogWithout(src []byte, pkg string) ([]byte, error) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, catalogFile, src, parser.ParseComments)
	if err != nil {
		return nil, err
	}
	name := filepath.Base(pkg)
	for _, d := range f.Decls {
		g, ok := d.(*ast.GenDecl)
		if !ok || g.Tok != token.IMPORT {
			continue
		}
		specs := g.Specs[:0]
		for _, s := range g.Specs {
			is := s.(*ast.ImportSpec)
			if p, _ := strconv.Unquote(is.Path.Value); p == pkg {
				if is.Name != nil {
					name = is.Name.Name
				}
				continue
			}
			specs = append(specs, s)
		}
		g.Specs = specs
	}
	removed := 0
	ast.Inspect(f, func(n ast.Node) bool {
		cl, ok := n.(*ast.CompositeLit)
		if !ok {
			return true
		}
		elts := cl.Elts[:0]
		for _, e := range cl.Elts {
			if c, ok := e.(*ast.CallExpr); ok {
				if sel, ok := c.Fun.(*ast.SelectorExpr); ok {
					if id, ok := sel.X.(*ast.Ident); ok && id.Name == name {
						removed++
						continue
					}
				}
			}
			elts = append(elts, e)
		}
		cl.Elts = elts
		return true
	})
	if removed == 0 {
		return nil, fmt.Errorf("no %s.New() entry in %s", name, catalogFile)
	}
	var out bytes.Buffer
	if err := printer.Fprint(&out, fset, f); err != nil {
		return nil, err
	}
	return out.Bytes(), nil
}

// TestCatalogWithout checks the source surgery the size measurement does
// (it runs in make test: no build, no browser).
func TestCatalogWithout(t *testing.T) {
	src, err := os.ReadFile(filepath.Join(repoDir, catalogFile))
	if err != nil {
		t.Fatal(err)
	}
	pkgs, err := catalogScenes(src)
	if err != nil {
		t.Fatal(err)
	}
	for _, pkg := range pkgs {
		out, err := catalogWithout(src, pkg)
		if err != nil {
			t.Fatalf("%s: %v", pkg, err)
		}
		if bytes.Contains(out, []byte(strconv.Quote(pkg))) || bytes.Contains(out, []byte(filepath.Base(pkg)+".New()")) {
			t.Errorf("catalog without %s still names it:\n%s", pkg, out)
		}
		if _, err := parser.ParseFile(token.NewFileSet(), "", out, 0); err != nil {
			t.Errorf("catalog without %s does not parse: %v", pkg, err)
		}
	}
	if _, err := catalogWithout(src, "commlab/scene/nosuch"); err == nil {
		t.Error("removing a scene the catalog does not list: no error")
	}
}

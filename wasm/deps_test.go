//go:build !(js && wasm)

package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestWasmLeavesOutJSON: no package the page links imports encoding/json.
// Its package initialisation alone is 2.5 kB of the wasm's gzip budget
// (maxWasmGzip), and a method that uses it is linked whether the page
// calls it or not (Ebiten's text/template reaches reflect's MethodByName,
// which keeps every exported method of every type the program can reach):
// engine/topology's tree JSON is native only for that reason.
func TestWasmLeavesOutJSON(t *testing.T) {
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command on PATH to list the wasm's packages")
	}
	cmd := exec.CommandContext(t.Context(), goTool, "list", "-deps", "-f", `{{.ImportPath}}: {{join .Imports " "}}`, ".")
	cmd.Env = append(os.Environ(), "GOOS=js", "GOARCH=wasm", "CGO_ENABLED=0")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("GOOS=js GOARCH=wasm go list -deps: %v\n%s", err, out)
	}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		pkg, imports, _ := strings.Cut(line, ": ")
		if slices.Contains(strings.Fields(imports), "encoding/json") {
			t.Errorf("%s imports encoding/json into the wasm: keep what uses it out of the js build (see engine/topology/tree_json.go)", pkg)
		}
	}
}

// TestWasmCallsErrf: the code the page links calls errf.Errorf, not
// fmt.Errorf, which Go 1.26 inlines at every call site (9 kB of the
// wasm's gzip budget at 249 sites; internal/errf says why). Files the js
// build leaves out may use either.
func TestWasmCallsErrf(t *testing.T) {
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command on PATH to list the wasm's packages")
	}
	cmd := exec.CommandContext(t.Context(), goTool, "list", "-deps", "-f", `{{if not .Standard}}{{$d := .Dir}}{{range .GoFiles}}{{$d}}/{{.}}{{"\n"}}{{end}}{{end}}`, ".")
	cmd.Env = append(os.Environ(), "GOOS=js", "GOARCH=wasm", "CGO_ENABLED=0")
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("GOOS=js GOARCH=wasm go list -deps: %v", err)
	}
	root := repoRoot(t) + string(filepath.Separator)
	checked := 0
	for _, path := range strings.Fields(string(out)) {
		if !strings.HasPrefix(path, root) || strings.HasPrefix(path, filepath.Join(root, "internal", "errf")+string(filepath.Separator)) {
			continue // a module's package (Ebiten, x/image), or errf itself
		}
		src, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		checked++
		if n := strings.Count(string(src), "fmt.Errorf("); n > 0 {
			t.Errorf("%s calls fmt.Errorf %d times: the page links it; call errf.Errorf (commlab/internal/errf)", path, n)
		}
	}
	if checked < 50 {
		t.Fatalf("checked %d of the page's files: is the list right?", checked)
	}
}

// repoRoot is the module's directory, the parent of wasm/.
func repoRoot(t *testing.T) string {
	wd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	return filepath.Dir(wd)
}

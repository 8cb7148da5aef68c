//go:build !(js && wasm)

package main

import (
	"os"
	"os/exec"
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

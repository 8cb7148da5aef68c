//go:build !(js && wasm)

package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"commlab/cmd/internal/budget"
	"commlab/engine/cost"
	"commlab/scene/catalog"
)

// TestBudget: issue 16's case, the butterfly at P = 64 with N = 1e9 and a
// jitter window every microsecond (over 4 GB of trace spans), is refused on
// a machine of 8 GB before anything is built, naming the parameters, and
// writes no file; -force lifts the budget (shown with the defaults under a
// budget of a few bytes, so the test stays small).
func TestBudget(t *testing.T) {
	old := cliBudget
	t.Cleanup(func() { cliBudget = old })
	limit := 4e9
	cliBudget = func(force bool) cost.Budget {
		if force {
			return cost.Unlimited
		}
		return cost.Budget{Name: "the command", Bytes: limit, Seconds: budget.Seconds, Force: "-force"}
	}
	dir := t.TempDir()
	png := filepath.Join(dir, "b.png")
	var out, errb bytes.Buffer
	err := run(&out, &errb, []string{"-query", "scene=butterfly&P=64&N=1e9&period=1e-6&duration=1e-7", "-png", png}, catalog.All())
	if err == nil {
		t.Fatal("built, want a refusal")
	}
	for _, n := range []string{"period", "P = 64", "N = 1e9", "jitter windows", "GB", "-force runs it anyway"} {
		if !strings.Contains(err.Error(), n) {
			t.Errorf("message does not name %q: %v", n, err)
		}
	}
	if _, err := os.Stat(png); !os.IsNotExist(err) {
		t.Errorf("refused but wrote %s: %v", png, err)
	}

	limit = 10
	if err := run(&out, &errb, []string{"-png", png}, catalog.All()); err == nil {
		t.Errorf("the defaults under a budget of 10 bytes: built, want a refusal")
	}
	if err := run(&out, &errb, []string{"-png", png, "-force"}, catalog.All()); err != nil {
		t.Errorf("-force: %v", err)
	}
	if _, err := os.Stat(png); err != nil {
		t.Errorf("-force wrote no file: %v", err)
	}
}

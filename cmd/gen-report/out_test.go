package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestOutProblemsBeforeTheSweep checks that a -out gen-report cannot use is
// reported at once, naming -out, not after minutes of sweeping: an existing
// file, a non-empty directory it did not write, and merge -out FILE.
func TestOutProblemsBeforeTheSweep(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "file")
	os.WriteFile(file, []byte("x"), 0o644)
	full := filepath.Join(dir, "full")
	os.MkdirAll(full, 0o755)
	os.WriteFile(filepath.Join(full, "notes.txt"), []byte("mine"), 0o644)
	for _, args := range [][]string{
		{"-out", file},
		{"-out", full},
		{"merge", "-out", file, "part.json"},
	} {
		_, stderr, err := runCmd(t, args...)
		if err == nil || !strings.Contains(err.Error(), "-out") {
			t.Errorf("%q: err = %v, want one naming -out", args, err)
		}
		if strings.Contains(stderr, "started") { // a study's first progress line
			t.Errorf("%q: a sweep started before the -out error: %q", args, stderr)
		}
	}
	if b, err := os.ReadFile(filepath.Join(full, "notes.txt")); err != nil || string(b) != "mine" {
		t.Errorf("the non-empty directory was touched: %q %v", b, err)
	}
}

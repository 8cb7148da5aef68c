package clitest

import (
	"bytes"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Update is the -update flag of every test binary that imports clitest.
var Update = flag.Bool("update", false, "rewrite testdata goldens from the current code")

// Cmd is a command as gen-report's main runs it: args without the
// program's name.
type Cmd func(stdout, stderr io.Writer, args []string) error

// Evaluator is what Eval needs of a study (study.Study).
type Evaluator interface {
	Name() string
	Eval(stdout, stderr io.Writer, args []string) error
}

// Eval is s's eval command as main dispatches it: "eval NAME args...".
func Eval(s Evaluator) Cmd {
	return func(stdout, stderr io.Writer, args []string) error {
		if len(args) < 2 || args[0] != "eval" || args[1] != s.Name() {
			return fmt.Errorf("clitest: want eval %s ..., got %q", s.Name(), args)
		}
		return s.Eval(stdout, stderr, args[2:])
	}
}

// Golden compares got with testdata/name, or rewrites it with -update.
func Golden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *Update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (go test -update creates it)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs from its golden (%d bytes, want %d); go test -update after a deliberate change", name, len(got), len(want))
	}
}

// Run runs cmd with args and returns what it printed.
func Run(t *testing.T, cmd Cmd, args ...string) (stdout, stderr string, err error) {
	t.Helper()
	var o, e bytes.Buffer
	err = cmd(&o, &e, args)
	return o.String(), e.String(), err
}

// BadInput runs cmd with args and expects one line of error containing
// want, and nothing on stdout (no partial output).
func BadInput(t *testing.T, cmd Cmd, args, want string) {
	t.Helper()
	out, _, err := Run(t, cmd, strings.Fields(args)...)
	if err == nil || !strings.Contains(err.Error(), want) {
		t.Fatalf("got %v, want an error containing %q", err, want)
	}
	if strings.Contains(err.Error(), "\n") {
		t.Errorf("error is not one line: %q", err)
	}
	if out != "" {
		t.Errorf("printed %q on stdout despite the error", out)
	}
}

// EvalGolden runs cmd with args, compares stdout with testdata/name
// (-update rewrites it), and runs it again: the same arguments must print
// the same bytes.
func EvalGolden(t *testing.T, cmd Cmd, name, args string) {
	t.Helper()
	out, _, err := Run(t, cmd, strings.Fields(args)...)
	if err != nil {
		t.Fatal(err)
	}
	Golden(t, name, []byte(out))
	if again, _, _ := Run(t, cmd, strings.Fields(args)...); again != out {
		t.Fatal("same arguments, different output")
	}
}

// ReadTree returns every file under dir, path -> bytes.
func ReadTree(t *testing.T, dir string) map[string][]byte {
	t.Helper()
	files := map[string][]byte{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(p)
		rel, _ := filepath.Rel(dir, p)
		files[filepath.ToSlash(rel)] = b
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return files
}

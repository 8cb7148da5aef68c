//go:build unix

package outfile

import (
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestSignalRemovesTheTemporaryFile runs this test binary as a child that
// starts writing an output and hangs half-way; SIGINT, SIGTERM, SIGHUP
// (the terminal closed) and SIGQUIT must each remove its temporary file,
// leave the old output as it was, and exit with 128 + the signal; SIGQUIT
// also prints the goroutines' stacks, as Go does.
func TestSignalRemovesTheTemporaryFile(t *testing.T) {
	if dir := os.Getenv("OUTFILE_CHILD_DIR"); dir != "" {
		CleanOnSignal()
		Write(filepath.Join(dir, "out.png"), nil, func(w io.Writer) error {
			io.WriteString(w, "half")
			w.(interface{ Flush() error }).Flush()
			os.WriteFile(filepath.Join(dir, "ready"), nil, 0o644)
			select {} // hang until the signal
		})
		return
	}
	for _, sig := range []syscall.Signal{syscall.SIGINT, syscall.SIGTERM, syscall.SIGHUP, syscall.SIGQUIT} {
		dir := t.TempDir()
		os.WriteFile(filepath.Join(dir, "out.png"), []byte("old"), 0o644)
		cmd := exec.Command(os.Args[0], "-test.run=^TestSignalRemovesTheTemporaryFile$")
		cmd.Env = append(os.Environ(), "OUTFILE_CHILD_DIR="+dir)
		var stderr strings.Builder
		cmd.Stderr = &stderr
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		deadline := time.Now().Add(30 * time.Second)
		for {
			if _, err := os.Stat(filepath.Join(dir, "ready")); err == nil {
				break
			}
			if time.Now().After(deadline) {
				cmd.Process.Kill()
				t.Fatal("the child never started writing")
			}
			time.Sleep(20 * time.Millisecond)
		}
		cmd.Process.Signal(sig)
		err := cmd.Wait()
		var ee *exec.ExitError
		if !errors.As(err, &ee) || ee.ExitCode() != 128+int(sig) {
			t.Errorf("%v: the child ended with %v, want exit status %d", sig, err, 128+int(sig))
		}
		if got := stderr.String(); !strings.Contains(got, "temporary output removed") || (sig == syscall.SIGQUIT) != strings.Contains(got, "goroutine ") {
			t.Errorf("%v: stderr %.200q: want the note, and the stacks for SIGQUIT only", sig, got)
		}
		entries, _ := os.ReadDir(dir)
		for _, e := range entries {
			if strings.Contains(e.Name(), ".tmp-") {
				t.Errorf("%v: the temporary file %s was left", sig, e.Name())
			}
		}
		if b, _ := os.ReadFile(filepath.Join(dir, "out.png")); string(b) != "old" {
			t.Errorf("%v: the output holds %q, want the old file untouched", sig, b)
		}
	}
}

//go:build unix

package outfile

import (
	"bytes"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

func text(s string) func(io.Writer) error {
	return func(w io.Writer) error { _, err := io.WriteString(w, s); return err }
}

func read(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestNewFileGetsTheUmasksMode(t *testing.T) {
	old := syscall.Umask(0o027)
	defer syscall.Umask(old)
	path := filepath.Join(t.TempDir(), "a.png")
	if err := Write(path, nil, text("png")); err != nil {
		t.Fatal(err)
	}
	fi, _ := os.Stat(path)
	if fi.Mode().Perm() != 0o640 || read(t, path) != "png" {
		t.Errorf("new file: mode %v, %q; want 0640 (0644 less umask 027) and the data", fi.Mode().Perm(), read(t, path))
	}
}

func TestExistingFileKeepsItsMode(t *testing.T) {
	path := filepath.Join(t.TempDir(), "a.png")
	os.WriteFile(path, []byte("old"), 0o600)
	os.Chmod(path, 0o600)
	if err := Write(path, nil, text("new")); err != nil {
		t.Fatal(err)
	}
	if fi, _ := os.Stat(path); fi.Mode().Perm() != 0o600 || read(t, path) != "new" {
		t.Errorf("mode %v, data %q; want 0600 kept and the new data", fi.Mode().Perm(), read(t, path))
	}
}

func TestSymlinkWritesItsTarget(t *testing.T) {
	dir := t.TempDir()
	target, link := filepath.Join(dir, "target.png"), filepath.Join(dir, "link.png")
	os.WriteFile(target, []byte("old"), 0o644)
	os.Symlink("target.png", link)
	if err := Write(link, nil, text("new")); err != nil {
		t.Fatal(err)
	}
	if fi, _ := os.Lstat(link); fi.Mode()&os.ModeSymlink == 0 {
		t.Error("the link was replaced by a file")
	}
	if read(t, target) != "new" {
		t.Errorf("target holds %q, want new", read(t, target))
	}
}

func TestFIFOAndDeviceAreWrittenThrough(t *testing.T) {
	fifo := filepath.Join(t.TempDir(), "pipe")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Skip("no mkfifo:", err)
	}
	got := make(chan string)
	go func() {
		b, _ := os.ReadFile(fifo)
		got <- string(b)
	}()
	if err := Write(fifo, nil, text("through")); err != nil {
		t.Fatal(err)
	}
	select {
	case s := <-got:
		if s != "through" {
			t.Errorf("the FIFO's reader got %q", s)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("nothing came through the FIFO")
	}
	if fi, _ := os.Lstat(fifo); fi.Mode()&os.ModeNamedPipe == 0 {
		t.Error("the FIFO was replaced")
	}
	if err := Write("/dev/null", nil, text("x")); err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Lstat("/dev/null"); err != nil || fi.Mode()&os.ModeDevice == 0 {
		t.Errorf("/dev/null is no longer a device: %v %v", fi.Mode(), err)
	}
	if _, err := os.Stat("/dev/full"); err == nil {
		if err := Write("/dev/full", nil, text("x")); err == nil {
			t.Error("writing /dev/full succeeded; want ENOSPC")
		}
	}
}

func TestDashIsStdout(t *testing.T) {
	var b bytes.Buffer
	if err := Write("-", &b, text("out")); err != nil || b.String() != "out" {
		t.Errorf("Write(-) = %v, stdout %q", err, b.String())
	}
}

func TestFailureKeepsTheOldFileAndLeavesNoTemp(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "a.png")
	os.WriteFile(path, []byte("old"), 0o644)
	err := Write(path, nil, func(io.Writer) error { return errors.New("boom") })
	if err == nil || read(t, path) != "old" {
		t.Errorf("err %v, file %q; want the error and the old file", err, read(t, path))
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 1 {
		t.Errorf("%d entries left, want the file alone", len(entries))
	}
}

func TestStaleTempsAreRemoved(t *testing.T) {
	dir := t.TempDir()
	stale, fresh := filepath.Join(dir, ".a.png.tmp-00000001"), filepath.Join(dir, ".a.png.tmp-00000002")
	for _, p := range []string{stale, fresh} {
		os.WriteFile(p, []byte("x"), 0o644)
	}
	old := time.Now().Add(-2 * StaleAfter)
	os.Chtimes(stale, old, old)
	if err := Write(filepath.Join(dir, "a.png"), nil, text("new")); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(stale); err == nil {
		t.Error("a temporary file two hours old was left")
	}
	if _, err := os.Stat(fresh); err != nil {
		t.Error("a fresh temporary file (another run's, maybe) was removed")
	}
}

func TestRemoveTemps(t *testing.T) {
	dir := filepath.Join(t.TempDir(), ".r.new-1")
	os.MkdirAll(filepath.Join(dir, "data"), 0o755)
	Track(dir)
	RemoveTemps()
	if _, err := os.Stat(dir); err == nil || !strings.Contains(err.Error(), "no such") {
		t.Errorf("a tracked directory survived RemoveTemps: %v", err)
	}
}

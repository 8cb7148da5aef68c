package outfile

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math/rand/v2"
	"os"
	"os/signal"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"syscall"
	"time"
)

// StaleAfter is the age after which a temporary file of a name is taken
// for one a killed run left behind: no write of these commands takes an
// hour between creating its temporary file and renaming it.
const StaleAfter = time.Hour

// Write writes the output named path with write. stdout is where "-" goes.
func Write(path string, stdout io.Writer, write func(io.Writer) error) error {
	if path == "-" {
		bw := bufio.NewWriter(stdout)
		if err := write(bw); err != nil {
			return err
		}
		return bw.Flush()
	}
	fi, err := os.Lstat(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return atomic(path, 0, write)
	case err != nil:
		return err
	case fi.Mode()&fs.ModeSymlink != 0:
		target, err := filepath.EvalSymlinks(path)
		if err != nil { // a dangling link: create its target through it
			return through(path, write)
		}
		return Write(target, stdout, write)
	case fi.IsDir():
		return fmt.Errorf("%s is a directory", path)
	case !fi.Mode().IsRegular():
		return through(path, write)
	}
	return atomic(path, fi.Mode().Perm(), write)
}

// through writes into the file as it is: a FIFO, a device, a link's target.
func through(path string, write func(io.Writer) error) error {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o644)
	if err != nil {
		return err
	}
	bw := bufio.NewWriter(f)
	if err := write(bw); err != nil {
		f.Close()
		return err
	}
	if err := bw.Flush(); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// atomic writes a temporary file beside path and renames it into place;
// mode 0 means a new file, 0644 less the umask (the kernel applies it).
func atomic(path string, mode fs.FileMode, write func(io.Writer) error) (err error) {
	dir, base := filepath.Split(path)
	if dir == "" {
		dir = "."
	}
	removeStale(dir, base)
	f, tmp, err := create(dir, base)
	if err != nil {
		return err
	}
	track(tmp)
	defer func() {
		if err != nil {
			f.Close()
			os.Remove(tmp)
		}
		untrack(tmp)
	}()
	if mode != 0 {
		if err := f.Chmod(mode); err != nil {
			return err
		}
	}
	bw := bufio.NewWriter(f)
	if err := write(bw); err != nil {
		return err
	}
	if err := bw.Flush(); err != nil {
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	return os.Rename(tmp, path)
}

// tempPrefix is the start of the temporary files of base.
func tempPrefix(base string) string { return "." + base + ".tmp-" }

func create(dir, base string) (*os.File, string, error) {
	for range 100 {
		name := filepath.Join(dir, fmt.Sprintf("%s%08x", tempPrefix(base), rand.Uint32()))
		f, err := os.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
		if errors.Is(err, fs.ErrExist) {
			continue
		}
		return f, name, err
	}
	return nil, "", fmt.Errorf("cannot make a temporary file for %s in %s", base, dir)
}

// removeStale removes the temporary files of base that a killed run left.
func removeStale(dir, base string) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return
	}
	for _, e := range entries {
		if !strings.HasPrefix(e.Name(), tempPrefix(base)) {
			continue
		}
		if fi, err := e.Info(); err == nil && fi.Mode().IsRegular() && time.Since(fi.ModTime()) > StaleAfter {
			os.Remove(filepath.Join(dir, e.Name()))
		}
	}
}

var temps struct {
	sync.Mutex
	names map[string]bool
}

// Track registers a temporary file or directory for removal on a signal
// that ends the command (CleanOnSignal); Untrack takes it off once it is renamed.
func Track(name string)   { track(name) }
func Untrack(name string) { untrack(name) }

func track(name string) {
	temps.Lock()
	defer temps.Unlock()
	if temps.names == nil {
		temps.names = map[string]bool{}
	}
	temps.names[name] = true
}

func untrack(name string) {
	temps.Lock()
	defer temps.Unlock()
	delete(temps.names, name)
}

// RemoveTemps removes every tracked temporary file or directory.
func RemoveTemps() {
	temps.Lock()
	defer temps.Unlock()
	for name := range temps.names {
		os.RemoveAll(name)
	}
	temps.names = nil
}

// CleanOnSignal makes the signals that end a command (SIGINT, SIGTERM,
// and on Unix SIGHUP, when the terminal closes, and SIGQUIT) remove the
// tracked temporary files and exit with 128 + the signal's number, as the
// shell reports a command the signal killed. SIGQUIT keeps its meaning for
// a Go program, a dump of every goroutine's stack on stderr to see where a
// run hung, after the files are removed. Commands call it first thing in
// main.
func CleanOnSignal() {
	c := make(chan os.Signal, 1)
	signal.Notify(c, cleanSignals...)
	go func() {
		sig := <-c
		RemoveTemps()
		fmt.Fprintf(os.Stderr, "%s: stopped by %v; temporary output removed\n", filepath.Base(os.Args[0]), sig)
		if sig == quitSignal {
			os.Stderr.Write(stacks())
		}
		code := 128 + 15
		if n, ok := sig.(syscall.Signal); ok {
			code = 128 + int(n)
		}
		os.Exit(code)
	}()
}

// stacks is every goroutine's stack, as Go's own SIGQUIT prints them (up
// to 64 MB).
func stacks() []byte {
	for n := 1 << 16; ; n *= 2 {
		b := make([]byte, n)
		if k := runtime.Stack(b, true); k < n || n >= 64<<20 {
			return b[:k]
		}
	}
}
